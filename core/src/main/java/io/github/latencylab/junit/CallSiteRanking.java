package io.github.latencylab.junit;

import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Format;
import io.github.latencylab.wire.WireStatement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Where a region move would hurt: the application's lines ranked by the round trips they sent
 * across every test of a run, each priced at the RTTs of a database farther away, and what a
 * fix that left each of them one round trip per test (a join fetch, a batch) would save.
 *
 * <p>A round trip is the line's whose statement it carried first (a batch's statements come
 * from one line); the price is round trips x the added RTT, what the wire adds, so the lines'
 * prices add up to the run's.
 */
final class CallSiteRanking {

  /** The RTTs a line is priced at: a nearby region, and one across a continent. */
  static final List<Rtt> PRICED_AT = List.of(Rtt.parse("20ms"), Rtt.parse("80ms"));
  /** How many lines the ranking shows. */
  static final int SHOWN = 10;

  private CallSiteRanking() {
  }

  /** One line of the application and what it sent. */
  record Site(String callSite, long roundTrips, int tests) {

    /** Round trips beyond one per test: what a fix in one query or one batch would save. */
    long beyondOnePerTest() {
      return Math.max(0, roundTrips - tests);
    }
  }

  /** Each test's counted statements, by its key: the lines, most round trips first. */
  static List<Site> rank(Map<String, List<WireStatement>> statementsByTest) {
    Map<String, long[]> trips = new LinkedHashMap<>();
    Map<String, Set<String>> tests = new LinkedHashMap<>();
    statementsByTest.forEach((test, statements) -> {
      Set<String> seen = new HashSet<>();
      for (WireStatement s : statements) {
        if (s.callSite() == null || !seen.add(s.trip())) {
          continue; // not traced, or its round trip is counted for the first statement's line
        }
        trips.computeIfAbsent(s.callSite(), k -> new long[1])[0]++;
        tests.computeIfAbsent(s.callSite(), k -> new HashSet<>()).add(test);
      }
    });
    List<Site> sites = new ArrayList<>();
    trips.forEach((site, n) -> sites.add(new Site(site, n[0], tests.get(site).size())));
    sites.sort(Comparator.comparingLong(Site::roundTrips).reversed()
        .thenComparing(Site::callSite));
    return sites;
  }

  /** The report's section: a fixed-width table of the top lines, or "" when none. */
  static String section(List<Site> sites) {
    if (sites.isEmpty()) {
      return "";
    }
    List<Site> shown = sites.subList(0, Math.min(SHOWN, sites.size()));
    int width = shown.stream().mapToInt(s -> s.callSite().length()).max().orElse(0);
    String site = "%-" + Math.max(width, "call site".length()) + "s";
    StringBuilder t = new StringBuilder(String.format(Locale.ROOT,
        site + " %6s %12s", "call site", "tests", "round trips"));
    for (Rtt r : PRICED_AT) {
      t.append(String.format(Locale.ROOT, " %10s", "at " + r));
    }
    t.append(String.format(Locale.ROOT, "  %s%n", "one per test would save at "
        + PRICED_AT.get(PRICED_AT.size() - 1)));
    for (Site s : shown) {
      t.append(String.format(Locale.ROOT, site + " %6d %12s", s.callSite(), s.tests(),
          Format.count(s.roundTrips())));
      for (Rtt r : PRICED_AT) {
        t.append(String.format(Locale.ROOT, " %10s",
            Format.duration(s.roundTrips() * r.millis())));
      }
      t.append(String.format(Locale.ROOT, "  %s%n", s.beyondOnePerTest() == 0 ? "-"
          : Format.duration(s.beyondOnePerTest() * PRICED_AT.get(PRICED_AT.size() - 1)
              .millis()) + " (" + RoundTrips.plural(s.beyondOnePerTest(), "round trip")
              + ")"));
    }
    if (sites.size() > SHOWN) {
      t.append("... and ").append(sites.size() - SHOWN).append(" more lines\n");
    }
    return t.append("Priced as round trips x the added RTT: what the wire adds to each line"
        + " if the database moved that far away.\n").toString();
  }
}
