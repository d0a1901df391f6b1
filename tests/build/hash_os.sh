#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Size-optimised builds (-Os, as for Cortex-M) compile other code for the
# hashes: the looped SHA-256/SHA-512 rounds (VFIT_SHA_COMPACT) and the
# byte-at-a-time CRC-32 with a 1 KiB table, RSA squaring through the
# general multiplication.  Build the hash and RSA tests that way on the
# host (RSA also with 32-bit limbs, as on 32-bit ARM) and run them, so
# that form is tested as thoroughly as the fast one.  The RSA tests take
# their OpenSSL key conversion from the host library ($BUILD).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
. tests/lib.sh
export VFIT_VECTORS

flags="-std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
	-Wvla -Wpointer-arith -Wcast-qual -Wundef -Os -Iinclude -D_GNU_SOURCE"
libs="lib/hash/*.c"
BUILD=${BUILD:-build}
rsa="lib/rsa/*.c lib/result.c tests/unit/json.c
	$BUILD/libvfit-host.a $BUILD/libvfit-int.a -lfdt"

for t in test_sha test_crc32 test_crc16 test_md5 test_rsa test_rsa_vectors test_rsa_limb32; do
	case $t in
	test_rsa_limb32) extra="lib/rsa/rsa_pkcs1.c lib/rsa/rsa_pss.c lib/result.c tests/unit/json.c
		$BUILD/libvfit-host.a $BUILD/libvfit-int.a -lfdt" ;;
	test_rsa*) extra=$rsa ;;
	*) extra= ;;
	esac
	# shellcheck disable=SC2086
	if ! cc $flags -o "$T/$t" tests/unit/$t.c tests/unit/check.c $libs $extra -lcrypto -lz \
		>"$T/cc" 2>&1; then
		fail "$t: -Os build"
		head -n 20 "$T/cc"
		continue
	fi
	pass
	subtest "$t at -Os" "$T/$t"
done
finish
