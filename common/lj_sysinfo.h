/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_sysinfo - host and kernel identity recorded in every result (DESIGN.md section 6). */
#ifndef LJ_SYSINFO_H
#define LJ_SYSINFO_H

#include <json-c/json.h>

/*
 * The "system" block: hostname, kernel release/version, machine,
 * preempt {model, dynamic, mode, source}, hz, no_hz, config {CONFIG_PREEMPT*,
 * CONFIG_CGROUPS, CONFIG_RT_GROUP_SCHED, ...}, config_sha256, cmdline,
 * cgroup_mode (v1/v2/hybrid/none), cpufreq {driver, governors per policy}
 * or "unavailable: ...", cpuidle {driver, governor}, cpu_model, online
 * CPUs, cpukinds, virtualised (hypervisor name or false).
 * A field this machine does not expose is {"unknown": "reason"} rather than
 * missing. Never fails: returns NULL only on ENOMEM.
 */
json_object *lj_sysinfo_collect(void);

/* Fields of two system blocks that differ, as "key: a -> b" lines, for lj-compare headers. */
int lj_sysinfo_diff(json_object *a, json_object *b,
		    void (*fn)(const char *key, const char *va, const char *vb, void *arg),
		    void *arg);

#endif
