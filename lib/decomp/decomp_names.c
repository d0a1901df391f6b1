/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The names of the decompression module.  The FIT `compression` names
 * lib/ reads, in one table: the boot flow
 * decides with it what it can decompress (lib/boot/boot_load.c), and a
 * name not in it is refused there rather than guessed at.  Apart from
 * the decompressors, so that a board with its own links none of them.
 */
#include <string.h>

#include "vfit/decomp.h"

static const struct {
	char name[5];
	enum vfit_comp kind;
} names[] = {
	{ "none", VFIT_COMP_NONE },
	{ "gzip", VFIT_COMP_GZIP },
	{ "lz4", VFIT_COMP_LZ4 },
};

enum vfit_comp vfit_comp_kind(const char *c)
{
	size_t i;

	if (!c)
		return VFIT_COMP_NONE;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(c, names[i].name))
			return names[i].kind;
	return VFIT_COMP_UNKNOWN;
}

const char *vfit_decomp_result_to_string(enum vfit_decomp_result r)
{
	switch (r) {
	case VFIT_DECOMP_OK:
		return "ok";
	case VFIT_DECOMP_ERR_DATA:
		return "malformed or corrupt compressed data";
	case VFIT_DECOMP_ERR_SPACE:
		return "decompressed data does not fit";
	case VFIT_DECOMP_ERR_PARAM:
		return "unknown compression";
	}
	return "unknown result";
}
