#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The ARMv7 NEON SHA-256 block function (lib/hash/sha256_armv7.S, used by
# the QEMU armv7 stage in place of the portable C) cannot run on this x86
# machine: cross-compile test_sha for armhf with it, statically, and run
# every NIST vector and the split/stream checks under qemu-arm, emulating a
# Cortex-A15.  Needs gcc-arm-linux-gnueabihf, libc6-dev-armhf-cross and
# qemu-user (scripts/deps qemu DIR installs them).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
. tests/lib.sh
export VFIT_VECTORS

cc=arm-linux-gnueabihf-gcc
need $cc arm-linux-gnueabihf-objdump qemu-arm

bin=$T/test_sha
if ! $cc -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wvla -Wpointer-arith -Wcast-qual -Wundef -O2 -march=armv7-a -mfpu=neon-vfpv4 \
	-mfloat-abi=hard -mthumb -static -Iinclude -D_GNU_SOURCE -DVFIT_TEST_NO_OPENSSL \
	-DVFIT_SHA256_ARMV7_ASM -o "$bin" tests/unit/test_sha.c tests/unit/check.c lib/hash/*.c \
	lib/hash/sha256_armv7.S >"$T/cc" 2>&1; then
	if grep -q 'No such file.*\.h' "$T/cc"; then
		skip tool "no armhf C library headers (libc6-dev-armhf-cross)"
		finish
		exit $?
	fi
	fail "cross-compile test_sha for armv7 with the NEON SHA-256"
	head -n 20 "$T/cc"
	finish
	exit 1
fi
pass

# the binary must really run the assembly, or the run proves nothing
ok "disassemble the binary" arm-linux-gnueabihf-objdump -d "$bin"
mv "$T/.out" "$T/dis"
contains "the NEON SHA-256 is linked" "$T/dis" '<vfit_sha256_blocks_armv7>:'
contains "and is called" "$T/dis" 'bl?x?[[:space:]]+[0-9a-f]+ <vfit_sha256_blocks_armv7>'

subtest "test_sha under qemu-arm" qemu-arm -cpu cortex-a15 "$bin"
finish
