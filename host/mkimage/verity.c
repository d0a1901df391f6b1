/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dm-verity metadata for FIT images, as U-Boot HEAD's mkimage generates
 * it: an image with a dm-verity { algo; data-block-size; hash-block-size; }
 * node gets the Merkle hash tree appended to its data and the node gets
 * digest (root hash), salt, num-data-blocks and hash-start-block.  HEAD
 * runs `veritysetup format --no-superblock`; vfit builds the same tree
 * itself (format 1: every hash is H(salt || block), the levels stored top
 * first, each hash block zero-padded), so the Linux dm-verity target and
 * `veritysetup verify` accept it.
 *
 * Unlike HEAD, running mkimage -F again does not append a second tree:
 * a node that already has num-data-blocks and salt is rebuilt over the
 * same data blocks with the same salt, so -F is idempotent.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <libfdt.h>
#include <openssl/evp.h>

#include "mkimage_int.h"

#define SALT_LEN 32          /* veritysetup's default */
#define MAX_LEVELS 64

struct verity {
	const char *where;       /* "FILE: /images/NAME/dm-verity" for messages */
	const EVP_MD *md;
	EVP_MD_CTX *salted;      /* the digest state after the salt, copied for each block */
	EVP_MD_CTX *work;
	uint32_t dbs, hbs;       /* data and hash block sizes */
	uint8_t salt[256];
	int salt_len;
	size_t data_len;         /* bytes of filesystem data (a whole number of blocks) */
	size_t entry;            /* a digest's slot in a hash block: size rounded to a power of 2 */
};

static int pow2_block(uint32_t v)
{
	return v >= 512 && v <= (1u << 20) && !(v & (v - 1));
}

/* H(salt || block) into out. */
static int hash_block(const struct verity *v, const uint8_t *blk, size_t len, uint8_t *out)
{
	return EVP_MD_CTX_copy_ex(v->work, v->salted) && EVP_DigestUpdate(v->work, blk, len) &&
	       EVP_DigestFinal_ex(v->work, out, NULL) ? 0 : -1;
}

static int start_digests(struct verity *v)
{
	v->salted = EVP_MD_CTX_new();
	v->work = EVP_MD_CTX_new();
	return v->salted && v->work && EVP_DigestInit_ex(v->salted, v->md, NULL) &&
	       EVP_DigestUpdate(v->salted, v->salt, (size_t)v->salt_len) ? 0 : -1;
}

/*
 * The tree for data (data_len bytes): tree gets the hash blocks, top
 * level first, and root the root hash.  tree_len is its size.
 */
static int build_tree(const struct verity *v, const uint8_t *data, uint8_t **tree,
		      size_t *tree_len, uint8_t *root)
{
	size_t per = v->hbs / v->entry, n[MAX_LEVELS], start[MAX_LEVELS], blocks = 0, i, b;
	size_t cnt = v->data_len / v->dbs, len = v->dbs;
	const uint8_t *below = data;
	int levels = 0, k;

	/* Level k holds the hashes of level k-1 (level -1 is the data). */
	for (b = cnt; b > 1 && levels < MAX_LEVELS; levels++) {
		b = (b + per - 1) / per;
		n[levels] = b;
		blocks += b;
	}
	if (levels == MAX_LEVELS)
		return -1;
	*tree_len = blocks * v->hbs;
	*tree = calloc(1, *tree_len ? *tree_len : 1);
	if (!*tree)
		return -1;
	for (k = levels - 1, b = 0; k >= 0; k--) {
		start[k] = b;
		b += n[k];
	}
	for (k = 0; k < levels; k++) {
		uint8_t *out = *tree + start[k] * v->hbs;

		for (i = 0; i < cnt; i++)
			if (hash_block(v, below + i * len, len,
				       out + (i / per) * v->hbs + (i % per) * v->entry))
				return -1;
		below = out;
		cnt = n[k];
		len = v->hbs;
	}
	return hash_block(v, below, len, root);
}

static int get_u32(const void *fit, int node, const char *prop, const struct verity *v,
		   uint32_t *out, struct vfit_err *e)
{
	if (vfit_fdt_u32(fit, node, prop, out))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: '%s' missing or not one 32-bit cell",
				    v->where, prop);
	return 0;
}

/* The node's parameters and the data blocks (all of the data, or those a previous run had). */
static int setup(const void *fit, int node, int data_len, struct verity *v, struct vfit_err *e)
{
	const char *algo = vfit_fdt_str(fit, node, "algo");
	const void *salt;
	uint32_t nblocks;
	int len;

	if (!algo)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: 'algo' missing", v->where);
	v->md = EVP_get_digestbyname(algo);
	if (!v->md || EVP_MD_get_size(v->md) <= 0 || EVP_MD_get_size(v->md) > 64)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: unknown hash algo '%s'", v->where, algo);
	if (get_u32(fit, node, "data-block-size", v, &v->dbs, e) ||
	    get_u32(fit, node, "hash-block-size", v, &v->hbs, e))
		return -1;
	if (!pow2_block(v->dbs) || !pow2_block(v->hbs))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: block sizes must be powers of two from "
				    "512 to 1 MiB", v->where);
	for (v->entry = 1; v->entry < (size_t)EVP_MD_get_size(v->md); v->entry <<= 1)
		;
	salt = fdt_getprop(fit, node, "salt", &len);
	v->data_len = (size_t)data_len;
	if (salt && len > 0 && len <= (int)sizeof(v->salt) &&
	    !vfit_fdt_u32(fit, node, "num-data-blocks", &nblocks)) {
		memcpy(v->salt, salt, (size_t)len);
		v->salt_len = len;
		if ((uint64_t)nblocks * v->dbs > (uint64_t)data_len)
			return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: num-data-blocks %u is more than "
					    "the data holds", v->where, nblocks);
		v->data_len = (size_t)nblocks * v->dbs;
	} else {
		v->salt_len = SALT_LEN;
		if (getrandom(v->salt, SALT_LEN, 0) != SALT_LEN)
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: no random salt", v->where);
	}
	if (!v->data_len || v->data_len % v->dbs || v->data_len % v->hbs)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: image size %zu is not a multiple of "
				    "the data and hash block sizes", v->where, v->data_len);
	return 0;
}

/* data becomes data + tree; the node gets what a verifier needs, in HEAD's property order. */
static int store(struct vfit_fdtbuf *fit, int img, const struct verity *v, const uint8_t *tree,
		 size_t tree_len, const uint8_t *root)
{
	size_t total = v->data_len + tree_len;
	void *p;
	int r, node;

	if (total > INT32_MAX)
		return -1;
	/* Resized in place, libfdt keeps the data bytes: only the tree is written. */
	while ((r = fdt_setprop_placeholder(fit->buf, img, "data", (int)total, &p)) ==
	       -FDT_ERR_NOSPACE)
		if (vfit_fdtbuf_reserve(fit, tree_len + 64))
			return -1;
	if (!r)
		memcpy((uint8_t *)p + v->data_len, tree, tree_len);
	/* The data grew: the dm-verity node after it moved. */
	node = fdt_subnode_offset(fit->buf, img, "dm-verity");
	r = r || node < 0;
	r = r || vfit_fdt_setprop(fit, node, "digest", root, (size_t)EVP_MD_get_size(v->md));
	r = r || vfit_fdt_setprop(fit, node, "salt", v->salt, (size_t)v->salt_len);
	r = r || vfit_fdt_setprop_u32(fit, node, "num-data-blocks", (uint32_t)(v->data_len / v->dbs));
	r = r || vfit_fdt_setprop_u32(fit, node, "hash-start-block",
				      (uint32_t)(v->data_len / v->hbs));
	return r ? -1 : 0;
}

static int one_image(const char *name, struct vfit_fdtbuf *fit, int img, int node,
		     struct vfit_err *e)
{
	struct verity v = { 0 };
	char where[512];
	const void *data;
	uint8_t *tree = NULL, root[64];
	size_t tree_len = 0;
	int len, r;

	snprintf(where, sizeof(where), "%s: %s", name, vfit_node_path(fit->buf, node));
	v.where = where;
	data = fdt_getprop(fit->buf, img, "data", &len);
	if (!data)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: the image has no data", where);
	if (setup(fit->buf, node, len, &v, e))
		return -1;
	r = start_digests(&v) || build_tree(&v, data, &tree, &tree_len, root);
	EVP_MD_CTX_free(v.salted);
	EVP_MD_CTX_free(v.work);
	if (r) {
		free(tree);
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot build the hash tree", where);
	}
	r = store(fit, img, &v, tree, tree_len, root);
	free(tree);
	if (r)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot store the hash tree", where);
	return 0;
}

int vfit_verity_images(const char *name, struct vfit_fdtbuf *fit, int external,
		       struct vfit_err *e)
{
	int images = fdt_path_offset(fit->buf, "/images"), img, node;

	fdt_for_each_subnode(img, fit->buf, images) {
		node = fdt_subnode_offset(fit->buf, img, "dm-verity");
		if (node < 0)
			continue;
		/* The tree sits after the data, where a block driver reads it: not inside the FDT. */
		if (!external)
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s: dm-verity needs external data "
					    "(-E)", name, vfit_node_path(fit->buf, node));
		if (one_image(name, fit, img, node, e))
			return -1;
	}
	return 0;
}
