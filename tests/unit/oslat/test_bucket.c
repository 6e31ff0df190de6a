// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_bucket - oslat's bucket arithmetic (rt-tests 2.40): a gap of g ns is
 * floor(g / 1000) + 1 us, goes to bucket floor(g / 1000) (less -B's bias,
 * at least 0), the last bucket takes the overflows and their excess us;
 * Average weighs each bucket by its label. Known answers computed by hand.
 */
#include <stdlib.h>

#include "../../../tools/oslat/oslat.h"
#include "../tap.h"

static void test_plain(void)
{
	struct osl_buckets b;
	uint64_t us[6];
	const uint64_t gaps[6] = { 0, 999, 1000, 31999, 32000, 45500 };

	ok(osl_buckets_init(&b, 32) == 0 && b.min_us == UINT64_MAX && b.max_us == 0, "32 empty buckets");
	for (int i = 0; i < 6; i++)
		us[i] = osl_bucket_add(&b, gaps[i]);
	ok(us[0] == 1 && us[1] == 1 && us[2] == 2 && us[3] == 32 && us[4] == 33 && us[5] == 46,
	   "a gap's value is floor(us) + 1: 0 and 999 ns are 1, 1000 ns is 2, 45.5 us is 46");
	ok(b.count[0] == 2 && b.count[1] == 1 && b.count[31] == 3,
	   "0 and 999 ns in bucket 0 (label 001), 1 us in bucket 1, 31.999 us and the overflows in the last");
	is_int(b.overflow_us, 13, "overflows add their excess over the bucket count: (32 - 32) + (45 - 32)");
	is_int(osl_buckets_total(&b), 6, "every gap counted once");
	ok(b.min_us == 1 && b.max_us == 46, "Minimum 1, Maximum 46 (us)");
	/* (2 x 1 + 1 x 2 + 3 x 32 + 13) / 6 */
	is_near(osl_buckets_average(&b), 113.0 / 6.0, 1e-12, "Average: labels weighted by counts, plus the overflow");
	osl_buckets_free(&b);
}

static void test_bias(void)
{
	struct osl_buckets b;

	osl_buckets_init(&b, 4);
	b.bias_us = 2;
	osl_bucket_add(&b, 500);	/* floor 0, below the bias: bucket 0 */
	osl_bucket_add(&b, 2500);	/* floor 2 = bias: bucket 0 */
	osl_bucket_add(&b, 3500);	/* bucket 1 */
	osl_bucket_add(&b, 9100);	/* floor 9 - 2 = 7: last bucket, 3 us over */
	ok(b.count[0] == 2 && b.count[1] == 1 && b.count[3] == 1 && b.overflow_us == 3,
	   "-B: buckets count from the bias, a gap at or below it in the first");
	ok(b.min_us == 1 && b.max_us == 10, "Minimum and Maximum are the gaps' own values, before the bias");
	/* labels bias + i + 1: (2 x 3 + 1 x 4 + 1 x 6 + 3) / 4 */
	is_near(osl_buckets_average(&b), 19.0 / 4.0, 1e-12, "Average with a bias: the labels move with it");
	osl_buckets_free(&b);
	osl_buckets_init(&b, 4);
	is_near(osl_buckets_average(&b), 0, 0, "no gap: Average 0");
	osl_buckets_free(&b);
}

int main(void)
{
	plan(11);
	test_plain();
	test_bias();
	return done();
}
