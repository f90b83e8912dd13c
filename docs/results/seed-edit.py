#!/usr/bin/env python3
"""One seeded regression's change to a source file of a campaign's copy (work-gate.sh,
work-gate-verify.sh): FILE, and a Python expression of its text s that is the changed text.
Fails when it changed nothing: the seed no longer matches the code it seeds.

  python3 docs/results/seed-edit.py FILE 's.replace("a", "b")'
"""
import sys

path, change = sys.argv[1], sys.argv[2]
with open(path) as f:
    s = f.read()
t = eval(change)
assert t != s, "the seed changed nothing in " + path
with open(path, "w") as f:
    f.write(t)
