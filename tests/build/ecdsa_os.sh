#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# lib/ecdsa as a Cortex-M product builds it: size-optimised (-Os picks the
# compact field code, one rolled loop for every curve size and squaring
# through the general product), with 64-bit and with 32-bit limbs (as on
# 32-bit ARM), and with one curve or none built in.  Each build runs the
# whole of test_ecdsa (vectors, OpenSSL cross-checks) on the host; the key
# conversion comes from the host library ($BUILD).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
. tests/lib.sh
export VFIT_VECTORS

flags="-std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
	-Wvla -Wpointer-arith -Wcast-qual -Wundef -Os -Iinclude -D_GNU_SOURCE"
BUILD=${BUILD:-build}
host="lib/result.c tests/unit/check.c tests/unit/json.c $BUILD/libvfit-host.a $BUILD/libvfit-int.a
	-lfdt -lcrypto"

# name test-source extra-flags (test_ecdsa_limb32 brings lib/ecdsa itself)
while read -r name src defs; do
	case $src in
	*limb32*) lib= ;;
	*) lib="lib/ecdsa/*.c" ;;
	esac
	# shellcheck disable=SC2086
	if ! cc $flags $defs -o "$T/$name" tests/unit/$src $lib $host >"$T/cc" 2>&1; then
		fail "$name: -Os build"
		head -n 20 "$T/cc"
		continue
	fi
	pass
	VFIT_TEST_QUICK=1 subtest "$name at -Os" "$T/$name"
	grep -q 'compact field code' "$T/.sub" || fail "$name: not the compact field code"
done <<'LIST'
ecdsa-os test_ecdsa.c
ecdsa-os-limb32 test_ecdsa_limb32.c
ecdsa-os-p256-only test_ecdsa.c -DVFIT_HAVE_ECDSA_P384=0
ecdsa-os-p384-only-limb32 test_ecdsa_limb32.c -DVFIT_HAVE_ECDSA_P256=0
ecdsa-os-no-curve test_ecdsa.c -DVFIT_HAVE_ECDSA_P256=0 -DVFIT_HAVE_ECDSA_P384=0
LIST
finish
