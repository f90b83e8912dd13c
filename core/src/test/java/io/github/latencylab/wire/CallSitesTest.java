package io.github.latencylab.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.samples.callsites.ClinicQueries;

/**
 * A statement's call site is the user's line, not a class a framework generated in the user's
 * package around it: a Spring Data repository is a JDK proxy (in the interface's package when
 * the interface is not public), a {@code @Transactional} service a CGLIB subclass named
 * {@code LibraryService$$SpringCGLIB$$0}, a lazy entity a {@code $HibernateProxy$}.
 */
class CallSitesTest {

  static Lab lab;
  static Connection connection;

  @BeforeAll
  static void start() throws SQLException {
    lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));
    lab.wire().trace();
    CallSites.exclude(List.of(Framework.class.getName()));
    connection = lab.dataSource().getConnection();
  }

  @AfterAll
  static void stop() throws SQLException {
    connection.close();
    lab.close();
  }

  /** What a Spring Data repository interface looks like to the JDK: package-private here. */
  interface Repository {
    void selectOne() throws SQLException;
  }

  /** Stands for Spring Data's handler behind the proxy: excluded like org.springframework. */
  static class Framework implements InvocationHandler {
    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws SQLException {
      try (Statement st = connection.createStatement()) {
        st.execute("select 1");
      }
      return null;
    }

    /** What Spring's transaction interceptor does after the method: commit. */
    static void commit() throws SQLException {
      try (Statement st = connection.createStatement()) {
        st.execute("select 3");
      }
    }
  }

  /** A service, and what Spring's CGLIB makes of it: a subclass in the same package. */
  static class Service {
    void selectTwo() throws SQLException {
      try (Statement st = connection.createStatement()) {
        st.execute("select 2");
      }
    }
  }

  static class Service$$SpringCGLIB$$0 extends Service {
    @Override
    void selectTwo() throws SQLException {
      super.selectTwo(); // the generated class calls the real method, then commits
      Framework.commit();
    }
  }

  @Test
  void aJdkProxyInTheApplicationsPackageIsNotTheCallSite() throws SQLException {
    Repository repository = (Repository) Proxy.newProxyInstance(
        Repository.class.getClassLoader(), new Class<?>[] {Repository.class}, new Framework());
    assertThat(repository.getClass().getName()).startsWith("io.github.latencylab.wire.$Proxy");

    WireStats before = lab.wire().snapshot();
    repository.selectOne(); // the call site
    assertThat(callSites(before)).containsExactly(
        "CallSitesTest.aJdkProxyInTheApplicationsPackageIsNotTheCallSite(CallSitesTest.java:93)");
  }

  @Test
  void aCglibSubclassIsNotTheCallSiteButTheRealMethodIs() throws SQLException {
    WireStats before = lab.wire().snapshot();
    new Service$$SpringCGLIB$$0().selectTwo(); // the commit's call site
    assertThat(callSites(before)).containsExactly(
        "CallSitesTest$Service.selectTwo(CallSitesTest.java:73)",
        "CallSitesTest.aCglibSubclassIsNotTheCallSiteButTheRealMethodIs(CallSitesTest.java:101)");
  }

  @Test
  void anApplicationUnderAFrameworksPackageIsStillTheApplication() throws SQLException {
    WireStats before = lab.wire().snapshot();
    ClinicQueries.selectVets(connection);
    assertThat(callSites(before)).containsExactly(
        "ClinicQueries.selectVets(ClinicQueries.java:18)");
  }

  @Test
  void theApplicationIsWhatTheBuildCompiledNotWhatCameFromJars() {
    assertThat(CallSites.isApplication(CallSitesTest.class)).as("test-classes").isTrue();
    assertThat(CallSites.isApplication(ClinicQueries.class)).as("org.springframework.samples")
        .isTrue();
    assertThat(CallSites.isApplication(org.postgresql.Driver.class)).as("pgjdbc's jar")
        .isFalse();
    assertThat(CallSites.isApplication(String.class)).as("the JDK").isFalse();
    assertThat(CallSites.isApplication(CallSites.class)).as("latency-lab's own").isFalse();

    Path root = CallSites.projectRoot(Path.of("").toAbsolutePath());
    assertThat(root.resolve("pom.xml")).as("the project's root, above core/").exists();
    assertThat(root).isEqualTo(Path.of("..").toAbsolutePath().normalize());
    assertThat(CallSites.compiledByTheBuild(root.resolve("loaders/target/loaders-0.1.0.jar")))
        .as("a sibling module's jar").isTrue();
    assertThat(CallSites.compiledByTheBuild(root.resolve(".m2/repository/x/x/1/x-1.jar")))
        .as("a local repository kept inside the project (GitLab CI's cache)").isFalse();
  }

  @Test
  void anIncludeWinsOverAnExcludeAndOverWhereTheClassCameFrom() {
    // a pgjdbc class that never sends a statement, so other tests' call sites stay as they are
    Class<?> library = org.postgresql.util.PGInterval.class;
    CallSites.exclude(List.of(library.getName()));
    assertThat(CallSites.isApplication(library)).isFalse();
    CallSites.include(List.of(library.getName()));
    assertThat(CallSites.isApplication(library)).isTrue();
    CallSites.exclude(List.of(CallSitesTest.class.getName() + "$Nothing"));
    assertThat(CallSites.isApplication(Nothing.class)).as("excluded").isFalse();
  }

  static final class Nothing {
  }

  @Test
  void generatedClassNamesAreNotTheApplication() {
    assertThat(CallSites.isGenerated("com.example.library.LibraryService")).isFalse();
    for (String generated : List.of("com.example.library.LibraryService$$SpringCGLIB$$0",
        "com.example.library.LibraryService$$EnhancerBySpringCGLIB$$5f1a",
        "com.example.library.Author$HibernateProxy$Xy12Ab",
        "com.example.library.Author$ByteBuddy$Mock", "com.example.library.$Proxy42",
        "com.example.library.AuthorService$MockitoMock$123",
        "org.acme.petclinic.VisitResource_Subclass", "org.acme.petclinic.OwnerService_ClientProxy",
        "example.ProductRepository$Intercepted", "example.$ProductRepository$Definition",
        "example.$ProductRepository$Intercepted$Definition$Exec",
        "example.$Product$Introspection", "org.acme.Visit$Proxy$_$$_WeldSubclass")) {
      assertThat(CallSites.isGenerated(generated)).as(generated).isTrue();
    }
  }

  /** An entity as Hibernate's bytecode enhancement leaves it: a generated reader in the class. */
  static class Pet {
    String $$_hibernate_read_name() throws SQLException {
      try (Statement st = connection.createStatement()) {
        st.execute("select 4");
      }
      return "Leo";
    }
  }

  /** A resource, and ArC's interceptor subclass of it (Quarkus), in the same package. */
  static class VisitResource {
    void visits() throws SQLException {
      new Pet().$$_hibernate_read_name();
    }
  }

  static class VisitResource_Subclass extends VisitResource {
    @Override
    void visits() throws SQLException {
      super.visits();
    }
  }

  @Test
  void codeGeneratedIntoOrAroundTheApplicationsClassesIsNotTheCallSite() throws SQLException {
    WireStats before = lab.wire().snapshot();
    new VisitResource_Subclass().visits();
    assertThat(callSites(before)).containsExactly(
        "CallSitesTest$VisitResource.visits(CallSitesTest.java:178)");
  }

  @Test
  void aClassWithNoCodeSourceIsPlacedByWhereItsLoaderFindsItsClassFile() throws Exception {
    // Quarkus defines the application's classes with no code source, or none with a location
    try (NoCodeSourceLoader quarkusLike = new NoCodeSourceLoader()) {
      Class<?> fromTestClasses = quarkusLike.define(Nothing.class.getName());
      assertThat(fromTestClasses.getProtectionDomain().getCodeSource().getLocation()).isNull();
      assertThat(CallSites.isApplication(fromTestClasses)).as("from test-classes").isTrue();
      Class<?> fromPgjdbcsJar = quarkusLike.define("org.postgresql.util.PGmoney");
      assertThat(fromPgjdbcsJar.getProtectionDomain().getCodeSource().getLocation()).isNull();
      assertThat(CallSites.isApplication(fromPgjdbcsJar)).as("from pgjdbc's jar").isFalse();
    }
  }

  /** Defines classes from their class files with no protection domain, as Quarkus does. */
  static final class NoCodeSourceLoader extends java.net.URLClassLoader {
    NoCodeSourceLoader() {
      super(new java.net.URL[] {
          CallSitesTest.class.getProtectionDomain().getCodeSource().getLocation(),
          org.postgresql.Driver.class.getProtectionDomain().getCodeSource().getLocation()},
          CallSitesTest.class.getClassLoader());
    }

    Class<?> define(String name) throws java.io.IOException {
      try (var in = getResourceAsStream(name.replace('.', '/') + ".class")) {
        byte[] bytes = in.readAllBytes();
        return defineClass(name, bytes, 0, bytes.length);
      }
    }
  }

  private static List<String> callSites(WireStats before) {
    return lab.wire().statementsSince(before).stream().map(WireStatement::callSite).toList();
  }
}
