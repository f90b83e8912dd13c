package io.github.latencylab.junit;

import java.util.List;
import java.util.Locale;

/**
 * The SQL a block ran, numbered, for a failure message: a run of identical statements (an
 * N+1's hundred child selects) is one line with its count.
 */
final class SqlListing {

  static final int MAX_LINES = 40;

  private SqlListing() {
  }

  static String of(List<String> sql, long statements) {
    StringBuilder out = new StringBuilder();
    if (sql.isEmpty()) {
      return "  (no SQL statement ran)\n";
    }
    long firstNumber = statements - sql.size() + 1; // the counter keeps the latest 10,000
    int lines = 0;
    int i = 0;
    while (i < sql.size()) {
      int j = i + 1;
      while (j < sql.size() && sql.get(j).equals(sql.get(i))) {
        j++;
      }
      if (lines == MAX_LINES) {
        out.append(String.format(Locale.ROOT, "  ... and %d more statements%n", sql.size() - i));
        break;
      }
      long number = firstNumber + i;
      out.append(String.format(Locale.ROOT, "  %4d  %s%n", number, sql.get(i)));
      if (j - i == 2) {
        out.append(String.format(Locale.ROOT, "        ... the same once more (%d)%n",
            number + 1));
      } else if (j - i > 2) {
        out.append(String.format(Locale.ROOT, "        ... the same %d more times (%d-%d)%n",
            j - i - 1, number + 1, firstNumber + j - 1));
      }
      lines++;
      i = j;
    }
    if (firstNumber > 1) {
      out.insert(0, String.format(Locale.ROOT, "  (the first %d statements are no longer kept)%n",
          firstNumber - 1));
    }
    return out.toString();
  }
}
