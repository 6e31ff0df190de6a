// SPDX-License-Identifier: GPL-2.0-or-later
/* run.c - lj-cyclic's run: thread placement, privileges and fallbacks, start, wait, stop. */
#include "cyclic.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lj_cpus.h"
#include "lj_err.h"
#include "lj_hist.h"
#include "lj_parse.h"
#include "lj_pmqos.h"
#include "lj_stop.h"
#include "lj_time.h"
#include "lj_tool.h"
#include "lj_topo.h"

/* Interrupts a measurement thread's sleep when the run stops early. */
#define CYC_SIG_WAKE (SIGRTMIN + 1)

static void wake_handler(int sig)
{
	(void)sig;	/* only there to make clock_nanosleep return EINTR */
}

/*
 * The stop model (lj_stop) with no handler on a measuring thread: SIGHUP
 * stops the run too (as cyclictest), and the stop signals, SIGUSR1 (the
 * status dump), SIGUSR2 (the /dev/shm snapshot, not the default fatal
 * action), SIGPIPE (-F: a reader gone shows as EPIPE) and the timers'
 * signals are blocked before any thread exists, so every thread inherits
 * the mask. Main takes the stop signals, SIGUSR1 and SIGUSR2 in
 * lj_stop_wait (cyc_run_wait); -x threads take SIGRTMIN with sigwaitinfo.
 * Return: 0 or -errno.
 */
int cyc_signals_block(void)
{
	sigset_t set;
	int err = lj_stop_add_signal(SIGHUP);

	if (err)
		return err;
	lj_stop_signals(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGPIPE);
	sigaddset(&set, SIGRTMIN);
	sigaddset(&set, CYC_SIG_WAKE);
	return -pthread_sigmask(SIG_BLOCK, &set, NULL);
}

/* The CPU of thread @i: cyclictest's round robin over a set. */
static int nth_cpu(const cpu_set_t *set, int i)
{
	int cpus[CPU_SETSIZE];
	int n = lj_cpus_to_array(set, cpus, CPU_SETSIZE);

	return n > 0 ? cpus[i % n] : -1;
}

/*
 * Which CPUs thread i may take, in turn: -a's set, --cpus's, or every
 * allowed CPU (cyclictest 2.x pins thread i to the i-th allowed CPU even
 * without -a; --no-affinity leaves them unpinned). Return: 0 or an exit code.
 */
static int resolve_affinity(struct cyc_config *cfg, const cpu_set_t *allowed)
{
	char buf[256], buf2[256];
	char why[256] = "";
	cpu_set_t bad;

	if (cfg->affinity == CYC_AFF_DEFAULT)
		cfg->affinity = cfg->setup.cpus ? CYC_AFF_LIST : CYC_AFF_EACH;
	if (cfg->affinity == CYC_AFF_EACH || cfg->affinity == CYC_AFF_NONE) {
		cfg->affinity_set = *allowed;
		return 0;
	}
	if (!cfg->affinity_text) {	/* --cpus: one measurement thread per selected CPU */
		CPU_AND(&cfg->affinity_set, &cfg->setup.cpusel.set, allowed);
		if (!cfg->threads)
			cfg->threads = CPU_COUNT(&cfg->affinity_set);
		return 0;
	}
	if (cyc_affinity_resolve(cfg->affinity_text, allowed, &cfg->affinity_set, why, sizeof(why)))
		return lj_usage_error("invalid --affinity '%s': %s (allowed: %s)", cfg->affinity_text,
				      why, lj_cpulist_format(allowed, buf2, sizeof(buf2)));
	CPU_AND(&bad, &cfg->affinity_set, allowed);
	CPU_XOR(&bad, &bad, &cfg->affinity_set);
	if (CPU_COUNT(&bad))
		return lj_usage_error("invalid --affinity '%s': CPU %s not allowed (allowed: %s)",
				      cfg->affinity_text, lj_cpulist_format(&bad, buf, sizeof(buf)),
				      lj_cpulist_format(allowed, buf2, sizeof(buf2)));
	return 0;
}

static int place_threads(struct cyc_run *run, const struct lj_topo *topo)
{
	struct cyc_config *cfg = run->cfg;
	cpu_set_t allowed;
	int ret;

	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		lj_error_errno(-errno, "cannot read the CPU affinity");
		return LJ_EXIT_RUNTIME;
	}
	ret = resolve_affinity(cfg, &allowed);
	if (ret)
		return ret;
	if (cfg->threads == -1)
		cfg->threads = CPU_COUNT(&cfg->affinity_set);
	if (cfg->threads <= 0)
		cfg->threads = 1;
	run->nthreads = cfg->threads;
	run->th = calloc(run->nthreads, sizeof(*run->th));
	if (!run->th) {
		lj_error("out of memory");
		return -ENOMEM;
	}

	CPU_ZERO(&run->measured);
	for (int i = 0; i < run->nthreads; i++) {
		struct cyc_thread *t = &run->th[i];

		t->cpu = cfg->affinity == CYC_AFF_NONE ? -1 : nth_cpu(&cfg->affinity_set, i);
		if (t->cpu >= 0)
			CPU_SET(t->cpu, &run->measured);
	}
	if (cfg->affinity == CYC_AFF_NONE)
		run->measured = allowed;
	run->reporter_cpu = topo ? lj_topo_housekeeping_cpu(topo, &run->measured) : -1;
	return 0;
}

static void assign_sched(struct cyc_run *run)
{
	struct cyc_config *cfg = run->cfg;
	bool rt = cfg->policy == LJ_POLICY_FIFO || cfg->policy == LJ_POLICY_RR;
	int prio = cfg->priority;

	if ((rt && prio == 0) || (cfg->priospread && prio == 0)) {
		prio = run->nthreads + 1;
		fprintf(stderr, "defaulting realtime priority to %d\n", prio);
		if (!rt)
			cfg->policy = LJ_POLICY_FIFO;
		rt = true;
		cfg->priority = prio;
	}
	for (int i = 0; i < run->nthreads; i++) {
		struct cyc_thread *t = &run->th[i];

		t->index = i;
		t->run = run;
		t->policy = cfg->policy;
		t->prio = rt ? prio : 0;
		if (rt && cfg->priospread && prio > 1)
			prio--;
		t->interval_ns = cfg->interval_ns + (int64_t)i * cfg->distance_ns;
	}
}

static int alloc_thread(struct cyc_thread *t, const struct cyc_config *cfg)
{
	t->hist = lj_hist_new();
	if (!t->hist)
		return -ENOMEM;
	lj_hist_reset(t->hist);
	if (cfg->histogram) {
		t->cthist = calloc(cfg->histogram, sizeof(*t->cthist));
		t->oflow_cycles = calloc(cfg->histogram, sizeof(*t->oflow_cycles));
		if (!t->cthist || !t->oflow_cycles)
			return -ENOMEM;
		/* Fault the pages in now, not in the loop. */
		memset(t->cthist, 0, cfg->histogram * sizeof(*t->cthist));
		memset(t->oflow_cycles, 0, cfg->histogram * sizeof(*t->oflow_cycles));
	}
	if (cfg->verbose) {
		t->values_cap = cfg->loops && cfg->loops < CYC_VALUES_RING ? cfg->loops : CYC_VALUES_RING;
		t->values = calloc(t->values_cap, sizeof(*t->values));
		if (!t->values)
			return -ENOMEM;
		memset(t->values, 0, t->values_cap * sizeof(*t->values));
	}
	if (cfg->spike_ns) {
		t->spikes = calloc(cfg->spike_nodes, sizeof(*t->spikes));
		if (!t->spikes)
			return -ENOMEM;
		memset(t->spikes, 0, cfg->spike_nodes * sizeof(*t->spikes));
	}
	t->nr_migrations = -1;
	t->first_cpu = t->last_cpu = -1;
	return 0;
}

int cyc_run_prepare(struct cyc_run *run, struct cyc_config *cfg, const struct lj_topo *topo)
{
	int ret;

	memset(run, 0, sizeof(*run));
	run->cfg = cfg;
	pthread_mutex_init(&run->gate_lock, NULL);
	pthread_cond_init(&run->gate_cond, NULL);
	/* With --json - stdout is the document's: the text goes to stderr. */
	run->text = cfg->json && !strcmp(cfg->json, "-") ? stderr : stdout;
	run->trace_fd = -1;
	run->tracing_on_fd = -1;
	run->dma_fd = -1;
	run->shm_fd = -1;
	run->reporter_cpu = -1;
	run->hooks = &lj_hooks_none;	/* a run outside the driver (unit tests) */
	run->clock = cfg->clock ? CLOCK_REALTIME : CLOCK_MONOTONIC;
	ret = place_threads(run, topo);
	if (ret)
		return ret;
	assign_sched(run);
	for (int i = 0; i < run->nthreads; i++) {
		ret = alloc_thread(&run->th[i], cfg);
		if (ret) {
			lj_error_errno(ret, "cannot allocate thread %d's statistics", i);
			return ret;	/* -ENOMEM */
		}
	}
	return 0;
}

static bool is_priv_error(int err)
{
	return err == -EPERM || err == -EACCES || err == -ENOMEM || err == -EAGAIN;
}

/*
 * Open trace_marker (and tracing_on, which a break sets to 0 as cyclictest
 * does, so the trace ends at the event) for --tracemark. tracefs may be
 * absent: say so once and go on.
 */
static int open_tracemark(struct cyc_run *run, struct lj_tool *tool)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[64];
	int err = -ENOENT;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/trace_marker", dirs[i]);
		run->trace_fd = open(path, O_WRONLY | O_CLOEXEC);
		if (run->trace_fd < 0) {
			err = -errno;
			continue;
		}
		lj_tool_applied(tool, "tracemark", path);
		snprintf(path, sizeof(path), "%s/tracing_on", dirs[i]);
		run->tracing_on_fd = open(path, O_WRONLY | O_CLOEXEC);
		return 0;
	}
	return lj_tool_fallback(tool, "tracemark", err, NULL);
}

/*
 * The PM QoS hold the measurement wants, with its unprivileged fallback
 * (lj_tool_fallback). Return: 0, or LJ_EXIT_NOCAP under --strict.
 */
static int hold_dma_latency(struct cyc_run *run, struct lj_tool *tool)
{
	struct cyc_config *cfg = run->cfg;
	char detail[128];
	int ret;

	if (cfg->default_system) {
		lj_warn("not setting cpu_dma_latency (--default-system)");
	} else if (cfg->laptop) {
		lj_info("not setting cpu_dma_latency to save battery power");
	} else if (cfg->setup.dma_latency_us < 0) {
		ret = lj_pmqos_dma_latency_hold(cfg->latency_us);
		if (ret < 0)
			return lj_tool_fallback(tool, "cpu_dma_latency", ret, NULL);
		run->dma_fd = ret;
		fprintf(run->text, "# /dev/cpu_dma_latency set to %dus\n", (int)cfg->latency_us);
		snprintf(detail, sizeof(detail), "%d us", (int)cfg->latency_us);
		lj_tool_applied(tool, "cpu_dma_latency", detail);
	}
	return 0;
}

static int create_threads(struct cyc_run *run)
{
	pthread_attr_t attr;
	struct sigaction sa;
	sigset_t wake, old;
	int ret;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = wake_handler;	/* no SA_RESTART: the sleep must return */
	sigemptyset(&sa.sa_mask);
	sigaction(CYC_SIG_WAKE, &sa, NULL);
	/* Threads inherit a mask where only the wake-up signal gets through. */
	sigemptyset(&wake);
	sigaddset(&wake, CYC_SIG_WAKE);
	pthread_sigmask(SIG_UNBLOCK, &wake, &old);

	pthread_attr_init(&attr);
	/*
	 * mlockall'd processes hit RLIMIT_MEMLOCK with 8 MiB default stacks,
	 * and -m locks (and makes resident) all of a stack: the loop needs
	 * little, the sanitizers more.
	 */
	pthread_attr_setstacksize(&attr, LJ_SANITIZED ? LJ_SCHED_THREAD_STACK : CYC_THREAD_STACK);
	for (int i = 0; i < run->nthreads; i++) {
		ret = -pthread_create(&run->th[i].pt, &attr, cyc_thread_main, &run->th[i]);
		if (ret)
			break;
		run->th[i].created = true;
	}
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}

/* Wait until every created thread has finished its setup. */
static void gate_wait_ready(struct cyc_run *run)
{
	int created = 0;

	for (int i = 0; i < run->nthreads; i++)
		created += run->th[i].created;
	pthread_mutex_lock(&run->gate_lock);
	while (run->ready < created)
		pthread_cond_wait(&run->gate_cond, &run->gate_lock);
	pthread_mutex_unlock(&run->gate_lock);
}

static void join_all(struct cyc_run *run)
{
	for (int i = 0; i < run->nthreads; i++)
		if (run->th[i].created) {
			pthread_join(run->th[i].pt, NULL);
			run->th[i].created = false;
		}
}

/* Let the threads measure, or with @stop leave at once (and join them). */
static void gate_open(struct cyc_run *run, bool stop)
{
	if (stop)
		__atomic_store_n(&run->stop, 1, __ATOMIC_RELEASE);
	pthread_mutex_lock(&run->gate_lock);
	run->go = true;
	pthread_cond_broadcast(&run->gate_cond);
	pthread_mutex_unlock(&run->gate_lock);
	if (stop)
		join_all(run);
}

static void move_reporter(struct cyc_run *run, struct lj_tool *tool)
{
	struct cyc_config *cfg = run->cfg;
	char detail[64];
	int ret;

	/*
	 * With --cgroup every thread is confined to the group's cpuset, the
	 * measured CPUs: the reporter must leave the group (the measurement
	 * threads, created in it already, stay) to run anywhere else.
	 */
	if (cfg->mainaffinity_given || run->reporter_cpu >= 0) {
		ret = lj_setupopt_leave_group(&cfg->setup, 0);
		if (ret)
			lj_info("the reporter cannot leave the group: %s", lj_strerror(ret));
	}
	if (cfg->mainaffinity_given) {
		ret = lj_cpus_pin(0, &cfg->mainaffinity);
		if (ret)
			lj_warn_errno(ret, "--mainaffinity: cannot move the main thread");
		return;
	}
	if (run->reporter_cpu < 0) {
		lj_tool_note(tool, "reporter", "shares the measured CPUs (no other CPU)");
		return;
	}
	ret = lj_cpus_pin_one(0, run->reporter_cpu);
	if (ret) {
		lj_info("cannot move the reporter to CPU %d: %s", run->reporter_cpu, lj_strerror(ret));
		lj_tool_note(tool, "reporter", "could not leave the measured CPUs");
		run->reporter_cpu = -1;
		return;
	}
	snprintf(detail, sizeof(detail), "CPU %d", run->reporter_cpu);
	lj_tool_applied(tool, "reporter_cpu", detail);
}

/*
 * --smi: each thread reads the SMI count of its CPU (Intel's MSR 0x34,
 * through the msr driver's /dev/cpu/N/msr) before and after the run.
 * A machine without it is refused, as cyclictest refuses it. Return: 0
 * or an exit code after the message.
 */
static int smi_open(struct cyc_run *run)
{
	for (int i = 0; i < run->nthreads; i++) {
		struct cyc_thread *t = &run->th[i];
		char path[64];
		uint64_t v;

		t->smi_fd = -1;
		if (t->cpu < 0)
			return lj_usage_error("--smi counts per CPU: it needs pinned threads, not --no-affinity");
		snprintf(path, sizeof(path), "/dev/cpu/%d/msr", t->cpu);
		t->smi_fd = open(path, O_RDONLY | O_CLOEXEC);
		if (t->smi_fd < 0 || pread(t->smi_fd, &v, sizeof(v), CYC_MSR_SMI_COUNT) != sizeof(v)) {
			lj_error_errno(-errno, "--smi: SMI counter is not supported on this machine "
				       "(reading MSR 0x34 through %s)", path);
			return LJ_EXIT_RUNTIME;
		}
	}
	return 0;
}

/*
 * -A and --secaligned: the start every thread counts its first period
 * from, on the run's clock. --secaligned takes the next full second, one
 * more when that is under 100 ms away (as cyclictest does, so no thread
 * starts in the past), plus its offset.
 */
static int64_t align_base(const struct cyc_run *run)
{
	const struct cyc_config *cfg = run->cfg;
	struct timespec ts;

	if (!cfg->aligned && !cfg->secaligned)
		return 0;
	clock_gettime(run->clock, &ts);
	if (cfg->aligned)
		return lj_ts_to_ns(&ts);
	ts.tv_sec += ts.tv_nsec > 900000000L ? 2 : 1;
	return (int64_t)ts.tv_sec * LJ_NSEC_PER_SEC + cfg->secaligned_ns;
}

/*
 * After the threads' setup: a thread that could not set up its timer or
 * take its CPU fails the run; a refused policy falls back to SCHED_OTHER
 * (lj_tool_fallback). Return: 0, or an exit code after a message.
 */
static int check_threads(struct cyc_run *run, struct lj_tool *tool)
{
	struct cyc_config *cfg = run->cfg;
	int sched_err = 0;
	char detail[128];

	for (int i = 0; i < run->nthreads; i++) {
		struct cyc_thread *t = &run->th[i];

		if (t->loop_err) {
			lj_error_errno(t->loop_err, "thread %d: cannot set up its timer", i);
			return LJ_EXIT_RUNTIME;
		}
		if (t->pin_err) {
			lj_error_errno(t->pin_err, "thread %d: cannot pin to CPU %d", i, t->cpu);
			return lj_exit_code(t->pin_err) == LJ_EXIT_NOCAP ? LJ_EXIT_NOCAP : LJ_EXIT_RUNTIME;
		}
		if (t->sched_err) {
			sched_err = t->sched_err;
			t->policy = LJ_POLICY_OTHER;
			t->prio = 0;
		}
	}
	if (!sched_err)
		return 0;
	if (!is_priv_error(sched_err) && sched_err != -EINVAL) {
		lj_error_errno(sched_err, "cannot set the scheduling policy");
		return LJ_EXIT_RUNTIME;
	}
	run->sched_fallback = true;
	snprintf(detail, sizeof(detail), "%s %d -> other: %s", lj_sched_policy_name(cfg->policy),
		 cfg->priority, lj_strerror(sched_err));
	return lj_tool_policy_fallback(tool, "sched", sched_err, detail);
}

int cyc_run_setup(struct cyc_run *run, struct lj_tool *tool)
{
	int ret;

	cyc_report_start(run, run->text);
	ret = run->cfg->smi ? smi_open(run) : 0;
	if (!ret)
		ret = cyc_fifo_open(run);
	if (ret)
		return ret;
	cyc_snapshot_open(run);
	return hold_dma_latency(run, tool);
}

int cyc_run_start(struct cyc_run *run, struct lj_tool *tool)
{
	struct cyc_config *cfg = run->cfg;
	int ret;

	run->hooks = &tool->hooks;
	/* With the recorder (run->explain) the mark goes into its own instance. */
	if (cfg->breaktrace_ns && cfg->tracemark && !run->explain) {
		ret = open_tracemark(run, tool);
		if (ret)
			return ret;
	}
	ret = create_threads(run);
	if (ret) {
		lj_error_errno(ret, "cannot create the measurement threads");
		gate_wait_ready(run);
		gate_open(run, true);
		return LJ_EXIT_RUNTIME;
	}
	gate_wait_ready(run);
	ret = check_threads(run, tool);
	if (ret) {
		gate_open(run, true);
		return ret;
	}
	move_reporter(run, tool);
	cyc_report_intervals(run, run->text);
	return 0;
}

void cyc_run_go(struct cyc_run *run)
{
	struct cyc_config *cfg = run->cfg;

	run->align_base_ns = align_base(run);
	run->start_ns = lj_now_ns();
	if (cfg->duration_ns)
		run->stop_at_ns = run->start_ns + cfg->duration_ns;
	gate_open(run, lj_stop_requested());
}

/* Interrupt sleeping threads so a stop takes effect before their next period. */
static void wake_threads(struct cyc_run *run)
{
	for (int i = 0; i < run->nthreads; i++)
		if (run->th[i].created)
			pthread_kill(run->th[i].pt, CYC_SIG_WAKE);
}

int cyc_run_wait(struct cyc_run *run)
{
	struct cyc_config *cfg = run->cfg;
	bool live = !cfg->quiet && !cfg->verbose;	/* -v's lines replace the screen */
	int64_t refresh = live ? 100 * LJ_NSEC_PER_MSEC : 200 * LJ_NSEC_PER_MSEC;
	bool first = true;
	sigset_t usr;

	sigemptyset(&usr);
	sigaddset(&usr, SIGUSR1);
	sigaddset(&usr, SIGUSR2);
	for (;;) {
		/* Read before the display, so the last lines shown are the final counts. */
		bool finished = __atomic_load_n(&run->done, __ATOMIC_ACQUIRE) >= run->nthreads;
		int sig;

		if (cfg->verbose)
			cyc_report_values(run, run->text);
		cyc_fifo_write(run);
		if (live) {
			cyc_report_live(run, run->text, first);
			first = false;
		}
		/* read the threads' policy back while they exist (a chrt behind our back) */
		lj_hooks_poll(run->hooks);
		if (finished)
			break;
		if (__atomic_load_n(&run->stop, __ATOMIC_ACQUIRE)) {
			/* Interrupt their sleep so they leave before their next period. */
			wake_threads(run);
			join_all(run);
			continue;
		}
		sig = lj_stop_wait(refresh, &usr);
		if (sig == SIGUSR1)
			cyc_report_status(run, stderr);
		else if (sig == SIGUSR2)
			cyc_snapshot_write(run);
		if (lj_stop_requested())
			__atomic_store_n(&run->stop, 1, __ATOMIC_RELEASE);
	}
	join_all(run);
	run->end_ns = lj_now_ns();
	if (cfg->verbose)
		cyc_report_values(run, run->text);
	for (int i = 0; i < run->nthreads; i++)
		if (run->th[i].loop_err) {
			lj_error_errno(run->th[i].loop_err, "thread %d: waiting for its period failed", i);
			return LJ_EXIT_RUNTIME;
		}
	return 0;
}

/* Join whatever still runs (after a failed start), release what the run holds. */
void cyc_run_free(struct cyc_run *run)
{
	if (!run->th)
		return;
	for (int i = 0; i < run->nthreads; i++) {
		struct cyc_thread *t = &run->th[i];

		if (t->created) {
			pthread_kill(t->pt, CYC_SIG_WAKE);
			pthread_join(t->pt, NULL);
		}
		lj_hist_free(t->hist);
		free(t->cthist);
		free(t->oflow_cycles);
		free(t->spikes);
		free(t->values);
		if (t->smi_fd > 0)
			close(t->smi_fd);
	}
	free(run->th);
	run->th = NULL;
	if (run->trace_fd >= 0)
		close(run->trace_fd);
	if (run->tracing_on_fd >= 0)
		close(run->tracing_on_fd);
	if (run->dma_fd >= 0)
		lj_pmqos_dma_latency_release(run->dma_fd);
	cyc_snapshot_close(run);
	cyc_fifo_close(run);
}
