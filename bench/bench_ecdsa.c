/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECDSA verify speed, vfit against OpenSSL, P-256 (sha256) and P-384
 * (sha384), on a 64-byte message so that hashing is a small share:
 *   vfit        hash (vfit_sha*) + vfit_ecdsa_verify() with the key loaded
 *               once (loading costs the "load" column once per key);
 *   DigestVerify  EVP_DigestVerifyInit() + EVP_DigestVerify() per call on
 *               the DER signature: OpenSSL's one-shot API;
 *   PKEY_verify EVP_PKEY_verify() of the digest on a context set up once:
 *               OpenSSL's arithmetic with the least around it.
 * OpenSSL 3 uses its nistz256 assembly for P-256 on x86-64 and generic
 * BIGNUM code for P-384.  Each figure is the best batch of 8 calls over
 * 2 s of alternating batches, timed in this thread's CPU time so that
 * other processes on a shared machine do not count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/ec.h>
#include <openssl/evp.h>

#include "vfit-host/host.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
	fprintf(stderr, "bench_ecdsa: %s failed\n", what);
	exit(1);
}

struct job {
	enum vfit_hash hash;
	const EVP_MD *md;
	EVP_PKEY *pkey;
	EVP_PKEY_CTX *vctx;
	struct vfit_ecdsa_pub pub;
	struct vfit_ecdsa_key key;
	uint8_t msg[64], digest[VFIT_HASH_MAX_SIZE];
	uint8_t der[128], sig[2 * VFIT_ECDSA_MAX_BYTES];
	size_t der_len, sig_len, digest_len;
};

static int run_vfit(struct job *j)
{
	uint8_t d[VFIT_HASH_MAX_SIZE];

	vfit_hash(j->hash, j->msg, sizeof(j->msg), d);
	return vfit_ecdsa_verify(&j->key, d, j->digest_len, j->sig, j->sig_len);
}

static int run_load(struct job *j)
{
	return vfit_ecdsa_pub_key(&j->pub, &j->key);
}

static int run_digestverify(struct job *j)
{
	EVP_MD_CTX *m = EVP_MD_CTX_new();
	int r = m && EVP_DigestVerifyInit(m, NULL, j->md, NULL, j->pkey) > 0 &&
		EVP_DigestVerify(m, j->der, j->der_len, j->msg, sizeof(j->msg)) == 1;

	EVP_MD_CTX_free(m);
	return !r;
}

static int run_pkeyverify(struct job *j)
{
	return EVP_PKEY_verify(j->vctx, j->der, j->der_len, j->digest, j->digest_len) != 1;
}

/* Microseconds per call of one batch of 8 calls; counts failures in *bad. */
static double batch_us(int (*fn)(struct job *), struct job *j, int *bad)
{
	double t0 = now();
	int i;

	for (i = 0; i < 8; i++)
		*bad += fn(j) != 0;
	return (now() - t0) * 1e6 / 8;
}

static void setup(struct job *j, const char *group, enum vfit_hash hash, const EVP_MD *md)
{
	EVP_MD_CTX *m = EVP_MD_CTX_new();
	struct vfit_err err = { 0 };
	ECDSA_SIG *s;
	const uint8_t *p;
	size_t i, nb;

	memset(j, 0, sizeof(*j));
	j->hash = hash;
	j->md = md;
	for (i = 0; i < sizeof(j->msg); i++)
		j->msg[i] = (uint8_t)(i * 13 + 5);
	j->pkey = EVP_PKEY_Q_keygen(NULL, NULL, "EC", group);
	j->der_len = sizeof(j->der);
	if (!j->pkey || !m || EVP_DigestSignInit(m, NULL, md, NULL, j->pkey) <= 0 ||
	    EVP_DigestSign(m, j->der, &j->der_len, j->msg, sizeof(j->msg)) <= 0)
		die("signing");
	EVP_MD_CTX_free(m);
	if (vfit_ecdsa_pub_from_pkey(j->pkey, &j->pub, &err) || run_load(j) != VFIT_OK)
		die("key conversion");
	nb = j->pub.len;
	p = j->der;
	s = d2i_ECDSA_SIG(NULL, &p, (long)j->der_len);
	if (!s || BN_bn2binpad(ECDSA_SIG_get0_r(s), j->sig, (int)nb) < 0 ||
	    BN_bn2binpad(ECDSA_SIG_get0_s(s), j->sig + nb, (int)nb) < 0)
		die("signature conversion");
	ECDSA_SIG_free(s);
	j->sig_len = 2 * nb;
	j->digest_len = vfit_hash_size(hash);
	vfit_hash(hash, j->msg, sizeof(j->msg), j->digest);
	j->vctx = EVP_PKEY_CTX_new(j->pkey, NULL);
	if (!j->vctx || EVP_PKEY_verify_init(j->vctx) <= 0)
		die("verify setup");
}

int main(void)
{
	static const struct {
		const char *name, *group;
		enum vfit_hash hash;
	} curves[] = {
		{ "P-256", "P-256", VFIT_HASH_SHA256 },
		{ "P-384", "P-384", VFIT_HASH_SHA384 },
	};
	const double secs = 2.0;
	int status = 0;
	size_t c;

	printf("ECDSA verify of a 64-byte message (hash included), best of 8-call batches\n");
	printf("%-6s %9s %9s %9s %12s %9s %11s %10s\n", "curve", "load us", "vfit us", "verify/s",
	       "DigestVfy us", "verify/s", "PKEY_vfy us", "ratio");
	for (c = 0; c < sizeof(curves) / sizeof(curves[0]); c++) {
		struct job j;
		double tv = 1e30, tl = 1e30, td = 1e30, tp = 1e30, t0;
		int bad = 0;

		setup(&j, curves[c].group, curves[c].hash,
		      curves[c].hash == VFIT_HASH_SHA256 ? EVP_sha256() : EVP_sha384());
		/* alternating batches for `secs`: the best batch of each, caches warm */
		for (t0 = now(); now() - t0 < secs;) {
			double v = batch_us(run_vfit, &j, &bad), l = batch_us(run_load, &j, &bad);
			double d = batch_us(run_digestverify, &j, &bad);
			double p = batch_us(run_pkeyverify, &j, &bad);

			tv = v < tv ? v : tv;
			tl = l < tl ? l : tl;
			td = d < td ? d : td;
			tp = p < tp ? p : tp;
		}
		if (bad) {
			printf("%s: %d verifications failed\n", curves[c].name, bad);
			status = 1;
		}
		printf("%-6s %9.2f %9.2f %9.0f %12.2f %9.0f %11.2f %4.2f/%4.2f\n",
		       curves[c].name, tl, tv, 1e6 / tv, td, 1e6 / td, tp, tv / td, tv / tp);
		printf("README | ECDSA %s verify%s | %.0f µs | OpenSSL %.0f µs (%.2fx) |\n",
		       curves[c].name, c ? "" : ", portable C", tv, td, tv / td);
		EVP_PKEY_CTX_free(j.vctx);
		EVP_PKEY_free(j.pkey);
	}
	printf("ratio: vfit time / DigestVerify time and / PKEY_verify time "
	       "(below 1: vfit faster)\n");
	return status;
}
