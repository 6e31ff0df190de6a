/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_elf - what ljkit reads of an ELF file: a program's machine and linking, a section's bytes. */
#ifndef LJ_ELF_H
#define LJ_ELF_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Only 64-bit little-endian files (x86-64, arm64: the guests ljkit
 * boots); anything else is -ENOTSUP, a file that is not ELF or is cut
 * short -EINVAL. Everything works on bytes in memory, with every offset
 * checked against @len.
 */
struct lj_elf_info {
	int machine;		/* e_machine: EM_X86_64, EM_AARCH64, ... */
	bool interp;		/* a PT_INTERP segment: needs a dynamic loader (not static) */
};

int lj_elf_inspect(const void *buf, size_t len, struct lj_elf_info *out);

/* The bytes of section @name (".modinfo"): 0, -ENOENT, -EINVAL, -ENOTSUP. */
int lj_elf_section(const void *buf, size_t len, const char *name, const char **data, size_t *size);

/*
 * A kernel module's .modinfo is "key=value\0" fields: the value of the
 * first field named @key (not NUL-terminated, *@vlen bytes), or NULL.
 */
const char *lj_elf_modinfo(const char *data, size_t size, const char *key, size_t *vlen);

/* The name e_machine @m has in a message ("x86-64", "arm64", or "machine 40"). */
const char *lj_elf_machine_name(int m, char *buf, size_t len);

#endif
