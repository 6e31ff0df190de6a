// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lj-topology - ljkit's helper: loads the hwloc topology and writes the
 * snapshot to standard output for lj_topo_load_apart (lj-cyclic), so that
 * hwloc, libudev and libm are mapped here and not in the measuring tool
 * (docs/design.md, "Resident memory"). Not a command: it takes no
 * arguments and writes binary data for one build of ljkit.
 */
#include <unistd.h>

#include "lj_topo.h"

int main(void)
{
	return lj_topo_send(STDOUT_FILENO) ? 1 : 0;
}
