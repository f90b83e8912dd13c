package io.github.latencylab.bench.suite;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.env.Setting;
import io.github.latencylab.junit.SharedLab;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Launches the benchmarks' suites ({@link RepositoryTests}) with JUnit's own launcher, as
 * surefire does, on one Lab held open across the runs (each run would otherwise start its
 * own), with the report and the audit on or off for the whole JVM (a fork of one benchmark).
 * The report's files go to a directory of its own, with no baseline to gate against. The test
 * classes are loaded from a directory of classes, as a build's are ({@link
 * TestClassesDirectory}): their frames are the application's call sites.
 */
final class SuiteLauncher implements AutoCloseable {

  private final Launcher launcher = LauncherFactory.create();
  private final SharedLab.Lease lab;
  private final Path dir;
  private final TestClassesDirectory tests;

  private SuiteLauncher(SharedLab.Lease lab, Path dir) {
    this.lab = lab;
    this.dir = dir;
    this.tests = TestClassesDirectory.of(RepositoryTests.class, dir.resolve("test-classes"));
  }

  static SuiteLauncher start(boolean report, boolean audit) throws IOException {
    Path dir = Files.createTempDirectory("latency-lab-suite");
    System.setProperty(Setting.BACKEND.property(),
        System.getProperty(Setting.BACKEND.property(), "embedded"));
    System.setProperty(Setting.REPORT.property(), String.valueOf(report));
    System.setProperty(Setting.AUDIT.property(), String.valueOf(audit));
    System.setProperty(Setting.REPORT_DIR.property(), dir.resolve("report").toString());
    System.setProperty(Setting.REPORT_BASELINE.property(),
        dir.resolve("latency-baseline.json").toString());
    System.setProperty(Setting.FINDINGS.property(),
        dir.resolve("latency-findings.json").toString());
    SharedLab.Lease lab = SharedLab.hold();
    LabEnvironment env = lab.lab().environment();
    // the environment of the numbers, one line (docs/results/suite-cost.sh keeps it)
    System.out.println("suite on: " + env.backend() + " PostgreSQL " + env.postgresVersion()
        + " (" + new java.util.TreeMap<>(env.postgresSettings()).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(", ")) + "), Toxiproxy " + env.toxiproxyVersion()
        + ", pgjdbc " + env.pgjdbcVersion() + ", added RTT " + lab.lab().rtt() + ", "
        + env.cpus() + " CPUs");
    return new SuiteLauncher(lab, dir);
  }

  /**
   * Runs {@code classes} with JUnit's configuration parameters {@code config}; the number of
   * tests that passed. A test that fails (a budget that did not hold) fails the benchmark: its
   * time would not be the suite's.
   */
  long run(Map<String, String> config, Class<?>... classes) {
    return run(config, new TestExecutionListener() { }, classes);
  }

  /** {@link #run(Map, Class[])}, {@code watching} told of each test as surefire's are. */
  long run(Map<String, String> config, TestExecutionListener watching, Class<?>... classes) {
    LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request()
        .configurationParameters(config);
    for (Class<?> c : classes) {
      request.selectors(selectClass(tests.load(c)));
    }
    LauncherDiscoveryRequest built = request.build();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    launcher.execute(built, listener, watching);
    TestExecutionSummary summary = listener.getSummary();
    if (summary.getTotalFailureCount() > 0 || summary.getTestsSucceededCount() == 0) {
      throw new IllegalStateException(summary.getTotalFailureCount() + " of "
          + summary.getTestsFoundCount() + " tests failed" + summary.getFailures().stream()
          .findFirst().map(f -> ", the first: " + f.getTestIdentifier().getDisplayName()
              + ": " + f.getException()).orElse(""));
    }
    return summary.getTestsSucceededCount();
  }

  @Override
  public void close() throws IOException {
    tests.call("closePool");
    lab.close();
    try (Stream<Path> written = Files.walk(dir)) {
      for (Path p : written.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
