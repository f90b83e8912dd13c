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
      new Corpus.Col("tz", "timestamptz", "TIMESTAMPTZ"),
      new Corpus.Col("j", "jsonb", "JSONB"));

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
        Instant.ofEpochSecond(1_700_000_000L + i), "{\"row\": " + i + "}"};
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
            "row index 1500 has 1 values; expected 9 (\"id\", \"t\", \"i4\", \"f8\", \"d\", \"n\","
                + " \"vc\", \"tz\", \"j\")"},
        {"a finite Double for numeric (not exact)", goodWith(5, 0.1),
            "row index 1500, column \"n\" (NUMERIC): expected BigDecimal, BigInteger, Long, Integer"
                + " or Short (or Double NaN, Infinity or -Infinity), got java.lang.Double"},
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

  /** The helpers a server-side error goes through (the upsert has its own test below). */
  static Stream<Loader> plainLoaders() {
    return Stream.of(Loader.values()).filter(l -> l != Loader.COPY_UPSERT);
  }

  /**
   * A duplicate key in the middle of a load: every helper names the row (a multi-row
   * statement's by replaying that statement's rows, see docs/batching.md), the detail the key.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("plainLoaders")
  void duplicateKeyNamesTheRow(Loader loader) throws Exception {
    Object[] duplicate = good(BAD);
    duplicate[0] = EXISTING;
    try (Connection c = lab.dataSource().getConnection()) {
      Throwable thrown = catchThrowable(
          () -> loader.load(c, List.of("bad"), COLUMNS, rowsWith(BAD, duplicate)));

      assertThat(thrown).isInstanceOf(SQLException.class)
          .hasMessageStartingWith(helperName(loader) + " into \"bad\" failed at row index 1500:"
              + " ERROR: duplicate key value violates unique constraint \"bad_pkey\"")
          .hasMessageContaining("Key (id)=(100000) already exists.");
      assertThat(((SQLException) thrown).getSQLState()).isEqualTo("23505");
      assertUnchangedAndUsable(c, true);
    }
  }

  /**
   * Values only the server can refuse: text too long for its varchar(n), and JSON escapes
   * jsonb cannot store (NUL, a lone surrogate). Every helper names the row and the column.
   */
  static Stream<Arguments> serverSideValueErrors() {
    List<Arguments> cases = new ArrayList<>();
    Object[][] bad = {
        {"varchar(5) too long", goodWith(6, "toolong"), "vc", "22001",
            "ERROR: value too long for type character varying(5)"},
        {"jsonb \\u0000 escape", goodWith(8, "{\"a\": \"\\u0000\"}"), "j", "22P05",
            "ERROR: unsupported Unicode escape sequence\n  Detail: \\u0000 cannot be converted to"
                + " text."},
        {"jsonb lone surrogate escape", goodWith(8, "{\"a\": \"\\ud800\"}"), "j", "22P02",
            "ERROR: invalid input syntax for type json\n  Detail: Unicode low surrogate must follow"
                + " a high surrogate."},
    };
    plainLoaders().forEach(loader -> {
      for (Object[] b : bad) {
        cases.add(Arguments.of(loader, b[0], b[1], b[2], b[3], b[4]));
      }
    });
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("serverSideValueErrors")
  void serverSideValueErrorNamesTheRowAndTheColumn(Loader loader, String what, Object[] bad,
      String column, String sqlState, String error) throws Exception {
    try (Connection c = lab.dataSource().getConnection()) {
      Throwable thrown = catchThrowable(
          () -> loader.load(c, List.of("bad"), COLUMNS, rowsWith(BAD, bad)));

      assertThat(thrown).isInstanceOf(SQLException.class)
          .hasMessageStartingWith(helperName(loader) + " into \"bad\" failed at row index 1500,"
              + " column \"" + column + "\": " + error);
      assertThat(((SQLException) thrown).getSQLState()).isEqualTo(sqlState);
      assertUnchangedAndUsable(c, true);
    }
  }

  /** pgjdbc's reWriteBatchedInserts folds rows into multi-row INSERTs: the row is still named. */
  @Test
  void aRewrittenBatchNamesTheRowAndTheColumn() throws Exception {
    ChunkedBatchInsert insert = ChunkedBatchInsert.into("bad");
    for (Corpus.Col col : COLUMNS) {
      insert = insert.column(col.name(), ChunkedBatchInsert.PgType.valueOf(col.pgType()));
    }
    ChunkedBatchInsert batch = insert;
    try (Connection c = lab.dataSource().withProperty("reWriteBatchedInserts", "true")
        .getConnection()) {
      assertThatThrownBy(() -> batch.load(c, rowsWith(BAD, goodWith(8, "{\"a\": \"\\u0000\"}"))))
          .isInstanceOf(SQLException.class)
          .hasMessageStartingWith("ChunkedBatchInsert into \"bad\" failed at row index 1500,"
              + " column \"j\": ERROR: unsupported Unicode escape sequence");
      assertUnchangedAndUsable(c, true);
    }
  }

  /** Column names match whole: COPY's "column price: note: ..." is "price: note", not "price". */
  @ParameterizedTest
  @MethodSource("plainLoaders")
  void aColumnWhoseNameStartsWithAnothersIsNamedWhole(Loader loader) throws Exception {
    List<Corpus.Col> columns = List.of(new Corpus.Col("price", "numeric", "NUMERIC"),
        new Corpus.Col("price: note", "varchar(5)", "VARCHAR"));
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS prefix; CREATE TABLE prefix (price numeric,"
          + " \"price: note\" varchar(5))");
      assertThatThrownBy(() -> loader.load(c, List.of("prefix"), columns, List.of(
          new Object[] {BigDecimal.ONE, "ok"}, new Object[] {BigDecimal.TEN, "toolong"})))
          .isInstanceOf(SQLException.class)
          .hasMessageStartingWith(helperName(loader) + " into \"prefix\" failed at row index 1,"
              + " column \"price: note\": ERROR: value too long for type character varying(5)");
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

  /**
   * The last statement carries the COMMIT (or the RELEASE of the caller's savepoint): when it
   * fails, nothing of the load stays, in autocommit and in the caller's transaction.
   */
  @ParameterizedTest
  @MethodSource("plainLoaders") // an upsert updates a duplicate key
  void aFailureInTheLastStatementUndoesTheWholeLoad(Loader loader) throws Exception {
    Object[] duplicate = good(ROWS - 1);
    duplicate[0] = EXISTING;
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
      assertThatThrownBy(() -> loader.load(c, List.of("bad"), COLUMNS,
          rowsWith(ROWS - 1, duplicate))).isInstanceOf(SQLException.class);
      assertUnchangedAndUsable(c, true);

      c.setAutoCommit(false);
      st.execute("INSERT INTO bad (id, t) VALUES (9999999, 'mine')");
      assertThatThrownBy(() -> loader.load(c, List.of("bad"), COLUMNS,
          rowsWith(ROWS - 1, duplicate))).isInstanceOf(SQLException.class);
      assertThat(count(c, "true")).isEqualTo(3);
      c.rollback();
      c.setAutoCommit(true);
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
          rowsWith(BAD, goodWith(6, "toolong")))).isInstanceOf(SQLException.class)
          .hasMessageContaining("failed at row index 1500, column \"vc\": ERROR: value too long");
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

  /**
   * Committing each batch: a failure keeps the batches committed before it, and the exception
   * says how many rows those are, so that the caller can resume there.
   */
  @Test
  void commitEachBatchKeepsTheBatchesBeforeAFailureAndSaysWhereToResume() throws Exception {
    Object[] duplicate = good(550);
    duplicate[0] = EXISTING;
    ChunkedBatchInsert insert = ChunkedBatchInsert.into("bad").batchSize(100);
    for (Corpus.Col col : COLUMNS) {
      insert = insert.column(col.name(), ChunkedBatchInsert.PgType.valueOf(col.pgType()));
    }
    ChunkedBatchInsert perBatch = insert.commitEachBatch(true);
    assertThat(perBatch.commitEachBatch()).isTrue();
    assertThat(insert.commitEachBatch()).isFalse();
    String kept = "; row index 0 to 499 (500 rows) were committed by earlier batches and stay:"
        + " resume at row index 500";
    try (Connection c = lab.dataSource().getConnection()) {
      Throwable thrown = catchThrowable(() -> perBatch.load(c, rowsWith(550, duplicate)));
      assertThat(thrown).isInstanceOf(ChunkedBatchInsert.PartiallyCommittedException.class)
          .hasMessageStartingWith("ChunkedBatchInsert into \"bad\" failed at row index 550:"
              + " ERROR: duplicate key value violates unique constraint \"bad_pkey\"")
          .hasMessageEndingWith(kept)
          .hasCauseInstanceOf(SQLException.class);
      assertThat(((ChunkedBatchInsert.PartiallyCommittedException) thrown).committedRows())
          .isEqualTo(500);
      assertThat(((SQLException) thrown).getSQLState()).isEqualTo("23505");
      assertThat(count(c, "true")).isEqualTo(2 + 500);
      assertThat(c.getAutoCommit()).isTrue();

      // a value refused before sending, and the row source failing: the same promise
      createTable();
      thrown = catchThrowable(() -> perBatch.load(c, rowsWith(550, goodWith(1, "nul\u0000"))));
      assertThat(thrown).isInstanceOf(ChunkedBatchInsert.PartiallyCommittedException.class)
          .hasMessage("ChunkedBatchInsert into \"bad\" failed: row index 550, column \"t\""
              + " (TEXT): contains a NUL character (\\u0000) at index 3; PostgreSQL cannot store"
              + " NUL in text" + kept)
          .hasCauseInstanceOf(IllegalArgumentException.class);
      createTable();
      Iterable<Object[]> failing = () -> rowsWith(-1, null).stream().map(row -> {
        if ((long) row[0] == 550) {
          throw new IllegalStateException("source broke at 550");
        }
        return row;
      }).iterator();
      thrown = catchThrowable(() -> perBatch.load(c, failing));
      assertThat(thrown).isInstanceOf(ChunkedBatchInsert.PartiallyCommittedException.class)
          .hasMessage("ChunkedBatchInsert into \"bad\" failed: source broke at 550" + kept)
          .hasCauseInstanceOf(IllegalStateException.class);
      assertThat(count(c, "true")).isEqualTo(2 + 500);

      // before any batch is committed the failure is the plain one, and nothing stays
      createTable();
      assertThatThrownBy(() -> perBatch.load(c, rowsWith(50, goodWith(1, "nul\u0000"))))
          .isInstanceOf(IllegalArgumentException.class);
      assertUnchangedAndUsable(c, true);

      c.setAutoCommit(false);
      assertThatThrownBy(() -> perBatch.load(c, rowsWith(-1, null)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("commitEachBatch(true) commits, so it needs a connection in autocommit"
              + " mode; this one is in a transaction that a commit would end");
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

  /**
   * Binary COPY reads a domain column as its base type. The COPY's type assertion does not
   * know domains, so the loader looks the types up and loads without it: 2 round trips more.
   */
  @Test
  void binaryCopyLoadsADomainColumnAsItsBaseType() throws Exception {
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS dom; DROP DOMAIN IF EXISTS positive;"
          + " CREATE DOMAIN positive AS int8 CHECK (VALUE > 0);"
          + " CREATE TABLE dom (id positive PRIMARY KEY, t varchar(10))");
      CopyLoader binary = CopyLoader.into("dom").column("id", CopyLoader.PgType.INT8)
          .column("t", CopyLoader.PgType.TEXT).format(CopyLoader.Format.BINARY);
      List<Object[]> rows = List.of(new Object[] {1L, "one"}, new Object[] {2L, "two"});

      long[] loaded = new long[1];
      long trips = lab.wire(c).measure(() -> loaded[0] = binary.load(c, rows)).roundTrips();
      assertThat(loaded[0]).isEqualTo(2);
      assertThat(trips).as("refused COPY, type lookup, COPY").isEqualTo(1 + 1 + 2);
      c.setAutoCommit(false);
      assertThat(binary.upsertOn("id").load(c, List.<Object[]>of(new Object[] {2L, "TWO"})))
          .isEqualTo(1);
      c.commit();
      c.setAutoCommit(true);
      try (ResultSet rs = st.executeQuery("SELECT string_agg(t, ',' ORDER BY id) FROM dom")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo("one,TWO");
      }
      // the domain's own rule still holds, named by row and column
      assertThatThrownBy(() -> binary.load(c, List.<Object[]>of(new Object[] {-1L, "minus"})))
          .isInstanceOf(SQLException.class)
          .hasMessageStartingWith("CopyLoader into \"dom\" failed at row index 0, column \"id\":"
              + " ERROR: value for domain positive violates check constraint \"positive_check\"");
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
