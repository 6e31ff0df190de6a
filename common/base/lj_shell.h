/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_shell - a string as one word of sh: what lj-matrix and the guest runner hand to a shell. */
#ifndef LJ_SHELL_H
#define LJ_SHELL_H

/* @s in single quotes, each ' written '\'': one word of data for sh, whatever it holds. malloc'd, NULL on ENOMEM. */
char *lj_shell_quote(const char *s);

#endif
