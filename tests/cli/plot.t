#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# plot.t - scripts/lj-plot draws every kind of figure, PNG and SVG, without gnuplot errors.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/matrix-lib.sh"

command -v gnuplot >/dev/null || skip_all "gnuplot not installed"
PLOT="$LJ_SRC/scripts/lj-plot"

# is_png FILE / is_svg FILE: the file exists and starts as one
is_png() { [ "$(head -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
is_svg() { grep -q '<svg' "$1" 2>/dev/null; }

run_rc "$PLOT" -o "$TMP/p" hist "$FIX/base"
is "$rc" 0 "hist of a run directory"
is_png "$TMP/p/hist-cyclic-cgroup=off.png"
ok $? "one PNG histogram per cell, named after it"
is "$(cat "$TMP/out")" "$TMP/p/hist-cyclic-cgroup=off.png" "the figure's path on stdout"
run_rc "$PLOT" -o "$TMP/p" -f svg hist "$FIX/base/cyclic/cgroup=off/run-1.json"
is_svg "$TMP/p/hist-run-1.svg"
ok $? "hist of one result file as SVG"
run_rc "$PLOT" -o "$TMP/p" box -m mean "$FIX/base" "$FIX/shifted" "$FIX/bimodal"
is_png "$TMP/p/box-cyclic-mean.png"
ok $? "box plot of a metric across run sets, one figure per workload"
run_rc "$PLOT" -o "$TMP/p" box -m nosuch "$FIX/base"
is "$rc" 2 "box of a metric no run has is bad input"
run_rc "$PLOT" -o "$TMP/p" timeline "$FIX/plot/timeline.csv"
is_png "$TMP/p/timeline-timeline.png"
ok $? "lj-frame timeline: fps and frequency"
run_rc "$PLOT" -o "$TMP/p" timeline "$FIX/plot/timeline-sweep.csv"
is_png "$TMP/p/timeline-timeline-sweep.png"
ok $? "lj-frame timeline with sweep phases and two frequency clusters"
# lj-frame's newer timelines end with the sliding window's % dropped (after the frequency columns).
awk -F, 'NR == 1 { print $0 ",window_dropped_pct,throughput_janks"; next } { print $0 "," (NR > 11 ? 25 : "") ",0" }' \
	"$FIX/plot/timeline-sweep.csv" >"$TMP/window.csv"
run_rc "$PLOT" -o "$TMP/p" -f svg timeline "$TMP/window.csv"
grep -q '% dropped in the sliding window' "$TMP/p/timeline-window.svg" && grep -q 'cpu 2+3 MHz' "$TMP/p/timeline-window.svg"
ok $? "a timeline with the window column: its line beside the frequency clusters"
run_rc "$PLOT" -o "$TMP/p" -f svg timeline "$FIX/plot/timeline-sweep.csv"
! grep -q 'sliding window' "$TMP/p/timeline-timeline-sweep.svg"
ok $? "...and none without it"
printf 't_s,phase,frames,displayed,dropped,janky,fps\n0.000,x"$(id)";system(\x27true\x27),6,6,0,0,60\n0.100,b,6,6,0,0,60\n' >"$TMP/evil.csv"
run_rc "$PLOT" -o "$TMP/p" timeline "$TMP/evil.csv"
is "$rc" 0 "a phase label is data, never gnuplot text"
run_rc "$PLOT" -o "$TMP/p" ramp "$FIX/plot/ramp.json"
is_png "$TMP/p/ramp-ramp.png"
ok $? "lj-frame ramp curve"
run_rc "$PLOT" -o "$TMP/p" ramp "$FIX/base/cyclic/cgroup=off/run-1.json"
is "$rc" 2 "ramp of a result without a curve is bad input"
run_rc "$PLOT" -f gif hist "$FIX/base"
is "$rc" 2 "unknown format is a usage error"
run_rc "$PLOT" pie "$FIX/base"
is "$rc" 2 "unknown mode is a usage error"

# A figure shows what it can draw: 1000 lj_hist buckets (128 per octave) of one curve
# become at most 400 bins on a 960-pixel axis, the largest count of each kept; a bucket
# standing alone in the tail (one slow sample) stays, marked. And lj-frame's blocks keep
# their own series: each stage's wake-up lateness and the present jitter apart, named.
perl -MJSON::PP -e '
	my @h;	# as lj_hist lays them out: 128 buckets per octave from 2048 ns
	for my $k (0 .. 999) {
		my $e = 11 + int($k / 128);
		push @h, [ 2 ** $e + ($k % 128) * 2 ** ($e - 7), 1000 + ($k == 500 ? 7000 : 0) ];
	}
	push @h, [ 50000000, 1 ];
	my $blk = sub { { histogram => [ map { [ @$_ ] } @h ], @_ } };
	print encode_json({ tool => "lj-frame", results => [ $blk->(name => "frame_times"),
		{ name => "production_time", histogram => [ [ 3000000, 4 ] ], present_jitter => $blk->() },
		{ name => "stage (vsync source)", stage => 0, wake_lateness => $blk->() },
		{ name => "stage", stage => 1, wake_lateness => $blk->() } ] });' >"$TMP/frame.json"
run_rc "$PLOT" -o "$TMP/f" -f svg hist "$TMP/frame.json"
svg="$TMP/f/hist-frame.svg"
is "$rc:$(grep -o '<text>[^<]*</text>' "$svg" | sed 's/<[^>]*>//g' | grep -E '^(frame_|production|stage|all$)' | tr '\n' ';')" \
	"0:frame_times;production_time;production_time present_jitter;stage 0 wake_lateness;stage 1 wake_lateness;" \
	"the frame blocks' series, each named: no stages merged under 'all'"
# 4 dense curves and a one-bucket one in 960 pixels: 1001 buckets each drawn twice was 400 KiB
[ "$(wc -c <"$svg")" -lt 120000 ]
ok $? "the figure holds what a 960-pixel axis shows: $(wc -c <"$svg") bytes"
is "$(grep -o "<use [^>]*translate" "$svg" | wc -l)" 5 \
	"the tail's lone bucket marked in each curve (and production_time's only bucket): 5 markers placed"
# a real lj-cyclic result, when the tool is built
if [ -x "$LJ_BUILD/lj-cyclic" ]; then
	LJ_RESULT_NO_SYSINFO=1 lj-cyclic -q -l 300 -i 1000 --json "$TMP/cyc.json" >/dev/null 2>&1
	run_rc "$PLOT" -o "$TMP/p" hist "$TMP/cyc.json"
	is_png "$TMP/p/hist-cyc.png"
	ok $? "hist of a real lj-cyclic result"
else
	skip 1 "lj-cyclic not built"
fi

done_testing
