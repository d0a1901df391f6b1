/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * host/core/fdtedit.c, the one-pass property writer the signer and hasher use,
 * against libfdt itself: random sequences of writes to the hash and
 * signature nodes of a FIT, node after node in tree order as mkimage
 * makes them (new properties, values that grow and shrink, the same
 * property written again, names new to the strings block and suffixes of
 * names already there) are applied once through vfit_edits and once
 * through fdt_setprop(), in the same order; the two blobs must be the
 * same byte for byte (header, structure, strings, the stray bytes in the
 * padding of short values included).  Writes to a node that
 * is not in the blob, or to a blob that changed since, are refused.
 */
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "check.h"
#include "vfit-host/fdtbuf.h"

#define CAP (256 * 1024)

/* Nodes with an algo first, as mkimage writes them (fdtedit.c's precondition). */
static const char *const paths[] = {
	"/images/kernel/hash-1", "/images/kernel/hash-2", "/images/fdt-1/hash-1",
	"/images/kernel/signature-1", "/configurations/conf-1/signature-1",
	"/configurations/conf-2/signature",
};
#define NPATHS (sizeof(paths) / sizeof(paths[0]))

/* Names already in the strings block, their suffixes, and new ones. */
static const char *const names[] = {
	"value", "algo", "signer-name", "signer-version", "comment", "timestamp",
	"hashed-strings", "hashed-nodes", "lue", "name", "key-name-hint", "x",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

static void node_begin(void *f, const char *name, const char *algo)
{
	FDT(fdt_begin_node(f, name));
	if (algo)
		FDT(fdt_property_string(f, "algo", algo));
}

static char *make_fit(void)
{
	char *f = calloc(1, CAP);
	static const uint8_t data[3000];

	REQUIRE(f != NULL, "memory");
	FDT(fdt_create(f, CAP));
	FDT(fdt_finish_reservemap(f));
	node_begin(f, "", NULL);
	FDT(fdt_property_string(f, "description", "fdtedit test"));
	FDT(fdt_property_u32(f, "timestamp", 1));
	node_begin(f, "images", NULL);
	node_begin(f, "kernel", NULL);
	FDT(fdt_property(f, "data", data, sizeof(data)));
	node_begin(f, "hash-1", "crc32");
	FDT(fdt_end_node(f));
	node_begin(f, "hash-2", "sha256");
	FDT(fdt_property(f, "value", data, 32));
	FDT(fdt_end_node(f));
	node_begin(f, "signature-1", "sha256,rsa2048");
	FDT(fdt_property_string(f, "key-name-hint", "dev"));
	FDT(fdt_end_node(f));
	FDT(fdt_end_node(f));
	node_begin(f, "fdt-1", NULL);
	FDT(fdt_property(f, "data", data, 100));
	node_begin(f, "hash-1", "sha1");
	FDT(fdt_end_node(f));
	FDT(fdt_end_node(f));
	FDT(fdt_end_node(f));
	node_begin(f, "configurations", NULL);
	node_begin(f, "conf-1", NULL);
	FDT(fdt_property_string(f, "kernel", "kernel"));
	node_begin(f, "signature-1", "sha256,rsa2048");
	FDT(fdt_property_string(f, "key-name-hint", "dev"));
	FDT(fdt_end_node(f));
	FDT(fdt_end_node(f));
	node_begin(f, "conf-2", NULL);
	node_begin(f, "signature", "sha1,rsa2048");
	FDT(fdt_end_node(f));
	FDT(fdt_end_node(f));
	FDT(fdt_end_node(f));
	FDT(fdt_end_node(f));
	FDT(fdt_finish(f));
	FDT(fdt_open_into(f, f, CAP));
	return f;
}

/* The two blobs alike but for totalsize (how much room each buffer has). */
static int same_blob(const char *a, const char *b)
{
	uint32_t used = fdt_off_dt_strings(b) + fdt_size_dt_strings(b);

	return fdt_off_dt_strings(a) == fdt_off_dt_strings(b) &&
	       fdt_size_dt_strings(a) == fdt_size_dt_strings(b) &&
	       fdt_size_dt_struct(a) == fdt_size_dt_struct(b) && !memcmp(a, b, 4) &&
	       !memcmp(a + 8, b + 8, used - 8);
}

static void one_sequence(int round, int writes)
{
	char *orig = make_fit(), *ref = malloc(CAP);
	struct vfit_fdtbuf fit = { malloc(CAP), CAP, 0, NULL, 0 };
	struct vfit_edits *ed;
	int node[NPATHS], w;
	size_t i, p;

	REQUIRE(ref && fit.buf, "memory");
	memcpy(ref, orig, CAP);
	memcpy(fit.buf, orig, CAP);
	for (i = 0; i < NPATHS; i++)
		REQUIRE((node[i] = fdt_path_offset(fit.buf, paths[i])) >= 0, "%s", paths[i]);
	ed = vfit_edits_new(fit.buf);
	REQUIRE(ed != NULL, "vfit_edits_new");
	/* Node by node in tree order, as mkimage hashes then signs (fdtedit.c). */
	for (w = 0, p = 0; w < writes; w++) {
		uint8_t val[80];
		size_t len = check_rand() % sizeof(val);
		const char *name = names[check_rand() % NNAMES];

		p += check_rand() % 4 == 0;
		if (p >= NPATHS)
			p = NPATHS - 1;

		check_rand_bytes(val, len);
		REQUIRE(!vfit_edits_set(ed, node[p], name, val, len), "vfit_edits_set");
		FDT(fdt_setprop(ref, fdt_path_offset(ref, paths[p]), name, val, (int)len));
	}
	REQUIRE(!vfit_edits_apply(ed, &fit), "vfit_edits_apply");
	CHECK(fdt_check_full(fit.buf, fit.cap) == 0 && same_blob(fit.buf, ref),
	      "round %d (%d writes): the blob differs from fdt_setprop()'s", round, writes);
	vfit_edits_free(ed);
	vfit_fdtbuf_free(&fit);
	free(ref);
	free(orig);
}

static void refusals(void)
{
	char *orig = make_fit();
	struct vfit_fdtbuf fit = { orig, CAP, 0, NULL, 0 }, other = { NULL, 0, 0, NULL, 0 };
	struct vfit_edits *ed = vfit_edits_new(fit.buf);
	int hash = fdt_path_offset(orig, "/images/kernel/hash-1");

	REQUIRE(ed && hash > 0, "setup");
	REQUIRE(!vfit_edits_set(ed, hash + 4, "value", "x", 1), "a write recorded");
	CHECK(vfit_edits_apply(ed, &fit) == -FDT_ERR_BADOFFSET,
	      "a write to an offset that starts no node applied");
	vfit_edits_free(ed);

	ed = vfit_edits_new(fit.buf);
	other.buf = malloc(CAP);
	other.cap = CAP;
	REQUIRE(ed && other.buf, "setup");
	memcpy(other.buf, fit.buf, CAP);
	REQUIRE(!vfit_edits_set(ed, hash, "value", "x", 1), "a write recorded");
	CHECK(vfit_edits_apply(ed, &other) == -FDT_ERR_BADSTATE && !memcmp(other.buf, orig, CAP),
	      "writes applied to another blob than they were recorded against");
	vfit_edits_free(ed);
	vfit_fdtbuf_free(&other);
	vfit_fdtbuf_free(&fit);
}

int main(void)
{
	int r;

	check_seed(1);
	for (r = 0; r < 200; r++)
		one_sequence(r, 1 + r % 40);
	refusals();
	return check_done();
}
