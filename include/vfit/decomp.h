/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Freestanding decompression for kernels loaded from FITs: gzip (RFC 1952)
 * and raw deflate (RFC 1951), and LZ4 in both the frame format (what
 * U-Boot's FIT "lz4" and the lz4 tool write) and the legacy format of the
 * kernel's own Image.lz4 / zImage payloads.
 *
 * No heap, no globals, bounded stack (the inflate tables, about 6 KiB).
 * Every input byte is distrusted: a hostile stream ends in an error,
 * never in a write outside dst[0..cap) or a read outside src[0..len).
 * The whole output buffer is the history window, so nothing is copied
 * twice.  Check values (gzip CRC-32 and length, LZ4 xxHash32 and content
 * size) are verified when present.
 */
#ifndef VFIT_DECOMP_H
#define VFIT_DECOMP_H

#include <stddef.h>
#include <stdint.h>

#include "vfit/config.h"

/*
 * The one compression enum of the library: what vfit_comp_kind() makes of
 * a FIT `compression` value, what the boot flow hands its decompress op
 * (include/vfit/boot.h) and what vfit_decompress() takes.  Values are
 * stable; new kinds are appended before UNKNOWN's fixed value.
 */
enum vfit_comp {
	VFIT_COMP_NONE = 0,
	VFIT_COMP_GZIP = 1,
	VFIT_COMP_LZ4 = 2,       /* LZ4 frame, or a legacy stream as the kernel's Image.lz4 */
	VFIT_COMP_DEFLATE = 3,   /* raw deflate (no wrapper); not a FIT name */
	VFIT_COMP_UNKNOWN = 255, /* a FIT name no decompressor here reads */
};

/* Results (include/vfit/result.h's convention: 0 success, failures positive). */
enum vfit_decomp_result {
	VFIT_DECOMP_OK = 0,
	VFIT_DECOMP_ERR_DATA = 1,    /* malformed, truncated, trailing bytes, check value wrong */
	VFIT_DECOMP_ERR_SPACE = 2,   /* the output does not fit dst[0..cap) */
	VFIT_DECOMP_ERR_PARAM = 3,   /* unknown kind */
};
/* Returns the name of r for logs ("ok", "unknown compression", ...; "unknown result" past them). */
const char *vfit_decomp_result_to_string(enum vfit_decomp_result r);

/*
 * Returns the kind a FIT `compression` value names (NULL: none): NONE,
 * GZIP or LZ4; VFIT_COMP_UNKNOWN otherwise.
 */
enum vfit_comp vfit_comp_kind(const char *fit_compression);

/*
 * Decompresses all of src[0..len) into dst[0..cap); *out is the size.
 * Returns VFIT_DECOMP_OK, or why not (DATA, SPACE, PARAM for an unknown kind).
 */
VFIT_MUST_CHECK
enum vfit_decomp_result vfit_decompress(enum vfit_comp kind, const void *src, size_t len,
					void *dst, size_t cap, size_t *out);

/*
 * Raw deflate; *used is the input consumed up to the end of the final
 * block (the rest of src is left to a wrapper's trailer).  Returns what
 * vfit_decompress() does.
 */
VFIT_MUST_CHECK
enum vfit_decomp_result vfit_inflate(const void *src, size_t len, void *dst, size_t cap,
				     size_t *out, size_t *used);

/* One gzip member, nothing after it; returns what vfit_decompress() does. */
VFIT_MUST_CHECK
enum vfit_decomp_result vfit_gunzip(const void *src, size_t len, void *dst, size_t cap,
				    size_t *out);

/*
 * One LZ4 frame, or a legacy stream (with the kernel's optional trailing
 * size); returns what vfit_decompress() does.
 */
VFIT_MUST_CHECK
enum vfit_decomp_result vfit_unlz4(const void *src, size_t len, void *dst, size_t cap,
				   size_t *out);

/* Returns the xxHash32 of p[0..n) with seed (LZ4's check values). */
uint32_t vfit_xxh32(const void *p, size_t n, uint32_t seed);

#endif
