// SPDX-License-Identifier: GPL-2.0-or-later
/* test_elf - an ELF file's machine, static or not, a section's bytes, a module's modinfo fields. */
#include "lj_elf.h"
#include "fake_elf.h"
#include "tap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void test_sections(void)
{
	static const char info[] = "license=GPL\0\0\0depends=virtio,9pnet\0vermagic=6.1.0-57-amd64 SMP preempt\0";
	const char *names[] = { ".text", ".modinfo" }, *data[] = { "\x90\x90", info };
	size_t sizes[] = { 2, sizeof(info) }, len, size, vlen;
	char *elf = fake_elf(EM_X86_64, false, names, data, sizes, 2, &len);
	const char *d, *v;

	is_int(lj_elf_section(elf, len, ".modinfo", &d, &size), 0, "the .modinfo section is found");
	is_int(size, sizeof(info), "with its size");
	v = lj_elf_modinfo(d, size, "depends", &vlen);
	ok(v && vlen == strlen("virtio,9pnet") && !memcmp(v, "virtio,9pnet", vlen), "depends= after padding NULs");
	v = lj_elf_modinfo(d, size, "vermagic", &vlen);
	ok(v && !strncmp(v, "6.1.0-57-amd64 SMP", 18), "vermagic=");
	ok(!lj_elf_modinfo(d, size, "depend", &vlen), "a key is matched whole (depend is not depends)");
	ok(!lj_elf_modinfo(d, size, "alias", &vlen), "a missing key: NULL");
	is_int(lj_elf_section(elf, len, ".modinf", &d, &size), -ENOENT, "a section name is matched whole");
	is_int(lj_elf_section(elf, len - 8, ".modinfo", &d, &size), -EINVAL, "section headers cut short: EINVAL");
	is_int(lj_elf_section(elf, 40, ".modinfo", &d, &size), -EINVAL, "a header cut short: EINVAL");
	elf[EI_CLASS] = ELFCLASS32;
	is_int(lj_elf_section(elf, len, ".modinfo", &d, &size), -ENOTSUP, "32-bit: ENOTSUP");
	elf[EI_CLASS] = ELFCLASS64;
	elf[EI_DATA] = ELFDATA2MSB;
	is_int(lj_elf_section(elf, len, ".modinfo", &d, &size), -ENOTSUP, "big-endian: ENOTSUP");
	is_int(lj_elf_section("#!/bin/sh\n", 10, ".modinfo", &d, &size), -EINVAL, "not ELF: EINVAL");
	free(elf);
}

static void test_section_bounds(void)
{
	const char *names[] = { ".modinfo" }, *data[] = { "depends=" };
	size_t sizes[] = { 9 }, len, size;
	char *elf = fake_elf(EM_X86_64, false, names, data, sizes, 1, &len);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)elf;
	Elf64_Shdr *sh = (Elf64_Shdr *)(elf + eh->e_shoff) + 2;
	const char *d;

	sh->sh_size = (Elf64_Xword)len;	/* past the end of the file */
	is_int(lj_elf_section(elf, len, ".modinfo", &d, &size), -EINVAL, "a section reaching past the file: EINVAL");
	sh->sh_size = 9;
	sh->sh_name = 1u << 30;		/* its name outside the string table: never matched */
	is_int(lj_elf_section(elf, len, ".modinfo", &d, &size), -ENOENT, "a name offset outside the names: skipped");
	free(elf);
}

static void test_inspect(void)
{
	const char *names[] = { ".text" }, *data[] = { "\xc3" };
	size_t sizes[] = { 1 }, len;
	char *st = fake_elf(EM_AARCH64, false, names, data, sizes, 1, &len), *dyn, m[32];
	struct lj_elf_info info;

	is_int(lj_elf_inspect(st, len, &info), 0, "a static arm64 program is read");
	is_int(info.machine, EM_AARCH64, "its machine");
	ok(!info.interp, "no interpreter: static");
	dyn = fake_elf(EM_X86_64, true, names, data, sizes, 1, &len);
	is_int(lj_elf_inspect(dyn, len, &info), 0, "a dynamic x86-64 program is read");
	ok(info.interp, "PT_INTERP: it needs a loader");
	is_str(lj_elf_machine_name(EM_X86_64, m, sizeof(m)), "x86-64", "machine names");
	is_str(lj_elf_machine_name(3, m, sizeof(m)), "machine 3", "an unknown machine by number");
	free(st);
	free(dyn);
}

int main(void)
{
	plan(21);
	test_sections();
	test_section_bounds();
	test_inspect();
	return done();
}
