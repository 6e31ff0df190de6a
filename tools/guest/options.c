// SPDX-License-Identifier: GPL-2.0-or-later
/* options.c - lj-guest's option table and its checks. */
#include "guest.h"
#include "lj_err.h"
#include "lj_opt.h"
#include "lj_parse.h"
#include "lj_time.h"

#include <stddef.h>
#include <string.h>

enum {
	K_ACCEL = LJ_OPT_LONG_BASE, K_CPU, K_CPUS, K_MEMORY, K_CGROUP, K_QEMU, K_BUSYBOX, K_CACHE, K_CONSOLE,
};

#define AT(f) offsetof(struct guest_opts, f)

_Static_assert(LJ_GUEST_ACCEL_AUTO == 0 && LJ_GUEST_ACCEL_KVM == 1 && LJ_GUEST_ACCEL_TCG == 2,
	       "--accel's values in the enum's order");
_Static_assert(LJ_GUEST_CGROUP_AUTO == 0 && LJ_GUEST_CGROUP_V2 == 1 && LJ_GUEST_CGROUP_V1 == 2 &&
	       LJ_GUEST_CGROUP_HYBRID == 3 && LJ_GUEST_CGROUP_ANDROID == 4 && LJ_GUEST_CGROUP_NONE == 5,
	       "--cgroup's values in the enum's order");

static const struct lj_opt guest_opts_table[] = {
	{ "kernel", 'k', LJ_OPT_ARG, "IMAGE", "the kernel image to boot: vmlinuz or bzImage (x86-64), Image (arm64)",
	  LJ_OPT_STRING, AT(cfg.image) },
	{ "modules", 'M', LJ_OPT_ARG, "DIR", "its modules: a tree holding lib/modules/RELEASE, or that directory "
	  "(default: next to the image, then /lib/modules/RELEASE)", LJ_OPT_STRING, AT(cfg.modules) },
	{ "initramfs", 'i', LJ_OPT_ARG, "FILE", "an initramfs of yours, unpacked before lj-guest's (its modules are loaded by name)",
	  LJ_OPT_STRING, AT(cfg.initramfs) },
	{ "append", 'a', LJ_OPT_ARG, "WORDS", "kernel command-line words (repeatable)" },
	{ "share", 's', LJ_OPT_ARG, "DIR", "share DIR read-write, at the same path in the guest (repeatable, at most 8)" },
	{ "env", 'e', LJ_OPT_ARG, "NAME=VALUE", "set a variable for the command (repeatable)" },
	{ "timeout", 't', LJ_OPT_ARG, "DUR", "kill the guest when it has not ended after DUR (default: none)",
	  LJ_OPT_DURATION, AT(cfg.timeout_ns), 1, 0, LJ_NSEC_PER_SEC },
	{ "accel", K_ACCEL, LJ_OPT_ARG, "auto|kvm|tcg", "KVM or QEMU's emulation (default auto: KVM when it runs this kernel)",
	  LJ_OPT_CHOICE, AT(cfg.accel), .values = "auto kvm tcg" },
	{ "cpu", K_CPU, LJ_OPT_ARG, "MODEL", "QEMU's -cpu (default: host with KVM, max with TCG)", LJ_OPT_STRING, AT(cfg.cpu) },
	{ "cpus", K_CPUS, LJ_OPT_ARG, "N", "guest CPUs (default: the host's online CPUs, at most 8; one fewer with TCG)",
	  LJ_OPT_INT, AT(cfg.cpus), 1, 64 },
	{ "memory", K_MEMORY, LJ_OPT_ARG, "SIZE", "guest memory, e.g. 512M or 2G (default 1G, or half the host's when less)" },
	{ "cgroup", K_CGROUP, LJ_OPT_ARG, "auto|v2|v1|hybrid|android|none", "the guest's cgroup layout (default auto: v2, or v1 "
	  "with systemd.unified_cgroup_hierarchy=0)", LJ_OPT_CHOICE, AT(cfg.cgroup), .values = "auto v2 v1 hybrid android none" },
	{ "qemu", K_QEMU, LJ_OPT_ARG, "PATH", "the QEMU binary (default: qemu-system-x86_64 or -aarch64 in PATH)",
	  LJ_OPT_STRING, AT(cfg.qemu) },
	{ "busybox", K_BUSYBOX, LJ_OPT_ARG, "PATH", "a static busybox of the guest's architecture (default: busybox in PATH)",
	  LJ_OPT_STRING, AT(cfg.busybox) },
	{ "cache", K_CACHE, LJ_OPT_ARG, "DIR", "where initramfs images and KVM probes are kept (default: $LJ_GUEST_CACHE, "
	  "/var/cache/ljkit/guest as root)", LJ_OPT_STRING, AT(cfg.cache) },
	{ "console", K_CONSOLE, LJ_OPT_ARG, "FILE", "keep the guest's console (kernel messages) in FILE",
	  LJ_OPT_STRING, AT(console) },
	{ "verbose", 'v', LJ_OPT_NOARG, NULL, "say how the guest boots (accelerator, CPUs, memory, boot time)",
	  LJ_OPT_VERBOSITY },
	{ "quiet", 'q', LJ_OPT_NOARG, NULL, "errors only", LJ_OPT_VERBOSITY },
	{ 0 }
};

static int add_append(struct guest_opts *o, const char *arg)
{
	size_t used = strlen(o->append);

	if (strchr(arg, '\n') || used + strlen(arg) + 2 > sizeof(o->append))
		return lj_opt_invalid("--append", arg, strchr(arg, '\n') ? "a newline" : "the command line is too long");
	snprintf(o->append + used, sizeof(o->append) - used, "%s%s", used ? " " : "", arg);
	return 0;
}

static int handle(void *ctx, int key, const char *arg)
{
	struct guest_opts *o = ctx;
	uint64_t bytes;
	int n;

	switch (key) {
	case 'a':
		return add_append(o, arg);
	case 's':
		if (o->cfg.nshares == LJ_GUEST_MAX_SHARES)
			return lj_opt_invalid("--share", arg, "at most 8 shares");
		o->cfg.shares[o->cfg.nshares++] = arg;
		return 0;
	case 'e':
		for (n = 0; o->env[n]; n++)
			;
		if (n == GUEST_MAX_ENV || !strchr(arg, '=') || arg[0] == '=')
			return lj_opt_invalid("--env", arg, n == GUEST_MAX_ENV ? "too many" : "expected NAME=VALUE");
		o->env[n] = arg;
		return 0;
	case K_MEMORY:
		if (lj_parse_size(arg, &bytes, NULL, 0) || bytes < (128u << 20) || bytes > (1ull << 40))
			return lj_opt_invalid("--memory", arg, "a size from 128M to 1T");
		o->cfg.mem_mib = (int)(bytes >> 20);
		return 0;
	}
	return LJ_EXIT_USAGE;
}

int guest_parse(struct guest_opts *o, int argc, char **argv, int *first)
{
	struct lj_opt_table tab = { "options", guest_opts_table, handle, o };
	struct lj_opt_spec spec = {
		"[OPTIONS] -k IMAGE [--] COMMAND [ARGS...]",
		"Boot a kernel in a QEMU guest and run COMMAND inside it as root.",
		&tab, 1,
		"The guest sees this machine's files read-only with a writable overlay (what it writes\n"
		"is lost, but under --share directories), and runs COMMAND with its own kernel,\n"
		"cgroups, tracefs and debugfs. COMMAND's output comes back on stdout and stderr.\n"
		"Exit: COMMAND's status when it ran; 77 QEMU, busybox-static or cpio missing; 121 the\n"
		"image is missing or not a kernel; 122 the modules are missing or of another release;\n"
		"123 the kernel lacks virtio, 9p or overlay; 124 timed out; 125 kernel panic; 2 usage.",
		.stop_at_operand = true,
	};
	int ret;

	memset(o, 0, sizeof(*o));
	o->cfg.out_fd = 1;
	o->cfg.err_fd = 2;
	ret = lj_opt_parse(&spec, argc, argv, first);
	if (ret)
		return ret;
	if (!o->cfg.image)
		return lj_usage_error("no kernel: give -k IMAGE (see --help)");
	if (*first >= argc)
		return lj_usage_error("no COMMAND to run in the guest (see --help)");
	o->cfg.env = (char *const *)(uintptr_t)o->env;
	o->cfg.cmdline = o->append[0] ? o->append : NULL;
	return 0;
}
