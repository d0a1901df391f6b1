/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit audit's rules about the images and the file around them: names
 * with unit addresses, load ranges and the entry point, timestamps,
 * external data no hash covers, dm-verity nodes (fit-format.md §2.3,
 * §6.5, §8).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "vfit/fit.h"
#include "vfit-host/fdtbuf.h"
#include "audit_int.h"

static void rule_names(struct vfit_audit *a, const void *fit)
{
	int node, depth = 0;
	char path[256];

	for (node = fdt_next_node(fit, -1, &depth); node >= 0; node = fdt_next_node(fit, node, &depth)) {
		const char *n = fdt_get_name(fit, node, NULL);

		if (n && strchr(n, '@'))
			vfit_audit_add(a, VFIT_AUDIT_ERROR, VFIT_VA_UNIT_ADDRESS,
				       vfit_audit_path(fit, node, path, sizeof(path)),
				       NULL, NULL, "node name '%s' has a unit address: U-Boot and vfit refuse "
				       "the FIT (CVE-2021-27138)", n);
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
					vfit_audit_add(a, VFIT_AUDIT_ERROR, VFIT_VA_LOAD_OVERLAP,
						       node, "load", NULL,
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
			vfit_audit_add(a, VFIT_AUDIT_ERROR, VFIT_VA_LOAD_LOADER_REGION,
				       node, "load", NULL,
				       "%s [0x%llx, 0x%llx) overlaps the loader region [0x%llx, 0x%llx) "
				       "(CVE-2018-18440 class)", x->name, (unsigned long long)x->load,
				       (unsigned long long)(x->load + x->size),
				       (unsigned long long)a->loader_addr,
				       (unsigned long long)(a->loader_addr + a->loader_size));
		if (!strcmp(x->type, "kernel") && x->has_load && x->has_entry && x->size &&
		    (x->entry < x->load || x->entry >= x->load + x->size))
			vfit_audit_add(a, VFIT_AUDIT_ERROR, VFIT_VA_ENTRY_OUTSIDE_KERNEL,
				       node, "entry", NULL,
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
		vfit_audit_add(a, VFIT_AUDIT_WARNING, VFIT_VA_FUTURE_TIMESTAMP,
			       "/", "timestamp", NULL,
			       "build time %u is in the future (now %llu)", t,
			       (unsigned long long)a->now);
	for (i = 0; i < a->nsig; i++)
		if (!vfit_fdt_u32(fit, a->sig[i].node, "timestamp", &t) && t > a->now + 86400)
			vfit_audit_add(a, VFIT_AUDIT_WARNING, VFIT_VA_FUTURE_TIMESTAMP,
				       a->sig[i].path, "timestamp",
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
		int strong = vfit_audit_image_signed(a, im);

		if (!x->external)
			continue;
		any = 1;
		for (k = 0; k < a->nhash; k++)
			strong |= a->hash[k].image == im && !a->hash[k].weak;
		if (!strong) {
			char node[256];

			snprintf(node, sizeof(node), "/images/%s", x->name);
			vfit_audit_add(a, VFIT_AUDIT_ERROR, VFIT_VA_EXTERNAL_UNSIGNED,
				       node, "data-offset", NULL,
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
		vfit_audit_add(a, VFIT_AUDIT_WARNING, VFIT_VA_EXTERNAL_UNSIGNED,
			       "/", "totalsize", NULL,
			       "%zu non-zero bytes of the file lie outside the tree and every "
			       "payload: no hash or signature covers them", loose);
}

/* dm-verity nodes: U-Boot passes the root hash on, it never checks it (§8.9). */
static void rule_verity(struct vfit_audit *a, const void *fit)
{
	char node[256];
	int i;

	for (i = 0; i < a->nimg; i++) {
		const char *algo;
		int v, len = 0;

		if (!a->img[i].verity)
			continue;
		v = fdt_subnode_offset(fit, a->img[i].node, "dm-verity");
		algo = vfit_fdt_str(fit, v, "algo");
		snprintf(node, sizeof(node), "/images/%s/dm-verity", a->img[i].name);
		if (!fdt_getprop(fit, v, "digest", NULL))
			vfit_audit_add(a, VFIT_AUDIT_ERROR, VFIT_VA_DM_VERITY,
				       node, "digest", NULL,
				       "dm-verity node without a root hash: nothing checks the "
				       "filesystem");
		else if (!algo || (strcmp(algo, "sha256") && strcmp(algo, "sha512")))
			vfit_audit_add(a, VFIT_AUDIT_WARNING, VFIT_VA_DM_VERITY,
				       node, "algo", NULL,
				       "dm-verity hash %s: use sha256", algo ? algo : "missing");
		else if (!fdt_getprop(fit, v, "salt", &len) || len < 32)
			vfit_audit_add(a, VFIT_AUDIT_WARNING, VFIT_VA_DM_VERITY,
				       node, "salt", NULL,
				       "dm-verity salt of %d bytes: use 32 random bytes", len);
		else
			vfit_audit_add(a, VFIT_AUDIT_WARNING, VFIT_VA_DM_VERITY,
				       node, "digest", NULL,
				       "U-Boot never checks the root hash itself, and 2023.01 (and "
				       "HEAD before the 2026.10 cycle) leave the dm-verity node outside "
				       "the configuration signature (fit-format.md §8.9)");
	}
}

void vfit_audit_rules_image(struct vfit_audit *a, const void *fit, size_t len)
{
	rule_names(a, fit);
	rule_loads(a);
	rule_times(a, fit);
	rule_external(a, fit, len);
	rule_verity(a, fit);
}
