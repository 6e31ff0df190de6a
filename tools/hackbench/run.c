// SPDX-License-Identifier: GPL-2.0-or-later
/* run.c - lj-hackbench's run: shared memory, spawning workers (fork or threads), load mode, stop, reap, merge. */
#include "hb.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lj_err.h"
#include "lj_hist.h"
#include "lj_stop.h"
#include "lj_time.h"

#define RLOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)

/* Workers still alive this long after the stop request are killed. */
#define HB_STOP_GRACE_NS (5 * LJ_NSEC_PER_SEC)

static unsigned int per_group(const struct hb_run *run)
{
	return 2 * run->cfg->fds;
}

/* Whether messages carry their send time; @run->no_stamp_why says why not. */
static void choose_stamps(struct hb_run *run)
{
	const struct hb_config *cfg = run->cfg;

	run->stamps = true;
	if (cfg->no_latency) {
		run->stamps = false;
		run->no_stamp_why = "--no-latency";
	} else if (cfg->datasize < HB_STAMP_BYTES) {
		run->stamps = false;
		run->no_stamp_why = "messages shorter than 8 bytes cannot carry their send time";
	} else if (cfg->transport != HB_MQ && cfg->datasize > HB_PIPE_ATOMIC) {
		run->stamps = false;
		run->no_stamp_why = "stream writes above 4096 bytes from several senders may interleave";
	}
}

#define ROUND_UP(n, a) (((n) + (a) - 1) & ~(size_t)((a) - 1))

int hb_run_init(struct hb_run *run, struct hb_config *cfg)
{
	memset(run, 0, sizeof(*run));
	run->cfg = cfg;
	run->ready[0] = run->ready[1] = run->wake[0] = run->wake[1] = -1;
	run->nrecv = cfg->groups * cfg->fds;
	run->nworkers = 2 * run->nrecv;
	run->parent = getpid();
	run->hooks = &lj_hooks_none;	/* a run outside the driver (unit tests) */
	run->w = calloc(run->nworkers, sizeof(*run->w));
	run->chan = calloc(run->nrecv, sizeof(*run->chan));
	if (!run->w || !run->chan)
		return -ENOMEM;
	for (unsigned int i = 0; i < run->nrecv; i++)
		run->chan[i].rfd = run->chan[i].wfd = -1;
	for (unsigned int i = 0; i < run->nworkers; i++) {
		struct hb_worker *w = &run->w[i];

		w->run = run;
		w->group = i / per_group(run);
		w->index = i % per_group(run);
		w->sender = w->index >= cfg->fds;
	}
	choose_stamps(run);
	/* the rate is measured while the workers are spawned (hb_tsc_rate in hb_run_start) */
	if (run->stamps)
		hb_tsc_start(&run->tsc, !cfg->no_tsc, run->tsc_why, sizeof(run->tsc_why));
	if (cfg->mode == HB_PROCESS)
		hb_libspans_find(&run->parent_libs);
	/*
	 * Shared so forked workers hand back counts and histograms in place;
	 * slots in cache lines of their own (a sender's count changes per
	 * message). Pages are zero until touched: no copy, no clearing.
	 */
	run->slot_size = ROUND_UP(sizeof(struct hb_slot), LJ_HIST_ALIGN);
	if (run->stamps) {
		run->hist_off = run->slot_size;
		run->slot_size += ROUND_UP(lj_hist_size(), LJ_HIST_ALIGN);
	}
	/* forked receivers cannot call the hooks: they hand late messages back (forward.c) */
	if (run->stamps && cfg->mode == HB_PROCESS && cfg->explain.explain) {
		run->ring_off = run->slot_size;
		run->slot_size += ROUND_UP(sizeof(struct hb_late_ring), LJ_HIST_ALIGN);
	}
	run->shm_size = run->slot_size * run->nworkers;
	run->shm = mmap(NULL, run->shm_size, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (run->shm == MAP_FAILED) {
		run->shm = NULL;
		return -errno;
	}
	if (pipe(run->ready) || pipe(run->wake))
		return -errno;
	run->lat = lj_hist_new();
	return run->lat ? 0 : -ENOMEM;
}

static void *worker_thread(void *arg)
{
	hb_worker_main(arg);
	return NULL;
}

/* A forked worker keeps only its own channel ends (EOF needs every other copy closed). */
static void child_close_others(struct hb_run *run, struct hb_worker *w)
{
	for (unsigned int i = 0; i < run->nrecv; i++) {
		struct hb_chan *ch = &run->chan[i];
		bool mine_r = !w->sender && i == w->group * run->cfg->fds + w->index;
		bool mine_w = w->sender && i / run->cfg->fds == w->group;

		if (run->cfg->transport == HB_MQ) {
			if (!mine_r && !mine_w && ch->wfd >= 0)
				close(ch->wfd);
			continue;
		}
		if (!mine_r && ch->rfd >= 0)
			close(ch->rfd);
		if (!mine_w && ch->wfd >= 0)
			close(ch->wfd);
	}
	close(run->ready[0]);
	close(run->wake[1]);
}

static void child_start(struct hb_run *run, struct hb_worker *w)
{
	/* Die with the parent even after its SIGKILL; check for a parent already gone. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != run->parent)
		_exit(1);
	setpgid(0, run->pgid);
	child_close_others(run, w);
	/* Its copy of the hooks reaches no hook: none is called from here (-T explains). */
	run->hooks = &lj_hooks_none;
	/* A library left mapped costs only time at exit: a failure is no error. */
	(void)hb_libspans_unmap(&run->parent_libs);
	_exit(hb_worker_main(w) ? 1 : 0);
}

static int spawn(struct hb_run *run, struct hb_worker *w)
{
	pthread_attr_t attr;
	sigset_t block, old;
	size_t stack;
	int err;

	if (run->cfg->mode == HB_PROCESS) {
		pid_t pid = fork();

		if (pid < 0)
			return -errno;
		if (!pid)
			child_start(run, w);
		if (!run->pgid)
			run->pgid = pid;
		setpgid(pid, run->pgid);	/* also here: either may run first */
		w->pid = pid;
		w->started = true;
		return 0;
	}
	/* hackbench uses PTHREAD_STACK_MIN; buffers here are on the heap (ASan's frames need more) */
	stack = LJ_SANITIZED ? 512 * 1024 : 64 * 1024;
	if (stack < (size_t)PTHREAD_STACK_MIN)
		stack = PTHREAD_STACK_MIN;
	/* Stop signals go to main, whose wait (lj_stop_wait) they end; workers poll the flag. */
	lj_stop_signals(&block);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, stack);
	err = -pthread_create(&w->pt, &attr, worker_thread, w);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!err)
		w->started = true;
	return err;
}

void hb_run_stop(struct hb_run *run)
{
	lj_stop_request();
	if (run->cfg->mode == HB_PROCESS && run->pgid > 0)
		kill(-run->pgid, SIGTERM);
}

static const char *mq_hint(int err)
{
	switch (-err) {
	case EMFILE:
		return " (RLIMIT_MSGQUEUE bytes or the open file limit: see ulimit -q and -n)";
	case ENOSPC:
		return " (/proc/sys/fs/mqueue/queues_max: raise it with sysctl fs.mqueue.queues_max=N)";
	case EINVAL:
		return " (/proc/sys/fs/mqueue/msg_max or msgsize_max too small for --datasize)";
	}
	return "";
}

/* Each group's channels and workers, in hackbench's order. Return: 0 or -errno (said why). */
static int spawn_all(struct hb_run *run)
{
	const struct hb_config *cfg = run->cfg;
	unsigned int pg = per_group(run);
	int err = 0;

	for (unsigned int g = 0; g < cfg->groups; g++) {
		struct hb_chan *ch = hb_group_chans(run, g);

		/* hackbench's order: each receiver with its channel, then the senders. */
		for (unsigned int i = 0; i < cfg->fds; i++) {
			err = hb_chan_open(run, g * cfg->fds + i, &ch[i]);
			if (err) {
				lj_error_errno(err, "cannot create %s channel %u of %u%s",
					       hb_transport_name(cfg->transport), g * cfg->fds + i + 1,
					       run->nrecv, cfg->transport == HB_MQ ? mq_hint(err) : "");
				return err;
			}
			err = spawn(run, &run->w[g * pg + i]);
			if (err)
				goto spawn_failed;
			if (cfg->mode == HB_PROCESS)
				hb_chan_close_read(run, &ch[i]);
		}
		for (unsigned int i = 0; i < cfg->fds; i++) {
			err = spawn(run, &run->w[g * pg + cfg->fds + i]);
			if (err)
				goto spawn_failed;
		}
		/* The parent's copies of the write ends would keep receivers from seeing EOF. */
		if (cfg->mode == HB_PROCESS && cfg->transport != HB_MQ)
			for (unsigned int i = 0; i < cfg->fds; i++)
				hb_chan_close_write(run, &ch[i]);
	}
	return 0;
spawn_failed:
	lj_error_errno(err, "cannot start a %s (%u tasks asked)",
		       cfg->mode == HB_PROCESS ? "process" : "thread", run->nworkers);
	return err;
}

/* Wait for every started worker to say it is set up. Return: 0 or -errno (said why). */
static int wait_ready(struct hb_run *run)
{
	char c;

	for (unsigned int i = 0; i < run->started; i++) {
		ssize_t n = read(run->ready[0], &c, 1);

		if (n < 0 && errno == EINTR) {
			i--;
			continue;
		}
		if (n != 1) {
			int err = n < 0 ? -errno : -EPIPE;

			lj_error_errno(err, "waiting for workers to get ready");
			return err;
		}
	}
	return 0;
}

int hb_run_start(struct hb_run *run)
{
	const struct hb_config *cfg = run->cfg;
	int err, ready;

	/* before the fork: process-mode workers use their copy of the rate */
	if (run->stamps)
		hb_tsc_rate(&run->tsc, run->tsc_why, sizeof(run->tsc_why));
	run->floor = hb_tsc_now(&run->tsc);
	err = spawn_all(run);
	for (unsigned int i = 0; i < run->nworkers; i++)
		run->started += run->w[i].started;
	if (err) {
		if (cfg->mode == HB_PROCESS && cfg->transport != HB_MQ)
			for (unsigned int i = 0; i < run->nrecv; i++)
				hb_chan_close_write(run, &run->chan[i]);
		hb_run_stop(run);
	}
	if (cfg->fifo) {
		struct lj_sched_param sp = { .policy = LJ_POLICY_FIFO, .priority = 1 };

		run->fifo_err = lj_sched_apply(0, &sp);
	}
	ready = wait_ready(run);
	if (!err && ready) {
		err = ready;
		hb_run_stop(run);
	}
	for (unsigned int i = 0; i < run->nworkers && !run->sched_err; i++)
		run->sched_err = hb_slot(run, i)->sched_err;
	return err;
}

int hb_run_go(struct hb_run *run)
{
	char c = 0;
	int err = hb_forward_start(run);

	if (err)
		lj_warn_errno(err, "--explain: cannot start the thread that collects the workers' late messages; "
			      "they reach it after the run, explained from the trace's last window only");
	run->start_ns = lj_now_ns();
	if (write(run->wake[1], &c, 1) != 1)
		return -errno;
	return 0;
}

/* Reap one forked worker; escalate to SIGKILL when the grace after a stop is over. */
static void reap_pid(struct hb_run *run, struct hb_worker *w, int64_t *stop_at)
{
	int status;

	for (;;) {
		pid_t p = waitpid(w->pid, &status, 0);

		if (p == w->pid) {
			if (!WIFEXITED(status) || WEXITSTATUS(status))
				run->failed_workers++;
			break;
		}
		if (p < 0 && errno != EINTR)
			break;
		if (lj_stop_requested()) {
			int64_t now = lj_now_ns();

			if (!*stop_at) {
				*stop_at = now;
				kill(-run->pgid, SIGTERM);
			} else if (now - *stop_at > HB_STOP_GRACE_NS) {
				kill(-run->pgid, SIGKILL);
			}
			alarm(1);	/* come back to check the grace period */
		}
	}
	w->started = false;
}

static void reap(struct hb_run *run, bool senders)
{
	static int64_t stop_at;

	for (unsigned int i = 0; i < run->nworkers; i++) {
		struct hb_worker *w = &run->w[i];

		if (!w->started || w->sender != senders)
			continue;
		if (run->cfg->mode == HB_PROCESS)
			reap_pid(run, w, &stop_at);
		else {
			pthread_join(w->pt, NULL);
			w->started = false;
		}
	}
}

static uint64_t received(const struct hb_run *run)
{
	uint64_t sum = 0;

	for (unsigned int i = 0; i < run->nworkers; i++)
		if (!run->w[i].sender)
			sum += RLOAD(&hb_slot(run, i)->msgs);
	return sum;
}

/* Load mode: one line per second until --duration or a signal. */
static void load_loop(struct hb_run *run)
{
	const struct hb_config *cfg = run->cfg;
	int64_t end = cfg->duration_ns ? run->start_ns + cfg->duration_ns : INT64_MAX;
	int64_t next = run->start_ns + LJ_NSEC_PER_SEC;
	uint64_t prev = 0;

	while (!lj_stop_requested()) {
		int64_t wake = next < end ? next : end;
		int64_t now = lj_now_ns();

		if (now < wake) {
			lj_stop_wait(wake - now, NULL);
			continue;	/* re-check the flag and the clock */
		}
		if (now >= next) {
			uint64_t cur = received(run);

			if (run->nsec == run->cap_sec) {
				size_t cap = run->cap_sec ? 2 * run->cap_sec : 64;
				uint64_t *p = realloc(run->per_sec, cap * sizeof(*p));

				if (p) {
					run->per_sec = p;
					run->cap_sec = cap;
				}
			}
			if (run->nsec < run->cap_sec)
				run->per_sec[run->nsec++] = cur - prev;
			if (!cfg->quiet)
				hb_report_second(run, run->nsec, cur - prev);
			lj_hooks_poll(run->hooks);	/* the workers' policy, read back while they run */
			prev = cur;
			next += LJ_NSEC_PER_SEC;
		}
		if (now >= end)
			break;
	}
	hb_run_stop(run);
}

int hb_run_wait(struct hb_run *run)
{
	if (run->cfg->load)
		load_loop(run);
	reap(run, true);
	/* Senders are done: end every channel so receivers drain and finish. */
	for (unsigned int i = 0; i < run->nrecv; i++)
		if (run->chan[i].wfd >= 0)
			hb_chan_end(run, &run->chan[i]);
	reap(run, false);
	run->end_ns = lj_now_ns();
	hb_forward_stop(run);
	alarm(0);
	return 0;
}

/* Merge the receivers' histograms (in their slots) and counts. */
int hb_run_collect(struct hb_run *run)
{
	for (unsigned int i = 0; i < run->nworkers; i++) {
		struct hb_slot *s = hb_slot(run, i);

		if (s->err && s->err != -EINTR && !run->worker_err)
			run->worker_err = s->err;
		if (run->w[i].sender)
			continue;
		run->msgs += s->msgs;
		run->bad += s->bad;
		run->partial += s->partial;
		if (run->stamps && __atomic_load_n(&s->hist_done, __ATOMIC_ACQUIRE))
			lj_hist_merge(run->lat, hb_slot_hist(run, i));
	}
	return 0;
}

void hb_run_free(struct hb_run *run)
{
	if (!run->cfg)
		return;		/* never initialised */
	for (unsigned int i = 0; run->chan && i < run->nrecv; i++) {
		hb_chan_close_read(run, &run->chan[i]);
		hb_chan_close_write(run, &run->chan[i]);
	}
	for (int i = 0; i < 2; i++) {
		if (run->ready[i] >= 0)
			close(run->ready[i]);
		if (run->wake[i] >= 0)
			close(run->wake[i]);
	}
	if (run->shm)
		munmap(run->shm, run->shm_size);
	lj_hist_free(run->lat);
	free(run->per_sec);
	free(run->w);
	free(run->chan);
}
