#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# explain.t - --explain known answers: a pinned SCHED_FIFO 99 spinner is
# named as the cause of each missed period with its pid, policy and spin
# time; a loopback flood shows NET_RX softirqs; without privilege the run
# goes on (77 with --strict); no tracefs instance or mount is left behind.
# The recorder is BPF where the kernel has BTF; explain-tracefs.t runs the
# same known answers on the tracefs one (LJ_EXPLAIN_RECORDER=tracefs).
. "$(dirname "$0")/lib.sh"

require_spinner lj-cyclic

CPU=$(( $(nproc) - 1 ))
SPIN_US=3000
mounts_before=$(grep -c ' tracefs ' /proc/self/mounts)

instances() { ls -d /sys/kernel/tracing/instances/ljkit-* 2>/dev/null | wc -l; }

json_check() {	# json_check FILE PYTHON-EXPR NAME: the expression over x (side.explain)
	python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
x = d['side'].get('explain')
sys.exit(0 if x is not None and ($2) else 1)" "$1" "$2" 2>"$TMP/pyerr"
	ok $? "$3"
}

skip_unless_tracing
recorder=${LJ_EXPLAIN_RECORDER:-auto}
# The automatic choice (explain-kernel.t checks it): BPF with BTF (before 5.12, on x86 only).
if [ "$recorder" = auto ]; then
	recorder=tracefs
	bpf_recorder_loads && recorder=bpf
fi
# Its object: the one without atomics before 5.12, or where LJ_EXPLAIN_BPF_PLAIN asks (explain-plain.t).
object=None
[ "$recorder" = bpf ] && object="'5.12'"
[ "$recorder" = bpf ] && { kernel_before 5 12 || [ "${LJ_EXPLAIN_BPF_PLAIN:-0}" = 1 ]; } && object="'before-5.12'"
# Under QEMU's TCG emulation (a guest without KVM) timing is the emulator's (lj_sysinfo: CPUID "TCGTCGTCGTCG")
tcg=$(lj-env --show --json 2>/dev/null | jq -r '.system.virtualised // empty' | grep TCG)

# 1. Known answer: 3 ms spins every 25 ms at FIFO 99 on CPU (12 % of it:
# far below RT throttling); lj-cyclic at FIFO 50 every 100 us on the same
# CPU misses a period at each spin. The spinner outlives the run, so its
# policy can be read after it (the trace says RT, not FIFO or RR).
sync	# no writeback of the parallel pass's files inside the known answer
spin_run() {
	start_helper spin "$CPU" 99 "$SPIN_US" 25000 400
	[ -n "$helper_pid" ] || return 1
	run_rc lj-cyclic -q -a "$CPU" -p 50 -i 100 -l 3000 --explain --json "$TMP/spin.json"
	kill "$helper_job" 2>/dev/null
	wait "$helper_job"
	# The spikes the spinner caused: those it ran at least half a spin in. A
	# spike it only grazed (a late sample that a parallel test's task had
	# already delayed, whose window catches the spin's edge) is someone
	# else's; a shared machine may add such others: they are listed.
	big="[e for e in x['explanations'] if any(c.get('pid') == $helper_pid and c['ns'] >= $SPIN_US * 500 for c in e['causes'])]"
	spins=$(awk '/^spin /{ printf "%s(%s,%s)", (n++ ? "," : ""), $2, $3 }' "$TMP/helper.out")
	overlap="sum(max(0, min(b, x['t0_ns'] + e['at_ns'] + e['latency_ns']) - max(a, x['t0_ns'] + e['at_ns'])) for a, b in [$spins])"
	within="[e for e in $big if abs(e['causes'][0]['ns'] - $overlap) <= $SPIN_US * 100]"
	# The spikes whose attribution is off by more than 10 %: the host can stop the
	# vCPU between the spinner's switch-in and its first clock read, which the trace
	# counts as the spinner's and its log cannot see. At most a quarter may be.
	strays="(len($big) - len($within) <= len($big) // 4)"
}
# The host of this VM can take the CPU inside a spin, and then the spike is
# not the spinner's alone: one retry, printing what the first run found.
spin_known() {
	python3 -c "
import json, sys
x = json.load(open(sys.argv[1]))['side']['explain']
sys.exit(0 if len($big) >= 3 and all(e['causes'][0]['pid'] == $helper_pid for e in $big) and len($within) >= 3 and $strays else 1)" "$TMP/spin.json" 2>/dev/null
}
spin_run
if [ -n "$helper_pid" ] && [ "$rc" -eq 0 ] && ! spin_known; then
	diag "first spin run: $(python3 -c "
import json, sys
x = json.load(open(sys.argv[1]))['side']['explain']
print('; '.join('%s %d us' % (e['causes'][0]['name'], e['causes'][0]['ns'] / 1000) for e in $big))" "$TMP/spin.json" 2>&1); retrying once"
	spin_run
fi
if [ -z "$helper_pid" ]; then
	skip 8 "the spinner did not start: $(cat "$TMP/helper.out")"
else
	is "$rc" 0 "lj-cyclic --explain beside a FIFO 99 spinner exits 0"
	json_check "$TMP/spin.json" "len($big) >= 3" "the spins are explained (at least 3 of them)"
	if [ -n "$tcg" ]; then
		# An emulated CPU's timer interrupts come late, by more than a spin when the
		# host holds the vCPU thread: a spike's first cause is then as often the
		# idle CPU's late wake-up (seen: "idle 3916 us" beside "interferer 3002 us")
		skip 3 "QEMU TCG: timer interrupts arrive late, the spinner is not every spike's first cause"
	else
	json_check "$TMP/spin.json" "all(e['causes'][0]['kind'] == 'task' and e['causes'][0]['pid'] == $helper_pid and e['causes'][0]['name'] == 'interferer' for e in $big)" \
		"each spike's first cause is the spinner by comm and pid ($helper_pid)"
	json_check "$TMP/spin.json" "all(e['causes'][0]['sched'] == 'FIFO 99' and e['causes'][0]['prio'] == 0 for e in $big)" \
		"with its policy and priority: FIFO 99"
	# The known answer of each spike: the spinner logs when every spin ran
	# (CLOCK_MONOTONIC), so the time it ran inside the spike's interval
	# [due, due + latency) is the overlap with those spins (a sample due
	# after a spin began, when the whole suite delays the measuring thread,
	# sees only the rest of it). The log says when the spinner meant to run:
	# on a loaded VM the host or RT throttling can take the CPU inside a
	# spin (seen: 1.6 ms of a 3 ms spin with the whole suite running), so
	# at least 3 attributions must be within 10 % of the overlap, and at
	# least three quarters of them (CI once failed one that required all,
	# twice in a row, on a host busier than this one).
	json_check "$TMP/spin.json" "len($within) >= 3 and $strays" \
		"the spinner's time is within 10 % of its spins' overlap with the spike (from the spinner's log) in 3 of 4 spikes"
	fi
	[ "$_tap_fail" -eq 0 ] || python3 -c "
import json, sys
x = json.load(open(sys.argv[1]))['side']['explain']
e = $big
for e in e:
    print('# spike at %d ns: spinner %d us, overlap %d us' % (e['at_ns'], e['causes'][0]['ns'] / 1000, ($overlap) / 1000))" "$TMP/spin.json" 2>&1 | head -20 >&2
	python3 -c "import json,sys; x=json.load(open(sys.argv[1]))['side']['explain']; print('# spinner us per spike:', [round(c['ns']/1000) for e in x['explanations'] for c in e['causes'] if c.get('pid') == $helper_pid])" "$TMP/spin.json"
	# The recorder: the one LJ_EXPLAIN_RECORDER forces (explain-tracefs.t runs this file with
	# tracefs), else BPF where the kernel has BTF; the tracefs one alone has an instance.
	json_check "$TMP/spin.json" "x['recorder'] == '$recorder' and (x['instance'] is None) == ('$recorder' == 'bpf') and (x['bpf_unavailable'] is None) == ('$recorder' == 'bpf' or '${LJ_EXPLAIN_RECORDER:-auto}' != 'auto') and x['bpf_object'] == $object" \
		"the $recorder recorder explained ($([ -n "${LJ_EXPLAIN_RECORDER:-}" ] && echo forced || echo chosen)$([ "$object" != None ] && echo ", its object for $object"))"
	json_check "$TMP/spin.json" "all(sum(c['ns'] for c in e['causes']) == e['latency_ns'] for e in x['explanations'])" \
		"every explanation's shares add up to its latency"
	ok $(grep -c "^## missed period .* interferer (pid $helper_pid, FIFO 99) ran [23]\.[0-9]* ms" "$TMP/err" | \
		awk '{ print !($1 >= 3) }') "the text names the spinner after the run's lines"
	# The cause kinds as summary metrics: the mean per explanation of each
	# kind's time, all seven present, adding up to the mean latency.
	json_check "$TMP/spin.json" "abs(sum(d['summary']['explain_%s_ns' % k]['value'] for k in ('task','irq','softirq','idle','self','unaccounted','other')) - sum(e['latency_ns'] for e in x['explanations']) / len(x['explanations'])) < 1" \
		"summary explain_<kind>_ns: the mean per explained sample, adding up to the mean latency"
	# The spinner outranks lj-cyclic: its time is never "lower priority"; the summary metric is
	# the mean of the explanations' lower_prio_ns, and side.explain.lower_prio is null without any.
	json_check "$TMP/spin.json" "all(e['lower_prio_ns'] + sum(c['ns'] for c in e['causes'] if c.get('pid') == $helper_pid) <= e['latency_ns'] for e in x['explanations']) and abs(d['summary']['explain_lower_prio_ns']['value'] - sum(e['lower_prio_ns'] for e in x['explanations']) / len(x['explanations'])) < 1 and ((x['lower_prio'] is None) == all(e['lower_prio_ns'] == 0 for e in x['explanations']))" \
		"lower_prio_ns: never the higher-priority spinner's time; summary and side.explain.lower_prio agree"
	diag "$(grep -m2 '^## ' "$TMP/out")"
	[ "$_tap_fail" -eq 0 ] || diag "$(grep '^## ' "$TMP/out")"
fi

# 1b. lj-frame's late frames under the same spinner: one stage at FIFO 50
# working 15 ms of each 16.7 ms frame on CPU; a 3 ms spin every 47 ms
# (not a multiple of the period: every phase) makes frames late. Each late
# frame the spinner took part in names it; where the spin fell wholly
# inside the frame its time is within 10 % of the spin.
if [ -x "$LJ_BUILD/lj-frame" ]; then
	start_helper spin "$CPU" 99 "$SPIN_US" 47000 400
	if [ -z "$helper_pid" ]; then
		skip 4 "the spinner did not start: $(cat "$TMP/helper.out")"
	else
		run_rc lj-frame --stages 1 --work-time 15000 --cpus "$CPU" --policy fifo -p 50 -D 2 \
			--explain --json "$TMP/frame.json"
		kill "$helper_job" 2>/dev/null
		wait "$helper_job"
		is "$rc" 0 "lj-frame --explain beside the spinner exits 0"
		late="[e for e in x['explanations'] if e['kind'] in ('janky frame', 'dropped frame') and e['latency_ns'] < 33000000]"
		mine="[c for e in $late for c in e['causes'] if c.get('pid') == $helper_pid]"
		# The work per frame comes from a calibration: on a loaded machine
		# it can come out short enough that no spin makes a frame late.
		if python3 -c "import json,sys; x=json.load(open(sys.argv[1]))['side']['explain']; sys.exit(0 if len($mine) else 1)" "$TMP/frame.json"; then
			json_check "$TMP/frame.json" "len($mine) >= 1 and all(c['name'] == 'interferer' and c['sched'] == 'FIFO 99' for c in $mine)" \
				"late frames name the spinner by comm, pid ($helper_pid) and FIFO 99"
			json_check "$TMP/frame.json" "len([c for c in $mine if abs(c['ns'] - $SPIN_US * 1000) <= $SPIN_US * 100]) >= 1" \
				"a spin inside a late frame: within 10 % of $SPIN_US us"
			# the trial told the recorder its stage thread (lj_hooks_threads): every late frame matched it
			stage="[r['tid'] for r in d['results'] if r.get('tid')]"
			python3 -c "import json,sys; d=json.load(open(sys.argv[1])); x=d['side']['explain']
sys.exit(0 if len($stage) == 1 and x['candidates_dropped'] == 0 and all(e['tid'] == $stage[0] for e in x['explanations']) else 1)" "$TMP/frame.json"
			ok $? "the recorder knows the stage thread: each explanation is of it, none dropped as unmatched"
		else
			skip 3 "no frame came out late (calibrated work too short here): $(grep '^frames' "$TMP/out")"
		fi
		[ "$_tap_fail" -eq 0 ] || diag "$(grep '^## ' "$TMP/err" | head -20)"
	fi
else
	skip 4 "lj-frame not built"
fi

# 2. An interrupt-heavy helper: a loopback UDP flood on the CPU, at FIFO 10
# so it holds the CPU between lj-cyclic's wake-ups (FIFO 50), shows NET_RX
# softirqs: a wake-up in the middle of one waits for its end. The flood
# starts once lj-cyclic's measuring thread is FIFO (its start-up, a second
# or more under QEMU's TCG, would outlast a flood on a timer) and floods
# for 1.5 s, as long as lj-cyclic measures.
# A loaded machine's own spikes can crowd the flood's out of the largest
# causes kept: one retry, saying what the first run found.
has_net_rx() {
	python3 -c "
import json, sys
x = json.load(open(sys.argv[1]))['side']['explain']
sys.exit(0 if any(c['kind'] == 'softirq' and c['name'] == 'NET_RX' and c['ns'] > 0 for c in x['causes']) else 1)" "$1" 2>/dev/null
}
measuring() {	# measuring PID: a thread of PID runs SCHED_FIFO (policy 1), or PID has ended
	local t
	for t in /proc/"$1"/task/*/stat; do
		[ "$(awk '{ sub(/.*\) /, ""); print $39 }' "$t" 2>/dev/null)" = 1 ] && return 0
	done
	! kill -0 "$1" 2>/dev/null
}
flood_run() {
	local cyclic
	"$LJ_BUILD/lj-cyclic" -q -a "$CPU" -p 50 -i 1000 -l 1500 --explain=2us --json "$TMP/flood.json" \
		>"$TMP/out" 2>"$TMP/err" &
	cyclic=$!
	wait_for measuring "$cyclic"
	start_helper flood "$CPU" 1500 10 0
	wait "$cyclic"
	rc=$?
	[ -n "$helper_pid" ] && wait "$helper_job"
}
flood_run
if [ -z "$helper_pid" ]; then
	skip 2 "the flood did not start: $(cat "$TMP/helper.out")"
else
	if [ "$rc" -eq 0 ] && ! has_net_rx "$TMP/flood.json"; then
		diag "no NET_RX in the first flood run's causes: $(python3 -c "
import json, sys
print(', '.join('%s %s %d' % (c['kind'], c['name'], c['ns']) for c in json.load(open(sys.argv[1]))['side']['explain']['causes']))" "$TMP/flood.json" 2>&1); retrying once"
		flood_run
	fi
	is "$rc" 0 "lj-cyclic --explain=2us beside a loopback flood exits 0"
	has_net_rx "$TMP/flood.json"; ok $? "the aggregated causes hold softirq NET_RX"
fi

# lj-hackbench -T: the late messages are explained by what ran instead (the other workers); a
# spike's times are a clock read at its arrival minus its delay from the stamps, inside the run.
if [ -x "$LJ_BUILD/lj-hackbench" ]; then
	run_rc "$LJ_BUILD/lj-hackbench" -T -g 2 -f 4 -l 200 --explain=50 --json "$TMP/hb.json"
	is "$rc" 0 "lj-hackbench -T --explain=50 exits 0"
	json_check "$TMP/hb.json" "len(x['explanations']) > 0 and not x['suspect'] and x['threshold_ns'] == 50000" \
		"lj-hackbench: late messages explained, nothing suspect"
	json_check "$TMP/hb.json" "all(e['latency_ns'] >= 50000 and e['latency_ns'] <= d['results'][0]['latency']['max_ns'] and 0 <= e['at_ns'] <= d['results'][0]['time_ns'] + 10**9 for e in x['explanations'])" \
		"lj-hackbench: each explained message above the threshold, within the run's latencies and times"
	json_check "$TMP/hb.json" "any(c['name'] == 'lj-hackbench' and c['kind'] == 'task' for c in x['causes'])" \
		"lj-hackbench: the other workers are among the causes"
else
	skip 4 "lj-hackbench not built"
fi

# lj-hackbench in process mode (hackbench's default): forked receivers hand their late messages
# back through their slots, and main's thread gives them to the recorder while the run goes.
if [ -x "$LJ_BUILD/lj-hackbench" ]; then
	run_rc "$LJ_BUILD/lj-hackbench" -g 2 -f 4 -l 200 --explain=50 --json "$TMP/hbp.json"
	is "$rc" 0 "lj-hackbench --explain=50 (processes) exits 0"
	json_check "$TMP/hbp.json" "len(x['explanations']) > 0 and not x['suspect'] and x['threshold_ns'] == 50000 and d['side']['late_messages_dropped'] >= 0" \
		"lj-hackbench processes: late messages explained, nothing suspect, ring losses counted"
	json_check "$TMP/hbp.json" "all(e['latency_ns'] >= 50000 and e['latency_ns'] <= d['results'][0]['latency']['max_ns'] and 0 <= e['at_ns'] <= d['results'][0]['time_ns'] + 10**9 for e in x['explanations'])" \
		"lj-hackbench processes: each explained message above the threshold, within the run's latencies and times"
	json_check "$TMP/hbp.json" "any(c['name'] == 'lj-hackbench' and c['kind'] == 'task' for c in x['causes'])" \
		"lj-hackbench processes: the other workers are among the causes"
	# Without a threshold a receiver hands back only what enters its largest 64: the run's
	# largest delay is always among them, so the longest explained message is the run's max.
	run_rc "$LJ_BUILD/lj-hackbench" -g 2 -f 4 -l 400 --explain --json "$TMP/hbk.json"
	is "$rc" 0 "lj-hackbench --explain (processes) exits 0"
	json_check "$TMP/hbk.json" "max(e['latency_ns'] for e in x['explanations']) == d['results'][0]['latency']['max_ns']" \
		"lj-hackbench processes: the run's largest delay is explained"
else
	skip 6 "lj-hackbench not built"
fi

# Known-answer interference for lower_prio_ns: a messaging load (SCHED_OTHER, mostly inside pipe
# system calls) on the measured CPU. On a kernel that is not preemptible (none, voluntary) the FIFO
# thread's CPU stays with a hackbench task after the wake-up, until its system call returns.
if [ -x "$LJ_BUILD/lj-hackbench" ]; then
	"$LJ_BUILD/lj-hackbench" --duration 6 -g 2 --cpus "$CPU" --quiet --no-latency >/dev/null 2>&1 &
	hb=$!
	sleep 0.5
	run_rc env -u LJ_RESULT_NO_SYSINFO lj-cyclic -q -a "$CPU" -p 90 -i 1000 -l 2000 --explain=20 --json "$TMP/lp.json"
	kill "$hb" 2>/dev/null
	wait "$hb" 2>/dev/null
	model=$(python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['system']['preempt']['mode'])" "$TMP/lp.json" 2>/dev/null)
	case $model in
	none | voluntary)
		json_check "$TMP/lp.json" "x['lower_prio'] is not None and x['lower_prio']['explained'] >= 1 and x['lower_prio']['preempt'] == '$model' and d['summary']['explain_lower_prio_ns']['value'] > 0" \
			"under messaging load on a preempt=$model kernel, lower priorities kept the FIFO thread's CPU after wake-ups"
		grep -q "^## explain: in [0-9]* of [0-9]*, tasks of lower priority kept the CPU after the wake-up, .* (preempt=$model: " "$TMP/err"
		ok $? "the run's line says so, with the preemption model"
		[ "$_tap_fail" -eq 0 ] || diag "$(grep '^## ' "$TMP/err" | tail -3)"
		;;
	*)
		skip 2 "preemption model '${model:-unknown}': a lower priority is preempted at once"
		;;
	esac
else
	skip 2 "lj-hackbench not built"
fi

# A task name from the trace may hold any byte: --explain's text shows control characters as
# '?' (an escape sequence reaches root's terminal as one otherwise), the JSON keeps the name.
INTERFERER_COMM=$'\e[2Jevil\a' start_helper spin "$CPU" 99 "$SPIN_US" 25000 200
if [ -n "$helper_pid" ]; then
	run_rc lj-cyclic -q -a "$CPU" -p 50 -i 100 -l 1500 --explain --json "$TMP/esc.json"
	kill "$helper_job" 2>/dev/null
	wait "$helper_job" 2>/dev/null
	! grep -q $'[\e\a]' "$TMP/err"
	ok $? "no escape or bell byte of a task's name reaches stderr"
	if python3 -c "import json,sys; x = json.load(open(sys.argv[1]))['side']['explain']; sys.exit(0 if any(c.get('name') == '\x1b[2Jevil\x07' for e in x['explanations'] for c in e['causes']) else 1)" "$TMP/esc.json"; then
		grep -q '^## .*?\[2Jevil? (pid' "$TMP/err"
		ok $? "...it is shown with '?' for them (the JSON keeps the name)"
	else
		skip 1 "the renamed spinner was not named in an explanation this run"
	fi
else
	skip 2 "the spinner did not start"
fi

# -b with --tracemark keeps the trace, and the explanation reads it as the kernel's text,
# where a task's name is printed as it is: one with spaces is named whole.
INTERFERER_COMM='Jit thread pool' start_helper spin "$CPU" 99 "$SPIN_US" 25000 400
if [ -n "$helper_pid" ]; then
	break_names_spinner "$CPU" "$SPIN_US"
	named=$?
	kill "$helper_job" 2>/dev/null
	wait "$helper_job" 2>/dev/null
	ok $named "-b --tracemark: the kept trace's explanation names the spinner 'Jit thread pool' whole, with its pid"
else
	skip 1 "the spinner did not start"
fi

# 3. Nothing left behind.
is "$(instances)" 0 "no ljkit tracefs instance left"
is "$(grep -c ' tracefs ' /proc/self/mounts)" "$mounts_before" "tracefs mounted as before"

# 4. Without privilege: one line, the run goes on and records it; --strict: 77.
if can_drop_to_nobody; then
	chmod 711 "$TMP"
	mkdir -m 777 "$TMP/pub"
	(cd "$TMP/pub" && drop_to_nobody "$LJ_BUILD/lj-cyclic" -q -l 50 --explain --json "$TMP/pub/u.json") \
		>"$TMP/out" 2>"$TMP/err"
	is "$?" 0 "unprivileged --explain still measures"
	is "$(grep -c 'warning:.*explain' "$TMP/err")" 1 "one warning line says why there is no explanation"
	diag "$(grep explain "$TMP/err")"
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if any(f['what'] == 'explain' for f in d['setup']['fallbacks']) else 1)" "$TMP/pub/u.json"
	ok $? "the result records the explain fallback"
	(cd "$TMP/pub" && drop_to_nobody "$LJ_BUILD/lj-cyclic" -q -l 50 --explain --strict) >/dev/null 2>&1
	is "$?" 77 "--strict without tracing exits 77"
else
	skip 4 "cannot drop privilege (setpriv)"
fi

done_testing
