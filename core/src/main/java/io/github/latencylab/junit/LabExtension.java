package io.github.latencylab.junit;

import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.Setting;
import io.github.latencylab.wire.WireCounter;
import io.github.latencylab.wire.WireDataSource;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ExtensionContext.Store;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

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
 * {@link RoundTrips}' static assertions count on.
 *
 * <p>Settings: {@link LabConfig#fromEnvironment()} (so {@code -Dlatencylab.backend=embedded}
 * works), overridden by JUnit configuration parameters of the same names (e.g. in
 * {@code junit-platform.properties}); or, registered with {@code @RegisterExtension}, the
 * configuration given to {@link #withConfig}.
 */
public final class LabExtension implements ParameterResolver, BeforeEachCallback,
    AfterEachCallback, InvocationInterceptor {

  private static final Namespace NAMESPACE = Namespace.create(LabExtension.class);
  private static final String PREVIOUS = "previous lab";
  private static final ThreadLocal<Lab> CURRENT = new ThreadLocal<>();
  private static volatile Lab lastStarted;

  private final LabConfig config;

  /** Settings from the environment and JUnit's configuration parameters. */
  public LabExtension() {
    this(null);
  }

  private LabExtension(LabConfig config) {
    this.config = config;
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
    LabConfig resolved = config != null ? config : configFrom(context);
    Store store = context.getRoot().getStore(NAMESPACE);
    // a Lab is AutoCloseable: the root store closes it when the run ends
    Lab lab = store.getOrComputeIfAbsent("lab " + resolved, key -> Lab.start(resolved),
        Lab.class);
    lastStarted = lab;
    return lab;
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
  public void beforeEach(ExtensionContext context) {
    Lab previous = CURRENT.get();
    if (previous != null) {
      context.getStore(NAMESPACE).put(PREVIOUS, previous);
    }
    CURRENT.set(lab(context));
  }

  @Override
  public void afterEach(ExtensionContext context) {
    Lab previous = context.getStore(NAMESPACE).remove(PREVIOUS, Lab.class);
    if (previous != null) {
      CURRENT.set(previous);
    } else {
      CURRENT.remove();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == Lab.class || type == DataSource.class || type == WireDataSource.class
        || type == Connection.class || type == WireCounter.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
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
    counted(invocation, invocationContext.getExecutable(), context);
  }

  @Override
  public void interceptTestTemplateMethod(Invocation<Void> invocation,
      ReflectiveInvocationContext<Method> invocationContext, ExtensionContext context)
      throws Throwable {
    counted(invocation, invocationContext.getExecutable(), context);
  }

  private void counted(Invocation<Void> invocation, Method method, ExtensionContext context)
      throws Throwable {
    List<RoundTrips.Bound> bounds = bounds(method);
    if (bounds.isEmpty()) {
      invocation.proceed();
      return;
    }
    RoundTrips.on(lab(context)).check(bounds, method.getName() + "()", () -> {
      invocation.proceed();
      return null;
    });
  }

  static List<RoundTrips.Bound> bounds(Method method) {
    List<RoundTrips.Bound> bounds = new ArrayList<>();
    ExpectRoundTrips trips = method.getAnnotation(ExpectRoundTrips.class);
    if (trips != null) {
      add(bounds, RoundTrips.Unit.ROUND_TRIPS, trips.max(), trips.exactly(), method);
    }
    ExpectStatements statements = method.getAnnotation(ExpectStatements.class);
    if (statements != null) {
      add(bounds, RoundTrips.Unit.STATEMENTS, statements.max(), statements.exactly(), method);
    }
    return bounds;
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
