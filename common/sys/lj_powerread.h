/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_powerread - read a power snapshot (cpufreq, cpuidle, powercap, hwmon, battery, thermal) from a sysfs tree. */
#ifndef LJ_POWERREAD_H
#define LJ_POWERREAD_H

#include "lj_power.h"

/*
 * @root is the sysfs mount ("/sys"; tests pass a fake tree). Reads
 * ROOT/devices/system/cpu/cpuN/{cpufreq,cpuidle,thermal_throttle},
 * ROOT/class/{powercap,hwmon,power_supply,thermal}. A source the machine
 * lacks is not an error: s->have[o] is false and s->why[o] says why.
 * Return: 0, or -ENOMEM.
 */
int lj_pw_read(const char *root, struct lj_pw_snap *s);

/* A snapshot with room for the CPUs (heap: it is large). NULL: out of memory. */
struct lj_pw_snap *lj_pw_snap_new(void);
void lj_pw_snap_free(struct lj_pw_snap *s);

#endif
