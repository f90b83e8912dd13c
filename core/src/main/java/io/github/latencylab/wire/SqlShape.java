package io.github.latencylab.wire;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The shape of a statement: its SQL with literals and parameters as {@code ?}, lists of them
 * as {@code (...)}, and whitespace collapsed, so that the 100 child selects of an N+1 are one
 * shape. A statement that loads many keys at once (Hibernate's batch fetch: {@code in (...)}
 * or {@code = any (?)}) is a {@link #loadsByKeyList(String) key-list load}, not an N+1, however
 * often it repeats.
 */
public final class SqlShape {

  private static final Pattern STRING = Pattern.compile("'(?:[^']|'')*'");
  private static final Pattern DOLLAR_PARAM = Pattern.compile("\\$\\d+");
  private static final Pattern NUMBER =
      Pattern.compile("(?<![\\w$.])-?\\d+(?:\\.\\d+)?(?:e[+-]?\\d+)?(?![\\w$])",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern SPACES = Pattern.compile("\\s+");
  private static final Pattern IN_LIST =
      Pattern.compile("(?i)\\bin\\s*\\(\\s*\\?(?:\\s*,\\s*\\?)*\\s*\\)");
  private static final Pattern ANY = Pattern.compile("(?i)=\\s*any\\s*\\(\\s*\\?\\s*\\)");
  private static final Pattern SELECT_LIST =
      Pattern.compile("(?is)^(select\\s+)(.+?)(\\s+from\\s.*)$");

  private SqlShape() {
  }

  /**
   * "select b1_0.id from book b1_0 where b1_0.author_id=?" for "... author_id=$1" or
   * "... author_id=42"; "... where id in (...)" for any list of literals or parameters.
   */
  public static String of(String sql) {
    String known = SHAPES.get(sql);
    if (known != null) {
      return known;
    }
    String shape = shapeOf(sql);
    if (sql.length() > TEXT_KEPT) {
      return shape; // a multi-row insert of thousands of values: kept, it would hold megabytes
    }
    if (SHAPES.size() >= SHAPES_KEPT) {
      SHAPES.clear(); // a run of unbounded distinct texts (literals inlined) starts again
    }
    SHAPES.put(sql, shape);
    return shape;
  }

  // the shapes of the texts seen, read again by every report and finding of a suite
  private static final java.util.concurrent.ConcurrentHashMap<String, String> SHAPES =
      new java.util.concurrent.ConcurrentHashMap<>();
  private static final int SHAPES_KEPT = 10_000;
  private static final int TEXT_KEPT = 4_000;

  private static String shapeOf(String sql) {
    String s = STRING.matcher(sql).replaceAll("?");
    s = DOLLAR_PARAM.matcher(s).replaceAll("?");
    s = NUMBER.matcher(s).replaceAll("?");
    s = SPACES.matcher(s).replaceAll(" ").strip();
    s = IN_LIST.matcher(s).replaceAll("in (...)");
    s = ANY.matcher(s).replaceAll("= any (?)");
    return s;
  }

  /**
   * True when a statement of this shape loads rows for a list of keys ({@code in (...)},
   * {@code = any (?)}): a batch fetch, whose repeats are batches, not an N+1.
   */
  public static boolean loadsByKeyList(String shape) {
    String s = shape.toLowerCase(Locale.ROOT);
    return s.contains("in (...)") || s.contains("= any (?)");
  }

  /** True for a SELECT (or a WITH ... SELECT): a repeat of one is a query per row. */
  public static boolean isQuery(String shape) {
    String s = shape.stripLeading().toLowerCase(Locale.ROOT);
    return s.startsWith("select") || (s.startsWith("with") && !s.contains(" insert ")
        && !s.contains(" update ") && !s.contains(" delete "));
  }

  /**
   * True for a statement after which another's plan may differ: DDL (an index created or
   * dropped), statistics taken again (ANALYZE, VACUUM), a table rewritten or emptied. Read from
   * its first word, so that every statement the wire sees can be asked cheaply.
   */
  public static boolean changesPlans(String sql) {
    return PLAN_CHANGERS.contains(firstWord(sql));
  }

  private static final Set<String> PLAN_CHANGERS = Set.of("create", "drop", "alter", "analyze",
      "analyse", "vacuum", "cluster", "reindex", "truncate", "refresh", "import");
  private static final Set<String> TRANSACTION_CONTROL = Set.of("begin", "commit", "rollback",
      "savepoint", "release", "start", "end", "abort");

  /** True for BEGIN, COMMIT, ROLLBACK, SAVEPOINT and the like: not worth grouping. */
  public static boolean isTransactionControl(String shape) {
    return shape.isBlank() || TRANSACTION_CONTROL.contains(firstWord(shape));
  }

  /**
   * The statement's first word in lower case ("select", "with", "create"), leading whitespace
   * skipped; empty when it starts with no word. What the wire asks of every statement, read
   * without a regex or a copy of the whole text.
   */
  public static String firstWord(String sql) {
    int start = 0;
    while (start < sql.length() && Character.isWhitespace(sql.charAt(start))) {
      start++;
    }
    int end = start;
    while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end))
        || sql.charAt(end) == '_')) {
      end++;
    }
    return sql.substring(start, end).toLowerCase(Locale.ROOT);
  }

  /**
   * The shape with a long select list shortened to {@code ...}: "select ... from book b1_0
   * where b1_0.author_id=?".
   */
  public static String brief(String shape) {
    var m = SELECT_LIST.matcher(shape);
    if (m.matches() && m.group(2).length() > 24) {
      return m.group(1) + "..." + m.group(3);
    }
    return shape;
  }
}
