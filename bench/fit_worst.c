/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fit_worst DIR [BYTES]: the adversarial FITs of bench/worst.sh (issue 10,
 * class 1), each about BYTES (default 4 MiB), written to DIR with the
 * control DTB that verifies them (DIR/ctl.dtb: key "dev", required for
 * configurations).
 *
 * A small FIT is built and signed here (kernel, fdt-1, conf-1 signed with
 * sha256,rsa2048), then padded where no signature looks, as someone who
 * cannot sign would do it: tokens spliced into /images or /configurations,
 * strings appended past hashed-strings.  Three shapes change what is
 * signed instead (16 signature nodes, 32 names, 16 hash nodes): those are
 * the signer's own worst cases.  Every FIT verifies, sigs-16 after
 * fifteen signature nodes that fail.
 *
 * For each FIT one line: its name, bytes, FDT tags, the tag steps
 * vfit_verify() takes (fdt_next_tag() interposed, as in
 * tests/unit/test_fit_scale.c; libfdt's own calls go through its PLT) and
 * the result.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

#include "vfit/fit.h"
#include "vfit-host/host.h"

static unsigned long steps;

uint32_t fdt_next_tag(const void *blob, int offset, int *nextoffset)
{
	static uint32_t (*real)(const void *, int, int *);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "fdt_next_tag");
	steps++;
	return real(blob, offset, nextoffset);
}

static void die(const char *what)
{
	fprintf(stderr, "fit_worst: %s failed\n", what);
	exit(1);
}

static void *zalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		die("calloc");
	return p;
}

/* ---- token streams ------------------------------------------------------------ */

struct toks {
	uint8_t *p;
	size_t n, cap;
};

static void put(struct toks *t, const void *p, size_t n)
{
	if (t->n + n > t->cap) {
		t->cap = (t->n + n) * 2;
		t->p = realloc(t->p, t->cap);
		if (!t->p)
			die("realloc");
	}
	memcpy(t->p + t->n, p, n);
	t->n += n;
}

static void put32(struct toks *t, uint32_t v)
{
	fdt32_t be = cpu_to_fdt32(v);

	put(t, &be, 4);
}

static void begin(struct toks *t, const char *name)
{
	static const uint8_t zero[4];
	size_t n = strlen(name) + 1;

	put32(t, FDT_BEGIN_NODE);
	put(t, name, n);
	put(t, zero, (4 - n % 4) % 4);
}

static void end(struct toks *t)
{
	put32(t, FDT_END_NODE);
}

/* An empty property: 12 bytes, the cheapest token that makes libfdt read a name. */
static void prop0(struct toks *t, uint32_t nameoff)
{
	put32(t, FDT_PROP);
	put32(t, 0);
	put32(t, nameoff);
}

/* ---- splicing into a FIT opened with fdt_open_into() ---------------------------- */

/* That layout ends with the strings block; the rest of totalsize is free. */
static uint32_t used(const void *b)
{
	return fdt_off_dt_strings(b) + fdt_size_dt_strings(b);
}

/* Inserts t as the first contents of the node at offset node. */
static void splice(uint8_t *b, int node, const struct toks *t)
{
	int at;
	uint32_t pos;

	if (fdt_next_tag(b, node, &at) != FDT_BEGIN_NODE || used(b) + t->n > fdt_totalsize(b))
		die("splice");
	pos = fdt_off_dt_struct(b) + (uint32_t)at;
	memmove(b + pos + t->n, b + pos, used(b) - pos);
	memcpy(b + pos, t->p, t->n);
	fdt_set_size_dt_struct(b, fdt_size_dt_struct(b) + (uint32_t)t->n);
	fdt_set_off_dt_strings(b, fdt_off_dt_strings(b) + (uint32_t)t->n);
}

/* Appends s to the strings block, past what any signature hashes; its nameoff. */
static uint32_t add_string(uint8_t *b, const char *s, size_t n)
{
	uint32_t off = fdt_size_dt_strings(b);

	if (used(b) + n + 1 > fdt_totalsize(b))
		die("add_string");
	memcpy(b + used(b), s, n);
	b[used(b) + n] = 0;
	fdt_set_size_dt_strings(b, off + (uint32_t)n + 1);
	return off;
}

static int path(const uint8_t *b, const char *p)
{
	int off = fdt_path_offset(b, p);

	if (off < 0)
		die(p);
	return off;
}

/* ---- the signed base FIT ------------------------------------------------------- */

struct base {
	size_t payload;         /* kernel bytes */
	int hashes;             /* hash nodes of the kernel, algorithms in turn */
	int sigs;               /* signature nodes of conf-1; only the last one is valid */
	int names;              /* extra names in conf-1 (x-names), each NAME_LEN long */
};

#define NAME_LEN 143

static EVP_PKEY *key;

/*
 * NAME_LEN - 3 bytes of 'n', then sep and i in hex: the configuration's
 * extra names ("-NN") and the siblings that nearly match them ("_NNNNNN").
 */
static void long_name(char *s, char sep, unsigned long i, int digits)
{
	memset(s, 'n', NAME_LEN - 3);
	snprintf(s + NAME_LEN - 3, 16, "%c%0*lx", sep, digits, i);
}

static void image(void *b, const char *name, const char *type, size_t size, int hashes)
{
	static const enum vfit_hash algo[] = {
		VFIT_HASH_SHA256, VFIT_HASH_CRC16, VFIT_HASH_CRC32, VFIT_HASH_MD5,
		VFIT_HASH_SHA1, VFIT_HASH_SHA384, VFIT_HASH_SHA512,
	};
	uint8_t *data = zalloc(size), h[VFIT_HASH_MAX_SIZE];
	uint32_t x = 1;
	char node[32];
	size_t i;
	int k;

	for (i = 0; i < size; i++) {
		x = x * 1103515245u + 12345u;
		data[i] = (uint8_t)(x >> 24);
	}
	fdt_begin_node(b, name);
	fdt_property_string(b, "description", name);
	fdt_property(b, "data", data, (int)size);
	fdt_property_string(b, "type", type);
	fdt_property_string(b, "arch", "arm64");
	fdt_property_string(b, "os", "linux");
	fdt_property_string(b, "compression", "none");
	fdt_property_u32(b, "load", 0x40480000);
	fdt_property_u32(b, "entry", 0x40480000);
	for (k = 0; k < hashes; k++) {
		enum vfit_hash a = algo[k % (int)(sizeof(algo) / sizeof(algo[0]))];

		snprintf(node, sizeof(node), "hash-%d", k + 1);
		fdt_begin_node(b, node);
		fdt_property_string(b, "algo", vfit_hash_name(a));
		vfit_hash(a, data, size, h);
		fdt_property(b, "value", h, (int)vfit_hash_size(a));
		fdt_end_node(b);
	}
	fdt_end_node(b);
	free(data);
}

static void conf(void *b, const struct base *o)
{
	static const uint8_t zero[256];
	char *names = zalloc((size_t)o->names * (NAME_LEN + 1) + 1), node[32];
	int i;

	fdt_begin_node(b, "configurations");
	fdt_property_string(b, "default", "conf-1");
	fdt_begin_node(b, "conf-1");
	fdt_property_string(b, "description", "worst case");
	fdt_property_string(b, "kernel", "kernel");
	fdt_property_string(b, "fdt", "fdt-1");
	for (i = 0; i < o->names; i++)
		long_name(names + i * (NAME_LEN + 1), '-', (unsigned long)i, 2);
	if (o->names)
		fdt_property(b, "x-names", names, o->names * (NAME_LEN + 1));
	for (i = 0; i < o->sigs; i++) {
		snprintf(node, sizeof(node), "signature-%d", i + 1);
		fdt_begin_node(b, node);
		fdt_property_string(b, "algo", "sha256,rsa2048");
		fdt_property_string(b, "key-name-hint", "dev");
		fdt_property(b, "value", zero, 256);
		fdt_property(b, "hashed-strings", zero, 8);
		fdt_end_node(b);
	}
	fdt_end_node(b);
	fdt_end_node(b);
	free(names);
}

/*
 * Signs signature-i of conf-1 over the first `strings` bytes of the
 * strings block, as mkimage would with that hashed-strings.
 */
static void sign(uint8_t *b, int i, uint32_t strings)
{
	char p[64];
	int sig;
	struct vfit_node_list list;
	struct vfit_hash_ctx h;
	uint8_t digest[32], out[256];
	size_t olen = sizeof(out);
	fdt32_t cells[2] = { 0, cpu_to_fdt32(strings) };
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(key, NULL);

	snprintf(p, sizeof(p), "/configurations/conf-1/signature-%d", i);
	sig = path(b, p);
	if (fdt_setprop_inplace(b, sig, "hashed-strings", cells, 8) ||
	    vfit_conf_nodes(b, path(b, "/configurations/conf-1"), &list, NULL))
		die("node list");
	vfit_hash_init(&h, VFIT_HASH_SHA256);
	if (vfit_conf_digest(b, &list, strings, &h))
		die("vfit_conf_digest");
	vfit_hash_final(&h, digest);
	if (!c || EVP_PKEY_sign_init(c) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING) <= 0 ||
	    EVP_PKEY_CTX_set_signature_md(c, EVP_sha256()) <= 0 ||
	    EVP_PKEY_sign(c, out, &olen, digest, 32) <= 0)
		die("EVP_PKEY_sign");
	EVP_PKEY_CTX_free(c);
	fdt_setprop_inplace(b, sig, "value", out, 256);
}

/* signature-i of conf-1 with hashed-strings, but a value nothing signed. */
static void bad_sig(uint8_t *b, int i, uint32_t strings)
{
	char p[64];
	uint8_t junk[256];
	fdt32_t cells[2] = { 0, cpu_to_fdt32(strings) };
	int sig;

	memset(junk, 0x5a, sizeof(junk));
	snprintf(p, sizeof(p), "/configurations/conf-1/signature-%d", i);
	sig = path(b, p);
	if (fdt_setprop_inplace(b, sig, "hashed-strings", cells, 8) ||
	    fdt_setprop_inplace(b, sig, "value", junk, sizeof(junk)))
		die("signature node");
}

/*
 * The base FIT, signed, opened into a buffer of cap bytes.  With several
 * signature nodes, each gets its own hashed-strings length (no two share
 * a message, so nothing a verifier caches per message helps); only the
 * last one is signed, so a verifier tries all of them.
 */
static uint8_t *base(const struct base *o, size_t cap)
{
	size_t scap = o->payload + 65536 + (size_t)o->names * 256;
	uint8_t *s = zalloc(scap), *b = zalloc(cap);
	uint32_t strings;
	int i;

	fdt_create(s, (int)scap);
	fdt_finish_reservemap(s);
	fdt_begin_node(s, "");
	fdt_property_string(s, "description", "vfit worst case");
	fdt_property_u32(s, "timestamp", 1700000000);
	fdt_begin_node(s, "images");
	image(s, "kernel", "kernel", o->payload, o->hashes);
	image(s, "fdt-1", "flat_dt", 256, 1);
	fdt_end_node(s);
	conf(s, o);
	fdt_end_node(s);
	if (fdt_finish(s) || fdt_open_into(s, b, (int)cap))
		die("base FIT");
	free(s);
	strings = fdt_size_dt_strings(b);
	for (i = 1; i < o->sigs; i++)
		bad_sig(b, i, strings - (uint32_t)(o->sigs - i));
	sign(b, o->sigs, strings);
	return b;
}

/* ---- the shapes ---------------------------------------------------------------- */

/* A node "pad" of n NOPs (and its tokens), the red team's filler. */
static void nops(struct toks *t, size_t n)
{
	begin(t, "pad");
	while (n--)
		put32(t, FDT_NOP);
	end(t);
}

/* Bytes the shape may add to a base of `have` bytes for a FIT of `want`. */
static size_t room(size_t want, size_t have)
{
	if (have + 4096 > want)
		die("size (BYTES too small)");
	return want - have - 64;
}

/*
 * A node of NOPs filling the room (a million at 4 MiB), then 4,000 empty
 * siblings: the old check rescanned the NOPs for each sibling, and its
 * 4,096-node limit capped the siblings.
 */
static void nop_siblings(uint8_t *b, size_t n)
{
	struct toks t = { 0 };
	char name[16];
	int i;

	nops(&t, (n - 4000 * 16 - 16) / 4);
	for (i = 0; i < 4000; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		begin(&t, name);
		end(&t);
	}
	splice(b, path(b, "/images"), &t);
	free(t.p);
}

/* As many empty children of /images as fit, 16 bytes each. */
static void siblings(uint8_t *b, size_t n)
{
	struct toks t = { 0 };
	char name[16];
	unsigned long i;

	for (i = 0; t.n + 16 <= n; i++) {
		snprintf(name, sizeof(name), "s%05lx", i);
		begin(&t, name);
		end(&t);
	}
	splice(b, path(b, "/images"), &t);
	free(t.p);
}

/*
 * Chains of nodes under /images nested down to the 32-level limit (root
 * is level 1): c<n>/d/d/.../d.
 */
static void deep(uint8_t *b, size_t n)
{
	const int levels = VFIT_MAX_DEPTH - 2;
	struct toks t = { 0 };
	char name[16];
	unsigned long c;
	int i;

	for (c = 0; t.n + (size_t)levels * 12 + 4 <= n; c++) {
		snprintf(name, sizeof(name), "c%05lx", c);
		begin(&t, name);
		for (i = 1; i < levels; i++)
			begin(&t, "d");
		for (i = 0; i < levels; i++)
			end(&t);
	}
	splice(b, path(b, "/images"), &t);
	free(t.p);
}

/*
 * About n bytes of empty properties all named `name` (len bytes), as the
 * first properties of the node at `where`, or in a node "pad" of its own.
 */
static void props_at(uint8_t *b, size_t n, const char *where, bool pad, const char *name,
		     size_t len)
{
	struct toks t = { 0 };
	uint32_t off = add_string(b, name, len);
	size_t i, count = n / 12 - 1;

	if (pad)
		begin(&t, "pad");
	for (i = 0; i < count; i++)
		prop0(&t, off);
	if (pad)
		end(&t);
	splice(b, path(b, where), &t);
	free(t.p);
}

static void props(uint8_t *b, size_t n)
{
	props_at(b, n, "/images", true, "p", 1);
}

/* Unsigned properties of /configurations, looked through for `default`. */
static void conf_props(uint8_t *b, size_t n)
{
	props_at(b, n, "/configurations", false, "x-pad", 5);
}

/*
 * Empty properties that all use one name of the longest length the
 * verifier accepts: every check that reads a property's name measures its
 * length.  A longer name is refused at its first property (one name of
 * half the FIT cost 8.4 s before names were bounded: libfdt scans a name
 * to its NUL on every read).
 */
static void long_name_at(uint8_t *b, size_t n, const char *where, bool pad)
{
	char name[VFIT_PROP_NAME_MAX + 1];

	memset(name, 'x', VFIT_PROP_NAME_MAX);
	name[VFIT_PROP_NAME_MAX] = 0;
	props_at(b, n - VFIT_PROP_NAME_MAX, where, pad, name, VFIT_PROP_NAME_MAX);
}

static void long_names(uint8_t *b, size_t n)
{
	long_name_at(b, n, "/images", true);
}

/* The same in /configurations: its `default` is looked up by name. */
static void conf_long_names(uint8_t *b, size_t n)
{
	long_name_at(b, n, "/configurations", false);
}

/* Siblings whose long names share the configuration's names up to their last bytes. */
static void near_names(uint8_t *b, size_t n)
{
	struct toks t = { 0 };
	char name[NAME_LEN + 16];
	unsigned long i;

	for (i = 0; t.n + 4 + NAME_LEN + 9 <= n; i++) {
		long_name(name, '_', i, 6);
		begin(&t, name);
		end(&t);
	}
	splice(b, path(b, "/images"), &t);
	free(t.p);
}

static void nop_pad(uint8_t *b, size_t n)
{
	struct toks t = { 0 };

	nops(&t, (n - 16) / 4);
	splice(b, path(b, "/images"), &t);
	free(t.p);
}

struct shape {
	const char *name, *what;
	struct base base;
	void (*pad)(uint8_t *b, size_t n);
	bool half;              /* built at half the size too, to show the growth */
};

static const struct shape shapes[] = {
	{ "nop-siblings", "a node of NOPs, then 4,000 empty siblings (issue 10)",
	  { 4096, 1, 1, 0 }, nop_siblings, false },
	{ "siblings", "empty children of /images, 16 bytes each",
	  { 4096, 1, 1, 0 }, siblings, false },
	{ "deep", "chains of nodes nested to the 32-level limit",
	  { 4096, 1, 1, 0 }, deep, false },
	{ "props", "empty properties in one node under /images",
	  { 4096, 1, 1, 0 }, props, false },
	{ "conf-props", "empty properties of /configurations (read for default)",
	  { 4096, 1, 1, 0 }, conf_props, false },
	{ "long-name", "empty properties sharing one name of the longest length allowed",
	  { 4096, 1, 1, 0 }, long_names, true },
	{ "conf-long-name", "the same as first properties of /configurations",
	  { 4096, 1, 1, 0 }, conf_long_names, false },
	{ "sigs-16", "16 signature nodes (15 bad, distinct hashed-strings) + NOP pad",
	  { 4096, 1, 16, 0 }, nop_pad, false },
	{ "names-32", "conf naming 32 strings + siblings sharing their 140-byte prefix",
	  { 4096, 1, 1, 30 }, near_names, false },
	{ "hashes-16", "16 hash nodes of 7 algorithms on a kernel filling the FIT",
	  { 0, 16, 1, 0 }, NULL, false },
};

/* Tags in the structure block, by a walk of our own (not counted). */
static unsigned long count_tags(const uint8_t *b)
{
	const uint8_t *p = b + fdt_off_dt_struct(b);
	uint32_t off = 0, size = fdt_size_dt_struct(b), tag;
	unsigned long n = 0;

	while (off < size) {
		tag = fdt32_ld((const fdt32_t *)(p + off));
		off += 4;
		n++;
		if (tag == FDT_BEGIN_NODE)
			off += (uint32_t)(strlen((const char *)p + off) + 4) & ~3u;
		else if (tag == FDT_PROP)
			off += 8 + ((fdt32_ld((const fdt32_t *)(p + off)) + 3) & ~3u);
		else if (tag == FDT_END)
			break;
	}
	return n;
}

static void save(const char *dir, const char *name, const char *ext, const void *p, size_t n)
{
	char file[4096];
	FILE *f;

	snprintf(file, sizeof(file), "%s/%s%s", dir, name, ext);
	f = fopen(file, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f))
		die(file);
}

static void build(const char *dir, const struct shape *s, const char *name, size_t want,
		  const void *ctl)
{
	static struct vfit_verify_result res;
	struct base o = s->base;
	size_t cap = want + (1u << 20), len;
	unsigned long tags;
	enum vfit_result r;
	uint8_t *b;

	if (!s->pad)
		o.payload = room(want, 16384);
	b = base(&o, cap);
	if (s->pad)
		s->pad(b, room(want, used(b)));
	if (fdt_pack(b))
		die("fdt_pack");
	len = fdt_totalsize(b);
	tags = count_tags(b);
	steps = 0;
	r = vfit_verify(b, len, ctl, fdt_totalsize(ctl), NULL, 0, &res);
	printf("%-14s %9zu %8lu %10lu %6.2f  %-16s %s\n", name, len, tags, steps,
	       (double)steps / (double)tags, vfit_result_to_string(r), s->what);
	save(dir, name, ".fit", b, len);
	free(b);
}

/* Key "dev" (RSA-2048), required for configurations, in a fresh control DTB. */
static void *make_ctl(void)
{
	struct vfit_rsa_pub pub;
	struct vfit_err e = { 0 };
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	void *ctl = zalloc(16384);

	if (!c || EVP_PKEY_keygen_init(c) <= 0 || EVP_PKEY_CTX_set_rsa_keygen_bits(c, 2048) <= 0 ||
	    EVP_PKEY_keygen(c, &key) <= 0 || vfit_rsa_pub_from_pkey(key, &pub, &e))
		die("RSA key");
	EVP_PKEY_CTX_free(c);
	fdt_create_empty_tree(ctl, 16384);
	if (vfit_rsa_keynode_write(ctl, "dev", &pub, "sha256,rsa2048", "conf") || fdt_pack(ctl))
		die("control DTB");
	return ctl;
}

int main(int argc, char **argv)
{
	size_t want = argc > 2 ? strtoul(argv[2], NULL, 0) : 4u << 20;
	char half[64];
	void *ctl;
	unsigned int i;

	if (argc < 2 || argc > 3 || want < (64u << 10) || want > (256u << 20)) {
		fprintf(stderr, "usage: fit_worst DIR [BYTES (64 KiB .. 256 MiB)]\n");
		return 2;
	}
	ctl = make_ctl();
	save(argv[1], "ctl", ".dtb", ctl, fdt_totalsize(ctl));
	printf("%-14s %9s %8s %10s %6s  %-16s %s\n", "shape", "bytes", "tags", "tag-steps",
	       "/tag", "vfit_verify()", "what");
	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		if (shapes[i].half) {
			snprintf(half, sizeof(half), "%s-half", shapes[i].name);
			build(argv[1], &shapes[i], half, want / 2, ctl);
		}
		build(argv[1], &shapes[i], shapes[i].name, want, ctl);
	}
	EVP_PKEY_free(key);
	free(ctl);
	return 0;
}
