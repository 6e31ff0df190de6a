// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_setupopt - the shared setup options: parse, apply through the setup stack, record, restore. */
#include "lj_setupopt.h"
#include "lj_cgroup.h"
#include "lj_cpufreq.h"
#include "lj_err.h"
#include "lj_file.h"
#include "lj_parse.h"
#include "lj_pmqos.h"
#include "lj_preempt.h"
#include "lj_setup.h"
#include "lj_time.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RT_RUNTIME_SYSCTL "/proc/sys/kernel/sched_rt_runtime_us"
#define RT_RUNTIME_DEFAULT "950000"

enum {
	K_CGROUP = LJ_OPT_LONG_BASE + 0x200,
	K_CPUS,
	K_GOVERNOR,
	K_PREEMPT,
	K_DMA,
	K_IDLE,
	K_RT_RUNTIME,
	K_RT_THROTTLE,
	K_DEPTH,
	K_STRICT,
	K_POLICY_FALLBACK,
	K_JOURNAL,
	K_RESTORE_STALE,
	K_POWER,
	K_PERFETTO,
	K_PERFETTO_THRESHOLD,
	K_CPU_WEIGHT,
	K_CPU_MAX,
};

#define AT(f) .off = offsetof(struct lj_setupopt, f)

/* Typed where a value is stored as given (lj_opt_store); the handler checks names, paths and modes. */
static const struct lj_opt setup_opts[] = {
	{ "cgroup", K_CGROUP, LJ_OPT_ARG, "NAME|off", "run in group NAME (cpuset and cpu hierarchies) or the root groups",
	  .group = "setup options: group and CPUs" },
	{ "cgroup-depth", K_DEPTH, LJ_OPT_ARG, "N", "nest the group N levels deep (default 1)",
	  LJ_OPT_INT, AT(cgroup_depth), .min = 1, .max = 16 },
	{ "cpus", K_CPUS, LJ_OPT_ARG, "SELECTOR", "CPUs: all, online, big, little, big:N, 0-3,6 (group cpuset, else affinity)",
	  .values = LJ_OPT_CPU_SELECTOR_VALUES },
	{ "cpu-weight", K_CPU_WEIGHT, LJ_OPT_ARG, "N", "the group's CPU weight, 1..10000, 100 the default (v2 cpu.weight, v1 cpu.shares)",
	  LJ_OPT_INT, AT(cpu_weight), .min = 1, .max = 10000 },
	{ "cpu-max", K_CPU_MAX, LJ_OPT_ARG, "US[/PERIOD]", "the group's CPU bandwidth: US microseconds per PERIOD (default 100000)" },
	{ "rt-runtime", K_RT_RUNTIME, LJ_OPT_ARG, "US", "the group's cpu.rt_runtime_us (default: half the free RT budget)",
	  LJ_OPT_I64, AT(rt_runtime_us), .min = 0, .max = 1000000 },
	{ "governor", K_GOVERNOR, LJ_OPT_ARG, "NAME", "cpufreq governor on the policies covering --cpus",
	  .group = "setup options: kernel and power management" },
	{ "preempt", K_PREEMPT, LJ_OPT_ARG, "MODE", "dynamic preemption mode: none, voluntary, full, lazy",
	  .values = "none voluntary full lazy" },
	{ "dma-latency", K_DMA, LJ_OPT_ARG, "US", "hold /dev/cpu_dma_latency at US microseconds",
	  LJ_OPT_INT, AT(dma_latency_us), .min = 0, .max = INT32_MAX },
	{ "idle-state", K_IDLE, LJ_OPT_ARG, "N", "disable cpuidle states deeper than N on --cpus",
	  LJ_OPT_INT, AT(idle_state), .min = 0, .max = 63 },
	{ "rt-throttle", K_RT_THROTTLE, LJ_OPT_ARG, "on|off", "RT throttling (/proc/sys/kernel/sched_rt_runtime_us)",
	  .values = "on off" },
	{ "strict", K_STRICT, LJ_OPT_NOARG, NULL, "a missing capability is fatal (exit 77)", LJ_OPT_FLAG, AT(strict),
	  .group = "setup options: the setup itself" },
	{ "policy-fallback", K_POLICY_FALLBACK, LJ_OPT_NOARG, NULL,
	  "a measuring tool: threads refused their policy measure at SCHED_OTHER, exit 0 (the run is invalid)",
	  LJ_OPT_FLAG, AT(policy_fallback) },
	{ "journal", K_JOURNAL, LJ_OPT_ARG, "PATH", "setup journal (default /run/ljkit/journal.PID)" },
	{ "restore-stale", K_RESTORE_STALE, LJ_OPT_NOARG, NULL, "first undo setups left by dead ljkit processes",
	  LJ_OPT_FLAG, AT(restore_stale) },
	{ "power", K_POWER, LJ_OPT_NOARG, NULL, "frequency, idle, energy and thermal figures of the run (docs/power.md)",
	  LJ_OPT_FLAG, AT(power),
	  .group = "setup options: what a run records" },
	{ "perfetto", K_PERFETTO, LJ_OPT_ARG, "FILE",
	  "a measuring tool: write the run as a trace for ui.perfetto.dev, chrome://tracing (docs/perfetto.md)" },
	{ "perfetto-threshold", K_PERFETTO_THRESHOLD, LJ_OPT_ARG, "TIME",
	  "the trace's slices: every sample above TIME (bare number: us; default each thread's 64 largest)" },
	{ 0 }
};

void lj_setupopt_init(struct lj_setupopt *o)
{
	memset(o, 0, sizeof(*o));
	o->dma_latency_us = -1;
	o->idle_state = -1;
	o->rt_runtime_us = -1;
	o->rt_throttle = -1;
	o->cgroup_depth = 1;
	o->dma_fd = -1;
}

/* A group name is a relative path of plain components: no "..", no leading '/'. */
static bool valid_group_name(const char *s)
{
	if (!*s || *s == '/' || strstr(s, "..") || strstr(s, "//") || s[strlen(s) - 1] == '/')
		return false;
	for (; *s; s++)
		if (!(*s == '-' || *s == '_' || *s == '.' || *s == '/' ||
		      (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
			return false;
	return true;
}

/* --cpu-max US[/PERIOD]: the kernel's limits, 1 ms to 1 s for the period, at least 1 ms of quota. */
static int parse_cpu_max(struct lj_setupopt *o, const char *arg)
{
	char quota[32];
	const char *slash = strchr(arg, '/');
	size_t n = slash ? (size_t)(slash - arg) : strlen(arg);
	int ret;

	if (n >= sizeof(quota))
		return lj_opt_invalid("--cpu-max", arg, "use US or US/PERIOD, in microseconds");
	memcpy(quota, arg, n);
	quota[n] = '\0';
	o->cpu_period_us = 100000;
	ret = lj_opt_i64("--cpu-max", quota, 1000, INT32_MAX, &o->cpu_max_us);
	if (!ret && slash)
		ret = lj_opt_i64("--cpu-max", slash + 1, 1000, 1000000, &o->cpu_period_us);
	return ret;
}

static int handle(void *ctx, int key, const char *arg)
{
	struct lj_setupopt *o = ctx;
	bool b;
	int ret;

	switch (key) {
	case K_CGROUP:
		if (strcmp(arg, "off") && !valid_group_name(arg))
			return lj_opt_invalid("--cgroup", arg,
					      "use off or a relative name of letters, digits, '-', '_', '.', '/'");
		o->cgroup = arg;
		return 0;
	case K_CPUS:
		if (!*arg)
			return lj_opt_invalid("--cpus", arg, "empty selector");
		o->cpus = arg;
		return 0;
	case K_GOVERNOR:
		if (!*arg || strchr(arg, '/') || strchr(arg, ' ') || strlen(arg) >= 32)
			return lj_opt_invalid("--governor", arg, "not a governor name");
		o->governor = arg;
		return 0;
	case K_PREEMPT:
		{
			enum lj_preempt_model m;

			if (lj_preempt_parse(arg, &m) || m == LJ_PREEMPT_UNKNOWN || m == LJ_PREEMPT_RT)
				return lj_opt_invalid("--preempt", arg, "use none, voluntary, full or lazy");
		}
		o->preempt = arg;
		return 0;
	case K_RT_THROTTLE:
		ret = lj_opt_bool("--rt-throttle", arg, &b);
		if (!ret)
			o->rt_throttle = b;
		return ret;
	case K_CPU_MAX:
		return parse_cpu_max(o, arg);
	case K_JOURNAL:
		if (!*arg)
			return lj_opt_invalid("--journal", arg, "empty path");
		o->journal = arg;
		return 0;
	case K_PERFETTO:
		if (!*arg)
			return lj_opt_invalid("--perfetto", arg, "empty path");
		o->perfetto = arg;
		return 0;
	case K_PERFETTO_THRESHOLD:
		ret = lj_opt_duration("--perfetto-threshold", arg, LJ_NSEC_PER_USEC, &o->perfetto_threshold_ns);
		if (!ret && o->perfetto_threshold_ns <= 0)
			return lj_opt_invalid("--perfetto-threshold", arg, "must be more than 0");
		return ret;
	}
	return LJ_EXIT_USAGE;
}

struct lj_opt_table lj_setupopt_table(struct lj_setupopt *o)
{
	struct lj_opt_table t = { "setup options", setup_opts, handle, o };

	return t;
}

/* ---- apply ---- */

struct apply {
	struct lj_setupopt *o;
	struct lj_setup *s;
	json_object *applied, *fallbacks;
};

static void note_applied(struct apply *a, const char *what, const char *value)
{
	json_object *e;

	if (!a->applied)
		return;
	e = json_object_new_object();
	json_object_object_add(e, "what", json_object_new_string(what));
	json_object_object_add(e, "value", json_object_new_string(value));
	json_object_array_add(a->applied, e);
}

/*
 * A capability is missing: warn, record the fallback, go on; under
 * --strict that is fatal. Return: 0 to continue or LJ_EXIT_NOCAP.
 */
static int fall_back(struct apply *a, const char *what, const char *reason)
{
	json_object *e;

	if (a->o->strict) {
		lj_error("%s not applied: %s", what, reason);
		return LJ_EXIT_NOCAP;
	}
	lj_warn("%s not applied: %s; running without it", what, reason);
	if (a->fallbacks) {
		e = json_object_new_object();
		json_object_object_add(e, "what", json_object_new_string(what));
		json_object_object_add(e, "reason", json_object_new_string(reason));
		json_object_array_add(a->fallbacks, e);
	}
	return 0;
}

static bool is_capability(int err)
{
	return err == -EPERM || err == -EACCES || err == -EROFS || err == -ENODEV ||
	       err == -ENOTSUP || err == -ENOENT || err == -ENOSYS;
}

/*
 * The stack refused because of its journal or lock (lj_setup_conflict says
 * so), and that is an error, not a capability to run without: only a user
 * without privilege, who cannot use root's journal directory, falls back.
 */
static bool journal_error(struct apply *a, int err)
{
	return lj_setup_conflict(a->s)[0] && err != -EBUSY && !(geteuid() && is_capability(err));
}

static void say_info(const char *line, void *arg)
{
	if (!strncmp(line, "cannot", 6))
		lj_warn("%s", line);
	else
		lj_info("%s", line);
}

static int resolve_cpus(struct lj_setupopt *o, const struct lj_topo *t)
{
	const char *sel = o->cpus ? o->cpus : "all";
	char why[256] = "unknown";
	cpu_set_t allowed;

	memset(&o->cpusel, 0, sizeof(o->cpusel));
	if (t) {
		if (lj_cpus_select(t, sel, &o->cpusel, why, sizeof(why))) {
			lj_error("invalid --cpus '%s': %s", sel, why);
			return LJ_EXIT_USAGE;
		}
		return 0;
	}
	/* Without a topology only "all" and plain lists are understood. */
	snprintf(o->cpusel.spec, sizeof(o->cpusel.spec), "%s", sel);
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		lj_error_errno(-errno, "cannot read the CPU affinity");
		return LJ_EXIT_RUNTIME;
	}
	if (!strcmp(sel, "all")) {
		o->cpusel.set = allowed;
		return 0;
	}
	if (lj_parse_cpulist(sel, &o->cpusel.set, 0, why, sizeof(why))) {
		lj_error("invalid --cpus '%s': %s", sel, why);
		return LJ_EXIT_USAGE;
	}
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &o->cpusel.set) && !CPU_ISSET(cpu, &allowed)) {
			lj_error("invalid --cpus '%s': CPU %d is not allowed", sel, cpu);
			return LJ_EXIT_USAGE;
		}
	return 0;
}

/* A killed --explain run's instance records every context switch until it is removed: say so. */
static void warn_stale_tracefs(void)
{
	char first[4096];
	int n = lj_setup_tracefs_stale(first, sizeof(first));

	if (n > 0)
		lj_warn("found %d tracefs instance%s of dead ljkit processes still recording (%s): it disturbs every measurement; run 'lj-env --restore' (or rmdir it)",
			n, n == 1 ? "" : "s", first);
}

static int check_stale(struct lj_setupopt *o)
{
	char first[4096];
	int n = lj_setup_find_stale(NULL, first, sizeof(first));

	if (n <= 0) {
		warn_stale_tracefs();
		return 0;
	}
	if (!o->restore_stale) {
		lj_warn("found %d stale setup journal%s of dead ljkit processes (%s): the system may not be as it was; run 'lj-env --restore' or pass --restore-stale",
			n, n == 1 ? "" : "s", first);
		warn_stale_tracefs();
		return 0;
	}
	n = lj_setup_restore_stale(NULL, NULL, say_info, NULL);
	if (n < 0) {
		lj_error_errno(n, "cannot restore stale setup journals");
		return LJ_EXIT_RUNTIME;
	}
	lj_warn("restored %d stale setup journal%s", n, n == 1 ? "" : "s");
	warn_stale_tracefs();
	return 0;
}

static int apply_rt_throttle(struct apply *a)
{
	const char *val = a->o->rt_throttle ? RT_RUNTIME_DEFAULT : "-1";
	char cur[64];
	int ret;

	/* Throttling already as asked keeps its runtime; the write still claims the setting. */
	if (lj_file_read(RT_RUNTIME_SYSCTL, cur, sizeof(cur)) >= 0 &&
	    (a->o->rt_throttle ? strcmp(cur, "-1") != 0 : !strcmp(cur, "-1")))
		val = cur;
	ret = lj_setup_write(a->s, RT_RUNTIME_SYSCTL, val);
	if (ret == -EBUSY) {
		lj_error("cannot change RT throttling: %s", lj_setup_conflict(a->s));
		return LJ_EXIT_RUNTIME;
	}
	if (ret) {
		char why[PATH_MAX + 256];

		if (journal_error(a, ret)) {
			lj_error("cannot change RT throttling: %s", lj_setup_conflict(a->s));
			return LJ_EXIT_RUNTIME;
		}
		if (lj_setup_conflict(a->s)[0])	/* the journal or its lock, not the sysctl */
			snprintf(why, sizeof(why), "%s", lj_setup_conflict(a->s));
		else
			snprintf(why, sizeof(why), "%s: %s", RT_RUNTIME_SYSCTL, lj_strerror(ret));
		if (is_capability(ret))
			return fall_back(a, "--rt-throttle", why);
		lj_error("cannot change RT throttling: %s", why);
		return LJ_EXIT_RUNTIME;
	}
	note_applied(a, "rt_throttle", a->o->rt_throttle ? "on" : "off");
	return 0;
}

static int apply_governor(struct apply *a)
{
	char why[512] = "";
	int ret = lj_cpufreq_set_governor(a->s, &a->o->cpusel.set, a->o->governor, why, sizeof(why));

	if (ret >= 0) {
		note_applied(a, "governor", a->o->governor);
		return 0;
	}
	if (ret == -EINVAL) {
		lj_error("invalid --governor '%s': %s", a->o->governor, why);
		return LJ_EXIT_USAGE;
	}
	if (ret == -EBUSY) {
		lj_error("cannot set governor: %s", why);
		return LJ_EXIT_RUNTIME;
	}
	if (is_capability(ret)) {
		char msg[600];

		snprintf(msg, sizeof(msg), "unavailable: %s", why);
		return fall_back(a, "--governor", msg);
	}
	lj_error("cannot set governor '%s': %s", a->o->governor, why);
	return LJ_EXIT_RUNTIME;
}

static int apply_idle(struct apply *a)
{
	char why[512] = "", val[64];
	int ret = lj_pmqos_idle_limit(a->s, &a->o->cpusel.set, a->o->idle_state, why, sizeof(why));

	if (ret >= 0) {
		snprintf(val, sizeof(val), "%d (%d state%s disabled)", a->o->idle_state, ret,
			 ret == 1 ? "" : "s");
		note_applied(a, "idle_state", val);
		return 0;
	}
	if (ret == -EBUSY) {
		lj_error("cannot limit idle states: %s", why);
		return LJ_EXIT_RUNTIME;
	}
	if (is_capability(ret))
		return fall_back(a, "--idle-state", why);
	lj_error("cannot limit idle states: %s", why);
	return LJ_EXIT_RUNTIME;
}

static int apply_preempt(struct apply *a)
{
	enum lj_preempt_model want, cur;
	char why[512] = "";
	int ret;

	if (lj_preempt_parse(a->o->preempt, &want)) {
		lj_error("invalid --preempt '%s'", a->o->preempt);
		return LJ_EXIT_USAGE;
	}
	ret = lj_preempt_current_debugfs(&cur);
	if (ret) {
		struct lj_preempt_info info;

		/*
		 * Nothing to switch if another source says the mode is in
		 * force already. The dynamic mode, not the model: a
		 * PREEMPT_RT kernel has model rt and mode full or lazy.
		 */
		lj_preempt_detect(&info);
		if (info.mode == want) {
			snprintf(why, sizeof(why), "%s (already, per %s)", lj_preempt_name(want), info.source);
			note_applied(a, "preempt", why);
			return 0;
		}
	} else if (cur == want) {
		note_applied(a, "preempt", lj_preempt_name(want));
		return 0;
	}
	/*
	 * Never switch without the old mode recorded: check first, writing
	 * nothing (lockdown, not dynamic, unreadable or unparsable file),
	 * then read the mode to record it.
	 */
	ret = lj_preempt_can_switch(want, why, sizeof(why));
	if (!ret && (ret = lj_preempt_current_debugfs(&cur)))
		snprintf(why, sizeof(why), "the current mode cannot be read to restore it: %s",
			 lj_strerror(ret));
	if (ret == -EINVAL) {
		lj_error("invalid --preempt '%s': %s", a->o->preempt, why);
		return LJ_EXIT_USAGE;
	}
	if (ret)
		return fall_back(a, "--preempt", why[0] ? why : lj_strerror(ret));
	if (cur == want) {
		note_applied(a, "preempt", lj_preempt_name(want));
		return 0;
	}
	ret = lj_setup_push_preempt(a->s, lj_preempt_name(cur));
	if (ret == -EBUSY) {
		lj_error("cannot switch preemption: %s", lj_setup_conflict(a->s));
		return LJ_EXIT_RUNTIME;
	}
	if (ret)
		snprintf(why, sizeof(why), "%s", lj_setup_why(a->s, ret));
	else
		ret = lj_preempt_set(want, why, sizeof(why));
	if (ret) {
		lj_setup_forget_last(a->s);
		if (ret == -EINVAL) {
			lj_error("invalid --preempt '%s': %s", a->o->preempt, why);
			return LJ_EXIT_USAGE;
		}
		return fall_back(a, "--preempt", why[0] ? why : lj_strerror(ret));
	}
	note_applied(a, "preempt", lj_preempt_name(want));
	return 0;
}

static int cgroup_error(struct apply *a, const char *what, struct lj_cgroup *cg, int ret)
{
	const char *hint = cg->why ? cg->why : lj_cgroup_hint(ret, cg->errfile);
	char why[PATH_MAX + 256];

	if (ret == -EBUSY && lj_setup_conflict(a->s)[0]) {
		lj_error("cannot %s: %s", what, lj_setup_conflict(a->s));
		return LJ_EXIT_RUNTIME;
	}
	/* The journal or its lock failed, not the cgroup: say so, without a cgroup hint. */
	if (lj_setup_conflict(a->s)[0]) {
		snprintf(why, sizeof(why), "%s", lj_setup_conflict(a->s));
		if (!journal_error(a, ret))
			return fall_back(a, "--cgroup", why);
		lj_error("cannot %s: %s", what, why);
		return LJ_EXIT_RUNTIME;
	}
	snprintf(why, sizeof(why), "%s: %s%s%s", cg->errfile[0] ? cg->errfile : "cgroup",
		 lj_strerror(ret), hint[0] ? " (" : "", hint[0] ? hint : "");
	if (hint[0])
		strcat(why, ")");
	if (ret == -EPERM || ret == -EACCES || ret == -EROFS || ret == -ENODEV || ret == -ENOTSUP) {
		char msg[PATH_MAX + 320];

		snprintf(msg, sizeof(msg), "cannot %s: %s", what, why);
		return fall_back(a, "--cgroup", msg);
	}
	lj_error("cannot %s: %s", what, why);
	return ret == -ERANGE || ret == -EINVAL ? LJ_EXIT_USAGE : LJ_EXIT_RUNTIME;
}

/*
 * A created v1 group's cpu.rt_runtime_us: --rt-runtime, or by default half
 * of what the parent has left, so SCHED_FIFO threads can join and a second
 * ljkit group (a parallel test) still gets some.
 */
static int apply_rt_budget(struct apply *a, struct lj_cgroup *cg)
{
	const struct lj_setupopt *o = a->o;
	int64_t us = o->rt_runtime_us >= 0 ? o->rt_runtime_us : lj_cgroup_rt_available(cg) / 2;
	char val[64];
	int ret;

	if (us < 0)
		return 0;
	ret = lj_cgroup_set_rt_runtime(a->s, cg, us);
	/*
	 * EINVAL: another group took budget between reading and writing, or
	 * a group removed just now (by a tool that did not zero its budget
	 * first) still holds its share until the kernel frees it. Ask again
	 * after a pause that doubles (10 ms, 2.5 s in all).
	 */
	for (int tries = 0; ret == -EINVAL && o->rt_runtime_us < 0 && tries < 8; tries++) {
		struct timespec pause = lj_ns_to_ts((10LL << tries) * LJ_NSEC_PER_MSEC);

		nanosleep(&pause, NULL);
		us = lj_cgroup_rt_available(cg) / 2;
		if (us < 0)
			break;
		ret = lj_cgroup_set_rt_runtime(a->s, cg, us);
	}
	if (ret)
		return cgroup_error(a, "set the group's cpu.rt_runtime_us", cg, ret);
	snprintf(val, sizeof(val), "%lld%s", (long long)us, o->rt_runtime_us >= 0 ? "" : " (half the free RT budget)");
	note_applied(a, "rt_runtime_us", val);
	return 0;
}

/* Why a group has no RT runtime of its own: the one line for --rt-runtime. */
static const char *no_rt_runtime(const struct lj_cgroup *cg)
{
	if (cg->v2_cpu)
		return "cgroup v2 has no RT runtime per group (cpu.rt_runtime_us is cgroup v1's, with CONFIG_RT_GROUP_SCHED)";
	return "no RT group scheduling: the kernel has no cpu.rt_runtime_us (CONFIG_RT_GROUP_SCHED is off)";
}

/*
 * --cpu-weight and --cpu-max on the group's cpu controller. The weight is
 * v2's scale: v1's cpu.shares get weight x 1024 / 100 (as systemd maps
 * CPUWeight=), so 100 is both hierarchies' default.
 */
static int apply_cpu_share(struct apply *a, struct lj_cgroup *cg)
{
	const struct lj_setupopt *o = a->o;
	char val[96];
	int ret;

	if ((o->cpu_weight || o->cpu_max_us) && !cg->cpu[0])
		return fall_back(a, o->cpu_weight ? "--cpu-weight" : "--cpu-max", "no cpu cgroup controller");
	if (o->cpu_weight) {
		uint64_t w = cg->v2_cpu ? (uint64_t)o->cpu_weight : (uint64_t)o->cpu_weight * 1024 / 100;

		ret = lj_cgroup_set_weight(a->s, cg, w < 2 && !cg->v2_cpu ? 2 : w);
		if (ret)
			return cgroup_error(a, "set the group's CPU weight", cg, ret);
		snprintf(val, sizeof(val), "%d (%s %llu)", o->cpu_weight, cg->v2_cpu ? "cpu.weight" : "cpu.shares",
			 (unsigned long long)(w < 2 && !cg->v2_cpu ? 2 : w));
		note_applied(a, "cpu_weight", val);
	}
	if (o->cpu_max_us) {
		ret = lj_cgroup_set_max(a->s, cg, o->cpu_max_us, o->cpu_period_us);
		if (ret)
			return cgroup_error(a, "set the group's CPU bandwidth", cg, ret);
		snprintf(val, sizeof(val), "%lld us per %lld us", (long long)o->cpu_max_us, (long long)o->cpu_period_us);
		note_applied(a, "cpu_max", val);
	}
	return 0;
}

/*
 * The group's RT runtime: a created v1 group's budget (by default), the
 * root's with --cgroup off; without RT group scheduling --rt-runtime is the
 * one fallback line of no_rt_runtime.
 */
static int apply_group_rt(struct apply *a, struct lj_cgroup *cg)
{
	int ret;

	if (!cg->rt_group)
		return a->o->rt_runtime_us >= 0 ? fall_back(a, "--rt-runtime", no_rt_runtime(cg)) : 0;
	if (!cg->root)
		return apply_rt_budget(a, cg);
	if (a->o->rt_runtime_us < 0)
		return 0;
	ret = lj_cgroup_set_rt_runtime(a->s, cg, a->o->rt_runtime_us);
	return ret ? cgroup_error(a, "set the root group's cpu.rt_runtime_us", cg, ret) : 0;
}

static int apply_cgroup(struct apply *a)
{
	struct lj_setupopt *o = a->o;
	struct lj_cgroup_mounts m;
	struct lj_cgroup cg;
	char val[PATH_MAX * 2 + 64];
	int ret;

	ret = lj_cgroup_discover(&m);
	if (!ret)
		ret = lj_cgroup_root(&m, &cg);
	if (ret) {
		snprintf(val, sizeof(val), "no cpuset or cpu cgroup controller mounted (cgroup mode %s)",
			 lj_cgroup_mode_name(m.mode));
		return fall_back(a, "--cgroup", val);
	}
	if (strcmp(o->cgroup, "off")) {
		ret = lj_cgroup_create(a->s, &m, o->cgroup, o->cgroup_depth, &cg);
		if (ret)
			return cgroup_error(a, "create the group", &cg, ret);
		if (cg.cpuset[0]) {
			ret = lj_cgroup_set_cpus(a->s, &cg, &o->cpusel.set);
			if (ret)
				return cgroup_error(a, "set the group's CPUs", &cg, ret);
		}
	}
	ret = apply_group_rt(a, &cg);
	if (!ret)
		ret = apply_cpu_share(a, &cg);
	if (ret)
		return ret;
	ret = lj_cgroup_attach_process(&cg, 0);
	if (ret)
		return cgroup_error(a, "join the group", &cg, ret);
	snprintf(val, sizeof(val), "%s (cpuset %s, cpu %s)", o->cgroup,
		 cg.cpuset[0] ? cg.cpuset : "-", cg.cpu[0] ? cg.cpu : "-");
	note_applied(a, "cgroup", val);
	return 0;
}

/* Pin every thread of this process: tools may already run helpers. */
static int pin_all_threads(const cpu_set_t *set)
{
	struct dirent *d;
	DIR *dp = opendir("/proc/self/task");
	int ret = 0;

	if (!dp)
		return lj_cpus_pin(0, set);
	while ((d = readdir(dp))) {
		long tid;

		if (d->d_name[0] == '.')
			continue;
		tid = strtol(d->d_name, NULL, 10);
		if (tid > 0 && sched_setaffinity((pid_t)tid, sizeof(*set), set) && errno != ESRCH && !ret)
			ret = -errno;
	}
	closedir(dp);
	return ret;
}

static int apply_all(struct apply *a, const struct lj_topo *t)
{
	struct lj_setupopt *o = a->o;
	char list[1024];
	int ret;

	if (o->rt_throttle >= 0 && (ret = apply_rt_throttle(a)))
		return ret;
	if (o->governor && (ret = apply_governor(a)))
		return ret;
	if (o->idle_state >= 0 && (ret = apply_idle(a)))
		return ret;
	if (o->preempt && (ret = apply_preempt(a)))
		return ret;
	if (o->cgroup && (ret = apply_cgroup(a)))
		return ret;
	/* With a group, --cpus is its cpuset (changeable live); without, the affinity. */
	if (!o->cgroup || !strcmp(o->cgroup, "off")) {
		ret = pin_all_threads(&o->cpusel.set);
		/*
		 * Without --cpus the set is the CPUs the process had; a cpuset
		 * changed since (lj-env --sweep) may hold none of them now, and
		 * then the cpuset already decides: nothing to impose.
		 */
		if (ret == -EINVAL && !o->cpus)
			ret = 0;
		if (ret) {
			lj_error_errno(ret, "cannot pin to CPUs %s",
				       lj_cpulist_format(&o->cpusel.set, list, sizeof(list)));
			return LJ_EXIT_RUNTIME;
		}
	}
	note_applied(a, "cpus", lj_cpulist_format(&o->cpusel.set, list, sizeof(list)));
	if (o->dma_latency_us >= 0) {
		ret = lj_pmqos_dma_latency_hold(o->dma_latency_us);
		if (ret < 0) {
			char why[128];

			snprintf(why, sizeof(why), "/dev/cpu_dma_latency: %s", lj_strerror(ret));
			ret = fall_back(a, "--dma-latency", why);
			if (ret)
				return ret;
		} else {
			o->dma_fd = ret;
			snprintf(list, sizeof(list), "%d", o->dma_latency_us);
			note_applied(a, "dma_latency_us", list);
		}
	}
	return 0;
}

int lj_setupopt_apply(struct lj_setupopt *o, const struct lj_topo *t,
		      struct lj_setup **stack, json_object *record)
{
	struct apply a = { .o = o };
	int ret;

	*stack = NULL;
	o->dma_fd = -1;
	if (o->rt_runtime_us >= 0 && !o->cgroup)
		return lj_usage_error("--rt-runtime needs --cgroup NAME (or off for the root group)");
	if ((o->cpu_weight || o->cpu_max_us) && (!o->cgroup || !strcmp(o->cgroup, "off")))
		return lj_usage_error("--cpu-weight and --cpu-max need --cgroup NAME (the root group has neither)");
	ret = resolve_cpus(o, t);
	if (ret)
		return ret;
	ret = check_stale(o);
	if (ret)
		return ret;
	ret = lj_setup_new(&a.s, o->journal);
	if (ret) {
		lj_error_errno(ret, "cannot start the setup stack");
		return LJ_EXIT_RUNTIME;
	}
	lj_setup_catch_signals();
	if (record) {
		a.applied = json_object_new_array();
		a.fallbacks = json_object_new_array();
	}
	ret = apply_all(&a, t);
	if (record) {
		json_object_object_add(record, "applied", a.applied);
		json_object_object_add(record, "fallbacks", a.fallbacks);
		json_object_object_add(record, "cpus_spec", json_object_new_string(o->cpusel.spec));
		if (o->cpusel.note[0])
			json_object_object_add(record, "cpus_note", json_object_new_string(o->cpusel.note));
		json_object_object_add(record, "changes", lj_setup_json(a.s));
		json_object_object_add(record, "journal", json_object_new_string(lj_setup_journal(a.s)));
		json_object_object_add(record, "strict", json_object_new_boolean(o->strict));
	}
	if (ret) {
		lj_setupopt_restore(o, a.s);
		return ret;
	}
	*stack = a.s;
	return 0;
}

int lj_setupopt_leave_group(const struct lj_setupopt *o, pid_t tid)
{
	struct lj_cgroup_mounts m;
	struct lj_cgroup root;
	int ret;

	if (!o->cgroup || !strcmp(o->cgroup, "off"))
		return 0;
	ret = lj_cgroup_discover(&m);
	if (!ret)
		ret = lj_cgroup_root(&m, &root);
	if (!ret)
		ret = lj_cgroup_attach(&root, tid);
	return ret;
}

int lj_setupopt_join_group(const struct lj_setupopt *o, pid_t tid)
{
	struct lj_cgroup_mounts m;
	struct lj_cgroup cg;
	int ret;

	if (!o->cgroup || !strcmp(o->cgroup, "off"))
		return 0;
	ret = lj_cgroup_discover(&m);
	if (!ret)
		ret = lj_cgroup_open(&m, o->cgroup, o->cgroup_depth, &cg);
	if (!ret)
		ret = lj_cgroup_attach(&cg, tid);
	return ret;
}

void lj_setupopt_restore(struct lj_setupopt *o, struct lj_setup *stack)
{
	int ret;

	if (o && o->dma_fd >= 0) {
		lj_pmqos_dma_latency_release(o->dma_fd);
		o->dma_fd = -1;
	}
	if (!stack)
		return;
	ret = lj_setup_undo(stack, say_info, NULL);
	if (ret)
		lj_warn("setup not fully restored (journal %s kept): run 'lj-env --restore'",
			lj_setup_journal(stack));
	lj_setup_free(stack);
}
