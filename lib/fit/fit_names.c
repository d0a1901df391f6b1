/* SPDX-License-Identifier: BSD-3-Clause */
/* Names of fit.h's enums, for logs. */
#include "vfit/fit.h"

const char *vfit_limit_to_string(enum vfit_limit l)
{
	switch (l) {
	case VFIT_LIMIT_NONE: return "none";
	case VFIT_LIMIT_DEPTH: return "node depth (VFIT_MAX_DEPTH)";
	case VFIT_LIMIT_PATH: return "node path length (VFIT_PATH_MAX)";
	case VFIT_LIMIT_IMAGES: return "image references (VFIT_MAX_IMAGES)";
	case VFIT_LIMIT_CONF_REFS: return "strings of a configuration (VFIT_MAX_CONF_REFS)";
	case VFIT_LIMIT_HASHED_NODES: return "signed nodes (VFIT_MAX_HASHED_NODES)";
	case VFIT_LIMIT_REGIONS: return "regions of a signed message (18 + 7 per node)";
	case VFIT_LIMIT_SIGNATURES: return "signature nodes (VFIT_MAX_SIGNATURES)";
	case VFIT_LIMIT_HASHES: return "hash nodes (VFIT_MAX_HASHES)";
	case VFIT_LIMIT_KEYS: return "required keys (VFIT_MAX_KEYS)";
	}
	return "unknown limit";
}
