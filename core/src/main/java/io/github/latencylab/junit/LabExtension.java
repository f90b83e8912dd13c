package io.github.latencylab.junit;

import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.Setting;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Series;
import io.github.latencylab.wire.CallSites;
import io.github.latencylab.wire.JvmWide;
import io.github.latencylab.wire.WireCounter;
import io.github.latencylab.wire.WireDataSource;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.DynamicTestInvocationContext;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ExtensionContext.Store;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.AssertionFailedError;

/**
 * A Lab for JUnit 5 tests: started on first use and shared by every test of the run (kept in
 * the root {@link ExtensionContext.Store}, closed when the run ends), one per distinct
 * configuration.
 *
 * <pre>{@code
 * @ExtendWith(LabExtension.class)
 * class AuthorRepositoryTest {
 *   @Test
 *   @ExpectRoundTrips(max = 2)
 *   void findAllIsOneQuery(DataSource dataSource) { ... }
 * }
 * }</pre>
 *
 * <p>Injects parameters of type {@link Lab}, {@link DataSource} / {@link WireDataSource}
 * (connections through the proxy, counted), {@link Connection} (one such connection, closed
 * after the test) and {@link WireCounter} (the Lab's, every connection). Checks {@link
 * ExpectRoundTrips} and {@link ExpectStatements} on test methods, and makes the Lab the one
 * {@link RoundTrips}' static assertions count on. The annotations work on a class too (for
 * each of its test methods without its own), and count every thread the test starts.
 *
 * <p>Your own pool or framework can point at the Lab: once the Lab is up (in {@code
 * beforeAll}), the system properties {@value #URL_PROPERTY} (the JDBC URL through the proxy,
 * counted), {@value #USER_PROPERTY} and {@value #PASSWORD_PROPERTY} hold where to connect, e.g.
 * {@code spring.datasource.url=${latencylab.lab.url}} or {@code
 * hikariConfig.setJdbcUrl(System.getProperty("latencylab.lab.url"))}. The password is the
 * Lab's own throwaway one (or, on the external backend, the one you gave it); latency-lab
 * never prints it.
 *
 * <p>With {@code latencylab.report=true} every test under the extension records its wire cost
 * into {@code target/latency-report/} and is checked against the committed baseline ({@link
 * LatencyReport}).
 *
 * <p>Settings: {@link LabConfig#fromEnvironment()} (so {@code -Dlatencylab.backend=embedded}
 * works), overridden by JUnit configuration parameters of the same names (e.g. in
 * {@code junit-platform.properties}); or, registered with {@code @RegisterExtension}, the
 * configuration given to {@link #withConfig}.
 *
 * <p>One run, one Lab, whatever the class loaders: where a framework loaded latency-lab again
 * (Quarkus loads a {@code @QuarkusTest} class and its libraries in a loader of its own), this
 * extension hands every callback to the copy on the system class path, so that every test's
 * budget reads the Lab the application's connections count on.
 */
public final class LabExtension implements ParameterResolver, BeforeAllCallback,
    BeforeEachCallback, AfterEachCallback, InvocationInterceptor {

  /** The system property that holds the Lab's JDBC URL (through the proxy, counted). */
  public static final String URL_PROPERTY = "latencylab.lab.url";
  /** The system property that holds the Lab's user name. */
  public static final String USER_PROPERTY = "latencylab.lab.user";
  /** The system property that holds the Lab's password (a throwaway one; never printed). */
  public static final String PASSWORD_PROPERTY = "latencylab.lab.password";

  private static final Namespace NAMESPACE = Namespace.create(LabExtension.class);
  // a template's invocation, a dynamic test or container: "[test-template-invocation:#2]"
  private static final java.util.Set<String> INVOCATIONS =
      java.util.Set.of("test-template-invocation", "dynamic-test", "dynamic-container");
  private static final String PREVIOUS = "previous lab";
  private static final String COUNTED = "counted";
  private static final ThreadLocal<Lab> CURRENT = new ThreadLocal<>();
  private static volatile Lab lastStarted;

  private final LabConfig config;
  // this extension of the copy of latency-lab on the system class path, when this copy is
  // another: JUnit's types are the same in both, so its callbacks take this one's arguments
  private final Extension root;

  /** Settings from the environment and JUnit's configuration parameters. */
  public LabExtension() {
    this(null);
  }

  private LabExtension(LabConfig config) {
    this.config = config;
    this.root = config != null ? null : JvmWide.rootCopy(LabExtension.class)
        .map(LabExtension::instantiate).orElse(null);
  }

  private static Extension instantiate(Class<?> rootCopy) {
    try {
      Object root = rootCopy.getConstructor().newInstance();
      if (root instanceof BeforeAllCallback && root instanceof InvocationInterceptor
          && root instanceof ParameterResolver) {
        return (Extension) root;
      }
      throw new IllegalStateException("JUnit is loaded twice too (by "
          + JvmWide.describe(rootCopy.getClassLoader()) + " and by "
          + JvmWide.describe(Extension.class.getClassLoader()) + ")");
    } catch (ReflectiveOperationException e) {
      throw JvmWide.copiesDoNotMatch(LabExtension.class, rootCopy, e);
    }
  }

  /**
   * For {@code @RegisterExtension static final LabExtension LAB = LabExtension.withConfig(
   * LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));}.
   */
  public static LabExtension withConfig(LabConfig config) {
    return new LabExtension(Objects.requireNonNull(config, "config"));
  }

  /** The Lab of this extension's configuration, started on first use in this test run. */
  public Lab lab(ExtensionContext context) {
    if (root != null) {
      throw new IllegalStateException("The run's Lab belongs to latency-lab as "
          + JvmWide.describe(root.getClass().getClassLoader()) + " loaded it, not as "
          + JvmWide.describe(LabExtension.class.getClassLoader()) + " did (a framework loaded"
          + " it again): take a DataSource or Connection parameter, or ${" + URL_PROPERTY
          + "}");
    }
    LabConfig resolved = config != null ? config : configFrom(context);
    Store store = context.getRoot().getStore(NAMESPACE);
    // found by the settings' instance first (a run's are resolved once): their text, the key
    // that Labs of equal settings share, is long to build for every test
    Lab lab = store.getOrComputeIfAbsent(new Of("lab", resolved),
        key -> new LabOf(leased(store, resolved)),
        LabOf.class).lab();
    lastStarted = lab;
    return lab;
  }

  // a Lease is AutoCloseable: the root store closes it (once) when the run ends; a framework's
  // entry (SharedLab) may have started the Lab first, and the run's end releases it
  private static Lab leased(Store store, LabConfig resolved) {
    return store.getOrComputeIfAbsent("lab " + resolved, key -> SharedLab.lease(resolved),
        SharedLab.Lease.class).lab();
  }

  // the run's Lab by the settings' instance: not closeable, the lease is closed once
  private record LabOf(Lab lab) {
  }

  // a store key: what, for settings of one instance (LabConfig's equality is its identity);
  // looked up a few times a test: equals and hashCode written out, since a record's run
  // through method handles, slow in a fresh JVM's first tests
  private record Of(String what, LabConfig config) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Of other && other.config == config && other.what.equals(what);
    }

    @Override
    public int hashCode() {
      return what.hashCode() * 31 + System.identityHashCode(config);
    }
  }

  static Lab started(LabConfig config) {
    callSites(config);
    Lab lab = Lab.start(config);
    expose(lab);
    return lab;
  }

  /** {@code config}'s call-site prefixes, added to this JVM's. */
  static void callSites(LabConfig config) {
    CallSites.exclude(prefixes(config.get(Setting.CALL_SITES_EXCLUDE)));
    CallSites.include(prefixes(config.get(Setting.CALL_SITES_INCLUDE)));
  }

  private static List<String> prefixes(String commaSeparated) {
    return Arrays.stream(commaSeparated.split(",")).map(String::strip)
        .filter(p -> !p.isEmpty()).toList();
  }

  private static void expose(Lab lab) {
    System.setProperty(URL_PROPERTY, lab.jdbcUrl());
    System.setProperty(USER_PROPERTY, lab.target().user());
    System.setProperty(PASSWORD_PROPERTY, lab.target().password());
  }

  /** True when the run is audited ({@code latencylab.audit=true}). */
  static boolean auditing(ExtensionContext context) {
    return configFrom(context).audit();
  }

  /** The report of this run, when {@code latencylab.report=true} or the run is audited. */
  private Optional<LatencyReport> report(ExtensionContext context) {
    LabConfig resolved = config != null ? config : configFrom(context);
    if (!resolved.report() && !resolved.audit()) {
      return Optional.empty();
    }
    Store store = context.getRoot().getStore(NAMESPACE);
    ReportOf known = store.get(new Of("report", resolved), ReportOf.class);
    if (known != null) {
      return Optional.of(known.report());
    }
    requireJUnitThatClosesTheReport();
    Path dir = Path.of(resolved.get(Setting.REPORT_DIR));
    LatencyReport report = store.getOrComputeIfAbsent("report " + dir.toAbsolutePath(),
        // an audit alone ratchets its findings; counts are gated exactly with the report on
        key -> new LatencyReport(dir, resolved.report()
            ? Path.of(resolved.get(Setting.REPORT_BASELINE)) : null,
            Path.of(resolved.get(Setting.FINDINGS)), resolved.updateBaseline(), resolved.audit()),
        LatencyReport.class);
    store.put(new Of("report", resolved), new ReportOf(report)); // found by the settings' instance next time
    return Optional.of(report);
  }

  // the run's report by the settings' instance: not closeable, the report is closed once
  private record ReportOf(LatencyReport report) {
  }

  /**
   * JUnit closes what an extension keeps in its root store (the report, which writes its files
   * when closed) only from 5.13: before, the budgets hold but the report never appears, which a
   * team would take for a gate that ran.
   */
  private static void requireJUnitThatClosesTheReport() {
    String version = Test.class.getPackage() == null ? null
        : Test.class.getPackage().getImplementationVersion();
    Matcher m = version == null ? null : Pattern.compile("^5\\.(\\d+)\\.").matcher(version);
    if (m != null && m.find() && Integer.parseInt(m.group(1)) < 13) {
      throw new IllegalStateException(Setting.REPORT.property() + "=true needs JUnit 5.13 or"
          + " newer (JUnit closes an extension's report only from 5.13), found JUnit Jupiter "
          + version + ": set junit-jupiter.version (Spring Boot) or junit.version to 5.13.4");
    }
  }

  /** Starts the Lab before the class's tests, so that its URL is there for a framework. */
  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    if (root != null) {
      ((BeforeAllCallback) root).beforeAll(context);
      return;
    }
    expose(lab(context)); // the Lab of this class, should another run have exposed its own
  }

  /**
   * The Lab of the test running on this thread (or, failing that, the last one started), for
   * code that has no ExtensionContext, such as {@link RoundTrips}' static assertions.
   */
  public static Lab currentLab() {
    Lab lab = CURRENT.get();
    if (lab == null) {
      lab = lastStarted;
    }
    if (lab == null) {
      throw new IllegalStateException("No Lab: extend the test class with"
          + " @ExtendWith(LabExtension.class) (or register a LabExtension), or use"
          + " RoundTrips.on(lab)");
    }
    return lab;
  }

  static LabConfig configFrom(ExtensionContext context) {
    // a run's settings do not change while it runs: resolved once, not for every test
    return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent("config",
        key -> resolvedFrom(context), LabConfig.class);
  }

  private static LabConfig resolvedFrom(ExtensionContext context) {
    LabConfig resolved = LabConfig.fromEnvironment();
    for (Setting setting : Setting.values()) {
      String value = context.getConfigurationParameter(setting.property()).orElse(null);
      if (value != null && !value.equals(resolved.get(setting))) {
        resolved = resolved.with(setting, value);
      }
    }
    return resolved;
  }

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    if (root != null) {
      ((BeforeEachCallback) root).beforeEach(context);
      return;
    }
    Lab previous = CURRENT.get();
    if (previous != null) {
      context.getStore(NAMESPACE).put(PREVIOUS, previous);
    }
    CURRENT.set(lab(context));
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    if (root != null) {
      ((AfterEachCallback) root).afterEach(context);
      return;
    }
    Lab previous = context.getStore(NAMESPACE).remove(PREVIOUS, Lab.class);
    if (previous != null) {
      CURRENT.set(previous);
    } else {
      CURRENT.remove();
    }
    requireCounted(context);
  }

  /**
   * A budget this extension never saw run passes unread: an extension registered before this
   * one that runs the test method itself, as Quarkus' does, leaves no invocation to intercept.
   */
  private void requireCounted(ExtensionContext context) {
    if (context.getExecutionException().isPresent() || context.getTestMethod().isEmpty()
        || context.getStore(NAMESPACE).get(COUNTED) != null) {
      return;
    }
    Method method = context.getRequiredTestMethod();
    if (AnnotationSupport.isAnnotated(method, TestFactory.class)) {
      return; // its dynamic tests are counted, each in a context of its own
    }
    if (!spec(method, context.getRequiredTestClass()).isEmpty() || report(context).isPresent()) {
      throw new AssertionFailedError(method.getName() + "(): its budget was never checked: an"
          + " extension registered before LabExtension ran the test method itself (Quarkus'"
          + " does); put @ExtendWith(LabExtension.class) above @QuarkusTest");
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    if (root != null && ((ParameterResolver) root).supportsParameter(parameter, context)) {
      return true;
    }
    Class<?> type = parameter.getParameter().getType();
    return type == Lab.class || type == DataSource.class || type == WireDataSource.class
        || type == Connection.class || type == WireCounter.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    if (root != null) {
      if (((ParameterResolver) root).supportsParameter(parameter, context)) {
        return ((ParameterResolver) root).resolveParameter(parameter, context);
      }
      throw new ParameterResolutionException(parameter.getDeclaringExecutable() + ": a "
          + type.getSimpleName() + " of latency-lab as " + JvmWide.describe(type.getClassLoader())
          + " loaded it cannot be the run's, which latency-lab as "
          + JvmWide.describe(root.getClass().getClassLoader()) + " keeps: take a DataSource or"
          + " Connection parameter");
    }
    Lab lab = lab(context);
    if (type == Lab.class) {
      return lab;
    }
    if (type == WireCounter.class) {
      return lab.wire();
    }
    if (type == Connection.class) {
      try {
        Connection connection = lab.dataSource().getConnection();
        // closed with the test (or class) it was made for
        context.getStore(NAMESPACE).put("connection " + UUID.randomUUID(),
            (AutoCloseable) connection::close);
        return connection;
      } catch (SQLException e) {
        throw new ParameterResolutionException("Could not open a connection to the Lab: "
            + e.getMessage(), e);
      }
    }
    return lab.dataSource();
  }

  @Override
  public void interceptTestMethod(Invocation<Void> invocation,
      ReflectiveInvocationContext<Method> invocationContext, ExtensionContext context)
      throws Throwable {
    if (root != null) {
      ((InvocationInterceptor) root).interceptTestMethod(invocation, invocationContext, context);
      return;
    }
    counted(invocation, invocationContext.getExecutable(), context.getRequiredTestClass(),
        context);
  }

  @Override
  public void interceptTestTemplateMethod(Invocation<Void> invocation,
      ReflectiveInvocationContext<Method> invocationContext, ExtensionContext context)
      throws Throwable {
    if (root != null) {
      ((InvocationInterceptor) root).interceptTestTemplateMethod(invocation, invocationContext,
          context);
      return;
    }
    counted(invocation, invocationContext.getExecutable(), context.getRequiredTestClass(),
        context);
  }

  /** A dynamic test is counted under its factory method's annotations, as its invocation. */
  @Override
  public void interceptDynamicTest(Invocation<Void> invocation,
      DynamicTestInvocationContext invocationContext, ExtensionContext context)
      throws Throwable {
    if (root != null) {
      ((InvocationInterceptor) root).interceptDynamicTest(invocation, invocationContext, context);
      return;
    }
    Optional<ExtensionContext> factory = Optional.of(context);
    while (factory.isPresent() && factory.get().getTestMethod().isEmpty()) {
      factory = factory.get().getParent();
    }
    if (factory.isEmpty()) {
      invocation.proceed();
      return;
    }
    counted(invocation, factory.get().getRequiredTestMethod(),
        factory.get().getRequiredTestClass(), context);
  }

  private void counted(Invocation<Void> invocation, Method method, Class<?> testClass,
      ExtensionContext context) throws Throwable {
    context.getStore(NAMESPACE).put(COUNTED, Boolean.TRUE);
    RoundTrips.Spec spec = spec(method, testClass);
    Optional<LatencyReport> report = report(context);
    if (spec.isEmpty() && report.isEmpty()) {
      invocation.proceed();
      return;
    }
    Lab lab = lab(context);
    // the test's row, named only for the report: a budget alone never reads it
    Series series = report.isEmpty() ? null
        : series(testClass, method, context.getUniqueId());
    LatencyReport.Verdict[] verdict = new LatencyReport.Verdict[1];
    RoundTrips on = RoundTrips.on(lab);
    // an audited test without a budget of its own is reported, never failed, for what the Lab
    // could not count: it is listed as not audited, with why
    boolean audited = spec.isEmpty() && report.isPresent() && report.get().audits();
    (spec.includeOverhead() ? on.includingOverhead() : on).check(spec,
        method.getName() + "()", report.isEmpty() ? null : new RoundTrips.Recording(cost -> {
          if (audited && cost.counted().roundTrips() == 0) {
            report.get().notAudited(series, NotAudited.why(testClass));
          } else {
            verdict[0] = report.get().record(series, cost, lab::environment);
          }
        }, audited ? why -> report.get().notAudited(series, why) : null,
            report.get().readsWork()), () -> {
          invocation.proceed();
          return null;
        });
    List<String> failures = new ArrayList<>();
    if (verdict[0] != null && verdict[0].regression() != null) {
      failures.add("latency regression against the baseline (if intended, rewrite it with"
          + " -Dlatencylab.updateBaseline=true and commit it):\n" + verdict[0].regression());
    }
    if (verdict[0] != null && verdict[0].findings() != null) {
      failures.add("latency-lab findings the committed ones do not allow (if intended, rewrite"
          + " them with -Dlatencylab.updateBaseline=true and commit them):\n"
          + verdict[0].findings());
    }
    if (!failures.isEmpty()) {
      throw new AssertionFailedError(String.join("\n", failures));
    }
  }

  /**
   * A test's row, by its full identity: the class's binary name ("com.example.AuthorServiceTest",
   * a nested class "com.example.AuthorServiceTest$WhenEmpty"), the method (with its parameter
   * types when the class has another method of that name), and a template's or dynamic test's
   * invocation ("listAuthors[2]", nested dynamic tests "[1.3]"), from JUnit's unique id.
   */
  static Series series(Class<?> testClass, Method method, String uniqueId) {
    String name = method.getName();
    if (METHOD_NAMES.get(testClass).getOrDefault(name, 0L) > 1) {
      name += Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName)
          .collect(java.util.stream.Collectors.joining(",", "(", ")"));
    }
    // each "[test-template-invocation:#2]" segment's number, scanned: no regex once a test
    List<String> invocation = new ArrayList<>();
    for (int at = uniqueId.indexOf(":#"); at >= 0; at = uniqueId.indexOf(":#", at + 2)) {
      int close = uniqueId.indexOf(']', at);
      String number = close < 0 ? "" : uniqueId.substring(at + 2, close);
      if (INVOCATIONS.contains(uniqueId.substring(uniqueId.lastIndexOf('[', at) + 1, at))
          && isNumber(number)) {
        invocation.add(number);
      }
    }
    return Series.of(testClass.getName(), name + (invocation.isEmpty() ? ""
        : "[" + String.join(".", invocation) + "]"), java.util.Map.of());
  }

  private static boolean isNumber(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (!Character.isDigit(text.charAt(i))) {
        return false;
      }
    }
    return !text.isEmpty();
  }

  // per test class, read once (ClassValue: a framework's reloaded classes stay collectable)
  private static final ClassValue<java.util.Map<String, Long>> METHOD_NAMES =
      new ClassValue<>() {
        @Override
        protected java.util.Map<String, Long> computeValue(Class<?> type) {
          return Arrays.stream(type.getDeclaredMethods()).collect(
              java.util.stream.Collectors.groupingBy(Method::getName,
                  java.util.stream.Collectors.counting()));
        }
      };
  private static final ClassValue<java.util.Map<Method, RoundTrips.Spec>> SPECS =
      new ClassValue<>() {
        @Override
        protected java.util.Map<Method, RoundTrips.Spec> computeValue(Class<?> type) {
          return new java.util.concurrent.ConcurrentHashMap<>();
        }
      };

  /** The bounds, price and overhead rule of a test: its method's annotations, else its class's. */
  static RoundTrips.Spec spec(Method method, Class<?> testClass) {
    return SPECS.get(testClass).computeIfAbsent(method, m -> specOf(m, testClass));
  }

  private static RoundTrips.Spec specOf(Method method, Class<?> testClass) {
    List<RoundTrips.Bound> bounds = new ArrayList<>();
    boolean includeOverhead = false;
    ExpectRoundTrips trips = find(method, testClass, ExpectRoundTrips.class);
    if (trips != null) {
      add(bounds, RoundTrips.Unit.ROUND_TRIPS, trips.max(), trips.exactly(), method);
      includeOverhead = trips.includeOverhead();
    }
    ExpectStatements statements = find(method, testClass, ExpectStatements.class);
    if (statements != null) {
      add(bounds, RoundTrips.Unit.STATEMENTS, statements.max(), statements.exactly(), method);
      includeOverhead |= statements.includeOverhead();
    }
    RoundTrips.Cost cost = null;
    ExpectWireCost wireCost = find(method, testClass, ExpectWireCost.class);
    if (wireCost != null) {
      try {
        cost = new RoundTrips.Cost(Rtt.parse(wireCost.rtt()), wireCost.maxMillis());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(method + ": @ExpectWireCost(rtt = \""
            + wireCost.rtt() + "\", maxMillis = " + wireCost.maxMillis() + "): "
            + e.getMessage(), e);
      }
      includeOverhead |= wireCost.includeOverhead();
    }
    ExpectReads reads = find(method, testClass, ExpectReads.class);
    if (reads != null && reads.maxRowsPerRoundTrip() < 0
        && reads.maxRoundTripsPerThousandRows() < 0) {
      throw new IllegalArgumentException(method + ": set maxRowsPerRoundTrip or"
          + " maxRoundTripsPerThousandRows on its @ExpectReads");
    }
    ExpectWork work = find(method, testClass, ExpectWork.class);
    return new RoundTrips.Spec(bounds, cost, includeOverhead, reads == null ? null
        : new RoundTrips.Reads(reads.maxRowsPerRoundTrip(),
            reads.maxRoundTripsPerThousandRows()), work == null ? null
        : WorkBudget.of(work, method));
  }

  private static <A extends Annotation> A find(Method method, Class<?> testClass,
      Class<A> type) {
    Class<? extends Annotation> asWritten = asWritten(type, testClass);
    Optional<? extends Annotation> found = AnnotationSupport.findAnnotation(method, asWritten);
    for (Class<?> c = testClass; c != null && found.isEmpty(); c = c.getEnclosingClass()) {
      found = AnnotationSupport.findAnnotation(c, asWritten);
    }
    return found.map(a -> read(a, type)).orElse(null);
  }

  /**
   * The budget annotation as the test class sees it: where a framework loaded the test class
   * and latency-lab again, its {@code @ExpectRoundTrips} is that copy's type, not this one's,
   * and a budget looked up by this one's would pass unread.
   */
  private static Class<? extends Annotation> asWritten(Class<? extends Annotation> type,
      Class<?> testClass) {
    try {
      return Class.forName(type.getName(), false, testClass.getClassLoader())
          .asSubclass(Annotation.class);
    } catch (ClassNotFoundException | LinkageError e) {
      return type;
    }
  }

  // another copy's annotation read through this copy's type: its values are JDK types
  private static <A extends Annotation> A read(Annotation annotation, Class<A> type) {
    if (type.isInstance(annotation)) {
      return type.cast(annotation);
    }
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
        (proxy, m, args) -> m.getName().equals("annotationType") ? type
            : m.getDeclaringClass() == Object.class ? m.invoke(annotation, args)
            : annotation.annotationType().getMethod(m.getName()).invoke(annotation)));
  }

  private static void add(List<RoundTrips.Bound> bounds, RoundTrips.Unit unit, long max,
      long exactly, Method method) {
    if (max < 0 && exactly < 0) {
      throw new IllegalArgumentException(method + ": set max or exactly on its @Expect"
          + (unit == RoundTrips.Unit.ROUND_TRIPS ? "RoundTrips" : "Statements"));
    }
    if (exactly >= 0) {
      bounds.add(RoundTrips.Bound.exactly(unit, exactly));
    }
    if (max >= 0) {
      bounds.add(RoundTrips.Bound.atMost(unit, max));
    }
  }
}
