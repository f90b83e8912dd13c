package io.github.latencylab.env.watch;

import io.github.latencylab.wire.JvmWide;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.IntPredicate;

/**
 * What the server saw against what the Lab counted, over one stretch of a test: SQL that ran
 * on a session of the Lab's database whose connection the Lab did not count (an application's
 * own datasource built from host and port, a URL stripped of latency-lab's parameters, another
 * Lab's URL) would leave a budget reading zero, and passing. Read on a connection of the Lab's
 * own, outside the counted ones, at the start and the end: {@code pg_stat_activity} names the
 * sessions still open at the end that ran SQL (a pool's); {@code pg_stat_database.sessions},
 * the sessions the server started meanwhile, counts those opened and closed within the stretch
 * (plain JDBC's try-with-resources) against the sessions the Lab's counted connections and its
 * own started (PostgreSQL 14 and later: before, the open ones only). Only on a PostgreSQL the
 * Lab owns: on your own database other clients are
 * yours to have. SQL sent to another Lab of the JVM (a framework's datasource on a Lab of other
 * settings) shows on that Lab's count instead, and is a finding too.
 */
public final class UncountedSql {

  /** The application_name of the connections the Lab makes for itself. */
  public static final String OWN_APPLICATION_NAME = "latency-lab";

  // the sessions that ran SQL since the watch started, not the Lab's own, with the count of
  // sessions the server has started on its database: one row with no session when none did
  private static final String SESSIONS = "SELECT %s, a.pid,"
      + " a.application_name, coalesce(host(a.client_addr), 'a local socket'), a.client_port,"
      + " left(a.query, 120), clock_timestamp()::text"
      + " FROM pg_stat_database d LEFT JOIN pg_stat_activity a ON a.datname = d.datname"
      + " AND a.backend_type = 'client backend' AND a.pid <> pg_backend_pid()"
      + " AND a.application_name <> '" + OWN_APPLICATION_NAME + "'"
      + " AND a.query_start >= ?::timestamptz"
      + " WHERE d.datname = current_database()";
  private static final String STARTED = "SELECT clock_timestamp()::text, %s"
      + " FROM pg_stat_database d WHERE d.datname = current_database()";
  // pg_stat_database.sessions came with PostgreSQL 14; before it, -1: the open sessions only
  private static final String NO_COUNT = "-1::bigint";
  private static final String STARTED_14 = String.format(STARTED, "d.sessions");
  private static final String STARTED_13 = String.format(STARTED, NO_COUNT);
  private static final String SESSIONS_14 = String.format(SESSIONS, "d.sessions");
  private static final String SESSIONS_13 = String.format(SESSIONS, NO_COUNT);

  // a connection being opened as the stretch ends: its session counted by the server before
  // its BackendKeyData is read here; how long, at most, to wait for the Lab to count it
  private static final long SETTLE_NANOS = 200_000_000L;

  private final Connection watch;
  private final String labId;
  private final IntPredicate counted;
  private final LongSupplier sessionsCounted;
  private final String labName;
  private final Map<String, Long> otherLabs;
  private final long countedAtStart;
  // the two reads' SQL for this server: formatted once, not for every test
  private final String startedSql;
  private final String sessionsSql;
  // what the server said at the start, and at the end (null: not read yet)
  // the server's clock as it writes it: bound back as text, no Calendar on the test's thread
  private String since;
  private long serverAtStart;
  private Long serverNow;
  private String serverClockNow;
  private boolean carried; // started from the last stretch's end, not a read of its own
  // the sessions that ran SQL meanwhile on connections the Lab did not count
  private final Map<Integer, Session> uncounted = new LinkedHashMap<>();

  // a session that ran SQL meanwhile, as the server showed it, the Lab's count missed
  private record Session(int pid, String application, String from, int port, String query) {
    String describe() {
      return "backend pid " + pid + " (application_name '" + application + "', from " + from
          + (port > 0 ? ":" + port : "") + ", last `" + query.replaceAll("\\s+", " ").strip()
          + "`)";
    }
  }

  private UncountedSql(Connection watch, String labId, IntPredicate counted,
      LongSupplier sessionsCounted, String labName, int serverVersionNum) {
    boolean counts = serverVersionNum >= 140_000;
    this.startedSql = counts ? STARTED_14 : STARTED_13;
    this.sessionsSql = counts ? SESSIONS_14 : SESSIONS_13;
    this.watch = watch;
    this.labId = labId;
    this.counted = counted;
    this.sessionsCounted = sessionsCounted;
    this.labName = labName;
    this.otherLabs = otherLabsStatements();
    // the Lab's count first: a session starting meanwhile is the server's too, never one more
    this.countedAtStart = sessionsCounted.getAsLong();
  }

  /**
   * A watch of the server's sessions on {@code watch} against the Lab's {@code counted}
   * connections and {@code sessionsCounted}, on a server of {@code serverVersionNum}
   * (server_version_num); started by {@link StretchWatch}.
   */
  public static UncountedSql unstarted(Connection watch, String labId, IntPredicate counted,
      LongSupplier sessionsCounted, String labName, int serverVersionNum) {
    return new UncountedSql(watch, labId, counted, sessionsCounted, labName, serverVersionNum);
  }

  void read(List<OneTrip.Read> reads, String what) {
    try {
      OneTrip.run(watch, reads);
    } catch (SQLException e) {
      throw new IllegalStateException("Could not read " + what + " on " + labName + ": "
          + e.getMessage(), e);
    }
  }

  /** The server's clock and the sessions it had started, as read at a stretch's end. */
  record Ended(String clock, long sessions) {
  }

  /** True once the start was read, or taken from the last stretch's end. */
  boolean started() {
    return since != null;
  }

  /** Starts from the last stretch's end instead of reading the start: nothing ran since. */
  void startFrom(Ended previous) {
    since = previous.clock();
    serverAtStart = previous.sessions();
    carried = true;
  }

  /**
   * What the end read, for the next stretch; null before, or where the server's count of
   * sessions and the Lab's moved apart over this stretch: a session the server counts when its
   * process ends (a connection just closed) shows in its count a moment later, and must fall
   * in no later stretch's window.
   */
  Ended ended() {
    if (serverNow == null
        || serverNow - sessionsCounted.getAsLong() != serverAtStart - countedAtStart) {
      return null;
    }
    return new Ended(serverClockNow, serverNow);
  }

  /** The read at the start: the server's clock and the sessions it has started. */
  OneTrip.Read startRead() {
    return new OneTrip.Read() {
      @Override
      public String sql() {
        return startedSql;
      }

      @Override
      public void take(ResultSet rs) throws SQLException {
        rs.next();
        since = rs.getString(1);
        serverAtStart = rs.getLong(2);
      }
    };
  }

  /** The read at the end: the sessions started since, and those that ran SQL meanwhile. */
  OneTrip.Read endRead() {
    return new OneTrip.Read() {
      @Override
      public String sql() {
        return sessionsSql;
      }

      @Override
      public int bind(PreparedStatement st, int first) throws SQLException {
        st.setString(first, since);
        return first + 1;
      }

      @Override
      public void take(ResultSet rs) throws SQLException {
        long now = serverAtStart;
        // asked after the server's view: a counted connection's pid is known before it sends SQL
        while (rs.next()) {
          now = rs.getLong(1);
          serverClockNow = rs.getString(7);
          int pid = rs.getInt(2);
          if (rs.wasNull()) {
            continue; // no session ran SQL
          }
          if (!counted.test(pid)) { // described only where the Lab did not count it
            uncounted.put(pid, new Session(pid, rs.getString(3), rs.getString(4), rs.getInt(5),
                rs.getString(6)));
          }
        }
        serverNow = now;
      }
    };
  }

  private Map<String, Long> otherLabsStatements() {
    Map<String, LongSupplier> counts = JvmWide.statementCounts();
    if (counts.size() == 1 && counts.containsKey(labId)) {
      return Map.of(); // one Lab in the JVM, as in most runs
    }
    Map<String, Long> statements = new LinkedHashMap<>();
    counts.forEach((id, count) -> {
      if (!id.equals(labId)) {
        statements.put(id, count.getAsLong());
      }
    });
    return statements;
  }

  /**
   * The one line that says which session ran SQL the Lab did not count since this watch
   * started, if one did.
   */
  public Optional<String> finding() {
    Map<String, Long> othersNow = otherLabsStatements();
    for (Map.Entry<String, Long> other : othersNow.entrySet()) {
      long sent = other.getValue() - otherLabs.getOrDefault(other.getKey(), 0L);
      if (sent > 0) {
        return Optional.of("SQL went to another Lab of this JVM, " + other.getKey() + " ("
            + sent + (sent == 1 ? " statement" : " statements") + " meanwhile), while this"
            + " budget reads " + labName + ": one Lab a run; give the framework's datasource"
            + " and LabExtension the same settings (latency-lab.properties)");
      }
    }
    if (serverNow == null) { // not read with other reads at the stretch's end
      read(List.of(endRead()), "pg_stat_activity");
    }
    List<String> sessions = new ArrayList<>();
    uncounted.values().forEach(session -> sessions.add(session.describe()));
    if (sessions.isEmpty()) {
      return shortLived(serverNow - serverAtStart);
    }
    return Optional.of("SQL reached the Lab's database on " + (sessions.size() == 1
        ? "a connection" : sessions.size() + " connections") + " the Lab did not count"
        + (carried ? " since the last budgeted test ended (this test or its set-up)" : "")
        + ", " + sessions.get(0) + (sessions.size() > 1 ? " and " + (sessions.size() - 1) + " more"
        : "") + ": this budget reads " + labName + ", which counts only connections made"
        + " through its URL (${latencylab.lab.url}) or its DataSource; point the application's"
        + " datasource there");
  }

  /**
   * The sessions the server started during the stretch that neither the Lab's counted
   * connections nor its own account for: connections opened and closed within it.
   */
  private Optional<String> shortLived(long started) {
    if (serverAtStart < 0) {
      return Optional.empty();
    }
    long accounted = sessionsCounted.getAsLong() - countedAtStart;
    for (long deadline = System.nanoTime() + SETTLE_NANOS; accounted < started
        && System.nanoTime() < deadline; accounted = sessionsCounted.getAsLong() - countedAtStart) {
      java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
    }
    long uncounted = started - accounted;
    if (uncounted <= 0) {
      return Optional.empty();
    }
    return Optional.of("SQL reached the Lab's database on " + (uncounted == 1 ? "a connection"
        : uncounted + " connections") + " the Lab did not count, opened and closed "
        + (carried ? "since the last budgeted test ended (this test or its set-up)"
            : "within the test") + " (the server started " + started + (started == 1 ? " session" : " sessions")
        + ", the Lab's"
        + " counted connections and its own " + accounted + "): this budget reads " + labName
        + ", which counts only connections made through its URL (${latencylab.lab.url}) or its"
        + " DataSource; a connection opened by host and port, or by a URL without latency-lab's"
        + " parameters, is not; point it there");
  }
}
