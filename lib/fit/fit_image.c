/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Image payloads: where the bytes are (embedded or external, fit-format.md §2.6 with
 * bounds beyond U-Boot's, 6.5), their hash nodes and signatures (fit-format.md §6.4).
 */
#include <string.h>

#include <libfdt.h>

#include "fit_int.h"

/* A 4-byte cell read as U-Boot does: signed; negative values are refused. */
static enum vfit_result cell(const struct vfit_prop *v, uint32_t *out)
{
	if (!v->p)
		return VFIT_ERR_MISSING;
	if (v->len != 4)
		return VFIT_ERR_FORMAT;
	*out = ld_be32(v->p);
	return *out >> 31 ? VFIT_ERR_DATA : VFIT_OK;
}

/* load/entry: one or two cells, most significant first. */
static enum vfit_result addr(const struct vfit_prop *v, uint64_t *out, bool *present)
{
	*present = v->p != NULL;
	if (v->len == 4)
		*out = ld_be32(v->p);
	else if (v->len == 8)
		*out = fdt64_ld((const fdt64_t *)v->p);
	else if (v->p)
		return VFIT_ERR_FORMAT;
	return VFIT_OK;
}

/*
 * data-position is an offset from the FIT start, data-offset one from the
 * first 4-byte boundary after the FDT.  On top of U-Boot's checks (no
 * negative values, within VFIT_SIGNATURE_MAX_SIZE) the payload must lie
 * wholly inside the loaded bytes and after the FDT: the FDT's own bytes
 * are not payload.  32-bit sums cannot wrap: totalsize, the offset and the
 * size are each checked against the limit (at most 2^30) first.
 */
static enum vfit_result locate(struct vfit_ctx *c, struct vfit_image *img,
			       const struct vfit_prop *v)
{
	uint32_t fdt_end = (fdt_totalsize(c->fit) + 3) & ~3u, start, size;
	bool has_pos = v[P_POS].p != NULL;
	const char *where = has_pos ? "data-position" : "data-offset";
	enum vfit_result r;

	/* data-position wins over data-offset, which wins over data. */
	if (!has_pos && !v[P_OFF].p) {
		vfit_at(c, img->node, "data", false);
		if (!v[P_DATA].p)
			return VFIT_ERR_MISSING;
		img->data = v[P_DATA].p;
		img->size = (size_t)v[P_DATA].len;
		img->offset = (size_t)(img->data - c->fit);
		return VFIT_OK;
	}
	vfit_at(c, img->node, where, false);
	r = cell(&v[has_pos ? P_POS : P_OFF], &start);
	if (r)
		return r;
	vfit_at_prop(c, "data-size");
	r = cell(&v[P_SIZE], &size);
	if (r)
		return r;
	vfit_at_prop(c, where);
	if (start > VFIT_SIGNATURE_MAX_SIZE || size > VFIT_SIGNATURE_MAX_SIZE)
		return VFIT_ERR_DATA_BOUNDS;
	if (!has_pos)
		start += fdt_end;
	if (start < fdt_end || start + size > c->len || start + size > VFIT_SIGNATURE_MAX_SIZE)
		return VFIT_ERR_DATA_BOUNDS;
	img->data = c->fit + start;
	img->size = (size_t)size;
	img->offset = (size_t)start;
	img->external = true;
	return VFIT_OK;
}

enum vfit_result vfit_image_locate_(struct vfit_ctx *c, struct vfit_image *img)
{
	struct vfit_prop v[NP];
	enum vfit_result r;

	vfit_props_(c->fit, img->node, vfit_image_props_, v, NP);
	r = locate(c, img, v);
	if (r)
		return r;
	vfit_at_prop(c, "load");
	if (addr(&v[P_LOAD], &img->load, &img->has_load))
		return VFIT_ERR_FORMAT;
	vfit_at_prop(c, "entry");
	if (addr(&v[P_ENTRY], &img->entry, &img->has_entry))
		return VFIT_ERR_FORMAT;
	img->type = vfit_str_(&v[P_TYPE]);
	img->os = vfit_str_(&v[P_OS]);
	img->arch = vfit_str_(&v[P_ARCH]);
	img->compression = vfit_str_(&v[P_COMP]);
	return VFIT_OK;
}

/* One hash node: algorithm known and built in, value of the digest's length, match. */
static enum vfit_result hash_node(struct vfit_ctx *c, const struct vfit_image *img, int node,
				  enum vfit_hash *h)
{
	const uint8_t *digest;
	struct vfit_prop v[2];
	const char *algo;

	vfit_props_(c->fit, node, vfit_sig_props_, v, 2);
	vfit_at(c, node, "algo", false);
	if (!v[0].p)
		return VFIT_ERR_MISSING;
	algo = vfit_str_(&v[0]);
	*h = algo ? vfit_hash_lookup(algo, (size_t)v[0].len - 1) : VFIT_HASH_INVALID;
	/*
	 * SHA-224 exists for the vector tests; U-Boot has no such hash node.
	 * (vfit_hash_lookup() yields built-in hashes only: VFIT_HAVE_* tests
	 * let a build without one drop its comparison.)
	 */
	if ((VFIT_HAVE_SHA224 && *h == VFIT_HASH_SHA224) || vfit_digest_(c, img->node, *h, NULL, &digest))
		return VFIT_ERR_UNSUPPORTED;
	vfit_at_prop(c, "value");
	if (!v[1].p)
		return VFIT_ERR_MISSING;
	if ((size_t)v[1].len != vfit_hash_size(*h))
		return VFIT_ERR_HASH_LENGTH;
	return memcmp(v[1].p, digest, (size_t)v[1].len) ? VFIT_ERR_HASH : VFIT_OK;
}

/*
 * Signatures first (a required key that did not sign the image is the
 * clearer report), then every hash* node.  A configuration signature
 * protects a payload only through its hashes, so an image it covers
 * must have a cryptographic hash (SHA-1 or SHA-2) that verified: a CRC
 * can be forged with four chosen bytes, MD5 with a collision (stricter
 * than U-Boot).  Without any signature a CRC is a fine integrity check.
 * Encrypted images (cipher) are refused unless the caller decrypts
 * (VFIT_VERIFY_ALLOW_CIPHER) and a configuration signature by a required
 * key covers the cipher node: otherwise the IV would be unauthenticated
 * and CBC lets whoever sets it flip any bit of the first plaintext block.
 */
enum vfit_result vfit_image_verify_(struct vfit_ctx *c, const struct vfit_image *img)
{
	unsigned int nhashes = 0;
	bool strong = false;
	const char *name;
	enum vfit_result r;
	enum vfit_hash h;
	int node;

	c->img = img;
	r = vfit_sigs_(c, img->node, VFIT_REQ_IMAGE, false);
	if (r)
		return r;
	fdt_for_each_subnode(node, c->fit, img->node) {
		name = fdt_get_name(c->fit, node, NULL);
		if (!name)
			continue;
		/* Exactly "cipher" is what the decryption looks up (cipher-2 is no key). */
		if (!strncmp(name, "cipher", 6) &&
		    (!c->allow_cipher || !c->conf_enforced || name[6])) {
			vfit_at(c, node, NULL, false);
			return VFIT_ERR_UNSUPPORTED;
		}
		if (strncmp(name, "hash", 4))
			continue;
		if (++nhashes > VFIT_MAX_HASHES) {
			vfit_at(c, node, NULL, false);
			return vfit_limit(&c->at, VFIT_LIMIT_HASHES);
		}
		r = hash_node(c, img, node, &h);
		vfit_record_(c, VFIT_CHECK_HASH, r, node, -1);
		if (r)
			return r;
		strong |= !(VFIT_HAVE_CRC32 && h == VFIT_HASH_CRC32) &&
			  !(VFIT_HAVE_CRC16 && h == VFIT_HASH_CRC16) &&
			  !(VFIT_HAVE_MD5 && h == VFIT_HASH_MD5);
	}
	vfit_at(c, img->node, NULL, false);
	if (c->conf_enforced && !c->required && !strong)
		return nhashes ? VFIT_ERR_WEAK_HASH : VFIT_ERR_NO_HASH;
	return VFIT_OK;
}
