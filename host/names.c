/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Names U-Boot uses for FIT `type`, `arch`, `os` and `compression` values
 * (short form in the FIT, long form in listings).  -f auto checks its -T,
 * -A, -O and -C arguments against these tables, as mkimage does.
 */
#include <stddef.h>
#include <string.h>

#include "names.h"

struct name {
	const char *s, *l;
};

static const struct name types[] = {
	{ "kernel", "Kernel Image" },
	{ "kernel_noload", "Kernel Image (no loading done)" },
	{ "ramdisk", "RAMDisk Image" },
	{ "flat_dt", "Flat Device Tree" },
	{ "firmware", "Firmware" },
	{ "firmware_ivt", "Firmware with HABv4 IVT" },
	{ "standalone", "Standalone Program" },
	{ "script", "Script" },
	{ "filesystem", "Filesystem Image" },
	{ "multi", "Multi-File Image" },
	{ "fpga", "FPGA Image" },
	{ "tee", "Trusted Execution Environment Image" },
	{ "fdt_legacy", "legacy Image with Flat Device Tree" },
	{ "copro", "Coprocessor Image" },
	{ NULL, NULL },
};

static const struct name arches[] = {
	{ "alpha", "Alpha" },
	{ "arc", "ARC" },
	{ "arm", "ARM" },
	{ "arm64", "AArch64" },
	{ "avr32", "AVR32" },
	{ "blackfin", "Blackfin" },
	{ "ia64", "IA64" },
	{ "m68k", "M68K" },
	{ "microblaze", "MicroBlaze" },
	{ "mips", "MIPS" },
	{ "mips64", "MIPS 64 Bit" },
	{ "nds32", "NDS32" },
	{ "nios2", "NIOS II" },
	{ "or1k", "OpenRISC 1000" },
	{ "powerpc", "PowerPC" },
	{ "ppc", "PowerPC" },
	{ "riscv", "RISC-V" },
	{ "s390", "IBM S390" },
	{ "sandbox", "Sandbox" },
	{ "sh", "SuperH" },
	{ "sparc", "SPARC" },
	{ "sparc64", "SPARC 64 Bit" },
	{ "x86", "Intel x86" },
	{ "x86_64", "AMD x86_64" },
	{ "xtensa", "Xtensa" },
	{ NULL, NULL },
};

static const struct name oses[] = {
	{ "linux", "Linux" },
	{ "u-boot", "U-Boot" },
	{ "arm-trusted-firmware", "ARM Trusted Firmware" },
	{ "tee", "Trusted Execution Environment" },
	{ "opensbi", "RISC-V OpenSBI" },
	{ "efi", "EFI Firmware" },
	{ "elf", "ELF Image" },
	{ "freebsd", "FreeBSD" },
	{ "netbsd", "NetBSD" },
	{ "openbsd", "OpenBSD" },
	{ "vxworks", "VxWorks" },
	{ "qnx", "QNX" },
	{ "rtems", "RTEMS" },
	{ "plan9", "Plan 9" },
	{ "openrtos", "OpenRTOS" },
	{ "integrity", "INTEGRITY" },
	{ NULL, NULL },
};

static const struct name comps[] = {
	{ "none", "uncompressed" },
	{ "gzip", "gzip compressed" },
	{ "bzip2", "bzip2 compressed" },
	{ "lzma", "lzma compressed" },
	{ "lzo", "lzo compressed" },
	{ "lz4", "lz4 compressed" },
	{ "zstd", "zstd compressed" },
	{ NULL, NULL },
};

static const struct name *table(enum vfit_name_kind kind)
{
	switch (kind) {
	case VFIT_NAME_TYPE:
		return types;
	case VFIT_NAME_ARCH:
		return arches;
	case VFIT_NAME_OS:
		return oses;
	case VFIT_NAME_COMP:
		return comps;
	}
	return types;
}

const char *vfit_name_find(enum vfit_name_kind kind, const char *short_name)
{
	const struct name *t = table(kind);

	for (; short_name && t->s; t++)
		if (!strcmp(t->s, short_name))
			return t->l;
	return NULL;
}

const char *vfit_name_long(enum vfit_name_kind kind, const char *short_name)
{
	static const char *const unknown[] = { "Unknown Image", "Unknown Architecture",
					       "Unknown OS", "Unknown Compression" };
	const char *l = vfit_name_find(kind, short_name);

	return l ? l : unknown[kind];
}
