// SPDX-License-Identifier: GPL-2.0-or-later
/* bench-hist - cost of lj_hist_add, _quantile and _merge (a benchmark, not a test). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lj_hist.h"
#include "lj_parse.h"

#define NVALS 4096		/* power of two: index with a mask */

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	uint64_t loops = 100000000, i, x = 88172645463325252ULL;
	static int64_t vals[NVALS];
	struct lj_hist *h = lj_hist_new(), *m = lj_hist_new();
	volatile int64_t sink = 0;
	double t0, t1;
	int rounds = 1000, r;
	const char *why = NULL;

	if (argc > 1 && lj_parse_u64(argv[1], 1, UINT64_MAX, &loops, &why)) {
		fprintf(stderr, "bench-hist: invalid sample count '%s': %s\n", argv[1], why);
		return 2;
	}
	if (!h || !m) {
		fprintf(stderr, "bench-hist: cannot allocate histograms\n");
		return 1;
	}
	/* latencies spread over 1 us .. 1 ms, drawn before timing starts */
	for (i = 0; i < NVALS; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		vals[i] = 1000 + (int64_t)(x % 1000000);
	}

	t0 = now_ns();
	for (i = 0; i < loops; i++)
		lj_hist_add(h, vals[i & (NVALS - 1)]);
	t1 = now_ns();
	printf("lj_hist_add:      %.2f ns/sample (%" PRIu64 " samples)\n",
	       (t1 - t0) / (double)loops, loops);

	t0 = now_ns();
	for (r = 0; r < rounds; r++)
		sink += lj_hist_quantile(h, 0.999);
	t1 = now_ns();
	printf("lj_hist_quantile: %.0f ns/call (p99.9 of a 1 us..1 ms spread)\n",
	       (t1 - t0) / rounds);

	t0 = now_ns();
	for (r = 0; r < rounds; r++)
		lj_hist_merge(m, h);
	t1 = now_ns();
	printf("lj_hist_merge:    %.0f ns/call (%zu buckets, %zu bytes each)\n",
	       (t1 - t0) / rounds, lj_hist_nbuckets(), lj_hist_nbuckets() * sizeof(uint64_t));
	(void)sink;
	lj_hist_free(h);
	lj_hist_free(m);
	return 0;
}
