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
	# On stderr, so that prove shows why (and the run's text with it).
	[ -s "$TMP/why" ] && { sed 's/^/#   /' "$TMP/why"; sed 's/^/#   text: /' "$TMP/text"; } >&2
	lj-compare --validate "$TMP/out.json" >/dev/null 2>"$TMP/why"
	ok $? "$name: still a valid ljkit-result/1 document"
}

# The checker itself, on rt-tests' own files: it must accept the peer's
# output. cyclictest writes its JSON while a thread may still add a
# sample, so under load its file can lag its own T: line by one wake-up:
# up to three tries.
peer() {	# peer KIND NAME CMD...
	local kind=$1 name=$2 try
	shift 2
	for try in 1 2 3; do
		"$@" >"$TMP/peer.txt" 2>/dev/null
		python3 "$RTKEYS" "$kind" "$TMP/peer.json" "$TMP/peer.txt" >/dev/null 2>&1 && break
	done
	python3 "$RTKEYS" "$kind" "$TMP/peer.json" "$TMP/peer.txt" >/dev/null
	ok $? "$name"
}
if command -v cyclictest >/dev/null && cyclictest -q -l 1 >/dev/null 2>&1; then
	peer cyclic "rtkeys.py reads cyclictest's own --json and T: lines" \
		cyclictest -q -l 50 -t 2 --json="$TMP/peer.json"
	peer cyclic "rtkeys.py reads cyclictest's own -h histogram and its latency rows" \
		cyclictest -q -l 50 -t 2 -h 400 --json="$TMP/peer.json"
	peer signal "rtkeys.py reads signaltest's own --json and T: lines" \
		signaltest -q -l 50 --json="$TMP/peer.json"
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
farm cyclic "lj-cyclic -q -t 2 -a all -D 1 -m" 0 \
	lj-cyclic -q -t 2 -a all -D 1 -m --json="$TMP/out.json"
farm signal "lj-signal -q -D 1 -a -m -p 98 -t 2" 0 \
	lj-signal -q -D 1 -a -m -p 98 -t 2 --json="$TMP/out.json"
farm cyclic "lj-cyclic -q -l 100 -t 2 -h 400" 0 \
	lj-cyclic -q -l 100 -t 2 -h 400 --json="$TMP/out.json"
farm cyclic "lj-cyclic -q -l 100 -N" 0 \
	lj-cyclic -q -l 100 -N --json="$TMP/out.json"
farm signal "lj-signal -q -l 100 -t 3" 0 \
	lj-signal -q -l 100 -t 3 --json="$TMP/out.json"
farm hackbench "lj-hackbench -g 2 -l 10" 0 \
	lj-hackbench -g 2 -l 10 --json="$TMP/out.json"

# hackbench's options as one quoted word, as a farm script passes them.
farm hackbench 'lj-hackbench "-s 100 -l 100 -g 10 -f 20"' 0 \
	lj-hackbench "-s 100 -l 10 -g 2 -f 20" --json="$TMP/out.json"
grep -q "one argument holding several options" "$TMP/err"
ok $? "the split word is named in a warning"
grep -q '^Each sender will pass 10 messages of 100 bytes$' "$TMP/text" &&
	grep -q 'with 2 groups using 40 file descriptors' "$TMP/text"
ok $? "every option in the word took effect (-l 10, -g 2, -f 20)"
python3 - "$TMP/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["params"]["groups"] == 2 and d["params"]["loops"] == 10 and d["params"]["fds"] == 20, d["params"]
PY
ok $? "the JSON's params are the split word's"

# A -b break: signaltest's exit status 0 in return_code, the T: lines still read.
farm signal "lj-signal -q -l 50 -b 1ns" 0 lj-signal -q -l 50 -b 1ns --json="$TMP/out.json"

# A histogram as cyclictest writes it: bucket -> count, -h's buckets exactly
# (a loaded machine can make a wake-up later than -h's range: ljkit's
# results[0].h_overflows counts those).
lj-cyclic -q -l 200 -h 100000 --json="$TMP/h.json" >/dev/null 2>&1
python3 - "$TMP/h.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["thread"]["0"]
assert sum(t["histogram"].values()) + d["results"][0]["h_overflows"] == t["cycles"] == 200, t
PY
ok $? "thread.0.histogram counts every cycle inside -h's range, h_overflows the rest"

done_testing
