/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_virt - is this machine a guest, and of what hypervisor (the identity's virtualised, the TCG verdict). */
#ifndef LJ_VIRT_H
#define LJ_VIRT_H

#include <stddef.h>

/*
 * 1 with the hypervisor's name in @name ("KVM", "QEMU TCG" for QEMU's
 * emulation, whose CPUID signature is TCGTCGTCGTCG), 0 on bare metal,
 * -ENOENT when nothing says (no CPUID, /sys/hypervisor or DMI).
 * *@source: where it was read ("cpuid", "/sys/hypervisor/type", "dmi";
 * without CPUID, a guest lj-guest booted says ljkit.accel= on its
 * command line).
 */
int lj_virt_detect(char *name, size_t len, const char **source);

/*
 * The hypervisor named by a CPUID leaf 0x40000000 vendor signature
 * ("KVMKVMKVM", "Microsoft Hv", ...) or by DMI sys_vendor/product_name
 * text; NULL when the text names none.
 */
const char *lj_virt_hypervisor_name(const char *signature_or_dmi);

#endif
