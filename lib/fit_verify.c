/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The verifier's entry point: format checks, configuration selection,
 * configuration signatures, image location and image checks, in that
 * order, and the fail-closed policy on top (spec 6).
 */
#include <string.h>

#include <libfdt.h>

#include "fit_internal.h"

enum vfit_result vfit_fail(struct vfit_ctx *c, enum vfit_result r, bool in_control,
			   int node, const char *prop)
{
	struct vfit_verify_result *res = c->res;

	if (!res->result) {
		res->result = r;
		res->in_control = in_control;
		res->err_node = node;
		res->err_prop = prop;
	}
	return r;
}

/* A key's name for reports: its key-name-hint, else the node name. */
static const char *key_name(const void *ctl, int key)
{
	const char *hint = vfit_prop_str(ctl, key, "key-name-hint");

	return hint ? hint : fdt_get_name(ctl, key, NULL);
}

void vfit_record(struct vfit_ctx *c, enum vfit_check_kind kind, bool required,
		 const char *image, enum vfit_result r, int node, int key_node)
{
	struct vfit_verify_result *res = c->res;
	struct vfit_check *k;

	if (res->nchecks >= VFIT_MAX_CHECKS) {
		res->checks_dropped++;
		return;
	}
	k = &res->check[res->nchecks++];
	k->kind = (uint8_t)kind;
	k->required = required;
	k->image = image;
	k->result = r;
	k->node = node;
	k->key_node = key_node;
	k->algo = vfit_prop_str(c->fit, node, "algo");
	k->key_name = key_node >= 0 ? key_name(c->ctl, key_node) :
		      kind == VFIT_CHECK_HASH ? NULL : vfit_prop_str(c->fit, node, "key-name-hint");
}

/* The named configuration, else /configurations/default (spec 6.1). */
static enum vfit_result select_conf(struct vfit_ctx *c, const char *name, int *conf)
{
	int confs = fdt_subnode_offset(c->fit, 0, "configurations");

	if (confs < 0)
		return vfit_fail(c, VFIT_ERR_NO_CONFIG, false, 0, NULL);
	if (!name) {
		name = vfit_prop_str(c->fit, confs, "default");
		if (!name)
			return vfit_fail(c, VFIT_ERR_NO_CONFIG, false, confs, "default");
	}
	c->res->conf = name;
	if (strchr(name, '@') || strchr(name, '/'))
		return vfit_fail(c, VFIT_ERR_UNIT_ADDRESS, false, confs, NULL);
	*conf = fdt_subnode_offset(c->fit, confs, name);
	if (*conf < 0 || !*name)
		return vfit_fail(c, VFIT_ERR_NO_CONFIG, false, confs, NULL);
	c->res->conf_node = *conf;
	return VFIT_OK;
}

/*
 * Configuration properties that name images to be loaded.  One string of
 * NUL-separated names rather than a pointer table: no relocated data.
 */
static bool image_kind(const char *prop)
{
	static const char kinds[] = "kernel\0fdt\0ramdisk\0loadables\0fpga\0firmware\0"
				    "script\0setup\0standalone\0";
	const char *k;

	for (k = kinds; *k; k += strlen(k) + 1)
		if (!strcmp(prop, k))
			return true;
	return false;
}

/*
 * The image table: one entry per reference, in property order.  A name
 * that is not under /images is an error here (U-Boot's bootm fails to load
 * it), although the node list of spec 3.3 merely skips it.
 */
static enum vfit_result collect(struct vfit_ctx *c, int conf)
{
	struct vfit_verify_result *res = c->res;
	int images = fdt_subnode_offset(c->fit, 0, "images");
	const char *val, *name, *s;
	struct vfit_image *img;
	int prop, len;
	unsigned int idx;

	fdt_for_each_property_offset(prop, c->fit, conf) {
		val = fdt_getprop_by_offset(c->fit, prop, &name, &len);
		if (!val || !image_kind(name))
			continue;
		if (len < 1 || val[len - 1])
			return vfit_fail(c, VFIT_ERR_FORMAT, false, conf, name);
		for (s = val, idx = 0; s < val + len; s += strlen(s) + 1, idx++) {
			if (res->nimages >= VFIT_MAX_IMAGES)
				return vfit_fail(c, VFIT_ERR_LIMIT, false, conf, name);
			img = &res->image[res->nimages];
			img->node = fdt_subnode_offset(c->fit, images, s);
			if (!*s || img->node < 0)
				return vfit_fail(c, VFIT_ERR_MISSING, false, conf, name);
			img->name = s;
			img->prop = name;
			img->index = idx;
			res->nimages++;
		}
	}
	return res->nimages ? VFIT_OK : vfit_fail(c, VFIT_ERR_NO_IMAGES, false, conf, NULL);
}

/* Index of an earlier entry for the same node, or i itself. */
static unsigned int first_ref(const struct vfit_verify_result *res, unsigned int i)
{
	unsigned int j;

	for (j = 0; j < i; j++)
		if (res->image[j].node == res->image[i].node)
			return j;
	return i;
}

/* Payloads of different images must not share a byte (empty ones never do). */
static enum vfit_result no_overlap(struct vfit_ctx *c)
{
	const struct vfit_verify_result *res = c->res;
	const struct vfit_image *a, *b;
	unsigned int i, j;

	for (i = 0; i < res->nimages; i++) {
		for (j = 0; j < i; j++) {
			a = &res->image[i];
			b = &res->image[j];
			if (a->node == b->node || !a->size || !b->size)
				continue;
			if (a->offset < b->offset + b->size && b->offset < a->offset + a->size)
				return vfit_fail(c, VFIT_ERR_DATA_OVERLAP, false, a->node, NULL);
		}
	}
	return VFIT_OK;
}

static void required_image_keys(struct vfit_ctx *c)
{
	int key;

	if (c->keys < 0)
		return;
	fdt_for_each_subnode(key, c->ctl, c->keys)
		if (vfit_key_required(c->ctl, key) == VFIT_REQ_IMAGE &&
		    c->nimg_keys < VFIT_MAX_KEYS)
			c->img_key[c->nimg_keys++] = key;
}

/* A second reference to an already verified image shares its location. */
static void share(struct vfit_image *dst, const struct vfit_image *src)
{
	const char *prop = dst->prop;
	unsigned int index = dst->index;

	*dst = *src;
	dst->prop = prop;
	dst->index = index;
}

static enum vfit_result run(struct vfit_ctx *c, size_t ctl_len, const char *conf_name,
			    unsigned int flags)
{
	struct vfit_verify_result *res = c->res;
	const char *prop;
	enum vfit_result r;
	unsigned int i;
	int conf, node;

	if (vfit_control_check(c->ctl, ctl_len))
		return vfit_fail(c, VFIT_ERR_CONTROL, true, -1, NULL);
	r = vfit_fit_check_where(c->fit, c->len, &node, &prop);
	if (r)
		return vfit_fail(c, r, false, node, prop);
	if (select_conf(c, conf_name, &conf) || collect(c, conf))
		return res->result;
	c->keys = fdt_subnode_offset(c->ctl, 0, "signature");
	required_image_keys(c);
	if (vfit_conf_verify(c, conf))
		return res->result;
	for (i = 0; i < res->nimages; i++)
		if (first_ref(res, i) == i && vfit_image_locate(c, &res->image[i]))
			return res->result;
	if (no_overlap(c))
		return res->result;
	for (i = 0; i < res->nimages; i++)
		if (first_ref(res, i) == i && vfit_image_verify(c, i))
			return res->result;
	/*
	 * Enforced: a required key verified the configuration, or required
	 * image keys verified every image.  Otherwise U-Boot would boot
	 * anything whose hashes match; we refuse unless told not to.
	 */
	res->unenforced = !c->conf_enforced && !c->nimg_keys;
	if (res->unenforced && !(flags & VFIT_VERIFY_ALLOW_UNENFORCED))
		return vfit_fail(c, VFIT_ERR_UNENFORCED, true, c->keys, NULL);
	for (i = 0; i < res->nimages; i++)
		share(&res->image[i], &res->image[first_ref(res, i)]);
	return VFIT_OK;
}

enum vfit_result vfit_verify(const void *fit, size_t len, const void *ctl, size_t ctl_len,
			     const char *conf, unsigned int flags, struct vfit_verify_result *res)
{
	struct vfit_ctx c;

	if (!res)
		return VFIT_ERR_PARAM;
	memset(res, 0, sizeof(*res));
	res->err_node = -1;
	res->conf_node = -1;
	if (!fit || !ctl)
		return res->result = VFIT_ERR_PARAM;
	memset(&c, 0, sizeof(c));
	c.fit = fit;
	c.len = len;
	c.ctl = ctl;
	c.res = res;
	c.keys = -1;
	if (run(&c, ctl_len, conf, flags)) {
		/* Nothing is handed out unless everything verified. */
		memset(res->image, 0, sizeof(res->image));
		res->nimages = 0;
		if (res->err_node >= 0 &&
		    fdt_get_path(res->in_control ? ctl : fit, res->err_node, res->err_path,
				 sizeof(res->err_path)))
			res->err_path[0] = 0;
	}
	return res->result;
}
