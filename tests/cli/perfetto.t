#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# perfetto.t - --perfetto FILE on every measuring tool: the trace parses as
# the Trace Event Format as its importers read it (tefcheck.py: every event
# has ph, ts, pid, tid; slices have dur and nest; counters have args; names
# for every process and track), lj-frame's frames agree with its JSON
# counts and its stages have their own tracks, lj-cyclic's slices are its
# histogram's count above the threshold, lj-oslat's are its own largest
# gaps; usage errors and a failed write are one line each.
. "$(dirname "$0")/lib.sh"

for t in lj-cyclic lj-frame lj-oslat lj-signal lj-hackbench lj-env; do
	[ -x "$LJ_BUILD/$t" ] || skip_all "$t not built in $LJ_BUILD"
done
command -v python3 >/dev/null || skip_all "python3 not installed"
export LJ_RESULT_NO_SYSINFO=1
CHECK="python3 $LJ_SRC/tests/cli/tefcheck.py"

# pycheck FILE... -- EXPR NAME: EXPR over r (the result) and tr (the trace's track lines).
pycheck() {
	python3 - "$1" "$2" <<EOF 2>"$TMP/pyerr"
import json, sys
r = json.load(open(sys.argv[1]))
tr = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
f = next((b for b in r.get("results", []) if isinstance(b, dict) and b.get("name") == "frames"), None)
def count(track, ph="X", name=None, proc=None):
    return sum(int(t[4]) for t in tr if (t[1] == track or (track.endswith("*") and t[1].startswith(track[:-1])))
               and t[2] == ph and (name is None or t[3] == name) and (proc is None or t[0].startswith(proc)))
sys.exit(0 if ($3) else 1)
EOF
	ok $? "$4"
	[ -s "$TMP/pyerr" ] && diag "$(tail -3 "$TMP/pyerr")"
}

# 1. Usage: the threshold needs the file; lj-env leaves the trace to its command.
run_rc lj-cyclic -q -l 1 --perfetto-threshold 50
is "$rc" 2 "--perfetto-threshold without --perfetto: exit 2"
ok $(grep -c 'needs --perfetto FILE' "$TMP/err" | awk '{ print !($1 == 1) }') "one line says why"
run_rc lj-cyclic -q -l 1 --perfetto "$TMP/x.json" --perfetto-threshold 0
is "$rc" 2 "--perfetto-threshold 0: exit 2"
run_rc lj-env --perfetto "$TMP/x.json" -- true
is "$rc" 2 "lj-env --perfetto: exit 2 (the measuring tool writes it)"
run_rc lj-cyclic -q -l 10 --perfetto "$TMP/no/such/dir/t.json"
is "$rc" 1 "an unwritable trace path: exit 1 before measuring"
ok $( { [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "cannot write $TMP/no/such/dir/t.json" "$TMP/err" && [ ! -s "$TMP/out" ]; } ; echo $?) \
	"one line naming it, no run"

# 2. A failed write after the run (a full disk: /dev/full): exit 1, one line, the result still written.
if [ -w /dev/full ]; then
	run_rc lj-frame -D 0.2 --fake-work 1000 --work 1000 -q --perfetto /dev/full --json "$TMP/full.json"
	is "$rc" 1 "a trace that cannot be written after the run: exit 1"
	ok $( { [ "$(grep -c '^lj-frame: ' "$TMP/err")" -eq 1 ] && grep -q '^lj-frame: cannot write the trace /dev/full: No space left on device$' "$TMP/err"; }; echo $?) \
		"one line: cannot write the trace /dev/full: No space left on device"
	ok $(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d['exit_code'] == 1 and d['summary']['frames']['value'] == 12 else 1)" "$TMP/full.json"; echo $?) \
		"the result document is written, with exit_code 1 and the frames measured"
else
	skip 3 "no writable /dev/full"
fi

# 3. Simulated frames (exact): one stage of 20 ms at 60 Hz (late, skipped), two stages whose
# second queues frames (on time, buffer stuffing, abandoned), the strict model (late is dropped).
frame_sim() {	# frame_sim NAME ARGS...: run, check the trace, list its tracks
	local name=$1
	shift
	run_rc lj-frame -D 2 --fake-work 1000 -q --perfetto "$TMP/$name.trace" --json "$TMP/$name.json" "$@"
	is "$rc" 0 "lj-frame $* --perfetto exits 0"
	run_rc $CHECK "$TMP/$name.trace"
	ok $rc "its trace reads as the Trace Event Format ($(cat "$TMP/out" "$TMP/err" | head -1))"
	$CHECK "$TMP/$name.trace" --tracks >"$TMP/$name.tracks"
}
CLASSES="('on_time', 'deadline_missed', 'buffer_stuffing', 'skipped', 'abandoned', 'replaced', 'late')"
for sim in "one:--stages 1 --work 20000" "two:--stages 2 --latency-frames 3 --work 5000,18000" "strict:--stages 1 --work 17000 --display-model strict"; do
	name=${sim%%:*}
	frame_sim "$name" ${sim#*:}
	pycheck "$TMP/$name.json" "$TMP/$name.tracks" "f and all(count('frames*', name=c) == f[c] for c in $CLASSES)" \
		"$name: each frame once on the frames tracks, by class as the result counts them"
	pycheck "$TMP/$name.json" "$TMP/$name.tracks" "f and count('display') == f['displayed'] and count('display', name='on_time') == f['on_time'] and sum(count('frames*', name=c) for c in $CLASSES) - count('display') == f['dropped']" \
		"$name: the display track holds the displayed frames; the rest are the dropped"
	pycheck "$TMP/$name.json" "$TMP/$name.tracks" "count('VSYNC', ph='i') == r['summary']['frames']['value']" \
		"$name: a vsync instant per measured frame"
done
pycheck "$TMP/two.json" "$TMP/two.tracks" "f and f['on_time'] > 0 and f['buffer_stuffing'] > 0 and f['abandoned'] > 0" \
	"the two-stage schedule has on-time, stuffed and abandoned frames (the checks above had them to count)"
pycheck "$TMP/strict.json" "$TMP/strict.tracks" "f and f['late'] > 0 and count('frames*', name='late') == f['late']" \
	"strict model: late frames are dropped, and marked late"
pycheck "$TMP/one.json" "$TMP/one.tracks" "count('counter', 'C', 'fps (1 s window) Hz') >= 1 and count('counter', 'C', 'dropped (1 s window) %') >= 1" \
	"the sliding window's fps and dropped share are counter tracks"
pycheck "$TMP/one.json" "$TMP/one.tracks" "r['params']['perfetto'] == '$TMP/one.trace'" \
	"the result names the trace (params.perfetto)"
ok $(python3 -c "import json,sys; o=json.load(open(sys.argv[1]))['otherData']; sys.exit(0 if o['clock'] == 'CLOCK_MONOTONIC' and o['tool'] == 'lj-frame' else 1)" "$TMP/one.trace"; echo $?) \
	"otherData states the clock (CLOCK_MONOTONIC) and the tool"

# 4. A real run: a track per stage thread, each with its frames' work.
run_rc lj-frame -D 1 --stages 2 --work-time 2ms -q --perfetto "$TMP/real.trace" --json "$TMP/real.json"
is "$rc" 0 "lj-frame real run with --perfetto exits 0"
run_rc $CHECK "$TMP/real.trace"
ok $rc "its trace reads as the Trace Event Format"
$CHECK "$TMP/real.trace" --tracks >"$TMP/real.tracks"
pycheck "$TMP/real.json" "$TMP/real.tracks" "f and all(0 < count('stage %d' % s) <= f['frames'] for s in (0, 1)) and all(count('frames*', name=c) == f[c] for c in $CLASSES)" \
	"stage 0 and stage 1 have their own tracks with their work, and the frames agree with the result"
ok $(python3 - "$TMP/real.trace" "$TMP/real.json" <<'EOF'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
r = json.load(open(sys.argv[2]))
names = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
told = {t["tid"] for t in r["validity"]["threads"]["list"] if t["measured"]}
stage_tids = {tid for tid, n in names.items() if n.startswith("stage ")}
sys.exit(0 if stage_tids and stage_tids <= told else 1)
EOF
echo $?) "the stage tracks are the stage threads (their tids are the ones the verdict read back)"

# 5. lj-cyclic: with a threshold, a slice for every wake-up above it: the histogram's count (ns buckets, -N).
run_rc lj-cyclic -q -N -h 200000 -t 2 -l 300 -i 1000 --perfetto-threshold 50us --perfetto "$TMP/cyc.trace" --json "$TMP/cyc.json"
is "$rc" 0 "lj-cyclic --perfetto --perfetto-threshold 50us exits 0"
run_rc $CHECK "$TMP/cyc.trace"
ok $rc "its trace reads as the Trace Event Format"
$CHECK "$TMP/cyc.trace" --tracks >"$TMP/cyc.tracks"
pycheck "$TMP/cyc.json" "$TMP/cyc.tracks" "count('*', proc='lj-cyclic') == sum(sum(n for k, n in t['histogram'].items() if int(k) > 50000) + [x for x in r['results'] if x['thread'] == int(i)][0]['h_overflows'] for i, t in r['thread'].items())" \
	"its slices are the wake-ups above 50 us: the histogram's count above it, overflows included"
ok $(python3 - "$TMP/cyc.trace" <<'EOF'
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] == "X"]
sys.exit(0 if ev and all(e["args"]["latency_us"] > 50 and e["name"] in ("late wake-up", "missed period") and
                         abs(e["dur"] - e["args"]["latency_us"]) < 1e-6 for e in ev) else 1)
EOF
echo $?) "each is a late wake-up (or missed period) from due to ran, above 50 us"

# 5b. Under lj-env --sweep (the phase log it names in LJ_SWEEP_PHASES, here written by hand on
# CLOCK_MONOTONIC): each phase a slice, clipped to the run, tiling it.
python3 -c "import time; t = time.monotonic_ns(); print(t - 10**9, 'cpus=0'); print(t + 4 * 10**8, 'cpus=0-1'); print(t + 100 * 10**9, 'cpus=1')" >"$TMP/phases"
LJ_SWEEP_PHASES="$TMP/phases" run_rc lj-cyclic -q -l 1000 -i 1000 --perfetto "$TMP/sweep.trace"
is "$rc" 0 "lj-cyclic --perfetto under a sweep's phase log exits 0"
ok $(python3 - "$TMP/sweep.trace" "$TMP/phases" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
ev, o = d["traceEvents"], d["otherData"]
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
sl = sorted((round(e["ts"] * 1000), round((e["ts"] + e["dur"]) * 1000), e["name"]) for e in ev
            if e["ph"] == "X" and names.get((e["pid"], e["tid"])) == "sweep phases (lj-env --sweep)")
ph = [(int(l.split()[0]), l.split()[1]) for l in open(sys.argv[2])]
a, b = o["run_start_ns"], o["run_stop_ns"]
cuts = sorted({a, b} | {t for t, _ in ph if a < t < b})
want = [(x, y, [n for t, n in ph if t <= x][-1]) for x, y in zip(cuts, cuts[1:])]
sys.exit(0 if sl and sl == want and o["sweep_phases"] == 3 else 1)
EOF2
echo $?) "the phases are slices on a sweep track, clipped to the run and tiling it"

# 6. lj-oslat without a threshold: the trace's gaps are lj-oslat's own 64 largest per CPU, to the ns.
run_rc lj-oslat -c 0 -D 1 -q --perfetto "$TMP/osl.trace" --json "$TMP/osl.json"
is "$rc" 0 "lj-oslat --perfetto exits 0"
run_rc $CHECK "$TMP/osl.trace"
ok $rc "its trace reads as the Trace Event Format"
ok $(python3 - "$TMP/osl.trace" "$TMP/osl.json" <<'EOF'
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] == "X" and e["name"] == "gap"]
r = json.load(open(sys.argv[2]))
kept = sorted((g["end_ns"], g["gap_ns"]) for t in r["side"]["threads"] for g in t["largest"])
seen = sorted((e["args"]["ran_ns"], e["args"]["ran_ns"] - e["args"]["due_ns"]) for e in ev)
sys.exit(0 if kept and kept == seen else 1)
EOF
echo $?) "its gap slices are the JSON's largest gaps (end times and lengths)"

# 7. lj-signal and lj-hackbench: the same trace from the driver, their samples named for what they are.
run_rc lj-signal -q -l 200 --perfetto "$TMP/sig.trace"
is "$rc" 0 "lj-signal --perfetto exits 0"
run_rc $CHECK "$TMP/sig.trace" --tracks
ok $( { [ $rc -eq 0 ] && grep -q $'\tX\tlate hop\t' "$TMP/out"; }; echo $?) "its trace reads, with late hops on its threads"
run_rc lj-hackbench -T -g 1 -l 50 --perfetto "$TMP/hb.trace"
is "$rc" 0 "lj-hackbench --perfetto exits 0"
run_rc $CHECK "$TMP/hb.trace" --tracks
ok $( { [ $rc -eq 0 ] && grep -q $'\tX\tlate message\t' "$TMP/out"; }; echo $?) "its trace reads, with late messages on its receivers"

# 8. Headless Chromium's own importer (its DevTools trace engine) reads the
# traces as tefcheck.py does: the processes by name, a track per thread,
# and on each the slices tefcheck counted.
if command -v chromium >/dev/null || command -v chromium-browser >/dev/null; then
	for tr in real cyc; do
		run_rc python3 "$LJ_SRC/tests/cli/tefchromium.py" "$TMP/$tr.trace"
		if [ "$rc" -eq 77 ]; then
			skip 2 "Chromium's trace engine cannot run here: $(head -1 "$TMP/err")"
			continue
		fi
		is "$rc" 0 "Chromium's trace importer loads the $tr trace$( [ "$rc" -eq 0 ] || echo ": $(head -1 "$TMP/err")")"
		cp "$TMP/out" "$TMP/$tr.chromium"
		ok $(python3 - "$TMP/$tr.chromium" "$TMP/$tr.tracks" <<'EOF2'
import sys
from collections import Counter
lines = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
procs = lines[0][1].split(",")
got = {l[2]: int(l[3]) for l in lines[1:]}
want = Counter()
for t in (l.rstrip("\n").split("\t") for l in open(sys.argv[2])):
    if t[2] == "X":
        want[t[1]] += int(t[4])
sys.exit(0 if want and got == dict(want) and any(p.startswith("lj-") for p in procs) else 1)
EOF2
echo $?) "$tr: each track's slices as Chromium counts them are those in the file, per thread name"
	done
else
	skip 4 "chromium not installed (scripts/deps --browser --install)"
fi

echo "1..$_tap_n"
exit $((_tap_fail > 0))
