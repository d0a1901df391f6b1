/* SPDX-License-Identifier: BSD-3-Clause */
#include "vfit/result.h"

const char *vfit_result_to_string(enum vfit_result r)
{
	switch (r) {
	case VFIT_OK: return "OK";
	case VFIT_ERR_UNSUPPORTED: return "unsupported algorithm";
	case VFIT_ERR_KEY: return "invalid key";
	case VFIT_ERR_SIG_LENGTH: return "signature length does not match the key";
	case VFIT_ERR_SIG_RANGE: return "signature value not below the modulus";
	case VFIT_ERR_SIGNATURE: return "signature mismatch";
	case VFIT_ERR_PARAM: return "invalid parameter";
	case VFIT_ERR_FORMAT: return "malformed FIT";
	case VFIT_ERR_TRUNCATED: return "FIT larger than the bytes loaded";
	case VFIT_ERR_TOO_LARGE: return "total size too large";
	case VFIT_ERR_UNIT_ADDRESS: return "unit address (@) in node name";
	case VFIT_ERR_LIMIT: return "structure limit exceeded";
	case VFIT_ERR_DUPLICATE: return "duplicate node name";
	case VFIT_ERR_MISSING: return "mandatory node or property missing";
	case VFIT_ERR_NO_CONFIG: return "configuration not found";
	case VFIT_ERR_NO_IMAGES: return "no images in configuration";
	case VFIT_ERR_NO_HASH: return "no hash nodes in image";
	case VFIT_ERR_HASH: return "bad hash value";
	case VFIT_ERR_HASH_LENGTH: return "bad hash value length";
	case VFIT_ERR_HASHED_STRINGS: return "invalid hashed-strings property";
	case VFIT_ERR_STRINGS_BOUNDS: return "strings region is out of bounds";
	case VFIT_ERR_DATA: return "invalid external data";
	case VFIT_ERR_DATA_BOUNDS: return "external data is out of bounds";
	case VFIT_ERR_DATA_OVERLAP: return "image data overlaps another image";
	case VFIT_ERR_REQUIRED: return "failed to verify required signature";
	case VFIT_ERR_KEY_ALGO: return "key algorithm does not match the signature";
	case VFIT_ERR_NO_SIGNATURE: return "no signature";
	case VFIT_ERR_UNENFORCED: return "no required key: nothing enforced";
	case VFIT_ERR_CONTROL: return "malformed control FDT";
	case VFIT_ERR_WEAK_HASH: return "signed image has no cryptographic hash (only CRC or MD5)";
	}
	return "unknown error";
}
