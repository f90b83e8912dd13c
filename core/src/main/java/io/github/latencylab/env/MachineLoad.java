package io.github.latencylab.env;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How busy the rest of the machine kept its CPUs while a run ran: the CPU time the kernel counts
 * busy ({@code /proc/stat}, the hypervisor's steal included) less that of the run's own
 * processes (the trees of this JVM, which holds the benchmark forks and the proxy, and of the
 * local PostgreSQL server), in cores on average. A change to the code under test cannot move it:
 * a build beside the run does. Linux only; empty elsewhere.
 */
public final class MachineLoad {

  private static final Path PROC = Path.of("/proc");
  private static final double TICKS_PER_SECOND = 100; // USER_HZ, the unit of /proc's times

  private final Set<Long> roots;
  private final long startNanos;
  private final long busyStart;
  private final long ownStart;

  private MachineLoad(Set<Long> roots, long busy, long own) {
    this.roots = roots;
    this.startNanos = System.nanoTime();
    this.busyStart = busy;
    this.ownStart = own;
  }

  /**
   * Starts measuring; {@code roots} are the run's processes beside this JVM (a local server's
   * postmaster). Empty where /proc cannot be read.
   */
  public static Optional<MachineLoad> start(Set<Long> roots) {
    Set<Long> all = new HashSet<>(roots);
    all.add(ProcessHandle.current().pid());
    try {
      return Optional.of(new MachineLoad(Set.copyOf(all), busyTicks(), ownTicks(all)));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The cores the other processes kept busy on average since the start, or NaN. */
  public double othersCores() {
    try {
      double seconds = (System.nanoTime() - startNanos) / 1e9;
      long others = (busyTicks() - busyStart) - (ownTicks(roots) - ownStart);
      return seconds <= 0 ? Double.NaN : Math.max(0, others / TICKS_PER_SECOND / seconds);
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  // the first line of /proc/stat: user nice system idle iowait irq softirq steal ...
  private static long busyTicks() throws IOException {
    String[] f = Files.readAllLines(PROC.resolve("stat")).get(0).trim().split("\\s+");
    long busy = 0;
    for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
      busy += Long.parseLong(f[i]);
    }
    return busy;
  }

  /**
   * The CPU time of every live process under {@code roots}, each with its reaped children's
   * (utime + stime + cutime + cstime): a process that exits is then counted in its parent's.
   */
  private static long ownTicks(Set<Long> roots) throws IOException {
    Map<Long, List<Long>> children = new HashMap<>();
    Map<Long, Long> ticks = new HashMap<>();
    try (var dirs = Files.list(PROC)) {
      for (Path dir : (Iterable<Path>) dirs::iterator) {
        String name = dir.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        String stat;
        try {
          stat = Files.readString(dir.resolve("stat"));
        } catch (IOException gone) {
          continue;
        }
        // after the command in parentheses: state ppid ... utime(14) stime cutime cstime
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long pid = Long.parseLong(name);
        children.computeIfAbsent(Long.parseLong(f[1]), p -> new ArrayList<>()).add(pid);
        ticks.put(pid, Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13])
            + Long.parseLong(f[14]));
      }
    }
    long own = 0;
    List<Long> todo = new ArrayList<>(roots);
    Set<Long> seen = new HashSet<>();
    while (!todo.isEmpty()) {
      long pid = todo.remove(todo.size() - 1);
      if (seen.add(pid)) {
        own += ticks.getOrDefault(pid, 0L);
        todo.addAll(children.getOrDefault(pid, List.of()));
      }
    }
    return own;
  }
}
