/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RSA verification against public vectors: every Wycheproof RSA file
 * (PKCS#1 v1.5 verify and sig_gen, PSS) and NIST CAVP SigVer15/SigVerPSS.
 * Keys go through the host pre-processing (EVP_PKEY -> vfit_rsa_pub ->
 * vfit_rsa_key), messages through vfit_hash, signatures through lib/.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include "check.h"
#include "json.h"
#include "vfit-host/host.h"

/* ---- shared helpers ---------------------------------------------------- */

static uint8_t *unhex_alloc(const char *hex, size_t *len)
{
	size_t n = strlen(hex);
	uint8_t *b = malloc(n / 2 + 1);
	long r;

	if (!b)
		abort();
	r = check_unhex(hex, n, b, n / 2 + 1);
	REQUIRE(r >= 0, "bad hex '%.40s'", hex);
	*len = (size_t)r;
	return b;
}

/* Public key (n, e big-endian, leading zeros allowed) to the device view. */
static int key_from_ne(const char *n_hex, const char *e_hex, struct vfit_rsa_pub *pub)
{
	size_t nlen, elen;
	uint8_t *n = unhex_alloc(n_hex, &nlen), *e = unhex_alloc(e_hex, &elen);
	BIGNUM *bn = BN_bin2bn(n, (int)nlen, NULL), *be = BN_bin2bn(e, (int)elen, NULL);
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	struct vfit_err err = { 0 };
	OSSL_PARAM *params = NULL;
	EVP_PKEY *pkey = NULL;
	int ret = -1;

	if (bn && be && bld && ctx && OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bn) &&
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, be) &&
	    (params = OSSL_PARAM_BLD_to_param(bld)) && EVP_PKEY_fromdata_init(ctx) > 0 &&
	    EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) > 0)
		ret = vfit_rsa_pub_from_pkey(pkey, pub, &err);
	EVP_PKEY_free(pkey);
	OSSL_PARAM_free(params);
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_BLD_free(bld);
	BN_free(bn);
	BN_free(be);
	free(n);
	free(e);
	return ret;
}

static enum vfit_hash hash_by_name(const char *s)
{
	static const struct {
		const char *name;
		enum vfit_hash h;
	} names[] = {
		{ "SHA-1", VFIT_HASH_SHA1 },     { "SHA1", VFIT_HASH_SHA1 },
		{ "SHA-224", VFIT_HASH_SHA224 }, { "SHA224", VFIT_HASH_SHA224 },
		{ "SHA-256", VFIT_HASH_SHA256 }, { "SHA256", VFIT_HASH_SHA256 },
		{ "SHA-384", VFIT_HASH_SHA384 }, { "SHA384", VFIT_HASH_SHA384 },
		{ "SHA-512", VFIT_HASH_SHA512 }, { "SHA512", VFIT_HASH_SHA512 },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i].name))
			return names[i].h;
	}
	return VFIT_HASH_INVALID;
}

/* ---- Wycheproof ---------------------------------------------------------- */

/*
 * What an "acceptable" case must do, by flag (vectors/README.md section 5):
 * encoding leniencies are rejected, weak parameters this build enables
 * (SHA-1, e = 3) are accepted.  Any other flag fails the test until it is
 * classified here.
 */
static const struct {
	const char *flag;
	int accept;
} acceptable_flags[] = {
	{ "MissingNull", 0 },
	{ "WeakHash", 1 },
	{ "SmallPublicKey", 1 },
};

#define NFLAGS (sizeof(acceptable_flags) / sizeof(acceptable_flags[0]))

struct wp_counts {
	unsigned valid, valid_ok, invalid, invalid_ok, any_salt;
	unsigned acc[NFLAGS], acc_ok[NFLAGS];
};

/* Index into acceptable_flags for the test's flags, -1 if none or ambiguous. */
static int acceptable_class(const struct json *flags)
{
	int found = -1;
	size_t i, j;

	for (i = 0; flags && i < flags->len; i++) {
		for (j = 0; j < NFLAGS; j++) {
			if (flags->items[i].type == JSON_STRING &&
			    !strcmp(flags->items[i].str, acceptable_flags[j].flag)) {
				if (found >= 0 && found != (int)j)
					return -1;
				found = (int)j;
			}
		}
	}
	return found;
}

enum wp_kind { WP_PKCS1, WP_PSS };

static void wp_test(const char *file, const struct json *t, enum wp_kind kind,
		    const struct vfit_rsa_key *key, int key_ok, enum vfit_hash h,
		    enum vfit_hash mgf, int slen, struct wp_counts *cnt)
{
	const char *result = json_get_str(t, "result");
	long id = json_get_int(t, "tcId", -1);
	uint8_t digest[VFIT_HASH_MAX_SIZE];
	size_t mlen, slen_b;
	uint8_t *msg = unhex_alloc(json_get_str(t, "msg"), &mlen);
	uint8_t *sig = unhex_alloc(json_get_str(t, "sig"), &slen_b);
	enum vfit_result r = VFIT_ERR_KEY;
	int accepted, cls;

	if (vfit_hash(h, msg, mlen, digest)) {
		CHECK(0, "%s tcId %ld: hash unavailable", file, id);
		goto out;
	}
	if (key_ok && kind == WP_PKCS1)
		r = vfit_rsa_verify_pkcs1(key, h, digest, sig, slen_b);
	else if (key_ok)
		r = vfit_rsa_verify_pss(key, h, mgf, slen, digest, sig, slen_b);
	accepted = r == VFIT_OK;

	if (!strcmp(result, "valid")) {
		cnt->valid++;
		cnt->valid_ok += accepted;
		CHECK(accepted, "%s tcId %ld: valid signature rejected (%s)", file, id,
		      vfit_result_to_string(r));
		if (kind == WP_PSS && key_ok) {
			r = vfit_rsa_verify_pss(key, h, mgf, VFIT_PSS_SALT_ANY, digest, sig, slen_b);
			cnt->any_salt += r == VFIT_OK;
			CHECK(r == VFIT_OK, "%s tcId %ld: valid PSS rejected with SALT_ANY", file,
			      id);
		}
	} else if (!strcmp(result, "invalid")) {
		cnt->invalid++;
		cnt->invalid_ok += !accepted;
		CHECK(!accepted, "%s tcId %ld: invalid signature accepted", file, id);
	} else {
		cls = acceptable_class(json_get(t, "flags"));
		CHECK(cls >= 0, "%s tcId %ld: acceptable case with unclassified flags", file, id);
		if (cls >= 0) {
			cnt->acc[cls]++;
			cnt->acc_ok[cls] += accepted == acceptable_flags[cls].accept;
			CHECK(accepted == acceptable_flags[cls].accept,
			      "%s tcId %ld: acceptable/%s %s", file, id, acceptable_flags[cls].flag,
			      accepted ? "accepted" : "rejected");
		}
	}
out:
	free(msg);
	free(sig);
}

static void wp_file(const char *dir, const char *name)
{
	char path[2048];
	struct wp_counts cnt;
	struct json *doc;
	const struct json *groups;
	size_t g, i, ntests = 0;
	char *text;

	memset(&cnt, 0, sizeof(cnt));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	text = check_read_file(path, NULL);
	doc = json_parse(text);
	free(text);
	if (!CHECK(doc != NULL, "%s: JSON parse error", name))
		return;
	groups = json_get(doc, "testGroups");
	for (g = 0; groups && g < groups->len; g++) {
		const struct json *grp = &groups->items[g], *tests = json_get(grp, "tests");
		const char *type = json_get_str(grp, "type");
		const struct json *pk = json_get(grp, "publicKey");
		enum vfit_hash h = hash_by_name(json_get_str(grp, "sha")), mgf = h;
		enum wp_kind kind = WP_PKCS1;
		struct vfit_rsa_pub pub;
		struct vfit_rsa_key key;
		int key_ok, slen = 0;

		if (!strcmp(type, "RsassaPkcs1Generate")) {
			pk = json_get(grp, "privateKey");
		} else if (!strcmp(type, "RsassaPssVerify")) {
			kind = WP_PSS;
			mgf = hash_by_name(json_get_str(grp, "mgfSha"));
			slen = (int)json_get_int(grp, "sLen", -2);
			CHECK(!strcmp(json_get_str(grp, "mgf"), "MGF1") && slen >= 0,
			      "%s group %zu: unexpected PSS parameters", name, g);
		} else {
			CHECK(!strcmp(type, "RsassaPkcs1Verify"), "%s: unknown group type %s", name,
			      type);
		}
		if (!CHECK(h != VFIT_HASH_INVALID && mgf != VFIT_HASH_INVALID && tests,
			   "%s group %zu: unknown hash or no tests", name, g))
			continue;
		key_ok = key_from_ne(json_get_str(pk, "modulus"), json_get_str(pk, "publicExponent"),
				     &pub) == 0;
		CHECK(key_ok, "%s group %zu: key import failed", name, g);
		vfit_rsa_pub_key(&pub, &key);
		for (i = 0; i < tests->len; i++)
			wp_test(name, &tests->items[i], kind, &key, key_ok, h, mgf, slen, &cnt);
		ntests += tests->len;
	}
	CHECK((long)ntests == json_get_int(doc, "numberOfTests", -1), "%s: test count mismatch",
	      name);
	printf("%-44s valid %3u/%-3u invalid rejected %3u/%-3u", name, cnt.valid_ok, cnt.valid,
	       cnt.invalid_ok, cnt.invalid);
	if (strstr(name, "pss"))
		printf(" salt-any %u/%u", cnt.any_salt, cnt.valid);
	for (i = 0; i < NFLAGS; i++) {
		if (cnt.acc[i])
			printf(" acceptable/%s %s %u/%u", acceptable_flags[i].flag,
			       acceptable_flags[i].accept ? "accepted" : "rejected", cnt.acc_ok[i],
			       cnt.acc[i]);
	}
	printf("\n");
	json_free(doc);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void wycheproof(void)
{
	char dir[1024], *names[64];
	struct dirent *de;
	size_t n = 0, i;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/wycheproof", check_vectors_dir());
	d = opendir(dir);
	if (!CHECK(d != NULL, "cannot open %s", dir))
		return;
	while ((de = readdir(d)) && n < 64) {
		if (!strncmp(de->d_name, "rsa_", 4) && strstr(de->d_name, ".json"))
			names[n++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), name_cmp);
	/* 9 rsa_signature + 3 sig_gen + 11 PSS files (vectors/README.md). */
	CHECK(n == 23, "expected 23 Wycheproof RSA files, found %zu", n);
	for (i = 0; i < n; i++) {
		wp_file(dir, names[i]);
		free(names[i]);
	}
}

/* ---- NIST CAVP FIPS 186-3 SigVer ---------------------------------------- */

struct nist_state {
	char n[1100], e[1100], alg[16], msg[600], s[1100], salt[200];
};

/* Copies the value of "key = value" (CR stripped) if line has that key. */
static int nist_field(const char *line, const char *key, char *out, size_t cap)
{
	size_t kl = strlen(key), vl;
	const char *v;

	if (strncmp(line, key, kl) || strncmp(line + kl, " = ", 3))
		return 0;
	v = line + kl + 3;
	vl = strcspn(v, "\r\n");
	if (vl >= cap)
		vl = cap - 1;
	memcpy(out, v, vl);
	out[vl] = 0;
	return 1;
}

static void nist_file(const char *name, int pss)
{
	char path[1024], res[64];
	struct nist_state st;
	unsigned pass = 0, pass_ok = 0, fail = 0, fail_ok = 0;
	char *text, *line, *save = NULL;

	memset(&st, 0, sizeof(st));
	snprintf(path, sizeof(path), "%s/nist-rsa/%s", check_vectors_dir(), name);
	text = check_read_file(path, NULL);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct vfit_rsa_pub pub;
		struct vfit_rsa_key key;
		uint8_t digest[VFIT_HASH_MAX_SIZE], *msg, *sig;
		size_t mlen, siglen, saltlen;
		enum vfit_hash h;
		enum vfit_result r = VFIT_ERR_KEY;
		int expect;

		if (nist_field(line, "n", st.n, sizeof(st.n)) ||
		    nist_field(line, "e", st.e, sizeof(st.e)) ||
		    nist_field(line, "SHAAlg", st.alg, sizeof(st.alg)) ||
		    nist_field(line, "Msg", st.msg, sizeof(st.msg)) ||
		    nist_field(line, "S", st.s, sizeof(st.s)) ||
		    nist_field(line, "SaltVal", st.salt, sizeof(st.salt)) ||
		    !nist_field(line, "Result", res, sizeof(res)))
			continue;
		expect = res[0] == 'P';
		h = hash_by_name(st.alg);
		msg = unhex_alloc(st.msg, &mlen);
		sig = unhex_alloc(st.s, &siglen);
		saltlen = strlen(st.salt) / 2;
		if (!CHECK(h != VFIT_HASH_INVALID && !vfit_hash(h, msg, mlen, digest),
			   "%s: hash %s unavailable", name, st.alg))
			goto next;
		/* A changed e (reason 2) may already fail key import: that is a reject too. */
		if (key_from_ne(st.n, st.e, &pub) == 0) {
			vfit_rsa_pub_key(&pub, &key);
			if (pss)
				r = vfit_rsa_verify_pss(&key, h, h, (int)saltlen, digest, sig, siglen);
			else
				r = vfit_rsa_verify_pkcs1(&key, h, digest, sig, siglen);
		}
		if (expect) {
			pass++;
			pass_ok += r == VFIT_OK;
		} else {
			fail++;
			fail_ok += r != VFIT_OK;
		}
		CHECK((r == VFIT_OK) == expect, "%s: %zu-bit %s e=%s: expected %s, got %s", name,
		      strlen(st.n) * 4, st.alg, st.e + strspn(st.e, "0"), res,
		      vfit_result_to_string(r));
		if (pss && expect && r == VFIT_OK) {
			r = vfit_rsa_verify_pss(&key, h, h, VFIT_PSS_SALT_ANY, digest, sig, siglen);
			CHECK(r == VFIT_OK, "%s: P case rejected with SALT_ANY", name);
		}
next:
		free(msg);
		free(sig);
	}
	free(text);
	CHECK(pass == 75 && fail == 375, "%s: expected 75 P / 375 F, parsed %u/%u", name, pass,
	      fail);
	printf("%-44s P accepted %u/%u, F rejected %u/%u\n", name, pass_ok, pass, fail_ok, fail);
}

int main(void)
{
	wycheproof();
	nist_file("SigVer15_186-3.rsp", 0);
	nist_file("SigVerPSS_186-3.rsp", 1);
	return check_done();
}
