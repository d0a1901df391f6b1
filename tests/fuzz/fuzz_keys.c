/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: control-DTB parsing.  The input is a control DTB; every
 * key node under /signature is classified and loaded for each algorithm
 * name (RSA and ECDSA rows, matching and other hashes), and a loaded key
 * runs its algorithm's checks of a fixed value.  The seeds include ECDSA
 * key nodes in mkimage 2023.01's form (no algo) and in U-Boot HEAD's.
 */
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "vfit/fit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const algos[] = {
		"sha256,rsa2048", "sha1,rsa2048", "sha384,rsa3072", "sha512,rsa4096",
		"sha256,ecdsa256", "sha512,ecdsa256", "sha384,ecdsa384", "sha1,ecdsa384",
	};
	static uint8_t sig[VFIT_RSA_MAX_BITS / 8], digest[VFIT_HASH_MAX_SIZE];
	struct vfit_pubkey key;
	uint8_t *ctl;
	unsigned int i;
	int keys, node;

	ctl = malloc(size ? size : 1);
	if (!ctl)
		return 0;
	memcpy(ctl, data, size);
	if (vfit_control_check(ctl, size, NULL) == VFIT_OK) {
		keys = fdt_subnode_offset(ctl, 0, "signature");
		if (keys >= 0) {
			fdt_for_each_subnode(node, ctl, keys) {
				(void)vfit_key_required(ctl, node);
				for (i = 0; i < sizeof(algos) / sizeof(algos[0]); i++) {
					if (vfit_key_load(ctl, node, algos[i],
							  (int)strlen(algos[i]) + 1, &key))
						continue;
					memset(sig, 0x5a, sizeof(sig));
					(void)key.algo->verify(&key, VFIT_HASH_SHA256, VFIT_PAD_PKCS1,
							       digest, sig, key.algo->sig_len);
					(void)key.algo->verify(&key, VFIT_HASH_SHA256, VFIT_PAD_PSS,
							       digest, sig, key.algo->sig_len);
				}
			}
		}
	}
	free(ctl);
	return 0;
}
