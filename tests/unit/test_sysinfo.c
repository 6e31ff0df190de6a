// SPDX-License-Identifier: GPL-2.0-or-later
/* test_sysinfo - the system block: structure on this machine, config fields, hypervisor names, diff. */
#include "lj_kconfig.h"
#include "lj_result.h"
#include "lj_sysinfo.h"
#include "lj_virt.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

/* @key is of type @t, or {"unknown": "reason"} when the machine does not expose it. */
static int typed_or_unknown(json_object *sys, const char *key, json_type t)
{
	json_object *v;

	if (!json_object_object_get_ex(sys, key, &v))
		return 0;
	if (json_object_is_type(v, t))
		return 1;
	return json_object_is_type(v, json_type_object) &&
	       json_object_is_type(get(v, "unknown"), json_type_string);
}

static void test_collect_here(void)
{
	static const struct {
		const char *key;
		json_type t;
	} keys[] = {
		{ "hostname", json_type_string }, { "kernel_release", json_type_string },
		{ "kernel_version", json_type_string }, { "machine", json_type_string },
		{ "proc_version", json_type_string }, { "cmdline", json_type_string },
		{ "hz", json_type_int }, { "no_hz", json_type_string },
		{ "config_sha256", json_type_string }, { "config", json_type_object },
		{ "cgroup_mode", json_type_string }, { "cpu_model", json_type_string },
		{ "cpus_online", json_type_string }, { "cpukinds", json_type_array },
	};
	json_object *sys = lj_sysinfo_collect(), *v, *p;
	const char *s;
	size_t i;
	int bad = 0;

	ok(sys != NULL, "collect returns a block");
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!typed_or_unknown(sys, keys[i].key, keys[i].t)) {
			diag("key %s missing or of the wrong type", keys[i].key);
			bad++;
		}
	}
	is_int(bad, 0, "every identity key is present, typed or {\"unknown\": reason}");
	p = get(sys, "preempt");
	s = json_object_get_string(get(p, "model"));
	ok(s && (!strcmp(s, "none") || !strcmp(s, "voluntary") || !strcmp(s, "full") ||
		 !strcmp(s, "lazy") || !strcmp(s, "rt") || !strcmp(s, "unknown")),
	   "preempt.model is a model name");
	ok(json_object_is_type(get(p, "dynamic"), json_type_boolean) &&
	   json_object_is_type(get(p, "source"), json_type_string) &&
	   json_object_is_type(get(p, "mode"), json_type_string), "preempt has dynamic, mode, source");
	s = json_object_get_string(get(sys, "cgroup_mode"));
	ok(s && (!strcmp(s, "v1") || !strcmp(s, "v2") || !strcmp(s, "hybrid") || !strcmp(s, "none") ||
		 get(get(sys, "cgroup_mode"), "unknown")), "cgroup_mode is v1, v2, hybrid or none");
	v = get(sys, "cpufreq");
	ok((json_object_is_type(v, json_type_string) &&
	    !strncmp(json_object_get_string(v), "unavailable: ", 13)) ||
	   (json_object_is_type(get(v, "driver"), json_type_string) &&
	    json_object_is_type(get(v, "policies"), json_type_array)),
	   "cpufreq is {driver, policies} or \"unavailable: ...\"");
	v = get(sys, "cpuidle");
	ok((json_object_is_type(v, json_type_string) &&
	    !strncmp(json_object_get_string(v), "unavailable: ", 13)) ||
	   json_object_is_type(get(v, "driver"), json_type_string),
	   "cpuidle is {driver, governor, states} or \"unavailable: ...\"");
	v = get(sys, "virtualised");
	ok(json_object_is_type(v, json_type_string) || json_object_is_type(v, json_type_boolean) ||
	   get(v, "unknown"), "virtualised is a hypervisor name, false, or unknown");
	ok(json_object_get_int(get(sys, "ncpus")) >= 1, "at least one CPU");
	diag("preempt %s/%s (%s), hz %s, cgroup %s, virtualised %s",
	     json_object_get_string(get(p, "model")), json_object_get_string(get(p, "mode")),
	     json_object_get_string(get(p, "source")), json_object_get_string(get(sys, "hz")),
	     json_object_get_string(get(sys, "cgroup_mode")),
	     json_object_get_string(get(sys, "virtualised")));
	is_int(lj_sysinfo_diff(sys, sys, NULL, NULL), 0, "a block does not differ from itself");
	json_object_put(sys);
}

static void test_kconfig_fields(void)
{
	static const char text[] =
		"CONFIG_PREEMPT_RT=y\nCONFIG_PREEMPT_DYNAMIC=y\nCONFIG_HZ_1000=y\n"
		"CONFIG_HZ=1000\nCONFIG_NO_HZ_FULL=y\nCONFIG_NO_HZ_IDLE=y\n"
		"CONFIG_CGROUPS=y\n# CONFIG_RT_GROUP_SCHED is not set\n";
	json_object *sys = json_object_new_object(), *cfg;
	struct lj_kconfig k;

	lj_kconfig_from_text(&k, text, strlen(text));
	lj_sysinfo_add_kconfig(sys, &k);
	is_int(json_object_get_int(get(sys, "hz")), 1000, "hz from CONFIG_HZ");
	is_str(json_object_get_string(get(sys, "no_hz")), "full", "NO_HZ_FULL wins over idle");
	cfg = get(sys, "config");
	is_str(json_object_get_string(get(cfg, "CONFIG_PREEMPT_RT")), "y", "CONFIG_PREEMPT_RT recorded");
	is_str(json_object_get_string(get(cfg, "CONFIG_RT_GROUP_SCHED")), "n", "unset option is n");
	is_str(json_object_get_string(get(sys, "config_sha256")), k.sha256, "config sha256 recorded");
	lj_kconfig_free(&k);
	json_object_put(sys);

	sys = json_object_new_object();
	lj_kconfig_from_text(&k, "CONFIG_HZ=25x\n", 14);
	lj_sysinfo_add_kconfig(sys, &k);
	ok(json_object_is_type(get(get(sys, "hz"), "unknown"), json_type_string),
	   "a malformed CONFIG_HZ is unknown, with the reason");
	ok(get(get(sys, "no_hz"), "unknown") != NULL, "no NO_HZ choice is unknown");
	lj_kconfig_free(&k);
	json_object_put(sys);
}

static void test_hypervisor_names(void)
{
	is_str(lj_virt_hypervisor_name("KVMKVMKVM"), "KVM", "KVM CPUID signature");
	is_str(lj_virt_hypervisor_name("Microsoft Hv"), "Hyper-V", "Hyper-V CPUID signature");
	is_str(lj_virt_hypervisor_name("TCGTCGTCGTCG"), "QEMU TCG", "QEMU TCG's CPUID signature (what lj-guest's TCG guests say)");
	is_str(lj_virt_hypervisor_name("QEMU Standard PC (Q35 + ICH9, 2009)"), "QEMU",
	       "QEMU DMI product name");
	ok(lj_virt_hypervisor_name("Dell Inc. PowerEdge R640") == NULL, "bare metal names none");
}

struct seen {
	char lines[8][128];
	int n;
};

static void record(const char *key, const char *va, const char *vb, void *arg)
{
	struct seen *s = arg;

	if (s->n < 8)
		snprintf(s->lines[s->n++], sizeof(s->lines[0]), "%s: %s -> %s", key, va, vb);
}

static void test_diff(void)
{
	json_object *a = json_tokener_parse(
		"{\"preempt\": {\"mode\": \"none\", \"dynamic\": true}, \"hz\": 250,"
		" \"cpukinds\": [{\"cpus\": \"0-1\"}, {\"cpus\": \"2-3\"}]}");
	json_object *b = json_tokener_parse(
		"{\"preempt\": {\"mode\": \"full\", \"dynamic\": true}, \"hz\": 250,"
		" \"cpukinds\": [{\"cpus\": \"0-1\"}], \"virtualised\": \"KVM\"}");
	struct seen s = { .n = 0 };

	is_int(lj_sysinfo_diff(a, b, record, &s), 3, "three fields differ");
	is_str(s.lines[0], "preempt.mode: none -> full", "nested keys flattened with dots");
	is_str(s.lines[1], "cpukinds.1.cpus: 2-3 -> (absent)", "array elements by index");
	is_str(s.lines[2], "virtualised: (absent) -> KVM", "a key only the second block has");
	json_object_put(a);
	json_object_put(b);
}

static void test_in_result(void)
{
	struct lj_result *r;
	char why[256], *argv[] = { "lj-test", NULL };

	unsetenv("LJ_RESULT_NO_SYSINFO");
	r = lj_result_new("lj-test", 1, argv);
	ok(r && json_object_is_type(get(get(lj_result_root(r), "system"), "kernel_release"),
				    json_type_string), "lj_result_new fills the system block");
	is_int(lj_result_validate(lj_result_root(r), why, sizeof(why)), 0, "a document with a real system block validates");
	lj_result_free(r);
}

static int put_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* As a user: become root of a new user namespace (what unshare -Ur does). */
static int enter_namespace(void)
{
	char map[64];
	unsigned uid = (unsigned)getuid(), gid = (unsigned)getgid();

	if (!unshare(CLONE_NEWNS))
		return 0;
	if (errno != EPERM || unshare(CLONE_NEWUSER | CLONE_NEWNS))
		return -1;
	snprintf(map, sizeof(map), "0 %u 1\n", uid);
	if (put_file("/proc/self/uid_map", map))
		return -1;
	put_file("/proc/self/setgroups", "deny\n");
	snprintf(map, sizeof(map), "0 %u 1\n", gid);
	return put_file("/proc/self/gid_map", map);
}

/*
 * A fake /sys/devices/system/cpu with two CPUs sharing one cpufreq policy
 * and no cpuidle driver, in a private mount namespace: libcpupower reads
 * the real paths, which now hold our files.
 */
static int fake_cpu_tree(void)
{
	static const char *const files[][2] = {
		{ "online", "0-1\n" }, { "possible", "0-1\n" }, { "present", "0-1\n" },
		{ "cpu0/cpufreq/scaling_driver", "acpi-cpufreq\n" },
		{ "cpu0/cpufreq/scaling_governor", "performance\n" },
		{ "cpu0/cpufreq/scaling_min_freq", "800000\n" },
		{ "cpu0/cpufreq/scaling_max_freq", "3600000\n" },
		{ "cpu0/cpufreq/related_cpus", "0 1\n" },
		{ "cpu0/cpufreq/affected_cpus", "0 1\n" },
		{ "cpu1/cpufreq/scaling_driver", "acpi-cpufreq\n" },
		{ "cpu1/cpufreq/scaling_governor", "performance\n" },
		{ "cpu1/cpufreq/scaling_min_freq", "800000\n" },
		{ "cpu1/cpufreq/scaling_max_freq", "3600000\n" },
		{ "cpu1/cpufreq/related_cpus", "0 1\n" },
		{ "cpu1/cpufreq/affected_cpus", "0 1\n" },
	};
	static const char *const dirs[] = { "cpu0", "cpu0/cpufreq", "cpu1", "cpu1/cpufreq" };
	char path[256];
	size_t i;

	if (enter_namespace() || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("ljtest", "/sys/devices/system/cpu", "tmpfs", 0, "size=64k"))
		return -1;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/%s", dirs[i]);
		if (mkdir(path, 0755))
			return -1;
	}
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/%s", files[i][0]);
		if (put_file(path, files[i][1]))
			return -1;
	}
	return 0;
}

static void test_fake_cpufreq(void)
{
	char buf[4096];
	json_object *got, *pol, *p0;
	int pfd[2], status;
	ssize_t n = 0, r;
	pid_t pid;

	if (pipe(pfd)) {
		skip(5, "no pipe");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		json_object *sys, *out;
		const char *text;

		close(pfd[0]);
		/* hwloc sees the fake tree too and may complain: keep TAP clean */
		if (fake_cpu_tree() || !freopen("/dev/null", "w", stderr))
			_exit(77);
		sys = lj_sysinfo_collect();
		out = json_object_new_object();
		json_object_object_add(out, "cpufreq", json_object_get(get(sys, "cpufreq")));
		json_object_object_add(out, "cpuidle", json_object_get(get(sys, "cpuidle")));
		text = json_object_to_json_string(out);
		_exit(write(pfd[1], text, strlen(text)) < 0);
	}
	close(pfd[1]);
	while (n < (ssize_t)sizeof(buf) - 1 && (r = read(pfd[0], buf + n, sizeof(buf) - 1 - (size_t)n)) > 0)
		n += r;
	buf[n] = '\0';
	close(pfd[0]);
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
		skip(5, "cannot build a fake /sys/devices/system/cpu (needs root or user namespaces)");
		return;
	}
	got = json_tokener_parse(buf);
	pol = get(get(got, "cpufreq"), "policies");
	p0 = json_object_array_get_idx(pol, 0);
	is_str(json_object_get_string(get(get(got, "cpufreq"), "driver")), "acpi-cpufreq",
	       "fake tree: cpufreq driver through libcpupower");
	is_int(json_object_array_length(pol), 1, "fake tree: two CPUs sharing one policy");
	is_str(json_object_get_string(get(p0, "cpus")), "0-1", "fake tree: the policy's CPUs");
	ok(!strcmp(json_object_get_string(get(p0, "governor")), "performance") &&
	   json_object_get_int64(get(p0, "max_khz")) == 3600000, "fake tree: governor and limits");
	is_str(json_object_get_string(get(got, "cpuidle")), "unavailable: no cpuidle driver",
	       "fake tree: no cpuidle driver");
	json_object_put(got);
}

int main(void)
{
	plan(33);
	test_collect_here();
	test_kconfig_fields();
	test_hypervisor_names();
	test_diff();
	test_in_result();
	test_fake_cpufreq();
	return done();
}
