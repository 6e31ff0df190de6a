#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# man-completion.t - the generated man pages render without groff warnings and list every
# option --help lists; the generated bash completion offers each tool's options and the
# fixed value sets; make install puts both where man and bash-completion look; --version.
. "$(dirname "$0")/lib.sh"

tools=$(cd "$LJ_BUILD" && ls lj-* | grep -v '\.')
ntools=$(echo "$tools" | wc -w)
scripts=$(cd "$LJ_SRC/scripts" && ls lj-*)
nscripts=$(echo "$scripts" | wc -w)
plan $((ntools * 5 + nscripts * 2 + 11))
version=$(sed -n 's/^VERSION *:= *//p' "$LJ_SRC/GNUmakefile")

# The long options of TOOL's --help, one per line.
help_longs_script() {
	"$LJ_SRC/scripts/$1" --help | grep -E '^ +(-., )?--[a-z]' | grep -o -- '^ *\(-., \)\?--[a-z][a-z0-9_-]*' |
		grep -o -- '--[a-z][a-z0-9_-]*' | { cat; echo --help; } | sort -u
}
help_longs() {
	"$LJ_BUILD/$1" --help | grep -E '^ +(-., )?--[a-z]' | grep -o -- '--[a-z][a-z0-9_-]*' | sort -u
}

for t in $tools; do
	is "$("$LJ_BUILD/$t" --version)" "$t (ljkit) $version" "$t --version"
	page="$LJ_BUILD/man/$t.1"
	if command -v groff >/dev/null; then
		warn=$(LC_ALL=C.UTF-8 groff -ww -z -man "$page" 2>&1)
		is "$?:$warn" "0:" "$t.1 renders without groff warnings"
	else
		skip 1 "groff not installed"
	fi
	missing=
	for o in $(help_longs "$t"); do
		grep -qF -- "$(printf '%s' "$o" | sed 's/-/\\-/g')" "$page" || missing="$missing $o"
	done
	is "$missing" "" "$t.1 documents every option --help lists"
	heads=$(grep -c '^\.SH \(NAME\|SYNOPSIS\|DESCRIPTION\|OPTIONS\|EXIT STATUS\|SEE ALSO\)$' "$page")
	is "$heads" 6 "$t.1 has NAME, SYNOPSIS, DESCRIPTION, OPTIONS, EXIT STATUS, SEE ALSO"
	# Completion of "--" in a fresh bash: every long option of --help (plus --help).
	got=$(bash -c '. "$1"; COMP_WORDS=("$2" --); COMP_CWORD=1; _ljkit "$2"; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$LJ_BUILD/completion/ljkit" "$t" | sort -u)
	is "$got" "$(help_longs "$t")" "completion offers $t's long options"
done

# The scripts' pages and completion come from their --help (scripts/help-dump).
for t in $scripts; do
	page="$LJ_BUILD/man/$t.1"
	if command -v groff >/dev/null; then
		warn=$(LC_ALL=C.UTF-8 groff -ww -z -man "$page" 2>&1)
		is "$?:$warn" "0:" "$t.1 renders without groff warnings"
	else
		skip 1 "groff not installed"
	fi
	got=$(bash -c '. "$1"; COMP_WORDS=("$2" --); COMP_CWORD=1; _ljkit "$2"; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$LJ_BUILD/completion/ljkit" "$t" | sort -u)
	is "$got" "$(help_longs_script "$t")" "completion offers $t's long options"
done

# complete WORDS...: what the completion offers for the last word.
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ljkit "$1"; echo "${COMPREPLY[*]}"' \
		_ "$LJ_BUILD/completion/ljkit" "$@"
}
is "$(complete_words lj-cyclic --policy '')" "other normal batch idle fifo rr" "--policy's values"
is "$(complete_words lj-cyclic --catch-up '')" "skip burst" "--catch-up's values"
is "$(complete_words lj-hackbench --transport p)" "pipe" "--transport's values"
is "$(complete_words lj-compare --format = c)" "csv" "--format=VALUE"
is "$(complete_words lj-env --preempt '')" "none voluntary full lazy" "a setup option's values"
cpus=$(cat /sys/devices/system/cpu/online)
first=${cpus%%[-,]*}
complete_words lj-cyclic --cpus '' | grep -qw -- "$first"
ok $? "--cpus offers the online CPU numbers"
touch "$TMP/result-one.json"
is "$(complete_words lj-cyclic --json "$TMP/result-o")" "$TMP/result-one.json" "--json completes file names"
mkdir -p "$TMP/scn" && touch "$TMP/scn/tiny.scn"
is "$(LJ_SCENARIO_DIR=$TMP/scn complete_words lj-matrix ti)" "tiny" "lj-matrix completes scenario names"

# make install: the pages under share/man/man1, the completion under each tool's name.
make -s -C "$LJ_SRC" BUILD="$LJ_BUILD" DESTDIR="$TMP/root" PREFIX=/usr install >"$TMP/inst.log" 2>&1
ok $? "make install"
n=$(ls "$TMP/root/usr/share/man/man1" | grep -c '\.1$')
is "$n" "$((ntools + nscripts))" "make install puts one man page per tool and script"
[ "$(readlink "$TMP/root/usr/share/bash-completion/completions/lj-cyclic")" = ljkit ] &&
	[ -s "$TMP/root/usr/share/bash-completion/completions/ljkit" ]
ok $? "make install puts the completion where bash-completion loads it by name"
exit $((_tap_fail > 0))
