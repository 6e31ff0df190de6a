// SPDX-License-Identifier: GPL-2.0-or-later
/* test_topk - lj_topk keeps the K largest keys of a stream, each with its own payload. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lj_topk.h"
#include "tap.h"

enum { K = 16, N = 20000 };

/* An item as the explain hook's: the key first, a payload of another size after it. */
struct item {
	uint64_t key;
	int id;
	char tag[13];
};

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y) - (x > y);
}

int main(void)
{
	struct item heap[K], it;
	uint64_t *all = malloc(N * sizeof(*all)), kept[K];
	unsigned int seed = 7;
	int n = 0, payload_ok = 1, entered = 0;

	plan_no_plan();
	if (!all)
		return 1;
	for (int i = 0; i < N; i++) {
		memset(&it, 0, sizeof(it));
		it.key = (uint64_t)rand_r(&seed) % 100000;
		it.id = i;
		/* the payload names its own key, so a key moved without its payload shows */
		snprintf(it.tag, sizeof(it.tag), "%llu", (unsigned long long)it.key);
		all[i] = it.key;
		if (lj_topk_enters(heap, n, K, it.key)) {
			lj_topk_add(heap, &n, K, sizeof(it), &it);
			entered++;
		}
	}
	qsort(all, N, sizeof(*all), cmp_desc);
	is_int(n, K, "the heap holds K");
	for (int i = 0; i < n; i++) {
		char want[13];

		kept[i] = heap[i].key;
		snprintf(want, sizeof(want), "%llu", (unsigned long long)heap[i].key);
		if (strcmp(heap[i].tag, want) || heap[i].id < 0 || heap[i].id >= N)
			payload_ok = 0;
	}
	ok(payload_ok, "every key kept its own payload");
	is_int(heap[0].key, all[K - 1], "the root is the K-th largest");
	qsort(kept, (size_t)n, sizeof(*kept), cmp_desc);
	ok(!memcmp(kept, all, K * sizeof(*kept)), "the heap holds exactly the K largest");
	ok(entered < N / 10, "few of a random stream enter once full");
	free(all);
	return done();
}
