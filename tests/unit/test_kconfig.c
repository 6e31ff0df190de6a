// SPDX-License-Identifier: GPL-2.0-or-later
/* test_kconfig - kernel config reading (plain and gzip), option lookup, sha256. */
#include "lj_kconfig.h"
#include "tap.h"

#include <errno.h>
#include <unistd.h>
#include <zlib.h>

static const char cfg[] =
	"#\n# Automatically generated file; DO NOT EDIT.\n#\n"
	"CONFIG_HZ_250=y\n"
	"CONFIG_HZ=250\n"
	"# CONFIG_PREEMPT_RT is not set\n"
	"CONFIG_LOCALVERSION=\"-test\"\n"
	"CONFIG_KVM=m\n"
	"XCONFIG_FAKE=y\n";

static void test_lookup(void)
{
	struct lj_kconfig k;
	char buf[32], tiny[3];

	lj_kconfig_from_text(&k, cfg, strlen(cfg));
	is_str(lj_kconfig_get(&k, "CONFIG_HZ", buf, sizeof(buf)), "250",
	       "CONFIG_HZ is not confused with CONFIG_HZ_250");
	is_str(lj_kconfig_get(&k, "CONFIG_HZ_250", buf, sizeof(buf)), "y", "boolean option");
	ok(lj_kconfig_get(&k, "CONFIG_PREEMPT_RT", buf, sizeof(buf)) == NULL, "'is not set' is NULL");
	ok(lj_kconfig_get(&k, "CONFIG_NOPE", buf, sizeof(buf)) == NULL, "absent option is NULL");
	is_str(lj_kconfig_get(&k, "CONFIG_LOCALVERSION", buf, sizeof(buf)), "\"-test\"",
	       "string option keeps its quotes");
	ok(lj_kconfig_get(&k, "CONFIG_LOCALVERSION", tiny, sizeof(tiny)) == NULL,
	   "a value that does not fit is NULL, not truncated");
	ok(!lj_kconfig_get(&k, "CONFIG_FAKE", buf, sizeof(buf)), "matches only at a line start");
	ok(lj_kconfig_enabled(&k, "CONFIG_HZ_250") && !lj_kconfig_enabled(&k, "CONFIG_KVM"),
	   "enabled means =y, not =m");
	lj_kconfig_free(&k);
}

static void test_sha256(void)
{
	struct lj_kconfig k;

	/* the FIPS 180-2 test vector */
	lj_kconfig_from_text(&k, "abc", 3);
	is_str(k.sha256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	       "sha256 of 'abc'");
	lj_kconfig_free(&k);
}

static void test_files(void)
{
	char dir[] = "/tmp/test_kconfig.XXXXXX", plain[64], gz[64];
	struct lj_kconfig a, b;
	gzFile z;
	FILE *f;

	if (!mkdtemp(dir)) {
		skip(4, "no temporary directory");
		return;
	}
	snprintf(plain, sizeof(plain), "%s/config", dir);
	snprintf(gz, sizeof(gz), "%s/config.gz", dir);
	f = fopen(plain, "w");
	fputs(cfg, f);
	fclose(f);
	z = gzopen(gz, "wb");
	gzputs(z, cfg);
	gzclose(z);
	ok(!lj_kconfig_load_path(&a, plain) && !lj_kconfig_load_path(&b, gz), "both files load");
	ok(a.len == strlen(cfg) && b.len == a.len && !memcmp(a.text, b.text, a.len),
	   "gzip and plain give the same text");
	is_str(b.sha256, a.sha256, "and the same sha256 (of the uncompressed text)");
	lj_kconfig_free(&a);
	lj_kconfig_free(&b);
	unlink(plain);
	unlink(gz);
	rmdir(dir);
	is_int(lj_kconfig_load_path(&a, plain), -ENOENT, "missing file is -ENOENT");
}

static void test_this_machine(void)
{
	struct lj_kconfig k;
	int ret = lj_kconfig_load(&k);

	if (ret) {
		skip(1, "this kernel exposes no config");
		return;
	}
	ok(k.path[0] && strlen(k.sha256) == 64 && k.len > 0, "the running kernel's config loads");
	diag("%s: %zu bytes, sha256 %s", k.path, k.len, k.sha256);
	lj_kconfig_free(&k);
}

int main(void)
{
	plan(14);
	test_lookup();
	test_sha256();
	test_files();
	test_this_machine();
	return done();
}
