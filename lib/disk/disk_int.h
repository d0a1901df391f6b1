/* SPDX-License-Identifier: BSD-3-Clause */
/* Little-endian fields of the on-disk formats (any alignment). */
#ifndef VFIT_DISK_INT_H
#define VFIT_DISK_INT_H

#include <stddef.h>
#include <stdint.h>

#include "vfit/hash.h"

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

static inline uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static inline void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

#endif
