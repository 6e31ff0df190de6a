#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# hot-section.t - the code a measuring thread runs stays in lj_hot_text (common/base/lj_hot.h):
# a direct call or tail jump out of the section reaches code lj_prefault_hot did not make
# resident, a page fault in the measured loop; so does a call through a PLT stub (the PLT pages
# are not prefaulted: hot objects call the C library through the GOT, -fno-plt in the
# GNUmakefile). Calls through the GOT and through pointers (the hooks' late(), LJ_HOT by rule)
# are left to the rule, and so are the sanitizers' checks (make sanitize).
. "$(dirname "$0")/lib.sh"

command -v objdump >/dev/null || skip_all "no objdump (binutils)"

# escapes BINARY: "caller -> callee" for each direct call or jump in lj_hot_text whose target
# lies outside it.
escapes() {
	local lo size fn addr callee
	read -r lo size < <(objdump -h "$1" | awk '$2 == "lj_hot_text" { print $4, $3 }')
	[ -n "$lo" ] || return 0
	objdump -d --no-show-raw-insn --section=lj_hot_text "$1" | awk '
		/^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn) }
		$2 ~ /^(call|jmp)/ && $3 ~ /^[0-9a-f]+$/ && $4 ~ /^</ { c = $4; gsub(/[<>]/, "", c); print fn, $3, c }' |
	while read -r fn addr callee; do
		[[ $callee == __asan_* || $callee == __ubsan_* || $callee == __sanitizer_* ]] && continue
		((16#$addr < 16#$lo || 16#$addr >= 16#$lo + 16#$size)) && echo "$fn -> $callee"
	done | sort -u
}

n=0
for b in "$LJ_BUILD"/lj-*; do
	[ -x "$b" ] && objdump -h "$b" 2>/dev/null | grep -q ' lj_hot_text ' || continue
	n=$((n + 1))
	out=$(escapes "$b")
	is "$out" "" "${b##*/}: no direct call leaves lj_hot_text"
done
ok "$([ "$n" -ge 1 ] && echo 0 || echo 1)" "$n tools have the section"

# The check can fail: a hot function calling a cold one is named.
cat >"$TMP/esc.c" <<'C'
__attribute__((noinline)) int cold_fn(int x) { return x * 3 + 1; }
__attribute__((section("lj_hot_text"), noinline)) int hot_fn(int x) { return cold_fn(x) + 1; }
int main(int argc, char **argv) { (void)argv; return hot_fn(argc); }
C
if cc -O2 -o "$TMP/esc" "$TMP/esc.c" 2>"$TMP/cc.err"; then
	is "$(escapes "$TMP/esc")" "hot_fn -> cold_fn" "a direct call out of the section is named"
else
	skip 1 "no C compiler: $(head -1 "$TMP/cc.err")"
fi
done_testing
