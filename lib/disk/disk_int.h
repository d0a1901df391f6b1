/* SPDX-License-Identifier: BSD-3-Clause */
/* What the disk codecs share: the CRC-32 they check. */
#ifndef VFIT_DISK_INT_H
#define VFIT_DISK_INT_H

#include <stddef.h>
#include <stdint.h>

#include "vfit/hash.h"
#include "../byteorder.h"

/*
 * GPT and chain headers carry CRC-32s.  A build without CRC-32
 * (VFIT_HAVE_CRC32=0) cannot check them, so every header is refused.
 */
#if VFIT_HAVE_CRC32
#define disk_crc32 vfit_crc32
#else
static inline uint32_t disk_crc32(uint32_t crc, const void *p, size_t n)
{
	(void)p;
	(void)n;
	return crc;
}
#endif

#endif
