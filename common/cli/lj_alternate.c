// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_alternate - an instrument's cost inside one run: windows with it and without it. */
#include "lj_alternate.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lj_cpus.h"
#include "lj_hot.h"
#include "lj_json.h"
#include "lj_parse.h"
#include "lj_time.h"
#include "lj_why.h"

#define ACROSS LJ_ALTERNATE_ACROSS

struct lj_alternate {
	const struct lj_alternate_ops *ops;
	void *ctx;
	uint64_t t0, w_ns;
	cpu_set_t avoid;
	pthread_t th;
	bool started;
	_Atomic int stop;
	_Atomic int nwin;		/* windows begun (their ready_ns set) */
	struct lj_alt_window win[LJ_ALTERNATE_WINDOWS];
	struct lj_alt_sample *s;
	_Atomic uint32_t ns;		/* samples claimed (past the array: counted, not kept) */
	char why[200];			/* the toggling stopped early: why */
};

int lj_alternate_parse(const char *val, const char *word, struct lj_alternate_opts *o, char *why, size_t len)
{
	char num[24], detail[120];
	const char *comma;
	size_t n;
	uint64_t v;

	*o = (struct lj_alternate_opts){ 0 };
	if (!val || !val[0])
		return 0;
	comma = strchr(val, ',');
	n = comma ? (size_t)(comma - val) : strlen(val);
	snprintf(num, sizeof(num), "%.*s", (int)(n < sizeof(num) ? n : 0), val);
	if (n >= sizeof(num) || lj_parse_u64(num, LJ_ALTERNATE_MIN_MS, LJ_ALTERNATE_MAX_MS, &v, detail, sizeof(detail)) ||
	    (comma && (!word || strcmp(comma + 1, word)))) {
		if (word)
			return lj_why_err(why, len, -EINVAL, "invalid value '%s' (a window in milliseconds, %d to %d, "
					  "then ,%s or nothing)", val, LJ_ALTERNATE_MIN_MS, LJ_ALTERNATE_MAX_MS, word);
		return lj_why_err(why, len, -EINVAL, "invalid value '%s' (a window in milliseconds, %d to %d)", val,
				  LJ_ALTERNATE_MIN_MS, LJ_ALTERNATE_MAX_MS);
	}
	o->ms = (uint32_t)v;
	o->word = comma != NULL;
	return 0;
}

/* Whether @tool's samples are timed wake-ups the windows can split by their due time. */
static bool tool_ok(const char *tool)
{
	return tool && (!strcmp(tool, "lj-cyclic") || !strcmp(tool, "lj-signal"));
}

bool lj_alternate_on(int k)
{
	return (k / 3 + k % 3) % 3 == 1;
}

/* "a" the triple's first window without the instrument, "b" the one with it, "c" the second without. */
static char role_of(int k)
{
	int first = k - k % 3;

	if (lj_alternate_on(k))
		return 'b';
	for (int j = first; j < k; j++)
		if (!lj_alternate_on(j))
			return 'c';
	return 'a';
}

static uint64_t since_t0(const struct lj_alternate *a)
{
	uint64_t now = (uint64_t)lj_now_ns();

	return now > a->t0 ? now - a->t0 : 0;
}

/* Sleep until @at (CLOCK_MONOTONIC), looking at the stop flag every 50 ms. Return: false when stopped. */
static bool sleep_until(struct lj_alternate *a, uint64_t at)
{
	for (;;) {
		uint64_t now = (uint64_t)lj_now_ns(), next = now + 50000000u < at ? now + 50000000u : at;
		struct timespec ts = { .tv_sec = (time_t)(next / 1000000000u), .tv_nsec = (long)(next % 1000000000u) };

		if (atomic_load(&a->stop))
			return false;
		if (now >= at)
			return true;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

static void *toggle(void *arg)
{
	struct lj_alternate *a = arg;
	char why[200];
	bool on = true;

	lj_cpus_keep_off(&a->avoid);
	for (int k = 0; k < LJ_ALTERNATE_WINDOWS; k++) {
		uint64_t t;
		struct lj_alt_window *w = &a->win[k];

		if (!sleep_until(a, a->t0 + (uint64_t)k * a->w_ns))
			break;
		if (k)
			a->win[k - 1].work1 = a->ops->work(a->ctx);
		t = since_t0(a);
		if (lj_alternate_on(k) != on) {
			if (a->ops->set(a->ctx, !on, a->why, sizeof(a->why)))
				break;
			on = !on;
			w->toggle_ns = since_t0(a) - t;
		}
		w->ready_ns = since_t0(a);
		w->work0 = a->ops->work(a->ctx);
		atomic_store_explicit(&a->nwin, k + 1, memory_order_release);
	}
	/* Stopped, out of windows, or the switch failed: the rest of the run has the instrument. */
	if (!on && a->ops->set(a->ctx, true, why, sizeof(why)) && !a->why[0])
		snprintf(a->why, sizeof(a->why), "%s", why);
	return NULL;
}

int lj_alternate_start(struct lj_alternate **out, uint32_t ms, const struct lj_alternate_ops *ops, void *ctx,
		       const struct lj_run_desc *run, char *why, size_t len)
{
	const char *no = ops->unavailable ? ops->unavailable(ctx) : NULL;
	struct lj_alternate *a;
	int err;

	*out = NULL;
	if (!tool_ok(run->tool))
		return lj_why_err(why, len, -ENOTSUP, "%s: windows are for the tools whose samples are timed wake-ups "
				  "(lj-cyclic, lj-signal), not %s", ops->env, run->tool ? run->tool : "this one");
	if (no)
		return lj_why_err(why, len, -ENOTSUP, "%s: %s", ops->env, no);
	a = calloc(1, sizeof(*a));
	if (!a || !(a->s = calloc(LJ_ALTERNATE_SAMPLES, sizeof(*a->s)))) {
		free(a);
		return lj_why_err(why, len, -ENOMEM, "%s: out of memory", ops->env);
	}
	/* The measuring threads store into it: no page fault of theirs on the way. */
	for (size_t o = 0; o < LJ_ALTERNATE_SAMPLES * sizeof(*a->s); o += 4096)
		((volatile char *)a->s)[o] = 0;
	a->ops = ops;
	a->ctx = ctx;
	a->w_ns = (uint64_t)ms * 1000000u;
	a->avoid = run->measured;
	a->t0 = (uint64_t)lj_now_ns();
	err = -pthread_create(&a->th, NULL, toggle, a);
	if (err) {
		lj_alternate_free(a);
		return lj_why_err(why, len, err, "%s: cannot start its thread", ops->env);
	}
	a->started = true;
	pthread_setname_np(a->th, "lj-alternate");
	*out = a;
	return 0;
}

struct lj_alt_sample LJ_HOT lj_alternate_encode(uint64_t t0, uint64_t w_ns, uint64_t due_ns, uint64_t ran_ns)
{
	uint64_t rel, lat, end;

	if (due_ns < t0)
		return (struct lj_alt_sample){ 0, ACROSS };
	rel = due_ns - t0;
	end = t0 + (rel / w_ns + 1) * w_ns;
	lat = ran_ns > due_ns ? ran_ns - due_ns : 0;
	return (struct lj_alt_sample){ .due_us = rel / 1000u > UINT32_MAX ? UINT32_MAX : (uint32_t)(rel / 1000u),
				       .lat_ns = ran_ns >= end ? ACROSS : lat >= ACROSS ? ACROSS - 1 : (uint32_t)lat };
}

void LJ_HOT lj_alternate_sample(struct lj_alternate *a, uint64_t due_ns, uint64_t ran_ns)
{
	uint32_t i = atomic_fetch_add_explicit(&a->ns, 1, memory_order_relaxed);

	if (i < LJ_ALTERNATE_SAMPLES)
		a->s[i] = lj_alternate_encode(a->t0, a->w_ns, due_ns, ran_ns);
}

void lj_alternate_stop(struct lj_alternate *a)
{
	if (!a || !a->started)
		return;
	atomic_store(&a->stop, 1);
	pthread_join(a->th, NULL);
	a->started = false;
}

static int by_u64(const void *x, const void *y)
{
	uint64_t p = *(const uint64_t *)x, q = *(const uint64_t *)y;

	return p < q ? -1 : p > q;
}

/* A kept sample as one sort key: its window, then its latency. */
#define KEY(k, lat) ((uint64_t)(k) << 32 | (lat))
#define LAT(key) ((uint32_t)(key))

/* The nearest-rank quantile @q of @v (sorted, @n > 0), as lj_hist_quantile's. */
static uint32_t quantile(const uint64_t *v, size_t n, double q)
{
	size_t r = (size_t)(q * (double)n + 0.999999);

	return LAT(v[r ? (r > n ? n - 1 : r - 1) : 0]);
}

/* Window @k with its @n samples' keys @v, in order. */
static json_object *window_json(const struct lj_alt_window *w, int k, bool last, const uint64_t *v, size_t n)
{
	json_object *o = json_object_new_object();
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += LAT(v[i]);
	json_object_object_add(o, "triple", lj_json_int(k / 3));
	json_object_object_add(o, "role", json_object_new_string_len(&(char){ role_of(k) }, 1));
	json_object_object_add(o, "on", json_object_new_boolean(lj_alternate_on(k)));
	json_object_object_add(o, "toggle_ns", lj_json_int((int64_t)w->toggle_ns));
	json_object_object_add(o, "work", !last && w->work1 >= w->work0 ? lj_json_int((int64_t)(w->work1 - w->work0)) : NULL);
	json_object_object_add(o, "n", lj_json_int((int64_t)n));
	json_object_object_add(o, "min_ns", n ? lj_json_int(LAT(v[0])) : NULL);
	json_object_object_add(o, "p50_ns", n ? lj_json_int(quantile(v, n, 0.5)) : NULL);
	json_object_object_add(o, "mean_ns", n ? lj_json_num(sum / (double)n) : NULL);
	json_object_object_add(o, "p99_ns", n ? lj_json_int(quantile(v, n, 0.99)) : NULL);
	return o;
}

/* Window @k of @s's sample, or -1 when it is left out (before the window's settle time, across its end, after the last). */
static int64_t window_of(const struct lj_alt_sample *s, const struct lj_alt_window *w, int nwin, uint64_t w_ns)
{
	uint64_t k = (uint64_t)s->due_us * 1000u / w_ns, settle_us = w_ns / 10000u;

	if (k >= (uint64_t)nwin || s->lat_ns == ACROSS || s->due_us < w[k].ready_ns / 1000u + settle_us ||
	    s->due_us < k * w_ns / 1000u + settle_us)
		return -1;
	return (int64_t)k;
}

json_object *lj_alternate_windows(const struct lj_alt_sample *s, uint32_t ns, const struct lj_alt_window *w,
				  int nwin, uint64_t w_ns, uint32_t *in)
{
	uint64_t *key = malloc(((size_t)ns + 1u) * sizeof(*key));
	json_object *arr = json_object_new_array();
	size_t m = 0, i = 0;

	if (in)
		*in = 0;
	if (!key)
		return arr;
	/* Sorted by window then latency: each window's samples together, in order. */
	for (uint32_t j = 0; j < ns; j++) {
		int64_t k = window_of(&s[j], w, nwin, w_ns);

		if (k >= 0)
			key[m++] = KEY(k, s[j].lat_ns);
	}
	qsort(key, m, sizeof(*key), by_u64);
	for (int k = 0; k < nwin; k++) {
		size_t from = i;

		while (i < m && key[i] >> 32 == (uint64_t)k)
			i++;
		json_object_array_add(arr, window_json(&w[k], k, k == nwin - 1, key + from, i - from));
	}
	free(key);
	if (in)
		*in = (uint32_t)m;
	return arr;
}

json_object *lj_alternate_json(struct lj_alternate *a)
{
	int nwin = atomic_load(&a->nwin);
	uint32_t total = atomic_load(&a->ns), kept = total < LJ_ALTERNATE_SAMPLES ? total : LJ_ALTERNATE_SAMPLES;
	uint32_t in;
	json_object *o = json_object_new_object(), *arr = lj_alternate_windows(a->s, kept, a->win, nwin, a->w_ns, &in);

	json_object_object_add(o, "window_ms", lj_json_int((int64_t)(a->w_ns / 1000000u)));
	json_object_object_add(o, "without", json_object_new_string(a->ops->without));
	json_object_object_add(o, "work_is", json_object_new_string(a->ops->work_is));
	json_object_object_add(o, "settle_ms", lj_json_int((int64_t)(a->w_ns / 10000000u)));
	json_object_object_add(o, "samples", lj_json_int(total));
	json_object_object_add(o, "not_kept", lj_json_int(total - kept));
	json_object_object_add(o, "excluded", lj_json_int((int64_t)(kept - in)));
	json_object_object_add(o, "error", a->why[0] ? json_object_new_string(a->why) : NULL);
	json_object_object_add(o, "windows", arr);
	return o;
}

void lj_alternate_free(struct lj_alternate *a)
{
	if (!a)
		return;
	lj_alternate_stop(a);
	free(a->s);
	free(a);
}
