// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_pmqos - /dev/cpu_dma_latency hold and cpuidle state limits through libcpupower. */
#include "lj_pmqos.h"
#include "lj_setup.h"

#include <cpuidle.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define DMA_LATENCY_DEV "/dev/cpu_dma_latency"
#define CPU_SYSFS "/sys/devices/system/cpu"

int lj_pmqos_dma_latency_hold(int32_t us)
{
	int fd, ret;

	if (us < 0)
		return -EINVAL;
	fd = open(DMA_LATENCY_DEV, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* The binary form: the kernel also takes hex text, but 4 bytes are unambiguous. */
	if (write(fd, &us, sizeof(us)) != sizeof(us)) {
		ret = errno ? -errno : -EIO;
		close(fd);
		return ret;
	}
	return fd;
}

void lj_pmqos_dma_latency_release(int fd)
{
	if (fd >= 0)
		close(fd);
}

int lj_pmqos_idle_states(int cpu)
{
	unsigned int n = cpuidle_state_count((unsigned int)cpu);

	return n ? (int)n : -ENODEV;
}

/*
 * libcpupower answers -1 (no such state), -2 (no disable file) or -3
 * (write failed, whatever the cause): find the errno behind -3 ourselves.
 */
static int state_write_error(const char *path)
{
	if (access(path, W_OK))
		return -errno;
	return -EIO;
}

int lj_pmqos_idle_limit(struct lj_setup *s, const cpu_set_t *cpus, int max_state,
			char *why, size_t len)
{
	int changed = 0, ret;

	if (max_state < 0) {
		snprintf(why, len, "state index %d is negative", max_state);
		return -EINVAL;
	}
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		int n;

		if (!CPU_ISSET(cpu, cpus))
			continue;
		n = lj_pmqos_idle_states(cpu);
		if (n < 0) {
			snprintf(why, len, "no cpuidle states for cpu%d (no cpuidle driver)", cpu);
			return n;
		}
		for (int st = max_state + 1; st < n; st++) {
			char path[PATH_MAX], old[16];
			int dis = cpuidle_is_state_disabled(cpu, st);

			snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/cpuidle/state%d/disable", cpu, st);
			if (dis < 0) {
				snprintf(why, len, "cpu%d state%d has no disable switch", cpu, st);
				return -ENOTSUP;
			}
			if (dis == 1)
				continue;
			if (access(path, W_OK)) {
				ret = -errno;
				snprintf(why, len, "cannot write %s: %s", path, strerror(-ret));
				return ret;
			}
			snprintf(old, sizeof(old), "%d", dis);
			ret = lj_setup_push_file(s, path, old);
			if (ret) {
				snprintf(why, len, "%s: %s", path,
					 lj_setup_why(s, ret));
				return ret;
			}
			ret = cpuidle_state_disable(cpu, st, 1);
			if (ret) {
				ret = ret == -3 ? state_write_error(path) : -ENOTSUP;
				snprintf(why, len, "cannot write %s: %s", path, strerror(-ret));
				return ret;
			}
			changed++;
		}
	}
	return changed;
}
