/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit_rsa_keynode_write() against Debian's U-Boot mkimage: for 2048, 3072
 * and 4096-bit keys, with and without -r, on a fresh control DTB, on one
 * that already has a /signature node with another key, and when the key
 * node already exists, the control DTB that `mkimage -K` leaves must be
 * byte-identical to the one our function makes from the same input
 * (keynode.h: grown the way mkimage grows it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libfdt.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "check.h"
#include "keynode.h"
#include "vfit-host/host.h"

static char dir[64];

struct rsa_node {
	const struct vfit_rsa_pub *pub;
	const char *algo, *required;
};

static int write_rsa(void *fdt, const void *arg)
{
	const struct rsa_node *k = arg;

	return vfit_rsa_keynode_write(fdt, "dev", k->pub, k->algo, k->required);
}

static void compare(const char *what, const char *mk_name, const uint8_t *in, size_t in_len,
		    const struct vfit_rsa_pub *pub, const char *algo, const char *required)
{
	struct rsa_node k = { pub, algo, required };
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, mk_name);
	keynode_compare(what, path, in, in_len, write_rsa, &k);
}

static const char *inputs[][2] = {
	{ "plain.dts", "/dts-v1/;\n/ {\n\tmodel = \"vfit test\";\n\tcompatible = \"vfit,test\";\n"
		       "\tchosen { bootargs = \"console=ttyS0\"; };\n};\n" },
	{ "with-sig.dts", "/dts-v1/;\n/ {\n\tmodel = \"vfit test\";\n\tsignature {\n"
			  "\t\trequired-mode = \"any\";\n\t\tkey-other {\n"
			  "\t\t\tkey-name-hint = \"other\";\n\t\t\talgo = \"sha256,rsa2048\";\n"
			  "\t\t};\n\t};\n\tchosen { };\n};\n" },
};

/* One key size: both inputs, with and without -r, then a second -K over the result. */
static void one_size(unsigned bits)
{
	char algo[32], path[256];
	struct vfit_rsa_pub pub;
	struct vfit_err err = { 0 };
	EVP_PKEY *pkey;
	size_t i;
	FILE *f;

	snprintf(algo, sizeof(algo), "sha256,rsa%u", bits);
	if (!CHECK(keynode_run("cd %s && openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:%u "
		       "-out keys/dev.key 2>/dev/null && openssl req -batch -new -x509 "
		       "-key keys/dev.key -out keys/dev.crt -subj /CN=dev 2>/dev/null",
		       dir, bits) == 0,
		   "openssl key generation failed"))
		return;
	snprintf(path, sizeof(path), "%s/keys/dev.key", dir);
	f = fopen(path, "r");
	pkey = f ? PEM_read_PrivateKey(f, NULL, NULL, NULL) : NULL;
	if (f)
		fclose(f);
	if (!CHECK(pkey && vfit_rsa_pub_from_pkey(pkey, &pub, &err) == 0, "%u: key: %s", bits,
		   err.msg)) {
		EVP_PKEY_free(pkey);
		return;
	}
	EVP_PKEY_free(pkey);
	keynode_its(dir, algo);
	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		const char *required;
		int r;

		for (r = 0; r < 2; r++) {
			char what[128];
			size_t in_len, once_len;
			uint8_t *in, *once;

			required = r ? "conf" : NULL;
			if (!CHECK(keynode_run("cd %s && dtc -q -I dts -O dtb -o in.dtb %s && cp in.dtb mk.dtb && "
				       "SOURCE_DATE_EPOCH=1000 mkimage -f x.its -k keys -K mk.dtb %s "
				       "out.fit >/dev/null",
				       dir, inputs[i][0], r ? "-r" : "") == 0,
				   "%s: mkimage failed", algo))
				continue;
			in = keynode_read(dir, "in.dtb", &in_len);
			snprintf(what, sizeof(what), "%s %s%s", algo, inputs[i][0], r ? " -r" : "");
			compare(what, "mk.dtb", in, in_len, &pub, algo, required);

			/* Second -K over mkimage's output: the node is updated in place. */
			once = keynode_read(dir, "mk.dtb", &once_len);
			if (CHECK(keynode_run("cd %s && SOURCE_DATE_EPOCH=1000 mkimage -f x.its -k keys "
				      "-K mk.dtb %s out.fit >/dev/null",
				      dir, r ? "-r" : "") == 0,
				  "%s: second mkimage failed", algo)) {
				snprintf(what, sizeof(what), "%s %s%s, key node present", algo,
					 inputs[i][0], r ? " -r" : "");
				compare(what, "mk.dtb", once, once_len, &pub, algo, required);
			}
			free(in);
			free(once);
		}
	}
}

/*
 * rsa,n0-inverse and rsa,r-squared recomputed from rsa,modulus with
 * OpenSSL's BN, not taken from the code under test: -n^-1 mod 2^32 and
 * 2^(2 * num-bits) mod n.
 */
static void montgomery_props(const void *buf, int node, unsigned bits)
{
	const uint8_t *mod, *rr;
	const fdt32_t *cell;
	BIGNUM *n = BN_new(), *r = BN_new(), *w = BN_new(), *inv = BN_new();
	BN_CTX *bc = BN_CTX_new();
	uint8_t want[512];
	int mlen, rlen, clen;

	mod = fdt_getprop(buf, node, "rsa,modulus", &mlen);
	rr = fdt_getprop(buf, node, "rsa,r-squared", &rlen);
	cell = fdt_getprop(buf, node, "rsa,n0-inverse", &clen);
	REQUIRE(n && r && w && inv && bc, "BN allocation");
	if (!CHECK(mod && rr && cell && mlen == (int)bits / 8 && rlen == mlen && clen == 4,
		   "modulus/r-squared/n0-inverse properties missing or mis-sized"))
		goto out;
	BN_bin2bn(mod, mlen, n);
	BN_set_word(w, 1);
	BN_lshift(w, w, 32);                    /* w = 2^32 */
	REQUIRE(BN_nnmod(r, n, w, bc) && BN_mod_inverse(inv, r, w, bc) && BN_sub(r, w, inv),
		"n^-1 mod 2^32");
	CHECK(fdt32_to_cpu(*cell) == BN_get_word(r), "rsa,n0-inverse 0x%08x, OpenSSL says 0x%08lx",
	      fdt32_to_cpu(*cell), (unsigned long)BN_get_word(r));
	BN_set_word(w, 1);
	REQUIRE(BN_lshift(w, w, 2 * (int)bits) && BN_nnmod(r, w, n, bc) &&
		BN_bn2binpad(r, want, mlen) == mlen, "2^2k mod n");
	CHECK(!memcmp(rr, want, (size_t)mlen), "rsa,r-squared differs from OpenSSL's 2^%u mod n",
	      2 * bits);
out:
	BN_free(n);
	BN_free(r);
	BN_free(w);
	BN_free(inv);
	BN_CTX_free(bc);
}

/* The node's properties read back as fit-format.md §4.2 describes. */
static void layout(void)
{
	static const char *const order[] = { "required", "algo", "rsa,r-squared", "rsa,modulus",
					     "rsa,exponent", "rsa,n0-inverse", "rsa,num-bits",
					     "key-name-hint" };
	EVP_PKEY *pkey = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
	struct vfit_rsa_pub pub;
	struct vfit_err err = { 0 };
	uint8_t buf[4096];
	const fdt32_t *cell;
	const fdt64_t *e;
	int node, prop, i = 0, len;

	if (!CHECK(pkey && vfit_rsa_pub_from_pkey(pkey, &pub, &err) == 0, "key: %s", err.msg))
		return;
	EVP_PKEY_free(pkey);
	CHECK(fdt_create_empty_tree(buf, sizeof(buf)) == 0, "empty tree");
	CHECK(vfit_rsa_keynode_write(buf, "k1", &pub, "sha256,rsa2048", "image") == 0, "write");
	node = fdt_path_offset(buf, "/signature/key-k1");
	if (!CHECK(node >= 0, "/signature/key-k1 missing"))
		return;
	fdt_for_each_property_offset(prop, buf, node) {
		const char *name;

		fdt_getprop_by_offset(buf, prop, &name, &len);
		CHECK(i < 8 && !strcmp(name, order[i]), "property %d is %s", i, name);
		i++;
	}
	CHECK(i == 8, "%d properties", i);
	cell = fdt_getprop(buf, node, "rsa,num-bits", &len);
	CHECK(cell && len == 4 && fdt32_to_cpu(*cell) == 2048, "rsa,num-bits");
	montgomery_props(buf, node, 2048);
	e = fdt_getprop(buf, node, "rsa,exponent", &len);
	CHECK(e && len == 8 && fdt64_to_cpu(*e) == 65537, "rsa,exponent");
	CHECK(fdt_getprop(buf, node, "rsa,modulus", &len) && len == 256, "rsa,modulus");
	CHECK(!strcmp(fdt_getprop(buf, node, "required", &len), "image"), "required");
	/* The same name again: no second node, values replaced. */
	CHECK(vfit_rsa_keynode_write(buf, "k1", &pub, "sha256,rsa2048", NULL) == 0, "rewrite");
	CHECK(fdt_path_offset(buf, "/signature/key-k1") == node &&
		      fdt_next_subnode(buf, node) == -FDT_ERR_NOTFOUND,
	      "rewrite duplicated the node");
	CHECK(vfit_rsa_keynode_write(buf, "k2", &pub, "sha256,rsa2048", NULL) == 0, "second key");
	CHECK(fdt_path_offset(buf, "/signature/key-k2") >= 0, "second key node missing");
	CHECK(fdt_create_empty_tree(buf, 512) == 0 &&
		      vfit_rsa_keynode_write(buf, "k1", &pub, "sha256,rsa2048", NULL) ==
			      -FDT_ERR_NOSPACE,
	      "512-byte blob: expected -FDT_ERR_NOSPACE");
}

int main(void)
{
	static const unsigned sizes[] = { 2048, 3072, 4096 };
	size_t i;

	snprintf(dir, sizeof(dir), "/tmp/vfit-keys-XXXXXX");
	REQUIRE(mkdtemp(dir), "mkdtemp %s", dir);
	layout();
	if (!CHECK(keynode_run("mkdir -p %s/keys && printf 'kernel image\\n' > %s/data.bin", dir, dir) == 0,
		   "setup"))
		return check_done();
	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++)
		keynode_write(dir, inputs[i][0], inputs[i][1]);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		one_size(sizes[i]);
	keynode_run("rm -rf %s", dir);
	return check_done();
}
