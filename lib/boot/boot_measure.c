/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a chain brought, stage by stage (the chain digest of the boot
 * record is made of it too: boot_record.c), and the measurements handed
 * to the platform's measure op once a chain verified and loaded in full.
 *
 * No image is hashed again: an image's digest is the value of its sha256
 * hash node, which the verifier has just checked against the bytes it
 * verified (every hash* node of an image is checked).  Only an image with
 * no sha256 hash node is hashed here.  A key's identity is the SHA-256 of
 * its key node's properties in the control DTB that held it (a few hundred
 * bytes).
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

/* The sha256 hash node's value of an image the verifier accepted, else a fresh digest. */
static void image_digest(const uint8_t *fit, const struct vfit_image *img, uint8_t out[32])
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
		if (algo && alen == 7 && !memcmp(algo, "sha256", 7) && v && len == 32) {
			memcpy(out, v, 32);
			return;
		}
	}
	vfit_hash(VFIT_HASH_SHA256, img->data, img->size, out);
}

/* SHA-256 of a key node's properties (name, length, value), in order. */
static void key_digest(const void *ctl, int key, uint8_t out[32])
{
	struct vfit_sha256_ctx h;
	int off, len;

	vfit_sha256_init(&h);
	fdt_for_each_property_offset(off, ctl, key) {
		const char *name;
		const void *v = fdt_getprop_by_offset(ctl, off, &name, &len);
		uint8_t be[4];

		if (!v || !name)
			continue;
		vfit_sha256_update(&h, name, strlen(name) + 1);
		st_be32(be, (uint32_t)len);
		vfit_sha256_update(&h, be, 4);
		vfit_sha256_update(&h, v, (size_t)len);
	}
	vfit_sha256_final(&h, out);
}

void vfit_boot_note_stage_(struct vfit_run *r, unsigned int at, const uint8_t *fit,
			  const void *ctl, size_t ctl_len)
{
	const struct vfit_verify_result *res = &r->s->res;
	struct vfit_boot_measure *m = &r->s->meas[at];
	unsigned int i;
	int key = -1;

	memset(m, 0, sizeof(*m));
	vfit_ev_str_(m->conf, sizeof(m->conf), res->conf);
	for (i = 0; i < res->nimages && i < VFIT_MAX_IMAGES; i++) {
		vfit_ev_str_(m->img[i].prop, sizeof(m->img[i].prop), res->image[i].prop);
		vfit_ev_str_(m->img[i].name, sizeof(m->img[i].name), res->image[i].name);
		image_digest(fit, &res->image[i], m->img[i].sha256);
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
		key_digest(ctl, key, m->key_sha256);
	} else {
		/* No record of the key: the whole key set that verified it stands for it. */
		vfit_ev_str_(m->key, sizeof(m->key), "(key set)");
		vfit_hash(VFIT_HASH_SHA256, ctl, ctl_len, m->key_sha256);
	}
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

static bool measure_one(struct vfit_run *r, enum vfit_boot_chain chain, unsigned int stage,
			unsigned int pcr, uint32_t type, const uint8_t *digest, const char *what,
			const char *name)
{
	const struct vfit_boot_ops *o = r->ops;
	struct vfit_boot_event *ev;
	char text[2 * VFIT_BOOT_NAME_LEN + 2];
	size_t n = event_text(text, sizeof(text), what, name);

	ev = vfit_ev_new_(r, VFIT_EV_MEASURED, chain, stage);
	vfit_ev_str_(ev->what, sizeof(ev->what), what);
	vfit_ev_str_(ev->name, sizeof(ev->name), name);
	ev->value = pcr;
	ev->io = o->measure(o->plat, pcr, type, digest, text, n);
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

		if (!measure_one(r, chain, k + 1, 7, EV_IPL, m->key_sha256, "key", m->key))
			return false;
		for (i = 0; i < m->nimg; i++) {
			unsigned int pcr = image_pcr(m->img[i].prop, final);

			if (!measure_one(r, chain, k + 1, pcr, pcr == 1 ? EV_TABLE_OF_DEVICES : EV_IPL,
					 m->img[i].sha256, m->img[i].prop, m->img[i].name))
				return false;
		}
	}
	return true;
}
