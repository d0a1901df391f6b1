/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * MD5: the RFC 1321 test suite, streaming splits, and OpenSSL on random
 * data of every length up to 1000 and some longer ones.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "check.h"
#include "vfit/hash.h"

static void md5_split(const uint8_t *m, size_t len, size_t step, uint8_t out[16])
{
	struct vfit_md5_ctx c;
	size_t off, k;

	vfit_md5_init(&c);
	for (off = 0; off < len; off += k) {
		k = step < len - off ? step : len - off;
		vfit_md5_update(&c, m + off, k);
	}
	vfit_md5_final(&c, out);
}

static void rfc1321(void)
{
	static const struct {
		const char *msg;
		const char *md;
	} suite[] = {
		{ "", "d41d8cd98f00b204e9800998ecf8427e" },
		{ "a", "0cc175b9c0f1b6a831c399e269772661" },
		{ "abc", "900150983cd24fb0d6963f7d28e17f72" },
		{ "message digest", "f96b697d7cb7938d525a2f31aaf161d0" },
		{ "abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b" },
		{ "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
		  "d174ab98d277d9f5a5611c2c9f419d9f" },
		{ "1234567890123456789012345678901234567890"
		  "1234567890123456789012345678901234567890",
		  "57edf4a22be3c955ac49da2e2107b67a" },
	};
	uint8_t md[16];
	char got[33];
	size_t i, j;

	for (i = 0; i < sizeof(suite) / sizeof(suite[0]); i++) {
		memset(md, 0, sizeof(md));
		vfit_hash(VFIT_HASH_MD5, suite[i].msg, strlen(suite[i].msg), md);
		for (j = 0; j < 16; j++)
			sprintf(got + 2 * j, "%02x", md[j]);
		CHECK(!strcmp(got, suite[i].md), "MD5(\"%s\") = %s", suite[i].msg, got);
		md5_split((const uint8_t *)suite[i].msg, strlen(suite[i].msg), 1, md);
		for (j = 0; j < 16; j++)
			sprintf(got + 2 * j, "%02x", md[j]);
		CHECK(!strcmp(got, suite[i].md), "MD5(\"%s\") byte by byte = %s", suite[i].msg, got);
	}
}

static void against_openssl(void)
{
	static uint8_t data[70000];
	static const size_t steps[] = { 1, 3, 63, 64, 65, 1000 };
	uint8_t md[16], ref[16];
	unsigned int bad = 0, n = 0, bad_split = 0;
	size_t len, i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(rand() >> 7);
	for (len = 0; len <= 1000; len++) {
		struct vfit_hash_ctx c;

		vfit_hash_init(&c, VFIT_HASH_MD5);
		vfit_hash_update(&c, data, len / 3);
		vfit_hash_update(&c, data + len / 3, len - len / 3);
		vfit_hash_final(&c, md);
		EVP_Digest(data, len, ref, NULL, EVP_md5(), NULL);
		bad += memcmp(md, ref, 16) != 0;
		n++;
	}
	for (i = 0; i < 20; i++) {
		len = (size_t)rand() % (sizeof(data) + 1);
		md5_split(data, len, steps[i % 6], md);
		EVP_Digest(data, len, ref, NULL, EVP_md5(), NULL);
		bad_split += memcmp(md, ref, 16) != 0;
	}
	CHECK(!bad, "%u of %u MD5s of lengths 0..1000 differ from OpenSSL", bad, n);
	CHECK(!bad_split, "%u of 20 long split MD5s differ from OpenSSL", bad_split);
	CHECK(vfit_hash_size(VFIT_HASH_MD5) == 16, "md5 size");
}

int main(void)
{
	srand((unsigned)check_seed(5));
	rfc1321();
	against_openssl();
	return check_done();
}
