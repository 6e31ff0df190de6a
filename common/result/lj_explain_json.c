// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_explain_json - explanations and aggregated causes as result-document JSON. */
#include "lj_explain_json.h"
#include "lj_json.h"

json_object *lj_cause_json(const struct lj_cause *c)
{
	json_object *o = json_object_new_object();
	char sch[24];

	json_object_object_add(o, "kind", json_object_new_string(lj_cause_kind_name(c->kind)));
	json_object_object_add(o, "name", json_object_new_string(c->name));
	switch (c->kind) {
	case LJ_CAUSE_TASK:
	case LJ_CAUSE_SELF:
		json_object_object_add(o, "pid", lj_json_int(c->id));
		json_object_object_add(o, "sched",
				       json_object_new_string(lj_cause_sched_text(c, sch, sizeof(sch))));
		json_object_object_add(o, "prio", lj_json_int(c->prio));
		break;
	case LJ_CAUSE_IRQ:
		json_object_object_add(o, "irq", c->id < 0 ? NULL : lj_json_int(c->id));
		break;
	case LJ_CAUSE_SOFTIRQ:
		json_object_object_add(o, "vec", lj_json_int(c->id));
		break;
	default:
		break;
	}
	lj_json_add_int(o, "ns", (int64_t)c->ns);
	json_object_object_add(o, "count", lj_json_int(c->count));
	return o;
}

json_object *lj_explanation_json(const struct lj_explanation *x, const char *what,
				 uint64_t start_ns)
{
	json_object *o = json_object_new_object(), *causes = json_object_new_array(), *mig = NULL;

	json_object_object_add(o, "kind", json_object_new_string(what));
	json_object_object_add(o, "cpu", lj_json_int(x->cpu));
	json_object_object_add(o, "due_cpu", lj_json_int(x->due_cpu));
	json_object_object_add(o, "tid", lj_json_int(x->tid));
	lj_json_add_int(o, "at_ns", (int64_t)(x->due_ns > start_ns ? x->due_ns - start_ns : 0));
	lj_json_add_int(o, "latency_ns", (int64_t)x->latency_ns);
	json_object_object_add(o, "state", json_object_new_string(lj_late_state_name(x->state)));
	lj_json_add_int(o, "wake_delay_ns", (int64_t)x->wake_delay_ns);
	lj_json_add_int(o, "runq_wait_ns", (int64_t)x->runq_wait_ns);
	lj_json_add_int(o, "idle_exit_ns", (int64_t)x->idle_exit_ns);
	lj_json_add_int(o, "lower_prio_ns", (int64_t)x->lower_prio_ns);
	if (x->migrated) {
		mig = json_object_new_object();
		json_object_object_add(mig, "from", lj_json_int(x->mig_from));
		json_object_object_add(mig, "to", lj_json_int(x->mig_to));
	}
	json_object_object_add(o, "migrated", mig);
	json_object_object_add(o, "freq_khz", x->freq_khz ? lj_json_int(x->freq_khz) : NULL);
	lj_json_add_int(o, "unaccounted_ns", (int64_t)lj_explain_unaccounted(x));
	json_object_object_add(o, "incomplete", json_object_new_boolean(x->incomplete));
	json_object_object_add(o, "switch_inferred", json_object_new_boolean(x->switch_inferred));
	for (int i = 0; i < x->ncauses; i++)
		json_object_array_add(causes, lj_cause_json(&x->causes[i]));
	json_object_object_add(o, "causes", causes);
	return o;
}
