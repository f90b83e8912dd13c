package io.github.latencylab.env;

import io.github.latencylab.env.backend.GoModule;
import io.github.latencylab.latency.Rtt;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP path of a chosen RTT whose windows are the kernel's own TCP (slow start, congestion
 * control, buffer autotuning, restart after idle): the reference a model of TCP is checked
 * against, on kernels without {@code sch_netem}.
 *
 * <p>Connect to {@link #address()}, a loopback port. latency-lab's {@code kernel-path} program
 * (a Go module in this jar's resources, {@code kernelpath/}, built with {@code go build} into
 * the cache like the Toxiproxy server) relays each connection through two network namespaces of
 * its own, joined by a delay line that holds every packet for half the RTT each way, to the
 * target: {@code client -> 127.0.0.1:port -> [client ns] == RTT == [server ns] -> target}; the
 * Lab's shape (client, proxy, server) with the delay and the windows made by the kernel. The
 * line has no bandwidth limit and no loss ({@link #stats()} counts what it dropped, if ever).
 *
 * <p>Linux, root and {@code /dev/net/tun}: {@link #unavailable()} says what is missing. Nothing
 * named is created, so nothing can be left: the namespaces and devices go with the process,
 * which ends with {@link #close()}, with the end of its standard input, and with the thread that
 * started it (the parent death signal), so with this JVM however it ends, SIGKILL included.
 */
public final class KernelPath implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(KernelPath.class);
  private static final GoModule MODULE =
      new GoModule("/io/github/latencylab/env/kernelpath/", "kernel-path",
          "latency-lab's kernel path");
  private static final Pattern CONGESTION_CONTROL = Pattern.compile("[a-z0-9_]{1,15}");
  private static final long START_TIMEOUT_SECONDS = 15;
  private static final long ANSWER_TIMEOUT_SECONDS = 10;
  private static final String EOF = "\0eof";

  private final Process process;
  private final Writer commands;
  private final BlockingQueue<String> answers;
  private final Deque<String> errors;
  private final InetSocketAddress address;
  private final String description;
  private Rtt rtt;

  private KernelPath(Process process, BlockingQueue<String> answers, Deque<String> errors,
      InetSocketAddress address, String description, Rtt rtt) {
    this.process = process;
    this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    this.answers = answers;
    this.errors = errors;
    this.address = address;
    this.description = description;
    this.rtt = rtt;
  }

  /** Why a kernel path cannot start here, in one line that says what to do; empty if it can. */
  public static Optional<String> unavailable() {
    return unavailable(Host.current(LabConfig.fromEnvironment()));
  }

  /** What {@link #unavailable()} looks at. */
  record Host(String os, boolean root, boolean tun, boolean builtOrGo) {

    static Host current(LabConfig config) {
      return new Host(System.getProperty("os.name"), namespaceAdmin(),
          Files.exists(Path.of("/dev/net/tun")),
          Files.isExecutable(binaryPath(config)) || GoModule.go().isPresent());
    }

    // unshare(CLONE_NEWNET) needs CAP_SYS_ADMIN, a TUN device CAP_NET_ADMIN
    private static boolean namespaceAdmin() {
      try {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
          if (line.startsWith("CapEff:")) {
            long caps = Long.parseUnsignedLong(line.substring(7).trim(), 16);
            return (caps & (1L << 21)) != 0 && (caps & (1L << 12)) != 0;
          }
        }
      } catch (IOException | RuntimeException e) {
        LOG.debug("Could not read this process's capabilities", e);
      }
      return false;
    }
  }

  static Optional<String> unavailable(Host host) {
    if (host.os() == null || !host.os().toLowerCase(Locale.ROOT).contains("linux")) {
      return Optional.of("The kernel path needs Linux (network namespaces and TUN devices):"
          + " this is " + host.os());
    }
    if (!host.root()) {
      return Optional.of("The kernel path needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN, for"
          + " network namespaces and TUN devices): run this JVM as root, as CI does");
    }
    if (!host.tun()) {
      return Optional.of("The kernel path needs /dev/net/tun: load the tun module (modprobe"
          + " tun), or give the container --device /dev/net/tun");
    }
    if (!host.builtOrGo()) {
      return Optional.of("The kernel path is not built yet and there is no Go on PATH to"
          + " build it: install Go 1.17 or newer (https://go.dev/dl)");
    }
    return Optional.empty();
  }

  /**
   * Starts a path of {@code rtt} to {@code target} whose two namespaces run
   * {@code congestionControl} (a network namespace may pick only from
   * {@code net.ipv4.tcp_allowed_congestion_control}, e.g. reno and bbr) and
   * {@code net.ipv4.tcp_slow_start_after_idle} = {@code slowStartAfterIdle}; their
   * {@code tcp_wmem} and {@code tcp_rmem} are a new namespace's defaults ({@link #describe()}).
   * Fails in one line, leaving nothing running.
   */
  public static KernelPath start(Rtt rtt, String congestionControl, boolean slowStartAfterIdle,
      InetSocketAddress target) {
    if (rtt == null || target == null || target.isUnresolved()) {
      throw new IllegalArgumentException("A kernel path needs an RTT and a resolved target: got"
          + " rtt " + rtt + ", target " + target);
    }
    if (congestionControl == null || !CONGESTION_CONTROL.matcher(congestionControl).matches()) {
      throw new IllegalArgumentException("Congestion control \"" + congestionControl + "\" is"
          + " no algorithm's name: pick one of net.ipv4.tcp_allowed_congestion_control, e.g."
          + " reno or bbr");
    }
    unavailable().ifPresent(why -> {
      throw new IllegalStateException(why);
    });
    try {
      Path binary = MODULE.binary(binaryPath(LabConfig.fromEnvironment()), null,
          "kernel-path", "");
      return launch(List.of(binary.toString(), "-rtt", rtt.micros() + "us",
          "-congestion-control", congestionControl,
          "-slow-start-after-idle=" + slowStartAfterIdle,
          "-target", hostPort(target)), rtt);
    } catch (IOException e) {
      throw new IllegalStateException("Could not start the kernel path: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while starting the kernel path", e);
    }
  }

  private static String hostPort(InetSocketAddress address) {
    String host = address.getAddress().getHostAddress();
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
  }

  private static Path binaryPath(LabConfig config) {
    return config.cacheDir().resolve("kernel-path").resolve(MODULE.sourceHash())
        .resolve(MODULE.binaryName());
  }

  private static KernelPath launch(List<String> command, Rtt rtt)
      throws IOException, InterruptedException {
    // The parent death signal comes when the thread that started the process ends, not the
    // JVM: so a thread of its own starts it and stays until it exits.
    CompletableFuture<Process> started = new CompletableFuture<>();
    Thread parent = new Thread(() -> {
      Process p;
      try {
        p = new ProcessBuilder(command).start();
      } catch (IOException | RuntimeException e) {
        started.completeExceptionally(e);
        return;
      }
      started.complete(p);
      try {
        p.waitFor();
      } catch (InterruptedException e) {
        p.destroyForcibly();
      }
    }, "latency-lab-kernel-path");
    parent.setDaemon(true);
    parent.start();
    Process process;
    try {
      process = started.get();
    } catch (ExecutionException e) {
      throw new IOException("Cannot run the kernel path " + command.get(0) + " ("
          + e.getCause().getMessage() + "): delete it, and latency-lab builds it again", e);
    }
    BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    Deque<String> errors = new ArrayDeque<>();
    Thread errorReader = drain(process, answers, errors);

    String description = null;
    String ready = null;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
    while (ready == null) {
      String line = answers.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (line == null || line.equals(EOF)) {
        boolean exited = process.waitFor(2, TimeUnit.SECONDS);
        stop(process);
        errorReader.join(2000); // its last words
        throw new IllegalStateException("The kernel path did not start: " + (exited
            ? lastError(errors, "exit " + process.exitValue())
            : "no ready line within " + START_TIMEOUT_SECONDS + " s"));
      }
      if (line.startsWith("describe ")) {
        // the RTT is this object's to say: it changes
        description = line.substring("describe ".length()).replaceFirst(", RTT [^,]*$", "");
      } else if (line.startsWith("ready ")) {
        ready = line.substring("ready ".length());
      }
    }
    int colon = ready.lastIndexOf(':');
    InetSocketAddress address = new InetSocketAddress(ready.substring(0, colon),
        Integer.parseInt(ready.substring(colon + 1)));
    KernelPath path = new KernelPath(process, answers, errors, address, description, rtt);
    LOG.info("Kernel path ready on {}: {}", address, description);
    return path;
  }

  /**
   * Its standard output into answers; its standard error logged, the last lines kept by the
   * returned thread.
   */
  private static Thread drain(Process process, BlockingQueue<String> answers,
      Deque<String> errors) {
    Thread out = new Thread(() -> {
      try (BufferedReader in = process.inputReader(StandardCharsets.UTF_8)) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          answers.add(line);
        }
      } catch (IOException ended) {
        // the process is gone
      }
      answers.add(EOF);
    }, "latency-lab-kernel-path-out");
    Thread err = new Thread(() -> {
      try (BufferedReader in = process.errorReader(StandardCharsets.UTF_8)) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          LOG.warn("{}", line);
          synchronized (errors) {
            errors.addLast(line);
            if (errors.size() > 5) {
              errors.removeFirst();
            }
          }
        }
      } catch (IOException ended) {
        // the process is gone
      }
    }, "latency-lab-kernel-path-err");
    for (Thread t : new Thread[] {out, err}) {
      t.setDaemon(true);
      t.start();
    }
    return err;
  }

  private static String lastError(Deque<String> errors, String otherwise) {
    synchronized (errors) {
      List<String> lines = new ArrayList<>(errors);
      return lines.isEmpty() ? otherwise
          : String.join(" | ", lines).replaceFirst("^kernel-path: ", "");
    }
  }

  /** The loopback port to connect to. */
  public InetSocketAddress address() {
    return address;
  }

  /**
   * Kernel release, congestion control, tcp_wmem, tcp_rmem, slow_start_after_idle and MTU, as
   * read from the namespaces, and the RTT: "kernel 6.18.44, congestion control bbr, tcp_wmem
   * 4096 16384 4194304, tcp_rmem 4096 131072 33554432, slow_start_after_idle 1, MTU 1500, RTT
   * 320 ms".
   */
  public String describe() {
    return description + ", RTT " + rtt();
  }

  public synchronized Rtt rtt() {
    return rtt;
  }

  /**
   * Sets the RTT of the packets that arrive from now on; order is kept, so packets in flight
   * when it shrinks still leave first. Change it while the path is idle for clean measurements.
   */
  public synchronized void rtt(Rtt rtt) {
    if (rtt == null) {
      throw new IllegalArgumentException("A kernel path needs an RTT: got null");
    }
    ask("rtt " + rtt.micros() + "us", "rtt ");
    this.rtt = rtt;
  }

  /**
   * Packets passed and dropped each way (client to server first), the TUN devices' drops and
   * each namespace's TCP retransmissions: "passed 7686 7734 drops 0 0 tun-drops 0 0
   * retransmits 0 0". A reference measurement is one that dropped nothing.
   */
  public synchronized String stats() {
    return ask("stats", "stats ").substring("stats ".length());
  }

  /**
   * The kernel's TCP_INFO of each open socket of the middle leg, the two ends that cross the
   * line ("client" sends what a client writes, "server" what the target answers): "client
   * 198.18.0.1:41234 cwnd 10 ssthresh 2147483647 unacked 0 mss 1448 rtt_us 20412 rttvar_us
   * 10206 rto_us 224000 retrans 0 rcv_ssthresh 64076; server ...", or "none". What the windows
   * and the retransmission timeout are now (rcv_ssthresh: the most the socket lets its peer
   * send), to check a model of them against.
   */
  public synchronized String tcp() {
    return ask("tcp", "tcp ").substring("tcp ".length());
  }

  private String ask(String command, String answer) {
    try {
      commands.write(command + "\n");
      commands.flush();
      String line = answers.poll(ANSWER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      if (line == null || !line.startsWith(answer)) {
        throw new IllegalStateException("The kernel path did not take \"" + command + "\": "
            + (line == null ? "no answer within " + ANSWER_TIMEOUT_SECONDS + " s"
                : line.equals(EOF) ? lastError(errors, "it has exited") : line));
      }
      return line;
    } catch (IOException e) {
      throw new IllegalStateException("The kernel path did not take \"" + command + "\": "
          + lastError(errors, e.getMessage()), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while asking the kernel path " + command, e);
    }
  }

  /** The program's process id, for tests to check that it is gone. */
  long pid() {
    return process.pid();
  }

  /** Stops the program: its namespaces, devices and connections go with it. */
  @Override
  public void close() {
    stop(process);
  }

  private static void stop(Process process) {
    try {
      process.getOutputStream().close(); // the end of its standard input ends it
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (IOException e) {
      process.destroyForcibly();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "KernelPath[" + address + ", " + describe() + "]";
  }
}
