/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: lib/decomp on hostile streams.  Input = one selector
 * byte (low 2 bits: gzip, lz4, raw deflate; bits 2..7: output room as a
 * multiple of 1 KiB, 0 = 64 KiB) followed by the stream.  Source and
 * output are exact-size heap blocks, so ASan sees any access outside them.
 */
#include <stdlib.h>
#include <string.h>

#include "vfit/decomp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum vfit_comp kinds[4] = { VFIT_COMP_GZIP, VFIT_COMP_LZ4, VFIT_COMP_DEFLATE,
						 VFIT_COMP_LZ4 };
	enum vfit_decomp_result r;
	size_t cap, out = 0, i;
	uint8_t *src, *dst;
	volatile uint8_t sink = 0;

	if (size < 1)
		return 0;
	cap = (data[0] >> 2) ? (size_t)(data[0] >> 2) << 10 : 64u << 10;
	src = malloc(size - 1 ? size - 1 : 1);
	dst = malloc(cap);
	if (!src || !dst)
		abort();
	memcpy(src, data + 1, size - 1);
	r = vfit_decompress(kinds[data[0] & 3], src, size - 1, dst, cap, &out);
	if (r != VFIT_DECOMP_OK && r != VFIT_DECOMP_ERR_DATA && r != VFIT_DECOMP_ERR_SPACE)
		abort();
	if (r == VFIT_DECOMP_OK) {
		if (out > cap)
			abort();
		for (i = 0; i < out; i++)
			sink ^= dst[i];
	}
	(void)sink;
	free(src);
	free(dst);
	return 0;
}
