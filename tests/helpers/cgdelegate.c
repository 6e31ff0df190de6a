// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cgdelegate - mark a cgroup v2 group as systemd marks a unit's group it
 * delegates (Delegate=yes): the extended attribute trusted.delegate = "1".
 * For the tests of ljkit on a systemd-managed hierarchy, on machines (and
 * guests) that boot without systemd.
 *
 *   cgdelegate DIR
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: cgdelegate DIR\n");
		return 2;
	}
	if (setxattr(argv[1], "trusted.delegate", "1", 1, 0)) {
		fprintf(stderr, "cgdelegate: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	return 0;
}
