#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The device library is freestanding: it must compile with -ffreestanding
# -nostdlib for the host, for Cortex-M4 (Thumb-2) and for aarch64, link with
# no undefined symbols beyond mem*/str* and libfdt, and hold no writable
# global data (.data/.bss empty: no global mutable state; .data.rel.ro holds
# const tables of pointers, read-only once relocated).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
. tests/lib.sh
need clang ld.lld llvm-nm llvm-objdump
shim=$T/include
mkdir -p "$shim"
cp tests/build/include/*.h "$shim/"
for h in libfdt.h libfdt_env.h fdt.h; do ln -s "/usr/include/$h" "$shim/$h"; done

# __aeabi_mem*: the ARM EABI's names for memcpy/memset (struct copies on Thumb-2).
allowed='^(mem(cpy|move|set|cmp|chr)|str(len|nlen|cmp|ncmp|chr|rchr)|__aeabi_mem(cpy|move|set|clr)[48]?|fdt_[a-z0-9_]+)$'
flags="-std=c11 -Wall -Wextra -Werror -Wundef -Wvla -ffreestanding -nostdlib -Os -Iinclude -isystem $shim"

check_target() { # name clang-target-flags...
	name=$1
	shift
	out=$T/$name
	mkdir -p "$out"
	for src in lib/*.c lib/*/*.c; do
		if ! clang $flags "$@" -c -o "$out/$(basename "$src" .c).o" "$src" 2>"$out/err"; then
			fail "$name: $src does not compile freestanding"
			sed 's/^/    /' "$out/err" | head -n 10
			return
		fi
	done
	pass
	if ! ld.lld -r -o "$out/all.o" "$out"/*.o 2>"$out/err"; then
		fail "$name: partial link failed"; cat "$out/err"; return
	fi
	# The library always needs memcpy and fdt_*: an empty list means llvm-nm failed.
	if ! llvm-nm -u "$out/all.o" >"$out/undef" 2>&1 || ! grep -q memcpy "$out/undef"; then
		fail "$name: llvm-nm -u lists no undefined symbols"; cat "$out/undef"; return
	fi
	undef=$(awk '{print $NF}' "$out/undef" | grep -Ev "$allowed")
	if [ -n "$undef" ]; then
		fail "$name: undefined symbols beyond mem*/str*/fdt_*: $(echo $undef)"
	else
		pass
	fi
	if ! llvm-objdump -h "$out/all.o" >"$out/sections" 2>&1 ||
	   ! grep -Eq '^ *[0-9]+ \.text' "$out/sections"; then
		fail "$name: llvm-objdump -h lists no .text section"; cat "$out/sections"; return
	fi
	rw=$(awk '$2 ~ /^\.(data|bss|sdata|sbss)/ && $2 !~ /^\.data\.rel\.ro/ && $3 !~ /^0+$/ {print $2}' "$out/sections")
	if [ -n "$rw" ]; then
		fail "$name: writable global data in $(echo $rw)"
	else
		pass
	fi
}

check_target host
check_target thumbv7em --target=thumbv7em-none-eabi -mcpu=cortex-m4 -mthumb
check_target aarch64 --target=aarch64-none-elf
check_target aarch64-crypto --target=aarch64-none-elf -march=armv8-a+crypto
check_target minimal --target=thumbv7em-none-eabi -mcpu=cortex-m4 -mthumb \
	-DVFIT_HAVE_CRC16=0 -DVFIT_HAVE_CRC32=0 -DVFIT_HAVE_MD5=0 -DVFIT_HAVE_SHA1=0 -DVFIT_HAVE_SHA224=0 \
	-DVFIT_HAVE_SHA384=0 -DVFIT_HAVE_SHA512=0 -DVFIT_HAVE_RSA_PSS=0 -DVFIT_RSA_MAX_BITS=2048 \
	-DVFIT_HAVE_ECDSA_P256=0 -DVFIT_HAVE_ECDSA_P384=0 -DVFIT_CRYPTO_TABLE=0
check_target ecdsa256 --target=thumbv7em-none-eabi -mcpu=cortex-m4 -mthumb -DVFIT_HAVE_ECDSA_P384=0
finish
