/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The signature algorithms, one row each, and the grammar of a FIT `algo`
 * value "<hash>,<algorithm>" (fit-format.md §3.2).  The verifier and the
 * host signer both go through this table.
 */
#include <string.h>

#include "fit_int.h"

/* Character arrays, not pointers: the table needs no relocation. */
static const struct vfit_sig_algo algos[] = {
#if VFIT_HAVE_RSA
	{ "rsa2048", 2048, 256, VFIT_SIG_RSA, VFIT_EC_NONE, vfit_rsa_fit_load_,
	  vfit_rsa_fit_verify_ },
#if VFIT_RSA_MAX_BITS >= 3072
	{ "rsa3072", 3072, 384, VFIT_SIG_RSA, VFIT_EC_NONE, vfit_rsa_fit_load_,
	  vfit_rsa_fit_verify_ },
#endif
#if VFIT_RSA_MAX_BITS >= 4096
	{ "rsa4096", 4096, 512, VFIT_SIG_RSA, VFIT_EC_NONE, vfit_rsa_fit_load_,
	  vfit_rsa_fit_verify_ },
#endif
#endif
#if VFIT_HAVE_ECDSA_P256
	{ "ecdsa256", 256, 64, VFIT_SIG_ECDSA, VFIT_EC_P256, vfit_ecdsa_fit_load_,
	  vfit_ecdsa_fit_verify_ },
#endif
#if VFIT_HAVE_ECDSA_P384
	{ "ecdsa384", 384, 96, VFIT_SIG_ECDSA, VFIT_EC_P384, vfit_ecdsa_fit_load_,
	  vfit_ecdsa_fit_verify_ },
#endif
};

#define NALGOS (sizeof(algos) / sizeof(algos[0]))

const struct vfit_sig_algo *vfit_sig_algo_at(unsigned int i)
{
	return i < NALGOS ? &algos[i] : NULL;
}

const struct vfit_sig_algo *vfit_sig_algo_find(const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < NALGOS; i++)
		if (strlen(algos[i].name) == len && !memcmp(algos[i].name, name, len))
			return &algos[i];
	return NULL;
}

/*
 * A build with one row and one signature hash (a minimal verifier) accepts
 * exactly one algo value, "<hash>,<row>": compared whole, without parsing.
 */
#define NSIGHASH (!!VFIT_HAVE_SHA1 + !!VFIT_HAVE_SHA256 + !!VFIT_HAVE_SHA384 + !!VFIT_HAVE_SHA512)
#if NSIGHASH == 1 && !VFIT_HAVE_ECDSA && VFIT_RSA_MAX_BITS == 2048
#if VFIT_HAVE_SHA1
#define ONLY_HASH VFIT_HASH_SHA1
#define ONLY_ALGO "sha1,rsa2048"
#elif VFIT_HAVE_SHA256
#define ONLY_HASH VFIT_HASH_SHA256
#define ONLY_ALGO "sha256,rsa2048"
#elif VFIT_HAVE_SHA384
#define ONLY_HASH VFIT_HASH_SHA384
#define ONLY_ALGO "sha384,rsa2048"
#else
#define ONLY_HASH VFIT_HASH_SHA512
#define ONLY_ALGO "sha512,rsa2048"
#endif
_Static_assert(NALGOS == 1, "one row: rsa2048");

enum vfit_result vfit_algo_parse(const char *s, int len, struct vfit_algo *algo)
{
	/* len counts the NUL: the value is exactly one string. */
	if (len != (int)sizeof(ONLY_ALGO) || memcmp(s, ONLY_ALGO, sizeof(ONLY_ALGO)))
		return VFIT_ERR_UNSUPPORTED;
	algo->hash = ONLY_HASH;
	algo->sig = &algos[0];
	return VFIT_OK;
}
#else
enum vfit_result vfit_algo_parse(const char *s, int len, struct vfit_algo *algo)
{
	const struct vfit_prop v = { (const uint8_t *)s, len };
	const char *comma;

	if (!vfit_str_(&v) || !(comma = strchr(s, ',')))
		return VFIT_ERR_UNSUPPORTED;
	algo->hash = vfit_hash_lookup(s, (size_t)(comma - s));
	algo->sig = vfit_sig_algo_find(comma + 1, strlen(comma + 1));
	/* vfit_hash_lookup() knows only the hashes built in. */
	return algo->sig && vfit_sig_hash_ok(algo->hash) ? VFIT_OK : VFIT_ERR_UNSUPPORTED;
}
#endif
