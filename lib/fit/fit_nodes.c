/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a configuration signature covers: the node list (fit-format.md §3.3, U-Boot
 * HEAD's rule, rebuilt from the configuration itself; hashed-nodes is never
 * read) and the region walk over the structure block (fit-format.md §3.4).  The host
 * signer calls the same two functions, so signer and verifier cannot drift.
 *
 * Nodes are identified by offset, not by path: after vfit_fit_check() no
 * name contains '@' or '/' and sibling names are unique, so a path names
 * exactly one node and offset equality is path equality.
 */
#include <string.h>

#include <libfdt.h>

#include "fit_int.h"

static bool listed(const struct vfit_node_list *list, int node)
{
	unsigned int i;

	for (i = 0; i < list->count; i++)
		if (list->offset[i] == node)
			return true;
	return false;
}

static enum vfit_result add(struct vfit_node_list *list, int node)
{
	if (list->count >= VFIT_MAX_HASHED_NODES)
		return VFIT_ERR_LIMIT;
	list->offset[list->count++] = node;
	return VFIT_OK;
}

/* The image node and its hash*, cipher and dm-verity children. */
static enum vfit_result add_image(const void *fit, int img, struct vfit_node_list *list)
{
	enum vfit_result r = add(list, img);
	unsigned int hashes = 0;
	const char *name;
	int child, len;

	fdt_for_each_subnode(child, fit, img) {
		if (r)
			break;
		name = fdt_get_name(fit, child, &len);
		if (!name)
			return VFIT_ERR_FORMAT;
		if (!strncmp(name, "hash", 4)) {
			hashes++;
			r = add(list, child);
		} else if (vfit_in(name, "cipher\0dm-verity\0")) {
			r = add(list, child);
		}
	}
	if (!r && !hashes)
		return VFIT_ERR_NO_HASH;
	return r;
}

enum vfit_result vfit_conf_nodes(const void *fit, int conf_offset, struct vfit_node_list *list)
{
	const char *val, *name, *s;
	int images, prop, len, img;
	unsigned int nimg = 0;
	enum vfit_result r;

	list->count = 0;
	images = fdt_subnode_offset(fit, 0, "images");
	if (images < 0)
		return VFIT_ERR_MISSING;
	if (add(list, 0) || add(list, conf_offset))
		return VFIT_ERR_LIMIT;
	fdt_for_each_property_offset(prop, fit, conf_offset) {
		val = fdt_getprop_by_offset(fit, prop, &name, &len);
		if (!val)
			return VFIT_ERR_FORMAT;
		if (vfit_in(name, "description\0compatible\0default\0"))
			continue;
		/* Not a string list (no final NUL): contributes nothing, as in HEAD. */
		if (len < 1 || val[len - 1])
			continue;
		for (s = val; s < val + len; s += strlen(s) + 1) {
			img = fdt_subnode_offset(fit, images, s);
			if (!*s || img < 0 || listed(list, img))
				continue;
			r = add_image(fit, img, list);
			if (r)
				return r;
			nimg++;
		}
	}
	return nimg ? VFIT_OK : VFIT_ERR_NO_IMAGES;
}

/*
 * The walk keeps, per depth, the "want" level w of fit-format.md §3.4: 2 for a
 * listed node (its tokens and properties), 1 for a direct child of one
 * (its BEGIN/END tokens only), 0 below.  Runs of included tokens are fed
 * to the hash as one update each, straight from the blob.
 */
enum vfit_result vfit_conf_digest(const void *fit, const struct vfit_node_list *list,
				  uint32_t strings_len, struct vfit_hash_ctx *ctx)
{
	const uint8_t *st = (const uint8_t *)fit + fdt_off_dt_struct(fit);
	uint8_t stack[VFIT_MAX_DEPTH + 1];
	unsigned int depth = 0, regions = 0, max_regions = 18 + 7 * list->count;
	int off = 0, next, start = -1, w = 0;
	bool incl, prev = false;
	const char *name;
	uint32_t tag;

	if (strings_len > fdt_size_dt_strings(fit))
		return VFIT_ERR_STRINGS_BOUNDS;
	for (;;) {
		tag = fdt_next_tag(fit, off, &next);
		if (next < 0)
			return VFIT_ERR_FORMAT;
		switch (tag) {
		case FDT_BEGIN_NODE:
			if (depth > VFIT_MAX_DEPTH)
				return VFIT_ERR_LIMIT;
			stack[depth++] = (uint8_t)w;
			if (listed(list, off))
				w = 2;
			else if (w > 0)
				w--;
			incl = w > 0;
			break;
		case FDT_PROP:
			incl = false;
			if (w == 2) {
				if (!fdt_getprop_by_offset(fit, off, &name, NULL))
					return VFIT_ERR_FORMAT;
				/* The payload properties are not signed (fit-format.md §3.4). */
				incl = !vfit_in(name, "data\0data-size\0data-position\0data-offset\0");
			}
			break;
		case FDT_NOP:
			incl = w == 2;
			break;
		case FDT_END_NODE:
			/*
			 * U-Boot closes a region after the token that ends it, so
			 * an END_NODE directly after an included token is included
			 * even when its own node is not.
			 */
			if (!depth)
				return VFIT_ERR_FORMAT;
			incl = w > 0 || prev;
			w = stack[--depth];
			break;
		case FDT_END:
			incl = true;
			break;
		default:
			return VFIT_ERR_FORMAT;
		}
		if (incl && !prev) {
			if (++regions > max_regions)
				return VFIT_ERR_LIMIT;
			start = off;
		} else if (!incl && prev) {
			vfit_hash_update(ctx, st + start, (size_t)(off - start));
		}
		prev = incl;
		if (tag == FDT_END)
			break;
		off = next;
	}
	vfit_hash_update(ctx, st + start, (size_t)(next - start));
	vfit_hash_update(ctx, (const uint8_t *)fit + fdt_off_dt_strings(fit), strings_len);
	return VFIT_OK;
}
