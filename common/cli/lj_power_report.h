/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_power_report - power figures as the result's "power" block and as "power: ..." lines. */
#ifndef LJ_POWER_REPORT_H
#define LJ_POWER_REPORT_H

#include <json-c/json.h>
#include <stdio.h>

#include "lj_power.h"

/*
 * @first: the first snapshot (which sources exist, why not); @f: the
 * figures (NULL: none derived); @throttle: why the run counts as throttled
 * ("" when it does not).
 */
json_object *lj_power_json(const struct lj_pw_snap *first, const struct lj_pw_figures *f, const char *throttle);
void lj_power_print(const struct lj_pw_snap *first, const struct lj_pw_figures *f, const char *throttle,
		    FILE *out);

#endif
