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
 * The round trips each helper makes for 10,000 rows, counted at the wire; the examples of
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
          .load(connection, rows); // 10,000 rows: 10 chunks of 1,000, one transaction
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
  void chunkedBatchInsertCommittingPerChunkAddsACommitPerChunk() throws Exception {
    try (Connection connection = lab.dataSource().getConnection()) {
      WireStats cost = lab.wire(connection).measure(() -> {
        // snippet-begin chunked-batch-insert-per-chunk
        ChunkedBatchInsert.into("item")
            .column("id", ChunkedBatchInsert.PgType.INT8)
            .column("name", ChunkedBatchInsert.PgType.TEXT)
            .batchSize(255)   // one round trip per chunk: pgjdbc syncs every 255 statements
            .commitPerChunk() // a failure keeps the chunks committed before it
            .load(connection, rows);
        // snippet-end chunked-batch-insert-per-chunk
      });
      // 40 chunks (39 x 255 + 55), one round trip each, and a COMMIT each
      assertThat(cost.roundTrips()).isEqualTo(40 + 40);
      assertThat(count(connection)).isEqualTo(10_000);
    }
  }

  @Test
  void multiRowInsertIsOneRoundTripPerStatementPlusTheCommit() throws Exception {
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
      assertThat(cost.roundTrips()).isEqualTo(10 + 1);

      connection.createStatement().execute("TRUNCATE item");
      MultiRowInsert big = insert.maxRowsPerStatement(100_000);
      assertThat(big.rowsPerStatement()).isEqualTo(65_535 / 2); // 32,767 rows of 2 columns
      assertThat(wire.measure(() -> big.load(connection, rows)).roundTrips()).isEqualTo(1 + 1);
      assertThat(count(connection)).isEqualTo(10_000);
    }
  }

  /** Rows x columns never exceeds 65,535 bind parameters, whatever the cap. */
  @Test
  void multiRowInsertStaysUnderTheBindParameterLimit() throws Exception {
    List<String> columns = new ArrayList<>();
    MultiRowInsert insert = MultiRowInsert.into("wide").maxRowsPerStatement(100_000);
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
      assertThat(cost.roundTrips()).isEqualTo(3 + 1); // ceil(10,000 / 4,369) statements, COMMIT

      // one row more would be 65,550 parameters: pgjdbc refuses the statement
      assertThatThrownBy(() -> connection.prepareStatement(wide.sql(4_370)))
          .isInstanceOf(SQLException.class)
          .hasMessage("PreparedStatement can have at most 65,535 parameters. Please consider"
              + " using arrays, or splitting the query in several ones, or using COPY. Given"
              + " query has 65,550 parameters");
    }
  }

  @Test
  void unnestInsertIsOneRoundTripPerStatementPlusTheCommit() throws Exception {
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
      assertThat(cost.roundTrips()).isEqualTo(1 + 1);
      assertThat(count(connection)).isEqualTo(10_000);
    }
  }

  @Test
  void copyIsTwoRoundTripsAndBinaryThree() throws Exception {
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
      // BINARY checks the declared types against the table first
      assertThat(trips).containsExactly(Map.entry(CopyLoader.Format.TEXT, 2L),
          Map.entry(CopyLoader.Format.CSV, 2L), Map.entry(CopyLoader.Format.BINARY, 3L));

      // in the caller's transaction: SAVEPOINT and RELEASE around it
      connection.createStatement().execute("TRUNCATE item");
      connection.setAutoCommit(false);
      assertThat(wire.measure(() -> copy.load(connection, rows)).roundTrips()).isEqualTo(4);
      connection.commit();
      assertThat(count(connection)).isEqualTo(10_000);
    }
  }

  @Test
  void copyUpsertIsFiveRoundTrips() throws Exception {
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
      // CREATE TEMP TABLE, COPY (2), INSERT ... ON CONFLICT with DROP TABLE, COMMIT
      assertThat(cost.roundTrips()).isEqualTo(5);
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
    long run(Connection connection) throws SQLException;
  }

  /**
   * docs/batching.md's table: round trips for 10,000 rows with each helper's defaults, on an
   * autocommit connection and inside the caller's transaction (where SAVEPOINT and RELEASE
   * SAVEPOINT replace the COMMIT, and a lone COPY gains both).
   */
  @Test
  void roundTripsOfEveryHelperInAutocommitAndInTheCallersTransaction() throws Exception {
    CopyLoader copy = CopyLoader.into("item").column("id", CopyLoader.PgType.INT8)
        .column("name", CopyLoader.PgType.TEXT);
    Map<String, Load> helpers = new LinkedHashMap<>();
    helpers.put("ChunkedBatchInsert", c -> ChunkedBatchInsert.into("item")
        .column("id", ChunkedBatchInsert.PgType.INT8)
        .column("name", ChunkedBatchInsert.PgType.TEXT).load(c, rows));
    helpers.put("MultiRowInsert", c -> MultiRowInsert.into("item")
        .column("id", MultiRowInsert.PgType.INT8)
        .column("name", MultiRowInsert.PgType.TEXT).load(c, rows));
    helpers.put("UnnestInsert", c -> UnnestInsert.into("item")
        .column("id", UnnestInsert.PgType.INT8)
        .column("name", UnnestInsert.PgType.TEXT).load(c, rows));
    for (CopyLoader.Format format : CopyLoader.Format.values()) {
      helpers.put("CopyLoader " + format, c -> copy.format(format).load(c, rows));
    }
    helpers.put("CopyLoader upsert TEXT", c -> copy.upsertOn("id").load(c, rows));
    helpers.put("CopyLoader upsert BINARY",
        c -> copy.upsertOn("id").format(CopyLoader.Format.BINARY).load(c, rows));

    Map<String, List<Long>> trips = new LinkedHashMap<>();
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
      for (Map.Entry<String, Load> helper : helpers.entrySet()) {
        st.execute("TRUNCATE item");
        long autocommit = lab.wire(c).measure(() -> helper.getValue().run(c)).roundTrips();
        assertThat(count(c)).isEqualTo(10_000);
        st.execute("TRUNCATE item");
        c.setAutoCommit(false);
        long inTransaction = lab.wire(c).measure(() -> helper.getValue().run(c)).roundTrips();
        assertThat(count(c)).isEqualTo(10_000);
        c.rollback();
        c.setAutoCommit(true);
        trips.put(helper.getKey(), List.of(autocommit, inTransaction));
      }
    }
    assertThat(trips).containsExactly(
        Map.entry("ChunkedBatchInsert", List.of(41L, 42L)),
        Map.entry("MultiRowInsert", List.of(11L, 12L)),
        Map.entry("UnnestInsert", List.of(2L, 3L)),
        Map.entry("CopyLoader TEXT", List.of(2L, 4L)),
        Map.entry("CopyLoader CSV", List.of(2L, 4L)),
        Map.entry("CopyLoader BINARY", List.of(3L, 5L)),
        Map.entry("CopyLoader upsert TEXT", List.of(5L, 6L)),
        Map.entry("CopyLoader upsert BINARY", List.of(6L, 7L)));
  }

  /**
   * A million rows from a lazy source: by the time the source yields its 500,000th row, most
   * of the first 500,000 are on the wire already, so they were never all in memory.
   */
  @Test
  void copyStreamsAMillionRowsInBoundedBuffers() throws Exception {
    int total = 1_000_000;
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
      assertThat(cost.roundTrips()).isEqualTo(3);
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
