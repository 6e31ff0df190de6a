// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_sysinfo - host and kernel identity recorded in every result (docs/system-identity.md). */
#include "lj_sysinfo.h"
#include "lj_json.h"

#include "lj_cgroup.h"
#include "lj_cpufreq.h"
#include "lj_file.h"
#include "lj_kconfig.h"
#include "lj_parse.h"
#include "lj_preempt.h"
#include "lj_topo.h"
#include "lj_virt.h"

#include <cpuidle.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* {"unknown": "reason"}: a field this machine does not expose. */
static __attribute__((format(printf, 1, 2))) json_object *unknown(const char *fmt, ...)
{
	va_list ap;
	json_object *o = json_object_new_object();
	char buf[256];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	lj_json_add(o, "unknown", lj_json_str(buf));
	return o;
}

/*
 * Read a small text file without its trailing newlines and blanks
 * (sysfs and proc files may end in either). Return: 0 or -errno.
 */
static json_object *file_or_unknown(const char *path)
{
	char buf[4096];
	int ret = lj_file_read_text(path, buf, sizeof(buf));

	if (ret)
		return unknown("%s", strerror(-ret));
	return lj_json_str(buf);
}

static void add_kernel(json_object *sys)
{
	struct utsname u;

	if (uname(&u)) {
		lj_json_add(sys, "hostname", unknown("uname: %s", strerror(errno)));
		return;
	}
	lj_json_add(sys, "hostname", lj_json_str(u.nodename));
	lj_json_add(sys, "kernel_release", lj_json_str(u.release));
	lj_json_add(sys, "kernel_version", lj_json_str(u.version));
	lj_json_add(sys, "machine", lj_json_str(u.machine));
	lj_json_add(sys, "proc_version", file_or_unknown("/proc/version"));
	lj_json_add(sys, "cmdline", file_or_unknown("/proc/cmdline"));
}

static void add_preempt(json_object *sys)
{
	struct lj_preempt_info p;
	json_object *o = json_object_new_object();

	lj_preempt_detect(&p);
	lj_json_add(o, "model", lj_json_str(lj_preempt_name(p.model)));
	lj_json_add(o, "mode", lj_json_str(lj_preempt_name(p.mode)));
	lj_json_add(o, "dynamic", json_object_new_boolean(p.dynamic));
	lj_json_add(o, "source", lj_json_str(p.source));
	lj_json_add(o, "detail", lj_json_str(p.detail));
	lj_json_add(sys, "preempt", o);
}

/* The options that shape scheduling latency, recorded as "y", a value, or "n". */
static const char *const config_keys[] = {
	"CONFIG_PREEMPT_NONE", "CONFIG_PREEMPT_VOLUNTARY", "CONFIG_PREEMPT",
	"CONFIG_PREEMPT_LAZY", "CONFIG_PREEMPT_RT", "CONFIG_PREEMPT_DYNAMIC",
	"CONFIG_PREEMPTION", "CONFIG_HZ", "CONFIG_HZ_PERIODIC", "CONFIG_NO_HZ_IDLE",
	"CONFIG_NO_HZ_FULL", "CONFIG_CGROUPS", "CONFIG_CGROUP_SCHED",
	"CONFIG_RT_GROUP_SCHED", "CONFIG_CPUSETS", "CONFIG_UCLAMP_TASK",
	"CONFIG_SCHED_CORE", "CONFIG_CPU_FREQ", "CONFIG_CPU_IDLE",
	"CONFIG_PROVE_LOCKING", "CONFIG_DEBUG_PREEMPT", "CONFIG_KASAN",
};

void lj_sysinfo_add_kconfig(json_object *sys, const struct lj_kconfig *k)
{
	json_object *cfg = json_object_new_object();
	char buf[64], why[256];
	const char *v;
	size_t i;
	int hz;

	v = lj_kconfig_get(k, "CONFIG_HZ", buf, sizeof(buf));
	if (!v)
		lj_json_add(sys, "hz", unknown("CONFIG_HZ not in %s", k->path[0] ? k->path : "config"));
	else if (lj_parse_int(v, 1, 100000, &hz, why, sizeof(why)))
		lj_json_add(sys, "hz", unknown("CONFIG_HZ: %s", why));
	else
		lj_json_add(sys, "hz", lj_json_int(hz));
	if (lj_kconfig_enabled(k, "CONFIG_NO_HZ_FULL"))
		lj_json_add(sys, "no_hz", lj_json_str("full"));
	else if (lj_kconfig_enabled(k, "CONFIG_NO_HZ_IDLE"))
		lj_json_add(sys, "no_hz", lj_json_str("idle"));
	else if (lj_kconfig_enabled(k, "CONFIG_HZ_PERIODIC"))
		lj_json_add(sys, "no_hz", lj_json_str("periodic"));
	else
		lj_json_add(sys, "no_hz", unknown("%s", "no NO_HZ choice in the config"));
	lj_json_add(sys, "config_path", lj_json_str(k->path[0] ? k->path : "(text)"));
	lj_json_add(sys, "config_sha256", lj_json_str(k->sha256));
	for (i = 0; i < sizeof(config_keys) / sizeof(config_keys[0]); i++) {
		v = lj_kconfig_get(k, config_keys[i], buf, sizeof(buf));
		lj_json_add(cfg, config_keys[i], lj_json_str(v ? v : "n"));
	}
	lj_json_add(sys, "config", cfg);
}

static void add_kconfig(json_object *sys)
{
	struct lj_kconfig k;
	int ret = lj_kconfig_load(&k);

	if (ret) {
		const char *why = ret == -ENOENT ?
			"no /proc/config.gz (CONFIG_IKCONFIG_PROC) nor /boot/config-RELEASE" :
			strerror(-ret);

		lj_json_add(sys, "hz", unknown("kernel config: %s", why));
		lj_json_add(sys, "no_hz", unknown("kernel config: %s", why));
		lj_json_add(sys, "config_path", unknown("%s", why));
		lj_json_add(sys, "config_sha256", unknown("%s", why));
		lj_json_add(sys, "config", unknown("%s", why));
		return;
	}
	lj_sysinfo_add_kconfig(sys, &k);
	lj_kconfig_free(&k);
}

static void add_cgroup(json_object *sys)
{
	struct lj_cgroup_mounts *m = calloc(1, sizeof(*m));	/* PATH_MAX strings: not on the stack */
	int ret;

	if (!m) {
		lj_json_add(sys, "cgroup_mode", unknown("%s", strerror(ENOMEM)));
		return;
	}
	ret = lj_cgroup_discover(m);
	if (ret)
		lj_json_add(sys, "cgroup_mode", unknown("/proc/self/mountinfo: %s", strerror(-ret)));
	else
		lj_json_add(sys, "cgroup_mode", lj_json_str(lj_cgroup_mode_name(m->mode)));
	free(m);
}

static void add_cpufreq(json_object *sys, const cpu_set_t *online)
{
	struct lj_cpufreq_policy *pol;
	json_object *o, *arr;
	char why[128], list[256];
	int i, n, max = CPU_COUNT(online);

	if (lj_cpufreq_available(online, why, sizeof(why))) {
		char msg[160];

		snprintf(msg, sizeof(msg), "unavailable: %s", why);
		lj_json_add(sys, "cpufreq", lj_json_str(msg));
		return;
	}
	pol = calloc(max > 0 ? (size_t)max : 1, sizeof(*pol));
	if (!pol) {
		lj_json_add(sys, "cpufreq", unknown("%s", strerror(ENOMEM)));
		return;
	}
	n = lj_cpufreq_policies(online, pol, max);
	o = json_object_new_object();
	lj_json_add(o, "driver", lj_json_str(n > 0 ? pol[0].driver : ""));
	arr = json_object_new_array();
	for (i = 0; i < n; i++) {
		json_object *p = json_object_new_object();

		lj_json_add(p, "cpus", lj_json_str(lj_cpulist_format(&pol[i].cpus, list, sizeof(list))));
		lj_json_add(p, "governor", lj_json_str(pol[i].governor));
		lj_json_add(p, "min_khz", lj_json_int((int64_t)pol[i].min_khz));
		lj_json_add(p, "max_khz", lj_json_int((int64_t)pol[i].max_khz));
		json_object_array_add(arr, p);
	}
	lj_json_add(o, "policies", arr);
	lj_json_add(sys, "cpufreq", o);
	free(pol);
}

static void add_cpuidle(json_object *sys, int first_cpu)
{
	char *drv = cpuidle_get_driver(), *gov;
	json_object *o, *states;
	unsigned i, n;

	if (!drv) {
		lj_json_add(sys, "cpuidle", lj_json_str("unavailable: no cpuidle driver"));
		return;
	}
	o = json_object_new_object();
	lj_json_add(o, "driver", lj_json_str(drv));
	free(drv);
	gov = cpuidle_get_governor();
	lj_json_add(o, "governor", gov ? lj_json_str(gov) : unknown("%s", "no current_governor in sysfs"));
	free(gov);
	/* the states of one CPU: identical on every CPU of the machines we know */
	states = json_object_new_array();
	n = first_cpu >= 0 ? cpuidle_state_count((unsigned)first_cpu) : 0;
	for (i = 0; i < n; i++) {
		char *name = cpuidle_state_name((unsigned)first_cpu, i);

		json_object_array_add(states, lj_json_str(name ? name : "?"));
		free(name);
	}
	lj_json_add(o, "states", states);
	lj_json_add(sys, "cpuidle", o);
}

static void cpuinfo_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];

	buf[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (colon && (!strncmp(line, "model name", 10) || !strncmp(line, "Model", 5))) {
			snprintf(buf, len, "%s", colon + 1 + strspn(colon + 1, " \t"));
			buf[strcspn(buf, "\n")] = '\0';
			break;
		}
	}
	if (f)
		fclose(f);
}

/* CPUs, kinds and model from hwloc; returns the first online CPU or -1. */
static int add_topology(json_object *sys, cpu_set_t *online)
{
	struct lj_topo t;
	json_object *kinds;
	char list[1024], model[256];
	int i, first = -1;

	memset(&t, 0, sizeof(t));
	if (lj_topo_load(&t, NULL, 0)) {
		cpuinfo_model(model, sizeof(model));
		lj_json_add(sys, "cpu_model", model[0] ? lj_json_str(model) : unknown("%s", "not in /proc/cpuinfo"));
		lj_json_add(sys, "cpus_online", file_or_unknown("/sys/devices/system/cpu/online"));
		lj_json_add(sys, "ncpus", lj_json_int((int)sysconf(_SC_NPROCESSORS_ONLN)));
		lj_json_add(sys, "cpukinds", unknown("%s", "hwloc topology did not load"));
		CPU_ZERO(online);
		for (i = 0; i < sysconf(_SC_NPROCESSORS_ONLN) && i < CPU_SETSIZE; i++)
			CPU_SET(i, online);
		return 0;
	}
	*online = t.online;
	if (t.cpu_model[0]) {
		lj_json_add(sys, "cpu_model", lj_json_str(t.cpu_model));
	} else {
		cpuinfo_model(model, sizeof(model));
		lj_json_add(sys, "cpu_model", model[0] ? lj_json_str(model) : unknown("%s", "hwloc and /proc/cpuinfo name no model"));
	}
	lj_json_add(sys, "cpus_online", lj_json_str(lj_cpulist_format(&t.online, list, sizeof(list))));
	lj_json_add(sys, "ncpus", lj_json_int(t.ncpus));
	lj_json_add(sys, "ncores", lj_json_int(t.ncores));
	lj_json_add(sys, "npackages", lj_json_int(t.npackages));
	kinds = json_object_new_array();
	for (i = 0; i < t.nkinds; i++) {
		json_object *k = json_object_new_object();

		lj_json_add(k, "cpus", lj_json_str(lj_cpulist_format(&t.kinds[i].cpus, list, sizeof(list))));
		lj_json_add(k, "efficiency", lj_json_int(t.kinds[i].efficiency));
		lj_json_add(k, "name", lj_json_str(t.kinds[i].name));
		json_object_array_add(kinds, k);
	}
	lj_json_add(sys, "cpukinds", kinds);
	for (i = 0; i < CPU_SETSIZE && first < 0; i++)
		if (CPU_ISSET(i, &t.online))
			first = i;
	lj_topo_free(&t);
	return first;
}

static void add_virt(json_object *sys)
{
	char name[256];
	const char *source;
	int ret = lj_virt_detect(name, sizeof(name), &source);

	if (ret < 0) {
		lj_json_add(sys, "virtualised", unknown("%s", "no CPUID, /sys/hypervisor or DMI on this machine"));
		return;
	}
	lj_json_add(sys, "virtualised", ret ? lj_json_str(name) : json_object_new_boolean(0));
	lj_json_add(sys, "virt_source", lj_json_str(source));
}

json_object *lj_sysinfo_collect(void)
{
	json_object *sys = json_object_new_object();
	cpu_set_t online;
	int first;

	if (!sys)
		return NULL;
	add_kernel(sys);
	add_preempt(sys);
	add_kconfig(sys);
	add_cgroup(sys);
	first = add_topology(sys, &online);
	add_cpufreq(sys, &online);
	add_cpuidle(sys, first);
	add_virt(sys);
	return sys;
}

/* Flattened "a.b.0.c" = value pairs of a system block. */
struct flat {
	char **key, **val;
	size_t n, cap;
	int err;
};

static void flat_add(struct flat *f, const char *key, const char *val)
{
	if (f->err)
		return;
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 64;
		char **k, **v;

		k = realloc(f->key, cap * sizeof(*k));
		if (k)
			f->key = k;
		v = realloc(f->val, cap * sizeof(*v));
		if (v)
			f->val = v;
		if (!k || !v) {
			f->err = -ENOMEM;
			return;
		}
		f->cap = cap;
	}
	f->key[f->n] = strdup(key);
	f->val[f->n] = strdup(val);
	if (!f->key[f->n] || !f->val[f->n]) {
		free(f->key[f->n]);
		free(f->val[f->n]);
		f->err = -ENOMEM;
		return;
	}
	f->n++;
}

static void flatten(struct flat *f, const char *prefix, json_object *o)
{
	char key[512];

	if (json_object_is_type(o, json_type_object) && json_object_object_length(o)) {
		json_object_object_foreach(o, k, v) {
			snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "", k);
			flatten(f, key, v);
		}
	} else if (json_object_is_type(o, json_type_array) && json_object_array_length(o)) {
		size_t i;

		for (i = 0; i < json_object_array_length(o); i++) {
			snprintf(key, sizeof(key), "%s%s%zu", prefix, *prefix ? "." : "", i);
			flatten(f, key, json_object_array_get_idx(o, i));
		}
	} else if (json_object_is_type(o, json_type_string)) {
		flat_add(f, prefix, json_object_get_string(o));
	} else {
		flat_add(f, prefix, o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN) : "null");
	}
}

static void flat_free(struct flat *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		free(f->key[i]);
		free(f->val[i]);
	}
	free(f->key);
	free(f->val);
}

/* The index of @key in @f, or -1: blocks hold tens of keys, a scan is enough. */
static long flat_find(const struct flat *f, const char *key)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (!strcmp(f->key[i], key))
			return (long)i;
	return -1;
}

int lj_sysinfo_diff(json_object *a, json_object *b,
		    void (*fn)(const char *key, const char *va, const char *vb, void *arg),
		    void *arg)
{
	struct flat fa = { 0 }, fb = { 0 };
	size_t i;
	int n = 0, ret;

	flatten(&fa, "", a);
	flatten(&fb, "", b);
	ret = fa.err ? fa.err : fb.err;
	if (ret)
		goto out;
	/* keys of a in a's order, then keys only b has */
	for (i = 0; i < fa.n; i++) {
		long j = flat_find(&fb, fa.key[i]);

		if (j < 0 || strcmp(fa.val[i], fb.val[j])) {
			if (fn)
				fn(fa.key[i], fa.val[i], j < 0 ? "(absent)" : fb.val[j], arg);
			n++;
		}
	}
	for (i = 0; i < fb.n; i++) {
		if (flat_find(&fa, fb.key[i]) < 0) {
			if (fn)
				fn(fb.key[i], "(absent)", fb.val[i], arg);
			n++;
		}
	}
	ret = n;
out:
	flat_free(&fa);
	flat_free(&fb);
	return ret;
}
