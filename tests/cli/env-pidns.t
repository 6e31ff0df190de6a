#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# env-pidns.t - runs in other PID namespaces (containers): their journals and tracefs instances are
# theirs; a restore leaves a live one alone, restores a dead one where it can see it.
. "$(dirname "$0")/lib.sh"

export LJ_JOURNAL_DIR=$TMP/j
[ -x "$LJ_BUILD/lj-env" ] || skip_all "lj-env not built"
is_root || skip_all "PID namespaces and fake sysfs trees need root"
unshare -p -f --mount-proc true 2>/dev/null || skip_all "cannot make a PID namespace here (unshare -p)"
[ "$(stat -L -c %i /proc/self/ns/pid)" = $((0xEFFFFFFC)) ] ||
	skip_all "not in the initial PID namespace (the restores below are the host's)"
FK=$TMP/fk
SYS=/sys/devices/system/cpu

snap() { (cd "$FK" && grep -r . --include=scaling_governor . | sort); }
# in_fake CMD...: CMD with the fake tree over the real one, in this PID namespace.
in_fake() { unshare -m --propagation private sh -c 'mount --bind "$0" '$SYS' && exec "$@"' "$FK" "$@"; }
# in_container CMD...: the same in a new PID namespace, CMD its pid 1.
in_container() {
	unshare -m -p -f --mount-proc --propagation private sh -c 'mount --bind "$0" '$SYS' && exec "$@"' "$FK" "$@"
}

"$LJ_SRC/tests/fixtures/fake-cpu-sysfs.sh" "$FK" percpu
before=$(snap)
# not through in_container: $! must be unshare itself, its child the container's lj-env
unshare -m -p -f --mount-proc --propagation private sh -c 'mount --bind "$0" '$SYS' && exec "$@"' "$FK" \
	lj-env -q --governor powersave -- sleep 60 2>"$TMP/outer.err" &
outer=$!
wait_child $outer lj-env
inner=$(awk '{ print $1 }' /proc/$outer/task/*/children)
changed() { [ "$(snap)" != "$before" ] || ! kill -0 $outer 2>/dev/null; }
wait_for changed
ok $? "a run in a new PID namespace (its pid 1) sets the governor"
journal=$(ls "$LJ_JOURNAL_DIR")
ns=$(stat -L -c %i "/proc/$inner/ns/pid")
is "$journal" "journal.1@$ns" "its journal is named by its pid and its namespace"
grep -q "^# ljkit-journal/1 pid=1 start=[0-9]* pidns=$ns prog=lj-env\$" "$LJ_JOURNAL_DIR/$journal"
ok $? "...whose number its header carries"

# The initial namespace sees it live (its pid 1 is init here, started at another time).
run_rc in_fake lj-env --restore
is "$rc" 0 "--restore from the initial namespace: exit 0"
[ "$(snap)" != "$before" ] && [ -f "$LJ_JOURNAL_DIR/$journal" ]
ok $? "...the live run's governor left alone, its journal kept"
run_rc in_fake lj-env --show
grep -q "journal.1@$ns: pid 1 of PID namespace $ns running" "$TMP/out"; ok $? "--show says it is running, whose pid 1 it is"
in_fake lj-env --show --json | jq -e --argjson ns "$ns" '.state.journals[0] | .pid == 1 and .pidns == $ns and .alive' >/dev/null
ok $? "...and so does its JSON (pidns)"

# A sibling namespace cannot see it: its pid 1 there is the restoring lj-env itself.
run_rc in_container lj-env --restore
is "$rc" 0 "--restore from a sibling namespace: exit 0"
[ "$(snap)" != "$before" ] && [ -f "$LJ_JOURNAL_DIR/$journal" ]
ok $? "...leaves what it cannot see alone"

# SIGKILL its pid 1: the namespace dies with it; the initial namespace restores.
kill -KILL "$inner"
wait $outer 2>/dev/null
run_rc in_fake lj-env --restore
is "$rc" 0 "the namespace killed: --restore from the initial namespace, exit 0"
grep -q "replaying $LJ_JOURNAL_DIR/$journal (lj-env, pid 1," "$TMP/out"; ok $? "...replays its journal"
is "$(snap)" "$before" "...the governors are as before"
is "$(ls "$LJ_JOURNAL_DIR")" "" "...and no journal is left"

# tracefs instances are the kernel's, one set for every namespace: two
# containers' pid 1 and a host run record at once, none taken for stale.
TFS=/sys/kernel/tracing
if [ ! -d "$TFS/instances" ] || [ ! -x "$LJ_BUILD/lj-cyclic" ]; then
	skip 6 "no tracefs mounted at $TFS (or lj-cyclic not built)"
	done_testing
	exit
fi
export LJ_EXPLAIN_RECORDER=tracefs
mine() { ls -d "$TFS"/instances/ljkit-* 2>/dev/null | grep -E "/ljkit-($host|1@[0-9]+)\$" | sort; }
lj-cyclic -q --explain -l 4000 -i 1000 >/dev/null 2>"$TMP/host.err" &
host=$!
unshare -p -f --mount-proc lj-cyclic -q --explain -l 4000 -i 1000 >/dev/null 2>"$TMP/a.err" &
a=$!
two() { [ "$(mine | wc -l)" -ge 2 ] || ! kill -0 $host 2>/dev/null || ! kill -0 $a 2>/dev/null; }
wait_for two
run_rc unshare -p -f --mount-proc lj-cyclic -q --explain -l 300 -i 1000
is "$rc" 0 "a second container's pid 1 records beside the first's and the host's"
grep -Eq "tracefs instance|setup journal|still recording" "$TMP/err"
ok $((!$?)) "...with no collision and no live instance called stale"
wait $host; rh=$?
wait $a; ra=$?
is "$rh $ra" "0 0" "the host's and the first container's runs succeed"
ok "$(grep -c "still recording" "$TMP/a.err")" "...the container's not calling the host's instance stale"
is "$(mine)" "" "no instance is left"
is "$(ls "$LJ_JOURNAL_DIR")" "" "no journal is left"

done_testing
