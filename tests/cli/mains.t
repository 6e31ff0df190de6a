#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mains.t - every tool's main() is at most 30 lines (docs/architecture.md): the
# measuring tools' one call to the driver, the others' parse and command table.
. "$(dirname "$0")/lib.sh"

MAX=30

# long_mains FILE...: "FILE: main() is N lines" for each main() longer than MAX,
# counted from "int main(" to the "}" that closes it at the start of a line.
long_mains() {
	awk -v max="$MAX" '
		FNR == 1 { n = 0; in_main = 0 }
		/^int main\(/ { in_main = 1 }
		in_main { n++ }
		in_main && /^}/ {
			if (n > max) print FILENAME ": main() is " n " lines"
			in_main = 0
		}' "$@"
}

mains=("$LJ_SRC"/tools/*/main.c)
[ -f "${mains[0]}" ] || skip_all "no tools/*/main.c under $LJ_SRC"
is "$(grep -l '^int main(' "${mains[@]}" | wc -l)" "${#mains[@]}" "every tools/*/main.c has its main() (${#mains[@]} tools)"
long_mains "${mains[@]}" >"$TMP/long"
is "$(wc -l <"$TMP/long")" 0 "every tool's main() is at most $MAX lines"
[ -s "$TMP/long" ] && diag "$(cat "$TMP/long")"

# The count can fail: a main() of 31 lines is named, one of 30 is not.
{
	echo 'int main(int argc, char **argv)'; echo '{'
	for i in $(seq 27); do echo "	f($i);"; done
	echo '}'
} >"$TMP/ok.c"
{ echo 'static int g(void)'; echo '{'; echo '}'; sed '2a\	f(0);' "$TMP/ok.c"; } >"$TMP/long.c"
long_mains "$TMP/ok.c" "$TMP/long.c" >"$TMP/found"
is "$(cat "$TMP/found")" "$TMP/long.c: main() is 31 lines" "a 31-line main() is found and named, a 30-line one is not"

done_testing
