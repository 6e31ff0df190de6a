// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_preempt - preemption model detection and dynamic-mode switching. */
#include "lj_preempt.h"

#include "lj_kconfig.h"
#include "lj_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/*
 * Production code uses the real paths only; tests substitute the files
 * by mounting a fake tree over them in a private mount namespace.
 */
#define DEBUGFS_DIR	"/sys/kernel/debug"
#define PREEMPT_FILE	DEBUGFS_DIR "/sched/preempt"
#define REALTIME_FILE	"/sys/kernel/realtime"
#define LOCKDOWN_FILE	"/sys/kernel/security/lockdown"

static const char *const names[] = {
	[LJ_PREEMPT_UNKNOWN] = "unknown",
	[LJ_PREEMPT_NONE] = "none",
	[LJ_PREEMPT_VOLUNTARY] = "voluntary",
	[LJ_PREEMPT_FULL] = "full",
	[LJ_PREEMPT_LAZY] = "lazy",
	[LJ_PREEMPT_RT] = "rt",
};

const char *lj_preempt_name(enum lj_preempt_model m)
{
	if ((unsigned)m >= sizeof(names) / sizeof(names[0]))
		return "unknown";
	return names[m];
}

/* Match the first @n bytes of @s against the model names. */
static int parse_n(const char *s, size_t n, enum lj_preempt_model *out)
{
	unsigned i;

	for (i = LJ_PREEMPT_NONE; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strlen(names[i]) == n && !strncmp(s, names[i], n)) {
			*out = (enum lj_preempt_model)i;
			return 0;
		}
	}
	return -EINVAL;
}

int lj_preempt_parse(const char *s, enum lj_preempt_model *out)
{
	return s ? parse_n(s, strlen(s), out) : -EINVAL;
}

int lj_preempt_parse_debugfs(const char *text, enum lj_preempt_model *cur, unsigned *avail)
{
	enum lj_preempt_model m;
	const char *p = text;
	unsigned mask = 0;
	int found = 0;

	/* words separated by blanks; exactly one is in parentheses */
	while (*p) {
		size_t n;
		int paren = 0;

		p += strspn(p, " \t\n");
		if (!*p)
			break;
		if (*p == '(') {
			paren = 1;
			p++;
		}
		n = strcspn(p, " \t\n()");
		if (!n || parse_n(p, n, &m))
			return -EINVAL;
		p += n;
		if (paren) {
			if (*p != ')' || found++)
				return -EINVAL;
			p++;
			*cur = m;
		} else if (*p == ')' || *p == '(') {
			return -EINVAL;
		}
		mask |= 1u << m;
	}
	if (found != 1)
		return -EINVAL;
	if (avail)
		*avail = mask;
	return 0;
}

int lj_preempt_parse_kmsg(const char *line, enum lj_preempt_model *out)
{
	static const char tag[] = "Dynamic Preempt: ";
	const char *p = strstr(line, tag);

	if (!p)
		return -ENOENT;
	p += sizeof(tag) - 1;
	return parse_n(p, strcspn(p, " \t\r\n"), out);
}

/* next_word - the blank-separated word at *@pos; its length in *@n (0 at the end). */
static const char *next_word(const char **pos, size_t *n)
{
	const char *w = *pos + strspn(*pos, " \t\n");

	*n = strcspn(w, " \t\n");
	*pos = w + *n;
	return w;
}

int lj_preempt_parse_cmdline(const char *cmdline, enum lj_preempt_model *out)
{
	const char *p = cmdline, *w;
	int ret = -ENOENT;
	size_t n;

	for (w = next_word(&p, &n); n; w = next_word(&p, &n)) {
		if (n == 2 && !strncmp(w, "--", 2))
			break;		/* the rest belongs to init */
		/* the kernel uses the last occurrence of a parameter */
		if (n > 8 && !strncmp(w, "preempt=", 8))
			ret = parse_n(w + 8, n - 8, out);
	}
	return ret;
}

void lj_preempt_parse_uname(const char *version, enum lj_preempt_model *model, bool *dynamic)
{
	const char *p = version, *w;
	size_t n;

	*model = LJ_PREEMPT_UNKNOWN;
	*dynamic = false;
	for (w = next_word(&p, &n); n; w = next_word(&p, &n)) {
		if (n == 15 && !strncmp(w, "PREEMPT_DYNAMIC", n))
			*dynamic = true;
		else if (n == 10 && !strncmp(w, "PREEMPT_RT", n))
			*model = LJ_PREEMPT_RT;
		else if (n == 12 && !strncmp(w, "PREEMPT_LAZY", n))
			*model = LJ_PREEMPT_LAZY;
		else if (n == 7 && !strncmp(w, "PREEMPT", n))
			*model = LJ_PREEMPT_FULL;
	}
}

int lj_preempt_from_kconfig(const struct lj_kconfig *k, enum lj_preempt_model *model, bool *dynamic)
{
	*dynamic = lj_kconfig_enabled(k, "CONFIG_PREEMPT_DYNAMIC");
	/* PREEMPT_RT sits outside the model choice since 6.12: check it first */
	if (lj_kconfig_enabled(k, "CONFIG_PREEMPT_RT"))
		*model = LJ_PREEMPT_RT;
	else if (lj_kconfig_enabled(k, "CONFIG_PREEMPT_LAZY"))
		*model = LJ_PREEMPT_LAZY;
	else if (lj_kconfig_enabled(k, "CONFIG_PREEMPT"))
		*model = LJ_PREEMPT_FULL;
	else if (lj_kconfig_enabled(k, "CONFIG_PREEMPT_VOLUNTARY"))
		*model = LJ_PREEMPT_VOLUNTARY;
	else if (lj_kconfig_enabled(k, "CONFIG_PREEMPT_NONE"))
		*model = LJ_PREEMPT_NONE;
	else
		return -EINVAL;
	return 0;
}

/* lj_setup's small-file reader (the one every module uses), as 0 or -errno. */
static int read_file(const char *path, char *buf, size_t len)
{
	ssize_t n = lj_file_read(path, buf, len);

	return n < 0 ? (int)n : 0;
}

int lj_preempt_current_debugfs(enum lj_preempt_model *out)
{
	char buf[128];
	int ret = read_file(PREEMPT_FILE, buf, sizeof(buf));

	return ret ? ret : lj_preempt_parse_debugfs(buf, out, NULL);
}

/* Is anything mounted at /sys/kernel/debug? (mountinfo field 5) */
static bool debugfs_mounted(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[1024], mnt[512];
	bool found = false;

	if (!f)
		return true;	/* cannot tell: do not claim it is missing */
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %*s %*s %*s %511s", mnt) == 1 &&
		    !strcmp(mnt, DEBUGFS_DIR))
			found = true;
	fclose(f);
	return found;
}

/* Why debugfs sched/preempt could not be used, and the errno to report. */
static int debugfs_problem(int err, char *buf, size_t len)
{
	switch (-err) {
	case ENOENT:
		if (!debugfs_mounted()) {
			snprintf(buf, len, "debugfs not mounted at " DEBUGFS_DIR);
			return -ENODEV;
		}
		snprintf(buf, len, "no sched/preempt in debugfs: kernel is not PREEMPT_DYNAMIC");
		return -ENOTSUP;
	case EPERM:
		snprintf(buf, len, "debugfs sched/preempt: %s (kernel lockdown restricts debugfs)",
			 strerror(EPERM));
		return -EPERM;
	case EACCES:
		snprintf(buf, len, "debugfs sched/preempt: %s (needs root)", strerror(EACCES));
		return -EACCES;
	default:
		snprintf(buf, len, "debugfs sched/preempt: %s", strerror(-err));
		return err;
	}
}

/* debugfs sched/preempt cannot be used (@err): say why, and what would give @name instead. */
static int cannot_use(int err, const char *name, char *why, size_t len)
{
	char reason[160];
	int ret = debugfs_problem(err, reason, sizeof(reason));

	if (ret == -ENODEV)
		snprintf(why, len, "%s (mount -t debugfs none " DEBUGFS_DIR
			 "), or boot with preempt=%s", reason, name);
	else if (ret == -ENOTSUP)
		snprintf(why, len, "%s: the model is fixed at build time", reason);
	else
		snprintf(why, len, "%s; boot with preempt=%s instead", reason, name);
	return ret;
}

static int not_dynamic_mode(enum lj_preempt_model m, char *why, size_t len)
{
	snprintf(why, len, "'%s' is not a dynamic preemption mode%s", lj_preempt_name(m),
		 m == LJ_PREEMPT_RT ? " (PREEMPT_RT is chosen when the kernel is built)" : "");
	return -EINVAL;
}

int lj_preempt_set(enum lj_preempt_model m, char *why, size_t len)
{
	char dummy[1];
	const char *name = lj_preempt_name(m);
	ssize_t n;
	int fd, ret;

	if (!why) {
		why = dummy;
		len = sizeof(dummy);
	}
	if (m < LJ_PREEMPT_NONE || m > LJ_PREEMPT_LAZY)
		return not_dynamic_mode(m, why, len);
	/* O_TRUNC: harmless on debugfs, and a fake file must not keep old bytes */
	fd = open(PREEMPT_FILE, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return cannot_use(-errno, name, why, len);
	n = write(fd, name, strlen(name));
	ret = n < 0 ? -errno : 0;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (ret == -EINVAL)
		snprintf(why, len, "the kernel does not offer preemption mode '%s'", name);
	else if (ret)
		snprintf(why, len, "writing '%s' to " PREEMPT_FILE ": %s", name, strerror(-ret));
	return ret;
}

/*
 * The lockdown level in force, from "none [integrity] confidentiality":
 * "" when none or when the file is missing (no lockdown LSM).
 */
static void lockdown_level(char *out, size_t len)
{
	char buf[128];
	const char *open_b, *close_b;

	out[0] = '\0';
	if (read_file(LOCKDOWN_FILE, buf, sizeof(buf)))
		return;
	open_b = strchr(buf, '[');
	close_b = open_b ? strchr(open_b, ']') : NULL;
	if (!close_b || (close_b - open_b - 1 == 4 && !strncmp(open_b + 1, "none", 4)))
		return;
	snprintf(out, len, "%.*s", (int)(close_b - open_b - 1), open_b + 1);
}

int lj_preempt_can_switch(enum lj_preempt_model m, char *why, size_t len)
{
	enum lj_preempt_model cur;
	char dummy[1], level[32], buf[128];
	const char *name = lj_preempt_name(m);
	unsigned avail = 0;
	int ret;

	if (!why) {
		why = dummy;
		len = sizeof(dummy);
	}
	if (m < LJ_PREEMPT_NONE || m > LJ_PREEMPT_LAZY)
		return not_dynamic_mode(m, why, len);
	/* Lockdown (integrity and up) forbids debugfs whether or not it is mounted. */
	lockdown_level(level, sizeof(level));
	if (level[0]) {
		snprintf(why, len, "kernel lockdown (%s) forbids debugfs sched/preempt; boot with preempt=%s instead",
			 level, name);
		return -EPERM;
	}
	if (access(PREEMPT_FILE, F_OK)) {
		struct utsname u;
		enum lj_preempt_model um;
		bool dyn = true;

		ret = -errno;
		/* Unmounted debugfs hides sched/preempt: the version string tells dynamic kernels. */
		if (ret == -ENOENT && !debugfs_mounted() && !uname(&u)) {
			lj_preempt_parse_uname(u.version, &um, &dyn);
			if (!dyn) {
				snprintf(why, len, "the kernel is not PREEMPT_DYNAMIC (uname -v): the model is fixed at build time");
				return -ENOTSUP;
			}
		}
		return cannot_use(ret, name, why, len);
	}
	/* The old mode must be read back exactly, or it could not be restored. */
	ret = read_file(PREEMPT_FILE, buf, sizeof(buf));
	if (ret)
		return cannot_use(ret, name, why, len);
	if (lj_preempt_parse_debugfs(buf, &cur, &avail)) {
		snprintf(why, len, PREEMPT_FILE " holds '%.40s', not a mode list: the current mode could not be restored",
			 buf);
		return -EPROTO;
	}
	if (!(avail & (1u << m))) {
		snprintf(why, len, "the kernel does not offer preemption mode '%s' (it offers: %s)", name, buf);
		return -EINVAL;
	}
	if (faccessat(AT_FDCWD, PREEMPT_FILE, W_OK, AT_EACCESS))
		return cannot_use(-errno, name, why, len);
	return 0;
}

/* The last "Dynamic Preempt:" record in the kernel log: the boot mode or the latest switch. */
static int kmsg_mode(enum lj_preempt_model *out)
{
	char rec[8192];
	int fd, ret = -ENOENT;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		enum lj_preempt_model m;
		ssize_t n = read(fd, rec, sizeof(rec) - 1);

		if (n < 0) {
			if (errno == EPIPE || errno == EINTR)
				continue;	/* a record was overwritten: go on */
			if (errno != EAGAIN)
				ret = -errno;
			break;
		}
		if (!n)
			break;
		rec[n] = '\0';
		if (!lj_preempt_parse_kmsg(rec, &m)) {
			*out = m;
			ret = 0;
		}
	}
	close(fd);
	return ret;
}

static __attribute__((format(printf, 2, 3)))
void note(struct lj_preempt_info *p, const char *fmt, ...)
{
	size_t used = strlen(p->detail);
	va_list ap;

	if (used && used + 2 < sizeof(p->detail)) {
		strcpy(p->detail + used, "; ");
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(p->detail + used, sizeof(p->detail) - used, fmt, ap);
	va_end(ap);
}

static void set_source(struct lj_preempt_info *p, enum lj_preempt_model mode, const char *src)
{
	p->mode = mode;
	snprintf(p->source, sizeof(p->source), "%s", src);
}

void lj_preempt_detect(struct lj_preempt_info *out)
{
	enum lj_preempt_model cfg_model = LJ_PREEMPT_UNKNOWN, un_model, m;
	bool cfg_dynamic = false, un_dynamic, have_cfg = false, rt = false;
	struct lj_kconfig kc;
	struct utsname u;
	char buf[4096];
	int ret;

	memset(out, 0, sizeof(*out));
	if (!read_file(REALTIME_FILE, buf, sizeof(buf)) && buf[0] == '1')
		rt = true;
	if (!lj_kconfig_load(&kc)) {
		have_cfg = !lj_preempt_from_kconfig(&kc, &cfg_model, &cfg_dynamic);
		lj_kconfig_free(&kc);
	}
	if (uname(&u)) {
		un_model = LJ_PREEMPT_UNKNOWN;
		un_dynamic = false;
	} else {
		lj_preempt_parse_uname(u.version, &un_model, &un_dynamic);
	}
	out->dynamic = have_cfg ? cfg_dynamic : un_dynamic;
	rt = rt || cfg_model == LJ_PREEMPT_RT || un_model == LJ_PREEMPT_RT;

	ret = lj_preempt_current_debugfs(&m);
	if (!ret) {
		out->dynamic = true;	/* the file exists only on dynamic kernels */
		set_source(out, m, "debugfs sched/preempt");
	} else if (out->dynamic || ret != -ENOENT) {
		debugfs_problem(ret, buf, sizeof(buf));
		note(out, "%s", buf);
	}

	if (!out->mode && out->dynamic) {
		ret = kmsg_mode(&m);
		if (!ret) {
			set_source(out, m, "kernel log (last 'Dynamic Preempt:' line)");
		} else {
			note(out, "kernel log: %s", ret == -ENOENT ?
			     "no 'Dynamic Preempt:' line (rotated out?)" : strerror(-ret));
			if (!read_file("/proc/cmdline", buf, sizeof(buf)) &&
			    !lj_preempt_parse_cmdline(buf, &m))
				set_source(out, m, "kernel command line preempt= (mode at boot)");
			else if (have_cfg && cfg_model != LJ_PREEMPT_RT)
				set_source(out, cfg_model, "kernel config (default dynamic mode)");
		}
	}
	if (!out->mode && !out->dynamic) {
		if (have_cfg)
			set_source(out, cfg_model, "kernel config");
		else if (un_model != LJ_PREEMPT_UNKNOWN)
			set_source(out, un_model, "uname -v");
		else
			note(out, "no kernel config and uname -v names no model (none or voluntary)");
	}
	if (rt) {
		out->model = LJ_PREEMPT_RT;
		if (!out->dynamic)
			out->mode = LJ_PREEMPT_RT;
		if (!out->source[0])
			snprintf(out->source, sizeof(out->source), "%s",
				 cfg_model == LJ_PREEMPT_RT ? "kernel config" :
				 un_model == LJ_PREEMPT_RT ? "uname -v" : REALTIME_FILE);
	} else {
		out->model = out->mode;
	}
	if (!out->source[0])
		snprintf(out->source, sizeof(out->source), "unknown");
}
