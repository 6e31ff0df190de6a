// SPDX-License-Identifier: GPL-2.0-or-later
#include "lj_trace_top.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lj_file.h"
#include "lj_setup.h"

struct lj_trace_top {
	int marker_fd, on_fd;
};

/* @name of the top level, read into @buf; "" when unreadable. */
static void read_top(const char *dir, const char *name, char *buf, size_t len)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (lj_file_read_text(path, buf, len))
		buf[0] = '\0';
}

/* Lines of set_event: the events enabled at the top level. */
static int enabled_events(const char *dir)
{
	char path[512], line[256];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "%s/set_event", dir);
	if (!(f = fopen(path, "re")))
		return 0;
	while (fgets(line, sizeof(line), f))
		n += line[0] != '\n';
	fclose(f);
	return n;
}

int lj_trace_top_watch(struct lj_trace_top **out, char *what, size_t len)
{
	/* Mounted there by the recorder's setup (lj_trace_open) before this is asked. */
	const char *dir = LJ_SETUP_TRACEFS;
	char on[8], tracer[64], path[512];
	struct lj_trace_top *t;
	int events;

	*out = NULL;
	if (len)
		what[0] = '\0';
	read_top(dir, "tracing_on", on, sizeof(on));
	read_top(dir, "current_tracer", tracer, sizeof(tracer));
	events = enabled_events(dir);
	if (strcmp(on, "1") || ((!tracer[0] || !strcmp(tracer, "nop")) && !events))
		return 0;
	if (!(t = malloc(sizeof(*t))))
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/trace_marker", dir);
	t->marker_fd = open(path, O_WRONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "%s/tracing_on", dir);
	t->on_fd = open(path, O_WRONLY | O_CLOEXEC);
	if (t->on_fd < 0) {
		int err = -errno;

		lj_trace_top_free(t);
		return err;
	}
	if (strcmp(tracer, "nop") && tracer[0])
		snprintf(what, len, "tracer %s%s", tracer, events ? ", " : "");
	if (events)
		snprintf(what + strlen(what), len - strlen(what), "%d event%s", events, events == 1 ? "" : "s");
	*out = t;
	return 1;
}

int lj_trace_top_break(struct lj_trace_top *t, const char *text)
{
	size_t n = strlen(text);

	if (!t)
		return -EBADF;
	/* Refused when the user turned the markers option off: the stop still matters. */
	if (t->marker_fd >= 0) {
		ssize_t w = write(t->marker_fd, text, n);

		(void)w;
	}
	return write(t->on_fd, "0", 1) == 1 ? 0 : -errno;
}

void lj_trace_top_free(struct lj_trace_top *t)
{
	if (!t)
		return;
	if (t->marker_fd >= 0)
		close(t->marker_fd);
	if (t->on_fd >= 0)
		close(t->on_fd);
	free(t);
}
