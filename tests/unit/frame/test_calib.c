// SPDX-License-Identifier: GPL-2.0-or-later
/* test_calib - lj-frame's stored calibration file: round trip, lookup, bad lines, where it lives. */
#include "../../../tools/frame/frame.h"
#include "../tap.h"

#include <stdlib.h>
#include <unistd.h>

static void test_round_trip(const char *dir)
{
	struct frm_calib_entry e[2] = {
		{ "Model A", 0, "little", 1800000, 1234.5, 1700000000 },
		{ "Model A", 1, "", 0, 850.25, 1700000001 },
	}, back[4];
	char path[512];
	int n;

	snprintf(path, sizeof(path), "%s/sub/dir/frame-calibration", dir);
	is_int(frm_calib_load(path, back, 4), 0, "no file yet: nothing stored, not an error");
	is_int(frm_calib_save(path, e, 2), 0, "save creates the directories and the file");
	n = frm_calib_load(path, back, 4);
	is_int(n, 2, "both entries read back");
	ok(n == 2 && !strcmp(back[0].model, "Model A") && back[0].kind == 0 &&
	   !strcmp(back[0].kind_name, "little") && back[0].khz == 1800000 &&
	   back[0].ns_per_unit == 1234.5 && back[0].measured_at == 1700000000, "first entry exact");
	ok(n == 2 && back[1].kind_name[0] == '\0' && back[1].khz == 0 && back[1].ns_per_unit == 850.25,
	   "an unnamed kind and unknown clock survive the round trip");
	ok(frm_calib_find(back, n, "Model A", 1) == &back[1], "lookup by model and kind");
	ok(!frm_calib_find(back, n, "Model B", 1) && !frm_calib_find(back, n, "Model A", 2),
	   "another model or kind is not found");
}

static void test_bad_lines(const char *dir)
{
	struct frm_calib_entry back[4];
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/bad", dir);
	f = fopen(path, "w");
	if (f) {
		fputs("# comment\nv2\tX\t0\t-\t0\t1.0\t1\nv1\tX\t0\t-\t0\n"
		      "v1\tX\t0\t-\t0\t-5\t1\nv1\tY\t3\tbig\t0\t900.5\t7\n", f);
		fclose(f);
	}
	is_int(frm_calib_load(path, back, 4), 1, "unknown versions, short lines and non-positive figures are skipped");
	ok(!strcmp(back[0].model, "Y") && back[0].kind == 3, "...the good line is kept");
}

static void test_path(void)
{
	struct frm_config cfg;
	char buf[512];

	frm_config_init(&cfg);
	setenv("LJ_FRAME_CALIBRATION", "/x/env-calib", 1);
	ok(!frm_calib_path(&cfg, buf, sizeof(buf)) && !strcmp(buf, "/x/env-calib"), "the environment overrides");
	cfg.calib_file = "/x/opt-calib";
	ok(!frm_calib_path(&cfg, buf, sizeof(buf)) && !strcmp(buf, "/x/opt-calib"), "--calibration-file overrides both");
	unsetenv("LJ_FRAME_CALIBRATION");
}

int main(void)
{
	char dir[] = "/tmp/ljcalib.XXXXXX", cmd[64];
	int ret;

	plan(11);
	if (!mkdtemp(dir))
		return 1;
	test_round_trip(dir);
	test_bad_lines(dir);
	test_path();
	ret = done();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	return ret;
}
