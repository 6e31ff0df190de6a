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
#include "lj_time.h"
#include "lj_topo.h"

/* Interrupts a measurement thread's sleep when the run stops early. */
#define CYC_SIG_WAKE (SIGRTMIN + 1)

static void wake_handler(int sig)
{
	(void)sig;	/* only there to make clock_nanosleep return EINTR */
}

/*
 * Signals reach the main thread only, through sigtimedwait in
 * cyc_run_wait: block them before any thread exists so every thread
 * inherits the mask (and no handler, no global flag is needed: lj_stop's
 * handler would only add a race between the flag and the wait). The
 * POSIX timers' signal is blocked too: -x threads take it with sigwaitinfo.
 */
void cyc_signals_block(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGALRM);	/* stops the run, as lj_stop does in the other tools */
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);	/* the /dev/shm snapshot, not the default (fatal) action */
	sigaddset(&set, SIGPIPE);	/* -F: a reader gone shows as EPIPE */
	sigaddset(&set, SIGRTMIN);
	sigaddset(&set, CYC_SIG_WAKE);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

/* Record one fallback in the result's "setup" (and for the single warning). */
static void record(json_object *rec, const char *list, const char *what, const char *detail)
{
	json_object *arr, *o;

	if (!rec)
		return;
	if (!json_object_object_get_ex(rec, list, &arr)) {
		arr = json_object_new_array();
		json_object_object_add(rec, list, arr);
	}
	/* The keys lj_setupopt uses: applied {what, value}, fallbacks {what, reason}. */
	o = json_object_new_object();
	json_object_object_add(o, "what", json_object_new_string(what));
	json_object_object_add(o, strcmp(list, "fallbacks") ? "value" : "reason",
			       json_object_new_string(detail));
	json_object_array_add(arr, o);
}

static bool under_asan(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return true;
#else
	const char *s = getenv("LJ_SANITIZE");

	return s && *s && strcmp(s, "0");
#endif
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
	const char *why = NULL;
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
	if (cyc_affinity_resolve(cfg->affinity_text, allowed, &cfg->affinity_set, &why))
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
		return LJ_EXIT_RUNTIME;
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
	run->clock = cfg->clock ? CLOCK_REALTIME : CLOCK_MONOTONIC;
	ret = place_threads(run, topo);
	if (ret)
		return ret;
	assign_sched(run);
	for (int i = 0; i < run->nthreads; i++) {
		ret = alloc_thread(&run->th[i], cfg);
		if (ret) {
			lj_error_errno(ret, "cannot allocate thread %d's statistics", i);
			return LJ_EXIT_RUNTIME;
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
static void open_tracemark(struct cyc_run *run, json_object *rec)
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
		record(rec, "applied", "tracemark", path);
		snprintf(path, sizeof(path), "%s/tracing_on", dirs[i]);
		run->tracing_on_fd = open(path, O_WRONLY | O_CLOEXEC);
		return;
	}
	lj_warn_errno(err, "--tracemark disabled: cannot open %s/trace_marker", dirs[0]);
	record(rec, "fallbacks", "tracemark", lj_strerror(err));
}

/*
 * System setup the measurement wants, each with its unprivileged fallback:
 * the PM QoS hold, mlockall. Problems are collected in @why for one warning.
 */
static void setup_system(struct cyc_run *run, json_object *rec, char *why, size_t len)
{
	struct cyc_config *cfg = run->cfg;
	char detail[128];
	int ret;

	if (cfg->laptop) {
		lj_info("not setting cpu_dma_latency to save battery power");
	} else if (cfg->setup.dma_latency_us < 0) {
		ret = lj_pmqos_dma_latency_hold(cfg->latency_us);
		if (ret >= 0) {
			run->dma_fd = ret;
			fprintf(run->text, "# /dev/cpu_dma_latency set to %dus\n", (int)cfg->latency_us);
			snprintf(detail, sizeof(detail), "%d us", (int)cfg->latency_us);
			record(rec, "applied", "cpu_dma_latency", detail);
		} else {
			snprintf(detail, sizeof(detail), "%s", lj_strerror(ret));
			record(rec, "fallbacks", "cpu_dma_latency", detail);
			snprintf(why + strlen(why), len - strlen(why), "%sno /dev/cpu_dma_latency hold (%s)",
				 *why ? ", " : "", lj_strerror(ret));
		}
	}
	if (cfg->mlock) {
		if (under_asan()) {
			lj_info("mlockall skipped under the address sanitizer");
			record(rec, "fallbacks", "mlockall", "skipped under the address sanitizer");
		} else {
			ret = lj_sched_mlockall();
			if (!ret) {
				run->mlocked = true;
				record(rec, "applied", "mlockall", "current and future");
			} else {
				record(rec, "fallbacks", "mlockall", lj_strerror(ret));
				snprintf(why + strlen(why), len - strlen(why), "%sno mlockall (%s)",
					 *why ? ", " : "", lj_strerror(ret));
			}
		}
	}
	if (cfg->breaktrace_ns && cfg->tracemark && !run->explain)
		open_tracemark(run, rec);
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
	pthread_attr_setstacksize(&attr, under_asan() ? LJ_SCHED_THREAD_STACK : CYC_THREAD_STACK);
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

static void move_reporter(struct cyc_run *run, json_object *rec)
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
		record(rec, "notes", "reporter", "shares the measured CPUs (no other CPU)");
		return;
	}
	ret = lj_cpus_pin_one(0, run->reporter_cpu);
	if (ret) {
		lj_info("cannot move the reporter to CPU %d: %s", run->reporter_cpu, lj_strerror(ret));
		record(rec, "notes", "reporter", "could not leave the measured CPUs");
		run->reporter_cpu = -1;
		return;
	}
	snprintf(detail, sizeof(detail), "CPU %d", run->reporter_cpu);
	record(rec, "applied", "reporter_cpu", detail);
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
 * --explain / --tracemark: the hooks start once the threads exist, before
 * the first sample. One that cannot start is a fallback (77 with --strict).
 */
static int start_hooks(struct cyc_run *run, json_object *rec)
{
	struct lj_run_desc d = { .tool = "lj-cyclic", .measured = run->measured,
				 .ntids = run->nthreads, .policy = run->cfg->policy,
				 .prio = run->cfg->priority };
	pid_t *tids = calloc((size_t)run->nthreads + 1, sizeof(*tids));
	int failed;

	if (!tids)
		return LJ_EXIT_RUNTIME;
	for (int i = 0; i < run->nthreads; i++)
		tids[i] = run->th[i].tid;
	d.tids = tids;
	failed = lj_hooks_start(run->hooks, &d);
	free(tids);
	for (int i = 0; failed && i < run->hooks->n; i++)
		if (!run->hooks->h[i].started)
			record(rec, "fallbacks", run->hooks->h[i].ops->name,
			       lj_strerror(run->hooks->h[i].start_err));
	if (failed && run->cfg->setup.strict) {
		lj_error("missing capability (--strict): %s", "tracing");
		return LJ_EXIT_NOCAP;
	}
	return 0;
}

int cyc_run_start(struct cyc_run *run, json_object *rec)
{
	struct cyc_config *cfg = run->cfg;
	char why[512] = "";
	int ret, sched_err = 0;
	char detail[128];

	cyc_report_start(run, run->text);
	ret = cfg->smi ? smi_open(run) : 0;
	if (!ret)
		ret = cyc_fifo_open(run);
	if (ret)
		return ret;
	cyc_snapshot_open(run);
	setup_system(run, rec, why, sizeof(why));
	ret = create_threads(run);
	if (ret) {
		lj_error_errno(ret, "cannot create the measurement threads");
		gate_wait_ready(run);
		gate_open(run, true);
		return LJ_EXIT_RUNTIME;
	}
	gate_wait_ready(run);

	for (int i = 0; i < run->nthreads; i++) {
		struct cyc_thread *t = &run->th[i];

		if (t->loop_err) {
			lj_error_errno(t->loop_err, "thread %d: cannot set up its timer", i);
			gate_open(run, true);
			return LJ_EXIT_RUNTIME;
		}
		if (t->pin_err) {
			lj_error_errno(t->pin_err, "thread %d: cannot pin to CPU %d", i, t->cpu);
			gate_open(run, true);
			return lj_exit_code(t->pin_err) == LJ_EXIT_NOCAP ? LJ_EXIT_NOCAP : LJ_EXIT_RUNTIME;
		}
		if (t->sched_err) {
			sched_err = t->sched_err;
			t->policy = LJ_POLICY_OTHER;
			t->prio = 0;
		}
	}
	if (sched_err) {
		run->sched_fallback = true;
		snprintf(detail, sizeof(detail), "%s %d -> other: %s", lj_sched_policy_name(cfg->policy),
			 cfg->priority, lj_strerror(sched_err));
		record(rec, "fallbacks", "sched", detail);
		snprintf(why + strlen(why), sizeof(why) - strlen(why), "%sSCHED_OTHER instead of %s %d (%s)",
			 *why ? ", " : "", lj_sched_policy_name(cfg->policy), cfg->priority,
			 lj_strerror(sched_err));
		if (!is_priv_error(sched_err) && sched_err != -EINVAL) {
			lj_error_errno(sched_err, "cannot set the scheduling policy");
			gate_open(run, true);
			return LJ_EXIT_RUNTIME;
		}
	}
	if (*why) {
		if (cfg->setup.strict) {
			lj_error("missing privilege (--strict): %s", why);
			gate_open(run, true);
			return LJ_EXIT_NOCAP;
		}
		lj_warn("measuring with fallbacks: %s", why);
	}
	move_reporter(run, rec);
	if (run->hooks && (ret = start_hooks(run, rec))) {
		gate_open(run, true);
		return ret;
	}
	cyc_report_intervals(run, run->text);
	run->align_base_ns = align_base(run);
	cyc_validity_start(run);
	run->start_ns = lj_now_ns();
	if (cfg->duration_ns)
		run->stop_at_ns = run->start_ns + cfg->duration_ns;
	gate_open(run, false);
	return 0;
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
	struct timespec timeout = lj_ns_to_ts(refresh);
	bool first = true, woken = false;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGALRM);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	for (;;) {
		int sig;

		if (cfg->verbose)
			cyc_report_values(run, run->text);
		cyc_fifo_write(run);
		if (live) {
			cyc_report_live(run, run->text, first);
			first = false;
		}
		/* read the threads' policy back while they exist (a chrt behind our back) */
		cyc_validity_poll(run);
		if (__atomic_load_n(&run->done, __ATOMIC_ACQUIRE) >= run->nthreads)
			break;
		if (__atomic_load_n(&run->stop, __ATOMIC_ACQUIRE) && !woken) {
			wake_threads(run);
			woken = true;
		}
		sig = sigtimedwait(&set, NULL, &timeout);
		if (sig == SIGUSR1)
			cyc_report_status(run, stderr);
		else if (sig == SIGUSR2)
			cyc_snapshot_write(run);
		else if (sig > 0)
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
	if (run->mlocked)
		munlockall();
	cyc_snapshot_close(run);
	cyc_fifo_close(run);
}
