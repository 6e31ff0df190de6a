#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# matrix-cgroup.t - lj-matrix's cgroup axis on the machine's real cgroups
# (v1 or v2, as it has them): a cell of a group of its own runs there with
# its CPUs, and the matrix leaves no group, no journal and (v2) every
# cgroup.subtree_control on the way as it found them. make check-kernels
# runs it in guests of each cgroup profile.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/matrix-lib.sh"

[ -x "$LJ_BUILD/lj-matrix" ] && [ -x "$LJ_BUILD/lj-env" ] || skip_all "lj-matrix or lj-env not built"
require_real_cgroups "creating cgroups needs root"
export LJ_JOURNAL_DIR=$TMP/j
G=ljmx$$
system_lock
before=$(cg_state $G)

cat >"$TMP/m.scn" <<EOF
[matrix]
repeat = 2
cgroup = off, $G
cpus = 1
[workload cyclic]
command = lj-cyclic -l 100 -i 1000 -q
timeout = 60s
EOF
run_rc lj-matrix -o "$TMP/store" "$TMP/m.scn"
is "$rc" 0 "cgroup = off, $G on cgroup $CG_MODE: exit 0"
dir=$(cat "$TMP/out")
is "$(cells "$dir" | cut -d' ' -f2-)" "$(printf 'cgroup=off,cpus=1 done 2\ncgroup=%s,cpus=1 done 2' "$G")" \
	"both cells done, 2 runs each"
setup="$dir/cyclic/cgroup=$G,cpus=1/run-2.setup.json"
is "$(jq -r '[.setup.changes[] | select(.kind == "cgroup") | .path | endswith("/'"$G"'")] | all and length > 0' "$setup")" \
	true "the group's cell made its group (the setup record's changes)"
is "$(jq -r '.setup.applied[] | select(.what == "cpus") | .value' "$setup")" 1 "...with its CPU"
is "$(jq -r '.setup.fallbacks | length' "$setup")" 0 "...and no fallback: $(jq -c .setup.fallbacks "$setup")"
is "$(cg_state $G)" "$before" "after the matrix: no group of it left, every subtree_control as before"
ok "$(! compgen -G "$LJ_JOURNAL_DIR/journal.*" >/dev/null; echo $?)" "no journal left"
done_testing
