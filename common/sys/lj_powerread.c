// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_powerread - sysfs readers for the power snapshot; each source missing is said once, never an error. */
#include "lj_powerread.h"
#include "lj_file.h"
#include "lj_time.h"

#include <dirent.h>
#include <stdarg.h>
#include <unistd.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CPU_DIR "devices/system/cpu"

struct lj_pw_snap *lj_pw_snap_new(void)
{
	return calloc(1, sizeof(struct lj_pw_snap));
}

void lj_pw_snap_free(struct lj_pw_snap *s)
{
	if (s)
		free(s->cpu);
	free(s);
}

/* snprintf for paths and names: a path too long for the buffer is cut and fails to open. */
static void fmt(char *buf, size_t len, const char *f, ...) __attribute__((format(printf, 3, 4)));
static void fmt(char *buf, size_t len, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vsnprintf(buf, len, f, ap);
	va_end(ap);
}

/* The first line of ROOT/REL... as text; 0 or -errno. */
static int read_text(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int read_text(char *buf, size_t len, const char *fmt, ...)
{
	char path[512];
	va_list ap;
	ssize_t n;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	n = lj_file_read(path, buf, len);
	if (n < 0)
		return (int)n;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int read_u64(uint64_t *v, const char *dir, const char *file)
{
	char buf[64], *end;
	int ret = read_text(buf, sizeof(buf), "%s/%s", dir, file);

	if (ret)
		return ret;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return errno || end == buf || buf[0] == '-' ? -EINVAL : 0;
}

static int read_i64(int64_t *v, const char *dir, const char *file)
{
	char buf[64], *end;
	int ret = read_text(buf, sizeof(buf), "%s/%s", dir, file);

	if (ret)
		return ret;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return errno || end == buf ? -EINVAL : 0;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The numbers N of entries PREFIX<N> in @dir, sorted. Return: how many (at most @max). */
static int list_numbered(const char *dir, const char *prefix, int *out, int max)
{
	size_t plen = strlen(prefix);
	struct dirent *d;
	DIR *dp = opendir(dir);
	int n = 0;

	if (!dp)
		return 0;
	while ((d = readdir(dp)) && n < max) {
		char *end;
		long v;

		if (strncmp(d->d_name, prefix, plen) || !d->d_name[plen])
			continue;
		v = strtol(d->d_name + plen, &end, 10);
		if (!*end && v >= 0 && v < 1 << 20)
			out[n++] = (int)v;
	}
	closedir(dp);
	qsort(out, (size_t)n, sizeof(int), cmp_int);
	return n;
}

static void read_time_in_state(const char *dir, struct lj_pw_policy *p)
{
	char buf[4096], path[512], *save = NULL;
	ssize_t n;

	fmt(path, sizeof(path), "%s/stats/time_in_state", dir);
	n = lj_file_read(path, buf, sizeof(buf));
	if (n <= 0)
		return;
	/* strtok_r: the sampler thread reads while the tool's threads run */
	for (char *line = strtok_r(buf, "\n", &save); line && p->nfreq < LJ_PW_MAX_FREQS;
	     line = strtok_r(NULL, "\n", &save)) {
		uint64_t khz, t;

		if (sscanf(line, "%" SCNu64 " %" SCNu64, &khz, &t) == 2)
			p->f[p->nfreq++] = (struct lj_pw_freq){ khz, t };
	}
}

/* Policy of @cpu: found among those read, or read now. */
static void read_policy(struct lj_pw_snap *s, const char *cpudir, int cpu)
{
	char dir[512], buf[512], *save = NULL;
	struct lj_pw_policy *p;
	int first = cpu;

	fmt(dir, sizeof(dir), "%s/cpufreq", cpudir);
	if (read_text(buf, sizeof(buf), "%s/related_cpus", dir) &&
	    read_text(buf, sizeof(buf), "%s/affected_cpus", dir))
		fmt(buf, sizeof(buf), "%d", cpu);
	for (int i = 0; i < s->npol; i++)
		if (CPU_ISSET(cpu, &s->pol[i].cpus))
			return;
	if (s->npol >= LJ_PW_MAX_POLICIES)
		return;
	p = &s->pol[s->npol];
	memset(p, 0, sizeof(*p));
	for (char *tok = strtok_r(buf, " ,", &save); tok; tok = strtok_r(NULL, " ,", &save)) {
		int c = atoi(tok);

		if (c >= 0 && c < CPU_SETSIZE)
			CPU_SET(c, &p->cpus);
		first = c < first ? c : first;
	}
	CPU_SET(cpu, &p->cpus);
	p->id = first;
	read_time_in_state(dir, p);
	fmt(buf, sizeof(buf), "%s/stats", dir);
	p->has_trans = !read_u64(&p->total_trans, buf, "total_trans");
	read_u64(&p->cur_khz, dir, "scaling_cur_freq");
	read_u64(&p->limit_khz, dir, "scaling_max_freq");
	read_u64(&p->min_khz, dir, "cpuinfo_min_freq");
	read_u64(&p->max_khz, dir, "cpuinfo_max_freq");
	s->npol++;
}

static void read_idle(struct lj_pw_cpu *c, const char *cpudir)
{
	int st[LJ_PW_MAX_IDLE];
	char dir[512];
	int n;

	fmt(dir, sizeof(dir), "%s/cpuidle", cpudir);
	n = list_numbered(dir, "state", st, LJ_PW_MAX_IDLE);
	for (int i = 0; i < n; i++) {
		struct lj_pw_idle *x = &c->s[c->nidle];
		char sd[560];

		fmt(sd, sizeof(sd), "%s/state%d", dir, st[i]);
		memset(x, 0, sizeof(*x));
		if (read_u64(&x->time_us, sd, "time"))
			continue;
		if (read_text(x->name, sizeof(x->name), "%s/name", sd))
			fmt(x->name, sizeof(x->name), "state%d", st[i]);
		read_u64(&x->usage, sd, "usage");
		read_u64(&x->above, sd, "above");
		read_u64(&x->below, sd, "below");
		c->nidle++;
	}
}

static void read_throttle(struct lj_pw_cpu *c, const char *cpudir)
{
	char dir[512];
	uint64_t core = 0, pkg = 0;

	fmt(dir, sizeof(dir), "%s/thermal_throttle", cpudir);
	c->has_throttle = !read_u64(&core, dir, "core_throttle_count");
	if (!read_u64(&pkg, dir, "package_throttle_count"))
		c->has_throttle = true;
	c->throttle = core + pkg;
}

/* Why source @o is missing: "@what (no ROOT/@rel)". */
static void say(struct lj_pw_snap *s, enum lj_pw_origin o, const char *what, const char *root, const char *rel)
{
	if (!s->have[o])
		fmt(s->why[o], sizeof(s->why[o]), "%s (no %s/%s)", what, root, rel);
}

static int read_cpus(const char *root, struct lj_pw_snap *s)
{
	int ids[1024];
	char base[256];
	int n;

	fmt(base, sizeof(base), "%s/" CPU_DIR, root);
	n = list_numbered(base, "cpu", ids, 1024);
	if (n > s->cpu_cap) {
		struct lj_pw_cpu *c = realloc(s->cpu, (size_t)n * sizeof(*c));

		if (!c)
			return -ENOMEM;
		s->cpu = c;
		s->cpu_cap = n;
	}
	s->ncpu = 0;
	s->npol = 0;
	for (int i = 0; i < n; i++) {
		struct lj_pw_cpu *c = &s->cpu[s->ncpu++];
		char cpudir[300];

		memset(c, 0, sizeof(*c));
		c->cpu = ids[i];
		fmt(cpudir, sizeof(cpudir), "%s/cpu%d", base, ids[i]);
		char fq[320];

		fmt(fq, sizeof(fq), "%s/cpufreq", cpudir);
		if (!access(fq, F_OK))
			read_policy(s, cpudir, ids[i]);
		read_idle(c, cpudir);
		read_throttle(c, cpudir);
		s->have[LJ_PWO_CPUIDLE] |= c->nidle > 0;
		s->have[LJ_PWO_THROTTLE] |= c->has_throttle;
	}
	s->have[LJ_PWO_CPUFREQ] = s->npol > 0;
	say(s, LJ_PWO_CPUFREQ, "no cpufreq driver", root, CPU_DIR "/cpuN/cpufreq");
	say(s, LJ_PWO_CPUIDLE, "no cpuidle driver", root, CPU_DIR "/cpuN/cpuidle/stateN/time");
	say(s, LJ_PWO_THROTTLE, "no thermal throttle counters", root, CPU_DIR "/cpuN/thermal_throttle");
	return 0;
}

static struct lj_pw_source *add_source(struct lj_pw_snap *s, enum lj_pw_origin o, enum lj_pw_kind k,
				       bool top, uint64_t value, const char *a, const char *b)
{
	struct lj_pw_source *x;

	if (s->nsrc >= LJ_PW_MAX_SOURCES)
		return NULL;
	x = &s->src[s->nsrc++];
	memset(x, 0, sizeof(*x));
	x->origin = o;
	x->kind = k;
	x->top = top;
	x->value = value;
	fmt(x->name, sizeof(x->name), "%s %s", a, b);
	s->have[o] = true;
	return x;
}

/* Entries of ROOT/class/CLASS, sorted by name so snapshots line up. */
static int list_class(const char *root, const char *cls, char names[][64], int max)
{
	char dir[300];
	struct dirent **ents;
	int n, k = 0;

	fmt(dir, sizeof(dir), "%s/class/%s", root, cls);
	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return 0;
	for (int i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.' && k < max)
			fmt(names[k++], 64, "%s", ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	return k;
}

static void read_powercap(const char *root, struct lj_pw_snap *s)
{
	char names[32][64], dir[400], label[64];
	int n = list_class(root, "powercap", names, 32);

	for (int i = 0; i < n; i++) {
		struct lj_pw_source *x;
		uint64_t uj, range = 0;
		const char *colon = strchr(names[i], ':');

		fmt(dir, sizeof(dir), "%s/class/powercap/%s", root, names[i]);
		if (read_u64(&uj, dir, "energy_uj"))
			continue;
		read_u64(&range, dir, "max_energy_range_uj");
		if (read_text(label, sizeof(label), "%s/name", dir))
			label[0] = 0;
		/* "intel-rapl:0" is a package, "intel-rapl:0:0" a part of it: count packages only */
		x = add_source(s, LJ_PWO_POWERCAP, LJ_PWK_COUNTER_UJ, !colon || !strchr(colon + 1, ':'), uj, names[i], label);
		if (x)
			x->max_range = range;
	}
	say(s, LJ_PWO_POWERCAP, "no powercap zone", root, "class/powercap/*/energy_uj");
}

static void read_hwmon(const char *root, struct lj_pw_snap *s)
{
	char names[32][64], dir[400], file[32];
	int n = list_class(root, "hwmon", names, 32);

	for (int i = 0; i < n; i++) {
		fmt(dir, sizeof(dir), "%s/class/hwmon/%s", root, names[i]);
		for (int k = 1; k <= 8; k++) {
			uint64_t v;

			fmt(file, sizeof(file), "energy%d_input", k);
			if (!read_u64(&v, dir, file))
				add_source(s, LJ_PWO_HWMON, LJ_PWK_COUNTER_UJ, true, v, names[i], file);
			fmt(file, sizeof(file), "power%d_input", k);
			if (!read_u64(&v, dir, file))
				add_source(s, LJ_PWO_HWMON, LJ_PWK_GAUGE_UW, true, v, names[i], file);
		}
	}
	say(s, LJ_PWO_HWMON, "no hwmon power or energy sensor", root, "class/hwmon/*/{energy,power}N_input");
}

static void read_battery(const char *root, struct lj_pw_snap *s)
{
	char names[16][64], dir[400], type[32];
	int n = list_class(root, "power_supply", names, 16);

	for (int i = 0; i < n; i++) {
		uint64_t v, ua, uv;

		fmt(dir, sizeof(dir), "%s/class/power_supply/%s", root, names[i]);
		if (read_text(type, sizeof(type), "%s/type", dir) || strcmp(type, "Battery"))
			continue;
		if (!read_u64(&v, dir, "energy_now"))
			add_source(s, LJ_PWO_BATTERY, LJ_PWK_BATTERY_UWH, true, v, names[i], "energy_now");
		if (!read_u64(&v, dir, "power_now"))
			add_source(s, LJ_PWO_BATTERY, LJ_PWK_GAUGE_UW, true, v, names[i], "power_now");
		else if (!read_u64(&ua, dir, "current_now") && !read_u64(&uv, dir, "voltage_now"))
			add_source(s, LJ_PWO_BATTERY, LJ_PWK_GAUGE_UW, true,
				   (uint64_t)((double)ua * (double)uv / 1e6), names[i], "current_now x voltage_now");
	}
	say(s, LJ_PWO_BATTERY, "no battery", root, "class/power_supply/* of type Battery");
}

static void read_zone(const char *dir, const char *name, struct lj_pw_snap *s)
{
	struct lj_pw_zone *z = &s->zone[s->nzone];
	char type[32], file[40];

	memset(z, 0, sizeof(*z));
	if (read_i64(&z->temp_mc, dir, "temp"))
		return;
	if (read_text(type, sizeof(type), "%s/type", dir))
		type[0] = 0;
	fmt(z->name, sizeof(z->name), "%.15s %.15s", name, type);
	for (int t = 0; t < LJ_PW_MAX_TRIPS; t++) {
		fmt(file, sizeof(file), "trip_point_%d_temp", t);
		if (read_i64(&z->trip_mc[z->ntrip], dir, file))
			break;
		if (read_text(z->trip_type[z->ntrip], sizeof(z->trip_type[0]), "%s/trip_point_%d_type", dir, t))
			fmt(z->trip_type[z->ntrip], sizeof(z->trip_type[0]), "?");
		z->ntrip++;
	}
	s->nzone++;
	s->have[LJ_PWO_THERMAL] = true;
}

static void read_thermal(const char *root, struct lj_pw_snap *s)
{
	char names[32][64], dir[400];
	int n = list_class(root, "thermal", names, 32);

	for (int i = 0; i < n && s->nzone < LJ_PW_MAX_ZONES; i++) {
		if (strncmp(names[i], "thermal_zone", 12))
			continue;
		fmt(dir, sizeof(dir), "%s/class/thermal/%s", root, names[i]);
		read_zone(dir, names[i], s);
	}
	say(s, LJ_PWO_THERMAL, "no thermal zone", root, "class/thermal/thermal_zoneN/temp");
}

int lj_pw_read(const char *root, struct lj_pw_snap *s)
{
	int ret;

	s->nsrc = s->nzone = 0;
	memset(s->have, 0, sizeof(s->have));
	memset(s->why, 0, sizeof(s->why));
	s->t_ns = (uint64_t)lj_now_ns();
	ret = read_cpus(root, s);
	if (ret)
		return ret;
	read_powercap(root, s);
	read_hwmon(root, s);
	read_battery(root, s);
	read_thermal(root, s);
	return 0;
}
