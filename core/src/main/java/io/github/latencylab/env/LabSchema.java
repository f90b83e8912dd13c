package io.github.latencylab.env;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.ds.PGSimpleDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The schema that holds everything latency-lab creates on a database: every connection of the
 * Lab works in it ({@code currentSchema}, which pgjdbc sends as {@code search_path} in the
 * startup packet: no extra round trip), so that a workload's {@code DROP TABLE IF EXISTS book}
 * can only ever find the Lab's {@code book}.
 *
 * <p>The Lab creates the schema at start and marks it with a comment; a schema of that name
 * without the mark is someone else's, and the Lab refuses to start rather than touch it. A
 * session of the Lab (the guard) holds an advisory lock for the Lab's lifetime: a second Lab
 * on the same schema is refused, and a marked schema nobody holds is a leftover of a run that
 * died, dropped and created afresh. Where the database outlives the Lab (external), close
 * drops the schema, through the guard and only while it still holds the lock, and never when
 * an object outside the schema depends on one inside (DROP ... CASCADE would take it along).
 */
final class LabSchema implements AutoCloseable {

  static final String MARK = "created by latency-lab; dropped when the Lab that created it"
      + " closes";

  private static final Logger LOG = LoggerFactory.getLogger(LabSchema.class);

  // objects outside the schema that depend on an object in it; rules, defaults, triggers
  // and policies have no schema of their own: theirs is their table's
  private static final String DEPENDENTS_OUTSIDE = """
      WITH inside AS (
        SELECT 'pg_class'::regclass AS classid, oid FROM pg_class WHERE relnamespace = ?::regnamespace
        UNION ALL SELECT 'pg_type'::regclass, oid FROM pg_type WHERE typnamespace = ?::regnamespace
        UNION ALL SELECT 'pg_proc'::regclass, oid FROM pg_proc WHERE pronamespace = ?::regnamespace)
      SELECT DISTINCT pg_describe_object(d.classid, d.objid, d.objsubid)
      FROM inside
      JOIN pg_depend d ON d.refclassid = inside.classid AND d.refobjid = inside.oid
      CROSS JOIN LATERAL pg_identify_object(d.classid, d.objid, d.objsubid) dependent
      LEFT JOIN pg_rewrite r ON d.classid = 'pg_rewrite'::regclass AND r.oid = d.objid
      LEFT JOIN pg_attrdef a ON d.classid = 'pg_attrdef'::regclass AND a.oid = d.objid
      LEFT JOIN pg_trigger t ON d.classid = 'pg_trigger'::regclass AND t.oid = d.objid
      LEFT JOIN pg_policy p ON d.classid = 'pg_policy'::regclass AND p.oid = d.objid
      LEFT JOIN pg_class owner ON owner.oid = coalesce(r.ev_class, a.adrelid, t.tgrelid, p.polrelid)
      LEFT JOIN pg_namespace owner_schema ON owner_schema.oid = owner.relnamespace
      WHERE d.deptype IN ('n', 'a')
        AND coalesce(dependent.schema, owner_schema.nspname) IS DISTINCT FROM ?
      ORDER BY 1""";

  private final String name;
  private final String database;
  private final Connection guard;
  private final boolean dropOnClose;

  private LabSchema(String name, String database, Connection guard, boolean dropOnClose) {
    this.name = name;
    this.database = database;
    this.guard = guard;
    this.dropOnClose = dropOnClose;
  }

  /**
   * Creates schema {@code name} on {@code direct}'s database and holds it for this Lab; drops
   * it on {@link #close()} when {@code dropOnClose}.
   */
  static LabSchema claim(PostgresTarget direct, String name, boolean dropOnClose) {
    Connection guard = connect(direct);
    try {
      String database;
      String role;
      try (Statement st = guard.createStatement();
          ResultSet rs = st.executeQuery("SELECT current_database(), current_user")) {
        rs.next();
        database = rs.getString(1);
        role = rs.getString(2);
      }
      try (PreparedStatement lock = guard.prepareStatement(
          "SELECT pg_try_advisory_lock(hashtext('latency-lab schema ' || ?))")) {
        lock.setString(1, name);
        try (ResultSet rs = lock.executeQuery()) {
          rs.next();
          if (!rs.getBoolean(1)) {
            throw new IllegalStateException("Schema " + name + " in database " + database
                + " is in use by another latency-lab run: wait for it to finish, or give this"
                + " run a schema of its own, e.g. -D" + Setting.SCHEMA.property() + "=" + name
                + "_2");
          }
        }
      }
      LabSchema schema = new LabSchema(name, database, guard, dropOnClose);
      String comment = schema.comment();
      if (comment != null && !comment.startsWith("created by latency-lab")) {
        throw new IllegalStateException("Schema " + name + " exists in database " + database
            + " and latency-lab did not create it (it is not marked as latency-lab's):"
            + " latency-lab never touches what it did not create. Give the Lab another schema:"
            + " -D" + Setting.SCHEMA.property() + "=" + name + "_2");
      }
      if (comment != null) {
        List<String> outside = schema.dependentsOutside();
        if (!outside.isEmpty()) {
          throw new IllegalStateException("Schema " + name + " in database " + database
              + " is a leftover of a latency-lab run that did not close, and " + outside
              + " outside it depend on it: latency-lab drops nothing outside its schema. Drop"
              + " them, or give the Lab another schema: -D" + Setting.SCHEMA.property() + "="
              + name + "_2");
        }
        schema.drop();
        LOG.info("Dropped schema {} in database {}: a leftover of a latency-lab run that did"
            + " not close", name, database);
      }
      schema.create(role);
      return schema;
    } catch (SQLException | RuntimeException e) {
      try {
        release(guard);
      } catch (SQLException closing) {
        e.addSuppressed(closing);
      }
      if (e instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException("Could not set up schema " + name + " on "
          + direct.redactedUrl() + ": " + e.getMessage(), e);
    }
  }

  // Unlocks before closing: the session's end releases the lock too, but only once the server
  // has processed the Terminate, after close returns, so a Lab started at once on the same
  // schema (a retry after a failed start, the next test) could be told it is in use.
  private static void release(Connection guard) throws SQLException {
    try (Statement st = guard.createStatement()) {
      st.execute("SELECT pg_advisory_unlock_all()");
    } catch (SQLException e) {
      LOG.debug("the schema guard could not unlock; its session's end will", e);
    } finally {
      guard.close();
    }
  }

  /** The schema of the Lab another one attaches to: that Lab holds it and drops it. */
  static LabSchema attached(String name) {
    return new LabSchema(name, null, null, false);
  }

  private static Connection connect(PostgresTarget direct) {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setURL(direct.jdbcUrl());
    ds.setUser(direct.user());
    ds.setPassword(direct.password());
    try {
      return ds.getConnection();
    } catch (SQLException e) {
      String state = String.valueOf(e.getSQLState());
      // the fix, where the failure says which: the credentials, or the address
      String fix = state.startsWith("28") ? ": check " + Setting.JDBC_USER.property() + " and "
          + Setting.JDBC_PASSWORD.property() + " (or the URL's user and password)"
          : state.startsWith("08") && !e.getMessage().contains("Check that") ? ": check the host and port of " + Setting.JDBC_URL.property()
          + ", and that the server runs and accepts TCP connections from here" : "";
      throw new IllegalStateException("Could not connect to " + direct.redactedUrl() + " as "
          + direct.user() + ": " + e.getMessage().strip() + fix, e);
    }
  }

  String name() {
    return name;
  }

  /** See {@link Lab#requireLabSchema(Connection)}. */
  static void require(Connection connection) throws SQLException {
    try (Statement st = connection.createStatement();
        ResultSet rs = st.executeQuery("SELECT current_setting('search_path'), current_schema(),"
            + " obj_description(to_regnamespace(current_schema())::oid, 'pg_namespace')")) {
      rs.next();
      String path = rs.getString(1);
      String current = rs.getString(2);
      String comment = rs.getString(3);
      if (current == null || !path.equals(current) || comment == null
          || !comment.startsWith("created by latency-lab")) {
        throw new IllegalStateException("Refusing to create or drop tables on a connection whose"
            + " search_path is '" + path + "', not a schema latency-lab created: latency-lab"
            + " works only in its own schema. Use a Lab's data sources (their currentSchema is"
            + " the Lab's schema)");
      }
    }
  }

  /** The schema's comment, or null when there is no such schema. */
  private String comment() throws SQLException {
    try (PreparedStatement st = guard.prepareStatement("SELECT coalesce(obj_description(oid,"
        + " 'pg_namespace'), '') FROM pg_namespace WHERE nspname = ?")) {
      st.setString(1, name);
      try (ResultSet rs = st.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  private void create(String role) throws SQLException {
    try (Statement st = guard.createStatement()) {
      // one simple query, one implicit transaction: never a schema without its mark
      st.execute("CREATE SCHEMA " + name + "; COMMENT ON SCHEMA " + name + " IS '" + MARK + "'");
    } catch (SQLException e) {
      if ("42501".equals(e.getSQLState())) { // insufficient_privilege
        throw new IllegalStateException("Cannot create schema " + name + " in database "
            + database + " as " + role + " (" + e.getMessage() + "): latency-lab keeps all it"
            + " creates in a schema of its own, which needs CREATE on the database: GRANT"
            + " CREATE ON DATABASE " + identifier(database) + " TO " + identifier(role), e);
      }
      throw e;
    }
    LOG.debug("Created schema {} in database {}: everything this Lab creates goes there{}",
        name, database, dropOnClose ? "; dropped on close" : "");
  }

  private List<String> dependentsOutside() throws SQLException {
    try (PreparedStatement st = guard.prepareStatement(DEPENDENTS_OUTSIDE)) {
      for (int i = 1; i <= 4; i++) {
        st.setString(i, name);
      }
      List<String> outside = new ArrayList<>();
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          outside.add(rs.getString(1));
        }
      }
      return outside;
    }
  }

  private void drop() throws SQLException {
    try (Statement st = guard.createStatement()) {
      // waits on no workload's lock for ever
      st.execute("SET lock_timeout = '10s'; DROP SCHEMA " + name + " CASCADE;"
          + " RESET lock_timeout");
    }
  }

  /** Drops the schema if it is to be dropped and still this Lab's; ends the guard's session. */
  @Override
  public void close() {
    if (guard == null) {
      return; // attached: the Lab that claimed it closes it
    }
    try {
      if (dropOnClose) {
        dropIfStillOurs();
      }
    } finally {
      try {
        release(guard);
      } catch (SQLException e) {
        LOG.debug("the schema guard's connection did not close cleanly", e);
      }
    }
  }

  private void dropIfStillOurs() {
    String keep = "; it stays, marked as latency-lab's: the next Lab on this database drops it,"
        + " or DROP SCHEMA " + name + " CASCADE";
    try {
      if (!guard.isValid(5)) {
        LOG.warn("Schema {} in database {}: the Lab lost its session (and its lock){}", name,
            database, keep);
        return;
      }
      if (comment() == null) {
        return;
      }
      List<String> outside = dependentsOutside();
      if (!outside.isEmpty()) {
        LOG.warn("Schema {} in database {} not dropped: {} outside it depend on it, and"
            + " latency-lab drops nothing outside its schema{}", name, database, outside, keep);
        return;
      }
      drop();
      LOG.debug("Dropped schema {} in database {}", name, database);
    } catch (SQLException e) {
      LOG.warn("Could not drop schema {} in database {}: {}{}", name, database, e.getMessage(),
          keep);
    }
  }

  /** A name as SQL must spell it in a GRANT the user copies. */
  private static String identifier(String name) {
    return name.matches("[a-z_][a-z0-9_$]*") ? name : "\"" + name.replace("\"", "\"\"") + "\"";
  }
}
