// SPDX-License-Identifier: GPL-2.0-or-later
/* calib.c - lj-frame's stored calibration: ns per work unit per CPU model and core kind, in one small file. */
#include "frame.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CALIB_SYSTEM_DIR "/var/lib/ljkit"
#define CALIB_NAME "frame-calibration"

/* mkdir -p for the file's directory (0755). */
static int make_parent(const char *path)
{
	char dir[FRM_CALIB_PATH];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * Where the calibration lives: --calibration-file, else
 * $LJ_FRAME_CALIBRATION (tests), else /var/lib/ljkit/frame-calibration
 * when that directory is (or can be made) writable, else
 * $XDG_STATE_HOME/ljkit/frame-calibration (~/.local/state by default).
 */
int frm_calib_path(const struct frm_config *cfg, char *buf, size_t len)
{
	const char *env = getenv("LJ_FRAME_CALIBRATION"), *home, *state;

	if (cfg->calib_file || (env && *env)) {
		snprintf(buf, len, "%s", cfg->calib_file ? cfg->calib_file : env);
		return 0;
	}
	if ((!mkdir(CALIB_SYSTEM_DIR, 0755) || errno == EEXIST) && !access(CALIB_SYSTEM_DIR, W_OK)) {
		snprintf(buf, len, "%s/%s", CALIB_SYSTEM_DIR, CALIB_NAME);
		return 0;
	}
	state = getenv("XDG_STATE_HOME");
	home = getenv("HOME");
	if (state && *state)
		snprintf(buf, len, "%s/ljkit/%s", state, CALIB_NAME);
	else if (home && *home)
		snprintf(buf, len, "%s/.local/state/ljkit/%s", home, CALIB_NAME);
	else
		return -ENOENT;
	return 0;
}

/* One line: "v1<TAB>model<TAB>kind<TAB>kind name<TAB>khz<TAB>ns per unit<TAB>unix time". */
static bool parse_line(char *line, struct frm_calib_entry *e)
{
	char *f[7], *save = NULL;
	int n = 0;

	line[strcspn(line, "\n")] = '\0';
	for (char *tok = strtok_r(line, "\t", &save); tok && n < 7; tok = strtok_r(NULL, "\t", &save))
		f[n++] = tok;
	if (n != 7 || strcmp(f[0], "v1"))
		return false;
	snprintf(e->model, sizeof(e->model), "%s", f[1]);
	e->kind = atoi(f[2]);
	snprintf(e->kind_name, sizeof(e->kind_name), "%s", strcmp(f[3], "-") ? f[3] : "");
	e->khz = atol(f[4]);
	e->ns_per_unit = strtod(f[5], NULL);
	e->measured_at = atoll(f[6]);
	return e->ns_per_unit > 0;
}

/* Return: entries read (0 when there is no file yet) or -errno. */
int frm_calib_load(const char *path, struct frm_calib_entry *e, int max)
{
	char line[512];
	FILE *f = fopen(path, "r");
	int n = 0;

	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (n < max && fgets(line, sizeof(line), f))
		if (line[0] != '#' && parse_line(line, &e[n]))
			n++;
	fclose(f);
	return n;
}

/* Replace the file whole (a temporary renamed over it): readers see the old or the new one. */
int frm_calib_save(const char *path, const struct frm_calib_entry *e, int n)
{
	char tmp[FRM_CALIB_PATH + 16];
	FILE *f;
	int fd, ret = make_parent(path);

	if (ret)
		return ret;
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	fchmod(fd, 0644);
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		unlink(tmp);
		return ret;
	}
	fprintf(f, "# lj-frame calibration: ns per work unit per CPU model and core kind (docs/lj-frame.md)\n");
	for (int k = 0; k < n; k++)
		fprintf(f, "v1\t%s\t%d\t%s\t%ld\t%.6f\t%lld\n", e[k].model, e[k].kind,
			e[k].kind_name[0] ? e[k].kind_name : "-", e[k].khz, e[k].ns_per_unit,
			e[k].measured_at);
	if (ferror(f))
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

/* The entry for @model and @kind, or NULL. */
struct frm_calib_entry *frm_calib_find(struct frm_calib_entry *e, int n, const char *model, int kind)
{
	for (int k = 0; k < n; k++)
		if (e[k].kind == kind && !strcmp(e[k].model, model))
			return &e[k];
	return NULL;
}
