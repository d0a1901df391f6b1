/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Decryption of verified FIT images on the host (vfit verify --decrypt),
 * through the device library's own lookup and AES, so the host check is
 * what a device does; and vfit info's description of a cipher node.
 */
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "vfit/cipher.h"
#include "vfit-host/cipher.h"
#include "vfit-host/fdtbuf.h"
#include "vfit-host/io.h"

struct plain {
	const char *name;
	uint8_t *buf;           /* malloc'ed plaintext, or NULL: the verified bytes as they are */
	const uint8_t *p;
	size_t len;
};

static int where(struct vfit_err *e, const char *file, const void *fdt, int node,
		 const char *prop, enum vfit_result r)
{
	char path[VFIT_PATH_MAX];

	if (node < 0 || fdt_get_path(fdt, node, path, sizeof(path)))
		snprintf(path, sizeof(path), "/");
	return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s%s%s: %s", file, path, prop ? ": " : "",
			    prop ? prop : "", vfit_result_to_string(r));
}

static int decrypt_one(FILE *f, const struct vfit_image *img, const void *fit, const char *ctl,
		       size_t ctl_len, const char *ctl_path, struct plain *out,
		       struct vfit_err *e)
{
	struct vfit_cipher ci;
	struct vfit_diag d = { .node = -1 };
	enum vfit_result r;

	(void)ctl_len;
	r = vfit_cipher_find(fit, img->node, ctl, &ci, &d);
	if (r)
		return where(e, ci.err_in_control ? ctl_path : "FIT", ci.err_in_control ? ctl : fit,
			     d.node, d.prop, r);
	out->buf = malloc(ci.plain_len ? ci.plain_len : 1);
	if (!out->buf)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "out of memory");
	fprintf(f, "   Decrypting Data ... ");
	r = vfit_cipher_decrypt(&ci, img->data, img->size, out->buf, ci.plain_len);
	if (r) {
		fprintf(f, "error!\n");
		return where(e, "FIT", fit, img->node, "data-size-unciphered", r);
	}
	fprintf(f, "OK\n   Image '%s': %s, key '%s', IV from the %s: %zu bytes of ciphertext, "
		"%u of plaintext\n", img->name, ci.algo, ci.key_name,
		ci.iv_in_fit ? "FIT" : "control DTB", img->size, (unsigned int)ci.plain_len);
	out->p = out->buf;
	out->len = ci.plain_len;
	return 0;
}

static int write_all(const char *dir, struct plain *pl, unsigned int n, struct vfit_err *e)
{
	struct vfit_out *o = calloc(n ? n : 1, sizeof(*o));
	char path[4096];
	unsigned int i, done = 0;
	struct vfit_seg seg;
	int r = 0;

	if (!o)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "out of memory");
	for (i = 0; i < n && !r; i++) {
		if (!pl[i].name)
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, pl[i].name) >= sizeof(path)) {
			r = vfit_err_set(e, VFIT_EXIT_USAGE, "%s: path too long", dir);
			break;
		}
		seg.off = 0;
		seg.p = pl[i].p;
		seg.len = pl[i].len;
		r = vfit_out_write(&o[i], path, &seg, 1, seg.len, e);
		done = i + 1;
	}
	for (i = 0; i < done; i++) {
		if (!pl[i].name)
			continue;
		if (!r)
			r = vfit_out_commit(&o[i], e);
		else
			vfit_out_discard(&o[i]);
	}
	free(o);
	return r;
}

int vfit_decrypt_images(FILE *f, const struct vfit_verify_result *res, const void *fit,
			const char *keydtb_path, const char *dir, struct vfit_err *e)
{
	struct plain pl[VFIT_MAX_IMAGES];
	struct vfit_diag d = { .node = -1 };
	char *ctl = NULL;
	size_t ctl_len = 0;
	unsigned int i, j;
	int r = 0;

	memset(pl, 0, sizeof(pl));
	if (vfit_file_read(keydtb_path, 0, &ctl, &ctl_len, e))
		return -1;
	if (vfit_fdt_check(ctl, ctl_len, &d)) {
		r = vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not a valid device tree", keydtb_path);
		goto out;
	}
	for (i = 0; i < res->nimages && !r; i++) {
		const struct vfit_image *img = &res->image[i];

		/* An image named twice (kernel and loadables) is written once. */
		for (j = 0; j < i; j++)
			if (res->image[j].node == img->node)
				break;
		if (j < i)
			continue;
		pl[i].name = img->name;
		pl[i].p = img->data;
		pl[i].len = img->size;
		if (fdt_subnode_offset(fit, img->node, "cipher") >= 0)
			r = decrypt_one(f, img, fit, ctl, ctl_len, keydtb_path, &pl[i], e);
	}
	if (!r && dir)
		r = write_all(dir, pl, res->nimages, e);
out:
	for (i = 0; i < VFIT_MAX_IMAGES; i++)
		if (pl[i].buf) {
			memset(pl[i].buf, 0, pl[i].len);
			free(pl[i].buf);
		}
	free(ctl);
	return r;
}

void vfit_list_cipher(FILE *f, const void *fit, int img)
{
	int node = fdt_subnode_offset(fit, img, "cipher");
	const char *algo, *key, *ivname;
	uint32_t plain;

	if (node < 0)
		return;
	algo = vfit_fdt_str(fit, node, "algo");
	key = vfit_fdt_str(fit, node, "key-name-hint");
	ivname = vfit_fdt_str(fit, node, "iv-name-hint");
	fprintf(f, "  Encrypted:    %s, key '%s', IV %s%s%s", algo ? algo : "?", key ? key : "?",
		fdt_getprop(fit, node, "iv", NULL) ? "in the FIT" : "in the control DTB",
		ivname ? " " : "", ivname ? ivname : "");
	if (!vfit_fdt_u32(fit, img, "data-size-unciphered", &plain))
		fprintf(f, ", %u bytes of plaintext\n", plain);
	else
		fprintf(f, ", not encrypted yet (no data-size-unciphered)\n");
}
