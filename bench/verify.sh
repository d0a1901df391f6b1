#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# `vfit verify` against OpenSSL in the same run:
#  1. a configuration-signed FIT (sha256,rsa2048) with a 64 MiB kernel,
#     vfit verify (whole command) vs `openssl dgst -sha256` of the same
#     64 MiB; goal <= 1.05x (and `sha256sum`, for scale).
#  2. the configuration check alone (FIT with tiny images, library call
#     vfit_verify() in a loop) vs one OpenSSL RSA-2048 verify (EVP).
# Best of several runs each.  Needs $BUILD/vfit and $BUILD/libvfit.a.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
VFIT=$BUILD/vfit
. "$ROOT/tests/fixtures.sh"
RUNS=${BENCH_RUNS:-5}
bench_dir

now() { date +%s%N; }
best() { # command...: best wall time in microseconds over $RUNS runs
	b=
	i=0
	while [ $i -lt "$RUNS" ]; do
		s=$(now)
		"$@" >/dev/null 2>&1
		e=$(now)
		d=$(((e - s) / 1000))
		if [ -z "$b" ] || [ "$d" -lt "$b" ]; then b=$d; fi
		i=$((i + 1))
	done
	echo "$b"
}

openssl genpkey -algorithm RSA -out dev.key -pkeyopt rsa_keygen_bits:2048 2>/dev/null
openssl req -batch -new -x509 -key dev.key -out dev.crt 2>/dev/null
printf '/dts-v1/;\n/ { model = "bench"; };\n' > ctl.dts
dtc -I dts -O dtb -o ctl.dtb ctl.dts
cp ctl.dtb small.dtb
head -c 67108864 /dev/urandom > kernel.bin
head -c 64 /dev/urandom > tiny.bin

its() { fit_its -d bench -n -k "$1" -f "" -c sha256,rsa2048:dev; }
its kernel.bin > big.its
its tiny.bin > small.its
mkimage -f big.its -k . -K ctl.dtb -r -E big.fit >/dev/null
mkimage -f small.its -k . -K small.dtb -r small.fit >/dev/null
"$VFIT" verify -f big.fit -k ctl.dtb >/dev/null

# Warm the page cache, then measure.
cat big.fit kernel.bin >/dev/null
v=$(best "$VFIT" verify -f big.fit -k ctl.dtb)
o=$(best openssl dgst -sha256 kernel.bin)
s=$(best sha256sum kernel.bin)

# The configuration check alone, as a library call.
cat > lib.c <<'C'
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "vfit/fit.h"

static void *slurp(const char *p, size_t *n)
{
	FILE *f = fopen(p, "rb");
	void *b = malloc(1 << 20);

	*n = fread(b, 1, 1 << 20, f);
	fclose(f);
	return b;
}

static double secs(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void)
{
	static struct vfit_verify_result res;
	size_t fl, cl;
	void *fit = slurp("small.fit", &fl), *ctl = slurp("small.dtb", &cl);
	FILE *f = fopen("dev.crt", "r");
	X509 *x = PEM_read_X509(f, NULL, NULL, NULL);
	EVP_PKEY *pk = X509_get_pubkey(x);
	unsigned char sig[256], md[32] = { 0 };
	size_t sl = sizeof(sig);
	int i, n = 2000;
	double t0, a, b;
	FILE *kf = fopen("dev.key", "r");
	EVP_PKEY *sk = PEM_read_PrivateKey(kf, NULL, NULL, NULL);
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(sk, NULL);

	EVP_PKEY_sign_init(c);
	EVP_PKEY_CTX_set_signature_md(c, EVP_sha256());
	EVP_PKEY_sign(c, sig, &sl, md, 32);
	EVP_PKEY_CTX_free(c);
	if (vfit_verify(fit, fl, ctl, cl, NULL, 0, &res))
		return 1;
	t0 = secs();
	for (i = 0; i < n; i++)
		vfit_verify(fit, fl, ctl, cl, NULL, 0, &res);
	a = (secs() - t0) / n;
	t0 = secs();
	for (i = 0; i < n; i++) {
		c = EVP_PKEY_CTX_new(pk, NULL);
		EVP_PKEY_verify_init(c);
		EVP_PKEY_CTX_set_signature_md(c, EVP_sha256());
		if (EVP_PKEY_verify(c, sig, sl, md, 32) != 1)
			return 1;
		EVP_PKEY_CTX_free(c);
	}
	b = (secs() - t0) / n;
	printf("%.0f %.0f\n", a * 1e9, b * 1e9);
	return 0;
}
C
cc -O2 -I"$ROOT/include" -o lib lib.c "$BUILD/libvfit.a" -lfdt -lcrypto
set -- $(./lib)

awk -v v="$v" -v o="$o" -v s="$s" -v cv="$1" -v co="$2" 'BEGIN {
	printf "  %-46s %12s %12s %8s\n", "case", "vfit", "openssl", "ratio"
	printf "  %-46s %10.1f ms %10.1f ms %7.2fx   (goal <= 1.05x)\n",
		"64 MiB kernel: vfit verify vs dgst -sha256", v / 1000, o / 1000, v / o
	printf "  %-46s %10.1f ms %10.1f ms %7.2fx   (sha256sum in the openssl column)\n",
		"64 MiB kernel: vfit verify vs sha256sum", v / 1000, s / 1000, v / s
	printf "  %-46s %10.1f us %10.1f us %7.2fx\n",
		"config check alone vs one RSA-2048 verify", cv / 1000, co / 1000, cv / co
}'
