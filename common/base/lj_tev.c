// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_tev - one kernel trace event in the compact form the explanation reads. */
#include "lj_tev.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *lj_tev_type_name(enum lj_tev_type t)
{
	static const char *const names[LJ_TEV_NTYPES] = {
		[LJ_TEV_SWITCH] = "sched_switch", [LJ_TEV_WAKING] = "sched_waking",
		[LJ_TEV_WAKEUP] = "sched_wakeup", [LJ_TEV_MIGRATE] = "sched_migrate_task",
		[LJ_TEV_IRQ_ENTRY] = "irq_handler_entry", [LJ_TEV_IRQ_EXIT] = "irq_handler_exit",
		[LJ_TEV_SOFTIRQ_ENTRY] = "softirq_entry", [LJ_TEV_SOFTIRQ_EXIT] = "softirq_exit",
		[LJ_TEV_TIMER_ENTRY] = "local_timer_entry", [LJ_TEV_TIMER_EXIT] = "local_timer_exit",
		[LJ_TEV_HRTIMER] = "hrtimer_expire_entry", [LJ_TEV_IDLE] = "cpu_idle",
		[LJ_TEV_FREQ] = "cpu_frequency", [LJ_TEV_LOST] = "lost",
	};

	return (unsigned)t < LJ_TEV_NTYPES ? names[t] : "?";
}

const char *lj_tev_softirq_name(unsigned int vec)
{
	/* include/linux/interrupt.h, the order of softirq_to_name[] */
	static const char *const names[] = { "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK",
					     "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU" };

	return vec < sizeof(names) / sizeof(names[0]) ? names[vec] : "?";
}

bool lj_tev_kept(uint64_t ts, const struct lj_tev_window *keep, size_t nkeep, size_t *k)
{
	while (*k < nkeep && keep[*k].to < ts)
		(*k)++;
	for (size_t j = *k; j < nkeep && keep[j].from <= ts; j++)
		if (ts <= keep[j].to)
			return true;
	return false;
}

size_t lj_tev_prune(struct lj_tev *ev, size_t n, uint64_t before,
		    const struct lj_tev_window *keep, size_t nkeep)
{
	size_t out = 0, k = 0;
	bool hole = false;

	for (size_t i = 0; i < n; i++) {
		if (ev[i].ts < before && !lj_tev_kept(ev[i].ts, keep, nkeep, &k)) {
			hole = true;
			continue;
		}
		/* The dropped events left at least one slot free for the marker. */
		if (hole && ev[i].type != LJ_TEV_LOST)
			ev[out++] = (struct lj_tev){ .ts = ev[i].ts, .type = LJ_TEV_LOST };
		hole = false;
		ev[out++] = ev[i];
	}
	return out;
}

static bool among(pid_t pid, const pid_t *tids, int n)
{
	if (n <= 0)
		return true;
	for (int i = 0; i < n; i++)
		if (tids[i] == pid)
			return true;
	return false;
}

bool lj_tev_needed(const struct lj_tev *e, const pid_t *tids, int n, bool have_waking)
{
	if (n > LJ_TEV_FILTER_MAX)
		n = 0;	/* the recorder filters no pid then */
	switch (e->type) {
	case LJ_TEV_HRTIMER:
		return false;
	case LJ_TEV_WAKEUP:
		return !have_waking && among(e->wake.pid, tids, n);
	case LJ_TEV_WAKING:
		return among(e->wake.pid, tids, n);
	case LJ_TEV_MIGRATE:
		return among(e->mig.pid, tids, n);
	case LJ_TEV_IDLE:
		return false;
	default:
		return true;
	}
}

int lj_tev_pid_filter(const pid_t *tids, int n, char *buf, size_t len)
{
	size_t used = 0;

	for (int i = 0; i < n && n <= LJ_TEV_FILTER_MAX; i++)
		if (tids[i] <= 0)
			n = 0;
	if (n <= 0 || n > LJ_TEV_FILTER_MAX) {
		if (len < 2)
			return -ENOSPC;
		snprintf(buf, len, "0");
		return 0;
	}
	for (int i = 0; i < n; i++) {
		int w = snprintf(buf + used, len - used, "%spid == %d", i ? " || " : "", (int)tids[i]);

		if (w < 0 || (size_t)w >= len - used)
			return -ENOSPC;
		used += (size_t)w;
	}
	return 1;
}

/* The @n bytes at @src into @out (@len bytes), cut to fit, terminated. */
static void copy_cut(char *out, size_t len, const char *src, size_t n)
{
	n = n < len ? n : len - 1;
	memcpy(out, src, n);
	out[n] = '\0';
}

/* The value after "KEY=" in @s, up to the next space, into @out. */
static bool field(const char *s, const char *key, char *out, size_t len)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(s, pat);
	if (!p)
		return false;
	p += strlen(pat);
	copy_cut(out, len, p, strcspn(p, " \n"));
	return true;
}

static bool field_ll(const char *s, const char *key, long long *v)
{
	char buf[32], *end;

	if (!field(s, key, buf, sizeof(buf)))
		return false;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return !errno && end != buf && *end == '\0';
}

static bool field_int(const char *s, const char *key, int *v)
{
	long long x;

	if (!field_ll(s, key, &x) || x < INT32_MIN || x > UINT32_MAX)
		return false;
	*v = (int)x;
	return true;
}

/* The kernel prints prev_state as letters: "R", "R+" (preempted), "S", "D|K", ... */
static long state_of(const char *txt)
{
	if (txt[0] == 'R')
		return txt[1] == '+' ? 0x100 : 0;
	return txt[0] == 'D' ? 2 : 1;
}

/*
 * A task name after its "KEY=" at @p, into @out: it ends where the
 * kernel's next field @next (" prev_pid=") begins. A name is up to 15
 * bytes of anything a process chose (spaces, "=", a field's own text), so
 * its end is the last @next that starts within a name's length, never the
 * first space (the kernel's text after a name cannot hold @next again).
 * Return: where @next begins, or NULL.
 */
static const char *name_value(const char *p, const char *next, char *out, size_t len)
{
	size_t nl = strlen(next);
	const char *end = NULL;

	for (size_t i = 0; i < LJ_TEV_COMM && p[i]; i++)
		if (!strncmp(p + i, next, nl))
			end = p + i;
	if (end)
		copy_cut(out, len, p, (size_t)(end - p));
	return end;
}

static int parse_switch(const char *f, struct lj_tev *ev)
{
	const char *prev_rest, *next_at, *next_rest;
	char st[16];

	if (strncmp(f, " prev_comm=", 11) ||
	    !(prev_rest = name_value(f + 11, " prev_pid=", ev->sw.prev_comm, sizeof(ev->sw.prev_comm))) ||
	    !(next_at = strstr(prev_rest, " next_comm=")) ||
	    !(next_rest = name_value(next_at + 11, " next_pid=", ev->sw.next_comm, sizeof(ev->sw.next_comm))) ||
	    !field_int(prev_rest, "prev_pid", &ev->sw.prev_pid) ||
	    !field_int(prev_rest, "prev_prio", &ev->sw.prev_prio) ||
	    !field(prev_rest, "prev_state", st, sizeof(st)) ||
	    !field_int(next_rest, "next_pid", &ev->sw.next_pid) ||
	    !field_int(next_rest, "next_prio", &ev->sw.next_prio))
		return -EINVAL;
	ev->sw.prev_state = state_of(st);
	return 1;
}

/* "comm=NAME pid=...": the fields after the name, or NULL. */
static const char *task_name(const char *f, char *out, size_t len)
{
	return strncmp(f, " comm=", 6) ? NULL : name_value(f + 6, " pid=", out, len);
}

static int parse_fields(const char *name, const char *f, struct lj_tev *ev)
{
	const char *rest;
	int v;

	if (!strcmp(name, "sched_switch")) {
		ev->type = LJ_TEV_SWITCH;
		return parse_switch(f, ev);
	}
	if (!strcmp(name, "sched_waking") || !strcmp(name, "sched_wakeup")) {
		ev->type = !strcmp(name, "sched_waking") ? LJ_TEV_WAKING : LJ_TEV_WAKEUP;
		return (rest = task_name(f, ev->wake.comm, sizeof(ev->wake.comm))) &&
		       field_int(rest, "pid", &ev->wake.pid) && field_int(rest, "prio", &ev->wake.prio) &&
		       field_int(rest, "target_cpu", &ev->wake.target_cpu) ? 1 : -EINVAL;
	}
	if (!strcmp(name, "sched_migrate_task")) {
		ev->type = LJ_TEV_MIGRATE;
		return (rest = task_name(f, ev->mig.comm, sizeof(ev->mig.comm))) &&
		       field_int(rest, "pid", &ev->mig.pid) && field_int(rest, "prio", &ev->mig.prio) &&
		       field_int(rest, "orig_cpu", &ev->mig.orig_cpu) &&
		       field_int(rest, "dest_cpu", &ev->mig.dest_cpu) ? 1 : -EINVAL;
	}
	if (!strcmp(name, "irq_handler_entry") || !strcmp(name, "irq_handler_exit")) {
		ev->type = name[12] == 'e' && name[13] == 'n' ? LJ_TEV_IRQ_ENTRY : LJ_TEV_IRQ_EXIT;
		if (!field_int(f, "irq", &ev->irq.irq))
			return -EINVAL;
		/* The handler's name is the last field: the rest of the line, spaces and all. */
		if (ev->type == LJ_TEV_IRQ_ENTRY) {
			const char *handler = strstr(f, " name=");

			if (!handler)
				return -EINVAL;
			handler += 6;
			copy_cut(ev->irq.name, sizeof(ev->irq.name), handler, strcspn(handler, "\r\n"));
		}
		return 1;
	}
	if (!strcmp(name, "softirq_entry") || !strcmp(name, "softirq_exit")) {
		ev->type = name[8] == 'e' && name[9] == 'n' ? LJ_TEV_SOFTIRQ_ENTRY : LJ_TEV_SOFTIRQ_EXIT;
		if (!field_int(f, "vec", &v))
			return -EINVAL;
		ev->softirq_vec = (unsigned int)v;
		return 1;
	}
	if (!strcmp(name, "local_timer_entry") || !strcmp(name, "local_timer_exit")) {
		ev->type = name[12] == 'e' && name[13] == 'n' ? LJ_TEV_TIMER_ENTRY : LJ_TEV_TIMER_EXIT;
		return 1;
	}
	if (!strcmp(name, "hrtimer_expire_entry")) {
		ev->type = LJ_TEV_HRTIMER;
		return 1;
	}
	if (!strcmp(name, "cpu_idle") || !strcmp(name, "cpu_frequency")) {
		ev->type = name[4] == 'i' ? LJ_TEV_IDLE : LJ_TEV_FREQ;
		if (!field_int(f, "state", &v))
			return -EINVAL;
		ev->idle_state = (uint32_t)v;	/* freq_khz shares the slot */
		return 1;
	}
	return 0;
}

/* "CPU:1 [LOST 12 EVENTS]", the whole of it (a task's name can hold "[LOST 3"). */
static int parse_lost(const char *line, struct lj_tev *ev, int *cpu)
{
	unsigned long long n;
	int end = 0;

	if (sscanf(line, " CPU:%d [LOST %llu EVENTS]%n", cpu, &n, &end) != 2 || !end || *cpu < 0)
		return 0;
	memset(ev, 0, sizeof(*ev));
	ev->type = LJ_TEV_LOST;
	ev->lost = n;
	return 1;
}

/* "-PID  [CPU] " at @q: the PID, the CPU and where the flags begin, or NULL. */
static const char *pid_cpu_at(const char *q, pid_t *pid, int *cpu)
{
	char *end;
	long v;

	if (*q != '-' || q[1] < '0' || q[1] > '9')
		return NULL;
	errno = 0;
	v = strtol(q + 1, &end, 10);
	if (errno || v > INT32_MAX || *end != ' ')
		return NULL;
	*pid = (pid_t)v;
	while (*end == ' ')
		end++;
	if (*end != '[' || end[1] < '0' || end[1] > '9')
		return NULL;
	v = strtol(end + 1, &end, 10);
	if (errno || v > INT32_MAX || end[0] != ']' || end[1] != ' ')
		return NULL;
	*cpu = (int)v;
	return end + 2;
}

/*
 * "  NAME-PID  [CPU] ": the task current when the event fired, its CPU,
 * and where the flags begin, or NULL. The kernel pads the name to 16
 * columns on the left; the name is up to 15 bytes of anything ("a-1
 * [002] " too), so the prefix is the last "-PID [CPU] " that starts within
 * a name's length of the padding's end (the kernel's text after it holds
 * none).
 */
static const char *current_task(const char *line, int *cpu, pid_t *pid)
{
	const char *s = line, *after = NULL, *a;
	pid_t p;
	int c;

	while (*s == ' ')
		s++;
	for (size_t i = 0; i < LJ_TEV_COMM && s[i]; i++)
		if ((a = pid_cpu_at(s + i, &p, &c))) {
			after = a;
			*pid = p;
			*cpu = c;
		}
	return after;
}

int lj_tev_parse_line(const char *line, struct lj_tev *ev, int *cpu)
{
	const char *flags, *colon, *p;
	unsigned long long sec;
	char frac[16], name[32];
	int nfrac = 0, consumed = 0, ret;
	uint64_t ns;
	pid_t pid;

	if (line[0] == '#')
		return 0;
	if (parse_lost(line, ev, cpu))
		return 1;
	if (!(flags = current_task(line, cpu, &pid)))
		return 0;
	/*
	 * Then optional flags ("d.h1."), then "SEC.FRAC: NAME: fields": the
	 * timestamp is the word before the first ": " (the flags hold digits too).
	 */
	if (!(colon = strstr(flags, ": ")))
		return 0;
	p = colon;
	while (p > flags && p[-1] != ' ')
		p--;
	if (sscanf(p, "%llu.%15[0-9]: %31[a-z_]:%n", &sec, frac, name, &consumed) != 3 ||
	    sec >= UINT64_MAX / 1000000000ULL)
		return 0;
	nfrac = (int)strlen(frac);
	ns = 0;
	for (int i = 0; i < 9; i++)
		ns = ns * 10 + (i < nfrac ? (uint64_t)(frac[i] - '0') : 0);
	memset(ev, 0, sizeof(*ev));
	ev->ts = (uint64_t)sec * 1000000000ULL + ns;
	ret = parse_fields(name, p + consumed, ev);
	ev->pid = pid;
	return ret;
}
