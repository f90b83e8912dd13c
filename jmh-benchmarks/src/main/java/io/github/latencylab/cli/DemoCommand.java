package io.github.latencylab.cli;

import io.github.latencylab.cli.DemoReport.AtRtt;
import io.github.latencylab.cli.DemoReport.Prediction;
import io.github.latencylab.cli.DemoReport.Row;
import io.github.latencylab.demo.Library;
import io.github.latencylab.demo.Listing;
import io.github.latencylab.demo.NPlusOneStrategy.Question;
import io.github.latencylab.demo.NPlusOneStrategy;
import io.github.latencylab.demo.StrategyRun;
import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.env.Setting;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.latency.RttMeasurement;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.LatencyModel;
import io.github.latencylab.report.Median;
import io.github.latencylab.report.Series;
import io.github.latencylab.report.ReportWriter;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code ./latency-lab demo}: the N+1 and its fixes, side by side, at a latency, with every
 * statement and round trip read at the wire.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Lists N authors with their books with Hibernate ORM, once per fetch"
        + " strategy (the N+1, join fetch, entity graph, batch and subselect fetching, a DTO"
        + " projection; the same on Hibernate Reactive, R2DBC and Vert.x; and the many-to-one"
        + " N+1 and its fix), at an added round-trip time:"
        + " SQL statements and round trips read at the wire, times measured, times at other"
        + " latencies predicted. Runs on the embedded backend unless --backend or"
        + " latencylab.backend says otherwise."})
public final class DemoCommand implements Callable<Integer> {

  /** A strategy's timed runs repeat while they are this quick, to steady the median. */
  private static final double REPEAT_BELOW_MS = 200;
  private static final double REPEAT_BUDGET_MS = 1000;
  private static final int MAX_AUTO_RUNS = 5;
  private static final int SQL_SHOWN = 4;

  @Option(names = "--rtt", paramLabel = "RTT", converter = RttConverter.class,
      defaultValue = "20ms", description = "Added round-trip time, or a list such as"
          + " 0.5ms,20ms,320ms (default: ${DEFAULT-VALUE})")
  List<Rtt> rtts;

  @Option(names = "--parents", paramLabel = "N", defaultValue = "100",
      description = "Authors to list, each with its books (default: ${DEFAULT-VALUE})")
  int parents;

  @Option(names = "--children", paramLabel = "M", defaultValue = "10",
      description = "Books per author (default: ${DEFAULT-VALUE})")
  int children;

  @Option(names = "--strategy", paramLabel = "NAME", defaultValue = "all",
      converter = StrategiesConverter.class,
      description = "all, or a comma-separated list of: lazyLoop, joinFetch, entityGraph,"
          + " batchFetch16, batchFetch64, batchFetchDefault, subselectFetch, dtoProjection,"
          + " manyToOneLazyLoop, manyToOneJoinFetch (default: ${DEFAULT-VALUE})")
  List<NPlusOneStrategy> strategies;

  @Option(names = "--runs", paramLabel = "K", description = "Timed runs per strategy and RTT,"
      + " the median shown (default: 1, repeated up to 5 times while runs take under 0.2 s)")
  Integer runs;

  @Mixin
  JsonOption json;

  @Option(names = "--svg", paramLabel = "FILE",
      description = "Also write a log-log chart of time against RTT (SVG): measured lines with"
          + " several RTTs, else predicted lines through the measured point")
  Path svg;

  @Mixin
  LabOptions lab;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    validate();
    PrintWriter out = spec.commandLine().getOut();
    DemoText.Style style = DemoText.Style.detect();
    List<NPlusOneStrategy> chosen = List.copyOf(new LinkedHashSet<>(strategies));
    List<Rtt> latencies = List.copyOf(new LinkedHashSet<>(rtts));

    System.err.println("latency-lab: starting the Lab...");
    DemoReport report;
    try (Lab l = Lab.start(config(chosen))) {
      System.err.println("latency-lab: " + l.describe());
      LabEnvironment environment = l.environment();
      System.err.println("latency-lab: building Hibernate and seeding " + parents
          + " authors x " + children + " books...");
      try (Library library = Library.create(l, chosen.stream().map(NPlusOneStrategy::tuning)
          .distinct().toArray(Library.Tuning[]::new))) {
        library.seed(parents, children);
        try (Connection connection = l.dataSource().getConnection()) {
          report = measure(l, library, connection, chosen, latencies, environment);
        }
      }
    }

    for (AtRtt at : report.rtts()) {
      out.println();
      out.print(DemoText.header(report, at, style));
      double slowest = at.strategies().stream().mapToDouble(Row::timeMs).max().orElse(0);
      for (Question question : Question.values()) {
        List<Row> rows = at.strategies().stream()
            .filter(r -> r.question().equals(question.name())).toList();
        if (!rows.isEmpty()) {
          out.print(DemoText.table(question.describe(parents), rows, slowest, style));
        }
      }
      out.println();
      out.print(DemoText.footnote(style));
    }
    if (report.nPlusOne() != null) {
      out.print(DemoText.nPlusOneSql(report.nPlusOne(), style));
    }
    out.print(DemoText.predictions(report, style));
    if (!report.notes().isEmpty()) {
      out.println();
    }
    for (String note : report.notes()) {
      out.println(note);
    }
    write(report, out);
    out.flush();
    return 0;
  }

  /**
   * The Lab's settings; unless --backend or latencylab.backend / LATENCYLAB_BACKEND says
   * otherwise, the embedded backend: no Docker needed, quick to start for a talk. With a
   * reactive strategy among those chosen, every client goes through the counting relay (its
   * hop in the RTT measured), so that JDBC and the reactive clients cross the same path.
   */
  private LabConfig config(List<NPlusOneStrategy> chosen) {
    LabConfig config = lab.config();
    if ("default".equals(config.sourceOf(Setting.BACKEND))) {
      config = config.withBackend(BackendKind.EMBEDDED);
    }
    if (chosen.stream().anyMatch(s -> !(s.query() instanceof NPlusOneStrategy.Query.Orm))) {
      config = config.with(Setting.RELAY, "true");
    }
    return config;
  }

  private void validate() {
    CommandLine cl = spec.commandLine();
    if (parents < 1 || parents > 1_000_000) {
      throw new ParameterException(cl, "--parents must be between 1 and 1,000,000, got "
          + parents);
    }
    if (children < 1 || children > 10_000) {
      throw new ParameterException(cl, "--children must be between 1 and 10,000, got "
          + children);
    }
    if ((long) parents * children > 10_000_000L) {
      throw new ParameterException(cl, "--parents x --children must be at most 10,000,000,"
          + " got " + (long) parents * children);
    }
    if (runs != null && (runs < 1 || runs > 100)) {
      throw new ParameterException(cl, "--runs must be between 1 and 100, got " + runs);
    }
  }

  private DemoReport measure(Lab l, Library library, Connection connection,
      List<NPlusOneStrategy> chosen, List<Rtt> latencies, LabEnvironment environment)
      throws SQLException {
    List<String> notes = new ArrayList<>();
    Map<NPlusOneStrategy, StrategyRun> firstRuns = new EnumMap<>(NPlusOneStrategy.class);
    List<AtRtt> results = new ArrayList<>();
    try (Progress progress = new Progress("demo", chosen.size()
        + (long) latencies.size() * (chosen.size() + 1))) {
      // warm-up without latency: JIT, Hibernate's query plans, pgjdbc's prepared statements
      l.rtt(Rtt.ZERO);
      for (NPlusOneStrategy strategy : chosen) {
        progress.working("warming up " + strategy.label());
        library.run(strategy, connection, parents);
        progress.step();
      }
      for (Rtt rtt : latencies) {
        progress.working("setting and measuring " + rtt);
        RttMeasurement m = l.rtt(rtt);
        if (m == null && rtt.micros() > 0) {
          m = l.measure(rtt);
        }
        progress.step();
        Map<NPlusOneStrategy, List<StrategyRun>> runsOf = new EnumMap<>(NPlusOneStrategy.class);
        for (NPlusOneStrategy strategy : chosen) {
          progress.working(strategy.label() + " at " + rtt);
          List<StrategyRun> timed = timedRuns(l, library, connection, strategy);
          runsOf.put(strategy, timed);
          firstRuns.putIfAbsent(strategy, timed.get(0));
          progress.step();
        }
        results.add(atRtt(rtt, m, runsOf, notes));
      }
    }
    checkSameData(firstRuns, notes);
    String method = "Each strategy: a read-only transaction on an open connection, warmed up"
        + " once at 0 ms before\n  timing (JIT, Hibernate's query plans), its TCP windows"
        + " restarted before each run (cold:\n  a pooled connection after an idle); link "
        + (l.link() == null ? "as the Lab's" : l.link().name()) + "; time: "
        + (runs == null ? "median of 1 to " + MAX_AUTO_RUNS + " runs (more while runs are"
            + " quick)" : runs == 1 ? "one run" : "median of " + runs + " runs") + ".";
    if (l.relayed()) {
      method += "\n  Reactive rows: " + Library.reactiveClients() + ", each on one connection"
          + " of its own;\n  every client through the counting relay (its hop in the RTT"
          + " measured); their BEGIN waits\n  for its answer (pgjdbc's rides along with the"
          + " first query).";
    }
    return new DemoReport("n-plus-one-demo", Instant.now().toString(), environment,
        org.hibernate.Version.getVersionString(), parents, children, method, results,
        predictions(results), nPlusOneSql(firstRuns), notes);
  }

  private List<StrategyRun> timedRuns(Lab l, Library library, Connection connection,
      NPlusOneStrategy strategy) {
    List<StrategyRun> timed = new ArrayList<>();
    double spent = 0;
    do {
      // a request after an idle: the connection's windows as a pool's idle connection has them
      l.restartWindows();
      StrategyRun run = library.run(strategy, connection, parents);
      timed.add(run);
      spent += run.millis();
    } while (runs != null ? timed.size() < runs
        : timed.size() < MAX_AUTO_RUNS && timed.get(0).millis() < REPEAT_BELOW_MS
            && spent < REPEAT_BUDGET_MS);
    return timed;
  }

  private AtRtt atRtt(Rtt rtt, RttMeasurement m, Map<NPlusOneStrategy, List<StrategyRun>> runsOf,
      List<String> notes) {
    Map<Question, Double> best = new EnumMap<>(Question.class);
    Map<NPlusOneStrategy, Double> medians = new EnumMap<>(NPlusOneStrategy.class);
    runsOf.forEach((strategy, timed) -> {
      double median = Median.of(timed.stream().mapToDouble(StrategyRun::millis).toArray());
      medians.put(strategy, median);
      best.merge(strategy.question(), median, Math::min);
      long distinct = timed.stream().map(r -> r.statements() + "/" + r.roundTrips())
          .distinct().count();
      if (distinct > 1) {
        notes.add("Note: " + strategy.label() + "'s counts differed between its runs at " + rtt
            + "; the first run's are shown.");
      }
    });
    List<Row> rows = new ArrayList<>();
    runsOf.forEach((strategy, timed) -> {
      StrategyRun first = timed.get(0);
      double time = medians.get(strategy);
      rows.add(new Row(strategy.label(), strategy.question().name(), strategy.description(),
          first.statements(), first.roundTrips(), first.wire().windowRoundTrips(), time,
          timed.stream().map(StrategyRun::millis).toList(),
          time / best.get(strategy.question())));
    });
    return m == null
        ? new AtRtt(rtt, 0, 0, 0, 0, 0, rows)
        : new AtRtt(rtt, m.addedMeanMs(), m.addedP50Ms(), m.addedP99Ms(),
            m.withToxics().samples(), m.baseline().meanMs(), rows);
  }

  /** Each strategy's model, fitted on its runs at every RTT, at {@link DemoReport#PREDICTED_AT}. */
  static List<Prediction> predictions(List<AtRtt> results) {
    List<Prediction> predictions = new ArrayList<>();
    models(cells(results)).forEach((strategy, model) -> {
      Map<String, Double> at = new LinkedHashMap<>();
      List<String> uncertain = new ArrayList<>();
      DemoReport.PREDICTED_AT.forEach((name, rtt) -> {
        at.put(name, model.timeMs(rtt.millis()));
        if (model.farBelow(rtt.millis())) {
          uncertain.add(name);
        }
      });
      predictions.add(new Prediction(strategy, model.t0Ms(), model.roundTrips(),
          model.fittedSlope(), model.rtts(), at, uncertain));
    });
    return predictions;
  }

  /** The demo's runs as cells of a series "N+1 demo" per strategy, for the model and charts. */
  private static List<Cell> cells(List<AtRtt> results) {
    List<Cell> cells = new ArrayList<>();
    for (AtRtt at : results) {
      for (Row row : at.strategies()) {
        cells.add(new Cell(Series.of("N+1 demo", row.strategy(), Map.of()), at.rtt(),
            at.addedMeanMs(), at.baselineMeanMs(), row.timeMs(), Double.NaN,
            row.roundTrips(), row.sqlStatements(), Double.NaN, Map.of(), null,
            row.windowFlights(), null));
      }
    }
    return cells;
  }

  private static Map<String, LatencyModel> models(List<Cell> cells) {
    Map<String, List<Cell>> byStrategy = new LinkedHashMap<>();
    cells.forEach(c -> byStrategy.computeIfAbsent(c.strategy(), k -> new ArrayList<>()).add(c));
    Map<String, LatencyModel> models = new LinkedHashMap<>();
    byStrategy.forEach((strategy, runs) -> models.put(strategy, LatencyModel.fit(runs)));
    return models;
  }

  /** Every strategy of a question must have returned the same data: say so, measured. */
  private void checkSameData(Map<NPlusOneStrategy, StrategyRun> firstRuns, List<String> notes) {
    for (Question question : Question.values()) {
      List<StrategyRun> same = firstRuns.values().stream()
          .filter(r -> r.strategy().question() == question).toList();
      if (same.isEmpty()) {
        continue;
      }
      List<? extends Listing> expected = same.get(0).result();
      List<String> differ = same.stream().filter(r -> !r.result().equals(expected))
          .map(r -> r.strategy().label()).toList();
      if (differ.isEmpty()) {
        long books = expected.stream().mapToLong(row -> row instanceof Listing.AuthorWithBooks a
            ? a.books().size() : 1).sum();
        notes.add(String.format(Locale.ROOT, "Checked: the %d %s returned the same %,d %s%s.",
            same.size(), same.size() == 1 ? "strategy" : "strategies", expected.size(),
            question == Question.AUTHORS_WITH_BOOKS ? "authors" : "books",
            question == Question.AUTHORS_WITH_BOOKS
                ? String.format(Locale.ROOT, " and %,d books", books) : " with their authors"));
      } else {
        notes.add("WARNING: " + differ + " returned other data than " + same.get(0).strategy()
            .label() + " for: " + question.describe(parents));
      }
    }
  }

  private static DemoReport.NPlusOneSql nPlusOneSql(Map<NPlusOneStrategy, StrategyRun> runs) {
    StrategyRun n1 = runs.get(NPlusOneStrategy.LAZY_LOOP);
    if (n1 == null) {
      n1 = runs.get(NPlusOneStrategy.MANY_TO_ONE_LAZY_LOOP);
    }
    if (n1 == null) {
      return null;
    }
    List<String> queries = n1.queries();
    List<String> first = queries.subList(0, Math.min(SQL_SHOWN, queries.size()));
    List<String> rest = queries.subList(first.size(), queries.size());
    String last = first.isEmpty() ? null : first.get(first.size() - 1);
    long like = rest.stream().filter(sql -> sql.equals(last)).count();
    return new DemoReport.NPlusOneSql(n1.strategy().label(), queries.size(), first, like,
        rest.size() - like);
  }


  private void write(DemoReport report, PrintWriter out) throws java.io.IOException {
    json.write(() -> report, out::println);
    if (svg != null) {
      Files.createDirectories(svg.toAbsolutePath().getParent());
      Files.writeString(svg, chart(report));
      out.println("wrote " + svg);
    }
  }

  /** Time against RTT per strategy, drawn by the reports' own chart: the demo's runs as cells. */
  static String chart(DemoReport report) {
    List<Cell> measured = cells(report.rtts().stream().filter(a -> a.rtt().micros() > 0)
        .toList());
    List<Cell> cells = new ArrayList<>(measured);
    if (report.rtts().stream().filter(a -> a.rtt().micros() > 0).count() < 2) {
      // one RTT measured: the other points are the model's, drawn hollow on dashed lines
      double baseline = measured.isEmpty() ? 0 : measured.get(0).baselineRttMs();
      models(cells(report.rtts())).values().forEach(model -> {
        for (Rtt to : Rtt.SWEEP) {
          if (measured.stream().noneMatch(c -> c.rtt().equals(to))) {
            cells.add(model.predict(to, to.millis(), baseline));
          }
        }
      });
    }
    Map<String, String> params = new LinkedHashMap<>();
    params.put("authors", String.valueOf(report.parents()));
    params.put("books", String.valueOf(report.children()));
    String timeIs = "Median time of the demo's runs (" + report.environment().backend()
        + " backend, PostgreSQL " + report.environment().postgresVersion() + ")";
    return ReportWriter.timeChart("N+1 demo", params, cells, timeIs);
  }

  /** Reads "all" or "lazyLoop,joinFetch"; a bad name's message lists the strategies. */
  static final class StrategiesConverter
      implements CommandLine.ITypeConverter<List<NPlusOneStrategy>> {
    @Override
    public List<NPlusOneStrategy> convert(String value) {
      if (value.trim().equalsIgnoreCase("all")) {
        return List.of(NPlusOneStrategy.values());
      }
      List<NPlusOneStrategy> out = new ArrayList<>();
      for (String part : value.split(",")) {
        if (part.isBlank()) {
          continue;
        }
        try {
          out.add(NPlusOneStrategy.of(part));
        } catch (IllegalArgumentException e) {
          throw new CommandLine.TypeConversionException(e.getMessage() + ", or all");
        }
      }
      if (out.isEmpty()) {
        throw new CommandLine.TypeConversionException("no strategy in '" + value + "'");
      }
      return out;
    }
  }
}
