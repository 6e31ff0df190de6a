// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * interferer - known-answer interference for the --explain tests: pinned
 * to one CPU, either a SCHED_FIFO spinner that busy-waits SPIN_US every
 * PERIOD_US, or a loopback UDP flood (softirq NET_RX on that CPU).
 *
 *   interferer spin CPU PRIO SPIN_US PERIOD_US COUNT
 *   interferer flood CPU MS [PRIO [DELAY_MS]]
 *
 * PRIO > 0 makes the flood SCHED_FIFO, so it holds the CPU between the
 * measuring thread's wake-ups; DELAY_MS lets the measuring tool start
 * first (an RT flood would starve its start-up on that CPU).
 *
 * It prints "ready PID" once pinned and at its priority, then works.
 * $INTERFERER_COMM, when set, becomes its task name (a comm with control
 * characters: what --explain's text must not pass to the terminal raw).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "interferer: cannot pin to CPU %d: %s\n", cpu, strerror(errno));
		return -1;
	}
	return 0;
}

static volatile sig_atomic_t stop_spinning;

static void on_term(int sig)
{
	stop_spinning = 1;
}

/*
 * The spins' times are the test's known answer: kept in memory and printed
 * when the spinner ends (SIGTERM or COUNT spins), so no I/O runs inside or
 * between the spins at FIFO priority.
 */
static int spin(int prio, int64_t spin_ns, int64_t period_ns, long count)
{
	struct sched_param sp = { .sched_priority = prio };
	struct sigaction sa = { .sa_handler = on_term };
	int64_t next, (*log)[2] = calloc((size_t)count + 1, sizeof(*log));
	long done = 0;

	if (!log || sched_setscheduler(0, SCHED_FIFO, &sp)) {
		fprintf(stderr, "interferer: SCHED_FIFO %d: %s\n", prio, strerror(errno));
		return 1;
	}
	sigaction(SIGTERM, &sa, NULL);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	next = now_ns() + period_ns;
	for (; done < count && !stop_spinning; done++) {
		struct timespec ts = { .tv_sec = next / 1000000000LL, .tv_nsec = next % 1000000000LL };

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR && !stop_spinning)
			;
		if (stop_spinning)
			break;
		int64_t end;

		log[done][0] = now_ns();
		end = log[done][0] + spin_ns;
		while (now_ns() < end)
			;
		/* The real end: on a VM the host can stop the vCPU inside a spin,
		 * which the guest's trace (and so the attribution) counts as the
		 * spinner's. */
		log[done][1] = now_ns();
		next += period_ns;
	}
	for (long i = 0; i < done; i++)
		printf("spin %lld %lld\n", (long long)log[i][0], (long long)log[i][1]);
	free(log);
	return 0;
}

static int flood(int64_t ms, int prio, int64_t delay_ms)
{
	struct sched_param sp = { .sched_priority = prio };
	struct timespec delay = { .tv_sec = delay_ms / 1000, .tv_nsec = delay_ms % 1000 * 1000000 };
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(addr);
	int rx = socket(AF_INET, SOCK_DGRAM, 0), tx = socket(AF_INET, SOCK_DGRAM, 0);
	char buf[64] = { 0 };
	int64_t end;

	if (prio > 0 && sched_setscheduler(0, SCHED_FIFO, &sp)) {
		fprintf(stderr, "interferer: SCHED_FIFO %d: %s\n", prio, strerror(errno));
		return 1;
	}
	if (rx < 0 || tx < 0 || bind(rx, (struct sockaddr *)&addr, sizeof(addr)) ||
	    getsockname(rx, (struct sockaddr *)&addr, &alen)) {
		fprintf(stderr, "interferer: loopback socket: %s\n", strerror(errno));
		return 1;
	}
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	nanosleep(&delay, NULL);
	end = now_ns() + ms * 1000000LL;
	while (now_ns() < end) {
		for (int i = 0; i < 64; i++)
			if (sendto(tx, buf, sizeof(buf), MSG_DONTWAIT, (struct sockaddr *)&addr,
				   sizeof(addr)) < 0)
				break;
		while (recv(rx, buf, sizeof(buf), MSG_DONTWAIT) > 0)
			;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *comm = getenv("INTERFERER_COMM");

	if (comm && prctl(PR_SET_NAME, comm, 0, 0, 0))
		fprintf(stderr, "interferer: cannot rename itself: %s\n", strerror(errno));
	if (argc == 7 && !strcmp(argv[1], "spin")) {
		if (pin(atoi(argv[2])))
			return 1;
		return spin(atoi(argv[3]), atoll(argv[4]) * 1000, atoll(argv[5]) * 1000, atol(argv[6]));
	}
	if (argc >= 4 && argc <= 6 && !strcmp(argv[1], "flood")) {
		if (pin(atoi(argv[2])))
			return 1;
		return flood(atoll(argv[3]), argc >= 5 ? atoi(argv[4]) : 0, argc == 6 ? atoll(argv[5]) : 0);
	}
	fprintf(stderr, "usage: interferer spin CPU PRIO SPIN_US PERIOD_US COUNT | flood CPU MS [PRIO [DELAY_MS]]\n");
	return 2;
}
