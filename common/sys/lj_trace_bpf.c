// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_trace_bpf - the BPF recorder: lj_trace's events kept in the kernel, per measured CPU, copied out by window. */
#include "lj_trace_bpf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "lj_dl.h"
#include "lj_trace.h"
/* The program's object, embedded by bpftool gen skeleton (generated code: its casts are its own). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcast-qual"
#include <lj_trace.skel.h>	/* generated in the build tree */
#include <lj_trace_plain.skel.h>	/* the same, for kernels before 5.12 */
#pragma GCC diagnostic pop
#include "lj_why.h"

/* lj-cyclic does not link libbpf (docs/design.md, "Resident memory"): called through a table. */
#define BPF_FNS(X)                                                                          \
	X(bpf_object__open_mem) X(bpf_object__find_map_by_name) X(bpf_map__set_max_entries)  \
	X(bpf_object__find_program_by_name) X(bpf_program__set_autoload) X(bpf_object__load) \
	X(bpf_program__attach) X(bpf_link__destroy) X(bpf_object__close) X(bpf_map__fd)      \
	X(libbpf_set_print) X(btf__load_vmlinux_btf) X(btf__find_by_name_kind)               \
	X(btf__type_by_id) X(btf__free) X(bpf_program__autoload) X(bpf_enable_stats)             \
	X(bpf_program__fd) X(bpf_obj_get_info_by_fd)
BPF_FNS(LJ_DL_WEAK)
LJ_DL_TABLE(libbpf, LJ_SONAME_BPF, BPF_FNS);
#define B(f) LJ_DL_FN(libbpf, f)

/* The programs, by the tracepoint each attaches to; sched_switch is required. */
static const struct prog {
	const char *name, *tp;
	bool required;
} progs[] = {
	{ "lj_switch", "sched_switch", true },
	{ "lj_switch_old", "sched_switch", true },
	{ "lj_waking", "sched_waking", false },
	{ "lj_migrate", "sched_migrate_task", false },
	{ "lj_irq_entry", "irq_handler_entry", false },
	{ "lj_irq_exit", "irq_handler_exit", false },
	{ "lj_softirq_entry", "softirq_entry", false },
	{ "lj_softirq_exit", "softirq_exit", false },
	{ "lj_timer_entry", "local_timer_entry", false },
	{ "lj_timer_exit", "local_timer_exit", false },
	{ "lj_freq", "cpu_frequency", false },
};
#define NPROGS (sizeof(progs) / sizeof(progs[0]))
_Static_assert(sizeof(progs) / sizeof(progs[0]) <= LJ_TRACE_MAXPROGS, "lj_trace_programs' room");

struct region {
	void *p;
	size_t len;
};

struct lj_trace_bpf {
	struct bpf_object *obj;
	struct bpf_link *links[NPROGS];
	bool used[NPROGS];			/* attached at the start (links[] goes while detached) */
	struct region ring, heads, conf;
	uint32_t per_slot;
	int nslots;
	int cpu_of[LJ_BPF_MAXSLOTS];		/* slot -> CPU */
	struct lj_bpf_scan scan[LJ_BPF_MAXSLOTS];
	int stats_fd;				/* the kernel's run-time statistics, on while open; -1 off */
	bool measured;				/* prog[] holds the measurement's figures */
	struct lj_trace_prog_cost prog[NPROGS];	/* per attached program: at lj_trace_bpf_measure, then their difference */
	bool plain;				/* the object for kernels before 5.12 (no atomic fetch-and-add) */
};

static char libbpf_said[160];
static char verifier_said[200];	/* "PROGRAM: the verifier's refusal", from its log */

/*
 * A program's load log (libbpf prints it whole in one warning): its last
 * line before the statistics the verifier appends is the refusal
 * ("BPF_STX uses reserved fields" from a kernel before 5.12).
 */
static void keep_refusal(const char *msg)
{
	const char *name = strstr(msg, "prog '"), *log = strstr(msg, "-- BEGIN PROG LOAD LOG --\n");
	const char *end = strstr(msg, "-- END PROG LOAD LOG --"), *line, *last = NULL;
	size_t last_len = 0, name_len;

	if (!name || !log || !end || verifier_said[0])
		return;
	name += strlen("prog '");
	name_len = strcspn(name, "'");
	for (line = log + strlen("-- BEGIN PROG LOAD LOG --\n"); line < end;) {
		size_t n = strcspn(line, "\n");

		if (n && strncmp(line, "processed ", 10) && strncmp(line, "verification time", 17) &&
		    strncmp(line, "stack depth", 11)) {
			last = line;
			last_len = n;
		}
		line += n + 1;
	}
	if (last)
		snprintf(verifier_said, sizeof(verifier_said), "%.*s: %.*s", (int)name_len, name,
			 (int)(last_len < 150 ? last_len : 150), last);
}

/* libbpf's messages: the last warning kept for @why, nothing printed (the tools print one line). */
static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level != LIBBPF_WARN)
		return 0;
	/* A load log can be megabytes: formatted whole only for its refusal. */
	if (strstr(fmt, "PROG LOAD LOG")) {
		char *msg = NULL;

		if (vasprintf(&msg, fmt, ap) >= 0) {
			keep_refusal(msg);
			free(msg);
		}
		return 0;
	}
	vsnprintf(libbpf_said, sizeof(libbpf_said), fmt, ap);
	libbpf_said[strcspn(libbpf_said, "\n")] = '\0';
	return 0;
}

/* The tracepoint's BTF prototype (btf_trace_NAME): its arguments with the leading void *, or -1 when absent. */
static int tp_args(const struct btf *vm, const char *tp)
{
	char name[64];
	const struct btf_type *t;
	int id;

	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	id = B(btf__find_by_name_kind)(vm, name, BTF_KIND_TYPEDEF);
	if (id < 0)
		return -1;
	t = B(btf__type_by_id)(vm, (unsigned int)id);
	while (t && (btf_is_typedef(t) || btf_is_ptr(t)))
		t = B(btf__type_by_id)(vm, t->type);
	return t && btf_is_func_proto(t) ? btf_vlen(t) : -1;
}

int lj_trace_bpf_switch_form;

/* Load only the programs whose tracepoint this kernel has (and the sched_switch of its arity). */
static int choose(struct lj_trace_bpf *b, char *why, size_t len)
{
	struct btf *vm = B(btf__load_vmlinux_btf)();
	int sw;

	if (!vm)
		return lj_why_err(why, len, -ENOENT, "no kernel BTF (none at /sys/kernel/btf/vmlinux, nor beside the kernel's image)");
	sw = tp_args(vm, "sched_switch");
	if (lj_trace_bpf_switch_form == 4 && sw == 5)
		sw = 4;
	for (size_t i = 0; i < NPROGS; i++) {
		struct bpf_program *p = B(bpf_object__find_program_by_name)(b->obj, progs[i].name);
		bool on = tp_args(vm, progs[i].tp) >= 0;

		if (!strcmp(progs[i].name, "lj_switch"))
			on = sw == 5;
		else if (!strcmp(progs[i].name, "lj_switch_old"))
			on = sw == 4;
		if (p)
			B(bpf_program__set_autoload)(p, on);
	}
	B(btf__free)(vm);
	if (sw != 4 && sw != 5)
		return lj_why_err(why, len, -ENOENT, "the kernel's BTF has no sched_switch tracepoint of a known form");
	return 0;
}

static int map_region(struct lj_trace_bpf *b, const char *name, size_t bytes, int prot, struct region *r)
{
	struct bpf_map *m = B(bpf_object__find_map_by_name)(b->obj, name);
	long page = sysconf(_SC_PAGESIZE);

	if (!m)
		return -ENOENT;
	r->len = (bytes + (size_t)page - 1) / (size_t)page * (size_t)page;
	r->p = mmap(NULL, r->len, prot, MAP_SHARED, B(bpf_map__fd)(m), 0);
	if (r->p == MAP_FAILED) {
		r->p = NULL;
		return -errno;
	}
	return 0;
}

static void unmap_region(struct region *r)
{
	if (r->p)
		munmap(r->p, r->len);
	r->p = NULL;
}

/* The measured CPUs' slots, and the rings sized to @buffer_kb each. */
static int size_rings(struct lj_trace_bpf *b, const cpu_set_t *cpus, size_t buffer_kb, char *why,
		      size_t len)
{
	size_t want = (buffer_kb ? buffer_kb : (size_t)LJ_TRACE_BUFFER_KB) * 1024 / sizeof(struct lj_bpf_rec);

	for (int c = 0; c < CPU_SETSIZE && c < LJ_BPF_MAXCPUS; c++) {
		if (!CPU_ISSET(c, cpus))
			continue;
		if (b->nslots == LJ_BPF_MAXSLOTS)
			return lj_why_err(why, len, -E2BIG, "more than %d measured CPUs", LJ_BPF_MAXSLOTS);
		b->cpu_of[b->nslots++] = c;
	}
	if (!b->nslots)
		return lj_why_err(why, len, -EINVAL, "no measured CPU below %d", LJ_BPF_MAXCPUS);
	/* The power of two at or above: the records are larger than the trace buffer's. */
	for (b->per_slot = 1024; (size_t)b->per_slot < want; b->per_slot *= 2)
		;
	return B(bpf_map__set_max_entries)(B(bpf_object__find_map_by_name)(b->obj, "ring"),
					   b->per_slot * (uint32_t)b->nslots);
}

/* Attach each program loaded and not attached (@again: only those attached at the start). */
static int attach(struct lj_trace_bpf *b, bool again, char *why, size_t len)
{
	for (size_t i = 0; i < NPROGS; i++) {
		struct bpf_program *p = B(bpf_object__find_program_by_name)(b->obj, progs[i].name);

		if (!p || !B(bpf_program__autoload)(p) || b->links[i] || (again && !b->used[i]))
			continue;
		b->links[i] = B(bpf_program__attach)(p);
		if (!b->links[i] && (again || progs[i].required))
			return lj_why_err(why, len, errno ? -errno : -EIO, "cannot attach to %s%s: %s",
					  progs[i].tp, again ? " again" : "", strerror(errno));
		b->used[i] = b->links[i] != NULL;
	}
	return 0;
}

static void detach(struct lj_trace_bpf *b)
{
	for (size_t i = 0; i < NPROGS; i++) {
		if (b->links[i])
			B(bpf_link__destroy)(b->links[i]);
		b->links[i] = NULL;
	}
}

/*
 * The programs every kernel since 5.18 has the tracepoints of (the
 * 5-argument sched_switch; the local timer's on x86 only): parsing the
 * kernel's BTF to check costs as much again as libbpf's own parse at load.
 */
static void guess(struct lj_trace_bpf *b)
{
	for (size_t i = 0; i < NPROGS; i++) {
		struct bpf_program *p = B(bpf_object__find_program_by_name)(b->obj, progs[i].name);
		bool on = strcmp(progs[i].name, "lj_switch_old") != 0;

#if !defined(__x86_64__) && !defined(__i386__)
		on = on && strncmp(progs[i].tp, "local_timer", 11) != 0;
#endif
		if (p)
			B(bpf_program__set_autoload)(p, on);
	}
}

/* The index of program @name in progs[]. */
static size_t prog_index(const char *name)
{
	size_t i = 0;

	while (i < NPROGS && strcmp(progs[i].name, name))
		i++;
	return i;
}

bool lj_trace_bpf_drop_waking(struct lj_trace_bpf *b)
{
	size_t waking = prog_index("lj_waking"), entry = prog_index("lj_timer_entry");
	size_t exit = prog_index("lj_timer_exit");

	if (!b->links[waking] || !b->links[entry] || !b->links[exit])
		return false;
	B(bpf_link__destroy)(b->links[waking]);
	b->links[waking] = NULL;
	b->used[waking] = false;	/* not attached again by LJ_EXPLAIN_ALTERNATE's windows */
	return true;
}

/* The running kernel is older than 5.12, whose BPF has no atomic fetch-and-add (claim()'s). */
static bool before_5_12(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	return !uname(&u) && sscanf(u.release, "%d.%d", &major, &minor) == 2 &&
	       (major < 5 || (major == 5 && minor < 12));
}

bool lj_trace_bpf_plain_claim;

/* Open and load the object, its programs chosen by guess() or, @by_btf, by the kernel's BTF. */
static int load(struct lj_trace_bpf *b, const cpu_set_t *cpus, size_t buffer_kb, bool by_btf,
		char *why, size_t len)
{
	size_t obj_len = 0;
	const void *obj = b->plain ? lj_trace_plain_prog__elf_bytes(&obj_len) : lj_trace_prog__elf_bytes(&obj_len);
	int err;

	libbpf_said[0] = '\0';
	verifier_said[0] = '\0';
	b->nslots = 0;
	b->obj = B(bpf_object__open_mem)(obj, obj_len, NULL);
	if (!b->obj)
		return lj_why_err(why, len, errno ? -errno : -EINVAL, "cannot open the BPF program: %s",
				  libbpf_said[0] ? libbpf_said : strerror(errno));
	if (by_btf && (err = choose(b, why, len)))
		return err;
	if (!by_btf)
		guess(b);
	if ((err = size_rings(b, cpus, buffer_kb, why, len)))
		return err;
	if ((err = B(bpf_object__load)(b->obj)) && verifier_said[0])
		return lj_why_err(why, len, err, "the kernel refused the BPF program %s%s", verifier_said,
				  b->plain && strstr(verifier_said, "reserved fields") ?
				  " (on this architecture it needs Linux 5.12's atomic exchange)" : "");
	if (err)
		return lj_why_err(why, len, err, "cannot load the BPF program: %s",
				  libbpf_said[0] ? libbpf_said : strerror(-err));
	return 0;
}

static int start(struct lj_trace_bpf *b, const cpu_set_t *cpus, size_t buffer_kb, char *why, size_t len)
{
	struct lj_bpf_conf *conf;
	int err;

	b->plain = lj_trace_bpf_plain_claim || before_5_12();
	/* The form forced for tests goes the way of a kernel before 5.18: its guess fails, its BTF decides. */
	err = lj_trace_bpf_switch_form == 4 ? -ENOEXEC : load(b, cpus, buffer_kb, false, why, len);

	/* An older kernel, or one without a tracepoint guessed: the programs it has, from its BTF. */
	if (err && err != -ENOENT && err != -EPERM) {
		if (b->obj)
			B(bpf_object__close)(b->obj);
		b->obj = NULL;
		err = load(b, cpus, buffer_kb, true, why, len);
		/* The guess's refusal is no reason once the kernel's own programs loaded. */
		if (!err && len)
			why[0] = '\0';
	}
	if (err)
		return err;
	if ((err = map_region(b, "ring", (size_t)b->per_slot * (size_t)b->nslots * sizeof(struct lj_bpf_rec),
			      PROT_READ, &b->ring)) ||
	    (err = map_region(b, "heads", LJ_BPF_MAXSLOTS * sizeof(struct lj_bpf_head), PROT_READ, &b->heads)) ||
	    (err = map_region(b, "conf", sizeof(struct lj_bpf_conf), PROT_READ | PROT_WRITE, &b->conf)))
		return lj_why_err(why, len, err, "cannot map the BPF recorder's rings: %s", strerror(-err));
	conf = b->conf.p;
	conf->per_slot = b->per_slot;
	for (int c = 0; c < LJ_BPF_MAXCPUS; c++)
		conf->slot_of[c] = -1;
	for (int s = 0; s < b->nslots; s++)
		conf->slot_of[b->cpu_of[s]] = (int16_t)s;
	if ((err = attach(b, false, why, len)))
		return err;
	__atomic_store_n(&conf->on, 1, __ATOMIC_RELEASE);
	return 0;
}

int lj_trace_bpf_open(struct lj_trace_bpf **out, const cpu_set_t *cpus, size_t buffer_kb,
		      char *why, size_t len)
{
	struct lj_trace_bpf *b;
	int err = LJ_DL_BIND(libbpf, BPF_FNS, why, len);

	*out = NULL;
	if (err)
		return err;
	B(libbpf_set_print)(quiet);
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->stats_fd = -1;
	err = start(b, cpus, buffer_kb, why, len);
	if (err) {
		lj_trace_bpf_close(b);
		return err;
	}
	*out = b;
	return 0;
}

int lj_trace_bpf_threads(struct lj_trace_bpf *b, const pid_t *tids, int n)
{
	struct lj_bpf_conf *conf = b->conf.p;

	/* Every task's while the list changes; then only the listed ones. */
	__atomic_store_n(&conf->nfilter, 0, __ATOMIC_RELEASE);
	if (n <= 0 || n > LJ_BPF_FILTER_MAX)
		return 0;
	for (int i = 0; i < n; i++)
		conf->tids[i] = tids[i];
	__atomic_store_n(&conf->nfilter, (uint32_t)n, __ATOMIC_RELEASE);
	return 0;
}

/* Each attached program's runs and run time so far, the kernel's counts (while statistics are on). */
static void prog_counts(const struct lj_trace_bpf *b, struct lj_trace_prog_cost *out)
{
	for (size_t i = 0; i < NPROGS; i++) {
		struct bpf_prog_info info = { 0 };
		uint32_t n = sizeof(info);

		out[i] = (struct lj_trace_prog_cost){ .tracepoint = progs[i].tp, .program = progs[i].name };
		if (b->used[i] &&
		    !B(bpf_obj_get_info_by_fd)(B(bpf_program__fd)(B(bpf_object__find_program_by_name)(b->obj, progs[i].name)),
					       &info, &n)) {
			out[i].runs = info.run_cnt;
			out[i].ns = info.run_time_ns;
		}
	}
}

int lj_trace_bpf_measure(struct lj_trace_bpf *b, char *why, size_t len)
{
	int fd = B(bpf_enable_stats)(BPF_STATS_RUN_TIME);

	if (fd < 0)
		return lj_why_err(why, len, fd, "cannot turn the kernel's BPF run-time statistics on: %s",
				  strerror(-fd));
	b->stats_fd = fd;
	/* Counts since the load (another holder may have had them on): subtracted at the end. */
	prog_counts(b, b->prog);
	return 0;
}

void lj_trace_bpf_off(struct lj_trace_bpf *b)
{
	struct lj_trace_prog_cost now[NPROGS];

	if (b && b->conf.p)
		lj_trace_bpf_recording(b, false);
	if (!b || b->stats_fd < 0)
		return;
	prog_counts(b, now);
	for (size_t i = 0; i < NPROGS; i++) {
		b->prog[i].runs = now[i].runs - b->prog[i].runs;
		b->prog[i].ns = now[i].ns - b->prog[i].ns;
	}
	b->measured = true;
	/* Off now: the statistics cost every program run its clock reads. */
	close(b->stats_fd);
	b->stats_fd = -1;
}

int lj_trace_bpf_programs(const struct lj_trace_bpf *b, struct lj_trace_prog_cost *out, int max)
{
	int n = 0;

	if (!b || !b->measured)
		return 0;
	for (size_t i = 0; i < NPROGS && n < max; i++)
		if (b->used[i])
			out[n++] = b->prog[i];
	return n;
}

int lj_trace_bpf_attached(struct lj_trace_bpf *b, bool on, char *why, size_t len)
{
	if (on)
		return attach(b, true, why, len);
	detach(b);
	return 0;
}

void lj_trace_bpf_recording(struct lj_trace_bpf *b, bool on)
{
	__atomic_store_n(&((struct lj_bpf_conf *)b->conf.p)->on, on ? 1u : 0u, __ATOMIC_RELEASE);
}

uint64_t lj_trace_bpf_recorded(const struct lj_trace_bpf *b)
{
	const struct lj_bpf_head *heads = b->heads.p;
	uint64_t n = 0;

	for (int s = 0; s < b->nslots; s++)
		n += __atomic_load_n(&heads[s].head, __ATOMIC_ACQUIRE);
	return n;
}

int lj_trace_bpf_read(struct lj_trace_bpf *b, const struct lj_bpf_keep *keep, struct cpu_buf *bufs,
		      struct lj_trace_stats *st)
{
	const struct lj_bpf_head *heads = b->heads.p;
	const struct lj_bpf_rec *ring = b->ring.p;

	for (int s = 0; s < b->nslots; s++) {
		uint64_t head = __atomic_load_n(&heads[s].head, __ATOMIC_ACQUIRE);
		struct cpu_buf *out = &bufs[b->cpu_of[s]];
		size_t before = out->n;
		int err = lj_trace_bpf_scan(ring + (size_t)s * b->per_slot, b->per_slot, head, &b->scan[s],
					    keep, out, st);

		if (err)
			return err;
		lj_trace_bpf_order(out->ev + (before ? before - 1 : 0), out->n - (before ? before - 1 : 0));
	}
	return 0;
}

void lj_trace_bpf_close(struct lj_trace_bpf *b)
{
	if (!b)
		return;
	lj_trace_bpf_off(b);	/* the statistics too */
	detach(b);
	unmap_region(&b->ring);
	unmap_region(&b->heads);
	unmap_region(&b->conf);
	if (b->obj)
		B(bpf_object__close)(b->obj);
	free(b);
}

bool lj_trace_bpf_is_plain(const struct lj_trace_bpf *b)
{
	return b && b->plain;
}
