// SPDX-License-Identifier: GPL-2.0-or-later
/* calib.c - warn when the compared lj-frame runs converted --work-time with different calibrations. */
#include "compare.h"

#include <stdio.h>
#include <string.h>

#include "lj_err.h"

/*
 * lj-frame records the stored calibration it used in params.calibration_id
 * (docs/lj-frame.md). Two runs with different ones did different amounts
 * of work per frame for the same --work-time, so their drop figures are
 * not comparable as they stand: say so once, on stderr.
 */
void cmp_check_calibration(struct cmp_data *d, const char *path, json_object *doc)
{
	json_object *params, *id;
	const char *s;

	if (!json_object_object_get_ex(doc, "params", &params) ||
	    !json_object_object_get_ex(params, "calibration_id", &id) ||
	    !json_object_is_type(id, json_type_string))
		return;
	s = json_object_get_string(id);
	if (!d->calib_id[0]) {
		snprintf(d->calib_id, sizeof(d->calib_id), "%s", s);
		snprintf(d->calib_path, sizeof(d->calib_path), "%s", path);
		return;
	}
	if (d->calib_warned || !strncmp(d->calib_id, s, sizeof(d->calib_id) - 1))
		return;
	d->calib_warned = true;
	lj_warn("runs used different lj-frame calibrations ('%s' in %s, '%s' in %s):"
		" the same --work-time was a different amount of work", d->calib_id, d->calib_path, s, path);
}
