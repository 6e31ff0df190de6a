#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# man-completion.t - the generated man pages render without groff warnings and list every
# option --help lists; the generated bash completion offers each tool's options and the
# fixed value sets; make install puts both where man and bash-completion look; --version.
# Each measuring tool's page lists the exit codes it can return (3 only with a threshold),
# its ENVIRONMENT; lj-frame's its FILES; the file formats have section-5 pages; every
# documentation path a page names is installed.
. "$(dirname "$0")/lib.sh"

tools=$(cd "$LJ_BUILD" && ls lj-* | grep -v '\.')
ntools=$(echo "$tools" | wc -w)
scripts=$(cd "$LJ_SRC/scripts" && ls lj-*)
nscripts=$(echo "$scripts" | wc -w)
plan $((ntools * 5 + nscripts * 2 + 23))
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

# The formats' pages (docs/man/*.5.txt).
for f in ljkit-scenario ljkit-result; do
	if command -v groff >/dev/null; then
		warn=$(LC_ALL=C.UTF-8 groff -ww -z -man "$LJ_BUILD/man/$f.5" 2>&1)
		is "$?:$warn:$(grep -c '^\.SH ' "$LJ_BUILD/man/$f.5")" "0::$(($(grep -c '^\[' "$LJ_SRC/docs/man/$f.5.txt") + 1))" \
			"$f.5 renders without groff warnings, a section for each of its text's"
	else
		skip 1 "groff not installed"
	fi
done
# codes PAGE: the codes of its EXIT STATUS section, in order
codes() { sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$LJ_BUILD/man/$1.1" | sed -n 's/^\.B //p' | tr '\n' ' '; }
is "$(codes lj-cyclic)" "0 1 2 77 " "lj-cyclic.1: the codes lj-cyclic returns (no 3: it has no threshold)"
is "$(codes lj-hackbench)" "0 1 2 77 " "lj-hackbench.1: the same"
is "$(codes lj-signal)" "0 1 2 3 77 " "lj-signal.1: 3 for --break-fails"
is "$(codes lj-frame)" "0 1 2 3 77 " "lj-frame.1: 3 for --max-drop-rate"
is "$(codes lj-oslat)" "0 1 2 3 77 " "lj-oslat.1: 3 for -T"
env_ok=0
for t in lj-cyclic lj-signal lj-hackbench lj-frame lj-oslat lj-env; do
	sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' "$LJ_BUILD/man/$t.1" | grep -q '^\.B LJ_JOURNAL_DIR' &&
		sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' "$LJ_BUILD/man/$t.1" | grep -q '^\.B LJ_LOCK_TIMEOUT' || env_ok=1
done
ok $env_ok "the measuring tools' and lj-env's pages have an ENVIRONMENT naming LJ_JOURNAL_DIR and LJ_LOCK_TIMEOUT"
sed -n '/^\.SH FILES/,/^\.SH /p' "$LJ_BUILD/man/lj-frame.1" | grep -q 'frame\\-calibration'
ok $? "lj-frame.1 has FILES: the stored calibration"

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
is "$(ls "$TMP/root/usr/share/man/man5" 2>/dev/null | tr '\n' ' ')" "ljkit-result.5 ljkit-scenario.5 " "make install puts the formats' pages in man5"
# Every documentation path an installed page names exists after the install; none names docs/.
missing=
for d in $(sed 's/\\-/-/g' "$TMP"/root/usr/share/man/man*/* | grep -o '/usr/share/doc/ljkit/[A-Za-z0-9_.-]*\.md' | sort -u); do
	[ -f "$TMP/root$d" ] || missing="$missing $d"
done
named=$(sed 's/\\-/-/g' "$TMP"/root/usr/share/man/man*/* | grep -c '/usr/share/doc/ljkit/[A-Za-z0-9_.-]*\.md')
is "$missing:$((named >= ntools + nscripts + 2))" ":1" "every documentation path the installed pages name ($named) is installed"
sed 's/\\-/-/g' "$TMP"/root/usr/share/man/man*/* | grep -v 'source tree' | grep -q 'docs/[A-Za-z0-9_-]*\.md'
ok $((!$?)) "no installed page points at a docs/*.md path of the source tree"
exit $((_tap_fail > 0))
