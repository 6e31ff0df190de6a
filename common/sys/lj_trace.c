// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_trace - the flight recorder: a tracefs instance of ljkit's own recording the events lj_explain reads. */
#include "lj_trace.h"
#include "lj_trace_bpf.h"
#include "lj_trace_priv.h"
#include "lj_why.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

/* "WHAT ARG: strerror" into @why; returns @err. */
static int fail(char *why, size_t len, int err, const char *what, const char *arg)
{
	snprintf(why, len, "%s%s: %s", what, arg, strerror(-err));
	return err;
}

static int write_file(struct lj_trace *t, const char *file, const char *value)
{
	return tracefs_instance_file_write(t->inst, file, value) < 0 ? (errno ? -errno : -EIO) : 0;
}

static int enable_events(struct lj_trace *t, char *why, size_t len)
{
	for (size_t i = 0; i < lj_trace_nevents; i++) {
		char name[96];

		if (lj_trace_events[i].instead_of_waking && t->have_waking)
			continue;
		if (tracefs_event_enable(t->inst, lj_trace_events[i].sys, lj_trace_events[i].name) == 0) {
			t->st.events_enabled++;
			t->have_waking |= lj_trace_events[i].type == LJ_TEV_WAKING;
			continue;
		}
		t->st.events_missing++;
		snprintf(name, sizeof(name), "%s:%s", lj_trace_events[i].sys, lj_trace_events[i].name);
		if (lj_trace_events[i].required)
			return fail(why, len, -ENOENT, "cannot enable ", name);
	}
	return 0;
}

static int open_files(struct lj_trace *t, char *why, size_t len)
{
	char path[320];

	snprintf(path, sizeof(path), "%s/trace_marker", t->dir);
	t->marker_fd = open(path, O_WRONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "%s/tracing_on", t->dir);
	t->on_fd = open(path, O_WRONLY | O_CLOEXEC);
	/* Held open for the whole run: another run's unmount then fails with EBUSY. */
	t->hold_fd = open(t->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->on_fd < 0)
		return fail(why, len, -errno, "cannot open ", path);
	return 0;
}

/*
 * A new instance takes the top level's options (Android's tracing tools
 * turn record-tgid on there and overwrite off): these set how an event
 * is recorded and how the kept trace prints, which lj_tev_parse_line
 * reads as the kernel's default layout, and that --tracemark's writes
 * are taken.
 */
static const struct {
	enum tracefs_option_id id;
	bool on;
} own_options[] = {
	{ TRACEFS_OPTION_RECORD_TGID, false },	/* a "(tgid)" column */
	{ TRACEFS_OPTION_CONTEXT_INFO, true },	/* the task, CPU and time */
	{ TRACEFS_OPTION_IRQ_INFO, true },
	{ TRACEFS_OPTION_LATENCY_FORMAT, false },
	{ TRACEFS_OPTION_RAW, false },
	{ TRACEFS_OPTION_HEX, false },
	{ TRACEFS_OPTION_BIN, false },
	{ TRACEFS_OPTION_STACKTRACE, false },	/* a stack recorded with every event */
	{ TRACEFS_OPTION_USERSTACKTRACE, false },
	{ TRACEFS_OPTION_MARKERS, true },	/* off, trace_marker refuses writes */
	{ TRACEFS_OPTION_OVERWRITE, true },	/* -b keeps the last events, not the first */
};
static const char *const own_options_off_by_name[] = { "fields", "print-tgid" };

static int set_options(struct lj_trace *t, char *why, size_t len)
{
	int err;

	for (size_t i = 0; i < sizeof(own_options) / sizeof(own_options[0]); i++) {
		enum tracefs_option_id id = own_options[i].id;

		if (!tracefs_option_is_supported(t->inst, id))
			continue;
		if ((own_options[i].on ? tracefs_option_enable : tracefs_option_disable)(t->inst, id) < 0)
			return fail(why, len, errno ? -errno : -EIO, "cannot set the option ",
				    tracefs_option_name(id));
	}
	/*
	 * Those libtracefs has no id for, off: newer kernels' "fields" (every
	 * field in hex, not the event's own format) and older Android and
	 * ChromeOS kernels' "print-tgid" (record-tgid's column before it).
	 */
	for (size_t i = 0; i < sizeof(own_options_off_by_name) / sizeof(own_options_off_by_name[0]); i++) {
		char file[48];

		snprintf(file, sizeof(file), "options/%s", own_options_off_by_name[i]);
		if (tracefs_file_exists(t->inst, file) && (err = write_file(t, file, "0")))
			return fail(why, len, err, "cannot set the option ", own_options_off_by_name[i]);
	}
	return 0;
}

static int configure(struct lj_trace *t, size_t buffer_kb, char *why, size_t len)
{
	char kb[32];
	int err;

	t->buffer_kb = buffer_kb ? buffer_kb : (size_t)LJ_TRACE_BUFFER_KB;
	snprintf(kb, sizeof(kb), "%zu", t->buffer_kb);
	if ((err = write_file(t, "tracing_on", "0")) ||
	    (err = write_file(t, "trace_clock", "mono")) ||
	    (err = write_file(t, "buffer_size_kb", kb)))
		return fail(why, len, err, "cannot set up the tracefs instance ", t->dir);
	if ((err = set_options(t, why, len)))
		return err;
	if (tracefs_instance_set_affinity_set(t->inst, &t->cpus, sizeof(t->cpus)) < 0)
		return fail(why, len, errno ? -errno : -EIO, "cannot set the tracing_cpumask of ", t->dir);
	if ((err = enable_events(t, why, len)) || (err = open_files(t, why, len)))
		return err;
	if (write(t->on_fd, "1", 1) != 1)
		return fail(why, len, -errno, "cannot start tracing in ", t->dir);
	return 0;
}

/*
 * tracefs mounted (or shared) and the instance made through the setup
 * stack, each journaled before it is done: a killed run's recorder is
 * undone by lj-env --restore like its other changes.
 */
static int make_instance(struct lj_trace *t, char *why, size_t len)
{
	char name[64] = "";
	int err = lj_setup_new(&t->stack, NULL);

	if (err)
		return fail(why, len, err, "cannot start the setup stack", "");
	err = lj_setup_tracefs_mount(t->stack, &t->mounted);
	if (err == -ENODEV)
		return fail(why, len, err, "no tracefs at ", TRACEFS);
	if (err)
		return lj_why_err(why, len, err, "cannot mount tracefs at %s: %s", TRACEFS,
				  lj_setup_why(t->stack, err));
	err = lj_setup_tracefs_instance(t->stack, name, sizeof(name));
	if (err)
		return lj_why_err(why, len, err, "cannot create the tracefs instance %s: %s", name,
				  lj_setup_why(t->stack, err));
	t->inst = tracefs_instance_alloc(TRACEFS, name);
	if (!t->inst)
		return fail(why, len, errno ? -errno : -ENOMEM, "cannot open the tracefs instance ", name);
	snprintf(t->dir, sizeof(t->dir), "%s/instances/%s", TRACEFS, name);
	return 0;
}

int lj_trace_backend_parse(const char *s, enum lj_trace_backend *out)
{
	if (!strcmp(s, "auto"))
		*out = LJ_TRACE_AUTO;
	else if (!strcmp(s, "bpf"))
		*out = LJ_TRACE_BPF;
	else if (!strcmp(s, "tracefs"))
		*out = LJ_TRACE_TRACEFS;
	else
		return -EINVAL;
	return 0;
}

const char *lj_trace_backend_name(const struct lj_trace *t)
{
	return t->bpf ? "bpf" : "tracefs";
}

const char *lj_trace_bpf_why(const struct lj_trace *t)
{
	return t->bpf_why;
}

bool lj_trace_bpf_plain(const struct lj_trace *t)
{
	return lj_trace_bpf_is_plain(t->bpf);
}

/* The BPF recorder, when asked for or possible: no instance, no journal (nothing outlives the process). */
static int open_bpf(struct lj_trace *t, size_t buffer_kb, char *why, size_t len)
{
	int err = lj_trace_bpf_open(&t->bpf, &t->cpus, buffer_kb, why, len);

	if (!err && (err = lj_trace_prepare(t)))
		lj_why(why, len, "cannot allocate the BPF recorder's buffers: %s", strerror(-err));
	t->st.pid_filter = 0;
	return err;
}

int lj_trace_open(struct lj_trace **out, const cpu_set_t *cpus, size_t buffer_kb,
		  enum lj_trace_backend want, char *why, size_t len)
{
	struct lj_trace *t = calloc(1, sizeof(*t));
	int err;

	*out = NULL;
	if (!t)
		return -ENOMEM;
	t->marker_fd = t->on_fd = t->hold_fd = -1;
	t->cpus = *cpus;
	if (want != LJ_TRACE_TRACEFS) {
		err = open_bpf(t, buffer_kb, want == LJ_TRACE_BPF ? why : t->bpf_why,
			       want == LJ_TRACE_BPF ? len : sizeof(t->bpf_why));
		if (!err || want == LJ_TRACE_BPF) {
			if (err) {
				lj_trace_close(t, false, NULL, 0);
				return err;
			}
			*out = t;
			return 0;
		}
		lj_trace_bpf_close(t->bpf);
		t->bpf = NULL;
	}
	tracefs_set_tracing_dir((char *)TRACEFS);
	err = make_instance(t, why, len);
	if (!err)
		err = configure(t, buffer_kb, why, len);
	if (!err && (err = lj_trace_prepare(t)))
		lj_why(why, len, "cannot read the event formats or open the buffers of %s: %s", t->dir,
		       strerror(-err));
	if (err) {
		lj_trace_close(t, false, NULL, 0);
		return err;
	}
	t->st.mounted = t->mounted;
	*out = t;
	return 0;
}

int lj_trace_measure_programs(struct lj_trace *t, char *why, size_t len)
{
	if (!t->bpf)
		return lj_why_err(why, len, -ENOTSUP, "the tracefs recorder has no programs to measure");
	return lj_trace_bpf_measure(t->bpf, why, len);
}

int lj_trace_programs(const struct lj_trace *t, struct lj_trace_prog_cost *out, int max)
{
	return t->bpf ? lj_trace_bpf_programs(t->bpf, out, max) : 0;
}

int lj_trace_attached(struct lj_trace *t, bool on, char *why, size_t len)
{
	if (!t->bpf)
		return lj_why_err(why, len, -ENOTSUP, "the tracefs recorder cannot be detached");
	return lj_trace_bpf_attached(t->bpf, on, why, len);
}

int lj_trace_recording(struct lj_trace *t, bool on)
{
	if (!t->bpf)
		return -ENOTSUP;
	lj_trace_bpf_recording(t->bpf, on);
	return 0;
}

uint64_t lj_trace_recorded(const struct lj_trace *t)
{
	return t->bpf ? lj_trace_bpf_recorded(t->bpf) : 0;
}

bool lj_trace_wakeups_by_timer(struct lj_trace *t)
{
	if (t->bpf && lj_trace_bpf_drop_waking(t->bpf))
		t->view.timer_wakeups = true;
	return t->view.timer_wakeups;
}

int lj_trace_threads(struct lj_trace *t, const pid_t *tids, int n)
{
	char filter[LJ_TEV_FILTER_MAX * 24 + 8];
	int on = lj_tev_pid_filter(tids, n, filter, sizeof(filter)), err = 0;

	if (on < 0)
		return on;
	if (t->bpf) {
		err = lj_trace_bpf_threads(t->bpf, tids, n);
		t->st.pid_filter = on && !err ? n : 0;
		return err;
	}
	for (size_t i = 0; i < lj_trace_nevents; i++) {
		const struct lj_trace_event *e = &lj_trace_events[i];

		if (!e->by_pid || (e->instead_of_waking && t->have_waking))
			continue;
		/* An event the kernel lacks has no filter file: nothing recorded to filter. */
		if (tracefs_event_file_write(t->inst, e->sys, e->name, "filter", filter) < 0 &&
		    errno != ENOENT && !err)
			err = errno ? -errno : -EIO;
	}
	t->st.pid_filter = on && !err ? n : 0;
	return err;
}

const char *lj_trace_dir(const struct lj_trace *t)
{
	return t->dir;
}

int lj_trace_mark(struct lj_trace *t, const char *text)
{
	size_t n = strlen(text);

	if (t->bpf)
		return -ENOTSUP;
	if (t->marker_fd < 0)
		return -EBADF;
	return write(t->marker_fd, text, n) == (ssize_t)n ? 0 : -errno;
}

int lj_trace_close(struct lj_trace *t, bool keep, char *why, size_t len)
{
	int err = 0;

	if (!t)
		return 0;
	lj_trace_bpf_close(t->bpf);
	if (t->marker_fd >= 0)
		close(t->marker_fd);
	if (t->on_fd >= 0)
		close(t->on_fd);
	if (t->hold_fd >= 0)
		close(t->hold_fd);
	/* Open trace_pipe_raw files keep the instance busy: closed before its removal. */
	for (int c = 0; t->tcpu && c < t->ncpus; c++)
		if (t->tcpu[c])
			tracefs_cpu_close(t->tcpu[c]);
	free(t->tcpu);
	if (t->inst)
		tracefs_instance_free(t->inst);
	/*
	 * The stack stops and removes the instance and unmounts tracefs when
	 * this run holds the last claim; a trace kept for the user (-b) is
	 * handed over instead, its mount with it.
	 */
	if (t->stack && keep)
		lj_setup_release(t->stack);
	else if (t->stack && (err = lj_setup_undo(t->stack, NULL, NULL)))
		lj_why(why, len, "cannot remove the tracefs instance %s or unmount tracefs: %s; journal %s kept for lj-env --restore",
		       t->dir, strerror(-err), lj_setup_journal(t->stack));
	lj_setup_free(t->stack);
	free(t->page);
	if (t->kbuf)
		kbuffer_free(t->kbuf);
	if (t->tep)
		tep_free(t->tep);
	for (int c = 0; t->buf && c < t->ncpus; c++)
		free(t->buf[c].ev);
	free(t->buf);
	free(t->seqs);
	free(t);
	return err;
}
