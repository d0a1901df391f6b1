/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/rsa/rsa.c with 32-bit limbs, the arithmetic 32-bit ARM builds use. */
#define VFIT_RSA_LIMB32 1
#define vfit_rsa_public path_public
#include "../../lib/rsa/rsa.c"
#undef vfit_rsa_public

#include "test_rsa_paths.h"

int main(void)
{
	return path_run("VFIT_RSA_LIMB32");
}
