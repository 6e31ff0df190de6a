// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lj_virt - is this machine a guest, and of what hypervisor: CPUID, then
 * /sys/hypervisor, then DMI. Apart from lj_sysinfo so that the validity
 * verdict (every measuring tool, lj-cyclic included) reads it without
 * linking the system identity's libraries.
 */
#include "lj_virt.h"
#include "lj_file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

const char *lj_virt_hypervisor_name(const char *s)
{
	/* CPUID vendor signatures first, then DMI vendor and product names */
	static const struct {
		const char *pattern, *name;
	} known[] = {
		{ "KVMKVMKVM", "KVM" },
		{ "Linux KVM Hv", "KVM" },
		{ "Microsoft Hv", "Hyper-V" },
		{ "VMwareVMware", "VMware" },
		{ "XenVMMXenVMM", "Xen" },
		{ "TCGTCGTCGTCG", "QEMU TCG" },
		{ "ACRNACRNACRN", "ACRN" },
		{ "bhyve bhyve", "bhyve" },
		{ "VBoxVBoxVBox", "VirtualBox" },
		{ " lrpepyh  vr", "Parallels" },
		{ "QNXQVMBSQG", "QNX" },
		{ "QEMU", "QEMU" },
		{ "KVM", "KVM" },
		{ "VMware", "VMware" },
		{ "VirtualBox", "VirtualBox" },
		{ "innotek GmbH", "VirtualBox" },
		{ "Xen", "Xen" },
		{ "Virtual Machine", "Hyper-V" },
		{ "Google Compute Engine", "Google Compute Engine" },
		{ "Amazon EC2", "Amazon EC2" },
		{ "Bochs", "Bochs" },
		{ "Parallels", "Parallels" },
		{ "Firecracker", "Firecracker" },
	};
	size_t i;

	if (!s)
		return NULL;
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strstr(s, known[i].pattern))
			return known[i].name;
	return NULL;
}

#if !defined(__x86_64__) && !defined(__i386__)
/*
 * Without CPUID a guest cannot tell TCG from KVM by itself: lj_guest puts
 * ljkit.accel=tcg|kvm on the command line of the guests it boots.
 */
static int cmdline_accel(char *name, size_t len)
{
	char line[4096];
	const char *w;

	if (lj_file_read_text("/proc/cmdline", line, sizeof(line)) || !(w = strstr(line, "ljkit.accel=")))
		return 0;
	w += strlen("ljkit.accel=");
	if (!strncmp(w, "tcg", 3))
		snprintf(name, len, "QEMU TCG");
	else if (!strncmp(w, "kvm", 3))
		snprintf(name, len, "KVM");
	else
		return 0;
	return 1;
}
#endif

int lj_virt_detect(char *name, size_t len, const char **source)
{
	char buf[512], vendor[256], product[256];
	const char *known;

#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;

	*source = "cpuid";
	/* CPUID.1:ECX bit 31 is reserved for hypervisors to announce themselves */
	if (__get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 31))) {
		char sig[13];

		__cpuid(0x40000000, a, b, c, d);
		memcpy(sig, &b, 4);
		memcpy(sig + 4, &c, 4);
		memcpy(sig + 8, &d, 4);
		sig[12] = '\0';
		known = lj_virt_hypervisor_name(sig);
		if (known)
			snprintf(name, len, "%s", known);
		else
			snprintf(name, len, "unknown hypervisor (CPUID signature '%.12s')", sig);
		return 1;
	}
#else
	*source = "cmdline (ljkit.accel, from lj-guest)";
	if (cmdline_accel(name, len))
		return 1;
#endif
	if (!lj_file_read_text("/sys/hypervisor/type", buf, sizeof(buf)) && buf[0]) {
		snprintf(name, len, "%s", buf);
		*source = "/sys/hypervisor/type";
		return 1;
	}
	vendor[0] = product[0] = '\0';
	lj_file_read_text("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	lj_file_read_text("/sys/class/dmi/id/product_name", product, sizeof(product));
	snprintf(buf, sizeof(buf), "%s %s", vendor, product);
	known = lj_virt_hypervisor_name(buf);
	*source = "dmi";
	if (known) {
		snprintf(name, len, "%s", known);
		return 1;
	}
#if defined(__x86_64__) || defined(__i386__)
	*source = "cpuid";
	return 0;
#else
	return vendor[0] || product[0] ? 0 : -ENOENT;
#endif
}
