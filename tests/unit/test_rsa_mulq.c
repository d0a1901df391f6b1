/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/rsa/rsa.c's mulq rows (x86-64 baseline), forced here: a CPU with ADX
 * takes the mulx/adcx/adox rows in the default build (test_rsa_adx), so
 * this is where the path every other x86-64 CPU takes is still checked.
 */
#define VFIT_RSA_ADX 0
#define vfit_rsa_public path_public
#include "../../lib/rsa/rsa.c"
#undef vfit_rsa_public

#include "test_rsa_paths.h"

int main(void)
{
	return path_run("VFIT_RSA_ADX=0 (mulq rows)");
}
