/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a chain brought, stage by stage (the chain digest of the boot
 * record is made of it too: boot_record.c), and the measurements handed
 * to the platform's measure op once a chain verified and loaded in full.
 *
 * Each measurement carries SHA-256 and the other hashes the platform's
 * PCR banks need (measure_hashes).  An image's SHA-256 is the value of its
 * sha256 hash node, which the verifier has just checked against the bytes
 * it verified (every hash* node of an image is checked).  Its other
 * digests come from the verifier's same pass: on a boot that measures,
 * the flow verifies through a tee, a crypto backend that hands each piece
 * of every SHA-256 message to the other hashes too while it is in the
 * cache (a vfit_hash_set), and keeps what each SHA-256 brought.  Only an
 * image without a sha256 hash node (or a build without the backend seam,
 * VFIT_CRYPTO_TABLE=0) is hashed here, once for all its digests.  A key's
 * identity is the digest of its key node's properties in the control DTB
 * that held it (a few hundred bytes).
 *
 * PCRs (docs/trust-state.md):
 *   1  the device tree: the final stage's fdt (the port adds the command line)
 *   4  every image of a stage before the final one (the next stage's code and keys)
 *   7  for each stage, the identity of the key that verified its configuration
 *   8  the kernel;  9  the ramdisk and any loadables
 */
#include <string.h>

#include <libfdt.h>

#include "boot_int.h"

/* Event types of the TCG PC Client Platform Firmware Profile. */
#define EV_IPL 0x0000000Du
#define EV_TABLE_OF_DEVICES 0x0000000Bu

#define SHA256_BIT VFIT_HASH_BIT(VFIT_HASH_SHA256)

uint32_t vfit_boot_more_hashes_(const struct vfit_run *r, bool load)
{
	const struct vfit_boot_ops *o = r->ops;

	if (!load || !o->measure || !o->measure_hashes)
		return 0;
	return o->measure_hashes(o->plat) & ~SHA256_BIT;
}

#if VFIT_CRYPTO_TABLE
static struct vfit_boot_tee_state *tee_of(const struct vfit_crypto *self)
{
	return ((const struct vfit_boot_tee *)self)->st;
}

/* A SHA-256 starts: the other hashes start beside it (one message at a time). */
static enum vfit_result tee_init(const struct vfit_crypto *self, struct vfit_hash_ctx *ctx,
				 enum vfit_hash algo)
{
	struct vfit_boot_tee_state *t = tee_of(self);
	enum vfit_result r = t->base->hash_init(t->base, ctx, algo);

	if (!r && algo == VFIT_HASH_SHA256 && !t->ctx && !vfit_hash_set_init(&t->set, t->more))
		t->ctx = ctx;
	return r;
}

static void tee_update(const struct vfit_crypto *self, struct vfit_hash_ctx *ctx, const void *p,
		       size_t n)
{
	struct vfit_boot_tee_state *t = tee_of(self);
	const uint8_t *in = p;
	size_t take;

	if (ctx != t->ctx) {
		t->base->hash_update(t->base, ctx, p, n);
		return;
	}
	for (; n; in += take, n -= take) {
		take = n < VFIT_HASH_SET_PIECE ? n : VFIT_HASH_SET_PIECE;
		t->base->hash_update(t->base, ctx, in, take);
		vfit_hash_set_update(&t->set, in, take);
	}
}

/* The SHA-256 ends: what the other hashes made of the same bytes is kept beside it. */
static void tee_final(const struct vfit_crypto *self, struct vfit_hash_ctx *ctx, uint8_t *out)
{
	struct vfit_boot_tee_state *t = tee_of(self);

	t->base->hash_final(t->base, ctx, out);
	if (ctx != t->ctx)
		return;
	t->ctx = NULL;
	if (t->n < sizeof(t->seen) / sizeof(t->seen[0])) {
		memcpy(t->seen[t->n].sha256, out, VFIT_BOOT_DIGEST);
		vfit_hash_set_final(&t->set, &t->seen[t->n++].more);
	}
}

static enum vfit_result tee_sig(const struct vfit_crypto *self, const struct vfit_pubkey *key,
				enum vfit_hash h, enum vfit_padding pad, const uint8_t *digest,
				const uint8_t *sig, size_t sig_len)
{
	const struct vfit_crypto *base = tee_of(self)->base;

	return base->sig_verify(base, key, h, pad, digest, sig, sig_len);
}
#endif

enum vfit_result vfit_boot_verify_(struct vfit_run *r, const uint8_t *fit, size_t len,
				   const void *ctl, size_t ctl_len, unsigned int flags,
				   struct vfit_verify_result *res)
{
#if VFIT_CRYPTO_TABLE
	struct vfit_boot_tee *tee = &r->s->tee;
	struct vfit_boot_tee_state *t = &r->s->tee_state;

	t->n = 0;
	if (r->more) {
		tee->cr.hash_init = tee_init;
		tee->cr.hash_update = tee_update;
		tee->cr.hash_final = tee_final;
		tee->cr.sig_verify = tee_sig;
		tee->st = t;
		t->base = &vfit_crypto_default;
		t->more = r->more;
		t->ctx = NULL;
		return vfit_verify_with(&tee->cr, fit, len, ctl, ctl_len, NULL, flags, res);
	}
#else
	(void)r;
#endif
	return vfit_verify(fit, len, ctl, ctl_len, NULL, flags, res);
}

/* What the tee kept for the SHA-256 digest sha256, or NULL. */
static const struct vfit_digest_set *teed(const struct vfit_run *r, const uint8_t *sha256)
{
#if VFIT_CRYPTO_TABLE
	const struct vfit_boot_tee_state *t = &r->s->tee_state;
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (!memcmp(t->seen[i].sha256, sha256, VFIT_BOOT_DIGEST))
			return &t->seen[i].more;
#else
	(void)r;
	(void)sha256;
#endif
	return NULL;
}

/* The sha256 hash node's value of an image the verifier accepted, or NULL. */
static const uint8_t *hash_node_sha256(const uint8_t *fit, const struct vfit_image *img)
{
	const char *algo;
	const void *v;
	int node, len, alen;

	fdt_for_each_subnode(node, fit, img->node) {
		const char *n = fdt_get_name(fit, node, NULL);

		if (!n || strncmp(n, "hash", 4))
			continue;
		algo = fdt_getprop(fit, node, "algo", &alen);
		v = fdt_getprop(fit, node, "value", &len);
		if (algo && alen == 7 && !memcmp(algo, "sha256", 7) && v && len == 32)
			return v;
	}
	return NULL;
}

/*
 * Starts the hashes of `hashes`.  Where one is not built in, SHA-256 (if
 * asked) alone: the digest set then lacks the others, and the platform's
 * measure op refuses the measurement rather than extend a bank with less.
 */
static bool set_init(struct vfit_hash_set *hs, uint32_t hashes, struct vfit_digest_set *d)
{
	memset(d, 0, sizeof(*d));
	return hashes && (!vfit_hash_set_init(hs, hashes) ||
			  !vfit_hash_set_init(hs, hashes & SHA256_BIT));
}

/* d: the hashes of `hashes` over data[0..len), in one pass. */
static void digest_set(uint32_t hashes, const void *data, size_t len, struct vfit_digest_set *d)
{
	struct vfit_hash_set hs;

	if (!set_init(&hs, hashes, d))
		return;
	vfit_hash_set_update(&hs, data, len);
	vfit_hash_set_final(&hs, d);
}

/*
 * An image's SHA-256 (its verified hash node) and the other hashes of r->more
 * (from the verifier's pass through the tee); an image the tee did not see
 * is hashed here, in one pass for all of them.
 */
static void image_digests(const struct vfit_run *r, const uint8_t *fit,
			  const struct vfit_image *img, uint8_t sha256[VFIT_BOOT_DIGEST],
			  struct vfit_digest_set *d)
{
	const uint8_t *node = hash_node_sha256(fit, img);
	const struct vfit_digest_set *seen = node && r->more ? teed(r, node) : NULL;

	if (seen) {
		*d = *seen;
		memcpy(sha256, node, VFIT_BOOT_DIGEST);
		return;
	}
	digest_set(r->more | (node ? 0 : SHA256_BIT), img->data, img->size, d);
	memcpy(sha256, node ? node : d->sha256, VFIT_BOOT_DIGEST);
	d->hashes &= ~SHA256_BIT;
}

/* The digests of a key node's properties (name, length, value), in order. */
static void key_digests(const void *ctl, int key, uint32_t hashes, struct vfit_digest_set *d)
{
	struct vfit_hash_set hs;
	int off, len;

	if (!set_init(&hs, hashes, d))
		return;
	fdt_for_each_property_offset(off, ctl, key) {
		const char *name;
		const void *v = fdt_getprop_by_offset(ctl, off, &name, &len);
		uint8_t be[4];

		if (!v || !name)
			continue;
		vfit_hash_set_update(&hs, name, strlen(name) + 1);
		st_be32(be, (uint32_t)len);
		vfit_hash_set_update(&hs, be, 4);
		vfit_hash_set_update(&hs, v, (size_t)len);
	}
	vfit_hash_set_final(&hs, d);
}

void vfit_boot_note_stage_(struct vfit_run *r, unsigned int at, const uint8_t *fit,
			  const void *ctl, size_t ctl_len)
{
	const struct vfit_verify_result *res = &r->s->res;
	struct vfit_boot_measure *m = &r->s->meas[at];
	uint32_t more = r->more;
	unsigned int i;
	int key = -1;

	memset(m, 0, sizeof(*m));
	vfit_ev_str_(m->conf, sizeof(m->conf), res->conf);
	for (i = 0; i < res->nimages && i < VFIT_MAX_IMAGES; i++) {
		vfit_ev_str_(m->img[i].prop, sizeof(m->img[i].prop), res->image[i].prop);
		vfit_ev_str_(m->img[i].name, sizeof(m->img[i].name), res->image[i].name);
		image_digests(r, fit, &res->image[i], m->img[i].sha256, &m->img[i].more);
	}
	m->nimg = i;
#if VFIT_REPORT
	for (i = 0; i < res->nchecks; i++)
		if (res->check[i].kind == VFIT_CHECK_CONF_SIG && res->check[i].result == VFIT_OK &&
		    res->check[i].required) {
			key = res->check[i].key_node;
			vfit_ev_str_(m->key, sizeof(m->key), res->check[i].key_name);
			break;
		}
#endif
	if (key >= 0) {
		key_digests(ctl, key, more | SHA256_BIT, &m->key_more);
	} else {
		/* No record of the key: the whole key set that verified it stands for it. */
		vfit_ev_str_(m->key, sizeof(m->key), "(key set)");
		digest_set(more | SHA256_BIT, ctl, ctl_len, &m->key_more);
	}
	memcpy(m->key_sha256, m->key_more.sha256, VFIT_BOOT_DIGEST);
	m->key_more.hashes &= ~SHA256_BIT;
}

static unsigned int image_pcr(const char *prop, bool final)
{
	if (!final)
		return 4;
	if (!strcmp(prop, "kernel"))
		return 8;
	if (!strcmp(prop, "fdt"))
		return 1;
	return 9;
}

/* "<prop> <name>" as the event data, as short as the log allows. */
static size_t event_text(char *out, size_t cap, const char *a, const char *b)
{
	size_t n = 0;

	while (*a && n + 1 < cap)
		out[n++] = *a++;
	if (n + 1 < cap)
		out[n++] = ' ';
	while (*b && n + 1 < cap)
		out[n++] = *b++;
	out[n] = 0;
	return n;
}

/* One measurement: SHA-256 with the other hashes noted beside it. */
static bool measure_one(struct vfit_run *r, enum vfit_boot_chain chain, unsigned int stage,
			unsigned int pcr, uint32_t type, const uint8_t *sha256,
			const struct vfit_digest_set *more, const char *what, const char *name)
{
	const struct vfit_boot_ops *o = r->ops;
	struct vfit_boot_event *ev;
	struct vfit_digest_set d = *more;
	char text[2 * VFIT_BOOT_NAME_LEN + 2];
	size_t n = event_text(text, sizeof(text), what, name);

	memcpy(d.sha256, sha256, VFIT_BOOT_DIGEST);
	d.hashes |= SHA256_BIT;
	ev = vfit_ev_new_(r, VFIT_EV_MEASURED, chain, stage);
	vfit_ev_str_(ev->what, sizeof(ev->what), what);
	vfit_ev_str_(ev->name, sizeof(ev->name), name);
	ev->value = pcr;
	ev->io = o->measure(o->plat, pcr, type, &d, text, n);
	if (ev->io) {
		vfit_ev_fail_(r, ev, VFIT_WHY_MEASURE);
		return false;
	}
	vfit_ev_emit_(r, ev);
	return true;
}

bool vfit_boot_measure_chain_(struct vfit_run *r, enum vfit_boot_chain chain)
{
	const struct vfit_boot_scratch *s = r->s;
	unsigned int k, i;

	if (!r->ops->measure)
		return true;
	for (k = 0; k < s->nstages; k++) {
		const struct vfit_boot_measure *m = &s->meas[k];
		bool final = k + 1 == s->nstages;

		if (!measure_one(r, chain, k + 1, 7, EV_IPL, m->key_sha256, &m->key_more, "key",
				 m->key))
			return false;
		for (i = 0; i < m->nimg; i++) {
			unsigned int pcr = image_pcr(m->img[i].prop, final);

			if (!measure_one(r, chain, k + 1, pcr, pcr == 1 ? EV_TABLE_OF_DEVICES : EV_IPL,
					 m->img[i].sha256, &m->img[i].more, m->img[i].prop,
					 m->img[i].name))
				return false;
		}
	}
	return true;
}
