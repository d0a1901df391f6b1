/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Image payloads: where the bytes are (embedded or external, spec 2.6 with
 * bounds beyond U-Boot's, 6.5), their hash nodes and image signatures
 * (spec 6.4).
 *
 * Required image keys are enforced more strictly than in U-Boot: there, a
 * key marked required = "image" is satisfied by a signature that verifies
 * with *any* key of the control FDT.  Here every required image key must
 * itself verify a signature of the image, so a product that requires its
 * production key cannot be satisfied by a development key it also carries.
 */
#include <string.h>

#include <libfdt.h>

#include "fit_internal.h"

/* A 4-byte cell read as U-Boot does: signed; negative values are refused. */
static enum vfit_result cell(const struct vfit_ctx *c, int node, const char *name,
			     int64_t *v, bool *present)
{
	int len;
	const uint8_t *p = fdt_getprop(c->fit, node, name, &len);

	*present = p != NULL;
	if (!p)
		return VFIT_OK;
	if (len != 4)
		return VFIT_ERR_FORMAT;
	*v = (int32_t)vfit_be32(p);
	return *v < 0 ? VFIT_ERR_DATA : VFIT_OK;
}

/* load/entry: one or two cells, most significant first. */
static enum vfit_result addr(const struct vfit_ctx *c, int node, const char *name,
			     uint64_t *v, bool *present)
{
	int len;
	const uint8_t *p = fdt_getprop(c->fit, node, name, &len);

	*present = p != NULL;
	if (!p)
		return VFIT_OK;
	if (len == 4)
		*v = vfit_be32(p);
	else if (len == 8)
		*v = (uint64_t)vfit_be32(p) << 32 | vfit_be32(p + 4);
	else
		return VFIT_ERR_FORMAT;
	return VFIT_OK;
}

/*
 * data-position is an offset from the FIT start, data-offset one from the
 * first 4-byte boundary after the FDT.  On top of U-Boot's checks (no
 * negative values, within VFIT_SIGNATURE_MAX_SIZE) the payload must lie
 * wholly inside the loaded bytes and after the FDT: the FDT's own bytes
 * are not payload.  All sums are 64-bit: every term is below 2^32.
 */
static enum vfit_result locate(struct vfit_ctx *c, struct vfit_image *img, const char **prop)
{
	uint64_t fdt_end = ((uint64_t)fdt_totalsize(c->fit) + 3) & ~(uint64_t)3;
	int64_t pos = 0, off = 0, size = 0;
	bool has_pos, has_off, has_size;
	const uint8_t *data;
	enum vfit_result r;
	uint64_t start;
	int len;

	*prop = "data-position";
	r = cell(c, img->node, "data-position", &pos, &has_pos);
	if (r)
		return r;
	*prop = "data-offset";
	if (!has_pos && (r = cell(c, img->node, "data-offset", &off, &has_off)))
		return r;
	if (!has_pos && !has_off) {
		*prop = "data";
		data = fdt_getprop(c->fit, img->node, "data", &len);
		if (!data)
			return VFIT_ERR_MISSING;
		img->data = data;
		img->size = (size_t)len;
		img->offset = (size_t)(data - c->fit);
		return VFIT_OK;
	}
	*prop = "data-size";
	r = cell(c, img->node, "data-size", &size, &has_size);
	if (r || !has_size)
		return r ? r : VFIT_ERR_MISSING;
	start = has_pos ? (uint64_t)pos : fdt_end + (uint64_t)off;
	*prop = has_pos ? "data-position" : "data-offset";
	if (start < fdt_end || start + (uint64_t)size > c->len ||
	    start + (uint64_t)size > VFIT_SIGNATURE_MAX_SIZE)
		return VFIT_ERR_DATA_BOUNDS;
	img->data = c->fit + start;
	img->size = (size_t)size;
	img->offset = (size_t)start;
	img->external = true;
	return VFIT_OK;
}

enum vfit_result vfit_image_locate(struct vfit_ctx *c, struct vfit_image *img)
{
	const char *prop;
	enum vfit_result r = locate(c, img, &prop);

	if (!r && (r = addr(c, img->node, "load", &img->load, &img->has_load)))
		prop = "load";
	if (!r && (r = addr(c, img->node, "entry", &img->entry, &img->has_entry)))
		prop = "entry";
	if (r)
		return vfit_fail(c, r, false, img->node, prop);
	img->type = vfit_prop_str(c->fit, img->node, "type");
	img->os = vfit_prop_str(c->fit, img->node, "os");
	img->arch = vfit_prop_str(c->fit, img->node, "arch");
	img->compression = vfit_prop_str(c->fit, img->node, "compression");
	return VFIT_OK;
}

/* One hash node: algorithm known and built in, value of the digest's length, match. */
static enum vfit_result hash_node(const struct vfit_ctx *c, const struct vfit_image *img,
				  int node, const char **prop)
{
	uint8_t digest[VFIT_HASH_MAX_SIZE];
	const uint8_t *value;
	enum vfit_hash h;
	const char *algo;
	int alen, vlen;

	*prop = "algo";
	algo = fdt_getprop(c->fit, node, "algo", &alen);
	if (!algo)
		return VFIT_ERR_MISSING;
	if (alen < 1 || algo[alen - 1])
		return VFIT_ERR_UNSUPPORTED;
	h = vfit_hash_lookup(algo, (size_t)alen - 1);
	if (h == VFIT_HASH_INVALID || vfit_hash(h, img->data, img->size, digest))
		return VFIT_ERR_UNSUPPORTED;
	*prop = "value";
	value = fdt_getprop(c->fit, node, "value", &vlen);
	if (!value)
		return VFIT_ERR_MISSING;
	if ((size_t)vlen != vfit_hash_size(h))
		return VFIT_ERR_HASH_LENGTH;
	return memcmp(value, digest, (size_t)vlen) ? VFIT_ERR_HASH : VFIT_OK;
}

/* Whether the key node's algo is exactly the signature's (spec 4.2). */
static bool key_algo_is(const void *ctl, int key, const char *algo, int alen)
{
	int klen;
	const char *k = fdt_getprop(ctl, key, "algo", &klen);

	return k && klen == alen && !memcmp(k, algo, (size_t)alen);
}

/*
 * The image's signature* nodes.  With required image keys, each of them
 * must verify one of the signatures (bit i of *sat for c->img_key[i]);
 * every attempt is recorded.  Without, each signature is tried with the
 * keys of matching algo for the record only: as in U-Boot, such failures
 * are not fatal.  The payload is hashed at most once per signature node,
 * and only when some key could use the digest, so piling up signature
 * nodes with foreign algorithms costs no hashing.
 */
static void image_sigs(struct vfit_ctx *c, unsigned int index, uint32_t *sat)
{
	const struct vfit_image *img = &c->res->image[index];
	uint8_t digest[VFIT_HASH_MAX_SIZE];
	bool req = c->nimg_keys > 0, hashed;
	int keys[VFIT_MAX_KEYS], sig, alen, key, ok;
	unsigned int n = 0, i;
	enum vfit_result r, last;
	struct vfit_algo a;
	const char *algo;

	if (req) {
		memcpy(keys, c->img_key, sizeof(keys));
		n = c->nimg_keys;
	} else {
		fdt_for_each_subnode(key, c->ctl, c->keys)
			if (n < VFIT_MAX_KEYS)
				keys[n++] = key;
	}
	fdt_for_each_subnode(sig, c->fit, img->node) {
		if (!vfit_name_prefix(c->fit, sig, "signature"))
			continue;
		algo = fdt_getprop(c->fit, sig, "algo", &alen);
		r = algo ? vfit_algo_parse(algo, alen, &a) : VFIT_ERR_MISSING;
		/* No key of this algorithm: tried and failed, as U-Boot shows it. */
		last = VFIT_ERR_MISSING;
		hashed = false;
		ok = -1;
		for (i = 0; !r && i < n && ok < 0; i++) {
			if ((*sat & (1u << i)) || !key_algo_is(c->ctl, keys[i], algo, alen))
				continue;
			if (!hashed && vfit_hash(a.hash, img->data, img->size, digest)) {
				r = VFIT_ERR_UNSUPPORTED;
				break;
			}
			hashed = true;
			last = vfit_sig_check(c, sig, algo, alen, digest, keys[i]);
			if (req) {
				vfit_record(c, VFIT_CHECK_IMAGE_SIG, true, img->name, last, sig,
					    keys[i]);
				if (!last)
					*sat |= 1u << i;
			} else if (!last) {
				ok = keys[i];
			}
		}
		if (r || !req)
			vfit_record(c, VFIT_CHECK_IMAGE_SIG, req, img->name, r ? r : last, sig,
				    ok);
	}
}

enum vfit_result vfit_image_verify(struct vfit_ctx *c, unsigned int index)
{
	const struct vfit_image *img = &c->res->image[index];
	const char *prop;
	enum vfit_result r;
	unsigned int hashes = 0, i;
	uint32_t sat = 0;
	int node;

	image_sigs(c, index, &sat);
	for (i = 0; i < c->nimg_keys; i++) {
		if (!(sat & (1u << i))) {
			vfit_record(c, VFIT_CHECK_IMAGE_SIG, true, img->name, VFIT_ERR_REQUIRED,
				    img->node, c->img_key[i]);
			return vfit_fail(c, VFIT_ERR_REQUIRED, true, c->img_key[i], NULL);
		}
	}
	fdt_for_each_subnode(node, c->fit, img->node) {
		if (!vfit_name_prefix(c->fit, node, "hash"))
			continue;
		hashes++;
		r = hash_node(c, img, node, &prop);
		vfit_record(c, VFIT_CHECK_HASH, true, img->name, r, node, -1);
		if (r)
			return vfit_fail(c, r, false, node, prop);
	}
	/* A signed configuration protects payloads only through their hashes. */
	if (!hashes && c->conf_enforced)
		return vfit_fail(c, VFIT_ERR_NO_HASH, false, img->node, NULL);
	return VFIT_OK;
}
