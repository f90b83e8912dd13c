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
        CopyReferenceCommand.class, ReportCommand.class})
public final class LatencyLab implements Runnable {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new LatencyLab());
    // a bad setting or a Lab that cannot start is the user's to fix: say what, not a trace
    cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      if (e instanceof IllegalArgumentException || e instanceof IllegalStateException) {
        commandLine.getErr().println("latency-lab: " + e.getMessage());
        if (System.getenv("LATENCYLAB_DEBUG") != null) {
          e.printStackTrace(commandLine.getErr());
        }
        return 2;
      }
      throw e;
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
