package io.github.latencylab.env;

import io.github.latencylab.server.ServerSettings;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The server a result was measured on: its version, and its settings that matter here (the
 * knobs field reports tune, and every setting not at its default), in PostgreSQL's own units.
 */
public record ServerInfo(String version, int versionNum, Map<String, String> settings) {

  /** Settings every result reports, whatever their source: the knobs field reports tune. */
  static final String KNOBS = ServerSettings.KNOBS.stream().map(k -> "'" + k + "'")
      .collect(Collectors.joining(","));

  /** Set by initdb or the port chooser, never by a tuning decision. */
  static final String NOISE = "'port','log_timezone','TimeZone','default_text_search_config',"
      + "'dynamic_shared_memory_type','DateStyle'";

  static ServerInfo read(Connection connection) throws SQLException {
    try (Statement st = connection.createStatement()) {
      String version;
      int versionNum;
      try (ResultSet rs = st.executeQuery(
          "SELECT current_setting('server_version'), current_setting('server_version_num')::int")) {
        rs.next();
        version = rs.getString(1);
        versionNum = rs.getInt(2);
      }
      Map<String, String> settings = new TreeMap<>();
      try (ResultSet rs = st.executeQuery("SELECT name, current_setting(name) FROM pg_settings"
          + " WHERE name IN (" + KNOBS + ") OR (source NOT IN ('default', 'override',"
          + " 'client', 'session') AND name NOT IN (" + NOISE + ") AND name NOT LIKE 'lc\\_%')")) {
        while (rs.next()) {
          settings.put(rs.getString(1), rs.getString(2));
        }
      }
      return new ServerInfo(version, versionNum, Map.copyOf(settings));
    }
  }
}
