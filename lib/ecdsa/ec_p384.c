/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NIST P-384 (secp384r1), SEC 2 §2.5.1: p, n, b and the odd multiples of
 * the base point G, in the Montgomery form of ec_int.h (x*R mod p,
 * R = 2^bits), computed from the SEC 2 parameters.  test_ecdsa recomputes
 * every value with OpenSSL and prints the right one for any that differs.
 */
#include "ec_int.h"

#if VFIT_HAVE_ECDSA_P384
static const limb_t p384_g[EC_TABLE * 2 * (384 / LIMB_BITS)] = {
	/* 1G */
	W64(0x3dd0756649c0b528), W64(0x20e378e2a0d6ce38),
	W64(0x879c3afc541b4d6e), W64(0x6454868459a30eff),
	W64(0x812ff723614ede2b), W64(0x4d3aadc2299e1513),
	W64(0x23043dad4b03a4fe), W64(0xa1bfa8bf7bb4a9ac),
	W64(0x8bade7562e83b050), W64(0xc6c3521968f4ffd9),
	W64(0xdd8002263969a840), W64(0x2b78abc25a15c5e9),
	/* 3G */
	W64(0x05e4dbe6c1dc4073), W64(0xc54ea9fff04f779c),
	W64(0x6b2034e9a170ccf0), W64(0x3a48d732d51c6c3e),
	W64(0xe36f7e2d263aa470), W64(0xd283fe68e7c1c3ac),
	W64(0x7e284821c04ee157), W64(0x92d789a77ae0e36d),
	W64(0x132663c04ef67446), W64(0x68012d5ad2e1d0b4),
	W64(0xf6db68b15102b339), W64(0x465465fc983292af),
	/* 5G */
	W64(0xbb595eba68f1f0df), W64(0xc185c0cbcc873466),
	W64(0x7f1eb1b5293c703b), W64(0x60db2cf5aacc05e6),
	W64(0xc676b987e2e8e4c6), W64(0xe1bb26b11d178ffb),
	W64(0x2b694ba07073fa21), W64(0x22c16e2e72f34566),
	W64(0x80b61b3101c35b99), W64(0x4b237faf982c0411),
	W64(0xe6c5944024de236d), W64(0x4db1c9d6e209e4a3),
	/* 7G */
	W64(0xdf13b9d17d69222b), W64(0x4ce6415f874774b1),
	W64(0x731edcf8211faa95), W64(0x5f4215d1659753ed),
	W64(0xf893db589db2df55), W64(0x932c9f811c89025b),
	W64(0x0996b2207706a61e), W64(0x135349d5a8641c79),
	W64(0x65aad76f50130844), W64(0x0ff37c0401fff780),
	W64(0xf57f238e693b0706), W64(0xd90a16b6af6c9b3e),
	/* 9G */
	W64(0x2f5d200e2353b92f), W64(0xe35d87293fd7e4f9),
	W64(0x26094833a96d745d), W64(0xdc351dc13cbfff3f),
	W64(0x26d464c6dad54d6a), W64(0x5cab1d1d53636c6a),
	W64(0xf2813072b18ec0b0), W64(0x3777e270d742aa2f),
	W64(0x27f061c7033ca7c2), W64(0xa6ecaccc68ead0d8),
	W64(0x7d9429f4ee69a754), W64(0xe770633431e8f5c6),
	/* 11G */
	W64(0xc7708b19b68b8c7d), W64(0x4532077c44377aba),
	W64(0x0dcc67706cdad64f), W64(0x01b8bf56147b6602),
	W64(0xf8d89885f0561d79), W64(0x9c19e9fc7ba9c437),
	W64(0x764eb146bdc4ba25), W64(0x604fe46bac144b83),
	W64(0x3ce813298a77e780), W64(0x2e070f36fe9e682e),
	W64(0x41821d0c3a53287a), W64(0x9aa62f9f3533f918),
	/* 13G */
	W64(0x9b7aeb7e75ccbdfb), W64(0xb25e28c5f6749a95),
	W64(0x8a7a8e4633b7d4ae), W64(0xdb5203a8d9c1bd56),
	W64(0xd2657265ed22df97), W64(0xb51c56e18cf23c94),
	W64(0xf4d394596c3d812d), W64(0xd8e88f1a87cae0c2),
	W64(0x789a2a48cf4d0fe3), W64(0xb7feac2dfec38d60),
	W64(0x81fdbd1c3b490ec3), W64(0x4617adb7cc6979e1),
	/* 15G */
	W64(0x446ad8884709f4a9), W64(0x2b7210e2ec3dabd8),
	W64(0x83ccf19550e07b34), W64(0x59500917789b3075),
	W64(0x0fc01fd4eb085993), W64(0xfb62d26f4903026b),
	W64(0x2309cc9d6fe989bb), W64(0x61609cbd144bd586),
	W64(0x4b23d3a0de06610c), W64(0xdddc2866d898f470),
	W64(0x8733fc41400c5797), W64(0x5a68c6fed0bc2716),
};

const struct ec_curve vfit_ec_p384 = {
	.p = {
		.m = {
			W64(0x00000000ffffffff), W64(0xffffffff00000000),
			W64(0xfffffffffffffffe), W64(0xffffffffffffffff),
			W64(0xffffffffffffffff), W64(0xffffffffffffffff),
		},
		.rr = {
			W64(0xfffffffe00000001), W64(0x0000000200000000),
			W64(0xfffffffe00000000), W64(0x0000000200000000),
			W64(0x0000000000000001), W64(0x0000000000000000),
		},
		.m0 = (limb_t)0x0000000100000001u,
		.nl = 384 / LIMB_BITS,
	},
	.n = {
		.m = {
			W64(0xecec196accc52973), W64(0x581a0db248b0a77a),
			W64(0xc7634d81f4372ddf), W64(0xffffffffffffffff),
			W64(0xffffffffffffffff), W64(0xffffffffffffffff),
		},
		.rr = {
			W64(0x2d319b2419b409a9), W64(0xff3d81e5df1aa419),
			W64(0xbc3e483afcb82947), W64(0xd40d49174aab1cc5),
			W64(0x3fb05b7a28266895), W64(0x0c84ee012b39bf21),
		},
		.m0 = (limb_t)0x6ed46089e88fdc45u,
		.nl = 384 / LIMB_BITS,
	},
	.b = {
		W64(0x081188719d412dcc), W64(0xf729add87a4c32ec),
		W64(0x77f2209b1920022e), W64(0xe3374bee94938ae2),
		W64(0xb62b21f41f022094), W64(0xcd08114b604fbff9),
	},
	.g = p384_g,
	.bytes = 48,
};

#endif
