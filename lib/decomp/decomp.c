/* SPDX-License-Identifier: BSD-3-Clause */
/* Dispatch on the kind of stream (the FIT names for them: comp_kind.c). */
#include "vfit/decomp.h"

enum vfit_decomp_result vfit_decompress(enum vfit_comp kind, const void *src, size_t len,
					void *dst, size_t cap, size_t *out)
{
	size_t used;

	switch (kind) {
	case VFIT_COMP_GZIP:
		return vfit_gunzip(src, len, dst, cap, out);
	case VFIT_COMP_LZ4:
		return vfit_unlz4(src, len, dst, cap, out);
	case VFIT_COMP_DEFLATE: {
		enum vfit_decomp_result r = vfit_inflate(src, len, dst, cap, out, &used);

		return r ? r : used == len ? VFIT_DECOMP_OK : VFIT_DECOMP_ERR_DATA;
	}
	default:
		return VFIT_DECOMP_ERR_PARAM;
	}
}
