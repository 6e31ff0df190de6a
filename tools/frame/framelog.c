// SPDX-License-Identifier: GPL-2.0-or-later
/* framelog.c - lj-frame's --frame-log CSV: every measured frame with its times and class. */
#include "frame.h"

#include <errno.h>

#include "lj_outfile.h"

struct log_ctx {
	FILE *f;
	const struct frm_trial *tr;
	int64_t base;		/* the first measured vsync, relative to vsync 0 */
};

/* One row per frame, in vsync order, as the accounting decides its fate. */
static void log_fate(void *arg, uint64_t index, enum frm_fate fate, int stage, int64_t shown_ns)
{
	struct log_ctx *c = arg;
	const struct frm_frame *fr = &c->tr->frames[index];

	fprintf(c->f, "%llu,%lld,", (unsigned long long)(index - c->tr->warmup),
		(long long)(frm_vsync_ns(&c->tr->cfg->clock, (int64_t)index) - c->base));
	if (fr->present != FRM_NOT_PRESENTED)
		fprintf(c->f, "%lld", (long long)(fr->present - c->base));
	fputc(',', c->f);
	if (frm_fate_displayed(fate))
		fprintf(c->f, "%lld", (long long)(shown_ns - c->base));
	fprintf(c->f, ",%s,", frm_fate_name(fate));
	if (stage >= 0)
		fprintf(c->f, "%d", stage);
	fprintf(c->f, ",%lld\n", (long long)fr->waited_ns);
}

int frm_frame_log_write(const char *path, const struct frm_trial *tr)
{
	struct log_ctx c = { .tr = tr };
	struct lj_outfile out;
	struct frm_account a;
	int ret = lj_outfile_open(&out, path, NULL, 0);

	if (ret)
		return ret;
	c.f = lj_outfile_stdio(&out);
	if (!c.f) {
		lj_outfile_abort(&out);
		return -ENOMEM;
	}
	c.base = frm_vsync_ns(&tr->cfg->clock, (int64_t)tr->warmup);
	fprintf(c.f, "frame,vsync_ns,present_ns,shown_ns,class,stage,waited_ns\n");
	frm_account_init(&a, &tr->cfg->clock, tr->cfg->latency_frames, tr->cfg->model);
	frm_account_frames(&a, tr->frames, tr->warmup, tr->nrun, log_fate, &c);
	return lj_outfile_commit(&out);
}
