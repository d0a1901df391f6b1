/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mkimage's encryption of FIT images (host/cipher.h).  The same writes in
 * the same order as U-Boot's mkimage, so the FIT and the -K DTB come out
 * byte for byte as its own (with a file-supplied IV; a random one differs
 * by nature): the IV into the cipher node (or the key node), the key
 * node's key and key-len, then data and data-size-unciphered.  Encryption
 * is OpenSSL's AES-CBC, as mkimage's; the device side decrypts with
 * lib/aes, so each end checks the other.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <libfdt.h>
#include <openssl/evp.h>

#include "vfit/aes.h"
#include "vfit/cipher.h"
#include "vfit-host/io.h"
#include "mkimage_int.h"

struct job {
	const char *name;
	const char *path;         /* the cipher node's path, for messages */
	/* Copies: the FIT's buffer moves when it grows. */
	char algo[8], key_name[VFIT_CIPHER_PATH_MAX], iv_buf[VFIT_CIPHER_PATH_MAX];
	const char *iv_name;      /* iv_buf or NULL */
	size_t key_len;
	uint8_t key[VFIT_AES_MAX_KEY], iv[VFIT_AES_BLOCK];
};

/* DIR/NAME.bin, exactly len bytes (mkimage checks the size the same way). */
static int read_bin(const struct job *j, const char *dir, const char *hint, uint8_t *out,
		    size_t len, struct vfit_err *e)
{
	char path[PATH_MAX];
	uint8_t buf[VFIT_AES_MAX_KEY + 1];
	size_t got = 0;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s.bin", dir, hint) >= sizeof(path))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s: key path too long", j->name,
				    j->path);
	if (vfit_read_small(path, buf, len + 1, &got))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s: %s: %s", j->name, j->path, path,
				    strerror(errno));
	if (got != len)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: %s: %zu bytes, %s needs %zu",
				    j->name, j->path, path, got, j->algo, len);
	memcpy(out, buf, len);
	memset(buf, 0, sizeof(buf));
	return 0;
}

static const char *hint(const char *name, const void *fit, int node, const char *prop,
			int need, const char *path, struct vfit_err *e)
{
	int len;
	const char *s = fdt_getprop(fit, node, prop, &len);

	if (!s && !need)
		return NULL;
	if (!s || len < 2 || s[len - 1] || memchr(s, 0, (size_t)len - 1) || strchr(s, '/')) {
		vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: %s %s", name, path, prop,
			     s ? "must be one non-empty string without '/'" : "missing");
		return NULL;
	}
	return s;
}

/* What the cipher node asks for, with the key and IV material. */
static int setup(struct job *j, const char *keydir, const void *fit, int node,
		 struct vfit_err *e)
{
	char kname[VFIT_CIPHER_PATH_MAX];
	const char *algo, *key, *iv;

	algo = vfit_fdt_str(fit, node, "algo");
	if (!algo)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: algo missing", j->name, j->path);
	j->key_len = vfit_cipher_key_len(algo, strlen(algo));
	if (!j->key_len)
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "%s: %s: unsupported cipher '%s' (aes128, aes192, aes256)",
				    j->name, j->path, algo);
	key = hint(j->name, fit, node, "key-name-hint", 1, j->path, e);
	if (!key)
		return -1;
	iv = hint(j->name, fit, node, "iv-name-hint", 0, j->path, e);
	if (!iv && fdt_getprop(fit, node, "iv-name-hint", NULL))
		return -1;
	/* The device looks the key node up under /cipher in U-Boot's 128-byte path buffer. */
	if ((size_t)snprintf(kname, sizeof(kname), "/cipher/key-%s-%s%s%s", algo, key,
			     iv ? "-" : "", iv ? iv : "") >= sizeof(kname))
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "%s: %s: key node path longer than U-Boot's %d bytes", j->name,
				    j->path, VFIT_CIPHER_PATH_MAX - 1);
	/* All three fit: the path above holds them. */
	snprintf(j->algo, sizeof(j->algo), "%s", algo);
	snprintf(j->key_name, sizeof(j->key_name), "%s", key);
	j->iv_name = iv ? j->iv_buf : NULL;
	if (iv)
		snprintf(j->iv_buf, sizeof(j->iv_buf), "%s", iv);
	if (read_bin(j, keydir, j->key_name, j->key, j->key_len, e))
		return -1;
	if (j->iv_name)
		return read_bin(j, keydir, j->iv_name, j->iv, VFIT_AES_BLOCK, e);
	/* mkimage seeds random() from the clock; a real random IV is a choice of ours. */
	if (getrandom(j->iv, sizeof(j->iv), 0) != (ssize_t)sizeof(j->iv))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s: no random IV: %s", j->name,
				    j->path, strerror(errno));
	return 0;
}

static const EVP_CIPHER *evp(size_t key_len)
{
	return key_len == 16 ? EVP_aes_128_cbc() : key_len == 24 ? EVP_aes_192_cbc()
								 : EVP_aes_256_cbc();
}

/* AES-CBC with OpenSSL's default PKCS#7 padding, as mkimage's EVP calls. */
static uint8_t *encrypt(const struct job *j, const uint8_t *data, size_t len, size_t *out_len,
			struct vfit_err *e)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	uint8_t *out = len <= INT_MAX - 2 * VFIT_AES_BLOCK ? malloc(len + VFIT_AES_BLOCK) : NULL;
	int n1 = 0, n2 = 0;

	if (!ctx || !out || EVP_EncryptInit_ex(ctx, evp(j->key_len), NULL, j->key, j->iv) != 1 ||
	    EVP_EncryptUpdate(ctx, out, &n1, data, (int)len) != 1 ||
	    EVP_EncryptFinal_ex(ctx, out + n1, &n2) != 1) {
		EVP_CIPHER_CTX_free(ctx);
		free(out);
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s: encryption failed", j->name, j->path);
		return NULL;
	}
	EVP_CIPHER_CTX_free(ctx);
	*out_len = (size_t)n1 + (size_t)n2;
	return out;
}

/* /cipher/key-<algo>-<key>[-<iv>] in the -K DTB: iv (file IV only), key, key-len. */
static int key_node(const struct job *j, struct vfit_fdtbuf *dtb, struct vfit_err *e)
{
	char kname[3 * VFIT_CIPHER_PATH_MAX];    /* setup() checked it fits in 128 */
	int parent, node, r;

	snprintf(kname, sizeof(kname), "key-%s-%s%s%s", j->algo, j->key_name,
		 j->iv_name ? "-" : "", j->iv_name ? j->iv_name : "");
	if (vfit_fdtbuf_reserve(dtb, 2 * VFIT_CIPHER_PATH_MAX + 64))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "out of memory");
	parent = vfit_fdt_subnode(dtb->buf, 0, "cipher");
	node = parent < 0 ? parent : vfit_fdt_subnode(dtb->buf, parent, kname);
	r = node < 0 ? node : 0;
	if (!r && j->iv_name)
		r = vfit_fdt_setprop(dtb, node, "iv", j->iv, sizeof(j->iv));
	if (!r)
		r = vfit_fdt_setprop(dtb, node, "key", j->key, j->key_len);
	if (!r)
		r = vfit_fdt_setprop_u32(dtb, node, "key-len", (uint32_t)j->key_len);
	if (r)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: /cipher/%s: %s", j->name, kname,
				    fdt_strerror(r));
	return 0;
}

static int do_image(const char *name, struct vfit_fdtbuf *fit, int img, const char *keydir,
		    struct vfit_fdtbuf *keydtb, struct vfit_err *e)
{
	struct job j = { .name = name };
	char path[1024];
	const void *data;
	uint8_t *ct = NULL;
	size_t ct_len = 0;
	int node, len, r = -1;

	/* Encrypted already (mkimage -F runs again on its own output): never twice. */
	if (fdt_getprop(fit->buf, img, "data-size-unciphered", NULL))
		return 0;
	node = fdt_subnode_offset(fit->buf, img, "cipher");
	if (node < 0)
		return 0;
	snprintf(path, sizeof(path), "%s", vfit_node_path(fit->buf, node));
	j.path = path;
	data = fdt_getprop(fit->buf, img, "data", &len);
	if (!data)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: no data to encrypt", name,
				    vfit_node_path(fit->buf, img));
	if (setup(&j, keydir, fit->buf, node, e) ||
	    !(ct = encrypt(&j, data, (size_t)len, &ct_len, e)))
		goto out;
	/* mkimage's order: the IV (and the key node), then the data and its plain size. */
	r = j.iv_name ? 0 : vfit_fdt_setprop(fit, node, "iv", j.iv, sizeof(j.iv));
	if (!r && keydtb && key_node(&j, keydtb, e)) {
		r = -1;
		goto out;
	}
	if (!r)
		r = vfit_fdt_setprop(fit, img, "data", ct, ct_len);
	if (!r)
		r = vfit_fdt_setprop_u32(fit, img, "data-size-unciphered", (uint32_t)len);
	if (r) {
		vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s: %s", name, path, fdt_strerror(r));
		r = -1;
	}
out:
	OPENSSL_cleanse(&j, sizeof(j));
	free(ct);
	return r;
}

int vfit_cipher_images(const char *name, struct vfit_fdtbuf *fit, const char *keydir,
		       struct vfit_fdtbuf *keydtb, struct vfit_err *e)
{
	int images, img;

	if (!keydir)
		return 0;
	images = fdt_path_offset(fit->buf, "/images");
	fdt_for_each_subnode(img, fit->buf, images)
		if (do_image(name, fit, img, keydir, keydtb, e))
			return -1;
	return 0;
}
