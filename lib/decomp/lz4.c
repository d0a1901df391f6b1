/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * LZ4 (lz4_Block_format.md, lz4_Frame_format.md): the frame format, and
 * the legacy format the kernel build writes (`lz4 -l`: magic, then blocks
 * of at most 8 MiB output each prefixed by their compressed size, then
 * optionally the uncompressed size appended by the kernel's size_append).
 * The output buffer is the history: a match may reach back into earlier
 * blocks, never before dst.
 */
#include <string.h>

#include "vfit/decomp.h"
#include "../byteorder.h"

#define FRAME_MAGIC 0x184d2204u
#define LEGACY_MAGIC 0x184c2102u
#define LEGACY_BLOCK (8u << 20)
#define MIN_MATCH 4u

static uint32_t rotl(uint32_t v, unsigned int r)
{
	return v << r | v >> (32 - r);
}

#define P1 2654435761u
#define P2 2246822519u
#define P3 3266489917u
#define P4 668265263u
#define P5 374761393u

uint32_t vfit_xxh32(const void *src, size_t n, uint32_t seed)
{
	const uint8_t *p = src, *end = p + n;
	uint32_t h;

	if (n >= 16) {
		uint32_t v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;

		for (; end - p >= 16; p += 16) {
			v1 = rotl(v1 + ld_le32(p) * P2, 13) * P1;
			v2 = rotl(v2 + ld_le32(p + 4) * P2, 13) * P1;
			v3 = rotl(v3 + ld_le32(p + 8) * P2, 13) * P1;
			v4 = rotl(v4 + ld_le32(p + 12) * P2, 13) * P1;
		}
		h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
	} else {
		h = seed + P5;
	}
	h += (uint32_t)n;
	for (; end - p >= 4; p += 4)
		h = rotl(h + ld_le32(p) * P3, 17) * P4;
	for (; p < end; p++)
		h = rotl(h + *p * P5, 11) * P1;
	h ^= h >> 15;
	h *= P2;
	h ^= h >> 13;
	h *= P3;
	return h ^ h >> 16;
}

/* A length continued in 255-valued bytes; -1 when the input ends first or it overflows. */
static int ext_len(const uint8_t **p, const uint8_t *end, size_t *len)
{
	uint8_t b;

	do {
		if (*p == end)
			return -1;
		b = *(*p)++;
		if (*len > (size_t)-1 - 255)
			return -1;
		*len += b;
	} while (b == 255);
	return 0;
}

/*
 * A match of len bytes from off back; overlapping copies repeat the
 * pattern.  With slack bytes of room after it, 8-byte chunks may run past
 * len (what follows overwrites them; they stay inside dst).
 */
static void copy_match(uint8_t *d, size_t off, size_t len, size_t slack)
{
	const uint8_t *s = d - off;
	uint8_t *e = d + len;

	if (off >= 8 && slack >= 8) {
		do {
			memcpy(d, s, 8);
			d += 8, s += 8;
		} while (d < e);
		return;
	}
	while (d < e)
		*d++ = *s++;
}

/*
 * One compressed block src[0..n) appended at dst[*pos..], producing at
 * most max bytes (the format's block size) and never beyond cap.
 */
static enum vfit_decomp_result block(const uint8_t *p, size_t n, uint8_t *dst, size_t cap,
				     size_t *pos, size_t max)
{
	const uint8_t *end = p + n;
	size_t o = *pos, limit = cap - o < max ? o + (cap - o) : o + max;
	enum vfit_decomp_result space = cap - o < max ? VFIT_DECOMP_ERR_SPACE : VFIT_DECOMP_ERR_DATA;

	for (;;) {
		size_t lit, mlen, off;
		uint8_t tok;

		if (p == end)
			return VFIT_DECOMP_ERR_DATA;
		tok = *p++;
		lit = tok >> 4;
		if (lit == 15 && ext_len(&p, end, &lit))
			return VFIT_DECOMP_ERR_DATA;
		if (lit > (size_t)(end - p))
			return VFIT_DECOMP_ERR_DATA;
		if (lit > limit - o)
			return space;
		/* Short literals as one 16-byte copy when both sides have the room. */
		if (lit <= 16 && end - p >= 16 && limit - o >= 16)
			memcpy(dst + o, p, 16);
		else
			memcpy(dst + o, p, lit);
		o += lit;
		p += lit;
		if (p == end)
			break;   /* the last sequence has literals only */
		if (end - p < 2)
			return VFIT_DECOMP_ERR_DATA;
		off = ld_le16(p);
		p += 2;
		if (!off || off > o)
			return VFIT_DECOMP_ERR_DATA;
		mlen = tok & 15;
		if (mlen == 15 && ext_len(&p, end, &mlen))
			return VFIT_DECOMP_ERR_DATA;
		mlen += MIN_MATCH;
		if (mlen > limit - o)
			return space;
		copy_match(dst + o, off, mlen, limit - o - mlen);
		o += mlen;
	}
	*pos = o;
	return VFIT_DECOMP_OK;
}

/* A block stored uncompressed. */
static enum vfit_decomp_result raw(const uint8_t *p, size_t n, uint8_t *dst, size_t cap,
				   size_t *pos)
{
	if (n > cap - *pos)
		return VFIT_DECOMP_ERR_SPACE;
	memcpy(dst + *pos, p, n);
	*pos += n;
	return VFIT_DECOMP_OK;
}

#define F_VERSION 0xc0u
#define F_INDEP 0x20u
#define F_BLOCK_SUM 0x10u
#define F_SIZE 0x08u
#define F_SUM 0x04u
#define F_RESERVED 0x02u
#define F_DICT 0x01u

static enum vfit_decomp_result frame(const uint8_t *p, size_t len, uint8_t *dst, size_t cap,
				     size_t *out)
{
	const uint8_t *end = p + len, *desc = p + 4;
	uint8_t flg, bd;
	size_t pos = 0, max, dlen;
	uint64_t size = 0;

	if (len < 7)
		return VFIT_DECOMP_ERR_DATA;
	flg = desc[0];
	bd = desc[1];
	/* Version 01, no reserved bits, no dictionary (none could be supplied), 64 KiB..4 MiB blocks. */
	if ((flg & F_VERSION) != 0x40 || (flg & (F_RESERVED | F_DICT)) || (bd & 0x8f) ||
	    (bd >> 4) < 4)
		return VFIT_DECOMP_ERR_DATA;
	max = (size_t)1 << (8 + 2 * (bd >> 4));
	dlen = flg & F_SIZE ? 10 : 2;
	if ((size_t)(end - desc) < dlen + 1)
		return VFIT_DECOMP_ERR_DATA;
	if (flg & F_SIZE)
		size = (uint64_t)ld_le32(desc + 2) | (uint64_t)ld_le32(desc + 6) << 32;
	if (desc[dlen] != (uint8_t)(vfit_xxh32(desc, dlen, 0) >> 8))
		return VFIT_DECOMP_ERR_DATA;
	p = desc + dlen + 1;
	for (;;) {
		uint32_t bsize;
		size_t n;
		enum vfit_decomp_result r;

		if (end - p < 4)
			return VFIT_DECOMP_ERR_DATA;
		bsize = ld_le32(p);
		p += 4;
		if (!bsize)
			break;
		n = bsize & 0x7fffffffu;
		if (n > max || n > (size_t)(end - p))
			return VFIT_DECOMP_ERR_DATA;
		r = bsize >> 31 ? raw(p, n, dst, cap, &pos) : block(p, n, dst, cap, &pos, max);
		if (r)
			return r;
		if (flg & F_BLOCK_SUM) {
			if ((size_t)(end - p - n) < 4 || ld_le32(p + n) != vfit_xxh32(p, n, 0))
				return VFIT_DECOMP_ERR_DATA;
			n += 4;
		}
		p += n;
	}
	if (flg & F_SUM) {
		if (end - p < 4 || ld_le32(p) != vfit_xxh32(dst, pos, 0))
			return VFIT_DECOMP_ERR_DATA;
		p += 4;
	}
	if (p != end || ((flg & F_SIZE) && size != pos))
		return VFIT_DECOMP_ERR_DATA;
	*out = pos;
	return VFIT_DECOMP_OK;
}

static enum vfit_decomp_result legacy(const uint8_t *p, size_t len, uint8_t *dst, size_t cap,
				      size_t *out)
{
	const uint8_t *end = p + len;
	size_t pos = 0;

	p += 4;
	/* No end mark in this format; at least one block, or a cut after the magic would pass. */
	if (p == end)
		return VFIT_DECOMP_ERR_DATA;
	while (p != end) {
		uint32_t n;
		enum vfit_decomp_result r;

		if (end - p < 4)
			return VFIT_DECOMP_ERR_DATA;
		n = ld_le32(p);
		p += 4;
		if (n == LEGACY_MAGIC)
			continue;   /* concatenated streams */
		if (p == end) {
			/* The kernel's size_append: the total, then nothing. */
			if (n != (uint32_t)pos)
				return VFIT_DECOMP_ERR_DATA;
			break;
		}
		if (!n || n > (size_t)(end - p))
			return VFIT_DECOMP_ERR_DATA;
		r = block(p, n, dst, cap, &pos, LEGACY_BLOCK);
		if (r)
			return r;
		p += n;
	}
	*out = pos;
	return VFIT_DECOMP_OK;
}

enum vfit_decomp_result vfit_unlz4(const void *src, size_t len, void *dst, size_t cap,
				   size_t *out)
{
	const uint8_t *p = src;

	if (len < 4)
		return VFIT_DECOMP_ERR_DATA;
	if (ld_le32(p) == FRAME_MAGIC)
		return frame(p, len, dst, cap, out);
	if (ld_le32(p) == LEGACY_MAGIC)
		return legacy(p, len, dst, cap, out);
	return VFIT_DECOMP_ERR_DATA;
}
