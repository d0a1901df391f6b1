/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/rsa/rsa.c's portable C arithmetic (64-bit limbs where __int128 exists, as on aarch64). */
#define VFIT_RSA_NO_ASM 1
#define vfit_rsa_public path_public
#include "../../lib/rsa/rsa.c"
#undef vfit_rsa_public

#include "test_rsa_paths.h"

int main(void)
{
	return path_run("VFIT_RSA_NO_ASM");
}
