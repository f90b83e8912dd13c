package io.github.latencylab.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input gets an exception that names the row and column, and leaves the table as it was
 * and the connection usable, with every helper.
 */
class BadInputTest {

  private static final List<Corpus.Col> COLUMNS = List.of(
      new Corpus.Col("id", "int8 PRIMARY KEY", "INT8"),
      new Corpus.Col("t", "text", "TEXT"),
      new Corpus.Col("i4", "int4", "INT4"),
      new Corpus.Col("f8", "float8", "FLOAT8"),
      new Corpus.Col("d", "date", "DATE"),
      new Corpus.Col("n", "numeric", "NUMERIC"),
      new Corpus.Col("vc", "varchar(5)", "VARCHAR"),
      new Corpus.Col("tz", "timestamptz", "TIMESTAMPTZ"));

  private static final int ROWS = 2000;
  private static final int BAD = 1500; // past what every helper has sent by then
  private static final long EXISTING = 100_000; // ids of the rows the table holds before

  private static Lab lab;

  @BeforeAll
  static void start() {
    lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));
  }

  @AfterAll
  static void stop() {
    lab.close();
  }

  @BeforeEach
  void createTable() throws SQLException {
    try (Connection c = lab.directDataSource().getConnection();
        Statement st = c.createStatement()) {
      StringBuilder sql = new StringBuilder("DROP TABLE IF EXISTS bad; CREATE TABLE bad (");
      for (int i = 0; i < COLUMNS.size(); i++) {
        sql.append(i == 0 ? "" : ", ").append(COLUMNS.get(i).name()).append(' ')
            .append(COLUMNS.get(i).sqlType());
      }
      st.execute(sql.append(')').toString());
      st.execute("INSERT INTO bad (id, t, i4, f8, d, n, vc) VALUES"
          + " (" + EXISTING + ", 'before', 1, 1.5, '2024-01-01', 1, 'x'),"
          + " (" + (EXISTING + 1) + ", 'before', 2, 2.5, '2024-01-02', 2, 'y')");
    }
  }

  /** A good row; its text has line breaks, so CSV's line numbers run ahead of its rows. */
  private static Object[] good(long i) {
    return new Object[] {i, i == 0 ? "first\rrow\r\n" : "row " + i + "\r\n\n\r", (int) i,
        i * 0.5, LocalDate.of(2024, 1, 1).plusDays(i), BigDecimal.valueOf(i, 2), "ok",
        Instant.ofEpochSecond(1_700_000_000L + i)};
  }

  private static List<Object[]> rowsWith(int index, Object[] bad) {
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      rows.add(i == index ? bad : good(i));
    }
    return rows;
  }

  private static Object[] goodWith(int column, Object value) {
    Object[] row = good(BAD);
    row[column] = value;
    return row;
  }

  /** Bad values every helper must refuse before PostgreSQL sees them. */
  static Stream<Arguments> clientSideErrors() {
    List<Arguments> cases = new ArrayList<>();
    Object[][] bad = {
        {"NUL in text", goodWith(1, "abc\u0000def"),
            "row index 1500, column \"t\" (TEXT): contains a NUL character (\\u0000) at index 3;"
                + " PostgreSQL cannot store NUL in text"},
        {"unpaired surrogate", goodWith(1, "a\uD800b"),
            "row index 1500, column \"t\" (TEXT): contains an unpaired surrogate (\\uD800) at"
                + " index 1, which has no UTF-8 encoding"},
        {"String for int4", goodWith(2, "42"),
            "row index 1500, column \"i4\" (INT4): expected Integer or Short, got"
                + " java.lang.String"},
        {"Long for int4 (no narrowing)", goodWith(2, 42L),
            "row index 1500, column \"i4\" (INT4): expected Integer or Short, got java.lang.Long"},
        {"Float for float8 (no widening)", goodWith(3, 0.1f),
            "row index 1500, column \"f8\" (FLOAT8): expected Double, got java.lang.Float"},
        {"date after 5874897-12-31", goodWith(4, LocalDate.of(5_874_898, 1, 1)),
            "row index 1500, column \"d\" (DATE): date +5874898-01-01 is outside PostgreSQL's"
                + " range 4714-11-24 BC to 5874897-12-31 (LocalDate.MIN/MAX mean"
                + " -infinity/infinity)"},
        {"numeric scale 16384", goodWith(5, new BigDecimal("1E-16384")),
            "row index 1500, column \"n\" (NUMERIC): has 16384 digits after the decimal point;"
                + " PostgreSQL numeric keeps at most 16383"},
        {"Instant.MAX", goodWith(7, Instant.MAX),
            "row index 1500, column \"tz\" (TIMESTAMPTZ): timestamp"
                + " +1000000000-12-31T23:59:59.999999999Z is outside PostgreSQL's range"
                + " 4714-11-24 00:00 BC to 294276-12-31 23:59:59.999999 UTC"
                + " (OffsetDateTime.MIN/MAX mean -infinity/infinity)"},
        {"an offset past LocalDateTime.MAX in UTC",
            goodWith(7, OffsetDateTime.of(LocalDateTime.MAX.minusDays(1), ZoneOffset.MIN)),
            "row index 1500, column \"tz\" (TIMESTAMPTZ): timestamp"
                + " +999999999-12-30T23:59:59.999999999-18:00 is outside PostgreSQL's range"
                + " 4714-11-24 00:00 BC to 294276-12-31 23:59:59.999999 UTC"
                + " (OffsetDateTime.MIN/MAX mean -infinity/infinity)"},
        {"row too short", new Object[] {1L},
            "row index 1500 has 1 values; expected 8 (\"id\", \"t\", \"i4\", \"f8\", \"d\", \"n\","
                + " \"vc\", \"tz\")"},
        {"null row", null, "row index 1500 is null"},
    };
    for (Loader loader : Loader.values()) {
      for (Object[] b : bad) {
        cases.add(Arguments.of(loader, b[0], b[1], b[2]));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("clientSideErrors")
  void badValueIsNamedAndNothingChanges(Loader loader, String what, Object[] bad, String message)
      throws Exception {
    try (Connection c = lab.dataSource().getConnection()) {
      assertThatThrownBy(() -> loader.load(c, List.of("bad"), COLUMNS, rowsWith(BAD, bad)))
          .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
      assertUnchangedAndUsable(c, true);
    }
  }

  /** Values PostgreSQL itself refuses, in the middle of a load: the error names the row. */
  static Stream<Arguments> serverSideErrors() {
    return Stream.of(
        Arguments.of(Loader.CHUNKED_BATCH, "failed at row index 1500: "),
        Arguments.of(Loader.MULTI_ROW, "failed in the statement of row index 1500 to 1529"
            + " (PostgreSQL does not say which row): "),
        Arguments.of(Loader.UNNEST, "failed in the statement of row index 1480 to 1519"
            + " (PostgreSQL does not say which row): "),
        Arguments.of(Loader.COPY_TEXT, "failed at row index 1500: "),
        Arguments.of(Loader.COPY_CSV, "failed at row index 1500: "),
        Arguments.of(Loader.COPY_BINARY, "failed at row index 1500: "));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("serverSideErrors")
  void duplicateKeyNamesTheRow(Loader loader, String where) throws Exception {
    Object[] duplicate = good(BAD);
    duplicate[0] = EXISTING;
    try (Connection c = lab.dataSource().getConnection()) {
      Throwable thrown = catchThrowable(
          () -> loader.load(c, List.of("bad"), COLUMNS, rowsWith(BAD, duplicate)));

      assertThat(thrown).isInstanceOf(SQLException.class)
          .hasMessageStartingWith(helperName(loader) + " into \"bad\" " + where
              + "ERROR: duplicate key value violates unique constraint \"bad_pkey\"")
          .hasMessageContaining("Key (id)=(100000) already exists.");
      assertThat(((SQLException) thrown).getSQLState()).isEqualTo("23505");
      assertUnchangedAndUsable(c, true);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("serverSideErrors")
  void valueTooLongNamesTheRowAndWhereKnownTheColumn(Loader loader, String where)
      throws Exception {
    boolean copy = loader.name().startsWith("COPY");
    try (Connection c = lab.dataSource().getConnection()) {
      Throwable thrown = catchThrowable(() -> loader.load(c, List.of("bad"), COLUMNS,
          rowsWith(BAD, goodWith(6, "toolong"))));

      // COPY's error context names the column too: "COPY bad, line N, column vc: ..."
      String at = copy ? where.replace(": ", ", column \"vc\": ") : where;
      assertThat(thrown).isInstanceOf(SQLException.class)
          .hasMessageStartingWith(helperName(loader) + " into \"bad\" " + at
              + "ERROR: value too long for type character varying(5)");
      assertThat(((SQLException) thrown).getSQLState()).isEqualTo("22001");
      assertUnchangedAndUsable(c, true);
    }
  }

  @Test
  void upsertNamesTheRowOfABadValueAndRefusesAKeyTwice() throws Exception {
    try (Connection c = lab.dataSource().getConnection()) {
      // the staging table has the target's column types, so the COPY into it finds the row
      assertThatThrownBy(() -> Loader.COPY_UPSERT.load(c, List.of("bad"), COLUMNS,
          rowsWith(BAD, goodWith(6, "toolong"))))
          .isInstanceOf(SQLException.class)
          .hasMessageStartingWith("CopyLoader into \"bad\" failed at row index 1500, column"
              + " \"vc\": ERROR: value too long for type character varying(5)");
      assertUnchangedAndUsable(c, true);

      Object[] again = good(BAD);
      again[0] = 7L; // row 7 has this key already
      Throwable thrown = catchThrowable(
          () -> Loader.COPY_UPSERT.load(c, List.of("bad"), COLUMNS, rowsWith(BAD, again)));
      assertThat(thrown).isInstanceOf(SQLException.class).hasMessage(
          "CopyLoader upsert into \"bad\" failed to insert or update from the staging table"
              + " (PostgreSQL does not say which row): ERROR: ON CONFLICT DO UPDATE command"
              + " cannot affect row a second time\n  Hint: Ensure that no rows proposed for"
              + " insertion within the same command have duplicate constrained values.");
      assertThat(((SQLException) thrown).getSQLState()).isEqualTo("21000");
      assertUnchangedAndUsable(c, true);
    }
  }

  /** The caller's row source failing half-way is a failure like any other. */
  @ParameterizedTest
  @EnumSource(Loader.class)
  void anExceptionFromTheRowSourcePropagatesAndNothingChanges(Loader loader) throws Exception {
    Iterable<Object[]> failing = () -> new java.util.Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return true;
      }

      @Override
      public Object[] next() {
        if (next == BAD) {
          throw new IllegalStateException("source broke at " + next);
        }
        return good(next++);
      }
    };
    try (Connection c = lab.dataSource().getConnection()) {
      assertThatThrownBy(() -> loader.load(c, List.of("bad"), COLUMNS, failing))
          .isInstanceOf(IllegalStateException.class).hasMessage("source broke at 1500");
      assertUnchangedAndUsable(c, true);
      assertThat(loader.load(c, List.of("bad"), COLUMNS, List.of())).isZero();
      assertUnchangedAndUsable(c, true);
    }
  }

  /** In the caller's transaction a failed load rolls back to a savepoint: their work stays. */
  @ParameterizedTest
  @EnumSource(Loader.class)
  void inTheCallersTransactionAFailureKeepsTheCallersWork(Loader loader) throws Exception {
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
      c.setAutoCommit(false);
      st.execute("INSERT INTO bad (id, t) VALUES (9999999, 'mine')");

      assertThatThrownBy(() -> loader.load(c, List.of("bad"), COLUMNS,
          rowsWith(BAD, goodWith(6, "toolong")))).isInstanceOf(SQLException.class);
      assertThatThrownBy(() -> loader.load(c, List.of("bad"), COLUMNS,
          rowsWith(BAD, goodWith(1, "nul\u0000")))).isInstanceOf(IllegalArgumentException.class);

      assertThat(c.getAutoCommit()).isFalse();
      // still usable, and the caller's row is there
      assertThat(count(c, "id = 9999999")).isEqualTo(1);
      c.commit();
      assertThat(count(c, "true")).isEqualTo(3);
    }
  }

  @ParameterizedTest
  @EnumSource(Loader.class)
  void inTheCallersTransactionNothingIsCommitted(Loader loader) throws Exception {
    try (Connection c = lab.dataSource().getConnection()) {
      c.setAutoCommit(false);
      assertThat(loader.load(c, List.of("bad"), COLUMNS, rowsWith(-1, null))).isEqualTo(ROWS);
      assertThat(count(c, "true")).isEqualTo(2 + ROWS);
      c.rollback();
      assertUnchangedAndUsable(c, false);
    }
  }

  @Test
  void commitPerChunkKeepsTheChunksBeforeAFailure() throws Exception {
    Object[] duplicate = good(550);
    duplicate[0] = EXISTING;
    ChunkedBatchInsert insert = ChunkedBatchInsert.into("bad").batchSize(100);
    for (Corpus.Col col : COLUMNS) {
      insert = insert.column(col.name(), ChunkedBatchInsert.PgType.valueOf(col.pgType()));
    }
    ChunkedBatchInsert perChunk = insert.commitPerChunk();
    try (Connection c = lab.dataSource().getConnection()) {
      assertThatThrownBy(() -> perChunk.load(c, rowsWith(550, duplicate)))
          .isInstanceOf(SQLException.class)
          .hasMessageStartingWith("ChunkedBatchInsert into \"bad\" failed at row index 550:"
              + " ERROR: duplicate key value violates unique constraint \"bad_pkey\"")
          .hasMessageEndingWith("; 500 rows (row index 0 to 499) were committed by earlier"
              + " chunks and stay, the failing chunk was rolled back");
      assertThat(count(c, "true")).isEqualTo(2 + 500);
      assertThat(c.getAutoCommit()).isTrue();

      c.setAutoCommit(false);
      assertThatThrownBy(() -> perChunk.load(c, rowsWith(-1, null)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("commitPerChunk() commits, so it needs a connection in autocommit mode;"
              + " this one is in a transaction that a commit would end");
    }
  }

  @Test
  void binaryCopyRefusesADeclaredTypeThatIsNotTheColumns() throws Exception {
    CopyLoader wrong = CopyLoader.into("bad").column("id", CopyLoader.PgType.INT8)
        .column("f8", CopyLoader.PgType.INT8).format(CopyLoader.Format.BINARY);
    try (Connection c = lab.dataSource().getConnection()) {
      assertThatThrownBy(() -> wrong.load(c, List.<Object[]>of(new Object[] {1L, 2L})))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("column \"f8\" is declared INT8 but is float8 in \"bad\"; binary COPY would"
              + " misread it: declare the column's own type, or use Format.TEXT or CSV");
      assertUnchangedAndUsable(c, true);
      // text formats let the server parse the value into the column's type
      assertThat(wrong.format(CopyLoader.Format.TEXT)
          .load(c, List.<Object[]>of(new Object[] {1L, 2L}))).isEqualTo(1);
    }
  }

  /** The error texts docs/batching.md's FAQ is keyed on are what PostgreSQL and pgjdbc say. */
  @Test
  void theFaqErrorTextsAreLiteral() throws Exception {
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
      // a NUL byte in text, sent raw through COPY
      assertThatThrownBy(() -> c.unwrap(org.postgresql.PGConnection.class).getCopyAPI().copyIn(
          "COPY bad (id, t) FROM STDIN", new java.io.StringReader("1\tnul\u0000here\n")))
          .hasMessageStartingWith("ERROR: invalid byte sequence for encoding \"UTF8\": 0x00");
      // ... and bound as a parameter
      try (java.sql.PreparedStatement ps = c.prepareStatement("SELECT ?::text")) {
        ps.setString(1, "nul\u0000here");
        assertThatThrownBy(ps::executeQuery).hasMessage("ERROR: invalid byte sequence for"
            + " encoding \"UTF8\": 0x00\n  Where: unnamed portal parameter $1");
      }
      // JSON text may spell NUL as an escape: jsonb refuses it, and COPY names the row
      CopyLoader json = CopyLoader.into("j").column("j", CopyLoader.PgType.JSONB);
      st.execute("DROP TABLE IF EXISTS j; CREATE TABLE j (j jsonb)");
      assertThatThrownBy(() -> json.load(c, List.<Object[]>of(new Object[] {"{}"},
          new Object[] {"{\"a\": \"\\u0000\"}"})))
          .hasMessageStartingWith("CopyLoader into \"j\" failed at row index 1, column \"j\":"
              + " ERROR: unsupported Unicode escape sequence\n  Detail: \\u0000 cannot be"
              + " converted to text.");
      assertThatThrownBy(() -> json.load(c, List.<Object[]>of(new Object[] {"{'a': 1}"})))
          .hasMessageStartingWith("CopyLoader into \"j\" failed at row index 0, column \"j\":"
              + " ERROR: invalid input syntax for type json");
      // an upsert key without a unique index
      assertThatThrownBy(() -> CopyLoader.into("bad").column("id", CopyLoader.PgType.INT8)
          .column("t", CopyLoader.PgType.TEXT).upsertOn("t")
          .load(c, List.<Object[]>of(new Object[] {1L, "a"})))
          .hasMessageContaining("ERROR: there is no unique or exclusion constraint matching the"
              + " ON CONFLICT specification");
      // a declared INT8 into an int4 column: the server's assignment cast refuses it
      assertThatThrownBy(() -> UnnestInsert.into("bad").column("id", UnnestInsert.PgType.INT8)
          .column("i4", UnnestInsert.PgType.INT8)
          .load(c, List.<Object[]>of(new Object[] {1L, Long.MAX_VALUE})))
          .hasMessageContaining("ERROR: integer out of range");
      // an upsert stages its rows in a temporary table: a role without TEMPORARY cannot
      String database = c.getCatalog();
      st.execute("DROP ROLE IF EXISTS no_temp; CREATE ROLE no_temp; GRANT ALL ON bad TO no_temp;"
          + " GRANT USAGE ON SCHEMA " + lab.schema() + " TO no_temp;"
          + " REVOKE TEMPORARY ON DATABASE \"" + database + "\" FROM PUBLIC");
      try (Connection fresh = lab.dataSource().getConnection();
          Statement role = fresh.createStatement()) {
        role.execute("SET ROLE no_temp");
        assertThatThrownBy(() -> Loader.COPY_UPSERT.load(fresh, List.of("bad"), COLUMNS,
            rowsWith(-1, null))).hasMessage("CopyLoader upsert into \"bad\" failed to create the"
                + " staging table: ERROR: permission denied to create temporary tables in"
                + " database \"" + database + "\"");
        // a plain COPY needs no temporary table
        assertThat(Loader.COPY_TEXT.load(fresh, List.of("bad"), COLUMNS, List.of())).isZero();
        role.execute("RESET ROLE");
      } finally {
        st.execute("GRANT TEMPORARY ON DATABASE \"" + database + "\" TO PUBLIC;"
            + " REVOKE ALL ON bad FROM no_temp; REVOKE USAGE ON SCHEMA " + lab.schema()
            + " FROM no_temp; DROP ROLE no_temp");
      }
      // what a transaction says after an error, unless something rolls back to a savepoint
      c.setAutoCommit(false);
      assertThatThrownBy(() -> st.execute("SELECT 1/0")).hasMessageContaining("division by zero");
      assertThatThrownBy(() -> st.execute("SELECT 1")).hasMessageStartingWith("ERROR: current"
          + " transaction is aborted, commands ignored until end of transaction block");
      c.rollback();
      c.setAutoCommit(true);
      assertUnchangedAndUsable(c, true);
    }
  }

  private static String helperName(Loader loader) {
    return switch (loader) {
      case CHUNKED_BATCH -> "ChunkedBatchInsert";
      case MULTI_ROW -> "MultiRowInsert";
      case UNNEST -> "UnnestInsert";
      default -> "CopyLoader";
    };
  }

  private static void assertUnchangedAndUsable(Connection c, boolean autoCommit)
      throws SQLException {
    assertThat(c.getAutoCommit()).as("autocommit restored").isEqualTo(autoCommit);
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
      assertThat(rs.next()).isTrue();
    }
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*), sum(id), string_agg(t, ',' ORDER BY id)"
            + " FROM bad")) {
      rs.next();
      assertThat(rs.getLong(1)).as("rows").isEqualTo(2);
      assertThat(rs.getLong(2)).isEqualTo(2 * EXISTING + 1);
      assertThat(rs.getString(3)).isEqualTo("before,before");
    }
  }

  private static long count(Connection c, String where) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM bad WHERE " + where)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
