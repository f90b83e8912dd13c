package io.github.latencylab.junit;

import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.util.HashSet;
import java.util.Set;

/**
 * Why an audited test sent no SQL to the Lab, as far as its class says: a database swapped in
 * by Spring's test slices, a Testcontainers database, a web slice with mocked repositories, or
 * nothing that reaches a database at all. Read by annotation names, so that core needs none of
 * those frameworks.
 */
final class NotAudited {

  private NotAudited() {
  }

  /** One line: why {@code testClass}'s test sent nothing the Lab counted. */
  static String why(Class<?> testClass) {
    Set<String> on = new HashSet<>();
    String replace = null;
    for (Class<?> c = testClass; c != null; c = c.getEnclosingClass()) {
      for (Class<?> t = c; t != null && t != Object.class; t = t.getSuperclass()) {
        for (Annotation a : t.getAnnotations()) { // written on the class: over a meta's
          if (a.annotationType().getSimpleName().equals("AutoConfigureTestDatabase")) {
            replace = collect(a, on, new HashSet<>(), replace);
          }
        }
        for (Annotation a : t.getAnnotations()) {
          replace = collect(a, on, new HashSet<>(), replace);
        }
        for (Field f : t.getDeclaredFields()) {
          for (Annotation a : f.getAnnotations()) {
            on.add("field @" + a.annotationType().getSimpleName());
          }
        }
      }
    }
    if (on.contains("AutoConfigureTestDatabase") && !"NONE".equals(replace)) {
      return "Spring's @AutoConfigureTestDatabase put an embedded database in the Lab's place"
          + " (@DataJpaTest and @JdbcTest do by default): run with spring.test.database.replace"
          + "=none and the application's PostgreSQL profile to audit it";
    }
    if (on.contains("field @ServiceConnection") || on.contains("field @Container")
        || on.contains("Testcontainers")) {
      return "its database is a Testcontainers container (@Container, @ServiceConnection), not"
          + " the Lab";
    }
    if (on.contains("WebMvcTest") || on.contains("WebFluxTest") || on.contains("JsonTest")
        || on.contains("RestClientTest")) {
      return "a Spring slice without the datasource (@WebMvcTest, @WebFluxTest): its"
          + " repositories, if any, are mocks";
    }
    if (on.contains("field @MockitoBean") || on.contains("field @MockBean")
        || on.contains("field @InjectMock") || on.contains("field @Mock")) {
      return "no SQL reached the Lab: the test mocks what would send it (@MockitoBean, @Mock)";
    }
    return "no SQL reached the Lab's database: a test of code that sends none, or SQL on"
        + " another database";
  }

  // the simple names of an annotation and its meta-annotations; the replace attribute of
  // @AutoConfigureTestDatabase where it is found
  private static String collect(Annotation a, Set<String> names, Set<Class<?>> seen,
      String replace) {
    Class<? extends Annotation> type = a.annotationType();
    if (!seen.add(type) || type.getName().startsWith("java.lang.annotation.")) {
      return replace;
    }
    names.add(type.getSimpleName());
    if (type.getSimpleName().equals("AutoConfigureTestDatabase") && replace == null) {
      try {
        replace = String.valueOf(type.getMethod("replace").invoke(a));
      } catch (ReflectiveOperationException | RuntimeException e) {
        replace = "ANY";
      }
    }
    for (Annotation meta : type.getAnnotations()) {
      replace = collect(meta, names, seen, replace);
    }
    return replace;
  }
}
