/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/decomp against the reference libraries: gzip, zlib-raw deflate
 * (every level and strategy) and LZ4 frames (block sizes, checksums,
 * linked and independent blocks) and the kernel's legacy LZ4 stream, on
 * many inputs; then hostile streams: every truncation and thousands of
 * bit flips must fail or stay inside the output buffer (guard bytes
 * around it, and ASan in the sanitizer build), and an output one byte
 * too small must be refused.  Fixed seed, printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lz4.h>
#include <lz4frame.h>
#include <zlib.h>

#include "check.h"
#include "vfit/decomp.h"

#define SEED 0x5eed1234u
#define GUARD 64

static uint32_t rng = SEED;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* Inputs of several kinds: random, text-like, runs, all zero, tiny. */
static size_t make_input(unsigned int kind, uint8_t *p, size_t max)
{
	size_t n = kind == 0 ? 0 : kind == 1 ? 1 : rnd() % max, i;
	static const char words[] = "kernel initramfs verified boot FIT signature sha256 ";

	for (i = 0; i < n; i++) {
		switch (kind % 5) {
		case 0: p[i] = (uint8_t)rnd(); break;
		case 1: p[i] = (uint8_t)words[(i * 7 + rnd() % 3) % (sizeof(words) - 1)]; break;
		case 2: p[i] = (uint8_t)((i / (1 + rnd() % 300)) & 0xff); break;
		case 3: p[i] = 0; break;
		default: p[i] = rnd() % 4 ? (uint8_t)words[i % (sizeof(words) - 1)] : (uint8_t)rnd(); break;
		}
	}
	return n;
}

static size_t deflate_ref(const uint8_t *in, size_t n, uint8_t *out, size_t cap, int level,
			  int strategy, int window_bits)
{
	z_stream z;
	size_t len;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, level, Z_DEFLATED, window_bits, 8, strategy) != Z_OK)
		return 0;
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&z);
		return 0;
	}
	len = z.total_out;
	deflateEnd(&z);
	return len;
}

static size_t lz4f_ref(const uint8_t *in, size_t n, uint8_t *out, size_t cap, unsigned int variant)
{
	LZ4F_preferences_t pr;
	size_t r;

	memset(&pr, 0, sizeof(pr));
	pr.frameInfo.blockSizeID = (LZ4F_blockSizeID_t)(LZ4F_max64KB + variant % 4);
	pr.frameInfo.blockMode = variant & 4 ? LZ4F_blockIndependent : LZ4F_blockLinked;
	pr.frameInfo.contentChecksumFlag = variant & 8 ? LZ4F_contentChecksumEnabled : 0;
	pr.frameInfo.blockChecksumFlag = variant & 16 ? LZ4F_blockChecksumEnabled : 0;
	pr.frameInfo.contentSize = variant & 32 ? n : 0;
	pr.compressionLevel = variant & 64 ? 9 : 0;
	r = LZ4F_compressFrame(out, cap, in, n, &pr);
	return LZ4F_isError(r) ? 0 : r;
}

/* The kernel's `lz4 -l` stream, with its size_append when tail. */
static size_t lz4_legacy_ref(const uint8_t *in, size_t n, uint8_t *out, size_t cap, int tail)
{
	size_t o = 4, i;

	out[0] = 0x02, out[1] = 0x21, out[2] = 0x4c, out[3] = 0x18;
	for (i = 0; i < n; i += 8u << 20) {
		size_t k = n - i < (8u << 20) ? n - i : 8u << 20;
		int c = LZ4_compress_default((const char *)in + i, (char *)out + o + 4, (int)k,
					     (int)(cap - o - 4));

		if (c <= 0)
			return 0;
		out[o] = (uint8_t)c, out[o + 1] = (uint8_t)(c >> 8);
		out[o + 2] = (uint8_t)(c >> 16), out[o + 3] = (uint8_t)(c >> 24);
		o += 4 + (size_t)c;
	}
	if (tail) {
		out[o] = (uint8_t)n, out[o + 1] = (uint8_t)(n >> 8);
		out[o + 2] = (uint8_t)(n >> 16), out[o + 3] = (uint8_t)(n >> 24);
		o += 4;
	}
	return o;
}

static enum vfit_decomp_result run(enum vfit_comp kind, const uint8_t *src, size_t len,
				   uint8_t *dst, size_t cap, size_t *out)
{
	return vfit_decompress(kind, src, len, dst, cap, out);
}

/* Decompresses into a buffer with guard bytes on both sides; 0 when the guards held. */
static int guarded(enum vfit_comp kind, const uint8_t *src, size_t len, size_t cap,
		   enum vfit_decomp_result *r, size_t *out, uint8_t **data)
{
	uint8_t *buf = malloc(cap + 2 * GUARD);
	size_t i;
	int bad = 0;

	memset(buf, 0xa5, cap + 2 * GUARD);
	*r = run(kind, src, len, buf + GUARD, cap, out);
	for (i = 0; i < GUARD; i++)
		bad |= buf[i] != 0xa5 || buf[GUARD + cap + i] != 0xa5;
	if (data)
		*data = buf;
	else
		free(buf);
	return bad;
}

static void round_trip(const char *what, enum vfit_comp kind, const uint8_t *in, size_t n,
		       const uint8_t *z, size_t zlen)
{
	enum vfit_decomp_result r;
	size_t out = 0;
	uint8_t *data;
	int bad = guarded(kind, z, zlen, n, &r, &out, &data);

	CHECK(!bad && r == VFIT_DECOMP_OK && out == n && !memcmp(data + GUARD, in, n),
	      "%s: %zu bytes from %zu: result %d, out %zu%s", what, n, zlen, r, out,
	      bad ? ", wrote outside" : "");
	free(data);
	if (n) {
		/* One byte less room: refused as too small, never truncated silently. */
		bad = guarded(kind, z, zlen, n - 1, &r, &out, NULL);
		CHECK(!bad && r == VFIT_DECOMP_ERR_SPACE, "%s: %zu bytes into %zu: result %d", what,
		      n, n - 1, r);
	}
}

/*
 * Every truncation of a short stream, and random bit flips: never outside
 * the buffer.  whole_at: a shorter length that is a complete stream too
 * (the legacy LZ4 format has no end mark: without the kernel's trailing
 * size it is still valid), or 0.
 */
static void hostile(const char *what, enum vfit_comp kind, const uint8_t *z, size_t zlen,
		    size_t cap, unsigned int flips, size_t whole_at)
{
	uint8_t *m = malloc(zlen ? zlen : 1);
	enum vfit_decomp_result r;
	unsigned int bad = 0, accepted = 0, i;
	size_t cut, out;

	for (cut = 0; cut < zlen; cut++) {
		/* An exact-size copy, so ASan sees any read past the end. */
		uint8_t *t = malloc(cut ? cut : 1);

		memcpy(t, z, cut);
		bad += (unsigned int)guarded(kind, t, cut, cap, &r, &out, NULL);
		accepted += r == VFIT_DECOMP_OK && cut != whole_at;
		free(t);
	}
	CHECK(!bad, "%s: %u truncations wrote outside the buffer", what, bad);
	CHECK(!accepted, "%s: %u truncations accepted", what, accepted);
	for (i = 0; i < flips && zlen; i++) {
		memcpy(m, z, zlen);
		m[rnd() % zlen] ^= (uint8_t)(1u << (rnd() % 8));
		if (i & 1)
			m[rnd() % zlen] = (uint8_t)rnd();
		bad += (unsigned int)guarded(kind, m, zlen, cap, &r, &out, NULL);
		CHECK(r == VFIT_DECOMP_OK || r == VFIT_DECOMP_ERR_DATA || r == VFIT_DECOMP_ERR_SPACE,
		      "%s: flip %u: result %d", what, i, r);
		CHECK(r != VFIT_DECOMP_OK || out <= cap, "%s: flip %u: out %zu > cap", what, i, out);
	}
	CHECK(!bad, "%s: %u mutations wrote outside the buffer", what, bad);
	free(m);
}

static void gzip_cases(uint8_t *in, uint8_t *z, size_t max, size_t zcap, int quick)
{
	static const int strategies[] = { Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE,
					  Z_FIXED };
	unsigned int i;
	char what[64];

	for (i = 0; i < (quick ? 40u : 200u); i++) {
		size_t n = make_input(i, in, i % 10 == 9 ? max : 70000), zl;
		int level = (int)(i % 10), st = strategies[(i / 10) % 5];

		zl = deflate_ref(in, n, z, zcap, level, st, 31);
		snprintf(what, sizeof(what), "gzip kind %u level %d strategy %d", i % 5, level, st);
		if (!CHECK(zl, "%s: zlib failed", what))
			continue;
		round_trip(what, VFIT_COMP_GZIP, in, n, z, zl);
		zl = deflate_ref(in, n, z, zcap, level, st, -15);
		snprintf(what, sizeof(what), "deflate kind %u level %d strategy %d", i % 5, level, st);
		round_trip(what, VFIT_COMP_DEFLATE, in, n, z, zl);
	}
}

static void lz4_cases(uint8_t *in, uint8_t *z, size_t max, size_t zcap, int quick)
{
	unsigned int i;
	char what[64];

	for (i = 0; i < (quick ? 40u : 200u); i++) {
		size_t n = make_input(i, in, i % 10 == 9 ? max : 300000), zl;

		zl = lz4f_ref(in, n, z, zcap, i);
		snprintf(what, sizeof(what), "lz4 frame kind %u variant %u", i % 5, i % 128);
		if (CHECK(zl, "%s: liblz4 failed", what))
			round_trip(what, VFIT_COMP_LZ4, in, n, z, zl);
		/* A legacy stream is never empty (see crafted()). */
		zl = n ? lz4_legacy_ref(in, n, z, zcap, (int)(i & 1)) : 0;
		snprintf(what, sizeof(what), "lz4 legacy kind %u tail %u", i % 5, i & 1);
		if (n && CHECK(zl, "%s: liblz4 failed", what))
			round_trip(what, VFIT_COMP_LZ4, in, n, z, zl);
	}
}

static void hostile_cases(uint8_t *in, uint8_t *z, size_t zcap, int quick)
{
	unsigned int flips = quick ? 300 : 1500, k;
	size_t n, zl;

	for (k = 0; k < 5; k++) {
		n = make_input(k == 0 ? 4 : k, in, 3000);
		if (k == 0)
			n = 2500;
		zl = deflate_ref(in, n, z, zcap, 6, Z_DEFAULT_STRATEGY, 31);
		hostile("gzip", VFIT_COMP_GZIP, z, zl, n + 100, flips, 0);
		zl = deflate_ref(in, n, z, zcap, 1, Z_FIXED, -15);
		hostile("deflate fixed", VFIT_COMP_DEFLATE, z, zl, n, flips, 0);
		zl = lz4f_ref(in, n, z, zcap, 8 | 16 | 32);
		hostile("lz4 frame", VFIT_COMP_LZ4, z, zl, n + 100, flips, 0);
		zl = lz4_legacy_ref(in, n, z, zcap, 1);
		hostile("lz4 legacy", VFIT_COMP_LZ4, z, zl, n, flips, zl - 4);
	}
}

/* Hand-made streams that must be refused for a precise reason. */
static void crafted(void)
{
	/* Fixed block: length 3 (symbol 257), distance 1, with nothing output yet. */
	static const uint8_t far[] = { 0x03, 0x02, 0x00 };
	static const uint8_t stored_bad_nlen[] = { 0x01, 0x05, 0x00, 0x00, 0x00, 'a', 'b', 'c', 'd', 'e' };
	static const uint8_t stored_ok[] = { 0x01, 0x05, 0x00, 0xfa, 0xff, 'a', 'b', 'c', 'd', 'e' };
	static const uint8_t lz4_zero_off[] = { 0x04, 0x22, 0x4d, 0x18, 0x60, 0x40, 0x82,
						 0x03, 0x00, 0x00, 0x00, 0x10, 'x', 0x00,
						 0x00, 0x00, 0x00, 0x00 };
	static const uint8_t legacy_empty[] = { 0x02, 0x21, 0x4c, 0x18 };
	uint8_t out[64];
	size_t n = 0;

	CHECK(vfit_decompress(VFIT_COMP_LZ4, legacy_empty, sizeof(legacy_empty), out, sizeof(out),
			      &n) == VFIT_DECOMP_ERR_DATA, "lz4 legacy magic without a block");

	CHECK(vfit_decompress(VFIT_COMP_DEFLATE, stored_ok, sizeof(stored_ok), out, sizeof(out),
			      &n) == VFIT_DECOMP_OK && n == 5 && !memcmp(out, "abcde", 5),
	      "stored block");
	CHECK(vfit_decompress(VFIT_COMP_DEFLATE, stored_bad_nlen, sizeof(stored_bad_nlen), out,
			      sizeof(out), &n) == VFIT_DECOMP_ERR_DATA, "stored block, bad NLEN");
	CHECK(vfit_decompress(VFIT_COMP_DEFLATE, far, sizeof(far), out, sizeof(out), &n) ==
	      VFIT_DECOMP_ERR_DATA, "distance before the start of the output");
	CHECK(vfit_decompress(VFIT_COMP_LZ4, lz4_zero_off, sizeof(lz4_zero_off), out, sizeof(out),
			      &n) == VFIT_DECOMP_ERR_DATA, "lz4 frame: bad descriptor checksum or offset");
	CHECK(vfit_decompress(VFIT_COMP_NONE, out, 1, out, 1, &n) == VFIT_DECOMP_ERR_PARAM,
	      "none is not a decompression");
	CHECK(vfit_comp_kind(NULL) == VFIT_COMP_NONE && vfit_comp_kind("none") == VFIT_COMP_NONE &&
	      vfit_comp_kind("gzip") == VFIT_COMP_GZIP && vfit_comp_kind("lz4") == VFIT_COMP_LZ4 &&
	      vfit_comp_kind("lzma") == VFIT_COMP_UNKNOWN && vfit_comp_kind("") == VFIT_COMP_UNKNOWN,
	      "FIT compression names");
	CHECK(vfit_comp_kind("lzma") != VFIT_COMP_NONE && VFIT_COMP_GZIP == 1 && VFIT_COMP_LZ4 == 2,
	      "an unknown name is not 'none'; the kinds the boot ops see keep their values");
	CHECK(!strcmp(vfit_decomp_result_to_string(VFIT_DECOMP_ERR_SPACE),
		      "decompressed data does not fit") &&
	      !strcmp(vfit_decomp_result_to_string((enum vfit_decomp_result)9), "unknown result"),
	      "result names");
	/* xxHash32 reference values (xxhsum). */
	CHECK(vfit_xxh32("", 0, 0) == 0x02cc5d05u, "xxh32 of nothing");
	CHECK(vfit_xxh32("abc", 3, 0) == 0x32d153ffu, "xxh32 of abc");
	CHECK(vfit_xxh32("Nobody inspects the spammish repetition", 39, 0) == 0xe2293b2fu,
	      "xxh32 of 39 bytes");
}

int main(void)
{
	size_t max = 1u << 20, zcap = max + max / 8 + 4096;
	uint8_t *in = malloc(max), *z = malloc(zcap);
	int quick = getenv("VFIT_TEST_QUICK") != NULL;

	printf("seed 0x%08x\n", SEED);
	crafted();
	gzip_cases(in, z, max, zcap, quick);
	lz4_cases(in, z, max, zcap, quick);
	hostile_cases(in, z, zcap, quick);
	free(in);
	free(z);
	return check_done();
}
