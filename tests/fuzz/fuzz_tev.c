// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_tev - the kernel text trace's line parser (lj_tev_parse_line), which
 * reads the trace the tracefs recorder keeps for -b and the explanation
 * fixtures. Its lines carry task names that any process chooses (up to 15
 * bytes of anything but NUL), so it must hold on any text. Beyond "no
 * crash, no UB": an event it accepts has a known type, a CPU number that
 * can index the CPUs' sequences, and NUL-terminated names, and nothing of
 * the event is left from what the memory held before.
 */
#include "fuzz.h"
#include "lj_tev.h"

#include <errno.h>

static void terminated(const struct lj_tev *e)
{
	switch (e->type) {
	case LJ_TEV_SWITCH:
		fuzz_assert(memchr(e->sw.prev_comm, '\0', sizeof(e->sw.prev_comm)) &&
			    memchr(e->sw.next_comm, '\0', sizeof(e->sw.next_comm)));
		break;
	case LJ_TEV_WAKING:
	case LJ_TEV_WAKEUP:
		fuzz_assert(memchr(e->wake.comm, '\0', sizeof(e->wake.comm)));
		break;
	case LJ_TEV_MIGRATE:
		fuzz_assert(memchr(e->mig.comm, '\0', sizeof(e->mig.comm)));
		break;
	case LJ_TEV_IRQ_ENTRY:
		fuzz_assert(memchr(e->irq.name, '\0', sizeof(e->irq.name)));
		break;
	default:
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lj_tev ev, again;
	int cpu = -1, cpu2 = -1, ret;
	char *s = fuzz_string(data, size);

	if (!s)
		return 0;
	memset(&ev, 0x5a, sizeof(ev));
	ret = lj_tev_parse_line(s, &ev, &cpu);
	fuzz_assert(ret == 1 || ret == 0 || ret == -EINVAL);
	if (ret == 1) {
		fuzz_assert(ev.type >= 0 && ev.type < LJ_TEV_NTYPES);
		fuzz_assert(cpu >= 0);
		terminated(&ev);
		memset(&again, 0xa5, sizeof(again));
		fuzz_assert(lj_tev_parse_line(s, &again, &cpu2) == 1 && cpu2 == cpu &&
			    !memcmp(&again, &ev, sizeof(ev)));
	}
	free(s);
	return 0;
}
