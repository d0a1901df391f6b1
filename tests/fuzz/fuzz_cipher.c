/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: encrypted images (lib/fit/fit_cipher.c).  The input is
 * a FIT and a control DTB: a 4-byte big-endian length of the FIT, the FIT,
 * then the control DTB.  Each image of a FIT that passes vfit_fit_check()
 * has its cipher node and key node looked up against a control DTB that
 * passes vfit_fdt_check(), and what is found decrypts the image's data
 * into a buffer of exactly data-size-unciphered bytes (ASan sees a write
 * past it).  The seeds are FITs vfit mkimage encrypted, with their -K DTBs.
 */
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "vfit/cipher.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vfit_cipher ci;
	struct vfit_diag d;
	uint8_t *fit, *ctl, *out;
	size_t fit_len;
	int images, img, len;
	const uint8_t *payload;

	if (size < 4)
		return 0;
	fit_len = (size_t)data[0] << 24 | (size_t)data[1] << 16 | (size_t)data[2] << 8 | data[3];
	if (fit_len > size - 4)
		return 0;
	/* Copies of exactly their size: a read past either is ASan's to see. */
	fit = malloc(fit_len ? fit_len : 1);
	ctl = malloc(size - 4 - fit_len ? size - 4 - fit_len : 1);
	if (!fit || !ctl)
		goto out;
	memcpy(fit, data + 4, fit_len);
	memcpy(ctl, data + 4 + fit_len, size - 4 - fit_len);
	if (vfit_fit_check(fit, fit_len, 0, NULL) || vfit_fdt_check(ctl, size - 4 - fit_len, &d))
		goto out;
	images = fdt_path_offset(fit, "/images");
	fdt_for_each_subnode(img, fit, images) {
		if (vfit_cipher_find(fit, img, ctl, &ci, &d))
			continue;
		payload = fdt_getprop(fit, img, "data", &len);
		if (!payload || ci.plain_len > (uint32_t)len)
			continue;
		out = malloc(ci.plain_len ? ci.plain_len : 1);
		if (!out)
			continue;
		(void)vfit_cipher_decrypt(&ci, payload, (size_t)len, out, ci.plain_len);
		free(out);
	}
out:
	free(fit);
	free(ctl);
	return 0;
}
