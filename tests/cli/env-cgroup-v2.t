#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# env-cgroup-v2.t - cgroup v2 as systemd manages it (marked as systemd marks it, on a machine booted without it): refused outside a delegated group, used inside one, everything back after.
. "$(dirname "$0")/lib.sh"

export LJ_JOURNAL_DIR=$TMP/j
[ -x "$LJ_BUILD/lj-env" ] || skip_all "lj-env not built"
is_root || skip_all "real cgroups need root"
command -v unshare >/dev/null || skip_all "no unshare"
cgroup_profile
[ "$CG_MODE" = v2 ] || skip_all "cgroup v2 only (this machine: ${CG_MODE:-$CG_WHY}); env-cgroup.t tests v1"
[ -z "$CG_REL" ] || skip_all "already inside a delegated group ($CG_REL): env-cgroup.t tests it"
[ -d /run/systemd/system ] && skip_all "systemd runs here: this test marks a group as systemd would, on a machine without it"
[ "$(nproc)" -ge 2 ] || skip_all "needs two CPUs"
DELEG=$LJ_BUILD/t/helpers/cgdelegate
[ -x "$DELEG" ] || skip_all "tests/helpers/cgdelegate not built"
G=ljs$$
D=$CG_V2/ljdeleg$$
system_lock

# as_systemd CMD...: CMD on a machine that looks systemd-managed (sd_booted: /run/systemd/system)
as_systemd() { unshare -m --propagation private sh -c 'mount -t tmpfs ljsd /run && mkdir -p /run/systemd/system && exec "$@"' sh "$@"; }
root_before=$(cat "$CG_V2/cgroup.subtree_control")

run_rc as_systemd lj-env --strict --cgroup $G --cpus 1 -- true
is "$rc" 77 "systemd, no delegated group, --strict: exit 77"
grep -q "managed by systemd.*run under systemd-run --scope -p Delegate=yes" "$TMP/err"
ok $? "...saying why, and how to run it"
is "$(wc -l <"$TMP/err")" 1 "...in one line"
run_rc as_systemd lj-env --cgroup $G -- sh -c 'cat /proc/self/cgroup'
ok "$([ "$rc" = 0 ] && grep -q "warning: --cgroup not applied" "$TMP/err" && echo 0 || echo 1)" "...without --strict: a warning, the command runs"
is "$(cat "$CG_V2/cgroup.subtree_control")" "$root_before" "the root's cgroup.subtree_control is not touched"
ok "$([ -e "$CG_V2/$G" ] && echo 1 || echo 0)" "...and no group made"
run_rc as_systemd lj-env --show
grep -q "^cgroup: .*managed by systemd, no group delegated to this process" "$TMP/out"; ok $? "--show says no group is delegated"

# A delegated group D, as systemd-run --scope -p Delegate=yes makes it:
# the root hands cpuset and cpu down to it, it is marked, the shell is in it.
mkdir "$D"
for c in cpuset cpu; do grep -qw $c "$CG_V2/cgroup.subtree_control" || echo +$c >"$CG_V2/cgroup.subtree_control"; done
"$DELEG" "$D" || skip_all "cannot mark $D delegated"
deleg_before=$(cat "$D/cgroup.subtree_control"; ls "$D")
in_scope() { (echo $BASHPID >"$D/cgroup.procs" && as_systemd "$@"); }

run_rc in_scope lj-env --show
grep -q "^cgroup: .*v2 groups made in $D\$" "$TMP/out"; ok $? "--show names the delegated group as the base"
# the scope's shell runs lj-env; the command prints its own group, the shell's, its cpuset
cat >"$TMP/scope.sh" <<EOF
lj-env --cgroup $G --cpus 1 -- sh -c 'cat /proc/self/cgroup "/proc/\$0/cgroup" "\$1/cpuset.cpus"' \$\$ "$D/$G"
EOF
run_rc in_scope sh "$TMP/scope.sh"
is "$rc" 0 "in a delegated group: the command runs"
sed -n 1p "$TMP/out" >"$TMP/cmd"
cg_member "$TMP/cmd" ljdeleg$$/$G; ok $? "...in NAME below the delegated group"
grep -q "^0::/ljdeleg$$/ljkit-leaf\.[0-9]*\$" "$TMP/out"; ok $? "...the scope's other process waiting in a leaf of the scope (v2: no process beside controllers)"
is "$(tail -n 1 "$TMP/out")" 1 "...on --cpus"
is "$(cat "$D/cgroup.subtree_control"; ls "$D")" "$deleg_before" "after: no group, no leaf, the scope's subtree_control as before"
[ "$rc" = 0 ] || diag "$(cat "$TMP/err")"

# SIGKILL in the delegated group, then --restore: every process back in the scope.
(echo $BASHPID >"$D/cgroup.procs" && exec unshare -m --propagation private sh -c \
	'mount -t tmpfs ljsd /run && mkdir -p /run/systemd/system && exec "$@"' sh \
	lj-env -q --cgroup $G --cgroup-depth 2 --cpus 1 -- sh -c 'echo $$ >"$0"; exec sleep 30' "$TMP/orphan") &
pid=$!
wait_for test -s "$TMP/orphan"
kill -KILL $pid
wait $pid 2>/dev/null
run_rc lj-env --restore
is "$rc" 0 "SIGKILL in a delegated group: --restore succeeds"
grep "^0::" "/proc/$(cat "$TMP/orphan")/cgroup" >"$TMP/ocg"
is "$(cat "$TMP/ocg")" "0::/ljdeleg$$" "...the orphan back in the delegated group, through the leaf"
is "$(cat "$D/cgroup.subtree_control"; ls "$D")" "$deleg_before" "...no group, no leaf, the scope's subtree_control as before"
kill "$(cat "$TMP/orphan")" 2>/dev/null

wait_for rmdir "$D"
for c in cpu cpuset; do echo "$root_before" | grep -qw $c || echo -$c >"$CG_V2/cgroup.subtree_control"; done
is "$(cat "$CG_V2/cgroup.subtree_control")" "$root_before" "(the test's own scope removed, the root as it was)"
done_testing
