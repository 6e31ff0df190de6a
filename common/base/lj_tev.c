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

/* The value after "KEY=" in @s, up to the next space, into @out. */
static bool field(const char *s, const char *key, char *out, size_t len)
{
	char pat[32];
	const char *p;
	size_t n;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(s, pat);
	if (!p)
		return false;
	p += strlen(pat);
	n = strcspn(p, " \n");
	if (n >= len)
		n = len - 1;
	memcpy(out, p, n);
	out[n] = '\0';
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

static int parse_switch(const char *f, struct lj_tev *ev)
{
	char st[16];

	if (!field(f, "prev_comm", ev->sw.prev_comm, sizeof(ev->sw.prev_comm)) ||
	    !field(f, "next_comm", ev->sw.next_comm, sizeof(ev->sw.next_comm)) ||
	    !field_int(f, "prev_pid", &ev->sw.prev_pid) || !field_int(f, "next_pid", &ev->sw.next_pid) ||
	    !field_int(f, "prev_prio", &ev->sw.prev_prio) ||
	    !field_int(f, "next_prio", &ev->sw.next_prio) || !field(f, "prev_state", st, sizeof(st)))
		return -EINVAL;
	ev->sw.prev_state = state_of(st);
	return 1;
}

static int parse_fields(const char *name, const char *f, struct lj_tev *ev)
{
	int v;

	if (!strcmp(name, "sched_switch")) {
		ev->type = LJ_TEV_SWITCH;
		return parse_switch(f, ev);
	}
	if (!strcmp(name, "sched_waking") || !strcmp(name, "sched_wakeup")) {
		ev->type = !strcmp(name, "sched_waking") ? LJ_TEV_WAKING : LJ_TEV_WAKEUP;
		return field(f, "comm", ev->wake.comm, sizeof(ev->wake.comm)) &&
		       field_int(f, "pid", &ev->wake.pid) && field_int(f, "prio", &ev->wake.prio) &&
		       field_int(f, "target_cpu", &ev->wake.target_cpu) ? 1 : -EINVAL;
	}
	if (!strcmp(name, "sched_migrate_task")) {
		ev->type = LJ_TEV_MIGRATE;
		return field(f, "comm", ev->mig.comm, sizeof(ev->mig.comm)) &&
		       field_int(f, "pid", &ev->mig.pid) && field_int(f, "prio", &ev->mig.prio) &&
		       field_int(f, "orig_cpu", &ev->mig.orig_cpu) &&
		       field_int(f, "dest_cpu", &ev->mig.dest_cpu) ? 1 : -EINVAL;
	}
	if (!strcmp(name, "irq_handler_entry") || !strcmp(name, "irq_handler_exit")) {
		ev->type = name[12] == 'e' && name[13] == 'n' ? LJ_TEV_IRQ_ENTRY : LJ_TEV_IRQ_EXIT;
		if (ev->type == LJ_TEV_IRQ_ENTRY &&
		    !field(f, "name", ev->irq.name, sizeof(ev->irq.name)))
			return -EINVAL;
		return field_int(f, "irq", &ev->irq.irq) ? 1 : -EINVAL;
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

/* "CPU:1 [LOST 12 EVENTS]" */
static int parse_lost(const char *line, struct lj_tev *ev, int *cpu)
{
	unsigned long long n;

	if (sscanf(line, " CPU:%d [LOST %llu EVENTS]", cpu, &n) != 2)
		return 0;
	memset(ev, 0, sizeof(*ev));
	ev->type = LJ_TEV_LOST;
	ev->lost = n;
	return 1;
}

/* "  comm-PID  [CPU]": the task current when the event fired, and its CPU. */
static int current_pid(const char *line, const char *br, int *cpu, pid_t *pid)
{
	const char *open = br, *p;

	while (open > line && *open != '[')
		open--;
	if (*open != '[' || sscanf(open, "[%d]", cpu) != 1)
		return -EINVAL;
	p = open;
	while (p > line && p[-1] == ' ')
		p--;
	while (p > line && p[-1] >= '0' && p[-1] <= '9')
		p--;
	if (p == line || p[-1] != '-' || sscanf(p, "%d", pid) != 1)
		return -EINVAL;
	return 0;
}

int lj_tev_parse_line(const char *line, struct lj_tev *ev, int *cpu)
{
	const char *br = strstr(line, "] ");
	unsigned long long sec;
	char frac[16], name[32];
	int nfrac = 0, consumed = 0, ret;
	uint64_t ns;
	pid_t pid;

	if (strstr(line, "[LOST "))
		return parse_lost(line, ev, cpu);
	if (line[0] == '#' || !br || br - line < 4)
		return 0;
	if (current_pid(line, br, cpu, &pid))
		return 0;
	/* After the CPU: optional flags ("d.h1."), then "SEC.FRAC: NAME: fields". */
	{
		/* The timestamp is the word before the first ": " (the flags hold digits too). */
		const char *colon = strstr(br, ": "), *p = colon;

		if (!colon)
			return 0;
		while (p > br && p[-1] != ' ')
			p--;
		if (sscanf(p, "%llu.%15[0-9]: %31[a-z_]:%n", &sec, frac, name, &consumed) != 3)
			return 0;
		nfrac = (int)strlen(frac);
		ns = 0;
		for (int i = 0; i < 9; i++)
			ns = ns * 10 + (i < nfrac ? (uint64_t)(frac[i] - '0') : 0);
		memset(ev, 0, sizeof(*ev));
		ev->ts = (uint64_t)sec * 1000000000ULL + ns;
		ret = parse_fields(name, p + consumed - 1, ev);
		ev->pid = pid;
		return ret;
	}
}
