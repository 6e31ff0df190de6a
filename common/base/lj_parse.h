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
 * -ERANGE and, when @why is not NULL, points it at a static phrase naming
 * the problem ("unknown unit", "trailing characters", "out of range",
 * "reversed range 3-1", ...) so a tool can print
 *     lj-cyclic: invalid --interval '10q': unknown unit
 */
int lj_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out, const char **why);
int lj_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out, const char **why);
int lj_parse_int(const char *s, int min, int max, int *out, const char **why);
int lj_parse_double(const char *s, double min, double max, double *out, const char **why);

/*
 * Duration to ns. @default_unit_ns applies to a bare number (cyclictest's
 * -i is in us: LJ_NSEC_PER_USEC; -D is in s). Units: ns, us, ms, s, m, h, d.
 * "1.5ms" is accepted.
 */
int lj_parse_duration_ns(const char *s, int64_t default_unit_ns, int64_t *out, const char **why);

/* Size in bytes with optional K, M, G (powers of 1024) suffix. */
int lj_parse_size(const char *s, uint64_t *out, const char **why);

/* on/off, yes/no, true/false, 1/0. */
int lj_parse_bool(const char *s, bool *out, const char **why);

/*
 * CPU list "0-3,6": strictly ascending ranges, no empty elements, each CPU
 * below @max_cpus (CPU_SETSIZE when 0). Rejects "3-1", "0-", "1a", "",
 * "1,,2". Does not check existence: lj_cpus does that against the topology.
 */
int lj_parse_cpulist(const char *s, cpu_set_t *out, int max_cpus, const char **why);

/*
 * For parsers elsewhere (lj_cpus' selectors) that name the problem with
 * numbers in it: format the phrase into a thread-local buffer (valid
 * until this thread's next call, like strerror), point *@why at it when
 * @why is not NULL, and return @err. @fmt's arguments must not point into
 * an earlier *@why.
 */
int lj_parse_failf(const char **why, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Format @set as a compact list ("0-3,6") into @buf; returns @buf. */
char *lj_cpulist_format(const cpu_set_t *set, char *buf, size_t len);

/* Comma-separated list of durations/ints ("4,2,8" or "2ms,5ms"); *n in/out = capacity/count. */
int lj_parse_i64_list(const char *s, int64_t min, int64_t max, int64_t *out, int *n, const char **why);
int lj_parse_duration_list(const char *s, int64_t default_unit_ns, int64_t *out, int *n, const char **why);

#endif
