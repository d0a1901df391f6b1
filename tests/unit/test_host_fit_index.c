/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * host/mkimage/fit_index.c through its public calls, against libfdt: on random
 * trees (random depth and fan-out, sibling names that are prefixes of each
 * other) every node's parent and path are libfdt's, each node's recorded
 * end is just past its own FDT_END_NODE, and the children of /images are
 * found by name -- every one of them, and nothing for a prefix, an
 * extension or a node elsewhere.  Two images of one name are refused
 * (status 1, the node named), and a path that does not fit the buffer
 * is refused rather than cut.
 */
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "check.h"
#include "../../host/mkimage/mkimage_int.h"

#define CAP (64 * 1024)

static const char *const pool[] = { "kernel", "kernel-1", "kern", "fdt-1", "fdt-10", "hash-1",
				    "hash", "signature-1", "a", "ab", "b", "ramdisk" };
#define NPOOL (sizeof(pool) / sizeof(pool[0]))

/* Up to fan children (distinct names from the pool), recursively to depth. */
static void subtree(void *f, int depth, int fan)
{
	int used[NPOOL] = { 0 }, n = (int)(check_rand() % (unsigned)(fan + 1)), i;

	for (i = 0; i < n && depth > 0; i++) {
		size_t k = check_rand() % NPOOL;

		if (used[k])
			continue;
		used[k] = 1;
		FDT(fdt_begin_node(f, pool[k]));
		if (check_rand() & 1)
			FDT(fdt_property_u32(f, "x", (uint32_t)i));
		subtree(f, depth - 1, fan);
		FDT(fdt_end_node(f));
	}
}

static char *random_fit(void)
{
	char *f = malloc(CAP);

	REQUIRE(f != NULL, "memory");
	FDT(fdt_create(f, CAP));
	FDT(fdt_finish_reservemap(f));
	FDT(fdt_begin_node(f, ""));
	FDT(fdt_property_u32(f, "timestamp", 0));
	FDT(fdt_begin_node(f, "images"));
	subtree(f, 3, 6);
	FDT(fdt_end_node(f));
	FDT(fdt_begin_node(f, "configurations"));
	subtree(f, 2, 3);
	FDT(fdt_end_node(f));
	FDT(fdt_end_node(f));
	FDT(fdt_finish(f));
	return f;
}

/* Whether end is just past the FDT_END_NODE that closes the node at off. */
static int closes(const void *f, int off, int end)
{
	int depth = 0, next;
	uint32_t tag;

	do {
		tag = fdt_next_tag(f, off, &next);
		if (tag == FDT_BEGIN_NODE)
			depth++;
		else if (tag == FDT_END_NODE)
			depth--;
		else if (tag == FDT_END || next < 0)
			return 0;
		off = next;
	} while (depth > 0);
	return next == end;
}

static void one_tree(int round)
{
	char *f = random_fit(), path[256], want[256];
	struct vfit_err e = { 0 };
	struct vfit_fit_index *ix = vfit_fit_index_new("t.fit", f, &e);
	int images = fdt_path_offset(f, "/images"), node, bad = 0, n = 0;
	size_t k;

	REQUIRE(ix != NULL, "round %d: index: %s", round, e.msg);
	CHECK(vfit_fit_index_images(ix) == images, "round %d: /images", round);
	for (node = 0; node >= 0; node = fdt_next_node(f, node, NULL)) {
		int parent = fdt_parent_offset(f, node);

		n++;
		bad += vfit_fit_index_parent(ix, node) != (parent < 0 ? -1 : parent);
		bad += fdt_get_path(f, node, want, sizeof(want)) ||
		       vfit_fit_index_path(ix, node, path, sizeof(path)) || strcmp(path, want);
		bad += !closes(f, node, vfit_fit_index_ends(ix)[node / 4]);
	}
	CHECK(!bad, "round %d: %d of %d nodes with another parent, path or end than libfdt's",
	      round, bad, n);
	for (k = 0; k < NPOOL; k++) {
		int want_off = fdt_subnode_offset(f, images, pool[k]);

		CHECK(vfit_fit_index_image(ix, pool[k]) == (want_off < 0 ? -1 : want_off),
		      "round %d: image %s", round, pool[k]);
	}
	CHECK(vfit_fit_index_image(ix, "kernel-") == -1 && vfit_fit_index_image(ix, "") == -1 &&
	      vfit_fit_index_image(ix, "ramdisk-1") == -1 && vfit_fit_index_image(ix, "images") == -1,
	      "round %d: prefixes, extensions and non-images not found", round);
	CHECK(vfit_fit_index_parent(ix, 4) == -1, "round %d: an offset inside a node", round);
	vfit_fit_index_free(ix);
	free(f);
}

static void refusals(void)
{
	char *f = malloc(CAP), path[32];
	struct vfit_err e = { 0 };
	struct vfit_fit_index *ix;
	int node;

	REQUIRE(f != NULL, "memory");
	FDT(fdt_create(f, CAP));
	FDT(fdt_finish_reservemap(f));
	FDT(fdt_begin_node(f, ""));
	FDT(fdt_begin_node(f, "images"));
	FDT(fdt_begin_node(f, "kernel"));
	FDT(fdt_begin_node(f, "a-rather-long-name-for-a-hash-node"));
	FDT(fdt_end_node(f));
	FDT(fdt_end_node(f));
	FDT(fdt_begin_node(f, "kernel"));
	FDT(fdt_end_node(f));
	FDT(fdt_end_node(f));
	FDT(fdt_end_node(f));
	FDT(fdt_finish(f));
	ix = vfit_fit_index_new("dup.fit", f, &e);
	CHECK(!ix && e.status == VFIT_EXIT_REJECT && strstr(e.msg, "dup.fit") &&
	      strstr(e.msg, "/images/kernel") && strstr(e.msg, "share"),
	      "two images of one name: got '%s'", e.msg);
	vfit_fit_index_free(ix);

	/* One name fewer: the long path does not fit 32 bytes, its parent's does. */
	FDT(node = fdt_next_subnode(f, fdt_path_offset(f, "/images/kernel")));
	FDT(fdt_del_node(f, node));
	ix = vfit_fit_index_new("one.fit", f, &e);
	REQUIRE(ix != NULL, "index: %s", e.msg);
	node = fdt_path_offset(f, "/images/kernel/a-rather-long-name-for-a-hash-node");
	REQUIRE(node > 0, "long node");
	CHECK(vfit_fit_index_path(ix, node, path, sizeof(path)) == -1,
	      "a path longer than the buffer written");
	CHECK(vfit_fit_index_path(ix, vfit_fit_index_parent(ix, node), path, sizeof(path)) == 0 &&
	      !strcmp(path, "/images/kernel"), "the parent's path");
	CHECK(vfit_fit_index_path(ix, 0, path, 2) == 0 && !strcmp(path, "/") &&
	      vfit_fit_index_path(ix, 0, path, 1) == -1, "the root's path, with and without room");
	vfit_fit_index_free(ix);
	free(f);
}

int main(void)
{
	int r;

	check_seed(1);
	for (r = 0; r < 100; r++)
		one_tree(r);
	refusals();
	return check_done();
}
