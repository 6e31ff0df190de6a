// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_load - lj-compare's loader (tools/compare/load.c) on any files.
 * The first input byte picks the shape: bit 0 clear, the rest is one
 * result file given by path; set, the rest is split at the first NUL into
 * a run directory's manifest.json and the result file its cells may name
 * ("r.json"). Bit 1 adds --by cgroup, bit 2 a --metrics filter. The data
 * loaded is then sorted and freed, as lj-compare does before analysing.
 */
#include "../fuzz.h"
#include "lj_err.h"
#include "../../../tools/compare/compare.h"

#include <limits.h>
#include <sys/stat.h>

static char file[PATH_MAX], rundir[512], manifest[PATH_MAX], result[PATH_MAX];

static void paths(void)
{
	const char *dir = fuzz_tmpdir();

	snprintf(file, sizeof(file), "%s/set.json", dir);
	snprintf(rundir, sizeof(rundir), "%s/run", dir);
	snprintf(manifest, sizeof(manifest), "%s/manifest.json", rundir);
	snprintf(result, sizeof(result), "%s/r.json", rundir);
	if (mkdir(rundir, 0700)) {
		perror(rundir);
		abort();
	}
	/* lj-compare's warnings about skipped files: expected here, not news. */
	lj_err_set_verbosity(-1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cmp_config cfg = { .alpha = 0.05, .cv_warn = 10 };
	struct cmp_data d;
	char *arg[1];

	if (!size)
		return 0;
	if (!file[0])
		paths();
	cfg.by = data[0] & 2 ? "cgroup" : NULL;
	cfg.metrics = data[0] & 4 ? "p99,max,fps" : NULL;
	if (!(data[0] & 1)) {
		fuzz_write(file, data + 1, size - 1);
		arg[0] = file;
	} else {
		const uint8_t *nul = memchr(data + 1, '\0', size - 1);
		size_t mlen = nul ? (size_t)(nul - data - 1) : size - 1;

		fuzz_write(manifest, data + 1, mlen);
		fuzz_write(result, nul ? nul + 1 : data, nul ? size - mlen - 2 : 0);
		arg[0] = rundir;
	}
	memset(&d, 0, sizeof(d));
	if (!cmp_load(&d, &cfg, arg, 1)) {
		fuzz_assert(d.nsets >= 0 && d.nsets <= CMP_MAX_SETS);
		cmp_sort_rows(&d);
		for (size_t i = 0; i < d.nrows; i++)
			fuzz_assert(d.rows[i]->workload && d.rows[i]->cell && d.rows[i]->metric);
	}
	cmp_free(&d);
	return 0;
}
