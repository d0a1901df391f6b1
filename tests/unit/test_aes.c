/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AES-CBC: every NIST CAVP AESAVS CBC known-answer file (GFSbox, KeySbox,
 * VarKey, VarTxt) and multi-block message test (MMT) for 128-, 192- and
 * 256-bit keys, both directions, whole and in place; then OpenSSL's
 * AES-CBC on random keys, IVs and lengths, split into random pieces to
 * check the IV chaining; and the argument checks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "check.h"
#include "vfit/aes.h"

#define MAXMSG 256

struct vec {
	uint8_t key[32], iv[16], pt[MAXMSG], ct[MAXMSG];
	long key_len, iv_len, pt_len, ct_len;
};

/* Value of "NAME = hex" on the line at p, into out; -1 if not that field. */
static long field(const char *p, const char *name, uint8_t *out, size_t cap)
{
	size_t n = strlen(name), len;

	if (strncmp(p, name, n) || strncmp(p + n, " = ", 3))
		return -2;
	p += n + 3;
	len = strcspn(p, "\r\n");
	return check_unhex(p, len, out, cap);
}

static void run_vec(const char *file, int decrypt, const struct vec *v, unsigned int *count)
{
	struct vfit_aes_key k;
	uint8_t iv[16], buf[MAXMSG];
	const uint8_t *in = decrypt ? v->ct : v->pt, *want = decrypt ? v->pt : v->ct;
	size_t len = (size_t)v->pt_len;

	if (!CHECK(v->key_len > 0 && v->iv_len == 16 && v->pt_len > 0 && v->pt_len == v->ct_len,
		   "%s: complete vector %u", file, *count))
		return;
	CHECK(vfit_aes_init(&k, v->key, (size_t)v->key_len) == VFIT_OK, "%s: key", file);
	memcpy(iv, v->iv, 16);
	memset(buf, 0, sizeof(buf));
	CHECK((decrypt ? vfit_aes_cbc_decrypt : vfit_aes_cbc_encrypt)(&k, iv, in, buf, len) ==
		      VFIT_OK && !memcmp(buf, want, len),
	      "%s: %s vector %u", file, decrypt ? "decrypt" : "encrypt", *count);
	/* In place, as the boot flow decrypts in the image's room. */
	memcpy(iv, v->iv, 16);
	memcpy(buf, in, len);
	CHECK((decrypt ? vfit_aes_cbc_decrypt : vfit_aes_cbc_encrypt)(&k, iv, buf, buf, len) ==
		      VFIT_OK && !memcmp(buf, want, len),
	      "%s: %s in place vector %u", file, decrypt ? "decrypt" : "encrypt", *count);
	(*count)++;
}

static void nist_file(const char *name, unsigned int expect)
{
	char path[512];
	char *text, *p;
	struct vec v;
	int decrypt = 0, have = 0;
	unsigned int count = 0;
	long r;

	snprintf(path, sizeof(path), "%s/nist-aes/%s", check_vectors_dir(), name);
	text = check_read_file(path, NULL);
	memset(&v, 0, sizeof(v));
	for (p = text; *p; p += strcspn(p, "\n"), p += *p == '\n') {
		if (!strncmp(p, "[ENCRYPT]", 9) || !strncmp(p, "[DECRYPT]", 9)) {
			decrypt = p[1] == 'D';
		} else if (!strncmp(p, "COUNT = ", 8)) {
			if (have)
				run_vec(name, decrypt, &v, &count);
			memset(&v, 0, sizeof(v));
			have = 1;
		} else if ((r = field(p, "KEY", v.key, sizeof(v.key))) != -2) {
			v.key_len = r;
		} else if ((r = field(p, "IV", v.iv, sizeof(v.iv))) != -2) {
			v.iv_len = r;
		} else if ((r = field(p, "PLAINTEXT", v.pt, sizeof(v.pt))) != -2) {
			v.pt_len = r;
		} else if ((r = field(p, "CIPHERTEXT", v.ct, sizeof(v.ct))) != -2) {
			v.ct_len = r;
		}
	}
	if (have)
		run_vec(name, decrypt, &v, &count);
	CHECK(count == expect, "%s: %u vectors (want %u)", name, count, expect);
	free(text);
}

static const EVP_CIPHER *evp(size_t key_len)
{
	return key_len == 16 ? EVP_aes_128_cbc() : key_len == 24 ? EVP_aes_192_cbc()
								 : EVP_aes_256_cbc();
}

/* OpenSSL as the oracle, the payload in random pieces. */
static void random_rounds(void)
{
	static uint8_t pt[4096 + 16], ct[4096 + 16], out[4096 + 16];
	unsigned int i, rounds = getenv("VFIT_TEST_QUICK") ? 100 : 600, bad_enc = 0, bad_dec = 0;

	for (i = 0; i < rounds; i++) {
		size_t key_len = 16 + 8 * (check_rand() % 3), len = 16 * (check_rand() % 257), off, n;
		uint8_t key[32], iv[16], iv2[16];
		struct vfit_aes_key k;
		EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
		int l1 = 0, l2 = 0;

		check_rand_bytes(key, sizeof(key));
		check_rand_bytes(iv, sizeof(iv));
		check_rand_bytes(pt, len);
		REQUIRE(ctx && EVP_EncryptInit_ex(ctx, evp(key_len), NULL, key, iv) == 1 &&
				EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 &&
				EVP_EncryptUpdate(ctx, ct, &l1, pt, (int)len) == 1 &&
				EVP_EncryptFinal_ex(ctx, ct + l1, &l2) == 1 && (size_t)(l1 + l2) == len,
			"OpenSSL AES-CBC");
		EVP_CIPHER_CTX_free(ctx);
		REQUIRE(vfit_aes_init(&k, key, key_len) == VFIT_OK, "key");
		memcpy(iv2, iv, 16);
		for (off = 0; off < len; off += n) {
			n = 16 * (1 + check_rand() % 8);
			n = n < len - off ? n : len - off;
			bad_dec += vfit_aes_cbc_decrypt(&k, iv2, ct + off, out + off, n) != VFIT_OK;
		}
		bad_dec += memcmp(out, pt, len) != 0;
		memcpy(iv2, iv, 16);
		memcpy(out, pt, len);
		for (off = 0; off < len; off += n) {
			n = 16 * (1 + check_rand() % 8);
			n = n < len - off ? n : len - off;
			bad_enc += vfit_aes_cbc_encrypt(&k, iv2, out + off, out + off, n) != VFIT_OK;
		}
		bad_enc += memcmp(out, ct, len) != 0;
	}
	CHECK(!bad_dec, "%u of %u random decryptions differ from OpenSSL", bad_dec, rounds);
	CHECK(!bad_enc, "%u of %u random encryptions differ from OpenSSL", bad_enc, rounds);
}

static void arguments(void)
{
	static const uint8_t key[33];
	struct vfit_aes_key k;
	uint8_t iv[16] = { 0 }, buf[32] = { 0 };
	size_t n;
	unsigned int bad = 0;

	for (n = 0; n <= 33; n++)
		bad += (vfit_aes_init(&k, key, n) == VFIT_OK) != (n == 16 || n == 24 || n == 32);
	CHECK(!bad, "only 16-, 24- and 32-byte keys");
	CHECK(vfit_aes_init(&k, NULL, 16) == VFIT_ERR_KEY, "NULL key");
	REQUIRE(vfit_aes_init(&k, key, 32) == VFIT_OK && k.rounds == 14, "AES-256 has 14 rounds");
	CHECK(vfit_aes_cbc_decrypt(&k, iv, buf, buf, 15) == VFIT_ERR_PARAM, "partial block refused");
	CHECK(vfit_aes_cbc_encrypt(&k, iv, buf, buf, 17) == VFIT_ERR_PARAM, "partial block refused");
	CHECK(vfit_aes_cbc_decrypt(&k, iv, NULL, NULL, 0) == VFIT_OK, "empty input");
	vfit_aes_wipe(&k);
	for (n = bad = 0; n < 60; n++)
		bad += k.rk[n] != 0;
	CHECK(!bad && k.rounds == 0, "wipe clears the schedule");
}

int main(void)
{
	static const struct {
		const char *name;
		unsigned int count;
	} files[] = {
		{ "CBCGFSbox128.rsp", 14 }, { "CBCGFSbox192.rsp", 12 }, { "CBCGFSbox256.rsp", 10 },
		{ "CBCKeySbox128.rsp", 42 }, { "CBCKeySbox192.rsp", 48 }, { "CBCKeySbox256.rsp", 32 },
		{ "CBCVarKey128.rsp", 256 }, { "CBCVarKey192.rsp", 384 }, { "CBCVarKey256.rsp", 512 },
		{ "CBCVarTxt128.rsp", 256 }, { "CBCVarTxt192.rsp", 256 }, { "CBCVarTxt256.rsp", 256 },
		{ "CBCMMT128.rsp", 20 }, { "CBCMMT192.rsp", 20 }, { "CBCMMT256.rsp", 20 },
	};
	size_t i;

	check_seed(24);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		nist_file(files[i].name, files[i].count);
	random_rounds();
	arguments();
	return check_done();
}
