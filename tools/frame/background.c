// SPDX-License-Identifier: GPL-2.0-or-later
/* background.c - lj-frame's background threads: work units competing for CPUs. */
#include "frame.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lj_cgroup.h"
#include "lj_cpus.h"
#include "lj_err.h"
#include "lj_time.h"

#define BG_CYCLE_NS (10 * LJ_NSEC_PER_MSEC)
#define BG_CHUNK_UNITS 16	/* busy in chunks short enough to watch the clock */

struct bg_thread {
	struct frm_background *bg;
	pthread_t th;
	pid_t tid;
	int err;			/* placement or policy failure, -errno */
	const char *what;		/* which step failed */
	atomic_int ready;
	uint64_t sink;
};

struct frm_background {
	int n;
	atomic_int stop;
	bool pin, use_cg;
	cpu_set_t cpus;
	struct lj_cgroup cg;
	struct lj_sched_param policy;
	int load;
	struct bg_thread t[FRM_MAX_BACKGROUND];
};

/* Group first (an RT thread cannot join a group without RT budget), then CPUs, then policy. */
static void bg_place(struct bg_thread *t)
{
	struct frm_background *bg = t->bg;

	if (bg->use_cg && (t->err = lj_cgroup_attach(&bg->cg, 0))) {
		t->what = "--bg-cgroup";
		return;
	}
	if (bg->pin && (t->err = lj_cpus_pin(0, &bg->cpus))) {
		t->what = "--bg-cpus";
		return;
	}
	if ((t->err = lj_sched_apply(0, &bg->policy)))
		t->what = "background policy";
}

static void *bg_main(void *arg)
{
	struct bg_thread *t = arg;
	struct frm_background *bg = t->bg;
	int64_t next;

	t->tid = gettid();
	bg_place(t);
	atomic_store(&t->ready, 1);
	next = lj_now_ns();
	while (!atomic_load_explicit(&bg->stop, memory_order_relaxed)) {
		int64_t busy_until = next + BG_CYCLE_NS * bg->load / 100;
		struct timespec ts;

		while (lj_now_ns() < busy_until &&
		       !atomic_load_explicit(&bg->stop, memory_order_relaxed))
			t->sink ^= frm_work(BG_CHUNK_UNITS, t->sink);
		next += BG_CYCLE_NS;
		if (bg->load >= 100)
			continue;
		ts = lj_ns_to_ts(next);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	return NULL;
}

/* Resolve --bg-cgroup: an existing group, or "off" for the root groups. */
static int open_group(const struct frm_config *cfg, struct frm_background *bg)
{
	struct lj_cgroup_mounts mnt;
	int ret = lj_cgroup_discover(&mnt);

	if (!ret)
		ret = strcmp(cfg->bg_cgroup, "off") ? lj_cgroup_open(&mnt, cfg->bg_cgroup, 1, &bg->cg)
						   : lj_cgroup_root(&mnt, &bg->cg);
	if (ret) {
		lj_error_errno(ret, "cannot use --bg-cgroup '%s'", cfg->bg_cgroup);
		return ret == -ENOENT || ret == -EINVAL ? LJ_EXIT_USAGE : lj_exit_code(ret);
	}
	bg->use_cg = true;
	return 0;
}

/* Wait until every thread placed itself; report the first failure as *err / *what. */
static void wait_ready(struct frm_background *bg, int *err, const char **what)
{
	struct timespec ms = { 0, LJ_NSEC_PER_MSEC };

	*err = 0;
	*what = NULL;
	for (int i = 0; i < bg->n; i++) {
		while (!atomic_load(&bg->t[i].ready))
			nanosleep(&ms, NULL);
		if (bg->t[i].err && !*err) {
			*err = bg->t[i].err;
			*what = bg->t[i].what;
		}
	}
}

int frm_background_start(const struct frm_config *cfg, const struct lj_topo *t,
			 struct frm_background **out, int *err, const char **what)
{
	struct frm_background *bg;
	pthread_attr_t attr;
	int ret = 0;

	*out = NULL;
	*err = 0;
	*what = NULL;
	if (!cfg->background)
		return 0;
	bg = calloc(1, sizeof(*bg));
	if (!bg)
		return LJ_EXIT_RUNTIME;
	bg->policy = cfg->bg_policy;
	bg->load = cfg->bg_load;
	if (cfg->bg_cpus) {
		struct lj_cpu_selection sel;
		char why[256] = "";

		ret = lj_cpus_select(t, cfg->bg_cpus, &sel, why, sizeof(why));
		if (ret) {
			lj_error("invalid --bg-cpus '%s': %s", cfg->bg_cpus, why[0] ? why : lj_strerror(ret));
			free(bg);
			return LJ_EXIT_USAGE;
		}
		if (sel.note[0])
			lj_info("--bg-cpus: %s", sel.note);
		bg->cpus = sel.set;
		bg->pin = true;
	}
	if (cfg->bg_cgroup && (ret = open_group(cfg, bg))) {
		free(bg);
		return ret;
	}
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, LJ_SCHED_THREAD_STACK);
	for (; bg->n < cfg->background; bg->n++) {
		bg->t[bg->n].bg = bg;
		ret = -pthread_create(&bg->t[bg->n].th, &attr, bg_main, &bg->t[bg->n]);
		if (ret)
			break;
	}
	pthread_attr_destroy(&attr);
	if (ret) {
		lj_error_errno(ret, "cannot start background thread %d", bg->n);
		frm_background_stop(bg);
		return LJ_EXIT_RUNTIME;
	}
	wait_ready(bg, err, what);
	*out = bg;
	return 0;
}

/* A thread that failed a placement step never asked its policy: it runs SCHED_OTHER (the fallback). */
int frm_background_threads(const struct frm_background *bg, struct lj_run_thread *out, int max)
{
	int n = 0;

	for (int i = 0; bg && i < bg->n && n < max; i++) {
		const struct bg_thread *t = &bg->t[i];

		out[n++] = (struct lj_run_thread){ .tid = t->tid, .index = -1,
			.policy = t->err ? LJ_POLICY_OTHER : (int)bg->policy.policy,
			.prio = t->err ? 0 : bg->policy.priority, .measured = false };
	}
	return n;
}

void frm_background_stop(struct frm_background *bg)
{
	if (!bg)
		return;
	atomic_store(&bg->stop, 1);
	for (int i = 0; i < bg->n; i++)
		pthread_join(bg->t[i].th, NULL);
	free(bg);
}
