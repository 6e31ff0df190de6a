// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_elf - an ELF file's machine, whether it is static, and a section's bytes. */
#include "lj_elf.h"

#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The header, checked: 64-bit, little-endian, its tables inside the buffer. */
static int header(const void *buf, size_t len, const Elf64_Ehdr **out)
{
	const Elf64_Ehdr *eh = buf;

	if (len < EI_NIDENT || memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return -EINVAL;
	if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB)
		return -ENOTSUP;
	if (len < sizeof(*eh))
		return -EINVAL;
	*out = eh;
	return 0;
}

/* Is the table of @n entries of @size bytes at @off inside @len? */
static bool table_fits(uint64_t off, uint64_t n, uint64_t size, size_t len)
{
	return off <= len && n <= (len - off) / (size ? size : 1);
}

int lj_elf_inspect(const void *buf, size_t len, struct lj_elf_info *out)
{
	const Elf64_Ehdr *eh;
	int ret = header(buf, len, &eh);

	if (ret)
		return ret;
	memset(out, 0, sizeof(*out));
	out->machine = eh->e_machine;
	if (eh->e_phentsize != sizeof(Elf64_Phdr) || !table_fits(eh->e_phoff, eh->e_phnum, sizeof(Elf64_Phdr), len))
		return eh->e_phnum ? -EINVAL : 0;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, (const char *)buf + eh->e_phoff + (uint64_t)i * sizeof(ph), sizeof(ph));
		if (ph.p_type == PT_INTERP)
			out->interp = true;
	}
	return 0;
}

int lj_elf_section(const void *buf, size_t len, const char *name, const char **data, size_t *size)
{
	const char *base = buf, *names;
	const Elf64_Ehdr *eh;
	Elf64_Shdr strtab;
	int ret = header(buf, len, &eh);

	if (ret)
		return ret;
	if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shstrndx >= eh->e_shnum ||
	    !table_fits(eh->e_shoff, eh->e_shnum, sizeof(Elf64_Shdr), len))
		return -EINVAL;
	memcpy(&strtab, base + eh->e_shoff + (uint64_t)eh->e_shstrndx * sizeof(strtab), sizeof(strtab));
	if (!table_fits(strtab.sh_offset, strtab.sh_size, 1, len))
		return -EINVAL;
	names = base + strtab.sh_offset;
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		Elf64_Shdr sh;
		size_t nlen = strlen(name);

		memcpy(&sh, base + eh->e_shoff + (uint64_t)i * sizeof(sh), sizeof(sh));
		if (sh.sh_name >= strtab.sh_size || strtab.sh_size - sh.sh_name <= nlen ||
		    memcmp(names + sh.sh_name, name, nlen + 1))
			continue;
		if (sh.sh_type == SHT_NOBITS || !table_fits(sh.sh_offset, sh.sh_size, 1, len))
			return -EINVAL;
		*data = base + sh.sh_offset;
		*size = sh.sh_size;
		return 0;
	}
	return -ENOENT;
}

const char *lj_elf_modinfo(const char *data, size_t size, const char *key, size_t *vlen)
{
	size_t klen = strlen(key);

	for (size_t i = 0; i < size;) {
		const char *f = data + i, *end = memchr(f, '\0', size - i);
		size_t flen = end ? (size_t)(end - f) : size - i;

		if (flen > klen && !memcmp(f, key, klen) && f[klen] == '=') {
			*vlen = flen - klen - 1;
			return f + klen + 1;
		}
		i += flen + 1;
	}
	return NULL;
}

const char *lj_elf_machine_name(int m, char *buf, size_t len)
{
	if (m == EM_X86_64)
		return "x86-64";
	if (m == EM_AARCH64)
		return "arm64";
	snprintf(buf, len, "machine %d", m);
	return buf;
}
