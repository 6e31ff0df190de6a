/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_sysinfo - host and kernel identity recorded in every result (docs/system-identity.md). */
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
 * docs/system-identity.md lists every key.
 */
json_object *lj_sysinfo_collect(void);

/*
 * Fields of two system blocks that differ, for lj-compare headers. Nested
 * keys are flattened with dots ("preempt.mode", "cpukinds.0.cpus"); a
 * field missing on one side is given as "(absent)". @fn (may be NULL) is
 * called once per differing field: @a's keys in @a's order, then keys
 * only @b has. Return: the number of differing fields, or -ENOMEM.
 */
int lj_sysinfo_diff(json_object *a, json_object *b,
		    void (*fn)(const char *key, const char *va, const char *vb, void *arg),
		    void *arg);

/*
 * The kernel-config part of the block (hz, no_hz, config_path,
 * config_sha256, config {...}) added to @sys; exposed for unit tests.
 */
struct lj_kconfig;
void lj_sysinfo_add_kconfig(json_object *sys, const struct lj_kconfig *k);

#endif
