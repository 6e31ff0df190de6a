/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz.h - what every fuzz target shares: the libFuzzer entry point and small helpers. */
#ifndef LJ_FUZZ_H
#define LJ_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

/* libFuzzer's entry point; tests/fuzz/driver.c calls it without libFuzzer. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A NUL-terminated copy of the input (parsers take C strings); free() it. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

/* A broken invariant: abort, which libFuzzer and the driver report as a crash. */
#define fuzz_assert(cond) \
	do { \
		if (!(cond)) \
			fuzz_fail(#cond, __FILE__, __LINE__); \
	} while (0)

static inline __attribute__((noreturn)) void fuzz_fail(const char *what, const char *file, int line)
{
	fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, what);
	abort();
}

/*
 * A private directory for targets whose reader takes a path (results,
 * lj-compare's run directories): created once under $TMPDIR, removed at
 * exit with what the target wrote into it.
 */
static char fuzz_dir[256];	/* short: the targets append file names to it */

static inline int fuzz_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path) ? -1 : 0;
}

static inline void fuzz_rm_dir(void)
{
	if (fuzz_dir[0] && nftw(fuzz_dir, fuzz_rm_one, 8, FTW_DEPTH | FTW_PHYS))
		fprintf(stderr, "fuzz: could not remove %s\n", fuzz_dir);
}

static inline const char *fuzz_tmpdir(void)
{
	if (!fuzz_dir[0]) {
		const char *t = getenv("TMPDIR");

		/* Memory, not disk, when TMPDIR says nothing: a file is written per input. */
		if (!t || !*t)
			t = access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm";
		snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/ljkit-fuzz.XXXXXX", t);
		if (!mkdtemp(fuzz_dir)) {
			perror("fuzz: mkdtemp");
			abort();
		}
		atexit(fuzz_rm_dir);
	}
	return fuzz_dir;
}

/* Write @size bytes to @path (created or truncated); abort on failure. */
static inline void fuzz_write(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "we");

	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f)) {
		perror(path);
		abort();
	}
}

#endif
