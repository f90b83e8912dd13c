package io.github.latencylab.cli;

import io.github.latencylab.batch.CopyLoader;
import io.github.latencylab.bench.insert.InsertRows;
import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.PostgresTarget;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.latency.RttMeasurement;
import io.github.latencylab.report.Median;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./latency-lab copy-reference}: CopyLoader, in CSV and in BINARY, against
 * {@code psql \copy} of the same rows from a CSV file, the physical reference, through the same
 * proxy in the same run.
 *
 * <p>Fair by construction: at each RTT every tool loads once untimed first (the JVM's JIT, the
 * server's caches, the file in the page cache); psql's copy is timed inside its session by
 * {@code \timing}, and its process start and connection are reported apart; every load goes
 * into the same freshly truncated table (no autovacuum on it; a checkpoint before each load on
 * a server of the Lab's own);
 * the CSV file holds the very text CopyLoader's CSV sends; the tools take turns in a rotating
 * order; each reports the median of at least 5 loads and their spread (min-max).
 */
@Command(name = "copy-reference", mixinStandardHelpOptions = true,
    description = {"Loads the same rows with CopyLoader (CSV and BINARY) and with psql's \\copy"
        + " from a CSV file, through the same proxy at each RTT, and prints rows/s (median and"
        + " spread) and their ratios."})
public final class CopyReferenceCommand implements Callable<Integer> {

  static final String TABLE = "copy_reference";
  static final String COLUMNS = "(id, name, amount, created_at, ref, payload)";

  @Option(names = "--rows", defaultValue = "1000000", description = "Rows (default: ${DEFAULT-VALUE})")
  int rows;

  @Option(names = "--rtt", paramLabel = "LIST", converter = RttConverter.class,
      defaultValue = "0ms,0.5ms,20ms", description = "RTT settings (default: ${DEFAULT-VALUE})")
  List<Rtt> rtts;

  @Option(names = "--runs", defaultValue = "5", description = "Timed loads per tool and RTT,"
      + " after one untimed; the median counts (at least 5; default: ${DEFAULT-VALUE})")
  int runs;

  @Option(names = "--psql", paramLabel = "PATH",
      description = "psql binary (default: psql on PATH, else /usr/lib/postgresql/*/bin/psql)")
  Path psql;

  @Mixin
  LabOptions labOptions;

  /** One way to load the rows: the seconds the load took, and the seconds around it. */
  private interface Tool {
    double[] load() throws Exception;
  }

  @Override
  public Integer call() throws Exception {
    if (rows < 1 || runs < 5) {
      throw new IllegalArgumentException("--rows must be at least 1 and --runs at least 5"
          + " (a median and a spread need them); got --rows " + rows + " --runs " + runs);
    }
    Path psqlBinary = psql != null ? psql : findPsql().orElseThrow(() ->
        new IllegalStateException("No psql found: install the PostgreSQL client or pass --psql"));
    List<Object[]> values = rows(rows);
    Path csv = Files.createTempFile("latency-lab-copy-", ".csv");
    CopyLoader copyCsv = loader(CopyLoader.Format.CSV);
    CopyLoader copyBinary = loader(CopyLoader.Format.BINARY);
    String load = loadAverage();
    StringBuilder table = new StringBuilder(String.format(Locale.ROOT,
        "%-6s | %-9s | %-27s | %-10s | %-27s | %-8s | %-27s | %s%n", "RTT", "measured",
        "psql \\copy rows/s", "psql start", "CopyLoader CSV rows/s", "CSV/psql",
        "CopyLoader BINARY rows/s", "BINARY/CSV"));
    String described;
    try (Lab lab = Lab.start(labOptions.config());
        Progress progress = new Progress("copy-reference", (long) rtts.size() * (runs + 1) * 3)) {
      writeCsv(csv, values);
      described = lab.describe();
      System.err.println("latency-lab: " + described + "; " + rows + " rows, CSV file "
          + Files.size(csv) / (1024 * 1024) + " MiB");
      createTable(lab.directDataSource());
      for (Rtt rtt : rtts) {
        RttMeasurement m = lab.measure(rtt);
        Tool[] tools = {
            () -> psqlCopy(psqlBinary, lab.target(), csv),
            () -> load(lab, copyCsv, values),
            () -> load(lab, copyBinary, values)};
        String[] names = {"psql \\copy", "CopyLoader CSV", "CopyLoader BINARY"};
        double[][] seconds = new double[tools.length][runs];
        double[] psqlStart = new double[runs];
        for (int run = -1; run < runs; run++) { // run -1 warms every tool up, untimed
          for (int k = 0; k < tools.length; k++) {
            int t = Math.floorMod(run + k, tools.length); // each run starts with another tool
            progress.working(names[t] + " @ " + rtt + (run < 0 ? " (warm-up)" : ""));
            truncate(lab);
            double[] s = tools[t].load();
            check(lab.directDataSource());
            if (run >= 0) {
              seconds[t][run] = s[0];
              if (t == 0) {
                psqlStart[run] = s[1];
              }
            }
            progress.step();
          }
        }
        double psqlRate = rows / Median.of(seconds[0]);
        double csvRate = rows / Median.of(seconds[1]);
        double binaryRate = rows / Median.of(seconds[2]);
        table.append(String.format(Locale.ROOT,
            "%-6s | %-9s | %-27s | %-10s | %-27s | %-8s | %-27s | %.2f%n", rtt,
            String.format(Locale.ROOT, "%+.2f ms", m.addedMeanMs()), rates(seconds[0]),
            String.format(Locale.ROOT, "%.0f ms", 1000 * Median.of(psqlStart)),
            rates(seconds[1]), String.format(Locale.ROOT, "%.2f", csvRate / psqlRate),
            rates(seconds[2]), binaryRate / csvRate));
      }
    } finally {
      Files.deleteIfExists(csv);
    }
    System.out.println();
    System.out.print(table);
    System.out.println(rows + " rows of " + TABLE + " (id int8, name text, amount numeric(12,2),"
        + " created_at timestamptz, ref uuid, payload bytea of 16 B), the same rows for every"
        + " tool. rows/s: median of " + runs + " loads into the freshly truncated table (and"
        + " checkpointed, on a server of the Lab's own), (min-max) of them, after one untimed"
        + " load per tool at each RTT; the tools take turns.");
    System.out.println("psql \\copy: timed by \\timing inside its session, from the CSV file"
        + " (the text CopyLoader's CSV sends); psql start: launching psql, connecting through"
        + " the proxy and exiting, median, not in its rows/s. CopyLoader: load() on a"
        + " connection opened for it, not timed. Each load is on a new connection: through a"
        + " link with a window, the tools alike start on a cold one.");
    System.out.println("Lab: " + described);
    System.out.println("Load average (1, 5, 15 min) at start: " + load + "; at end: "
        + loadAverage());
    return 0;
  }

  /**
   * The rows: InsertBenchmark's (id, name, amount, created_at) and a uuid and 16 bytes, all
   * from fixed seeds.
   */
  static List<Object[]> rows(int count) {
    SplittableRandom random = new SplittableRandom(43);
    List<Object[]> values = new ArrayList<>(count);
    for (InsertRows.Row r : InsertRows.generate(count).rows()) {
      byte[] payload = new byte[16];
      random.nextBytes(payload);
      values.add(new Object[] {r.id(), r.name(), r.amount(), r.createdAt(),
          new UUID(random.nextLong(), random.nextLong()), payload});
    }
    return values;
  }

  static CopyLoader loader(CopyLoader.Format format) {
    return CopyLoader.into(TABLE)
        .column("id", CopyLoader.PgType.INT8).column("name", CopyLoader.PgType.TEXT)
        .column("amount", CopyLoader.PgType.NUMERIC)
        .column("created_at", CopyLoader.PgType.TIMESTAMPTZ)
        .column("ref", CopyLoader.PgType.UUID).column("payload", CopyLoader.PgType.BYTEA)
        .format(format);
  }

  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss", Locale.ROOT);

  /** The CSV text CopyLoader sends for these rows (names need no quotes, times whole seconds). */
  static void writeCsv(Path csv, List<Object[]> values) throws IOException {
    HexFormat hex = HexFormat.of();
    try (BufferedWriter w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
      for (Object[] v : values) {
        w.write(v[0] + "," + v[1] + "," + ((java.math.BigDecimal) v[2]).toPlainString() + ","
            + TIMESTAMP.format((java.time.OffsetDateTime) v[3]) + "+00," + v[4] + ",\\x"
            + hex.formatHex((byte[]) v[5]) + "\n");
      }
    }
  }

  static void createTable(DataSource direct) throws SQLException {
    try (Connection c = direct.getConnection(); Statement st = c.createStatement()) {
      Lab.requireLabSchema(c); // only ever drops a table in the Lab's own schema
      st.execute("DROP TABLE IF EXISTS " + TABLE);
      // no autovacuum (its ANALYZE or VACUUM after one load would run during the next)
      st.execute("CREATE TABLE " + TABLE + " (id bigint PRIMARY KEY, name text NOT NULL,"
          + " amount numeric(12,2) NOT NULL, created_at timestamptz NOT NULL, ref uuid NOT NULL,"
          + " payload bytea NOT NULL) WITH (autovacuum_enabled = off)");
    }
  }

  /**
   * The same state before every load: an empty table and, on a server of the Lab's own, no
   * checkpoint pending (else one falls due every few loads' WAL, inside a load).
   */
  private static void truncate(Lab lab) throws SQLException {
    try (Connection c = lab.directDataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute("TRUNCATE " + TABLE);
      if (lab.backend() != BackendKind.EXTERNAL) {
        st.execute("CHECKPOINT");
      }
    }
  }

  private void check(DataSource direct) throws SQLException {
    try (Connection c = direct.getConnection(); Statement st = c.createStatement();
        var rs = st.executeQuery("SELECT count(*) FROM " + TABLE)) {
      rs.next();
      if (rs.getLong(1) != rows) {
        throw new IllegalStateException("Loaded " + rs.getLong(1) + " rows, expected " + rows);
      }
    }
  }

  private static double[] load(Lab lab, CopyLoader loader, List<Object[]> values)
      throws SQLException {
    try (Connection c = lab.dataSource().getConnection()) {
      long start = System.nanoTime();
      loader.load(c, values);
      return new double[] {(System.nanoTime() - start) / 1e9, 0};
    }
  }

  private static final Pattern TIMING = Pattern.compile("(?m)^Time: ([\\d.]+) ms");

  /** psql's \copy: seconds inside the session (\timing), and seconds around it (start, exit). */
  static double[] psqlCopy(Path psql, PostgresTarget target, Path csv)
      throws IOException, InterruptedException {
    // the connection, the password and the Lab's schema (search_path) in PG* variables
    ProcessBuilder pb = new ProcessBuilder(psql.toString(), "-X", "-q", "-v", "ON_ERROR_STOP=1",
        "-c", "\\timing on", "-c", "\\copy " + TABLE + " " + COLUMNS + " FROM '" + csv
        + "' WITH (FORMAT csv)")
        .redirectErrorStream(true);
    pb.environment().putAll(target.libpqEnvironment());
    long start = System.nanoTime();
    Process process = pb.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(30, TimeUnit.MINUTES) || process.exitValue() != 0) {
      throw new IllegalStateException("psql \\copy failed: " + output.strip());
    }
    double total = (System.nanoTime() - start) / 1e9;
    Matcher timing = TIMING.matcher(output);
    if (!timing.find()) {
      throw new IllegalStateException("psql printed no \\timing line: " + output.strip());
    }
    double copy = Double.parseDouble(timing.group(1)) / 1000;
    return new double[] {copy, total - copy};
  }

  /** Median rows/s and, in parentheses, the slowest and fastest load's. */
  private String rates(double[] seconds) {
    double[] sorted = seconds.clone();
    Arrays.sort(sorted);
    return String.format(Locale.ROOT, "%,.0f (%,.0f-%,.0f)", rows / Median.of(seconds),
        rows / sorted[sorted.length - 1], rows / sorted[0]);
  }


  private static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return fields[0] + ", " + fields[1] + ", " + fields[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  static Optional<Path> findPsql() throws IOException {
    List<Path> candidates = new ArrayList<>();
    for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      candidates.add(Path.of(dir, "psql"));
    }
    Path lib = Path.of("/usr/lib/postgresql");
    if (Files.isDirectory(lib)) {
      try (var versions = Files.list(lib)) {
        versions.sorted(java.util.Comparator.reverseOrder())
            .forEach(v -> candidates.add(v.resolve("bin/psql")));
      }
    }
    return candidates.stream().filter(Files::isExecutable).findFirst();
  }
}
