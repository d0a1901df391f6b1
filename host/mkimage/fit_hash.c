/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The structure checks mkimage and U-Boot rely on, and the image pass:
 * every `hash*` value and (with keys) every image `signature*` node, in
 * subnode order as mkimage writes them.  Each payload is read once: all
 * the digests it needs (hash nodes and image signatures, each algorithm
 * once) are computed in the same pass over the bytes.
 */
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "mkimage_int.h"

/* U-Boot's path buffer (fit-format.md §3.4, 7): parent path + name + 2 must stay below it. */
#define PATH_MAX_UBOOT 200
#define DEPTH_MAX 32

static const char *const image_refs[] = {
	"kernel", "fdt", "ramdisk", "loadables", "fpga", "firmware", "script", "setup",
	"standalone", NULL,
};

/* Names, '@' (unless flags allow it), depth and path lengths of every node. */
static int check_nodes(const char *name, const void *fit, unsigned int flags, struct vfit_err *e)
{
	int plen[DEPTH_MAX + 2];
	int node = 0, depth = 0, len;
	const char *n;

	plen[0] = 1;
	/* fdt_next_node() leaves the root with depth < 0 and a positive offset. */
	for (node = fdt_next_node(fit, 0, &depth); node >= 0 && depth > 0;
	     node = fdt_next_node(fit, node, &depth)) {
		if (depth > DEPTH_MAX)
			return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: nested deeper than %d",
					    name, vfit_node_path(fit, node), DEPTH_MAX);
		n = fdt_get_name(fit, node, &len);
		if (!n)
			return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: bad node name at 0x%x",
					    name, node);
		if (!(flags & VFIT_FIT_ALLOW_AT) && memchr(n, '@', (size_t)len))
			return vfit_err_set(e, VFIT_EXIT_REJECT,
					    "%s: %s: '@' in a node name (U-Boot rejects it)", name,
					    vfit_node_path(fit, node));
		if (plen[depth - 1] + len + 2 >= PATH_MAX_UBOOT)
			return vfit_err_set(e, VFIT_EXIT_REJECT,
					    "%s: %s: node path longer than U-Boot's %d-byte limit",
					    name, vfit_node_path(fit, node), PATH_MAX_UBOOT);
		plen[depth] = plen[depth - 1] + (depth > 1) + len;
	}
	if (node < 0 && node != -FDT_ERR_NOTFOUND)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: bad structure: %s", name,
				    fdt_strerror(node));
	return 0;
}

/* A rollback index the boot flow would refuse is refused here already (issue 6, fit-format.md §11.2). */
static int check_rollback(const char *name, const void *fit, int conf, struct vfit_err *e)
{
	const char *ctr;
	int len;

	if (fdt_getprop(fit, conf, "rollback-index", &len) && len != 4)
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "%s: %s: rollback-index must be one 32-bit cell", name,
				    vfit_node_path(fit, conf));
	ctr = fdt_getprop(fit, conf, "rollback-counter", &len);
	if (ctr && (len < 1 || ctr[len - 1] || !vfit_counter_name_valid(ctr, (size_t)len - 1)))
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "%s: %s: rollback-counter must be 1..%d characters of "
				    "[A-Za-z0-9._-]", name, vfit_node_path(fit, conf),
				    VFIT_BOOT_COUNTER_NAME - 1);
	return 0;
}

/* Configuration references name existing images; default names a configuration. */
static int check_confs(const char *name, const void *fit, const struct vfit_fit_index *ix,
		       struct vfit_err *e)
{
	int confs = fdt_path_offset(fit, "/configurations");
	const char *def, *s;
	int conf, i, len, k;

	if (confs < 0)
		return 0;
	def = fdt_getprop(fit, confs, "default", NULL);
	if (def && fdt_subnode_offset(fit, confs, def) < 0)
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "%s: /configurations: default configuration '%s' not found",
				    name, def);
	fdt_for_each_subnode(conf, fit, confs) {
		if (check_rollback(name, fit, conf, e))
			return -1;
		for (i = 0; image_refs[i]; i++) {
			len = fdt_stringlist_count(fit, conf, image_refs[i]);
			for (k = 0; k < len; k++) {
				s = fdt_stringlist_get(fit, conf, image_refs[i], k, NULL);
				if (s && vfit_fit_index_image(ix, s) >= 0)
					continue;
				return vfit_err_set(e, VFIT_EXIT_REJECT,
						    "%s: %s: %s image '%s' not found in /images",
						    name, vfit_node_path(fit, conf), image_refs[i],
						    s ? s : "?");
			}
		}
	}
	return 0;
}

/* Children of node whose names start with prefix. */
static unsigned int children(const void *fit, int node, const char *prefix)
{
	unsigned int n = 0;
	int sub;

	fdt_for_each_subnode(sub, fit, node)
		n += vfit_fdt_prefix(fit, sub, prefix);
	return n;
}

static void limit_warn(const char *name, const void *fit, int node, unsigned int n,
		       unsigned int max, enum vfit_limit l)
{
	if (n > max)
		fprintf(stderr, "vfit: mkimage: warning: %s: %s: %u %s: vfit's verifier takes %u "
			"at its default limits: a vfit device refuses this FIT, U-Boot takes it\n",
			name, vfit_node_path(fit, node), n, vfit_limit_to_string(l), max);
}

/*
 * What the device verifier refuses for a limit U-Boot does not have (hash
 * and signature nodes per node, image references per configuration): said
 * before the FIT is built, not refused, so a FIT for a U-Boot device still
 * builds.  (Its other limits, depth and path, are U-Boot's and refused.)
 */
static void warn_limits(const char *name, const void *fit)
{
	unsigned int refs;
	int node, i, n;

	fdt_for_each_subnode(node, fit, fdt_path_offset(fit, "/images")) {
		limit_warn(name, fit, node, children(fit, node, "hash"), VFIT_MAX_HASHES,
			   VFIT_LIMIT_HASHES);
		limit_warn(name, fit, node, children(fit, node, "signature"), VFIT_MAX_SIGNATURES,
			   VFIT_LIMIT_SIGNATURES);
	}
	fdt_for_each_subnode(node, fit, fdt_path_offset(fit, "/configurations")) {
		limit_warn(name, fit, node, children(fit, node, "signature"), VFIT_MAX_SIGNATURES,
			   VFIT_LIMIT_SIGNATURES);
		for (refs = 0, i = 0; image_refs[i]; i++)
			if ((n = fdt_stringlist_count(fit, node, image_refs[i])) > 0)
				refs += (unsigned int)n;
		limit_warn(name, fit, node, refs, VFIT_MAX_IMAGES, VFIT_LIMIT_IMAGES);
	}
}

int vfit_fit_precheck(const char *name, const void *fit, unsigned int flags, struct vfit_err *e)
{
	struct vfit_fit_index *ix;
	int images, r;

	/* Every FIT here came through vfit_fdtbuf_adopt(), which ran vfit_fdt_valid(). */
	images = fdt_path_offset(fit, "/images");
	if (check_nodes(name, fit, flags, e))
		return -1;
	if (!fdt_getprop(fit, 0, "description", NULL))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: /: description missing", name);
	if (images < 0)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: /images missing", name);
	/* Image names are looked up once per reference: by name, not by a walk each. */
	ix = vfit_fit_index_new(name, fit, e);
	if (!ix)
		return -1;
	r = check_confs(name, fit, ix, e);
	vfit_fit_index_free(ix);
	if (!r)
		warn_limits(name, fit);
	return r;
}

struct digests {
	int n;
	int algo[8];
	uint8_t out[8][VFIT_HASH_MAX_SIZE];
};

static int want(struct digests *d, int algo)
{
	int i;

	for (i = 0; i < d->n; i++)
		if (d->algo[i] == algo)
			return i;
	d->algo[d->n] = algo;
	return d->n++;
}

static const uint8_t *digest_of(const struct digests *d, int algo)
{
	int i;

	for (i = 0; i < d->n; i++)
		if (d->algo[i] == algo)
			return d->out[i];
	return NULL;
}

/* Every digest d wants, fed piece by piece. */
struct hashing {
	struct digests *d;
	struct vfit_hash_ctx ctx[8];
};

static void start(struct hashing *h, struct digests *d)
{
	int i;

	h->d = d;
	for (i = 0; i < d->n; i++)
		vfit_hash_init(&h->ctx[i], (enum vfit_hash)d->algo[i]);
}

static void feed(void *arg, const uint8_t *p, size_t n)
{
	struct hashing *h = arg;
	int i;

	for (i = 0; i < h->d->n; i++)
		vfit_hash_update(&h->ctx[i], p, n);
}

static void finish(struct hashing *h)
{
	int i;

	for (i = 0; i < h->d->n; i++)
		vfit_hash_final(&h->ctx[i], h->d->out[i]);
}

/* All digests in one pass: 1 MiB chunks go through every context while cached. */
static void compute(struct digests *d, const uint8_t *data, size_t len)
{
	struct hashing h;
	size_t off, n;

	start(&h, d);
	for (off = 0; off < len; off += n) {
		n = len - off < (1u << 20) ? len - off : (1u << 20);
		feed(&h, data + off, n);
	}
	finish(&h);
}

static int hash_algo(const char *name, const void *fit, int node, struct vfit_err *e)
{
	int len;
	const char *a = fdt_getprop(fit, node, "algo", &len);
	enum vfit_hash h;

	if (!a || len < 1 || a[len - 1])
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: algo missing", name,
				    vfit_node_path(fit, node));
	h = vfit_hash_lookup(a, strlen(a));
	if (h == VFIT_HASH_INVALID || h == VFIT_HASH_SHA224 || vfit_hash_size(h) == 0)
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "%s: %s: unsupported hash algorithm '%s'", name,
				    vfit_node_path(fit, node), a);
	return (int)h;
}

/* Digests one image needs: every hash node's, and every signature's if signing. */
static int plan(const char *name, const void *fit, int img, const struct vfit_signer *s,
		struct digests *d, struct vfit_err *e)
{
	int sub, a;

	fdt_for_each_subnode(sub, fit, img) {
		if (vfit_fdt_prefix(fit, sub, "hash")) {
			a = hash_algo(name, fit, sub, e);
		} else if (s && vfit_signer_active(s) && vfit_fdt_prefix(fit, sub, "signature")) {
			a = (int)vfit_sign_node_hash(s, name, fit, sub, e);
			if (a == VFIT_HASH_INVALID)
				a = -1;
		} else {
			continue;
		}
		if (a == -1)
			return -1;
		if (d->n == 8 && !digest_of(d, a))
			return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: too many hash algorithms",
					    name, vfit_node_path(fit, img));
		want(d, a);
	}
	return 0;
}

/* Every digest the image needs, from memory or, for a payload still in its file, from there. */
static int digest(const char *name, const struct vfit_fdtbuf *fit, int img, struct digests *d,
		  struct vfit_err *e)
{
	const struct vfit_payload *p;
	struct hashing h;
	const void *data;
	int len;

	data = fdt_getprop(fit->buf, img, "data", &len);
	if (!data)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: no data", name,
				    vfit_node_path(fit->buf, img));
	p = vfit_fdtbuf_payload_at(fit, data);
	if (!p) {
		compute(d, data, (size_t)len);
		return 0;
	}
	start(&h, d);
	if (vfit_payload_read(p, feed, &h, e))
		return -1;
	finish(&h);
	return 0;
}

static int do_image(const char *name, const struct vfit_fdtbuf *fit, int img,
		    struct vfit_signer *s, struct vfit_edits *ed, struct vfit_fdtbuf *keydtb,
		    struct vfit_err *e)
{
	struct digests d = { .n = 0 };
	const void *fdt = fit->buf;
	int sub, r, a;

	/*
	 * mkimage encrypts an image with a cipher node (fit-format.md §11.1)
	 * only with -k (host/mkimage/cipher.c, before this pass); signed without it,
	 * the cipher node would promise ciphertext that is not there.  Already
	 * encrypted images (data-size-unciphered) are re-hashed and re-signed.
	 */
	if (s && vfit_signer_active(s) && fdt_subnode_offset(fdt, img, "cipher") >= 0 &&
	    !fdt_getprop(fdt, img, "data-size-unciphered", NULL))
		return vfit_err_set(e, VFIT_EXIT_REJECT,
				    "%s: %s/cipher: encryption needs -k KEYDIR", name,
				    vfit_node_path(fdt, img));
	if (plan(name, fdt, img, s, &d, e) || digest(name, fit, img, &d, e))
		return -1;
	fdt_for_each_subnode(sub, fdt, img) {
		if (vfit_fdt_prefix(fdt, sub, "hash")) {
			a = hash_algo(name, fdt, sub, e);
			r = vfit_edits_set(ed, sub, "value", digest_of(&d, a),
					   vfit_hash_size((enum vfit_hash)a));
			if (r)
				return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s: %s", name,
						    vfit_node_path(fdt, sub), fdt_strerror(r));
		} else if (s && vfit_signer_active(s) && vfit_fdt_prefix(fdt, sub, "signature")) {
			a = (int)vfit_sign_node_hash(s, name, fdt, sub, e);
			if (vfit_sign_image_node(s, name, fdt, sub, digest_of(&d, a),
						 (enum vfit_hash)a, ed, keydtb, e))
				return -1;
		}
	}
	return 0;
}

/*
 * The root timestamp (if ts), every value and image signature are
 * recorded, then written in one pass: the timestamp first, as mkimage
 * sets it, so it comes first in the strings block too.
 */
int vfit_fit_hash_images(const char *name, struct vfit_fdtbuf *fit, const uint32_t *ts,
			 struct vfit_signer *s, struct vfit_fdtbuf *keydtb, struct vfit_err *e)
{
	int images = fdt_path_offset(fit->buf, "/images"), img, r;
	struct vfit_edits *ed;
	fdt32_t be = cpu_to_fdt32(ts ? *ts : 0);

	ed = vfit_edits_new(fit->buf);
	if (!ed || (ts && vfit_edits_set(ed, 0, "timestamp", &be, sizeof(be)))) {
		vfit_edits_free(ed);
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", name);
	}
	fdt_for_each_subnode(img, fit->buf, images) {
		if (do_image(name, fit, img, s, ed, keydtb, e)) {
			vfit_edits_free(ed);
			return -1;
		}
	}
	r = vfit_edits_apply(ed, fit);
	vfit_edits_free(ed);
	if (r)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", name, fdt_strerror(r));
	return 0;
}
