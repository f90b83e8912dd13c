"""What the page generators share: reading a results.json, and writing numbers as the reports
do (io.github.latencylab.report.Format). The numbers themselves, predictions and the model's
check included, come from the results.json that ./latency-lab bench or report wrote."""
import json
import re

MINUTE = 60_000
HOUR = 60 * MINUTE
DAY = 24 * HOUR


def fixed(v, decimals):
    """v with decimals and thousands separators, never "-0"."""
    if round(abs(v) * 10 ** decimals) == 0:
        v = 0.0
    return f"{v:,.{decimals}f}"


def dur(ms):
    """A time in the unit a reader expects, as Format.duration: 612 µs, 20.40 ms, 612 ms,
    5.31 s, 5.3 min, 3.2 h, 3.7 days."""
    if ms is None or ms != ms:
        return "-"
    a = abs(ms)
    if a < 0.9995:
        return fixed(ms * 1000, 0) + " µs"
    if a < 99.995:
        return fixed(ms, 2) + " ms"
    if a < 999.5:
        return fixed(ms, 0) + " ms"
    if a < 2 * MINUTE - 5:
        return fixed(ms / 1000, 2) + " s"
    if a < 2 * HOUR - 0.05 * MINUTE:
        return fixed(ms / MINUTE, 1) + " min"
    if a < 2 * DAY - 0.05 * HOUR:
        return fixed(ms / HOUR, 1) + " h"
    return fixed(ms / DAY, 1) + " days"


def rtt_ms(text):
    """An RTT setting as the results write it ("0.5ms", "20ms", "1s"), in milliseconds."""
    return float(text[:-2]) if text.endswith("ms") else float(text[:-1]) * 1000


def count(x):
    """A count per operation, as Format.count."""
    if x is None or x != x:
        return "–"
    return fixed(x, 0) if x == round(x) else fixed(x, 2)


def scaled(m):
    """Whether a cell is the model's estimate scaled from a smaller size (LatencyModel.scale)."""
    return m is not None and m["predicted"] and m.get("note", "").startswith("predicted by scaling")


def noisy(m):
    """Why a measured cell's interval stayed wider than its run asked, or None."""
    return (m.get("spread") or {}).get("noisy") if m else None


def cell(m, star="\\*"):
    """A cell's time, predicted ones marked, and noisy ones (as the reports: a dagger)."""
    if m is None:
        return "–"
    return dur(m["timeMs"]) + (star if m["predicted"] else "†" if noisy(m) else "")


def load(path):
    with open(path) as f:
        return json.load(f)


# the baseline check's counters, in the order a page names them, and how a FAIL line of each
# starts after "FAIL <cell or test>: " (io.github.latencylab.gate.WorkGate, BaselineComparison)
GATE_COUNTERS = [
    ("plan", re.compile(r"^`.*`( \(.*\))?: plan ")),
    ("round trips", re.compile(r"^round trips/op ")),
    ("statements", re.compile(r"^statements/op ")),
    ("rows", re.compile(r"^rows/op ")),
    ("values", re.compile(r"^values received/op ")),
    ("bytes", re.compile(r"^value bytes sent/op ")),
    ("buffers", re.compile(r"^buffers touched/op ")),
    ("WAL", re.compile(r"^WAL/op ")),
    ("temp", re.compile(r"^temp bytes/op ")),
    ("allocations", re.compile(r"^allocated bytes/op ")),
    ("not counted", re.compile(r"^not counted ")),
    ("missing", re.compile(r"^missing ")),
    ("time", re.compile(r"time/op|drift")),
]


def gate_failures(report):
    """The FAIL lines of a report.md's baseline check: (cell or test, counter, message)."""
    out = []
    with open(report) as f:
        for line in f:
            if line.startswith("FAIL "):
                subject, message = line[5:].rstrip("\n").split(": ", 1)
                counter = next((name for name, p in GATE_COUNTERS if p.search(message)), "other")
                out.append((subject, counter, message))
    return out
