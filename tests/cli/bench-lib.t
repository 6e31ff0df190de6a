#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-lib.t - the benchmarks' median interval picks the order statistics
# a binomial table gives, at any number of values (it printed 0.000-0.000
# from 1 024 values: 2^n and C(n, k) overflowed).
. "$(dirname "$0")/lib.sh"
. "$LJ_SRC/scripts/bench-lib.sh"

# n, then x(k+1)-x(n-k) for the values 1..n: k the largest with
# P(Binomial(n, 1/2) <= k) <= 0.025, from scipy.stats.binom.cdf.
while read -r n want; do
	is "$(seq "$n" | median_ci %d-%d)" "$want" "median_ci over $n values"
done <<'EOF'
5 -
6 1-6
16 4-13
64 24-41
1023 480-544
1024 481-544
1707 813-895
5000 2431-2570
EOF
# The values are sorted first, and the bounds are values, not ranks.
is "$(seq 64 | awk '{ print 1000 - $1 / 10 }' | median_ci %.1f-%.1f)" "995.9-997.6" "...of the sorted values"
is "$(printf '%s\n' 3 1 2 5 4 9 | median)" "3.5000" "median: the middle two's mean"

done_testing
