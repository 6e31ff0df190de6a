/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fake_elf.h - a minimal 64-bit ELF file in memory: a header, an optional PT_INTERP and named sections. */
#ifndef LJ_FAKE_ELF_H
#define LJ_FAKE_ELF_H

#include <elf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Layout: Elf64_Ehdr, [one Elf64_Phdr], the section names, each
 * section's bytes, then the section headers (NULL, .shstrtab, then
 * @names). Returns a malloc'd buffer and its length in *@len.
 */
static inline char *fake_elf(int machine, bool interp, const char *const *names, const char *const *data,
			     const size_t *sizes, int n, size_t *len)
{
	size_t strsz = 1 + sizeof(".shstrtab"), off, total;
	Elf64_Ehdr eh = { 0 };
	Elf64_Shdr sh = { 0 };
	char *buf, *strtab;
	size_t name_off;

	for (int i = 0; i < n; i++)
		strsz += strlen(names[i]) + 1;
	off = sizeof(eh) + (interp ? sizeof(Elf64_Phdr) : 0);
	total = off + strsz;
	for (int i = 0; i < n; i++)
		total += sizes[i];
	total = (total + 7) & ~(size_t)7;	/* the section headers 8-byte aligned, as a linker puts them */
	total += (size_t)(n + 2) * sizeof(Elf64_Shdr);
	buf = calloc(1, total);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_REL;
	eh.e_machine = (Elf64_Half)machine;
	eh.e_version = EV_CURRENT;
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = interp ? 1 : 0;
	eh.e_phoff = interp ? sizeof(eh) : 0;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = (Elf64_Half)(n + 2);
	eh.e_shstrndx = 1;
	eh.e_shoff = total - (size_t)(n + 2) * sizeof(Elf64_Shdr);
	memcpy(buf, &eh, sizeof(eh));
	if (interp) {
		Elf64_Phdr ph = { .p_type = PT_INTERP };

		memcpy(buf + sizeof(eh), &ph, sizeof(ph));
	}
	strtab = buf + off;
	memcpy(strtab + 1, ".shstrtab", sizeof(".shstrtab"));
	sh.sh_name = 1;
	sh.sh_type = SHT_STRTAB;
	sh.sh_offset = off;
	sh.sh_size = strsz;
	memcpy(buf + eh.e_shoff + sizeof(sh), &sh, sizeof(sh));
	name_off = 1 + sizeof(".shstrtab");
	off += strsz;
	for (int i = 0; i < n; i++) {
		memcpy(strtab + name_off, names[i], strlen(names[i]) + 1);
		sh.sh_name = (Elf64_Word)name_off;
		sh.sh_type = SHT_PROGBITS;
		sh.sh_offset = off;
		sh.sh_size = sizes[i];
		memcpy(buf + off, data[i], sizes[i]);
		memcpy(buf + eh.e_shoff + (size_t)(i + 2) * sizeof(sh), &sh, sizeof(sh));
		name_off += strlen(names[i]) + 1;
		off += sizes[i];
	}
	*len = total;
	return buf;
}

/* A kernel module for @release needing @depends ("a,b" or ""): its .modinfo as the kernel's build writes it. */
static inline char *fake_module(const char *release, const char *depends, size_t *len)
{
	char info[512];
	const char *names[] = { ".modinfo" }, *data[] = { info };
	size_t n = (size_t)snprintf(info, sizeof(info), "license=GPL%cdepends=%s%cvermagic=%s SMP preempt mod_unload%c",
				    0, depends, 0, release, 0);

	return fake_elf(EM_X86_64, false, names, data, &n, 1, len);
}

#endif
