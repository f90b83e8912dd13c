package io.github.latencylab.wire;

import java.lang.annotation.Annotation;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.Map;

/**
 * The HTTP route a frame's method serves, as its mapping annotations write it: {@code GET
 * /owners/{ownerId}}. Read by the annotations' names, so that core needs none of the frameworks:
 * Spring MVC and WebFlux ({@code @GetMapping}..., {@code @RequestMapping} on the method and the
 * class), JAX-RS as Quarkus REST has it ({@code @GET}..., {@code @Path} on both), Micronaut
 * ({@code @Get}..., {@code @Controller}). Whoever drives the request (MockMvc, RestAssured,
 * WebTestClient, Micronaut's HttpClient), the handler's frame is on the stack that sends its SQL.
 */
final class Routes {

  private static final Map<String, String> VERBS = Map.ofEntries(
      Map.entry("GetMapping", "GET"), Map.entry("PostMapping", "POST"),
      Map.entry("PutMapping", "PUT"), Map.entry("DeleteMapping", "DELETE"),
      Map.entry("PatchMapping", "PATCH"), Map.entry("GET", "GET"), Map.entry("POST", "POST"),
      Map.entry("PUT", "PUT"), Map.entry("DELETE", "DELETE"), Map.entry("PATCH", "PATCH"),
      Map.entry("Get", "GET"), Map.entry("Post", "POST"), Map.entry("Put", "PUT"),
      Map.entry("Delete", "DELETE"), Map.entry("Patch", "PATCH"));
  private Routes() {
  }

  /** The route {@code method} serves, or null when it is no handler. */
  static String route(Method method) {
    String verb = null;
    String path = null;
    for (Annotation a : method.getAnnotations()) {
      String name = a.annotationType().getSimpleName();
      if (VERBS.containsKey(name)) {
        verb = VERBS.get(name);
        path = path != null ? path : firstPath(a);
      } else if (name.equals("RequestMapping")) {
        verb = verb != null ? verb : requestMethod(a);
        path = firstPath(a);
      } else if (name.equals("Path")) {
        path = firstPath(a);
      }
    }
    if (verb == null) {
      return null;
    }
    String prefix = "";
    for (Annotation a : method.getDeclaringClass().getAnnotations()) {
      String name = a.annotationType().getSimpleName();
      boolean micronaut = name.equals("Controller")
          && a.annotationType().getName().startsWith("io.micronaut.");
      if (name.equals("RequestMapping") || name.equals("Path") || micronaut) {
        String p = firstPath(a);
        prefix = p == null ? "" : p;
      }
    }
    return verb + " " + join(prefix, path == null ? "" : path);
  }

  private static String join(String prefix, String path) {
    String joined = ("/" + prefix + "/" + path).replaceAll("/{2,}", "/");
    return joined.length() > 1 && joined.endsWith("/")
        ? joined.substring(0, joined.length() - 1) : joined;
  }

  // the first non-empty of value(), path(), uri(): a String or a String[]
  private static String firstPath(Annotation a) {
    for (String attribute : new String[] {"value", "path", "uri"}) {
      try {
        Object v = a.annotationType().getMethod(attribute).invoke(a);
        if (v instanceof String s && !s.isEmpty()) {
          return s;
        }
        if (v != null && v.getClass().isArray() && Array.getLength(v) > 0
            && Array.get(v, 0) instanceof String s && !s.isEmpty()) {
          return s;
        }
      } catch (ReflectiveOperationException | RuntimeException e) {
        // not this attribute
      }
    }
    return null;
  }

  // Spring's @RequestMapping(method = RequestMethod.GET): its first method, or ANY
  private static String requestMethod(Annotation a) {
    try {
      Object v = a.annotationType().getMethod("method").invoke(a);
      return v != null && v.getClass().isArray() && Array.getLength(v) > 0
          ? String.valueOf(Array.get(v, 0)) : "ANY";
    } catch (ReflectiveOperationException | RuntimeException e) {
      return "ANY";
    }
  }
}
