package io.github.latencylab.server;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * The server's settings, by name: read them from {@code pg_settings} in human units, and change
 * them the way an administrator does: {@code ALTER SYSTEM} and a reload, or a restart for a
 * setting that takes effect only at server start ({@code pg_settings.context = postmaster}).
 * Every change is undone by closing the {@link SettingChange} it returns, or by
 * {@link #restoreAll()} (the Lab calls it when it closes).
 *
 * <pre>{@code
 * try (SettingChange c = lab.settings().set("work_mem", "64MB")) {
 *   // new connections sort in 64 MB
 * } // work_mem is back to what it was
 * }</pre>
 *
 * <p>Refused, with one line saying why: a name PostgreSQL does not know, a value it rejects (its
 * own message), a memory or time setting without a unit ({@code shared_buffers=900} is 900 x
 * 8 kB pages, not 900 MB), a setting that needs a restart where this server cannot be
 * restarted, and a user without the privilege to run ALTER SYSTEM.
 */
public final class ServerSettings {

  /** The settings field reports tune, in the order reports list them. */
  public static final List<String> KNOBS = List.of("shared_buffers", "work_mem",
      "maintenance_work_mem", "effective_cache_size", "wal_buffers", "synchronous_commit",
      "fsync", "full_page_writes", "wal_level", "checkpoint_timeout", "max_wal_size",
      "random_page_cost", "max_connections");

  private static final long RELOAD_WAIT_MS = 10_000;

  private final DataSource direct;
  private final String where;
  private final ServerRestart restart;
  private final String whyNoRestart;
  private final Runnable onChange;
  private final Deque<SettingChange> live = new ArrayDeque<>();

  /**
   * @param direct connections straight to the server, not counted on any wire
   * @param where the server in messages, e.g. "the embedded PostgreSQL"
   * @param restart how to restart it, or null when this server cannot be restarted
   * @param whyNoRestart why not, when {@code restart} is null
   * @param onChange run after every change and restore (e.g. to forget cached settings)
   */
  public ServerSettings(DataSource direct, String where, ServerRestart restart,
      String whyNoRestart, Runnable onChange) {
    this.direct = Objects.requireNonNull(direct, "direct");
    this.where = where;
    this.restart = restart;
    this.whyNoRestart = whyNoRestart;
    this.onChange = onChange == null ? () -> { } : onChange;
  }

  /**
   * Settings over a plain connection to the server, without a way to restart it: what a JMH
   * fork has. Settings that need a restart are refused there.
   */
  public static ServerSettings over(DataSource direct, String whyNoRestart) {
    return new ServerSettings(direct, "the server", null, whyNoRestart, null);
  }

  /** One setting as pg_settings has it now; an IllegalArgumentException for an unknown name. */
  public PgSetting get(String name) {
    return snapshot(List.of(name)).get(0);
  }

  /** The settings field reports tune ({@link #KNOBS}). */
  public List<PgSetting> snapshot() {
    return snapshot(KNOBS);
  }

  /** These settings, in this order, as pg_settings has them now. */
  public List<PgSetting> snapshot(Collection<String> names) {
    try (Connection c = direct.getConnection()) {
      List<PgSetting> out = new ArrayList<>();
      for (String name : names) {
        PgSetting s = read(c, name);
        if (s == null) {
          throw new IllegalArgumentException(unknown(c, name, null));
        }
        out.add(s);
      }
      return out;
    } catch (SQLException e) {
      throw new IllegalStateException("Could not read pg_settings from " + where + ": "
          + e.getMessage(), e);
    }
  }

  /** Sets one setting; see {@link #set(Map)}. */
  public SettingChange set(String name, String value) {
    Map<String, String> one = new LinkedHashMap<>();
    one.put(name, value);
    return set(one);
  }

  /**
   * Sets these settings together (one reload, or one restart if any of them needs it), checks
   * that the server now uses them, and returns the change to close to undo it.
   */
  public synchronized SettingChange set(Map<String, String> settings) {
    if (settings.isEmpty()) {
      throw new IllegalArgumentException("No setting to set");
    }
    Map<String, String> applied = new LinkedHashMap<>();
    Map<String, String> previous = new LinkedHashMap<>();
    boolean needsRestart = false;
    try (Connection c = direct.getConnection()) {
      List<PgSetting> rows = new ArrayList<>();
      for (Map.Entry<String, String> e : settings.entrySet()) {
        String name = e.getKey().trim().toLowerCase(Locale.ROOT);
        String value = Objects.requireNonNull(e.getValue(), name).trim();
        PgSetting row = read(c, name);
        if (row == null) {
          throw new IllegalArgumentException(unknown(c, name, value));
        }
        String trap = unitTrap(row, value);
        if (trap != null) {
          throw new IllegalArgumentException(trap);
        }
        refuseUnchangeable(c, row, value);
        needsRestart |= "postmaster".equals(row.context());
        rows.add(row);
        applied.put(name, value);
      }
      for (PgSetting row : rows) {
        previous.put(row.name(), autoConfValue(c, row.name()));
      }
      Map<String, String> written = new LinkedHashMap<>();
      for (Map.Entry<String, String> e : applied.entrySet()) {
        try {
          alterSystem(c, e.getKey(), e.getValue());
          written.put(e.getKey(), previous.get(e.getKey()));
        } catch (SQLException failed) {
          writeBack(c, written);
          throw new IllegalArgumentException("Cannot set " + e.getKey() + "=" + e.getValue()
              + " on " + where + ": " + serverReason(failed));
        }
      }
      try {
        activate(c, needsRestart);
      } catch (IllegalStateException didNotStart) {
        if (!needsRestart) {
          throw didNotStart;
        }
        throw new IllegalArgumentException(startBack(applied, rows, written, didNotStart));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("Could not change settings on " + where + ": "
          + e.getMessage(), e);
    }
    SettingChange change = new SettingChange(this, applied, previous);
    live.push(change);
    try {
      verify(applied);
    } catch (RuntimeException notInEffect) {
      change.close();
      throw notInEffect;
    }
    return change;
  }

  /**
   * After a restart with {@code applied} failed: starts the server with the values it ran with
   * on its command line, writes postgresql.auto.conf back, restarts it as it was, and returns
   * the one line that says so (or that it could not).
   */
  private String startBack(Map<String, String> applied, List<PgSetting> before,
      Map<String, String> written, IllegalStateException didNotStart) {
    String failed = "PostgreSQL did not start with " + join(applied.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())) + " on " + where + ": "
        + didNotStart.getMessage();
    String asBefore = join(before.stream().map(r -> r.name() + "=" + r.value().replace(" ", "")));
    Map<String, String> ranWith = new LinkedHashMap<>();
    before.forEach(row -> ranWith.put(row.name(), row.setting()));
    try {
      restart.startWith(ranWith);
      try (Connection c = direct.getConnection()) {
        writeBack(c, written);
      }
      restart.restart();
      onChange.run();
    } catch (RuntimeException | SQLException cannotStartBack) {
      return failed + "; starting it again with " + asBefore + " failed too: "
          + cannotStartBack.getMessage();
    }
    return failed + "; it runs again with " + asBefore + ", as before";
  }

  private static String join(Stream<String> parts) {
    return parts.collect(Collectors.joining(", "));
  }

  /**
   * Sets these settings for good: the starting point of the server (e.g. the Lab's durability),
   * not a change that {@link #restoreAll()} undoes.
   */
  public synchronized void apply(Map<String, String> settings) {
    live.remove(set(settings));
  }

  /**
   * What postgresql.auto.conf holds now, by name: a mark to come back to with
   * {@link #restoreAutoConf}, e.g. around work in another process (a JMH fork) that changes
   * settings and might die before it restores them.
   */
  public synchronized Map<String, String> autoConf() {
    Map<String, String> out = new java.util.TreeMap<>();
    try (Connection c = direct.getConnection(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT name, setting FROM pg_file_settings"
            + " WHERE sourcefile LIKE '%postgresql.auto.conf' ORDER BY seqno")) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getString(2));
      }
    } catch (SQLException cannotRead) {
      // pg_file_settings needs superuser or pg_read_all_settings; a user without them cannot
      // ALTER SYSTEM either, so there is nothing of ours to put back
      return Map.of();
    }
    return out;
  }

  /**
   * Puts postgresql.auto.conf back to {@code mark} (from {@link #autoConf()}): settings added
   * since are reset, changed ones set back, with a reload or a restart. Returns the names it
   * changed; nothing to do (the usual case) costs one query.
   */
  public synchronized List<String> restoreAutoConf(Map<String, String> mark) {
    Map<String, String> now = autoConf();
    Map<String, String> back = new LinkedHashMap<>();
    now.forEach((name, value) -> {
      if (!value.equals(mark.get(name))) {
        back.put(name, mark.get(name));
      }
    });
    mark.forEach((name, value) -> {
      if (!now.containsKey(name)) {
        back.put(name, value);
      }
    });
    if (!back.isEmpty()) {
      restore(null, back);
    }
    return List.copyOf(back.keySet());
  }

  /** Undoes every change not undone yet, the latest first. */
  public synchronized void restoreAll() {
    while (!live.isEmpty()) {
      live.peek().close();
    }
  }

  /** Changes made and not undone yet, the latest first. */
  public synchronized List<SettingChange> live() {
    return List.copyOf(live);
  }

  synchronized void restore(SettingChange change, Map<String, String> previousAutoConf) {
    if (change != null) {
      live.remove(change);
    }
    try (Connection c = direct.getConnection()) {
      boolean needsRestart = false;
      for (String name : previousAutoConf.keySet()) {
        PgSetting row = read(c, name);
        needsRestart |= row != null && "postmaster".equals(row.context());
      }
      writeBack(c, previousAutoConf);
      activate(c, needsRestart);
    } catch (SQLException e) {
      throw new IllegalStateException("Could not restore " + previousAutoConf.keySet() + " on "
          + where + ": " + e.getMessage(), e);
    }
  }

  /**
   * The units trap (field report 2): a bare number for a memory or time setting is read in the
   * setting's base unit, which differs per setting. Refused unless it is 0 or negative (off,
   * auto), which need no unit.
   */
  static String unitTrap(PgSetting row, String value) {
    if (!(row.isMemory() || row.isTime()) || !value.matches("\\d+(\\.\\d+)?")) {
      return null;
    }
    double n = Double.parseDouble(value);
    if (n <= 0) {
      return null;
    }
    PgSetting as = new PgSetting(row.name(), value, row.unit(), null, null, row.vartype());
    String meaning = as.value();
    if (row.isMemory()) {
      String symbol = row.unit().replaceAll("^\\d+", "");
      String factor = row.unit().substring(0, row.unit().length() - symbol.length());
      meaning = value + (factor.isEmpty() ? "" : " x " + factor) + " " + symbol + " = " + meaning;
    }
    String example = row.isMemory() ? value + "MB" : value + "s";
    return "Refusing " + row.name() + "=" + value + ": without a unit PostgreSQL reads it in "
        + row.unitInWords() + " (" + meaning + "), which may not be what you mean. Write the"
        + " unit, e.g. " + row.name() + "=" + example + " (units: " + (row.isMemory()
        ? "B, kB, MB, GB, TB" : "us, ms, s, min, h, d") + ")";
  }

  private void refuseUnchangeable(Connection c, PgSetting row, String value)
      throws SQLException {
    String setting = row.name() + "=" + value;
    if ("internal".equals(row.context())) {
      throw new IllegalArgumentException("Cannot set " + setting + ": " + row.name()
          + " is fixed when PostgreSQL is built or initialised (pg_settings.context ="
          + " internal)");
    }
    if ("postmaster".equals(row.context()) && restart == null) {
      throw new IllegalArgumentException("Cannot set " + setting + " on " + where + ": it"
          + " takes effect only at server start (pg_settings.context = postmaster) and "
          + whyNoRestart);
    }
    if (!mayAlterSystem(c, row.name())) {
      String user = scalar(c, "SELECT current_user");
      throw new IllegalArgumentException("Cannot set " + setting + " on " + where + ": user "
          + user + " may not ALTER SYSTEM (it needs superuser, or GRANT ALTER SYSTEM ON"
          + " PARAMETER " + row.name() + " on PostgreSQL 15+). On a managed service (RDS,"
          + " Aurora, Cloud SQL...) change it in the instance's parameter group instead");
    }
  }

  private static boolean mayAlterSystem(Connection c, String name) throws SQLException {
    if (c.getMetaData().getDatabaseMajorVersion() >= 15) {
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT has_parameter_privilege(?, 'ALTER SYSTEM')")) {
        ps.setString(1, name);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          return rs.getBoolean(1);
        }
      }
    }
    return "on".equals(scalar(c, "SELECT current_setting('is_superuser')"));
  }

  /** The message for a name pg_settings does not have: the server's own, with a suggestion. */
  private static String unknown(Connection c, String name, String value) throws SQLException {
    String reason;
    try (PreparedStatement ps = c.prepareStatement("SELECT current_setting(?)")) {
      ps.setString(1, name);
      ps.executeQuery().close();
      reason = "not in pg_settings";
    } catch (SQLException e) {
      reason = serverReason(e);
    }
    String suggestion = closest(c, name);
    return "Cannot set " + name + (value == null ? "" : "=" + value) + ": " + reason
        + (suggestion == null ? "" : " (did you mean " + suggestion + "?)");
  }

  // the pg_settings name sharing the longest prefix with the unknown one
  private static String closest(Connection c, String name) throws SQLException {
    String best = null;
    int bestLength = 3;
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT name FROM pg_settings")) {
      while (rs.next()) {
        String candidate = rs.getString(1);
        int n = 0;
        while (n < candidate.length() && n < name.length()
            && candidate.charAt(n) == name.charAt(n)) {
          n++;
        }
        if (n > bestLength) {
          best = candidate;
          bestLength = n;
        }
      }
    }
    return best;
  }

  static String serverReason(SQLException e) {
    if (e instanceof PSQLException p && p.getServerErrorMessage() != null) {
      ServerErrorMessage m = p.getServerErrorMessage();
      String hint = m.getHint() == null ? "" : " (" + m.getHint() + ")";
      String detail = m.getDetail() == null ? "" : " (" + m.getDetail() + ")";
      return m.getMessage() + detail + hint;
    }
    return e.getMessage();
  }

  private static PgSetting read(Connection c, String name) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT name, setting, unit, source, context,"
        + " vartype FROM pg_settings WHERE name = ?")) {
      ps.setString(1, name.trim().toLowerCase(Locale.ROOT));
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? new PgSetting(rs.getString(1), rs.getString(2), rs.getString(3),
            rs.getString(4), rs.getString(5), rs.getString(6)) : null;
      }
    }
  }

  // the value postgresql.auto.conf holds for name, or null when it holds none
  private static String autoConfValue(Connection c, String name) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT setting FROM pg_file_settings"
        + " WHERE name = ? AND sourcefile LIKE '%postgresql.auto.conf' ORDER BY seqno DESC"
        + " LIMIT 1")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    } catch (SQLException cannotRead) {
      return null; // pg_file_settings needs pg_read_all_settings: assume the default
    }
  }

  private static void alterSystem(Connection c, String name, String value) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(value == null ? "ALTER SYSTEM RESET " + identifier(name)
          : "ALTER SYSTEM SET " + identifier(name) + " = " + literal(value));
    }
  }

  // puts back postgresql.auto.conf's earlier values (null: no entry)
  private static void writeBack(Connection c, Map<String, String> previous) throws SQLException {
    for (Map.Entry<String, String> e : previous.entrySet()) {
      alterSystem(c, e.getKey(), e.getValue());
    }
  }

  private void activate(Connection c, boolean needsRestart) throws SQLException {
    if (needsRestart) {
      restart.restart();
    } else {
      Timestamp before;
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT clock_timestamp(), pg_reload_conf()")) {
        rs.next();
        before = rs.getTimestamp(1);
      }
      awaitReload(before);
    }
    onChange.run();
  }

  // pg_reload_conf() only signals the postmaster: wait until a new session has read the files
  private void awaitReload(Timestamp signalled) throws SQLException {
    long deadline = System.currentTimeMillis() + RELOAD_WAIT_MS;
    while (true) {
      try (Connection fresh = direct.getConnection(); PreparedStatement ps =
          fresh.prepareStatement("SELECT pg_conf_load_time() >= ?")) {
        ps.setTimestamp(1, signalled);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          if (rs.getBoolean(1)) {
            return;
          }
        }
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException(where + " did not reload its configuration within "
            + RELOAD_WAIT_MS / 1000 + " s of pg_reload_conf()");
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for a reload", e);
      }
    }
  }

  // a higher-priority source (command line, a database or role setting) would hide the change
  private void verify(Map<String, String> applied) {
    try (Connection c = direct.getConnection()) {
      for (String name : applied.keySet()) {
        PgSetting now = read(c, name);
        boolean pending;
        try (PreparedStatement ps = c.prepareStatement(
            "SELECT pending_restart FROM pg_settings WHERE name = ?")) {
          ps.setString(1, name);
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            pending = rs.getBoolean(1);
          }
        }
        // "override": the server derived the value from ours (wal_buffers=-1 is 1/32 of
        // shared_buffers)
        boolean ours = "configuration file".equals(now.source())
            || "override".equals(now.source());
        if (!ours || pending) {
          throw new IllegalStateException("Set " + name + "=" + applied.get(name) + " in"
              + " postgresql.auto.conf, but " + where + " still uses " + now.value()
              + (pending ? " until it restarts" : " from its " + now.source()
              + ", which wins over ALTER SYSTEM"));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("Could not read back " + applied.keySet() + " from "
          + where + ": " + e.getMessage(), e);
    }
  }

  private static String scalar(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }

  private static String identifier(String name) {
    if (!name.matches("[a-z_][a-z0-9_.]*")) {
      throw new IllegalArgumentException("Invalid setting name '" + name + "'");
    }
    return name;
  }

  private static String literal(String value) {
    return "'" + value.replace("'", "''") + "'";
  }
}
