#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# What is missing on a machine is reported as a skip with its reason, never
# as a pass: tests run here with a tool hidden from PATH, or with a CPU
# feature hidden (VFIT_TEST_HIDE_CPU), must print "SKIP class: reason" and
# count it, or test the feature another way (the ADX rows under
# qemu-x86_64 -cpu max).  The scripts tested skip before doing any work.
. "$(dirname "$0")/../lib.sh"
export VFIT_TEST_QUICK=1

# hide TOOL...: prints a PATH that has every program of this one but TOOL...
hide() {
	d=$T/path-$(echo "$*" | tr ' /' '__')
	if [ ! -d "$d" ]; then
		mkdir -p "$d"
		# the first directory wins, as in PATH; ln refuses the later twins
		for dir in /usr/local/bin /usr/bin /usr/sbin /bin /sbin; do
			[ -d "$dir" ] && ln -s "$dir"/* "$d/" 2>/dev/null
		done
		for t in "$@"; do rm -f "$d/$t"; done
	fi
	echo "$d"
}

# expect NAME SUMMARY SKIP-REGEX CMD...: CMD's last line matches the regex
# SUMMARY, and it prints a SKIP line matching SKIP-REGEX
expect() {
	name=$1 want=$2 re=$3
	shift 3
	"$@" >"$T/out" 2>&1
	tail -n 1 "$T/out" >"$T/last"
	contains "$name: summary" "$T/last" "^$want\$"
	contains "$name: reason" "$T/out" "^SKIP $re"
}

# The ADX rows: under the emulator when the CPU lacks ADX, a skip when there
# is no emulator either.
adx=$BUILD/tests/test_rsa_adx
VFIT_TEST_HIDE_CPU=adx "$adx" >"$T/adx" 2>&1
is "ADX hidden: exit status" 0 "$?"
contains "ADX hidden: runs under qemu-x86_64" "$T/adx" "^running under qemu-x86_64 -cpu max"
contains "ADX hidden: every check ran" "$T/adx" "^[1-9][0-9]* passed, 0 failed, 0 skipped$"
"$adx" >"$T/adx-native" 2>&1
is "ADX hidden: the same count as natively" "$(tail -n 1 "$T/adx-native")" "$(tail -n 1 "$T/adx")"
PATH=$(hide qemu-x86_64) VFIT_TEST_HIDE_CPU=sha-ni,adx expect "ADX hidden, no emulator" \
	"0 passed, 0 failed, 1 skipped" "hw: this CPU has no adx, and qemu-x86_64 .* not installed" \
	"$adx"

# SHA-NI: qemu-x86_64 7.2 does not emulate it, so the accelerated path is a
# skip (a later qemu would run it emulated: then nothing may be skipped).
VFIT_TEST_HIDE_CPU=sha-ni "$BUILD/tests/test_sha" >"$T/sha" 2>&1
is "SHA-NI hidden: exit status" 0 "$?"
if grep -q '^running under qemu-x86_64' "$T/sha"; then
	contains "SHA-NI hidden: emulated, nothing skipped" "$T/sha" "passed, 0 failed, 0 skipped$"
else
	contains "SHA-NI hidden: a skip with its reason" "$T/sha" \
		"^SKIP hw: neither this CPU nor qemu-x86_64 -cpu max has sha-ni$"
	contains "SHA-NI hidden: counted" "$T/sha" "passed, 0 failed, 1 skipped$"
fi

# Missing tools.
expect "freestanding.sh without llvm-nm" "0 passed, 0 failed, 1 skipped" \
	"tool: not installed: llvm-nm" env PATH="$(hide llvm-nm)" sh "$ROOT/tests/build/freestanding.sh"
expect "aarch64.sh without qemu-aarch64" "0 passed, 0 failed, 1 skipped" \
	"tool: not installed: qemu-aarch64" env PATH="$(hide qemu-aarch64)" sh "$ROOT/tests/build/aarch64.sh"
expect "armv7.sh without qemu-arm" "0 passed, 0 failed, 1 skipped" \
	"tool: not installed: qemu-arm" env PATH="$(hide qemu-arm)" sh "$ROOT/tests/build/armv7.sh"
expect "stage.sh without qemu-system-arm" "0 passed, 0 failed, 1 skipped" \
	"tool: not installed: qemu-system-arm" env PATH="$(hide qemu-system-arm)" sh "$ROOT/tests/qemu/stage.sh"
expect "mkimage_head.sh without U-Boot HEAD's tools" "0 passed, 0 failed, 1 skipped" \
	"anchor: U-Boot HEAD's mkimage and fit_check_sign not found" \
	env MKIMAGE_HEAD=/nonexistent sh "$ROOT/tests/interop/mkimage_head.sh"
expect "mkimage_compare.sh without dtc" "0 passed, 0 failed, 1 skipped" \
	"tool: not installed: dtc" env PATH="$(hide dtc)" sh "$ROOT/tests/interop/mkimage_compare.sh"
expect "mkimage_compare.sh with another mkimage" "0 passed, 0 failed, 1 skipped" \
	"tool: .* is not Debian's mkimage 2023.01" \
	env MKIMAGE="$BUILD/mkimage" sh "$ROOT/tests/interop/mkimage_compare.sh"
expect "uboot_qemu.sh without qemu-system-aarch64" "0 passed, 0 failed, 1 skipped" \
	"tool: not installed: qemu-system-aarch64" \
	env PATH="$(hide qemu-system-aarch64)" sh "$ROOT/tests/interop/uboot_qemu.sh"
expect "boot_tpm.sh without swtpm" "0 passed, 0 failed, 1 skipped" \
	"tool: not installed: swtpm" env PATH="$(hide swtpm)" sh "$ROOT/tests/cli/boot_tpm.sh"
expect "test_boot_tpm without swtpm" "[0-9]+ passed, 0 failed, 1 skipped" \
	"tool: swtpm is not installed" env PATH="$(hide swtpm)" "$BUILD/tests/test_boot_tpm"
# The Debian half of the PKCS#11 test needs mkimage -N: without it, a skip,
# not 4 passes fewer and green.
expect "mkimage_pkcs11.sh without mkimage" "[1-9][0-9]* passed, 0 failed, 1 skipped" \
	"tool: no mkimage with -N on PATH" env PATH="$(hide mkimage)" sh "$ROOT/tests/cli/mkimage_pkcs11.sh"
finish
