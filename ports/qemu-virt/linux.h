/* SPDX-License-Identifier: BSD-3-Clause */
/* The Linux boot protocols: arm64 Image, arm zImage, the DTB's /chosen, the jump. */
#ifndef PORT_LINUX_H
#define PORT_LINUX_H

#include <stddef.h>
#include <stdint.h>

/*
 * Checks a kernel image placed (or about to be placed) at load: the arm64
 * Image header (magic, text_offset, 2 MiB-aligned base) or the zImage
 * magic.  *mem is the RAM the kernel claims from load (image_size covers
 * its bss), at least len.  NULL or why not.
 */
const char *linux_check(const void *img, size_t len, uint64_t load, uint64_t *mem);

/*
 * Copies the DTB src[0..src_len) into dst[0..cap), opened for changes
 * (src is packed in place first when it claims more than cap).  NULL or
 * why not.
 */
const char *linux_fdt_copy(void *dst, size_t cap, void *src, size_t src_len);

/*
 * Sets /chosen in the copy: bootargs and, when initrd_size,
 * linux,initrd-start/end; then packs it.  NULL or why not.
 */
const char *linux_fdt_chosen(void *dtb, const char *bootargs, uint64_t initrd,
			     uint64_t initrd_size);

/*
 * Cleans the D-cache over what the kernel reads with its MMU off: its
 * image (and bss), the DTB and the initrd.  Then port_enter_linux().
 */
void linux_clean(uint64_t kernel, uint64_t kernel_mem, uint64_t dtb, uint64_t dtb_size,
		 uint64_t initrd, uint64_t initrd_size);

#endif
