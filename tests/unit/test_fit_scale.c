/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The verifier's work is linear in the FIT, measured in operations, never
 * in time.  Every FDT tag step anyone takes (the verifier or libfdt on its
 * behalf) goes through fdt_next_tag(), which this program interposes and
 * counts; every byte hashed goes through vfit_hash_update(), which the
 * Makefile wraps (--wrap) for this test.
 *
 *  - A validly signed FIT padded, where no signature looks, with a node of
 *    a million FDT_NOP tags followed by thousands of empty siblings (the
 *    red team's denial of service: 40 s before the fix) verifies in a few
 *    passes over its tags, at two sizes, growing with the size alone.
 *  - A FIT with thousands of device trees and one signed configuration
 *    each (Linux's make_fit.py layout) verifies one configuration in a
 *    few passes, at N and 2N, and never hashes another configuration's
 *    images.
 *  - An image whose hash nodes interleave algorithms is hashed once per
 *    algorithm, and hash or signature nodes past their limits are refused.
 *  - Property names are read in bounded time: libfdt's fdt_get_string()
 *    scans a name to its NUL on every read (interposed here to count the
 *    bytes), so thousands of unsigned properties naming one huge string
 *    made every lookup pass quadratic; such a name is now refused, and
 *    names of the longest allowed length cost bytes in proportion.
 */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

#include "check.h"
#include "vfit/fit.h"
#include "vfit-host/host.h"
#include "../fuzz/fuzz_ctl.h"

static unsigned long steps, hashed, scanned;

uint32_t fdt_next_tag(const void *blob, int offset, int *nextoffset)
{
	static uint32_t (*real)(const void *, int, int *);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "fdt_next_tag");
	steps++;
	return real(blob, offset, nextoffset);
}

const char *fdt_get_string(const void *blob, int stroffset, int *lenp)
{
	static const char *(*real)(const void *, int, int *);
	const char *s;
	int len;

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "fdt_get_string");
	s = real(blob, stroffset, &len);
	if (s)
		scanned += (unsigned long)len + 1;
	if (lenp)
		*lenp = len;
	return s;
}

void __real_vfit_hash_update(struct vfit_hash_ctx *c, const void *p, size_t n);
void __wrap_vfit_hash_update(struct vfit_hash_ctx *c, const void *p, size_t n);
void __wrap_vfit_hash_update(struct vfit_hash_ctx *c, const void *p, size_t n)
{
	hashed += n;
	__real_vfit_hash_update(c, p, n);
}

static struct vfit_verify_result res;

/* Tags in the structure block, counted by a walk of our own (not counted). */
static unsigned long count_tags(const void *blob)
{
	const uint8_t *p = (const uint8_t *)blob + fdt_off_dt_struct(blob);
	uint32_t off = 0, size = fdt_size_dt_struct(blob), tag, len;
	unsigned long n = 0;

	while (off < size) {
		tag = fdt32_ld((const fdt32_t *)(p + off));
		off += 4;
		n++;
		if (tag == FDT_BEGIN_NODE)
			off += (uint32_t)(strlen((const char *)p + off) + 4) & ~3u;
		else if (tag == FDT_PROP) {
			len = fdt32_ld((const fdt32_t *)(p + off));
			off += 8 + ((len + 3) & ~3u);
		} else if (tag == FDT_END)
			break;
	}
	return n;
}

/* ---- the denial of service -------------------------------------------------- */

/*
 * The signed seed FIT with, under /images (outside every signed region),
 * a node holding `nops` FDT_NOP tags placed before `sibs` empty siblings.
 */
static uint8_t *padded(long nops, long sibs, size_t *len)
{
	size_t n, cap;
	char *seed = check_read_file("tests/fuzz/corpus/fuzz_verify/conf-sha256", &n);
	uint8_t *b;
	char name[32];
	void *p;
	long i;
	int images, pad;

	cap = n + (size_t)nops * 4 + (size_t)sibs * 16 + 65536;
	b = calloc(1, cap);
	/* The seed's first byte is the fuzz selector; libfdt wants the FIT 8-byte aligned. */
	memmove(seed, seed + 1, n - 1);
	if (fdt_open_into(seed, b, (int)cap))
		abort();
	images = fdt_path_offset(b, "/images");
	/* libfdt adds a subnode first among its siblings: add the siblings, then the pad. */
	for (i = 0; i < sibs; i++) {
		snprintf(name, sizeof(name), "s%ld", i);
		if (fdt_add_subnode(b, images, name) < 0)
			abort();
	}
	pad = fdt_add_subnode(b, fdt_path_offset(b, "/images"), "pad");
	if (pad < 0 || fdt_setprop_placeholder(b, pad, "x", (int)(nops * 4 - 12), &p))
		abort();
	FDT(fdt_nop_property(b, fdt_path_offset(b, "/images/pad"), "x"));
	FDT(fdt_pack(b));
	*len = fdt_totalsize(b);
	free(seed);
	return b;
}

static void test_nop_flood(void)
{
	unsigned long s[2], t[2];
	long scale;
	size_t len;
	int i;

	for (i = 0; i < 2; i++) {
		scale = i ? 4 : 1;
		uint8_t *b = padded(250000 * scale, 1000 * scale, &len);

		t[i] = count_tags(b);
		steps = 0;
		CHECK(vfit_verify(b, len, fuzz_ctl[0].p, fuzz_ctl[0].len, NULL, 0, &res) == VFIT_OK,
		      "padded FIT (%ld NOPs, %ld siblings) verifies: %s", 250000 * scale,
		      1000 * scale, vfit_result_to_string(res.result));
		s[i] = steps;
		printf("  NOP flood x%ld: %lu tags, %lu tag steps (%.2f per tag)\n", scale, t[i],
		       s[i], (double)s[i] / (double)t[i]);
		/* Format walk (libfdt's and ours), root children, /images, regions. */
		CHECK(s[i] <= 8 * t[i], "x%ld: at most 8 steps per tag (%lu for %lu)", scale, s[i],
		      t[i]);
		free(b);
	}
	CHECK(s[1] * 10 <= s[0] * 4 * 11, "4x the FIT, at most 4.4x the steps (%lu -> %lu)", s[0],
	      s[1]);
}

/*
 * The signed seed FIT with `props` empty properties on /configurations
 * (unsigned: its properties are outside every region) that all name one
 * string of `name_len` characters, appended to the strings block after
 * what the signature covers.  Looking up `default` reads every one.
 */
static uint8_t *named(long props, size_t name_len, size_t *len)
{
	size_t n, cap;
	char *seed = check_read_file("tests/fuzz/corpus/fuzz_verify/conf-sha256", &n);
	char *name = malloc(name_len + 1);
	uint8_t *b;
	long i;
	int pad;

	memset(name, 'p', name_len);
	name[name_len] = 0;
	cap = n + (size_t)props * 16 + name_len + 65536;
	b = calloc(1, cap);
	memmove(seed, seed + 1, n - 1);
	if (fdt_open_into(seed, b, (int)cap))
		abort();
	pad = fdt_path_offset(b, "/configurations");
	if (pad < 0 || fdt_setprop(b, pad, name, NULL, 0))
		abort();
	/* The same property again and again: libfdt's setprop would find the first. */
	for (i = 1; i < props; i++) {
		const uint8_t *first = b + fdt_off_dt_struct(b) + fdt_first_property_offset(b, pad);
		uint8_t *st = b + fdt_off_dt_struct(b);
		size_t used = fdt_off_dt_strings(b) + fdt_size_dt_strings(b);
		size_t at = (size_t)(first - st);

		memmove(st + at + 12, st + at, used - fdt_off_dt_struct(b) - at);
		memcpy(st + at, first + 12, 12);
		fdt_set_size_dt_struct(b, fdt_size_dt_struct(b) + 12);
		fdt_set_off_dt_strings(b, fdt_off_dt_strings(b) + 12);
	}
	fdt_pack(b);
	*len = fdt_totalsize(b);
	free(name);
	free(seed);
	return b;
}

static void test_long_names(void)
{
	unsigned long s[2];
	size_t len;
	int i;

	for (i = 0; i < 2; i++) {
		long props = i ? 40000 : 20000;
		uint8_t *b = named(props, 1 << 20, &len);

		scanned = 0;
		CHECK(vfit_verify(b, len, fuzz_ctl[0].p, fuzz_ctl[0].len, NULL, 0, &res) ==
		      VFIT_ERR_FORMAT, "%ld properties naming a 1 MiB string: refused (%s)", props,
		      vfit_result_to_string(res.result));
		CHECK(scanned < 4096, "the 1 MiB name is never scanned (%lu bytes)", scanned);
		free(b);
		/* The longest name allowed: accepted, and every read is bounded by it. */
		b = named(props, VFIT_PROP_NAME_MAX, &len);
		scanned = 0;
		CHECK(vfit_verify(b, len, fuzz_ctl[0].p, fuzz_ctl[0].len, NULL, 0, &res) == VFIT_OK,
		      "%ld properties naming a %d-byte string verify: %s", props, VFIT_PROP_NAME_MAX,
		      vfit_result_to_string(res.result));
		s[i] = scanned;
		printf("  %ld properties, %d-byte name (%zu bytes): %lu name bytes read\n", props,
		       VFIT_PROP_NAME_MAX, len, scanned);
		CHECK(scanned <= 2 * (unsigned long)props * (VFIT_PROP_NAME_MAX + 1) + 65536,
		      "each name read at most twice (%lu bytes for %ld names)", scanned, props);
		free(b);
	}
	CHECK(s[1] * 10 <= s[0] * 2 * 11, "2x the properties, at most 2.2x the name bytes (%lu -> %lu)",
	      s[0], s[1]);
}

/* ---- thousands of device trees ------------------------------------------------ */

static EVP_PKEY *key;
static uint8_t *ctl;

/* A make_fit.py-like FIT: kernel, fdt-1..n, conf-1..n each {kernel, fdt-i, signature-1}. */
static uint8_t *many_dtbs(int n, size_t *len)
{
	size_t cap = (size_t)n * 1024 + 65536;
	uint8_t *b = calloc(1, cap), dtb[256], h[32];
	static const uint8_t zero[8];
	char name[32];
	int i;

	fdt_create(b, (int)cap);
	fdt_finish_reservemap(b);
	fdt_begin_node(b, "");
	fdt_property_string(b, "description", "dtbs");
	fdt_property_u32(b, "timestamp", 1);
	fdt_begin_node(b, "images");
	for (i = 0; i <= n; i++) {
		memset(dtb, i & 0xff, sizeof(dtb));
		snprintf(name, sizeof(name), i ? "fdt-%d" : "kernel", i);
		fdt_begin_node(b, name);
		fdt_property_string(b, "description", name);
		fdt_property(b, "data", dtb, sizeof(dtb));
		fdt_property_string(b, "type", i ? "flat_dt" : "kernel");
		fdt_property_string(b, "arch", "arm64");
		fdt_property_string(b, "compression", "none");
		fdt_begin_node(b, "hash-1");
		fdt_property_string(b, "algo", "sha256");
		vfit_hash(VFIT_HASH_SHA256, dtb, sizeof(dtb), h);
		fdt_property(b, "value", h, 32);
		fdt_end_node(b);
		fdt_end_node(b);
	}
	fdt_end_node(b);
	fdt_begin_node(b, "configurations");
	fdt_property_string(b, "default", "conf-1");
	for (i = 1; i <= n; i++) {
		snprintf(name, sizeof(name), "conf-%d", i);
		fdt_begin_node(b, name);
		fdt_property_string(b, "kernel", "kernel");
		snprintf(name, sizeof(name), "fdt-%d", i);
		fdt_property_string(b, "fdt", name);
		fdt_begin_node(b, "signature-1");
		fdt_property_string(b, "algo", "sha256,rsa2048");
		fdt_property_string(b, "key-name-hint", "dev");
		fdt_property(b, "value", dtb, 256);
		fdt_property(b, "hashed-strings", zero, 8);
		fdt_end_node(b);
		fdt_end_node(b);
	}
	fdt_end_node(b);
	fdt_end_node(b);
	fdt_finish(b);
	*len = fdt_totalsize(b);
	return b;
}

/* Signs configuration conf_name of b in place, as mkimage would. */
static void sign(uint8_t *b, const char *conf_name)
{
	char path[64];
	int conf, sig;
	struct vfit_node_list list;
	struct vfit_hash_ctx h;
	uint8_t digest[32], out[256];
	size_t olen = sizeof(out);
	uint32_t cells[2] = { 0, cpu_to_fdt32(fdt_size_dt_strings(b)) };
	EVP_PKEY_CTX *c;

	snprintf(path, sizeof(path), "/configurations/%s", conf_name);
	conf = fdt_path_offset(b, path);
	snprintf(path, sizeof(path), "/configurations/%s/signature-1", conf_name);
	sig = fdt_path_offset(b, path);
	FDT(fdt_setprop_inplace(b, sig, "hashed-strings", cells, 8));
	if (vfit_conf_nodes(b, conf, &list, NULL))
		abort();
	vfit_hash_init(&h, VFIT_HASH_SHA256);
	if (vfit_conf_digest(b, &list, fdt_size_dt_strings(b), &h))
		abort();
	vfit_hash_final(&h, digest);
	c = EVP_PKEY_CTX_new(key, NULL);
	EVP_PKEY_sign_init(c);
	EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING);
	EVP_PKEY_CTX_set_signature_md(c, EVP_sha256());
	if (EVP_PKEY_sign(c, out, &olen, digest, 32) <= 0)
		abort();
	EVP_PKEY_CTX_free(c);
	FDT(fdt_setprop_inplace(b, sig, "value", out, 256));
}

static void test_many_dtbs(void)
{
	static const int sizes[2] = { 1500, 3000 };
	unsigned long s[2], t[2];
	size_t len;
	char conf[32];
	int i;

	for (i = 0; i < 2; i++) {
		uint8_t *b = many_dtbs(sizes[i], &len);

		snprintf(conf, sizeof(conf), "conf-%d", sizes[i] / 2);
		sign(b, conf);
		t[i] = count_tags(b);
		steps = hashed = 0;
		CHECK(vfit_verify(b, len, ctl, 16384, conf, 0, &res) == VFIT_OK,
		      "%d DTBs: %s verifies: %s", sizes[i], conf, vfit_result_to_string(res.result));
		s[i] = steps;
		printf("  %d DTBs (%zu bytes): %lu tags, %lu tag steps (%.2f per tag), %lu bytes "
		       "hashed\n", sizes[i], len, t[i], s[i], (double)s[i] / (double)t[i], hashed);
		CHECK(s[i] <= 8 * t[i], "%d DTBs: at most 8 steps per tag (%lu for %lu)", sizes[i],
		      s[i], t[i]);
		/* Two images of 256 bytes and the signed message; nothing else. */
		CHECK(hashed < 4096, "%d DTBs: only the configuration's images hashed (%lu bytes)",
		      sizes[i], hashed);
		/* Another configuration of the same FIT is refused: not signed. */
		CHECK(vfit_verify(b, len, ctl, 16384, "conf-1", 0, &res) == VFIT_ERR_REQUIRED,
		      "%d DTBs: an unsigned configuration is refused", sizes[i]);
		free(b);
	}
	CHECK(s[1] * 10 <= s[0] * 2 * 11, "2x the DTBs, at most 2.2x the steps (%lu -> %lu)",
	      s[0], s[1]);
}

/*
 * vfit_conf_digest_skip() (the signer's, with a subtree index) must give
 * the message of the full walk for every configuration, on the DTB FIT
 * and on every FIT of the fuzz corpus.
 */
static int32_t *ends(const void *b)
{
	int32_t *end = calloc(fdt_size_dt_struct(b) / 4 + 1, sizeof(*end));
	int stack[64], depth = 0, off = 0, next;
	uint32_t tag;

	do {
		tag = fdt_next_tag(b, off, &next);
		if (tag == FDT_BEGIN_NODE && depth < 64)
			stack[depth++] = off;
		else if (tag == FDT_END_NODE && depth > 0)
			end[stack[--depth] / 4] = next;
		off = next;
	} while (tag != FDT_END && next >= 0);
	return end;
}

static unsigned int same_digests(const void *b)
{
	int32_t *end = ends(b);
	int confs = fdt_path_offset(b, "/configurations"), conf;
	struct vfit_node_list list;
	struct vfit_hash_ctx h;
	uint8_t d1[32], d2[32];
	enum vfit_result r1, r2;
	unsigned int n = 0;

	fdt_for_each_subnode(conf, b, confs) {
		if (vfit_conf_nodes(b, conf, &list, NULL))
			continue;
		vfit_hash_init(&h, VFIT_HASH_SHA256);
		r1 = vfit_conf_digest(b, &list, fdt_size_dt_strings(b), &h);
		vfit_hash_final(&h, d1);
		vfit_hash_init(&h, VFIT_HASH_SHA256);
		r2 = vfit_conf_digest_skip(b, &list, fdt_size_dt_strings(b), end, &h);
		vfit_hash_final(&h, d2);
		CHECK(!r1 && !r2 && !memcmp(d1, d2, 32), "skipping walk = full walk for %s",
		      fdt_get_name(b, conf, NULL));
		n++;
	}
	free(end);
	return n;
}

static void test_skip_walk(void)
{
	static const char *const seeds[] = {
		"conf-sha256", "conf-pss-sha1", "conf-ext", "conf-ext-pos", "image-sigs",
	};
	unsigned int i, n = 0;
	size_t len;
	char path[128];
	char *raw;
	uint8_t *b = many_dtbs(300, &len);

	n += same_digests(b);
	free(b);
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		snprintf(path, sizeof(path), "tests/fuzz/corpus/fuzz_verify/%s", seeds[i]);
		raw = check_read_file(path, &len);
		b = malloc(len);
		memcpy(b, raw + 1, len - 1);
		n += same_digests(b);
		free(b);
		free(raw);
	}
	CHECK(n >= 305, "digests compared: %u", n);
}

/* ---- hash and signature nodes ----------------------------------------------- */

/* One image with the given hash algorithms (hash-1..), `sigs` signature nodes in conf. */
static uint8_t *hashes_fit(const enum vfit_hash *algos, int n, int sigs, size_t size,
			   size_t *len)
{
	size_t cap = size + 65536;
	uint8_t *b = calloc(1, cap), *data = calloc(1, size < 256 ? 256 : size);
	uint8_t h[VFIT_HASH_MAX_SIZE];
	char name[32];
	int i;

	memset(data, 0x5a, size);
	fdt_create(b, (int)cap);
	fdt_finish_reservemap(b);
	fdt_begin_node(b, "");
	fdt_property_string(b, "description", "hashes");
	fdt_property_u32(b, "timestamp", 1);
	fdt_begin_node(b, "images");
	fdt_begin_node(b, "kernel");
	fdt_property(b, "data", data, (int)size);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "hash-%d", i + 1);
		fdt_begin_node(b, name);
		fdt_property_string(b, "algo", vfit_hash_name(algos[i]));
		vfit_hash(algos[i], data, size, h);
		fdt_property(b, "value", h, (int)vfit_hash_size(algos[i]));
		fdt_end_node(b);
	}
	fdt_end_node(b);
	fdt_end_node(b);
	fdt_begin_node(b, "configurations");
	fdt_property_string(b, "default", "conf-1");
	fdt_begin_node(b, "conf-1");
	fdt_property_string(b, "kernel", "kernel");
	for (i = 0; i < sigs; i++) {
		snprintf(name, sizeof(name), "signature-%d", i + 1);
		fdt_begin_node(b, name);
		fdt_property_string(b, "algo", "sha256,rsa2048");
		fdt_property(b, "value", data, 256);
		fdt_end_node(b);
	}
	fdt_end_node(b);
	fdt_end_node(b);
	fdt_end_node(b);
	fdt_finish(b);
	free(data);
	*len = fdt_totalsize(b);
	return b;
}

static void test_hash_nodes(void)
{
	static const enum vfit_hash mix[] = {
		VFIT_HASH_SHA1, VFIT_HASH_SHA256, VFIT_HASH_SHA1, VFIT_HASH_SHA256,
		VFIT_HASH_SHA512, VFIT_HASH_SHA1, VFIT_HASH_CRC32, VFIT_HASH_SHA256,
		VFIT_HASH_CRC32, VFIT_HASH_SHA512, VFIT_HASH_SHA1, VFIT_HASH_SHA256,
		VFIT_HASH_MD5, VFIT_HASH_SHA1, VFIT_HASH_MD5, VFIT_HASH_SHA256,
		VFIT_HASH_SHA1,
	};
	const size_t size = 1 << 20;
	void *none = calloc(1, 16384);
	size_t len;
	uint8_t *b;

	FDT(fdt_create_empty_tree(none, 16384));
	/* 16 nodes over 5 algorithms: the payload is hashed 5 times, not 16. */
	b = hashes_fit(mix, 16, 0, size, &len);
	hashed = 0;
	CHECK(vfit_verify(b, len, none, 16384, NULL, VFIT_VERIFY_ALLOW_UNENFORCED, &res) ==
	      VFIT_OK, "16 interleaved hash nodes verify: %s", vfit_result_to_string(res.result));
	CHECK(hashed == 5 * size, "hashed once per algorithm: %lu bytes for 5 x %zu", hashed, size);
	free(b);
	/* One more is past VFIT_MAX_HASHES. */
	b = hashes_fit(mix, VFIT_MAX_HASHES + 1, 0, 64, &len);
	CHECK(vfit_verify(b, len, none, 16384, NULL, VFIT_VERIFY_ALLOW_UNENFORCED, &res) ==
	      VFIT_ERR_LIMIT && res.err_limit == VFIT_LIMIT_HASHES &&
	      !strcmp(res.err_path, "/images/kernel/hash-17"),
	      "17 hash nodes: limit at hash-17 (%s, %s)", vfit_result_to_string(res.result),
	      res.err_path);
	free(b);
	/* Signature nodes past VFIT_MAX_SIGNATURES, with a required key to try. */
	b = hashes_fit(mix, 1, VFIT_MAX_SIGNATURES + 1, 64, &len);
	CHECK(vfit_verify(b, len, ctl, 16384, NULL, 0, &res) == VFIT_ERR_LIMIT &&
	      res.err_limit == VFIT_LIMIT_SIGNATURES &&
	      !strcmp(res.err_path, "/configurations/conf-1/signature-17"),
	      "17 signature nodes: limit at signature-17 (%s, %s)",
	      vfit_result_to_string(res.result), res.err_path);
	free(b);
	b = hashes_fit(mix, 1, VFIT_MAX_SIGNATURES, 64, &len);
	CHECK(vfit_verify(b, len, ctl, 16384, NULL, 0, &res) == VFIT_ERR_REQUIRED,
	      "16 (bad) signature nodes are all tried: %s", vfit_result_to_string(res.result));
	free(b);
	free(none);
}

/* ---- the policy's and the configuration's limits ----------------------------- */

/* A control FDT with n key nodes, `required` ones marked "conf" (the first ones). */
static void *many_keys(int n, int required)
{
	void *c = calloc(1, 65536);
	char name[32];
	int keys, k, i;

	FDT(fdt_create_empty_tree(c, 65536));
	keys = fdt_add_subnode(c, 0, "signature");
	FDT(keys);
	for (i = n - 1; i >= 0; i--) {
		snprintf(name, sizeof(name), "key-%d", i);
		k = fdt_add_subnode(c, keys, name);
		FDT(k);
		if (i < required)
			FDT(fdt_setprop_string(c, k, "required", "conf"));
	}
	return c;
}

/* hashes_fit()'s FIT whose conf-1 also names n distinct strings in `loadables`. */
static uint8_t *many_refs(int n, size_t *len)
{
	static const enum vfit_hash crc = VFIT_HASH_CRC32;
	char list[4096], *p = list;
	uint8_t *b = hashes_fit(&crc, 1, 0, 64, len);
	int i;

	for (i = 0; i < n; i++)
		p += sprintf(p, "image-%d", i) + 1;
	FDT(fdt_open_into(b, b, 64 + 65536));
	FDT(fdt_setprop(b, fdt_path_offset(b, "/configurations/conf-1"), "loadables", list,
			(int)(p - list)));
	FDT(fdt_pack(b));
	*len = fdt_totalsize(b);
	return b;
}

static void test_limits(void)
{
	struct vfit_diag d;
	struct vfit_conf_refs refs;
	enum vfit_result r;
	void *c;
	uint8_t *b;
	size_t len;

	/* VFIT_MAX_KEYS required keys fit the policy's bits; one more is refused. */
	c = many_keys(VFIT_MAX_KEYS + 8, VFIT_MAX_KEYS);
	CHECK(vfit_control_check(c, 65536, NULL) == VFIT_OK, "%d required keys (and 8 others)",
	      VFIT_MAX_KEYS);
	free(c);
	c = many_keys(VFIT_MAX_KEYS + 1, VFIT_MAX_KEYS + 1);
	d.limit = VFIT_LIMIT_NONE;
	CHECK(vfit_control_check(c, 65536, &d) == VFIT_ERR_CONTROL && d.limit == VFIT_LIMIT_KEYS,
	      "%d required keys refused (limit %d)", VFIT_MAX_KEYS + 1, (int)d.limit);
	r = vfit_verify(ctl, 16384, c, 65536, NULL, 0, &res);
	CHECK(r == VFIT_ERR_CONTROL && res.in_control,
	      "...and by vfit_verify, before any FIT is read: %s",
	      vfit_result_to_string(res.result));
	free(c);

	/* VFIT_MAX_CONF_REFS strings named by one configuration; one more is refused. */
	b = many_refs(VFIT_MAX_CONF_REFS - 1, &len);
	CHECK(vfit_conf_refs(b, fdt_path_offset(b, "/configurations/conf-1"), &refs, NULL) ==
	      VFIT_OK && refs.n == VFIT_MAX_CONF_REFS, "%d references (kernel + %d loadables)",
	      VFIT_MAX_CONF_REFS, VFIT_MAX_CONF_REFS - 1);
	free(b);
	b = many_refs(VFIT_MAX_CONF_REFS, &len);
	d.limit = VFIT_LIMIT_NONE;
	CHECK(vfit_conf_refs(b, fdt_path_offset(b, "/configurations/conf-1"), &refs, &d) ==
	      VFIT_ERR_LIMIT && d.limit == VFIT_LIMIT_CONF_REFS && refs.n == VFIT_MAX_CONF_REFS,
	      "%d references refused", VFIT_MAX_CONF_REFS + 1);
	r = vfit_verify(b, len, ctl, 16384, NULL, 0, &res);
	CHECK(r == VFIT_ERR_LIMIT && res.err_limit == VFIT_LIMIT_CONF_REFS &&
	      !strcmp(res.err_path, "/configurations/conf-1") && res.err_prop &&
	      (!strcmp(res.err_prop, "loadables") || !strcmp(res.err_prop, "kernel")),
	      "vfit_verify: limit at %s %s (%s)",
	      res.err_path, res.err_prop ? res.err_prop : "", vfit_result_to_string(res.result));
	free(b);
}

/* Every limit has its own name for logs; a value past the list is "unknown limit". */
static void test_limit_names(void)
{
	const char *seen[VFIT_LIMIT_KEYS + 1];
	unsigned int i, j;

	for (i = 0; i <= VFIT_LIMIT_KEYS; i++) {
		seen[i] = vfit_limit_to_string((enum vfit_limit)i);
		for (j = 0; j < i && strcmp(seen[j], seen[i]); j++)
			;
		CHECK(j == i && strcmp(seen[i], "unknown limit"), "limit %u: its own name \"%s\"", i,
		      seen[i]);
	}
	CHECK(strstr(vfit_limit_to_string(VFIT_LIMIT_CONF_REFS), "VFIT_MAX_CONF_REFS") != NULL,
	      "a limit's name says its knob");
	CHECK(!strcmp(vfit_limit_to_string((enum vfit_limit)(VFIT_LIMIT_KEYS + 1)), "unknown limit"),
	      "past the last limit: \"unknown limit\"");
}

/* A control DTB with key "dev" (required for configurations). */
static void make_ctl(void)
{
	struct vfit_rsa_pub pub;
	struct vfit_err e = { 0 };
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);

	EVP_PKEY_keygen_init(c);
	EVP_PKEY_CTX_set_rsa_keygen_bits(c, 2048);
	if (EVP_PKEY_keygen(c, &key) <= 0 || vfit_rsa_pub_from_pkey(key, &pub, &e))
		abort();
	EVP_PKEY_CTX_free(c);
	ctl = calloc(1, 16384);
	FDT(fdt_create_empty_tree(ctl, 16384));
	if (vfit_rsa_keynode_write(ctl, "dev", &pub, "sha256,rsa2048", "conf"))
		abort();
}

int main(void)
{
	make_ctl();
	test_nop_flood();
	test_long_names();
	test_many_dtbs();
	test_skip_walk();
	test_hash_nodes();
	test_limits();
	test_limit_names();
	EVP_PKEY_free(key);
	free(ctl);
	return check_done();
}
