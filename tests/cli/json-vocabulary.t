#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# json-vocabulary.t - every JSON writer uses common/result's vocabulary (docs/result-format.md):
# numbers are made only in lj_json.c (one rule: not finite is null), and no file keeps a
# one-line helper of its own around a JSON value or member (those that went: put, add,
# add_i64, jstr, str, hist_block, ...).
. "$(dirname "$0")/lib.sh"

[ -d "$LJ_SRC/common/result" ] || skip_all "no common/result under $LJ_SRC"

# number_makers ROOT: "FILE:LINE: CALL" for each json-c number constructor outside lj_json.c.
number_makers() {
	grep -rnoE 'json_object_new_(double_s|double|int64|uint64|int)\(' "$1/common" "$1/tools" --include='*.c' |
		grep -v '^[^:]*/common/result/lj_json\.c:' | sed "s|^$1/||"
}

# wrappers ROOT: "FILE: NAME" for each static function whose body is one statement around
# a JSON value or member: return json_object_new_*/lj_json_*(...), or json_object_object_add(...).
wrappers() {
	local f
	for f in "$1"/common/*/*.c "$1"/tools/*/*.c; do
		[ "$f" = "$1/common/result/lj_json.c" ] && continue
		awk -v file="${f#"$1"/}" '
			/^static [^(]*[ *]([a-z_0-9]+)\(/ {
				name = $0; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name); head = NR; body = ""; n = 0; next
			}
			head && NR == head + 1 && $0 != "{" { head = 0 }
			head && NR > head + 1 {
				if ($0 == "}") {
					if (n == 1 && body ~ /^\t(return )?([^;]*[?:] )?(json_object_new_[a-z_0-9]+|lj_json_[a-z_0-9]+|json_object_object_add)\(/)
						print file ": " name
					head = 0
				} else if ($0 != "") { n++; body = $0 }
			}' "$f"
	done
}

number_makers "$LJ_SRC" >"$TMP/numbers"
is "$(wc -l <"$TMP/numbers")" 0 "numbers are made only in common/result/lj_json.c"
[ -s "$TMP/numbers" ] && diag "$(head -10 "$TMP/numbers")"
wrappers "$LJ_SRC" >"$TMP/wrappers"
is "$(wc -l <"$TMP/wrappers")" 0 "no file keeps a one-line JSON value helper of its own"
[ -s "$TMP/wrappers" ] && diag "$(head -10 "$TMP/wrappers")"

# The checks can fail: a tree with a double made in a tool and three local helpers.
mkdir -p "$TMP/tree/common/result" "$TMP/tree/tools/x"
cp "$LJ_SRC/common/result/lj_json.c" "$TMP/tree/common/result/"
cat >"$TMP/tree/tools/x/report.c" <<'C'
static json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static void put(json_object *o, const char *k, json_object *v)
{
	json_object_object_add(o, k, v);
}

static void add_i64(json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, lj_json_int(v));
}

static json_object *block(const struct run *r)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "mean", json_object_new_double(r->mean));
	return o;
}
C
number_makers "$TMP/tree" >"$TMP/numbers2"
is "$(cat "$TMP/numbers2")" "tools/x/report.c:20:json_object_new_double(" "a double made in a tool is found, with its place"
wrappers "$TMP/tree" >"$TMP/wrappers2"
is "$(tr '\n' ' ' <"$TMP/wrappers2")" "tools/x/report.c: jstr tools/x/report.c: put tools/x/report.c: add_i64 " \
	"three one-line helpers are found and named, a function building a block is not"

done_testing
