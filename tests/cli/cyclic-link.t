#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cyclic-link.t - lj-cyclic's links (docs/design.md, "Resident memory"): it does not link
# hwloc, libudev, libm, zlib or libmd; its topology comes from the helper lj-topology
# beside it, else from a child that loads hwloc itself (lj_dl), and a helper that is not
# this build's or that others could have written is not taken; --json still reads and
# hashes the kernel config through zlib and libmd loaded when first called.
. "$(dirname "$0")/lib.sh"

CYC="$LJ_BUILD/lj-cyclic"
HELPER="$LJ_BUILD/libexec/ljkit/lj-topology"
[ -x "$CYC" ] && [ -x "$HELPER" ] || skip_all "lj-cyclic or libexec/ljkit/lj-topology not built"
command -v readelf >/dev/null || skip_all "readelf not installed (binutils)"
plan 12
export LJ_RESULT_NO_SYSINFO=1

needed=$(readelf -d "$CYC" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
echo "$needed" | grep -Eq 'libhwloc|libudev|libm\.|libz\.|libmd\.'
ok $((!$?)) "lj-cyclic links none of hwloc, libudev, libm, zlib, libmd (NEEDED: $needed)"

# The others link them (weak references alone would let --as-needed drop them, and the
# package's Depends would miss them): the helper hwloc, lj-signal all three.
others="$(readelf -d "$HELPER" | grep -c 'NEEDED.*libhwloc'):$(readelf -d "$LJ_BUILD/lj-signal" |
	grep -Ec 'NEEDED.*(libhwloc|libz\.|libmd\.)')"
is "$others" "1:3" "the helper links hwloc, lj-signal hwloc, zlib and libmd"

run_rc "$HELPER"
is "$rc:$(($(wc -c <"$TMP/out") > 1000))" "0:1" "the helper alone writes a snapshot and exits 0"

if command -v strace >/dev/null; then
	strace -f -e trace=execve -o "$TMP/strace" "$CYC" -q -t 1 -i 1000 -l 10 >/dev/null 2>&1
	grep -q "execve(\"$HELPER\"" "$TMP/strace"
	ok $? "lj-cyclic runs the helper beside it"
else
	skip 1 "strace not installed"
fi

# A copy without the helper: the child loads hwloc itself.
mkdir -p "$TMP/alone"
cp "$CYC" "$TMP/alone/"
run_rc "$TMP/alone/lj-cyclic" -q -t 2 -i 1000 -l 20
is "$rc:$(grep -c '^T: [01] ' "$TMP/out")" "0:2" "without the helper: two threads measured, exit 0"
run_rc "$TMP/alone/lj-cyclic" -q -a 9999 -l 10
is "$rc" 2 "without the helper the topology still judges -a (CPU 9999: exit 2)"

# A helper of another build (what it writes is not this build's snapshot), and one others may write.
mkdir -p "$TMP/fake/libexec/ljkit"
cp "$CYC" "$TMP/fake/"
printf '#!/bin/sh\ntouch "%s/ran"\nhead -c 1000000 /dev/zero\n' "$TMP" >"$TMP/fake/libexec/ljkit/lj-topology"
chmod 755 "$TMP/fake/libexec/ljkit/lj-topology"
run_rc "$TMP/fake/lj-cyclic" -q -t 1 -i 1000 -l 10
is "$rc:$([ -e "$TMP/ran" ] && echo ran):$(grep -c '^T: 0 ' "$TMP/out")" "0:ran:1" \
	"a helper that writes something else: run, its output not taken, the run measures"
rm -f "$TMP/ran"
chmod 777 "$TMP/fake/libexec/ljkit/lj-topology"
run_rc "$TMP/fake/lj-cyclic" -q -t 1 -i 1000 -l 10
is "$rc:$([ -e "$TMP/ran" ] && echo ran)" "0:" "a helper others can write is not run"

# --json's identity: the kernel config read with zlib and hashed with libmd, loaded on demand.
unset LJ_RESULT_NO_SYSINFO
cfg=
if [ -r /proc/config.gz ]; then cfg=$(zcat /proc/config.gz | sha256sum | cut -d' ' -f1)
elif [ -r "/boot/config-$(uname -r)" ]; then cfg=$(sha256sum <"/boot/config-$(uname -r)" | cut -d' ' -f1); fi
# json_hash BIN FILE NAME: BIN's --json into FILE carries the config's hash.
json_hash() {
	run_rc "$1" -q -t 1 -i 1000 -l 10 --json "$2"
	if [ -n "$cfg" ]; then
		is "$rc:$(sed -n 's/.*"config_sha256": *"\([0-9a-f]\{64\}\)".*/\1/p' "$2" | head -1)" "0:$cfg" "$3"
	else
		skip 1 "no /proc/config.gz or /boot/config-$(uname -r) on this machine"
	fi
}
json_hash "$CYC" "$TMP/r.json" "--json: the kernel config's sha256, as sha256sum gives it"
json_hash "$TMP/alone/lj-cyclic" "$TMP/a.json" "--json without the helper: the same hash"
ident() { echo "$(grep -o '"cpu_model":"[^"]*"' "$1" | head -1 | cut -d'"' -f4)|$(grep -o '"cpus_online":"[^"]*"' "$1" | head -1 | cut -d'"' -f4)"; }
is "$(ident "$TMP/r.json" | grep -c '^[^|].*|[0-9]')" 1 "--json: the identity has the CPU model and online CPUs from the helper's topology"
is "$(ident "$TMP/a.json")" "$(ident "$TMP/r.json")" "and the child's are the same"
exit $((_tap_fail > 0))
