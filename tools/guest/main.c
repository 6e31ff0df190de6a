// SPDX-License-Identifier: GPL-2.0-or-later
/* lj-guest - boot a kernel in a QEMU guest and run a command inside it as root. */
#include "guest.h"
#include "lj_err.h"
#include "lj_opt.h"

int main(int argc, char **argv)
{
	struct guest_opts o;
	int first, ret;

	lj_err_init(argv[0]);
	ret = guest_parse(&o, argc, argv, &first);
	if (ret)
		return ret == LJ_OPT_EXIT_HELP ? LJ_EXIT_OK : ret;
	o.cfg.argv = argv + first;
	return guest_run(&o);
}
