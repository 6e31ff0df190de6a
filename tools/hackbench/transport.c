// SPDX-License-Identifier: GPL-2.0-or-later
/* transport.c - lj-hackbench's channels: socket pairs, pipes, TCP loopback and POSIX message queues. */
#include "hb.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* A connected TCP pair over 127.0.0.1, as hackbench -i builds it. */
static int inet_pair(int fds[2])
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	int l = -1, c = -1, a = -1, ret = 0;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0 || c < 0 ||
	    bind(l, (struct sockaddr *)&sin, len) ||
	    getsockname(l, (struct sockaddr *)&sin, &len) ||
	    listen(l, 1) ||
	    connect(c, (struct sockaddr *)&sin, len) ||
	    (a = accept4(l, NULL, NULL, SOCK_CLOEXEC)) < 0) {
		ret = -errno;
		if (c >= 0)
			close(c);
	} else {
		fds[0] = a;
		fds[1] = c;
	}
	if (l >= 0)
		close(l);
	return ret;
}

static int mq_pair(struct hb_run *run, unsigned int idx, int fds[2])
{
	struct mq_attr attr = {
		.mq_maxmsg = HB_MQ_MAXMSG,
		.mq_msgsize = run->cfg->datasize,
	};
	char name[64];
	mqd_t q;

	snprintf(name, sizeof(name), "/ljkit-hackbench-%d-%u", (int)getpid(), idx);
	q = mq_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600, &attr);
	if (q == (mqd_t)-1)
		return -errno;
	/* Unlinked at once: the descriptors keep it alive, nothing is left after a crash. */
	mq_unlink(name);
	fds[0] = fds[1] = (int)q;
	return 0;
}

/* Open channel @idx (one per receiver). Return: 0 or -errno of the call that failed. */
int hb_chan_open(struct hb_run *run, unsigned int idx, struct hb_chan *ch)
{
	int fds[2] = { -1, -1 }, ret = 0;

	switch (run->cfg->transport) {
	case HB_SOCKET:
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds))
			ret = -errno;
		break;
	case HB_PIPE:
		if (pipe(fds))
			ret = -errno;
		break;
	case HB_INET:
		ret = inet_pair(fds);
		break;
	case HB_MQ:
		ret = mq_pair(run, idx, fds);
		break;
	}
	if (ret)
		return ret;
	ch->rfd = fds[0];
	ch->wfd = fds[1];
	return 0;
}

/* Send one message of datasize bytes. Return: 0, -EINTR (nothing sent) or -errno. */
int hb_chan_send(const struct hb_run *run, const struct hb_chan *ch, const char *buf)
{
	size_t len = run->cfg->datasize;

	if (run->cfg->transport == HB_MQ)
		return mq_send((mqd_t)ch->wfd, buf, len, 0) ? -errno : 0;
	return hb_stream_send(ch->wfd, buf, len);
}

/*
 * Receive one message into @buf (datasize bytes). Return: datasize, 0 at
 * the end (EOF, or the empty message that ends a queue), a short count
 * for a message cut by EOF, or -errno.
 */
ssize_t hb_chan_recv(const struct hb_run *run, const struct hb_chan *ch, char *buf)
{
	size_t len = run->cfg->datasize;

	if (run->cfg->transport == HB_MQ) {
		ssize_t n;

		do
			n = mq_receive((mqd_t)ch->rfd, buf, len, NULL);
		while (n < 0 && errno == EINTR);
		return n < 0 ? -errno : n;
	}
	return hb_stream_recv(ch->rfd, buf, len);
}

/* Tell the receiver no more messages come: EOF, or an empty message on a queue. */
int hb_chan_end(const struct hb_run *run, struct hb_chan *ch)
{
	if (run->cfg->transport == HB_MQ) {
		struct timespec ts;

		/* The receiver drains the queue; do not wait forever if it died. */
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 5;
		while (mq_timedsend((mqd_t)ch->wfd, "", 0, 0, &ts))
			if (errno != EINTR)
				return -errno;
		return 0;
	}
	hb_chan_close_write(run, ch);
	return 0;
}

void hb_chan_close_read(const struct hb_run *run, struct hb_chan *ch)
{
	if (run->cfg->transport == HB_MQ)
		return;		/* one descriptor for both ends: closed with the write end */
	if (ch->rfd >= 0)
		close(ch->rfd);
	ch->rfd = -1;
}

void hb_chan_close_write(const struct hb_run *run, struct hb_chan *ch)
{
	if (ch->wfd >= 0)
		close(ch->wfd);
	ch->wfd = -1;
	if (run->cfg->transport == HB_MQ)
		ch->rfd = -1;
}
