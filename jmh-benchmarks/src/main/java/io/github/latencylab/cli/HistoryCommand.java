package io.github.latencylab.cli;

import io.github.latencylab.bench.runner.JmhJson;
import io.github.latencylab.history.History;
import io.github.latencylab.history.HistoryAnalysis;
import io.github.latencylab.history.HistoryReport;
import io.github.latencylab.report.Results;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./latency-lab history}: a team's history of runs (a JSON Lines file kept on a branch
 * or as a CI artifact; docs/history.md), its steps and their first commits.
 */
@Command(name = "history", mixinStandardHelpOptions = true,
    description = "A history of runs, one line each with its commit and environment: append a"
        + " run or a mark, and report each cell's trend and its steps (change points).",
    subcommands = {HistoryCommand.Append.class, HistoryCommand.Mark.class,
        HistoryCommand.Report.class})
public final class HistoryCommand implements Runnable {

  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code history append}: a results.json made earlier, or by the gate just before. */
  @Command(name = "append", mixinStandardHelpOptions = true,
      description = {"Appends a run (its results.json with the commit, ref and gate) to the"
          + " history, creating the file if new.",
          "The commit: --commit, else $GITHUB_SHA (GitHub Actions), else $CI_COMMIT_SHA"
              + " (GitLab CI), else git rev-parse HEAD here."})
  static final class Append implements Callable<Integer> {

    @Option(names = "--results", paramLabel = "FILE", required = true,
        description = "The run's results.json (or JMH's JSON results)")
    Path results;

    @Option(names = "--history", paramLabel = "FILE", required = true,
        description = "The history file, e.g. latency-history.jsonl")
    Path history;

    @Option(names = "--commit", paramLabel = "SHA", description = "The commit measured")
    String commit;

    @Option(names = "--ref", paramLabel = "NAME", description = "Its branch or tag (default:"
        + " $GITHUB_REF_NAME, else $CI_COMMIT_REF_NAME)")
    String ref;

    @Option(names = "--machine", paramLabel = "NAME", description = "The machine's name in"
        + " place of its host name, e.g. \"github ubuntu-latest\": hosted CI runners get a new"
        + " host every run, and runs of another host are never compared; a team that decides"
        + " its runners of one class are alike names them so (the rest of the environment must"
        + " still match: OS, CPUs, Java, heap, PostgreSQL and its settings, link, profile)")
    String machine;

    @Option(names = "--gate", paramLabel = "OUTCOME", description = "Whether the run's"
        + " baseline check passed: passed or failed (GitHub's success and failure too); a"
        + " failed run is history too, flagged")
    String gate;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      Results run = JmhJson.read(results);
      if (Files.exists(history)) {
        History.read(history); // a broken history is said now, not at the next report
      }
      History.Run line = new History.Run(commit(commit, System.getenv(), Path.of("")),
          ref != null ? ref : ref(System.getenv()), gate(gate), machine, run);
      History.append(history, line);
      PrintWriter out = spec.commandLine().getOut();
      out.println("appended run " + line.shortCommit() + " (" + run.cells().size() + " cells, "
          + History.describeEnvironment(line) + (line.passed() == null ? ""
              : line.passed() ? ", gate passed" : ", gate FAILED") + ") to " + history);
      out.flush();
      return 0;
    }
  }

  /** {@code history mark}: the step at a commit is intended. */
  @Command(name = "mark", mixinStandardHelpOptions = true,
      description = "Marks the step at a commit as intended: reported so, and each cell's"
          + " level (the analysis) starts again from it.")
  static final class Mark implements Callable<Integer> {

    @Option(names = "--history", paramLabel = "FILE", required = true,
        description = "The history file")
    Path history;

    @Option(names = "--commit", paramLabel = "SHA", required = true,
        description = "The first commit of the intended step")
    String commit;

    @Option(names = "--reason", paramLabel = "TEXT", required = true,
        description = "Why the step is intended, e.g. \"COPY instead of batches\"")
    String reason;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      if (Files.exists(history)) {
        History.read(history);
      }
      History.Mark mark = new History.Mark(commit, reason, Instant.now().toString());
      History.append(history, mark);
      spec.commandLine().getOut().println("marked " + mark.commit() + " as an intended step ("
          + reason + ") in " + history);
      spec.commandLine().getOut().flush();
      return 0;
    }
  }

  /** {@code history report}: the trends and steps. */
  @Command(name = "report", mixinStandardHelpOptions = true,
      description = {"Writes history.md, history.html and charts/*.svg (an overview and one"
          + " trend per cell with a step) and prints one line per step with its first commit.",
          "Only runs of the latest run's machine and database are compared."},
      exitCodeListHeading = "%nExit codes:%n",
      exitCodeList = {"0:report written (a history report is information, steps or not)",
          "2:bad input (the message names the file and line)"})
  static final class Report implements Callable<Integer> {

    @Option(names = "--history", paramLabel = "FILE", required = true,
        description = "The history file")
    Path history;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "target/latency-history",
        description = "Where the report goes (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--last", paramLabel = "N",
        description = "Only the last N runs (default: all)")
    Integer last;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      if (last != null && last < 2) {
        throw new IllegalArgumentException("Invalid --last " + last + ": at least 2 runs make"
            + " a trend");
      }
      History h = History.read(history);
      HistoryAnalysis a = HistoryAnalysis.of(last == null ? h : h.last(last));
      List<Path> written = HistoryReport.write(a, out);
      PrintWriter stdout = spec.commandLine().getOut();
      stdout.print(HistoryReport.console(a));
      stdout.println("wrote " + written.size() + " files to " + out + ": history.html,"
          + " history.md, charts/ (" + (written.size() - 2) + " SVG)");
      stdout.flush();
      return 0;
    }
  }

  /**
   * The commit measured: {@code given}, else $GITHUB_SHA, else $CI_COMMIT_SHA, else
   * {@code git rev-parse HEAD} in {@code dir}; a one-line error when none says.
   */
  public static String commit(String given, Map<String, String> env, Path dir) {
    for (String c : new String[] {given, env.get("GITHUB_SHA"), env.get("CI_COMMIT_SHA")}) {
      if (c != null && !c.isBlank()) {
        return c.trim();
      }
    }
    String head = gitHead(dir);
    if (head == null) {
      throw new IllegalArgumentException("No commit for the history: give --commit SHA, or run"
          + " in CI ($GITHUB_SHA, $CI_COMMIT_SHA) or in a git checkout (git rev-parse HEAD"
          + " found none in " + dir.toAbsolutePath() + ")");
    }
    return head;
  }

  /** The branch or tag CI names, or null. */
  public static String ref(Map<String, String> env) {
    String github = env.get("GITHUB_REF_NAME");
    return github != null && !github.isBlank() ? github : env.get("CI_COMMIT_REF_NAME");
  }

  private static String gitHead(Path dir) {
    try {
      Process git = new ProcessBuilder("git", "rev-parse", "HEAD")
          .directory(dir.toAbsolutePath().toFile()).redirectErrorStream(false).start();
      git.getOutputStream().close();
      git.getErrorStream().close();
      String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
          .trim();
      if (!git.waitFor(10, TimeUnit.SECONDS)) {
        git.destroy();
        return null;
      }
      return git.exitValue() == 0 && !out.isEmpty() ? out : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private static Boolean gate(String outcome) {
    if (outcome == null) {
      return null;
    }
    return switch (outcome.toLowerCase(Locale.ROOT)) {
      case "passed", "success" -> true;
      case "failed", "failure" -> false;
      default -> throw new IllegalArgumentException("Invalid --gate '" + outcome + "': expected"
          + " passed or failed (or GitHub's success or failure)");
    };
  }
}
