#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# consumers.py - read a cyclictest run's stdout the way the programs that
# run cyclictest read it, and check what each gets against the same run's
# --json (rt-tests' keys): the judge of a drop-in is its consumer.
#
# usage: consumers.py READER TEXT JSON [CPULIST]
#   mmtests   mmtests' cyclictest report (shellpacks, extract-report.pl):
#             the "# Min/Avg/Max Latencies:" and "# Histogram Overflows:"
#             rows, split on single blanks, leading zeros dropped, and (as
#             its loop is written) every column but the last
#   rteval    rteval's cyclictest module: bucket rows (index, then one
#             count per measured CPU in CPULIST's order), "# Max
#             Latencies:" raising each CPU's maximum, "# Break value:";
#             per CPU its samples, minimum, maximum and mean of buckets
#   chromeos  ChromiumOS's cyclictest runner: --verbose sample lines
#             "TID: N: LAT" (whitespace-led, digits only), "# Thread Ids:",
#             "# Break thread:" naming which thread "# Break value:" adds
#             a sample to; per thread min, median, p99, max
# Exit 0 when what the reader got is the run's own figures (and it got
# something); otherwise the first difference on stderr, exit 1.
import json
import re
import sys


def fail(msg):
    print("consumers: " + msg, file=sys.stderr)
    sys.exit(1)


def thread(doc, i):
    return doc["thread"][str(i)]


def overflows(t):
    """Samples above the histogram's range: rt-tests' JSON buckets hold only those inside it."""
    return t["cycles"] - sum(t["histogram"].values())


def mmtests(text, doc):
    got = {}
    for line in text.splitlines():
        m = re.match(r"^# (...) Latencies: (.*)", line)
        if m:
            op, value = m.group(1) + "Lat", m.group(2)
        else:
            m = re.match(r"^# Histogram Overflows: (.*)", line)
            if not m:
                continue
            op, value = "Overflow", m.group(1)
        fields = value.split(" ")
        for cpu in range(len(fields) - 1):
            got[(op, cpu)] = fields[cpu].lstrip("0")
    if not got:
        fail("mmtests: no latency row read")
    for (op, cpu), v in sorted(got.items()):
        t = thread(doc, cpu)
        want = {"MinLat": t["min"], "AvgLat": int(t["avg"]), "MaxLat": t["max"],
                "Overflow": overflows(t)}[op]
        # "%.2f" in the JSON may round an average up past the text's truncation.
        ok = (int(v or "0") in (want, want + 1)) if op == "AvgLat" else int(v or "0") == want
        if not ok:
            fail("mmtests: %s of CPU %d read as %r, the run's is %d" % (op, cpu, v, want))
    print("mmtests: %d figures read (%s)" % (len(got), ", ".join("%s/%d=%s" % (k[0], k[1], v or "''")
                                                               for k, v in sorted(got.items()))))


def expand(cpulist):
    cpus = []
    for part in cpulist.split(","):
        lo, _, hi = part.partition("-")
        cpus += list(range(int(lo), int(hi or lo) + 1))
    return cpus


def rteval(text, doc, cpulist):
    cpus = expand(cpulist)
    hist = {c: {} for c in cpus}
    maxes = {c: 0 for c in cpus}
    total = 0
    for line in text.splitlines():
        if line.startswith("#"):
            if line.startswith("# Max Latencies: "):
                for i, c in enumerate(cpus):
                    maxes[c] = max(maxes[c], int(line.split(":")[1].split()[i]))
            elif line.startswith("# Break value: "):
                int(line.split(":")[1])     # rteval reads it as a number: it must be one
            continue
        vals = line.split()
        if not vals:
            continue
        try:
            index = int(vals[0])
        except ValueError:
            continue                        # rteval logs it and goes on
        for i, c in enumerate(cpus):
            hist[c][index] = hist[c].get(index, 0) + int(vals[i + 1])
    for i, c in enumerate(cpus):
        t = thread(doc, i)
        if t["cpu"] != c:
            fail("rteval: column %d is read as CPU %d, the run's thread %d ran on CPU %s" % (i + 1, c, i, t["cpu"]))
        full = {b: n for b, n in hist[c].items() if n}
        samples = sum(full.values())
        if samples != t["cycles"] - overflows(t):
            fail("rteval: CPU %d: %d samples read, the run has %d in range" % (c, samples, t["cycles"] - overflows(t)))
        total += samples
        if not samples:             # a thread a break stopped before its first wake-up
            continue
        lo, hi = min(full), max(max(full), maxes[c])
        if (lo, hi) != (t["min"], t["max"]):
            fail("rteval: CPU %d: min/max read %d/%d, the run's %d/%d" % (c, lo, hi, t["min"], t["max"]))
        mean = sum(b * n for b, n in full.items()) / samples
        # Its mean is over whole-microsecond buckets; the run's over the samples themselves.
        if not t["avg"] - 1 <= mean <= t["avg"] + 0.01 and overflows(t) == 0:
            fail("rteval: CPU %d: mean %.2f read, the run's average is %.2f" % (c, mean, t["avg"]))
        print("rteval: CPU %d: %d samples, min %d, max %d, mean %.2f" % (c, samples, lo, hi, mean))
    if not total:
        fail("rteval: no sample read")


def percentile(sorted_vals, p):
    return sorted_vals[min(len(sorted_vals) - 1, int(len(sorted_vals) * p / 100))]


def chromeos(text, doc):
    n = doc["num_threads"]
    lat = [[] for _ in range(n)]
    ids, breaker, extra = [], None, [0] * n
    for line in text.splitlines():
        if re.fullmatch(r"[ \t]+\d+:[ \t]+\d+:[ \t]*\d+", line):
            tid, _count, value = (int(x) for x in re.findall(r"\d+", line))
            lat[tid].append(value)
        elif re.fullmatch(r"# Thread Ids: .*", line):
            ids = [int(x) for x in re.findall(r"\d+", line)]
        elif re.fullmatch(r"# Break thread: \d+", line):
            breaker = ids.index(int(re.findall(r"\d+", line)[0]))
        elif re.fullmatch(r"# Break value: \d+", line):
            lat[breaker].append(int(re.findall(r"\d+", line)[0]))
            extra[breaker] += 1
    side = doc.get("side", {})
    if breaker is not None and "break_tid" in side and ids[breaker] != side["break_tid"]:
        fail("chromeos: the break read as thread %d's (tid %d), the run's was tid %d" %
             (breaker, ids[breaker], side["break_tid"]))
    for i in range(n):
        t = thread(doc, i)
        v = sorted(lat[i])
        if len(v) - extra[i] != t["cycles"] or not v:
            fail("chromeos: thread %d: %d samples read, the run has %d" % (i, len(v) - extra[i], t["cycles"]))
        if (v[0], v[-1]) != (t["min"], t["max"]):
            fail("chromeos: thread %d: min/max read %d/%d, the run's %d/%d" % (i, v[0], v[-1], t["min"], t["max"]))
        # ljkit's side.break_value; cyclictest's JSON has none (its text is the truth then).
        brk = side.get("break_value")
        if extra[i] and brk is not None and brk not in v:
            fail("chromeos: thread %d: the break value %d is not among what it read" % (i, brk))
        print("chromeos: thread %d: %d samples, min %d, median %d, p99 %d, max %d" %
              (i, len(v), v[0], percentile(v, 50), percentile(v, 99), v[-1]))


def main():
    reader, textpath, jsonpath = sys.argv[1:4]
    with open(textpath) as f:
        text = f.read()
    with open(jsonpath) as f:
        doc = json.load(f)
    if reader == "mmtests":
        mmtests(text, doc)
    elif reader == "rteval":
        rteval(text, doc, sys.argv[4])
    elif reader == "chromeos":
        chromeos(text, doc)
    else:
        fail("unknown reader " + reader)


main()
