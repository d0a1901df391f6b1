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
	}
	return "unknown error";
}
