/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit audit: the model of a FIT and its control DTB, and the rules that
 * turn it into findings.  Each rule is one class of weakness this
 * project's verifier refuses or U-Boot lets boot silently
 * (fit-format.md §2.3, §3.1, §3.3, §4.4, §6.2, §8); its identifier never
 * changes meaning, so CI can match on it.  Everything is read through
 * libfdt's checked accessors after vfit_fdt_check(): a hostile FIT gives
 * odd findings, never an out-of-bounds read.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "audit_int.h"
#include "mkimage_int.h"
#include "vfit/fit.h"

/* The classes: identifier, name, and the fix when the call gives none. */
static const struct {
	const char *id, *name, *fix;
} classes[] = {
	{ "VA001", "weak-hash-only", "add a sha256 hash node (hash-2 { algo = \"sha256\"; }) or change algo to sha256" },
	{ "VA002", "unsigned-config", "add signature-1 { algo = \"sha256,rsa2048\"; key-name-hint = ...; } to the configuration and sign with -k and -K -r" },
	{ "VA003", "image-sig-only", "sign the configuration instead: image signatures cover payload bytes only" },
	{ "VA004", "no-required-key", "mark the key required: mkimage -K control.dtb -r (required = \"conf\")" },
	{ "VA005", "required-says-nothing", "set exactly required = \"conf\" (or \"image\") and required-mode = \"any\" or \"all\"" },
	{ "VA006", "hashed-nodes-gap", "sign again with vfit mkimage, or list every image property in sign-images" },
	{ "VA007", "unit-address", "rename the node without '@' (U-Boot refuses unit addresses in signed FITs)" },
	{ "VA008", "rsa-key-small", "use a key of at least 2048 bits (vfit keygen -a rsa3072)" },
	{ "VA009", "sha1", "use sha256 (algo = \"sha256,rsa2048\" / hash algo = \"sha256\")" },
	{ "VA010", "key-not-in-control", "add the key to the control DTB (mkimage -K control.dtb -r) or fix key-name-hint" },
	{ "VA011", "default-weaker", "point default at the best-protected configuration, or sign the default like the others" },
	{ "VA012", "unreferenced-image", "remove the image or reference it from a signed configuration" },
	{ "VA013", "load-overlap", "give each image of a configuration its own load range" },
	{ "VA014", "load-loader-region", "move the load address out of the loader's region" },
	{ "VA015", "entry-outside-kernel", "set entry inside [load, load + size) of the kernel" },
	{ "VA016", "required-mode", "mark only the production key required, or use required-mode = \"all\"" },
	{ "VA017", "mixed-algorithms", "sign every node with one algorithm, the one the key node's algo names" },
	{ "VA018", "future-timestamp", "build with a correct clock or SOURCE_DATE_EPOCH" },
	{ "VA019", "external-unsigned", "protect every external payload with a sha256 hash under a configuration signature; keep padding zero" },
	{ "VA020", "dm-verity", "sign with a U-Boot that lists dm-verity nodes (2026.10 cycle) and use sha256, a 32-byte salt" },
	{ "VA021", "encrypted-image", "vfit does not decrypt: ship the image unencrypted under a configuration signature" },
	{ "VA022", "no-hash", "add hash-1 { algo = \"sha256\"; } to the image" },
	{ "VA023", "unsigned-signature", "sign again with the key at hand (mkimage -F -k DIR); vfit mkimage fails instead of skipping" },
};

static const char *class_name(const char *id, const char **fix)
{
	size_t i;

	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (!strcmp(classes[i].id, id)) {
			if (fix && (!*fix || !**fix))
				*fix = classes[i].fix;
			return classes[i].name;
		}
	return "unknown";
}

void vfit_audit_add(struct vfit_audit *a, enum vfit_audit_sev sev, const char *id,
		    const char *node, const char *prop, const char *fix, const char *fmt, ...)
{
	struct vfit_audit_finding *f;
	va_list ap;

	if (a->nf == a->cap_f) {
		int cap = a->cap_f ? a->cap_f * 2 : 32;
		void *p = realloc(a->f, (size_t)cap * sizeof(*a->f));

		if (!p) {
			a->oom = 1;
			return;
		}
		a->f = p;
		a->cap_f = cap;
	}
	f = &a->f[a->nf++];
	memset(f, 0, sizeof(*f));
	f->sev = sev;
	f->id = id;
	f->fix = fix ? fix : "";
	f->name = class_name(id, &f->fix);
	f->file = a->file;
	snprintf(f->node, sizeof(f->node), "%s", node ? node : "");
	snprintf(f->prop, sizeof(f->prop), "%s", prop ? prop : "");
	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
}

int vfit_audit_count(const struct vfit_audit *a, enum vfit_audit_sev sev)
{
	int i, n = 0;

	for (i = 0; i < a->nf; i++)
		n += a->f[i].sev >= sev;
	return n;
}

void vfit_audit_free(struct vfit_audit *a)
{
	free(a->conf);
	free(a->img);
	free(a->hash);
	free(a->sig);
	free(a->key);
	free(a->f);
	a->conf = NULL;
	a->img = NULL;
	a->hash = NULL;
	a->sig = NULL;
	a->key = NULL;
	a->f = NULL;
	a->nconf = a->nimg = a->nhash = a->nsig = a->nkey = a->nf = a->cap_f = 0;
}

/* ---- the model ------------------------------------------------------------ */

static const char *const ref_props[] = {
	"kernel", "fdt", "ramdisk", "loadables", "fpga", "firmware", "script", "setup", "standalone",
};
#define NREF_PROPS (sizeof(ref_props) / sizeof(ref_props[0]))

static const char *path_of(const void *fdt, int node, char *buf, int size)
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
	path_of(fit, node, s->path, sizeof(s->path));
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
				path_of(fit, sub, h->path, sizeof(h->path));
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

/* ---- the rules ------------------------------------------------------------- */

static int conf_signed(const struct vfit_audit *a, int c)
{
	int i;

	for (i = 0; i < a->nsig; i++)
		if (a->sig[i].conf && a->sig[i].owner == c)
			return 1;
	return 0;
}

static int image_signed(const struct vfit_audit *a, int im)
{
	int i;

	for (i = 0; i < a->nsig; i++)
		if (!a->sig[i].conf && a->sig[i].owner == im)
			return 1;
	return 0;
}

static void rule_names(struct vfit_audit *a, const void *fit)
{
	int node, depth = 0;
	char path[256];

	for (node = fdt_next_node(fit, -1, &depth); node >= 0; node = fdt_next_node(fit, node, &depth)) {
		const char *n = fdt_get_name(fit, node, NULL);

		if (n && strchr(n, '@'))
			vfit_audit_add(a, VFIT_AUDIT_ERROR, "VA007", path_of(fit, node, path, sizeof(path)),
				       NULL, NULL, "node name '%s' has a unit address: U-Boot and vfit refuse "
				       "the FIT (CVE-2021-27138)", n);
	}
}

static void rule_hashes(struct vfit_audit *a)
{
	int i, c, j, k;
	char node[256];

	for (i = 0; i < a->nimg; i++) {
		struct vfit_audit_image *im = &a->img[i];
		int signed_conf = 0, nh = 0, strong = 0, sha1 = -1, weak = -1;

		for (c = 0; c < a->nconf; c++)
			for (j = 0; j < (int)a->conf[c].nref; j++)
				signed_conf |= a->conf[c].ref[j] == i && conf_signed(a, c);
		for (k = 0; k < a->nhash; k++) {
			if (a->hash[k].image != i)
				continue;
			nh++;
			if (a->hash[k].weak) {
				if (weak < 0)
					weak = k;
			} else if (!strcmp(a->hash[k].algo, "sha1")) {
				if (sha1 < 0)
					sha1 = k;
			} else {
				strong = 1;
			}
		}
		if (!signed_conf)
			continue;
		snprintf(node, sizeof(node), "/images/%s", im->name);
		if (!nh)
			vfit_audit_add(a, VFIT_AUDIT_ERROR, "VA022", node, NULL, NULL,
				       "image '%s' has no hash node: U-Boot HEAD and vfit refuse every "
				       "signed configuration using it", im->name);
		else if (weak >= 0 && sha1 < 0 && !strong)
			vfit_audit_add(a, VFIT_AUDIT_ERROR, "VA001", a->hash[weak].path, "algo", NULL,
				       "%s is the only hash of signed image '%s': four chosen bytes forge "
				       "it (vfit refuses: WEAK_HASH; U-Boot boots it)", a->hash[weak].algo,
				       im->name);
		else if (sha1 >= 0 && !strong)
			vfit_audit_add(a, VFIT_AUDIT_WARNING, "VA009", a->hash[sha1].path, "algo", NULL,
				       "sha1 is the strongest hash of signed image '%s' (chosen-prefix "
				       "collisions are practical)", im->name);
	}
}

static void rule_confs(struct vfit_audit *a)
{
	int c, j, best = VFIT_PROT_NONE, def = -1;
	char node[256];

	for (c = 0; c < a->nconf; c++) {
		struct vfit_audit_conf *cf = &a->conf[c];
		char imgs[200] = "";
		int isig = 0;

		snprintf(node, sizeof(node), "/configurations/%s", cf->name);
		if (cf->is_default)
			def = c;
		if ((int)cf->prot < best)
			best = (int)cf->prot;
		if (conf_signed(a, c))
			continue;
		for (j = 0; j < (int)cf->nref; j++)
			if (image_signed(a, cf->ref[j])) {
				isig = 1;
				if (strlen(imgs) + strlen(a->img[cf->ref[j]].name) + 3 < sizeof(imgs))
					snprintf(imgs + strlen(imgs), sizeof(imgs) - strlen(imgs), "%s%s",
						 imgs[0] ? ", " : "", a->img[cf->ref[j]].name);
			}
		if (isig)
			vfit_audit_add(a, VFIT_AUDIT_ERROR, "VA003", node, NULL, NULL,
				       "only image signatures (%s): their load, entry, type, compression "
				       "and which images boot together are unsigned", imgs);
		else
			vfit_audit_add(a, VFIT_AUDIT_ERROR, "VA002", node, NULL, NULL,
				       "configuration '%s' is not signed: whoever can write the FIT "
				       "chooses what it boots", cf->name);
	}
	if (def >= 0 && (int)a->conf[def].prot > best)
		vfit_audit_add(a, VFIT_AUDIT_WARNING, "VA011", "/configurations", "default", NULL,
			       "default configuration '%s' is less protected than another "
			       "configuration of this FIT", a->conf[def].name);
	for (j = 0; j < a->nimg; j++) {
		snprintf(node, sizeof(node), "/images/%s", a->img[j].name);
		if (!a->img[j].refs)
			vfit_audit_add(a, VFIT_AUDIT_WARNING, "VA012", node, NULL, NULL,
				       "image '%s' is referenced by no configuration: no configuration "
				       "signature covers it, yet `bootm ADDR:%s` loads it", a->img[j].name,
				       a->img[j].name);
	}
}

static void rule_sigs(struct vfit_audit *a, const void *fit, size_t len)
{
	char algos[200] = "", img[128], prop[64];
	int i, n = 0;

	for (i = 0; i < a->nsig; i++) {
		struct vfit_audit_sig *s = &a->sig[i];

		if (!s->has_value && !a->from_its)
			vfit_audit_add(a, VFIT_AUDIT_ERROR, "VA023", s->path, "value", NULL,
				       "signature node has no value: it was never signed (mkimage "
				       "prints 'Failed to sign' and exits 0 when the key is missing)");
		if (!strncmp(s->algo, "sha1,", 5))
			vfit_audit_add(a, VFIT_AUDIT_WARNING, "VA009", s->path, "algo", NULL,
				       "signature hash is sha1 (%s)", s->algo);
		if (s->algo[0] && !strstr(algos, s->algo) && strlen(algos) + strlen(s->algo) + 3 <
		    sizeof(algos)) {
			snprintf(algos + strlen(algos), sizeof(algos) - strlen(algos), "%s%s",
				 n ? ", " : "", s->algo);
			n++;
		}
		if (a->ctl_file && s->hint[0] && s->key < 0)
			vfit_audit_add(a, VFIT_AUDIT_WARNING, "VA010", s->path, "key-name-hint", NULL,
				       "key '%s' is not in the control DTB %s: this signature protects "
				       "nothing on that device", s->hint, a->ctl_file);
		/* RSA keys serve exactly their algo (ECDSA keys any hash of their curve). */
		if (s->key >= 0 && !strncmp(a->key[s->key].name, "key-", 4) &&
		    a->key[s->key].algo[0] && s->algo[0] && strcmp(a->key[s->key].algo, s->algo))
			vfit_audit_add(a, VFIT_AUDIT_ERROR, "VA017", s->path, "algo", NULL,
				       "signature algo %s differs from key node %s's algo %s: U-Boot and "
				       "vfit never try that key", s->algo, a->key[s->key].name,
				       a->key[s->key].algo);
		/* mkimage's sign-images left a referenced image out of the signature. */
		if (s->conf && !a->from_its && s->has_value &&
		    fdt_getprop(fit, s->node, "hashed-nodes", NULL) &&
		    vfit_fit_sign_gap(fit, len, s->path, img, sizeof(img), prop, sizeof(prop)))
			vfit_audit_add(a, VFIT_AUDIT_ERROR, "VA006", s->path, "hashed-nodes", NULL,
				       "hashed-nodes leaves out image '%s' (%s): U-Boot 2023.01 boots "
				       "it unsigned, U-Boot HEAD and vfit refuse the configuration", img,
				       prop);
	}
	if (n > 1)
		vfit_audit_add(a, VFIT_AUDIT_WARNING, "VA017", "/", NULL, NULL,
			       "signatures use %d algorithms (%s): the weakest decides", n, algos);
}

/* Before signing: what mkimage's sign-images rule (2023.01's default kernel, fdt) will leave out. */
static void rule_its_sign_images(struct vfit_audit *a, const void *fit)
{
	int i, j;

	for (i = 0; i < a->nsig; i++) {
		const struct vfit_audit_sig *s = &a->sig[i];
		const struct vfit_audit_conf *c;
		const char *si;
		int len;

		if (!s->conf)
			continue;
		c = &a->conf[s->owner];
		si = fdt_getprop(fit, s->node, "sign-images", &len);
		for (j = 0; j < (int)c->nref; j++) {
			const char *p = c->ref_prop[j], *q;
			int found = 0;

			if (si && len > 0 && !si[len - 1]) {
				for (q = si; q < si + len; q += strlen(q) + 1)
					found |= !strcmp(q, p);
			} else {
				found = !strcmp(p, "kernel") || !strcmp(p, "fdt");
			}
			if (!found) {
				vfit_audit_add(a, VFIT_AUDIT_WARNING, "VA006", s->path, "sign-images",
					       NULL, "sign-images %s '%s' (%s): U-Boot's mkimage will sign "
					       "without it and U-Boot HEAD and vfit refuse the result (vfit "
					       "mkimage signs it)", si ? "leaves out" : "(default kernel, fdt) "
					       "leaves out", a->img[c->ref[j]].name, p);
				break;
			}
		}
	}
}

static void rule_keys(struct vfit_audit *a, const void *ctl, size_t ctl_len)
{
	struct vfit_diag d = { -1, NULL, VFIT_LIMIT_NONE };
	int i, conf_keys = 0, req = 0, sigs;
	const char *mode;
	char path[256];

	if (!ctl)
		return;
	if (vfit_control_check(ctl, ctl_len, &d) == VFIT_ERR_CONTROL)
		vfit_audit_add(a, VFIT_AUDIT_ERROR, "VA005", d.node >= 0 ?
			       path_of(ctl, d.node, path, sizeof(path)) : "/signature", d.prop, NULL,
			       "policy property does not say exactly one thing: vfit refuses the "
			       "control DTB, U-Boot reads only its first string");
	for (i = 0; i < a->nkey; i++) {
		const struct vfit_audit_key *k = &a->key[i];

		snprintf(path, sizeof(path), "/signature/%s", k->name);
		conf_keys += k->required == VFIT_REQ_CONF;
		req += k->required != VFIT_REQ_NONE;
		if (!strncmp(k->name, "key-", 4) && k->bits && k->bits < 2048)
			vfit_audit_add(a, VFIT_AUDIT_ERROR, "VA008", path, "rsa,num-bits", NULL,
				       "RSA key of %u bits: factorable; U-Boot and vfit accept only 2048 "
				       "to 4096", k->bits);
		if (!strncmp(k->algo, "sha1,", 5))
			vfit_audit_add(a, VFIT_AUDIT_WARNING, "VA009", path, "algo", NULL,
				       "key serves sha1 signatures (%s)", k->algo);
	}
	sigs = fdt_path_offset(ctl, "/signature");
	if (!req)
		vfit_audit_add(a, VFIT_AUDIT_ERROR, "VA004", "/signature", "required", NULL,
			       "no key is required: U-Boot boots any FIT whose hashes match (vfit "
			       "refuses: UNENFORCED)");
	mode = sigs >= 0 ? fdt_getprop(ctl, sigs, "required-mode", NULL) : NULL;
	if (mode && conf_keys > 1 && !strcmp(mode, "any"))
		vfit_audit_add(a, VFIT_AUDIT_WARNING, "VA016", "/signature", "required-mode", NULL,
			       "required-mode \"any\" with %d required keys: a signature by any one "
			       "of them (the weakest, or a development key) boots", conf_keys);
	if (mode && conf_keys < 2)
		vfit_audit_add(a, VFIT_AUDIT_INFO, "VA016", "/signature", "required-mode", NULL,
			       "required-mode is set but %d key%s required for configurations: it "
			       "changes nothing", conf_keys, conf_keys == 1 ? " is" : "s are");
	for (i = 0; i < a->nkey; i++)
		if (a->key[i].required == VFIT_REQ_IMAGE && a->nkey > 1) {
			snprintf(path, sizeof(path), "/signature/%s", a->key[i].name);
			vfit_audit_add(a, VFIT_AUDIT_WARNING, "VA016", path, "required", NULL,
				       "required = \"image\": U-Boot accepts an image signature by "
				       "any of the %d keys of the control DTB, not only this one (vfit "
				       "insists on this key)", a->nkey);
		}
}

static void rule_loads(struct vfit_audit *a)
{
	int c, i, j;

	for (c = 0; c < a->nconf; c++) {
		const struct vfit_audit_conf *cf = &a->conf[c];

		for (i = 0; i < (int)cf->nref; i++) {
			const struct vfit_audit_image *x = &a->img[cf->ref[i]];
			char node[256];

			if (!x->has_load || !x->size)
				continue;
			snprintf(node, sizeof(node), "/images/%s", x->name);
			for (j = i + 1; j < (int)cf->nref; j++) {
				const struct vfit_audit_image *y = &a->img[cf->ref[j]];

				if (cf->ref[j] == cf->ref[i] || !y->has_load || !y->size)
					continue;
				if (x->load < y->load + y->size && y->load < x->load + x->size)
					vfit_audit_add(a, VFIT_AUDIT_ERROR, "VA013", node, "load", NULL,
						       "configuration '%s': %s [0x%llx, 0x%llx) overlaps %s "
						       "[0x%llx, 0x%llx)", cf->name, x->name,
						       (unsigned long long)x->load,
						       (unsigned long long)(x->load + x->size), y->name,
						       (unsigned long long)y->load,
						       (unsigned long long)(y->load + y->size));
			}
		}
	}
	for (i = 0; i < a->nimg; i++) {
		const struct vfit_audit_image *x = &a->img[i];
		char node[256];

		snprintf(node, sizeof(node), "/images/%s", x->name);
		if (x->has_load && x->size && a->loader_size &&
		    x->load < a->loader_addr + a->loader_size && a->loader_addr < x->load + x->size)
			vfit_audit_add(a, VFIT_AUDIT_ERROR, "VA014", node, "load", NULL,
				       "%s [0x%llx, 0x%llx) overlaps the loader region [0x%llx, 0x%llx) "
				       "(CVE-2018-18440 class)", x->name, (unsigned long long)x->load,
				       (unsigned long long)(x->load + x->size),
				       (unsigned long long)a->loader_addr,
				       (unsigned long long)(a->loader_addr + a->loader_size));
		if (!strcmp(x->type, "kernel") && x->has_load && x->has_entry && x->size &&
		    (x->entry < x->load || x->entry >= x->load + x->size))
			vfit_audit_add(a, VFIT_AUDIT_ERROR, "VA015", node, "entry", NULL,
				       "entry 0x%llx is outside the kernel [0x%llx, 0x%llx)",
				       (unsigned long long)x->entry, (unsigned long long)x->load,
				       (unsigned long long)(x->load + x->size));
	}
}

static void rule_times(struct vfit_audit *a, const void *fit)
{
	uint32_t t;
	int i;

	if (!vfit_fdt_u32(fit, 0, "timestamp", &t) && t > a->now + 86400)
		vfit_audit_add(a, VFIT_AUDIT_WARNING, "VA018", "/", "timestamp", NULL,
			       "build time %u is in the future (now %llu)", t,
			       (unsigned long long)a->now);
	for (i = 0; i < a->nsig; i++)
		if (!vfit_fdt_u32(fit, a->sig[i].node, "timestamp", &t) && t > a->now + 86400)
			vfit_audit_add(a, VFIT_AUDIT_WARNING, "VA018", a->sig[i].path, "timestamp",
				       NULL, "signing time %u is in the future (now %llu)", t,
				       (unsigned long long)a->now);
}

/* Bytes of an external-data file that no tree, hash or signature covers. */
static void rule_external(struct vfit_audit *a, const void *fit, size_t len)
{
	size_t tree = fdt_totalsize(fit), base = (tree + 3) & ~(size_t)3, i, loose = 0;
	unsigned char *covered;
	int im, k, any = 0;

	for (im = 0; im < a->nimg; im++) {
		const struct vfit_audit_image *x = &a->img[im];
		int strong = image_signed(a, im);

		if (!x->external)
			continue;
		any = 1;
		for (k = 0; k < a->nhash; k++)
			strong |= a->hash[k].image == im && !a->hash[k].weak;
		if (!strong) {
			char node[256];

			snprintf(node, sizeof(node), "/images/%s", x->name);
			vfit_audit_add(a, VFIT_AUDIT_ERROR, "VA019", node, "data-offset", NULL,
				       "external payload of '%s' is bound by no cryptographic hash or "
				       "signature: data-offset, data-size and the bytes are the "
				       "attacker's", x->name);
		}
	}
	if (!any || a->from_its || len <= tree)
		return;
	covered = calloc(len, 1);
	if (!covered)
		return;
	memset(covered, 1, tree);
	for (im = 0; im < a->nimg; im++) {
		uint32_t off, sz;
		size_t start;

		if (!a->img[im].external || vfit_fdt_u32(fit, a->img[im].node, "data-size", &sz))
			continue;
		if (!vfit_fdt_u32(fit, a->img[im].node, "data-position", &off))
			start = off;
		else if (!vfit_fdt_u32(fit, a->img[im].node, "data-offset", &off))
			start = base + off;
		else
			continue;
		if (start < len)
			memset(covered + start, 1, sz > len - start ? len - start : sz);
	}
	for (i = 0; i < len; i++)
		loose += !covered[i] && ((const unsigned char *)fit)[i];
	free(covered);
	if (loose)
		vfit_audit_add(a, VFIT_AUDIT_WARNING, "VA019", "/", "totalsize", NULL,
			       "%zu non-zero bytes of the file lie outside the tree and every "
			       "payload: no hash or signature covers them", loose);
}

static void rule_images(struct vfit_audit *a, const void *fit)
{
	int i;
	char node[256];

	for (i = 0; i < a->nimg; i++) {
		const struct vfit_audit_image *x = &a->img[i];

		if (x->cipher) {
			snprintf(node, sizeof(node), "/images/%s/cipher", x->name);
			vfit_audit_add(a, VFIT_AUDIT_ERROR, "VA021", node, NULL, NULL,
				       "image '%s' is encrypted: vfit refuses it (UNSUPPORTED), U-Boot "
				       "decrypts after the hash check with the key in /cipher", x->name);
		}
		if (x->verity) {
			int v = fdt_subnode_offset(fit, x->node, "dm-verity"), len = 0;
			const char *algo = vfit_fdt_str(fit, v, "algo");

			snprintf(node, sizeof(node), "/images/%s/dm-verity", x->name);
			if (!fdt_getprop(fit, v, "digest", NULL))
				vfit_audit_add(a, VFIT_AUDIT_ERROR, "VA020", node, "digest", NULL,
					       "dm-verity node without a root hash: nothing checks the "
					       "filesystem");
			else if (!algo || (strcmp(algo, "sha256") && strcmp(algo, "sha512")))
				vfit_audit_add(a, VFIT_AUDIT_WARNING, "VA020", node, "algo", NULL,
					       "dm-verity hash %s: use sha256", algo ? algo : "missing");
			else if (!fdt_getprop(fit, v, "salt", &len) || len < 32)
				vfit_audit_add(a, VFIT_AUDIT_WARNING, "VA020", node, "salt", NULL,
					       "dm-verity salt of %d bytes: use 32 random bytes", len);
			else
				vfit_audit_add(a, VFIT_AUDIT_WARNING, "VA020", node, "digest", NULL,
					       "U-Boot never checks the root hash itself, and 2023.01 "
					       "(and HEAD before the 2026.10 cycle) leave the dm-verity node "
					       "outside the configuration signature (fit-format.md §8.9)");
		}
	}
}

int vfit_audit_run(struct vfit_audit *a, const char *file, const void *fit, size_t len,
		   int from_its, const char *ctl_file, const void *ctl, size_t ctl_len,
		   struct vfit_err *e)
{
	struct vfit_diag d = { -1, NULL, VFIT_LIMIT_NONE };
	int n0;

	a->file = file;
	a->ctl_file = ctl_file;
	a->from_its = from_its;
	if (vfit_fdt_check(fit, len, &d))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not a device tree: %s", file,
				    vfit_result_to_string(vfit_fdt_check(fit, len, NULL)));
	if (ctl && vfit_fdt_check(ctl, ctl_len, &d))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not a device tree: %s", ctl_file,
				    vfit_result_to_string(vfit_fdt_check(ctl, ctl_len, NULL)));
	if (fdt_path_offset(fit, "/images") < 0)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: /images: missing: not a FIT", file);
	if (model_images(a, fit) || model_confs(a, fit) || (ctl && model_keys(a, ctl)))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", file);
	bind_keys(a);
	if (!from_its)
		protections(a, fit, len, ctl);
	rule_names(a, fit);
	rule_hashes(a);
	rule_confs(a);
	rule_sigs(a, fit, len);
	if (from_its)
		rule_its_sign_images(a, fit);
	n0 = a->nf;
	rule_keys(a, ctl, ctl_len);
	/* Those findings are about the control DTB: they name its file. */
	for (; n0 < a->nf; n0++)
		a->f[n0].file = ctl_file;
	rule_loads(a);
	rule_times(a, fit);
	rule_external(a, fit, len);
	rule_images(a, fit);
	if (!from_its) {
		vfit_audit_verdicts(a, fit, len, ctl, ctl_len);
		a->have_verdicts = 1;
	}
	/* A report missing a finding would read as clean. */
	if (a->oom)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", file);
	return 0;
}

int vfit_audit_its(struct vfit_audit *a, const char *its, const char *ctl_file, const void *ctl,
		   size_t ctl_len, struct vfit_err *e)
{
	struct vfit_fdtbuf b = { 0 };
	int r;

	if (vfit_its_compile(its, "-I dts -O dtb -p 500", 0, &b, e))
		return -1;
	r = vfit_audit_run(a, its, b.buf, fdt_totalsize(b.buf), 1, ctl_file, ctl, ctl_len, e);
	vfit_fdtbuf_free(&b);
	return r;
}
