/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rsa_signs KEY.pem N: the signing half of bench/scale.sh's reference,
 * "an unsigned build of the same FIT + N RSA-2048 signatures by OpenSSL".
 * One process loads the PEM private key once and makes N sha256 PKCS#1
 * v1.5 signatures (EVP_DigestSign, a fresh context each, as a signer does
 * per configuration) of N distinct 1 KiB messages, about what one
 * configuration's signed regions and strings come to.  Prints the
 * seconds the N signatures took; bench/scale.sh times the whole process.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>
#include <openssl/pem.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int sign_one(EVP_PKEY *key, const unsigned char *msg, size_t n)
{
	unsigned char sig[512];
	size_t len = sizeof(sig);
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	int ok = c && EVP_DigestSignInit(c, NULL, EVP_sha256(), NULL, key) == 1 &&
		 EVP_DigestSign(c, sig, &len, msg, n) == 1;

	EVP_MD_CTX_free(c);
	return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	unsigned char msg[1024];
	EVP_PKEY *key;
	FILE *f;
	long i, n;
	double t0;

	if (argc != 3 || (n = strtol(argv[2], NULL, 10)) < 1) {
		fprintf(stderr, "usage: rsa_signs KEY.pem N\n");
		return 2;
	}
	f = fopen(argv[1], "r");
	key = f ? PEM_read_PrivateKey(f, NULL, NULL, NULL) : NULL;
	if (f)
		fclose(f);
	if (!key) {
		fprintf(stderr, "rsa_signs: %s: cannot read a private key\n", argv[1]);
		return 2;
	}
	memset(msg, 0xa5, sizeof(msg));
	t0 = now();
	for (i = 0; i < n; i++) {
		memcpy(msg, &i, sizeof(i));
		if (sign_one(key, msg, sizeof(msg))) {
			fprintf(stderr, "rsa_signs: signature %ld failed\n", i);
			return 1;
		}
	}
	printf("%.6f\n", now() - t0);
	EVP_PKEY_free(key);
	return 0;
}
