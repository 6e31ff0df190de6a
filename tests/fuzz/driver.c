// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * driver - runs a fuzz target over files without libFuzzer: what `make
 * check` builds with any compiler, so the seed corpora are a regression
 * test even where clang is missing. Usage: fuzz_X FILE|DIR...; every
 * regular file (a directory's entries, not recursively) is one input.
 * Prints "N inputs" and exits 0; a crash or sanitizer report is the failure.
 */
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Targets that need set-up define it (libFuzzer's optional hook). */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int run_file(const char *path)
{
	struct stat st;
	uint8_t *buf;
	ssize_t got = 0, r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "driver: %s: %s\n", path, strerror(errno));
		return -1;
	}
	/* One more byte than needed: never a zero-size malloc. */
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return -1;
	}
	while (got < st.st_size && (r = read(fd, buf + got, (size_t)(st.st_size - got))) > 0)
		got += r;
	close(fd);
	/* An exact-size copy, so ASan sees a read past the input's end. */
	uint8_t *exact = malloc((size_t)got ? (size_t)got : 1);

	if (exact) {
		memcpy(exact, buf, (size_t)got);
		LLVMFuzzerTestOneInput(exact, (size_t)got);
	}
	free(exact);
	free(buf);
	return exact ? 0 : -1;
}

static int run_path(const char *path, int *count)
{
	struct dirent **list;
	struct stat st;
	int n, bad = 0;

	if (stat(path, &st)) {
		fprintf(stderr, "driver: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return run_file(path);
	}
	n = scandir(path, &list, NULL, alphasort);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		char sub[4096];

		snprintf(sub, sizeof(sub), "%s/%s", path, list[i]->d_name);
		if (list[i]->d_name[0] != '.' && !stat(sub, &st) && S_ISREG(st.st_mode)) {
			(*count)++;
			bad |= run_file(sub);
		}
		free(list[i]);
	}
	free(list);
	return bad;
}

int main(int argc, char **argv)
{
	int count = 0, bad = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++)
		bad |= run_path(argv[i], &count);
	printf("%d inputs\n", count);
	return bad ? 1 : 0;
}
