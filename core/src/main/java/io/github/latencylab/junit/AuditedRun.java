package io.github.latencylab.junit;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Arrays;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.DynamicTestInvocationContext;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * {@link LabExtension} on every test class of an audited run ({@code latencylab.audit=true}),
 * none written: JUnit Jupiter auto-detects it when {@link AuditSession} turns that on, and
 * registers it before any class's own extensions, so that it counts around what they run
 * (Quarkus' extension runs the test method itself). A class that registers a LabExtension of its
 * own (its budgets, its configuration) is left to it. Without the switch it does nothing, should
 * a team auto-detect every extension on its class path.
 */
public final class AuditedRun implements BeforeAllCallback, BeforeEachCallback,
    AfterEachCallback, InvocationInterceptor {

  private static final ClassValue<Boolean> HAS_ITS_OWN = new ClassValue<>() {
    @Override
    protected Boolean computeValue(Class<?> type) {
      return registersLabExtension(type);
    }
  };

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(AuditedRun.class);

  private final LabExtension lab = new LabExtension();

  private static boolean audits(ExtensionContext context) {
    return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent("audits",
        key -> LabExtension.auditing(context), Boolean.class)
        && context.getTestClass().map(c -> !HAS_ITS_OWN.get(c)).orElse(true);
  }

  /**
   * The class, a class it is nested in or one it extends registers a LabExtension (by
   * {@code @ExtendWith}, also as a meta-annotation, or a {@code @RegisterExtension} field).
   * Names, not types: a framework may have loaded latency-lab again.
   */
  static boolean registersLabExtension(Class<?> testClass) {
    String name = LabExtension.class.getName();
    for (Class<?> c = testClass; c != null; c = c.getEnclosingClass()) {
      for (Class<?> t = c; t != null && t != Object.class; t = t.getSuperclass()) {
        if (AnnotationSupport.findRepeatableAnnotations(t, ExtendWith.class).stream()
            .flatMap(e -> Arrays.stream(e.value())).anyMatch(x -> x.getName().equals(name))) {
          return true;
        }
        for (Field f : t.getDeclaredFields()) {
          if (f.getType().getName().equals(name)
              && AnnotationSupport.isAnnotated(f, RegisterExtension.class)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    if (audits(context)) {
      lab.beforeAll(context);
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    if (audits(context)) {
      lab.beforeEach(context);
    }
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    if (audits(context)) {
      lab.afterEach(context);
    }
  }

  @Override
  public void interceptTestMethod(Invocation<Void> invocation,
      ReflectiveInvocationContext<Method> invocationContext, ExtensionContext context)
      throws Throwable {
    if (audits(context)) {
      lab.interceptTestMethod(invocation, invocationContext, context);
    } else {
      invocation.proceed();
    }
  }

  @Override
  public void interceptTestTemplateMethod(Invocation<Void> invocation,
      ReflectiveInvocationContext<Method> invocationContext, ExtensionContext context)
      throws Throwable {
    if (audits(context)) {
      lab.interceptTestTemplateMethod(invocation, invocationContext, context);
    } else {
      invocation.proceed();
    }
  }

  @Override
  public void interceptDynamicTest(Invocation<Void> invocation,
      DynamicTestInvocationContext invocationContext, ExtensionContext context)
      throws Throwable {
    if (audits(context)) {
      lab.interceptDynamicTest(invocation, invocationContext, context);
    } else {
      invocation.proceed();
    }
  }
}
