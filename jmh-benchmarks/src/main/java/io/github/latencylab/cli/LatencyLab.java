package io.github.latencylab.cli;

import io.github.latencylab.bench.runner.BenchCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/** {@code ./latency-lab}: the launcher's entry point, with every command. */
@Command(name = "latency-lab", mixinStandardHelpOptions = true,
    versionProvider = LatencyLab.Version.class,
    description = "What database round trips cost: PostgreSQL behind Toxiproxy, round trips"
        + " counted at the wire.",
    subcommands = {BenchCommand.class, DemoCommand.class, CalibrateCommand.class,
        CopyReferenceCommand.class, PgbenchCommand.class, KnobsCommand.class,
        LinkCheckCommand.class,
        ReportCommand.class, HistoryCommand.class})
public final class LatencyLab implements Runnable {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  @CommandLine.Option(names = "--verbose", scope = CommandLine.ScopeType.INHERIT,
      description = "On a failure, print the stack trace too (also: LATENCYLAB_DEBUG set)")
  boolean verbose;

  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new LatencyLab());
    // a bad setting or a Lab that cannot start is the user's to fix: say what in one line,
    // exit 2; anything else is ours: one line too, exit 1; a trace only when asked
    cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      boolean users = e instanceof IllegalArgumentException || e instanceof IllegalStateException
          || e instanceof java.io.IOException || e instanceof java.io.UncheckedIOException
          || e instanceof java.sql.SQLException;
      boolean verbose = parseResult.originalArgs().contains("--verbose")
          || System.getenv("LATENCYLAB_DEBUG") != null;
      String message = e.getMessage() == null || e.getMessage().isBlank()
          ? e.getClass().getName() : e.getMessage().strip().replaceAll("\\s*\\R\\s*", " ");
      commandLine.getErr().println("latency-lab: " + (users ? "" : "internal error ("
          + e.getClass().getSimpleName() + "): ") + message
          + (verbose ? "" : users ? "" : " (--verbose for the stack trace)"));
      if (verbose) {
        e.printStackTrace(commandLine.getErr());
      }
      return users ? 2 : 1;
    });
    return cl;
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = LatencyLab.class.getPackage().getImplementationVersion();
      return new String[] {"latency-lab " + (v == null ? "(development build)" : v)};
    }
  }
}
