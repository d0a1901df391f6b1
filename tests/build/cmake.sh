#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The CMake file (CMakeLists.txt) alone, nothing from the top-level
# Makefile, in scratch build directories:
#   - a firmware-like project takes libvfit with add_subdirectory() as a
#     minimal verifier (sha256 and crc32, rsa2048, no reports, no backend
#     table) (VFIT_PART=verifier, knobs through VFIT_KNOBS) and verifies a
#     FIT signed by Debian's mkimage with it;
#   - the verifier (default knobs) with VFIT_TESTS=ON builds its unit tests, and
#     ctest runs them.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
. tests/lib.sh
need cmake ctest

mkdir -p "$T/app"
cat >"$T/app/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.13)
project(bootrom C)
set(VFIT_PART verifier CACHE STRING "" FORCE)
set(VFIT_KNOBS "VFIT_HAVE_CRC16=0;VFIT_HAVE_MD5=0;VFIT_HAVE_SHA1=0;VFIT_HAVE_SHA224=0;VFIT_HAVE_SHA384=0;VFIT_HAVE_SHA512=0;VFIT_HAVE_RSA_PSS=0;VFIT_RSA_MAX_BITS=2048;VFIT_HAVE_ECDSA_P256=0;VFIT_HAVE_ECDSA_P384=0;VFIT_REPORT=0;VFIT_CRYPTO_TABLE=0" CACHE STRING "" FORCE)
add_subdirectory($ROOT vfit)
add_executable(verifier verifier.c)
target_include_directories(verifier PRIVATE $ROOT/tests/fuzz)
target_link_libraries(verifier PRIVATE vfit)
CM
# A fuzz seed: its first byte picks the control DTB; prints the result code.
cat >"$T/app/verifier.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vfit/fit.h"
#include "vfit/vfit.h"
#include "fuzz_ctl.h"

int main(int argc, char **argv)
{
	static struct vfit_verify_result res;
	FILE *f = fopen(argv[argc - 1], "rb");
	unsigned char *b = malloc(1 << 20);
	size_t n = f && b ? fread(b, 1, 1 << 20, f) : 0;
	int ctl;

	if (n < 2)
		return 2;
	ctl = b[0] % FUZZ_NCTL;
	memmove(b, b + 1, --n);
	printf("%lu %d\n", vfit_version(),
	       vfit_verify(b, n, fuzz_ctl[ctl].p, fuzz_ctl[ctl].len, NULL, 0, &res));
	return 0;
}
C
seeds=tests/fuzz/corpus/fuzz_verify
ok "configure the minimal verifier project" cmake -S "$T/app" -B "$T/app/b"
ok "build it" cmake --build "$T/app/b" -j2
version=$(sed -n 's/^#define VFIT_VERSION_\(MAJOR\|MINOR\|PATCH\) //p' include/vfit/vfit.h |
	{ read -r ma; read -r mi; read -r pa; echo $(((ma << 16) | (mi << 8) | pa)); })
is "sha256,rsa2048 FIT (crc32 on one image): verified" "$version 0" "$("$T/app/b/verifier" $seeds/conf-sha256)"
is "ecdsa256 FIT: refused, ECDSA is not built in (VFIT_ERR_UNSUPPORTED)" "$version 1" \
	"$("$T/app/b/verifier" $seeds/conf-ecdsa256)"
ok "no ECDSA code in the minimal library" sh -c \
	"! nm '$T/app/b/vfit/libvfit.a' | grep -q ' T vfit_ec_mul2_\$'"

ok "configure with the unit tests" cmake -S . -B "$T/full" -DVFIT_TESTS=ON -DVFIT_PART=verifier
ok "build the library and the tests" cmake --build "$T/full" -j2
ok "ctest runs the verifier's unit tests" ctest --test-dir "$T/full" --output-on-failure
contains "all seven of them" "$T/.out" "100% tests passed, 0 tests failed out of 7"
finish
