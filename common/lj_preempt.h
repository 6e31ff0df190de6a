/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_preempt - preemption model detection and dynamic-mode switching. */
#ifndef LJ_PREEMPT_H
#define LJ_PREEMPT_H

#include <stdbool.h>

enum lj_preempt_model {
	LJ_PREEMPT_UNKNOWN,
	LJ_PREEMPT_NONE,
	LJ_PREEMPT_VOLUNTARY,
	LJ_PREEMPT_FULL,
	LJ_PREEMPT_LAZY,
	LJ_PREEMPT_RT,
};

struct lj_preempt_info {
	enum lj_preempt_model model;	/* the mode in force */
	bool dynamic;			/* CONFIG_PREEMPT_DYNAMIC: switchable at run time */
	char source[96];		/* where the mode came from: "debugfs sched/preempt", "boot log", "uname", ... */
	char detail[160];		/* why a better source was not available */
};

const char *lj_preempt_name(enum lj_preempt_model m);
int lj_preempt_parse(const char *s, enum lj_preempt_model *out);	/* -EINVAL otherwise */

/* Never fails: unknown model with the reason in detail. */
void lj_preempt_detect(struct lj_preempt_info *out);

#endif
