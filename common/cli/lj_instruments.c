// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_instruments - the run's instruments' own cost: gathered from the hooks, judged, written in side.instruments. */
#include "lj_instruments.h"

#include "lj_json.h"
#include "lj_result.h"
#include "lj_validity_hook.h"

void lj_instruments_gather(struct lj_instruments *in, const struct lj_hooks *hs, uint64_t span_ns)
{
	in->n = 0;
	in->span_ns = span_ns;
	for (int i = 0; i < hs->n; i++) {
		const struct lj_hook *h = &hs->h[i];

		if (h->started && h->ops->cost && h->ops->cost(h->priv, &in->c[in->n]) > 0)
			in->n++;
	}
}

void lj_instruments_judge(const struct lj_instruments *in, struct lj_hooks *hs)
{
	char text[256];

	for (int i = 0; i < in->n; i++)
		if (lj_instr_suspect(&in->c[i], in->span_ns, text, sizeof(text)))
			lj_vhook_reason_in(hs, LJ_SUSPECT, "instrument", text);
	if (lj_instr_emulator_suspect(in->own_ns_per_period, in->period_ns, text, sizeof(text)))
		lj_vhook_reason_in(hs, LJ_SUSPECT, "emulator", text);
}

static json_object *cost_json(const struct lj_instruments *in, const struct lj_instr_cost *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "what", json_object_new_string(c->what));
	json_object_object_add(o, "cpu_ns", lj_json_int((int64_t)c->cpu_ns));
	json_object_object_add(o, "share_pct", lj_json_num(100.0 * lj_instr_share(c, in->span_ns)));
	json_object_object_add(o, "limit_pct", lj_json_num(100.0 * lj_instr_limit(c)));
	json_object_object_add(o, "cpu_ns_per_sample", in->samples ?
			       lj_json_num((double)c->cpu_ns / (double)in->samples) : NULL);
	json_object_object_add(o, "threaded", json_object_new_boolean(c->threaded));
	json_object_object_add(o, "off_measured_cpus", json_object_new_boolean(c->apart));
	json_object_object_add(o, "passes", lj_json_int((int64_t)c->passes));
	json_object_object_add(o, "outside_cpu_ns", lj_json_int((int64_t)c->after_ns));
	if (c->kernel_measured) {
		json_object_object_add(o, "kernel_ns", lj_json_int((int64_t)c->kernel_ns));
		json_object_object_add(o, "kernel_runs", lj_json_int((int64_t)c->kernel_runs));
		json_object_object_add(o, "kernel_ns_per_sample", in->samples ?
				       lj_json_num((double)c->kernel_ns / (double)in->samples) : NULL);
	}
	if (c->events) {
		json_object_object_add(o, "events", lj_json_int((int64_t)c->events));
		json_object_object_add(o, "events_per_sample", in->samples ?
				       lj_json_num((double)c->events / (double)in->samples) : NULL);
	}
	return o;
}

void lj_instruments_json(const struct lj_instruments *in, struct lj_result *res)
{
	json_object *side = lj_result_side(res), *o;

	if (!in->n)
		return;
	/* A tool may have put its own figures there (lj-frame's emulator). */
	if (!json_object_object_get_ex(side, "instruments", &o)) {
		o = json_object_new_object();
		json_object_object_add(side, "instruments", o);
	}
	json_object_object_add(o, "measured_ns", lj_json_int((int64_t)in->span_ns));
	json_object_object_add(o, "samples", lj_json_int((int64_t)in->samples));
	for (int i = 0; i < in->n; i++)
		json_object_object_add(o, in->c[i].name, cost_json(in, &in->c[i]));
}
