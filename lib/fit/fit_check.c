/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Format checks that run before anything else (fit-format.md §6.2, 7), on the bytes
 * actually loaded rather than on what the header claims, plus the small
 * property helpers every other fit_*.c file uses.
 */
#include <string.h>

#include <libfdt.h>

#include "fit_int.h"

const char *vfit_str(const struct vfit_prop *v)
{
	const char *s = (const char *)v->p;

	/* Exactly one string: NUL at the end and nowhere before it. */
	if (!s || v->len < 1 || s[v->len - 1] || strlen(s) != (size_t)v->len - 1)
		return NULL;
	return s;
}

const char *vfit_prop_str(const void *fdt, int node, const char *name)
{
	struct vfit_prop v;

	v.p = fdt_getprop(fdt, node, name, &v.len);
	return vfit_str(&v);
}

void vfit_props(const void *fdt, int node, const char *names, struct vfit_prop *v,
		unsigned int n)
{
	const char *name, *want;
	const void *val;
	unsigned int i;
	int prop, len;

	memset(v, 0, n * sizeof(*v));
	fdt_for_each_property_offset(prop, fdt, node) {
		val = fdt_getprop_by_offset(fdt, prop, &name, &len);
		if (!val)
			continue;
		for (i = 0, want = names; i < n && *want; i++, want += strlen(want) + 1) {
			if (!strcmp(name, want)) {
				if (!v[i].p) {
					v[i].p = val;
					v[i].len = len;
				}
				break;
			}
		}
	}
}

bool vfit_in(const char *name, const char *list)
{
	for (; *list; list += strlen(list) + 1)
		if (!strcmp(name, list))
			return true;
	return false;
}

bool vfit_name_prefix(const void *fdt, int node, const char *prefix)
{
	int len;
	const char *name = fdt_get_name(fdt, node, &len);
	size_t n = strlen(prefix);

	return name && (size_t)len >= n && !memcmp(name, prefix, n);
}

/* Whether an earlier sibling of node (child of parent) has the same name. */
static bool dup_sibling(const void *fdt, int parent, int node, const char *name, int len)
{
	int sib, slen;
	const char *sname;

	fdt_for_each_subnode(sib, fdt, parent) {
		if (sib == node)
			return false;
		sname = fdt_get_name(fdt, sib, &slen);
		if (sname && slen == len && !memcmp(sname, name, (size_t)len))
			return true;
	}
	return false;
}

/*
 * The header is checked by hand first so that the two size lies get their
 * own result codes; fdt_check_full() then validates every token, property
 * name, the nesting and the single empty-named root against len.  Our own
 * walk adds the FIT rules.  Sibling names must be unique: libfdt's lookup
 * returns the first of two equal names while the region walk (which works
 * on node offsets, like U-Boot's works on paths) would cover both, so a
 * duplicate is the CVE-2021-27138 confusion in another form.
 */
enum vfit_result vfit_fdt_walk(const void *fdt, size_t len, bool fit_rules, int *bad)
{
	int parent[VFIT_MAX_DEPTH + 1];
	unsigned int plen[VFIT_MAX_DEPTH + 1];
	int depth = -1, off = 0, next, nodes = 0;
	uint32_t tag;

	*bad = -1;
	if (len < FDT_V17_SIZE)
		return VFIT_ERR_TRUNCATED;
	if (fdt_magic(fdt) != FDT_MAGIC)
		return VFIT_ERR_FORMAT;
	if (fdt_totalsize(fdt) > VFIT_SIGNATURE_MAX_SIZE)
		return VFIT_ERR_TOO_LARGE;
	if (fdt_totalsize(fdt) > len)
		return VFIT_ERR_TRUNCATED;
	if (fdt_version(fdt) < 17 || fdt_off_dt_struct(fdt) % 4 ||
	    fdt_check_full(fdt, len))
		return VFIT_ERR_FORMAT;
	if (!fit_rules)
		return VFIT_OK;

	for (;;) {
		tag = fdt_next_tag(fdt, off, &next);
		if (next < 0)
			return VFIT_ERR_FORMAT;
		if (tag == FDT_BEGIN_NODE) {
			int nlen;
			const char *name = fdt_get_name(fdt, off, &nlen);

			*bad = off;
			if (!name || ++depth > VFIT_MAX_DEPTH - 1 || ++nodes > VFIT_MAX_NODES)
				return name ? VFIT_ERR_LIMIT : VFIT_ERR_FORMAT;
			if (memchr(name, '@', (size_t)nlen) || memchr(name, '/', (size_t)nlen))
				return VFIT_ERR_UNIT_ADDRESS;
			/*
			 * U-Boot's region walk keeps the path in 200 bytes: parent
			 * path + '/' + name + NUL must fit, for every node.  The
			 * root's path is "/", its children's "/name".
			 */
			if (depth > 0) {
				unsigned int pp = plen[depth - 1];

				if (pp + (unsigned int)nlen + 2 >= VFIT_PATH_MAX)
					return VFIT_ERR_LIMIT;
				plen[depth] = (depth == 1 ? 0 : pp) + 1 + (unsigned int)nlen;
				if (dup_sibling(fdt, parent[depth - 1], off, name, nlen))
					return VFIT_ERR_DUPLICATE;
			} else {
				plen[0] = 1;
			}
			parent[depth] = off;
		} else if (tag == FDT_END_NODE) {
			depth--;
		} else if (tag == FDT_END) {
			/* Nothing may hide after FDT_END inside the structure block. */
			*bad = -1;
			return (uint32_t)next == fdt_size_dt_struct(fdt) ? VFIT_OK : VFIT_ERR_FORMAT;
		}
		off = next;
	}
}

enum vfit_result vfit_fit_check_where(const void *fit, size_t len, int *node,
				      const char **prop)
{
	int tlen;
	enum vfit_result r = vfit_fdt_walk(fit, len, true, node);

	*prop = NULL;
	if (r)
		return r;
	*node = 0;
	if (!fdt_getprop(fit, 0, "description", NULL)) {
		*prop = "description";
		return VFIT_ERR_MISSING;
	}
	*prop = "timestamp";
	if (!fdt_getprop(fit, 0, "timestamp", &tlen))
		return VFIT_ERR_MISSING;
	if (tlen != 4)
		return VFIT_ERR_FORMAT;
	*prop = NULL;
	if (fdt_subnode_offset(fit, 0, "images") < 0)
		return VFIT_ERR_MISSING;
	*node = -1;
	return VFIT_OK;
}

enum vfit_result vfit_fit_check(const void *fit, size_t len)
{
	int node;
	const char *prop;

	return vfit_fit_check_where(fit, len, &node, &prop);
}
