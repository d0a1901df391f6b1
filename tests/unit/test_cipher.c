/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Encrypted images on the device side (lib/fit/fit_cipher.c): the cipher
 * node and its key node are read exactly as mkimage writes them and every
 * other shape is refused at the right node and property; decryption gives
 * OpenSSL's plaintext back for every length, into a buffer of exactly the
 * plaintext's size (ASan sees any byte written past it), in place too,
 * and refuses ciphertext lengths that no padding explains.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>
#include <openssl/evp.h>

#include "check.h"
#include "vfit/cipher.h"

static uint8_t fit[4096], ctl[4096];
static const uint8_t key[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
				 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 };
static const uint8_t iv[16] = { 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
				0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf };

/* What the two trees hold; a NULL string or a negative length leaves the property out. */
struct shape {
	const char *algo;
	int algo_len;            /* bytes of algo written (with its NUL), 0: strlen + 1 */
	const char *key_name, *iv_name;
	int fit_iv_len;          /* iv in the cipher node */
	int size_len;            /* data-size-unciphered */
	const char *key_node;    /* name under /cipher in ctl, NULL: no /cipher */
	int key_len, key_len_prop, ctl_iv_len;
	int key_len_size;        /* bytes of key-len written, 0: 4 */
};

static struct shape good(void)
{
	struct shape s = { "aes256", 0, "k", NULL, 16, 4, "key-aes256-k", 32, 32, -1, 0 };

	return s;
}

static void build(const struct shape *s)
{
	/* key and IV followed by zeros: a property longer than its size keeps the right start */
	uint8_t kb[64] = { 0 }, ivb[64] = { 0 };
	fdt32_t klen[2] = { cpu_to_fdt32((uint32_t)s->key_len_prop), 0 };

	memcpy(kb, key, sizeof(key));
	memcpy(ivb, iv, sizeof(iv));
	FDT(fdt_create(fit, sizeof(fit)));
	FDT(fdt_finish_reservemap(fit));
	FDT(fdt_begin_node(fit, ""));
	FDT(fdt_begin_node(fit, "images"));
	FDT(fdt_begin_node(fit, "kernel"));
	FDT(fdt_property(fit, "data", fit, 32));
	if (s->size_len >= 0) {
		fdt32_t v[2] = { cpu_to_fdt32(20), 0 };

		FDT(fdt_property(fit, "data-size-unciphered", v, s->size_len));
	}
	FDT(fdt_begin_node(fit, "cipher"));
	if (s->algo)
		FDT(fdt_property(fit, "algo", s->algo,
				 s->algo_len ? s->algo_len : (int)strlen(s->algo) + 1));
	if (s->key_name)
		FDT(fdt_property_string(fit, "key-name-hint", s->key_name));
	if (s->iv_name)
		FDT(fdt_property_string(fit, "iv-name-hint", s->iv_name));
	if (s->fit_iv_len >= 0)
		FDT(fdt_property(fit, "iv", ivb, s->fit_iv_len));
	FDT(fdt_end_node(fit));
	FDT(fdt_end_node(fit));
	FDT(fdt_end_node(fit));
	FDT(fdt_end_node(fit));
	FDT(fdt_finish(fit));

	FDT(fdt_create(ctl, sizeof(ctl)));
	FDT(fdt_finish_reservemap(ctl));
	FDT(fdt_begin_node(ctl, ""));
	if (s->key_node) {
		FDT(fdt_begin_node(ctl, "cipher"));
		FDT(fdt_begin_node(ctl, s->key_node));
		if (s->ctl_iv_len >= 0)
			FDT(fdt_property(ctl, "iv", ivb, s->ctl_iv_len));
		if (s->key_len >= 0)
			FDT(fdt_property(ctl, "key", kb, s->key_len));
		if (s->key_len_prop >= 0)
			FDT(fdt_property(ctl, "key-len", klen,
					 s->key_len_size ? s->key_len_size : 4));
		FDT(fdt_end_node(ctl));
		FDT(fdt_end_node(ctl));
	}
	FDT(fdt_end_node(ctl));
	FDT(fdt_finish(ctl));
}

/* find(): result, and on failure which tree, node name and property. */
static void expect(const char *what, const struct shape *s, enum vfit_result want, int in_ctl,
		   const char *node, const char *prop)
{
	struct vfit_cipher ci;
	struct vfit_diag d = { .node = -1 };
	enum vfit_result r;
	const char *n;

	build(s);
	r = vfit_cipher_find(fit, fdt_path_offset(fit, "/images/kernel"), ctl, &ci, &d);
	CHECK(r == want, "%s: result %d, want %d", what, (int)r, (int)want);
	if (want == VFIT_OK || r != want)
		return;
	n = d.node >= 0 ? fdt_get_name(in_ctl ? ctl : fit, d.node, NULL) : NULL;
	CHECK(ci.err_in_control == in_ctl && n && !strcmp(n, node) &&
		      ((!prop && !d.prop) || (prop && d.prop && !strcmp(prop, d.prop))),
	      "%s: at %s %s %s (got %s %s %s)", what, in_ctl ? "ctl" : "fit", node,
	      prop ? prop : "-", ci.err_in_control ? "ctl" : "fit", n ? n : "?",
	      d.prop ? d.prop : "-");
}

static void lookups(void)
{
	struct vfit_cipher ci;
	struct shape s = good();
	char longname[200];

	build(&s);
	REQUIRE(vfit_cipher_find(fit, fdt_path_offset(fit, "/images/kernel"), ctl, &ci, NULL) ==
			VFIT_OK, "mkimage's shape");
	CHECK(ci.key_len == 32 && ci.iv_in_fit && !memcmp(ci.iv, iv, 16) && ci.plain_len == 20 &&
		      !memcmp(ci.key, key, 32) && !strcmp(ci.key_name, "k") && !ci.iv_name,
	      "what it found");
	s.iv_name = "v";
	s.fit_iv_len = -1;
	s.key_node = "key-aes256-k-v";
	s.ctl_iv_len = 16;
	build(&s);
	CHECK(vfit_cipher_find(fit, fdt_path_offset(fit, "/images/kernel"), ctl, &ci, NULL) ==
		      VFIT_OK && !ci.iv_in_fit && ci.iv && !memcmp(ci.iv, iv, 16),
	      "IV file: key node named with it, IV from the control FDT");
	/* Both: U-Boot takes the FIT's IV, and still names the node with the hint. */
	s.fit_iv_len = 16;
	s.ctl_iv_len = -1;
	expect("IV in the FIT and an IV hint", &s, VFIT_OK, 0, NULL, NULL);
	s = good();
	s.algo = "aes128";
	s.key_node = "key-aes128-k";
	s.key_len = s.key_len_prop = 16;
	expect("aes128", &s, VFIT_OK, 0, NULL, NULL);
	s.algo = "aes192";
	s.key_node = "key-aes192-k";
	s.key_len = s.key_len_prop = 24;
	expect("aes192", &s, VFIT_OK, 0, NULL, NULL);
	s = good();
	s.key_len_prop = -1;
	expect("key-len is optional", &s, VFIT_OK, 0, NULL, NULL);

	s = good(); s.algo = NULL;
	expect("no algo", &s, VFIT_ERR_MISSING, 0, "cipher", "algo");
	s = good(); s.algo = "aes2560"; s.key_node = "key-aes2560-k";
	expect("a prefix of U-Boot's is not a name", &s, VFIT_ERR_UNSUPPORTED, 0, "cipher", "algo");
	s = good(); s.algo = "aes512";
	expect("aes512", &s, VFIT_ERR_UNSUPPORTED, 0, "cipher", "algo");
	s = good(); s.algo_len = 6;
	expect("algo without NUL", &s, VFIT_ERR_FORMAT, 0, "cipher", "algo");
	s = good(); s.algo = "aes256\0x"; s.algo_len = 9;
	expect("algo with a second string", &s, VFIT_ERR_FORMAT, 0, "cipher", "algo");
	s = good(); s.key_name = NULL;
	expect("no key-name-hint", &s, VFIT_ERR_MISSING, 0, "cipher", "key-name-hint");
	s = good(); s.key_name = "";
	expect("empty key-name-hint", &s, VFIT_ERR_FORMAT, 0, "cipher", "key-name-hint");
	s = good(); s.iv_name = "";
	expect("empty iv-name-hint", &s, VFIT_ERR_FORMAT, 0, "cipher", "iv-name-hint");
	s = good(); s.fit_iv_len = 15;
	expect("15-byte IV", &s, VFIT_ERR_FORMAT, 0, "cipher", "iv");
	s = good(); s.fit_iv_len = 17;
	expect("17-byte IV", &s, VFIT_ERR_FORMAT, 0, "cipher", "iv");
	s = good(); s.fit_iv_len = -1;
	expect("no IV at all", &s, VFIT_ERR_MISSING, 0, "cipher", "iv");
	s = good(); s.size_len = -1;
	expect("no data-size-unciphered", &s, VFIT_ERR_MISSING, 0, "kernel", "data-size-unciphered");
	s = good(); s.size_len = 8;
	expect("8-byte data-size-unciphered", &s, VFIT_ERR_FORMAT, 0, "kernel",
	       "data-size-unciphered");
	s = good(); s.key_node = NULL;
	expect("no /cipher", &s, VFIT_ERR_MISSING, 1, "", NULL);
	s = good(); s.key_node = "key-aes256-j";
	expect("no such key node", &s, VFIT_ERR_MISSING, 1, "cipher", NULL);
	s = good(); s.key_len = -1;
	expect("no key", &s, VFIT_ERR_MISSING, 1, "key-aes256-k", "key");
	s = good(); s.key_len = 16;
	expect("short key", &s, VFIT_ERR_KEY, 1, "key-aes256-k", "key");
	s = good(); s.key_len = 33;
	expect("long key", &s, VFIT_ERR_KEY, 1, "key-aes256-k", "key");
	s = good(); s.key_len_prop = 16;
	expect("key-len disagrees", &s, VFIT_ERR_KEY, 1, "key-aes256-k", "key-len");
	s = good(); s.key_len_size = 8;
	expect("key-len of two cells, the first right", &s, VFIT_ERR_KEY, 1, "key-aes256-k",
	       "key-len");
	s = good(); s.iv_name = "v"; s.fit_iv_len = -1; s.key_node = "key-aes256-k-v";
	expect("IV hint, no IV in the key node", &s, VFIT_ERR_MISSING, 1, "key-aes256-k-v", "iv");
	s.ctl_iv_len = 8;
	expect("IV hint, short IV in the key node", &s, VFIT_ERR_KEY, 1, "key-aes256-k-v", "iv");
	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	longname[110] = 0;
	s = good(); s.key_name = longname;
	expect("key node path past U-Boot's 128 bytes", &s, VFIT_ERR_LIMIT, 0, "cipher",
	       "key-name-hint");
	/*
	 * At the edges: "/cipher/key-aes256-" + a hint of 108 bytes is 127, the
	 * longest path; a hint of 109 is refused, and so is one that fills the
	 * node name's buffer exactly (117: nothing may be written past it).
	 */
	{
		static char node[sizeof(longname) + 16];
		static const int hint[] = { VFIT_CIPHER_PATH_MAX - 20, VFIT_CIPHER_PATH_MAX - 19,
					    VFIT_CIPHER_PATH_MAX - 11 };
		unsigned int i;

		for (i = 0; i < 3; i++) {
			memset(longname, 'n', sizeof(longname) - 1);
			longname[hint[i]] = 0;
			snprintf(node, sizeof(node), "key-aes256-%s", longname);
			s = good(); s.key_name = longname; s.key_node = node;
			if (i == 0)
				expect("the longest key node path", &s, VFIT_OK, 0, NULL, NULL);
			else
				expect("key node path one past the longest, or filling the buffer",
				       &s, VFIT_ERR_LIMIT, 0, "cipher", "key-name-hint");
		}
	}
	build(&s);
	CHECK(vfit_cipher_find(fit, fdt_path_offset(fit, "/images"), ctl, &ci, NULL) ==
		      VFIT_ERR_MISSING, "an image without a cipher node");
	CHECK(vfit_cipher_find(NULL, 0, ctl, &ci, NULL) == VFIT_ERR_PARAM, "NULL FIT");
	CHECK(vfit_cipher_key_len("aes128", 6) == 16 && vfit_cipher_key_len("aes192", 6) == 24 &&
		      vfit_cipher_key_len("aes256", 6) == 32 && !vfit_cipher_key_len("aes25", 5) &&
		      !vfit_cipher_key_len("AES256", 6),
	      "algorithm names");
}

/* OpenSSL's AES-CBC with PKCS#7, as mkimage encrypts. */
static size_t openssl_encrypt(size_t key_len, const uint8_t *pt, size_t len, uint8_t *ct, int pad)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	const EVP_CIPHER *e = key_len == 16 ? EVP_aes_128_cbc() : key_len == 24 ? EVP_aes_192_cbc()
										: EVP_aes_256_cbc();
	int n1 = 0, n2 = 0;

	REQUIRE(c && EVP_EncryptInit_ex(c, e, NULL, key, iv) == 1 &&
			EVP_CIPHER_CTX_set_padding(c, pad) == 1 &&
			EVP_EncryptUpdate(c, ct, &n1, pt, (int)len) == 1 &&
			EVP_EncryptFinal_ex(c, ct + n1, &n2) == 1,
		"OpenSSL encrypts");
	EVP_CIPHER_CTX_free(c);
	return (size_t)(n1 + n2);
}

static void decryption(void)
{
	static uint8_t pt[200], ct[232];
	struct vfit_cipher ci;
	size_t len, ct_len, k;
	unsigned int bad = 0, bad_in_place = 0, n = 0;
	uint8_t *out;

	check_rand_bytes(pt, sizeof(pt));
	for (k = 16; k <= 32; k += 8) {
		for (len = 0; len <= 150; len++, n++) {
			ct_len = openssl_encrypt(k, pt, len, ct, 1);
			memset(&ci, 0, sizeof(ci));
			ci.key = key;
			ci.key_len = k;
			ci.iv = iv;
			ci.plain_len = (uint32_t)len;
			/* Exactly the plaintext's room: ASan catches any write past it. */
			out = malloc(len ? len : 1);
			REQUIRE(out != NULL, "malloc");
			bad += vfit_cipher_decrypt(&ci, ct, ct_len, out, len) != VFIT_OK ||
			       memcmp(out, pt, len);
			free(out);
			bad_in_place += vfit_cipher_decrypt(&ci, ct, ct_len, ct, ct_len) != VFIT_OK ||
					memcmp(ct, pt, len);
		}
	}
	CHECK(!bad, "%u of %u decryptions differ from OpenSSL's plaintext", bad, n);
	CHECK(!bad_in_place, "%u of %u in-place decryptions differ", bad_in_place, n);

	/* No padding at all (a whole number of blocks): still one plaintext. */
	ct_len = openssl_encrypt(32, pt, 64, ct, 0);
	ci.key_len = 32;
	ci.plain_len = 64;
	out = malloc(64);
	REQUIRE(out != NULL, "malloc");
	CHECK(ct_len == 64 && vfit_cipher_decrypt(&ci, ct, 64, out, 64) == VFIT_OK &&
		      !memcmp(out, pt, 64), "no padding block");
	ci.plain_len = 20;
	CHECK(vfit_cipher_decrypt(&ci, ct, 0, out, 64) == VFIT_ERR_DATA, "empty ciphertext");
	CHECK(vfit_cipher_decrypt(&ci, ct, 33, out, 64) == VFIT_ERR_DATA, "partial block");
	CHECK(vfit_cipher_decrypt(&ci, ct, 48, out, 64) == VFIT_ERR_DATA,
	      "more than a block of padding");
	ci.plain_len = 65;
	CHECK(vfit_cipher_decrypt(&ci, ct, 64, out, 64) == VFIT_ERR_DATA,
	      "plaintext longer than the ciphertext");
	ci.plain_len = 60;
	CHECK(vfit_cipher_decrypt(&ci, ct, 64, out, 59) == VFIT_ERR_PARAM, "no room");
	ci.key_len = 20;
	CHECK(vfit_cipher_decrypt(&ci, ct, 64, out, 64) == VFIT_ERR_KEY, "bad key length");
	CHECK(vfit_cipher_decrypt(NULL, ct, 64, out, 64) == VFIT_ERR_PARAM, "no cipher");
	free(out);
}

int main(void)
{
	check_seed(24);
	lookups();
	decryption();
	return check_done();
}
