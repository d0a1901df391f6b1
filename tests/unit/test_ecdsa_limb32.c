/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/ecdsa compiled again with 32-bit limbs, the arithmetic 32-bit ARM
 * builds use, its global symbols renamed so they do not meet the
 * library's; then every test of test_ecdsa.h on it.
 */
#define VFIT_EC_LIMB32 1
#define vfit_ec_load_ l32_ec_load
#define vfit_ec_less_ l32_ec_less
#define vfit_ec_is_zero_ l32_ec_is_zero
#define vfit_ec_equal_ l32_ec_equal
#define vfit_ec_mont_ l32_ec_mont
#define vfit_ec_sqr_ l32_ec_sqr
#define vfit_ec_add_ l32_ec_add
#define vfit_ec_sub_ l32_ec_sub
#define vfit_ec_mul2_ l32_ec_mul2
#define vfit_ec_p256_ l32_ec_p256
#define vfit_ec_p384_ l32_ec_p384
#define vfit_ecdsa_curve l32_ecdsa_curve
#define vfit_ecdsa_curve_bytes l32_ecdsa_curve_bytes
#define vfit_ecdsa_key_load l32_ecdsa_key_load
#define vfit_ecdsa_verify l32_ecdsa_verify
#include "../../lib/ecdsa/ec_field.c"
#include "../../lib/ecdsa/ec_point.c"
#include "../../lib/ecdsa/ec_p256.c"
#include "../../lib/ecdsa/ec_p384.c"
#include "../../lib/ecdsa/ecdsa.c"

#include "test_ecdsa.h"

int main(void)
{
	return ecdsa_run("VFIT_EC_LIMB32");
}
