// SPDX-License-Identifier: GPL-2.0-or-later
/* limits.c - lj-hackbench's resource checks before start: open files, tasks, message queues. */
#include "hb.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lj_err.h"
#include "lj_parse.h"

#define CAP_SYS_RESOURCE_BIT 24
/* Kernel bookkeeping per queued message (struct msg_msg and the priority tree node). */
#define HB_MQ_MSG_OVERHEAD 96
#define HB_HARD_MSGSIZEMAX (16 << 20)

static int read_long(const char *path, long long *out)
{
	char buf[64];
	FILE *f = fopen(path, "re");
	int64_t v;

	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	if (lj_parse_i64(buf, INT64_MIN, INT64_MAX, &v, NULL, 0))
		return -EINVAL;
	*out = v;
	return 0;
}

/* CAP_SYS_RESOURCE lifts the queue count and size sysctls (not RLIMIT_MSGQUEUE). */
static bool has_sys_resource(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");
	bool yes = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long caps;

		if (sscanf(line, "CapEff: %llx", &caps) == 1) {
			yes = caps & (1ULL << CAP_SYS_RESOURCE_BIT);
			break;
		}
	}
	fclose(f);
	return yes;
}

/* Raise the soft limit toward @need when the hard limit allows; else say what is needed. */
static int need_rlimit(int res, const char *name, const char *ulimit_flag, unsigned long long need,
		       const char *what)
{
	struct rlimit rl;

	if (getrlimit(res, &rl))
		return 0;
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need) {
		rl.rlim_cur = need;
		if (!setrlimit(res, &rl)) {
			lj_info("raised %s to %llu", name, need);
			return 0;
		}
	}
	lj_error("needs %llu %s, but %s is %llu (hard %llu): raise it with ulimit %s %llu",
		 need, what, name, (unsigned long long)rl.rlim_cur,
		 (unsigned long long)rl.rlim_max, ulimit_flag, need);
	return LJ_EXIT_NOCAP;
}

static int check_tasks(unsigned long long tasks)
{
	long long threads_max, pid_max;
	unsigned long long running, total = 0;
	FILE *f = fopen("/proc/loadavg", "re");
	int ret;

	/* RLIMIT_NPROC counts threads too; root (CAP_SYS_RESOURCE/ADMIN) is exempt. */
	if (geteuid() != 0) {
		ret = need_rlimit(RLIMIT_NPROC, "RLIMIT_NPROC", "-u", tasks + 1, "tasks");
		if (ret)
			return ret;
	}
	if (f) {
		if (fscanf(f, "%*s %*s %*s %llu/%llu", &running, &total) != 2)
			total = 0;
		fclose(f);
	}
	if (!read_long("/proc/sys/kernel/threads-max", &threads_max) &&
	    tasks + total > (unsigned long long)threads_max) {
		lj_error("needs %llu tasks with %llu already running, but /proc/sys/kernel/threads-max "
			 "is %lld: raise it with sysctl kernel.threads-max=%llu",
			 tasks, total, threads_max, tasks + total + 64);
		return LJ_EXIT_NOCAP;
	}
	if (!read_long("/proc/sys/kernel/pid_max", &pid_max) &&
	    tasks + total > (unsigned long long)pid_max) {
		lj_error("needs %llu tasks with %llu already running, but /proc/sys/kernel/pid_max "
			 "is %lld: raise it with sysctl kernel.pid_max=%llu",
			 tasks, total, pid_max, tasks + total + 64);
		return LJ_EXIT_NOCAP;
	}
	return 0;
}

static int check_mq(const struct hb_config *cfg)
{
	unsigned long long queues = (unsigned long long)cfg->groups * cfg->fds;
	unsigned long long bytes = queues * HB_MQ_MAXMSG * (cfg->datasize + HB_MQ_MSG_OVERHEAD);
	bool cap = has_sys_resource();
	long long v;

	if (!cap && !read_long("/proc/sys/fs/mqueue/queues_max", &v) && (long long)queues > v) {
		lj_error("needs %llu message queues, but /proc/sys/fs/mqueue/queues_max is %lld: "
			 "raise it with sysctl fs.mqueue.queues_max=%llu", queues, v, queues);
		return LJ_EXIT_NOCAP;
	}
	if (!cap && !read_long("/proc/sys/fs/mqueue/msg_max", &v) && v < HB_MQ_MAXMSG) {
		lj_error("needs queues of %d messages, but /proc/sys/fs/mqueue/msg_max is %lld: "
			 "raise it with sysctl fs.mqueue.msg_max=%d", HB_MQ_MAXMSG, v, HB_MQ_MAXMSG);
		return LJ_EXIT_NOCAP;
	}
	if (!cap && !read_long("/proc/sys/fs/mqueue/msgsize_max", &v) && cfg->datasize > v) {
		lj_error("needs messages of %u bytes, but /proc/sys/fs/mqueue/msgsize_max is %lld: "
			 "raise it with sysctl fs.mqueue.msgsize_max=%u", cfg->datasize, v, cfg->datasize);
		return LJ_EXIT_NOCAP;
	}
	if (cfg->datasize > HB_HARD_MSGSIZEMAX)
		return lj_usage_error("--datasize %u is above the kernel's message queue maximum of %d bytes",
				      cfg->datasize, HB_HARD_MSGSIZEMAX);
	return need_rlimit(RLIMIT_MSGQUEUE, "RLIMIT_MSGQUEUE", "-q", bytes, "bytes of message queues");
}

/*
 * Everything a run needs that the system may refuse half-way: checked
 * before the first worker starts, so a failure names the limit and the
 * number needed instead of a fork or socket error in the middle.
 */
int hb_check_limits(const struct hb_config *cfg)
{
	unsigned long long nrecv = (unsigned long long)cfg->groups * cfg->fds;
	unsigned long long files;
	int ret;

	/*
	 * stdio, the ready and wake pipes and some slack, plus the channels:
	 * threads hold every end at once; forking main closes each group's
	 * ends once its workers have them (queues stay open for the end marker).
	 */
	files = 3 + 4 + 16;
	if (cfg->transport == HB_MQ)
		files += nrecv;
	else if (cfg->mode == HB_THREAD)
		files += 2 * nrecv;
	else
		files += cfg->fds + 2;
	ret = need_rlimit(RLIMIT_NOFILE, "RLIMIT_NOFILE", "-n", files, "open files");
	if (!ret)
		ret = check_tasks(2 * nrecv);
	if (!ret && cfg->transport == HB_MQ)
		ret = check_mq(cfg);
	return ret;
}
