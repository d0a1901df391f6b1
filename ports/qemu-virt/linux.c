/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Linux boot protocols (Documentation/arch/arm64/booting.rst and
 * Documentation/arch/arm/booting.rst).  The kernel header is read after
 * the image verified; it still gets checked, because a signed FIT can
 * hold a kernel for the wrong CPU or load address, and jumping into it
 * would end in a silent hang rather than a clear refusal.
 */
#include <string.h>

#include <libfdt.h>

#include "linux.h"
#include "port.h"

#define SZ_2M 0x200000u

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#ifdef __aarch64__

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* arm64 Image header: code0/1, text_offset, image_size, flags, res2..4, magic "ARM\x64". */
const char *linux_check(const void *img, size_t len, uint64_t load, uint64_t *mem)
{
	const uint8_t *h = img;
	uint64_t text_offset, image_size;

	if (len < 64 || le32(h + 56) != 0x644d5241u)
		return "kernel: not an arm64 Image (no ARM\\x64 magic)";
	text_offset = le64(h + 8);
	image_size = le64(h + 16);
	/* image_size 0: a kernel older than 3.17, which also implies text_offset 0x80000. */
	if (!image_size)
		text_offset = 0x80000;
	if (load < text_offset || (load - text_offset) % SZ_2M)
		return "kernel: load address is not text_offset above a 2 MiB boundary";
	*mem = image_size > len ? image_size : len;
	return NULL;
}

#else

/* zImage: magic 0x016f2818 at 0x24, start/end at 0x28/0x2c. */
const char *linux_check(const void *img, size_t len, uint64_t load, uint64_t *mem)
{
	const uint8_t *h = img;

	if (len < 0x30 || le32(h + 0x24) != 0x016f2818u)
		return "kernel: not an arm zImage (no 0x016f2818 magic)";
	if (load % 4)
		return "kernel: load address is not word-aligned";
	*mem = len;
	return NULL;
}

#endif

const char *linux_fdt_copy(void *dst, size_t cap, void *src, size_t src_len)
{
	if (src_len < sizeof(struct fdt_header) || fdt_check_header(src) ||
	    fdt_totalsize(src) > src_len)
		return "the DTB is malformed";
	/* QEMU's DTB claims 1 MiB, of which it uses a few KiB: packed in place first. */
	if (fdt_totalsize(src) > cap && fdt_pack(src))
		return "the DTB is malformed";
	if (fdt_open_into(src, dst, (int)cap))
		return "the DTB does not fit the stage's DTB buffer";
	return NULL;
}

const char *linux_fdt_chosen(void *dtb, const char *bootargs, uint64_t initrd,
			     uint64_t initrd_size)
{
	int chosen = fdt_path_offset(dtb, "/chosen");

	if (chosen < 0)
		chosen = fdt_add_subnode(dtb, 0, "chosen");
	if (chosen < 0)
		return "cannot add /chosen";
	if (fdt_setprop_string(dtb, chosen, "bootargs", bootargs))
		return "cannot set /chosen/bootargs";
	if (initrd_size &&
	    (fdt_setprop_u64(dtb, chosen, "linux,initrd-start", initrd) ||
	     fdt_setprop_u64(dtb, chosen, "linux,initrd-end", initrd + initrd_size)))
		return "cannot set /chosen/linux,initrd-*";
	if (fdt_pack(dtb))
		return "cannot pack the DTB";
	return NULL;
}

void linux_clean(uint64_t kernel, uint64_t kernel_mem, uint64_t dtb, uint64_t dtb_size,
		 uint64_t initrd, uint64_t initrd_size)
{
	port_clean_dcache(kernel, kernel_mem);
	port_clean_dcache(dtb, dtb_size);
	if (initrd_size)
		port_clean_dcache(initrd, initrd_size);
}
