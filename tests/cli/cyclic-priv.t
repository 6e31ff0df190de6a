#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cyclic-priv.t - lj-cyclic with and without privilege: SCHED_FIFO, mlockall, one warning, --strict.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cyclic-lib.sh"

[ -x "$LJ_BUILD/lj-cyclic" ] || skip_all "lj-cyclic not built in $LJ_BUILD"
export LJ_RESULT_NO_SYSINFO=1

json_has() {	# json_has FILE PYTHON-EXPR: the expression over d (the document) is true
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"
}

if is_root; then
	run_rc lj-cyclic -q -l 200 -i 1000 -m -p 90 -t 2 --json "$TMP/root.json"
	is "$rc" 0 "root: -m -p 90 runs"
	is "$(grep -c '^T: [01] ([ 0-9]*) P:90 ' "$TMP/out")" 2 "root: both threads report P:90"
	ok $(grep -c 'warning' "$TMP/err") "root: no fallback warning"
	if have_python; then
		json_has "$TMP/root.json" 'all(t["policy"] == "fifo" and t["priority"] == 90 for t in d["results"]) and not any(f["what"] == "sched" or (f["what"] == "mlockall" and "sanitizer" not in f["reason"]) for f in d["setup"]["fallbacks"])'
		ok $? "root: JSON records fifo 90 and no sched/mlockall fallback (mlockall skipped under ASan)"
	else
		skip 1 "python3 not installed"
	fi
	# No page fault while measuring: the per-thread fault counts from just
	# before the first wake-up to after the last, with -m's lock on fault.
	if ! have_python; then
		skip 2 "python3 not installed"
	elif [ "${LJ_SANITIZE:-0}" = 1 ]; then
		skip 2 "a sanitizer build does not lock memory"
	else
		json_has "$TMP/root.json" 'any(a["what"] == "mlockall" and "on fault" in a["value"] for a in d["setup"]["applied"])'
		ok $? "root: -m locks on fault and records it in setup.applied"
		json_has "$TMP/root.json" 'len(d["side"]["threads"]) == 2 and all(t["minflt_measuring"] == 0 and t["majflt_measuring"] == 0 for t in d["side"]["threads"])'
		ok $? "root: -m: no page fault in either thread while measuring (side.threads[].minflt_measuring)"
	fi
	run_rc lj-cyclic -q -l 100 -i 1000 -p 80 -t 2 --priospread
	ok $(( $(grep -c '^T: 0 .* P:80 ' "$TMP/out") != 1 || $(grep -c '^T: 1 .* P:79 ' "$TMP/out") != 1 )) \
		"root: --priospread gives 80 then 79"
	# -b with --tracemark: in the run's own tracefs instance (a private
	# mount of tracefs), which is kept, stopped at the mark, for the user.
	if unshare -m true 2>/dev/null; then
		unshare -m bash -c '
			mount -t tracefs nodev /sys/kernel/tracing || exit 77
			out=$("$1" -q -l 100 -i 1000 -b 1 --tracemark 2>&1 >/dev/null)
			dir=$(printf "%s\n" "$out" | sed -n "s/^## trace stopped at the break, kept in \(.*\) (rmdir.*/\1/p")
			[ -d "$dir" ] || exit 1
			grep -q "hit latency threshold" "$dir/trace" && [ "$(cat "$dir/tracing_on")" = 0 ]
			rc=$?
			rmdir "$dir"
			exit $rc' _ "$LJ_BUILD/lj-cyclic"
		rc=$?
		if [ $rc -eq 77 ]; then skip 1 "cannot mount tracefs"; else ok $rc "--tracemark marks its own trace instance and stops it when -b fires"; fi
	else
		skip 1 "no mount namespaces"
	fi
	# Drop privilege for the fallback cases.
	chmod 711 "$TMP"
	mkdir -m 777 "$TMP/pub"
	unpriv() { setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; }
	command -v setpriv >/dev/null || unpriv() { return 77; }
else
	skip 8 "needs root"
	mkdir -p "$TMP/pub"
	unpriv() { "$@"; }
fi

# Without privilege: fall back, warn once, record it; --strict exits 77.
(cd "$TMP/pub" && unpriv "$LJ_BUILD/lj-cyclic" -q -l 100 -i 1000 -m -p 90 --json "$TMP/pub/user.json") \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
if [ "$rc" -eq 77 ] && ! [ -s "$TMP/err" ]; then
	skip 5 "cannot drop privilege (no setpriv)"
else
	is "$rc:$(grep -c '^T: 0 ' "$TMP/out")" 1:1 "unprivileged -m -p 90 measures, then exits 1 as cyclictest (the policy rule)"
	is "$(grep -c 'lj-cyclic: warning: measuring with fallbacks' "$TMP/err")" 1 "one warning names the fallbacks"
	grep -q '^T: 0 ([ 0-9]*) P: 0 ' "$TMP/out"
	ok $? "the T: line shows the priority actually used (0)"
	if have_python; then
		json_has "$TMP/pub/user.json" 'any(f["what"] == "sched" for f in d["setup"]["fallbacks"]) and d["results"][0]["policy"] == "other"'
		ok $? "JSON records the SCHED_OTHER fallback"
	else
		skip 1 "python3 not installed"
	fi
	(cd "$TMP/pub" && unpriv "$LJ_BUILD/lj-cyclic" -q -l 100 -i 1000 -p 90 --strict) >"$TMP/out" 2>"$TMP/err"
	is "$?" 77 "--strict without privilege exits 77"
fi

done_testing
