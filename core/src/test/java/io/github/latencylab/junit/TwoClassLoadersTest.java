package io.github.latencylab.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.wire.JvmWide;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * latency-lab loaded twice in one JVM, as Quarkus loads it for a {@code @QuarkusTest} class: a
 * framework's loader holds latency-lab and the test class, while JUnit and pgjdbc (which makes the
 * counting socket factory by name) come from the class path. The connections still count on the
 * Lab the budget reads, and there is one Lab for the run.
 */
class TwoClassLoadersTest {

  @Test
  void aLabStartedByAFrameworksCopyCountsTheConnectionsPgjdbcMakesOnTheClassPath()
      throws Exception {
    long numberedHere = JvmWide.nextLabNumber();
    try (FrameworkLoader framework = new FrameworkLoader()) {
      @SuppressWarnings("unchecked")
      Callable<String> other = (Callable<String>) framework
          .loadClass(LabInTheFrameworksLoader.class.getName()).getConstructor().newInstance();
      assertThat(other.getClass()).as("the probe's class, loaded again")
          .isNotSameAs(LabInTheFrameworksLoader.class);
      String[] idAndCount = other.call().split(" ");
      assertThat(idAndCount[1]).as("round trips of three SELECTs on the framework copy's Lab")
          .isEqualTo("3");
      assertThat(Long.parseLong(idAndCount[0].replaceAll(".*-", "")))
          .as("Lab numbers are the JVM's, not a class loader's").isGreaterThan(numberedHere);
    }
  }

  @Test
  void aTestInTheFrameworksLoaderAndOneOnTheClassPathShareOneLabAndItsBudgets()
      throws Exception {
    try (FrameworkLoader framework = new FrameworkLoader()) {
      Class<?> quarkusLike = framework.loadClass(FrameworkLoadedTest.class.getName());
      Events tests = EngineTestKit.engine("junit-jupiter")
          .configurationParameter("latencylab.backend", "embedded")
          .selectors(selectClass(quarkusLike), selectClass(ClassPathLoadedTest.class))
          .execute().testEvents();
      tests.assertThatEvents()
          .haveExactly(1, event(test("twoSelectsWithinTheirBudget"), finishedSuccessfully()))
          .haveExactly(1, event(test("twoSelectsOverABudgetOfOne"), finishedWithFailure(
              message(m -> m.contains("expected at most 1 round trip, but there were 2")))))
          .haveExactly(1, event(test("assertionsInCodeCountOnTheRunsLabToo"),
              finishedSuccessfully()))
          .haveExactly(1, event(test("theClassPathsTest"), finishedSuccessfully()));
      assertThat(System.getProperty("probe.framework.url")).as("the framework test's Lab")
          .isNotNull().isEqualTo(System.getProperty("probe.classpath.url"));
      assertThat(System.getProperty("probe.framework.extension"))
          .as("the framework test's own copy of the extension").isNotEqualTo(
              String.valueOf(System.identityHashCode(LabExtension.class)));
    } finally {
      System.clearProperty("probe.framework.url");
      System.clearProperty("probe.framework.extension");
      System.clearProperty("probe.classpath.url");
    }
  }

  private static String counterName(String jdbcUrl) {
    return jdbcUrl.replaceAll(".*[?&]socketFactoryArg=([^&]*).*", "$1");
  }

  private static LabConfig embedded() {
    return LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED);
  }

  private static void selects(int n) throws Exception {
    try (Connection c = DriverManager.getConnection(System.getProperty(LabExtension.URL_PROPERTY),
        System.getProperty(LabExtension.USER_PROPERTY),
        System.getProperty(LabExtension.PASSWORD_PROPERTY)); Statement s = c.createStatement()) {
      c.setAutoCommit(true);
      for (int i = 0; i < n; i++) {
        s.execute("SELECT " + i);
      }
    }
  }

  /** Run by the framework's copy: a Lab of its own, and pgjdbc of the class path. */
  public static final class LabInTheFrameworksLoader implements Callable<String> {
    @Override
    public String call() throws Exception {
      try (Lab lab = Lab.start(embedded());
          Connection c = DriverManager.getConnection(lab.jdbcUrl(), lab.target().user(),
              lab.target().password());
          Statement s = c.createStatement()) {
        long before = lab.wire().snapshot().roundTrips();
        for (int i = 0; i < 3; i++) {
          s.execute("SELECT " + i);
        }
        return counterName(lab.jdbcUrl()) + " " + (lab.wire().snapshot().roundTrips() - before);
      }
    }
  }

  /** Loaded by the framework's loader, with its own LabExtension; run by the kit only. */
  @ExtendWith(LabExtension.class)
  static class FrameworkLoadedTest {
    @Test
    @ExpectRoundTrips(max = 2)
    void twoSelectsWithinTheirBudget() throws Exception {
      System.setProperty("probe.framework.url", System.getProperty(LabExtension.URL_PROPERTY));
      System.setProperty("probe.framework.extension",
          String.valueOf(System.identityHashCode(LabExtension.class)));
      selects(2);
    }

    @Test
    @ExpectRoundTrips(max = 1)
    void twoSelectsOverABudgetOfOne() throws Exception {
      selects(2);
    }

    @Test
    void assertionsInCodeCountOnTheRunsLabToo() {
      RoundTrips.assertExactly(2, () -> selects(2)); // this copy has no Lab of its own
    }
  }

  /** On the class path, in the same run. */
  @ExtendWith(LabExtension.class)
  static class ClassPathLoadedTest {
    @Test
    @ExpectRoundTrips(exactly = 1)
    void theClassPathsTest() throws Exception {
      System.setProperty("probe.classpath.url", System.getProperty(LabExtension.URL_PROPERTY));
      selects(1);
    }
  }

  /**
   * Loads latency-lab (and these tests) itself, from its own class and test class folders,
   * and leaves everything else to the class path: JUnit, pgjdbc, the JDK.
   */
  static final class FrameworkLoader extends URLClassLoader {
    FrameworkLoader() {
      super("framework-like", new URL[] {codeOf(Lab.class), codeOf(TwoClassLoadersTest.class)},
          TwoClassLoadersTest.class.getClassLoader());
    }

    private static URL codeOf(Class<?> type) {
      return type.getProtectionDomain().getCodeSource().getLocation();
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.startsWith("io.github.latencylab.")) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          c = findClass(name);
        }
        return c;
      }
    }

    @Override
    public void close() throws IOException {
      super.close();
    }
  }
}
