// SPDX-License-Identifier: GPL-2.0-or-later
/* bench-stamp - what one lj-hackbench message stamp costs: the TSC against clock_gettime (a benchmark, not a test). */
#include <stdio.h>
#include <stdlib.h>

#include "stamp.h"

/* ns per stamp over @n back-to-back reads (the sum keeps the reads from being dropped). */
static double per_read(const struct hb_tsc *c, long n, uint64_t *sink)
{
	int64_t t0 = lj_now_ns();
	uint64_t sum = 0;

	for (long i = 0; i < n; i++)
		sum += hb_tsc_now(c);
	*sink += sum;
	return (double)(lj_now_ns() - t0) / (double)n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	enum { ROUNDS = 7 };
	long n = argc > 1 ? atol(argv[1]) : 10000000;
	struct hb_tsc tsc, mono;
	char why[64];
	double a[ROUNDS], b[ROUNDS];
	uint64_t sink = 0;

	if (n <= 0) {
		fprintf(stderr, "bench-stamp: READS must be a positive integer\n");
		return 2;
	}
	hb_tsc_start(&mono, false, NULL, 0);
	hb_tsc_start(&tsc, true, why, sizeof(why));
	if (!tsc.on || hb_tsc_rate(&tsc, why, sizeof(why))) {
		printf("# stamps are clock_gettime here (%s): nothing to compare\n", why);
		printf("clock_gettime %.1f ns per stamp\n", per_read(&mono, n, &sink));
		return sink == 42;
	}
	/* alternate, so that a change in the host's speed falls on both */
	for (int r = 0; r < ROUNDS; r++) {
		a[r] = per_read(&mono, n, &sink);
		b[r] = per_read(&tsc, n, &sink);
	}
	qsort(a, ROUNDS, sizeof(a[0]), cmp_double);
	qsort(b, ROUNDS, sizeof(b[0]), cmp_double);
	printf("# %d alternating rounds of %ld reads; median (min-max) ns per stamp\n", ROUNDS, n);
	printf("clock_gettime %.1f (%.1f-%.1f)\n", a[ROUNDS / 2], a[0], a[ROUNDS - 1]);
	printf("tsc           %.1f (%.1f-%.1f)  %.0f MHz\n", b[ROUNDS / 2], b[0], b[ROUNDS - 1], 1e3 / tsc.ns_per_tick);
	printf("ratio tsc/clock_gettime %.3f\n", b[ROUNDS / 2] / a[ROUNDS / 2]);
	return sink == 42;	/* never: keeps the sums alive */
}
