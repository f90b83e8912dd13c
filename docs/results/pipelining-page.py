#!/usr/bin/env python3
"""docs/results/pipelining.md and its charts from the runs in docs/results/pipelining/:
results.json (./latency-lab bench --include PipelineBenchmark ... --out docs/results/pipelining)
and pgbench-*.json (./latency-lab pgbench --workload ... --json ...), libpq's clients. Per
workload: every client's round trips and window flights per transaction (counted at the wire:
pgjdbc's socket, the Lab's relay for every other client), its time at each RTT, the slope of
time over RTT (the RTTs a transaction really pays) beside the count, and a chart of time
against RTT, one line per client.

  python3 docs/results/pipelining-page.py [docs/results/pipelining] [remarks.md]

Writes the charts next to the runs and prints the page; a remarks file (the commands and what
the numbers say) goes after the tables. Predicted times (over the profile's budget, or longer
than pgbench's --duration) are marked *.
"""
import glob
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pages import count, dur, fixed, load, rtt_ms, scaled  # noqa: E402

CLIENTS = {
    "jdbcOneByOne": "pgjdbc, one statement at a time",
    "jdbcBatch": "pgjdbc executeBatch",
    "jdbcRewrite": "pgjdbc reWriteBatchedInserts",
    "jdbc42712Batch": "pgjdbc 42.7.12 executeBatch",
    "jdbc42712Rewrite": "pgjdbc 42.7.12 reWriteBatchedInserts",
    "jdbcJoin": "pgjdbc, the join",
    "jdbcAny": "pgjdbc, = any(?)",
    "vertx1": "Vert.x, pipeliningLimit 1",
    "vertx16": "Vert.x, pipeliningLimit 16",
    "vertx256": "Vert.x, pipeliningLimit 256",
    "r2dbcFlux": "R2DBC, a Flux of statements",
    "r2dbcBatch": "R2DBC, createBatch()",
    "r2dbcBind": "R2DBC, bind().add()",
    "copy": "pgjdbc COPY (CopyLoader)",
    "libpq prepared": "libpq (pgbench -M prepared), one at a time",
    "libpq simple": "libpq (pgbench -M simple), one at a time",
    "libpq pipeline": "libpq pipeline mode (\\startpipeline, -M extended)",
}
COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39",
           "#7b4173", "#3182bd", "#e6550d"]


def workloads(results, pgbench):
    """{(workload, rows): {client: {rtt: cell}}}: JMH cells and pgbench rows alike, a cell
    being {timeMs, roundTrips, windowFlights, predicted}."""
    out = {}
    for c in results["measurements"]:
        if c["benchmark"] != "PipelineBenchmark":
            continue
        key = (c["strategy"], int(c["params"].get("rows", 0)))
        out.setdefault(key, {}).setdefault(c["params"]["client"], {})[c["rtt"]] = {
            "timeMs": c["timeMs"], "roundTrips": c["roundTripsPerOp"],
            "windowFlights": c.get("windowRoundTripsPerOp", 0.0),
            "predicted": c["predicted"], "scaled": scaled(c)}
    for report in pgbench:
        key = (report["workload"], int(report.get("rowsPerTransaction", 0)))
        # where no proxied run of a mode ran, its model's T0 is the run straight to the server
        direct = {r["mode"]: float(r["latencyMs"]) for r in report["rows"]
                  if r["tool"] == "pgbench" and r["rtt"] == "direct"}
        for row in report["rows"]:
            if row["tool"] != "pgbench" or row["clients"] != 1:
                continue
            # the JSON writes NaN as "NaN": a row not run, or without a model
            latency, server = float(row["latencyMs"]), float(row["serverTimeMs"])
            if server != server:
                server = direct.get(row["mode"], float("nan"))
            ran = latency == latency
            model = latency if ran else (
                float(row["roundTripsPerTransaction"]) * float(row["addedRttMs"]) + server)
            out.setdefault(key, {}).setdefault("libpq " + row["mode"], {})[row["rtt"]] = {
                "timeMs": model, "roundTrips": row["roundTripsPerTransaction"],
                "windowFlights": float("nan"), "predicted": not ran, "scaled": False}
    return out


def slope(cells):
    """Least-squares slope of time (ms) over RTT (ms) on the measured cells behind a proxy:
    the RTTs a transaction really pays."""
    pts = [(rtt_ms(r), c["timeMs"]) for r, c in cells.items()
           if not c["predicted"] and r.endswith("ms") and c["timeMs"] == c["timeMs"]]
    if len(pts) < 2:
        return float("nan")
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    return float("nan") if sxx == 0 else sum((x - mx) * (y - my) for x, y in pts) / sxx


def title(key):
    workload, rows = key
    return {"inserts": f"W1: {rows:,} single-row INSERTs in one transaction",
            "lookups": "W2: the N+1's 100 lookups by primary key",
            "tpcb": "W3: one TPC-B transaction"}[workload]


def table(key, clients, rtts, local):
    lines = [f"### {title(key)}", "",
             "| client | round trips | window flights | slope (RTTs paid) | "
             + " | ".join(rtts + local) + " |",
             "|---|---:|---:|---:|" + "---:|" * (len(rtts) + len(local))]
    for client, cells in sorted(clients.items(), key=lambda kv: order(kv[0])):
        # the counts of the highest RTT measured (a cell predicted from its own row's measured
        # ones has the same); "~" where every cell was scaled from a smaller size's
        measured = [cells[r] for r in rtts + local if r in cells and not cells[r]["scaled"]]
        high = measured[-1] if measured else next(iter(cells.values()))
        flights = high["windowFlights"]
        lines.append(f"| {CLIENTS.get(client, client)} | "
                     + ("" if measured else "~") + f"{count(high['roundTrips'])} | "
                     + ("–" if flights != flights else count(flights)) + " | "
                     + ("–" if slope(cells) != slope(cells) else fixed(slope(cells), 2)) + " | "
                     + " | ".join(mark(cells.get(r)) for r in rtts + local) + " |")
    return "\n".join(lines) + "\n"


def mark(c):
    if c is None:
        return "–"
    return dur(c["timeMs"]) + ("*" if c["predicted"] else "")


def order(client):
    names = list(CLIENTS)
    return names.index(client) if client in names else len(names)


def chart(key, clients, rtts, path):
    """Time per transaction against RTT, log-log, one line per client (0 ms has no place on a
    log axis: its times are in the table)."""
    rtts = [r for r in rtts if rtt_ms(r) > 0]
    w, h, left, right, top, bottom = 940, 420, 70, 360, 40, 50
    xs = [rtt_ms(r) for r in rtts]
    ys = [c["timeMs"] for cells in clients.values() for r, c in cells.items()
          if r in rtts and c["timeMs"] == c["timeMs"] and c["timeMs"] > 0]
    lo, hi = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    x0, x1 = math.log10(min(xs)), math.log10(max(xs))

    def px(x):
        return left + (math.log10(x) - x0) / (x1 - x0) * (w - left - right)

    def py(y):
        return top + (hi - math.log10(y)) / (hi - lo) * (h - top - bottom)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}" font-family="system-ui, sans-serif" font-size="12">',
           f'<title>{title(key)}: time per transaction against RTT</title>',
           f'<rect width="{w}" height="{h}" fill="#fff"/>',
           f'<text x="{left}" y="22" font-size="14" font-weight="bold">{title(key)}: time'
           f' against RTT</text>']
    for e in range(lo, hi + 1):
        y = py(10 ** e)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{w - right}" y2="{y:.1f}" '
                   f'stroke="#ddd"/><text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">'
                   f'{dur(10 ** e)}</text>')
    for r, x in zip(rtts, xs):
        out.append(f'<line x1="{px(x):.1f}" y1="{top}" x2="{px(x):.1f}" y2="{h - bottom}" '
                   f'stroke="#ddd"/><text x="{px(x):.1f}" y="{h - bottom + 16}" '
                   f'text-anchor="middle">{r}</text>')
    out.append(f'<text x="{(left + w - right) / 2:.0f}" y="{h - 12}" text-anchor="middle">'
               'added RTT (log-log; a hollow point: predicted)</text>')
    for i, (client, cells) in enumerate(sorted(clients.items(), key=lambda kv: order(kv[0]))):
        colour = COLOURS[i % len(COLOURS)]
        pts = [(px(rtt_ms(r)), py(cells[r]["timeMs"]), cells[r]["predicted"]) for r in rtts
               if r in cells and cells[r]["timeMs"] == cells[r]["timeMs"]
               and cells[r]["timeMs"] > 0]
        if len(pts) > 1:
            out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="'
                       + " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in pts) + '"/>')
        for x, y, predicted in pts:
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" '
                       f'fill="{"#fff" if predicted else colour}" stroke="{colour}"/>')
        ly = top + 10 + i * 18
        out.append(f'<line x1="{w - right + 16}" y1="{ly}" x2="{w - right + 36}" y2="{ly}" '
                   f'stroke="{colour}" stroke-width="2"/><text x="{w - right + 42}" '
                   f'y="{ly + 4}">{CLIENTS.get(client, client)}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main(directory, remarks):
    results = load(os.path.join(directory, "results.json"))
    # more RTTs from runs of their own, e.g. at-0ms/results.json
    for extra in sorted(glob.glob(os.path.join(directory, "*", "results.json"))):
        results["measurements"] += load(extra)["measurements"]
    pgbench = [load(p) for p in sorted(glob.glob(os.path.join(directory, "pgbench-*.json")))]
    data = workloads(results, pgbench)
    rtts = sorted({r for clients in data.values() for cells in clients.values() for r in cells
                   if r.endswith("ms")}, key=rtt_ms)
    local = [r for r in ("direct", "unix") if any(r in cells for clients in data.values()
                                                  for cells in clients.values())]
    env = results["environment"]
    print("# Pipelining: results\n")
    print("Generated by `python3 docs/results/pipelining-page.py` from the runs in"
          " [pipelining/](pipelining/) (commands below); the guide is"
          " [../pipelining.md](../pipelining.md). Time per transaction (W1, W3) or per set of"
          " lookups (W2), the mean of JMH's iterations, or pgbench's latency average; round"
          " trips and window flights per transaction, counted at the wire (pgjdbc at its"
          " socket, every other client at the Lab's relay); slope: the least-squares slope of"
          " time over RTT on the measured cells, the RTTs a transaction really pays"
          " (round trips + window flights where the server's time does not change with the"
          " RTT). `*`: predicted by the model, the run would have outlasted its budget"
          " (libpq: fewer than 10 transactions in pgbench's 5 s; its T0 from the other RTTs'"
          " runs of the same mode, or else from the run straight to the server)."
          " `direct` and `unix`: pgbench straight to the server, over TCP and over its"
          " Unix-domain socket.\n")
    settings = env.get("postgresSettings", {})
    print(f"Environment: PostgreSQL {env.get('postgresVersion')} (fsync"
          f" {settings.get('fsync')}, synchronous_commit {settings.get('synchronous_commit')},"
          f" full_page_writes {settings.get('full_page_writes')}), pgjdbc"
          f" {env.get('pgjdbcVersion')}; {env.get('description', '')}.\n")
    for key in sorted(data, key=lambda k: (["inserts", "lookups", "tpcb"].index(k[0]), k[1])):
        name = f"{key[0]}-{key[1]}" if key[0] == "inserts" else key[0]
        chart(key, data[key], rtts, os.path.join(directory, f"time-vs-rtt-{name}.svg"))
        print(table(key, data[key], rtts, local))
        print(f"![{title(key)}](pipelining/time-vs-rtt-{name}.svg)\n")
    if remarks and os.path.exists(remarks):
        with open(remarks) as f:
            print(f.read().rstrip() + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "pipelining"),
        sys.argv[2] if len(sys.argv) > 2 else os.path.join(
            os.path.dirname(os.path.abspath(__file__)), "pipelining", "remarks.md"))
