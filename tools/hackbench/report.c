// SPDX-License-Identifier: GPL-2.0-or-later
/* report.c - lj-hackbench's output: hackbench's lines, per-second load lines, latency and JSON. */
#include "hb.h"

#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>

#include "lj_err.h"
#include "lj_hist.h"
#include "lj_json.h"
#include "lj_rtjson.h"
#include "lj_time.h"

void hb_report_header(const struct hb_config *cfg)
{
	printf("Running in %s mode with %u groups using %u file descriptors each (== %u tasks)\n",
	       cfg->mode == HB_THREAD ? "threaded" : "process", cfg->groups, 2 * cfg->fds,
	       2 * cfg->groups * cfg->fds);
	if (!cfg->load)
		printf("Each sender will pass %u messages of %u bytes\n", cfg->loops, cfg->datasize);
	else if (cfg->duration_ns)
		printf("Each sender will pass messages of %u bytes for %.3f s\n", cfg->datasize,
		       (double)cfg->duration_ns / LJ_NSEC_PER_SEC);
	else
		printf("Each sender will pass messages of %u bytes until SIGINT or SIGTERM\n",
		       cfg->datasize);
	lj_fflush(stdout);		/* before fork, or children would flush it again */
}

void hb_report_second(const struct hb_run *run, size_t sec, uint64_t msgs)
{
	printf("Load: %zu s: %llu msgs/s %.2f MB/s\n", sec, (unsigned long long)msgs,
	       (double)msgs * run->cfg->datasize / 1e6);
	lj_fflush(stdout);
}

static double elapsed_s(const struct hb_run *run)
{
	return (double)(run->end_ns - run->start_ns) / LJ_NSEC_PER_SEC;
}

void hb_report_final(const struct hb_run *run)
{
	const struct hb_config *cfg = run->cfg;
	int64_t ns = run->end_ns - run->start_ns;

	/* hackbench prints milliseconds truncated, not rounded. */
	printf("Time: %lld.%03lld\n", (long long)(ns / LJ_NSEC_PER_SEC),
	       (long long)(ns % LJ_NSEC_PER_SEC / LJ_NSEC_PER_MSEC));
	if (cfg->load || cfg->percentiles)
		printf("# Messages: %llu in %.3f s: %.0f msgs/s\n", (unsigned long long)run->msgs,
		       elapsed_s(run), ns > 0 ? run->msgs / elapsed_s(run) : 0.0);
	if (cfg->percentiles && run->stamps && lj_hist_count(run->lat)) {
		const struct lj_hist *h = run->lat;

		/* not a wake-up latency: the time a message waited in socket buffers behind others */
		printf("# Send-to-receive delay (us, mostly queueing): min:%.1f p50:%.1f p90:%.1f p99:%.1f p99.9:%.1f max:%.1f\n",
		       lj_hist_min(h) / 1e3, lj_hist_quantile(h, 0.5) / 1e3,
		       lj_hist_quantile(h, 0.9) / 1e3, lj_hist_quantile(h, 0.99) / 1e3,
		       lj_hist_quantile(h, 0.999) / 1e3, lj_hist_max(h) / 1e3);
	} else if (cfg->percentiles && !run->stamps) {
		printf("# Send-to-receive delay: not measured: %s\n", run->no_stamp_why);
	}
	lj_fflush(stdout);
	if (run->bad)
		lj_warn("%llu messages arrived with a send time that cannot be right (interleaved writes?)",
			(unsigned long long)run->bad);
	if (run->partial)
		lj_warn("%llu bytes of a cut message at the end of a stream",
			(unsigned long long)run->partial);
}

/* What was asked for: the result's "params". */
static void json_params(const struct hb_run *run, json_object *params)
{
	const struct hb_config *cfg = run->cfg;

	lj_json_add(params, "mode", json_object_new_string(cfg->mode == HB_THREAD ? "threads" : "processes"));
	lj_json_add(params, "transport", json_object_new_string(hb_transport_name(cfg->transport)));
	lj_json_add(params, "groups", lj_json_int(cfg->groups));
	lj_json_add(params, "fds", lj_json_int(cfg->fds));
	lj_json_add(params, "tasks", lj_json_int(2LL * cfg->groups * cfg->fds));
	lj_json_add(params, "loops", lj_json_int(cfg->load ? 0 : cfg->loops));
	lj_json_add(params, "datasize", lj_json_int(cfg->datasize));
	lj_json_add(params, "load", json_object_new_boolean(cfg->load));
	lj_json_add(params, "duration_ns", lj_json_int(cfg->duration_ns));
	lj_json_add(params, "fifo", json_object_new_boolean(cfg->fifo));
	lj_json_add(params, "policy", json_object_new_string(lj_sched_policy_name(run->sched_fallback ?
						       LJ_POLICY_OTHER : cfg->policy)));
	lj_json_add(params, "priority", lj_json_int(run->sched_fallback ? 0 : cfg->priority));
	lj_json_add(params, "clock", json_object_new_string("CLOCK_MONOTONIC"));
	/* message stamps: the TSC (converted to CLOCK_MONOTONIC ns) or clock_gettime, and why not the TSC */
	lj_json_add(params, "stamp_clock", run->stamps ? json_object_new_string(hb_tsc_source(&run->tsc)) : NULL);
	lj_json_add(params, "stamp_clock_why", run->stamps && !run->tsc.on ? json_object_new_string(run->tsc_why) : NULL);
	lj_json_add(params, "tsc_ns_per_tick", run->stamps && run->tsc.on ?
	    lj_json_num(run->tsc.ns_per_tick) : NULL);
}

/* The send-to-receive delays, or why there are none. */
static void json_latency(const struct hb_run *run, json_object *o)
{
	if (!run->stamps) {
		lj_json_add(o, "latency", NULL);
		lj_json_add(o, "latency_unavailable", json_object_new_string(run->no_stamp_why));
		return;
	}
	/* The receivers' histograms merged whole: mean and stddev are exact. */
	lj_json_add(o, "latency", lj_result_hist_json(run->lat, true));
}

/* Workers' CPU time and context switches (reaped children, or this process's threads), failures. */
static void json_side(const struct hb_run *run, json_object *side)
{
	struct rusage ru;
	json_object *u = json_object_new_object();

	if (!getrusage(run->cfg->mode == HB_PROCESS ? RUSAGE_CHILDREN : RUSAGE_SELF, &ru)) {
		lj_json_add(u, "user_s", lj_json_num(ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6));
		lj_json_add(u, "sys_s", lj_json_num(ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6));
		lj_json_add(u, "voluntary_ctxt_switches", lj_json_int(ru.ru_nvcsw));
		lj_json_add(u, "involuntary_ctxt_switches", lj_json_int(ru.ru_nivcsw));
	}
	lj_json_add(side, "rusage", u);
	lj_json_add(side, "failed_workers", lj_json_int(run->failed_workers));
	lj_json_add(side, "worker_error", run->worker_err ?
	    json_object_new_string(lj_strerror(run->worker_err)) : NULL);
	lj_json_add(side, "partial_bytes", lj_json_int((int64_t)run->partial));
	/* forked receivers' late messages their ring could not take: --explain never saw them */
	if (run->ring_off)
		lj_json_add(side, "late_messages_dropped", lj_json_int((int64_t)run->forward_dropped));
}

int hb_report_json(const struct hb_run *run, struct lj_result *res)
{
	const struct hb_config *cfg = run->cfg;
	json_object *o = json_object_new_object();
	double secs = elapsed_s(run);
	double rate = secs > 0 ? run->msgs / secs : 0;

	if (!o)
		return -ENOMEM;
	json_params(run, lj_result_params(res));
	lj_json_add(o, "kind", json_object_new_string("messaging"));
	lj_json_add(o, "time_ns", lj_json_int(run->end_ns - run->start_ns));
	lj_json_add(o, "messages", lj_json_int((int64_t)run->msgs));
	lj_json_add(o, "expected_messages",
	    cfg->load ? NULL : lj_json_int((int64_t)cfg->groups * cfg->fds * cfg->fds * cfg->loops));
	lj_json_add(o, "msgs_per_s", lj_json_num(rate));
	lj_json_add(o, "bytes_per_s", lj_json_num(rate * cfg->datasize));
	lj_json_add(o, "bad_stamps", lj_json_int((int64_t)run->bad));
	json_latency(run, o);
	if (cfg->load) {
		json_object *a = json_object_new_array();

		for (size_t i = 0; i < run->nsec; i++)
			json_object_array_add(a, lj_json_int((int64_t)run->per_sec[i]));
		lj_json_add(o, "msgs_per_second", a);
	}
	json_object_array_add(lj_result_results(res), o);
	json_side(run, lj_result_side(res));

	lj_result_summary(res, "time", secs, "s", LJ_BETTER_LOWER);
	lj_result_summary(res, "msgs_per_s", rate, "1/s", LJ_BETTER_HIGHER);
	if (run->stamps && lj_hist_count(run->lat)) {
		/* named for what they are, so lj-compare never lists them beside wake-up latencies */
		lj_result_summary_hist(res, "delay_", run->lat);
	}
	/* hackbench writes no JSON: rt-tests' common keys only (cmdline:, return_code, ...). */
	lj_rtjson_header(lj_result_root(res));
	return 0;
}
