#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# libvfit as a firmware embeds it, cross-built for aarch64 with Debian's
# aarch64-linux-gnu-gcc against a libfdt built for the target (Debian's
# libfdt-dev:arm64, which scripts/deps qemu unpacks for the QEMU port), with
# the README's minimal-verifier knob line as written there; the host's
# libfdt-dev is in no step.  Each verifier runs under qemu-aarch64 on FITs
# Debian's mkimage signed: sha256,rsa2048 with sha256 hashes verifies, the
# same with a CRC-32 hash is VFIT_ERR_UNSUPPORTED (not built in), a
# tampered one is refused.
#   - CMake: add_subdirectory() with VFIT_FDT_TARGET naming the project's
#     libfdt target; without one, configuring fails naming what to set;
#   - lib.mk: objects in the embedder's build directory, none in the tree.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
. tests/lib.sh
need cmake aarch64-linux-gnu-gcc qemu-aarch64 mkimage dtc
Q=$BUILD/qemu
if ! scripts/deps qemu "$Q" >"$T/deps.log" 2>&1; then
	skip net "Debian's libfdt-dev:arm64 could not be fetched (scripts/deps qemu $Q): $(tail -n 1 "$T/deps.log")"
	finish
	exit $?
fi
FDT=$Q/root-arm64/usr
[ -f "$FDT/lib/aarch64-linux-gnu/libfdt.a" ] && [ -f "$FDT/include/libfdt.h" ] ||
	{ fail "no libfdt for arm64 in $FDT"; finish; exit $?; }
knobs=$(grep -m 1 '^-DVFIT_HAVE_CRC16=0 ' README.md)
case $knobs in *VFIT_REPORT=0*VFIT_CRYPTO_TABLE=0*) pass ;;
*) fail "the README's minimal-verifier knob line is missing or lacks REPORT=0/CRYPTO_TABLE=0: '$knobs'" ;;
esac

cp tests/build/verify_fit.c "$T/verifier.c"  # FIT CTL: prints vfit_verify()'s result
# Debian's mkimage signs: hash HASH on the kernel, sha256,rsa2048 on the configuration.
rsa_key "$T/dev" 2048
head -c 3000 /dev/zero | tr '\0' k >"$T/k.bin"
for hash in sha256 crc32; do
	sed "s/@HASH@/$hash/" >"$T/$hash.its" <<ITS
/dts-v1/;
/ {
	description = "cross";
	images {
		kernel {
			data = /incbin/("$T/k.bin");
			type = "kernel"; arch = "arm64"; os = "linux"; compression = "none";
			hash-1 { algo = "@HASH@"; };
		};
	};
	configurations {
		default = "conf-1";
		conf-1 { kernel = "kernel"; signature-1 { algo = "sha256,rsa2048"; key-name-hint = "dev"; }; };
	};
};
ITS
	printf '/dts-v1/;\n/ { };\n' | dtc -I dts -O dtb -o "$T/$hash.dtb" -
	ok "mkimage signs the $hash FIT" mkimage -f "$T/$hash.its" -k "$T" -K "$T/$hash.dtb" -r "$T/$hash.fit"
done
cp "$T/sha256.fit" "$T/bad.fit"
fdtput -t s "$T/bad.fit" /images/kernel os evil
runs() { # name binary
	ok "$1: an aarch64 executable" sh -c "file '$2' | grep -q 'ARM aarch64'"
	is "$1 under qemu-aarch64: the sha256,rsa2048 FIT verified" 0 \
		"$(qemu-aarch64 "$2" "$T/sha256.fit" "$T/sha256.dtb")"
	is "$1 under qemu-aarch64: a CRC-32 hash refused, not built in (VFIT_ERR_UNSUPPORTED)" 1 \
		"$(qemu-aarch64 "$2" "$T/crc32.fit" "$T/crc32.dtb")"
	is "$1 under qemu-aarch64: a tampered FIT refused (VFIT_ERR_REQUIRED)" 24 \
		"$(qemu-aarch64 "$2" "$T/bad.fit" "$T/sha256.dtb")"
}

# ---- CMake ----
mkdir -p "$T/app"
cp "$T/verifier.c" "$T/app/"
cat >"$T/aarch64.cmake" <<'CM'
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
CM
cat >"$T/app/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.13)
project(bootrom C)
# The firmware's own libfdt: here Debian's, built for arm64.
add_library(fdt STATIC IMPORTED)
set_target_properties(fdt PROPERTIES IMPORTED_LOCATION $FDT/lib/aarch64-linux-gnu/libfdt.a
	INTERFACE_INCLUDE_DIRECTORIES $FDT/include)
set(VFIT_FDT_TARGET \${FDT_TARGET} CACHE STRING "" FORCE)
set(VFIT_KNOBS "$(echo "$knobs" | sed 's/-D//g; s/ /;/g')" CACHE STRING "" FORCE)
add_subdirectory($ROOT vfit)
add_executable(verifier verifier.c)
target_link_libraries(verifier PRIVATE vfit)
target_link_options(verifier PRIVATE -static -Wl,--gc-sections)
CM
ok "configure the cross build (VFIT_FDT_TARGET=fdt)" \
	cmake -S "$T/app" -B "$T/app/b" -DCMAKE_TOOLCHAIN_FILE="$T/aarch64.cmake" -DFDT_TARGET=fdt
ok "build it" cmake --build "$T/app/b" -j2
runs "CMake" "$T/app/b/verifier"
ok "no backend table in the minimal library (VFIT_CRYPTO_TABLE=0)" sh -c \
	"! aarch64-linux-gnu-nm '$T/app/b/vfit/libvfit.a' | grep -q ' vfit_verify_with_abi_'"
status 1 "without a libfdt for the target, configuring fails" \
	cmake -S "$T/app" -B "$T/app/b2" -DCMAKE_TOOLCHAIN_FILE="$T/aarch64.cmake" -DFDT_TARGET=
tr -s ' \n' '  ' <"$T/.out" >"$T/err"   # CMake wraps its messages
contains "naming VFIT_FDT_TARGET and the libfdt files, never the host's libfdt-dev" "$T/err" \
	"no libfdt for the target \\(aarch64\\): set VFIT_FDT_TARGET to your tree's libfdt target \\(its sources fdt.c fdt_ro.c"
status 1 "a VFIT_FDT_TARGET that is no target fails" \
	cmake -S "$T/app" -B "$T/app/b3" -DCMAKE_TOOLCHAIN_FILE="$T/aarch64.cmake" -DFDT_TARGET=nofdt
tr -s ' \n' '  ' <"$T/.out" >"$T/err"
contains "naming it" "$T/err" "VFIT_FDT_TARGET is 'nofdt', which is no target"

# ---- lib.mk, as its comment says to use it ----
cat >"$T/Makefile" <<MK
include $ROOT/lib.mk
CC = aarch64-linux-gnu-gcc
CFLAGS = -std=c11 -Os -ffunction-sections -fdata-sections $knobs -isystem $FDT/include
VFIT_OBJ := \$(addprefix \$(O)/vfit/,\$(VFIT_SRC_VERIFIER:.c=.o))
\$(O)/vfit/%.o: \$(VFIT_ROOT)/%.c
	@mkdir -p \$(@D)
	\$(CC) \$(CFLAGS) \$(VFIT_CFLAGS) -c -o \$@ \$<
\$(O)/verifier: $T/verifier.c \$(VFIT_OBJ)
	\$(CC) \$(CFLAGS) \$(VFIT_CFLAGS) -static -Wl,--gc-sections -o \$@ \$^ \\
		$FDT/lib/aarch64-linux-gnu/libfdt.a
MK
before=$(find lib -name '*.o' | wc -l)
ok "lib.mk cross build into the embedder's directory" make -s -j2 -f "$T/Makefile" O="$T/out" "$T/out/verifier"
runs "lib.mk" "$T/out/verifier"
is "no object was written into the vfit tree" "$before" "$(find lib -name '*.o' | wc -l)"
finish
