/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_parse - strict parsing of numbers, durations, sizes, booleans and CPU lists. */
#ifndef LJ_PARSE_H
#define LJ_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sched.h>

/*
 * Every parser rejects empty text, leading/trailing junk and white space,
 * overflow and out-of-range values. On failure it returns -EINVAL or
 * -ERANGE and writes a phrase naming the problem ("unknown unit",
 * "trailing characters", "out of range", "reversed range 3-1", ...) into
 * the caller's buffer @why of @len bytes (lj_why; NULL when not wanted),
 * so a tool can print
 *     lj-cyclic: invalid --interval '10q': unknown unit
 * On success @why is left as it was.
 */
int lj_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out, char *why, size_t len);
int lj_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out, char *why, size_t len);
int lj_parse_int(const char *s, int min, int max, int *out, char *why, size_t len);
int lj_parse_double(const char *s, double min, double max, double *out, char *why, size_t len);

/*
 * Duration to ns. @default_unit_ns applies to a bare number (cyclictest's
 * -i is in us: LJ_NSEC_PER_USEC; -D is in s). Units: ns, us, ms, s, m, h, d.
 * "1.5ms" is accepted.
 */
int lj_parse_duration_ns(const char *s, int64_t default_unit_ns, int64_t *out,
			 char *why, size_t len);

/* Size in bytes with optional K, M, G (powers of 1024) suffix. */
int lj_parse_size(const char *s, uint64_t *out, char *why, size_t len);

/* on/off, yes/no, true/false, 1/0. */
int lj_parse_bool(const char *s, bool *out, char *why, size_t len);

/*
 * CPU list "0-3,6": strictly ascending ranges, no empty elements, each CPU
 * below @max_cpus (CPU_SETSIZE when 0). Rejects "3-1", "0-", "1a", "",
 * "1,,2". Does not check existence: lj_cpus does that against the topology.
 */
int lj_parse_cpulist(const char *s, cpu_set_t *out, int max_cpus, char *why, size_t len);

/* Format @set as a compact list ("0-3,6") into @buf; returns @buf. */
char *lj_cpulist_format(const cpu_set_t *set, char *buf, size_t len);

/* Comma-separated list of durations/ints ("4,2,8" or "2ms,5ms"); *n in/out = capacity/count. */
int lj_parse_i64_list(const char *s, int64_t min, int64_t max, int64_t *out, int *n,
		      char *why, size_t len);
int lj_parse_duration_list(const char *s, int64_t default_unit_ns, int64_t *out, int *n,
			   char *why, size_t len);

/* Does the mount option list @opts ("rw,cpuset,noprefix", to its end or a space) hold @opt whole? */
bool lj_opts_has(const char *opts, const char *opt);

#endif
