#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# duration-zero.t - -D 0 is refused alike by lj-cyclic and lj-signal (it ran forever in lj-signal).
. "$(dirname "$0")/lib.sh"

for tool in lj-cyclic lj-signal; do
	if [ ! -x "$LJ_BUILD/$tool" ]; then
		skip 2 "$tool not built"
		continue
	fi
	timeout 20 "$LJ_BUILD/$tool" -D 0 -q >"$TMP/out" 2>"$TMP/err"
	is "$?" 2 "$tool -D 0: exit 2 at once"
	grep -q "invalid --duration '0'" "$TMP/err"
	ok $? "$tool -D 0: says the duration is invalid"
done

done_testing
