// SPDX-License-Identifier: GPL-2.0-or-later
/* test_forward - a forked receiver's late messages: the running top K keeps exactly the K largest, the ring keeps order and counts what it drops. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../tools/hackbench/hb.h"
#include "../tap.h"

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y) - (x > y);
}

/*
 * Feed @n values through the receiver's filter (hb_topk_enters, then
 * hb_topk_add, as workers.c does) and compare what the filter let through
 * against a sort of all of them: every one of the K largest must have
 * entered (the recorder then keeps exactly those), and the heap must hold
 * exactly them.
 */
static void check_topk(const char *what, uint64_t *v, int n)
{
	struct hb_topk k = { 0 };
	uint64_t *sorted = malloc((size_t)n * sizeof(*v)), *entered = malloc((size_t)n * sizeof(*v));
	uint64_t held[LJ_EXPLAIN_TOPK];
	int nent = 0, want = n < LJ_EXPLAIN_TOPK ? n : LJ_EXPLAIN_TOPK, missing = 0;
	char name[128];

	if (!sorted || !entered)
		exit(1);
	for (int i = 0; i < n; i++)
		if (hb_topk_enters(&k, v[i])) {
			entered[nent++] = v[i];
			hb_topk_add(&k, v[i]);
		}
	memcpy(sorted, v, (size_t)n * sizeof(*v));
	qsort(sorted, (size_t)n, sizeof(*v), cmp_desc);
	qsort(entered, (size_t)nent, sizeof(*v), cmp_desc);
	/* the K largest of all are the K largest of what entered */
	for (int i = 0; i < want; i++)
		if (i >= nent || entered[i] != sorted[i])
			missing++;
	snprintf(name, sizeof(name), "%s: the %d largest all entered the filter", what, want);
	is_int(missing, 0, name);
	snprintf(name, sizeof(name), "%s: the heap holds %d", what, want);
	is_int(k.n, want, name);
	memcpy(held, k.v, (size_t)k.n * sizeof(*held));
	qsort(held, (size_t)k.n, sizeof(*held), cmp_desc);
	snprintf(name, sizeof(name), "%s: the heap holds exactly the largest", what);
	ok(!memcmp(held, sorted, (size_t)want * sizeof(*held)), name);
	/* the root is the smallest kept: the running threshold */
	snprintf(name, sizeof(name), "%s: the root is the K-th largest", what);
	is_int(k.v[0], sorted[want - 1], name);
	diag("%s: %d of %d values entered", what, nent, n);
	free(sorted);
	free(entered);
}

static void test_topk(void)
{
	enum { N = 100000 };
	uint64_t *v = malloc(N * sizeof(*v));
	unsigned int seed = 42;

	if (!v)
		exit(1);
	for (int i = 0; i < N; i++)
		v[i] = (uint64_t)rand_r(&seed) % 1000000;
	check_topk("random", v, N);
	/* the worst case for the filter: every value a new largest */
	for (int i = 0; i < N; i++)
		v[i] = (uint64_t)i;
	check_topk("ascending", v, N);
	/* none enters once full */
	for (int i = 0; i < N; i++)
		v[i] = (uint64_t)(N - i);
	check_topk("descending", v, N);
	/* ties: the equal values beyond K do not enter (the recorder keeps K either way) */
	for (int i = 0; i < N; i++)
		v[i] = 7;
	check_topk("all equal", v, N);
	check_topk("fewer than K", v, 10);
	free(v);
}

static void test_ring(void)
{
	struct hb_late_ring *r = calloc(1, sizeof(*r));
	struct hb_late_rec rec = { 0 };
	int pushed = 0, order = 1;

	if (!r)
		exit(1);
	for (int i = 0; i < HB_LATE_RING + 10; i++) {
		rec.due_ns = (uint64_t)i;
		rec.ran_ns = (uint64_t)i + 1000;
		pushed += hb_late_push(r, &rec);
	}
	is_int(pushed, HB_LATE_RING, "a full ring takes no more");
	is_int(r->dropped, 10, "and counts what it could not take");
	/* the reader takes half, the writer fills again: across the wrap, in order */
	r->tail += HB_LATE_RING / 2;
	for (int i = 0; i < HB_LATE_RING / 2; i++) {
		rec.due_ns = (uint64_t)(1000000 + i);
		pushed += hb_late_push(r, &rec);
	}
	is_int(pushed, HB_LATE_RING + HB_LATE_RING / 2, "room the reader made is used again");
	for (uint32_t t = r->tail, prev = 0; t != r->head; t++) {
		uint64_t d = r->rec[t % HB_LATE_RING].due_ns;

		if (t != r->tail && d <= prev)
			order = 0;
		prev = (uint32_t)d;
	}
	ok(order, "what the reader finds is in the order it was written");
	is_int(r->head - r->tail, HB_LATE_RING, "the ring is full again");
	free(r);
}

int main(void)
{
	plan_no_plan();
	test_topk();
	test_ring();
	return done();
}
