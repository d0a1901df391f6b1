/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The shared signer/verifier core on hand-built trees: the node list of
 * fit-format.md §3.3, the region walk of fit-format.md §3.4 (the END_NODE quirk, excluded
 * properties, NOPs, the region guard, the strings prefix), the format
 * checks' limits at their exact boundaries, algorithm names and result
 * strings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>
#include <openssl/sha.h>

#include "check.h"
#include "vfit/fit.h"

#define CAP 65536

static uint8_t blob[CAP];

/* A minimal valid FIT root; the caller adds nodes, then fin(). */
static void start(void)
{
	fdt_create(blob, CAP);
	fdt_finish_reservemap(blob);
	fdt_begin_node(blob, "");
	fdt_property_string(blob, "description", "t");
	fdt_property_u32(blob, "timestamp", 1);
}

static void fin(void)
{
	fdt_end_node(blob);
	fdt_finish(blob);
}

static void image(const char *name, int hashes, bool cipher)
{
	char h[16];
	int i;

	fdt_begin_node(blob, name);
	fdt_property(blob, "data", "abcd", 4);
	fdt_property_string(blob, "type", "kernel");
	for (i = 0; i < hashes; i++) {
		snprintf(h, sizeof(h), "hash-%d", i + 1);
		fdt_begin_node(blob, h);
		fdt_property_string(blob, "algo", "sha256");
		fdt_end_node(blob);
	}
	if (cipher) {
		fdt_begin_node(blob, "cipher");
		fdt_end_node(blob);
		fdt_begin_node(blob, "dm-verity");
		fdt_end_node(blob);
	}
	fdt_begin_node(blob, "signature-1");
	fdt_end_node(blob);
	fdt_end_node(blob);
}

static int node(const char *path)
{
	return fdt_path_offset(blob, path);
}

static bool listed(const struct vfit_node_list *l, const char *path)
{
	unsigned int i;

	for (i = 0; i < l->count; i++)
		if (l->offset[i] == node(path))
			return true;
	return false;
}

static void test_node_list(void)
{
	struct vfit_node_list l;
	int conf;

	start();
	fdt_begin_node(blob, "images");
	image("kernel", 2, true);
	image("fdt-1", 1, false);
	image("rd", 0, false);
	image("unused", 1, false);
	fdt_end_node(blob);
	fdt_begin_node(blob, "configurations");
	fdt_begin_node(blob, "c");
	fdt_property_string(blob, "description", "kernel");      /* skipped */
	fdt_property_string(blob, "compatible", "unused");       /* skipped */
	fdt_property(blob, "kernel", "kernel\0kernel", 14);      /* twice: once */
	fdt_property(blob, "fdt", "nope\0fdt-1", 11);           /* missing: skipped */
	fdt_property(blob, "custom", "unused", 6);               /* no NUL: nothing */
	fdt_end_node(blob);
	fdt_begin_node(blob, "nohash");
	fdt_property_string(blob, "ramdisk", "rd");
	fdt_end_node(blob);
	fdt_begin_node(blob, "none");
	fdt_property_string(blob, "kernel", "nope");
	fdt_end_node(blob);
	fdt_end_node(blob);
	fin();
	CHECK(vfit_fit_check(blob, fdt_totalsize(blob), 0, NULL) == VFIT_OK, "tree is valid");

	conf = node("/configurations/c");
	CHECK(vfit_conf_nodes(blob, conf, &l, NULL) == VFIT_OK, "node list");
	CHECK(l.count == 9, "count %u", l.count);
	CHECK(l.offset[0] == 0 && l.offset[1] == conf, "root and configuration first");
	CHECK(listed(&l, "/images/kernel") && listed(&l, "/images/kernel/hash-1") &&
	      listed(&l, "/images/kernel/hash-2") && listed(&l, "/images/kernel/cipher") &&
	      listed(&l, "/images/kernel/dm-verity"), "kernel and its hash/cipher/dm-verity");
	CHECK(listed(&l, "/images/fdt-1") && listed(&l, "/images/fdt-1/hash-1"), "fdt-1");
	CHECK(!listed(&l, "/images/unused") && !listed(&l, "/images/kernel/signature-1"),
	      "no unreferenced image, no signature node");
	CHECK(vfit_conf_nodes(blob, node("/configurations/nohash"), &l, NULL) == VFIT_ERR_NO_HASH,
	      "image without hash nodes");
	CHECK(vfit_conf_nodes(blob, node("/configurations/none"), &l, NULL) == VFIT_ERR_NO_IMAGES,
	      "no images");
}

static void test_list_limit(void)
{
	struct vfit_node_list l;
	char name[16];
	int i;

	/* /, the configuration, one image and 97 hash nodes: 100 entries fit; 101 do not. */
	for (i = 97; i <= 98; i++) {
		int j;

		start();
		fdt_begin_node(blob, "images");
		fdt_begin_node(blob, "k");
		for (j = 0; j < i; j++) {
			snprintf(name, sizeof(name), "hash-%d", j);
			fdt_begin_node(blob, name);
			fdt_end_node(blob);
		}
		fdt_end_node(blob);
		fdt_end_node(blob);
		fdt_begin_node(blob, "configurations");
		fdt_begin_node(blob, "c");
		fdt_property_string(blob, "kernel", "k");
		fdt_end_node(blob);
		fdt_end_node(blob);
		fin();
		CHECK(vfit_conf_nodes(blob, node("/configurations/c"), &l, NULL) ==
		      (i == 97 ? VFIT_OK : VFIT_ERR_LIMIT), "%d hash nodes", i);
	}
}

/* Bytes of the structure block in [a, b) (struct offsets) appended to m. */
static size_t span(uint8_t *m, size_t n, int a, int b)
{
	memcpy(m + n, blob + fdt_off_dt_struct(blob) + a, (size_t)(b - a));
	return n + (size_t)(b - a);
}

static void digest(const struct vfit_node_list *l, uint32_t s, uint8_t *out)
{
	struct vfit_hash_ctx h;

	vfit_hash_init(&h, VFIT_HASH_SHA256);
	CHECK(vfit_conf_digest(blob, l, s, &h) == VFIT_OK, "digest");
	vfit_hash_final(&h, out);
}

/* End offset of the token at off. */
static int after(int off)
{
	int next;

	fdt_next_tag(blob, off, &next);
	return next;
}

/*
 * / { p; a { q; b { c { r; data; data-size-unciphered; }; }; }; z { }; }
 * with the list {/, /a/b/c}: /a gets w=1, /a/b w=0, /a/b/c w=2.  Message:
 * root BEGIN + p, a BEGIN (q not), c BEGIN + r + data-size-unciphered +
 * c END, b END (quirk: right after an included token), a END, z BEGIN/END,
 * root END, FDT_END, then the strings prefix.
 */
static void test_regions(void)
{
	static const uint8_t nop[4] = { 0, 0, 0, 4 };
	uint8_t want[4096], got[32], exp[32];
	struct vfit_node_list l;
	int a, b, c, z, p, q, r, d, u, endc, endb, enda, endroot;
	size_t n = 0;

	start();
	fdt_property_u32(blob, "p", 1);
	fdt_begin_node(blob, "a");
	fdt_property_u32(blob, "q", 2);
	fdt_begin_node(blob, "b");
	fdt_begin_node(blob, "c");
	fdt_property_u32(blob, "r", 3);
	fdt_property(blob, "data", "xyz", 3);
	fdt_property_u32(blob, "data-size-unciphered", 3);
	fdt_end_node(blob);
	fdt_end_node(blob);
	fdt_end_node(blob);
	fdt_begin_node(blob, "z");
	fdt_end_node(blob);
	fdt_begin_node(blob, "images");
	fdt_end_node(blob);
	fin();
	fdt_open_into(blob, blob, CAP);
	CHECK(vfit_fit_check(blob, CAP, 0, NULL) == VFIT_OK, "tree is valid");

	a = node("/a");
	b = node("/a/b");
	c = node("/a/b/c");
	z = node("/z");
	p = fdt_first_property_offset(blob, 0);        /* timestamp, description, p */
	p = fdt_next_property_offset(blob, fdt_next_property_offset(blob, p));
	q = fdt_first_property_offset(blob, a);
	r = fdt_first_property_offset(blob, c);
	d = fdt_next_property_offset(blob, r);
	u = fdt_next_property_offset(blob, d);
	endc = after(u);
	endb = after(endc);
	enda = after(endb);
	endroot = (int)fdt_size_dt_struct(blob) - 8;

	n = span(want, n, 0, after(p));                /* root, its 3 properties */
	n = span(want, n, a, q);                       /* a BEGIN */
	n = span(want, n, c, d);                       /* c BEGIN, r */
	n = span(want, n, u, after(endc));             /* data-size-unciphered, c END */
	n = span(want, n, endb, after(enda));          /* b END (quirk), a END */
	n = span(want, n, z, endroot + 8);             /* z, images, root END, FDT_END */
	memcpy(want + n, blob + fdt_off_dt_strings(blob), 7);
	n += 7;
	SHA256(want, n, exp);          /* OpenSSL, not the code under test */

	l.count = 2;
	l.offset[0] = 0;
	l.offset[1] = c;
	digest(&l, 7, got);
	CHECK(!memcmp(got, exp, 32), "message with the END_NODE quirk");
	(void)b;

	/* Listing b too: its tokens are then hashed in full (no quirk needed). */
	l.offset[2] = b;
	l.count = 3;
	n = 0;
	n = span(want, n, 0, after(p));
	n = span(want, n, a, q);
	n = span(want, n, b, d);
	n = span(want, n, u, endroot + 8);
	memcpy(want + n, blob + fdt_off_dt_strings(blob), 7);
	SHA256(want, n + 7, exp);
	digest(&l, 7, got);
	CHECK(!memcmp(got, exp, 32), "message with b listed");

	/* A NOP in a listed node is hashed, one in a w=1 node is not. */
	l.count = 2;
	digest(&l, 7, exp);
	memmove(blob + fdt_off_dt_struct(blob) + q + 4, blob + fdt_off_dt_struct(blob) + q,
		fdt_size_dt_struct(blob) - (uint32_t)q + fdt_size_dt_strings(blob));
	memcpy(blob + fdt_off_dt_struct(blob) + q, nop, 4);
	fdt_set_size_dt_struct(blob, fdt_size_dt_struct(blob) + 4);
	fdt_set_off_dt_strings(blob, fdt_off_dt_strings(blob) + 4);
	l.offset[1] = node("/a/b/c");
	digest(&l, 7, got);
	CHECK(!memcmp(got, exp, 32), "NOP in a w=1 node not hashed");
	l.offset[1] = node("/a");
	digest(&l, 7, exp);
	l.offset[1] = node("/a/b/c");
	l.offset[2] = node("/a");
	l.count = 3;
	digest(&l, 7, got);
	CHECK(memcmp(got, exp, 32) != 0, "different lists, different messages");

	/* Strings prefix bounds. */
	{
		struct vfit_hash_ctx h;

		vfit_hash_init(&h, VFIT_HASH_SHA256);
		CHECK(vfit_conf_digest(blob, &l, fdt_size_dt_strings(blob) + 1, &h) ==
		      VFIT_ERR_STRINGS_BOUNDS, "strings beyond the block");
		CHECK(vfit_conf_digest(blob, &l, fdt_size_dt_strings(blob), &h) == VFIT_OK,
		      "whole strings block");
	}
}

/* More than 18 + 7n regions (n = 1): alternate hashed and excluded properties. */
static void test_region_guard(void)
{
	struct vfit_node_list l;
	struct vfit_hash_ctx h;
	int i, k;

	for (k = 11; k <= 13; k++) {
		start();
		for (i = 0; i < k * 2; i++) {
			fdt_property_u32(blob, "x", 1);
			fdt_property_u32(blob, "data", 1);
		}
		fdt_begin_node(blob, "images");
		fdt_end_node(blob);
		fin();
		l.count = 1;
		l.offset[0] = 0;
		vfit_hash_init(&h, VFIT_HASH_SHA256);
		/* 2k + 1 regions: up to 25 allowed. */
		CHECK(vfit_conf_digest(blob, &l, 0, &h) == (2 * k + 1 <= 25 ? VFIT_OK : VFIT_ERR_LIMIT),
		      "%d regions", 2 * k + 1);
	}
}

/* Depth and path limits at their boundaries. */
static void test_limits(void)
{
	char name[256];
	int depth, i, len;

	for (depth = 31; depth <= 32; depth++) {
		start();
		fdt_begin_node(blob, "images");
		fdt_end_node(blob);
		for (i = 0; i < depth; i++)
			fdt_begin_node(blob, "d");
		for (i = 0; i < depth; i++)
			fdt_end_node(blob);
		fin();
		CHECK(vfit_fit_check(blob, fdt_totalsize(blob), 0, NULL) ==
		      (depth < 32 ? VFIT_OK : VFIT_ERR_LIMIT), "depth %d below the root", depth);
	}
	/* /images/<name>: parent path 7 + name + 2 must stay below 200. */
	for (len = 190; len <= 191; len++) {
		memset(name, 'n', sizeof(name));
		name[len] = 0;
		start();
		fdt_begin_node(blob, "images");
		fdt_begin_node(blob, name);
		fdt_end_node(blob);
		fdt_end_node(blob);
		fin();
		CHECK(vfit_fit_check(blob, fdt_totalsize(blob), 0, NULL) ==
		      (len == 190 ? VFIT_OK : VFIT_ERR_LIMIT), "name of %d bytes", len);
	}
	/* Mandatory parts. */
	fdt_create(blob, CAP);
	fdt_finish_reservemap(blob);
	fdt_begin_node(blob, "");
	fdt_property_string(blob, "description", "t");
	fdt_property_u32(blob, "timestamp", 1);
	fdt_end_node(blob);
	fdt_finish(blob);
	CHECK(vfit_fit_check(blob, fdt_totalsize(blob), 0, NULL) == VFIT_ERR_MISSING, "no /images");
	CHECK(vfit_fit_check(blob, 39, 0, NULL) == VFIT_ERR_TRUNCATED, "short header");
	blob[0] ^= 1;
	CHECK(vfit_fit_check(blob, fdt_totalsize(blob), 0, NULL) == VFIT_ERR_FORMAT, "bad magic");
}

static void test_algo_names(void)
{
	static const struct {
		const char *s;
		enum vfit_hash h;
		uint32_t bits;
	} good[] = {
		{ "sha1,rsa2048", VFIT_HASH_SHA1, 2048 },
		{ "sha256,rsa2048", VFIT_HASH_SHA256, 2048 },
		{ "sha256,rsa3072", VFIT_HASH_SHA256, 3072 },
		{ "sha384,rsa3072", VFIT_HASH_SHA384, 3072 },
		{ "sha512,rsa4096", VFIT_HASH_SHA512, 4096 },
		{ "sha256,ecdsa256", VFIT_HASH_SHA256, 256 },
		{ "sha1,ecdsa384", VFIT_HASH_SHA1, 384 },
	};
	static const char *const bad[] = {
		"sha256", ",rsa2048", "sha256,", "sha256,rsa1024", "sha256,rsa2048x",
		"SHA256,rsa2048", "md5,rsa2048", "crc32,rsa2048", "sha224,rsa2048",
		"sha512,secp521r1", "sha256,ecdsa521", "sha256,rsa2048,sha1", "sha256 ,rsa2048",
	};
	struct vfit_algo a;
	unsigned int i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECK(vfit_algo_parse(good[i].s, (int)strlen(good[i].s) + 1, &a) == VFIT_OK &&
		      a.hash == good[i].h && a.sig->key_bits == good[i].bits, "%s", good[i].s);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(vfit_algo_parse(bad[i], (int)strlen(bad[i]) + 1, &a) == VFIT_ERR_UNSUPPORTED,
		      "%s refused", bad[i]);
	CHECK(vfit_algo_parse("sha256,rsa2048", 14, &a) == VFIT_ERR_UNSUPPORTED, "no NUL");
	CHECK(vfit_algo_parse("sha256,rsa2048\0x", 17, &a) == VFIT_ERR_UNSUPPORTED, "two strings");
	CHECK(vfit_algo_parse("", 0, &a) == VFIT_ERR_UNSUPPORTED, "empty");
}

static void test_strings(void)
{
	unsigned int r, s;

	for (r = 0; r <= VFIT_ERR_CONTROL; r++) {
		const char *a = vfit_result_to_string((enum vfit_result)r);

		CHECK(strcmp(a, "unknown error") != 0, "code %u has a string", r);
		for (s = 0; s < r; s++)
			CHECK(strcmp(a, vfit_result_to_string((enum vfit_result)s)) != 0,
			      "codes %u and %u differ", s, r);
	}
	CHECK(!strcmp(vfit_result_to_string((enum vfit_result)999), "unknown error"), "999");
}

int main(void)
{
	test_node_list();
	test_list_limit();
	test_regions();
	test_region_guard();
	test_limits();
	test_algo_names();
	test_strings();
	return check_done();
}
