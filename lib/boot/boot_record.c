/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The chain digest: what the boot record (the state blob) keeps of the
 * chain that booted, so that mark-good confirms only that chain, and that
 * two chains placing, unpacking or naming their images differently are two
 * chains.  Defined once, here (docs/trust-state.md, "The chain digest"):
 *
 *   stage digest = SHA-256 of, in order,
 *     the configuration's name, in full
 *     every property of the configuration node (name, length, value)
 *     the identity of the key that verified the configuration (32 bytes)
 *     for each image the configuration references, in the verifier's order:
 *       the referencing property and the image's position in it
 *       the image's unit name
 *       every property of the image node except where its payload lies
 *         (data, data-size, data-offset, data-position): type, arch, os,
 *         compression, load, entry, description, ...
 *       every property of its hash* and cipher subnodes
 *       the SHA-256 of its payload (32 bytes)
 *     the rollback counter's name and the stage's index (u32)
 *   chain digest = SHA-256("vfit chain 3", u32 stages, each stage digest)
 *
 * A string or property value goes in as u32 length then bytes, a name as
 * its bytes and NUL, so no two inputs run together.  Every byte comes
 * from the verified FIT (the configuration signature covers all of it but
 * the payloads, which the image hashes cover) or from the key that
 * verified it.
 */
#include <string.h>

#include <libfdt.h>

#include "boot_int.h"

static void put_u32(struct vfit_sha256_ctx *h, uint32_t v)
{
	uint8_t be[4];

	st_be32(be, v);
	vfit_sha256_update(h, be, 4);
}

static void put_str(struct vfit_sha256_ctx *h, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	put_u32(h, (uint32_t)n);
	vfit_sha256_update(h, s, n);
}

static bool payload_prop(const char *name)
{
	return !strcmp(name, "data") || !strcmp(name, "data-size") ||
	       !strcmp(name, "data-offset") || !strcmp(name, "data-position");
}

/* A node's properties as (name NUL, u32 length, value), payload placement left out. */
static void put_props(struct vfit_sha256_ctx *h, const void *fit, int node)
{
	int off, len;

	fdt_for_each_property_offset(off, fit, node) {
		const char *name;
		const void *v = fdt_getprop_by_offset(fit, off, &name, &len);

		if (!v || !name || payload_prop(name))
			continue;
		vfit_sha256_update(h, name, strlen(name) + 1);
		put_u32(h, (uint32_t)len);
		vfit_sha256_update(h, v, (size_t)len);
	}
}

static void put_image(struct vfit_sha256_ctx *h, const void *fit, const struct vfit_image *img,
		      const uint8_t sha256[VFIT_BOOT_DIGEST])
{
	int sub;

	put_str(h, img->prop);
	put_u32(h, img->index);
	put_str(h, img->name);
	put_props(h, fit, img->node);
	fdt_for_each_subnode(sub, fit, img->node) {
		const char *n = fdt_get_name(fit, sub, NULL);

		if (!n || (strncmp(n, "hash", 4) && strcmp(n, "cipher")))
			continue;
		put_str(h, n);
		put_props(h, fit, sub);
	}
	vfit_sha256_update(h, sha256, VFIT_BOOT_DIGEST);
}

void vfit_boot_stage_digest_(struct vfit_run *r, unsigned int at, const uint8_t *fit)
{
	struct vfit_boot_scratch *s = r->s;
	const struct vfit_verify_result *res = &s->res;
	const struct vfit_boot_measure *m = &s->meas[at];
	struct vfit_sha256_ctx h;
	unsigned int i;

	vfit_sha256_init(&h);
	put_str(&h, res->conf);
	put_props(&h, fit, res->conf_node);
	vfit_sha256_update(&h, m->key_sha256, VFIT_BOOT_DIGEST);
	for (i = 0; i < res->nimages && i < m->nimg; i++)
		put_image(&h, fit, &res->image[i], m->img[i].sha256);
	put_str(&h, s->counter[at].name);
	put_u32(&h, s->counter[at].index);
	vfit_sha256_final(&h, s->stage_digest[at]);
}

void vfit_boot_chain_digest_(struct vfit_run *r)
{
	struct vfit_boot_scratch *s = r->s;
	struct vfit_sha256_ctx h;
	unsigned int k;

	vfit_sha256_init(&h);
	vfit_sha256_update(&h, "vfit chain 3", 12);
	put_u32(&h, s->nstages);
	for (k = 0; k < s->nstages; k++)
		vfit_sha256_update(&h, s->stage_digest[k], VFIT_BOOT_DIGEST);
	vfit_sha256_final(&h, s->chain);
}
