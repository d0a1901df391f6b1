/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RSA verify speed, vfit against OpenSSL, e = 65537, PKCS#1 v1.5 with
 * SHA-256.  Both sides get the digest, so hashing is excluded from both:
 * vfit_rsa_verify_pkcs1() (key checks + public op + padding compare) against
 * EVP_PKEY_verify() on a context set up once (public op + padding check;
 * OpenSSL caches its Montgomery context in the key).  Each figure is the
 * best batch of 8 calls over 2 s of alternating batches; "median" is the
 * median over those pairs of batches of vfit's time over OpenSSL's, the
 * figure to trust when the machine is busy and no batch runs undisturbed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <openssl/evp.h>
#include <openssl/rsa.h>

#include "vfit-host/host.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
	fprintf(stderr, "bench_rsa: %s failed\n", what);
	exit(1);
}

struct job {
	struct vfit_rsa_key key;
	EVP_PKEY_CTX *vctx;
	const uint8_t *digest, *sig;
	size_t sig_len;
};

/* What the README row says about the arithmetic of the default build. */
#if defined(__x86_64__)
#define PATHS "; mulx/adcx/adox chosen at run time"
#else
#define PATHS ""
#endif

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int run_vfit(const struct job *j)
{
	return vfit_rsa_verify_pkcs1(&j->key, VFIT_HASH_SHA256, j->digest, j->sig, j->sig_len);
}

static int run_openssl(const struct job *j)
{
	return EVP_PKEY_verify(j->vctx, j->sig, j->sig_len, j->digest, 32);
}

/* Microseconds per call of the fastest batch of 8 calls. */
static double batch_us(int (*fn)(const struct job *), const struct job *j)
{
	volatile int sink = 0;
	double t0 = now();
	int i;

	for (i = 0; i < 8; i++)
		sink += fn(j);
	(void)sink;
	return (now() - t0) * 1e6 / 8;
}

int main(void)
{
	static const unsigned sizes[] = { 2048, 3072, 4096 };
	const double secs = 2.0;
	uint8_t digest[32], sig[512];
	int status = 0;
	size_t s;

	for (s = 0; s < sizeof(digest); s++)
		digest[s] = (uint8_t)(s * 7 + 1);
	printf("RSA verify, e=65537, PKCS#1 v1.5 sha256, digest given (no hashing on either side)\n");
	printf("%-10s %12s %12s %8s %8s\n", "key", "vfit us", "OpenSSL us", "ratio", "median");
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		EVP_PKEY *pkey = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)sizes[s]);
		EVP_PKEY_CTX *sctx, *vctx;
		struct vfit_rsa_pub pub;
		struct vfit_rsa_key key;
		struct vfit_err err = { 0 };
		size_t sig_len = sizeof(sig);
		struct job job;
		double tv, to, t0;
		static double ratios[1 << 16];
		size_t nr = 0;

		if (!pkey)
			die("keygen");
		sctx = EVP_PKEY_CTX_new(pkey, NULL);
		vctx = EVP_PKEY_CTX_new(pkey, NULL);
		if (!sctx || !vctx || EVP_PKEY_sign_init(sctx) <= 0 ||
		    EVP_PKEY_CTX_set_rsa_padding(sctx, RSA_PKCS1_PADDING) <= 0 ||
		    EVP_PKEY_CTX_set_signature_md(sctx, EVP_sha256()) <= 0 ||
		    EVP_PKEY_sign(sctx, sig, &sig_len, digest, sizeof(digest)) <= 0)
			die("sign");
		if (EVP_PKEY_verify_init(vctx) <= 0 ||
		    EVP_PKEY_CTX_set_rsa_padding(vctx, RSA_PKCS1_PADDING) <= 0 ||
		    EVP_PKEY_CTX_set_signature_md(vctx, EVP_sha256()) <= 0)
			die("verify setup");
		if (vfit_rsa_pub_from_pkey(pkey, &pub, &err))
			die(err.msg);
		vfit_rsa_pub_key(&pub, &key);
		if (vfit_rsa_verify_pkcs1(&key, VFIT_HASH_SHA256, digest, sig, sig_len) != VFIT_OK ||
		    EVP_PKEY_verify(vctx, sig, sig_len, digest, sizeof(digest)) != 1) {
			printf("%u: verification failed\n", sizes[s]);
			status = 1;
		}
		job.key = key;
		job.vctx = vctx;
		job.digest = digest;
		job.sig = sig;
		job.sig_len = sig_len;
		/*
		 * Alternating batches for `secs`; the best batch of each side is
		 * its speed when the CPU was not shared (the machine may be busy).
		 */
		tv = to = 1e30;
		for (t0 = now(); now() - t0 < secs;) {
			double v = batch_us(run_vfit, &job), o = batch_us(run_openssl, &job);

			tv = v < tv ? v : tv;
			to = o < to ? o : to;
			if (nr < sizeof(ratios) / sizeof(ratios[0]))
				ratios[nr++] = v / o;
		}
		qsort(ratios, nr, sizeof(ratios[0]), cmp_double);
		printf("rsa%-7u %12.2f %12.2f %8.2f %8.2f\n", sizes[s], tv, to, tv / to,
		       ratios[nr / 2]);
		if (sizes[s] == 2048)
			printf("README | RSA-2048 verify (e=65537) | %.1f µs | OpenSSL %.1f µs "
			       "(%.2fx%s) |\n", tv, to, tv / to, PATHS);
		EVP_PKEY_CTX_free(sctx);
		EVP_PKEY_CTX_free(vctx);
		EVP_PKEY_free(pkey);
	}
	return status;
}
