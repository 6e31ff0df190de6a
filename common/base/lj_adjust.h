/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_adjust - p-values adjusted for many comparisons (Holm, Benjamini-Hochberg). */
#ifndef LJ_ADJUST_H
#define LJ_ADJUST_H

#include <stddef.h>

enum lj_adjust_method {
	LJ_ADJUST_HOLM,		/* family-wise error (Holm 1979), R's p.adjust "holm" */
	LJ_ADJUST_BH,		/* false-discovery rate (Benjamini-Hochberg 1995), "BH" */
	LJ_ADJUST_NONE,
};

/*
 * @adj[i] = the adjusted p[i], as R's p.adjust(p, method) computes it; NAN
 * entries are not tests (they stay NAN and do not count in n). @p and @adj
 * may be the same array. 0 or -ENOMEM.
 */
int lj_adjust_p(const double *p, size_t n, enum lj_adjust_method m, double *adj);
const char *lj_adjust_name(enum lj_adjust_method m);

#endif
