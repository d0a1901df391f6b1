/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Encrypted images: the cipher node, its key node in the control FDT,
 * and decryption of the verified ciphertext (include/vfit/cipher.h).
 * Self-contained on libfdt and lib/aes so that a build without FIT
 * encryption leaves it out at the link.
 */
#include <string.h>

#include <libfdt.h>

#include "vfit/aes.h"
#include "vfit/cipher.h"

size_t vfit_cipher_key_len(const char *algo, size_t len)
{
	/* Exact names: U-Boot matches a prefix ("aes128x" is aes128), vfit does not. */
	if (len != 6 || strncmp(algo, "aes", 3))
		return 0;
	if (!strncmp(algo + 3, "128", 3))
		return 16;
	if (!strncmp(algo + 3, "192", 3))
		return 24;
	if (!strncmp(algo + 3, "256", 3))
		return 32;
	return 0;
}

static enum vfit_result fail(struct vfit_cipher *ci, struct vfit_diag *d, bool ctl, int node,
			     const char *prop, enum vfit_result r)
{
	ci->err_in_control = ctl;
	if (d) {
		d->node = node;
		d->prop = prop;
	}
	return r;
}

/* A property that is one non-empty NUL-terminated string without inner NULs. */
static const char *str(const void *fdt, int node, const char *name, int *err)
{
	int len;
	const char *s = fdt_getprop(fdt, node, name, &len);

	*err = 0;
	if (!s)
		return NULL;
	if (len < 2 || s[len - 1] || memchr(s, 0, (size_t)len - 1))
		*err = 1;
	return s;
}

/* Appends "-" (when dash) and s to buf at *n; false if it would not fit. */
static bool append(char *buf, size_t *n, const char *s, bool dash)
{
	size_t l = strlen(s);

	if (*n + dash + l >= VFIT_CIPHER_PATH_MAX)
		return false;
	if (dash)
		buf[(*n)++] = '-';
	memcpy(buf + *n, s, l);
	*n += l;
	buf[*n] = 0;
	return true;
}

enum vfit_result vfit_cipher_find(const void *fit, int image, const void *ctl,
				  struct vfit_cipher *ci, struct vfit_diag *diag)
{
	char name[VFIT_CIPHER_PATH_MAX];
	const fdt32_t *size;
	const uint8_t *v;
	int node, parent, len, bad;
	size_t n = 0;

	if (!fit || !ctl || !ci)
		return VFIT_ERR_PARAM;
	memset(ci, 0, sizeof(*ci));
	ci->key_node = -1;
	node = fdt_subnode_offset(fit, image, "cipher");
	if (node < 0)
		return fail(ci, diag, false, image, NULL, VFIT_ERR_MISSING);
	ci->algo = str(fit, node, "algo", &bad);
	if (!ci->algo || bad)
		return fail(ci, diag, false, node, "algo", bad ? VFIT_ERR_FORMAT : VFIT_ERR_MISSING);
	ci->key_len = vfit_cipher_key_len(ci->algo, strlen(ci->algo));
	if (!ci->key_len)
		return fail(ci, diag, false, node, "algo", VFIT_ERR_UNSUPPORTED);
	ci->key_name = str(fit, node, "key-name-hint", &bad);
	if (!ci->key_name || bad)
		return fail(ci, diag, false, node, "key-name-hint",
			    bad ? VFIT_ERR_FORMAT : VFIT_ERR_MISSING);
	ci->iv_name = str(fit, node, "iv-name-hint", &bad);
	if (bad)
		return fail(ci, diag, false, node, "iv-name-hint", VFIT_ERR_FORMAT);
	v = fdt_getprop(fit, node, "iv", &len);
	if (v && len != VFIT_AES_BLOCK)
		return fail(ci, diag, false, node, "iv", VFIT_ERR_FORMAT);
	if (!v && !ci->iv_name)
		return fail(ci, diag, false, node, "iv", VFIT_ERR_MISSING);
	ci->iv = v;
	ci->iv_in_fit = v != NULL;
	size = fdt_getprop(fit, image, "data-size-unciphered", &len);
	if (!size || len != 4)
		return fail(ci, diag, false, image, "data-size-unciphered",
			    size ? VFIT_ERR_FORMAT : VFIT_ERR_MISSING);
	ci->plain_len = fdt32_to_cpu(*size);

	/* The key node's name, as boot/image-cipher.c builds its path. */
	if (!append(name, &n, "key-", false) || !append(name, &n, ci->algo, false) ||
	    !append(name, &n, ci->key_name, true) ||
	    (ci->iv_name && !append(name, &n, ci->iv_name, true)) ||
	    n + sizeof("/cipher/") - 1 >= VFIT_CIPHER_PATH_MAX)
		return fail(ci, diag, false, node, "key-name-hint", VFIT_ERR_LIMIT);
	parent = fdt_subnode_offset(ctl, 0, "cipher");
	if (parent < 0)
		return fail(ci, diag, true, 0, NULL, VFIT_ERR_MISSING);
	ci->key_node = fdt_subnode_offset(ctl, parent, name);
	if (ci->key_node < 0)
		return fail(ci, diag, true, parent, NULL, VFIT_ERR_MISSING);
	ci->key = fdt_getprop(ctl, ci->key_node, "key", &len);
	if (!ci->key || (size_t)len != ci->key_len)
		return fail(ci, diag, true, ci->key_node, "key",
			    ci->key ? VFIT_ERR_KEY : VFIT_ERR_MISSING);
	size = fdt_getprop(ctl, ci->key_node, "key-len", &len);
	if (size && (len != 4 || fdt32_to_cpu(*size) != ci->key_len))
		return fail(ci, diag, true, ci->key_node, "key-len", VFIT_ERR_KEY);
	if (!ci->iv) {
		ci->iv = fdt_getprop(ctl, ci->key_node, "iv", &len);
		if (!ci->iv || len != VFIT_AES_BLOCK)
			return fail(ci, diag, true, ci->key_node, "iv",
				    ci->iv ? VFIT_ERR_KEY : VFIT_ERR_MISSING);
	}
	return VFIT_OK;
}

enum vfit_result vfit_cipher_decrypt(const struct vfit_cipher *ci, const uint8_t *in,
				     size_t in_len, uint8_t *out, size_t out_len)
{
	struct vfit_aes_key k;
	uint8_t iv[VFIT_AES_BLOCK], last[VFIT_AES_BLOCK];
	size_t full, i;
	enum vfit_result r;

	if (!ci || !ci->key || !ci->iv || !in || !out)
		return VFIT_ERR_PARAM;
	if (!in_len || in_len % VFIT_AES_BLOCK || ci->plain_len > in_len ||
	    in_len - ci->plain_len > VFIT_AES_BLOCK)
		return VFIT_ERR_DATA;
	if (out_len < ci->plain_len)
		return VFIT_ERR_PARAM;
	r = vfit_aes_init(&k, ci->key, ci->key_len);
	if (r)
		return r;
	memcpy(iv, ci->iv, VFIT_AES_BLOCK);
	/* Whole plaintext blocks straight into place; the tail through a block here. */
	full = ci->plain_len - ci->plain_len % VFIT_AES_BLOCK;
	r = vfit_aes_cbc_decrypt(&k, iv, in, out, full);
	if (!r && full < ci->plain_len) {
		r = vfit_aes_cbc_decrypt(&k, iv, in + full, last, VFIT_AES_BLOCK);
		for (i = 0; i < ci->plain_len - full; i++)
			out[full + i] = last[i];
	}
	vfit_aes_wipe(&k);
	for (i = 0; i < VFIT_AES_BLOCK; i++)
		((volatile uint8_t *)last)[i] = 0;
	return r;
}
