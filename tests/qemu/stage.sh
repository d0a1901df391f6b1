#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The QEMU virt stage (ports/qemu-virt) as a platform, on both
# architectures: a kernel loaded over the staging area, an arm64 Image off
# its 2 MiB placement, a zImage that is none, an empty disk, a broken GPT
# and a corrupt state or counter partition never run a kernel (the last two
# fail closed before the flow starts).  stage-selftest.bin exercises the
# platform layer's writes (state, counters, a chain) on the device; the
# host's `vfit disk info` reads them.  arm64 also boots over virtio-mmio
# version 2, and gzip and LZ4 compressed Images through lib/decomp.  The
# flow's own cases are tests/qemu/flow.sh.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib/qemu.sh"
qemu_setup

for arch in arm64 arm; do
	arch_vars $arch
	fit $arch "$T/overlap.fit" overlap -l 0x50000000 && mkdisk "$T/d.img" "$T/overlap.fit" - - &&
		pass || fail "$arch: FIT loading over the staging area"
	boot overlap $arch "$T/d.img" 1 "" \
		"^   - slot A stage 1: kernel \[50000000\.\.[0-9a-f]+\) overlaps FIT staging area \[50000000\.\.[0-9a-f]+\)$"

	# Signed, but not a kernel this CPU can start: the protocol checks refuse it.
	if [ $arch = arm64 ]; then
		fit $arch "$T/bad.fit" protocol -l 0x40480000 &&
			want="kernel: load address is not text_offset above a 2 MiB boundary"
	else
		# The initramfs as the "kernel": fit() writes it before signing.
		fit $arch "$T/bad.fit" protocol -e "$T/arm-protocol.cpio" &&
			want="kernel: not an arm zImage"
	fi
	mkdisk "$T/d.img" "$T/bad.fit" - - && pass || fail "$arch: FIT with a kernel the protocol refuses"
	boot protocol $arch "$T/d.img" 1 "" "^vfit-stage: refused: $want"

	mkdisk "$T/d.img" - - - && pass || fail "$arch: empty disk"
	boot empty $arch "$T/d.img" 1 "" "^   - slot A stage 1: no FIT stored$" \
		"^   - slot B stage 1: no FIT stored$" "^vfit-stage: halted: nothing verified$"

	# vfit-state and vfit-counters follow three 48 MiB chains after the first MiB.
	for p in state counters; do
		std_disk $arch "$T/$p.img"
		at=$(( (1 + 3 * 48 + $([ $p = counters ] && echo 1 || echo 0)) * 1048576 ))
		for copy in 0 4096; do
			printf 'XX' | dd of="$T/$p.img" bs=1 seek=$((at + copy + 30)) conv=notrunc 2>/dev/null
		done
		boot corrupt-$p $arch "$T/$p.img" 1 "" \
			"^vfit-stage: halted: vfit-$p: no valid copy \(corrupt or unreadable\): failing closed$"
		lacks "$arch corrupt-$p: refused before the flow" "$T/corrupt-$p.log" "^## Trying"
	done

	# The platform layer's write paths on the device, read back by the host's codecs.
	std_disk $arch "$T/self.img"
	"$VFIT" disk write "$T/self.img" b
	QEMU_TIMEOUT=${QEMU_TIMEOUT:-90} "$ROOT/ports/qemu-virt/boot" $arch \
		"$Q/$arch/stage-selftest.bin" "$T/self.img" "vfit-selftest: all passed" >"$T/self.log" 2>&1 &&
		pass || { fail "$arch: platform self-test"; grep -a FAIL "$T/self.log"; }
	"$VFIT" disk info "$T/self.img" >"$T/info.out" 2>&1
	contains "$arch self-test: state written on the device" "$T/info.out" '^state: written'
	contains "$arch self-test: counter advanced" "$T/info.out" '^  kernel = 7$'
	contains "$arch self-test: counter added" "$T/info.out" '^  bootloader = 3$'
	contains "$arch self-test: slot B written" "$T/info.out" \
		"^  chain: 1 FIT: $(wc -c <"$Q/$arch/linux.fit") bytes at \+4096\$"
	[ "$(grep -c "chain: 1 FIT: $(wc -c <"$Q/$arch/linux.fit") " "$T/info.out")" = 2 ] && pass ||
		fail "$arch: slot B is not A's copy"
	if command -v sgdisk >/dev/null 2>&1; then
		sgdisk -v "$T/self.img" >"$T/sg.out" 2>&1
		contains "$arch self-test: GPT still valid" "$T/sg.out" '^No problems found'
	fi

	std_disk $arch "$T/nogpt.img"
	dd if=/dev/zero of="$T/nogpt.img" bs=512 seek=1 count=1 conv=notrunc 2>/dev/null
	dd if=/dev/zero of="$T/nogpt.img" bs=512 count=1 conv=notrunc \
		seek=$(( $(wc -c <"$T/nogpt.img") / 512 - 1 )) 2>/dev/null
	boot no-gpt $arch "$T/nogpt.img" 1 "" "^vfit-stage: halted: no valid GPT on the disk$"
	rm -f "$T"/*.img "$T"/*.fit
done

# QEMU 7.2 offers legacy virtio-mmio by default; the driver speaks version 2 too.
std_disk arm64 "$T/v2.img"
QEMU_EXTRA="-global virtio-mmio.force-legacy=false" boot virtio-v2 arm64 "$T/v2.img" 0 main
rm -f "$T/v2.img"

# Compressed arm64 Images, decompressed by lib/decomp into the free RAM at the load address.
arch_vars arm64
gzip -1 -n -c "$KERNEL" >"$T/Image.gz"
lz4 -q -1 -c "$KERNEL" >"$T/Image.lz4"
for comp in gzip lz4; do
	f=$T/Image.gz
	[ $comp = lz4 ] && f=$T/Image.lz4
	fit arm64 "$T/$comp.fit" $comp -e "$f" -c $comp && mkdisk "$T/$comp.img" "$T/$comp.fit" - - &&
		pass || fail "arm64: $comp FIT"
	boot $comp arm64 "$T/$comp.img" 0 $comp "^   Loading kernel 'kernel' to 40400000 \($comp\)$"
	rm -f "$T/$comp.img"
done
finish
