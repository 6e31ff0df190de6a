// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_parse - strict parsing of numbers, durations, sizes, booleans and CPU lists. */
#include "lj_parse.h"
#include "lj_time.h"
#include "lj_why.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * Why strtoll alone is not enough: it skips leading white space, accepts
 * "" as 0 when the end pointer is ignored, wraps "-1" into a huge unsigned
 * value and silently stops at junk. Every parser here scans the text itself
 * first and only hands strto* what is already known to be a clean number.
 */

/*
 * Scan an unsigned decimal digit run at @s: value into *@v, end into *@end.
 * Returns 0, -EINVAL (no digit) or -ERANGE (does not fit 64 bits).
 */
static int scan_u64(const char *s, uint64_t *v, const char **end)
{
	uint64_t x = 0;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (x > (UINT64_MAX - d) / 10) {
			while (isdigit((unsigned char)*p))
				p++;
			*end = p;
			return -ERANGE;
		}
		x = x * 10 + d;
	}
	*v = x;
	*end = p;
	return 0;
}

/* The common prologue: NULL, empty text and leading white space. */
static int check_text(const char *s, char *why, size_t len)
{
	if (!s || !*s)
		return lj_why_err(why, len, -EINVAL, "empty value");
	if (isspace((unsigned char)*s))
		return lj_why_err(why, len, -EINVAL, "leading white space");
	return 0;
}

static int junk_after(const char *end, char *why, size_t len)
{
	if (isspace((unsigned char)*end))
		return lj_why_err(why, len, -EINVAL, "trailing white space");
	return lj_why_err(why, len, -EINVAL, "trailing characters");
}

/*
 * The part u64 and i64 share: text checks, an optional sign (a '-' only
 * when @neg is not NULL), a digit run and nothing after it; *@v is the
 * magnitude. Return: 0 (*@overflow tells whether it fit 64 bits, which the
 * caller reports with its own range) or -errno with @why set.
 */
static int scan_integer(const char *s, bool *neg, uint64_t *v, bool *overflow,
			char *why, size_t len)
{
	const char *p, *end;
	int ret;

	ret = check_text(s, why, len);
	if (ret)
		return ret;
	p = s;
	if (*p == '-' && !neg)
		return lj_why_err(why, len, -ERANGE, "negative value");
	if (neg)
		*neg = *p == '-';
	if (*p == '-' || *p == '+')
		p++;
	*v = 0;
	ret = scan_u64(p, v, &end);
	if (ret == -EINVAL)
		return lj_why_err(why, len, -EINVAL, "not a number");
	if (*end)
		return junk_after(end, why, len);
	*overflow = ret == -ERANGE;
	return 0;
}

int lj_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out, char *why, size_t len)
{
	bool overflow;
	uint64_t v;
	int ret;

	ret = scan_integer(s, NULL, &v, &overflow, why, len);
	if (ret)
		return ret;
	if (overflow || v < min || v > max)
		return lj_why_err(why, len, -ERANGE, "out of range %" PRIu64 "..%" PRIu64,
				  min, max);
	*out = v;
	return 0;
}

int lj_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out, char *why, size_t len)
{
	bool neg, overflow;
	uint64_t v;
	int64_t x;
	int ret;

	ret = scan_integer(s, &neg, &v, &overflow, why, len);
	if (ret)
		return ret;
	if (overflow || v > (neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX))
		goto range;
	/* -(INT64_MIN) does not exist: build the negative value from below. */
	x = neg ? (v ? -(int64_t)(v - 1) - 1 : 0) : (int64_t)v;
	if (x < min || x > max)
		goto range;
	*out = x;
	return 0;
range:
	return lj_why_err(why, len, -ERANGE, "out of range %" PRId64 "..%" PRId64, min, max);
}

int lj_parse_int(const char *s, int min, int max, int *out, char *why, size_t len)
{
	int64_t v;
	int ret;

	ret = lj_parse_i64(s, min, max, &v, why, len);
	if (!ret)
		*out = (int)v;
	return ret;
}

int lj_parse_double(const char *s, double min, double max, double *out, char *why, size_t len)
{
	const char *p;
	char *end;
	double v;
	int ret;

	ret = check_text(s, why, len);
	if (ret)
		return ret;
	/*
	 * strtod also takes "inf", "nan", hex floats and locale decimal
	 * points; a measurement option wants none of them.
	 */
	p = s;
	if (*p == '-' || *p == '+')
		p++;
	if (!isdigit((unsigned char)*p) &&
	    !(*p == '.' && isdigit((unsigned char)p[1])))
		return lj_why_err(why, len, -EINVAL, "not a number");
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return lj_why_err(why, len, -EINVAL, "trailing characters");
	errno = 0;
	v = strtod(s, &end);
	if (*end)
		return junk_after(end, why, len);
	if (errno == ERANGE || !isfinite(v) || v < min || v > max)
		return lj_why_err(why, len, -ERANGE, "out of range %g..%g", min, max);
	*out = v;
	return 0;
}

struct unit {
	const char *name;
	int64_t ns;
};

static const struct unit duration_units[] = {
	{ "ns", 1 },
	{ "us", LJ_NSEC_PER_USEC },
	{ "ms", LJ_NSEC_PER_MSEC },
	{ "s", LJ_NSEC_PER_SEC },
	{ "m", 60 * LJ_NSEC_PER_SEC },
	{ "min", 60 * LJ_NSEC_PER_SEC },
	{ "h", 3600 * LJ_NSEC_PER_SEC },
	{ "d", 86400 * LJ_NSEC_PER_SEC },
	{ NULL, 0 }
};

/*
 * Duration: digits, an optional fraction, an optional unit. Computed in
 * integers (whole part * unit + fraction * unit / 10^k, rounded to the
 * nearest ns) so "0.1s" is exactly 100000000 and not 99999999.
 */
int lj_parse_duration_ns(const char *s, int64_t default_unit_ns, int64_t *out,
			 char *why, size_t len)
{
	const char *p, *end, *unit_txt;
	uint64_t whole = 0, frac = 0, scale = 1, total, fpart;
	int64_t unit = default_unit_ns;
	int ndig = 0, ret;
	const struct unit *u;

	ret = check_text(s, why, len);
	if (ret)
		return ret;
	if (default_unit_ns <= 0)
		return lj_why_err(why, len, -EINVAL, "bad default unit");
	p = s;
	if (*p == '-')
		return lj_why_err(why, len, -ERANGE, "negative duration");
	if (*p == '+')
		p++;
	if (isdigit((unsigned char)*p)) {
		ret = scan_u64(p, &whole, &end);
		if (ret)
			goto range;
		p = end;
	} else if (!(*p == '.' && isdigit((unsigned char)p[1]))) {
		return lj_why_err(why, len, -EINVAL, "not a number");
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return lj_why_err(why, len, -EINVAL, "digit expected after '.'");
		/* Beyond 18 digits a fraction cannot change a ns value that fits. */
		for (; isdigit((unsigned char)*p); p++) {
			if (ndig < 18) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				scale *= 10;
				ndig++;
			}
		}
	}
	unit_txt = p;
	if (*unit_txt) {
		if (isspace((unsigned char)*unit_txt))
			return lj_why_err(why, len, -EINVAL, "trailing white space");
		for (u = duration_units; u->name; u++)
			if (!strcmp(unit_txt, u->name))
				break;
		if (!u->name)
			return lj_why_err(why, len, -EINVAL,
					  "unknown unit (ns, us, ms, s, m, h, d)");
		unit = u->ns;
	}
	if (whole > (uint64_t)INT64_MAX / (uint64_t)unit)
		goto range;
	total = whole * (uint64_t)unit;
	/* frac < scale <= 1e18 and unit <= 86400e9: split to stay in 64 bits. */
	fpart = (frac * ((uint64_t)unit / scale)) +
		(uint64_t)(((unsigned __int128)frac * ((uint64_t)unit % scale) + scale / 2) / scale);
	if (fpart > (uint64_t)INT64_MAX - total)
		goto range;
	*out = (int64_t)(total + fpart);
	return 0;
range:
	return lj_why_err(why, len, -ERANGE, "out of range");
}

int lj_parse_size(const char *s, uint64_t *out, char *why, size_t len)
{
	static const struct { const char *name; unsigned shift; } units[] = {
		{ "", 0 }, { "B", 0 },
		{ "K", 10 }, { "k", 10 }, { "KiB", 10 }, { "KB", 10 },
		{ "M", 20 }, { "m", 20 }, { "MiB", 20 }, { "MB", 20 },
		{ "G", 30 }, { "g", 30 }, { "GiB", 30 }, { "GB", 30 },
	};
	const char *end;
	uint64_t v;
	size_t i;
	int ret;

	ret = check_text(s, why, len);
	if (ret)
		return ret;
	if (*s == '-')
		return lj_why_err(why, len, -ERANGE, "negative value");
	ret = scan_u64(s, &v, &end);
	if (ret == -EINVAL)
		return lj_why_err(why, len, -EINVAL, "not a number");
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].name))
			break;
	if (i == sizeof(units) / sizeof(units[0])) {
		if (isspace((unsigned char)*end))
			return lj_why_err(why, len, -EINVAL, "trailing white space");
		return lj_why_err(why, len, -EINVAL, "unknown unit (K, M, G)");
	}
	if (ret == -ERANGE || v > (UINT64_MAX >> units[i].shift))
		return lj_why_err(why, len, -ERANGE, "out of range");
	*out = v << units[i].shift;
	return 0;
}

int lj_parse_bool(const char *s, bool *out, char *why, size_t len)
{
	static const char *const yes[] = { "1", "on", "yes", "true" };
	static const char *const no[] = { "0", "off", "no", "false" };
	size_t i;
	int ret;

	ret = check_text(s, why, len);
	if (ret)
		return ret;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return lj_why_err(why, len, -EINVAL, "not a boolean (on/off, yes/no, true/false, 1/0)");
}

/* One CPU number of a list: digits only, below @max_cpus. */
static int scan_cpu(const char *p, int max_cpus, int *cpu, const char **end, char *why, size_t len)
{
	uint64_t v;
	int ret;

	if (*p == '-')
		return lj_why_err(why, len, -EINVAL, "negative CPU number");
	if (isspace((unsigned char)*p))
		return lj_why_err(why, len, -EINVAL, "white space in CPU list");
	ret = scan_u64(p, &v, end);
	if (ret == -EINVAL)
		return lj_why_err(why, len, -EINVAL, "%s",
				  *p ? "CPU number expected" : "missing CPU number");
	if (ret == -ERANGE)
		return lj_why_err(why, len, -ERANGE, "CPU number too large");
	if (v >= (uint64_t)max_cpus)
		return lj_why_err(why, len, -ERANGE, "CPU %" PRIu64 " beyond the limit of %d CPUs",
				      v, max_cpus);
	*cpu = (int)v;
	return 0;
}

int lj_parse_cpulist(const char *s, cpu_set_t *out, int max_cpus, char *why, size_t len)
{
	const char *p, *end;
	int lo, hi, prev = -1, cpu, ret;
	cpu_set_t set;

	if (max_cpus <= 0 || max_cpus > CPU_SETSIZE)
		max_cpus = CPU_SETSIZE;
	ret = check_text(s, why, len);
	if (ret)
		return ret;
	CPU_ZERO(&set);
	for (p = s;;) {
		if (*p == ',')
			return lj_why_err(why, len, -EINVAL, "empty element in CPU list");
		ret = scan_cpu(p, max_cpus, &lo, &end, why, len);
		if (ret)
			return ret;
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (!*p || *p == ',')
				return lj_why_err(why, len, -EINVAL, "open range: end CPU missing");
			ret = scan_cpu(p, max_cpus, &hi, &end, why, len);
			if (ret)
				return ret;
			if (hi < lo)
				return lj_why_err(why, len, -EINVAL, "reversed range %d-%d",
						  lo, hi);
			p = end;
		}
		if (lo <= prev)
			return lj_why_err(why, len, -EINVAL, "CPU %d out of ascending order", lo);
		for (cpu = lo; cpu <= hi; cpu++)
			CPU_SET(cpu, &set);
		prev = hi;
		if (!*p)
			break;
		if (*p != ',')
			return isspace((unsigned char)*p) ?
				lj_why_err(why, len, -EINVAL, "white space in CPU list") :
				lj_why_err(why, len, -EINVAL, "trailing characters");
		p++;
		if (!*p)
			return lj_why_err(why, len, -EINVAL, "trailing comma in CPU list");
	}
	*out = set;
	return 0;
}

char *lj_cpulist_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;
	int cpu, end, n;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, set))
			continue;
		for (end = cpu; end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, set); end++)
			;
		if (end == cpu)
			n = snprintf(buf + used, len - used, "%s%d", used ? "," : "", cpu);
		else
			n = snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", cpu, end);
		if (n < 0 || (size_t)n >= len - used) {
			/* Truncated: say so rather than show a wrong, shorter list. */
			if (len >= 4)
				strcpy(buf + len - 4, "...");
			return buf;
		}
		used += (size_t)n;
		cpu = end;
	}
	return buf;
}

/*
 * Split @s at commas and parse each element with @one. The element is
 * copied so the per-element parser sees exactly its text.
 */
static int parse_list(const char *s, int64_t *out, int *n, char *why, size_t len,
		      int (*one)(const char *elem, void *ctx, int64_t *v, char *why, size_t len),
		      void *ctx)
{
	char elem[64];
	const char *p, *comma;
	int count = 0, ret;
	size_t elen;
	int64_t v;

	ret = check_text(s, why, len);
	if (ret)
		return ret;
	for (p = s;; p = comma + 1) {
		comma = strchr(p, ',');
		elen = comma ? (size_t)(comma - p) : strlen(p);
		if (!elen)
			return lj_why_err(why, len, -EINVAL, "empty element in list");
		if (elen >= sizeof(elem))
			return lj_why_err(why, len, -EINVAL, "list element too long");
		memcpy(elem, p, elen);
		elem[elen] = '\0';
		ret = one(elem, ctx, &v, why, len);
		if (ret)
			return ret;
		if (count >= *n)
			return lj_why_err(why, len, -ERANGE, "too many values (at most %d)", *n);
		out[count++] = v;
		if (!comma)
			break;
	}
	*n = count;
	return 0;
}

struct i64_range {
	int64_t min, max;
};

static int one_i64(const char *elem, void *ctx, int64_t *v, char *why, size_t len)
{
	const struct i64_range *r = ctx;

	return lj_parse_i64(elem, r->min, r->max, v, why, len);
}

static int one_duration(const char *elem, void *ctx, int64_t *v, char *why, size_t len)
{
	return lj_parse_duration_ns(elem, *(const int64_t *)ctx, v, why, len);
}

int lj_parse_i64_list(const char *s, int64_t min, int64_t max, int64_t *out, int *n,
		      char *why, size_t len)
{
	struct i64_range r = { min, max };

	return parse_list(s, out, n, why, len, one_i64, &r);
}

int lj_parse_duration_list(const char *s, int64_t default_unit_ns, int64_t *out, int *n,
			   char *why, size_t len)
{
	return parse_list(s, out, n, why, len, one_duration, &default_unit_ns);
}

bool lj_opts_has(const char *opts, const char *opt)
{
	size_t n = strlen(opt), len;

	for (const char *p = opts; p; p = p[len] == ',' ? p + len + 1 : NULL) {
		len = strcspn(p, ", \t\n");
		if (len == n && !strncmp(p, opt, n))
			return true;
	}
	return false;
}
