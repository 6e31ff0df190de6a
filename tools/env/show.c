// SPDX-License-Identifier: GPL-2.0-or-later
/* show.c - lj-env --show: the state the setup options act on, and the system identity. */
#include "lj_file.h"
#include "env.h"
#include "lj_cgroup.h"
#include "lj_cpufreq.h"
#include "lj_err.h"
#include "lj_json.h"
#include "lj_tool.h"
#include "lj_parse.h"
#include "lj_pmqos.h"
#include "lj_preempt.h"
#include "lj_setup.h"
#include "lj_result.h"
#include "lj_sysinfo.h"

#include <cpuidle.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RT_RUNTIME_SYSCTL "/proc/sys/kernel/sched_rt_runtime_us"

static json_object *state_cgroup(void)
{
	struct lj_cgroup_mounts m;
	struct lj_cgroup root;
	json_object *o = json_object_new_object();
	char path[PATH_MAX + 32], buf[64];

	if (lj_cgroup_discover(&m)) {
		json_object_object_add(o, "mode", lj_json_str("unknown"));
		return o;
	}
	json_object_object_add(o, "mode", lj_json_str(lj_cgroup_mode_name(m.mode)));
	json_object_object_add(o, "v1_cpuset", lj_json_str(m.v1_cpuset));
	json_object_object_add(o, "v1_cpuset_noprefix", json_object_new_boolean(m.v1_cpuset_noprefix));
	json_object_object_add(o, "v1_cpu", lj_json_str(m.v1_cpu));
	json_object_object_add(o, "unified", lj_json_str(m.unified));
	json_object_object_add(o, "v2_cpuset", json_object_new_boolean(m.v2_cpuset));
	json_object_object_add(o, "v2_cpu", json_object_new_boolean(m.v2_cpu));
	json_object_object_add(o, "systemd", json_object_new_boolean(m.systemd));
	json_object_object_add(o, "v2_base", lj_json_str(m.v2_base));
	if (!lj_cgroup_root(&m, &root)) {
		json_object_object_add(o, "rt_group_sched", json_object_new_boolean(root.rt_group));
		if (root.rt_group) {
			snprintf(path, sizeof(path), "%s/cpu.rt_runtime_us", root.cpu);
			if (lj_file_read(path, buf, sizeof(buf)) >= 0)
				json_object_object_add(o, "root_rt_runtime_us",
						       lj_json_int(strtoll(buf, NULL, 10)));
		}
	}
	return o;
}

static json_object *state_cpufreq(const cpu_set_t *cpus)
{
	struct lj_cpufreq_policy pol[64];
	json_object *arr;
	char why[128], list[256];
	int n;

	if (lj_cpufreq_available(cpus, why, sizeof(why)))
		return lj_json_strf("unavailable: %s", why);
	n = lj_cpufreq_policies(cpus, pol, 64);
	arr = json_object_new_array();
	for (int i = 0; i < n; i++) {
		json_object *p = json_object_new_object();

		json_object_object_add(p, "cpus", lj_json_str(lj_cpulist_format(&pol[i].cpus, list, sizeof(list))));
		json_object_object_add(p, "driver", lj_json_str(pol[i].driver));
		json_object_object_add(p, "governor", lj_json_str(pol[i].governor));
		json_object_object_add(p, "available", lj_json_str(pol[i].governors));
		json_object_object_add(p, "min_khz", lj_json_int((int64_t)pol[i].min_khz));
		json_object_object_add(p, "max_khz", lj_json_int((int64_t)pol[i].max_khz));
		json_object_object_add(p, "cur_khz", lj_json_int((int64_t)pol[i].cur_khz));
		json_object_array_add(arr, p);
	}
	return arr;
}

static json_object *state_cpuidle(const cpu_set_t *cpus)
{
	json_object *arr = json_object_new_array();

	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		json_object *c, *states;
		int n;

		if (!CPU_ISSET(cpu, cpus))
			continue;
		n = lj_pmqos_idle_states(cpu);
		if (n < 0)
			continue;
		c = json_object_new_object();
		states = json_object_new_array();
		json_object_object_add(c, "cpu", lj_json_int(cpu));
		for (int st = 0; st < n; st++) {
			json_object *s = json_object_new_object();
			char *name = cpuidle_state_name(cpu, st);

			json_object_object_add(s, "name", lj_json_str(name ? name : ""));
			json_object_object_add(s, "latency_us",
					       lj_json_int((int64_t)cpuidle_state_latency(cpu, st)));
			json_object_object_add(s, "disabled",
					       json_object_new_boolean(cpuidle_is_state_disabled(cpu, st) == 1));
			json_object_array_add(states, s);
			free(name);
		}
		json_object_object_add(c, "states", states);
		json_object_array_add(arr, c);
	}
	return arr;
}

static json_object *state_preempt(void)
{
	struct lj_preempt_info p;
	json_object *o = json_object_new_object();

	lj_preempt_detect(&p);
	json_object_object_add(o, "model", lj_json_str(lj_preempt_name(p.model)));
	json_object_object_add(o, "dynamic", json_object_new_boolean(p.dynamic));
	json_object_object_add(o, "source", lj_json_str(p.source));
	if (p.detail[0])
		json_object_object_add(o, "detail", lj_json_str(p.detail));
	return o;
}

static void add_journal(const char *path, pid_t pid, unsigned long long pidns, bool alive, int pending, void *arg)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "path", lj_json_str(path));
	json_object_object_add(j, "pid", lj_json_int(pid));
	if (pidns)	/* a container's pid: another process's here */
		json_object_object_add(j, "pidns", lj_json_int((int64_t)pidns));
	json_object_object_add(j, "alive", json_object_new_boolean(alive));
	json_object_object_add(j, "pending", lj_json_int(pending));
	json_object_array_add(arg, j);
}

/*
 * The tracefs instances runs that are gone left: traces kept after a -b
 * --tracemark break (@kept; each holds its buffers until removed) or
 * recording still (a killed run's, lj-env --restore's), with their size.
 */
static void add_traces(json_object *arr, bool kept)
{
	char names[4096], *save = NULL;

	if (!(kept ? lj_setup_tracefs_kept : lj_setup_tracefs_stale)(names, sizeof(names)))
		return;
	for (char *dir = strtok_r(names, ", ", &save); dir; dir = strtok_r(NULL, ", ", &save)) {
		json_object *j = json_object_new_object();
		char path[PATH_MAX], kb[32];

		snprintf(path, sizeof(path), "%s/buffer_total_size_kb", dir);
		json_object_object_add(j, "path", lj_json_str(dir));
		json_object_object_add(j, "kept", json_object_new_boolean(kept));
		json_object_object_add(j, "buffer_kb", lj_file_read(path, kb, sizeof(kb)) < 0 ? NULL :
				       lj_json_int(strtoll(kb, NULL, 10)));
		json_object_array_add(arr, j);
	}
}

static json_object *collect_state(void)
{
	json_object *o = json_object_new_object(), *journals = json_object_new_array();
	json_object *traces = json_object_new_array();
	cpu_set_t online;
	char buf[64];

	/* Every CPU the process may use: that is what --cpus all means. */
	if (sched_getaffinity(0, sizeof(online), &online))
		CPU_ZERO(&online);
	json_object_object_add(o, "cgroup", state_cgroup());
	if (lj_file_read(RT_RUNTIME_SYSCTL, buf, sizeof(buf)) >= 0)
		json_object_object_add(o, "sched_rt_runtime_us", lj_json_int(strtoll(buf, NULL, 10)));
	json_object_object_add(o, "cpufreq", state_cpufreq(&online));
	json_object_object_add(o, "cpuidle", state_cpuidle(&online));
	json_object_object_add(o, "preempt", state_preempt());
	lj_setup_list(NULL, add_journal, journals);
	json_object_object_add(o, "journal_dir", lj_json_str(lj_setup_journal_dir()));
	json_object_object_add(o, "journals", journals);
	add_traces(traces, true);
	add_traces(traces, false);
	json_object_object_add(o, "traces", traces);
	return o;
}

static const char *get_s(json_object *o, const char *key)
{
	json_object *v;

	/* A JSON null is "" too (json_object_get_string gives NULL for it). */
	return json_object_object_get_ex(o, key, &v) && v ? json_object_get_string(v) : "";
}

static bool get_bool(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_get_boolean(v);
}

/* "MOUNT (v1)", "MOUNT (v2)" or "none": where a controller is. */
static const char *controller_where(json_object *cg, const char *v1, const char *v2, char *out, size_t len)
{
	char noprefix[32];

	snprintf(noprefix, sizeof(noprefix), "%s_noprefix", v1);
	if (get_s(cg, v1)[0])
		snprintf(out, len, "%s (v1%s)", get_s(cg, v1), get_bool(cg, noprefix) ? ", noprefix" : "");
	else if (get_bool(cg, v2))
		snprintf(out, len, "%s (v2)", get_s(cg, "unified"));
	else
		snprintf(out, len, "none");
	return out;
}

static void print_text(json_object *st)
{
	json_object *cg, *v, *arr;
	char where[2][PATH_MAX + 8];

	json_object_object_get_ex(st, "cgroup", &cg);
	printf("cgroup:      mode %s; cpuset %s; cpu %s", get_s(cg, "mode"),
	       controller_where(cg, "v1_cpuset", "v2_cpuset", where[0], sizeof(where[0])),
	       controller_where(cg, "v1_cpu", "v2_cpu", where[1], sizeof(where[1])));
	if (json_object_object_get_ex(cg, "root_rt_runtime_us", &v))
		printf("; RT group scheduling, root cpu.rt_runtime_us %s", json_object_get_string(v));
	else if (get_s(cg, "v1_cpu")[0])
		printf("; no RT group scheduling");
	if (get_bool(cg, "v2_cpuset") || get_bool(cg, "v2_cpu")) {
		if (get_s(cg, "v2_base")[0])
			printf("; v2 groups made in %s", get_s(cg, "v2_base"));
		else
			printf("; managed by systemd, no group delegated to this process: --cgroup needs systemd-run --scope -p Delegate=yes");
	}
	printf("\n");
	if (json_object_object_get_ex(st, "sched_rt_runtime_us", &v))
		printf("rt throttle: sched_rt_runtime_us %s%s\n", json_object_get_string(v),
		       json_object_get_int64(v) < 0 ? " (off)" : " (on)");
	json_object_object_get_ex(st, "cpufreq", &v);
	if (json_object_is_type(v, json_type_string)) {
		printf("cpufreq:     %s\n", json_object_get_string(v));
	} else {
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			json_object *p = json_object_array_get_idx(v, i);

			printf("cpufreq:     cpus %s: %s governor %s (available: %s) %s-%s kHz, now %s\n",
			       get_s(p, "cpus"), get_s(p, "driver"), get_s(p, "governor"),
			       get_s(p, "available"), get_s(p, "min_khz"), get_s(p, "max_khz"),
			       get_s(p, "cur_khz"));
		}
	}
	json_object_object_get_ex(st, "cpuidle", &arr);
	if (!json_object_array_length(arr))
		printf("cpuidle:     unavailable: no cpuidle driver\n");
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *c = json_object_array_get_idx(arr, i), *states;

		printf("cpuidle:     cpu%s:", get_s(c, "cpu"));
		json_object_object_get_ex(c, "states", &states);
		for (size_t k = 0; k < json_object_array_length(states); k++) {
			json_object *s = json_object_array_get_idx(states, k), *d;

			json_object_object_get_ex(s, "disabled", &d);
			printf(" %s(%sus)%s", get_s(s, "name"), get_s(s, "latency_us"),
			       json_object_get_boolean(d) ? " disabled" : "");
		}
		printf("\n");
	}
	json_object_object_get_ex(st, "preempt", &v);
	printf("preemption:  %s%s, from %s%s%s\n", get_s(v, "model"),
	       json_object_object_get_ex(v, "dynamic", &cg) && json_object_get_boolean(cg) ? " (dynamic)" : "",
	       get_s(v, "source"), get_s(v, "detail")[0] ? "; " : "", get_s(v, "detail"));
	json_object_object_get_ex(st, "journals", &arr);
	if (!json_object_array_length(arr))
		printf("journals:    none in %s\n", get_s(st, "journal_dir"));
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *j = json_object_array_get_idx(arr, i), *alive, *ns = NULL;

		json_object_object_get_ex(j, "alive", &alive);
		json_object_object_get_ex(j, "pidns", &ns);
		printf("journal:     %s: pid %s%s%s %s, %s change(s) pending%s\n", get_s(j, "path"),
		       get_s(j, "pid"), ns ? " of PID namespace " : "", ns ? json_object_get_string(ns) : "",
		       json_object_get_boolean(alive) ? "running" : "dead",
		       get_s(j, "pending"),
		       json_object_get_boolean(alive) ? "" : ": run lj-env --restore");
	}
	json_object_object_get_ex(st, "traces", &arr);
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *j = json_object_array_get_idx(arr, i);
		bool kept = get_bool(j, "kept");

		printf("trace:       %s: %s, %s KiB of buffers: %s\n", get_s(j, "path"),
		       kept ? "kept after a -b break" : "still recording, its run gone", get_s(j, "buffer_kb"),
		       kept ? "rmdir it when read" : "run lj-env --restore");
	}
}

int env_show(const struct env_config *cfg)
{
	json_object *st = collect_state(), *sys = lj_sysinfo_collect();

	if (!st || !sys) {
		lj_error("cannot collect the state: out of memory");
		json_object_put(st);
		json_object_put(sys);
		return LJ_EXIT_RUNTIME;
	}
	if (cfg->json) {
		json_object *doc = json_object_new_object();
		FILE *out = stdout;

		json_object_object_add(doc, "state", st);
		json_object_object_add(doc, "system", sys);
		if (strcmp(cfg->json, "-")) {
			int ret = 0;

			/* a refused path said in words (a planted link), not as ELOOP */
			if (lj_tool_check_outputs(&cfg->json, 1)) {
				json_object_put(doc);
				return LJ_EXIT_RUNTIME;
			}
			ret = lj_json_write_atomic(doc, cfg->json);

			json_object_put(doc);
			if (ret) {
				lj_error_errno(ret, "cannot write %s", cfg->json);
				return LJ_EXIT_RUNTIME;
			}
			return LJ_EXIT_OK;
		}
		fprintf(out, "%s\n", json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
								    JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(doc);
		return LJ_EXIT_OK;
	}
	print_text(st);
	printf("system:      %s %s, %s, CPUs %s online, virtualised: %s (all of it with --json)\n",
	       get_s(sys, "kernel_release"), get_s(sys, "machine"), get_s(sys, "cpu_model"),
	       get_s(sys, "cpus_online"), get_s(sys, "virtualised"));
	json_object_put(st);
	json_object_put(sys);
	return LJ_EXIT_OK;
}
