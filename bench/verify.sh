#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# `vfit verify` against OpenSSL in the same run:
#  1. a configuration-signed FIT (sha256,rsa2048) with a 64 MiB kernel,
#     `vfit verify` (the whole command) against `openssl dgst -sha256` of
#     the same file, for the FIT as vfit wrote it, a `cp` of it and the
#     FIT Debian's mkimage wrote (the file's page-cache layout follows its
#     writer); goal <= 1.0x each, by wall time and by CPU time (user +
#     system: on a shared machine the wall time also counts waiting for
#     the CPU).  Alternated runs, medians; peak RSS and page faults of one
#     more run.
#  2. the configuration check alone (FIT with tiny images, library call
#     vfit_verify() in a loop) vs one OpenSSL RSA-2048 verify (EVP).
# Needs $BUILD/vfit, $BUILD/libvfit.a and $BUILD/bench/cpu_time.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
VFIT=$BUILD/vfit
. "$ROOT/tests/fixtures.sh"
. "$ROOT/bench/alternate.inc"
RUNS=${BENCH_RUNS:-9}
MKIMAGE=${MKIMAGE:-/usr/bin/mkimage}
bench_dir
export SOURCE_DATE_EPOCH=1700000000

fit_inputs 67108864
fit_keys rsa2048:dev
fit_its -d bench -c sha256,rsa2048:dev > big.its
cp nosig.dtb ctl.dtb
"$VFIT" mkimage -q -f big.its -k keys -K ctl.dtb -r vfit.fit > /dev/null
cp vfit.fit cp.fit
files="vfit cp"
if [ -x "$MKIMAGE" ]; then
	cp nosig.dtb mctl.dtb
	"$MKIMAGE" -f big.its -k keys -K mctl.dtb -r mkimage.fit > /dev/null
	"$VFIT" verify -f mkimage.fit -k ctl.dtb > /dev/null
	files="$files mkimage"
fi
names=
for f in $files; do
	"$VFIT" verify -f "$f.fit" -k ctl.dtb > /dev/null
	eval "cmd_v_$f=\"\$VFIT verify -f $f.fit -k ctl.dtb\""
	eval "cmd_o_$f=\"openssl dgst -sha256 $f.fit\""
	names="$names v_$f o_$f"
done
cat ./*.fit > /dev/null
# shellcheck disable=SC2086
alternate_cpu "$RUNS" $names

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
	FILE *f = fopen("keys/dev.crt", "r");
	X509 *x = PEM_read_X509(f, NULL, NULL, NULL);
	EVP_PKEY *pk = X509_get_pubkey(x);
	unsigned char sig[256], md[32] = { 0 };
	size_t sl = sizeof(sig);
	int i, n = 2000;
	double t0, a, b;
	FILE *kf = fopen("keys/dev.key", "r");
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
head -c 64 /dev/urandom > tiny.bin
fit_its -d bench -n -k tiny.bin -f "" -c sha256,rsa2048:dev > small.its
cp nosig.dtb small.dtb
"$VFIT" mkimage -q -f small.its -k keys -K small.dtb -r small.fit > /dev/null
cc -O2 -I"$ROOT/include" -o lib lib.c "$BUILD/libvfit.a" -lfdt -lcrypto
set -- $(./lib)
cv=$1 co=$2

echo "$(machine); median of $RUNS alternated runs, files on $base"
printf '  %-30s %9s %9s %7s %9s %9s %7s %8s %8s\n' "64 MiB kernel FIT, written by" \
	"vfit ms" "dgst ms" ratio "vfit CPU" "dgst CPU" ratio "RSS MiB" faults
vrow= rrow= crow=
for f in $files; do
	v=$(median "v_$f") o=$(median "o_$f") cv_=$(cpu "v_$f") co_=$(cpu "o_$f")
	set -- $(peak "v_$f")
	r=$(awk "BEGIN { printf \"%.2f\", $v / $o }")
	rc=$(awk "BEGIN { printf \"%.2f\", $cv_ / $co_ }")
	printf '  %-30s %9s %9s %6sx %9s %9s %6sx %8s %8s\n' "$f" "$v" "$o" "$r" "$cv_" "$co_" \
		"$rc" "$1" "$2"
	vrow="$vrow${vrow:+ / }$v" rrow="$rrow${rrow:+ / }${r}x" crow="$crow${crow:+ / }${rc}x"
	ok=$(awk "BEGIN { print ($r <= 1.0) ? \"ok\" : \"MISSED\" }")
	okc=$(awk "BEGIN { print ($rc <= 1.0) ? \"ok\" : \"MISSED\" }")
	echo "  goal <= 1.0x openssl dgst -sha256 of the same file ($f): wall $ok, CPU $okc"
done
printf '  %-44s %9.1f %9.1f %6.2fx   (us; OpenSSL: one RSA-2048 EVP verify)\n' \
	"config check alone vs one RSA-2048 verify" "$(awk "BEGIN { print $cv / 1000 }")" \
	"$(awk "BEGIN { print $co / 1000 }")" "$(awk "BEGIN { print $cv / $co }")"
set -- $(peak v_vfit)
echo "README | \`vfit verify\`, 64 MiB kernel FIT as $(echo "$files" | sed 's/ / \/ /g') wrote it | $vrow ms, $1 MiB RSS | \`openssl dgst -sha256\` of the same file: $rrow by wall time, $crow by CPU time |"
