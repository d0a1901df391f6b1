/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Byte order through shifts, for every lib/ file that reads or writes a
 * fixed-endian field (hash blocks, disk records, compressed streams, TPM
 * commands, FDT cells outside libfdt's own calls): no
 * alignment or endianness assumptions, and compilers turn these into
 * single (byte-swapping) loads where they can.  Internal, not installed.
 */
#ifndef VFIT_BYTEORDER_H
#define VFIT_BYTEORDER_H

#include <stdint.h>

static inline uint16_t ld_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint16_t ld_le16(const uint8_t *p)
{
	return (uint16_t)(p[1] << 8 | p[0]);
}

static inline uint32_t ld_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t ld_be64(const uint8_t *p)
{
	return (uint64_t)ld_be32(p) << 32 | ld_be32(p + 4);
}

static inline uint32_t ld_le32(const uint8_t *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static inline uint64_t ld_le64(const uint8_t *p)
{
	return (uint64_t)ld_le32(p + 4) << 32 | ld_le32(p);
}

static inline void st_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void st_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void st_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void st_be64(uint8_t *p, uint64_t v)
{
	st_be32(p, (uint32_t)(v >> 32));
	st_be32(p + 4, (uint32_t)v);
}

static inline void st_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void st_le64(uint8_t *p, uint64_t v)
{
	st_le32(p, (uint32_t)v);
	st_le32(p + 4, (uint32_t)(v >> 32));
}

#endif
