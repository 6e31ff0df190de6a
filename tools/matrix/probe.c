// SPDX-License-Identifier: GPL-2.0-or-later
/* probe - ask the machine whether it can provide a cell's setup, and say why not. */
#include "matrix.h"
#include "lj_cgroup.h"
#include "lj_cpus.h"
#include "lj_parse.h"
#include "lj_preempt.h"
#include "lj_topo.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CPU_SYSFS "/sys/devices/system/cpu"

/* Answers are cached per axis=value: the machine does not change during a run. */
struct mx_probe_entry {
	char *key;
	char *reason;		/* NULL: can run */
};

struct mx_probe {
	struct mx_probe_entry *v;
	size_t n;
	bool topo_loaded;
	int topo_err;
	struct lj_topo topo;
	bool preempt_done;
	struct lj_preempt_info preempt;
	struct mx_run *run;	/* the run being probed, for tool lookup */
};

struct mx_probe *mx_probe_new(void)
{
	return calloc(1, sizeof(struct mx_probe));
}

void mx_probe_free(struct mx_probe *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].key);
		free(p->v[i].reason);
	}
	free(p->v);
	if (p->topo_loaded && !p->topo_err)
		lj_topo_free(&p->topo);
	free(p);
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ret = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, len, f))
		ret = -EIO;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return ret;
}

/* Lowest-numbered cpufreq policy directory, or -1 when there is none. */
static int first_policy(void)
{
	DIR *d = opendir(CPU_SYSFS "/cpufreq");
	struct dirent *e;
	int best = -1;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		int n;

		if (sscanf(e->d_name, "policy%d", &n) == 1 && (best < 0 || n < best))
			best = n;
	}
	closedir(d);
	return best;
}

static char *probe_governor(const char *g)
{
	char path[256], avail[512], *out = NULL, *save = NULL;
	int pol = first_policy();

	if (pol < 0)
		return strdup("no cpufreq driver");
	snprintf(path, sizeof(path), CPU_SYSFS "/cpufreq/policy%d/scaling_available_governors", pol);
	if (read_line(path, avail, sizeof(avail)))
		return strdup("cpufreq driver lists no governors");
	for (char *t = strtok_r(avail, " ", &save); t; t = strtok_r(NULL, " ", &save))
		if (!strcmp(t, g))
			return NULL;
	snprintf(path, sizeof(path), CPU_SYSFS "/cpufreq/policy%d/scaling_available_governors", pol);
	read_line(path, avail, sizeof(avail));
	if (asprintf(&out, "governor not available (available: %s)", avail) < 0)
		return NULL;
	return out;
}

static char *probe_preempt(struct mx_probe *p, const char *mode)
{
	enum lj_preempt_model want;
	char why[512], *out = NULL;

	if (!p->preempt_done) {
		lj_preempt_detect(&p->preempt);
		p->preempt_done = true;
	}
	if (lj_preempt_parse(mode, &want))
		return strdup("unknown preemption mode");
	/*
	 * The dynamic mode in force, not the model: a PREEMPT_RT kernel has
	 * model rt and mode full or lazy. "rt" itself is the model.
	 */
	if (want == LJ_PREEMPT_RT ? p->preempt.model == want : p->preempt.mode == want)
		return NULL;	/* already in force: nothing to switch */
	/* The same check lj-env makes before switching; it writes nothing. */
	if (!lj_preempt_can_switch(want, why, sizeof(why)))
		return NULL;
	if (asprintf(&out, "cannot switch from %s: %s", lj_preempt_name(p->preempt.mode), why) < 0)
		return NULL;
	return out;
}

static char *probe_cpus(struct mx_probe *p, const char *sel)
{
	struct lj_cpu_selection cs;
	char why[256] = "";
	char *out = NULL;

	if (!p->topo_loaded) {
		p->topo_err = lj_topo_load(&p->topo, NULL, 0);
		p->topo_loaded = true;
	}
	if (p->topo_err) {
		if (asprintf(&out, "cannot read the CPU topology: %s", strerror(-p->topo_err)) < 0)
			return NULL;
		return out;
	}
	if (lj_cpus_select(&p->topo, sel, &cs, why, sizeof(why)))
		return strdup(why[0] ? why : "invalid selector");
	/* big/little on a machine of one kind would only repeat "all". */
	if ((!strncmp(sel, "big", 3) || !strncmp(sel, "little", 6)) && p->topo.nkinds < 2)
		return strdup("one core kind");
	return NULL;
}

/* What lj-env --cgroup will find: a cpuset controller, and under systemd a group delegated to us. */
static char *probe_cgroup(const char *v)
{
	struct lj_cgroup_mounts m;
	struct lj_cgroup root;

	if (!strcmp(v, "off"))
		return NULL;
	if (geteuid() != 0)
		return strdup("creating a cgroup needs root");
	if (lj_cgroup_discover(&m) || lj_cgroup_root(&m, &root) || !root.cpuset[0])
		return strdup("no cpuset controller mounted");
	if (root.v2_cpuset && !m.v2_base[0])
		return strdup("cgroup v2 managed by systemd and no group delegated to lj-matrix: "
			      "run it under systemd-run --scope -p Delegate=yes");
	return NULL;
}

static char *probe_dma(void)
{
	int fd = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
	char *out = NULL;

	if (fd < 0) {
		if (asprintf(&out, "/dev/cpu_dma_latency: %s", strerror(errno)) < 0)
			return NULL;
		return out;
	}
	close(fd);
	return NULL;
}

static char *probe_idle(const char *v)
{
	char path[128], drv[64];
	struct stat st;
	int n;

	if (lj_parse_int(v, 0, 1000000, &n, NULL, 0))
		return strdup("invalid state number");

	if (read_line(CPU_SYSFS "/cpuidle/current_driver", drv, sizeof(drv)) || !*drv ||
	    !strcmp(drv, "none"))
		return strdup("no cpuidle driver");
	snprintf(path, sizeof(path), CPU_SYSFS "/cpu0/cpuidle/state%d", n);
	if (stat(path, &st))
		return strdup("no such cpuidle state");
	return NULL;
}

char *mx_find_tool(const char *selfdir, const char *name)
{
	char *path = NULL, *dirs, *save = NULL;
	const char *env = getenv("PATH");

	if (strchr(name, '/'))
		return access(name, X_OK) ? NULL : strdup(name);
	if (selfdir && asprintf(&path, "%s/%s", selfdir, name) >= 0) {
		if (!access(path, X_OK))
			return path;
		free(path);
	}
	dirs = strdup(env ? env : "/usr/bin:/bin");
	if (!dirs)
		return NULL;
	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if (asprintf(&path, "%s/%s", *d ? d : ".", name) < 0)
			break;
		if (!access(path, X_OK)) {
			free(dirs);
			return path;
		}
		free(path);
	}
	free(dirs);
	return NULL;
}

/*
 * The first word of a command into @name, when it is a plain program name
 * (not VAR=x, not a shell construct); false otherwise.
 */
static bool program_name(const char *cmd, char *name, size_t size)
{
	size_t len = strcspn(cmd, " \t");

	if (!len || len >= size || memchr(cmd, '=', len))
		return false;	/* VAR=x cmd, or too odd to judge: let the shell try */
	memcpy(name, cmd, len);
	name[len] = '\0';
	return !strpbrk(name, "$`'\"(){};|&<>");
}

/* Is program @name missing (next to lj-matrix, in PATH, a shell built-in)? */
static char *program_missing(struct mx_run *r, const char *name)
{
	char *found, *out = NULL;

	found = mx_find_tool(r->selfdir, name);
	if (found) {
		free(found);
		return NULL;
	}
	/* shell built-ins and keywords that need no file */
	static const char *const builtins[] = { "exec", "echo", "true", "false", "test",
						"[", "exit", ":", "cd", "eval", "if", "for", NULL };
	for (int i = 0; builtins[i]; i++)
		if (!strcmp(name, builtins[i]))
			return NULL;
	if (asprintf(&out, "command '%s' not found", name) < 0)
		return NULL;
	return out;
}

static const char *cached(struct mx_probe *p, const char *key, char *(*fn)(struct mx_probe *, const char *),
			  const char *arg)
{
	struct mx_probe_entry *nv;

	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].key, key))
			return p->v[i].reason;
	nv = realloc(p->v, (p->n + 1) * sizeof(*nv));
	if (!nv)
		return "out of memory";
	p->v = nv;
	p->v[p->n].key = strdup(key);
	p->v[p->n].reason = fn(p, arg);
	return p->v[p->n++].reason;
}

static char *axis_reason(struct mx_probe *p, const char *key)
{
	const char *eq = strchr(key, '=');
	char axis[64];
	const char *v = eq + 1;
	char *why = NULL, *out = NULL;

	snprintf(axis, sizeof(axis), "%.*s", (int)(eq - key), key);
	if (!strcmp(axis, "governor") && strcmp(v, "keep"))
		why = probe_governor(v);
	else if (!strcmp(axis, "preempt") && strcmp(v, "keep"))
		why = probe_preempt(p, v);
	else if (!strcmp(axis, "cpus"))
		why = probe_cpus(p, v);
	else if (!strcmp(axis, "cgroup"))
		why = probe_cgroup(v);
	else if (!strcmp(axis, "dma_latency") && strcmp(v, "none"))
		why = probe_dma();
	else if (!strcmp(axis, "idle_state") && strcmp(v, "none"))
		why = probe_idle(v);
	if (!why)
		return NULL;
	/* "governor=performance: no cpufreq driver" */
	if (asprintf(&out, "%s: %s", key, why) < 0)
		out = NULL;
	free(why);
	return out;
}

static char *program_reason(struct mx_probe *p, const char *name)
{
	return program_missing(p->run, name);
}

const char *mx_probe_cell(struct mx_probe *p, struct mx_run *r, const struct lj_scenario_cell *c)
{
	const struct lj_scenario *s = r->scn;
	char key[512], name[256];
	const char *why;
	char *cmd;

	for (int a = 0; a < s->naxes; a++) {
		if (s->axes[a].custom)
			continue;
		snprintf(key, sizeof(key), "%s=%s", s->axes[a].name, s->axes[a].values[c->value[a]]);
		why = cached(p, key, axis_reason, key);
		if (why)
			return why;
	}
	/*
	 * The tools a cell needs: its workload, its load, lj-env when it
	 * changes the system. Cached by program name, not by command: the
	 * commands of a large matrix all differ in their values.
	 */
	p->run = r;
	cmd = lj_scenario_command(s, c);
	if (!cmd)
		return "out of memory";
	why = program_name(cmd, name, sizeof(name)) ?
	      (snprintf(key, sizeof(key), "program %s", name), cached(p, key, program_reason, name)) : NULL;
	free(cmd);
	if (why)
		return why;
	{
		const char *load = lj_scenario_value(s, c, "load");
		const struct lj_scenario_section *ls;

		if (load && strcmp(load, "none") && (ls = lj_scenario_find_load(s, load)) &&
		    program_name(ls->command, name, sizeof(name))) {
			snprintf(key, sizeof(key), "program %s", name);
			why = cached(p, key, program_reason, name);
			if (why)
				return why;
		}
	}
	{
		const char *args[MX_SETUP_ARGS_MAX];

		if (mx_setup_args(s, c, args, MX_SETUP_ARGS_MAX) > 0 && !r->env_bin)
			return "lj-env not found (needed for this cell's setup)";
	}
	return NULL;
}
