/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_outfile - every output file ljkit writes (results, histograms, timelines, stores), written safely as root. */
#ifndef LJ_OUTFILE_H
#define LJ_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * ljkit runs as root and is handed output paths in directories other
 * users can write (/tmp). The rules (docs/security.md):
 *
 * - No link is followed blindly, as the last component or as a directory
 *   on the way (the directory is opened one component at a time). A link
 *   is followed only when it is "expected": owned by root or the writing
 *   user, or in a directory they own and nobody else can write. Otherwise
 *   the open fails with -ELOOP and @why says so (who owns the link).
 * - A regular file (new or existing) is written to a temporary file of
 *   our own beside it (NAME.tmp.PID, created O_EXCL|O_NOFOLLOW through
 *   the opened directory) and renamed over NAME at commit: a reader or a
 *   crash sees the old content or the new, never half, and a hard link
 *   to a file elsewhere is replaced, not written through.
 * - A device, FIFO or socket (/dev/null, /dev/stdout on a pipe) is
 *   written in place: renaming over it would replace the node itself.
 * - Nothing is unlinked or renamed over but our own temporary file.
 * - Every write error (ENOSPC, EIO, a failed fsync, close or rename)
 *   comes back from lj_outfile_commit.
 * "-" is standard output, through stdio (so it orders with other output).
 */
struct lj_outfile {
	int fd;			/* where the bytes go (-1: closed) */
	int dirfd;		/* the directory of @name, -1 when writing in place */
	char *name;		/* final name in dirfd */
	char *tmp;		/* our temporary name in dirfd, NULL in place */
	FILE *f;		/* lj_outfile_stdio's stream, owns fd */
	bool is_stdout;
};

/*
 * Open @path for writing. @why (may be NULL) gets a phrase when the path
 * is refused ("cannot write PATH: WHY"), "" when errno says it all.
 * Return: 0 or -errno (-EISDIR, -ELOOP for a symbolic link not followed,
 * -ENOENT for a missing directory, ...).
 */
int lj_outfile_open(struct lj_outfile *o, const char *path, char *why, size_t len);

/* Write all of @buf. Return: 0 or -errno. */
int lj_outfile_write(struct lj_outfile *o, const void *buf, size_t len);

/*
 * A stdio stream on the file, for fprintf-style writers; owned by @o
 * (closed by commit or abort). NULL when out of memory.
 */
FILE *lj_outfile_stdio(struct lj_outfile *o);

/*
 * Flush, fsync and rename the temporary file over the target (or close
 * the in-place one), then release @o. On any error the temporary file is
 * removed and the target keeps its old content. Return: 0 or the first -errno.
 */
int lj_outfile_commit(struct lj_outfile *o);

/* Give up: remove our temporary file, leave the target as it was, release @o. */
void lj_outfile_abort(struct lj_outfile *o);

/*
 * Could @path be written? Opens it as a write would (creating and
 * removing our own temporary file; a device or FIFO is only checked for
 * write permission, never opened). Return: 0 or -errno, @why as above.
 */
int lj_outfile_check(const char *path, char *why, size_t len);

/* Open, write @len bytes of @buf, commit: a whole file in one call. */
int lj_outfile_put(const char *path, const void *buf, size_t len, char *why, size_t why_len);

#endif
