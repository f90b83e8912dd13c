package io.github.latencylab.env.watch;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Reads of the server sent in one round trip: the statements of one string go out together
 * (pgjdbc sends each of them, then one Sync) and their results come back in order. What a
 * budget reads at a stretch's start (the server's sessions, its statements' counters) costs one
 * round trip, and what it reads at the end one more.
 */
final class OneTrip {

  private OneTrip() {
  }

  /** One read: its SQL, its parameters bound from {@code first}, what it takes of its rows. */
  interface Read {
    String sql();

    /** Binds this read's parameters from index {@code first}; the next read's first index. */
    default int bind(PreparedStatement st, int first) throws SQLException {
      return first;
    }

    void take(ResultSet rs) throws SQLException;
  }

  /** Runs {@code reads} on {@code c}, one round trip, one thread at a time. */
  static void run(Connection c, List<Read> reads) throws SQLException {
    if (reads.isEmpty()) {
      return;
    }
    synchronized (c) { // one connection for every budget of the Lab, whatever thread
      try (PreparedStatement st = c.prepareStatement(sql(reads))) {
        int next = 1;
        for (Read r : reads) {
          next = r.bind(st, next);
        }
        st.execute();
        for (Read r : reads) {
          try (ResultSet rs = st.getResultSet()) {
            r.take(rs);
          }
          st.getMoreResults();
        }
      }
    }
  }

  // most trips are one read: a test's end
  private static String sql(List<Read> reads) {
    if (reads.size() == 1) {
      return reads.get(0).sql();
    }
    StringBuilder joined = new StringBuilder();
    for (Read r : reads) {
      joined.append(joined.length() == 0 ? "" : "; ").append(r.sql());
    }
    return joined.toString();
  }
}
