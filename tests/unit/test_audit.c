/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit audit's library (host/audit*.c) on FITs built here with libfdt:
 * the structural finding classes that need no signing key, the JSON as
 * a JSON reader parses it, and hostile input: every truncation and
 * random byte flips of a FIT must give a report or a clean error, never a
 * crash (this program runs under ASan+UBSan in unit-asan).  The classes
 * that need signatures are in tests/cli/audit.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>
#include <openssl/rsa.h>

#include "check.h"
#include "json.h"
#include "vfit-host/audit.h"
#include "vfit-host/keys.h"
#include "vfit/hash.h"

#define CAP 8192

static int sub(void *fdt, const char *parent, const char *name)
{
	int p = fdt_path_offset(fdt, parent), n;

	REQUIRE(p >= 0, "no %s", parent);
	n = fdt_add_subnode(fdt, p, name);
	REQUIRE(n >= 0, "add %s/%s", parent, name);
	return n;
}

/* An image with 64 bytes of data, a load address and a hash node of algo (NULL: none). */
static void image(void *fit, const char *name, const char *type, uint32_t load,
		  const char *algo)
{
	char path[128], data[64];
	int n = sub(fit, "/images", name), h;

	memset(data, 'v', sizeof(data));
	FDT(fdt_setprop(fit, n, "data", data, sizeof(data)));
	FDT(fdt_setprop_string(fit, n, "type", type));
	FDT(fdt_setprop_string(fit, n, "compression", "none"));
	if (load) {
		FDT(fdt_setprop_u32(fit, n, "load", load));
		FDT(fdt_setprop_u32(fit, n, "entry", load));
	}
	if (algo) {
		enum vfit_hash a = vfit_hash_lookup(algo, strlen(algo));
		uint8_t v[VFIT_HASH_MAX_SIZE];

		snprintf(path, sizeof(path), "/images/%s", name);
		h = sub(fit, path, "hash-1");
		FDT(fdt_setprop_string(fit, h, "algo", algo));
		REQUIRE(!vfit_hash(a, data, sizeof(data), v), "hash %s", algo);
		FDT(fdt_setprop(fit, h, "value", v, (int)vfit_hash_size(a)));
	}
}

static void *base(void)
{
	void *fit = calloc(1, CAP);

	REQUIRE(fit != NULL, "calloc");
	FDT(fdt_create_empty_tree(fit, CAP));
	FDT(fdt_setprop_string(fit, 0, "description", "audit unit test"));
	FDT(fdt_setprop_u32(fit, 0, "timestamp", 1700000000));
	sub(fit, "/", "images");
	sub(fit, "/", "configurations");
	return fit;
}

static int conf(void *fit, const char *name, const char *kernel, const char *ramdisk)
{
	int c = sub(fit, "/configurations", name);

	FDT(fdt_setprop_string(fit, c, "kernel", kernel));
	if (ramdisk)
		FDT(fdt_setprop_string(fit, c, "ramdisk", ramdisk));
	return c;
}

/* The distinct finding ids of an audit, space-separated and sorted. */
static const char *ids(const void *fit, size_t len, uint64_t loader_size)
{
	static char out[256];
	struct vfit_audit a = { 0 };
	struct vfit_err e = { 0 };
	int i, j;

	a.now = 1800000000;
	a.loader_size = loader_size;
	out[0] = 0;
	if (vfit_audit_run(&a, "t.fit", fit, len, 0, NULL, NULL, 0, &e)) {
		snprintf(out, sizeof(out), "error: %.200s", e.msg);
		return out;
	}
	for (i = 0; i < a.nf; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(a.f[j].id, a.f[i].id))
				break;
		if (j == i && strlen(out) + 7 < sizeof(out))
			snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s", out[0] ? " " : "",
				 a.f[i].id);
	}
	vfit_audit_free(&a);
	return out;
}

static void test_classes(void)
{
	void *fit;
	int c, s;

	/* Unsigned configuration, one image: VA002 only. */
	fit = base();
	image(fit, "kernel", "kernel", 0x80000, "sha256");
	conf(fit, "conf-1", "kernel", NULL);
	CHECK(!strcmp(ids(fit, CAP, 0), "VA002"), "unsigned: %s", ids(fit, CAP, 0));
	/* An unreferenced image: VA012. */
	image(fit, "spare", "ramdisk", 0, "sha256");
	CHECK(!strcmp(ids(fit, CAP, 0), "VA002 VA012"), "spare: %s", ids(fit, CAP, 0));
	free(fit);

	/* Overlapping loads in one configuration; the entry outside the kernel; the loader region. */
	fit = base();
	image(fit, "kernel", "kernel", 0x80000, "sha256");
	image(fit, "rd", "ramdisk", 0x80020, "sha256");
	c = conf(fit, "conf-1", "kernel", "rd");
	s = fdt_add_subnode(fit, c, "signature-1");
	FDT(s);
	FDT(fdt_setprop_string(fit, s, "algo", "sha256,rsa2048"));
	FDT(fdt_setprop(fit, s, "value", "x", 1));
	CHECK(!strcmp(ids(fit, CAP, 0), "VA013"), "overlap: %s", ids(fit, CAP, 0));
	CHECK(!strcmp(ids(fit, CAP, 0x80000 + 1), "VA013 VA014"), "loader: %s",
	      ids(fit, CAP, 0x80000 + 1));
	FDT(fdt_setprop_u32(fit, fdt_path_offset(fit, "/images/kernel"), "entry", 0x80040));
	FDT(fdt_setprop_u32(fit, fdt_path_offset(fit, "/images/rd"), "load", 0x90000));
	CHECK(!strcmp(ids(fit, CAP, 0), "VA015"), "entry: %s", ids(fit, CAP, 0));
	/* A CRC-32 as the only hash under the signature; no hash at all. */
	FDT(fdt_setprop_u32(fit, fdt_path_offset(fit, "/images/kernel"), "entry", 0x80000));
	FDT(fdt_setprop_string(fit, fdt_path_offset(fit, "/images/rd/hash-1"), "algo", "crc32"));
	CHECK(!strcmp(ids(fit, CAP, 0), "VA001"), "crc32: %s", ids(fit, CAP, 0));
	FDT(fdt_del_node(fit, fdt_path_offset(fit, "/images/rd/hash-1")));
	CHECK(!strcmp(ids(fit, CAP, 0), "VA022"), "no hash: %s", ids(fit, CAP, 0));
	/* Signing time in the future of the audit's clock. */
	FDT(fdt_setprop_u32(fit, s, "timestamp", 1900000000));
	CHECK(!strcmp(ids(fit, CAP, 0), "VA022 VA018"), "future: %s", ids(fit, CAP, 0));
	free(fit);

	/* '@' in a name. */
	fit = base();
	image(fit, "kernel@1", "kernel", 0x80000, "sha256");
	conf(fit, "conf-1", "kernel@1", NULL);
	CHECK(!strcmp(ids(fit, CAP, 0), "VA002 VA007"), "at: %s", ids(fit, CAP, 0));
	free(fit);

	/* Not a FIT at all. */
	fit = calloc(1, CAP);
	REQUIRE(fit != NULL, "calloc");
	FDT(fdt_create_empty_tree(fit, CAP));
	CHECK(!strncmp(ids(fit, CAP, 0), "error: t.fit: /images", 21), "no images: %s",
	      ids(fit, CAP, 0));
	memset(fit, 0xa5, 64);
	CHECK(!strncmp(ids(fit, CAP, 0), "error: t.fit: not a device tree", 31), "junk: %s",
	      ids(fit, CAP, 0));
	free(fit);
}

/* A control DTB with an RSA-2048 key "dev" required for configurations (ctl NULL: none). */
static void *control(void)
{
	static struct vfit_rsa_pub pub;
	struct vfit_err e = { 0 };
	EVP_PKEY *k = EVP_RSA_gen(2048);
	void *ctl = calloc(1, CAP);

	REQUIRE(k && ctl, "key and buffer");
	REQUIRE(!vfit_rsa_pub_from_pkey(k, &pub, &e), "pub: %s", e.msg);
	FDT(fdt_create_empty_tree(ctl, CAP));
	FDT(fdt_add_subnode(ctl, 0, "signature"));
	FDT(vfit_rsa_keynode_write(ctl, "dev", &pub, "sha1,rsa2048", "conf"));
	EVP_PKEY_free(k);
	return ctl;
}

/* The JSON and the SVG of an audit, as text. */
static char *report(const void *fit, size_t len, const void *ctl, int svg, size_t *out_len)
{
	struct vfit_audit a = { 0 };
	struct vfit_err e = { 0 };
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	REQUIRE(f != NULL, "open_memstream");
	a.now = 1800000000;
	if (!vfit_audit_run(&a, "t\"<&>.fit", fit, len, 0, ctl ? "ctl.dtb" : NULL, ctl,
			    ctl ? fdt_totalsize(ctl) : 0, &e)) {
		if (svg)
			CHECK(!vfit_audit_svg(f, &a), "SVG drawn");
		else
			vfit_audit_json(f, &a, 0, NULL);
	}
	fclose(f);
	vfit_audit_free(&a);
	*out_len = n;
	return buf;
}

static void test_json(void)
{
	void *fit = base();
	const struct json *fs, *v;
	struct json *j;
	size_t n;
	char *t;

	image(fit, "kernel", "kernel", 0x80000, "crc32");
	image(fit, "spare", "ramdisk", 0, "sha256");
	conf(fit, "conf-1", "kernel", NULL);
	t = report(fit, CAP, NULL, 0, &n);
	j = json_parse(t);
	CHECK(j != NULL, "JSON parses");
	if (j) {
		CHECK(!strcmp(json_get_str(j, "file"), "t\"<&>.fit"), "file escaped and back");
		fs = json_get(j, "findings");
		CHECK(fs && fs->type == JSON_ARRAY && fs->len == 2, "two findings");
		if (fs && fs->len == 2) {
			CHECK(!strcmp(json_get_str(&fs->items[0], "id"), "VA002") &&
			      !strcmp(json_get_str(&fs->items[0], "severity"), "error") &&
			      !strcmp(json_get_str(&fs->items[0], "name"), "unsigned-config"),
			      "VA002 record");
			CHECK(!strcmp(json_get_str(&fs->items[1], "node"), "/images/spare"),
			      "VA012 node");
			CHECK(json_get_str(&fs->items[1], "fix")[0] != 0, "a fix");
		}
		v = json_get(j, "verdicts");
		CHECK(v && v->len == 1 && json_get(&v->items[0], "u-boot-head") &&
		      json_get(json_get(&v->items[0], "u-boot-head"), "accept")->num == 1 &&
		      json_get(json_get(&v->items[0], "vfit"), "accept")->num == 0,
		      "no key: U-Boot HEAD boots on hashes, vfit refuses");
		CHECK(json_get_int(json_get(j, "summary"), "error", -1) == 1, "summary");
		json_free(j);
	}
	free(t);
	t = report(fit, CAP, NULL, 1, &n);
	CHECK(n > 1000 && strstr(t, "xmlns=\"http://www.w3.org/2000/svg\"") &&
	      strstr(t, "t&quot;&lt;&amp;&gt;.fit") && !strstr(t, "t\"<&>"), "SVG escaped");
	free(t);
	free(fit);
}

/* Every truncation and random flips: a report or an error, nothing else. */
static void test_hostile(void)
{
	static const char hashed[] = "/\0/configurations/conf-1";
	void *fit = base(), *copy = malloc(CAP), *ctl = control();
	uint8_t value[256];
	size_t len, cut, n;
	int i, c, s, done = 0;
	char *t;

	REQUIRE(copy != NULL, "malloc");
	image(fit, "kernel", "kernel", 0x80000, "sha256");
	image(fit, "rd", "ramdisk", 0x90000, "md5");
	c = conf(fit, "conf-1", "kernel", "rd");
	s = fdt_add_subnode(fit, c, "signature-1");
	FDT(s);
	FDT(fdt_setprop_string(fit, s, "algo", "sha1,rsa2048"));
	FDT(fdt_setprop_string(fit, s, "key-name-hint", "dev"));
	FDT(fdt_setprop(fit, s, "hashed-nodes", hashed, sizeof(hashed)));
	/* A value of the right size: every hostile copy is walked and hashed, then refused. */
	check_rand_bytes(value, sizeof(value));
	FDT(fdt_setprop(fit, s, "value", value, sizeof(value)));
	{
		fdt32_t hs[2] = { cpu_to_fdt32(0), cpu_to_fdt32(fdt_size_dt_strings(fit)) };

		FDT(fdt_setprop(fit, s, "hashed-strings", hs, sizeof(hs)));
	}
	FDT(fdt_pack(fit));
	len = fdt_totalsize(fit);
	for (cut = 0; cut <= len; cut += 4) {
		memcpy(copy, fit, cut);
		t = report(copy, cut, ctl, cut & 4, &n);
		free(t);
		done++;
	}
	for (i = 0; i < 400; i++) {
		memcpy(copy, fit, len);
		((uint8_t *)copy)[check_rand() % len] ^= (uint8_t)(1u << (check_rand() % 8));
		((uint8_t *)copy)[check_rand() % len] = (uint8_t)check_rand();
		t = report(copy, len, ctl, i & 1, &n);
		free(t);
		done++;
	}
	CHECK(done > 400, "%d hostile audits ran to the end", done);
	free(copy);
	free(fit);
	free(ctl);
}

int main(void)
{
	check_seed(1);
	test_classes();
	test_json();
	test_hostile();
	return check_done();
}
