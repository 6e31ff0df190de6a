#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fuzz-corpus.t - every fuzz target (tests/fuzz) over its seed corpus once: the
# inputs that once found a crash, or reach a parser's corners, still pass.
# The targets are built with tests/fuzz/driver.c (any compiler; under make
# sanitize with ASan and UBSan), not libFuzzer: `make fuzz` explores.
. "$(dirname "$0")/lib.sh"

cd "$LJ_SRC/tests/fuzz" || skip_all "no tests/fuzz in $LJ_SRC"
targets=$(find . -name 'fuzz_*.c' | sed 's|^\./||; s|\.c$||' | sort)
[ -n "$targets" ] || skip_all "no fuzz targets"

for t in $targets; do
	bin=$LJ_BUILD/fuzz/$t
	corpus=$LJ_SRC/tests/fuzz/corpus/$t
	if [ ! -x "$bin" ]; then
		ok 1 "$t: built ($bin)"
		continue
	fi
	n=$(find "$corpus" -maxdepth 1 -type f 2>/dev/null | wc -l)
	if [ "$n" -eq 0 ]; then
		ok 1 "$t: has a seed corpus in tests/fuzz/corpus/$t"
		continue
	fi
	run_rc "$bin" "$corpus"
	if [ "$rc" -eq 0 ] && [ "$(cat "$TMP/out")" = "$n inputs" ] &&
	   ! grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:|invariant broken' "$TMP/err"; then
		ok 0 "$t: $n corpus inputs, no crash, no sanitizer report"
	else
		ok 1 "$t: $n corpus inputs, no crash, no sanitizer report"
		diag "exit $rc, stdout: $(cat "$TMP/out")" "$(grep -E 'ERROR|runtime error|invariant|#[0-9]' "$TMP/err" | head -20)"
	fi
done
done_testing
