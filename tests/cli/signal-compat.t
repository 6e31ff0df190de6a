#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# signal-compat.t - lj-signal and rt-tests' signaltest print the same T: lines for the same options.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cyclic-lib.sh"	# fw: printf field-width regexes

[ -x "$LJ_BUILD/lj-signal" ] || skip_all "lj-signal not built in $LJ_BUILD"
command -v signaltest >/dev/null || skip_all "signaltest (rt-tests) not installed"

# Reduce output to its line shapes; lj-signal's '#' comment lines are
# extras. A T: line that has signaltest's printf layout becomes "T-line":
# a value wider than its field (a 10 ms hop under load overflows Act:%5ld)
# loses its padding, so comparing the padding itself would compare the
# machine's noise. Any other line keeps its text with numbers as N.
shapes() {
	local re line

	re="^T:$(fw 2) \\($(fw 5)\\) P:$(fw 2) C:$(fw 7) Min:$(fw 7) Act:$(fw 5) Avg:$(fw 5) Max:$(fw 8)\$"
	grep -v '^#' "$1" | while IFS= read -r line; do
		if [[ $line =~ $re ]]; then
			echo "T-line"
		else
			sed -E 's/[0-9]+/N/g; s/ +/ /g' <<<"$line"
		fi
	done
}

# signaltest stops every thread once thread 0 has its count; on a loaded
# machine another thread may have none yet and print Max:-1000000. Such a
# run says nothing about the format, so one retry is allowed.
same() {
	local try

	for try in 1 2; do
		signaltest "$@" >"$TMP/st.out" 2>/dev/null
		lj-signal "$@" >"$TMP/lj.out" 2>/dev/null
		shapes "$TMP/st.out" >"$TMP/st.shapes"
		shapes "$TMP/lj.out" >"$TMP/lj.shapes"
		[ -s "$TMP/st.shapes" ] && cmp -s "$TMP/st.shapes" "$TMP/lj.shapes" && break
	done
	if [ -s "$TMP/st.shapes" ] && cmp -s "$TMP/st.shapes" "$TMP/lj.shapes"; then
		ok 0 "same lines as signaltest: $*"
	else
		ok 1 "same lines as signaltest: $*"
		diff "$TMP/st.shapes" "$TMP/lj.shapes" | head -10 | sed 's/^/#   /'
	fi
}

same -q -l 50
same -q -l 50 -t 3
same -q -l 50 -a 1
same -q -l 50 -t 4 -a
# signaltest takes "-a all" as its default placement (the word is no CPU list, so it is left
# over and ignored, as every operand): the same lines, exit 0, and the threads where -a puts them
same -q -l 50 -t 2 -a all
lj-signal -q -l 20 -t 2 -a all --json "$TMP/all.json" >/dev/null 2>&1 && lj-signal -q -l 20 -t 2 -a --json "$TMP/a.json" >/dev/null 2>&1
cpus_of() { python3 -c 'import json,sys; print([t.get("cpu") for t in json.load(open(sys.argv[1]))["results"]])' "$1"; }
is "$(cpus_of "$TMP/all.json" 2>&1)" "$(cpus_of "$TMP/a.json" 2>&1)" "-a all pins the threads as -a does"
same -q -l 50 -S
same -q -l 50 -t 4 -S
same -q -l 20 -b 1
same -q -l 20 -b 0
is "$(lj-signal -q -l 20 -b 1 >/dev/null 2>&1; echo $?)" \
	"$(signaltest -q -l 20 -b 1 >/dev/null 2>&1; echo $?)" "-b's exit status is signaltest's"
if is_root; then
	same -q -l 50 -m -p 80
else
	skip 1 "SCHED_FIFO comparison needs root"
fi

# Pacing without -l: a -D run makes about as many round trips per second
# as signaltest's (its pause of 10 ms every 16 round trips bounds both);
# unpaced, the ring would make tens of times more. The ratio is compared
# with a wide tolerance, the absolute rates are not.
# Under heavy load one of the two runs may be starved: up to three tries
# (an unpaced ring is 10-20 times faster on every try).
for try in 1 2 3; do
	signaltest -q -D 2 --json="$TMP/st.json" >/dev/null 2>&1
	lj-signal -q -D 2 --json="$TMP/lj.json" >/dev/null 2>&1
	ratio=$(python3 - "$TMP/st.json" "$TMP/lj.json" <<'PY'
import json, sys
st, lj = (json.load(open(f)) for f in sys.argv[1:3])
print("%.2f" % (lj["thread"]["0"]["cycles"] / max(st["thread"]["0"]["cycles"], 1)))
PY
)
	diag "round trips in -D 2: lj-signal / signaltest = ${ratio:-?}"
	python3 -c "import sys; r = float(sys.argv[1]); sys.exit(0 if 0.25 <= r <= 4 else 1)" "${ratio:-0}" && break
done
python3 -c "import sys; r = float(sys.argv[1]); sys.exit(0 if 0.25 <= r <= 4 else 1)" "${ratio:-0}"
ok $? "-D 2 without -l is paced like signaltest (round-trip ratio within 0.25..4)"

# Exact field layout on an equal line: rebuild signaltest's printf from lj-signal's values.
lj-signal -q -l 20 >"$TMP/lj.out" 2>/dev/null
bad=0
while read -r line; do
	set -- $(echo "$line" | sed -E 's/[^0-9]+/ /g')
	want=$(printf 'T:%2d (%5d) P:%2d C:%7d Min:%7d Act:%5d Avg:%5d Max:%8d' "$@")
	[ "$line" = "$want" ] || { bad=1; diag "got:  $line" "want: $want"; }
done < <(grep '^T:' "$TMP/lj.out")
ok $bad "T: field widths are signaltest's (T:%2d (%5d) P:%2d C:%7lu Min:%7ld Act:%5ld Avg:%5ld Max:%8ld)"

done_testing
