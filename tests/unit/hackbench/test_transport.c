// SPDX-License-Identifier: GPL-2.0-or-later
/* test_transport - lj-hackbench's channels: framing, end of stream and end marker per transport. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "../../../tools/hackbench/hb.h"
#include "../tap.h"

static void check_transport(enum hb_transport t)
{
	struct hb_config cfg;
	struct hb_run run;
	struct hb_chan ch;
	char out[100], in[100];
	const char *name = hb_transport_name(t);
	char what[96];
	int err;

	hb_config_init(&cfg);
	cfg.transport = t;
	cfg.datasize = sizeof(out);
	memset(&run, 0, sizeof(run));
	run.cfg = &cfg;
	err = hb_chan_open(&run, 0, &ch);
	if (t == HB_INET && err == -ENETUNREACH) {
		/* a guest booted without network setup, or a fresh network namespace */
		skip(5, "inet: the loopback interface is down (ENETUNREACH)");
		return;
	}
	snprintf(what, sizeof(what), "%s: channel opens", name);
	is_int(err, 0, what);
	if (err) {
		skip(4, "no channel");
		return;
	}
	memset(out, '-', sizeof(out));
	memcpy(out, "first", 5);
	snprintf(what, sizeof(what), "%s: a whole message is sent", name);
	is_int(hb_chan_send(&run, &ch, out), 0, what);
	memcpy(out, "second", 6);
	hb_chan_send(&run, &ch, out);

	snprintf(what, sizeof(what), "%s: messages arrive whole and in order", name);
	ok(hb_chan_recv(&run, &ch, in) == (ssize_t)sizeof(in) && !memcmp(in, "first", 5) &&
	   hb_chan_recv(&run, &ch, in) == (ssize_t)sizeof(in) && !memcmp(in, "second", 6), what);

	/* The end: EOF for streams (write end closed), an empty message for queues. */
	hb_chan_end(&run, &ch);
	snprintf(what, sizeof(what), "%s: the end reads as 0", name);
	is_int(hb_chan_recv(&run, &ch, in), 0, what);
	snprintf(what, sizeof(what), "%s: write end closed after the end", name);
	ok(t == HB_MQ ? ch.wfd >= 0 : ch.wfd == -1, what);
	hb_chan_close_read(&run, &ch);
	hb_chan_close_write(&run, &ch);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	plan(5 * 4 + 1);
	check_transport(HB_SOCKET);
	check_transport(HB_PIPE);
	check_transport(HB_INET);
	check_transport(HB_MQ);
	{
		struct hb_config cfg;
		struct hb_run run;
		struct hb_chan ch;
		char buf[100] = "x";

		/* A receiver gone: a stream sender learns it as EPIPE, not a hang. */
		hb_config_init(&cfg);
		cfg.transport = HB_PIPE;
		cfg.datasize = sizeof(buf);
		memset(&run, 0, sizeof(run));
		run.cfg = &cfg;
		if (hb_chan_open(&run, 1, &ch)) {
			skip(1, "pipe failed");
		} else {
			hb_chan_close_read(&run, &ch);
			is_int(hb_chan_send(&run, &ch, buf), -EPIPE, "send to a closed pipe is -EPIPE");
			hb_chan_close_write(&run, &ch);
		}
	}
	return done();
}
