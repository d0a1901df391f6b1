/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECDSA public keys on the host (host/keys/keys_ecdsa.c):
 *   - vfit_ecdsa_keynode_write() with algo NULL against Debian's mkimage
 *     2023.01 (which signs sha256,ecdsa256 only): on a control DTB whose
 *     /signature is empty or holds another key, with and without -r (which
 *     2023.01 ignores for ECDSA), the DTB `mkimage -K` leaves must be
 *     byte-identical to ours (keynode.h: grown as mkimage grows it);
 *   - what 2023.01 does not do, so that vfit's mkimage can decide: it fails
 *     on a DTB without /signature and when the key node exists;
 *   - the v2025.01 form (algo given): property order and values, update in
 *     place, and the key read back loads in the device library;
 *   - vfit_ecdsa_pub_from_pkey() on P-256, P-384, other curves and RSA.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "check.h"
#include "keynode.h"
#include "vfit-host/host.h"

static char dir[64];

/* mkimage 2023.01's node: the three ecdsa,* properties. */
static int write_2023(void *fdt, const void *arg)
{
	return vfit_ecdsa_keynode_write(fdt, "dev", arg, NULL, NULL);
}

static const char *const inputs[][2] = {
	{ "empty-sig.dts", "/dts-v1/;\n/ {\n\tmodel = \"vfit test\";\n\tsignature {\n\t};\n};\n" },
	{ "other-key.dts", "/dts-v1/;\n/ {\n\tmodel = \"vfit test\";\n\tcompatible = \"vfit,test\";\n"
			   "\tsignature {\n\t\trequired-mode = \"any\";\n\t\tkey-other {\n"
			   "\t\t\tkey-name-hint = \"other\";\n"
			   "\t\t\talgo = \"sha256,rsa2048\";\n\t\t};\n\t};\n"
			   "\tchosen { bootargs = \"console=ttyS0\"; };\n};\n" },
	/* RSA's node for the same hint is key-dev: the ECDSA one, dev, goes beside it */
	{ "rsa-dev.dts", "/dts-v1/;\n/ {\n\tsignature {\n\t\tkey-dev {\n"
			 "\t\t\tkey-name-hint = \"dev\";\n\t\t};\n\t};\n};\n" },
};

/* Against Debian's mkimage: every input, with and without -r. */
static void debian(const struct vfit_ecdsa_pub *pub)
{
	size_t i, in_len;
	char what[128], path[256];
	uint8_t *in;
	int r;

	keynode_its(dir, "sha256,ecdsa256");
	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		keynode_write(dir, inputs[i][0], inputs[i][1]);
		for (r = 0; r < 2; r++) {
			if (!CHECK(keynode_run("cd %s && dtc -q -I dts -O dtb -o in.dtb %s && cp in.dtb mk.dtb && "
				       "SOURCE_DATE_EPOCH=1000 mkimage -f x.its -k keys -K mk.dtb %s "
				       "out.fit >/dev/null",
				       dir, inputs[i][0], r ? "-r" : "") == 0,
				   "%s: mkimage failed", inputs[i][0]))
				continue;
			in = keynode_read(dir, "in.dtb", &in_len);
			snprintf(what, sizeof(what), "%s%s", inputs[i][0], r ? " -r" : "");
			snprintf(path, sizeof(path), "%s/mk.dtb", dir);
			keynode_compare(what, path, in, in_len, write_2023, pub);
			free(in);
		}
	}
	/* 2023.01 fails when the key node exists (and on a DTB without /signature) */
	CHECK(keynode_run("cd %s && mkimage -f x.its -k keys -K mk.dtb out.fit >/dev/null 2>&1", dir) != 0,
	      "mkimage 2023.01 wrote over an existing ECDSA key node");
	CHECK(keynode_run("cd %s && printf '/dts-v1/; / { model = \"x\"; };' | dtc -q -I dts -O dtb "
		  "-o nosig.dtb && mkimage -f x.its -k keys -K nosig.dtb out.fit >/dev/null 2>&1",
		  dir) != 0,
	      "mkimage 2023.01 accepted a -K DTB without /signature");
	printf("key node of mkimage 2023.01: %zu control DTBs x {-r, no -r} compared byte for byte\n",
	       i);
}

/* The v2025.01 form: order, values, in-place update, and it loads in the device library. */
static void layout(const struct vfit_ecdsa_pub *pub)
{
	static const char *const order[] = { "required", "algo", "ecdsa,y-point",
					     "ecdsa,x-point", "ecdsa,curve", "key-name-hint" };
	uint8_t buf[2048];
	const uint8_t *x, *y;
	struct vfit_ecdsa_key key;
	int node, prop, i = 0, len, xl, yl;

	CHECK(fdt_create_empty_tree(buf, sizeof(buf)) == 0, "empty tree");
	CHECK(vfit_ecdsa_keynode_write(buf, "k1", pub, "sha256,ecdsa256", "conf") == 0, "write");
	node = fdt_path_offset(buf, "/signature/k1");
	if (!CHECK(node >= 0, "/signature/k1 missing (no key- prefix for ECDSA)"))
		return;
	fdt_for_each_property_offset(prop, buf, node) {
		const char *name;

		fdt_getprop_by_offset(buf, prop, &name, &len);
		CHECK(i < 6 && !strcmp(name, order[i]), "property %d is %s", i, name);
		i++;
	}
	CHECK(i == 6, "%d properties", i);
	CHECK(!strcmp(fdt_getprop(buf, node, "ecdsa,curve", &len), "prime256v1") && len == 11,
	      "ecdsa,curve");
	CHECK(!strcmp(fdt_getprop(buf, node, "key-name-hint", &len), "k1"), "key-name-hint");
	CHECK(!strcmp(fdt_getprop(buf, node, "algo", &len), "sha256,ecdsa256"), "algo");
	CHECK(!strcmp(fdt_getprop(buf, node, "required", &len), "conf"), "required");
	x = fdt_getprop(buf, node, "ecdsa,x-point", &xl);
	y = fdt_getprop(buf, node, "ecdsa,y-point", &yl);
	CHECK(x && y && xl == 32 && yl == 32 && !memcmp(x, pub->x, 32) && !memcmp(y, pub->y, 32),
	      "points");
	CHECK(x && y && vfit_ecdsa_key_load(vfit_ecdsa_curve("prime256v1"), x, (size_t)xl, y,
					    (size_t)yl, &key) == VFIT_OK,
	      "the node's key does not load");
	/* again: updated in place, no second node; the 2023.01 form with required is refused */
	CHECK(vfit_ecdsa_keynode_write(buf, "k1", pub, "sha256,ecdsa256", NULL) == 0 &&
	      fdt_path_offset(buf, "/signature/k1") == node &&
	      fdt_next_subnode(buf, node) == -FDT_ERR_NOTFOUND, "rewrite");
	CHECK(vfit_ecdsa_keynode_write(buf, "k2", pub, NULL, "conf") == -FDT_ERR_BADVALUE,
	      "required without algo");
	CHECK(fdt_create_empty_tree(buf, 128) == 0 &&
	      vfit_ecdsa_keynode_write(buf, "k1", pub, "sha256,ecdsa256", NULL) == -FDT_ERR_NOSPACE,
	      "128-byte blob: expected -FDT_ERR_NOSPACE");
}

/* Public points of P-256 and P-384 keys; other curves and RSA refused with a reason. */
static void from_pkey(void)
{
	static const struct {
		const char *group;
		enum vfit_ec_curve curve;
		const char *name;
		size_t len;
	} ok[] = {
		{ "P-256", VFIT_EC_P256, "prime256v1", 32 },
		{ "P-384", VFIT_EC_P384, "secp384r1", 48 },
	};
	struct vfit_ecdsa_pub pub;
	struct vfit_ecdsa_key key;
	struct vfit_err err = { 0 };
	size_t i;
	EVP_PKEY *k;

	for (i = 0; i < 2; i++) {
		uint8_t pt[1 + 2 * 48];
		size_t len = 0;

		k = EVP_PKEY_Q_keygen(NULL, NULL, "EC", ok[i].group);
		CHECK(k && vfit_ecdsa_pub_from_pkey(k, &pub, &err) == 0 && pub.curve == ok[i].curve &&
		      !strcmp(pub.curve_name, ok[i].name) && pub.len == ok[i].len,
		      "%s: %s", ok[i].group, err.msg);
		/* the same point as OpenSSL's uncompressed encoding */
		CHECK(k && EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_PUB_KEY, pt, sizeof(pt),
							   &len) &&
		      len == 1 + 2 * ok[i].len && pt[0] == 4 && !memcmp(pt + 1, pub.x, ok[i].len) &&
		      !memcmp(pt + 1 + ok[i].len, pub.y, ok[i].len), "%s: point", ok[i].group);
		CHECK(vfit_ecdsa_pub_key(&pub, &key) == VFIT_OK && key.curve == ok[i].curve,
		      "%s: does not load", ok[i].group);
		EVP_PKEY_free(k);
	}
	k = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-521");
	memset(&err, 0, sizeof(err));
	CHECK(k && vfit_ecdsa_pub_from_pkey(k, &pub, &err) == -1 &&
	      strstr(err.msg, "unsupported ECDSA curve secp521r1"), "P-521: %s", err.msg);
	EVP_PKEY_free(k);
	k = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)1024);
	memset(&err, 0, sizeof(err));
	CHECK(k && vfit_ecdsa_pub_from_pkey(k, &pub, &err) == -1 &&
	      strstr(err.msg, "not an ECDSA key"), "RSA: %s", err.msg);
	EVP_PKEY_free(k);
}

int main(void)
{
	struct vfit_ecdsa_pub pub;
	struct vfit_err err = { 0 };
	char path[256];
	EVP_PKEY *k;
	FILE *f;

	snprintf(dir, sizeof(dir), "/tmp/vfit-keys-XXXXXX");
	if (!mkdtemp(dir)) {
		printf("FAIL mkdtemp\n");
		return 1;
	}
	from_pkey();
	if (!CHECK(keynode_run("mkdir -p %s/keys && printf 'kernel image\\n' > %s/data.bin && "
		       "openssl ecparam -name prime256v1 -genkey -noout -out %s/keys/dev.pem",
		       dir, dir, dir) == 0, "setup"))
		return check_done();
	snprintf(path, sizeof(path), "%s/keys/dev.pem", dir);
	f = fopen(path, "r");
	k = f ? PEM_read_PrivateKey(f, NULL, NULL, NULL) : NULL;
	if (f)
		fclose(f);
	if (CHECK(k && vfit_ecdsa_pub_from_pkey(k, &pub, &err) == 0, "key: %s", err.msg)) {
		layout(&pub);
		debian(&pub);
	}
	EVP_PKEY_free(k);
	keynode_run("rm -rf %s", dir);
	return check_done();
}
