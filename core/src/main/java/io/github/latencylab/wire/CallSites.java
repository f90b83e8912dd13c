package io.github.latencylab.wire;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Where a statement came from: the first frame on the writing thread's stack that belongs to
 * the application, i.e. whose class name starts with none of the excluded prefixes: the JDK,
 * JDBC drivers, pools, ORMs, frameworks ({@link #DEFAULT_EXCLUDED}), and latency-lab-core itself
 * (its classes, from its jar).
 * Add prefixes of your own (a framework of your company, a generated DAO layer) with the
 * setting {@code latencylab.callsites.exclude} or {@link #exclude}.
 *
 * <p>Classes generated in the application's packages are not the application either: Spring's
 * CGLIB subclasses ({@code LibraryService$$SpringCGLIB$$0}, around a {@code @Transactional}
 * service), Hibernate's lazy proxies ({@code Author$HibernateProxy$...}), ByteBuddy's and the
 * JDK's dynamic proxies ({@code $Proxy42}, in the package of a non-public interface); the
 * frame named is the user's code that called them.
 *
 * <p>Written as {@code AuthorService.listAuthors(AuthorService.java:42)}: the simple class
 * name, the method (a lambda as the method it is written in), the file and line.
 */
public final class CallSites {

  /** Not the application: the JDK, drivers, pools, ORMs, test engines, latency-lab's library. */
  public static final List<String> DEFAULT_EXCLUDED = List.of(
      "java.", "javax.", "jakarta.", "jdk.", "sun.", "com.sun.",
      "org.postgresql.", "com.zaxxer.hikari.", "org.hibernate.", "net.bytebuddy.",
      "org.springframework.", "org.jooq.", "org.mybatis.", "org.apache.ibatis.",
      "org.jdbi.", "com.querydsl.", "net.ttddyy.dsproxy.", "org.apache.commons.dbcp2.",
      "org.apache.tomcat.jdbc.", "com.mchange.", "org.junit.", "org.opentest4j.",
      "org.apache.maven.surefire.", "org.gradle.", "org.assertj.");

  // latency-lab's own classes: those of the jar (or directory) this class comes from, so that
  // a user's class in a package of the same name (latency-lab's own tests) stays the application
  private static final Object OWN_CODE = codeSource(CallSites.class);
  private static final ClassValue<Boolean> IS_OWN = new ClassValue<>() {
    @Override
    protected Boolean computeValue(Class<?> type) {
      Object source = codeSource(type);
      return source != null && source.equals(OWN_CODE);
    }
  };

  /** What {@link WireStatement#callSite()} says when every frame was excluded. */
  public static final String NONE = "(no application frame)";

  private static final List<String> EXTRA = new CopyOnWriteArrayList<>();
  private static final StackWalker WALKER =
      StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

  private CallSites() {
  }

  /**
   * Excludes more class-name prefixes, e.g. {@code "com.example.dao."}, for this JVM (the
   * JUnit extension passes {@code latencylab.callsites.exclude} here). A blank prefix would
   * exclude everything: refused.
   */
  public static void exclude(List<String> prefixes) {
    for (String p : prefixes) {
      Objects.requireNonNull(p, "prefix");
      if (p.isBlank()) {
        throw new IllegalArgumentException("A call-site exclusion must be a class-name prefix"
            + " such as com.example.dao., got a blank one");
      }
      if (!EXTRA.contains(p.strip())) {
        EXTRA.add(p.strip());
      }
    }
  }

  /** The prefixes excluded now: the defaults and those added. */
  public static List<String> excluded() {
    List<String> all = new ArrayList<>(DEFAULT_EXCLUDED);
    all.addAll(EXTRA);
    return all;
  }

  private static Object codeSource(Class<?> type) {
    var domain = type.getProtectionDomain();
    var source = domain == null ? null : domain.getCodeSource();
    return source == null ? null : source.getLocation();
  }

  static boolean isApplication(StackWalker.StackFrame frame) {
    return isApplication(frame.getClassName()) && !IS_OWN.get(frame.getDeclaringClass())
        && !Proxy.isProxyClass(frame.getDeclaringClass());
  }

  static boolean isApplication(String className) {
    if (isGenerated(className)) {
      return false;
    }
    for (String p : DEFAULT_EXCLUDED) {
      if (className.startsWith(p)) {
        return false;
      }
    }
    for (String p : EXTRA) {
      if (className.startsWith(p)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A class a framework generated at run time, in whatever package: Spring's CGLIB ({@code
   * $$SpringCGLIB$$}, older {@code $$EnhancerBySpringCGLIB$$}), Hibernate's and ByteBuddy's
   * proxies, Mockito's mocks, the JDK's {@code $ProxyN}.
   */
  static boolean isGenerated(String className) {
    String simple = className.substring(className.lastIndexOf('.') + 1);
    return simple.contains("$$") || simple.contains("$HibernateProxy$")
        || simple.contains("$ByteBuddy$") || simple.contains("$MockitoMock$")
        || simple.startsWith("$Proxy");
  }

  /** "AuthorService.listAuthors(AuthorService.java:42)". */
  static String format(StackWalker.StackFrame f) {
    String cls = f.getClassName();
    String simple = cls.substring(cls.lastIndexOf('.') + 1);
    String method = f.getMethodName();
    if (method.startsWith("lambda$")) { // lambda$listAuthors$0 -> listAuthors
      int end = method.indexOf('$', 7);
      method = end > 7 ? method.substring(7, end) : method;
    }
    String file = f.getFileName();
    return simple + "." + method + "(" + (file == null ? "Unknown Source"
        : file + (f.getLineNumber() >= 0 ? ":" + f.getLineNumber() : "")) + ")";
  }

  /** Who is writing on this thread: the overhead it is, if any, and the application frame. */
  static Origin origin() {
    return WALKER.walk(frames -> {
      Overhead overhead = null;
      for (StackWalker.StackFrame f : (Iterable<StackWalker.StackFrame>) frames::iterator) {
        String cls = f.getClassName();
        if (isApplication(f)) {
          return new Origin(overhead, format(f));
        }
        if (overhead == null) {
          overhead = Overhead.of(cls, f.getMethodName());
        }
      }
      return new Origin(overhead, NONE);
    });
  }

  /** What a round trip was for and which application frame asked for it. */
  record Origin(Overhead overhead, String callSite) {
  }
}
