#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# full-output.t - a report that cannot be written is a failed run: every tool and script
# with its stdout on /dev/full exits 1 with one line saying so (none exits 0 with its report
# lost), a result document written beside it records the exit code 1, and the scripts'
# files on a full disk (a 64 KiB tmpfs in a private mount namespace) leave no temporary
# file or new directory behind.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/matrix-lib.sh"

[ -w /dev/full ] || skip_all "no /dev/full"
for t in cyclic signal hackbench frame env matrix compare; do
	[ -x "$LJ_BUILD/lj-$t" ] || skip_all "lj-$t not built in $LJ_BUILD"
done
export LJ_RESULT_NO_SYSINFO=1 LJ_JOURNAL_DIR=$TMP/journal

# full NAME CMD...: CMD with stdout on /dev/full exits 1, and its stderr has exactly one
# line that says the report could not be written.
full() {
	local name=$1
	shift
	"$@" >/dev/full 2>"$TMP/err"
	rc=$?
	is "$rc:$(grep -c 'cannot write the report to standard output' "$TMP/err")" "1:1" \
		"$name >/dev/full: exit 1, one line"
	[ "$rc" = 1 ] || diag "$(head -3 "$TMP/err")"
}

full "lj-cyclic -q" lj-cyclic -q -l 20 -i 1000 --json "$TMP/c.json"
is "$(jq -r .exit_code "$TMP/c.json" 2>/dev/null)" 1 "...and its result document records exit 1"
full "lj-cyclic" lj-cyclic -l 20 -i 1000
full "lj-cyclic --help" lj-cyclic --help
full "lj-signal" lj-signal -l 20
full "lj-hackbench" lj-hackbench -g 1 -l 10
full "lj-frame" lj-frame -D 0.2 --fake-work 1000 --stages 1
if [ -x "$LJ_BUILD/lj-oslat" ]; then
	full "lj-oslat" lj-oslat -D 0.2
else
	skip 1 "lj-oslat not built"
fi
full "lj-env --show --json" lj-env --show --json
full "lj-env --show" lj-env --show
full "lj-env --restore" lj-env --restore
full "lj-matrix -n" lj-matrix -n "$LJ_SRC/scenarios/quick.scn"
full "lj-compare" lj-compare "$FIX/base" "$FIX/shifted"
full "lj-compare --validate" lj-compare --validate "$FIX/base/cyclic/cgroup=off/run-1.json"
full "lj-report -o -" "$LJ_SRC/scripts/lj-report" -o - --no-plots "$FIX/base"
if command -v gnuplot >/dev/null; then
	full "lj-plot" "$LJ_SRC/scripts/lj-plot" -o "$TMP/plots" hist "$FIX/base"
else
	skip 1 "gnuplot not installed"
fi

# lj-regress: its table is lj-compare's, its own words go to stderr.
cat >"$TMP/r.scn" <<EOF
[matrix]
repeat = 2
[workload fake]
command = $FAKE --value \$((100 + LJ_MATRIX_RUN))
EOF
lj-matrix -q -o "$TMP/store" -t base "$TMP/r.scn" >/dev/null 2>&1
full "lj-matrix --find-tag" lj-matrix -o "$TMP/store" --find-tag base
full "lj-regress" "$LJ_SRC/scripts/lj-regress" -b base -o "$TMP/store" -t new "$TMP/r.scn"

# A full disk: lj-report -o FILE leaves no FILE.tmp, lj-plot no new -o directory.
if is_root && unshare -m true 2>/dev/null; then
	mkdir "$TMP/full"
	unshare -m --propagation private bash -c '
		mount -t tmpfs -o size=64k,nr_inodes=64 tmpfs "$1" || exit 77
		dd if=/dev/zero of="$1/filler" bs=4k count=64 2>/dev/null
		"$2/scripts/lj-report" -o "$1/r.html" --no-plots "$3/base" "$3/shifted" >/dev/null 2>"$1/../report.err"
		echo "report $?" >"$1/../rc"
		if command -v gnuplot >/dev/null; then
			"$2/scripts/lj-plot" -o "$1/plots" hist "$3/base" >/dev/null 2>"$1/../plot.err"
			echo "plot $?" >>"$1/../rc"
		fi
		ls -A "$1" >"$1/../left"
		umount "$1"' _ "$TMP/full" "$LJ_SRC" "$FIX"
	if [ $? -eq 77 ]; then
		skip 3 "cannot mount a tmpfs"
	else
		grep -q '^report 1$' "$TMP/rc" && [ "$(grep -c . "$TMP/report.err")" = 1 ]
		ok $? "lj-report -o on a full disk: exit 1, one line ($(head -c 100 "$TMP/report.err"))"
		is "$(cat "$TMP/left" | tr '\n' ' ')" "filler " "...and no temporary file is left, nor lj-plot's new -o directory"
		if command -v gnuplot >/dev/null; then
			grep -q '^plot 1$' "$TMP/rc"
			ok $? "lj-plot -o on a full disk: exit 1 ($(head -c 100 "$TMP/plot.err"))"
		else
			skip 1 "gnuplot not installed"
		fi
	fi
else
	skip 3 "needs root and mount namespaces for a full tmpfs"
fi

done_testing
