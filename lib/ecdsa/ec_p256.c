/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NIST P-256 (secp256r1, OpenSSL's prime256v1), SEC 2 §2.4.2: p, n, b and
 * the odd multiples of the base point G, in the Montgomery form of ec_int.h
 * (x*R mod p, R = 2^bits), computed from the SEC 2 parameters.  test_ecdsa
 * recomputes every value with OpenSSL and prints the right one for any
 * that differs.
 */
#include "ec_int.h"

#if VFIT_HAVE_ECDSA_P256
static const limb_t p256_g[EC_TABLE * 2 * (256 / LIMB_BITS)] = {
	/* 1G */
	W64(0x79e730d418a9143c), W64(0x75ba95fc5fedb601),
	W64(0x79fb732b77622510), W64(0x18905f76a53755c6),
	W64(0xddf25357ce95560a), W64(0x8b4ab8e4ba19e45c),
	W64(0xd2e88688dd21f325), W64(0x8571ff1825885d85),
	/* 3G */
	W64(0xffac3f904eebc127), W64(0xb027f84a087d81fb),
	W64(0x66ad77dd87cbbc98), W64(0x26936a3fb6ff747e),
	W64(0xb04c5c1fc983a7eb), W64(0x583e47ad0861fe1a),
	W64(0x788208311a2ee98e), W64(0xd5f06a29e587cc07),
	/* 5G */
	W64(0xbe1b8aaec45c61f5), W64(0x90ec649a94b9537d),
	W64(0x941cb5aad076c20c), W64(0xc9079605890523c8),
	W64(0xeb309b4ae7ba4f10), W64(0x73c568efe5eb882b),
	W64(0x3540a9877e7a1f68), W64(0x73a076bb2dd1e916),
	/* 7G */
	W64(0x0746354ea0173b4f), W64(0x2bd20213d23c00f7),
	W64(0xf43eaab50c23bb08), W64(0x13ba5119c3123e03),
	W64(0x2847d0303f5b9d4d), W64(0x6742f2f25da67bdd),
	W64(0xef933bdc77c94195), W64(0xeaedd9156e240867),
	/* 9G */
	W64(0x75c96e8f264e20e8), W64(0xabe6bfed59a7a841),
	W64(0x2cc09c0444c8eb00), W64(0xe05b3080f0c4e16b),
	W64(0x1eb7777aa45f3314), W64(0x56af7bedce5d45e3),
	W64(0x2b6e019a88b12f1a), W64(0x086659cdfd835f9b),
	/* 11G */
	W64(0xea7d260a6245e404), W64(0x9de407956e7fdfe0),
	W64(0x1ff3a4158dac1ab5), W64(0x3e7090f1649c9073),
	W64(0x1a7685612b944e88), W64(0x250f939ee57f61c8),
	W64(0x0c0daa891ead643d), W64(0x68930023e125b88e),
	/* 13G */
	W64(0xccc425634b2ed709), W64(0x0e356769856fd30d),
	W64(0xbcbcd43f559e9811), W64(0x738477ac5395b759),
	W64(0x35752b90c00ee17f), W64(0x68748390742ed2e3),
	W64(0x7cd06422bd1f5bc1), W64(0xfbc08769c9e7b797),
	/* 15G */
	W64(0x72bcd8b7bc60055b), W64(0x03cc23ee56e27e4b),
	W64(0xee337424e4819370), W64(0xe2aa0e430ad3da09),
	W64(0x40b8524f6383c45d), W64(0xd766355442a41b25),
	W64(0x64efa6de778a4797), W64(0x2042170a7079adf4),
};

const struct ec_curve vfit_ec_p256 = {
	.p = {
		.m = {
			W64(0xffffffffffffffff), W64(0x00000000ffffffff),
			W64(0x0000000000000000), W64(0xffffffff00000001),
		},
		.rr = {
			W64(0x0000000000000003), W64(0xfffffffbffffffff),
			W64(0xfffffffffffffffe), W64(0x00000004fffffffd),
		},
		.m0 = (limb_t)0x0000000000000001u,
		.nl = 256 / LIMB_BITS,
		.form = EC_FORM_P256,
	},
	.n = {
		.m = {
			W64(0xf3b9cac2fc632551), W64(0xbce6faada7179e84),
			W64(0xffffffffffffffff), W64(0xffffffff00000000),
		},
		.rr = {
			W64(0x83244c95be79eea2), W64(0x4699799c49bd6fa6),
			W64(0x2845b2392b6bec59), W64(0x66e12d94f3d95620),
		},
		.m0 = (limb_t)0xccd1c8aaee00bc4fu,
		.nl = 256 / LIMB_BITS,
	},
	.b = {
		W64(0xd89cdf6229c4bddf), W64(0xacf005cd78843090),
		W64(0xe5a220abf7212ed6), W64(0xdc30061d04874834),
	},
	.g = p256_g,
	.bytes = 32,
};

#endif
