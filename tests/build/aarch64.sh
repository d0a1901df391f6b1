#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The ARMv8 crypto-extension SHA-1/SHA-256 code (lib/hash/sha_arm.c) cannot run
# on this x86 machine: cross-compile test_sha for aarch64 with
# -march=armv8-a+crypto, statically, and run it under qemu-aarch64, whose
# default CPU emulates those instructions.  Every NIST vector then runs on
# the CE path, the portable path and the generic interface (there is no
# aarch64 OpenSSL here, so the test compares the paths with each other).
# test_hash_set runs the same way: SHA-384 and SHA-512 side by side in the
# NEON lanes (lib/hash/sha512_pair.c), against each hash alone.
# Needs gcc-aarch64-linux-gnu, libc6-dev-arm64-cross and qemu-user.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
. tests/lib.sh
export VFIT_VECTORS

cc=aarch64-linux-gnu-gcc
need $cc aarch64-linux-gnu-objdump qemu-aarch64

bin=$T/test_sha
if ! $cc -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wvla -Wpointer-arith -Wcast-qual -Wundef -O2 -march=armv8-a+crypto -static \
	-Iinclude -D_GNU_SOURCE -DVFIT_TEST_NO_OPENSSL -o "$bin" \
	tests/unit/test_sha.c tests/unit/check.c lib/hash/*.c >"$T/cc" 2>&1; then
	fail "cross-compile test_sha for aarch64+crypto"
	head -n 20 "$T/cc"
	finish
	exit 1
fi
pass

# the binary must really contain the CE instructions, or the run proves nothing
ok "disassemble the binary" aarch64-linux-gnu-objdump -d "$bin"
mv "$T/.out" "$T/dis"
contains "SHA-256 CE instructions in the binary" "$T/dis" 'sha256h2?[[:space:]]'
contains "SHA-1 CE instructions in the binary" "$T/dis" 'sha1[cmp][[:space:]]'

# the test's own checks count too; a skip there means the CE path did not run
subtest "test_sha under qemu-aarch64" qemu-aarch64 "$bin"
if grep -q '^SKIP' "$T/.sub"; then
	fail "test_sha under qemu-aarch64 skipped the accelerated path"
fi

set_bin=$T/test_hash_set
ok "cross-compile test_hash_set for aarch64" $cc -std=c11 -Wall -Wextra -Werror -O2 \
	-march=armv8-a+crypto -static -Iinclude -D_GNU_SOURCE -o "$set_bin" \
	tests/unit/test_hash_set.c tests/unit/check.c lib/hash/*.c
ok "disassemble test_hash_set" aarch64-linux-gnu-objdump -d "$set_bin"
mv "$T/.out" "$T/dis"
contains "the paired SHA-384/512 rotates in the binary" "$T/dis" 'sli[[:space:]]+v[0-9]+\.2d'
subtest "test_hash_set under qemu-aarch64" qemu-aarch64 "$set_bin"
finish
