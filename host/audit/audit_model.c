/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit audit's model of a FIT and its control DTB: configurations and the
 * images they reference, hash and signature nodes, the keys, which key
 * each signature names, and what protects each of them on the device.
 * Everything is read through libfdt's checked accessors after
 * vfit_fdt_check(): a hostile FIT gives an odd model, never an
 * out-of-bounds read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "vfit/fit.h"
#include "vfit-host/fdtbuf.h"
#include "audit_int.h"

static const char *const ref_props[] = {
	"kernel", "fdt", "ramdisk", "loadables", "fpga", "firmware", "script", "setup", "standalone",
};
#define NREF_PROPS (sizeof(ref_props) / sizeof(ref_props[0]))

const char *vfit_audit_path(const void *fdt, int node, char *buf, int size)
{
	if (fdt_get_path(fdt, node, buf, size))
		snprintf(buf, (size_t)size, "?");
	return buf;
}

static int grow(void **p, int n, size_t each)
{
	void *q;

	if (n % 16)
		return 0;
	q = realloc(*p, (size_t)(n + 16) * each);
	if (!q)
		return -1;
	*p = q;
	return 0;
}

static int image_index(const struct vfit_audit *a, const char *name)
{
	int i;

	for (i = 0; i < a->nimg; i++)
		if (!strcmp(a->img[i].name, name))
			return i;
	return -1;
}

/* A cell or two of an address property; 0 when absent or malformed. */
static int addr(const void *fit, int node, const char *prop, uint64_t *v)
{
	const fdt32_t *c;
	int len;

	c = fdt_getprop(fit, node, prop, &len);
	if (!c || (len != 4 && len != 8))
		return 0;
	*v = len == 4 ? fdt32_to_cpu(c[0]) : (uint64_t)fdt32_to_cpu(c[0]) << 32 | fdt32_to_cpu(c[1]);
	return 1;
}

static int weak_algo(const char *algo)
{
	return !strcmp(algo, "crc32") || !strcmp(algo, "crc16-ccitt") || !strcmp(algo, "md5") ||
	       !strcmp(algo, "crc8");
}

static int add_sig(struct vfit_audit *a, const void *fit, int node, int conf, int owner)
{
	struct vfit_audit_sig *s;
	const char *v;

	if (grow((void **)&a->sig, a->nsig, sizeof(*a->sig)))
		return -1;
	s = &a->sig[a->nsig++];
	memset(s, 0, sizeof(*s));
	vfit_audit_path(fit, node, s->path, sizeof(s->path));
	v = vfit_fdt_str(fit, node, "algo");
	snprintf(s->algo, sizeof(s->algo), "%s", v ? v : "");
	v = vfit_fdt_str(fit, node, "key-name-hint");
	snprintf(s->hint, sizeof(s->hint), "%s", v ? v : "");
	s->node = node;
	s->conf = conf;
	s->owner = owner;
	s->key = -1;
	s->has_value = fdt_getprop(fit, node, "value", NULL) != NULL;
	s->prot = VFIT_PROT_NONE;
	return 0;
}

static int model_images(struct vfit_audit *a, const void *fit)
{
	int images = fdt_path_offset(fit, "/images"), node, sub, len;

	if (images < 0)
		return 0;
	fdt_for_each_subnode(node, fit, images) {
		struct vfit_audit_image *im;
		const char *n = fdt_get_name(fit, node, NULL), *t;
		const void *d;
		uint32_t sz;

		if (!n || grow((void **)&a->img, a->nimg, sizeof(*a->img)))
			return -1;
		im = &a->img[a->nimg++];
		memset(im, 0, sizeof(*im));
		snprintf(im->name, sizeof(im->name), "%s", n);
		t = vfit_fdt_str(fit, node, "type");
		snprintf(im->type, sizeof(im->type), "%s", t ? t : "");
		im->node = node;
		im->has_load = addr(fit, node, "load", &im->load);
		im->has_entry = addr(fit, node, "entry", &im->entry);
		d = fdt_getprop(fit, node, "data", &len);
		if (d)
			im->size = (uint32_t)len;
		if (fdt_getprop(fit, node, "data-offset", NULL) ||
		    fdt_getprop(fit, node, "data-position", NULL)) {
			im->external = 1;
			if (!vfit_fdt_u32(fit, node, "data-size", &sz))
				im->size = sz;
		}
		im->prot = VFIT_PROT_NONE;
		fdt_for_each_subnode(sub, fit, node) {
			const char *sn = fdt_get_name(fit, sub, NULL);

			if (!sn)
				continue;
			if (!strncmp(sn, "hash", 4)) {
				struct vfit_audit_hash *h;
				const char *al = vfit_fdt_str(fit, sub, "algo");

				if (grow((void **)&a->hash, a->nhash, sizeof(*a->hash)))
					return -1;
				h = &a->hash[a->nhash++];
				memset(h, 0, sizeof(*h));
				vfit_audit_path(fit, sub, h->path, sizeof(h->path));
				snprintf(h->algo, sizeof(h->algo), "%s", al ? al : "?");
				h->image = a->nimg - 1;
				h->weak = !al || weak_algo(al);
			} else if (!strncmp(sn, "signature", 9)) {
				if (add_sig(a, fit, sub, 0, a->nimg - 1))
					return -1;
			} else if (!strcmp(sn, "cipher")) {
				im->cipher = 1;
			} else if (!strcmp(sn, "dm-verity")) {
				im->verity = 1;
			}
		}
	}
	return 0;
}

static int model_confs(struct vfit_audit *a, const void *fit)
{
	int confs = fdt_path_offset(fit, "/configurations"), node, sub;
	const char *def;

	if (confs < 0)
		return 0;
	def = vfit_fdt_str(fit, confs, "default");
	snprintf(a->default_conf, sizeof(a->default_conf), "%s", def ? def : "");
	fdt_for_each_subnode(node, fit, confs) {
		struct vfit_audit_conf *c;
		const char *n = fdt_get_name(fit, node, NULL);
		size_t p;

		if (!n || grow((void **)&a->conf, a->nconf, sizeof(*a->conf)))
			return -1;
		c = &a->conf[a->nconf++];
		memset(c, 0, sizeof(*c));
		snprintf(c->name, sizeof(c->name), "%s", n);
		c->node = node;
		c->is_default = def && !strcmp(def, n);
		c->prot = VFIT_PROT_NONE;
		for (p = 0; p < NREF_PROPS; p++) {
			const char *v, *s;
			int len, i;

			v = fdt_getprop(fit, node, ref_props[p], &len);
			if (!v || len <= 0 || v[len - 1])
				continue;
			for (s = v; s < v + len; s += strlen(s) + 1) {
				i = image_index(a, s);
				if (i < 0 || c->nref == VFIT_AUDIT_MAX_REFS)
					continue;
				c->ref[c->nref] = i;
				c->ref_prop[c->nref++] = ref_props[p];
				a->img[i].refs++;
			}
		}
		fdt_for_each_subnode(sub, fit, node) {
			const char *sn = fdt_get_name(fit, sub, NULL);

			if (sn && !strncmp(sn, "signature", 9) && add_sig(a, fit, sub, 1, a->nconf - 1))
				return -1;
		}
	}
	return 0;
}

int vfit_audit_required(const void *ctl, int key)
{
	int len;
	const char *r = fdt_getprop(ctl, key, "required", &len);

	/* U-Boot reads the value with strcmp(): what its first string says counts. */
	if (!r || len <= 0 || !memchr(r, 0, (size_t)len))
		return VFIT_REQ_NONE;
	if (!strcmp(r, "conf"))
		return VFIT_REQ_CONF;
	if (!strcmp(r, "image"))
		return VFIT_REQ_IMAGE;
	return VFIT_REQ_NONE;
}

static int model_keys(struct vfit_audit *a, const void *ctl)
{
	int sigs = fdt_path_offset(ctl, "/signature"), node;

	if (sigs < 0)
		return 0;
	fdt_for_each_subnode(node, ctl, sigs) {
		struct vfit_audit_key *k;
		const char *n = fdt_get_name(ctl, node, NULL), *v;
		uint32_t bits;

		if (!n || grow((void **)&a->key, a->nkey, sizeof(*a->key)))
			return -1;
		k = &a->key[a->nkey++];
		memset(k, 0, sizeof(*k));
		snprintf(k->name, sizeof(k->name), "%s", n);
		v = vfit_fdt_str(ctl, node, "key-name-hint");
		snprintf(k->hint, sizeof(k->hint), "%s", v ? v : !strncmp(n, "key-", 4) ? n + 4 : n);
		v = vfit_fdt_str(ctl, node, "algo");
		snprintf(k->algo, sizeof(k->algo), "%s", v ? v : "");
		if (!vfit_fdt_u32(ctl, node, "rsa,num-bits", &bits))
			k->bits = bits;
		else if ((v = vfit_fdt_str(ctl, node, "ecdsa,curve")))
			k->bits = !strcmp(v, "prime256v1") ? 256 : !strcmp(v, "secp384r1") ? 384 : 0;
		k->required = vfit_audit_required(ctl, node);
		k->node = node;
	}
	return 0;
}

/* The key a signature names: key-<hint> (RSA) or <hint> (ECDSA), as U-Boot looks them up. */
static void bind_keys(struct vfit_audit *a)
{
	int i, j;
	char want[80];

	for (i = 0; i < a->nsig; i++) {
		snprintf(want, sizeof(want), "key-%s", a->sig[i].hint);
		for (j = 0; j < a->nkey && a->sig[i].hint[0]; j++)
			if (!strcmp(a->key[j].name, want) || !strcmp(a->key[j].name, a->sig[i].hint)) {
				a->sig[i].key = j;
				a->key[j].used = 1;
				break;
			}
	}
}

/*
 * What protects each signature, configuration and image on this device:
 * a signature verified (by the model, HEAD's node list) with a required
 * key, with another key of the control DTB, or nothing.  Without a
 * control DTB a signature with a value is taken as optional: no key says
 * otherwise.
 */
static void protections(struct vfit_audit *a, const void *fit, size_t len, const void *ctl)
{
	int i, j, k;
	char why[160];

	for (i = 0; i < a->nsig; i++) {
		struct vfit_audit_sig *s = &a->sig[i];
		int conf = s->conf ? a->conf[s->owner].node : -1;

		if (!s->has_value)
			continue;
		if (!ctl) {
			s->prot = VFIT_PROT_OPTIONAL;
			continue;
		}
		for (k = 0; k < a->nkey; k++) {
			if (vfit_audit_sig_ok(fit, len, s->node, conf, ctl, a->key[k].node,
					      VFIT_RULE_HEAD, why, sizeof(why)))
				continue;
			if (a->key[k].required == (s->conf ? VFIT_REQ_CONF : VFIT_REQ_IMAGE)) {
				s->prot = VFIT_PROT_REQUIRED;
				s->key = k;
				a->key[k].used = 1;
				break;
			}
			if (s->prot == VFIT_PROT_NONE)
				s->prot = VFIT_PROT_OPTIONAL;
		}
	}
	for (i = 0; i < a->nsig; i++) {
		struct vfit_audit_sig *s = &a->sig[i];

		if (s->conf && s->prot < a->conf[s->owner].prot)
			a->conf[s->owner].prot = s->prot;
	}
	/* An image's load, entry, type: as protected as its best configuration. */
	for (i = 0; i < a->nconf; i++) {
		struct vfit_audit_conf *c = &a->conf[i];
		int hashed = 1;

		for (j = 0; j < (int)c->nref; j++) {
			int has = 0;

			for (k = 0; k < a->nhash; k++)
				has |= a->hash[k].image == c->ref[j] && !a->hash[k].weak;
			hashed &= has;
			if (c->prot < a->img[c->ref[j]].prot)
				a->img[c->ref[j]].prot = c->prot;
		}
		if (c->prot == VFIT_PROT_NONE && c->nref && hashed)
			c->prot = VFIT_PROT_HASH;
	}
}

int vfit_audit_conf_signed(const struct vfit_audit *a, int c)
{
	int i;

	for (i = 0; i < a->nsig; i++)
		if (a->sig[i].conf && a->sig[i].owner == c)
			return 1;
	return 0;
}

int vfit_audit_image_signed(const struct vfit_audit *a, int im)
{
	int i;

	for (i = 0; i < a->nsig; i++)
		if (!a->sig[i].conf && a->sig[i].owner == im)
			return 1;
	return 0;
}

int vfit_audit_signed_conf_uses(const struct vfit_audit *a, int im)
{
	int c, j;

	for (c = 0; c < a->nconf; c++)
		for (j = 0; j < (int)a->conf[c].nref; j++)
			if (a->conf[c].ref[j] == im && vfit_audit_conf_signed(a, c))
				return 1;
	return 0;
}

int vfit_audit_model(struct vfit_audit *a, const void *fit, size_t len, const void *ctl)
{
	if (model_images(a, fit) || model_confs(a, fit) || (ctl && model_keys(a, ctl)))
		return -1;
	bind_keys(a);
	if (!a->from_its)
		protections(a, fit, len, ctl);
	return 0;
}
