// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lj_optdump - the option tables as tab-separated lines, for the man page
 * and bash completion generators (scripts/gen-man, scripts/gen-completion).
 * Generated from the same tables as --help, so the three cannot drift.
 */
#include "lj_opt.h"
#include "lj_err.h"

#include <string.h>

/* @s on one field: tabs and newlines become blanks; NULL becomes "". */
static void put_field(FILE *out, const char *s)
{
	for (; s && *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, out);
}

/* What a completer may offer for the value: a fixed set, CPUs, or nothing known. */
static const char *value_kind(const struct lj_opt *o)
{
	if (o->arg == LJ_OPT_NOARG)
		return "none";
	/* A CPU selector may also carry named values ("all online big little"). */
	if (o->type == LJ_OPT_CPULIST || (o->flags & LJ_OPT_NEXT_CPUS) ||
	    (o->argname && (!strcmp(o->argname, "CPUS") || !strcmp(o->argname, "SELECTOR"))))
		return "cpus";
	if (o->values || o->type == LJ_OPT_POLICY)
		return "set";
	switch (o->type) {
	case LJ_OPT_INT:
	case LJ_OPT_I64:
	case LJ_OPT_U64:
		return "number";
	case LJ_OPT_DURATION:
		return "duration";
	default:
		return "text";
	}
}

static void dump_opt(FILE *out, const struct lj_opt *o)
{
	static const char *const args[] = {
		[LJ_OPT_NOARG] = "none", [LJ_OPT_ARG] = "required", [LJ_OPT_OPTARG] = "optional",
	};
	const char *values = o->values;

	if (!values && o->type == LJ_OPT_POLICY)
		values = "other normal batch idle fifo rr";
	fputs("opt\t", out);
	if (o->key > 0 && o->key < LJ_OPT_LONG_BASE)
		fputc(o->key, out);
	fputc('\t', out);
	put_field(out, o->name);
	fprintf(out, "\t%s\t", args[o->arg]);
	put_field(out, o->argname ? o->argname : (o->arg == LJ_OPT_NOARG ? "" : "ARG"));
	fprintf(out, "\t%s\t", value_kind(o));
	put_field(out, values);
	fputc('\t', out);
	put_field(out, o->help);
	fputc('\n', out);
}

void lj_opt_dump(const struct lj_opt_spec *spec, FILE *out)
{
	fprintf(out, "prog\t%s\nusage\t", lj_prog());
	put_field(out, spec->usage ? spec->usage : "[OPTIONS]");
	fputs("\nsummary\t", out);
	put_field(out, spec->summary);
	fputc('\n', out);
	for (int t = 0; t < spec->ntables; t++) {
		const struct lj_opt_table *tab = &spec->tables[t];

		if (!lj_opt_first_shown(tab->opts)) {
			fputs("table\t", out);
			put_field(out, tab->title ? tab->title : "options");
			fputc('\n', out);
		}
		for (const struct lj_opt *o = tab->opts; o->name || o->key; o++) {
			const char *section = lj_opt_section(tab->title, tab->opts, o);

			if (section) {	/* a group is a section of the page, as of --help */
				fputs("table\t", out);
				put_field(out, section);
				fputc('\n', out);
			}
			if (o->help)	/* hidden options stay hidden */
				dump_opt(out, o);
		}
	}
	fprintf(out, "opt\t?\thelp\tnone\t\tnone\t\tshow this help and exit\n");
	fprintf(out, "opt\t\tversion\tnone\t\tnone\t\tprint the ljkit version and exit\n");
	for (const char *e = spec->epilog; e && *e;) {
		size_t n = strcspn(e, "\n");

		fprintf(out, "epilog\t%.*s\n", (int)n, e);
		e += n + (e[n] == '\n');
	}
}
