/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fake_kernel.h - unit-test helper: a fake /sys/kernel (debugfs sched/preempt) in a private mount namespace. */
#ifndef LJ_FAKE_KERNEL_H
#define LJ_FAKE_KERNEL_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* Write @text over @path. O_TRUNC: fake files are plain files. Return: 0 or -errno. */
static inline int fake_kernel_put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -EIO;
}

/* As a user: become root of a new user namespace (what unshare -Ur does). */
static inline int fake_kernel_user_namespace(void)
{
	char map[64];
	uid_t uid = getuid();
	gid_t gid = getgid();

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS))
		return -1;
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)uid);
	if (fake_kernel_put("/proc/self/uid_map", map))
		return -1;
	fake_kernel_put("/proc/self/setgroups", "deny\n");
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)gid);
	return fake_kernel_put("/proc/self/gid_map", map) ? -1 : 0;
}

/*
 * In a forked child: a private mount namespace (unshare -m as root,
 * unshare -Urm otherwise) with a tmpfs over /sys/kernel holding an empty
 * debug/sched. The machine's own debugfs and tracefs mounts (systemd
 * mounts debugfs) are detached in that namespace first: covered, they
 * would still be listed in mountinfo, and "debugfs not mounted" is one of
 * the states the tests make. Return: 0 or -1.
 */
static inline int fake_kernel_enter(void)
{
	if (unshare(CLONE_NEWNS) && (errno != EPERM || fake_kernel_user_namespace()))
		return -1;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -1;
	umount2("/sys/kernel/debug", MNT_DETACH);
	umount2("/sys/kernel/tracing", MNT_DETACH);
	if (mount("ljtest", "/sys/kernel", "tmpfs", 0, "size=64k"))
		return -1;
	if (mkdir("/sys/kernel/debug", 0755) || mkdir("/sys/kernel/debug/sched", 0755))
		return -1;
	return 0;
}

#endif
