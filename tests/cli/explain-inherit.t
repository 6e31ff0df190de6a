#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# explain-inherit.t - a new tracefs instance takes the top level's options
# (Android's tracing tools turn record-tgid on there and overwrite off):
# with the top level printing a tgid column, no interrupt flags, fields in
# hex, stacks with every event, trace_marker refusing writes and the
# oldest events kept, the kept trace of
# -b --tracemark still has the marker and the explanation still names a
# FIFO 99 spinner; the top level's options are left as they were.
. "$(dirname "$0")/lib.sh"

require_spinner lj-cyclic
skip_unless_tracing

CPU=$(( $(nproc) - 1 ))
SPIN_US=3000
OPTS=/sys/kernel/tracing/options
[ -d "$OPTS" ] || skip_all "tracefs is not mounted at /sys/kernel/tracing: no top level's options to set"
# Each option the test changes at the top level, its value there after the change.
declare -A want=([record-tgid]=1 [irq-info]=0 [stacktrace]=1 [markers]=0 [fields]=1 [overwrite]=0)
declare -A saved=()
for o in "${!want[@]}"; do
	[ -e "$OPTS/$o" ] && saved[$o]=$(cat "$OPTS/$o")
done
restore_options() {
	for o in "${!saved[@]}"; do echo "${saved[$o]}" >"$OPTS/$o"; done
}
# lib.sh's exit trap, with the top level's options put back first.
trap '[ "$BASHPID" = "$_tap_shell" ] && { restore_options; _lj_restore_private "$TMP"; rm -rf "$TMP"; }' EXIT
for o in "${!saved[@]}"; do echo "${want[$o]}" >"$OPTS/$o"; done
top() { for o in $(printf '%s\n' "${!saved[@]}" | sort); do printf '%s=%s ' "$o" "$(cat "$OPTS/$o")"; done; }
top_before=$(top)

INTERFERER_COMM='Jit thread pool' start_helper spin "$CPU" 99 "$SPIN_US" 25000 400
[ -n "$helper_pid" ] || { restore_options; skip_all "the spinner did not start"; }
inherited="" marked=1
# What the kept instance took of the top level's options, and whether its trace has the marker.
inspect() {
	inherited=$(for o in $(printf '%s\n' "${!saved[@]}" | sort); do
		[ "$(cat "$1/options/$o")" = "${want[$o]}" ] && printf '%s ' "$o"; done)
	grep -q "tracing_mark_write: hit latency threshold" "$1/trace" && marked=0
}
break_names_spinner "$CPU" "$SPIN_US" inspect
named=$?
kill "$helper_job" 2>/dev/null
wait "$helper_job" 2>/dev/null
ok $named "the explanation names the spinner whole, with its pid"
ok "$([ -n "$kept" ] && [ -z "$inherited" ] && echo 0 || echo 1)" \
	"...the kept instance took none of the top level's options changed (taken: '$inherited')"
ok $marked "...and its trace has the marker"
is "$(top)" "$top_before" "the top level's options are as the test set them"
is "$(ls -d /sys/kernel/tracing/instances/ljkit-* 2>/dev/null | wc -l)" 0 "no ljkit tracefs instance left"
restore_options

done_testing
