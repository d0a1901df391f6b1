/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Format checks that run before anything else (fit-format.md §6.2, §7), on
 * the bytes actually loaded rather than on what the header claims, name
 * lookups that refuse ambiguous names, and the small property helpers
 * every other fit_*.c file uses.
 *
 * Everything here is one pass: a hostile FIT (say a million FDT_NOP tags
 * followed by thousands of sibling nodes) costs a few passes over its
 * structure block, never a pass per node.
 */
#include <string.h>

#include <libfdt.h>

#include "fit_int.h"

const char vfit_image_props_[] = "data\0data-position\0data-offset\0data-size\0load\0entry\0"
				"type\0os\0arch\0compression\0";
const char vfit_sig_props_[] = "algo\0value\0padding\0hashed-strings\0";
const char vfit_conf_meta_[] = "description\0compatible\0default\0";

const char *vfit_str_(const struct vfit_prop *v)
{
	const char *s = (const char *)v->p;

	/* Exactly one string: the first NUL is the last byte. */
	return s && v->len > 0 && memchr(s, 0, (size_t)v->len) == s + v->len - 1 ? s : NULL;
}

const char *vfit_prop_str_(const void *fdt, int node, const char *name)
{
	struct vfit_prop v;

	v.p = fdt_getprop(fdt, node, name, &v.len);
	return vfit_str_(&v);
}

int vfit_index_(const char *name, const char *list)
{
	int i;

	for (i = 0; *list; i++, list += strlen(list) + 1)
		if (!strcmp(name, list))
			return i;
	return -1;
}

void vfit_props_(const void *fdt, int node, const char *names, struct vfit_prop *v,
		unsigned int n)
{
	const char *name;
	const void *val;
	int prop, len, i;

	memset(v, 0, n * sizeof(*v));
	fdt_for_each_property_offset(prop, fdt, node) {
		val = fdt_getprop_by_offset(fdt, prop, &name, &len);
		if (!val)
			continue;
		i = vfit_index_(name, names);
		if (i >= 0 && (unsigned int)i < n && !v[i].p) {
			v[i].p = val;
			v[i].len = len;
		}
	}
}

bool vfit_name_prefix_(const void *fdt, int node, const char *prefix)
{
	const char *name = fdt_get_name(fdt, node, NULL);

	/* fdt_get_name() checked the NUL: a shorter name differs there. */
	return name && !strncmp(name, prefix, strlen(prefix));
}

enum vfit_result vfit_subnodes(const void *fdt, int parent, const char *const *names,
			       unsigned int n, int *node, struct vfit_diag *diag)
{
	const char *name;
	unsigned int i;
	int child;

	for (i = 0; i < n; i++)
		node[i] = -1;
	fdt_for_each_subnode(child, fdt, parent) {
		/* A name libfdt hands out ends at its NUL inside the structure block. */
		name = fdt_get_name(fdt, child, NULL);
		if (!name)
			return VFIT_ERR_FORMAT;
		for (i = 0; i < n; i++) {
			if (strcmp(name, names[i]))
				continue;
			if (node[i] >= 0) {
				vfit_diag_set(diag, child, NULL);
				return VFIT_ERR_DUPLICATE;
			}
			node[i] = child;
			break;
		}
	}
	return VFIT_OK;
}

/*
 * A property's name: its offset inside the strings block and a NUL within
 * VFIT_PROP_NAME_MAX + 1 bytes.  libfdt's fdt_get_string() scans a name to
 * its NUL on every read, and names outside the signed strings prefix are
 * the attacker's: a FIT whose properties all name one 4 MB string took
 * seconds per lookup pass.  With names bounded here, every later read is.
 */
static bool name_ok(const void *fdt, const uint8_t *prop)
{
	uint32_t off = ld_be32(prop + 8), size = fdt_size_dt_strings(fdt);
	uint32_t room = size > off ? size - off : 0;

	return room && memchr((const char *)fdt + fdt_off_dt_strings(fdt) + off, 0,
			      room < VFIT_PROP_NAME_MAX + 1 ? room : VFIT_PROP_NAME_MAX + 1);
}

/* The FIT rules for one node: depth, '@' and '/', U-Boot's path buffer. */
static enum vfit_result fit_node(const char *name, int nlen, int depth, unsigned int *plen,
				 unsigned int flags, struct vfit_diag *diag)
{
	if (depth > VFIT_MAX_DEPTH - 1)
		return vfit_limit(diag, VFIT_LIMIT_DEPTH);
	if ((!(flags & VFIT_FIT_ALLOW_AT) && memchr(name, '@', (size_t)nlen)) ||
	    memchr(name, '/', (size_t)nlen))
		return VFIT_ERR_UNIT_ADDRESS;
	/*
	 * U-Boot's region walk keeps the path in 200 bytes: parent path +
	 * '/' + name + NUL must fit, for every node.  The root's path is "/",
	 * its children's "/name".
	 */
	if (depth > 0) {
		if (plen[depth - 1] + (unsigned int)nlen + 2 >= VFIT_PATH_MAX)
			return vfit_limit(diag, VFIT_LIMIT_PATH);
		plen[depth] = (depth == 1 ? 0 : plen[depth - 1]) + 1 + (unsigned int)nlen;
	} else {
		plen[0] = 1;
	}
	return VFIT_OK;
}

/*
 * The header is checked by hand first so that the two size lies get their
 * own result codes.  Then one pass over the structure block does what
 * libfdt's fdt_check_full() does -- every token valid, every property name
 * inside the strings block (and, here, of bounded length), balanced
 * nesting, one root with an empty name, nothing but FDT_END after it -- and,
 * with fit_rules, the FIT rules, keeping per depth only the path length:
 * constant work per tag.
 */
enum vfit_result vfit_fdt_walk_(const void *fdt, size_t len, bool fit_rules, unsigned int flags,
			       struct vfit_diag *diag)
{
	const uint8_t *st;
	unsigned int plen[VFIT_MAX_DEPTH + 1];
	int depth = -1, off = 0, next, nlen;
	bool closed = false;
	enum vfit_result r;
	const char *name;
	uint32_t tag;

	vfit_diag_set(diag, -1, NULL);
	if (len < FDT_V17_SIZE)
		return VFIT_ERR_TRUNCATED;
	if (fdt_magic(fdt) != FDT_MAGIC)
		return VFIT_ERR_FORMAT;
	if (fit_rules && fdt_totalsize(fdt) > VFIT_SIGNATURE_MAX_SIZE)
		return VFIT_ERR_TOO_LARGE;
	if (fdt_totalsize(fdt) > len)
		return VFIT_ERR_TRUNCATED;
	if (fdt_version(fdt) < 17 || fdt_off_dt_struct(fdt) % 4 || fdt_check_header(fdt) ||
	    fdt_num_mem_rsv(fdt) < 0)
		return VFIT_ERR_FORMAT;
	st = (const uint8_t *)fdt + fdt_off_dt_struct(fdt);
	for (;;) {
		/*
		 * A property length near 4 GiB wraps libfdt's next offset back
		 * onto this tag (or before it): libfdt's own fdt_check_full()
		 * then loops forever.  Every tag must move forward.
		 */
		tag = fdt_next_tag(fdt, off, &next);
		if (next <= off || (closed && tag != FDT_END))
			return VFIT_ERR_FORMAT;
		switch (tag) {
		case FDT_BEGIN_NODE:
			name = fdt_get_name(fdt, off, &nlen);
			vfit_diag_set(diag, off, NULL);
			if (!name || (++depth == 0 && nlen))
				return VFIT_ERR_FORMAT;
			if (fit_rules && (r = fit_node(name, nlen, depth, plen, flags, diag)))
				return r;
			break;
		case FDT_END_NODE:
			if (depth < 0)
				return VFIT_ERR_FORMAT;
			closed = --depth < 0;
			break;
		case FDT_PROP:
			if (!name_ok(fdt, st + off))
				return VFIT_ERR_FORMAT;
			break;
		case FDT_NOP:
			break;
		case FDT_END:
			/* Nothing may hide after FDT_END inside the structure block. */
			vfit_diag_set(diag, -1, NULL);
			if (!closed || (fit_rules && (uint32_t)next != fdt_size_dt_struct(fdt)))
				return VFIT_ERR_FORMAT;
			return VFIT_OK;
		default:
			return VFIT_ERR_FORMAT;
		}
		off = next;
	}
}

enum vfit_result vfit_fit_top_(const void *fit, size_t len, unsigned int flags,
			      struct vfit_diag *diag, int top[2])
{
	static const char *const names[] = { "images", "configurations" };
	int tlen;
	enum vfit_result r = vfit_fdt_walk_(fit, len, true, flags, diag);

	if (r)
		return r;
	vfit_diag_set(diag, 0, "description");
	if (!fdt_getprop(fit, 0, vfit_conf_meta_, NULL))
		return VFIT_ERR_MISSING;
	vfit_diag_set(diag, 0, "timestamp");
	if (!fdt_getprop(fit, 0, "timestamp", &tlen))
		return VFIT_ERR_MISSING;
	if (tlen != 4)
		return VFIT_ERR_FORMAT;
	vfit_diag_set(diag, 0, NULL);
	r = vfit_subnodes(fit, 0, names, 2, top, diag);
	if (r)
		return r;
	if (top[0] < 0)
		return VFIT_ERR_MISSING;
	vfit_diag_set(diag, -1, NULL);
	return VFIT_OK;
}

enum vfit_result vfit_fdt_check(const void *fdt, size_t len, struct vfit_diag *diag)
{
	return vfit_fdt_walk_(fdt, len, false, 0, diag);
}

enum vfit_result vfit_fit_check(const void *fit, size_t len, unsigned int flags,
				struct vfit_diag *diag)
{
	int top[2];

	return vfit_fit_top_(fit, len, flags, diag, top);
}
