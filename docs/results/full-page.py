#!/usr/bin/env python3
"""The full-profile results page: reads the merged results.json of a full run and prints
docs/results/full.md (headline tables, the field figures beside ours, the model's check).

  python3 docs/results/full-page.py RESULTS_JSON [REMARKS_MD [BEFORE_JSON]] > docs/results/full.md

REMARKS_MD: what the run's operator saw that the numbers cannot say (e.g. what else ran).
BEFORE_JSON: the previous full run's results.json (docs/results/full/previous-results.json): the
page then says what moved, cell by cell, in its headline series.
"""
import statistics
import sys

from pages import cell, count, dur, load, noisy

# The page's tables: (title, suite, size, chart); moved() compares those with a size.
HEADLINES = [
    ("N+1: 1,000 authors with 10 books each", "NPlusOneBenchmark", "1000",
     "![N+1, 1,000 parents](full/charts/NPlusOneBenchmark-parents-1000-time.svg)"),
    ("Inserts: 10,000 rows", "InsertBenchmark", "10000",
     "![inserts, 10,000 rows](full/charts/InsertBenchmark-rows-10000-time.svg)"),
    ("Inserts: 1,000,000 rows", "InsertBenchmark", "1000000",
     "![inserts, 1,000,000 rows](full/charts/InsertBenchmark-rows-1000000-time.svg)"),
    ("Hibernate inserts: 10,000 rows", "HibernateInsertBenchmark", "10000", None),
    ("One round trip: `SELECT 1`", "RoundTripBenchmark", None, None),
]
SWEEP = ["0.5ms", "1ms", "2ms", "5ms", "10ms", "20ms", "40ms", "80ms", "160ms", "320ms"]


class Run:
    def __init__(self, path):
        self.doc = load(path)
        self.cells = self.doc["measurements"]
        self.env = self.doc["environment"] or {}

    def find(self, suite, strategy, size, rtt):
        for m in self.cells:
            if (m["benchmark"] == suite and m["strategy"] == strategy and m["rtt"] == rtt
                    and (size is None or size in m["params"].values())):
                return m
        return None

    def strategies(self, suite):
        return sorted({m["strategy"] for m in self.cells if m["benchmark"] == suite})

    def rtts(self):
        present = {m["rtt"] for m in self.cells}
        return [r for r in SWEEP if r in present]


def sweep_table(run, suite, size, out, note=""):
    rtts = run.rtts()
    out.append("| strategy | RT/op | window flights/op | statements/op | " + " | ".join(rtts) + " |")
    out.append("|---|---:|---:|---:|" + "---:|" * len(rtts))
    rows = []
    for s in run.strategies(suite):
        cells = [run.find(suite, s, size, r) for r in rtts]
        if all(c is None for c in cells):
            continue
        first = next(c for c in cells if c is not None)
        rows.append((cells[-1]["timeMs"] if cells[-1] else 0, s, first, cells))
    for _, s, first, cells in sorted(rows, reverse=True):
        out.append(f"| {s} | {count(first['roundTripsPerOp'])} |"
                   f" {count(max(c.get('windowRoundTripsPerOp', 0.0) for c in cells if c))} |"
                   f" {count(first['statementsPerOp'])} | "
                   + " | ".join(cell(c) for c in cells) + " |")
    out.append("")
    if note:
        out.append(note + "\n")


def measured_rtt(run, out):
    suites = sorted({m["benchmark"] for m in run.cells})
    out.append("| setting | " + " | ".join(suites) + " |")
    out.append("|---|" + "---:|" * len(suites))
    for r in run.rtts():
        row = []
        for s in suites:
            m = next((m for m in run.cells if m["benchmark"] == s and m["rtt"] == r), None)
            row.append(f"+{m['addedRttMs']:.2f} ms" if m else "–")
        out.append(f"| {r} | " + " | ".join(row) + " |")
    base = [m["baselineRttMs"] for m in run.cells if not m["predicted"]]
    out.append(f"\nThe proxy's own round trip (the twin proxy without toxics), median over the"
               f" cells: {statistics.median(base):.2f} ms.\n")


def model_check(run, out):
    """Each series measured at two RTTs or more: the model fitted on its cells below its highest
    RTT, against what was measured there. The model's time is the one results.json carries for
    that cell ("model", written by ./latency-lab bench and report), not computed here."""
    out.append("| suite | series checked | median error | 90th percentile | worst (series) |")
    out.append("|---|---:|---:|---:|---|")
    for suite in sorted({m["benchmark"] for m in run.cells}):
        errors = []
        series = {}
        for m in run.cells:
            if m["benchmark"] == suite and not m["predicted"]:
                key = (m["strategy"], tuple(sorted(m["params"].items())))
                series.setdefault(key, []).append(m)
        for key, ms in series.items():
            if len(ms) < 2:
                continue
            hi = max(ms, key=lambda m: m["rttMs"])
            if "model" not in hi:
                sys.exit(f"{hi['benchmark']}.{key[0]} @ {hi['rtt']} has no model: re-render the"
                         " results with ./latency-lab report --results FILE --out DIR")
            predicted = hi["model"]["timeMs"]
            name = " ".join([key[0]] + [f"{k}={v}" for k, v in key[1]] + ["@", hi["rtt"]])
            errors.append((abs(predicted - hi["timeMs"]) / hi["timeMs"] * 100, name))
        if not errors:
            continue
        errors.sort()
        pcts = [e for e, _ in errors]
        p90 = pcts[min(len(pcts) - 1, int(round(0.9 * (len(pcts) - 1))))]
        out.append(f"| {suite} | {len(errors)} | {statistics.median(pcts):.1f}% | {p90:.1f}% |"
                   f" {errors[-1][0]:.1f}% ({errors[-1][1]}) |")
    out.append("")
    noisy = []
    for m in run.cells:
        if m["predicted"]:
            continue
        faster_later = [o["rtt"] for o in run.cells
                        if not o["predicted"] and o["benchmark"] == m["benchmark"]
                        and o["strategy"] == m["strategy"] and o["params"] == m["params"]
                        and o["rttMs"] > m["rttMs"] and o["timeMs"] * 1.10 < m["timeMs"]]
        if faster_later:
            params = " ".join(f"{k}={v}" for k, v in m["params"].items())
            noisy.append(f"{m['strategy']} {params} at {m['rtt']} ({cell(m)}: more than at"
                         f" {', '.join(faster_later)})")
    if noisy:
        out.append(f"Noise, plainly: {len(noisy)} measured cells took over 10% longer than the same"
                   " series at a higher RTT, which round trips cannot explain. That part of the time"
                   " is work, the client's and the server's, and it moves from cell to cell: a busier"
                   " moment of the shared machine, or the server still busy with an earlier cell's"
                   " rows (checkpoint, autovacuum), which weighs most on the million-row loads. "
                   + "; ".join(noisy) + ".\n")


def relative(m):
    """A measured cell's 99.9% half-width over its mean (inf where JMH gave none)."""
    e = m.get("timeErrorMs")
    return e / m["timeMs"] if isinstance(e, (int, float)) and e == e and m["timeMs"] > 0 \
        else float("inf")


def quantile(xs, p):
    xs = sorted(xs)
    h = (len(xs) - 1) * p
    lo = int(h)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (h - lo) * (xs[hi] - xs[lo])


def pct(x):
    return "none" if x == float("inf") else f"{x * 100:.1f}%"


def intervals(run, before, out):
    """How wide the measured cells' intervals are, against the 10% the full profile asks, and
    why the wider ones are: their spread (results.json) says it, this page only lists it."""
    measured = [m for m in run.cells if not m["predicted"]]
    rel = [relative(m) for m in measured]
    within = sum(1 for r in rel if r <= 0.10)
    wide = [m for m in measured if relative(m) > 0.10]
    silent = [m for m in wide if not noisy(m)]
    again = sum(1 for m in measured if (m.get("spread") or {}).get("samples", 0) > 6)
    out.append(f"Of {len(measured)} measured cells, **{within} have a 99.9% interval within 10% of"
               f" their mean** (half-width over mean: median {pct(quantile(rel, 0.5))}, 90th"
               f" percentile {pct(quantile(rel, 0.9))}, widest {pct(max(rel))}); {again} of them"
               " were measured again in another fork (more than six samples) to get there or"
               f" near. The other {len(wide)} are marked † and say why, below"
               + (f"; {len(silent)} do not (measured before cells said why): "
                  + ", ".join(key(m) for m in silent[:10]) + (", ..." if len(silent) > 10 else "")
                  if silent else "")
               + ".")
    if before:
        was = [relative(m) for m in before.cells if not m["predicted"]]
        out.append(f" The previous full run (three 1 s iterations a cell, one fork) had"
                   f" {sum(1 for r in was if r <= 0.10)} of {len(was)} within 10%: median"
                   f" {pct(quantile(was, 0.5))}, 90th percentile {pct(quantile(was, 0.9))},"
                   f" {sum(1 for r in was if r > 1)} cells with an interval wider than the mean.")
    out.append("")
    if not wide:
        return
    kinds = {"far out": 0, "drift": 0, "budget held": 0, "scatter": 0}
    for m in wide:
        for k in kinds:
            if k in (noisy(m) or ""):
                kinds[k] += 1
    out.append("Why, by kind (a cell can say more than one): " + ", ".join(
        f"{label} {kinds[k]}" for k, label in (("far out", "samples far out"), ("drift", "a drift"),
                                               ("budget held", "the few operations a budget held"),
                                               ("scatter", "their scatter"))) + ".\n")
    out.append("| cell | mean ± 99.9% | samples: median (IQR) | why |")
    out.append("|---|---:|---|---|")
    for m in sorted(wide, key=relative, reverse=True):
        sp = m.get("spread") or {}
        median = (f"{dur(sp['medianMs'])} ({dur(sp['q1Ms'])}–{dur(sp['q3Ms'])}), {sp['samples']}"
                  if sp else "–")
        out.append(f"| {key(m)} | {dur(m['timeMs'])} ± {dur(m.get('timeErrorMs'))} | {median} |"
                   f" {noisy(m) or 'not said'} |")
    out.append("")


def key(m):
    params = " ".join(f"{k}={v}" for k, v in sorted(m["params"].items()))
    return f"{m['benchmark']}.{m['strategy']}{' ' + params if params else ''} @ {m['rtt']}"


def field_figures(run, out):
    out.append("## The field figures beside ours\n")
    out.append("| the field report says | ours, this run |")
    out.append("|---|---|")
    lazy = run.find("NPlusOneBenchmark", "lazyLoop", "1000", "20ms")
    join = run.find("NPlusOneBenchmark", "joinFetch", "1000", "20ms")
    if lazy and join:
        ten = run.find("NPlusOneBenchmark", "lazyLoop", "1000", "10ms")
        out.append(f"| Hibernate loading 1,000 lazy children: 1,001 queries, 1,001 round trips |"
                   f" lazyLoop, 1,000 authors: {count(lazy['statementsPerOp'])} statements (the"
                   f" 1,001 SELECTs, BEGIN, COMMIT), {count(lazy['roundTripsPerOp'])} round trips"
                   f" (BEGIN rides along); {cell(lazy)} at 20 ms vs {cell(join)} for joinFetch"
                   f" ({lazy['timeMs'] / join['timeMs']:,.0f}x)"
                   + (f"; measured at 10 ms: {cell(ten)}" if ten and not ten["predicted"] else "")
                   + " |")
    for rows in ("100", "1000", "10000"):
        each = run.find("InsertBenchmark", "executeEach", rows, "320ms")
        batch = run.find("InsertBenchmark", "executeBatch", rows, "320ms")
        if each and batch:
            out.append(f"| ~120x: batching vs row by row at ~320 ms | {int(rows):,} rows at 320 ms:"
                       f" {cell(each)} vs {cell(batch)}: {each['timeMs'] / batch['timeMs']:,.0f}x |")
    each = run.find("InsertBenchmark", "executeEach", "10000", "0.5ms")
    batch = run.find("InsertBenchmark", "executeBatch", "10000", "0.5ms")
    if each and batch:
        out.append(f"| batching 10,000 inserts locally still ~50% faster | at 0.5 ms (our nearest to"
                   f" local): {cell(each)} vs {cell(batch)}, {each['timeMs'] / batch['timeMs']:,.1f}x |")
    each = run.find("InsertBenchmark", "executeEach", "1000000", "0.5ms")
    batch = run.find("InsertBenchmark", "executeBatch", "1000000", "0.5ms")
    copy = run.find("InsertBenchmark", "copyCsv", "1000000", "0.5ms")
    if each and batch and copy:
        out.append(f"| 1,000,000 rows, laptop: sequential 36.15 s, batch 23.7 s, COPY 1.74 s |"
                   f" at 0.5 ms: row by row {cell(each)}, batch {cell(batch)}, COPY {cell(copy)} |")
    one = run.find("RoundTripBenchmark", "selectOne", None, "0.5ms")
    if one:
        out.append(f"| a trivial SELECT costs the server ~0.1 ms | SELECT 1 at 0.5 ms: {cell(one)}; less"
                   f" the {one['addedRttMs']:.2f} ms added, {dur(one['timeMs'] - one['addedRttMs'])}"
                   f" is left for the loopback through the proxy, the driver and the server together |")
    out.append("| typical RTT: 0.5 ms LAN, 5 ms WiFi, 20 ms ADSL, ~300 ms intercontinental |"
               " the sweep: " + ", ".join(run.rtts()) + " |")
    out.append("\nThe other field reports (server settings: synchronous_commit, shared_buffers, work_mem,"
               " wal_buffers, fsync, with pgbench) are not in this sweep: its suites do not vary the"
               " server's settings; this run's are listed above.")
    out.append("\n\\* predicted by the model from the same series' measured cell at a lower RTT"
               " (or a smaller size): measuring it would take longer than the profile's budget.\n")


def moved(run, before, out, rtts=("0.5ms", "20ms", "320ms")):
    """The headline series' cells at the given RTTs, this run against the previous one."""
    was = before.env
    settings = was.get("postgresSettings", {})
    out.append(f"Against the previous full run ({before.doc.get('createdAt', '?')[:16].replace('T', ' ')}"
               f" UTC; link {was.get('link', 'none: a bare delay')}; fsync {settings.get('fsync', '?')},"
               f" synchronous_commit {settings.get('synchronous_commit', '?')}), the headline series:"
               " before → now (now / before; \\* predicted):\n")
    out.append("| suite | size | strategy | " + " | ".join(rtts) + " |")
    out.append("|---|---:|---|" + "---:|" * len(rtts))
    for _, suite, size, _ in (h for h in HEADLINES if h[2]):
        for s in run.strategies(suite):
            cells = []
            for r in rtts:
                now, then = run.find(suite, s, size, r), before.find(suite, s, size, r)
                cells.append(f"{cell(then)} → {cell(now)} ({now['timeMs'] / then['timeMs']:.2f})"
                             if now and then else "–")
            if any(c != "–" for c in cells):
                out.append(f"| {suite} | {int(size):,} | {s} | " + " | ".join(cells) + " |")
    out.append("")


def environment(run, out):
    e = run.env
    settings = e.get("postgresSettings", {})
    keys = ["fsync", "synchronous_commit", "full_page_writes", "shared_buffers", "work_mem",
            "wal_buffers"]
    out.append(f"- {e.get('backend')} backend: PostgreSQL {e.get('postgresVersion')},"
               f" Toxiproxy {e.get('toxiproxyVersion')}, pgjdbc {e.get('pgjdbcVersion')}")
    out.append("- server settings: " + ", ".join(f"`{k}={settings[k]}`" for k in keys if k in settings))
    if e.get("link"):
        out.append(f"- link {e['link']}; each cell on a warm window: a fork keeps its connections"
                   " from one operation to the next, as a pool does (a new connection pays slow start"
                   " first: [link-check.md](link-check.md))")
    out.append(f"- Java {e.get('javaVersion')} ({e.get('javaVm')}), {e.get('os')},"
               f" {e.get('cpus')} CPUs, heap {e.get('maxHeapMb')} MB")
    out.append(f"- run finished {run.doc.get('createdAt')}, profile `{run.doc.get('profile')}`;"
               f" {len(run.cells)} cells, {sum(1 for m in run.cells if not m['predicted'])} measured,"
               f" {sum(1 for m in run.cells if m['predicted'])} predicted\n")


def main():
    run = Run(sys.argv[1])
    remarks = None
    if len(sys.argv) > 2:
        with open(sys.argv[2]) as f:
            remarks = f.read().strip()
    before = Run(sys.argv[3]) if len(sys.argv) > 3 else None
    out = ["# The full sweep: every suite, 0.5 to 320 ms", ""]
    out.append("Generated from one full-profile sweep in four shards (`bench --shard k/4`, whole"
               " rows each, the commands below) merged by `report --results`, by"
               " `docs/results/full-page.py`. Every table of every cell: [full/report.md]"
               "(full/report.md) (and report.html, with each cell's 99.9% interval and its samples'"
               " median and IQR); charts: [full/charts/](full/charts/); the data:"
               " [full/results.json](full/results.json).\n")
    environment(run, out)
    out.append("## How sure each number is\n")
    intervals(run, before, out)
    field_figures(run, out)
    out.append("Window flights/op in the tables below: the most of the row's cells. A fork's first"
               " operation starts on a new connection's window, and a cell of few operations (a high"
               " RTT) shows it most.\n")
    for title, suite, size, chart in HEADLINES:
        out.append(f"## {title}\n")
        sweep_table(run, suite, size, out)
        if chart:
            out.append(chart + "\n")
    out.append("## Does the model hold?\n")
    out.append("For every series measured at two RTTs or more: the model T(L) = T0 + (round trips +"
               " window flights) × L,"
               " fitted on its measured cells below its highest RTT (least squares; one cell: T0 ="
               " T − (round trips + window flights) × L), predicts its highest; the error against the time measured"
               " there. This is what a predicted (\\*) cell is worth.\n")
    model_check(run, out)
    if before:
        out.append("## What moved since the previous run\n")
        moved(run, before, out)
    if remarks:
        out.append(remarks + "\n")
    out.append("## What each setting really added\n")
    out.append("Each suite's run set and calibrated the RTTs itself; the added mean each measured:\n")
    measured_rtt(run, out)
    out.append("## How this page was made\n")
    out.append("```")
    include = "'NPlusOneBenchmark|\\.InsertBenchmark\\.|HibernateInsertBenchmark|RoundTripBenchmark'"
    shards = [f"docs/results/full/shards/shard-{k}-of-4" for k in (1, 2, 3, 4)]
    for k, out_dir in enumerate(shards, 1):
        out.append(f"./latency-lab bench --profile full --backend embedded --include {include}"
                   f" --shard {k}/4 --shard-costs docs/results/full/results.json --out {out_dir}")
    out.append("mv docs/results/full/results.json docs/results/full/previous-results.json")
    out.append("./latency-lab report --out docs/results/full --results "
               + " ".join(f"{d}/results.json" for d in shards))
    out.append("python3 docs/results/full-page.py docs/results/full/results.json"
               " docs/results/full/remarks.md docs/results/full/previous-results.json > docs/results/full.md")
    out.append("```\n")
    out.append("The full profile: every RTT of the sweep, rows 100 to 1,000,000, parents 10 to 1,000;"
               " per cell one fork, 1 × 2 s warmup and 6 × 500 ms measurement (at least one"
               " operation each), and a cell whose 99.9% interval is wider than 10% of its mean"
               " measured again in one more fork with the iterations its scatter lacks;"
               " a 60 s budget per cell: a cell estimated to take longer is predicted (\\*). Each"
               " shard's rows are whole (every RTT of a row on one shard, its model fitted on one"
               " machine), balanced by the previous run's times; each shard calibrated its own RTTs"
               " (the table above).")
    print("\n".join(out))


if __name__ == "__main__":
    main()
