// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_topk - the K largest of a stream, by a 64-bit key: a min-heap in the caller's array. */
#include "lj_topk.h"
#include "lj_hot.h"

#include <string.h>

static inline void *at(void *items, size_t size, int i)
{
	return (char *)items + (size_t)i * size;
}

static inline uint64_t key_at(void *items, size_t size, int i)
{
	uint64_t key;

	memcpy(&key, at(items, size, i), sizeof(key));
	return key;
}

/*
 * Moves a hole instead of swapping: each item is copied once per level, @item once at the end.
 * LJ_HOT: the hooks' late() call it on the measuring threads.
 */
void LJ_HOT lj_topk_add(void *items, int *n, int k, size_t size, const void *item)
{
	uint64_t key;
	int i;

	memcpy(&key, item, sizeof(key));
	if (*n < k) {
		/* sift up from the new slot */
		for (i = (*n)++; i > 0 && key_at(items, size, (i - 1) / 2) > key; i = (i - 1) / 2)
			memcpy(at(items, size, i), at(items, size, (i - 1) / 2), size);
	} else {
		/* replace the root, sift down */
		for (i = 0;;) {
			int c = 2 * i + 1;

			if (c >= *n)
				break;
			if (c + 1 < *n && key_at(items, size, c + 1) < key_at(items, size, c))
				c++;
			if (key_at(items, size, c) >= key)
				break;
			memcpy(at(items, size, i), at(items, size, c), size);
			i = c;
		}
	}
	memcpy(at(items, size, i), item, size);
}
