#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rt-json.t - board-farm command lines: rt-tests' --json keys, read as their
# consumers read them (tests/cli/rtkeys.py), agree with the run's T: lines,
# and the same file is still a valid ljkit-result/1 document.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || skip_all "python3 not installed"
RTKEYS="$LJ_SRC/tests/cli/rtkeys.py"

# farm KIND NAME CODE CMD...: run CMD (its --json goes to $TMP/out.json),
# then check the document with rtkeys.py and lj-compare --validate.
farm() {
	local kind=$1 name=$2 code=$3
	shift 3
	rm -f "$TMP/out.json"
	"$@" >"$TMP/text" 2>"$TMP/err"
	is "$?" "$code" "$name: exit $code"
	python3 "$RTKEYS" "$kind" "$TMP/out.json" "$TMP/text" "$code" 2>"$TMP/why" >/dev/null
	ok $? "$name: rt-tests' keys agree with the text lines"
	[ -s "$TMP/why" ] && sed 's/^/#   /' "$TMP/why"
	lj-compare --validate "$TMP/out.json" >/dev/null 2>"$TMP/why"
	ok $? "$name: still a valid ljkit-result/1 document"
}

# The checker itself, on rt-tests' own files: it must accept the peer's output.
if command -v cyclictest >/dev/null && cyclictest -q -l 1 >/dev/null 2>&1; then
	cyclictest -q -l 50 -t 2 --json="$TMP/ct.json" >"$TMP/ct.txt" 2>/dev/null
	python3 "$RTKEYS" cyclic "$TMP/ct.json" "$TMP/ct.txt" >/dev/null
	ok $? "rtkeys.py reads cyclictest's own --json and T: lines"
	cyclictest -q -l 50 -t 2 -h 400 --json="$TMP/ct.json" >"$TMP/ct.txt" 2>/dev/null
	python3 "$RTKEYS" cyclic "$TMP/ct.json" "$TMP/ct.txt" >/dev/null
	ok $? "rtkeys.py reads cyclictest's own -h histogram and its latency rows"
	signaltest -q -l 50 --json="$TMP/st.json" >"$TMP/st.txt" 2>/dev/null
	python3 "$RTKEYS" signal "$TMP/st.json" "$TMP/st.txt" >/dev/null
	ok $? "rtkeys.py reads signaltest's own --json and T: lines"
else
	skip 3 "cyclictest (rt-tests) not installed or not runnable"
fi

# ... and it must refuse a document whose numbers are not the text's.
lj-cyclic -q -l 20 --json="$TMP/one.json" >"$TMP/one.txt" 2>/dev/null
python3 - "$TMP/one.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["thread"]["0"]["max"] += 1
json.dump(d, open(sys.argv[1], "w"))
PY
python3 "$RTKEYS" cyclic "$TMP/one.json" "$TMP/one.txt" 2>/dev/null
ok $((! $?)) "rtkeys.py refuses a max that is not the T: line's"

farm cyclic "lj-cyclic -q -p 98 -i 1000 -t 1 -a 0 -D 1 -m" 0 \
	lj-cyclic -q -p 98 -i 1000 -t 1 -a 0 -D 1 -m --json="$TMP/out.json"
farm cyclic "lj-cyclic -q -l 100 -t 2 -h 400" 0 \
	lj-cyclic -q -l 100 -t 2 -h 400 --json="$TMP/out.json"
farm cyclic "lj-cyclic -q -l 100 -N" 0 \
	lj-cyclic -q -l 100 -N --json="$TMP/out.json"
farm signal "lj-signal -q -l 100 -t 3" 0 \
	lj-signal -q -l 100 -t 3 --json="$TMP/out.json"
farm hackbench "lj-hackbench -g 2 -l 10" 0 \
	lj-hackbench -g 2 -l 10 --json="$TMP/out.json"

# A histogram as cyclictest writes it: bucket -> count, -h's buckets exactly.
lj-cyclic -q -l 200 -h 100000 --json="$TMP/h.json" >/dev/null 2>&1
python3 - "$TMP/h.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["thread"]["0"]
assert sum(t["histogram"].values()) == t["cycles"] == 200, t
PY
ok $? "thread.0.histogram counts every cycle of a run inside -h's range"

done_testing
