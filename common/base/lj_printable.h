/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_printable - text from outside (argv, files, a trace's task names) made safe to show on a terminal. */
#ifndef LJ_PRINTABLE_H
#define LJ_PRINTABLE_H

#include <stddef.h>

/*
 * Replace every control character of @s (below 0x20, and DEL) with '?',
 * in place: a raw escape sequence or newline from a file name, a value or
 * a task's comm (which may hold any byte) must not reach the terminal or
 * forge a second line. Return: @s.
 */
char *lj_printable(char *s);

/* A copy of @s into @buf (cut to @len), made printable. Return: @buf. */
char *lj_printable_copy(const char *s, char *buf, size_t len);

#endif
