#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The QEMU virt stage (ports/qemu-virt) on both architectures, phase 1: a
# clean disk boots Debian's kernel to the initramfs marker (also over
# virtio-mmio version 2 on arm64); a kernel with
# one flipped byte, a FIT signed by an unknown key, a kernel loaded over
# the staging area, an arm64 Image off its 2 MiB placement, a zImage that is
# none, an empty slot, a broken GPT and a corrupt state or counter store never
# run.  stage-selftest.bin exercises the platform layer's writes (state,
# counters, a chain) on the device; the host's `vfit disk info` reads them.  arm64 also
# boots gzip and LZ4 compressed Images through lib/decomp.  Each boot is
# bounded by a timeout and decided by what the guest prints and QEMU's exit:
# ports/qemu-virt/boot exits 0 only for the marker after a clean power-off,
# 1 when QEMU powered off without it, 124 on the timeout.
. "$(dirname "$0")/../lib.sh"
MARKER="VFIT-QEMU-MARKER: userspace reached on"
Q=$BUILD/qemu

need qemu-system-aarch64 qemu-system-arm aarch64-linux-gnu-gcc arm-linux-gnueabihf-gcc dtc gzip lz4
if ! (cd "$ROOT" && scripts/deps qemu "$Q") >"$T/deps.log" 2>&1; then
	skip net "Debian's kernel/busybox/libfdt packages could not be fetched (scripts/deps qemu $Q): $(tail -n 1 "$T/deps.log")"
	finish
	exit $?
fi

# boot NAME ARCH DISK WANT-STATUS REGEX...: each REGEX must be in the console log.
# $extra: more QEMU arguments.
extra=
boot() {
	name=$1 arch=$2 disk=$3 want=$4
	shift 4
	# shellcheck disable=SC2086
	QEMU_TIMEOUT=${QEMU_TIMEOUT:-90} "$ROOT/ports/qemu-virt/boot" "$arch" "$Q/$arch/stage.bin" \
		"$disk" "$MARKER" $extra >"$T/$name.log" 2>&1
	got=$?
	if [ "$got" = "$want" ]; then pass; else
		fail "$arch $name: boot exit $got, want $want"; grep -a vfit-stage "$T/$name.log" | head -n 5
	fi
	for re in "$@"; do contains "$arch $name" "$T/$name.log" "$re"; done
	if [ "$want" != 0 ]; then
		if grep -aq "^$MARKER" "$T/$name.log"; then fail "$arch $name: the kernel ran"; else pass; fi
	fi
}

# fit ARCH OUT KEYDIR KERNEL COMP LOAD: the phase-1 FIT with these parts, signed.
fit() {
	sed -e "s|@KERNEL@|$4|" -e "s|@INITRD@|$Q/$1/initramfs.cpio|" -e "s|@ARCH@|$(fit_arch "$1")|" \
		-e "s|@COMP@|$5|" -e "s|@LOAD@|$6|" -e 's|@KEY@|dev|' \
		"$ROOT/ports/qemu-virt/linux.its.in" >"$T/$2.its"
	"$VFIT" mkimage -f "$T/$2.its" -k "$3" "$T/$2" >/dev/null
}
fit_arch() { [ "$1" = arm64 ] && echo arm64 || echo arm; }

# disk NAME FIT...: a fresh disk whose slot A holds the FITs.
disk() {
	name=$1
	shift
	rm -f "$T/$name.img"
	"$VFIT" disk create --slot-size 48M "$T/$name.img" && "$VFIT" disk write "$T/$name.img" a "$@"
}

mkdir -p "$T/other"
"$VFIT" keygen -a rsa2048 -k "$T/other" -n dev >/dev/null 2>&1

for arch in arm64 arm; do
	if ! make -s -C "$ROOT" BUILD="$BUILD" ARCH=$arch qemu-stage qemu-disk >"$T/make.log" 2>&1; then
		fail "$arch: make qemu-stage qemu-disk"
		tail -n 20 "$T/make.log"
		continue
	fi
	pass
	kernel=$(ls "$Q"/root-$arch/boot/vmlinuz-* | head -n 1)
	load=$(sed -n 's/^QV_LOAD_'$arch' *:= *//p' "$ROOT/ports/qemu-virt/port.mk")

	boot clean $arch "$Q/$arch/disk.img" 0 "^vfit-stage: verified configuration conf-1" \
		"^vfit-stage: time verify [0-9]+ ns" "^$MARKER"
	if [ $arch = arm64 ]; then
		# QEMU 7.2 offers legacy virtio-mmio by default; the driver speaks version 2 too.
		extra="-global virtio-mmio.force-legacy=false"
		boot virtio-v2 $arch "$Q/$arch/disk.img" 0 "^$MARKER"
		extra=
	fi

	# One byte of the kernel flipped after signing (1 MiB in: inside the kernel data).
	cp "$Q/$arch/linux.fit" "$T/tampered.fit"
	b=$(dd if="$T/tampered.fit" bs=1 skip=1048576 count=1 2>/dev/null | od -An -tu1 | tr -d ' ')
	printf "$(printf '\\%03o' $(( (b ^ 1) & 255 )))" |
		dd of="$T/tampered.fit" bs=1 seek=1048576 conv=notrunc 2>/dev/null
	disk tampered "$T/tampered.fit" && pass || fail "$arch: tampered disk"
	boot tampered $arch "$T/tampered.img" 1 \
		"^vfit-stage: refused: slot A FIT: /images/kernel/hash-1: value: bad hash value$"

	fit $arch unknown.fit "$T/other" "$kernel" none "$load" && disk unknown "$T/unknown.fit" &&
		pass || fail "$arch: FIT with an unknown key"
	boot unknown-key $arch "$T/unknown.img" 1 \
		"^vfit-stage: refused: slot A FIT: .*: failed to verify required signature$"

	fit $arch overlap.fit "$Q/keys" "$kernel" none 0x50000000 && disk overlap "$T/overlap.fit" &&
		pass || fail "$arch: FIT loading over the staging area"
	boot overlap $arch "$T/overlap.img" 1 \
		"^vfit-stage: refused: kernel overlaps the FIT staging area$"

	# Signed, but not a kernel this CPU can start: the protocol checks refuse it.
	if [ $arch = arm64 ]; then
		fit $arch bad.fit "$Q/keys" "$kernel" none 0x40480000 &&
			want="kernel: load address is not text_offset above a 2 MiB boundary"
	else
		fit $arch bad.fit "$Q/keys" "$Q/$arch/initramfs.cpio" none "$load" &&
			want="kernel: not an arm zImage"
	fi
	disk bad "$T/bad.fit" && pass || fail "$arch: FIT with a kernel the protocol refuses"
	boot protocol $arch "$T/bad.img" 1 "^vfit-stage: refused: $want"

	disk empty && pass || fail "$arch: empty disk"
	boot empty-slot $arch "$T/empty.img" 1 "halted: slot A holds no FIT"

	# The counter store as the factory set it is read; corrupt stores fail closed.
	cp --sparse=always "$Q/$arch/disk.img" "$T/ctr.img"
	"$VFIT" disk counter "$T/ctr.img" kernel 5 >/dev/null
	boot counter $arch "$T/ctr.img" 0 "^vfit-stage: rollback counter kernel = 5$" "^$MARKER"
	# vfit-state and vfit-counters follow three 48 MiB chains after the first MiB.
	for p in state counters; do
		cp --sparse=always "$Q/$arch/disk.img" "$T/$p.img"
		at=$(( (1 + 3 * 48 + $([ $p = counters ] && echo 1 || echo 0)) * 1048576 ))
		printf 'XX' | dd of="$T/$p.img" bs=1 seek=$((at + 30)) conv=notrunc 2>/dev/null
		boot corrupt-$p $arch "$T/$p.img" 1 \
			"^vfit-stage: halted: vfit-$p: no valid copy \(corrupt or unreadable\): failing closed$"
	done

	# The platform layer's write paths on the device, read back by the host's codecs.
	cp --sparse=always "$Q/$arch/disk.img" "$T/self.img"
	QEMU_TIMEOUT=${QEMU_TIMEOUT:-90} "$ROOT/ports/qemu-virt/boot" $arch \
		"$Q/$arch/stage-selftest.bin" "$T/self.img" "vfit-selftest: all passed" >"$T/self.log" 2>&1 &&
		pass || { fail "$arch: platform self-test"; grep -a FAIL "$T/self.log"; }
	"$VFIT" disk info "$T/self.img" >"$T/info.out" 2>&1
	contains "$arch self-test: state written on the device" "$T/info.out" '^state: written'
	contains "$arch self-test: counter advanced" "$T/info.out" '^  kernel = 7$'
	contains "$arch self-test: counter added" "$T/info.out" '^  bootloader = 3$'
	contains "$arch self-test: slot B written" "$T/info.out" \
		"^  chain: 1 FIT: $(wc -c <"$Q/$arch/linux.fit") bytes at \+4096\$"
	[ "$(grep -c 'chain: 1 FIT' "$T/info.out")" = 2 ] && pass || fail "$arch: slot B is not A's copy"
	if command -v sgdisk >/dev/null 2>&1; then
		sgdisk -v "$T/self.img" >"$T/sg.out" 2>&1
		contains "$arch self-test: GPT still valid" "$T/sg.out" '^No problems found'
	else
		skip tool "sgdisk not installed (gdisk): $arch self-test's GPT not checked by it"
	fi

	cp --sparse=always "$Q/$arch/disk.img" "$T/nogpt.img"
	dd if=/dev/zero of="$T/nogpt.img" bs=512 seek=1 count=1 conv=notrunc 2>/dev/null
	dd if=/dev/zero of="$T/nogpt.img" bs=512 count=1 conv=notrunc \
		seek=$(( $(wc -c <"$T/nogpt.img") / 512 - 1 )) 2>/dev/null
	boot no-gpt $arch "$T/nogpt.img" 1 "halted: no valid GPT on the disk"
	rm -f "$T"/*.img "$T"/*.fit
done

# Compressed arm64 Images, decompressed by lib/decomp into the free RAM at the load address.
kernel=$(ls "$Q"/root-arm64/boot/vmlinuz-* | head -n 1)
gzip -1 -n -c "$kernel" >"$T/Image.gz"
lz4 -q -1 -c "$kernel" >"$T/Image.lz4"
for comp in gzip lz4; do
	f=$T/Image.gz
	[ $comp = lz4 ] && f=$T/Image.lz4
	fit arm64 $comp.fit "$Q/keys" "$f" $comp 0x40400000 && disk $comp "$T/$comp.fit" &&
		pass || fail "arm64: $comp FIT"
	boot $comp arm64 "$T/$comp.img" 0 "^vfit-stage: time load [0-9]+ ns" "^$MARKER"
	rm -f "$T/$comp.img"
done
finish
