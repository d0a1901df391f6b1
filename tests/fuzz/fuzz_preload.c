/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: pre-load headers (lib/preload).  The input is a file
 * with a pre-load header, checked against fixed keys (RSA-2048 PKCS#1 and
 * PSS, P-256, each mandatory and not): every header field, both
 * signatures and the sizes come from the input.  The same bytes are also
 * taken as a control DTB whose /image/pre-load/sig is loaded.  The seeds
 * are headers vfit preload made for those keys, and a key node.
 */
#include <stdlib.h>
#include <string.h>

#include "vfit/preload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The public keys of the seeds (RSAPublicKey DER, an uncompressed P-256 point). */
#include "preload_keys.h"

/* The six keys, made once (the RSA ones compute their Montgomery constants). */
static struct vfit_preload_key keys[6];

static void load_keys(void)
{
	unsigned int i;

	for (i = 0; i < 6; i++) {
		const char *pad = i % 3 == 1 ? "pss" : "pkcs-1.5";

		if (i % 3 == 2 ? vfit_preload_key_make("sha256,ecdsa256", NULL, 64, i < 3,
						       fuzz_p256_pub, sizeof(fuzz_p256_pub),
						       &keys[i], NULL)
			       : vfit_preload_key_make("sha256,rsa2048", pad, 256, i < 3,
						       fuzz_rsa_pub, sizeof(fuzz_rsa_pub),
						       &keys[i], NULL))
			abort();        /* the fixed keys must load */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct vfit_preload_key key;
	static int loaded;
	struct vfit_preload_result res;
	struct vfit_diag d;
	uint8_t *buf = malloc(size ? size : 1);
	unsigned int i;

	if (!buf)
		return 0;
	if (!loaded) {
		load_keys();
		loaded = 1;
	}
	memcpy(buf, data, size);
	for (i = 0; i < 6; i++)
		(void)vfit_preload_check(&keys[i], buf, size, &res);
	/* The same bytes as a control DTB holding a key node. */
	if (vfit_fdt_check(buf, size, &d) == VFIT_OK && vfit_preload_key_load(buf, &key, &d) == VFIT_OK)
		(void)vfit_preload_check(&key, buf, size, &res);
	free(buf);
	return 0;
}
