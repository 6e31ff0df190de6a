// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_scenario - scenario file parser (INI-like matrices) and its whole-file checks. */
#include "scenario.h"
#include "lj_parse.h"
#include "lj_readall.h"
#include "lj_time.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILE_BYTES (1 << 20)

static const char *const setup_axes[] = {
	"cgroup", "cpus", "governor", "preempt", "dma_latency", "idle_state", "load", "kernel", "cmdline", NULL
};

static const char *const preempt_values[] = {
	"keep", "none", "voluntary", "full", "lazy", "rt", NULL
};

struct parser {
	const char *path;
	int line;
	char *err;
	size_t errlen;
	struct lj_scenario *s;
	enum { SEC_NONE, SEC_MATRIX, SEC_WORKLOAD, SEC_LOAD, SEC_KERNEL } sec;
	struct lj_scenario_section *cur;	/* current workload/load section */
	struct lj_scenario_kernel *kcur;	/* current kernel section */
	bool seen_matrix;
	unsigned seen_settings;			/* bit per run setting */
};

static __attribute__((format(printf, 2, 3))) int fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* line 0: not from the file (lj-matrix --axis) */
	n = p->line ? snprintf(p->err, p->errlen, "%s:%d: ", p->path, p->line) :
	    snprintf(p->err, p->errlen, "%s: ", p->path);
	if (n < 0 || (size_t)n >= p->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/*
 * '#' starts a comment at the start of a line or after white space
 * ("repeat = 3   # three"); ';' only at the start of a line, since shell
 * commands use "a ; b".
 */
static void strip_comment(char *s)
{
	char *first = s + strspn(s, " \t");

	if (*first == ';') {
		*s = '\0';
		return;
	}
	for (char *c = s; *c; c++) {
		if (*c == '#' && (c == s || c[-1] == ' ' || c[-1] == '\t')) {
			*c = '\0';
			return;
		}
	}
}

/*
 * The one check for a name that becomes a path component or a cgroup
 * (workload and load names, cgroup, governor and load values, axis
 * names): letters, digits, _ - . only, so no '/' and no control
 * character, and not "." or "..", which would leave the directory.
 */
static bool valid_name(const char *s)
{
	if (!*s || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return false;
	return true;
}

static bool has_control(const char *s, bool tab_ok)
{
	for (; *s; s++)
		if (((unsigned char)*s < 0x20 && !(tab_ok && *s == '\t')) || *s == 0x7f)
			return true;
	return false;
}

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

bool lj_scenario_is_setup_axis(const char *name)
{
	return in_list(setup_axes, name);
}

static int add_section(struct parser *p, struct lj_scenario_section **v, int *n,
		       const char *kind, const char *name)
{
	struct lj_scenario_section *nv;

	if (!valid_name(name))
		return fail(p, "invalid %s name '%s' (letters, digits, _ - . only; not . or ..)", kind, name);
	if (lj_scenario_find_section(*v, *n, name))
		return fail(p, "%s '%s' is defined twice", kind, name);
	nv = realloc(*v, (*n + 1) * sizeof(**v));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	p->cur = &nv[*n];
	memset(p->cur, 0, sizeof(*p->cur));
	p->cur->line = p->line;
	p->cur->name = strdup(name);
	if (!p->cur->name)
		return -ENOMEM;
	(*n)++;
	return 0;
}

static int add_kernel(struct parser *p, const char *name)
{
	struct lj_scenario_kernel *nv;

	if (!valid_name(name) || !strcmp(name, "host"))
		return fail(p, "invalid kernel name '%s' (letters, digits, _ - . only; not host, . or ..)", name);
	if (lj_scenario_find_kernel(p->s, name))
		return fail(p, "kernel '%s' is defined twice", name);
	nv = realloc(p->s->kernels, (p->s->nkernels + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	p->s->kernels = nv;
	p->kcur = &nv[p->s->nkernels];
	memset(p->kcur, 0, sizeof(*p->kcur));
	p->kcur->line = p->line;
	p->kcur->name = strdup(name);
	if (!p->kcur->name)
		return -ENOMEM;
	p->s->nkernels++;
	return 0;
}

static int parse_header(struct parser *p, char *line)
{
	char *end = strchr(line, ']');
	char *name, *arg;

	if (!end || trim(end + 1)[0])
		return fail(p, "section header must be '[name]' alone on its line");
	*end = '\0';
	name = trim(line + 1);
	arg = name + strcspn(name, " \t");
	if (*arg) {
		*arg++ = '\0';
		arg = trim(arg);
	}
	p->cur = NULL;
	p->kcur = NULL;
	if (!strcmp(name, "matrix")) {
		if (*arg)
			return fail(p, "[matrix] takes no name");
		if (p->seen_matrix)
			return fail(p, "[matrix] appears twice");
		p->seen_matrix = true;
		p->sec = SEC_MATRIX;
		return 0;
	}
	if (!strcmp(name, "workload")) {
		p->sec = SEC_WORKLOAD;
		if (!*arg)
			return fail(p, "[workload] needs a name: [workload NAME]");
		return add_section(p, &p->s->workloads, &p->s->nworkloads, "workload", arg);
	}
	if (!strcmp(name, "load")) {
		p->sec = SEC_LOAD;
		if (!*arg)
			return fail(p, "[load] needs a name: [load NAME]");
		if (!strcmp(arg, "none"))
			return fail(p, "'none' is reserved: it means no load");
		return add_section(p, &p->s->loads, &p->s->nloads, "load", arg);
	}
	if (!strcmp(name, "kernel")) {
		p->sec = SEC_KERNEL;
		if (!*arg)
			return fail(p, "[kernel] needs a name: [kernel NAME]");
		return add_kernel(p, arg);
	}
	return fail(p, "unknown section [%s] (expected matrix, workload NAME, load NAME or kernel NAME)", name);
}

/* Check a value of a known setup axis; machine-dependent checks happen in lj-matrix. */
static int check_axis_value(struct parser *p, const char *axis, const char *v)
{
	char why[256] = "";
	int n;

	if (has_control(v, false))
		return fail(p, "%s: a value contains a control character", axis);
	if (!strcmp(axis, "preempt")) {
		if (!in_list(preempt_values, v))
			return fail(p, "preempt: unknown mode '%s' (keep, none, voluntary, full, lazy, rt)", v);
	} else if (!strcmp(axis, "dma_latency") || !strcmp(axis, "idle_state")) {
		if (strcmp(v, "none") && lj_parse_int(v, 0, 2000000000, &n, why, sizeof(why)))
			return fail(p, "%s: invalid value '%s': %s", axis, v, why[0] ? why : "not a number");
	} else if (!strcmp(axis, "kernel")) {
		/* host, a [kernel NAME], or an image path (a glob) */
		if (!strchr(v, '/') && !valid_name(v))
			return fail(p, "kernel: '%s' is neither host, a [kernel NAME] nor a path to an image", v);
		if (strpbrk(v, "'\"\\$`"))
			return fail(p, "kernel: '%s' contains a quote, backslash, $ or `", v);
	} else if (!strcmp(axis, "cmdline")) {
		if (strpbrk(v, "'\"\\$`"))
			return fail(p, "cmdline: '%s' contains a quote, backslash, $ or `", v);
	} else if (!strcmp(axis, "cgroup") || !strcmp(axis, "governor") || !strcmp(axis, "load")) {
		if (!valid_name(v))
			return fail(p, "%s: invalid name '%s'", axis, v);
	} else if (!strcmp(axis, "cpus")) {
		cpu_set_t set;

		if (strpbrk(v, " \t'\"\\$"))
			return fail(p, "cpus: invalid selector '%s'", v);
		/* A list's syntax ("3-1") is known here; whether its CPUs exist is the machine's. */
		if (isdigit((unsigned char)*v) && lj_parse_cpulist(v, &set, CPU_SETSIZE, why, sizeof(why)))
			return fail(p, "cpus: invalid CPU list '%s': %s", v, why[0] ? why : "not a CPU list");
	} else {
		if (strpbrk(v, "'\"\\$`"))
			return fail(p, "%s: value '%s' contains a quote, backslash, $ or `", axis, v);
	}
	return 0;
}

static int parse_axis(struct parser *p, const char *key, char *val)
{
	struct lj_scenario_axis *a;
	char *tok, *save = NULL;
	int ret;

	if (!valid_name(key))
		return fail(p, "invalid axis name '%s' (letters, digits, _ - . only)", key);
	for (int i = 0; i < p->s->naxes; i++)
		if (!strcmp(p->s->axes[i].name, key))
			return fail(p, "axis '%s' is set twice (first on line %d)", key,
				    p->s->axes[i].line);
	if (p->s->naxes == LJ_SCENARIO_MAX_AXES)
		return fail(p, "too many axes (at most %d)", LJ_SCENARIO_MAX_AXES);
	a = &p->s->axes[p->s->naxes];
	a->name = strdup(key);
	if (!a->name)
		return -ENOMEM;
	a->line = p->line;
	a->custom = !lj_scenario_is_setup_axis(key);
	p->s->naxes++;
	/* strtok_r would merge ",," silently: split by hand to reject empties. */
	for (tok = val;; tok = save) {
		char *comma = strchr(tok, ',');
		char *v;

		save = comma ? comma + 1 : NULL;
		if (comma)
			*comma = '\0';
		v = trim(tok);
		if (!*v)
			return fail(p, "%s: empty value in the list", key);
		if (a->nvalues == LJ_SCENARIO_MAX_VALUES)
			return fail(p, "%s: too many values (at most %d)", key, LJ_SCENARIO_MAX_VALUES);
		for (int i = 0; i < a->nvalues; i++)
			if (!strcmp(a->values[i], v))
				return fail(p, "%s: value '%s' is listed twice", key, v);
		ret = check_axis_value(p, key, v);
		if (ret)
			return ret;
		a->values[a->nvalues] = strdup(v);
		if (!a->values[a->nvalues])
			return -ENOMEM;
		a->nvalues++;
		if (!save)
			break;
	}
	return 0;
}

static int parse_setting_int(struct parser *p, const char *key, const char *val,
			     int min, int max, int *out)
{
	char why[256] = "";

	if (lj_parse_int(val, min, max, out, why, sizeof(why)))
		return fail(p, "%s: invalid value '%s': %s (%d..%d)", key, val,
			    why[0] ? why : "not a number", min, max);
	return 0;
}

/*
 * "watch = sugov:*, ksoftirqd/0": a run setting, not an axis. The globs go
 * to lj-env as argv (no shell), so only ',' (the separator) and white
 * space around items are special; lj-env checks them again.
 */
static int parse_watch(struct parser *p, char *val)
{
	char *tok, *next;

	for (tok = val; tok; tok = next) {
		char *comma = strchr(tok, ',');
		char *v;

		next = comma ? comma + 1 : NULL;
		if (comma)
			*comma = '\0';
		v = trim(tok);
		if (!*v)
			return fail(p, "watch: empty pattern in the list");
		for (int i = 0; i < p->s->nwatch; i++)
			if (!strcmp(p->s->watch[i], v))
				return fail(p, "watch: pattern '%s' is listed twice", v);
		if (p->s->nwatch == LJ_SCENARIO_MAX_WATCH)
			return fail(p, "watch: too many patterns (at most %d)", LJ_SCENARIO_MAX_WATCH);
		p->s->watch[p->s->nwatch] = strdup(v);
		if (!p->s->watch[p->s->nwatch])
			return -ENOMEM;
		p->s->nwatch++;
	}
	return 0;
}

static int parse_matrix_key(struct parser *p, const char *key, char *val)
{
	static const char *const settings[] = { "repeat", "warmup", "order", "seed", "watch", NULL };
	char why[256] = "";

	for (int i = 0; settings[i]; i++) {
		if (strcmp(key, settings[i]))
			continue;
		if (p->seen_settings & (1u << i))
			return fail(p, "'%s' is set twice", key);
		p->seen_settings |= 1u << i;
		break;
	}
	if (!strcmp(key, "repeat"))
		return parse_setting_int(p, key, val, 1, 1000, &p->s->repeat);
	if (!strcmp(key, "warmup"))
		return parse_setting_int(p, key, val, 0, 100, &p->s->warmup);
	if (!strcmp(key, "order")) {
		if (!strcmp(val, "sequential"))
			p->s->order = LJ_SCENARIO_SEQUENTIAL;
		else if (!strcmp(val, "random"))
			p->s->order = LJ_SCENARIO_RANDOM;
		else
			return fail(p, "order: '%s' is neither sequential nor random", val);
		return 0;
	}
	if (!strcmp(key, "seed")) {
		if (lj_parse_u64(val, 0, UINT64_MAX, &p->s->seed, why, sizeof(why)))
			return fail(p, "seed: invalid value '%s': %s", val, why[0] ? why : "not a number");
		p->s->seed_set = true;
		return 0;
	}
	if (!strcmp(key, "watch"))
		return parse_watch(p, val);
	return parse_axis(p, key, val);
}

static int parse_section_key(struct parser *p, const char *key, const char *val)
{
	struct lj_scenario_section *sec = p->cur;
	char why[256] = "";

	if (!strcmp(key, "command")) {
		if (sec->command)
			return fail(p, "'command' is set twice");
		if (has_control(val, true))
			return fail(p, "command: contains a control character");
		sec->command = strdup(val);
		return sec->command ? 0 : -ENOMEM;
	}
	if (!strcmp(key, "timeout") && p->sec == SEC_WORKLOAD) {
		if (sec->timeout_ns)
			return fail(p, "'timeout' is set twice");
		if (lj_parse_duration_ns(val, LJ_NSEC_PER_SEC, &sec->timeout_ns, why, sizeof(why)) ||
		    sec->timeout_ns <= 0)
			return fail(p, "timeout: invalid duration '%s': %s", val,
				    why[0] ? why : "must be positive");
		return 0;
	}
	return fail(p, "unknown key '%s' in [%s %s] (expected command%s)", key,
		    p->sec == SEC_WORKLOAD ? "workload" : "load", sec->name,
		    p->sec == SEC_WORKLOAD ? " or timeout" : "");
}

/* [kernel NAME]: image (a glob), modules, initramfs, cmdline. */
static int parse_kernel_key(struct parser *p, const char *key, const char *val)
{
	static const char *const keys[] = { "image", "modules", "initramfs", "cmdline", NULL };
	struct lj_scenario_kernel *k = p->kcur;
	char **field[] = { &k->image, &k->modules, &k->initramfs, &k->cmdline };

	for (int i = 0; keys[i]; i++) {
		if (strcmp(key, keys[i]))
			continue;
		if (*field[i])
			return fail(p, "'%s' is set twice", key);
		if (has_control(val, false) || strpbrk(val, "'\"\\$`"))
			return fail(p, "%s: contains a quote, backslash, $, ` or a control character", key);
		*field[i] = strdup(val);
		return *field[i] ? 0 : -ENOMEM;
	}
	return fail(p, "unknown key '%s' in [kernel %s] (expected image, modules, initramfs or cmdline)", key,
		    k->name);
}

static int parse_line(struct parser *p, char *raw)
{
	char *line, *eq, *key, *val;

	strip_comment(raw);
	line = trim(raw);
	if (!*line)
		return 0;
	if (*line == '[')
		return parse_header(p, line);
	eq = strchr(line, '=');
	if (!eq)
		return fail(p, "expected 'key = value' or '[section]'");
	*eq = '\0';
	key = trim(line);
	val = trim(eq + 1);
	if (!*key)
		return fail(p, "missing key before '='");
	if (!*val)
		return fail(p, "%s: missing value", key);
	switch (p->sec) {
	case SEC_MATRIX:
		return parse_matrix_key(p, key, val);
	case SEC_WORKLOAD:
	case SEC_LOAD:
		return parse_section_key(p, key, val);
	case SEC_KERNEL:
		return parse_kernel_key(p, key, val);
	default:
		return fail(p, "'%s' outside a section (start with [matrix])", key);
	}
}

/* Does @cmd contain ${name}? */
static bool uses_placeholder(const char *cmd, const char *name)
{
	size_t n = strlen(name);

	for (const char *c = cmd; (c = strstr(c, "${")); c += 2)
		if (!strncmp(c + 2, name, n) && c[2 + n] == '}')
			return true;
	return false;
}

/*
 * The longest command any cell of workload @w expands to: each axis at
 * the value that expands longest (a quoted value takes two more bytes).
 */
static int check_command_length(struct parser *p, int w)
{
	struct lj_scenario *s = p->s;
	struct lj_scenario_cell worst = { .workload = w };
	size_t len;
	char *cmd;

	for (int a = 0; a < s->naxes; a++) {
		size_t best = 0;

		for (int v = 0; v < s->axes[a].nvalues; v++) {
			const char *val = s->axes[a].values[v];
			size_t l = strlen(val) + (lj_scenario_shell_plain(val) ? 0 : 2);

			if (l > best) {
				best = l;
				worst.value[a] = v;
			}
		}
	}
	cmd = lj_scenario_command(s, &worst);
	if (!cmd)
		return -ENOMEM;
	len = strlen(cmd);
	free(cmd);
	p->line = s->workloads[w].line;
	if (len > LJ_SCENARIO_MAX_COMMAND)
		return fail(p, "workload '%s': its command expands to %zu bytes (at most %d)",
			    s->workloads[w].name, len, LJ_SCENARIO_MAX_COMMAND);
	return 0;
}

/* Every [kernel] has an image; kernel values name a section or a path; cmdline needs a kernel axis. */
static int check_kernels(struct parser *p)
{
	const struct lj_scenario *s = p->s;
	const struct lj_scenario_axis *kernel = lj_scenario_find_axis(s, "kernel", 6), *cmdline = lj_scenario_find_axis(s, "cmdline", 7);

	for (int i = 0; i < s->nkernels; i++) {
		p->line = s->kernels[i].line;
		if (!s->kernels[i].image)
			return fail(p, "kernel '%s' has no image", s->kernels[i].name);
	}
	if (cmdline && !kernel) {
		p->line = cmdline->line;
		return fail(p, "cmdline: boot words need a kernel axis (kernel = ...): the host's own cannot change");
	}
	for (int v = 0; kernel && v < kernel->nvalues; v++) {
		const char *k = kernel->values[v];

		p->line = kernel->line;
		if (strcmp(k, "host") && !strchr(k, '/') && !lj_scenario_find_kernel(s, k))
			return fail(p, "kernel: '%s' is neither host, a [kernel %s] section nor a path to an image", k, k);
	}
	return 0;
}

/* Whole-file checks, reported at the line of the thing they concern. */
static int check_scenario(struct parser *p)
{
	struct lj_scenario *s = p->s;
	size_t cells;
	int ret;

	if (!s->nworkloads) {
		p->line = 1;
		return fail(p, "no [workload NAME] section");
	}
	for (int i = 0; i < s->nworkloads; i++) {
		const char *cmd = s->workloads[i].command;

		p->line = s->workloads[i].line;
		if (!cmd)
			return fail(p, "workload '%s' has no command", s->workloads[i].name);
		for (const char *c = cmd; (c = strstr(c, "${")); c += 2) {
			const char *end = strchr(c, '}');

			if (!end)
				return fail(p, "workload '%s': unterminated ${ in the command",
					    s->workloads[i].name);
			if (!lj_scenario_find_axis(s, c + 2, end - c - 2))
				return fail(p, "workload '%s': ${%.*s} is not an axis of [matrix]",
					    s->workloads[i].name, (int)(end - c - 2), c + 2);
		}
	}
	for (int i = 0; i < s->nloads; i++) {
		p->line = s->loads[i].line;
		if (!s->loads[i].command)
			return fail(p, "load '%s' has no command", s->loads[i].name);
		if (strlen(s->loads[i].command) > LJ_SCENARIO_MAX_COMMAND)
			return fail(p, "load '%s': its command is over %d bytes", s->loads[i].name,
				    LJ_SCENARIO_MAX_COMMAND);
	}
	ret = check_kernels(p);
	if (ret)
		return ret;
	for (int i = 0; i < s->naxes; i++) {
		const struct lj_scenario_axis *a = &s->axes[i];
		bool used = false;

		p->line = a->line;
		if (!strcmp(a->name, "load")) {
			for (int v = 0; v < a->nvalues; v++)
				if (strcmp(a->values[v], "none") &&
				    !lj_scenario_find_load(s, a->values[v]))
					return fail(p, "load: '%s' is neither none, a built-in load nor a [load %s] section",
						    a->values[v], a->values[v]);
		}
		if (!a->custom)
			continue;
		/* An unknown key that no command uses is most likely a typo. */
		for (int w = 0; w < s->nworkloads; w++)
			used |= uses_placeholder(s->workloads[w].command, a->name);
		if (!used)
			return fail(p, "'%s' is not a setting or setup axis, and no workload command uses ${%s}",
				    a->name, a->name);
	}
	cells = lj_scenario_ncells(s);
	if (cells > LJ_SCENARIO_MAX_CELLS) {
		p->line = s->axes[s->naxes - 1].line;
		fail(p, "the matrix has %zu cells (at most %d)", cells, LJ_SCENARIO_MAX_CELLS);
		return -E2BIG;
	}
	for (int w = 0; w < s->nworkloads && !ret; w++)
		ret = check_command_length(p, w);
	return ret;
}

int lj_scenario_parse(const char *path, const char *text, struct lj_scenario **out,
		      char *err, size_t errlen)
{
	struct parser p = { .path = path, .err = err, .errlen = errlen };
	const char *c = text;
	int ret = 0;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	p.s = calloc(1, sizeof(*p.s));
	if (!p.s)
		return -ENOMEM;
	p.s->repeat = 1;
	p.s->path = strdup(path);
	p.s->text = strdup(text);
	if (!p.s->path || !p.s->text) {
		ret = -ENOMEM;
		goto out;
	}
	while (*c) {
		size_t len = strcspn(c, "\n");
		char *line = strndup(c, len);

		if (!line) {
			ret = -ENOMEM;
			goto out;
		}
		p.line++;
		ret = parse_line(&p, line);
		free(line);
		if (ret)
			goto out;
		c += len;
		if (*c == '\n')
			c++;
	}
	ret = check_scenario(&p);
out:
	if (ret == -ENOMEM && errlen)
		snprintf(err, errlen, "%s: out of memory", path);
	if (ret) {
		lj_scenario_free(p.s);
		return ret;
	}
	*out = p.s;
	return 0;
}

int lj_scenario_load(const char *path, struct lj_scenario **out, char *err, size_t errlen)
{
	char *text, why[256];
	size_t len;
	int ret;

	*out = NULL;
	ret = lj_readall(path, MAX_FILE_BYTES, &text, &len, why, sizeof(why));
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, why[0] ? why : strerror(-ret));
		return ret;
	}
	if (strlen(text) != len) {
		free(text);
		snprintf(err, errlen, "%s: contains a NUL byte (not a text file)", path);
		return -EINVAL;
	}
	ret = lj_scenario_parse(path, text, out, err, errlen);
	free(text);
	return ret;
}

static void free_sections(struct lj_scenario_section *v, int n)
{
	for (int i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].command);
	}
	free(v);
}

void lj_scenario_free(struct lj_scenario *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->naxes; i++) {
		free(s->axes[i].name);
		for (int v = 0; v < s->axes[i].nvalues; v++)
			free(s->axes[i].values[v]);
	}
	for (int i = 0; i < s->nwatch; i++)
		free(s->watch[i]);
	free_sections(s->workloads, s->nworkloads);
	free_sections(s->loads, s->nloads);
	for (int i = 0; i < s->nkernels; i++) {
		free(s->kernels[i].name);
		free(s->kernels[i].image);
		free(s->kernels[i].modules);
		free(s->kernels[i].initramfs);
		free(s->kernels[i].cmdline);
	}
	free(s->kernels);
	free(s->path);
	free(s->text);
	free(s);
}

int lj_scenario_set_axis(struct lj_scenario *s, const char *name, const char *values, char *err,
			 size_t errlen)
{
	struct parser p = { .path = "--axis", .err = err, .errlen = errlen, .s = s, .sec = SEC_MATRIX };
	char *copy = strdup(values);
	int at = -1, ret;

	if (!copy)
		return -ENOMEM;
	for (int i = 0; i < s->naxes; i++)
		if (!strcmp(s->axes[i].name, name))
			at = i;
	if (at >= 0) {
		/* out of the list for parse_axis, back in its place after */
		struct lj_scenario_axis old = s->axes[at];

		memmove(&s->axes[at], &s->axes[at + 1], (s->naxes - at - 1) * sizeof(old));
		s->naxes--;
		memset(&s->axes[s->naxes], 0, sizeof(old));
		for (int v = 0; v < old.nvalues; v++)
			free(old.values[v]);
		free(old.name);
	}
	ret = parse_axis(&p, name, copy);
	free(copy);
	if (!ret && at >= 0 && at < s->naxes - 1) {
		struct lj_scenario_axis moved = s->axes[s->naxes - 1];

		memmove(&s->axes[at + 1], &s->axes[at], (s->naxes - 1 - at) * sizeof(moved));
		s->axes[at] = moved;
	}
	return ret ? ret : check_scenario(&p);
}
