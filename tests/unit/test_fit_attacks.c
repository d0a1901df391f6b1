/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every attack of fit-format.md §8 (and more), built as a concrete tampered
 * file from a good FIT by byte-level FDT edits (libfdt's read-write calls
 * and raw token insertion; untouched bytes stay as they are), each checked
 * to be rejected for the right reason: result code and, where it matters,
 * the node and property blamed.
 *
 * Good FITs: the fuzz seeds (signed by Debian's mkimage 2023.01) with
 * their control DTBs (tests/fuzz/fuzz_ctl.h).  Where an attack needs a
 * FIT re-signed after a change (dm-verity) or a special key (e = 3), the
 * test signs with OpenSSL itself through vfit_conf_nodes/vfit_conf_digest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

#include "check.h"
#include "vfit/fit.h"
#include "../fuzz/fuzz_ctl.h"

#define CORPUS "tests/fuzz/corpus/fuzz_verify/"
#define SLACK 65536

/* A FIT being edited: FDT part opened with room to grow, payload tail kept aside. */
struct fit {
	uint8_t *b;
	size_t len, cap;
	uint8_t *tail;          /* bytes after round_up(totalsize, 4) */
	size_t tail_len;
};

static struct vfit_verify_result res;

static size_t fdt_end(const void *b)
{
	return ((size_t)fdt_totalsize(b) + 3) & ~(size_t)3;
}

static void load(struct fit *f, const char *seed)
{
	char path[256];
	size_t n;
	char *raw;

	snprintf(path, sizeof(path), CORPUS "%s", seed);
	raw = check_read_file(path, &n);
	f->len = n - 1;           /* the first byte is the fuzz selector */
	f->cap = f->len + SLACK;
	f->b = calloc(1, f->cap);
	memcpy(f->b, raw + 1, f->len);
	free(raw);
	f->tail = NULL;
	f->tail_len = 0;
}

static void unload(struct fit *f)
{
	free(f->b);
	free(f->tail);
}

/* Opens the FDT for writing: totalsize becomes cap, the tail is saved. */
static void edit(struct fit *f)
{
	size_t end = fdt_end(f->b);

	f->tail_len = f->len > end ? f->len - end : 0;
	f->tail = malloc(f->tail_len + 1);
	memcpy(f->tail, f->b + end, f->tail_len);
	memset(f->b + fdt_totalsize(f->b), 0, f->cap - fdt_totalsize(f->b));
	if (fdt_open_into(f->b, f->b, (int)(f->cap - f->tail_len - 8)))
		abort();
}

/* Packs the FDT again and puts the payload tail back after it. */
static void done(struct fit *f)
{
	size_t end;

	if (fdt_pack(f->b))
		abort();
	end = fdt_end(f->b);
	memset(f->b + fdt_totalsize(f->b), 0, end - fdt_totalsize(f->b));
	memcpy(f->b + end, f->tail, f->tail_len);
	f->len = end + f->tail_len;
	free(f->tail);
	f->tail = NULL;
}

/* Inserts raw bytes into the structure block at struct offset off (opened FIT). */
static void insert(struct fit *f, int off, const void *p, size_t n)
{
	uint8_t *st = f->b + fdt_off_dt_struct(f->b);
	size_t used = fdt_off_dt_strings(f->b) + fdt_size_dt_strings(f->b);
	size_t moved = used - (fdt_off_dt_struct(f->b) + (size_t)off);

	if (used + n > fdt_totalsize(f->b))
		abort();
	memmove(st + off + n, st + off, moved);
	memcpy(st + off, p, n);
	fdt_set_size_dt_struct(f->b, fdt_size_dt_struct(f->b) + (uint32_t)n);
	fdt_set_off_dt_strings(f->b, fdt_off_dt_strings(f->b) + (uint32_t)n);
}

/* Byte range of a node's subtree in the structure block (struct offsets). */
static void subtree(const void *b, int node, int *start, int *end)
{
	int depth = 0, off = node, next;
	uint32_t tag;

	*start = node;
	do {
		tag = fdt_next_tag(b, off, &next);
		if (tag == FDT_BEGIN_NODE)
			depth++;
		else if (tag == FDT_END_NODE)
			depth--;
		off = next;
	} while (depth > 0);
	*end = off;
}

static int node(const void *b, const char *path)
{
	int n = fdt_path_offset(b, path);

	if (n < 0) {
		fprintf(stderr, "no node %s\n", path);
		abort();
	}
	return n;
}

static void set_u32(struct fit *f, const char *path, const char *prop, uint32_t v)
{
	if (fdt_setprop_u32(f->b, node(f->b, path), prop, v))
		abort();
}

static enum vfit_result verify_ctl(const struct fit *f, size_t len, const void *ctl,
				   size_t ctl_len, const char *conf, unsigned int flags)
{
	return vfit_verify(f->b, len, ctl, ctl_len, conf, flags, &res);
}

static enum vfit_result verify(const struct fit *f, int ctl)
{
	return verify_ctl(f, f->len, fuzz_ctl[ctl].p, fuzz_ctl[ctl].len, NULL, 0);
}

/* Result code and (optionally) the node path and property blamed. */
#define EXPECT(got, want, path, prop) expect_(__LINE__, got, want, path, prop)
static void expect_(int line, enum vfit_result got, enum vfit_result want, const char *path,
		    const char *prop)
{
	check_(got == want, __FILE__, line, "result %d (%s), want %d (%s)", got,
	       vfit_result_to_string(got), want, vfit_result_to_string(want));
	if (path)
		check_(!strcmp(res.err_path, path), __FILE__, line, "where '%s', want '%s'",
		       res.err_path, path);
	if (prop)
		check_(res.err_prop && !strcmp(res.err_prop, prop), __FILE__, line,
		       "property '%s', want '%s'", res.err_prop ? res.err_prop : "(none)", prop);
	if (got != VFIT_OK)
		check_(res.nimages == 0 && !res.image[0].data, __FILE__, line,
		       "images handed out on failure");
}

enum { CTL_CONF, CTL_IMAGE, CTL_BOTH, CTL_NONE };

static void test_good(void)
{
	static const char *const conf_seeds[] = {
		"conf-sha256", "conf-pss-sha1", "conf-ext", "conf-ext-pos",
	};
	struct fit f;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		load(&f, conf_seeds[i]);
		EXPECT(verify(&f, CTL_CONF), VFIT_OK, NULL, NULL);
		CHECK(res.nimages == 4 && !res.unenforced, "%s: %u images", conf_seeds[i],
		      res.nimages);
		/* loadables names the kernel again: same verified bytes. */
		CHECK(res.image[3].data == res.image[0].data && res.image[3].size == 3000,
		      "loadables shares the kernel");
		CHECK(res.image[2].has_load && res.image[2].load == 0x90000, "2-cell load");
		unload(&f);
	}
	load(&f, "image-sigs");
	EXPECT(verify(&f, CTL_IMAGE), VFIT_OK, NULL, NULL);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_NO_SIGNATURE, "/configurations/conf-1", NULL);
	/* No required key: U-Boot would boot; we refuse unless allowed. */
	EXPECT(verify(&f, CTL_NONE), VFIT_ERR_UNENFORCED, NULL, NULL);
	EXPECT(verify_ctl(&f, f.len, fuzz_ctl[CTL_NONE].p, fuzz_ctl[CTL_NONE].len, NULL,
			  VFIT_VERIFY_ALLOW_UNENFORCED), VFIT_OK, NULL, NULL);
	CHECK(res.unenforced && res.nimages == 4, "unenforced flagged");
	unload(&f);
}

/* 8.3: conf-1 copied to conf-3 (signature included), pointing at an evil kernel. */
static void test_substitution(void)
{
	struct fit f, g;
	int confs, c3, s, k2, start, end, sig, prop, len;
	const char *name;
	const void *v;
	uint8_t evil[3000];
	uint8_t h[32];

	load(&f, "conf-sha256");
	edit(&f);
	/* /images/kernel-2: a raw copy of kernel, then evil data and its hash. */
	subtree(f.b, node(f.b, "/images/kernel"), &start, &end);
	{
		uint8_t *copy = malloc((size_t)(end - start));

		memcpy(copy, f.b + fdt_off_dt_struct(f.b) + start, (size_t)(end - start));
		insert(&f, start, copy, (size_t)(end - start));
		free(copy);
	}
	/* The copy came first; rename it (same length name keeps offsets). */
	k2 = node(f.b, "/images/kernel");
	if (fdt_set_name(f.b, k2, "kernel-2"))
		abort();
	k2 = node(f.b, "/images/kernel-2");
	memset(evil, 0x01, sizeof(evil));
	FDT(fdt_setprop_inplace(f.b, k2, "data", evil, sizeof(evil)));
	vfit_hash(VFIT_HASH_SHA256, evil, sizeof(evil), h);
	FDT(fdt_setprop_inplace(f.b, node(f.b, "/images/kernel-2/hash-1"), "value", h, 32));
	confs = node(f.b, "/configurations");
	c3 = fdt_add_subnode(f.b, confs, "conf-3");
	s = fdt_add_subnode(f.b, c3, "signature-1");
	load(&g, "conf-sha256");
	sig = node(g.b, "/configurations/conf-1/signature-1");
	fdt_for_each_property_offset(prop, g.b, sig) {
		v = fdt_getprop_by_offset(g.b, prop, &name, &len);
		FDT(fdt_setprop(f.b, node(f.b, "/configurations/conf-3/signature-1"), name, v, len));
	}
	unload(&g);
	(void)s;
	c3 = node(f.b, "/configurations/conf-3");
	FDT(fdt_setprop_string(f.b, c3, "kernel", "kernel-2"));
	FDT(fdt_setprop_string(f.b, c3, "fdt", "fdt-1"));
	FDT(fdt_setprop_string(f.b, confs, "default", "conf-3"));
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_REQUIRED, "/configurations/conf-3/signature-1",
	       "value");
	CHECK(!strcmp(res.conf, "conf-3"), "default followed");
	/* The genuine configuration, asked for by name, still verifies. */
	EXPECT(verify_ctl(&f, f.len, fuzz_ctl[0].p, fuzz_ctl[0].len, "conf-1", 0), VFIT_OK,
	       NULL, NULL);
	unload(&f);
}

/* 8.4: a second root node before the real one, and a root with a name. */
static void test_roots(void)
{
	static const uint8_t fake[] = {
		0, 0, 0, 1, 'f', '@', 'k', 'e', 'r', 'o', 'o', 't', 0, 0, 0, 0,
		0, 0, 0, 1, 'i', 'm', 'a', 'g', 'e', 's', 0, 0,
		0, 0, 0, 2, 0, 0, 0, 2,
	};
	struct fit f;

	load(&f, "conf-sha256");
	edit(&f);
	insert(&f, 0, fake, sizeof(fake));
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_FORMAT, NULL, NULL);
	unload(&f);

	/* Named root: the root's 4 name bytes become "ev\0\0". */
	load(&f, "conf-sha256");
	memcpy(f.b + fdt_off_dt_struct(f.b) + 4, "ev", 2);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_FORMAT, NULL, NULL);
	unload(&f);

	/* The same fake tree after the real root: something after the root closes. */
	load(&f, "conf-sha256");
	edit(&f);
	insert(&f, (int)fdt_size_dt_struct(f.b) - 4, fake + 12, sizeof(fake) - 12 - 4);
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_FORMAT, NULL, NULL);
	unload(&f);

	/* A second root, empty-named like the first, after it. */
	load(&f, "conf-sha256");
	edit(&f);
	insert(&f, (int)fdt_size_dt_struct(f.b) - 4, "\0\0\0\1\0\0\0\0\0\0\0\2", 12);
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_FORMAT, NULL, NULL);
	unload(&f);

	/* A version-16 header (no structure size): the header is signed by nothing. */
	load(&f, "conf-sha256");
	fdt_set_version(f.b, 16);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_FORMAT, NULL, NULL);
	unload(&f);
}

/* 8.5: /images/kernel@evil before /images/kernel; also '@' elsewhere. */
static void test_unit_address(void)
{
	struct fit f;
	int n;

	load(&f, "conf-sha256");
	edit(&f);
	n = fdt_add_subnode(f.b, node(f.b, "/images"), "kernel@evil");
	FDT(fdt_setprop(f.b, n, "data", "evil", 4));
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_UNIT_ADDRESS, "/images/kernel@evil", NULL);
	unload(&f);

	load(&f, "conf-sha256");
	EXPECT(verify_ctl(&f, f.len, fuzz_ctl[0].p, fuzz_ctl[0].len, "conf@1", 0),
	       VFIT_ERR_UNIT_ADDRESS, NULL, NULL);
	EXPECT(verify_ctl(&f, f.len, fuzz_ctl[0].p, fuzz_ctl[0].len, "nope", 0),
	       VFIT_ERR_NO_CONFIG, NULL, NULL);
	unload(&f);

	/* A '/' inside a node name would alias paths in a path-based walk. */
	load(&f, "conf-sha256");
	memcpy(f.b + fdt_off_dt_struct(f.b) + node(f.b, "/images/kernel") + 4 + 2, "/", 1);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_UNIT_ADDRESS, NULL, NULL);
	unload(&f);
}

/* Digest of a configuration message for an explicit node list. */
static void digest_of(const void *b, const struct vfit_node_list *l, uint32_t s, uint8_t *out)
{
	struct vfit_hash_ctx h;

	vfit_hash_init(&h, VFIT_HASH_SHA256);
	if (vfit_conf_digest(b, l, s, &h))
		abort();
	vfit_hash_final(&h, out);
}

/*
 * 8.6: the hashed-nodes clone.  /images is copied raw inside itself as
 * /images/images (children in order, an EMPTYNO node before its END_NODE
 * to defeat the END_NODE quirk), the real kernel gets evil data and a
 * matching hash, hashed-nodes names the clone.  The message of that list
 * equals the signed one (shown below), so a verifier trusting hashed-nodes
 * would accept; ours rebuilds the list and rejects.
 */
static void test_clone(void)
{
	static const uint8_t empty[] = {
		0, 0, 0, 1, 'E', 'M', 'P', 'T', 'Y', 'N', 'O', 0, 0, 0, 0, 2,
	};
	static const uint8_t head[] = { 0, 0, 0, 1, 'i', 'm', 'a', 'g', 'e', 's', 0, 0 };
	static const uint8_t tail[] = { 0, 0, 0, 2 };
	static const char *const paths[] = {
		"/images/images/kernel", "/images/images/kernel/hash-1", "/images/images/fdt-1",
		"/images/images/fdt-1/hash-1", "/images/images/fdt-1/hash-2",
		"/images/images/ramdisk-1", "/images/images/ramdisk-1/hash-1",
	};
	uint8_t good[32], forged[32], evil[3000], h[32];
	struct vfit_node_list list;
	struct fit f, g;
	int images, first, start, end, last, conf;
	const uint8_t *hs;
	uint32_t s;
	unsigned int i;
	char hn[512];
	size_t hnl = 0;

	load(&g, "conf-sha256");
	conf = node(g.b, "/configurations/conf-1");
	CHECK(vfit_conf_nodes(g.b, conf, &list, NULL) == VFIT_OK, "node list");
	hs = fdt_getprop(g.b, node(g.b, "/configurations/conf-1/signature-1"), "hashed-strings",
			 NULL);
	s = fdt32_ld((const fdt32_t *)(hs + 4));
	digest_of(g.b, &list, s, good);

	load(&f, "conf-sha256");
	edit(&f);
	images = node(f.b, "/images");
	first = fdt_first_subnode(f.b, images);
	subtree(f.b, first, &start, &end);
	for (last = first; fdt_next_subnode(f.b, last) >= 0; last = fdt_next_subnode(f.b, last))
		;
	subtree(f.b, last, &start, &end);
	{
		size_t body = (size_t)(end - first), n = sizeof(head) + body + sizeof(empty) +
			      sizeof(tail);
		uint8_t *c = malloc(n);

		memcpy(c, head, sizeof(head));
		memcpy(c + sizeof(head), f.b + fdt_off_dt_struct(f.b) + first, body);
		memcpy(c + sizeof(head) + body, empty, sizeof(empty));
		memcpy(c + n - sizeof(tail), tail, sizeof(tail));
		/* The clone goes first under /images. */
		insert(&f, first, c, n);
		free(c);
	}
	memset(evil, 0x01, sizeof(evil));
	FDT(fdt_setprop_inplace(f.b, node(f.b, "/images/kernel"), "data", evil, sizeof(evil)));
	vfit_hash(VFIT_HASH_SHA256, evil, sizeof(evil), h);
	FDT(fdt_setprop_inplace(f.b, node(f.b, "/images/kernel/hash-1"), "value", h, 32));
	hnl = 0;
	memcpy(hn + hnl, "/", 2);
	hnl += 2;
	memcpy(hn + hnl, "/configurations/conf-1", 23);
	hnl += 23;
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		memcpy(hn + hnl, paths[i], strlen(paths[i]) + 1);
		hnl += strlen(paths[i]) + 1;
	}
	FDT(fdt_setprop(f.b, node(f.b, "/configurations/conf-1/signature-1"), "hashed-nodes", hn,
		    (int)hnl));
	done(&f);

	/* The attacker's list reproduces the signed message exactly... */
	list.count = 0;
	list.offset[list.count++] = 0;
	list.offset[list.count++] = node(f.b, "/configurations/conf-1");
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		list.offset[list.count++] = node(f.b, paths[i]);
	digest_of(f.b, &list, s, forged);
	CHECK(!memcmp(good, forged, 32), "clone message equals the signed one");
	/* ...but the list is rebuilt from conf-1, which names the evil kernel. */
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_REQUIRED, "/configurations/conf-1/signature-1",
	       "value");
	unload(&f);

	/* Without the EMPTYNO padding the quirk adds the clone's END_NODE. */
	unload(&g);
}

/* 8.7: hashed-strings <0>, <0 size+1>, <0 size>. */
static void test_hashed_strings(void)
{
	const char *sig = "/configurations/conf-1/signature-1";
	uint32_t cells[2];
	struct fit f;
	uint32_t size;

	load(&f, "conf-sha256");
	edit(&f);
	set_u32(&f, sig, "hashed-strings", 0);
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_HASHED_STRINGS, sig, "hashed-strings");
	unload(&f);

	load(&f, "conf-sha256");
	size = fdt_size_dt_strings(f.b);
	cells[0] = 0;
	cells[1] = cpu_to_fdt32(size + 1);
	FDT(fdt_setprop_inplace(f.b, node(f.b, sig), "hashed-strings", cells, 8));
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_STRINGS_BOUNDS, sig, "hashed-strings");
	cells[1] = cpu_to_fdt32(0xffffffff);
	FDT(fdt_setprop_inplace(f.b, node(f.b, sig), "hashed-strings", cells, 8));
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_STRINGS_BOUNDS, sig, "hashed-strings");
	cells[1] = cpu_to_fdt32(size);
	FDT(fdt_setprop_inplace(f.b, node(f.b, sig), "hashed-strings", cells, 8));
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_REQUIRED, sig, "value");
	unload(&f);

	/* The first cell is ignored, as in U-Boot; hashed-nodes is never read. */
	load(&f, "conf-sha256");
	cells[0] = cpu_to_fdt32(0x1234);
	memcpy(&cells[1], (const uint8_t *)fdt_getprop(f.b, node(f.b, sig), "hashed-strings",
						       NULL) + 4, 4);
	FDT(fdt_setprop_inplace(f.b, node(f.b, sig), "hashed-strings", cells, 8));
	edit(&f);
	FDT(fdt_setprop(f.b, node(f.b, sig), "hashed-nodes", "x", 1));
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_OK, NULL, NULL);
	unload(&f);
}

/* One external-data edit on /images/kernel of the -E FIT. */
static void ext_case(const char *prop, uint32_t v, const char *prop2, uint32_t v2,
		     enum vfit_result want, const char *path, int line)
{
	struct fit f;
	enum vfit_result got;

	load(&f, "conf-ext");
	edit(&f);
	set_u32(&f, "/images/kernel", prop, v);
	if (prop2)
		set_u32(&f, "/images/kernel", prop2, v2);
	done(&f);
	got = verify(&f, CTL_CONF);
	expect_(line, got, want, path, NULL);
	unload(&f);
}

/* 8.8: the twelve cases of fit-format.md §9.4, plus our own bounds. */
static void test_external(void)
{
	const uint32_t max = VFIT_SIGNATURE_MAX_SIZE;
	struct fit f;
	uint32_t off;

	ext_case("data-position", 0xffffffff, NULL, 0, VFIT_ERR_DATA, "/images/kernel", __LINE__);
	ext_case("data-offset", 0xffffffff, NULL, 0, VFIT_ERR_DATA, "/images/kernel", __LINE__);
	ext_case("data-size", 0xffffffff, NULL, 0, VFIT_ERR_DATA, "/images/kernel", __LINE__);
	ext_case("data-position", 0x7fffffff, NULL, 0, VFIT_ERR_DATA_BOUNDS, "/images/kernel", __LINE__);
	ext_case("data-offset", 0x10000000, NULL, 0, VFIT_ERR_DATA_BOUNDS, "/images/kernel", __LINE__);
	ext_case("data-size", 0x7fffffff, NULL, 0, VFIT_ERR_DATA_BOUNDS, "/images/kernel", __LINE__);
	ext_case("data-position", max + 1, "data-size", 0, VFIT_ERR_DATA_BOUNDS, "/images/kernel", __LINE__);
	ext_case("data-offset", max + 1, "data-size", 0, VFIT_ERR_DATA_BOUNDS, "/images/kernel", __LINE__);
	ext_case("data-position", 0, "data-size", max + 1, VFIT_ERR_DATA_BOUNDS, "/images/kernel", __LINE__);
	/* In bounds for U-Boot (then Bad Data Hash); beyond the loaded bytes for us. */
	ext_case("data-position", max, "data-size", 0, VFIT_ERR_DATA_BOUNDS, "/images/kernel", __LINE__);
	ext_case("data-offset", max, "data-size", 0, VFIT_ERR_DATA_BOUNDS, "/images/kernel", __LINE__);
	/* Starts inside the FDT. */
	ext_case("data-position", 0, "data-size", max, VFIT_ERR_DATA_BOUNDS, "/images/kernel", __LINE__);
	ext_case("data-position", 0x40, "data-size", 16, VFIT_ERR_DATA_BOUNDS, "/images/kernel", __LINE__);
	ext_case("data-size", 0, NULL, 0, VFIT_ERR_HASH, "/images/kernel/hash-1", __LINE__);

	/* Payload beyond the bytes actually loaded (file cut after the FDT). */
	load(&f, "conf-ext");
	EXPECT(verify_ctl(&f, f.len - 1, fuzz_ctl[0].p, fuzz_ctl[0].len, NULL, 0),
	       VFIT_ERR_DATA_BOUNDS, NULL, NULL);
	EXPECT(verify_ctl(&f, fdt_totalsize(f.b), fuzz_ctl[0].p, fuzz_ctl[0].len, NULL, 0),
	       VFIT_ERR_DATA_BOUNDS, NULL, NULL);
	unload(&f);

	/* fdt-1's payload moved onto the kernel's: overlap. */
	load(&f, "conf-ext");
	off = fdt32_to_cpu(*(const fdt32_t *)fdt_getprop(f.b, node(f.b, "/images/kernel"),
							 "data-offset", NULL));
	FDT(fdt_setprop_inplace_u32(f.b, node(f.b, "/images/fdt-1"), "data-offset", off + 8));
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_DATA_OVERLAP, NULL, NULL);
	unload(&f);

	/* data-size missing, data-offset of a wrong length. */
	load(&f, "conf-ext");
	edit(&f);
	FDT(fdt_delprop(f.b, node(f.b, "/images/kernel"), "data-size"));
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_MISSING, "/images/kernel", "data-size");
	unload(&f);
	load(&f, "conf-ext");
	edit(&f);
	FDT(fdt_setprop_u64(f.b, node(f.b, "/images/kernel"), "data-offset", 0));
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_FORMAT, "/images/kernel", "data-offset");
	unload(&f);
}

/* 8.1 and truncation: size lies and every cut of a good file. */
static void test_sizes(void)
{
	struct fit f;
	size_t cut, step;
	unsigned int bad = 0, wrong = 0;
	uint32_t total;

	load(&f, "conf-sha256");
	total = fdt_totalsize(f.b);
	fdt_set_totalsize(f.b, (uint32_t)f.len + 1);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_TRUNCATED, NULL, NULL);
	fdt_set_totalsize(f.b, VFIT_SIGNATURE_MAX_SIZE + 1);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_TOO_LARGE, NULL, NULL);
	fdt_set_totalsize(f.b, 0xffffffff);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_TOO_LARGE, NULL, NULL);
	fdt_set_totalsize(f.b, total);
	EXPECT(verify(&f, CTL_CONF), VFIT_OK, NULL, NULL);
	/* Smaller than the blocks it describes. */
	fdt_set_totalsize(f.b, fdt_off_dt_strings(f.b) + 1);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_FORMAT, NULL, NULL);
	fdt_set_totalsize(f.b, total);

	/*
	 * Each cut in a buffer of exactly its size, so that ASan sees any
	 * read past it (an empty input read the header once).
	 */
	step = getenv("VFIT_TEST_QUICK") ? 7 : 1;
	for (cut = 0; cut < f.len; cut += step) {
		uint8_t *p = malloc(cut);
		enum vfit_result r;

		if (!p && cut)
			abort();
		memcpy(p, f.b, cut);
		r = vfit_verify(p, cut, fuzz_ctl[0].p, fuzz_ctl[0].len, NULL, 0, &res);
		free(p);
		bad += r == VFIT_OK;
		wrong += r != VFIT_ERR_TRUNCATED;
	}
	CHECK(!bad && !wrong, "truncations: %u accepted, %u not TRUNCATED", bad, wrong);
	unload(&f);

	/* External FIT: cuts after the FDT leave payloads out of bounds. */
	load(&f, "conf-ext-pos");
	bad = wrong = 0;
	for (cut = fdt_totalsize(f.b); cut < f.len; cut += 61) {
		enum vfit_result r = verify_ctl(&f, cut, fuzz_ctl[0].p, fuzz_ctl[0].len, NULL, 0);

		bad += r == VFIT_OK;
		wrong += r != VFIT_ERR_DATA_BOUNDS;
	}
	CHECK(!bad && !wrong, "payload cuts: %u accepted, %u not DATA_BOUNDS", bad, wrong);
	unload(&f);
}

/* Signed property changes, missing hashes, bad hashes, NOPs, aliasing. */
static void test_tamper(void)
{
	static const uint8_t nop[4] = { 0, 0, 0, 4 };
	const char *sig = "/configurations/conf-1/signature-1";
	struct fit f;
	uint8_t *p;
	int len, k, prop;

	load(&f, "conf-sha256");
	FDT(fdt_setprop_inplace_u32(f.b, node(f.b, "/images/kernel"), "load", 0x1000));
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_REQUIRED, sig, "value");
	unload(&f);

	load(&f, "conf-sha256");
	FDT(fdt_setprop_inplace(f.b, node(f.b, "/images/kernel"), "compression", "gzip", 5));
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_REQUIRED, sig, "value");
	unload(&f);

	/* Payload byte changed: the signature holds, the hash does not. */
	load(&f, "conf-sha256");
	p = (uint8_t *)(uintptr_t)fdt_getprop(f.b, node(f.b, "/images/kernel"), "data", &len);
	p[len / 2] ^= 1;
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_HASH, "/images/kernel/hash-1", "value");
	unload(&f);

	/* First byte of the signature value incremented (fit-format.md §9.2 step 7). */
	load(&f, "conf-sha256");
	p = (uint8_t *)(uintptr_t)fdt_getprop(f.b, node(f.b, sig), "value", &len);
	p[0]++;
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_REQUIRED, sig, "value");
	unload(&f);

	/* Signature value one byte short. */
	load(&f, "conf-sha256");
	edit(&f);
	{
		uint8_t v[512];

		p = (uint8_t *)(uintptr_t)fdt_getprop(f.b, node(f.b, sig), "value", &len);
		memcpy(v, p + 1, (size_t)len - 1);
		FDT(fdt_setprop(f.b, node(f.b, sig), "value", v, len - 1));
	}
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_SIG_LENGTH, sig, "value");
	unload(&f);

	/* A hash node removed from a signed image (fit-format.md §3.3: no hash nodes). */
	load(&f, "conf-sha256");
	edit(&f);
	FDT(fdt_del_node(f.b, node(f.b, "/images/ramdisk-1/hash-1")));
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_NO_HASH, "/images/ramdisk-1", NULL);
	unload(&f);

	/* A NOP token inside a signed node is part of the message. */
	load(&f, "conf-sha256");
	edit(&f);
	k = node(f.b, "/images/kernel");
	insert(&f, fdt_first_property_offset(f.b, k), nop, 4);
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_REQUIRED, sig, "value");
	unload(&f);

	/* Strings aliasing: "load" re-pointed at an identical string appended later. */
	load(&f, "conf-sha256");
	edit(&f);
	{
		int stroff = (int)fdt_size_dt_strings(f.b);
		uint8_t *strs = f.b + fdt_off_dt_strings(f.b);

		memcpy(strs + stroff, "load", 5);
		fdt_set_size_dt_strings(f.b, (uint32_t)stroff + 5);
		k = node(f.b, "/images/kernel");
		fdt_for_each_property_offset(prop, f.b, k) {
			const char *name;

			fdt_getprop_by_offset(f.b, prop, &name, NULL);
			if (!strcmp(name, "load"))
				*(fdt32_t *)(f.b + fdt_off_dt_struct(f.b) + prop + 8) =
					cpu_to_fdt32((uint32_t)stroff);
		}
	}
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_REQUIRED, sig, "value");
	unload(&f);

	/* Unsigned FIT (no required key, allowed): unknown hash algo, wrong length. */
	load(&f, "conf-sha256");
	FDT(fdt_setprop_inplace(f.b, node(f.b, "/images/kernel/hash-1"), "algo", "sha257", 7));
	EXPECT(verify_ctl(&f, f.len, fuzz_ctl[CTL_NONE].p, fuzz_ctl[CTL_NONE].len, NULL,
			  VFIT_VERIFY_ALLOW_UNENFORCED), VFIT_ERR_UNSUPPORTED,
	       "/images/kernel/hash-1", "algo");
	unload(&f);
	load(&f, "conf-sha256");
	edit(&f);
	FDT(fdt_setprop(f.b, node(f.b, "/images/kernel/hash-1"), "value", "short", 5));
	done(&f);
	EXPECT(verify_ctl(&f, f.len, fuzz_ctl[CTL_NONE].p, fuzz_ctl[CTL_NONE].len, NULL,
			  VFIT_VERIFY_ALLOW_UNENFORCED), VFIT_ERR_HASH_LENGTH,
	       "/images/kernel/hash-1", "value");
	unload(&f);
	/* Unsigned: a load of 3 bytes, a conf naming an image without a string, a conf of no image. */
	load(&f, "conf-sha256");
	edit(&f);
	FDT(fdt_setprop(f.b, node(f.b, "/images/kernel"), "load", "\1\2\3", 3));
	done(&f);
	EXPECT(verify_ctl(&f, f.len, fuzz_ctl[CTL_NONE].p, fuzz_ctl[CTL_NONE].len, NULL,
			  VFIT_VERIFY_ALLOW_UNENFORCED), VFIT_ERR_FORMAT, "/images/kernel", "load");
	unload(&f);
	load(&f, "conf-sha256");
	edit(&f);
	FDT(fdt_setprop(f.b, node(f.b, "/configurations/conf-1"), "kernel", "kernel", 6));
	done(&f);
	EXPECT(verify_ctl(&f, f.len, fuzz_ctl[CTL_NONE].p, fuzz_ctl[CTL_NONE].len, NULL,
			  VFIT_VERIFY_ALLOW_UNENFORCED), VFIT_ERR_FORMAT, "/configurations/conf-1",
	       "kernel");
	unload(&f);
	load(&f, "conf-sha256");
	edit(&f);
	while ((prop = fdt_first_property_offset(f.b, node(f.b, "/configurations/conf-1"))) >= 0 &&
	       fdt_get_property_by_offset(f.b, prop, NULL)) {
		const char *pn;

		fdt_getprop_by_offset(f.b, prop, &pn, NULL);
		FDT(fdt_delprop(f.b, node(f.b, "/configurations/conf-1"), pn));
	}
	done(&f);
	EXPECT(verify_ctl(&f, f.len, fuzz_ctl[CTL_NONE].p, fuzz_ctl[CTL_NONE].len, NULL,
			  VFIT_VERIFY_ALLOW_UNENFORCED), VFIT_ERR_NO_IMAGES, NULL, NULL);
	unload(&f);

	/* A SHA-224 hash node, though its value is right: U-Boot has none (fit-format.md §2.3). */
	load(&f, "conf-sha256");
	{
		const uint8_t *data = fdt_getprop(f.b, node(f.b, "/images/kernel"), "data", &len);
		uint8_t d224[28];
		unsigned int n = 0;

		REQUIRE(data && EVP_Digest(data, (size_t)len, d224, &n, EVP_sha224(), NULL) &&
			n == 28, "SHA-224");
		edit(&f);
		FDT(fdt_setprop_string(f.b, node(f.b, "/images/kernel/hash-1"), "algo", "sha224"));
		FDT(fdt_setprop(f.b, node(f.b, "/images/kernel/hash-1"), "value", d224, 28));
		done(&f);
	}
	EXPECT(verify_ctl(&f, f.len, fuzz_ctl[CTL_NONE].p, fuzz_ctl[CTL_NONE].len, NULL,
			  VFIT_VERIFY_ALLOW_UNENFORCED), VFIT_ERR_UNSUPPORTED,
	       "/images/kernel/hash-1", "algo");
	unload(&f);

	/* The value compared on all its bytes: each one changed in turn (no signature covers it). */
	load(&f, "conf-sha256");
	p = (uint8_t *)(uintptr_t)fdt_getprop(f.b, node(f.b, "/images/kernel/hash-1"), "value", &len);
	for (k = 0; k < len; k++) {
		p[k] ^= 0x80;
		EXPECT(verify_ctl(&f, f.len, fuzz_ctl[CTL_NONE].p, fuzz_ctl[CTL_NONE].len, NULL,
				  VFIT_VERIFY_ALLOW_UNENFORCED), VFIT_ERR_HASH,
		       "/images/kernel/hash-1", "value");
		p[k] ^= 0x80;
	}
	unload(&f);

	/* Duplicate sibling names: a raw second /images/kernel before the first. */
	load(&f, "conf-sha256");
	edit(&f);
	{
		int start, end;
		uint8_t *copy;

		subtree(f.b, node(f.b, "/images/kernel"), &start, &end);
		copy = malloc((size_t)(end - start));
		memcpy(copy, f.b + fdt_off_dt_struct(f.b) + start, (size_t)(end - start));
		insert(&f, start, copy, (size_t)(end - start));
		free(copy);
	}
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_DUPLICATE, "/images/kernel", NULL);
	unload(&f);

	/* Mandatory root properties. */
	load(&f, "conf-sha256");
	edit(&f);
	FDT(fdt_delprop(f.b, 0, "description"));
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_MISSING, "/", "description");
	unload(&f);
	load(&f, "conf-sha256");
	edit(&f);
	FDT(fdt_setprop_u64(f.b, 0, "timestamp", 1));
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_FORMAT, "/", "timestamp");
	unload(&f);
}

/* Mix and match under image signatures: the documented limit and its guards. */
static void test_mix(void)
{
	const char *mix = "/configurations/conf-mix";
	struct fit f;
	uint8_t h[64], evil[64];
	int c, k;

	/* A new configuration of signed images: no configuration signature. */
	load(&f, "image-sigs");
	edit(&f);
	c = fdt_add_subnode(f.b, node(f.b, "/configurations"), "conf-mix");
	FDT(fdt_setprop_string(f.b, c, "kernel", "kernel"));
	FDT(fdt_setprop_string(f.b, c, "ramdisk", "fdt-1"));
	done(&f);
	EXPECT(verify_ctl(&f, f.len, fuzz_ctl[CTL_CONF].p, fuzz_ctl[CTL_CONF].len, "conf-mix", 0),
	       VFIT_ERR_NO_SIGNATURE, mix, NULL);
	/*
	 * With only image keys required this is accepted, as in U-Boot: image
	 * signatures do not cover configurations (fit-format.md §3.1, 8.10).
	 */
	EXPECT(verify_ctl(&f, f.len, fuzz_ctl[CTL_IMAGE].p, fuzz_ctl[CTL_IMAGE].len, "conf-mix",
			  0), VFIT_OK, NULL, NULL);
	unload(&f);

	/* An unsigned image slipped into an image-signed FIT. */
	load(&f, "image-sigs");
	edit(&f);
	k = fdt_add_subnode(f.b, node(f.b, "/images"), "evil");
	memset(evil, 0x01, sizeof(evil));
	FDT(fdt_setprop(f.b, k, "data", evil, sizeof(evil)));
	k = fdt_add_subnode(f.b, k, "hash-1");
	FDT(fdt_setprop_string(f.b, k, "algo", "sha512"));
	vfit_hash(VFIT_HASH_SHA512, evil, sizeof(evil), h);
	FDT(fdt_setprop(f.b, k, "value", h, 64));
	FDT(fdt_setprop_string(f.b, node(f.b, "/configurations/conf-1"), "ramdisk", "evil"));
	done(&f);
	EXPECT(verify(&f, CTL_IMAGE), VFIT_ERR_NO_SIGNATURE, "/images/evil", NULL);
	CHECK(!res.in_control, "blamed on the image");
	unload(&f);

	/* An image signature moved to another image. */
	load(&f, "image-sigs");
	{
		int a = node(f.b, "/images/kernel/signature-1"),
		    b = node(f.b, "/images/ramdisk-1/signature-1"), la, lb;
		uint8_t *va = (uint8_t *)(uintptr_t)fdt_getprop(f.b, a, "value", &la);
		const uint8_t *vb = fdt_getprop(f.b, b, "value", &lb);

		memcpy(va, vb, (size_t)la);
	}
	EXPECT(verify(&f, CTL_IMAGE), VFIT_ERR_REQUIRED, "/images/kernel/signature-1", "value");
	unload(&f);
}

/* ---- keys: in-test RSA keys written as U-Boot key nodes -------------- */

/* Writes /signature/key-<name> for pkey (n0-inverse and r-squared computed here). */
static void key_node(void *ctl, const char *name, EVP_PKEY *pkey, const char *algo,
		     const char *required)
{
	BIGNUM *n = NULL, *e = NULL, *r = BN_new(), *t = BN_new(), *w = BN_new();
	BN_CTX *bc = BN_CTX_new();
	uint8_t mod[512], rr[512], ex[8];
	int bits, bytes, sig, k;
	char kname[64];
	uint64_t ev;

	EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_RSA_N, &n);
	EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_RSA_E, &e);
	bits = BN_num_bits(n);
	bytes = bits / 8;
	BN_bn2binpad(n, mod, bytes);
	/* rr = 2^(2*bits) mod n */
	BN_one(r);
	BN_lshift(r, r, 2 * bits);
	BN_mod(t, r, n, bc);
	BN_bn2binpad(t, rr, bytes);
	/* n0inv = -n^-1 mod 2^32 */
	BN_set_word(w, 1);
	BN_lshift(w, w, 32);
	BN_mod_inverse(r, n, w, bc);
	BN_sub(r, w, r);
	ev = BN_get_word(e);
	for (k = 0; k < 8; k++)
		ex[k] = (uint8_t)(ev >> (56 - 8 * k));
	sig = fdt_subnode_offset(ctl, 0, "signature");
	if (sig < 0)
		sig = fdt_add_subnode(ctl, 0, "signature");
	snprintf(kname, sizeof(kname), "key-%s", name);
	k = fdt_add_subnode(ctl, sig, kname);
	if (k < 0)
		abort();
	FDT(fdt_setprop_string(ctl, k, "key-name-hint", name));
	FDT(fdt_setprop_u32(ctl, k, "rsa,num-bits", (uint32_t)bits));
	FDT(fdt_setprop_u32(ctl, k, "rsa,n0-inverse", (uint32_t)BN_get_word(r)));
	FDT(fdt_setprop(ctl, k, "rsa,exponent", ex, 8));
	FDT(fdt_setprop(ctl, k, "rsa,modulus", mod, bytes));
	FDT(fdt_setprop(ctl, k, "rsa,r-squared", rr, bytes));
	FDT(fdt_setprop_string(ctl, k, "algo", algo));
	if (required)
		FDT(fdt_setprop_string(ctl, k, "required", required));
	BN_free(n);
	BN_free(e);
	BN_free(r);
	BN_free(t);
	BN_free(w);
	BN_CTX_free(bc);
}

static EVP_PKEY *rsa_key(unsigned int bits, unsigned int e)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	EVP_PKEY *k = NULL;
	BIGNUM *be = BN_new();

	BN_set_word(be, e);
	EVP_PKEY_keygen_init(c);
	EVP_PKEY_CTX_set_rsa_keygen_bits(c, (int)bits);
	EVP_PKEY_CTX_set1_rsa_keygen_pubexp(c, be);
	if (EVP_PKEY_keygen(c, &k) <= 0)
		abort();
	EVP_PKEY_CTX_free(c);
	BN_free(be);
	return k;
}

/* Re-signs conf-1's signature-1 (sha256,rsa2048, PKCS#1) with pkey, in place. */
static void resign(struct fit *f, EVP_PKEY *pkey)
{
	int conf = node(f->b, "/configurations/conf-1");
	int sig = node(f->b, "/configurations/conf-1/signature-1");
	struct vfit_node_list list;
	uint8_t digest[32], out[512];
	uint32_t cells[2];
	size_t olen = sizeof(out);
	EVP_PKEY_CTX *c;

	cells[0] = 0;
	cells[1] = cpu_to_fdt32(fdt_size_dt_strings(f->b));
	FDT(fdt_setprop_inplace(f->b, sig, "hashed-strings", cells, 8));
	if (vfit_conf_nodes(f->b, conf, &list, NULL))
		abort();
	digest_of(f->b, &list, fdt_size_dt_strings(f->b), digest);
	c = EVP_PKEY_CTX_new(pkey, NULL);
	EVP_PKEY_sign_init(c);
	EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING);
	EVP_PKEY_CTX_set_signature_md(c, EVP_sha256());
	if (EVP_PKEY_sign(c, out, &olen, digest, 32) <= 0)
		abort();
	EVP_PKEY_CTX_free(c);
	if (fdt_setprop_inplace(f->b, sig, "value", out, (int)olen))
		abort();
}

static void *new_ctl(void)
{
	void *ctl = calloc(1, 16384);

	FDT(fdt_create_empty_tree(ctl, 16384));
	return ctl;
}

/* Key-node policy: algo, num-bits, required keys, any/all. */
static void test_keys(EVP_PKEY *dev, EVP_PKEY *prod)
{
	const char *sig = "/configurations/conf-1/signature-1";
	void *ctl = new_ctl();
	struct fit f;
	int k;

	load(&f, "conf-sha256");
	edit(&f);
	done(&f);
	resign(&f, dev);
	key_node(ctl, "dev", dev, "sha256,rsa2048", "conf");
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_OK, NULL, NULL);

	/* A required key that did not sign the FIT ("prod" missing from the FIT). */
	key_node(ctl, "prod", prod, "sha256,rsa2048", "conf");
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_REQUIRED, sig, "value");
	FDT(fdt_setprop_string(ctl, fdt_path_offset(ctl, "/signature"), "required-mode", "any"));
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_OK, NULL, NULL);
	FDT(fdt_setprop_string(ctl, fdt_path_offset(ctl, "/signature"), "required-mode", "all"));
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_REQUIRED, NULL, NULL);
	FDT(fdt_del_node(ctl, fdt_path_offset(ctl, "/signature/key-prod")));

	/* Algorithm confusion: key node says sha1, signature says sha256. */
	k = fdt_path_offset(ctl, "/signature/key-dev");
	FDT(fdt_setprop_string(ctl, k, "algo", "sha1,rsa2048"));
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_KEY_ALGO, sig, "value");
	/* An algo of the same length: compared byte for byte, not by its length. */
	FDT(fdt_setprop_string(ctl, k, "algo", "sha512,rsa2048"));
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_KEY_ALGO, sig, "value");
	/* ...and the signature says sha1 with a sha256 key node. */
	FDT(fdt_setprop_string(ctl, k, "algo", "sha256,rsa2048"));
	edit(&f);
	FDT(fdt_setprop_string(f.b, node(f.b, sig), "algo", "sha1,rsa2048"));
	done(&f);
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_KEY_ALGO, sig, "value");
	/* rsa4096 in both algos, but a 2048-bit key. */
	edit(&f);
	FDT(fdt_setprop_string(f.b, node(f.b, sig), "algo", "sha256,rsa4096"));
	done(&f);
	FDT(fdt_setprop_string(ctl, k, "algo", "sha256,rsa4096"));
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_KEY, sig, "value");
	/* num-bits lying about a 2048-bit modulus. */
	FDT(fdt_setprop_string(ctl, k, "algo", "sha256,rsa2048"));
	edit(&f);
	FDT(fdt_setprop_string(f.b, node(f.b, sig), "algo", "sha256,rsa2048"));
	done(&f);
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_OK, NULL, NULL);
	FDT(fdt_setprop_u32(ctl, k, "rsa,num-bits", 3072));
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_KEY, sig, "value");
	FDT(fdt_setprop_u32(ctl, k, "rsa,num-bits", 2048));
	/*
	 * Each fixed-size property one byte longer, its first bytes still the
	 * right ones: a key that is malformed is refused, not read in part.
	 */
	{
		static const char *const props[] = {
			"rsa,num-bits", "rsa,n0-inverse", "rsa,modulus", "rsa,r-squared",
			"rsa,exponent",
		};
		uint8_t keep[520], longer[521];
		const void *v;
		unsigned int i;
		int len;

		for (i = 0; i < sizeof(props) / sizeof(props[0]); i++) {
			v = fdt_getprop(ctl, k, props[i], &len);
			REQUIRE(v && len > 0 && len <= (int)sizeof(keep), "%s", props[i]);
			memcpy(keep, v, (size_t)len);
			memcpy(longer, v, (size_t)len);
			longer[len] = 0;
			FDT(fdt_setprop(ctl, k, props[i], longer, len + 1));
			EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_KEY, sig, "value");
			FDT(fdt_setprop(ctl, k, props[i], keep, len));
		}
		EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_OK, NULL, NULL);
	}
	/* Key node without algo. */
	FDT(fdt_delprop(ctl, k, "algo"));
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_KEY, sig, "value");
	FDT(fdt_setprop_string(ctl, k, "algo", "sha256,rsa2048"));
	/* An ECDSA signature against the RSA key; P-521 and unknown names are unsupported. */
	edit(&f);
	FDT(fdt_setprop_string(f.b, node(f.b, sig), "algo", "sha256,ecdsa256"));
	done(&f);
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_KEY_ALGO, sig, "value");
	edit(&f);
	FDT(fdt_setprop_string(f.b, node(f.b, sig), "algo", "sha512,secp521r1"));
	done(&f);
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_UNSUPPORTED, sig, "algo");
	edit(&f);
	FDT(fdt_delprop(f.b, node(f.b, sig), "algo"));
	done(&f);
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_MISSING, sig, "algo");
	/* A padding name other than pkcs-1.5 / pss. */
	edit(&f);
	FDT(fdt_setprop_string(f.b, node(f.b, sig), "algo", "sha256,rsa2048"));
	FDT(fdt_setprop_string(f.b, node(f.b, sig), "padding", "pkcs-2.0"));
	done(&f);
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_UNSUPPORTED, sig, "padding");
	unload(&f);

	/* A malformed control DTB. */
	load(&f, "conf-sha256");
	EXPECT(verify_ctl(&f, f.len, ctl, 20, NULL, 0), VFIT_ERR_CONTROL, NULL, NULL);
	CHECK(res.in_control, "control blamed");
	unload(&f);
	free(ctl);
}

/*
 * Policy properties that do not say exactly one thing refuse the control
 * DTB (issue 10, class 2).  Under required-mode "all", key "prod" marked
 * required with a malformed value used to count as not required, so a FIT
 * that only "dev" signed was accepted; U-Boot's strcmp() reads most of
 * these values as "conf".  Each case is first shown to verify with the
 * well-formed value and to fail closed with the malformed one.
 */
/* Offsets move with every write: look the nodes up each time. */
#define KEYS fdt_path_offset(ctl, "/signature")
#define KP fdt_path_offset(ctl, "/signature/key-prod")
#define KD fdt_path_offset(ctl, "/signature/key-dev")

static void test_policy(EVP_PKEY *dev, EVP_PKEY *prod)
{
	static const struct {
		const char *v;
		int len;
	} bad_required[] = {
		{ "conf\0", 6 }, { "conf", 4 }, { "conf\0image", 11 }, { "", 1 }, { "Conf", 5 },
		{ "yes", 4 }, { "image\0", 7 }, { "conf ", 6 },
	}, bad_mode[] = {
		{ "any\0", 5 }, { "any", 3 }, { "ANY", 4 }, { "", 1 }, { "any\0all", 8 },
		{ "one", 4 },
	};
	void *ctl = new_ctl();
	unsigned int i;
	struct fit f;

	load(&f, "conf-sha256");
	resign(&f, dev);
	key_node(ctl, "dev", dev, "sha256,rsa2048", "conf");
	key_node(ctl, "prod", prod, "sha256,rsa2048", "conf");
	FDT(fdt_setprop_string(ctl, KEYS, "required-mode", "all"));
	/* The well-formed policy refuses a FIT only dev signed... */
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_REQUIRED, NULL, NULL);
	for (i = 0; i < sizeof(bad_required) / sizeof(bad_required[0]); i++) {
		FDT(fdt_setprop(ctl, KP, "required", bad_required[i].v, bad_required[i].len));
		/* ...and so does every malformed spelling of it. */
		EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_CONTROL,
		       "/signature/key-prod", "required");
		CHECK(res.in_control, "required %u: the control DTB is blamed", i);
	}
	/* A malformed value on the key that did sign fails closed too. */
	FDT(fdt_setprop_string(ctl, KP, "required", "conf"));
	FDT(fdt_setprop_string(ctl, KEYS, "required-mode", "any"));
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_OK, NULL, NULL);
	FDT(fdt_setprop(ctl, KD, "required", "conf\0", 6));
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_CONTROL,
	       "/signature/key-dev", "required");
	FDT(fdt_setprop_string(ctl, KD, "required", "conf"));
	for (i = 0; i < sizeof(bad_mode) / sizeof(bad_mode[0]); i++) {
		FDT(fdt_setprop(ctl, KEYS, "required-mode", bad_mode[i].v, bad_mode[i].len));
		EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_CONTROL, "/signature",
		       "required-mode");
	}
	FDT(fdt_setprop_string(ctl, KEYS, "required-mode", "any"));
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_OK, NULL, NULL);

	/* RSA key properties of any other size are a bad key, not a default. */
	FDT(fdt_delprop(ctl, KP, "required"));
	FDT(fdt_setprop_u32(ctl, KD, "rsa,exponent", 65537));
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_KEY,
	       "/configurations/conf-1/signature-1", "value");
	FDT(fdt_setprop(ctl, KD, "rsa,exponent", "\0\0\0\0\0\1\0\1\0\0\0\0", 12));
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_KEY, NULL, NULL);
	FDT(fdt_setprop(ctl, KD, "rsa,exponent", "\0\0\0\0\0\1\0\1", 8));
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_OK, NULL, NULL);
	/* Absent: 65537, as keys written before U-Boot stored the exponent. */
	FDT(fdt_delprop(ctl, KD, "rsa,exponent"));
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_OK, NULL, NULL);
	FDT(fdt_setprop(ctl, KD, "rsa,n0-inverse", "\0\0\0\0\0", 5));
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_KEY, NULL, NULL);
	unload(&f);
	free(ctl);
}

#undef KEYS
#undef KP
#undef KD

/*
 * A signed image whose only hash is a CRC (or MD5) is refused (issue 10,
 * class 3): its payload can be replaced by any bytes plus four that force
 * the same CRC-32.  The forged payload is built here, shown to keep the
 * CRC, and refused; with a SHA-256 node next to the CRC the same forgery
 * is caught by the hash.  Without a signature the CRC is accepted.
 */
static uint32_t crc_forge_tail(const uint8_t *want_crc_be, uint8_t *buf, size_t len)
{
	/* Appending 4 bytes x makes crc(buf||x) any value: solve bit by bit. */
	uint32_t target = (uint32_t)want_crc_be[0] << 24 | (uint32_t)want_crc_be[1] << 16 |
			  (uint32_t)want_crc_be[2] << 8 | want_crc_be[3];
	uint32_t base, col[32], sol = 0, m[32], piv = 0;
	unsigned int b, r, c;

	memset(buf + len, 0, 4);
	base = vfit_crc32(0, buf, len + 4);
	for (b = 0; b < 32; b++) {
		buf[len + b / 8] ^= (uint8_t)(1u << (b % 8));
		col[b] = vfit_crc32(0, buf, len + 4) ^ base;
		buf[len + b / 8] ^= (uint8_t)(1u << (b % 8));
	}
	/* Gaussian elimination over GF(2): columns col[b] to reach target ^ base. */
	for (b = 0; b < 32; b++)
		m[b] = col[b];
	{
		uint32_t rhs = target ^ base, sel[32];

		for (b = 0; b < 32; b++)
			sel[b] = 1u << b;
		for (r = 0; r < 32; r++) {
			for (c = piv; c < 32 && !(m[c] >> r & 1); c++)
				;
			if (c == 32)
				continue;
			uint32_t t = m[c], ts = sel[c];

			m[c] = m[piv], sel[c] = sel[piv], m[piv] = t, sel[piv] = ts;
			for (c = 0; c < 32; c++)
				if (c != piv && (m[c] >> r & 1))
					m[c] ^= m[piv], sel[c] ^= sel[piv];
			piv++;
		}
		for (r = 0; r < 32; r++)
			for (c = 0; c < piv; c++)
				if ((m[c] >> r & 1) && (rhs >> r & 1))
					sol ^= sel[c];
	}
	for (b = 0; b < 32; b++)
		if (sol >> b & 1)
			buf[len + b / 8] ^= (uint8_t)(1u << (b % 8));
	return vfit_crc32(0, buf, len + 4);
}

static void test_weak_hash(EVP_PKEY *dev)
{
	const char *k = "/images/kernel", *h1 = "/images/kernel/hash-1";
	void *ctl = new_ctl(), *none = new_ctl();
	uint8_t crc[4], forged[3000];
	const uint8_t *data;
	struct fit f;
	int len, i;

	key_node(ctl, "dev", dev, "sha256,rsa2048", "conf");
	for (i = 0; i < 2; i++) {
		/* i = 0: crc32 alone; i = 1: crc32 next to the original sha256 (hash-2). */
		load(&f, "conf-sha256");
		edit(&f);
		data = fdt_getprop(f.b, node(f.b, k), "data", &len);
		vfit_hash(VFIT_HASH_CRC32, data, (size_t)len, crc);
		if (i) {
			uint8_t sha[32];
			int n;

			memcpy(sha, fdt_getprop(f.b, node(f.b, h1), "value", NULL), 32);
			n = fdt_add_subnode(f.b, node(f.b, k), "hash-2");
			FDT(fdt_setprop_string(f.b, n, "algo", "sha256"));
			FDT(fdt_setprop(f.b, node(f.b, "/images/kernel/hash-2"), "value", sha, 32));
		}
		FDT(fdt_setprop_string(f.b, node(f.b, h1), "algo", "crc32"));
		FDT(fdt_setprop(f.b, node(f.b, h1), "value", crc, 4));
		done(&f);
		resign(&f, dev);
		EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), i ? VFIT_OK : VFIT_ERR_WEAK_HASH,
		       i ? NULL : k, NULL);
		/* The forgery: other bytes, same CRC-32. */
		memset(forged, 0xee, sizeof(forged));
		CHECK(crc_forge_tail(crc, forged, (size_t)len - 4) ==
		      ((uint32_t)crc[0] << 24 | (uint32_t)crc[1] << 16 | (uint32_t)crc[2] << 8 | crc[3]),
		      "forged payload keeps the CRC-32");
		FDT(fdt_setprop_inplace(f.b, node(f.b, k), "data", forged, len));
		EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0),
		       i ? VFIT_ERR_HASH : VFIT_ERR_WEAK_HASH, i ? "/images/kernel/hash-2" : k, NULL);
		/* Unsigned: the CRC is the integrity check, and it holds. */
		EXPECT(verify_ctl(&f, f.len, none, 16384, NULL, VFIT_VERIFY_ALLOW_UNENFORCED),
		       i ? VFIT_ERR_HASH : VFIT_OK, NULL, NULL);
		unload(&f);
	}
	/* MD5 or CRC-16 alone is no better. */
	for (i = 0; i < 2; i++) {
		const enum vfit_hash weak = i ? VFIT_HASH_CRC16 : VFIT_HASH_MD5;
		uint8_t v[VFIT_HASH_MAX_SIZE];

		load(&f, "conf-sha256");
		edit(&f);
		data = fdt_getprop(f.b, node(f.b, k), "data", &len);
		vfit_hash(weak, data, (size_t)len, v);
		FDT(fdt_setprop_string(f.b, node(f.b, h1), "algo", vfit_hash_name(weak)));
		FDT(fdt_setprop(f.b, node(f.b, h1), "value", v, (int)vfit_hash_size(weak)));
		done(&f);
		resign(&f, dev);
		EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_WEAK_HASH, k, NULL);
		EXPECT(verify_ctl(&f, f.len, none, 16384, NULL, VFIT_VERIFY_ALLOW_UNENFORCED), VFIT_OK,
		       NULL, NULL);
		unload(&f);
	}
	free(ctl);
	free(none);
}

/* An encrypted image is refused unless the caller decrypts (VFIT_VERIFY_ALLOW_CIPHER): its hashes cover ciphertext. */
static void test_cipher(EVP_PKEY *dev)
{
	void *ctl = new_ctl();
	struct fit f;
	int c;

	key_node(ctl, "dev", dev, "sha256,rsa2048", "conf");
	load(&f, "conf-sha256");
	edit(&f);
	c = fdt_add_subnode(f.b, node(f.b, "/images/kernel"), "cipher");
	FDT(fdt_setprop_string(f.b, c, "algo", "aes256"));
	FDT(fdt_setprop_string(f.b, c, "key-name-hint", "aeskey"));
	done(&f);
	resign(&f, dev);
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_UNSUPPORTED,
	       "/images/kernel/cipher", NULL);
	/* A caller that decrypts: accepted under the required configuration signature. */
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, VFIT_VERIFY_ALLOW_CIPHER), VFIT_OK, NULL,
	       NULL);
	CHECK(res.conf_verified && res.nimages >= 1, "cipher: configuration verified");
	/*
	 * The same FIT with the key not required: its configuration signature
	 * verifies but enforces nothing, so the IV is not vouched for.
	 */
	FDT(fdt_delprop(ctl, fdt_path_offset(ctl, "/signature/key-dev"), "required"));
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL,
			  VFIT_VERIFY_ALLOW_CIPHER | VFIT_VERIFY_ALLOW_UNENFORCED),
	       VFIT_ERR_UNSUPPORTED, "/images/kernel/cipher", NULL);
	FDT(fdt_setprop_string(ctl, fdt_path_offset(ctl, "/signature/key-dev"), "required", "conf"));
	unload(&f);
	/*
	 * Under required image signatures alone (no configuration signature):
	 * they cover the ciphertext, never the cipher node's IV.
	 */
	load(&f, "image-sigs");
	EXPECT(verify(&f, CTL_IMAGE), VFIT_OK, NULL, NULL);
	edit(&f);
	c = fdt_add_subnode(f.b, node(f.b, "/images/kernel"), "cipher");
	FDT(fdt_setprop_string(f.b, c, "algo", "aes256"));
	FDT(fdt_setprop_string(f.b, c, "key-name-hint", "aeskey"));
	done(&f);
	EXPECT(verify_ctl(&f, f.len, fuzz_ctl[CTL_IMAGE].p, fuzz_ctl[CTL_IMAGE].len, NULL,
			  VFIT_VERIFY_ALLOW_CIPHER), VFIT_ERR_UNSUPPORTED, "/images/kernel/cipher",
	       NULL);
	unload(&f);
	/* Not a cipher node U-Boot decrypts with (it looks up exactly "cipher"). */
	load(&f, "conf-sha256");
	edit(&f);
	c = fdt_add_subnode(f.b, node(f.b, "/images/kernel"), "cipher-2");
	FDT(fdt_setprop_string(f.b, c, "algo", "aes256"));
	done(&f);
	resign(&f, dev);
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, VFIT_VERIFY_ALLOW_CIPHER),
	       VFIT_ERR_UNSUPPORTED, "/images/kernel/cipher-2", NULL);
	unload(&f);
	free(ctl);
}

/* 8.9: a dm-verity node is part of the signed node list. */
static void test_dm_verity(EVP_PKEY *dev)
{
	void *ctl = new_ctl();
	struct fit f;
	int v;

	key_node(ctl, "dev", dev, "sha256,rsa2048", "conf");
	load(&f, "conf-sha256");
	edit(&f);
	v = fdt_add_subnode(f.b, node(f.b, "/images/ramdisk-1"), "dm-verity");
	FDT(fdt_setprop_string(f.b, v, "algo", "sha256"));
	FDT(fdt_setprop(f.b, v, "digest", "0123456789abcdef0123456789abcdef", 32));
	FDT(fdt_setprop(f.b, v, "salt", "saltsaltsaltsalt", 16));
	done(&f);
	resign(&f, dev);
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_OK, NULL, NULL);
	FDT(fdt_setprop_inplace(f.b, node(f.b, "/images/ramdisk-1/dm-verity"), "digest",
			    "X123456789abcdef0123456789abcdef", 32));
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_REQUIRED,
	       "/configurations/conf-1/signature-1", "value");
	unload(&f);
	free(ctl);
}

/* Integer cube root (floor) by Newton's method. */
static BIGNUM *cbrt_bn(const BIGNUM *a, BN_CTX *bc)
{
	BIGNUM *x = BN_new(), *y = BN_new(), *t = BN_new(), *three = BN_new();

	BN_set_word(three, 3);
	BN_one(x);
	BN_lshift(x, x, (BN_num_bits(a) + 2) / 3 + 1);
	for (;;) {
		/* y = (2x + a / x^2) / 3 */
		BN_sqr(t, x, bc);
		BN_div(y, NULL, a, t, bc);
		BN_add(y, y, x);
		BN_add(y, y, x);
		BN_div(y, NULL, y, three, bc);
		if (BN_cmp(y, x) >= 0)
			break;
		BN_copy(x, y);
	}
	BN_free(y);
	BN_free(t);
	BN_free(three);
	return x;
}

/*
 * Bleichenbacher 2006 against e = 3: s = ceil(cbrt(00 01 FF 00 DigestInfo
 * H 00..00)) makes s^3 start with a valid-looking PKCS#1 prefix followed
 * by garbage, with no modular reduction.  A parser that stops after the
 * digest accepts it; rebuilding the whole encoding rejects it.
 */
static void test_bleichenbacher(void)
{
	static const uint8_t di[] = {
		0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04,
		0x02, 0x01, 0x05, 0x00, 0x04, 0x20,
	};
	EVP_PKEY *k3 = rsa_key(2048, 3);
	void *ctl = new_ctl();
	struct vfit_node_list list;
	struct vfit_pubkey key;
	uint8_t em[256], digest[32], s[256], out[256];
	BN_CTX *bc = BN_CTX_new();
	BIGNUM *t = BN_new(), *x;
	const uint8_t *hs;
	struct fit f;
	size_t pre;

	key_node(ctl, "dev", k3, "sha256,rsa2048", "conf");
	load(&f, "conf-sha256");
	CHECK(vfit_conf_nodes(f.b, node(f.b, "/configurations/conf-1"), &list, NULL) == VFIT_OK,
	      "node list");
	hs = fdt_getprop(f.b, node(f.b, "/configurations/conf-1/signature-1"), "hashed-strings",
			 NULL);
	digest_of(f.b, &list, fdt32_ld((const fdt32_t *)(hs + 4)), digest);
	memset(em, 0, sizeof(em));
	em[1] = 1;
	em[2] = 0xff;
	em[3] = 0;
	memcpy(em + 4, di, sizeof(di));
	memcpy(em + 4 + sizeof(di), digest, 32);
	pre = 4 + sizeof(di) + 32;
	BN_bin2bn(em, sizeof(em), t);
	x = cbrt_bn(t, bc);
	BN_add_word(x, 1);
	BN_bn2binpad(x, s, sizeof(s));
	FDT(fdt_setprop_inplace(f.b, node(f.b, "/configurations/conf-1/signature-1"), "value", s, 256));

	/* The forgery is real: s^3 mod n carries the expected prefix... */
	CHECK(vfit_key_load(ctl, fdt_path_offset(ctl, "/signature/key-dev"), "sha256,rsa2048", 15,
			    &key) == VFIT_OK &&
	      vfit_rsa_public(&key.u.rsa, s, 256, out) == VFIT_OK && !memcmp(out, em, pre),
	      "e=3 forgery has a valid prefix");
	/* ...and is refused. */
	EXPECT(verify_ctl(&f, f.len, ctl, 16384, NULL, 0), VFIT_ERR_REQUIRED,
	       "/configurations/conf-1/signature-1", "value");
	unload(&f);
	BN_free(x);
	BN_free(t);
	BN_CTX_free(bc);
	EVP_PKEY_free(k3);
	free(ctl);
}

/* Structure limits: depth, path length, references to missing images. */
static void test_limits(void)
{
	struct fit f;
	char name[200];
	int n, i;

	load(&f, "conf-sha256");
	edit(&f);
	n = node(f.b, "/images/kernel");
	for (i = 0; i < 31; i++)
		n = fdt_add_subnode(f.b, n, "d");
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_LIMIT, NULL, NULL);
	unload(&f);

	load(&f, "conf-sha256");
	edit(&f);
	memset(name, 'x', sizeof(name));
	name[191] = 0;
	n = fdt_add_subnode(f.b, node(f.b, "/images"), name);
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_LIMIT, NULL, NULL);
	unload(&f);

	load(&f, "conf-sha256");
	edit(&f);
	FDT(fdt_setprop_string(f.b, node(f.b, "/configurations/conf-2"), "kernel", "nope"));
	done(&f);
	EXPECT(verify_ctl(&f, f.len, fuzz_ctl[0].p, fuzz_ctl[0].len, "conf-2", 0),
	       VFIT_ERR_MISSING, "/configurations/conf-2", "kernel");
	unload(&f);

	/* Bytes after FDT_END inside the structure block. */
	load(&f, "conf-sha256");
	edit(&f);
	insert(&f, (int)fdt_size_dt_struct(f.b), "\0\0\0\4", 4);
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_FORMAT, NULL, NULL);
	unload(&f);
}

/*
 * A control FDT without /signature trusts no key.  fdt_for_each_subnode()
 * on the missing node's -FDT_ERR_NOTFOUND starts at the root, so the key
 * properties of ctl_image copied onto the control root must not be used
 * to report an image signature as verified.
 */
static void test_no_keys_root(void)
{
	static uint8_t ctl[4096];
	const void *src = fuzz_ctl[CTL_IMAGE].p;
	int key = fdt_first_subnode(src, fdt_subnode_offset(src, 0, "signature"));
	int prop, len;
	const char *name;
	const void *val;
	unsigned int i, ok = 0;
	struct fit f;

	CHECK(!fdt_create_empty_tree(ctl, sizeof(ctl)), "empty control");
	fdt_for_each_property_offset(prop, src, key) {
		val = fdt_getprop_by_offset(src, prop, &name, &len);
		CHECK(val && !fdt_setprop(ctl, 0, name, val, len), "copy %s", name);
	}
	FDT(fdt_pack(ctl));
	load(&f, "image-sigs");
	EXPECT(verify_ctl(&f, f.len, ctl, fdt_totalsize(ctl), NULL, VFIT_VERIFY_ALLOW_UNENFORCED),
	       VFIT_OK, NULL, NULL);
	for (i = 0; i < res.nchecks; i++)
		ok += res.check[i].kind == VFIT_CHECK_IMAGE_SIG && !res.check[i].result;
	CHECK(res.unenforced && ok == 0, "%u image signatures verified without keys", ok);
	unload(&f);
}

/*
 * A property token after a node's subnodes: fdt_check_full() accepts it,
 * libfdt's property lookups stop at the first subnode and never see it,
 * but the region walk hashes it.  A second "load" placed there changes
 * the message; moving the (excluded) "data" there leaves the message
 * alone but leaves the verifier without the payload.
 */
static void test_prop_after_subnode(void)
{
	const char *sig = "/configurations/conf-1/signature-1";
	const struct fdt_property *fp;
	uint8_t tok[16];
	struct fit f;
	int k, start, end;

	load(&f, "conf-sha256");
	edit(&f);
	k = node(f.b, "/images/kernel");
	fp = fdt_get_property(f.b, k, "load", NULL);
	memcpy(tok, "\0\0\0\3\0\0\0\4", 8);
	memcpy(tok + 8, &fp->nameoff, 4);
	memcpy(tok + 12, "\0\0\x10\0", 4);
	subtree(f.b, k, &start, &end);
	insert(&f, end - 4, tok, sizeof(tok));
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_REQUIRED, sig, "value");
	unload(&f);

	load(&f, "conf-sha256");
	edit(&f);
	{
		uint8_t *copy;
		int off, next, len;

		k = node(f.b, "/images/kernel");
		for (off = fdt_first_property_offset(f.b, k); off >= 0;
		     off = fdt_next_property_offset(f.b, off)) {
			const char *name;

			fdt_getprop_by_offset(f.b, off, &name, &len);
			if (!strcmp(name, "data"))
				break;
		}
		fdt_next_tag(f.b, off, &next);
		copy = malloc((size_t)(next - off));
		memcpy(copy, f.b + fdt_off_dt_struct(f.b) + off, (size_t)(next - off));
		subtree(f.b, k, &start, &end);
		insert(&f, end - 4, copy, (size_t)(next - off));
		FDT(fdt_delprop(f.b, k, "data"));
		free(copy);
	}
	done(&f);
	EXPECT(verify(&f, CTL_CONF), VFIT_ERR_MISSING, "/images/kernel", "data");
	unload(&f);
}

/*
 * An image named many times is verified once: one record per hash and
 * signature node, not one per reference (no hashing amplification), and
 * every reference shares the verified location.
 */
static void test_repeated_refs(void)
{
	const char refs[] = "kernel\0kernel\0kernel\0kernel\0kernel\0kernel";
	unsigned int i, hashes = 0, sigs = 0;
	struct fit f;

	load(&f, "image-sigs");
	edit(&f);
	FDT(fdt_setprop(f.b, node(f.b, "/configurations/conf-1"), "loadables", refs, sizeof(refs)));
	done(&f);
	EXPECT(verify(&f, CTL_IMAGE), VFIT_OK, NULL, NULL);
	for (i = 0; i < res.nchecks; i++) {
		if (res.check[i].image && !strcmp(res.check[i].image, "kernel"))
			res.check[i].kind == VFIT_CHECK_HASH ? hashes++ : sigs++;
	}
	CHECK(hashes == 1 && sigs == 1, "kernel checked once (%u hash, %u signature records)",
	      hashes, sigs);
	CHECK(res.nimages >= 7, "every reference in the table (%u)", res.nimages);
	for (i = 1; i < res.nimages; i++) {
		if (strcmp(res.image[i].name, "kernel"))
			continue;
		CHECK(res.image[i].data == res.image[0].data && res.image[i].size ==
		      res.image[0].size && !strcmp(res.image[i].prop, "loadables"),
		      "reference %u shares the verified kernel", i);
	}
	unload(&f);
}

/*
 * A property length that wraps libfdt's next-tag offset back onto the tag
 * (0xfffffff4: 4 + 8 + len == 0 mod 2^32) or before it: libfdt's own
 * fdt_check_full() loops forever on it (found by fuzz_keys).  The walk
 * must refuse it, in the FIT, in the control DTB and in vfit_fdt_check().
 */
static void set_len(uint8_t *fdt, int prop, uint32_t len)
{
	fdt32_st(fdt + fdt_off_dt_struct(fdt) + prop + 4, len);
}

static void test_wrapping_length(void)
{
	static const uint32_t lens[] = { 0xfffffff4, 0xfffffff0, 0xffffff00, 0x80000000 };
	uint8_t ctl[4096];
	unsigned int i;
	struct fit f;
	int prop;

	CHECK(fuzz_ctl[CTL_CONF].len <= sizeof(ctl), "control DTB fits");
	load(&f, "conf-sha256");
	prop = fdt_first_property_offset(f.b, 0);
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		set_len(f.b, prop, lens[i]);
		EXPECT(verify(&f, CTL_CONF), VFIT_ERR_FORMAT, NULL, NULL);
		CHECK(vfit_fdt_check(f.b, f.len, NULL) == VFIT_ERR_FORMAT, "FIT, length %#x", lens[i]);

		memcpy(ctl, fuzz_ctl[CTL_CONF].p, fuzz_ctl[CTL_CONF].len);
		set_len(ctl, fdt_first_property_offset(ctl, fdt_subnode_offset(ctl, fdt_subnode_offset(
				ctl, 0, "signature"), "key-dev")), lens[i]);
		CHECK(vfit_control_check(ctl, fuzz_ctl[CTL_CONF].len, NULL) == VFIT_ERR_CONTROL,
		      "control DTB, length %#x", lens[i]);
		CHECK(vfit_fdt_check(ctl, fuzz_ctl[CTL_CONF].len, NULL) == VFIT_ERR_FORMAT,
		      "control DTB, vfit_fdt_check, length %#x", lens[i]);
	}
	unload(&f);
}

int main(void)
{
	EVP_PKEY *dev = rsa_key(2048, 65537), *prod = rsa_key(2048, 65537);

	test_good();
	test_substitution();
	test_roots();
	test_unit_address();
	test_clone();
	test_hashed_strings();
	test_external();
	test_sizes();
	test_tamper();
	test_mix();
	test_keys(dev, prod);
	test_dm_verity(dev);
	test_policy(dev, prod);
	test_weak_hash(dev);
	test_cipher(dev);
	test_bleichenbacher();
	test_limits();
	test_no_keys_root();
	test_prop_after_subnode();
	test_repeated_refs();
	test_wrapping_length();
	EVP_PKEY_free(dev);
	EVP_PKEY_free(prod);
	return check_done();
}
