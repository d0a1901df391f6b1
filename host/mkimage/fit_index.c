/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An index of a FIT's nodes, built in one walk, so that signing thousands
 * of configurations never walks the FIT once per configuration: where
 * each node's subtree ends (the region walk skips what holds nothing
 * signed), each node's parent (paths for hashed-nodes), and the children
 * of /images by name.
 */
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "mkimage_int.h"

struct node {
	int off;
	int parent;                /* index, -1 for the root */
	const char *name;
	int len;
};

struct vfit_fit_index {
	const void *fdt;
	struct node *node;         /* in structure order */
	int n;
	int32_t *end;              /* end[off / 4]: offset past the node's END_NODE */
	int *img;                  /* indexes of the children of /images, by name */
	int nimg;
	int images;                /* node offset of /images */
};

static int by_name(const void *a, const void *b, void *arg)
{
	const struct vfit_fit_index *ix = arg;
	const struct node *x = &ix->node[*(const int *)a], *y = &ix->node[*(const int *)b];
	int c = memcmp(x->name, y->name, (size_t)(x->len < y->len ? x->len : y->len));

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Index i of the node at offset off (binary search: offsets ascend). */
static int index_of(const struct vfit_fit_index *ix, int off)
{
	int lo = 0, hi = ix->n - 1, mid;

	while (lo <= hi) {
		mid = lo + (hi - lo) / 2;
		if (ix->node[mid].off == off)
			return mid;
		if (ix->node[mid].off < off)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

void vfit_fit_index_free(struct vfit_fit_index *ix)
{
	if (!ix)
		return;
	free(ix->node);
	free(ix->end);
	free(ix->img);
	free(ix);
}

/*
 * fit passed vfit_fit_check().  Fails (status 1, the node named) when two
 * children of /images share a name: the lookups below would pick one.
 */
struct vfit_fit_index *vfit_fit_index_new(const char *file, const void *fit, struct vfit_err *e)
{
	struct vfit_fit_index *ix = calloc(1, sizeof(*ix));
	int stack[VFIT_MAX_DEPTH + 1], depth = 0, off = 0, next, cap = 256, i;
	uint32_t tag;

	if (!ix)
		goto oom;
	ix->fdt = fit;
	ix->images = -1;
	ix->node = malloc((size_t)cap * sizeof(*ix->node));
	ix->end = calloc(fdt_size_dt_struct(fit) / 4 + 1, sizeof(*ix->end));
	if (!ix->node || !ix->end)
		goto oom;
	for (;;) {
		tag = fdt_next_tag(fit, off, &next);
		if (tag == FDT_BEGIN_NODE) {
			if (ix->n == cap) {
				struct node *g = realloc(ix->node, (size_t)cap * 2 * sizeof(*g));

				if (!g)
					goto oom;
				ix->node = g;
				cap *= 2;
			}
			ix->node[ix->n].off = off;
			ix->node[ix->n].parent = depth ? stack[depth - 1] : -1;
			ix->node[ix->n].name = fdt_get_name(fit, off, &ix->node[ix->n].len);
			stack[depth++] = ix->n++;
		} else if (tag == FDT_END_NODE) {
			ix->end[ix->node[stack[--depth]].off / 4] = next;
		} else if (tag == FDT_END || next < 0) {
			break;
		}
		off = next;
	}
	ix->images = fdt_path_offset(fit, "/images");
	ix->img = malloc((size_t)ix->n * sizeof(*ix->img));
	if (!ix->img)
		goto oom;
	i = index_of(ix, ix->images);
	for (off = 0; off < ix->n; off++)
		if (i >= 0 && ix->node[off].parent == i)
			ix->img[ix->nimg++] = off;
	qsort_r(ix->img, (size_t)ix->nimg, sizeof(*ix->img), by_name, ix);
	for (i = 1; i < ix->nimg; i++)
		if (!by_name(&ix->img[i - 1], &ix->img[i], ix)) {
			vfit_err_set(e, VFIT_EXIT_REJECT, "%s: %s: two images share this name", file,
				     vfit_node_path(fit, ix->node[ix->img[i]].off));
			vfit_fit_index_free(ix);
			return NULL;
		}
	return ix;
oom:
	vfit_fit_index_free(ix);
	vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", file);
	return NULL;
}

int vfit_fit_index_images(const struct vfit_fit_index *ix)
{
	return ix->images;
}

const int32_t *vfit_fit_index_ends(const struct vfit_fit_index *ix)
{
	return ix->end;
}

int vfit_fit_index_image(const struct vfit_fit_index *ix, const char *name)
{
	int lo = 0, hi = ix->nimg - 1, mid, c;
	size_t len = strlen(name);
	const struct node *n;

	while (lo <= hi) {
		mid = lo + (hi - lo) / 2;
		n = &ix->node[ix->img[mid]];
		c = memcmp(n->name, name, (size_t)n->len < len ? (size_t)n->len : len);
		if (!c)
			c = ((size_t)n->len > len) - ((size_t)n->len < len);
		if (!c)
			return n->off;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

int vfit_fit_index_parent(const struct vfit_fit_index *ix, int off)
{
	int i = index_of(ix, off);

	return i < 0 || ix->node[i].parent < 0 ? -1 : ix->node[ix->node[i].parent].off;
}

int vfit_fit_index_path(const struct vfit_fit_index *ix, int off, char *buf, size_t size)
{
	int chain[VFIT_MAX_DEPTH + 1], depth = 0, i = index_of(ix, off);
	size_t n = 0;

	if (i < 0)
		return -1;
	for (; i > 0 && depth <= VFIT_MAX_DEPTH; i = ix->node[i].parent)
		chain[depth++] = i;
	if (!depth) {
		if (size < 2)
			return -1;
		memcpy(buf, "/", 2);
		return 0;
	}
	while (depth--) {
		const struct node *nd = &ix->node[chain[depth]];

		if (n + 1 + (size_t)nd->len + 1 > size)
			return -1;
		buf[n++] = '/';
		memcpy(buf + n, nd->name, (size_t)nd->len);
		n += (size_t)nd->len;
	}
	buf[n] = 0;
	return 0;
}
