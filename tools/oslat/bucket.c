// SPDX-License-Identifier: GPL-2.0-or-later
/* bucket.c - oslat's 1-us buckets: what its summary lines and its JSON histogram count. */
#include "oslat.h"

#include <errno.h>
#include <stdlib.h>

int osl_buckets_init(struct osl_buckets *b, int size)
{
	b->count = calloc((size_t)size, sizeof(*b->count));
	if (!b->count)
		return -ENOMEM;
	b->size = size;
	b->bias_us = 0;
	b->overflow_us = 0;
	b->min_us = UINT64_MAX;
	b->max_us = 0;
	return 0;
}

void osl_buckets_free(struct osl_buckets *b)
{
	free(b->count);
	b->count = NULL;
}

uint64_t osl_buckets_total(const struct osl_buckets *b)
{
	uint64_t n = 0;

	for (int i = 0; i < b->size; i++)
		n += b->count[i];
	return n;
}

/*
 * As oslat computes it: each bucket stands for its label (bias + i + 1
 * us), and the overflowing gaps add what they exceeded the last bucket
 * by. Without a bias each gap counts within 1 us of its length (as the
 * upper bound of its bucket, or as its whole us past the last one); the
 * JSON's mean_ns is the exact mean.
 */
double osl_buckets_average(const struct osl_buckets *b)
{
	double sum = (double)b->overflow_us;
	uint64_t n = osl_buckets_total(b);

	for (int i = 0; i < b->size; i++)
		sum += (double)b->count[i] * (double)(b->bias_us + (uint64_t)i + 1);
	return n ? sum / (double)n : 0;
}
