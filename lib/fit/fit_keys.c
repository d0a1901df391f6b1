/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Signature algorithm names and RSA key nodes of the control FDT
 * (fit-format.md §3.2, 4.2, 4.4).  Keys are referenced in place, never copied.
 */
#include <string.h>

#include <libfdt.h>

#include "fit_int.h"

/* Signature hashes (fit-format.md §3.2); vfit_hash_lookup() knows only those built in. */
#define SIG_HASHES (1u << VFIT_HASH_SHA1 | 1u << VFIT_HASH_SHA256 | 1u << VFIT_HASH_SHA384 | \
		    1u << VFIT_HASH_SHA512)

enum vfit_result vfit_algo_parse(const char *s, int len, struct vfit_algo *algo)
{
	const struct vfit_prop v = { (const uint8_t *)s, len };
	const char *rsa;
	uint32_t bits = 0;
	unsigned int i;

	/* One NUL-terminated string "<hash>,rsa<4 digits>", matched exactly. */
	if (!vfit_str(&v) || !(rsa = strchr(s, ',')) || strlen(rsa) != 8 || memcmp(rsa, ",rsa", 4))
		return VFIT_ERR_UNSUPPORTED;
	for (i = 4; i < 8; i++) {
		if (rsa[i] < '0' || rsa[i] > '9')
			return VFIT_ERR_UNSUPPORTED;
		bits = bits * 10 + (uint32_t)(rsa[i] - '0');
	}
	algo->hash = vfit_hash_lookup(s, (size_t)(rsa - s));
	algo->rsa_bits = bits;
	/* 2048, 3072 or 4096 bits, within what this build accepts. */
	return (SIG_HASHES >> algo->hash & 1) && bits % 1024 == 0 && bits >= 2048 &&
	       bits <= 4096 && bits <= VFIT_RSA_MAX_BITS ? VFIT_OK : VFIT_ERR_UNSUPPORTED;
}

enum vfit_result vfit_control_check(const void *ctl, size_t len)
{
	int bad, keys, key;

	if (vfit_fdt_walk(ctl, len, false, &bad))
		return VFIT_ERR_CONTROL;
	keys = fdt_subnode_offset(ctl, 0, "signature");
	if (keys < 0)
		return keys == -FDT_ERR_NOTFOUND ? VFIT_OK : VFIT_ERR_CONTROL;
	/* The required-key table is bounded; more keys than that is refused. */
	bad = 0;
	fdt_for_each_subnode(key, ctl, keys)
		if (vfit_key_required(ctl, key) != VFIT_REQ_NONE && ++bad > VFIT_MAX_KEYS)
			return VFIT_ERR_CONTROL;
	return VFIT_OK;
}

enum vfit_required vfit_key_required(const void *ctl, int key_node)
{
	const char *req = vfit_prop_str(ctl, key_node, "required");

	if (!req)
		return VFIT_REQ_NONE;
	if (!strcmp(req, "conf"))
		return VFIT_REQ_CONF;
	if (!strcmp(req, "image"))
		return VFIT_REQ_IMAGE;
	return VFIT_REQ_NONE;
}

/* The key node's properties vfit_key_load() reads, in the order of enum kprop. */
static const char kprops[] = "algo\0rsa,num-bits\0rsa,n0-inverse\0rsa,modulus\0rsa,r-squared\0"
			     "rsa,exponent\0";
enum kprop { K_ALGO, K_BITS, K_N0INV, K_MOD, K_RR, K_EXP, NK };

/* A property of exactly len bytes, or NULL. */
static const uint8_t *sized(const struct vfit_prop *v, int len)
{
	return v->p && v->len == len ? v->p : NULL;
}

enum vfit_result vfit_key_load(const void *ctl, int key_node, const char *algo, int algo_len,
			       struct vfit_rsa_key *key)
{
	struct vfit_prop v[NK];
	struct vfit_algo a;
	const uint8_t *p;
	int bytes;
	enum vfit_result r = vfit_algo_parse(algo, algo_len, &a);

	if (r)
		return r;
	vfit_props(ctl, key_node, kprops, v, NK);
	/* A key node without algo crashed v2023.01; HEAD rejects it, so do we. */
	if (!v[K_ALGO].p)
		return VFIT_ERR_KEY;
	if (v[K_ALGO].len != algo_len || memcmp(v[K_ALGO].p, algo, (size_t)algo_len))
		return VFIT_ERR_KEY_ALGO;
	bytes = (int)(a.rsa_bits / 8);
	p = sized(&v[K_BITS], 4);
	if (!p || fdt32_ld((const fdt32_t *)p) != a.rsa_bits)
		return VFIT_ERR_KEY;
	key->num_bits = a.rsa_bits;
	p = sized(&v[K_N0INV], 4);
	if (!p)
		return VFIT_ERR_KEY;
	key->n0inv = fdt32_ld((const fdt32_t *)p);
	key->modulus = sized(&v[K_MOD], bytes);
	key->rr = sized(&v[K_RR], bytes);
	if (!key->modulus || !key->rr)
		return VFIT_ERR_KEY;
	/* U-Boot: an exponent property shorter than 8 bytes means 65537. */
	p = v[K_EXP].p;
	key->exponent = 65537;
	if (p && v[K_EXP].len >= 8)
		key->exponent = fdt64_ld((const fdt64_t *)p);
	return VFIT_OK;
}
