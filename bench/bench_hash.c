/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Hash throughput: vfit against OpenSSL EVP (zlib for CRC-32) on the same
 * buffers.  Three cases: 16 KiB messages (init + update + final each), one
 * long message fed as 16 KiB updates (the block functions alone), and
 * 64 MiB messages.  Each figure is the fastest of many timed trials, vfit
 * and the reference alternating, so that other load on the machine
 * disturbs both alike and rarely the best trial.  "speed" is vfit MB/s
 * over reference MB/s: above 1.00 vfit is faster.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>
#include <zlib.h>

#include "vfit/hash.h"

#define SMALL (16u << 10)
#define LARGE (64u << 20)
#define SMALL_TRIALS 2000
#define LARGE_TRIALS 9

struct row {
	const char *label;
	enum vfit_hash algo;
	enum vfit_impl impl;
	const char *evp;        /* OpenSSL digest name; NULL: zlib crc32 */
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Results land here so the compiler cannot drop the work. */
static volatile unsigned char sink;

/* Hashes one message of len bytes; with ctx given, only feeds it to a running context. */
static void run_vfit(const struct row *r, struct vfit_hash_ctx *run, const uint8_t *p,
		     size_t len)
{
	struct vfit_hash_ctx c;
	uint8_t out[VFIT_HASH_MAX_SIZE];

	if (run) {
		vfit_hash_update(run, p, len);
		return;
	}
	if (vfit_hash_init_impl(&c, r->algo, r->impl)) {
		fprintf(stderr, "bench_hash: %s unavailable\n", r->label);
		exit(1);
	}
	vfit_hash_update(&c, p, len);
	vfit_hash_final(&c, out);
	sink ^= out[0];
}

static void run_ref(const struct row *r, EVP_MD_CTX *ctx, int running, const EVP_MD *md,
		    const uint8_t *p, size_t len)
{
	unsigned char out[EVP_MAX_MD_SIZE];
	unsigned int n;

	if (!md) {
		sink ^= (unsigned char)crc32(0, p, (uInt)len);
		return;
	}
	if (running) {
		if (!EVP_DigestUpdate(ctx, p, len))
			goto fail;
		return;
	}
	if (!EVP_DigestInit_ex(ctx, md, NULL) || !EVP_DigestUpdate(ctx, p, len) ||
	    !EVP_DigestFinal_ex(ctx, out, &n))
		goto fail;
	sink ^= out[0];
	return;
fail:
	fprintf(stderr, "bench_hash: OpenSSL %s failed\n", r->evp);
	exit(1);
}

/*
 * MB/s (10^6 bytes) of vfit (v[0]) and the reference (v[1]) on len-byte
 * buffers, fastest of `trials` alternating trials.  With stream set, each
 * trial is one update of a single long message instead of a whole message.
 */
static void speed(const struct row *r, const EVP_MD *md, const uint8_t *p, size_t len,
		  unsigned int trials, int stream, double v[2])
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new(), *sctx = EVP_MD_CTX_new();
	struct vfit_hash_ctx run;
	double best[2] = { 1e30, 1e30 }, t;
	unsigned int i;
	int ref;

	if (!ctx || !sctx || vfit_hash_init_impl(&run, r->algo, r->impl) ||
	    (md && !EVP_DigestInit_ex(sctx, md, NULL))) {
		fprintf(stderr, "bench_hash: cannot set up %s\n", r->label);
		exit(1);
	}
	for (i = 0; i < trials; i++) {
		for (ref = 0; ref < 2; ref++) {
			t = now();
			if (ref)
				run_ref(r, stream ? sctx : ctx, stream, md, p, len);
			else
				run_vfit(r, stream ? &run : NULL, p, len);
			t = now() - t;
			if (t < best[ref])
				best[ref] = t;
		}
	}
	for (ref = 0; ref < 2; ref++)
		v[ref] = (double)len / best[ref] / 1e6;
	EVP_MD_CTX_free(ctx);
	EVP_MD_CTX_free(sctx);
}

int main(void)
{
	static const struct row rows[] = {
		{ "crc32", VFIT_HASH_CRC32, VFIT_IMPL_PORTABLE, NULL },
		{ "md5", VFIT_HASH_MD5, VFIT_IMPL_PORTABLE, "MD5" },
		{ "sha1 accel", VFIT_HASH_SHA1, VFIT_IMPL_ACCEL, "SHA1" },
		{ "sha1 portable", VFIT_HASH_SHA1, VFIT_IMPL_PORTABLE, "SHA1" },
		{ "sha256 accel", VFIT_HASH_SHA256, VFIT_IMPL_ACCEL, "SHA256" },
		{ "sha256 portable", VFIT_HASH_SHA256, VFIT_IMPL_PORTABLE, "SHA256" },
		{ "sha384", VFIT_HASH_SHA384, VFIT_IMPL_PORTABLE, "SHA384" },
		{ "sha512", VFIT_HASH_SHA512, VFIT_IMPL_PORTABLE, "SHA512" },
	};
	uint8_t *buf = malloc(LARGE);
	double s[6], t;
	unsigned int i, n;
	size_t j;

	if (!buf) {
		fprintf(stderr, "bench_hash: out of memory\n");
		return 1;
	}
	for (j = 0; j < LARGE; j++)
		buf[j] = (uint8_t)(j * 2654435761u >> 13);

	printf("MB/s = 10^6 bytes/s, fastest of %d (16 KiB) or %d (64 MiB) trials; "
	       "speed = vfit MB/s / OpenSSL MB/s.\n", SMALL_TRIALS, LARGE_TRIALS);
	printf("CRC-32 is compared with zlib crc32(), the rest with OpenSSL EVP (%s).\n",
	       OPENSSL_VERSION_TEXT);
	printf("%-15s|%25s |%25s |%25s\n", "", "16 KiB messages", "one stream, 16 KiB updates",
	       "64 MiB messages");
	printf("%-15s|%8s %8s %7s |%8s %8s %7s |%8s %8s %7s\n", "algorithm", "vfit", "OpenSSL",
	       "speed", "vfit", "OpenSSL", "speed", "vfit", "OpenSSL", "speed");
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		const EVP_MD *md = r->evp ? EVP_get_digestbyname(r->evp) : NULL;

		if (r->impl == VFIT_IMPL_ACCEL && !vfit_hash_have_accel(r->algo)) {
			printf("%-16s | no SHA instructions on this CPU\n", r->label);
			continue;
		}
		if (r->evp && !md) {
			fprintf(stderr, "bench_hash: OpenSSL has no %s\n", r->evp);
			return 1;
		}
		speed(r, md, buf, SMALL, SMALL_TRIALS, 0, s);
		speed(r, md, buf, SMALL, SMALL_TRIALS, 1, s + 2);
		speed(r, md, buf, LARGE, LARGE_TRIALS, 0, s + 4);
		printf("%-15s|%8.0f %8.0f %7.2f |%8.0f %8.0f %7.2f |%8.0f %8.0f %7.2f\n", r->label,
		       s[0], s[1], s[0] / s[1], s[2], s[3], s[2] / s[3], s[4], s[5], s[4] / s[5]);
		/* The README's rows, in its words (bench/run collects the "README |" lines). */
		if (r->algo == VFIT_HASH_SHA256 && r->impl == VFIT_IMPL_ACCEL)
			printf("README | SHA-256, SHA-NI, 64 MiB | %.0f MB/s | OpenSSL %.0f MB/s "
			       "(%.2fx) |\n", s[4], s[5], s[4] / s[5]);
		if (r->algo == VFIT_HASH_SHA256 && r->impl == VFIT_IMPL_PORTABLE)
			printf("README | SHA-256, portable C | %.0f MB/s | U-Boot/BearSSL C "
			       "~255-300 MB/s (not measured here) |\n", s[4]);
	}

	/*
	 * What the run-time CPU check costs here: every accelerated message of
	 * 1 KiB or more pays it once, which is what separates the first two
	 * column groups for the accelerated rows.
	 */
	n = 200;
	t = now();
	for (i = 0; i < n; i++)
		sink ^= (unsigned char)vfit_hash_have_accel(VFIT_HASH_SHA256);
	t = now() - t;
	printf("CPU check for the SHA instructions (CPUID): %.2f us per message\n", t / n * 1e6);

	free(buf);
	return 0;
}
