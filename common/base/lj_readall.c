// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_readall - read a whole input file with a size bound: results, manifests, scenarios. */
#include "lj_readall.h"
#include "lj_why.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int say(char *why, size_t why_len, int ret, const char *text)
{
	lj_why(why, why_len, "%s", text);
	return ret;
}

/* Read @fd to its end, never holding more than @max + 1 bytes. */
static int read_bounded(int fd, size_t max, char **out, size_t *len)
{
	size_t cap = max < 65536 ? max + 2 : 65536, n = 0;
	char *buf = malloc(cap), *nb;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t got;

		if (cap - n < 2) {
			size_t ncap = cap * 2 > max + 2 ? max + 2 : cap * 2;

			/* cap reaches max + 2 before n can pass max: ncap > cap here */
			nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap = ncap;
		}
		got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(buf);
			return -errno;
		}
		if (!got)
			break;
		n += (size_t)got;
		if (n > max) {
			free(buf);
			return -EFBIG;
		}
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

int lj_readall(const char *path, size_t max, char **out, size_t *len, char *why, size_t why_len)
{
	char big[64];
	struct stat st;
	int fd = STDIN_FILENO, ret;

	*out = NULL;
	*len = 0;
	lj_why(why, why_len, "%s", "");
	snprintf(big, sizeof(big), "larger than %zu bytes", max);
	if (strcmp(path, "-")) {
		/* O_NONBLOCK: opening a FIFO must not wait for a writer */
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		if (fd < 0)
			return say(why, why_len, -errno, strerror(errno));
		if (fstat(fd, &st) < 0) {
			ret = -errno;
			close(fd);
			return say(why, why_len, ret, strerror(-ret));
		}
		if (!S_ISREG(st.st_mode)) {
			close(fd);
			return say(why, why_len, -EINVAL, "not a regular file");
		}
		if ((unsigned long long)st.st_size > max) {
			close(fd);
			return say(why, why_len, -EFBIG, big);
		}
		/* a regular file reads the same blocking or not; clear it anyway */
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	}
	ret = read_bounded(fd, max, out, len);
	if (fd != STDIN_FILENO)
		close(fd);
	if (ret == -EFBIG)
		return say(why, why_len, ret, big);
	return ret ? say(why, why_len, ret, strerror(-ret)) : 0;
}
