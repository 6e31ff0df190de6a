/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_topk - the K largest of a stream, by a 64-bit key: a min-heap in the caller's array. */
#ifndef LJ_TOPK_H
#define LJ_TOPK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * @items holds @n (at most @k) items of @size bytes, each starting with
 * its uint64_t key, as a min-heap: items[0] is the smallest kept, the bar
 * a new item must pass once the heap is full. The check is inline (a
 * measuring loop pays one compare per sample); the add is rare, about
 * K (1 + ln(N / K)) of N samples.
 */
static inline bool lj_topk_enters(const void *items, int n, int k, uint64_t key)
{
	return n < k || key > *(const uint64_t *)items;
}

/* Keep @item, which lj_topk_enters admitted: in the free slot, or in the root's place. */
void lj_topk_add(void *items, int *n, int k, size_t size, const void *item);

#endif
