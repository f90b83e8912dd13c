package io.github.latencylab.wire;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Where a statement came from: the first frame on the writing thread's stack that belongs to
 * the application. The application is the code the build compiled, told by where its class
 * was loaded from, never by its name (an application may live under {@code
 * org.springframework.samples}, a company's under {@code org.hibernate.x}):
 * <ul>
 *   <li>a class from a directory (Maven's {@code target/classes} and {@code
 *       target/test-classes}, Gradle's {@code build/classes}, an IDE's output) is the
 *       application's;</li>
 *   <li>so is a class from a jar the project built: under its root (the highest directory
 *       above the working directory that holds a pom.xml, build.gradle(.kts) or
 *       settings.gradle(.kts)), in a {@code target} or {@code build} directory, as a
 *       multi-module build's sibling module is;</li>
 *   <li>a class from any other jar (drivers, pools, ORMs, frameworks from a repository or a
 *       cache), from the JDK, or with no location is not; nor is latency-lab-core's own.</li>
 * </ul>
 * A class with no code source (Quarkus defines the application's classes so) is placed by
 * where its loader finds its class file, or, where that loader names it in a scheme of its own
 * (Quarkus' {@code quarkus:} for a class it transformed), where the class path has it.
 * Class-name prefixes override that both ways: {@code latencylab.callsites.exclude} ({@link
 * #exclude}) takes classes out (a generated DAO layer compiled with the application), {@code
 * latencylab.callsites.include} ({@link #include}) takes them in (a library of the company's
 * own from a jar), and an include wins over an exclude.
 *
 * <p>Classes generated at run time are never the application, whatever their package: Spring's
 * CGLIB subclasses ({@code LibraryService$$SpringCGLIB$$0}, around a {@code @Transactional}
 * service), Hibernate's lazy proxies ({@code Author$HibernateProxy$...}), ByteBuddy's and the
 * JDK's dynamic proxies ({@code $Proxy42}, in the package of a non-public interface), ArC's and
 * Weld's subclasses and client proxies ({@code VisitResource_Subclass}), Micronaut's
 * compile-time {@code $Intercepted} and {@code $Definition} classes (in the application's own
 * output). Nor is code generated into the application's classes: Hibernate's enhancement
 * methods ({@code $$_hibernate_read_name}), bridge and synthetic methods, and methods with no
 * line number (Panache's static methods woven into an entity, {@code Visit.list}); such a
 * frame is named only when no frame after it has a line. The frame named is the user's code
 * that called them.
 *
 * <p>Written as {@code AuthorService.listAuthors(AuthorService.java:42)}: the simple class
 * name, the method (a lambda as the method it is written in), the file and line.
 */
public final class CallSites {

  /** What {@link WireStatement#callSite()} says when no frame was the application's. */
  public static final String NONE = "(no application frame)";

  private static final List<String> BUILD_FILES = List.of("pom.xml", "build.gradle",
      "build.gradle.kts", "settings.gradle", "settings.gradle.kts");
  private static final List<String> BUILD_OUTPUTS = List.of("target", "build");

  private static final Path PROJECT_ROOT = projectRoot(Path.of("").toAbsolutePath());
  // latency-lab's own classes: those of the jar (or directory) this class comes from, so that
  // a user's class in a package of the same name (latency-lab's own tests) stays the application
  private static final Path OWN_CODE = location(CallSites.class);
  // the frames an origin's chain holds: the call site and two callers above it
  private static final int CHAIN = 3;
  private static final ClassValue<Optional<Path>> LOCATION = new ClassValue<>() {
    @Override
    protected Optional<Path> computeValue(Class<?> type) {
      return Optional.ofNullable(location(type));
    }
  };
  // once a class: every frame of every statement's stack asks, and a fresh JVM's first tests
  // run this interpreted, then with the JIT's profiling, for most of a suite
  private static final ClassValue<FrameClass> FRAME_CLASS = new ClassValue<>() {
    @Override
    protected FrameClass computeValue(Class<?> type) {
      return FrameClass.of(type);
    }
  };

  /**
   * A frame's class as call sites read it: its {@link Kind}, and the overhead its frames stand
   * for whatever their method (null: none), unless {@code byMethod}: the method decides.
   */
  private record FrameClass(Kind kind, Overhead overhead, boolean byMethod) {

    static FrameClass of(Class<?> type) {
      boolean[] asked = {false};
      Overhead overhead = Overhead.of(type.getName(), () -> {
        asked[0] = true;
        return "";
      });
      return new FrameClass(Kind.of(type), asked[0] ? null : overhead, asked[0]);
    }
  }
  private static final List<String> EXCLUDED = new CopyOnWriteArrayList<>();
  private static final List<String> INCLUDED = new CopyOnWriteArrayList<>();
  // Reactive Streams' signals; Mutiny's item and failure signals share their names with the
  // builders (Uni.onItem()), which take no argument
  private static final Set<String> SIGNALS =
      Set.of("onSubscribe", "request", "onNext", "onComplete", "onError");
  private static final Set<String> ITEM_SIGNALS = Set.of("onItem", "onFailure");
  // a statement's stack from the socket to its test method is 20-30 frames: fetched in one
  // batch (the JVM's default first batch is 8, then 16, then 32)
  private static final StackWalker WALKER =
      StackWalker.getInstance(Set.of(StackWalker.Option.RETAIN_CLASS_REFERENCE), 32);

  private CallSites() {
  }

  /**
   * Classes whose names start with one of {@code prefixes}, e.g. {@code "com.example.dao."},
   * are not the application, for this JVM (the JUnit extension passes {@code
   * latencylab.callsites.exclude} here). A blank prefix would match everything: refused.
   */
  public static void exclude(List<String> prefixes) {
    add(EXCLUDED, prefixes, "exclusion", "com.example.dao.");
  }

  /**
   * Classes whose names start with one of {@code prefixes}, e.g. {@code "com.example.shared."},
   * are the application wherever they were loaded from, for this JVM (the JUnit extension passes
   * {@code latencylab.callsites.include} here); an include wins over an exclude.
   */
  public static void include(List<String> prefixes) {
    add(INCLUDED, prefixes, "inclusion", "com.example.shared.");
  }

  private static void add(List<String> into, List<String> prefixes, String what,
      String example) {
    for (String p : prefixes) {
      Objects.requireNonNull(p, "prefix");
      if (p.isBlank()) {
        throw new IllegalArgumentException("A call-site " + what + " must be a class-name"
            + " prefix such as " + example + ", got a blank one");
      }
      if (!into.contains(p.strip())) {
        into.add(p.strip());
      }
    }
  }

  /** The prefixes excluded now. */
  public static List<String> excluded() {
    return List.copyOf(EXCLUDED);
  }

  /** The prefixes included now. */
  public static List<String> included() {
    return List.copyOf(INCLUDED);
  }

  /** This JVM's project root: the working directory's highest ancestor with a build file. */
  public static Path projectRoot() {
    return PROJECT_ROOT;
  }

  /** The project's root, the build's working directory's highest ancestor with a build file. */
  static Path projectRoot(Path workingDirectory) {
    Path root = workingDirectory;
    for (Path d = workingDirectory; d != null && hasBuildFile(d); d = d.getParent()) {
      root = d;
    }
    return root;
  }

  private static boolean hasBuildFile(Path directory) {
    return BUILD_FILES.stream().anyMatch(f -> Files.isRegularFile(directory.resolve(f)));
  }

  private static Path location(Class<?> type) {
    var domain = type.getProtectionDomain();
    var source = domain == null ? null : domain.getCodeSource();
    if (source == null || source.getLocation() == null) {
      return classFileLocation(type);
    }
    if (!"file".equals(source.getLocation().getProtocol())) {
      return null; // the JDK (jrt:), a nested jar
    }
    try {
      return Path.of(source.getLocation().toURI()).toAbsolutePath().normalize();
    } catch (URISyntaxException | IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * The directory or jar its loader reads {@code type}'s class file from: a framework's loader
   * may define a class with no code source. None for a class defined from bytes alone (a
   * proxy, a bean subclass), nor for the JDK's.
   */
  private static Path classFileLocation(Class<?> type) {
    ClassLoader loader = type.getClassLoader();
    String file = type.getName().replace('.', '/') + ".class";
    URL url = loader == null ? null : loader.getResource(file);
    if (url != null && !"file".equals(url.getProtocol()) && !"jar".equals(url.getProtocol())) {
      // a framework's own scheme (Quarkus' quarkus: for a class it transformed): the class
      // path says where the file it was made from is
      url = ClassLoader.getSystemResource(file);
    }
    if (url == null) {
      return null;
    }
    try {
      if ("jar".equals(url.getProtocol())) {
        String spec = url.getPath(); // file:/m2/x.jar!/com/x/Y.class
        int bang = spec.indexOf("!/");
        URI jar = URI.create(bang < 0 ? spec : spec.substring(0, bang));
        return "file".equals(jar.getScheme())
            ? Path.of(jar).toAbsolutePath().normalize() : null;
      }
      if ("file".equals(url.getProtocol())) {
        Path path = Path.of(url.toURI()).toAbsolutePath().normalize();
        for (int i = 0; i < file.split("/").length && path != null; i++) {
          path = path.getParent();
        }
        return path;
      }
    } catch (URISyntaxException | IllegalArgumentException e) {
      return null;
    }
    return null;
  }

  /** A directory of classes, or a jar in a build output directory under the project's root. */
  static boolean compiledByTheBuild(Path location) {
    if (location == null || location.equals(OWN_CODE)) {
      return false;
    }
    if (Files.isDirectory(location)) {
      return true;
    }
    if (!location.startsWith(PROJECT_ROOT)) {
      return false;
    }
    for (Path part : PROJECT_ROOT.relativize(location)) {
      if (BUILD_OUTPUTS.contains(part.toString())) {
        return true;
      }
    }
    return false;
  }

  /** Where a class stands for call sites, told once a class. */
  private enum Kind {
    /** JUnit's: the test framework runs what is above it. */
    TEST_FRAMEWORK,
    /** Generated at run time: never the application, whatever its prefixes. */
    GENERATED,
    /** latency-lab's own code. */
    OWN,
    /** Compiled by the build. */
    BUILT,
    /** A jar of someone else's, the JDK, or nowhere. */
    ELSEWHERE;

    static Kind of(Class<?> type) {
      if (type.getName().startsWith("org.junit.")) {
        return TEST_FRAMEWORK;
      }
      if (isGenerated(type.getName()) || Proxy.isProxyClass(type)) {
        return GENERATED;
      }
      Path location = LOCATION.get(type).orElse(null);
      if (location != null && location.equals(OWN_CODE)) {
        return OWN;
      }
      return compiledByTheBuild(location) ? BUILT : ELSEWHERE;
    }
  }

  static boolean isApplication(Class<?> type) {
    return isApplication(type, FRAME_CLASS.get(type).kind());
  }

  private static boolean isApplication(Class<?> type, Kind kind) {
    if (kind == Kind.GENERATED) {
      return false;
    }
    if (!INCLUDED.isEmpty() || !EXCLUDED.isEmpty()) { // a user's prefixes, most runs none
      String name = type.getName();
      if (startsWithAny(name, INCLUDED)) {
        return kind != Kind.OWN;
      }
      if (startsWithAny(name, EXCLUDED)) {
        return false;
      }
    }
    return kind == Kind.BUILT;
  }

  private static boolean startsWithAny(String name, List<String> prefixes) {
    for (String p : prefixes) {
      if (name.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A class a framework generated, in whatever package: Spring's CGLIB ({@code $$SpringCGLIB$$},
   * older {@code $$EnhancerBySpringCGLIB$$}), Hibernate's and ByteBuddy's proxies, Mockito's
   * mocks, the JDK's {@code $ProxyN}, ArC's ({@code _Subclass}, {@code _ClientProxy}) and
   * Weld's beans, Micronaut's {@code $Intercepted}, {@code $Definition} and {@code
   * $Introspection}.
   */
  static boolean isGenerated(String className) {
    String simple = className.substring(className.lastIndexOf('.') + 1);
    return simple.contains("$$") || simple.contains("$HibernateProxy$")
        || simple.contains("$ByteBuddy$") || simple.contains("$MockitoMock$")
        || simple.startsWith("$Proxy") || simple.endsWith("_Subclass")
        || simple.endsWith("_ClientProxy") || simple.contains("_WeldSubclass")
        || simple.contains("_WeldClientProxy") || simple.endsWith("$Intercepted")
        || simple.contains("$Definition") || simple.endsWith("$Introspection");
  }

  /**
   * What an application's method is to call sites, read once a method (every application frame
   * of every traced statement's stack asks): generated into the class (Hibernate's enhancement,
   * {@code $$_hibernate_read_name}; a bridge; a synthetic method other than a lambda's body), the
   * HTTP route it serves ({@link Routes}), and its lines by bytecode index.
   */
  private record MethodFacts(String method, boolean generated, String route,
      Map<Integer, CodeLine> lines) {

    static MethodFacts of(StackWalker.StackFrame f) {
      String name = f.getMethodName();
      Method m = null;
      if (!name.startsWith("<")) { // a constructor, a class initializer
        try {
          m = f.getDeclaringClass().getDeclaredMethod(name, f.getMethodType().parameterArray());
        } catch (NoSuchMethodException | LinkageError | SecurityException e) {
          m = null;
        }
      }
      boolean generated = name.contains("$$_hibernate_") || (m != null
          && !name.startsWith("lambda$") && (m.isBridge() || m.isSynthetic()));
      return new MethodFacts(methodOf(f), generated, m == null ? null : Routes.route(m),
          new ConcurrentHashMap<>());
    }

    CodeLine line(StackWalker.StackFrame f) {
      return lines.computeIfAbsent(f.getByteCodeIndex(), bci -> codeLine(f));
    }
  }

  // by class, then method name and descriptor (a ClassValue: no class kept from unloading)
  private static final ClassValue<Map<String, MethodFacts>> METHODS = new ClassValue<>() {
    @Override
    protected Map<String, MethodFacts> computeValue(Class<?> type) {
      return new ConcurrentHashMap<>();
    }
  };

  private static MethodFacts facts(StackWalker.StackFrame f) {
    return METHODS.get(f.getDeclaringClass()).computeIfAbsent(
        f.getMethodName() + f.getDescriptor(), k -> MethodFacts.of(f));
  }

  /** "AuthorService.listAuthors(AuthorService.java:42)". */
  static String format(StackWalker.StackFrame f) {
    String file = f.getFileName();
    return methodOf(f) + "(" + (file == null ? "Unknown Source"
        : file + (f.getLineNumber() >= 0 ? ":" + f.getLineNumber() : "")) + ")";
  }

  /** "AuthorService.listAuthors": {@link CodeLine#method()}, a lambda as its method. */
  private static String methodOf(StackWalker.StackFrame f) {
    String cls = f.getClassName();
    String simple = cls.substring(cls.lastIndexOf('.') + 1);
    String method = f.getMethodName();
    if (method.startsWith("lambda$")) { // lambda$listAuthors$0 -> listAuthors
      int end = method.indexOf('$', 7);
      method = end > 7 ? method.substring(7, end) : method;
    }
    return simple + "." + method;
  }

  /**
   * Who is writing on this thread: the overhead it is, if any; the application's chain: the
   * frame that asked, then up to {@link #CHAIN} - 1 callers of other methods in code built to
   * the same place (a controller's loop above a finder; the test that drove the controller is
   * another build output, so it ends the chain); and the HTTP route of the nearest handler
   * method on the stack ({@link Routes}), if any. The test framework's frames end the walk, and
   * so do a full chain and a route.
   */
  static Origin origin() {
    return walk(false);
  }

  /**
   * Who builds the reactive pipeline being assembled on this thread: the application's chain as
   * {@link #origin()} finds it, or null when no frame is the application's, or when a pipeline
   * runs above the first one that is (a subscription, a signal): that code waits for what runs,
   * as a test's {@code await()} or {@code block()} does, and did not build it.
   */
  static Origin assembly() {
    return walk(true);
  }

  private static Origin walk(boolean assembly) {
    return WALKER.walk(frames -> {
      Overhead overhead = null;
      CodeLine withoutLine = null;
      List<CodeLine> chain = new ArrayList<>(CHAIN);
      Path chainFrom = null;
      String chainMethod = null; // the chain's last method: a caller is another method
      String route = null;
      for (StackWalker.StackFrame f : (Iterable<StackWalker.StackFrame>) frames::iterator) {
        Class<?> type = f.getDeclaringClass();
        FrameClass frameClass = FRAME_CLASS.get(type);
        Kind kind = frameClass.kind();
        if (kind == Kind.TEST_FRAMEWORK) {
          break; // the test framework runs what is above: no caller of the application's
        }
        MethodFacts facts = isApplication(type, kind) ? facts(f) : null;
        boolean application = facts != null && !facts.generated();
        if (application && route == null) {
          route = facts.route();
        }
        if (route != null && chain.size() == CHAIN) {
          break; // nothing more to learn below the handler: a server's frames, or the test's
        }
        CodeLine line = application ? facts.line(f) : null;
        if (!chain.isEmpty()) {
          if (chain.size() < CHAIN && application && line.line() >= 0
              && Objects.equals(chainFrom, LOCATION.get(type).orElse(null))
              && !facts.method().equals(chainMethod)) {
            chain.add(line);
            chainMethod = facts.method();
          }
          continue;
        }
        if (assembly && !application && isSignal(f)) {
          return null;
        }
        if (application) {
          if (line.line() >= 0) {
            chain.add(line);
            chainFrom = LOCATION.get(type).orElse(null);
            chainMethod = facts.method();
            continue;
          }
          withoutLine = withoutLine != null ? withoutLine : line;
        }
        if (overhead == null) {
          overhead = frameClass.byMethod() ? Overhead.of(f.getClassName(), f::getMethodName)
              : frameClass.overhead();
        }
      }
      if (chain.isEmpty() && withoutLine != null) {
        chain.add(withoutLine);
      }
      if (assembly && chain.isEmpty()) {
        return null;
      }
      return new Origin(overhead, List.copyOf(chain), route);
    });
  }

  // a reactive library running a pipeline: a subscription or a signal down it
  private static boolean isSignal(StackWalker.StackFrame f) {
    String name = f.getMethodName();
    return name.startsWith("subscribe") || SIGNALS.contains(name)
        || (ITEM_SIGNALS.contains(name) && f.getMethodType().parameterCount() > 0);
  }

  private static CodeLine codeLine(StackWalker.StackFrame f) {
    String file = f.getFileName();
    String pkg = f.getDeclaringClass().getPackageName();
    return new CodeLine(format(f), file == null ? null
        : (pkg.isEmpty() ? "" : pkg.replace('.', '/') + "/") + file, f.getLineNumber());
  }

  /** What a round trip was for, the application's chain that asked for it, its route. */
  record Origin(Overhead overhead, List<CodeLine> chain, String route) {
  }
}
