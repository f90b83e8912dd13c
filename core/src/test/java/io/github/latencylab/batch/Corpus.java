package io.github.latencylab.batch;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * Nasty values, each in its own row (the row's other columns are NULL), plus a row of
 * ordinary values and a row of NULLs only: what every helper must store exactly.
 */
final class Corpus {

  /** A column of the corpus table: name, PostgreSQL type, and the helpers' PgType name. */
  record Col(String name, String sqlType, String pgType) {}

  /** One nasty value: what it is, where it goes, what is sent, and what must come back. */
  record Entry(String label, String column, Object value, Object expected) {}

  static final List<Col> COLUMNS = List.of(
      new Col("id", "int8 PRIMARY KEY", "INT8"),
      new Col("t", "text", "TEXT"),
      new Col("v", "varchar", "VARCHAR"),
      new Col("i2", "int2", "INT2"),
      new Col("i4", "int4", "INT4"),
      new Col("i8", "int8", "INT8"),
      new Col("n", "numeric", "NUMERIC"),
      new Col("f4", "float4", "FLOAT4"),
      new Col("f8", "float8", "FLOAT8"),
      new Col("b", "bool", "BOOL"),
      new Col("d", "date", "DATE"),
      new Col("ts", "timestamp", "TIMESTAMP"),
      new Col("tz", "timestamptz", "TIMESTAMPTZ"),
      new Col("u", "uuid", "UUID"),
      new Col("by", "bytea", "BYTEA"),
      new Col("j", "jsonb", "JSONB"));

  static final String TEN_MB = tenMegabytes();

  static final List<Entry> ENTRIES = entries();

  private Corpus() {}

  private static List<Entry> entries() {
    List<Entry> e = new ArrayList<>();
    // text: delimiters, quotes, escapes, line breaks, Unicode of every kind
    text(e, "empty string (not NULL)", "");
    text(e, "delimiters , ; | tab", "a,b;c|d\te");
    text(e, "quotes ' and \"", "it's \"quoted\" ''twice'' \"\"");
    text(e, "backslashes", "C:\\dir\\file \\\\server \\t \\n \\x41");
    text(e, "text that looks like COPY's NULL", "\\N");
    text(e, "text that looks like COPY's end marker", "\\.");
    text(e, "the word NULL", "NULL");
    text(e, "CR", "line\rbreak");
    text(e, "LF", "line\nbreak");
    text(e, "CRLF", "line\r\nbreak");
    text(e, "only line breaks", "\r\n\n\r");
    text(e, "leading and trailing spaces", "  padded  ");
    text(e, "control characters", "\u0001\u0007\b\f\u000b\u001b\u007f");
    text(e, "emoji with ZWJ and skin tone", "\uD83D\uDE00 "
        + "\uD83D\uDC69\u200D\uD83D\uDC69\u200D\uD83D\uDC67 \uD83D\uDC4D\uD83C\uDFFD");
    text(e, "other non-BMP characters", "\uD834\uDD1E \uD841\uDF0E \uD835\uDD4F");
    text(e, "right-to-left text",
        "\u05E9\u05DC\u05D5\u05DD \u0645\u0631\u062D\u0628\u0627 \u200Fmixed\u200E");
    text(e, "combining characters", "e\u0301 a\u0308 Z\u0335\u0321\u0358");
    text(e, "invisible separators", "\u00A0\u2028\u2029\uFEFF\u200B");
    text(e, "a lone quote", "\"");
    text(e, "a lone comma", ",");
    text(e, "a lone backslash", "\\");
    text(e, "10 MB", TEN_MB);
    add(e, "varchar with Unicode", "v", "v\u00E4rch\u00E4r \uD83D\uDE80 ,\"\\\t\n");
    add(e, "varchar empty", "v", "");
    // integers
    add(e, "int2 min", "i2", Short.MIN_VALUE);
    add(e, "int2 max", "i2", Short.MAX_VALUE);
    add(e, "int4 min", "i4", Integer.MIN_VALUE);
    add(e, "int4 max", "i4", Integer.MAX_VALUE);
    add(e, "int4 zero", "i4", 0);
    add(e, "int8 min", "i8", Long.MIN_VALUE);
    add(e, "int8 max", "i8", Long.MAX_VALUE);
    // numeric
    add(e, "numeric zero with scale", "n", new BigDecimal("0.000"));
    add(e, "numeric negative small", "n", new BigDecimal("-0.00001"));
    add(e, "numeric 60 digits", "n",
        new BigDecimal("123456789012345678901234567890.123456789012345678901234567890"));
    add(e, "numeric 1,000 + 1,000 digits", "n",
        new BigDecimal("9".repeat(1000) + "." + "0123456789".repeat(100)));
    add(e, "numeric max scale 16383", "n", new BigDecimal("0." + "0".repeat(16382) + "1"));
    add(e, "numeric 131,072 integer digits", "n", new BigDecimal("9".repeat(131_072)));
    add(e, "numeric trailing zeros", "n", new BigDecimal("-10000.10000"));
    add(e, "numeric from a long", "n", Long.MIN_VALUE, new BigDecimal(Long.MIN_VALUE));
    add(e, "numeric with a negative scale", "n", new BigDecimal("1E+3"), new BigDecimal("1000"));
    add(e, "numeric NaN (a Double)", "n", Double.NaN);
    add(e, "numeric Infinity (a Double)", "n", Double.POSITIVE_INFINITY);
    add(e, "numeric -Infinity (a Double)", "n", Double.NEGATIVE_INFINITY);
    // floats
    add(e, "float4 NaN", "f4", Float.NaN);
    add(e, "float4 +Infinity", "f4", Float.POSITIVE_INFINITY);
    add(e, "float4 -Infinity", "f4", Float.NEGATIVE_INFINITY);
    add(e, "float4 -0.0", "f4", -0.0f);
    add(e, "float4 smallest subnormal", "f4", Float.MIN_VALUE);
    add(e, "float4 max", "f4", Float.MAX_VALUE);
    add(e, "float4 0.1", "f4", 0.1f);
    add(e, "float8 NaN", "f8", Double.NaN);
    add(e, "float8 +Infinity", "f8", Double.POSITIVE_INFINITY);
    add(e, "float8 -Infinity", "f8", Double.NEGATIVE_INFINITY);
    add(e, "float8 -0.0", "f8", -0.0);
    add(e, "float8 smallest subnormal", "f8", Double.MIN_VALUE);
    add(e, "float8 max", "f8", Double.MAX_VALUE);
    add(e, "float8 pi", "f8", Math.PI);
    add(e, "bool true", "b", true);
    add(e, "bool false", "b", false);
    // dates
    add(e, "date 4713-01-01 BC", "d", LocalDate.of(-4712, 1, 1));
    add(e, "date min 4714-11-24 BC", "d", LocalDate.of(-4713, 11, 24));
    add(e, "date max 5874897-12-31", "d", LocalDate.of(5_874_897, 12, 31));
    add(e, "date -infinity", "d", LocalDate.MIN);
    add(e, "date infinity", "d", LocalDate.MAX);
    add(e, "date 1 BC (ISO year 0)", "d", LocalDate.of(0, 12, 31));
    add(e, "date 0001-01-01", "d", LocalDate.of(1, 1, 1));
    add(e, "date in the Gregorian gap 1582-10-10", "d", LocalDate.of(1582, 10, 10));
    add(e, "date 2000-02-29", "d", LocalDate.of(2000, 2, 29));
    // timestamps
    add(e, "timestamp min 4714-11-24 BC", "ts", LocalDateTime.of(-4713, 11, 24, 0, 0));
    add(e, "timestamp max 294276-12-31 23:59:59.999999", "ts",
        LocalDateTime.of(294_276, 12, 31, 23, 59, 59, 999_999_000));
    add(e, "timestamp -infinity", "ts", LocalDateTime.MIN);
    add(e, "timestamp infinity", "ts", LocalDateTime.MAX);
    add(e, "timestamp 1 microsecond before the epoch", "ts",
        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000));
    add(e, "timestamp 2000-01-01 (PostgreSQL's epoch)", "ts", LocalDateTime.of(2000, 1, 1, 0, 0));
    add(e, "timestamp sub-microsecond, rounded", "ts",
        LocalDateTime.of(2024, 2, 29, 12, 34, 56, 123_456_500),
        LocalDateTime.of(2024, 2, 29, 12, 34, 56, 123_457_000));
    add(e, "timestamptz with +05:30", "tz",
        OffsetDateTime.of(2024, 1, 1, 5, 30, 0, 1000, ZoneOffset.ofHoursMinutes(5, 30)),
        OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 1000, ZoneOffset.UTC));
    add(e, "timestamptz min (UTC)", "tz",
        OffsetDateTime.of(-4713, 11, 24, 0, 0, 0, 0, ZoneOffset.UTC));
    add(e, "timestamptz max (UTC)", "tz",
        OffsetDateTime.of(294_276, 12, 31, 23, 59, 59, 999_999_000, ZoneOffset.UTC));
    add(e, "timestamptz -infinity", "tz", OffsetDateTime.MIN);
    add(e, "timestamptz infinity", "tz", OffsetDateTime.MAX);
    add(e, "timestamptz from an Instant", "tz", Instant.parse("1999-12-31T23:59:59.5Z"),
        OffsetDateTime.of(1999, 12, 31, 23, 59, 59, 500_000_000, ZoneOffset.UTC));
    // uuid, bytea, jsonb (jsonb as PostgreSQL prints it, so it compares as text)
    add(e, "uuid random", "u", UUID.fromString("3f1c1a52-8c6e-4d5b-9a57-0b0e5f1e9c2d"));
    add(e, "uuid nil", "u", new UUID(0, 0));
    add(e, "uuid max", "u", new UUID(-1, -1));
    add(e, "bytea all 256 byte values", "by", allBytes());
    add(e, "bytea empty", "by", new byte[0]);
    add(e, "bytea that looks like hex escape", "by",
        "\\x41\\\\".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    add(e, "jsonb nested Unicode", "j",
        "{\"a\": \"\u00FC\uD83D\uDE00\\n\\\"\", \"nested\": {\"arr\": [1, 2.5, null, true,"
            + " \"\u05E9\u05DC\u05D5\u05DD\"]}}");
    add(e, "jsonb empty key, tab and backslash", "j", "{\"\": \"\\t\\\\\"}");
    add(e, "jsonb JSON null (not SQL NULL)", "j", "null");
    add(e, "jsonb deep array", "j", "[[[[[[[[[[1]]]]]]]]]]");
    add(e, "jsonb string with delimiters", "j", "\"a,b;c|d\\te\\r\\n\"");
    return List.copyOf(e);
  }

  private static void text(List<Entry> e, String label, String value) {
    add(e, "text " + label, "t", value);
  }

  private static void add(List<Entry> e, String label, String column, Object value) {
    add(e, label, column, value, value);
  }

  private static void add(List<Entry> e, String label, String column, Object value,
      Object expected) {
    e.add(new Entry(label, column, value, expected));
  }

  private static byte[] allBytes() {
    byte[] b = new byte[256];
    for (int i = 0; i < 256; i++) {
      b[i] = (byte) i;
    }
    return b;
  }

  private static String tenMegabytes() {
    String unit = "abc,\"'\\\t\r\n;|\uD83D\uDE00\u05E9e\u0301 ";
    StringBuilder s = new StringBuilder(10_000_100);
    while (s.length() < 10_000_000) {
      s.append(unit);
    }
    return s.toString();
  }

  /** An ordinary value for every column (id apart), for the row with no NULLs. */
  static Object[] ordinaryRow(long id) {
    return new Object[] {id, "plain", "also plain", (short) 2, 4, 8L, new BigDecimal("1.50"), 1.5f,
        2.25, true, LocalDate.of(2024, 6, 1), LocalDateTime.of(2024, 6, 1, 12, 0),
        OffsetDateTime.of(2024, 6, 1, 12, 0, 0, 0, ZoneOffset.UTC),
        UUID.fromString("00000000-0000-0000-0000-000000000001"), new byte[] {1, 2, 3},
        "{\"k\": \"v\"}"};
  }

  /** The rows to load: each entry in its own row (ids from 1), then ordinary and all-NULL rows. */
  static List<Object[]> rows() {
    List<Object[]> rows = new ArrayList<>();
    long id = 1;
    for (Entry entry : ENTRIES) {
      rows.add(row(id++, entry.column(), entry.value()));
    }
    rows.add(ordinaryRow(id++));
    Object[] nulls = new Object[COLUMNS.size()];
    nulls[0] = id;
    rows.add(nulls);
    return rows;
  }

  /** What must come back: like {@link #rows()} with each entry's expected value. */
  static List<Object[]> expectedRows() {
    List<Object[]> rows = rows();
    for (int i = 0; i < ENTRIES.size(); i++) {
      Entry entry = ENTRIES.get(i);
      rows.get(i)[index(entry.column())] = entry.expected();
    }
    return rows;
  }

  static String label(int rowIndex) {
    return rowIndex < ENTRIES.size() ? ENTRIES.get(rowIndex).label()
        : rowIndex == ENTRIES.size() ? "ordinary row" : "all-NULL row";
  }

  static Object[] row(long id, String column, Object value) {
    Object[] row = new Object[COLUMNS.size()];
    row[0] = id;
    row[index(column)] = value;
    return row;
  }

  static int index(String column) {
    for (int i = 0; i < COLUMNS.size(); i++) {
      if (COLUMNS.get(i).name().equals(column)) {
        return i;
      }
    }
    throw new IllegalArgumentException(column);
  }

  static String createTable(String quotedName) {
    StringBuilder sql = new StringBuilder("CREATE TABLE " + quotedName + " (");
    for (int i = 0; i < COLUMNS.size(); i++) {
      Col c = COLUMNS.get(i);
      sql.append(i == 0 ? "" : ", ").append('"').append(c.name()).append("\" ").append(c.sqlType());
    }
    return sql.append(')').toString();
  }

  /** Every row of {@code quotedTable}, by id, read with JDBC getters. */
  static List<Object[]> readBack(Connection c, String quotedTable) throws SQLException {
    List<Object[]> rows = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT * FROM " + quotedTable + " ORDER BY id")) {
      while (rs.next()) {
        Object[] row = new Object[COLUMNS.size()];
        for (int i = 0; i < COLUMNS.size(); i++) {
          row[i] = get(rs, i + 1, COLUMNS.get(i).pgType());
        }
        rows.add(row);
      }
    }
    return rows;
  }

  private static Object get(ResultSet rs, int i, String pgType) throws SQLException {
    Object value = switch (pgType) {
      case "TEXT", "VARCHAR", "JSONB" -> rs.getString(i);
      case "INT2" -> rs.getShort(i);
      case "INT4" -> rs.getInt(i);
      case "INT8" -> rs.getLong(i);
      case "NUMERIC" -> numeric(rs.getString(i));
      case "FLOAT4" -> rs.getFloat(i);
      case "FLOAT8" -> rs.getDouble(i);
      case "BOOL" -> rs.getBoolean(i);
      case "DATE" -> rs.getObject(i, LocalDate.class);
      case "TIMESTAMP" -> rs.getObject(i, LocalDateTime.class);
      case "TIMESTAMPTZ" -> utc(rs.getObject(i, OffsetDateTime.class));
      case "UUID" -> rs.getObject(i, UUID.class);
      case "BYTEA" -> rs.getBytes(i);
      default -> throw new IllegalArgumentException(pgType);
    };
    return rs.wasNull() ? null : value;
  }

  /** numeric as BigDecimal, or its special values as the Doubles the helpers take for them. */
  private static Object numeric(String text) {
    return text == null ? null : switch (text) {
      case "NaN" -> Double.NaN;
      case "Infinity" -> Double.POSITIVE_INFINITY;
      case "-Infinity" -> Double.NEGATIVE_INFINITY;
      default -> new BigDecimal(text);
    };
  }

  private static OffsetDateTime utc(OffsetDateTime t) {
    if (t == null || t.equals(OffsetDateTime.MIN) || t.equals(OffsetDateTime.MAX)) {
      return t;
    }
    return t.withOffsetSameInstant(ZoneOffset.UTC);
  }

  /** Differences between what was expected and what came back, one line each; empty if none. */
  static List<String> differences(List<Object[]> expected, List<Object[]> actual) {
    List<String> out = new ArrayList<>();
    if (expected.size() != actual.size()) {
      out.add("expected " + expected.size() + " rows, got " + actual.size());
      return out;
    }
    for (int r = 0; r < expected.size(); r++) {
      for (int c = 0; c < COLUMNS.size(); c++) {
        Object want = expected.get(r)[c];
        Object got = actual.get(r)[c];
        if (!Arrays.deepEquals(new Object[] {want}, new Object[] {got})) {
          out.add(label(r) + " / column " + COLUMNS.get(c).name() + ": expected " + show(want)
              + ", got " + show(got));
        }
      }
    }
    return out;
  }

  static String show(Object value) {
    String s = value instanceof byte[] b ? "bytes" + Arrays.toString(b) : String.valueOf(value);
    if (value != null) {
      s += " (" + value.getClass().getSimpleName() + ")";
    }
    return s.length() > 120 ? s.substring(0, 120) + "... (" + s.length() + " chars)" : s;
  }
}
