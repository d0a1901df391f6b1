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

/* The image node's properties this file reads, in the order of enum iprop. */
static const char iprops[] = "data\0data-position\0data-offset\0data-size\0load\0entry\0"
			     "type\0os\0arch\0compression\0";
enum iprop { P_DATA, P_POS, P_OFF, P_SIZE, P_LOAD, P_ENTRY, P_TYPE, P_OS, P_ARCH, P_COMP, NP };

/* A 4-byte cell read as U-Boot does: signed; negative values are refused. */
static enum vfit_result cell(const struct vfit_prop *v, int64_t *out)
{
	if (v->len != 4)
		return VFIT_ERR_FORMAT;
	*out = (int32_t)vfit_be32(v->p);
	return *out < 0 ? VFIT_ERR_DATA : VFIT_OK;
}

/* load/entry: one or two cells, most significant first. */
static enum vfit_result addr(const struct vfit_prop *v, uint64_t *out, bool *present)
{
	*present = v->p != NULL;
	if (!v->p)
		return VFIT_OK;
	if (v->len == 4)
		*out = vfit_be32(v->p);
	else if (v->len == 8)
		*out = (uint64_t)vfit_be32(v->p) << 32 | vfit_be32(v->p + 4);
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
static enum vfit_result locate(struct vfit_ctx *c, struct vfit_image *img,
			       const struct vfit_prop *v, const char **prop)
{
	uint64_t fdt_end = ((uint64_t)fdt_totalsize(c->fit) + 3) & ~(uint64_t)3;
	int64_t at = 0, size = 0;
	bool has_pos = v[P_POS].p != NULL;
	enum vfit_result r;
	uint64_t start;

	/* data-position wins over data-offset, which wins over data. */
	*prop = has_pos ? "data-position" : "data-offset";
	if (!has_pos && !v[P_OFF].p) {
		*prop = "data";
		if (!v[P_DATA].p)
			return VFIT_ERR_MISSING;
		img->data = v[P_DATA].p;
		img->size = (size_t)v[P_DATA].len;
		img->offset = (size_t)(v[P_DATA].p - c->fit);
		return VFIT_OK;
	}
	r = cell(&v[has_pos ? P_POS : P_OFF], &at);
	if (r)
		return r;
	*prop = "data-size";
	if (!v[P_SIZE].p)
		return VFIT_ERR_MISSING;
	r = cell(&v[P_SIZE], &size);
	if (r)
		return r;
	start = has_pos ? (uint64_t)at : fdt_end + (uint64_t)at;
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
	struct vfit_prop v[NP];
	const char *prop;
	enum vfit_result r;

	vfit_props(c->fit, img->node, iprops, v, NP);
	r = locate(c, img, v, &prop);
	if (!r && (r = addr(&v[P_LOAD], &img->load, &img->has_load)))
		prop = "load";
	if (!r && (r = addr(&v[P_ENTRY], &img->entry, &img->has_entry)))
		prop = "entry";
	if (r)
		return vfit_fail(c, r, false, img->node, prop);
	img->type = vfit_str(&v[P_TYPE]);
	img->os = vfit_str(&v[P_OS]);
	img->arch = vfit_str(&v[P_ARCH]);
	img->compression = vfit_str(&v[P_COMP]);
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
	struct vfit_prop sp[VFIT_SP_N];
	unsigned int n = 0, i;
	enum vfit_result r, last;
	struct vfit_algo a;
	const char *algo;

	if (req) {
		memcpy(keys, c->img_key, sizeof(keys));
		n = c->nimg_keys;
	} else if (c->keys >= 0) {
		/* On a negative parent, fdt_first_subnode() would yield the root. */
		fdt_for_each_subnode(key, c->ctl, c->keys)
			if (n < VFIT_MAX_KEYS)
				keys[n++] = key;
	}
	fdt_for_each_subnode(sig, c->fit, img->node) {
		if (!vfit_name_prefix(c->fit, sig, "signature"))
			continue;
		vfit_props(c->fit, sig, VFIT_SIG_PROPS, sp, VFIT_SP_N);
		algo = (const char *)sp[VFIT_SP_ALGO].p;
		alen = sp[VFIT_SP_ALGO].len;
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
			last = vfit_sig_check(c, sp, digest, keys[i]);
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
