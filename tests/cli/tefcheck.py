#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# tefcheck.py - read a --perfetto trace the way the Trace Event Format's
# importers do (chrome://tracing's and Perfetto's JSON importer), and
# refuse what they would refuse or misread. docs/perfetto.md lists the
# rules and where they come from.
#
# usage: tefcheck.py TRACE [--tracks]
#   Checks the file; exit 0 and "ok N events" when it holds, else the first
#   problem on stderr and exit 1. With --tracks it then prints one line per
#   (track, slice name): "PROCESS<TAB>TRACK<TAB>PH<TAB>NAME<TAB>COUNT", and
#   one per counter track: "PROCESS<TAB>counter<TAB>C<TAB>NAME KEY<TAB>POINTS".
import json
import re
import sys
from collections import Counter

PHASES = {"X", "i", "I", "C", "M"}
METADATA = {"process_name": "name", "thread_name": "name",
            "process_sort_index": "sort_index", "thread_sort_index": "sort_index"}
TS = re.compile(r'"ts":(-?[0-9.eE+-]+)')


def fail(msg):
    print("tefcheck: " + msg, file=sys.stderr)
    sys.exit(1)


def no_constants(name):
    fail("not JSON: %s (JSON.parse refuses it)" % name)


def no_arrays(value, where):
    """Perfetto's tokenizer gives up on an array value in an event; none is written."""
    if isinstance(value, list):
        fail("%s holds an array" % where)
    if isinstance(value, dict):
        for k, v in value.items():
            no_arrays(v, where + "." + k)


def number(e, key, i):
    v = e.get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        fail("event %d: %s is not a number: %r" % (i, key, v))
    if v < 0:
        fail("event %d: %s is negative" % (i, key))
    return v


def check_event(e, keys, i):
    if keys[:2] != ["ph", "ts"]:
        fail("event %d: keys start %s, not ph, ts (Perfetto reads ts before the other keys)" % (i, keys[:2]))
    ph = e["ph"]
    if ph not in PHASES:
        fail("event %d: ph %r is not one this writer uses" % (i, ph))
    number(e, "ts", i)
    for k in ("pid", "tid"):
        if not isinstance(e.get(k), int) or not 0 <= e[k] < 2 ** 32:
            fail("event %d: %s is not a 32-bit unsigned integer" % (i, k))
    if not isinstance(e.get("name"), str) or not e["name"]:
        fail("event %d: no name" % i)
    no_arrays(e, "event %d" % i)
    if ph == "X":
        number(e, "dur", i)
    elif ph == "C":
        args = e.get("args")
        if not isinstance(args, dict) or not args:
            fail("event %d: a counter without args" % i)
        for k, v in args.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                fail("event %d: counter value %s is not a number" % (i, k))
    elif ph in ("i", "I"):
        if e.get("s", "t") not in ("g", "p", "t"):
            fail("event %d: instant scope %r" % (i, e.get("s")))
    elif ph == "M":
        key = METADATA.get(e["name"])
        if not key or not isinstance(e.get("args"), dict) or key not in e["args"]:
            fail("event %d: metadata %r without args.%s" % (i, e["name"], key))


def check_nesting(slices):
    """Slices on one track must nest (the format's rule, Perfetto's importer's)."""
    for track, sl in slices.items():
        sl.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for ts, dur, name in sl:
            while stack and stack[-1][0] + stack[-1][1] <= ts:
                stack.pop()
            if stack and ts + dur > stack[-1][0] + stack[-1][1]:
                p = stack[-1]
                fail("track %s: %s [%s, +%s) overlaps %s [%s, +%s) without nesting"
                     % (track, name, ts, dur, p[2], p[0], p[1]))
            stack.append((ts, dur, name))


def load(path):
    with open(path) as f:
        text = f.read()
    order = []

    def pairs(kv):
        order.append([k for k, _ in kv])
        return dict(kv)
    doc = json.loads(text, object_pairs_hook=pairs, parse_constant=no_constants)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("no traceEvents array")
    if list(doc)[0] != "traceEvents":
        fail("traceEvents is not the first key")
    if "displayTimeUnit" in doc:
        fail("displayTimeUnit: older Perfetto versions read it as the unit of ts")
    other = doc.get("otherData")
    if not isinstance(other, dict) or other.get("clock") != "CLOCK_MONOTONIC":
        fail("otherData does not state the clock")
    for m in TS.finditer(text):
        if "." in m.group(1) and len(m.group(1).split(".")[1]) > 3:
            fail("ts %s has more than three decimals (ns)" % m.group(1))
    return doc, order, text


def main():
    path = sys.argv[1]
    doc, _, text = load(path)
    events = doc["traceEvents"]
    # Each event's own key order: re-read the events one by one.
    lines = [l.rstrip(",") for l in text.splitlines()[1:] if l.startswith("{")]
    if len(lines) != len(events):
        fail("%d event lines for %d events: one event per line expected" % (len(lines), len(events)))
    procs, threads, slices = {}, {}, {}
    tracks = Counter()
    for i, (e, line) in enumerate(zip(events, lines)):
        keys = list(json.loads(line, object_pairs_hook=lambda kv: [k for k, _ in kv]))
        check_event(e, keys, i)
        if e["ph"] == "M" and e["name"] == "process_name":
            procs[e["pid"]] = e["args"]["name"]
        elif e["ph"] == "M" and e["name"] == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
        elif e["ph"] == "X":
            slices.setdefault((e["pid"], e["tid"]), []).append((round(e["ts"] * 1000), round(e["dur"] * 1000),
                                                                e["name"]))
    for e in events:
        if e["ph"] != "M" and e["pid"] not in procs:
            fail("pid %d has no process_name" % e["pid"])
        if e["ph"] in ("X", "i", "I") and (e["pid"], e["tid"]) not in threads:
            fail("track %d/%d has no thread_name" % (e["pid"], e["tid"]))
    check_nesting(slices)
    if len(sys.argv) > 2 and sys.argv[2] == "--tracks":
        for e in events:
            if e["ph"] in ("X", "i", "I"):
                tracks[(procs[e["pid"]], threads[(e["pid"], e["tid"])], e["ph"], e["name"])] += 1
            elif e["ph"] == "C":
                for k in e["args"]:
                    tracks[(procs[e["pid"]], "counter", "C", e["name"] + " " + k)] += 1
        for k, n in sorted(tracks.items()):
            print("\t".join(k) + "\t%d" % n)
    else:
        print("ok %d events" % len(events))


if __name__ == "__main__":
    main()
