// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_cpus - CPU selectors (all, online, big, little, big:N, lists) and pinning. */
#include "lj_cpus.h"
#include "lj_parse.h"
#include "lj_topo.h"
#include "lj_why.h"

#include <ctype.h>
#include <stdbool.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every CPU of @set must exist (be online) and be allowed. */
static int check_usable(const struct lj_topo *t, const cpu_set_t *set, char *why, size_t len)
{
	char list[96];
	int cpu;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, set))
			continue;
		if (!CPU_ISSET(cpu, &t->online))
			return lj_why_err(why, len, -EINVAL, "CPU %d does not exist (online: %s)",
					  cpu, lj_cpulist_format(&t->online, list, sizeof(list)));
		if (!CPU_ISSET(cpu, &t->allowed))
			return lj_why_err(why, len, -EINVAL, "CPU %d is not allowed (allowed: %s)",
					  cpu, lj_cpulist_format(&t->allowed, list, sizeof(list)));
	}
	return 0;
}

/*
 * The @n-th core (0-based, ordered by lowest CPU number) among the CPUs
 * of @kind: all its SMT siblings. Cores are counted over the machine, not
 * over the allowed CPUs, so big:1 names the same core in every cpuset.
 */
static int nth_core(const struct lj_topo *t, const cpu_set_t *kind, int n, cpu_set_t *out,
		    int *ncores)
{
	cpu_set_t seen, sib;
	int cpu, count = 0, found = 0;

	CPU_ZERO(&seen);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, kind) || CPU_ISSET(cpu, &seen))
			continue;
		if (lj_topo_smt_siblings(t, cpu, &sib)) {
			CPU_ZERO(&sib);
			CPU_SET(cpu, &sib);
		}
		CPU_AND(&sib, &sib, kind);
		CPU_OR(&seen, &seen, &sib);
		if (count == n) {
			*out = sib;
			found = 1;
		}
		count++;
	}
	*ncores = count;
	return found ? 0 : -ERANGE;
}

static int select_kind(const struct lj_topo *t, const char *sel, struct lj_cpu_selection *out,
		       char *why, size_t len)
{
	bool big = !strncmp(sel, "big", 3);
	const char *word = big ? "big" : "little";
	const char *rest = sel + strlen(word);
	int k, n = -1, ncores, ret;
	cpu_set_t kind, dropped;
	char l1[96], l2[96];

	if (*rest == ':') {
		ret = lj_parse_int(rest + 1, 0, CPU_SETSIZE - 1, &n, why, len);
		if (ret)
			return ret;
	} else if (*rest) {
		return lj_why_err(why, len, -EINVAL, "unknown selector '%s'", sel);
	}
	if (t->nkinds < 1)
		return lj_why_err(why, len, -EINVAL, "no CPU kinds known");
	k = big ? t->nkinds - 1 : 0;
	kind = t->kinds[k].cpus;
	if (t->nkinds == 1) {
		if (n < 0) {
			/* Same as "all": what the process may use, not what is online. */
			out->set = t->affinity;
			snprintf(out->note, sizeof(out->note), "one core kind: %s means all CPUs", word);
			return 0;
		}
		snprintf(out->note, sizeof(out->note),
			 "one core kind: %s:%d is core %d of all CPUs", word, n, n);
	}
	if (n >= 0) {
		if (nth_core(t, &kind, n, &out->set, &ncores))
			return ncores == 1 ?
				lj_why_err(why, len, -ERANGE, "only 1 %s core: %s:0", word, word) :
				lj_why_err(why, len, -ERANGE, "only %d %s cores: %s:0 to %s:%d",
					   ncores, word, word, word, ncores - 1);
		return check_usable(t, &out->set, why, len);
	}
	CPU_AND(&out->set, &kind, &t->allowed);
	if (!CPU_COUNT(&out->set))
		return lj_why_err(why, len, -EINVAL, "no %s CPU is allowed (%s: %s, allowed: %s)",
				  word, word, lj_cpulist_format(&kind, l1, sizeof(l1)),
				  lj_cpulist_format(&t->allowed, l2, sizeof(l2)));
	CPU_XOR(&dropped, &kind, &out->set);
	if (CPU_COUNT(&dropped))
		snprintf(out->note, sizeof(out->note), "%s CPUs %s are not allowed: using %s", word,
			 lj_cpulist_format(&dropped, l1, sizeof(l1)),
			 lj_cpulist_format(&out->set, l2, sizeof(l2)));
	return 0;
}

int lj_cpus_select(const struct lj_topo *t, const char *selector,
		   struct lj_cpu_selection *out, char *why, size_t len)
{
	int ret;

	memset(out, 0, sizeof(*out));
	if (!selector || !*selector)
		return lj_why_err(why, len, -EINVAL, "empty CPU selector");
	snprintf(out->spec, sizeof(out->spec), "%s", selector);
	if (!strcmp(selector, "all")) {
		out->set = t->affinity;
		ret = CPU_COUNT(&out->set) ? 0 : lj_why_err(why, len, -EINVAL, "no CPU is allowed");
	} else if (!strcmp(selector, "online")) {
		out->set = t->online;
		ret = check_usable(t, &out->set, why, len);
	} else if (!strncmp(selector, "big", 3) || !strncmp(selector, "little", 6)) {
		ret = select_kind(t, selector, out, why, len);
	} else if (isdigit((unsigned char)*selector)) {
		ret = lj_parse_cpulist(selector, &out->set, CPU_SETSIZE, why, len);
		if (!ret)
			ret = check_usable(t, &out->set, why, len);
	} else {
		ret = lj_why_err(why, len, -EINVAL,
				 "unknown selector (all, online, big, little, big:N, little:N or a list like 0-3,6)");
	}
	if (ret)
		CPU_ZERO(&out->set);
	return ret;
}

int lj_cpus_pin(pid_t tid, const cpu_set_t *set)
{
	return sched_setaffinity(tid, sizeof(*set), set) ? -errno : 0;
}

int lj_cpus_keep_off(const cpu_set_t *avoid)
{
	cpu_set_t set;
	bool moved = false;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, avoid) && CPU_ISSET(c, &set)) {
			CPU_CLR(c, &set);
			moved = true;
		}
	if (!CPU_COUNT(&set))
		return 0;
	return !moved || !sched_setaffinity(0, sizeof(set), &set);
}

int lj_cpus_pin_one(pid_t tid, int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return lj_cpus_pin(tid, &set);
}

int lj_cpus_to_array(const cpu_set_t *set, int *cpus, int max)
{
	int cpu, n = 0;

	for (cpu = 0; cpu < CPU_SETSIZE && n < max; cpu++)
		if (CPU_ISSET(cpu, set))
			cpus[n++] = cpu;
	return n;
}

int lj_cpus_node(int cpu)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int node = 0;

	if (cpu < 0)
		return 0;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir)))
		if (!strncmp(d->d_name, "node", 4) && d->d_name[4] >= '0' && d->d_name[4] <= '9') {
			node = atoi(d->d_name + 4);
			break;
		}
	closedir(dir);
	return node;
}
