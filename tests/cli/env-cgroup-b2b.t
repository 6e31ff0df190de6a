#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# env-cgroup-b2b.t - back-to-back lj-env --cgroup runs (v1 or v2): each leaves nothing behind; with RT group scheduling a removed group's RT budget is free at once.
. "$(dirname "$0")/lib.sh"

export LJ_JOURNAL_DIR=$TMP/j
[ -x "$LJ_BUILD/lj-env" ] || skip_all "lj-env not built"
is_root || skip_all "real cgroups need root"
cgroup_profile
[ -n "$CG_MODE" ] || skip_all "$CG_WHY"
command -v chrt >/dev/null || skip_all "no chrt"
CPU=$CG_CPU
G=ljb$$
system_lock
before=$(cg_state $G)

# The RT budget the root's groups leave free, as a listing shows it.
free_budget() {
	local total used=0 v d
	total=$(cat "$CPU/cpu.rt_runtime_us")
	for d in "$CPU"/*/; do
		v=$(cat "$d/cpu.rt_runtime_us" 2>/dev/null) || continue
		used=$((used + v))
	done
	echo $((total - used))
}

# What the matrix does: cyclic and signal cells, one after the other, each
# in a fresh group with the default budget (half of what is free).
fails=0
for i in 1 2 3 4 5 6; do
	if [ $((i % 2)) -eq 1 ]; then
		run_rc lj-env --cgroup $G -- lj-cyclic -l 200 -q -p 80
	else
		run_rc lj-env --cgroup $G -- lj-signal -l 200 -q
	fi
	[ "$rc" -eq 0 ] || { fails=$((fails + 1)); diag "run $i: rc $rc: $(tail -n 1 "$TMP/err")"; }
done
is "$fails" 0 "six back-to-back group runs (cyclic, signal alternating) all succeed"
is "$(cg_state $G)" "$before" "...and leave no group behind, every cgroup.subtree_control as before"
is "$(ls "$LJ_JOURNAL_DIR" | grep -c '^journal\.')" 0 "...and no journal"

if [ "$CG_RT" != 1 ]; then
	skip 1 "no RT group scheduling ($CG_MODE): no group RT budget to hand back"
	done_testing
	exit
fi

# A removed group's budget must be free right after lj-env returns: the
# kernel frees a removed group lazily, so lj-env hands the budget back
# before rmdir. Take 60% of the free budget, then give another group 60%
# at once (no retry): that fits only if the first 60% was handed back.
fails=0 busy=0
for i in 1 2 3 4 5; do
	want=$(( $(free_budget) * 6 / 10 ))
	if [ "$want" -le 0 ]; then
		busy=$((busy + 1))
		continue
	fi
	run_rc lj-env --cgroup $G --rt-runtime "$want" -- chrt -f 10 true
	if [ "$rc" -ne 0 ]; then
		busy=$((busy + 1))
		diag "lj-env --rt-runtime $want: $(tail -n 1 "$TMP/err")"
		continue
	fi
	mkdir "$CPU/${G}b"
	if ! echo "$want" 2>/dev/null >"$CPU/${G}b/cpu.rt_runtime_us"; then
		# Another group taking the budget meanwhile is not this failure.
		if [ "$(free_budget)" -ge "$want" ]; then
			fails=$((fails + 1))
		else
			busy=$((busy + 1))
		fi
	fi
	echo 0 >"$CPU/${G}b/cpu.rt_runtime_us" 2>/dev/null
	rmdir "$CPU/${G}b"
done
if [ "$busy" -ge 5 ]; then
	skip 1 "other groups held the RT budget in every round"
else
	is "$fails" 0 "a removed group's RT budget can be taken again at once ($((5 - busy)) rounds)"
fi
done_testing
