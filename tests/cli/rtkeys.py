#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# rtkeys.py - read a --json file the way an rt-tests consumer does (a LAVA
# test-definition parser: json.load, then rt-tests' keys), and check those
# keys against the text lines of the same run.
#
# usage: rtkeys.py KIND JSON TEXT [EXPECTED_RETURN_CODE]
#   KIND: cyclic, signal or hackbench. TEXT: the run's stdout.
# Exit 0 when everything agrees; otherwise the first problem on stderr, exit 1.
import json
import re
import sys
import time

T_LINE = re.compile(r"^T:\s*(\d+) \(\s*\d+\) P:\s*\d+ (?:I:\s*\d+ )?C:\s*(\d+) "
                    r"Min:\s*(-?\d+) Act:\s*(-?\d+) Avg:\s*(-?\d+) Max:\s*(-?\d+)")


def fail(msg):
    print("rtkeys: " + msg, file=sys.stderr)
    sys.exit(1)


def avg_agrees(json_avg, text_avg):
    """The text's Avg is the mean truncated; the JSON's is "%.2f", which may round up to the next integer."""
    return text_avg <= json_avg <= text_avg + 1


def check_header(doc, code):
    if doc["file_version"] != 1:
        fail("file_version %r" % doc["file_version"])
    if not isinstance(doc["cmdline:"], str) or not doc["cmdline:"]:
        fail("cmdline: empty")
    if "argv" in doc and doc["cmdline:"] != " ".join(doc["argv"]):
        fail("cmdline: %r is not argv joined" % doc["cmdline:"])
    if not isinstance(doc["rt_test_version:"], str):
        fail("rt_test_version: not a string")
    t0 = time.strptime(doc["start_time"], "%a, %d %b %Y %H:%M:%S %z")
    t1 = time.strptime(doc["end_time"], "%a, %d %b %Y %H:%M:%S %z")
    if time.mktime(t1) < time.mktime(t0):
        fail("end_time before start_time")
    if doc["return_code"] != code:
        fail("return_code %r, expected %d" % (doc["return_code"], code))
    if "exit_code" in doc and doc["return_code"] != doc["exit_code"]:
        fail("return_code %r != exit_code %r" % (doc["return_code"], doc["exit_code"]))
    for k in ("sysname", "nodename", "release", "version", "machine", "realtime"):
        if k not in doc["sysinfo"]:
            fail("sysinfo.%s missing" % k)


def text_threads(text):
    lines = {}
    for line in text.splitlines():
        m = T_LINE.match(line)
        if m:   # the last line of a thread wins (-q prints one per thread)
            lines[int(m.group(1))] = [int(x) for x in m.groups()[1:]]
    return lines


def check_histogram_block(doc, text):
    """-h without T: lines: the '# Min/Avg/Max Latencies' rows and the bucket rows."""
    n = doc["num_threads"]
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^# (Min|Avg|Max) Latencies:((?: \d+)+)$", line)
        if m:
            rows[m.group(1)] = [int(x) for x in m.group(2).split()][:n]
        m = re.match(r"^(\d{6})((?:\s\d{6})+)$", line)
        if m:
            counts = [int(x) for x in m.group(2).split()][:n]
            for i, c in enumerate(counts):
                if doc["thread"][str(i)]["histogram"].get(str(int(m.group(1))), 0) != c:
                    fail("thread %d bucket %s: text %d" % (i, m.group(1), c))
    if sorted(rows) != ["Avg", "Max", "Min"]:
        fail("neither T: lines nor the histogram's latency rows")
    for i in range(n):
        t = doc["thread"][str(i)]
        if (t["min"], t["max"]) != (rows["Min"][i], rows["Max"][i]) or not avg_agrees(t["avg"], rows["Avg"][i]):
            fail("thread %d: JSON min/avg/max %s, histogram rows %s" %
                 (i, (t["min"], t["avg"], t["max"]), [rows[k][i] for k in ("Min", "Avg", "Max")]))


def check_threads(doc, text, kind):
    threads = doc["thread"]
    if doc["num_threads"] != len(threads):
        fail("num_threads %d but %d thread entries" % (doc["num_threads"], len(threads)))
    lines = text_threads(text)
    if not lines and "# Histogram" in text:
        return check_histogram_block(doc, text)
    if sorted(lines) != list(range(doc["num_threads"])):
        fail("T: lines for threads %s, JSON has %d threads" % (sorted(lines), doc["num_threads"]))
    for i, (c, mn, _act, avg, mx) in lines.items():
        t = threads[str(i)]
        got = (t["cycles"], t["min"], t["max"])
        if got != (c, mn, mx) or not avg_agrees(t["avg"], avg):
            fail("thread %d: JSON cycles/min/max/avg %s, T: line %s" % (i, got + (t["avg"],), (c, mn, mx, avg)))
        if not isinstance(t["cpu"], int):
            fail("thread %d: cpu %r" % (i, t["cpu"]))
        if kind == "cyclic":
            if not isinstance(t["node"], int):
                fail("thread %d: node %r" % (i, t["node"]))
            h = t["histogram"]
            if sum(h.values()) > c:
                fail("thread %d: histogram holds more than cycles" % i)
            if h and (min(int(b) for b in h) < mn or max(int(b) for b in h) > mx):
                fail("thread %d: histogram buckets outside min..max" % i)
        elif "histogram" in t:
            fail("thread %d: signaltest writes no histogram" % i)


def main():
    kind, path, textpath = sys.argv[1:4]
    code = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    with open(path) as f:
        doc = json.load(f)
    with open(textpath) as f:
        text = f.read()
    check_header(doc, code)
    if kind in ("cyclic", "signal"):
        check_threads(doc, text, kind)
        if kind == "cyclic" and doc["resolution_in_ns"] not in (0, 1):
            fail("resolution_in_ns %r" % doc["resolution_in_ns"])
    elif not re.search(r"^Time: \d+\.\d{3}$", text, re.M):
        fail("no Time: line")
    print("rtkeys: %s ok" % kind)


main()
