/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: the verifier entry point.  Input = one selector byte
 * (low nibble: which control DTB of fuzz_ctl.h, modulo their number; 0x10:
 * configuration conf-2; 0x20: the allow-unenforced flag) followed by the FIT.  The seeds are valid FITs signed with the keys of those DTBs,
 * so mutations reach the image checks behind a verified configuration.
 */
#include <stdlib.h>
#include <string.h>

#include "vfit/fit.h"
#include "fuzz_ctl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct vfit_verify_result res;
	const struct vfit_image *img;
	unsigned int sel, i;
	uint8_t *fit;
	volatile uint8_t sink = 0;

	if (size < 1)
		return 0;
	sel = data[0];
	/* An exact-size heap copy, so ASan sees any read past the loaded bytes. */
	fit = malloc(size - 1 ? size - 1 : 1);
	if (!fit)
		return 0;
	memcpy(fit, data + 1, size - 1);
	/* Nothing may be handed out from a rejected FIT. */
	if (vfit_verify(fit, size - 1, fuzz_ctl[(sel & 15) % FUZZ_NCTL].p,
			fuzz_ctl[(sel & 15) % FUZZ_NCTL].len, (sel & 0x10) ? "conf-2" : NULL,
			(sel & 0x20) ? VFIT_VERIFY_ALLOW_UNENFORCED : 0, &res))
		for (i = 0; i < VFIT_MAX_IMAGES; i++)
			if (res.image[i].data || res.nimages)
				abort();
	/* Every image handed out must lie inside the buffer: touch its bytes. */
	for (i = 0; i < res.nimages; i++) {
		img = &res.image[i];
		if (img->size)
			sink ^= img->data[0] ^ img->data[img->size - 1];
	}
	(void)sink;
	free(fit);
	return 0;
}
