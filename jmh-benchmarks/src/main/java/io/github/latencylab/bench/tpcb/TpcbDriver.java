package io.github.latencylab.bench.tpcb;

import io.github.latencylab.wire.WireDataSource;
import io.github.latencylab.wire.WireStats;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A run the way pgbench makes one: {@code clients} connections, each in its own thread, each
 * running transactions back to back for a duration (pgbench -T) or a number of transactions
 * (pgbench -t), after an uncounted warmup (pgjdbc's code paths need the JIT; pgbench is native
 * code and needs none). Round trips are counted on each connection at the socket.
 */
public final class TpcbDriver {

  /** One transaction of one client. */
  @FunctionalInterface
  public interface Transaction {
    void run() throws SQLException;
  }

  /** Prepares client number {@code index} on its connection. */
  @FunctionalInterface
  public interface ClientFactory {
    Transaction open(Connection connection, int index) throws SQLException;
  }

  /**
   * What a run did.
   *
   * @param transactions completed in the measured time, all clients together
   * @param tps transactions per second
   * @param latencyMs mean time of one transaction
   * @param roundTripsPerTransaction counted at the socket
   */
  public record Result(long transactions, double tps, double latencyMs,
      double roundTripsPerTransaction) {
  }

  /**
   * How long each client runs: for a duration (null when counted), or for a number of
   * transactions (then its warmup is as many transactions: a counted run is a quick one, and
   * its time must not depend on the machine's speed).
   */
  public record Length(Duration duration, long transactionsPerClient) {

    public static Length timed(Duration duration) {
      return new Length(duration, 0);
    }

    public static Length counted(long transactionsPerClient) {
      return new Length(null, transactionsPerClient);
    }

    public boolean isCounted() {
      return duration == null;
    }

    /** "10 s per run", "50 transactions per client per run". */
    public String describe() {
      return isCounted() ? transactionsPerClient + " transactions per client per run"
          : duration.toSeconds() + " s per run";
    }
  }

  private TpcbDriver() {
  }

  public static Result run(WireDataSource dataSource, int clients, Duration duration,
      Duration warmup, ClientFactory factory) throws Exception {
    return run(dataSource, clients, Length.timed(duration), warmup, factory);
  }

  /** A run of {@code length}; {@code warmup} applies to a timed one. */
  public static Result run(WireDataSource dataSource, int clients, Length length,
      Duration warmup, ClientFactory factory) throws Exception {
    List<Connection> connections = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Transaction> transactions = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        Connection c = dataSource.getConnection();
        connections.add(c);
        transactions.add(factory.open(c, i));
      }
      CyclicBarrier start = new CyclicBarrier(clients);
      List<Future<long[]>> futures = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        Transaction tx = transactions.get(i);
        Connection c = connections.get(i);
        futures.add(pool.submit(() -> {
          if (length.isCounted()) {
            for (long n = 0; n < length.transactionsPerClient(); n++) {
              tx.run();
            }
          } else {
            long warm = System.nanoTime() + warmup.toNanos();
            while (System.nanoTime() < warm) {
              tx.run();
            }
          }
          start.await();
          WireStats before = dataSource.counterOf(c).snapshot();
          long begin = System.nanoTime();
          long end = length.isCounted() ? Long.MAX_VALUE : begin + length.duration().toNanos();
          long limit = length.isCounted() ? length.transactionsPerClient() : Long.MAX_VALUE;
          long count = 0;
          long now = begin;
          while (now < end && count < limit) {
            tx.run();
            now = System.nanoTime();
            count++;
          }
          long trips = dataSource.counterOf(c).snapshot().minus(before).roundTrips();
          return new long[] {count, now - begin, trips};
        }));
      }
      long count = 0;
      long busy = 0;
      long trips = 0;
      long longest = 0;
      for (Future<long[]> f : futures) {
        long[] r = length.isCounted() ? f.get() : f.get(length.duration().plus(warmup)
            .toSeconds() + 600, TimeUnit.SECONDS);
        count += r[0];
        busy += r[1];
        trips += r[2];
        longest = Math.max(longest, r[1]);
      }
      if (count == 0) {
        throw new IllegalStateException("No transaction completed in " + length.duration());
      }
      return new Result(count, count / (longest / 1e9), busy / 1e6 / count,
          (double) trips / count);
    } finally {
      pool.shutdownNow();
      for (Connection c : connections) {
        c.close();
      }
    }
  }
}
