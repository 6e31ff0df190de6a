#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# layers.t - every #include of common/ and tools/ against the "may call" column of
# docs/architecture.md's layer table, read from the doc itself so that the two cannot drift.
. "$(dirname "$0")/lib.sh"

DOC=$LJ_SRC/docs/architecture.md
[ -f "$DOC" ] || skip_all "docs/architecture.md not found under $LJ_SRC"

# rules DOC: "LAYER<TAB>ALLOWED" per row of the table under "## Layers", ALLOWED being
# the layers (base sys setup result cli) and single modules (lj_preempt) it may include,
# "common" for the whole of common/. LAYER is a common/ layer or "tools".
rules() {
	awk -F'|' '
		/^## / { in_layers = ($0 ~ /^## Layers/) }
		in_layers && /^\| `(common|tools)\// {
			layer = $2; gsub(/[ `]/, "", layer); sub(/\/$/, "", layer)
			sub(/^common\//, "", layer); sub(/^tools\/.*/, "tools", layer)
			may = $(NF - 1); out = ""
			if (may ~ /everything in common\/|^ *common\/ *$/) out = " common"
			n = split(may, w, /[^A-Za-z_]+/)
			for (i = 1; i <= n; i++)
				if (w[i] ~ /^(base|sys|setup|result|cli)$/ || w[i] ~ /^lj_[a-z_]+$/)
					out = out " " w[i]
			print layer "\t" out
		}' "$1"
}

# where ROOT HEADER: "LAYER" for common/LAYER/HEADER, "tools/NAME" for tools/NAME/HEADER, "" if none
where() {
	local f
	for f in "$1"/common/*/"$2" "$1"/tools/*/"$2"; do
		[ -f "$f" ] || continue
		f=${f#"$1"/}
		case $f in
		common/*) f=${f#common/}; echo "${f%%/*}" ;;
		tools/*) f=${f#tools/}; echo "tools/${f%%/*}" ;;
		esac
		return
	done
}

# violations ROOT DOC: one line per #include the table does not allow, "FILE: includes HEADER (...)".
violations() {
	local root=$1 rulefile src layer allowed hdr to line
	rulefile=$(mktemp "$TMP/rules.XXXXXX")
	rules "$2" >"$rulefile"
	for src in "$root"/common/*/*.[ch] "$root"/tools/*/*.[ch]; do
		[ -f "$src" ] || continue
		src=${src#"$root"/}
		case $src in
		common/*) layer=${src#common/}; layer=${layer%%/*} ;;
		*) layer=tools ;;
		esac
		allowed=$(awk -F'\t' -v l="$layer" '$1 == l { print $2 }' "$rulefile")
		if ! grep -q "^$layer	" "$rulefile"; then
			echo "$src: layer $layer has no row in the table"
			continue
		fi
		while read -r hdr; do
			to=$(where "$root" "$hdr")
			line="$src: includes $hdr"
			if [ -z "$to" ]; then
				echo "$line (not in common/ or tools/)"
			elif [ "$layer" = tools ]; then
				case $to in
				tools/*) [ "$to" = "$(dirname "$src")" ] || echo "$line (another tool's)" ;;
				*) [[ " $allowed " == *" common "* ]] || echo "$line ($to)" ;;
				esac
			elif [[ $to == tools/* ]]; then
				echo "$line (a tool's, from common/)"
			elif [ "$to" != "$layer" ] && [[ " $allowed " != *" common "* ]] &&
			     [[ " $allowed " != *" $to "* ]] && [[ " $allowed " != *" ${hdr%.h} "* ]]; then
				echo "$line ($to; $layer may include: ${allowed# })"
			fi
		done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$root/$src")
	done
	rm -f "$rulefile"
}

# The table has a row for every layer there is, and says something for each.
rules "$DOC" >"$TMP/rules"
for d in "$LJ_SRC"/common/*/; do
	l=$(basename "$d")
	grep -q "^$l	 [a-z]" "$TMP/rules"
	ok $? "docs/architecture.md's layer table has a row for common/$l with what it may include"
done
grep -q "^tools	 common" "$TMP/rules"
ok $? "...and tools/<name>/ may include common/"

violations "$LJ_SRC" "$DOC" >"$TMP/bad"
is "$(wc -l <"$TMP/bad")" 0 "every #include in common/ and tools/ follows the table"
[ -s "$TMP/bad" ] && diag "$(head -20 "$TMP/bad")"

# The check itself can fail: a copy of the tree where base includes the setup stack,
# sys includes a result header, and a tool another tool's header.
mkdir -p "$TMP/tree/docs" "$TMP/tree/tools"
cp -r "$LJ_SRC/common" "$TMP/tree/"
cp "$DOC" "$TMP/tree/docs/"
cp -r "$LJ_SRC/tools/cyclic" "$LJ_SRC/tools/signal" "$TMP/tree/tools/"
printf '#include "lj_setup.h"\n' >>"$TMP/tree/common/base/lj_hist.c"
printf '#include "lj_result.h"\n' >>"$TMP/tree/common/sys/lj_topo.c"
printf '#include "sig.h"\n' >>"$TMP/tree/tools/cyclic/loop.c"
violations "$TMP/tree" "$TMP/tree/docs/architecture.md" >"$TMP/bad2"
grep -q "^common/base/lj_hist.c: includes lj_setup.h (setup; base may include: base)$" "$TMP/bad2"
ok $? "a base file including the setup stack is found and named"
grep -q "^common/sys/lj_topo.c: includes lj_result.h (result; sys may include: " "$TMP/bad2"
ok $? "...a sys file including a result header"
grep -q "^tools/cyclic/loop.c: includes sig.h (another tool's)$" "$TMP/bad2"
ok $? "...a tool including another tool's header"
is "$(wc -l <"$TMP/bad2")" 3 "...and nothing else"
# A rule removed from the doc shows up as violations: the table is what is checked.
sed -i 's/| base, `lj_sysinfo` |/| base |/' "$TMP/tree/docs/architecture.md"
violations "$TMP/tree" "$TMP/tree/docs/architecture.md" >"$TMP/bad3"
grep -q "^common/result/.*: includes lj_sysinfo.h (sys; result may include: base)$" "$TMP/bad3"
ok $? "the rules come from the doc: dropping result's lj_sysinfo from the table makes its include a violation"

done_testing
