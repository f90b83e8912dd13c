package io.github.latencylab.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every nasty value of the {@link Corpus} comes back exactly as it went in, with every helper. */
class NastyValuesTest {

  private static Lab lab;

  @BeforeAll
  static void start() {
    lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));
  }

  @AfterAll
  static void stop() {
    lab.close();
  }

  @ParameterizedTest
  @EnumSource(Loader.class)
  void corpusComesBackExactly(Loader loader) throws Exception {
    assertThat(Corpus.ENTRIES).hasSizeGreaterThanOrEqualTo(50);
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS corpus");
      st.execute(Corpus.createTable("corpus"));
      List<Object[]> rows = Corpus.rows();
      if (loader == Loader.COPY_UPSERT) {
        // the same ids with other values first, so the upsert updates every row
        st.execute("INSERT INTO corpus (id, t, i4, by) SELECT g, 'old', -1, '\\x00'"
            + " FROM generate_series(1, " + rows.size() + ") g");
      }

      long loaded = loader.load(c, List.of("corpus"), Corpus.COLUMNS, rows);

      assertThat(loaded).isEqualTo(rows.size());
      assertThat(Corpus.differences(Corpus.expectedRows(), Corpus.readBack(c, "corpus")))
          .as("values that did not come back exactly, via " + loader).isEmpty();
    }
  }

  /**
   * CopyLoader encodes numbers, dates and times itself, with fast paths for the common
   * shapes: 3,000 seeded random values of each come back exactly in every format.
   */
  @ParameterizedTest
  @EnumSource(value = Loader.class, names = {"COPY_TEXT", "COPY_CSV", "COPY_BINARY"})
  void randomNumbersDatesAndTimesComeBackExactly(Loader loader) throws Exception {
    java.util.SplittableRandom random = new java.util.SplittableRandom(7);
    List<Object[]> rows = new ArrayList<>();
    for (long id = 1; id <= 3_000; id++) {
      int digits = 1 + random.nextInt(24); // both sides of the 15- and 18-digit fast paths
      StringBuilder unscaled = new StringBuilder(random.nextBoolean() ? "-" : "");
      for (int d = 0; d < digits; d++) {
        unscaled.append(random.nextInt(10));
      }
      java.math.BigDecimal n = new java.math.BigDecimal(new java.math.BigInteger(
          unscaled.toString()), random.nextInt(30));
      java.time.LocalDateTime t = java.time.LocalDateTime.of(1 + random.nextInt(9999), 1, 1, 0, 0)
          .plusSeconds(random.nextLong(366L * 86_400)).plusNanos(random.nextInt(1_000_000) * 1000L);
      byte[] bytes = new byte[random.nextInt(40)];
      random.nextBytes(bytes);
      Object[] row = new Object[Corpus.COLUMNS.size()];
      row[Corpus.index("id")] = id;
      row[Corpus.index("i8")] = random.nextLong();
      row[Corpus.index("i4")] = random.nextInt();
      row[Corpus.index("n")] = n;
      row[Corpus.index("d")] = t.toLocalDate();
      row[Corpus.index("ts")] = t;
      row[Corpus.index("tz")] = t.atOffset(java.time.ZoneOffset.UTC);
      row[Corpus.index("u")] = new java.util.UUID(random.nextLong(), random.nextLong());
      row[Corpus.index("by")] = bytes;
      rows.add(row);
    }
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS randoms");
      st.execute(Corpus.createTable("randoms"));
      assertThat(loader.load(c, List.of("randoms"), Corpus.COLUMNS, rows)).isEqualTo(3_000);
      assertThat(Corpus.differences(rows, Corpus.readBack(c, "randoms"))).isEmpty();
    }
  }

  private static final String HOSTILE_SCHEMA = "s\"; DROP TABLE victim; --";
  private static final String HOSTILE_TABLE = "x\"; DROP TABLE victim; --";
  private static final List<Corpus.Col> HOSTILE_COLUMNS = List.of(
      new Corpus.Col("id\"); DROP TABLE victim; --", "int8 PRIMARY KEY", "INT8"),
      new Corpus.Col("select", "text", "TEXT"),
      new Corpus.Col("a b, \"c\"", "varchar(3)", "VARCHAR"),
      new Corpus.Col("\u00E9\uD83D\uDE00 ", "int4", "INT4"));

  /** Names are quoted as identifiers, never spliced into SQL: nothing else is touched. */
  @ParameterizedTest
  @EnumSource(Loader.class)
  void hostileNamesAreQuotedNotExecuted(Loader loader) throws Exception {
    String table = quote(HOSTILE_SCHEMA) + "." + quote(HOSTILE_TABLE);
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS victim; CREATE TABLE victim (x int); INSERT INTO victim"
          + " VALUES (1)");
      st.execute("DROP SCHEMA IF EXISTS " + quote(HOSTILE_SCHEMA) + " CASCADE; CREATE SCHEMA "
          + quote(HOSTILE_SCHEMA));
      List<String> columns = new ArrayList<>();
      HOSTILE_COLUMNS.forEach(col -> columns.add(quote(col.name()) + " " + col.sqlType()));
      st.execute("CREATE TABLE " + table + " (" + String.join(", ", columns) + ")");
      List<String> name = List.of(HOSTILE_SCHEMA, HOSTILE_TABLE);

      long loaded = loader.load(c, name, HOSTILE_COLUMNS, List.of(
          new Object[] {1L, "one", "a,b", 1}, new Object[] {2L, null, "\"", 2},
          new Object[] {3L, "three", "", null}));

      assertThat(loaded).isEqualTo(3);
      try (ResultSet rs = st.executeQuery("SELECT " + quote(HOSTILE_COLUMNS.get(2).name())
          + " FROM " + table + " ORDER BY 1")) {
        List<String> values = new ArrayList<>();
        while (rs.next()) {
          values.add(rs.getString(1));
        }
        assertThat(values).containsExactly("", "\"", "a,b");
      }
      assertThat(count(st, "victim")).isEqualTo(1);

      // an error in a hostile column of a hostile table still names both
      assertThatThrownBy(() -> loader.load(c, name, HOSTILE_COLUMNS, List.of(
          new Object[] {4L, "four", "ok", 4}, new Object[] {5L, "five", "long", 5})))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining(loader.name().startsWith("COPY")
              ? "failed at row index 1, column \"a b, \"c\"\": ERROR: value too long"
              : "ERROR: value too long");
      assertThat(count(st, table)).isEqualTo(3);
      assertThat(count(st, "victim")).isEqualTo(1);
    }
  }

  private static String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }

  private static long count(Statement st, String table) throws SQLException {
    try (ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
