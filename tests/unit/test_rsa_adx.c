/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/rsa/rsa.c's mulx/adcx/adox rows (the default build's choice, at run
 * time, on a CPU with BMI2 and ADX), forced on here and run when this CPU
 * has them, else under
 * qemu-x86_64 -cpu max (check_cpu), else reported as a skip.
 */
#if defined(__x86_64__)
#define VFIT_RSA_ADX 1
#endif
#define vfit_rsa_public path_public
#include "../../lib/rsa/rsa.c"
#undef vfit_rsa_public

#include "test_rsa_paths.h"

#if defined(__x86_64__)
#include <cpuid.h>

/* CPUID.(7,0):EBX bit 8 is BMI2, bit 19 ADX. */
static int have_adx(void)
{
	unsigned a, b, c, d;

	if (__get_cpuid_max(0, NULL) < 7)
		return 0;
	__cpuid_count(7, 0, a, b, c, d);
	return (b >> 8 & 1) && (b >> 19 & 1);
}

int main(int argc, char **argv)
{
	(void)argc;
	if (!check_cpu(have_adx(), "adx", argv))
		return check_done();
	return path_run("VFIT_RSA_ADX");
}
#else
int main(void)
{
	return path_run("native (no mulx/adcx/adox rows off x86-64)");
}
#endif
