package io.github.latencylab.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.wire.WireCounter;
import io.github.latencylab.wire.WireStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The round trips each helper makes, counted at the wire; the examples of
 * docs/batching.md, which quotes the snippets below verbatim.
 */
class RoundTripsTest {

  private static Lab lab;
  private static final List<Object[]> rows = rows(10_000);

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
      st.execute("DROP TABLE IF EXISTS item; CREATE TABLE item (id int8 PRIMARY KEY, name text)");
    }
  }

  private static List<Object[]> rows(int n) {
    List<Object[]> rows = new ArrayList<>(n);
    for (long i = 0; i < n; i++) {
      rows.add(new Object[] {i, "name " + i});
    }
    return rows;
  }

  @Test
  void chunkedBatchInsertIsCeilOfChunkOver255PerChunkPlusTheCommit() throws Exception {
    try (Connection connection = lab.dataSource().getConnection()) {
      WireCounter wire = lab.wire(connection);
      WireStats before = wire.snapshot();
      // snippet-begin chunked-batch-insert
      long inserted = ChunkedBatchInsert.into("item")
          .column("id", ChunkedBatchInsert.PgType.INT8)
          .column("name", ChunkedBatchInsert.PgType.TEXT)
          .load(connection, rows); // 10,000 rows: 10 batches of 1,000, one transaction
      // snippet-end chunked-batch-insert
      WireStats cost = wire.snapshot().minus(before);

      assertThat(inserted).isEqualTo(10_000);
      // pgjdbc syncs every 255 statements: 4 round trips per chunk of 1,000, then COMMIT
      assertThat(cost.roundTrips()).isEqualTo(10 * 4 + 1);
      assertThat(cost.statements()).isEqualTo(10_000 + 2); // BEGIN and COMMIT
      assertThat(count(connection)).isEqualTo(10_000);
    }
  }

  @Test
  void chunkedBatchInsertCommittingEachBatchAddsACommitPerBatch() throws Exception {
    try (Connection connection = lab.dataSource().getConnection()) {
      WireStats cost = lab.wire(connection).measure(() -> {
        // snippet-begin chunked-batch-insert-per-batch
        ChunkedBatchInsert.into("item")
            .column("id", ChunkedBatchInsert.PgType.INT8)
            .column("name", ChunkedBatchInsert.PgType.TEXT)
            .batchSize(255)         // one round trip per batch: pgjdbc syncs every 255 statements
            .commitEachBatch(true)  // a failure keeps the batches committed before it
            .load(connection, rows);
        // snippet-end chunked-batch-insert-per-batch
      });
      // 40 batches (39 x 255 + 55), one round trip each, and a COMMIT each
      assertThat(cost.roundTrips()).isEqualTo(40 + 40);
      assertThat(count(connection)).isEqualTo(10_000);
    }
  }

  @Test
  void multiRowInsertIsOneRoundTripPerStatement() throws Exception {
    try (Connection connection = lab.dataSource().getConnection()) {
      WireCounter wire = lab.wire(connection);
      WireStats before = wire.snapshot();
      // snippet-begin multi-row-insert
      MultiRowInsert insert = MultiRowInsert.into("item")
          .column("id", MultiRowInsert.PgType.INT8)
          .column("name", MultiRowInsert.PgType.TEXT);
      long inserted = insert.load(connection, rows); // 10 statements of 1,000 rows
      // snippet-end multi-row-insert
      WireStats cost = wire.snapshot().minus(before);

      assertThat(inserted).isEqualTo(10_000);
      assertThat(insert.rowsPerStatement()).isEqualTo(1_000);
      // BEGIN rides with the first statement, COMMIT with the last
      assertThat(cost.roundTrips()).isEqualTo(10);
      assertThat(cost.statements()).isEqualTo(10 + 2);

      connection.createStatement().execute("TRUNCATE item");
      MultiRowInsert big = insert.rowsPerStatement(100_000);
      assertThat(big.rowsPerStatement()).isEqualTo(65_535 / 2); // 32,767 rows of 2 columns
      // one statement, in autocommit: atomic by itself
      WireStats one = wire.measure(() -> big.load(connection, rows));
      assertThat(one.roundTrips()).isEqualTo(1);
      assertThat(one.statements()).isEqualTo(1);
      assertThat(count(connection)).isEqualTo(10_000);
    }
  }

  /** Rows x columns never exceeds 65,535 bind parameters, whatever the cap. */
  @Test
  void multiRowInsertStaysUnderTheBindParameterLimit() throws Exception {
    List<String> columns = new ArrayList<>();
    MultiRowInsert insert = MultiRowInsert.into("wide").rowsPerStatement(100_000);
    for (int i = 0; i < 15; i++) {
      columns.add("c" + i + " int8");
      insert = insert.column("c" + i, MultiRowInsert.PgType.INT8);
    }
    List<Object[]> wideRows = new ArrayList<>();
    for (long r = 0; r < 10_000; r++) {
      Object[] row = new Object[15];
      for (int i = 0; i < 15; i++) {
        row[i] = r * 15 + i;
      }
      wideRows.add(row);
    }
    MultiRowInsert wide = insert;
    try (Connection connection = lab.dataSource().getConnection();
        Statement st = connection.createStatement()) {
      st.execute("DROP TABLE IF EXISTS wide; CREATE TABLE wide (" + String.join(", ", columns)
          + ")");
      assertThat(wide.rowsPerStatement()).isEqualTo(4_369); // 4,369 x 15 = 65,535
      WireStats cost = lab.wire(connection).measure(() -> wide.load(connection, wideRows));
      assertThat(cost.roundTrips()).isEqualTo(3); // ceil(10,000 / 4,369) statements

      // one row more would be 65,550 parameters: pgjdbc refuses the statement
      assertThatThrownBy(() -> connection.prepareStatement(wide.sql(4_370)))
          .isInstanceOf(SQLException.class)
          .hasMessage("PreparedStatement can have at most 65,535 parameters. Please consider"
              + " using arrays, or splitting the query in several ones, or using COPY. Given"
              + " query has 65,550 parameters");
    }
  }

  @Test
  void unnestInsertIsOneRoundTripPerStatement() throws Exception {
    try (Connection connection = lab.dataSource().getConnection()) {
      WireCounter wire = lab.wire(connection);
      WireStats before = wire.snapshot();
      // snippet-begin unnest-insert
      long inserted = UnnestInsert.into("item")
          .column("id", UnnestInsert.PgType.INT8)
          .column("name", UnnestInsert.PgType.TEXT)
          .load(connection, rows); // one statement: an int8[] and a text[] of 10,000 each
      // snippet-end unnest-insert
      WireStats cost = wire.snapshot().minus(before);

      assertThat(inserted).isEqualTo(10_000);
      assertThat(cost.roundTrips()).isEqualTo(1); // in autocommit: one statement is atomic
      assertThat(cost.statements()).isEqualTo(1);
      assertThat(count(connection)).isEqualTo(10_000);
    }
  }

  @Test
  void copyIsTwoRoundTripsInEveryFormat() throws Exception {
    try (Connection connection = lab.dataSource().getConnection()) {
      WireCounter wire = lab.wire(connection);
      WireStats before = wire.snapshot();
      // snippet-begin copy-loader
      CopyLoader copy = CopyLoader.into("item")
          .column("id", CopyLoader.PgType.INT8)
          .column("name", CopyLoader.PgType.TEXT);
      long copied = copy.load(connection, rows.stream()); // TEXT format by default
      // snippet-end copy-loader
      WireStats cost = wire.snapshot().minus(before);
      assertThat(copied).isEqualTo(10_000);
      // the COPY statement, then the data and CopyDone: no transaction needed
      assertThat(cost.roundTrips()).isEqualTo(2);

      Map<CopyLoader.Format, Long> trips = new LinkedHashMap<>();
      for (CopyLoader.Format format : CopyLoader.Format.values()) {
        connection.createStatement().execute("TRUNCATE item");
        trips.put(format, wire.measure(() -> copy.format(format).load(connection, rows))
            .roundTrips());
      }
      // BINARY's type check rides in the COPY statement (see CopyLoader)
      assertThat(trips).containsExactly(Map.entry(CopyLoader.Format.TEXT, 2L),
          Map.entry(CopyLoader.Format.CSV, 2L), Map.entry(CopyLoader.Format.BINARY, 2L));

      // in the caller's transaction: SAVEPOINT and RELEASE around it
      connection.createStatement().execute("TRUNCATE item");
      connection.setAutoCommit(false);
      assertThat(wire.measure(() -> copy.load(connection, rows)).roundTrips()).isEqualTo(4);
      connection.commit();
      assertThat(count(connection)).isEqualTo(10_000);
    }
  }

  @Test
  void copyUpsertIsFourRoundTrips() throws Exception {
    try (Connection connection = lab.dataSource().getConnection()) {
      connection.createStatement().execute(
          "INSERT INTO item SELECT g, 'old' FROM generate_series(5000, 14999) g");
      WireCounter wire = lab.wire(connection);
      WireStats before = wire.snapshot();
      // snippet-begin copy-upsert
      long upserted = CopyLoader.into("item")
          .column("id", CopyLoader.PgType.INT8)
          .column("name", CopyLoader.PgType.TEXT)
          .upsertOn("id") // INSERT ... ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name
          .load(connection, rows);
      // snippet-end copy-upsert
      WireStats cost = wire.snapshot().minus(before);

      assertThat(upserted).isEqualTo(10_000); // 5,000 inserted, 5,000 updated
      // CREATE TEMP TABLE (BEGIN rides along), COPY (2), INSERT ... ON CONFLICT with
      // DROP TABLE and COMMIT
      assertThat(cost.roundTrips()).isEqualTo(4);
      assertThat(count(connection)).isEqualTo(15_000);
      try (ResultSet rs = connection.createStatement().executeQuery(
          "SELECT count(*) FROM item WHERE name = 'old'")) {
        rs.next();
        assertThat(rs.getLong(1)).isEqualTo(5_000);
      }
    }
  }

  /** A load with one helper and its defaults, for the table below. */
  @FunctionalInterface
  private interface Load {
    long run(Connection connection, List<Object[]> rows) throws SQLException;
  }

  /**
   * docs/batching.md's table: round trips of each helper with its defaults for 100, 1,000 and
   * 10,000 rows, on an autocommit connection and inside the caller's transaction (where a
   * savepoint keeps the caller's work safe from a failed load).
   */
  @Test
  void roundTripsOfEveryHelperInAutocommitAndInTheCallersTransaction() throws Exception {
    CopyLoader copy = CopyLoader.into("item").column("id", CopyLoader.PgType.INT8)
        .column("name", CopyLoader.PgType.TEXT);
    Map<String, Load> helpers = new LinkedHashMap<>();
    helpers.put("ChunkedBatchInsert", (c, r) -> ChunkedBatchInsert.into("item")
        .column("id", ChunkedBatchInsert.PgType.INT8)
        .column("name", ChunkedBatchInsert.PgType.TEXT).load(c, r));
    helpers.put("MultiRowInsert", (c, r) -> MultiRowInsert.into("item")
        .column("id", MultiRowInsert.PgType.INT8)
        .column("name", MultiRowInsert.PgType.TEXT).load(c, r));
    helpers.put("UnnestInsert", (c, r) -> UnnestInsert.into("item")
        .column("id", UnnestInsert.PgType.INT8)
        .column("name", UnnestInsert.PgType.TEXT).load(c, r));
    for (CopyLoader.Format format : CopyLoader.Format.values()) {
      helpers.put("CopyLoader " + format, (c, r) -> copy.format(format).load(c, r));
    }
    helpers.put("CopyLoader upsert TEXT", (c, r) -> copy.upsertOn("id").load(c, r));
    helpers.put("CopyLoader upsert BINARY",
        (c, r) -> copy.upsertOn("id").format(CopyLoader.Format.BINARY).load(c, r));

    Map<String, List<Long>> trips = new LinkedHashMap<>();
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
      for (Map.Entry<String, Load> helper : helpers.entrySet()) {
        List<Long> counts = new ArrayList<>();
        for (int n : new int[] {100, 1_000, 10_000}) {
          List<Object[]> some = rows.subList(0, n);
          st.execute("TRUNCATE item");
          counts.add(lab.wire(c).measure(() -> helper.getValue().run(c, some)).roundTrips());
          assertThat(count(c)).isEqualTo(n);
          st.execute("TRUNCATE item");
          c.setAutoCommit(false);
          counts.add(lab.wire(c).measure(() -> helper.getValue().run(c, some)).roundTrips());
          assertThat(count(c)).isEqualTo(n);
          c.rollback();
          c.setAutoCommit(true);
        }
        trips.put(helper.getKey(), counts);
      }
    }
    // per size: autocommit, in the caller's transaction
    assertThat(trips).containsExactly(
        // one batch of <= 255 rows is one Sync: atomic in autocommit; a COMMIT (or SAVEPOINT
        // and RELEASE) cannot ride in a JDBC batch
        Map.entry("ChunkedBatchInsert", List.of(1L, 3L, 5L, 6L, 41L, 42L)),
        // BEGIN/SAVEPOINT ride with the first statement, COMMIT/RELEASE with the last
        Map.entry("MultiRowInsert", List.of(1L, 1L, 1L, 1L, 10L, 10L)),
        Map.entry("UnnestInsert", List.of(1L, 1L, 1L, 1L, 1L, 1L)),
        // pgjdbc's COPY API sends the COPY alone: SAVEPOINT and RELEASE cost one each
        Map.entry("CopyLoader TEXT", List.of(2L, 4L, 2L, 4L, 2L, 4L)),
        Map.entry("CopyLoader CSV", List.of(2L, 4L, 2L, 4L, 2L, 4L)),
        Map.entry("CopyLoader BINARY", List.of(2L, 4L, 2L, 4L, 2L, 4L)),
        Map.entry("CopyLoader upsert TEXT", List.of(4L, 4L, 4L, 4L, 4L, 4L)),
        Map.entry("CopyLoader upsert BINARY", List.of(4L, 4L, 4L, 4L, 4L, 4L)));
  }

  /**
   * A batch of up to 255 rows is one Sync, which PostgreSQL runs as one implicit transaction
   * in autocommit: one round trip, and still all or nothing. At 256 rows pgjdbc syncs twice,
   * so the helper opens a transaction (BEGIN rides along, COMMIT is one more round trip).
   */
  @Test
  void chunkedBatchInsertOfOneSyncIsOneRoundTripAndStillAllOrNothing() throws Exception {
    ChunkedBatchInsert insert = ChunkedBatchInsert.into("item")
        .column("id", ChunkedBatchInsert.PgType.INT8)
        .column("name", ChunkedBatchInsert.PgType.TEXT);
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
      for (int n : new int[] {255, 256}) {
        st.execute("TRUNCATE item");
        List<Object[]> some = new ArrayList<>(rows.subList(0, n));
        assertThat(lab.wire(c).measure(() -> insert.load(c, some)).roundTrips())
            .as(n + " rows").isEqualTo(n == 255 ? 1 : 3);
        st.execute("TRUNCATE item");
        some.set(n - 1, new Object[] {0L, "the key of row 0 again"});
        assertThatThrownBy(() -> insert.load(c, some)).isInstanceOf(SQLException.class)
            .hasMessageStartingWith("ChunkedBatchInsert into \"item\" failed at row index "
                + (n - 1) + ": ERROR: duplicate key value");
        assertThat(count(c)).as(n + " rows, the last one failing").isZero();
        assertThat(c.getAutoCommit()).isTrue();
      }
    }
  }

  /**
   * 200,000 rows from a lazy source: by the time the source yields its 100,000th row, all but
   * the last buffer of the first 100,000 (about 3 MB) are on the wire already, so they were
   * never all in memory; the bound is a buffer, whatever the number of rows.
   */
  @Test
  void copyStreamsALazySourceInBoundedBuffers() throws Exception {
    int total = 200_000;
    try (Connection connection = lab.dataSource().getConnection()) {
      WireCounter wire = lab.wire(connection);
      long[] sentAtHalf = new long[1];
      Iterator<Object[]> source = new Iterator<>() {
        private long next;

        @Override
        public boolean hasNext() {
          return next < total;
        }

        @Override
        public Object[] next() {
          if (next >= total) {
            throw new NoSuchElementException();
          }
          if (next == total / 2) {
            sentAtHalf[0] = wire.snapshot().bytesSent();
          }
          long id = next++;
          return new Object[] {id, "name " + id};
        }
      };
      WireStats before = wire.snapshot();
      long copied = CopyLoader.into("item").column("id", CopyLoader.PgType.INT8)
          .column("name", CopyLoader.PgType.TEXT).format(CopyLoader.Format.BINARY)
          .load(connection, source);
      WireStats cost = wire.snapshot().minus(before);

      assertThat(copied).isEqualTo(total);
      assertThat(cost.roundTrips()).isEqualTo(2);
      // binary rows: field count, then length + int8, length + "name <id>" in UTF-8
      long firstHalf = 0;
      for (long id = 0; id < total / 2; id++) {
        firstHalf += 2 + 4 + 8 + 4 + ("name " + id).length();
      }
      // the first half, less at most one 64 KiB buffer and pgjdbc's 8 KiB one, had been sent
      long sentByHalf = sentAtHalf[0] - before.bytesSent();
      assertThat(sentByHalf).isGreaterThan(firstHalf - 72 * 1024)
          .isLessThan(cost.bytesSent() / 2);
      assertThat(count(connection)).isEqualTo(total);
    }
  }

  @Test
  void streamsFromAStream() throws Exception {
    try (Connection connection = lab.dataSource().getConnection()) {
      // snippet-begin copy-loader-stream
      Stream<Object[]> generated = LongStream.range(0, 100_000)
          .mapToObj(id -> new Object[] {id, "name " + id});
      long copied = CopyLoader.into(lab.schema(), "item")
          .column("id", CopyLoader.PgType.INT8)
          .column("name", CopyLoader.PgType.TEXT)
          .format(CopyLoader.Format.BINARY)
          .load(connection, generated); // encoded and sent 64 KiB at a time
      // snippet-end copy-loader-stream
      assertThat(copied).isEqualTo(100_000);
    }
  }

  /** docs/batching.md quotes each snippet of this file verbatim (bar indentation). */
  @Test
  void theDocQuotesTheseSnippetsVerbatim() throws IOException {
    Path source = Path.of("src/test/java/io/github/latencylab/batch/RoundTripsTest.java");
    Path doc = Path.of("../docs/batching.md");
    Map<String, String> snippets = snippets(Files.readString(source));
    assertThat(snippets).hasSizeGreaterThanOrEqualTo(6);
    String markdown = Files.readString(doc);
    for (Map.Entry<String, String> snippet : snippets.entrySet()) {
      assertThat(markdown).as("snippet " + snippet.getKey() + " in " + doc)
          .contains("<!-- snippet " + snippet.getKey() + " -->\n```java\n" + snippet.getValue()
              + "```\n");
    }
  }

  private static Map<String, String> snippets(String source) {
    Map<String, String> snippets = new LinkedHashMap<>();
    Matcher m = Pattern.compile("// snippet-begin (\\S+)\n(.*?)\n\\s*// snippet-end \\1",
        Pattern.DOTALL).matcher(source);
    while (m.find()) {
      List<String> lines = m.group(2).lines().toList();
      int indent = lines.stream().filter(l -> !l.isBlank())
          .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
      StringBuilder out = new StringBuilder();
      lines.forEach(l -> out.append(l.length() >= indent ? l.substring(indent) : l.strip())
          .append('\n'));
      snippets.put(m.group(1), out.toString());
    }
    return snippets;
  }

  private static long count(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM item")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
