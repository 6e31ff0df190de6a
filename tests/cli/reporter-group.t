#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# reporter-group.t - with --cgroup NAME --cpus 1, lj-cyclic's reporter and lj-frame's waiting main thread leave the measured CPU (v1), or say they cannot (v2: threads stay in their process's group).
. "$(dirname "$0")/lib.sh"

export LJ_JOURNAL_DIR=$TMP/j
require_real_cgroups "real cgroups need root"
CS=$CG_CPUSET
G=ljr$$
system_lock

if [ -x "$LJ_BUILD/lj-cyclic" ]; then
	run_rc lj-cyclic --cgroup $G --cpus 1 -l 300 -q --json "$TMP/c.json"
	is "$rc" 0 "lj-cyclic runs in a group confined to CPU 1"
	if [ "$CG_MODE" = v1 ]; then
		is "$(jq -r '[.setup.applied[] | select(.what == "reporter_cpu") | .value] | first' "$TMP/c.json")" \
			"CPU 0" "...its reporter left the group for CPU 0"
		is "$(jq -r '[.setup.notes[]? | select(.what == "reporter")] | length' "$TMP/c.json")" 0 \
			"...with no note that it could not"
	else
		is "$(jq -r '[.setup.applied[] | select(.what == "reporter_cpu")] | length' "$TMP/c.json")" 0 \
			"v2: its reporter cannot leave the group (a thread stays in its process's group)"
		is "$(jq -r '[.setup.notes[]? | select(.what == "reporter")] | length' "$TMP/c.json")" 1 \
			"...and the result notes that it shares the measured CPU"
	fi
	is "$(jq -r '.results[0].cpu' "$TMP/c.json")" 1 "...and its measurement thread stayed on CPU 1"
else
	skip 4 "lj-cyclic not built"
fi

if [ -x "$LJ_BUILD/lj-frame" ]; then
	lj-frame --cgroup $G --cpus 1 -D 2s -q >"$TMP/fout" 2>"$TMP/ferr" &
	pid=$!
	left=no
	# The main thread waits for the stage threads outside the group while they run.
	for _ in $(seq 1 80); do
		if grep -q "cpuset:/\$" "/proc/$pid/task/$pid/cgroup" 2>/dev/null &&
		   [ "$(awk '/Cpus_allowed_list/ { print $2 }' "/proc/$pid/task/$pid/status" 2>/dev/null)" = 0 ]; then
			left=yes
			# Polled again while the main thread is outside: a look just as
			# the stages exit at the end of the run would see none.
			stages=$(for t in /proc/$pid/task/*; do [ "${t##*/}" = "$pid" ] || grep -c "cpuset:/$G\$" "$t/cgroup" 2>/dev/null; done | grep -c 1)
			[ "${stages:-0}" -ge 1 ] && break
		fi
		sleep 0.05
	done
	wait $pid
	is "$?" 0 "lj-frame runs in a group confined to CPU 1"
	if [ "$CG_MODE" = v1 ]; then
		is "$left" yes "...its main thread waits outside the group, on CPU 0"
		ok "$([ "${stages:-0}" -ge 1 ] && echo 0 || echo 1)" "...while the stage threads stay in the group"
	else
		skip 2 "v2: the main thread cannot leave its process's group"
	fi
else
	skip 3 "lj-frame not built"
fi
ok "$([ -e "$CS/$G" ] && echo 1 || echo 0)" "the group is removed after"
is "$(ls "$LJ_JOURNAL_DIR" 2>/dev/null | grep -c '^journal\.')" 0 "...and no journal left"
done_testing
