/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * U-Boot's name tables, as `mkimage -T/-A/-O/-C list` prints them
 * (v2023.01 plus the types HEAD added), with the numbers legacy image
 * headers store.  Each table is sorted by short name, which is the order
 * mkimage lists them in.  A short name that repeats an earlier number is
 * an alias: it is accepted but never listed ("ppc" for "powerpc").
 */
#include <stddef.h>
#include <string.h>

#include "vfit-host/names.h"

#define FIT VFIT_TYPE_FIT
#define LEG VFIT_TYPE_LEGACY
#define SOC VFIT_TYPE_SOC

/* Numbers after 41 are HEAD's; -1 where a listing never needs one. */
static const struct vfit_name types[] = {
	{ "aisimage", "Davinci AIS image", 13, SOC },
	{ "amlimage", "Amlogic Boot Image", -1, SOC },
	{ "atmelimage", "ATMEL ROM-Boot Image", 18, SOC },
	{ "copro", "Coprocessor Image", 39, FIT },
	{ "fdt_legacy", "legacy Image with Flat Device Tree ", 42, LEG },
	{ "filesystem", "Filesystem Image", 7, LEG },
	{ "firmware", "Firmware", 5, LEG },
	{ "firmware_ivt", "Firmware with HABv4 IVT", 32, SOC },
	{ "flat_dt", "Flat Device Tree", 8, FIT },
	{ "fpga", "FPGA Image", 29, FIT },
	{ "gpimage", "TI Keystone SPL Image", 17, SOC },
	{ "imx8image", "NXP i.MX8 Boot Image", 38, SOC },
	{ "imx8mimage", "NXP i.MX8M Boot Image", 37, SOC },
	{ "imximage", "Freescale i.MX Boot Image", 10, SOC },
	{ "invalid", "Invalid Image", 0, FIT },
	{ "kernel", "Kernel Image", 2, LEG },
	{ "kernel_noload", "Kernel Image (no loading done)", 14, LEG },
	{ "kwbimage", "Kirkwood Boot Image", 9, SOC },
	{ "lpc32xximage", "LPC32XX Boot Image", 21, SOC },
	{ "mtk_image", "MediaTek BootROM loadable Image", 36, SOC },
	{ "multi", "Multi-File Image", 4, LEG },
	{ "mxsimage", "Freescale MXS Boot Image", 16, SOC },
	{ "omapimage", "TI OMAP SPL With GP CH", 12, SOC },
	{ "pblimage", "Freescale PBL Boot Image", 15, SOC },
	{ "pmmc", "TI Power Management Micro-Controller Firmware", 33, SOC },
	{ "ramdisk", "RAMDisk Image", 3, LEG },
	{ "rkimage", "Rockchip Boot Image", 23, SOC },
	{ "rksd", "Rockchip SD Boot Image", 24, SOC },
	{ "rkspi", "Rockchip SPI Boot Image", 25, SOC },
	{ "script", "Script", 6, LEG },
	{ "sfspl", "StarFive SPL Image", -1, SOC },
	{ "socfpgaimage", "Altera SoCFPGA CV/AV preloader", 19, SOC },
	{ "socfpgaimage_v1", "Altera SoCFPGA A10 preloader", 35, SOC },
	{ "spkgimage", "Renesas SPKG Image", -1, SOC },
	{ "standalone", "Standalone Program", 1, LEG },
	{ "stm32image", "STMicroelectronics STM32 Image", 34, SOC },
	{ "stm32imagev2", "STMicroelectronics STM32 Image V2.0", -1, SOC },
	{ "sunxi_egon", "Allwinner eGON Boot Image", 40, SOC },
	{ "sunxi_toc0", "Allwinner TOC0 Boot Image", 41, SOC },
	{ "tee", "Trusted Execution Environment Image", 31, FIT },
	{ "tfa-bl31", "TFA BL31 Image", -1, FIT },
	{ "ublimage", "Davinci UBL image", 11, SOC },
	{ "vybridimage", "Vybrid Boot Image", 30, SOC },
	{ "x86_setup", "x86 setup.bin", 20, FIT },
	{ "zynqimage", "Xilinx Zynq Boot Image", 26, SOC },
	{ "zynqmpbif", "Xilinx ZynqMP Boot Image (bif)", 28, SOC },
	{ "zynqmpimage", "Xilinx ZynqMP Boot Image", 27, SOC },
	{ NULL, NULL, 0, 0 },
};

static const struct vfit_name arches[] = {
	{ "alpha", "Alpha", 1, 0 },
	{ "arc", "ARC", 23, 0 },
	{ "arm", "ARM", 2, 0 },
	{ "arm64", "AArch64", 22, 0 },
	{ "avr32", "AVR32", 17, 0 },
	{ "blackfin", "Blackfin", 16, 0 },
	{ "ia64", "IA64", 4, 0 },
	{ "invalid", "Invalid ARCH", 0, 0 },
	{ "m68k", "M68K", 12, 0 },
	{ "microblaze", "MicroBlaze", 14, 0 },
	{ "mips", "MIPS", 5, 0 },
	{ "mips64", "MIPS 64 Bit", 6, 0 },
	{ "nds32", "NDS32", 20, 0 },
	{ "nios2", "NIOS II", 15, 0 },
	{ "or1k", "OpenRISC 1000", 21, 0 },
	{ "powerpc", "PowerPC", 7, 0 },
	{ "ppc", "PowerPC", 7, 0 },
	{ "riscv", "RISC-V", 26, 0 },
	{ "s390", "IBM S390", 8, 0 },
	{ "sandbox", "Sandbox", 19, 0 },
	{ "sh", "SuperH", 9, 0 },
	{ "sparc", "SPARC", 10, 0 },
	{ "sparc64", "SPARC 64 Bit", 11, 0 },
	{ "x86", "Intel x86", 3, 0 },
	{ "x86_64", "AMD x86_64", 24, 0 },
	{ "xtensa", "Xtensa", 25, 0 },
	{ NULL, NULL, 0, 0 },
};

static const struct vfit_name oses[] = {
	{ "4_4bsd", "4_4BSD", 4, 0 },
	{ "arm-trusted-firmware", "ARM Trusted Firmware", 25, 0 },
	{ "dell", "Dell", 11, 0 },
	{ "efi", "EFI Firmware", 28, 0 },
	{ "esix", "Esix", 7, 0 },
	{ "freebsd", "FreeBSD", 3, 0 },
	{ "integrity", "INTEGRITY", 21, 0 },
	{ "invalid", "Invalid OS", 0, 0 },
	{ "irix", "Irix", 9, 0 },
	{ "linux", "Linux", 5, 0 },
	{ "ncr", "NCR", 12, 0 },
	{ "netbsd", "NetBSD", 2, 0 },
	{ "openbsd", "OpenBSD", 1, 0 },
	{ "openrtos", "OpenRTOS", 24, 0 },
	{ "opensbi", "RISC-V OpenSBI", 27, 0 },
	{ "ose", "Enea OSE", 22, 0 },
	{ "plan9", "Plan 9", 23, 0 },
	{ "psos", "pSOS", 15, 0 },
	{ "qnx", "QNX", 16, 0 },
	{ "rtems", "RTEMS", 18, 0 },
	{ "sco", "SCO", 10, 0 },
	{ "solaris", "Solaris", 8, 0 },
	{ "svr4", "SVR4", 6, 0 },
	{ "tee", "Trusted Execution Environment", 26, 0 },
	{ "u-boot", "U-Boot", 17, 0 },
	{ "vxworks", "VxWorks", 14, 0 },
	{ NULL, NULL, 0, 0 },
};

static const struct vfit_name comps[] = {
	{ "bzip2", "bzip2 compressed", 2, 0 },
	{ "gzip", "gzip compressed", 1, 0 },
	{ "lz4", "lz4 compressed", 5, 0 },
	{ "lzma", "lzma compressed", 3, 0 },
	{ "lzo", "lzo compressed", 4, 0 },
	{ "none", "uncompressed", 0, 0 },
	{ "zstd", "zstd compressed", 6, 0 },
	{ NULL, NULL, 0, 0 },
};

static const struct vfit_name *const tables[] = { types, arches, oses, comps };

const struct vfit_name *vfit_name_get(enum vfit_name_kind kind, const char *short_name)
{
	const struct vfit_name *t = tables[kind];

	for (; short_name && t->s; t++)
		if (!strcmp(t->s, short_name))
			return t;
	return NULL;
}

const struct vfit_name *vfit_name_by_id(enum vfit_name_kind kind, int id)
{
	const struct vfit_name *t = tables[kind];

	for (; t->s; t++)
		if (t->id == id)
			return t;
	return NULL;
}

int vfit_name_known(enum vfit_name_kind kind, const char *name)
{
	return vfit_name_get(kind, name) != NULL;
}

const char *vfit_name_find(enum vfit_name_kind kind, const char *short_name)
{
	const struct vfit_name *n = vfit_name_get(kind, short_name);

	return n ? n->l : NULL;
}

static const char *const unknown[] = { "Unknown Image", "Unknown Architecture", "Unknown OS",
				       "Unknown Compression" };

const char *vfit_name_long(enum vfit_name_kind kind, const char *short_name)
{
	const char *l = vfit_name_find(kind, short_name);

	return l ? l : unknown[kind];
}

const char *vfit_name_long_id(enum vfit_name_kind kind, int id)
{
	const struct vfit_name *n = vfit_name_by_id(kind, id);

	return n ? n->l : unknown[kind];
}

void vfit_name_print_all(FILE *f, enum vfit_name_kind kind)
{
	static const char *const what[] = { "image type", "architecture", "operating system",
					    "compression" };
	const struct vfit_name *t;

	fprintf(f, "\nInvalid %s, supported are:\n", what[kind]);
	for (t = tables[kind]; t->s; t++)
		if (t->id < 0 || vfit_name_by_id(kind, t->id) == t)
			fprintf(f, "\t%-15s  %s\n", t->s, t->l);
	fputc('\n', f);
}
