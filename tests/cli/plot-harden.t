#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# plot-harden.t - scripts/lj-plot against hostile results and places: values from files are
# data (never gnuplot commands), inputs are bounded regular files, exit codes stay 0/1/2,
# -o DIR is created only for a figure, a failed figure leaves nothing, and a link planted
# by another user in a shared -o directory is not written through.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/matrix-lib.sh"

command -v gnuplot >/dev/null || skip_all "gnuplot not installed"
command -v jq >/dev/null || skip_all "jq not installed"
PLOT="$LJ_SRC/scripts/lj-plot"
RAMP="$LJ_SRC/tests/fixtures/compare/plot/ramp.json"
RUN1="$FIX/base/cyclic/cgroup=off/run-1.json"

# --- a value with a newline cannot run a gnuplot command (system() runs a shell)
jq --arg v $'100\nsystem("touch '"$TMP"'/pwned-ramp")' '.results[0].max_work = $v' "$RAMP" >"$TMP/ramp.json"
run_rc "$PLOT" -o "$TMP/p" ramp "$TMP/ramp.json"
[ ! -e "$TMP/pwned-ramp" ]
ok $? "ramp: a max_work with a newline and system() ran nothing"
is "$rc" 2 "ramp: a max_work that is not a number is bad input"
label=$(printf "t'\nsystem(\"touch %s/pwned-label\")\n#" "$TMP")
jq --arg v "$label" '.results[0].name = $v' "$RUN1" >"$TMP/label.json"
run_rc "$PLOT" -o "$TMP/p" hist "$TMP/label.json"
[ ! -e "$TMP/pwned-label" ]
ok $? "hist: a label with a quote, a newline and system() ran nothing"
is "$rc" 0 "hist: the figure is still drawn (the label shown with ?)"

# --- exit codes: a malformed document is an error in one line, never perl's 255
cp -r "$FIX/base" "$TMP/arr"
jq '.summary = [1, 2]' "$RUN1" >"$TMP/arr/cyclic/cgroup=off/run-1.json"
run_rc "$PLOT" -o "$TMP/p" box -m mean "$TMP/arr"
[ "$rc" = 1 ] || [ "$rc" = 2 ]
ok $? "box over a result whose summary is an array: exit 1 or 2, not 255 (got $rc)"
is "$(wc -l <"$TMP/err")" 1 "...with one line on stderr"

# --- -o DIR is created only when there is a figure to put in it
run_rc "$PLOT" -o "$TMP/newdir" hist "$TMP/nonexistent.json"
is "$rc" 2 "a missing input: exit 2"
[ ! -e "$TMP/newdir" ]
ok $? "...and -o DIR was not created"

# --- a failed figure leaves no file behind
printf 't_s,frames,dropped,fps\nx,y,z,w\n' >"$TMP/bad.csv"
run_rc "$PLOT" -o "$TMP/q" timeline "$TMP/bad.csv"
is "$rc" 1 "gnuplot fails on a timeline without data: exit 1"
[ -z "$(ls -A "$TMP/q" 2>/dev/null)" ]
ok $? "...and no partial figure is left in -o"

# --- bounded inputs: no FIFO, device or oversized file is read
run_rc timeout 20 "$PLOT" -o "$TMP/p" hist /dev/zero
is "$rc" 2 "hist /dev/zero: exit 2 at once"
grep -q "not a regular file" "$TMP/err"
ok $? "...saying it is not a regular file"
mkfifo "$TMP/fifo.json"
run_rc timeout 20 "$PLOT" -o "$TMP/p" ramp "$TMP/fifo.json"
is "$rc" 2 "a FIFO as input: exit 2 without waiting for a writer"
truncate -s 65M "$TMP/huge.json"
run_rc timeout 60 "$PLOT" -o "$TMP/p" ramp "$TMP/huge.json"
is "$rc" 2 "a 65 MiB result: exit 2"
grep -q "larger than 67108864 bytes" "$TMP/err"
ok $? "...saying the limit"

# --- a manifest's run file outside its run directory is not read
mkdir -p "$TMP/esc" && cp "$RUN1" "$TMP/outside.json"
jq '.cells[0].runs = [.cells[0].runs[0] | .file = "../outside.json"]' "$FIX/base/manifest.json" \
	>"$TMP/esc/manifest.json"
run_rc "$PLOT" -o "$TMP/escp" hist "$TMP/esc"
grep -q "run file '../outside.json' is outside the run directory, skipped" "$TMP/err" && [ ! -e "$TMP/escp" ]
ok $? "a run file with .. in the manifest is skipped, no figure drawn from it"

# --- a link planted by another user in a shared -o directory is not followed
if is_root && command -v useradd >/dev/null && command -v setpriv >/dev/null; then
	user="ljplot$$"
	if useradd -M -N -s /usr/sbin/nologin "$user" 2>/dev/null; then
		mkdir "$TMP/shared" && chmod 1777 "$TMP/shared" && chmod 0755 "$TMP"
		echo "precious" >"$TMP/victim" && chmod 0644 "$TMP/victim"
		setpriv --reuid="$user" --regid="$(id -g "$user")" --clear-groups \
			ln -s "$TMP/victim" "$TMP/shared/hist-run-1.png"
		ok $? "(the other user planted a link in the shared directory)"
		run_rc "$PLOT" -o "$TMP/shared" hist "$RUN1"
		is "$(cat "$TMP/victim")" "precious" "root's lj-plot did not write through the planted link"
		is "$rc" 1 "...it refused the figure (exit 1)"
		grep -q "exists and is not a regular file: not replaced" "$TMP/err"
		ok $? "...saying why"
		userdel "$user" 2>/dev/null
	else
		skip 4 "useradd failed: no unprivileged user to plant the link"
	fi
else
	skip 4 "needs root, useradd and setpriv to act as another user"
fi

# --- memory: a large input is walked, not built into a tree (JSON::PP's took 10 to 45 times the
# input: 0.6-2.9 GB for 64 MiB). lj-plot alone (gnuplot stubbed: it has its own memory) stays
# within 4 times the input and 24 MiB of perl; with the tree it took 31 times a 6 MiB result, 0.2 GB.
if [ -x /usr/bin/time ]; then
	mkdir -p "$TMP/stub"
	printf '#!/bin/sh\nf=$(sed -n "s/^set output .\\(.*\\).$/\\1/p" "$1"); echo x >"$f"\n' >"$TMP/stub/gnuplot"
	chmod +x "$TMP/stub/gnuplot"
	perl -e 'print "{\"tool\":\"lj-cyclic\",\"results\":[{\"thread\":0,\"latency\":{\"histogram\":[",
		join(",", map { "[$_,7]" } 1 .. 200000), "]}}],\"side\":{\"pad\":[", join(",", map { "[$_,$_]" } 1 .. 75000), "]}}"' >"$TMP/big.json"
	perl -e 'print "t_s,phase,frames,dropped,fps,cpu0_khz,cpu1_khz\n";
		printf "%.1f,cpus=%d,6,0,59.9,%d,%d\n", $_ / 10, ($_ / 50) % 3, 1800000 + $_ % 7, 1800000 + $_ % 7 for 0 .. 75000' >"$TMP/big.csv"
	for input in "hist $TMP/big.json" "timeline $TMP/big.csv"; do
		set -- $input
		PATH=$TMP/stub:$PATH /usr/bin/time -f '%M' "$PLOT" -o "$TMP/mem" "$@" >/dev/null 2>"$TMP/time"
		kib=$(tail -1 "$TMP/time")
		limit=$(( $(stat -c %s "$2") * 4 / 1024 + 24 * 1024 ))
		ok $(( ${kib:-999999999} > limit )) "$1 of a $(( $(stat -c %s "$2") / 1024 )) KiB input: $kib KiB at most (limit $limit KiB)"
	done
else
	skip 2 "no /usr/bin/time"
fi
jq '.results[0].histogram = [[2000, 1], [1000, 1]]' "$RUN1" >"$TMP/desc.json" 2>/dev/null ||
	printf '{"results":[{"histogram":[[2000,1],[1000,1]]}]}' >"$TMP/desc.json"
run_rc "$PLOT" -o "$TMP/p" hist "$TMP/desc.json"
is "$rc" 2 "histogram buckets not ascending (not an ljkit histogram): bad input"

done_testing
