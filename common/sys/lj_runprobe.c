// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_runprobe - /proc/stat, the clock source and /dev/kmsg read around a run. */
#include "lj_runprobe.h"
#include "lj_clocksource.h"
#include "lj_validity.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	else
		buf[0] = '\0';
	fclose(f);
}

static int read_cpus(struct lj_runprobe *p, const cpu_set_t *cpus)
{
	FILE *f = fopen("/proc/stat", "re");
	char line[512];

	p->busy = p->steal = p->total = 0;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		uint64_t busy, steal, total;
		int cpu;

		if (lj_validity_parse_cpu_line(line, &cpu, &busy, &steal, &total) || cpu < 0 ||
		    cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, cpus))
			continue;
		p->busy += busy;
		p->steal += steal;
		p->total += total;
	}
	fclose(f);
	return 0;
}

/* The lowest and highest current frequency of @cpus; both 0 when unknown. */
static void read_freq(struct lj_runprobe *p, const cpu_set_t *cpus)
{
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		char path[96], buf[32];
		unsigned long khz;

		if (!CPU_ISSET(cpu, cpus))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
		read_line(path, buf, sizeof(buf));
		if (sscanf(buf, "%lu", &khz) != 1 || !khz) {
			p->freq_lo = p->freq_hi = 0;
			return;		/* one unknown CPU: the range is unknown */
		}
		if (!p->freq_lo || khz < p->freq_lo)
			p->freq_lo = khz;
		if (khz > p->freq_hi)
			p->freq_hi = khz;
	}
}

int lj_runprobe_read(struct lj_runprobe *p, const cpu_set_t *cpus, int kmsg)
{
	char line[1024];

	memset(p, 0, sizeof(*p));
	p->kmsg_fd = -1;
	lj_clocksource(p->clocksource, sizeof(p->clocksource));	/* "" when unknown */
	read_freq(p, cpus);
	lj_cgstat_read(0, &p->cg);	/* p->cg.known says whether it could */
	read_line("/proc/self/stat", line, sizeof(line));
	if (lj_validity_parse_proc_stat(line, &p->own))
		p->own = 0;
	if (kmsg) {
		p->kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (p->kmsg_fd >= 0 && lseek(p->kmsg_fd, 0, SEEK_END) < 0) {
			close(p->kmsg_fd);
			p->kmsg_fd = -1;
		}
	}
	return read_cpus(p, cpus);
}

void lj_runprobe_kmsg(struct lj_runprobe *p, void (*fn)(const char *msg, void *arg), void *arg)
{
	char rec[2048];
	ssize_t n;

	if (p->kmsg_fd < 0)
		return;
	/* one record per read: "prio,seq,usec,flags;message\n" */
	while ((n = read(p->kmsg_fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		char *msg;

		if (n < 0)
			continue;	/* records overwritten since the last read: go on */
		rec[n] = '\0';
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg[strcspn(msg, "\n")] = '\0';
		fn(msg + 1, arg);
	}
}

void lj_runprobe_close(struct lj_runprobe *p)
{
	if (p->kmsg_fd >= 0)
		close(p->kmsg_fd);
	p->kmsg_fd = -1;
}
