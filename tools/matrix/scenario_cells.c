// SPDX-License-Identifier: GPL-2.0-or-later
/* The cells of a parsed scenario: lookups, axis values, ids, commands and run order. */
#include "scenario.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Built-in background loads: they run until stopped (SIGTERM) after each run. */
static const struct lj_scenario_section builtin_loads[] = {
	{ "hackbench", "lj-hackbench --load --quiet", 0, 0 },
	{ NULL, NULL, 0, 0 },
};

/* Characters that a shell treats as part of a plain word anywhere in it. */
bool lj_scenario_shell_plain(const char *v)
{
	for (; *v; v++)
		if (!isalnum((unsigned char)*v) && !strchr("_.,:=+/@%-", *v))
			return false;
	return true;
}

struct lj_scenario_section *lj_scenario_find_section(struct lj_scenario_section *v, int n,
						     const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

const struct lj_scenario_axis *lj_scenario_find_axis(const struct lj_scenario *s, const char *name,
						    size_t len)
{
	for (int i = 0; i < s->naxes; i++)
		if (strlen(s->axes[i].name) == len && !strncmp(s->axes[i].name, name, len))
			return &s->axes[i];
	return NULL;
}

size_t lj_scenario_ncells(const struct lj_scenario *s)
{
	size_t n = s->nworkloads;

	for (int i = 0; i < s->naxes; i++) {
		if (n > (size_t)LJ_SCENARIO_MAX_CELLS * 2)
			break;	/* already too many; avoid overflow */
		n *= s->axes[i].nvalues;
	}
	return n;
}

int lj_scenario_cell(const struct lj_scenario *s, size_t i, struct lj_scenario_cell *out)
{
	size_t n = lj_scenario_ncells(s);

	if (i >= n)
		return -ERANGE;
	memset(out, 0, sizeof(*out));
	out->index = i;
	/* Mixed-radix digits: the last axis varies fastest. */
	for (int a = s->naxes - 1; a >= 0; a--) {
		out->value[a] = i % s->axes[a].nvalues;
		i /= s->axes[a].nvalues;
	}
	out->workload = (int)i;
	return 0;
}

const char *lj_scenario_value(const struct lj_scenario *s, const struct lj_scenario_cell *c,
			      const char *name)
{
	for (int a = 0; a < s->naxes; a++)
		if (!strcmp(s->axes[a].name, name))
			return s->axes[a].values[c->value[a]];
	return NULL;
}

int lj_scenario_cell_id(const struct lj_scenario *s, const struct lj_scenario_cell *c,
			char *buf, size_t len)
{
	int total = 0;

	if (len)
		buf[0] = '\0';
	for (int a = 0; a < s->naxes; a++) {
		size_t used = (size_t)total < len ? (size_t)total : len;
		int n = snprintf(buf + used, len - used, "%s%s=%s", a ? "," : "",
				 s->axes[a].name, s->axes[a].values[c->value[a]]);

		if (n < 0)
			return n;
		total += n;
	}
	return total;
}

struct growbuf {
	char *s;
	size_t len, cap;
};

static int put(struct growbuf *b, const char *piece, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *ns = realloc(b->s, cap);

		if (!ns)
			return -ENOMEM;
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->len, piece, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

/*
 * Where a value lands decides how it stays one word of data: outside
 * quotes it is single-quoted unless every character is plain; inside
 * '...' or "..." it goes in as it is, which is safe because the parser
 * refuses quotes, backslash, $ and backquote in custom values (the only
 * characters those quotes do not protect).
 */
static int put_value(struct growbuf *b, const char *v, char quote)
{
	int ret;

	if (quote || lj_scenario_shell_plain(v))
		return put(b, v, strlen(v));
	ret = put(b, "'", 1);
	if (!ret)
		ret = put(b, v, strlen(v));
	return ret ? ret : put(b, "'", 1);
}

char *lj_scenario_command(const struct lj_scenario *s, const struct lj_scenario_cell *c)
{
	const char *cmd = s->workloads[c->workload].command;
	struct growbuf b = { 0 };
	char quote = 0;		/* the shell quote the text is in: 0, ' or " */
	int ret = put(&b, "", 0);

	while (*cmd && !ret) {
		const struct lj_scenario_axis *a = NULL;
		const char *end = NULL;

		if (cmd[0] == '$' && cmd[1] == '{' && (end = strchr(cmd, '}')))
			a = lj_scenario_find_axis(s, cmd + 2, end - cmd - 2);
		if (a) {
			ret = put_value(&b, a->values[c->value[a - s->axes]], quote);
			cmd = end + 1;
			continue;
		}
		if (*cmd == '\\' && quote != '\'' && cmd[1]) {
			ret = put(&b, cmd, 2);	/* an escaped character opens no quote */
			cmd += 2;
			continue;
		}
		if ((*cmd == '\'' || *cmd == '"') && (!quote || quote == *cmd))
			quote = quote ? 0 : *cmd;
		ret = put(&b, cmd++, 1);
	}
	if (ret) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

const struct lj_scenario_section *lj_scenario_find_load(const struct lj_scenario *s,
							 const char *name)
{
	const struct lj_scenario_section *sec;

	sec = lj_scenario_find_section(s->loads, s->nloads, name);
	if (sec)
		return sec;
	for (sec = builtin_loads; sec->name; sec++)
		if (!strcmp(sec->name, name))
			return sec;
	return NULL;
}

const struct lj_scenario_kernel *lj_scenario_find_kernel(const struct lj_scenario *s, const char *name)
{
	for (int i = 0; i < s->nkernels; i++)
		if (!strcmp(s->kernels[i].name, name))
			return &s->kernels[i];
	return NULL;
}

bool lj_scenario_in_guest(const struct lj_scenario *s, const struct lj_scenario_cell *c)
{
	const char *k = lj_scenario_value(s, c, "kernel");

	return k && strcmp(k, "host");
}

/* splitmix64: tiny, well mixed, and the same on every platform. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void lj_scenario_run_order(const struct lj_scenario *s, uint64_t seed, size_t *order, size_t n)
{
	uint64_t state = seed;

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	if (s->order != LJ_SCENARIO_RANDOM)
		return;
	for (size_t i = n; i > 1; i--) {
		size_t j = next_random(&state) % i;
		size_t t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}
