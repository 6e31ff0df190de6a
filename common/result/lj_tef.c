// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_tef - a trace in the Trace Event Format (JSON), written one event at a time through lj_outfile. */
#include "lj_tef.h"
#include "lj_json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

/* "ph" and "ts" first: Perfetto's tokenizer reads the keys in order until "ts". */
static json_object *event(char ph, uint64_t ts_ns, bool with_ts)
{
	json_object *e = json_object_new_object();
	char p[2] = { ph, 0 };

	json_object_object_add(e, "ph", json_object_new_string(p));
	if (with_ts)
		json_object_object_add(e, "ts", lj_json_usec(ts_ns));
	return e;
}

/* Every event carries both; one of the process's own (a counter, its name) has tid = pid. */
static void ids(json_object *e, uint32_t pid, uint32_t tid)
{
	json_object_object_add(e, "pid", lj_json_int(pid));
	json_object_object_add(e, "tid", lj_json_int(tid));
}

/* Write @e (released) as one line of the array. Errors surface at commit. */
static void put(struct lj_tef *w, json_object *e)
{
	if (w->open) {
		fprintf(w->f, "%s%s", w->events ? ",\n" : "\n",
			json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		w->events++;
	}
	json_object_put(e);
}

int lj_tef_open(struct lj_tef *w, const char *path, char *why, size_t len)
{
	int ret;

	*w = (struct lj_tef){ .next_tid = LJ_TEF_TID_BASE };
	ret = lj_outfile_open(&w->out, path, why, len);
	if (ret)
		return ret;
	w->f = lj_outfile_stdio(&w->out);
	if (!w->f) {
		lj_outfile_abort(&w->out);
		return -ENOMEM;
	}
	w->open = true;
	fputs("{\"traceEvents\":[", w->f);
	return 0;
}

static void metadata(struct lj_tef *w, const char *what, uint32_t pid, uint32_t tid,
		     const char *key, json_object *value)
{
	json_object *e = event('M', 0, true), *args = json_object_new_object();

	ids(e, pid, tid);
	json_object_object_add(e, "name", json_object_new_string(what));
	json_object_object_add(args, key, value);
	json_object_object_add(e, "args", args);
	put(w, e);
}

void lj_tef_process(struct lj_tef *w, uint32_t pid, const char *name, int sort)
{
	metadata(w, "process_name", pid, pid, "name", json_object_new_string(name));
	metadata(w, "process_sort_index", pid, pid, "sort_index", lj_json_int(sort));
}

void lj_tef_thread(struct lj_tef *w, uint32_t pid, uint32_t tid, const char *name, int sort)
{
	metadata(w, "thread_name", pid, tid, "name", json_object_new_string(name));
	metadata(w, "thread_sort_index", pid, tid, "sort_index", lj_json_int(sort));
}

uint32_t lj_tef_track(struct lj_tef *w, uint32_t pid, const char *name, int sort)
{
	uint32_t tid = w->next_tid++;

	lj_tef_thread(w, pid, tid, name, sort);
	return tid;
}

static void named(json_object *e, const char *name, const char *cat, json_object *args)
{
	json_object_object_add(e, "name", json_object_new_string(name));
	if (cat)
		json_object_object_add(e, "cat", json_object_new_string(cat));
	if (args)
		json_object_object_add(e, "args", args);
}

void lj_tef_slice(struct lj_tef *w, uint32_t pid, uint32_t tid, const char *name, const char *cat,
		  uint64_t ts_ns, uint64_t dur_ns, json_object *args)
{
	json_object *e = event('X', ts_ns, true);

	json_object_object_add(e, "dur", lj_json_usec(dur_ns));
	ids(e, pid, tid);
	named(e, name, cat, args);
	put(w, e);
}

void lj_tef_instant(struct lj_tef *w, uint32_t pid, uint32_t tid, const char *name, const char *cat,
		    uint64_t ts_ns, json_object *args)
{
	json_object *e = event('i', ts_ns, true);

	ids(e, pid, tid);
	json_object_object_add(e, "s", json_object_new_string("t"));
	named(e, name, cat, args);
	put(w, e);
}

void lj_tef_counter(struct lj_tef *w, uint32_t pid, const char *name, const char *key,
		    uint64_t ts_ns, double value)
{
	json_object *e, *args;
	char buf[32];

	if (!isfinite(value))
		return;		/* no reading: no point (JSON has no NaN) */
	e = event('C', ts_ns, true);
	args = json_object_new_object();
	ids(e, pid, pid);
	snprintf(buf, sizeof(buf), "%.9g", value);
	json_object_object_add(args, key, lj_json_num_text(value, buf));
	named(e, name, NULL, args);
	put(w, e);
}

int lj_tef_close(struct lj_tef *w, json_object *other)
{
	if (!w->open) {
		json_object_put(other);
		return -EBADF;
	}
	fprintf(w->f, "\n],\"otherData\":%s}\n",
		other ? json_object_to_json_string_ext(other, JSON_C_TO_STRING_PLAIN |
						       JSON_C_TO_STRING_NOSLASHESCAPE) : "{}");
	json_object_put(other);
	w->open = false;
	return lj_outfile_commit(&w->out);
}

void lj_tef_abort(struct lj_tef *w)
{
	if (!w->open)
		return;
	w->open = false;
	lj_outfile_abort(&w->out);
}

int lj_tef_lane(uint64_t *ends, int *nlanes, int max, uint64_t start, uint64_t end)
{
	int k;

	for (k = 0; k < *nlanes; k++)
		if (ends[k] <= start)
			break;
	if (k == *nlanes) {
		if (*nlanes == max)
			return -1;
		(*nlanes)++;
	}
	if (end > ends[k])
		ends[k] = end;
	return k;
}
