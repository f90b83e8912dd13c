package io.github.latencylab.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.latencylab.report.Results;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * latencylab.audit=true on a suite whose classes name no latency-lab at all, run as a build
 * runs them (a launcher session, its listeners found by service loading): every test counted
 * and reported, the tests that sent nothing listed with why, a budget already written kept, the
 * findings ranked with their chains, in SARIF at this file's lines, and ratcheted.
 */
class AuditTest {

  static final String SUITE = AuditTest.class.getName() + "$";

  @TempDir
  Path dir;

  @Test
  void oneSwitchCountsEveryTestAndRanksItsFindings() throws Exception {
    Path report = dir.resolve("latency-report");
    Map<String, String> outcomes = audit(report, dir.resolve("findings.json"), false,
        OwnerRepositoryTests.class, ArithmeticTests.class, SwappedDatabaseTests.class,
        BudgetedTests.class);

    assertThat(outcomes).containsOnlyKeys("ArithmeticTests.addition",
        "BudgetedTests.overItsBudget", "OwnerRepositoryTests.ownerPage",
        "OwnerRepositoryTests.ownersInOneQuery",
        "OwnerRepositoryTests.ownersOneByOne", "SwappedDatabaseTests.onH2");
    assertThat(outcomes).as("an audit fails no test of its own accord; a budget still does")
        .containsEntry("ArithmeticTests.addition", "SUCCESSFUL")
        .containsEntry("OwnerRepositoryTests.ownersOneByOne", "SUCCESSFUL")
        .containsEntry("SwappedDatabaseTests.onH2", "SUCCESSFUL");
    assertThat(outcomes.get("BudgetedTests.overItsBudget")).startsWith("FAILED: overItsBudget():"
        + " expected at most 2 round trips, but there were 3 (3 SQL statements)");

    Results results = Results.read(report.resolve("results.json"));
    assertThat(results.cells()).extracting(c -> c.key()).contains(
        SUITE + "OwnerRepositoryTests.ownersOneByOne @ 0ms",
        SUITE + "OwnerRepositoryTests.ownersInOneQuery @ 0ms",
        SUITE + "BudgetedTests.overItsBudget @ 0ms")
        .as("a test that sent nothing is listed, not a row")
        .noneMatch(k -> k.contains("ArithmeticTests") || k.contains("SwappedDatabaseTests"));

    String md = Files.readString(report.resolve("report.md"));
    int line = lineOf("the N+1's statement");
    assertThat(md.indexOf("### Findings")).as("the findings lead the report")
        .isGreaterThan(-1).isLessThan(md.indexOf("### AuditTest$OwnerRepositoryTests"));
    assertThat(md)
        .contains("2 N+1s in 3 of 4 tests counted. Fixing them would save 7 of the 11 round"
            + " trips the tests sent (64%): 140 ms at 20ms, 560 ms at 80ms of the wire.")
        .contains("1. N+1: `SELECT ?::int AS id`\n   from `AuditTest$OwnerRepositoryTests"
            + ".ownersOneByOne("
            + "AuditTest.java:" + lineOf("the loop's caller") + ")` -> `AuditTest.owners("
            + "AuditTest.java:" + lineOf("the loop") + ")` -> `AuditTest.ownerById("
            + "AuditTest.java:" + line + ")`\n"
            + "   from `AuditTest$OwnerController.pets(AuditTest.java:"
            + lineOf("the handler's loop") + ")` -> `AuditTest.owners(")
        .contains("   on GET /owners/{ownerId}/pets\n"
            + "   7 round trips in 2 tests (at most 4 in one), 5 avoidable: 100 ms at 20ms, 400"
            + " ms at 80ms\n")
        .contains("### Endpoints: round trips per HTTP route the tests drove\n\n```\n"
            + "GET /owners/{ownerId}/pets: 3 round trips in 1 test, 2 avoidable (40.00 ms at"
            + " 20ms, 160 ms at 80ms)\n```")
        .contains("2. N+1: `SELECT ?::int AS n`\n   from `AuditTest$BudgetedTests.overItsBudget(")
        .contains("### Not audited: 2 tests sent no SQL the Lab counted")
        .contains("no SQL reached the Lab's database: a test of code that sends none, or SQL"
            + " on another database:\n  " + SUITE + "ArithmeticTests (1 test)")
        .contains("Spring's @AutoConfigureTestDatabase put an embedded database in the Lab's"
            + " place");

    JsonNode sarif = new ObjectMapper().readTree(report.resolve("findings.sarif").toFile());
    assertThat(sarif.path("version").asText()).isEqualTo("2.1.0");
    JsonNode result = sarif.path("runs").path(0).path("results").path(0);
    assertThat(result.path("ruleId").asText()).isEqualTo("latency-lab/n-plus-one");
    JsonNode at = result.path("locations").path(0).path("physicalLocation");
    assertThat(at.path("artifactLocation").path("uri").asText())
        .as("relative to the repository's root, a file of the repository")
        .endsWith("src/test/java/io/github/latencylab/junit/AuditTest.java")
        .satisfies(uri -> assertThat(Sarif.repositoryRoot(Path.of("").toAbsolutePath())
            .resolve(uri)).isRegularFile());
    assertThat(at.path("region").path("startLine").asInt()).isEqualTo(line);
    assertThat(result.path("relatedLocations")).as("the callers of both chains, each once")
        .extracting(l -> l.path("physicalLocation").path("region").path("startLine").asInt())
        .containsExactly(lineOf("the loop"), lineOf("the loop's caller"),
            lineOf("the handler's loop"));
    assertThat(Files.readString(report.resolve("findings.md")))
        .contains("| 1 | N+1 | `SELECT ?::int AS id` |");
  }

  @Test
  void theRatchetFailsANewNPlusOneAndAMoreExpensiveOneNeverOneItHad() throws Exception {
    Path report = dir.resolve("latency-report");
    Path findings = dir.resolve("latency-findings.json");
    audit(report, findings, true, OwnerRepositoryTests.class);
    assertThat(Files.readString(findings)).contains("\"maxRoundTripsInOneTest\" : 4");

    Map<String, String> again = audit(report, findings, false, OwnerRepositoryTests.class);
    assertThat(again).as("the findings it had pass").allSatisfy((test, outcome) ->
        assertThat(outcome).isEqualTo("SUCCESSFUL"));

    OwnerRepositoryTests.seeded = true; // a new N+1, and the old one one owner longer
    try {
      Map<String, String> seeded = audit(report, findings, false, OwnerRepositoryTests.class);
      assertThat(seeded.get("OwnerRepositoryTests.ownersOneByOne")).startsWith(
          "FAILED: latency-lab findings the committed ones do not allow (if intended, rewrite"
              + " them with -Dlatencylab.updateBaseline=true and commit them):\n"
              + "more expensive N+1: `SELECT ?::int AS id` ran 5 times in 5 round trips from")
          .contains(": 5 round trips in this test, 4 allowed by " + findings);
      assertThat(seeded.get("OwnerRepositoryTests.ownersInOneQuery")).startsWith(
          "FAILED: latency-lab findings the committed ones do not allow").contains(
              "new N+1: `SELECT ?::int AS pet` ran 3 times in 3 round trips from"
                  + " `AuditTest$OwnerRepositoryTests.ownersInOneQuery(AuditTest.java:"
                  + lineOf("a seeded N+1") + ")` (not in " + findings + ")");
    } finally {
      OwnerRepositoryTests.seeded = false;
    }
  }

  @Test
  void aReportAnotherJvmOfTheRunWroteIsKeptBesideThisOnes() throws Exception {
    Path report = dir.resolve("latency-report");
    Files.createDirectories(report);
    Files.writeString(report.resolve(".written-by-jvm"), "1\n"); // a surefire fork, just now
    Files.writeString(report.resolve("report.md"), "the other fork's report\n");

    audit(report, dir.resolve("findings.json"), false, OwnerRepositoryTests.class);

    assertThat(Files.readString(report.resolve("report.md")))
        .isEqualTo("the other fork's report\n");
    assertThat(Files.readString(report.resolve("jvm-" + ProcessHandle.current().pid())
        .resolve("report.md"))).contains("### Findings");
  }

  // surefire's forks (forkCount above 1) run each test class as a run of its own in a JVM
  // they reuse, and every run closes the report: each write holds the JVM's earlier runs too
  @Test
  void aJvmsRunsOneClassAtATimeWriteOneReportOfThemAll() throws Exception {
    Path report = dir.resolve("latency-report");
    audit(report, dir.resolve("findings.json"), false, OwnerRepositoryTests.class);
    audit(report, dir.resolve("findings.json"), false, VisitWriterTests.class);

    assertThat(Files.readString(report.resolve("report.md")))
        .contains("AuditTest$OwnerRepositoryTests.ownersOneByOne")
        .contains("AuditTest$VisitWriterTests.visitsOneByOne")
        .contains("1. N+1: ", "row-by-row write: `INSERT INTO audit_visits VALUES (?)`");
  }

  @Test
  void aModuleWithNoSqlAtAllIsReportedAsNotAudited() throws Exception {
    Path report = dir.resolve("latency-report");
    assertThat(audit(report, dir.resolve("findings.json"), false, ArithmeticTests.class))
        .containsExactly(Map.entry("ArithmeticTests.addition", "SUCCESSFUL"));

    assertThat(Files.readString(report.resolve("report.md")))
        .contains("No N+1 and no row-by-row write in the 0 tests counted (0 round trips).")
        .contains("### Not audited: 1 test sent no SQL the Lab counted");
  }

  @Test
  void rowByRowWritesAreAFindingOfTheirOwn() throws Exception {
    Path report = dir.resolve("latency-report");
    assertThat(audit(report, dir.resolve("findings.json"), false, VisitWriterTests.class))
        .containsEntry("VisitWriterTests.visitsOneByOne", "SUCCESSFUL");

    assertThat(Files.readString(report.resolve("report.md")))
        .contains("1 row-by-row write in 1 of 1 test counted.")
        .contains("1. row-by-row write: `INSERT INTO audit_visits VALUES (?)`\n"
            + "   from `AuditTest$VisitWriterTests.visitsOneByOne(AuditTest.java:"
            + lineOf("a write per row") + ")`\n"
            + "   4 round trips in 1 test (at most 4 in one), 3 avoidable");
    JsonNode sarif = new ObjectMapper().readTree(report.resolve("findings.sarif").toFile());
    assertThat(sarif.path("runs").path(0).path("results").path(0).path("ruleId").asText())
        .isEqualTo("latency-lab/row-by-row");
  }

  /** The suite run with the switch on, as a build's launcher session: each test's outcome. */
  static Map<String, String> audit(Path report, Path findings, boolean update,
      Class<?>... classes) {
    String before = System.getProperty("latencylab.audit");
    System.setProperty("latencylab.audit", "true");
    Map<String, String> outcomes = new TreeMap<>();
    try (LauncherSession session = LauncherFactory.openSession()) {
      session.getLauncher().execute(LauncherDiscoveryRequestBuilder.request()
          .selectors(java.util.Arrays.stream(classes).map(c -> selectClass(c)).toList())
          .configurationParameter("latencylab.backend", "embedded")
          .configurationParameter("latencylab.report.dir", report.toString())
          .configurationParameter("latencylab.report.baseline",
              report.resolveSibling("none.json").toString())
          .configurationParameter("latencylab.findings", findings.toString())
          .configurationParameter("latencylab.updateBaseline", String.valueOf(update))
          .build(), new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
              if (id.isTest()) {
                String cls = id.getUniqueIdObject().getSegments().get(1).getValue();
                String method = id.getDisplayName();
                outcomes.put(cls.substring(cls.indexOf('$') + 1) + "." + method.substring(0,
                    method.indexOf('(')), result.getStatus() + result.getThrowable()
                        .map(t -> ": " + t.getMessage()).orElse(""));
              }
            }
          });
    } finally {
      if (before == null) {
        System.clearProperty("latencylab.audit");
      } else {
        System.setProperty("latencylab.audit", before);
      }
    }
    assertThat(System.getProperty(AuditSession.AUTODETECTION)).as("put back").isNull();
    return outcomes;
  }

  private static int lineOf(String marker) throws Exception {
    List<String> lines = Files.readAllLines(Path.of(
        "src/test/java/io/github/latencylab/junit/AuditTest.java"));
    List<Integer> found = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).endsWith("// " + marker)) {
        found.add(i + 1);
      }
    }
    assertThat(found).as(marker).hasSize(1);
    return found.get(0);
  }

  static Connection labConnection() throws Exception {
    return DriverManager.getConnection(System.getProperty(LabExtension.URL_PROPERTY),
        System.getProperty(LabExtension.USER_PROPERTY),
        System.getProperty(LabExtension.PASSWORD_PROPERTY));
  }

  static void owners(Connection c, int owners) throws Exception {
    for (int i = 1; i <= owners; i++) {
      ownerById(c, i); // the loop
    }
  }

  static int ownerById(Connection c, int id) throws Exception {
    try (PreparedStatement ps = c.prepareStatement("SELECT ?::int AS id")) {
      ps.setInt(1, id);
      try (ResultSet rs = ps.executeQuery()) { // the N+1's statement
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  @Retention(RetentionPolicy.RUNTIME)
  public @interface RequestMapping {
    String[] value();
  }

  @Retention(RetentionPolicy.RUNTIME)
  public @interface GetMapping {
    String[] value();
  }

  /** Named as Spring's mapping annotations are, which latency-lab reads by name. */
  @RequestMapping("/owners")
  static class OwnerController {
    @GetMapping("/{ownerId}/pets")
    void pets(Connection c) throws Exception {
      owners(c, 3); // the handler's loop
    }
  }

  /** A team's repository tests: no latency-lab in sight. Run by {@link AuditTest} only. */
  static class OwnerRepositoryTests {

    static boolean seeded;

    @Test
    void ownersOneByOne() throws Exception {
      try (Connection c = labConnection()) {
        owners(c, seeded ? 5 : 4); // the loop's caller
      }
    }

    @Test
    void ownerPage() throws Exception {
      try (Connection c = labConnection()) {
        new OwnerController().pets(c);
      }
    }

    @Test
    void ownersInOneQuery() throws Exception {
      try (Connection c = labConnection()) {
        ownerById(c, 1);
        if (seeded) {
          for (int i = 0; i < 3; i++) {
            try (PreparedStatement ps = c.prepareStatement("SELECT ?::int AS pet")) {
              ps.setInt(1, i);
              ps.executeQuery().close(); // a seeded N+1
            }
          }
        }
      }
    }
  }

  /** Writes one row at a time, each its own round trip. */
  static class VisitWriterTests {

    @Test
    void visitsOneByOne() throws Exception {
      try (Connection c = labConnection()) {
        c.createStatement().execute("CREATE TEMP TABLE audit_visits (id int)");
        try (PreparedStatement insert = c.prepareStatement(
            "INSERT INTO audit_visits VALUES (?)")) {
          for (int i = 0; i < 4; i++) {
            insert.setInt(1, i);
            insert.executeUpdate(); // a write per row
          }
        }
      }
    }
  }

  /** A unit test: nothing for the Lab. */
  static class ArithmeticTests {

    @Test
    void addition() {
      assertThat(2 + 2).isEqualTo(4);
    }
  }

  /** Named as Spring Boot's, which latency-lab reads by name. */
  @Retention(RetentionPolicy.RUNTIME)
  @interface AutoConfigureTestDatabase {
    String replace() default "ANY";
  }

  /** A test whose database a Spring slice swapped for H2: nothing reaches the Lab. */
  @AutoConfigureTestDatabase
  static class SwappedDatabaseTests {

    @Test
    void onH2() {
      assertThat("h2").isNotEmpty();
    }
  }

  /** A budget already written: still checked, and counted once. */
  @ExtendWith(LabExtension.class)
  static class BudgetedTests {

    @Test
    @ExpectRoundTrips(max = 2)
    void overItsBudget(Connection connection) throws Exception {
      LabExtensionTest.select(connection, 3);
    }
  }
}
