/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_clocksource - the kernel's current clocksource ("tsc", "kvm-clock", "arch_sys_counter", ...). */
#ifndef LJ_CLOCKSOURCE_H
#define LJ_CLOCKSOURCE_H

#include <stddef.h>

/*
 * Read by the validity verdict (before and after a run: a change means the
 * kernel stopped trusting its clock) and by lj-hackbench (TSC stamps only
 * where the kernel's clock is the TSC).
 * Return: 0 with the name in @buf, or -errno with @buf "" (unknown).
 */
int lj_clocksource(char *buf, size_t len);

#endif
