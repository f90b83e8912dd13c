package io.github.latencylab.cli;

import io.github.latencylab.batch.CopyLoader;
import io.github.latencylab.bench.insert.InsertRows;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.PostgresTarget;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.latency.RttMeasurement;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./latency-lab copy-reference}: the COPY helper against {@code psql \copy} of the
 * same rows from a CSV file, the physical reference, through the same proxy in the same run.
 */
@Command(name = "copy-reference", mixinStandardHelpOptions = true,
    description = {"Loads the same rows with CopyLoader (CSV) and with psql's \\copy from a CSV"
        + " file, through the same proxy at each RTT, and prints rows/s and their ratio."})
public final class CopyReferenceCommand implements Callable<Integer> {

  @Option(names = "--rows", defaultValue = "1000000", description = "Rows (default: ${DEFAULT-VALUE})")
  int rows;

  @Option(names = "--rtt", paramLabel = "LIST", converter = RttConverter.class,
      defaultValue = "0ms,0.5ms", description = "RTT settings (default: ${DEFAULT-VALUE})")
  List<Rtt> rtts;

  @Option(names = "--runs", defaultValue = "3", description = "Loads per tool and RTT; the"
      + " median counts (default: ${DEFAULT-VALUE})")
  int runs;

  @Option(names = "--psql", paramLabel = "PATH",
      description = "psql binary (default: psql on PATH, else /usr/lib/postgresql/*/bin/psql)")
  Path psql;

  @Mixin
  LabOptions labOptions;

  @Override
  public Integer call() throws Exception {
    if (rows < 1 || runs < 1) {
      throw new IllegalArgumentException("--rows and --runs must be at least 1");
    }
    Path psqlBinary = psql != null ? psql : findPsql().orElseThrow(() ->
        new IllegalStateException("No psql found: install the PostgreSQL client or pass --psql"));
    InsertRows data = InsertRows.generate(rows);
    List<Object[]> values = data.rows().stream()
        .map(r -> new Object[] {r.id(), r.name(), r.amount(), r.createdAt()}).toList();
    Path csv = Files.createTempFile("latency-lab-copy-", ".csv");
    try (BufferedWriter w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
      for (InsertRows.Row r : data.rows()) {
        w.write(r.id() + "," + r.name() + "," + r.amount().toPlainString() + ","
            + r.createdAt() + "\n");
      }
    }
    CopyLoader loader = CopyLoader.into(InsertRows.TABLE)
        .column("id", CopyLoader.PgType.INT8).column("name", CopyLoader.PgType.TEXT)
        .column("amount", CopyLoader.PgType.NUMERIC)
        .column("created_at", CopyLoader.PgType.TIMESTAMPTZ)
        .format(CopyLoader.Format.CSV);
    StringBuilder table = new StringBuilder(String.format(Locale.ROOT,
        "%-6s | %-12s | %16s | %16s | %s%n", "RTT", "measured", "CopyLoader rows/s",
        "psql \\copy rows/s", "CopyLoader / psql"));
    try (Lab lab = Lab.start(labOptions.config());
        Progress progress = new Progress("copy-reference", (long) rtts.size() * runs * 2)) {
      System.err.println("latency-lab: " + lab.describe() + "; " + rows + " rows, CSV file "
          + Files.size(csv) / (1024 * 1024) + " MiB");
      InsertRows.createTable(lab.directDataSource());
      for (Rtt rtt : rtts) {
        RttMeasurement m = lab.measure(rtt);
        double[] helper = new double[runs];
        double[] reference = new double[runs];
        for (int i = 0; i < runs; i++) {
          progress.working("CopyLoader @ " + rtt);
          InsertRows.truncate(lab.directDataSource());
          try (Connection c = lab.dataSource().getConnection()) {
            long start = System.nanoTime();
            loader.load(c, values);
            helper[i] = (System.nanoTime() - start) / 1e9;
          }
          check(lab);
          progress.step();
          progress.working("psql \\copy @ " + rtt);
          InsertRows.truncate(lab.directDataSource());
          reference[i] = psqlCopy(psqlBinary, lab.target(), csv);
          check(lab);
          progress.step();
        }
        double h = rows / median(helper);
        double p = rows / median(reference);
        table.append(String.format(Locale.ROOT, "%-6s | %-12s | %,16.0f | %,16.0f | %.2f%n",
            rtt, String.format(Locale.ROOT, "%+.2f ms", m.addedMeanMs()), h, p, h / p));
      }
    } finally {
      Files.deleteIfExists(csv);
    }
    System.out.println();
    System.out.print(table);
    System.out.println("Median of " + runs + " loads each into an empty table, same rows, same"
        + " proxy. psql's time includes starting psql and connecting (a few round trips);"
        + " CopyLoader's connection is open before the clock starts.");
    return 0;
  }

  private void check(Lab lab) throws Exception {
    long count = InsertRows.count(lab.directDataSource());
    if (count != rows) {
      throw new IllegalStateException("Loaded " + count + " rows, expected " + rows);
    }
  }

  private static double psqlCopy(Path psql, PostgresTarget target, Path csv)
      throws IOException, InterruptedException {
    // the connection, the password and the Lab's schema (search_path) in PG* variables
    ProcessBuilder pb = new ProcessBuilder(psql.toString(), "-X", "-q", "-v", "ON_ERROR_STOP=1",
        "-c", "\\copy " + InsertRows.TABLE
        + " (id, name, amount, created_at) FROM '" + csv + "' WITH (FORMAT csv)")
        .redirectErrorStream(true);
    pb.environment().putAll(target.libpqEnvironment());
    long start = System.nanoTime();
    Process process = pb.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(30, TimeUnit.MINUTES) || process.exitValue() != 0) {
      throw new IllegalStateException("psql \\copy failed: " + output.strip());
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
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
