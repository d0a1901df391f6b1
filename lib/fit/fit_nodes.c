/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a configuration signature covers: the node list (fit-format.md
 * §3.3, U-Boot HEAD's rule, rebuilt from the configuration itself;
 * hashed-nodes is never read) and the region walk over the structure
 * block (§3.4).  The host signer calls the same functions, so signer and
 * verifier cannot drift.
 *
 * Nodes are identified by offset, not by path: no name contains '@' or
 * '/' after vfit_fit_check(), and every name the list is built from was
 * resolved by vfit_subnodes(), which refuses a name two siblings share, so
 * a path names exactly one node and offset equality is path equality.
 */
#include <string.h>

#include <libfdt.h>

#include "fit_int.h"

static enum vfit_result add(struct vfit_node_list *list, int node, struct vfit_diag *diag)
{
	if (list->count >= VFIT_MAX_HASHED_NODES)
		return vfit_limit(diag, VFIT_LIMIT_HASHED_NODES);
	list->offset[list->count++] = node;
	return VFIT_OK;
}

int vfit_ref_index_(const struct vfit_conf_refs *refs, const char *s)
{
	unsigned int i;

	for (i = 0; i < refs->n; i++)
		if (!strcmp(refs->name[i], s))
			return (int)i;
	return -1;
}

enum vfit_result vfit_conf_refs(const void *fit, int conf, struct vfit_conf_refs *refs,
				struct vfit_diag *diag)
{
	const char *val, *name, *s;
	int prop, len;

	refs->n = 0;
	fdt_for_each_property_offset(prop, fit, conf) {
		val = fdt_getprop_by_offset(fit, prop, &name, &len);
		if (!val)
			return VFIT_ERR_FORMAT;
		if (vfit_in(name, vfit_conf_meta_))
			continue;
		/* Not a string list (no final NUL): names nothing, as in HEAD. */
		if (len < 1 || val[len - 1])
			continue;
		for (s = val; s < val + len; s += strlen(s) + 1) {
			if (!*s || vfit_ref_index_(refs, s) >= 0)
				continue;
			if (refs->n == VFIT_MAX_CONF_REFS) {
				vfit_diag_set(diag, conf, name);
				return vfit_limit(diag, VFIT_LIMIT_CONF_REFS);
			}
			refs->node[refs->n] = -1;
			refs->name[refs->n++] = s;
		}
	}
	return VFIT_OK;
}

/* The image node and its hash*, cipher and dm-verity children. */
static enum vfit_result add_image(const void *fit, int img, struct vfit_node_list *list,
				  struct vfit_diag *diag)
{
	unsigned int hashes = 0;
	const char *name;
	int child;

	if (add(list, img, diag))
		return VFIT_ERR_LIMIT;
	fdt_for_each_subnode(child, fit, img) {
		name = fdt_get_name(fit, child, NULL);
		if (!name)
			return VFIT_ERR_FORMAT;
		if (!strncmp(name, "hash", 4))
			hashes++;
		else if (!vfit_in(name, "cipher\0dm-verity\0"))
			continue;
		if (add(list, child, diag))
			return VFIT_ERR_LIMIT;
	}
	if (!hashes) {
		vfit_diag_set(diag, img, NULL);
		return VFIT_ERR_NO_HASH;
	}
	return VFIT_OK;
}

enum vfit_result vfit_conf_list(const void *fit, int conf, const struct vfit_conf_refs *refs,
				struct vfit_node_list *list, struct vfit_diag *diag)
{
	unsigned int i, nimg = 0;
	enum vfit_result r;

	list->count = 0;
	vfit_diag_set(diag, conf, NULL);
	if (add(list, 0, diag) || add(list, conf, diag))
		return VFIT_ERR_LIMIT;
	for (i = 0; i < refs->n; i++) {
		if (refs->node[i] < 0)
			continue;
		r = add_image(fit, refs->node[i], list, diag);
		if (r)
			return r;
		nimg++;
	}
	return nimg ? VFIT_OK : VFIT_ERR_NO_IMAGES;
}

enum vfit_result vfit_conf_nodes(const void *fit, int conf, struct vfit_node_list *list,
				 struct vfit_diag *diag)
{
	static const char *const top[] = { "images" };
	struct vfit_conf_refs refs;
	enum vfit_result r;
	int images;

	vfit_diag_set(diag, 0, NULL);
	r = vfit_subnodes(fit, 0, top, 1, &images, diag);
	if (r)
		return r;
	if (images < 0)
		return VFIT_ERR_MISSING;
	r = vfit_conf_refs(fit, conf, &refs, diag);
	if (!r)
		r = vfit_subnodes(fit, images, refs.name, refs.n, refs.node, diag);
	return r ? r : vfit_conf_list(fit, conf, &refs, list, diag);
}

/* The listed offsets in ascending order: the walk meets nodes that way. */
static void sorted(const struct vfit_node_list *list, int *out)
{
	unsigned int i, j;
	int v;

	for (i = 0; i < list->count; i++) {
		v = list->offset[i];
		for (j = i; j > 0 && out[j - 1] > v; j--)
			out[j] = out[j - 1];
		out[j] = v;
	}
}

/*
 * Whether off is listed: a scan, for the walk without end[] (a device's),
 * where it is less code than sorting; at most VFIT_MAX_HASHED_NODES
 * comparisons per node, and no tag read.
 */
static bool listed(const struct vfit_node_list *list, int off)
{
	unsigned int i;

	for (i = 0; i < list->count; i++)
		if (list->offset[i] == off)
			return true;
	return false;
}

/*
 * With end[], the subtree at off (w = 0) holds no listed node when the next
 * listed offset order[k] lies past its end: then it, and every following
 * sibling of which the same holds, contribute nothing; *next becomes the
 * first token after them.  Each hop is one read, no tag walk.
 */
static bool skip_to(const void *fit, const struct vfit_node_list *list, const int *order,
		    unsigned int k, const int32_t *end, int off, int *next)
{
	const uint8_t *st = (const uint8_t *)fit + fdt_off_dt_struct(fit);
	uint32_t size = fdt_size_dt_struct(fit), e;
	bool hop = false;

	for (;;) {
		e = (uint32_t)end[off / 4];
		if (e <= (uint32_t)off || e > size - 4 || (k < list->count && (uint32_t)order[k] < e))
			return hop;
		*next = (int)e;
		hop = true;
		if (ld_be32(st + e) != FDT_BEGIN_NODE)
			return true;
		off = (int)e;
	}
}

/*
 * The walk keeps, per depth, the "want" level w of fit-format.md §3.4: 2
 * for a listed node (its tokens and properties), 1 for a direct child of
 * one (its BEGIN/END tokens only), 0 below.  Runs of included tokens are
 * fed to the hash as one update each, straight from the blob.  With end[],
 * a node that gets w = 0 (its parent's w is at most 1) and holds no listed
 * node is skipped whole: nothing in it is included, not even its END_NODE
 * (the token before it is not).
 */
#ifdef __GNUC__
__attribute__((always_inline))
#endif
static inline enum vfit_result walk(const void *fit, const struct vfit_node_list *list,
				   uint32_t strings_len, const int32_t *end,
				   struct vfit_hash_ctx *ctx, const struct vfit_crypto *cr,
				   void (*update)(const struct vfit_crypto *, struct vfit_hash_ctx *,
						  const void *, size_t))
{
	const uint8_t *st = (const uint8_t *)fit + fdt_off_dt_struct(fit);
	uint8_t stack[VFIT_MAX_DEPTH + 1];
	int order[VFIT_MAX_HASHED_NODES];
	unsigned int depth = 0, regions = 0, max_regions = 18 + 7 * list->count, k = 0;
	int off = 0, next, start = -1, w = 0;
	bool incl, prev = false;
	const char *name;
	uint32_t tag;

	if (strings_len > fdt_size_dt_strings(fit))
		return VFIT_ERR_STRINGS_BOUNDS;
	if (end)
		sorted(list, order);
	for (;;) {
		tag = fdt_next_tag(fit, off, &next);
		if (next < 0)
			return VFIT_ERR_FORMAT;
		switch (tag) {
		case FDT_BEGIN_NODE:
			if (depth > VFIT_MAX_DEPTH)
				return VFIT_ERR_LIMIT;
			if (!end) {
				incl = listed(list, off);
			} else {
				while (k < list->count && order[k] < off)
					k++;
				incl = k < list->count && order[k] == off;
				if (!incl && w <= 1 && skip_to(fit, list, order, k, end, off, &next))
					break;
			}
			stack[depth++] = (uint8_t)w;
			if (incl)
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
				incl = (unsigned int)vfit_index_(name, vfit_image_props_) > P_SIZE;
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
		default:
			/*
			 * FDT_END (9) here, not as a case: the jump table
			 * then covers 1..4 instead of 1..9 (28 bytes of Thumb-2).
			 */
			if (tag != FDT_END)
				return VFIT_ERR_FORMAT;
			incl = true;
			break;
		}
		if (incl && !prev) {
			if (++regions > max_regions)
				return VFIT_ERR_LIMIT;
			start = off;
		} else if (!incl && prev) {
			update(cr, ctx, st + start, (size_t)(off - start));
		}
		prev = incl;
		if (tag == FDT_END)
			break;
		off = next;
	}
	update(cr, ctx, st + start, (size_t)(next - start));
	update(cr, ctx, (const uint8_t *)fit + fdt_off_dt_strings(fit), strings_len);
	return VFIT_OK;
}

/* The library's own hash, for the callers without a backend (cr is NULL). */
static void own_update(const struct vfit_crypto *cr, struct vfit_hash_ctx *ctx, const void *p,
		       size_t n)
{
	(void)cr;
	vfit_hash_update(ctx, p, n);
}

/* Separate entry points, so a device build (no end[]) links the walk without the skipping. */
enum vfit_result vfit_conf_digest(const void *fit, const struct vfit_node_list *list,
				  uint32_t strings_len, struct vfit_hash_ctx *ctx)
{
	return walk(fit, list, strings_len, NULL, ctx, NULL, own_update);
}

#if VFIT_CRYPTO_TABLE
enum vfit_result vfit_conf_digest_with_(const void *fit, const struct vfit_node_list *list,
				       uint32_t strings_len, struct vfit_hash_ctx *ctx,
				       const struct vfit_crypto *cr)
{
	return walk(fit, list, strings_len, NULL, ctx, cr, cr->hash_update);
}
#endif

enum vfit_result vfit_conf_digest_skip(const void *fit, const struct vfit_node_list *list,
				       uint32_t strings_len, const int32_t *end,
				       struct vfit_hash_ctx *ctx)
{
	return walk(fit, list, strings_len, end, ctx, NULL, own_update);
}
