# SPDX-License-Identifier: GPL-2.0-or-later
# bench-lib.sh - what the bench-* scripts share: medians, their distribution-free
# intervals, ratios, and the pairs of runs with and without an instrument.
# Sourced (bash), never run.

# ratio A B: A / B with three decimals ("nan" when B is not positive).
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "nan" }'; }

median() {	# [FORMAT] for the mean of the middle two (default %.4f)
	sort -g | awk -v f="${1:-%.4f}" '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf f "\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# A 95 % confidence interval of the median, free of any assumption on the
# distribution: order statistics x(k+1) and x(n-k), k the largest with
# P(Binomial(n, 1/2) <= k) <= 0.025 ("-" below 6 values, too few for one).
median_ci() {	# [FORMAT] of the two bounds (default %.3f-%.3f)
	sort -g | awk -v f="${1:-%.3f-%.3f}" '{ v[NR] = $1 } END {
		# P(X = i) in logarithms: 2^n and C(n, i) overflow a double from n = 1024.
		n = NR; p = 0; lc = 0; k = -1
		for (i = 0; i <= n; i++) { p += exp(lc - n * log(2)); if (p > 0.025) break; k = i; lc += log((n - i) / (i + 1)) }
		if (k < 0) print "-"; else printf f "\n", v[k + 1], v[n - k] }'
}

# judge MEDIAN CI LO HI: against the band [LO, HI], "within" or "outside"
# when the interval says so, else which side the median is on and "(not resolved)".
judge() {
	awk -v m="$1" -v ci="$2" -v lo="$3" -v hi="$4" 'BEGIN {
		split(ci, c, "-"); inside = (m >= lo && m <= hi)
		if (ci != "-" && c[1] >= lo && c[2] <= hi) print "within"
		else if (ci != "-" && (c[2] < lo || c[1] > hi)) print "outside"
		else print (inside ? "within" : "outside") " (not resolved)" }'
}

# Instrument pairs: each pair runs A (without the instrument), B (with it)
# and C (without it again), in an order rotating over the three, so that a
# drift in the machine's state hits each position alike. B/A is the
# instrument's effect, C/A the noise: the same ratio of the tool against
# itself in the same pair. A caller defines pair_run LABEL OUT.json
# [EXTRA...] (one run, its JSON in OUT.json) and pair_metrics FILE (the
# run's figures on one line, in the order of the names given to
# pairs_report).

# pairs_collect N DIR WITH...: N pairs, the figures in DIR/{a,b,c}.N; WITH
# are the instrument's options for B. Return: 1 when a run failed.
pairs_collect() {
	local n=$1 dir=$2 i k x
	shift 2
	for ((i = 1; i <= n; i++)); do
		for k in 0 1 2; do
			x=$(( (i + k) % 3 ))
			case $x in
			0) pair_run a "$dir/a.json" || return 1; pair_metrics "$dir/a.json" >"$dir/a.$i" ;;
			1) pair_run b "$dir/b.json" "$@" || return 1; pair_metrics "$dir/b.json" >"$dir/b.$i"
			   [ -z "${pairs_keep:-}" ] || cp "$dir/b.json" "$dir/b.$i.json" ;;
			2) pair_run c "$dir/c.json" || return 1; pair_metrics "$dir/c.json" >"$dir/c.$i" ;;
			esac
		done
		printf '%-4s  A %s\n      B %s\n      C %s\n' "$i" "$(cat "$dir/a.$i")" "$(cat "$dir/b.$i")" "$(cat "$dir/c.$i")"
	done
}

# pairs_report N DIR NAME...: per figure NAME (the columns of pair_metrics),
# the median over pairs of B/A with its 95 % interval, beside C/A.
pairs_report() {
	local n=$1 dir=$2 f i
	shift 2
	printf '# %-22s %8s %-13s %8s %-13s\n' figure "with/w-o" "(95% CI)" noise "(95% CI)"
	f=0
	for name in "$@"; do
		f=$((f + 1))
		: >"$dir/r"; : >"$dir/n"
		for ((i = 1; i <= n; i++)); do
			local a b c
			a=$(awk -v f="$f" '{ print $f }' "$dir/a.$i")
			b=$(awk -v f="$f" '{ print $f }' "$dir/b.$i")
			c=$(awk -v f="$f" '{ print $f }' "$dir/c.$i")
			ratio "$b" "$a" >>"$dir/r"; echo >>"$dir/r"
			ratio "$c" "$a" >>"$dir/n"; echo >>"$dir/n"
		done
		printf '# %-22s %8s %-13s %8s %-13s\n' "$name" "$(grep -v nan "$dir/r" | median %.3f)" \
			"($(grep -v nan "$dir/r" | median_ci))" "$(grep -v nan "$dir/n" | median %.3f)" \
			"($(grep -v nan "$dir/n" | median_ci))"
		cp "$dir/r" "$dir/ratio.$name"
	done
}

# pairs_col N DIR RUN COL: column COL of run RUN (a, b or c) in every pair, one per line.
pairs_col() {
	local i
	for ((i = 1; i <= $1; i++)); do awk -v f="$4" '{ print $f }' "$2/$3.$i"; done
}

# pairs_figure N DIR COL: the median over pairs of B's column COL (a figure
# only the instrumented run has: events per wake-up, its cost), with its range.
pairs_figure() {
	local n=$1 dir=$2 col=$3
	pairs_col "$n" "$dir" b "$col" >"$dir/fig"
	sort -g "$dir/fig" | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.3g (%.3g..%.3g)", m, v[1], v[NR] }'
}
