package io.github.latencylab.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.latencylab.wire.BoundParameter;
import io.github.latencylab.wire.SqlShape;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.postgresql.core.BaseStatement;
import org.postgresql.core.QueryExecutor;

/**
 * The plan the server chooses for one statement as it was sent, its values included, reduced to
 * what a person reads and a diff can hold: node types, join kinds, tables, indexes and join
 * order; no costs, no row estimates. Read with EXPLAIN on a connection of its own, never on the
 * application's: nothing runs, nothing is counted on the measured connections.
 *
 * <p>A statement with parameters is prepared with the types its Parse declared and explained
 * as executed with the values its Bind sent (a fresh prepared statement's first plan is a custom
 * plan for them, as the application's first five executions are); where the values were not
 * kept, PostgreSQL 16's generic plan. The plan follows the table statistics: on a table of a
 * few rows any plan is as good, so {@link #tableRows} says how much the plan can mean.
 *
 * @param fingerprint e.g. {@code Nested Loop(Seq Scan on owners; Index Scan using
 *     visits_pet_id_idx on visits)}
 * @param queryId the server's query identifier, as pg_stat_statements keys the statement's
 *     work; 0 where the server computes none
 * @param tableRows each table the plan reads, with its rows by the server's statistics
 *     (counted, up to a million, for a table never analysed)
 */
public record QueryPlan(String fingerprint, long queryId, Map<String, Long> tableRows) {

  public QueryPlan {
    tableRows = Collections.unmodifiableMap(new LinkedHashMap<>(tableRows));
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern PARAMETER = Pattern.compile("\\$(\\d+)");
  private static final Set<String> PLANNED = Set.of("select", "insert", "update", "delete",
      "with", "values", "table", "merge");
  private static final String PREPARED = "latency_lab_plan";

  /** Whether a statement of this SQL has a plan to read (a query or DML, not a utility). */
  public static boolean planned(String sql) {
    String s = withoutSemicolon(sql);
    return PLANNED.contains(SqlShape.firstWord(s)) && s.indexOf(';') < 0; // one statement
  }

  private static String withoutSemicolon(String sql) {
    String s = sql.strip();
    return s.endsWith(";") ? s.substring(0, s.length() - 1) : s;
  }

  /**
   * The plan of {@code sql} for {@code parameters} (null: not kept), read on {@code c}, a
   * connection of the Lab's own in autocommit.
   */
  public static QueryPlan read(Connection c, String sql, List<BoundParameter> parameters)
      throws SQLException {
    int count = 0;
    Matcher m = PARAMETER.matcher(sql);
    while (m.find()) {
      count = Math.max(count, Integer.parseInt(m.group(1)));
    }
    String body = withoutSemicolon(sql);
    JsonNode plan;
    List<String> literals = count == 0 ? List.of() : literals(parameters, count);
    if (count == 0) {
      plan = explain(c, "EXPLAIN (VERBOSE, FORMAT JSON) " + body);
    } else if (literals != null) {
      plan = explainPrepared(c, body, parameters, literals);
    } else {
      plan = explain(c, "EXPLAIN (GENERIC_PLAN, VERBOSE, FORMAT JSON) " + body);
    }
    JsonNode root = plan.path(0);
    Set<List<String>> tables = new LinkedHashSet<>();
    String fingerprint = fingerprint(root.path("Plan"), tables);
    Map<String, Long> rows = new LinkedHashMap<>();
    for (List<String> t : tables) {
      rows.merge(t.get(1), rows(c, t.get(0), t.get(1)), Math::max);
    }
    return new QueryPlan(fingerprint, root.path("Query Identifier").asLong(0), rows);
  }

  // the values as literals, or null where one is missing or cannot be read
  private static List<String> literals(List<BoundParameter> parameters, int count) {
    if (parameters == null || parameters.size() < count) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String literal = parameters.get(i).literal();
      if (literal == null) {
        return null;
      }
      out.add(literal);
    }
    return out;
  }

  private static JsonNode explainPrepared(Connection c, String sql,
      List<BoundParameter> parameters, List<String> literals) throws SQLException {
    List<String> types = new ArrayList<>();
    try (PreparedStatement st = c.prepareStatement("SELECT CASE WHEN o = 0 THEN 'unknown'"
        + " ELSE format_type(o, NULL) END FROM unnest(?::oid[]) WITH ORDINALITY AS t(o, i)"
        + " ORDER BY i")) {
      st.setArray(1, c.createArrayOf("oid",
          parameters.subList(0, literals.size()).stream().map(BoundParameter::typeOid)
              .toArray()));
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          types.add(rs.getString(1));
        }
      }
    }
    try (Statement st = c.createStatement()) {
      st.execute("PREPARE " + PREPARED + "(" + String.join(", ", types) + ") AS " + sql);
      try {
        return explain(c, "EXPLAIN (VERBOSE, FORMAT JSON) EXECUTE " + PREPARED + "("
            + String.join(", ", literals) + ")");
      } finally {
        st.execute("DEALLOCATE " + PREPARED);
      }
    }
  }

  // sent as a simple Query: a generic plan's $1, ... stay in the text, with no Bind to fill them
  private static JsonNode explain(Connection c, String explain) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.unwrap(BaseStatement.class).executeWithFlags(explain,
          QueryExecutor.QUERY_EXECUTE_AS_SIMPLE);
      try (ResultSet rs = st.getResultSet()) {
        rs.next();
        return JSON.readTree(rs.getString(1));
      }
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new SQLException("EXPLAIN's JSON did not parse: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * One node and its children, as PostgreSQL's text EXPLAIN names them: {@code Hash Left
   * Join(Seq Scan on pets; Hash(Seq Scan on owners))}; {@code tables} collects (schema, table)
   * of every table read.
   */
  static String fingerprint(JsonNode node, Set<List<String>> tables) {
    String type = node.path("Node Type").asText("?");
    String label = switch (type) {
      case "Aggregate" -> switch (node.path("Strategy").asText("")) {
        case "Hashed" -> "HashAggregate";
        case "Sorted" -> "GroupAggregate";
        case "Mixed" -> "MixedAggregate";
        default -> "Aggregate";
      };
      case "ModifyTable" -> node.path("Operation").asText(type);
      default -> type;
    };
    String join = node.path("Join Type").asText("Inner");
    if (!join.equals("Inner") && !node.path("Join Type").isMissingNode()) {
      label = type.equals("Nested Loop") ? label + " " + join + " Join"
          : label.replace(" Join", " " + join + " Join");
    }
    if (node.path("Parallel Aware").asBoolean(false)) {
      label = "Parallel " + label;
    }
    String index = node.path("Index Name").asText(null);
    String relation = node.path("Relation Name").asText(null);
    if (index != null) {
      label += type.equals("Bitmap Index Scan") ? " on " + index : " using " + index;
    }
    if (relation != null) {
      label += " on " + relation;
      tables.add(List.of(node.path("Schema").asText(""), relation));
    } else if (node.hasNonNull("CTE Name")) {
      label += " on " + node.path("CTE Name").asText();
    } else if (node.hasNonNull("Function Name")) {
      label += " on " + node.path("Function Name").asText();
    }
    JsonNode children = node.path("Plans");
    if (!children.isArray() || children.isEmpty()) {
      return label;
    }
    List<String> inner = new ArrayList<>();
    children.forEach(child -> inner.add(fingerprint(child, tables)));
    return label + "(" + String.join("; ", inner) + ")";
  }

  // the table's rows by its statistics; counted (up to a million) where it was never analysed
  private static long rows(Connection c, String schema, String table) throws SQLException {
    try (PreparedStatement st = c.prepareStatement("SELECT c.reltuples::bigint FROM pg_class c"
        + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ?")) {
      st.setString(1, schema);
      st.setString(2, table);
      try (ResultSet rs = st.executeQuery()) {
        if (!rs.next()) {
          return 0;
        }
        long rows = rs.getLong(1);
        if (rows >= 0) {
          return rows;
        }
      }
    }
    String name = quoted(schema) + "." + quoted(table);
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
        "SELECT count(*) FROM (SELECT 1 FROM " + name + " LIMIT 1000000) t")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static String quoted(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }

  /** The rows of the largest table the plan reads (0: none). */
  public long largestTableRows() {
    return tableRows.values().stream().mapToLong(Long::longValue).max().orElse(0);
  }

  /** The tables the plan reads whole ({@code Seq Scan}, parallel or not), with their rows. */
  public Map<String, Long> seqScanned() {
    Map<String, Long> out = new LinkedHashMap<>();
    Matcher m = SEQ_SCAN.matcher(fingerprint);
    while (m.find()) {
      out.put(m.group(1), tableRows.getOrDefault(m.group(1), 0L));
    }
    return out;
  }

  private static final Pattern SEQ_SCAN = Pattern.compile("Seq Scan on ([^;()]+)");

  @Override
  public String toString() {
    return fingerprint;
  }
}
