#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# calls.t - no two files call each other (docs/architecture.md): from nm of the built
# objects, which file's undefined symbols another file defines, within common/ and
# within each tool; a pair of files that each use the other is a failure.
. "$(dirname "$0")/lib.sh"

command -v nm >/dev/null || skip_all "nm (binutils) not installed"
ls "$LJ_BUILD"/common/*/*.o >/dev/null 2>&1 || skip_all "no objects under $LJ_BUILD/common"

# pairs OBJECT...: "A <-> B: symbols A uses from B / symbols B uses from A", one line
# per pair of the objects given that use each other; paths relative to $LJ_BUILD.
pairs() {
	local defs=$TMP/defs refs=$TMP/refs o
	: >"$defs"
	: >"$refs"
	for o in "$@"; do
		nm --defined-only "$o" | awk -v f="${o#"$LJ_BUILD"/}" 'NF == 3 && $2 ~ /^[A-Z]$/ { print $3 "\t" f }' >>"$defs"
		nm --undefined-only "$o" | awk -v f="${o#"$LJ_BUILD"/}" '{ print $NF "\t" f }' >>"$refs"
	done
	# user <TAB> definer <TAB> symbol, then the pairs whose edge goes both ways
	join -t "$(printf '\t')" <(sort "$refs") <(sort "$defs") |
	awk -F'\t' '$2 != $3 { print $2 "\t" $3 "\t" $1 }' |
	awk -F'\t' '
		{ k = $1 "\t" $2; uses[k] = uses[k] (uses[k] == "" ? "" : " ") $3 }
		END {
			for (k in uses) {
				split(k, ab, "\t")
				back = ab[2] "\t" ab[1]
				if ((back in uses) && ab[1] < ab[2])
					print ab[1] " <-> " ab[2] ": " uses[k] " / " uses[back]
			}
		}' | sort
}

pairs "$LJ_BUILD"/common/*/*.o >"$TMP/common"
is "$(wc -l <"$TMP/common")" 0 "no two files of common/ call each other"
[ -s "$TMP/common" ] && diag "$(cat "$TMP/common")"

: >"$TMP/tools"
n=0
for d in "$LJ_BUILD"/tools/*/; do
	ls "$d"*.o >/dev/null 2>&1 || continue
	n=$((n + 1))
	pairs "$d"*.o >>"$TMP/tools"
done
[ "$n" -gt 0 ]
ok $? "the objects of $n tools were read"
is "$(wc -l <"$TMP/tools")" 0 "no two files of one tool call each other"
[ -s "$TMP/tools" ] && diag "$(cat "$TMP/tools")"

# The check can fail: two files that call each other are named, with the symbols.
if command -v cc >/dev/null; then
	mkdir -p "$TMP/pair"
	printf 'int b(int);\nint a(int x) { return x ? b(x - 1) : 0; }\n' >"$TMP/pair/a.c"
	printf 'int a(int);\nint b(int x) { return x ? a(x - 1) : 1; }\n' >"$TMP/pair/b.c"
	printf 'int a(int);\nint c(void) { return a(3); }\n' >"$TMP/pair/c.c"
	for f in a b c; do cc -c -o "$TMP/pair/$f.o" "$TMP/pair/$f.c"; done
	LJ_BUILD=$TMP/pair pairs "$TMP/pair"/*.o >"$TMP/bad"
	is "$(cat "$TMP/bad")" "a.o <-> b.o: b / a" "two files calling each other are found, with the symbols (a file calling one way is not)"
else
	skip 1 "no C compiler to build the counter-example"
fi

done_testing
