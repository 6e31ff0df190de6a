// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lj_setup_ns - whether the process a journal, a run file or a tracefs
 * instance names still lives, across namespaces: a pid means something
 * only in its PID namespace, and a container's run shares tracefs (and may
 * share the journal directory) with the host's. A process of another PID
 * namespace is judged only from the initial one, which sees them all;
 * elsewhere it is taken as alive: what it changed is left to a restore
 * that can see it.
 */
#include "lj_setup_priv.h"
#include "lj_file.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

/* PROC_PID_INIT_INO: the number the kernel gives the initial PID namespace (fixed since 3.8). */
#define PIDNS_INITIAL 0xEFFFFFFCULL

/* Field 22 of /proc/PID/stat: start time in clock ticks since boot. */
unsigned long long lj_setup_pid_starttime(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long v = 0;
	int field;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (lj_file_read(path, buf, sizeof(buf)) < 0)
		return 0;
	p = strrchr(buf, ')');	/* comm may hold spaces and parentheses */
	if (!p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X')
		return 0;	/* a zombie can change and undo nothing more: as gone as an exited process */
	for (field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		v = strtoull(p + 1, NULL, 10);
	return v;
}

unsigned long long lj_setup_pidns(void)
{
	struct stat st;

	if (!stat("/proc/self/ns/pid", &st))
		return (unsigned long long)st.st_ino;
	return PIDNS_INITIAL;	/* a kernel without PID namespaces has only the one */
}

bool lj_setup_pidns_initial(unsigned long long ns)
{
	return !ns || ns == PIDNS_INITIAL;
}

/* The last number of /proc/@pid/status's NSpid: the process's pid in its own namespace; 0 if none. */
static pid_t own_ns_pid(const char *pid)
{
	char path[PATH_MAX], buf[4096], *line, *end;
	long v = 0;

	snprintf(path, sizeof(path), "/proc/%s/status", pid);
	if (lj_file_read(path, buf, sizeof(buf)) < 0 || !(line = strstr(buf, "\nNSpid:")))
		return 0;
	for (line += 7; *line && *line != '\n'; line = end) {
		long n = strtol(line, &end, 10);

		if (end == line)
			break;
		v = n;
	}
	return v > 0 && v <= INT_MAX ? (pid_t)v : 0;
}

pid_t lj_setup_ns_member(const char *kind, const char *ns, pid_t ns_pid, unsigned long long start)
{
	DIR *dp = opendir("/proc");
	struct dirent *d;
	pid_t found = 0;

	if (!dp)
		return 0;
	while (!found && (d = readdir(dp))) {
		char link[64], path[PATH_MAX];
		ssize_t n;

		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/ns/%s", d->d_name, kind);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		if (strcmp(link, ns) || (ns_pid && own_ns_pid(d->d_name) != ns_pid))
			continue;
		found = (pid_t)atoi(d->d_name);
		if (start && lj_setup_pid_starttime(found) != start)
			found = 0;	/* that pid now another process's */
	}
	closedir(dp);
	return found;
}

static bool same_pidns(unsigned long long a, unsigned long long b)
{
	return lj_setup_pidns_initial(a) ? lj_setup_pidns_initial(b) : a == b;
}

bool lj_setup_owner_alive(pid_t pid, unsigned long long start, unsigned long long pidns)
{
	unsigned long long self = lj_setup_pidns();
	char ns[64];

	if (pid <= 0)
		return false;
	if (same_pidns(pidns, self)) {
		if (kill(pid, 0) && errno == ESRCH)
			return false;
		return !start || lj_setup_pid_starttime(pid) == start;
	}
	if (!lj_setup_pidns_initial(self) || lj_setup_pidns_initial(pidns))
		return true;	/* not a namespace below this one: its processes are out of sight */
	snprintf(ns, sizeof(ns), "pid:[%llu]", pidns);
	return lj_setup_ns_member("pid", ns, pid, start) > 0;
}

bool lj_setup_owner_self(pid_t pid, unsigned long long start, unsigned long long pidns)
{
	return pid == getpid() && same_pidns(pidns, lj_setup_pidns()) &&
	       (!start || start == lj_setup_pid_starttime(pid));
}

int lj_setup_owner_format(char *out, size_t len)
{
	unsigned long long ns = lj_setup_pidns();

	if (lj_setup_pidns_initial(ns))
		return snprintf(out, len, "%d", (int)getpid());
	return snprintf(out, len, "%d@%llu", (int)getpid(), ns);
}

const char *lj_setup_owner_parse(const char *s, pid_t *pid, unsigned long long *pidns)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*s))
		return NULL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || v <= 0 || v > INT_MAX)
		return NULL;
	*pid = (pid_t)v;
	*pidns = 0;
	if (*end == '@') {
		s = end + 1;
		if (!isdigit((unsigned char)*s))
			return NULL;
		*pidns = strtoull(s, &end, 10);
		if (errno || !*pidns)
			return NULL;
	}
	return end;
}
