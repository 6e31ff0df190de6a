/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_preempt - preemption model detection and dynamic-mode switching. */
#ifndef LJ_PREEMPT_H
#define LJ_PREEMPT_H

#include <stdbool.h>
#include <stddef.h>

enum lj_preempt_model {
	LJ_PREEMPT_UNKNOWN,
	LJ_PREEMPT_NONE,
	LJ_PREEMPT_VOLUNTARY,
	LJ_PREEMPT_FULL,
	LJ_PREEMPT_LAZY,
	LJ_PREEMPT_RT,
};

struct lj_preempt_info {
	enum lj_preempt_model model;	/* the mode in force; LJ_PREEMPT_RT on a PREEMPT_RT kernel */
	bool dynamic;			/* CONFIG_PREEMPT_DYNAMIC: switchable at run time */
	char source[96];		/* where the mode came from: "debugfs sched/preempt", "kernel log", "uname -v", ... */
	char detail[256];		/* why a better source was not available */
	/*
	 * The dynamic mode in force (none, voluntary, full, lazy); equal to
	 * @model except on PREEMPT_RT kernels, which are dynamic since 6.13
	 * (full or lazy). LJ_PREEMPT_UNKNOWN when not known.
	 */
	enum lj_preempt_model mode;
};

const char *lj_preempt_name(enum lj_preempt_model m);
int lj_preempt_parse(const char *s, enum lj_preempt_model *out);	/* -EINVAL otherwise */

/*
 * Never fails: unknown model with the reason in detail. Sources, best
 * first: /sys/kernel/realtime (PREEMPT_RT), debugfs sched/preempt (the
 * current dynamic mode), the last "Dynamic Preempt:" line of the kernel
 * log (printed at boot and at every switch), preempt= on the command line,
 * the kernel config, uname -v.
 */
void lj_preempt_detect(struct lj_preempt_info *out);

/*
 * The current dynamic mode from debugfs sched/preempt.
 * Return: 0 or -errno (-ENOENT, -EPERM under lockdown, -EINVAL unparsable).
 */
int lj_preempt_current_debugfs(enum lj_preempt_model *out);

/*
 * Switch the dynamic mode by writing @m to debugfs sched/preempt. Does not
 * mount debugfs and does not record the old mode (lj_setup does). Return:
 * 0, or -errno with a one-line reason in @why naming the boot parameter
 * that would give the mode instead:
 *   -EINVAL  @m is not a dynamic mode (unknown, rt) or the kernel refused it
 *   -ENODEV  debugfs is not mounted at /sys/kernel/debug
 *   -ENOTSUP the kernel is not PREEMPT_DYNAMIC (mode fixed at build time)
 *   -EPERM   lockdown forbids debugfs; -EACCES not root
 */
int lj_preempt_set(enum lj_preempt_model m, char *why, size_t len);

/*
 * Could lj_preempt_set(@m) switch, and could the mode in force be read
 * back to restore it afterwards? Writes nothing. Checks that @m is a
 * dynamic mode, kernel lockdown (/sys/kernel/security/lockdown), that
 * debugfs sched/preempt exists (debugfs mounted, PREEMPT_DYNAMIC kernel),
 * is readable and parsable, offers @m, and is writable. Return: 0, or
 * -errno with a one-line reason in @why, as lj_preempt_set, plus
 * -EPROTO: the file's content is not understood (the old mode unknown).
 */
int lj_preempt_can_switch(enum lj_preempt_model m, char *why, size_t len);

/*
 * Pure parsers, exposed for unit tests. Each returns 0 or -EINVAL
 * (-ENOENT from parse_kmsg/parse_cmdline: the line does not say).
 */
/* "none (voluntary) full lazy": the current mode is in parentheses; @avail
 * (may be NULL) gets a bit (1 << model) per mode the kernel offers. */
int lj_preempt_parse_debugfs(const char *text, enum lj_preempt_model *cur, unsigned *avail);
/* a kernel log line or /dev/kmsg record holding "Dynamic Preempt: MODE" */
int lj_preempt_parse_kmsg(const char *line, enum lj_preempt_model *out);
/* "preempt=MODE" among the kernel command line's words */
int lj_preempt_parse_cmdline(const char *cmdline, enum lj_preempt_model *out);
/* uname -v: "#1 SMP PREEMPT_DYNAMIC ..." gives @dynamic; PREEMPT_RT,
 * PREEMPT_LAZY, PREEMPT give the model; none of them: unknown (none or
 * voluntary, the version string cannot tell) */
void lj_preempt_parse_uname(const char *version, enum lj_preempt_model *model, bool *dynamic);

struct lj_kconfig;
/* The build's model (the default mode of a dynamic kernel) and dynamic flag. */
int lj_preempt_from_kconfig(const struct lj_kconfig *k, enum lj_preempt_model *model, bool *dynamic);

#endif
