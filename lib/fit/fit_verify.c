/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The verifier's entry point: format checks, configuration selection,
 * configuration signatures, image location and image checks, in that
 * order, and the fail-closed policy on top (fit-format.md §6).
 *
 * Passes over the FIT: the format walk (libfdt's and ours), one over the
 * root's children, one over /configurations, one over /images for every
 * name the configuration uses, one region walk per signature node, and
 * the subtrees of the selected images: never one per image or per node.
 */
#include <string.h>

#include <libfdt.h>

#include "fit_int.h"

/* The named configuration, else /configurations/default (fit-format.md §6.1). */
static enum vfit_result select_conf(struct vfit_ctx *c, int confs, const char *name)
{
	enum vfit_result r;
	int conf;

	vfit_at(c, 0, NULL, false);
	if (confs < 0)
		return VFIT_ERR_NO_CONFIG;
	vfit_at(c, confs, "default", false);
	if (!name)
		name = vfit_prop_str_(c->fit, confs, "default");
	if (!name)
		return VFIT_ERR_NO_CONFIG;
	c->res->conf = name;
	vfit_at_prop(c, NULL);
	if (strchr(name, '@') || strchr(name, '/'))
		return VFIT_ERR_UNIT_ADDRESS;
	r = vfit_subnodes(c->fit, confs, &name, 1, &conf, &c->at);
	if (r)
		return r;
	if (conf < 0 || !*name)
		return VFIT_ERR_NO_CONFIG;
	c->res->conf_node = conf;
	return VFIT_OK;
}

/* Configuration properties that name images to be loaded. */
static const char image_kinds[] = "kernel\0fdt\0ramdisk\0loadables\0fpga\0firmware\0script\0"
				  "setup\0standalone\0";

/* The resolved node of s, a string of one of the configuration's properties. */
static int ref_node(const struct vfit_conf_refs *refs, const char *s)
{
	int i = vfit_ref_index_(refs, s);

	return i < 0 ? -1 : refs->node[i];
}

/*
 * The image table: one entry per reference, in property order.  A name
 * that is not under /images is an error here (U-Boot's bootm fails to load
 * it), although the node list of fit-format.md §3.3 merely skips it.
 */
static enum vfit_result collect(struct vfit_ctx *c)
{
	struct vfit_verify_result *res = c->res;
	const char *val, *name, *s;
	struct vfit_image *img;
	int prop, len;
	unsigned int idx;

	fdt_for_each_property_offset(prop, c->fit, res->conf_node) {
		val = fdt_getprop_by_offset(c->fit, prop, &name, &len);
		if (!val || !vfit_in(name, image_kinds))
			continue;
		vfit_at(c, res->conf_node, name, false);
		if (len < 1 || val[len - 1])
			return VFIT_ERR_FORMAT;
		for (s = val, idx = 0; s < val + len; s += strlen(s) + 1, idx++) {
			if (res->nimages >= VFIT_MAX_IMAGES)
				return vfit_limit(&c->at, VFIT_LIMIT_IMAGES);
			img = &res->image[res->nimages++];
			/* An empty name is never a reference: -1 too. */
			img->node = ref_node(&c->refs, s);
			if (img->node < 0)
				return VFIT_ERR_MISSING;
			img->name = s;
			img->prop = name;
			img->index = idx;
		}
	}
	vfit_at(c, res->conf_node, NULL, false);
	return res->nimages ? VFIT_OK : VFIT_ERR_NO_IMAGES;
}

/*
 * Index of the first entry for the same image node.  An image named twice
 * is located and verified once; the repeats share the result at the end,
 * so piling up references costs nothing.
 */
#if defined(__GNUC__) && defined(__OPTIMIZE_SIZE__)
__attribute__((noinline))
#endif
static unsigned int first_ref(const struct vfit_verify_result *res, unsigned int i)
{
	unsigned int j = 0;

	while (res->image[j].node != res->image[i].node)
		j++;
	return j;
}

/* Payloads of different images must not share a byte (empty ones never do). */
static enum vfit_result no_overlap(struct vfit_ctx *c)
{
	const struct vfit_verify_result *res = c->res;
	const struct vfit_image *a, *b;

	for (a = res->image; a < res->image + res->nimages; a++) {
		for (b = res->image; b < a; b++) {
			vfit_at(c, a->node, NULL, false);
			if (a->node != b->node && a->size && b->size &&
			    a->offset < b->offset + b->size && b->offset < a->offset + a->size)
				return VFIT_ERR_DATA_OVERLAP;
		}
	}
	return VFIT_OK;
}

/* A repeated reference takes the verified location of the first one. */
static void share(struct vfit_image *dst, const struct vfit_image *src)
{
	const char *prop = dst->prop;
	unsigned int index = dst->index;

	*dst = *src;
	dst->prop = prop;
	dst->index = index;
}

/* Selection, the names the configuration uses, and its image table. */
static enum vfit_result conf_setup(struct vfit_ctx *c, const char *conf_name)
{
	int top[2];
	enum vfit_result r = vfit_fit_top_(c->fit, c->len, 0, &c->at, top);

	if (r || (r = select_conf(c, top[1], conf_name)))
		return r;
	c->images = top[0];
	vfit_at(c, c->res->conf_node, NULL, false);
	r = vfit_conf_refs(c->fit, c->res->conf_node, &c->refs, &c->at);
	if (r)
		return r;
	vfit_at(c, c->images, NULL, false);
	r = vfit_subnodes(c->fit, c->images, c->refs.name, c->refs.n, c->refs.node, &c->at);
	return r ? r : collect(c);
}

static enum vfit_result run(struct vfit_ctx *c, size_t ctl_len, const char *conf_name,
			    unsigned int flags)
{
	struct vfit_verify_result *res = c->res;
	enum vfit_result r;
	unsigned int i;
	bool any;

	vfit_at(c, -1, NULL, true);
	if (vfit_control_keys_(c->ctl, ctl_len, &c->at, &c->keys, &any))
		return VFIT_ERR_CONTROL;
	vfit_at(c, -1, NULL, false);
	r = conf_setup(c, conf_name);
	if (r)
		return r;
	r = vfit_sigs_(c, res->conf_node, VFIT_REQ_CONF, any);
	if (r)
		return r;
	c->conf_enforced = c->required;
	for (i = 0; i < res->nimages; i++)
		if (first_ref(res, i) == i && (r = vfit_image_locate_(c, &res->image[i])))
			return r;
	if ((r = no_overlap(c)))
		return r;
	for (i = 0; i < res->nimages; i++)
		if (first_ref(res, i) == i && (r = vfit_image_verify_(c, &res->image[i])))
			return r;
	/*
	 * Enforced: a required key verified the configuration, or required
	 * image keys verified every image (c->required is left set by the
	 * image checks).  Otherwise U-Boot would boot anything whose hashes
	 * match; we refuse unless told not to.
	 */
	res->unenforced = !c->conf_enforced && !c->required;
	res->conf_verified = c->conf_enforced;
	vfit_at(c, c->keys, NULL, true);
	if (res->unenforced && !(flags & VFIT_VERIFY_ALLOW_UNENFORCED))
		return VFIT_ERR_UNENFORCED;
	for (i = 0; i < res->nimages; i++)
		share(&res->image[i], &res->image[first_ref(res, i)]);
	return VFIT_OK;
}

#if VFIT_REPORT
/* The cursor's location into the result, for a failure. */
static void report(struct vfit_verify_result *res, const struct vfit_ctx *c, const void *fit,
		   const void *ctl)
{
	res->err_node = c->at.node;
	res->err_prop = c->at.prop;
	res->err_limit = res->result == VFIT_ERR_LIMIT ? c->at.limit : VFIT_LIMIT_NONE;
	res->in_control = c->at_control;
	if (res->err_node >= 0 &&
	    fdt_get_path(res->in_control ? ctl : fit, res->err_node, res->err_path,
			 sizeof(res->err_path)))
		res->err_path[0] = 0;
}
#endif

/* Around run(): the result reset, the context set up, nothing handed out on failure. */
static enum vfit_result verify(struct vfit_ctx *c, const void *fit, size_t len, const void *ctl,
			       size_t ctl_len, const char *conf, unsigned int flags,
			       struct vfit_verify_result *res)
{
	if (!res)
		return VFIT_ERR_PARAM;
	memset(res, 0, sizeof(*res));
	res->conf_node = -1;
#if VFIT_REPORT
	res->err_key = -1;
	res->err_node = -1;
#endif
	if (!fit || !ctl)
		return res->result = VFIT_ERR_PARAM;
	c->fit = fit;
	c->len = len;
	c->ctl = ctl;
	c->res = res;
	c->keys = -1;
	c->dnode = -1;
	c->payload.node = -1;
	c->allow_cipher = (flags & VFIT_VERIFY_ALLOW_CIPHER) != 0;
	res->result = run(c, ctl_len, conf, flags);
	if (res->result) {
		/* Nothing is handed out unless everything verified. */
		memset(res->image, 0, sizeof(res->image));
		res->nimages = 0;
#if VFIT_REPORT
		report(res, c, fit, ctl);
#endif
	}
	return res->result;
}

#if VFIT_CRYPTO_TABLE
enum vfit_result vfit_verify_with(const struct vfit_crypto *cr, const void *fit, size_t len,
				  const void *ctl, size_t ctl_len, const char *conf,
				  unsigned int flags, struct vfit_verify_result *res)
{
	struct vfit_ctx c;

	memset(&c, 0, sizeof(c));
	c.cr = cr;
	/* No backend: VFIT_ERR_PARAM, as for no FIT. */
	return verify(&c, cr ? fit : NULL, len, ctl, ctl_len, conf, flags, res);
}
#else
enum vfit_result vfit_verify(const void *fit, size_t len, const void *ctl, size_t ctl_len,
			     const char *conf, unsigned int flags, struct vfit_verify_result *res)
{
	struct vfit_ctx c;

	memset(&c, 0, sizeof(c));
	return verify(&c, fit, len, ctl, ctl_len, conf, flags, res);
}
#endif
