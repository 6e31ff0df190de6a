// SPDX-License-Identifier: GPL-2.0-or-later
/* lj-env - apply a system setup around a command, show the state, or restore after a crash. */
#include "env.h"
#include "lj_err.h"
#include "lj_opt.h"

int main(int argc, char **argv)
{
	struct env_config cfg;
	int ret;

	lj_err_init(argv[0]);
	ret = env_parse(&cfg, argc, argv);
	if (ret == LJ_OPT_EXIT_HELP)
		ret = LJ_EXIT_OK;
	else if (!ret && cfg.restore)
		ret = env_restore(&cfg);
	else if (!ret && cfg.show)
		ret = env_show(&cfg);
	else if (!ret)
		ret = env_run(&cfg);
	env_free(&cfg);
	return lj_exit_flushed(ret);
}
