// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_opt - option tables that generate getopt_long's array, optstring and --help. */
#include "lj_opt.h"
#include "lj_err.h"
#include "lj_parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lj_time.h"
#include "lj_why.h"

#define KEY_HELP (LJ_OPT_LONG_BASE - 1)
#define KEY_VERSION (LJ_OPT_LONG_BASE - 2)

#ifndef LJ_VERSION
#define LJ_VERSION "unknown"
#endif

static int count_opts(const struct lj_opt_spec *spec)
{
	int n = 0;

	for (int t = 0; t < spec->ntables; t++)
		for (const struct lj_opt *o = spec->tables[t].opts; o->name || o->key; o++)
			n++;
	return n;
}

/* The entry of @key and (in *@tab) its table; NULL when no table has it. */
static const struct lj_opt *find_opt(const struct lj_opt_spec *spec, int key,
				     const struct lj_opt_table **tab)
{
	for (int t = 0; t < spec->ntables; t++)
		for (const struct lj_opt *o = spec->tables[t].opts; o->name || o->key; o++)
			if (o->key == key) {
				if (tab)
					*tab = &spec->tables[t];
				return o;
			}
	return NULL;
}

static const struct lj_opt_table *find_key(const struct lj_opt_spec *spec, int key)
{
	const struct lj_opt_table *tab = NULL;

	find_opt(spec, key, &tab);
	return tab;
}

/* "--name" or "key 'x'" / "key 300": how lj_opt_check names an entry. */
static const char *entry_name(const struct lj_opt *o, char *buf, size_t len)
{
	if (o->name)
		snprintf(buf, len, "--%s", o->name);
	else if (o->key > 0 && o->key < LJ_OPT_LONG_BASE)
		snprintf(buf, len, "-%c", o->key);
	else
		snprintf(buf, len, "key %d", o->key);
	return buf;
}

/* The entry of @spec's tables before @o (table @t) with @o's key or long name, or NULL. */
static const struct lj_opt *earlier_twin(const struct lj_opt_spec *spec, int t, const struct lj_opt *o)
{
	for (int u = 0; u <= t; u++)
		for (const struct lj_opt *p = spec->tables[u].opts; p != o && (p->name || p->key); p++)
			if (p->key == o->key || (o->name && p->name && !strcmp(p->name, o->name)))
				return p;
	return NULL;
}

int lj_opt_check(const struct lj_opt_spec *spec, char *why, size_t len)
{
	char a[64], b[64], k[16];

	for (int t = 0; t < spec->ntables; t++)
		for (const struct lj_opt *o = spec->tables[t].opts; o->name || o->key; o++) {
			const struct lj_opt *p = earlier_twin(spec, t, o);

			if (o->key < LJ_OPT_LONG_BASE)
				snprintf(k, sizeof(k), "'%c'", o->key > 0 && isgraph(o->key) ? o->key : '?');
			else
				snprintf(k, sizeof(k), "%d", o->key);
			if (p && p->key == o->key)
				return lj_why_err(why, len, -EINVAL, "%s and %s both have key %s",
						  entry_name(p, a, sizeof(a)), entry_name(o, b, sizeof(b)), k);
			if (p)
				return lj_why_err(why, len, -EINVAL, "--%s is in the tables twice", o->name);
			if (o->key <= 0 || (o->key < LJ_OPT_LONG_BASE && !isgraph(o->key)))
				return lj_why_err(why, len, -EINVAL, "%s has key %d: neither a letter nor >= %d",
						  entry_name(o, a, sizeof(a)), o->key, LJ_OPT_LONG_BASE);
			if (o->type == LJ_OPT_CHOICE && (!o->values || !*o->values))
				return lj_why_err(why, len, -EINVAL, "%s is a choice without values",
						  entry_name(o, a, sizeof(a)));
			if (o->name && (!strcmp(o->name, "help") || !strcmp(o->name, "version")))
				return lj_why_err(why, len, -EINVAL, "--%s is built in", o->name);
		}
	return 0;
}

void lj_opt_print_help(const struct lj_opt_spec *spec, FILE *out)
{
	fprintf(out, "Usage: %s %s\n", lj_prog(), spec->usage ? spec->usage : "[OPTIONS]");
	if (spec->summary)
		fprintf(out, "%s\n", spec->summary);
	for (int t = 0; t < spec->ntables; t++) {
		const struct lj_opt_table *tab = &spec->tables[t];

		if (!lj_opt_first_shown(tab->opts))
			fprintf(out, "\n%s:\n", tab->title ? tab->title : "options");
		for (const struct lj_opt *o = tab->opts; o->name || o->key; o++) {
			const char *section = lj_opt_section(tab->title, tab->opts, o);
			char left[64];
			int n = 0;

			if (!o->help)
				continue;
			if (section)
				fprintf(out, "\n%s:\n", section);
			if (o->key > 0 && o->key < LJ_OPT_LONG_BASE)
				n += snprintf(left + n, sizeof(left) - n, "-%c%s", o->key,
					      o->name ? ", " : "");
			else
				n += snprintf(left + n, sizeof(left) - n, "    ");
			if (o->name)
				n += snprintf(left + n, sizeof(left) - n, "--%s", o->name);
			if (o->arg == LJ_OPT_ARG)
				snprintf(left + n, sizeof(left) - n, " %s", o->argname ? o->argname : "ARG");
			else if (o->arg == LJ_OPT_OPTARG)
				snprintf(left + n, sizeof(left) - n, "[=%s]", o->argname ? o->argname : "ARG");
			if (strlen(left) > 28)
				fprintf(out, "  %s\n  %-28s  %s\n", left, "", o->help);
			else
				fprintf(out, "  %-28s  %s\n", left, o->help);
		}
	}
	fprintf(out, "\n  %-28s  %s\n", "-?, --help", "show this help and exit");
	fprintf(out, "  %-28s  %s\n", "    --version", "print the ljkit version and exit");
	if (spec->epilog)
		fprintf(out, "\n%s\n", spec->epilog);
}

/* ---- typed entries ---- */

/* The option as the user knows it, for messages: "--loops", or "-l" for a short-only one. */
static const char *opt_label(const struct lj_opt *o, char *buf, size_t len)
{
	if (o->name)
		snprintf(buf, len, "--%s", o->name);
	else
		snprintf(buf, len, "-%c", o->key);
	return buf;
}

/* @ns in the largest unit that holds it exactly: "1 us", "3600 s" -> "1 h". */
static const char *fmt_ns(int64_t ns, char *buf, size_t len)
{
	static const struct { const char *name; int64_t ns; } units[] = {
		{ "d", 86400 * LJ_NSEC_PER_SEC }, { "h", 3600 * LJ_NSEC_PER_SEC },
		{ "m", 60 * LJ_NSEC_PER_SEC }, { "s", LJ_NSEC_PER_SEC },
		{ "ms", LJ_NSEC_PER_MSEC }, { "us", LJ_NSEC_PER_USEC }, { "ns", 1 },
	};
	size_t i = 0;

	while (i < sizeof(units) / sizeof(units[0]) - 1 && (ns == 0 || ns % units[i].ns))
		i++;
	snprintf(buf, len, "%lld %s", (long long)(ns / units[i].ns), units[i].name);
	return buf;
}

/* A number or duration as the entry's type reads it, strictly. Return: 0 or -EINVAL with @why. */
static int parse_number(const struct lj_opt *o, const char *arg, int64_t *out, char *why,
			size_t len)
{
	uint64_t u;
	int v;
	char lo[32], hi[32];

	switch (o->type) {
	case LJ_OPT_INT:
		if (lj_parse_int(arg, (int)o->min, (int)o->max, &v, why, len))
			return -EINVAL;
		*out = v;
		return 0;
	case LJ_OPT_I64:
		return lj_parse_i64(arg, o->min, o->max, out, why, len) ? -EINVAL : 0;
	case LJ_OPT_U64:
		if (lj_parse_u64(arg, (uint64_t)o->min, o->max ? (uint64_t)o->max : UINT64_MAX, &u, why, len))
			return -EINVAL;
		*out = (int64_t)u;
		return 0;
	default:	/* LJ_OPT_DURATION */
		if (lj_parse_duration_ns(arg, o->unit, out, why, len))
			return -EINVAL;
		if (*out < o->min || (o->max && *out > o->max)) {
			if (o->max)
				lj_why(why, len, "must be %s to %s", fmt_ns(o->min, lo, sizeof(lo)),
				       fmt_ns(o->max, hi, sizeof(hi)));
			else
				lj_why(why, len, "must be at least %s", fmt_ns(o->min, lo, sizeof(lo)));
			return -EINVAL;
		}
		return 0;
	}
}

/*
 * rt-tests reads these values with atoi(): blanks before the number are
 * skipped, anything after its digits is ignored. Accept the first, and
 * the second with a warning naming what is ignored; a value whose digits
 * alone do not make a valid number keeps the strict message.
 */
static int parse_number_rt(const struct lj_opt *o, const char *arg, int64_t *out, char *why,
			   size_t len)
{
	char digits[32], label[64];
	const char *p = arg, *q;

	if (!parse_number(o, arg, out, why, len))
		return 0;
	q = p + (*p == '-' || *p == '+');
	while (isdigit((unsigned char)*q))
		q++;
	if (q == p + (*p == '-' || *p == '+') || !*q || (size_t)(q - p) >= sizeof(digits))
		return -EINVAL;
	memcpy(digits, p, q - p);
	digits[q - p] = 0;
	if (parse_number(o, digits, out, why, len))
		return -EINVAL;
	lj_warn("%s '%s': ignoring '%s' after %s, as rt-tests' atoi() does",
		opt_label(o, label, sizeof(label)), arg, q, digits);
	return 0;
}

static void *field(void *ctx, size_t off)
{
	return (char *)ctx + off;
}

/* LJ_OPT_CHOICE: the index of @arg among the blank-separated @values, or -1; @list gets "a, b or c". */
static int choice_index(const char *values, const char *arg, char *list, size_t len)
{
	size_t n = strlen(arg), used = 0;
	int found = -1, i = 0;

	*list = '\0';
	for (const char *w = values; *w; i++) {
		size_t wl = strcspn(w, " ");
		const char *next = w + wl + strspn(w + wl, " ");

		if (wl == n && !strncmp(w, arg, n))
			found = i;
		if (used < len)
			used += (size_t)snprintf(list + used, len - used, "%s%.*s",
						 !i ? "" : *next ? ", " : " or ", (int)wl, w);
		w = next;
	}
	return found;
}

/* A refused number: the reason, then the entry's hint when it has one ("an integer > 0"). */
static int refuse(const struct lj_opt *o, const char *label, const char *arg, const char *why)
{
	if (o->hint)
		return lj_usage_error("invalid %s '%s': %s (%s)", label, arg, why, o->hint);
	return lj_opt_invalid(label, arg, why);
}

int lj_opt_store(const struct lj_opt *o, void *ctx, const char *arg, bool rt_argv)
{
	char label[64], why[256];
	int64_t v;

	opt_label(o, label, sizeof(label));
	if (rt_argv && arg)
		while (isblank((unsigned char)*arg))
			arg++;
	switch (o->type) {
	case LJ_OPT_FLAG:
		*(bool *)field(ctx, o->off) = true;
		break;
	case LJ_OPT_CONST:
		*(int *)field(ctx, o->off) = (int)o->min;
		break;
	case LJ_OPT_INT:
	case LJ_OPT_I64:
	case LJ_OPT_U64:
	case LJ_OPT_DURATION:
		if ((rt_argv ? parse_number_rt : parse_number)(o, arg, &v, why, sizeof(why)))
			return refuse(o, label, arg, why);
		if (o->type == LJ_OPT_INT)
			*(int *)field(ctx, o->off) = (int)v;
		else if (o->type == LJ_OPT_U64)
			*(uint64_t *)field(ctx, o->off) = (uint64_t)v;
		else
			*(int64_t *)field(ctx, o->off) = v;
		break;
	case LJ_OPT_STRING:
		*(const char **)field(ctx, o->off) = arg;
		break;
	case LJ_OPT_CPULIST:
		if (lj_opt_cpulist(label, arg, field(ctx, o->off)))
			return LJ_EXIT_USAGE;
		break;
	case LJ_OPT_POLICY:
		if (lj_opt_policy(label, arg, field(ctx, o->off)))
			return LJ_EXIT_USAGE;
		break;
	case LJ_OPT_DOUBLE:
		if (lj_parse_double(arg, o->dmin, o->dmax, field(ctx, o->off), why, sizeof(why)))
			return refuse(o, label, arg, why);
		break;
	case LJ_OPT_CHOICE: {
		int i = choice_index(o->values ? o->values : "", arg, why, sizeof(why));

		if (i < 0)
			return lj_opt_invalid(label, arg, why);
		*(int *)field(ctx, o->off) = i;
		break;
	}
	case LJ_OPT_VERBOSITY:
		return lj_opt_verbosity(o->key);
	default:
		return 0;
	}
	if (o->given)
		*(bool *)field(ctx, o->given - 1) = true;
	return 0;
}

int lj_opt_rt_duration(const char *name, const char *arg, int64_t unit_ns, int64_t *out)
{
	const struct lj_opt o = { name, 0, LJ_OPT_ARG, NULL, NULL, LJ_OPT_DURATION, 0, .min = 0,
				  .unit = unit_ns };

	return lj_opt_store(&o, out, arg, true);
}

/* ---- argv as rt-tests reads it ---- */

/* Does @word read as the value of an optional argument given as the next word? */
static bool next_word_is_value(const char *word, unsigned int flags)
{
	if (!word || !(flags & (LJ_OPT_NEXT_NUMBER | LJ_OPT_NEXT_CPUS)))
		return false;
	if (isdigit((unsigned char)word[0]))
		return true;
	return (flags & LJ_OPT_NEXT_CPUS) &&
	       (((word[0] == '!' || word[0] == '+') && isdigit((unsigned char)word[1])) ||
		!strcmp(word, "all"));
}

/* The entry @word names ("-s", "-s100", "--loops", "--loops=3"), or NULL. */
static const struct lj_opt *word_option(const struct lj_opt_spec *spec, const char *word)
{
	if (word[0] != '-' || !word[1])
		return NULL;
	if (word[1] != '-')
		return find_opt(spec, (unsigned char)word[1], NULL);
	for (int t = 0; t < spec->ntables; t++)
		for (const struct lj_opt *o = spec->tables[t].opts; o->name || o->key; o++) {
			size_t n = o->name ? strlen(o->name) : 0;

			if (n && !strncmp(word + 2, o->name, n) && (!word[2 + n] || word[2 + n] == '='))
				return o;
		}
	return NULL;
}

/*
 * Words split from one argv element live as long as the process, as argv
 * does: option values (a --json path) point into them. Reachable through
 * this list, so leak checkers do not count them.
 */
struct split_words {
	struct split_words *next;
	char text[];
};
static struct split_words *split_store;

/* Split @arg at blanks into @out (room for strlen(arg) / 2 + 1 words); returns the count. */
static int split_blanks(const char *arg, char **out)
{
	size_t len = strlen(arg);
	struct split_words *w = malloc(sizeof(*w) + len + 1);
	char *save = NULL;
	int n = 0;

	if (!w)
		return -1;
	memcpy(w->text, arg, len + 1);
	w->next = split_store;
	split_store = w;

	for (char *tok = strtok_r(w->text, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		out[n++] = tok;
	return n;
}

/*
 * Is argv[@i] one word holding several of the spec's options
 * ("-s 100 -l 100 -g 10 -f 20", as a farm script quotes it)? Only when
 * it is not the value of the option before it and every word in it that
 * starts with '-' is a known option.
 */
static bool holds_options(const struct lj_opt_spec *spec, char **argv, int i)
{
	const char *arg = argv[i], *p;
	const struct lj_opt *prev = word_option(spec, argv[i - 1]);
	int options = 0;
	char word[128];

	if (arg[0] != '-' || !strpbrk(arg, " \t"))
		return false;
	if (prev && prev->arg == LJ_OPT_ARG && !strchr(argv[i - 1], '=') &&
	    (argv[i - 1][1] == '-' || !argv[i - 1][2]))
		return false;
	for (p = arg; *p;) {
		size_t n = strcspn(p, " \t");

		if (*p == '-') {
			if (n >= sizeof(word))
				return false;
			memcpy(word, p, n);
			word[n] = 0;
			if (!word_option(spec, word))
				return false;
			options++;
		}
		p += n;
		p += strspn(p, " \t");
	}
	return options >= 2;
}

/*
 * The argv the parse reads: @argv with each element before "--" that
 * holds several options split into its words (with a warning). *@out is
 * @argv itself when nothing was split, else a new array the caller
 * frees. Return: the new argc, or -ENOMEM.
 */
static int split_several(const struct lj_opt_spec *spec, int argc, char **argv, char ***out)
{
	size_t room = argc + 1;
	bool any = false, options = true;
	char **nv;
	int n = 0, got;

	*out = argv;
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		any |= holds_options(spec, argv, i);
	if (!any)
		return argc;
	for (int i = 0; i < argc; i++)
		room += strlen(argv[i]) / 2 + 1;
	nv = calloc(room, sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	for (int i = 0; i < argc; i++) {
		options = options && strcmp(argv[i], "--");
		if (!i || !options || !holds_options(spec, argv, i)) {
			nv[n++] = argv[i];
			continue;
		}
		lj_warn("'%s' is one argument holding several options: read as separate words", argv[i]);
		got = split_blanks(argv[i], nv + n);
		if (got < 0) {
			free(nv);
			return -ENOMEM;
		}
		n += got;
	}
	nv[n] = NULL;
	*out = nv;
	return n;
}

/*
 * The index of the argv element getopt took its last option from, for
 * messages: getopt skips operands first when it permutes (they are moved
 * later, behind the options, so nothing at or after @optind_before moves),
 * and stays on a cluster ("-qx") until its last letter.
 */
static int option_element(int argc, char **argv, int optind_before)
{
	int i = optind_before > 0 ? optind_before : 1;

	while (i < argc - 1 && (argv[i][0] != '-' || !argv[i][1]))
		i++;
	return i;
}

/* getopt_long's arrays for @spec; 0 or -ENOMEM. The caller frees both. */
static int getopt_tables(const struct lj_opt_spec *spec, struct option **longs_out, char **shorts_out)
{
	int n = count_opts(spec);
	struct option *longs = calloc(n + 3, sizeof(*longs));
	char *shorts = calloc(3 * n + 4, 1);
	int nl = 0, ns = 0;

	*longs_out = longs;
	*shorts_out = shorts;
	if (!longs || !shorts)
		return -ENOMEM;
	/*
	 * '+' stops at the first non-option, so "lj-env cmd -x" leaves -x to
	 * cmd; without it getopt permutes ("lj-matrix FILE --repeat 1").
	 */
	if (spec->stop_at_operand)
		shorts[ns++] = '+';
	shorts[ns++] = ':';
	for (int t = 0; t < spec->ntables; t++) {
		for (const struct lj_opt *o = spec->tables[t].opts; o->name || o->key; o++) {
			if (o->name) {
				longs[nl].name = o->name;
				longs[nl].has_arg = o->arg;
				longs[nl].val = o->key;
				nl++;
			}
			if (o->key > 0 && o->key < LJ_OPT_LONG_BASE) {
				shorts[ns++] = (char)o->key;
				if (o->arg != LJ_OPT_NOARG)
					shorts[ns++] = ':';
				if (o->arg == LJ_OPT_OPTARG)
					shorts[ns++] = ':';
			}
		}
	}
	longs[nl].name = "help";
	longs[nl].val = KEY_HELP;
	nl++;
	longs[nl].name = "version";	/* every tool's, like --help */
	longs[nl].val = KEY_VERSION;
	if (!find_key(spec, '?'))
		shorts[ns++] = '?';
	return 0;
}

/* getopt's '?' and ':' as one message naming the option. Return: LJ_EXIT_USAGE. */
static int getopt_error(int c, int argc, char **argv, int elem)
{
	bool is_short = optopt && optopt < LJ_OPT_LONG_BASE && elem < argc && argv[elem][1] != '-';

	if (c == '?' && is_short)
		return lj_usage_error("invalid option -- '%c' (see --help)", optopt);
	if (c == '?')
		return lj_usage_error("unrecognized option '%s' (see --help)", argv[elem]);
	if (is_short)
		return lj_usage_error("option -%c needs an argument", optopt);
	return lj_usage_error("option '%s' needs an argument", argv[elem]);
}

/*
 * One option getopt returned: its value (an optional argument may be the
 * next word, cyclictest's "-t 2"), stored by its entry or handed to the
 * handler. Return: 0, LJ_OPT_EXIT_HELP or an exit code after a message.
 */
static int dispatch(const struct lj_opt_spec *spec, int c, int argc, char **argv)
{
	const struct lj_opt_table *tab = NULL;
	const struct lj_opt *o = find_opt(spec, c, &tab);
	const char *arg = optarg;
	int ret;

	if (!o)
		return lj_usage_error("unhandled option (internal error)");
	if (o->type == LJ_OPT_HELP) {
		lj_opt_print_help(spec, stdout);
		return LJ_OPT_EXIT_HELP;
	}
	if (!arg && o->arg == LJ_OPT_OPTARG && optind < argc &&
	    (o->next_value ? o->next_value(argc, argv, optind) : next_word_is_value(argv[optind], o->flags)))
		arg = argv[optind++];
	if (arg && spec->rt_argv)
		while (isblank((unsigned char)*arg))
			arg++;
	if (o->type == LJ_OPT_CALL)
		return tab->handle(tab->ctx, c, arg);
	ret = lj_opt_store(o, tab->ctx, arg, spec->rt_argv && !(o->flags & LJ_OPT_STRICT));
	if (!ret && (o->flags & LJ_OPT_THEN_CALL))
		ret = tab->handle(tab->ctx, c, arg);
	return ret;
}

static int parse_argv(const struct lj_opt_spec *spec, int argc, char **argv, int *first_arg)
{
	struct option *longs;
	char *shorts;
	int ret = 0;

	if (getopt_tables(spec, &longs, &shorts)) {
		free(longs);
		free(shorts);
		lj_error("out of memory parsing options");
		return LJ_EXIT_RUNTIME;
	}
	/*
	 * 0, not 1: glibc then forgets the previous parse, including its
	 * ordering mode ('+' or permute) and where it had moved operands.
	 */
	optind = 0;
	opterr = 0;
	for (;;) {
		int prev = optind;
		int c = getopt_long(argc, argv, shorts, longs, NULL);

		if (c == -1)
			break;
		prev = option_element(argc, argv, prev);
		if (c == KEY_VERSION) {
			printf("%s (ljkit) %s\n", lj_prog(), LJ_VERSION);
			ret = LJ_OPT_EXIT_HELP;
			break;
		}
		if (c == KEY_HELP || (c == '?' && prev < argc && argv[prev] &&
				      !strcmp(argv[prev], "-?"))) {
			lj_opt_print_help(spec, stdout);
			ret = LJ_OPT_EXIT_HELP;
			break;
		}
		ret = c == '?' || c == ':' ? getopt_error(c, argc, argv, prev) : dispatch(spec, c, argc, argv);
		if (ret)
			break;
	}
	if (!ret && first_arg)
		*first_arg = optind;
	free(longs);
	free(shorts);
	return ret;
}

int lj_opt_parse(const struct lj_opt_spec *spec, int argc, char **argv, int *first_arg)
{
	char **words = argv;
	int n = argc, first = argc, ret;
	char why[256];

	if (lj_opt_check(spec, why, sizeof(why))) {
		lj_error("option tables: %s (internal error)", why);
		return LJ_EXIT_RUNTIME;
	}
	if (argc == 2 && !strcmp(argv[1], "--dump-options")) {
		lj_opt_dump(spec, stdout);
		return LJ_OPT_EXIT_HELP;
	}
	if (spec->rt_argv)
		n = split_several(spec, argc, argv, &words);
	if (n < 0) {
		lj_error("out of memory parsing options");
		return LJ_EXIT_RUNTIME;
	}
	ret = parse_argv(spec, n, words, &first);
	if (words != argv) {
		/* Indexes into the split words mean nothing to the caller: rt_argv takes no operands. */
		if (!ret && first < n)
			ret = lj_usage_error("unexpected argument '%s' (see --help)", words[first]);
		first = argc;
		free(words);
	}
	if (!ret && first_arg)
		*first_arg = first;
	return ret;
}

int lj_opt_parse_no_operands(const struct lj_opt_spec *spec, int argc, char **argv)
{
	int first = argc;
	int ret;

	ret = lj_opt_parse(spec, argc, argv, &first);
	if (ret)
		return ret;
	if (first < argc)
		return lj_usage_error("unexpected argument '%s' (see --help)", argv[first]);
	return 0;
}

/* ---- option values ---- */

int lj_opt_verbosity(int key)
{
	lj_err_set_verbosity(key == 'q' ? -1 : lj_err_verbosity() + 1);
	return 0;
}

int lj_opt_invalid(const char *opt, const char *arg, const char *why)
{
	return lj_usage_error("invalid %s '%s': %s", opt, arg ? arg : "",
			      why && *why ? why : "invalid value");
}

int lj_opt_int(const char *opt, const char *arg, int min, int max, int *out)
{
	char why[256];

	if (lj_parse_int(arg, min, max, out, why, sizeof(why)))
		return lj_opt_invalid(opt, arg, why);
	return 0;
}

int lj_opt_i64(const char *opt, const char *arg, int64_t min, int64_t max, int64_t *out)
{
	char why[256];

	if (lj_parse_i64(arg, min, max, out, why, sizeof(why)))
		return lj_opt_invalid(opt, arg, why);
	return 0;
}

int lj_opt_u64(const char *opt, const char *arg, uint64_t min, uint64_t max, uint64_t *out)
{
	char why[256];

	if (lj_parse_u64(arg, min, max, out, why, sizeof(why)))
		return lj_opt_invalid(opt, arg, why);
	return 0;
}

int lj_opt_double(const char *opt, const char *arg, double min, double max, double *out)
{
	char why[256];

	if (lj_parse_double(arg, min, max, out, why, sizeof(why)))
		return lj_opt_invalid(opt, arg, why);
	return 0;
}

int lj_opt_duration(const char *opt, const char *arg, int64_t default_unit_ns, int64_t *out)
{
	char why[256];

	if (lj_parse_duration_ns(arg, default_unit_ns, out, why, sizeof(why)))
		return lj_opt_invalid(opt, arg, why);
	return 0;
}

int lj_opt_bool(const char *opt, const char *arg, bool *out)
{
	char why[256];

	if (lj_parse_bool(arg, out, why, sizeof(why)))
		return lj_opt_invalid(opt, arg, why);
	return 0;
}

int lj_opt_cpulist(const char *opt, const char *arg, cpu_set_t *out)
{
	char why[256];

	if (lj_parse_cpulist(arg, out, 0, why, sizeof(why)))
		return lj_opt_invalid(opt, arg, why);
	return 0;
}

int lj_opt_policy(const char *opt, const char *arg, enum lj_policy *out)
{
	enum lj_policy p;

	if (lj_sched_policy_parse(arg, &p) || p == LJ_POLICY_DEADLINE)
		return lj_opt_invalid(opt, arg, "not one of other, normal, batch, idle, fifo, rr");
	*out = p;
	return 0;
}

int lj_opt_policy_priority(bool policy_given, enum lj_policy *policy, int priority)
{
	bool rt;

	if (!policy_given && priority > 0)
		*policy = LJ_POLICY_FIFO;
	rt = *policy == LJ_POLICY_FIFO || *policy == LJ_POLICY_RR;
	if (rt && priority == 0)
		return lj_usage_error("--policy %s needs --priority 1..99", lj_sched_policy_name(*policy));
	if (!rt && priority > 0)
		return lj_usage_error("--priority %d needs --policy fifo or rr", priority);
	return 0;
}
