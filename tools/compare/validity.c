// SPDX-License-Identifier: GPL-2.0-or-later
/* validity - the runs' validity verdicts per set, and the warnings a comparison needs about them. */
#include "compare.h"
#include "lj_err.h"
#include "lj_sysinfo.h"

#include <string.h>

void cmp_note_validity(struct cmp_data *d, int set, json_object *doc)
{
	json_object *v, *verdict;
	const char *s;

	if (!json_object_object_get_ex(doc, "validity", &v) ||
	    !json_object_object_get_ex(v, "verdict", &verdict)) {
		d->sets[set].nvalidity[CMP_VALIDITY_UNKNOWN]++;
		return;
	}
	s = json_object_get_string(verdict);
	d->sets[set].nvalidity[!strcmp(s, "valid") ? CMP_VALIDITY_VALID :
			       !strcmp(s, "suspect") ? CMP_VALIDITY_SUSPECT :
			       !strcmp(s, "invalid") ? CMP_VALIDITY_INVALID : CMP_VALIDITY_UNKNOWN]++;
}

const char *const cmp_validity_names[CMP_VALIDITY_N] = { "valid", "suspect", "invalid", "no verdict" };

/* "6 valid, 2 suspect" */
void cmp_validity_text(const struct cmp_set *s, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int k = 0; k < CMP_VALIDITY_N && used < len; k++)
		if (s->nvalidity[k])
			used += snprintf(buf + used, len - used, "%s%zu %s", used ? ", " : "", s->nvalidity[k],
					 cmp_validity_names[k]);
}

struct idiff {
	int n;
	char keys[256];
};

static void count_diff(const char *key, const char *va, const char *vb, void *arg)
{
	struct idiff *c = arg;
	size_t used = strlen(c->keys);

	(void)va;
	(void)vb;
	if (used < sizeof(c->keys))
		snprintf(c->keys + used, sizeof(c->keys) - used, "%s%s", c->n ? ", " : "", key);
	c->n++;
}

void cmp_validity_warn(const struct cmp_data *d)
{
	bool any_valid = false, any_other = false;

	for (int s = 0; s < d->nsets; s++) {
		any_valid |= d->sets[s].nvalidity[CMP_VALIDITY_VALID] > 0;
		any_other |= d->sets[s].nvalidity[CMP_VALIDITY_SUSPECT] + d->sets[s].nvalidity[CMP_VALIDITY_INVALID] > 0;
	}
	if (any_valid && any_other)
		lj_warn("the comparison mixes valid runs with suspect or invalid ones (see each set's validity)");
	else if (any_other)
		lj_warn("no compared run is valid: differences may come from the conditions, not the system");
	/* the compared axis is the set; any further identity difference is a second variable */
	for (int s = 1; s < d->nsets; s++) {
		struct idiff c = { 0, "" };

		if (!d->sets[0].system || !d->sets[s].system || d->sets[s].system == d->sets[0].system)
			continue;
		lj_sysinfo_diff(d->sets[0].system, d->sets[s].system, count_diff, &c);
		if (c.n > 1)
			lj_warn("%s and %s differ in %d identity fields (%s): a difference may come from any of them",
				d->sets[0].label, d->sets[s].label, c.n, c.keys);
	}
}
