// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lj_setup_cgroup - undoing the cgroup entries: a group ljkit created
 * (its tasks back where they came from, its RT budget handed back, rmdir)
 * and a controller claimed in a cgroup v2 cgroup.subtree_control (disabled
 * by the last live run that claims it).
 */
#include "lj_setup_priv.h"
#include "lj_file.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SUBTREE_CONTROL "cgroup.subtree_control"

bool lj_setup_list_has(const char *list, const char *ctrl)
{
	size_t n = strlen(ctrl);

	for (const char *p = list; (p = strstr(p, ctrl)); p += n)
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' ' || p[n] == '\n'))
			return true;
	return false;
}

int lj_setup_undo_subtree(const struct lj_setup_entry *e, void (*say)(const char *, void *), void *arg)
{
	char why[PATH_MAX + 256] = "";
	int lock = lj_setup_lock_dir(why, sizeof(why)), ret;
	pid_t holder;

	if (lock < 0) {
		lj_setup_say(say, arg, "cannot restore %s to '%s': %s", e->path, e->old, why[0] ? why : strerror(-lock));
		return lock;
	}
	/* The claim lives on in another run: the controller stays until that one ends. */
	holder = lj_setup_claim_holder(NULL, e->path, e->old);
	if (holder > 0) {
		lj_setup_unlock_dir(lock);
		lj_setup_say(say, arg, "left %s enabled in %s: pid %d still uses it", e->old + 1, e->path, (int)holder);
		return 0;
	}
	ret = lj_file_write(e->path, e->old);
	lj_setup_unlock_dir(lock);
	if (ret == -ENOENT)	/* its group is gone already: nothing to disable */
		ret = 0;
	if (ret)
		lj_setup_say(say, arg, "cannot restore %s to '%s': %s", e->path, e->old, strerror(-ret));
	else
		lj_setup_say(say, arg, "restored %s to '%s'", e->path, e->old);
	return ret;
}

static bool is_group(const char *dir)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	return !access(path, F_OK);
}

static int move_to(const char *dest, const char *list, const char *id, char *to, size_t len)
{
	char path[PATH_MAX + 32];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dest, list);
	ret = lj_file_write(path, id);
	if (!ret || ret == -ESRCH)
		snprintf(to, len, "%s", dest);
	return ret;
}

/*
 * Move task @id (a process through @list "cgroup.procs", a thread through
 * v1's "tasks") out of group @dir: to @origin, where it came from, else to
 * the nearest ancestor of @dir that takes it (v2 refuses a group that hands
 * controllers down, v1 an RT task in a group without RT budget; the root
 * takes anything). Return: 0, -ESRCH when it exited meanwhile, or the
 * last refusal; @to receives where it went.
 */
static int move_task(const char *dir, const char *origin, const char *list, const char *id, char *to, size_t len)
{
	char dest[PATH_MAX];
	int ret = -ENOENT;
	bool up;

	if (origin && *origin && strcmp(origin, dir) && is_group(origin)) {
		ret = move_to(origin, list, id, to, len);
		if (!ret || ret == -ESRCH)
			return ret;
	}
	for (up = lj_file_parent(dir, dest, sizeof(dest)); up && is_group(dest); up = lj_file_parent(dest, dest, sizeof(dest))) {
		int r = origin && !strcmp(dest, origin) ? ret : move_to(dest, list, id, to, len);

		if (!r || r == -ESRCH)
			return r;
		ret = r;
	}
	return ret;
}

/*
 * Move every task still in group @dir out (move_task): whole processes
 * first (cgroup.procs moves all their threads, those that left the group
 * too, in v1 and v2), then, in v1, threads whose process is elsewhere.
 * Return: 0 or the first refusal; *moved counts, @to names the last place.
 */
static int move_tasks_out(const char *dir, const char *origin, int *moved, char *to, size_t len)
{
	static const char *const lists[] = { "cgroup.procs", "tasks" };
	char src[PATH_MAX + 32], buf[65536];
	int ret = 0;

	*moved = 0;
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		snprintf(src, sizeof(src), "%s/%s", dir, lists[i]);
		if (lj_file_read(src, buf, sizeof(buf)) < 0)
			continue;
		for (char *save = NULL, *id = strtok_r(buf, "\n", &save); id; id = strtok_r(NULL, "\n", &save)) {
			int r = move_task(dir, origin, lists[i], id, to, len);

			if (!r)
				(*moved)++;
			else if (r != -ESRCH && !ret)
				ret = r;
		}
	}
	return ret;
}

/*
 * A v1 cpu group keeps its cpu.rt_runtime_us after rmdir until the kernel
 * frees it, asynchronously, when the last reference to it goes (tasks
 * just reaped still hold one). Until then its budget still counts against
 * the parent's, invisible to anyone listing the parent's groups, and the
 * next group asking for the "free" budget gets EINVAL. So hand the budget
 * back before removing the group. It fails with EBUSY while RT tasks
 * remain: they are moved out first. No file (not a v1 cpu group): nothing.
 */
static void release_rt_budget(const char *dir, const char *origin)
{
	char path[PATH_MAX + 32], val[32], to[PATH_MAX];
	int moved;

	snprintf(path, sizeof(path), "%s/cpu.rt_runtime_us", dir);
	if (lj_file_read(path, val, sizeof(val)) <= 0 || !strcmp(val, "0"))
		return;
	if (lj_file_write(path, "0") == -EBUSY) {
		move_tasks_out(dir, origin, &moved, to, sizeof(to));
		lj_file_write(path, "0");
	}
}

static int remove_group(const char *dir, const char *origin, void (*say)(const char *, void *), void *arg)
{
	char to[PATH_MAX] = "";
	int moved = 0, ret = 0, why_busy = 0;

	release_rt_budget(dir, origin);
	for (int tries = 0; tries < 50; tries++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		int r;

		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		ret = -errno;
		if (ret != -EBUSY)
			break;
		r = move_tasks_out(dir, origin, &moved, to, sizeof(to));
		if (moved)
			lj_setup_say(say, arg, "moved %d task%s still in %s to %s%s", moved, moved == 1 ? "" : "s",
				     dir, to, origin && !strcmp(to, origin) ? " (where it came from)" : "");
		if (r && r != -ENOENT)
			why_busy = r;	/* a task that cannot leave: say why, not just "busy" */
		/* An exiting task leaves the group a moment after it is reaped. */
		nanosleep(&ts, NULL);
	}
	return ret == -EBUSY && why_busy ? why_busy : ret;
}

int lj_setup_undo_group(const struct lj_setup_entry *e, void (*say)(const char *, void *), void *arg)
{
	int ret = remove_group(e->path, e->old, say, arg);

	if (ret)
		lj_setup_say(say, arg, "cannot remove group %s: %s", e->path, strerror(-ret));
	else
		lj_setup_say(say, arg, "removed group %s", e->path);
	return ret;
}
