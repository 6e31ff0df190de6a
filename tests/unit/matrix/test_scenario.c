// SPDX-License-Identifier: GPL-2.0-or-later
/* test_scenario - scenario parser (good and bad files) and axis expansion. */
#include "lj_err.h"
#include "../../../tools/matrix/scenario.h"
#include "../tap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static char err[512];

static struct lj_scenario *parse(const char *text)
{
	struct lj_scenario *s = NULL;

	if (lj_scenario_parse("t.scn", text, &s, err, sizeof(err)))
		return NULL;
	return s;
}

/* A bad file fails with -EINVAL and a message naming file, line and problem. */
static void bad(const char *text, const char *want, const char *name)
{
	struct lj_scenario *s = NULL;
	int ret = lj_scenario_parse("t.scn", text, &s, err, sizeof(err));

	if (!ok(ret < 0 && !s && strstr(err, want), name))
		diag("ret %d, message '%s', wanted '%s'", ret, err, want);
}

static const char good[] =
	"# a comment\n"
	"[matrix]\n"
	"repeat   = 3\n"
	"warmup   = 1   # inline comment\n"
	"order    = random\n"
	"seed     = 7\n"
	"cgroup   = off, on\n"
	"governor = keep\n"
	"interval = 1000,500 , 250\n"
	"\n"
	"[workload cyclic]\n"
	"command = lj-cyclic -l 50000 -q -i ${interval}\n"
	"timeout = 30s\n"
	"; an INI comment\n"
	"[workload hackbench]\n"
	"command = lj-hackbench -l ${interval} ; true\n";

static void test_good_file(void)
{
	struct lj_scenario *s = parse(good);
	struct lj_scenario_cell c;
	char id[128], *cmd;

	if (!ok(s != NULL, "a good file parses")) {
		diag("%s", err);
		skip(19, "parse failed");
		return;
	}
	is_int(s->repeat, 3, "repeat");
	is_int(s->warmup, 1, "warmup with an inline comment");
	is_int(s->order, LJ_SCENARIO_RANDOM, "order = random");
	ok(s->seed_set && s->seed == 7, "seed");
	is_int(s->naxes, 3, "three axes");
	is_int(s->axes[2].nvalues, 3, "values trimmed around commas");
	ok(s->axes[2].custom && !s->axes[0].custom, "custom axis told from setup axes");
	is_int(s->nworkloads, 2, "two workloads");
	is_int(s->workloads[0].timeout_ns, 30000000000LL, "timeout parsed as a duration");
	is_int(lj_scenario_ncells(s), 2 * 2 * 1 * 3, "cells = workloads x product of axes");

	lj_scenario_cell(s, 0, &c);
	lj_scenario_cell_id(s, &c, id, sizeof(id));
	is_str(id, "cgroup=off,governor=keep,interval=1000", "first cell id");
	lj_scenario_cell(s, 4, &c);
	lj_scenario_cell_id(s, &c, id, sizeof(id));
	ok(c.workload == 0 && !strcmp(id, "cgroup=on,governor=keep,interval=500"),
	   "last axis varies fastest, first slowest");
	lj_scenario_cell(s, 11, &c);
	is_int(c.workload, 1, "workload is the outermost loop");
	is_str(lj_scenario_value(s, &c, "cgroup"), "on", "value lookup by axis name");
	ok(lj_scenario_value(s, &c, "cpus") == NULL, "absent axis gives NULL");
	cmd = lj_scenario_command(s, &c);
	is_str(cmd, "lj-hackbench -l 250 ; true", "${axis} substituted; ' ; ' is not a comment");
	free(cmd);
	is_int(lj_scenario_cell(s, 12, &c), -ERANGE, "cell index past the end");
	ok(lj_scenario_find_load(s, "hackbench") != NULL, "built-in load found");
	lj_scenario_free(s);
}

static void test_defaults(void)
{
	struct lj_scenario *s = parse("[workload w]\ncommand = true\n");

	if (!ok(s != NULL, "a workload alone is a valid scenario")) {
		skip(3, "parse failed");
		return;
	}
	ok(s->repeat == 1 && s->warmup == 0, "defaults: repeat 1, warmup 0");
	is_int(lj_scenario_ncells(s), 1, "one cell without axes");
	{
		struct lj_scenario_cell c;
		char id[8] = "x";

		lj_scenario_cell(s, 0, &c);
		lj_scenario_cell_id(s, &c, id, sizeof(id));
		is_str(id, "", "cell id without axes is empty");
	}
	lj_scenario_free(s);
}

static void test_order(void)
{
	struct lj_scenario *s = parse("[matrix]\norder = random\nx = 1,2,3,4,5,6,7,8\n"
				      "[workload w]\ncommand = echo ${x}\n");
	size_t a[8], b[8], c[8];
	int seen = 0, same = 1;

	if (!ok(s != NULL, "random order scenario parses")) {
		skip(3, "parse failed");
		return;
	}
	lj_scenario_run_order(s, 1, a, 8);
	lj_scenario_run_order(s, 1, b, 8);
	lj_scenario_run_order(s, 2, c, 8);
	for (int i = 0; i < 8; i++) {
		seen |= 1 << a[i];
		same &= a[i] == b[i];
	}
	is_int(seen, 0xff, "random order is a permutation");
	ok(same, "same seed, same order");
	ok(memcmp(a, c, sizeof(a)), "another seed, another order");
	s->order = LJ_SCENARIO_SEQUENTIAL;
	lj_scenario_run_order(s, 1, a, 8);
	ok(a[0] == 0 && a[7] == 7, "sequential order is ascending");
	lj_scenario_free(s);
}

/* "watch" is a run setting: no axis, no cells, a list of task name globs. */
static void test_watch(void)
{
	struct lj_scenario *s = parse("[matrix]\nwatch = sugov:*, ksoftirqd/*,rcu_preempt\n"
				      "governor = keep, schedutil\n[workload w]\ncommand = true\n");

	if (!ok(s != NULL, "a scenario with watch parses")) {
		diag("%s", err);
		skip(4, "parse failed");
		return;
	}
	is_int(s->nwatch, 3, "watch: three patterns");
	is_str(s->watch[0], "sugov:*", "watch: first pattern, trimmed");
	is_str(s->watch[2], "rcu_preempt", "watch: last pattern");
	ok(s->naxes == 1 && lj_scenario_ncells(s) == 2, "watch is not an axis: the cells are governor's");
	lj_scenario_free(s);
	s = parse("[workload w]\ncommand = true\n");
	is_int(s ? s->nwatch : -1, 0, "watch defaults to none");
	lj_scenario_free(s);
	bad("[matrix]\nwatch = a*,,b\n[workload w]\ncommand = x\n", "t.scn:2: watch: empty pattern",
	    "watch: an empty pattern");
	bad("[matrix]\nwatch = a*, a*\n[workload w]\ncommand = x\n", "t.scn:2: watch: pattern 'a*' is listed twice",
	    "watch: a repeated pattern");
	bad("[matrix]\nwatch = a*\nwatch = b*\n[workload w]\ncommand = x\n", "t.scn:3: 'watch' is set twice",
	    "watch set twice");
}

static void test_bad_files(void)
{
	struct lj_scenario *s = NULL;
	int ret;

	bad("[matrix]\nrepeat = 3\n", "t.scn:1: no [workload NAME] section", "no workload");
	bad("[matrix]\nrepeat = 0\n[workload w]\ncommand = x\n", "t.scn:2: repeat: invalid value '0'",
	    "repeat out of range names line and value");
	bad("[matrix]\nrepeat = 3x\n[workload w]\ncommand = x\n", "t.scn:2: repeat", "repeat with junk");
	bad("[matrix]\norder = shuffled\n[workload w]\ncommand = x\n", "t.scn:2: order", "bad order");
	bad("[matrix]\ncgroup = off,,on\n[workload w]\ncommand = x\n", "t.scn:2: cgroup: empty value",
	    "empty list element");
	bad("[matrix]\ncgroup = off, off\n[workload w]\ncommand = x\n", "listed twice", "repeated value");
	bad("[matrix]\ncgroup = off\ncgroup = on\n[workload w]\ncommand = x\n",
	    "t.scn:3: axis 'cgroup' is set twice (first on line 2)", "axis set twice");
	bad("[matrix]\ncpus = 0, 3-1\n[workload w]\ncommand = x\n",
	    "t.scn:2: cpus: invalid CPU list '3-1'", "reversed CPU list");
	bad("[matrix]\npreempt = fast\n[workload w]\ncommand = x\n", "t.scn:2: preempt: unknown mode",
	    "unknown preempt mode");
	bad("[matrix]\ndma_latency = none, -3\n[workload w]\ncommand = x\n", "t.scn:2: dma_latency",
	    "negative dma_latency");
	bad("[matrix]\ngovernr = performance\n[workload w]\ncommand = x\n",
	    "t.scn:2: 'governr' is not a setting or setup axis", "a typo in an axis name");
	bad("[matrix]\nload = none, burn\n[workload w]\ncommand = x\n", "t.scn:2: load: 'burn'",
	    "undefined load");
	bad("repeat = 3\n", "t.scn:1: 'repeat' outside a section", "key before any section");
	bad("[matrix]\nrepeat 3\n", "t.scn:2: expected 'key = value'", "line without =");
	bad("[matrix]\nrepeat =\n", "t.scn:2: repeat: missing value", "empty value");
	bad("[matrx]\n", "t.scn:1: unknown section [matrx]", "unknown section");
	bad("[workload]\n", "t.scn:1: [workload] needs a name", "workload without name");
	bad("[workload w]\ncommand = a\n[workload w]\ncommand = b\n", "t.scn:3: workload 'w' is defined twice",
	    "duplicate workload");
	bad("[workload w]\n\n", "t.scn:1: workload 'w' has no command", "workload without command");
	bad("[workload w]\ncommand = x ${nope}\n", "t.scn:1: workload 'w': ${nope} is not an axis",
	    "placeholder without axis");
	bad("[workload w]\ncommand = a\nrepeat = 2\n", "t.scn:3: unknown key 'repeat' in [workload w]",
	    "unknown key in a workload");
	bad("[workload w]\ncommand = a\ntimeout = 0\n", "t.scn:3: timeout", "zero timeout");
	bad("[matrix]\nx = a'b\n[workload w]\ncommand = ${x}\n", "t.scn:2: x: value", "quote in a custom value");

	ret = lj_scenario_parse("t.scn",
				"[matrix]\na=1,2,3,4,5,6,7,8,9,10\nb=1,2,3,4,5,6,7,8,9,10\n"
				"c=1,2,3,4,5,6,7,8,9,10\nd=1,2,3,4,5,6,7,8,9,10\ne=1,2,3,4,5,6,7,8,9,10,11\n"
				"[workload w]\ncommand = ${a}${b}${c}${d}${e}\n", &s, err, sizeof(err));
	ok(ret == -E2BIG && strstr(err, "t.scn:6: the matrix has 110000 cells (at most 100000)"), "too many cells refused");
	ret = lj_scenario_load("/nonexistent/x.scn", &s, err, sizeof(err));
	ok(ret == -ENOENT && strstr(err, "/nonexistent/x.scn: "), "unreadable file names the path");
}

/* Names that become path components or cgroups are checked once: no . or .., no /, no control. */
static void test_names(void)
{
	bad("[workload ..]\ncommand = x\n", "t.scn:1: invalid workload name '..'", "workload named ..");
	bad("[workload .]\ncommand = x\n", "t.scn:1: invalid workload name '.'", "workload named .");
	bad("[workload a/b]\ncommand = x\n", "invalid workload name 'a/b'", "workload name with /");
	bad("[load ..]\ncommand = x\n", "t.scn:1: invalid load name '..'", "load named ..");
	bad("[matrix]\ncgroup = on, ..\n[workload w]\ncommand = x\n", "t.scn:2: cgroup: invalid name '..'",
	    "cgroup = ..");
	bad("[matrix]\ngovernor = ../x\n[workload w]\ncommand = x\n", "t.scn:2: governor: invalid name",
	    "governor with a path");
	bad("[matrix]\nx = a\033[2Jb\n[workload w]\ncommand = ${x}\n",
	    "t.scn:2: x: a value contains a control character", "control character in a custom value");
	bad("[workload w]\ncommand = a\rb\n", "t.scn:2: command: contains a control character",
	    "control character in a command");
}

static char *cmd_of(const char *text, size_t cell)
{
	struct lj_scenario *s = parse(text);
	struct lj_scenario_cell c;
	char *cmd = NULL;

	if (s && !lj_scenario_cell(s, cell, &c))
		cmd = lj_scenario_command(s, &c);
	if (!s)
		diag("%s", err);
	lj_scenario_free(s);
	return cmd;
}

static void is_cmd(const char *text, size_t cell, const char *want, const char *name)
{
	char *cmd = cmd_of(text, cell);

	is_str(cmd ? cmd : "(null)", want, name);
	free(cmd);
}

/* Custom values reach the shell as one word of data wherever the placeholder stands. */
static void test_quoting(void)
{
	const char *scn = "[matrix]\nx = 1000, a;b, x|y z, >f, *, a&b\n[workload w]\ncommand = run ${x}\n";
	char big[80000];
	int n;

	is_cmd(scn, 0, "run 1000", "a plain value stays as it is");
	is_cmd(scn, 1, "run 'a;b'", "; quoted");
	is_cmd(scn, 2, "run 'x|y z'", "| and space quoted: one word");
	is_cmd(scn, 3, "run '>f'", "> quoted");
	is_cmd(scn, 4, "run '*'", "a glob quoted");
	is_cmd(scn, 5, "run 'a&b'", "& quoted");
	is_cmd("[matrix]\nx = a;b\n[workload w]\ncommand = run \"-o ${x}\"\n", 0, "run \"-o a;b\"",
	       "inside double quotes: as it is (the quotes protect it)");
	is_cmd("[matrix]\nx = a;b\n[workload w]\ncommand = run '${x}'\n", 0, "run 'a;b'",
	       "inside single quotes: as it is");
	is_cmd("[matrix]\nx = a;b\n[workload w]\ncommand = run \\' ${x}\n", 0, "run \\' 'a;b'",
	       "an escaped quote opens no quote");
	is_cmd("[matrix]\nx = a b\n[workload w]\ncommand = run \"it's\" ${x}\n", 0,
	       "run \"it's\" 'a b'", "a ' inside double quotes opens no quote");
	bad("[matrix]\nx = $(id)\n[workload w]\ncommand = ${x}\n", "t.scn:2: x: value", "$ refused");
	bad("[matrix]\nx = `id`\n[workload w]\ncommand = ${x}\n", "t.scn:2: x: value", "` refused");

	n = snprintf(big, sizeof(big), "[matrix]\nx = 1, ");
	memset(big + n, 'v', 70000);
	snprintf(big + n + 70000, sizeof(big) - n - 70000, "\n[workload w]\ncommand = run ${x}\n");
	bad(big, "t.scn:3: workload 'w': its command expands to 70004 bytes (at most 65536)",
	    "a command over the limit after expansion");
}

static const char kernels[] =
	"[matrix]\n"
	"cgroup = off, on\n"
	"kernel = host, rt, /boot/vmlinuz-*\n"
	"cmdline = none, preempt=full quiet\n"
	"[kernel rt]\n"
	"image = /k/boot/vmlinuz-*-rt\n"
	"modules = /k\n"
	"cmdline = mitigations=off\n"
	"[workload w]\n"
	"command = lj-cyclic -q\n";

static void test_kernels(void)
{
	struct lj_scenario *s = parse(kernels);
	const struct lj_scenario_kernel *k;
	struct lj_scenario_cell c;
	char id[256];

	if (!ok(s != NULL, "kernel and cmdline axes with a [kernel] section parse")) {
		diag("%s", err);
		skip(9, "parse failed");
		return;
	}
	k = lj_scenario_find_kernel(s, "rt");
	ok(k && !strcmp(k->image, "/k/boot/vmlinuz-*-rt") && !strcmp(k->modules, "/k") && !k->initramfs &&
	   !strcmp(k->cmdline, "mitigations=off"), "the section's image, modules and boot words");
	ok(lj_scenario_is_setup_axis("kernel") && lj_scenario_is_setup_axis("cmdline"), "both are setup axes");
	lj_scenario_cell(s, 0, &c);
	ok(!lj_scenario_in_guest(s, &c), "kernel=host: on this machine");
	lj_scenario_cell(s, 2, &c);
	lj_scenario_cell_id(s, &c, id, sizeof(id));
	ok(lj_scenario_in_guest(s, &c) && !strcmp(id, "cgroup=off,kernel=rt,cmdline=none"), "kernel=rt: in a guest");
	is_int(lj_scenario_set_axis(s, "kernel", "rt,/x/vmlinuz", err, sizeof(err)), 0, "--axis kernel=...");
	lj_scenario_cell(s, 2, &c);
	lj_scenario_cell_id(s, &c, id, sizeof(id));
	is_str(id, "cgroup=off,kernel=/x/vmlinuz,cmdline=none", "the axis keeps its place, with the new values");
	is_int(lj_scenario_set_axis(s, "governor", "keep", err, sizeof(err)), 0, "--axis of an axis the file lacks");
	is_str(s->axes[s->naxes - 1].name, "governor", "is added last");
	ok(lj_scenario_set_axis(s, "kernel", "nope", err, sizeof(err)) == -EINVAL &&
	   strstr(err, "--axis: kernel: 'nope' is neither host"), "--axis with a kernel no section names: refused");
	lj_scenario_free(s);
}

static void test_bad_kernels(void)
{
	bad("[matrix]\ncmdline = quiet\n[workload w]\ncommand = true\n", "t.scn:2: cmdline: boot words need a kernel axis",
	    "cmdline without kernel");
	bad("[matrix]\nkernel = k\n[workload w]\ncommand = true\n", "t.scn:2: kernel: 'k' is neither host",
	    "a kernel value naming no section");
	bad("[matrix]\nkernel = k\n[kernel k]\nmodules = /m\n[workload w]\ncommand = true\n",
	    "t.scn:3: kernel 'k' has no image", "a [kernel] without image");
	bad("[matrix]\nkernel = host\n[kernel host]\nimage = /v\n[workload w]\ncommand = true\n",
	    "invalid kernel name 'host'", "host is not a section name");
	bad("[kernel k]\nimage = /v\nsize = 3\n[workload w]\ncommand = true\n",
	    "t.scn:3: unknown key 'size' in [kernel k]", "an unknown key in [kernel]");
	bad("[matrix]\nkernel = /v\ncmdline = a'b\n[workload w]\ncommand = true\n",
	    "cmdline: 'a'b' contains a quote", "a quote in boot words");
	bad("[kernel k]\nimage = /v$X\n[workload w]\ncommand = true\n", "image: contains a quote, backslash, $",
	    "$ in an image path");
}

int main(void)
{
	lj_err_init("test_scenario");
	plan_no_plan();
	test_good_file();
	test_defaults();
	test_order();
	test_bad_files();
	test_watch();
	test_names();
	test_quoting();
	test_kernels();
	test_bad_kernels();
	return done();
}
