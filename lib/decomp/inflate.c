/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inflate (RFC 1951) into a flat buffer, and the gzip wrapper (RFC 1952).
 *
 * Huffman decoding: codes up to FAST_BITS long come from a direct lookup
 * table indexed by the next input bits; longer ones from the canonical
 * code limits, one comparison per extra bit.  Input beyond the end reads
 * as zero bits, counted in `pad`; consuming any of them is an error.
 * Every length and distance is checked against the output produced so
 * far and the room left before a byte is copied.
 */
#include <string.h>

#include "vfit/decomp.h"
#include "vfit/hash.h"
#include "../byteorder.h"

#define FAST_BITS 10
#define MAX_BITS 15
#define MAX_LIT 288
#define MAX_DIST 32

struct huff {
	uint16_t fast[1 << FAST_BITS];   /* len << 9 | symbol, 0: longer code */
	uint32_t limit[MAX_BITS + 2];    /* left-aligned 16-bit bound of each length's codes */
	uint16_t first_code[MAX_BITS + 1];
	uint16_t first_sym[MAX_BITS + 1];
	uint16_t count[MAX_BITS + 1];
	uint16_t sym[MAX_LIT];           /* symbols in canonical order */
};

struct in {
	const uint8_t *p, *end;
	uint64_t buf;
	unsigned int cnt;   /* bits in buf */
	unsigned int pad;   /* of which zero bits past the end */
};

struct inflate {
	struct in in;
	uint8_t *dst;
	size_t cap, pos;
	struct huff lit, dist;
};

/*
 * Tops the buffer up to 56..63 bits.  With 8 input bytes left, one 64-bit
 * load and only the whole bytes that fit are consumed (the rest is read
 * again next time); near the end, byte by byte, then zeros counted in pad.
 */
static inline void refill(struct in *s)
{
	if (s->end - s->p >= 8) {
		s->buf |= ld_le64(s->p) << s->cnt;
		s->p += (63 - s->cnt) >> 3;
		s->cnt |= 56;
		return;
	}
	while (s->cnt <= 56) {
		if (s->p < s->end)
			s->buf |= (uint64_t)*s->p++ << s->cnt;
		else
			s->pad += 8;
		s->cnt += 8;
	}
}

/* n <= 32 bits; the caller checks overrun() once per step. */
static inline uint32_t bits(struct in *s, unsigned int n)
{
	uint32_t v;

	if (s->cnt < n)
		refill(s);
	v = (uint32_t)(s->buf & ((1ull << n) - 1));
	s->buf >>= n;
	s->cnt -= n;
	return v;
}

static inline int overrun(const struct in *s)
{
	return s->cnt < s->pad;
}

static uint32_t rev16(uint32_t v)
{
	v = (v & 0x5555) << 1 | (v >> 1 & 0x5555);
	v = (v & 0x3333) << 2 | (v >> 2 & 0x3333);
	v = (v & 0x0f0f) << 4 | (v >> 4 & 0x0f0f);
	return (v & 0x00ff) << 8 | v >> 8;
}

/* Canonical code from lengths len[0..n); -1 when over-subscribed. */
static int build(struct huff *h, const uint8_t *len, unsigned int n)
{
	uint16_t next[MAX_BITS + 1];
	unsigned int i, l, code = 0, sym = 0;
	int left = 1;

	memset(h->count, 0, sizeof(h->count));
	memset(h->fast, 0, sizeof(h->fast));
	for (i = 0; i < n; i++)
		h->count[len[i]]++;
	h->count[0] = 0;
	for (l = 1; l <= MAX_BITS; l++) {
		left = left * 2 - h->count[l];
		if (left < 0)
			return -1;
		h->first_code[l] = (uint16_t)code;
		h->first_sym[l] = (uint16_t)sym;
		next[l] = (uint16_t)code;
		code = (code + h->count[l]) << 1;
		sym += h->count[l];
		h->limit[l] = (uint32_t)(h->first_code[l] + h->count[l]) << (16 - l);
	}
	h->limit[MAX_BITS + 1] = 0x10000;
	for (i = 0; i < n; i++) {
		unsigned int c, r, j;

		l = len[i];
		if (!l)
			continue;
		c = next[l]++;
		h->sym[h->first_sym[l] + c - h->first_code[l]] = (uint16_t)i;
		if (l > FAST_BITS)
			continue;
		r = rev16(c) >> (16 - l);
		for (j = r; j < 1u << FAST_BITS; j += 1u << l)
			h->fast[j] = (uint16_t)(l << 9 | i);
	}
	return 0;
}

/*
 * A code longer than FAST_BITS from the next 16 input bits: one limit
 * comparison per extra bit.  Sets *len; -1 when no code matches.  Kept
 * out of line, so that decode() stays small enough to inline and the bit
 * reader's state stays in registers.
 */
static int decode_long(const struct huff *h, uint32_t next16, unsigned int *len)
{
	uint32_t k = rev16(next16), code;
	unsigned int l;

	for (l = FAST_BITS + 1; l <= MAX_BITS; l++)
		if (k < h->limit[l])
			break;
	if (l > MAX_BITS)
		return -1;
	code = k >> (16 - l);
	if (code < h->first_code[l] || code - h->first_code[l] >= h->count[l])
		return -1;
	*len = l;
	return h->sym[h->first_sym[l] + code - h->first_code[l]];
}

/* Next symbol, or -1 for a code that is not in the table. */
static inline int decode(struct in *s, const struct huff *h)
{
	unsigned int l;
	uint32_t e;
	int sym;

	if (s->cnt < MAX_BITS)
		refill(s);
	e = h->fast[s->buf & ((1u << FAST_BITS) - 1)];
	if (e) {
		l = e >> 9;
		sym = (int)(e & 0x1ff);
	} else {
		sym = decode_long(h, (uint32_t)(s->buf & 0xffff), &l);
		if (sym < 0)
			return -1;
	}
	s->buf >>= l;
	s->cnt -= l;
	return sym;
}

static const uint16_t len_base[29] = {
	3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
	35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
};
static const uint8_t len_extra[29] = {
	0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
};
static const uint16_t dist_base[30] = {
	1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
	257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
};
static const uint8_t dist_extra[30] = {
	0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
};

/*
 * A match at dst[pos]: dist back into the output so far, len bytes,
 * overlapping copies allowed.  With 8 bytes of slack before cap, whole
 * 8-byte chunks may run past len (the bytes after it are rewritten by what
 * follows, and they are inside dst either way).
 */
static enum vfit_decomp_result copy_match(uint8_t *dst, size_t cap, size_t *pos, size_t dist,
					  size_t len)
{
	uint8_t *d = dst + *pos, *e = d + len;
	const uint8_t *s;

	if (dist > *pos)
		return VFIT_DECOMP_ERR_DATA;
	if (len > cap - *pos)
		return VFIT_DECOMP_ERR_SPACE;
	s = d - dist;
	*pos += len;
	if (dist >= 8 && cap - *pos >= 8) {
		do {
			memcpy(d, s, 8);
			d += 8, s += 8;
		} while (d < e);
		return VFIT_DECOMP_OK;
	}
	while (d < e)
		*d++ = *s++;
	return VFIT_DECOMP_OK;
}

/*
 * The symbols of one block.  The bit reader and the output position live
 * in locals: output bytes are stored through a uint8_t pointer, which may
 * alias anything, so state kept in *z would be reloaded after every byte.
 */
static enum vfit_decomp_result codes(struct inflate *z)
{
	struct in s = z->in;
	uint8_t *dst = z->dst;
	size_t pos = z->pos, cap = z->cap;
	enum vfit_decomp_result r;

	for (;;) {
		int sym = decode(&s, &z->lit), ds;
		uint32_t len, dist;

		if (sym < 0 || overrun(&s)) {
			r = VFIT_DECOMP_ERR_DATA;
			break;
		}
		if (sym < 256) {
			if (pos == cap) {
				r = VFIT_DECOMP_ERR_SPACE;
				break;
			}
			dst[pos++] = (uint8_t)sym;
			continue;
		}
		if (sym == 256) {
			r = VFIT_DECOMP_OK;
			break;
		}
		sym -= 257;
		if (sym >= 29) {
			r = VFIT_DECOMP_ERR_DATA;
			break;
		}
		len = len_base[sym] + bits(&s, len_extra[sym]);
		ds = decode(&s, &z->dist);
		if (ds < 0 || ds >= 30) {
			r = VFIT_DECOMP_ERR_DATA;
			break;
		}
		dist = dist_base[ds] + bits(&s, dist_extra[ds]);
		if (overrun(&s)) {
			r = VFIT_DECOMP_ERR_DATA;
			break;
		}
		r = copy_match(dst, cap, &pos, dist, len);
		if (r)
			break;
	}
	z->in = s;
	z->pos = pos;
	return r;
}

static enum vfit_decomp_result stored(struct inflate *z)
{
	struct in *s = &z->in;
	size_t back = (s->cnt - s->pad) / 8, n;

	/* Give the whole bytes still buffered back to the input, then read plainly. */
	if (overrun(s))
		return VFIT_DECOMP_ERR_DATA;
	s->p -= back;
	s->buf = 0;
	s->cnt = s->pad = 0;
	if (s->end - s->p < 4)
		return VFIT_DECOMP_ERR_DATA;
	n = ld_le16(s->p);
	if ((s->p[2] ^ s->p[0]) != 0xff || (s->p[3] ^ s->p[1]) != 0xff)
		return VFIT_DECOMP_ERR_DATA;
	s->p += 4;
	if ((size_t)(s->end - s->p) < n)
		return VFIT_DECOMP_ERR_DATA;
	if (n > z->cap - z->pos)
		return VFIT_DECOMP_ERR_SPACE;
	memcpy(z->dst + z->pos, s->p, n);
	z->pos += n;
	s->p += n;
	return VFIT_DECOMP_OK;
}

static enum vfit_decomp_result fixed(struct inflate *z)
{
	uint8_t len[MAX_LIT];

	memset(len, 8, 144);
	memset(len + 144, 9, 112);
	memset(len + 256, 7, 24);
	memset(len + 280, 8, 8);
	(void)build(&z->lit, len, MAX_LIT);
	memset(len, 5, MAX_DIST);
	(void)build(&z->dist, len, MAX_DIST);
	return codes(z);
}

static enum vfit_decomp_result dynamic(struct inflate *z)
{
	static const uint8_t order[19] = {
		16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
	};
	struct in *s = &z->in;
	uint8_t len[MAX_LIT + MAX_DIST];
	unsigned int nlit = bits(s, 5) + 257, ndist = bits(s, 5) + 1, ncode = bits(s, 4) + 4, i;

	if (nlit > 286 || ndist > 30)
		return VFIT_DECOMP_ERR_DATA;
	memset(len, 0, 19);
	for (i = 0; i < ncode; i++)
		len[order[i]] = (uint8_t)bits(s, 3);
	/* The code-length code lives in the distance table until the real one is built. */
	if (overrun(s) || build(&z->dist, len, 19))
		return VFIT_DECOMP_ERR_DATA;
	for (i = 0; i < nlit + ndist;) {
		int sym = decode(s, &z->dist);
		unsigned int rep;
		uint8_t v = 0;

		if (sym < 0 || overrun(s))
			return VFIT_DECOMP_ERR_DATA;
		if (sym < 16) {
			len[i++] = (uint8_t)sym;
			continue;
		}
		if (sym == 16) {
			if (!i)
				return VFIT_DECOMP_ERR_DATA;
			v = len[i - 1];
			rep = 3 + bits(s, 2);
		} else {
			rep = sym == 17 ? 3 + bits(s, 3) : 11 + bits(s, 7);
		}
		if (overrun(s) || rep > nlit + ndist - i)
			return VFIT_DECOMP_ERR_DATA;
		memset(len + i, v, rep);
		i += rep;
	}
	/* A block without an end-of-block code could never end. */
	if (!len[256] || build(&z->lit, len, nlit) || build(&z->dist, len + nlit, ndist))
		return VFIT_DECOMP_ERR_DATA;
	return codes(z);
}

enum vfit_decomp_result vfit_inflate(const void *src, size_t len, void *dst, size_t cap,
				     size_t *out, size_t *used)
{
	struct inflate z;
	unsigned int last;
	enum vfit_decomp_result r;

	z.in.p = src;
	z.in.end = z.in.p + len;
	z.in.buf = 0;
	z.in.cnt = z.in.pad = 0;
	z.dst = dst;
	z.cap = cap;
	z.pos = 0;
	do {
		last = bits(&z.in, 1);
		switch (bits(&z.in, 2)) {
		case 0:
			r = stored(&z);
			break;
		case 1:
			r = fixed(&z);
			break;
		case 2:
			r = dynamic(&z);
			break;
		default:
			r = VFIT_DECOMP_ERR_DATA;
		}
		if (!r && overrun(&z.in))
			r = VFIT_DECOMP_ERR_DATA;
		if (r)
			return r;
	} while (!last);
	*out = z.pos;
	/* Whole bytes still buffered were not part of the stream. */
	*used = (size_t)(z.in.p - (const uint8_t *)src) - (z.in.cnt - z.in.pad) / 8;
	return VFIT_DECOMP_OK;
}

/* gzip's trailer is a CRC-32: a build without it (VFIT_HAVE_CRC32=0) refuses gzip. */
#if VFIT_HAVE_CRC32
#define gz_crc32 vfit_crc32
#else
static uint32_t gz_crc32(uint32_t crc, const void *p, size_t n)
{
	(void)p;
	(void)n;
	return crc;
}
#endif

#define GZ_FHCRC 2u
#define GZ_FEXTRA 4u
#define GZ_FNAME 8u
#define GZ_FCOMMENT 16u

/* Skips a NUL-terminated field; -1 when unterminated. */
static int skip_str(const uint8_t *p, size_t len, size_t *at)
{
	const uint8_t *z = memchr(p + *at, 0, len - *at);

	if (!z)
		return -1;
	*at = (size_t)(z - p) + 1;
	return 0;
}

enum vfit_decomp_result vfit_gunzip(const void *src, size_t len, void *dst, size_t cap,
				    size_t *out)
{
	const uint8_t *p = src;
	size_t at = 10, n, used;
	enum vfit_decomp_result r;
	uint8_t flg;

	if (!VFIT_HAVE_CRC32 || len < 18 || p[0] != 0x1f || p[1] != 0x8b || p[2] != 8 || (p[3] & 0xe0))
		return VFIT_DECOMP_ERR_DATA;
	flg = p[3];
	if (flg & GZ_FEXTRA) {
		if (len - at < 2 || (size_t)(p[at] | p[at + 1] << 8) > len - at - 2)
			return VFIT_DECOMP_ERR_DATA;
		at += 2 + (size_t)(p[at] | p[at + 1] << 8);
	}
	if (((flg & GZ_FNAME) && skip_str(p, len, &at)) ||
	    ((flg & GZ_FCOMMENT) && skip_str(p, len, &at)))
		return VFIT_DECOMP_ERR_DATA;
	if (flg & GZ_FHCRC) {
		if (len - at < 2 || (gz_crc32(0, p, at) & 0xffff) != (uint32_t)(p[at] | p[at + 1] << 8))
			return VFIT_DECOMP_ERR_DATA;
		at += 2;
	}
	if (len - at < 8)
		return VFIT_DECOMP_ERR_DATA;
	r = vfit_inflate(p + at, len - at - 8, dst, cap, &n, &used);
	if (r)
		return r;
	/* The trailer right after the last block, then nothing. */
	at += used;
	if (len - at != 8 || ld_le32(p + at) != gz_crc32(0, dst, n) ||
	    ld_le32(p + at + 4) != (uint32_t)n)
		return VFIT_DECOMP_ERR_DATA;
	*out = n;
	return VFIT_DECOMP_OK;
}
