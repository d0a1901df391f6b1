#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The QEMU virt stage with a TPM 2.0 (swtpm behind QEMU's tpm-tis-device),
# its trust state in the NV index a factory defined with platform
# authorization (docs/trust-state.md), against what someone who can write
# the disk (no key, no TPM access) can forge:
#   - a state record and mark-good request, with valid checksums, saying a
#     vendor-signed slot of a higher rollback index booted last (made the
#     way an attacker would: booted once on a device without a TPM, then
#     grafted onto the victim's disk): the request is ignored, no counter moves;
#   - after a real update is confirmed (counter 2 in the TPM; armv7: the
#     first slot confirmed, counter 1), an older disk image with its counter
#     record at 0 put back: nothing older boots.
# After arm64's, `vfit boot --trust status` (the simulator) reads the
# stage's NV index: the same code and layout.  arm64 also boots Debian's kernel with measured boot and checks in that
# run: the PCRs Linux reads equal tpm2_eventlog's replay of the log Linux
# exposes, PCR 8 and 9 are the kernel's and initramfs's SHA-256 extended
# once, a slot refused for a tampered ramdisk left no measurement, and the
# OS's own NV_Write with platform authorization fails with
# TPM_RC_HIERARCHY.  armv7 (no TIS driver in Debian's armmp kernel) checks
# the stage's side: the two attacks, its measurement lines and its own
# replay of its log (PCR 8 and 9: the kernel and initramfs, extended once).
# First, a TPM the stage must refuse: unprovisioned (every other reason:
# tests/unit/test_boot_tpm.c; PCR banks: tests/qemu/banks.sh).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib/qemu.sh"
. "$(dirname "$0")/lib/tpm.sh"
need swtpm swtpm_setup tpm2_nvdefine tpm2_getcap tpm2_eventlog xxd sha256sum fdtput
qemu_setup

# state_graft FROM TO: the vfit-state partition (state and confirmation records) of FROM into TO
state_graft() {
	_lba=$("$VFIT" disk info "$1" | sed -n 's/^vfit-state *LBA \([0-9]*\)\.\..*/\1/p')
	dd if="$1" of="$2" bs=512 skip="$_lba" seek="$_lba" count=2048 conv=notrunc 2>/dev/null
}

# A TPM the stage cannot trust halts it before anything is read from the disk, naming why:
# never provisioned (no index).
mkdisk "$T/d.img" "$Q/arm64/linux.fit" - - && pass || fail "disk"
TPM=$T/tpm-bare
rm -rf "$TPM" && mkdir -p "$TPM" &&
	swtpm_setup --tpm2 --tpmstate "$TPM" --pcr-banks sha256 >"$T/setup.log" 2>&1 &&
	pass || fail "swtpm_setup"
tpm_boot unprovisioned arm64 "$T/d.img" 1 "" \
	"^vfit-stage: TPM: trust-state NV index missing \(NV_ReadPublic\)$"

for arch in arm64 arm; do
	R=$Q/$arch/recovery.fit
	TPM=$T/tpm-$arch
	arch_vars $arch
	tag=main
	if [ $arch = arm64 ]; then
		tag=measured
		mods=$(ls -d "$Q"/root-arm64/lib/modules/*/kernel/drivers/char/tpm)
		"$ROOT/ports/qemu-virt/mkinitramfs" "$Q/root-arm64/bin/busybox" "$MARKER" \
			"$T/arm64-measured.cpio" measured "$mods/tpm_tis_core.ko" "$mods/tpm_tis.ko"
	fi
	fit $arch "$T/m1.fit" $tag -i 1 && fit $arch "$T/r1.fit" refused -i 1 &&
		fit $arch "$T/a2.fit" update -i 2 && pass || fail "$arch: FITs"
	# Slot A's ramdisk damaged (a byte of its /init): refused, so never measured.
	cp "$T/r1.fit" "$T/r1-bad.fit" &&
		flip "$T/r1-bad.fit" "$(grep -obUa 'initramfs refused' "$T/r1.fit" | head -n 1 | cut -d: -f1)"
	ok "$arch: factory TPM: sha256 bank, trust-state index defined" tpm_new "$TPM"
	mkdisk "$T/d.img" "$T/r1-bad.fit" "$T/m1.fit" "$R" && pass || fail "$arch: disk"

	tpm_boot first $arch "$T/d.img" 0 $tag \
		"^vfit-stage: TPM: trust state in NV index 0x1500100 \(factory-fresh\)$" \
		"^slot A stage 1: bad hash value at /images/ramdisk/hash-1 value" "^   Marked bad: slot A$" \
		"^   Rollback index 1 >= counter 0 for 'kernel' OK$" \
		"^   Measured 'dev' \(key\) into PCR 7$" "^   Measured 'kernel' \(kernel\) into PCR 8$" \
		"^   Measured 'ramdisk' \(ramdisk\) into PCR 9$" \
		"^vfit-stage: TPM: event log [0-9]+ bytes at [0-9a-fx]+, platform hierarchy disabled, [0-9]+ TPM commands$"
	# The stage's own replay of its log: the kernel and the initramfs, each extended once.
	cpio=$T/$arch-$tag.cpio
	is "$arch: the stage's replay of PCR 8: the kernel's SHA-256" \
		"$(extend_of "$(sha256sum "$KERNEL" | cut -c1-64)")" \
		"$(sed -n 's/^vfit-stage: TPM: log replay PCR 8 sha256 //p' "$T/first.log")"
	is "$arch: the stage's replay of PCR 9: the initramfs's" \
		"$(extend_of "$(sha256sum "$cpio" | cut -c1-64)")" \
		"$(sed -n 's/^vfit-stage: TPM: log replay PCR 9 sha256 //p' "$T/first.log")"
	if [ $arch = arm64 ]; then
		is "the stage's replay of PCR 7 is what Linux reads" "$(pcr_of first 7)" \
			"$(sed -n 's/^vfit-stage: TPM: log replay PCR 7 sha256 //p' "$T/first.log")"
		tpm_log first
		tpm2_eventlog "$T/first.bin" >"$T/replay.yaml" 2>"$T/replay.err"
		is "tpm2_eventlog reads the log Linux exposes" 0 $?
		for n in 0 1 2 3 4 5 6 7 8 9; do
			want=$(sed -n '/^  sha256:/,$p' "$T/replay.yaml" | sed -n "s/^ *$n *: 0x//p")
			is "PCR $n: Linux reads the log's replay" "${want:-$(extend_of)}" "$(pcr_of first $n)"
		done
		is "PCR 8: Debian's kernel, extended once" \
			"$(extend_of "$(sha256sum "$KERNEL" | cut -c1-64)")" "$(pcr_of first 8)"
		is "PCR 9: the initramfs, extended once" \
			"$(extend_of "$(sha256sum "$T/arm64-measured.cpio" | cut -c1-64)")" "$(pcr_of first 9)"
		contains "the booted ramdisk is in the log" "$T/replay.yaml" \
			"$(sha256sum "$T/arm64-measured.cpio" | cut -c1-64)"
		lacks "$arch: the refused slot's ramdisk left no measurement" "$T/replay.yaml" \
			"$(sha256sum "$T/arm64-refused.cpio" | cut -c1-64)"
		contains "the OS cannot write the trust state: TPM_RC_HIERARCHY" "$T/first.log" \
			"^VFIT-OS-NV-WRITE rc 00000185$"
	fi
	cp --sparse=always "$T/d.img" "$T/old.img"

	# The forgery: slot A gets a vendor-signed FIT of index 2 that this device never booted;
	# its "booted last" state and mark-good request come from a device without a TPM.
	# (armv7 grafts arm64's: the state and the request name no architecture.)
	if [ $arch = arm64 ]; then
		mkdisk "$T/lab.img" "$T/a2.fit" - "$R" && pass || fail "$arch: lab disk"
		boot lab $arch "$T/lab.img" 0 update \
			"^vfit-stage: no TPM \(the ROM requires none\): state and rollback counters on the disk are tamper-evident, not tamper-proof$"
		"$VFIT" disk mark-good "$T/lab.img" >"$T/mg.out" 2>&1
		contains "$arch: a valid mark-good request for slot A" "$T/mg.out" "^mark-good: slot A "
	fi
	cp --sparse=always "$T/d.img" "$T/forged.img" && state_graft "$T/lab.img" "$T/forged.img" &&
		"$VFIT" disk write "$T/forged.img" a "$T/a2.fit" && pass || fail "$arch: forged disk"
	"$VFIT" disk info "$T/forged.img" >"$T/info.out"
	contains "$arch: the forged disk says slot A booted last" "$T/info.out" "slot A booted last"
	tpm_boot forged $arch "$T/forged.img" 0 $tag "^   Rollback index 1 >= counter 0 for 'kernel' OK$"
	lacks "$arch: the disk's confirmation is no request" "$T/forged.log" "^request:"
	lacks "$arch: the forged confirmation moved no counter" "$T/forged.log" "^   Rollback counter "

	if [ $arch = arm ]; then
		# The OS confirms slot B (index 1) through the TPM; a disk of index-0 FITs is refused.
		tpm_os "$VFIT" disk mark-good --tpm "$T/os" "$T/d.img" >/dev/null 2>&1
		is "$arch: mark-good asked through the TPM" 0 $?
		tpm_boot confirmed $arch "$T/d.img" 0 $tag \
			"^request: the OS asked at state [0-9]+ to confirm slot B$" \
			"^   Rollback counter 'kernel': 0 -> 1$"
		fit $arch "$T/m0.fit" old && mkdisk "$T/old.img" "$T/m0.fit" "$T/m0.fit" "$R" &&
			pass || fail "$arch: old disk"
		tpm_boot replayed $arch "$T/old.img" 0 recovery \
			"^slot B stage 1: rollback index 0 < counter 1 for 'kernel'$"
		break
	fi

	# An update written to the disk alone (as a disk writer would): no request, not tried.
	"$VFIT" disk update --rom "$Q/$arch/rom.dtb" "$T/d.img" "$T/a2.fit" >"$T/upd.out" 2>&1
	is "$arch: update written to the disk" 0 $?
	tpm_boot disk-offer $arch "$T/d.img" 0 $tag
	lacks "$arch: a trial offer on the disk is no request" "$T/disk-offer.log" "^## Trying slot A"
	# The real update: installed by the OS and asked through the TPM (the host plays the
	# OS: vfit disk update --tpm), tried; its initramfs confirms from inside, through
	# /dev/tpm0 with owner authorization; the next power-on moves the counter to 2.
	VFIT_OS_REQUEST=confirm "$ROOT/ports/qemu-virt/mkinitramfs" "$Q/root-arm64/bin/busybox" \
		"$MARKER" "$T/arm64-update.cpio" update "$mods/tpm_tis_core.ko" "$mods/tpm_tis.ko" &&
		fit $arch "$T/a2.fit" update -i 2 && pass || fail "$arch: a FIT whose OS confirms itself"
	tpm_os "$VFIT" disk update --rom "$Q/$arch/rom.dtb" --tpm "$T/os" "$T/d.img" "$T/a2.fit" \
		>"$T/upd.out" 2>&1
	is "$arch: update asked through the TPM" 0 $?
	contains "$arch: asked" "$T/upd.out" "^update: the device is asked through the TPM to try slot A$"
	tpm_boot trial $arch "$T/d.img" 0 update \
		"^request: the OS asked at state [0-9]+ to try the update it installed in slot A$" \
		"^   slot A is on trial: 2 attempts left after this boot" "^VFIT-OS-REQUEST confirm rc 00000000$"
	tpm_boot confirmed $arch "$T/d.img" 0 update \
		"^request: the OS asked at state [0-9]+ to confirm slot A$" \
		"^   Rollback counter 'kernel': 0 -> 2$" "^mark-good: confirmed good: slot A$"

	# The disk as it was after the first boot, its counter record at 0: only recovery runs.
	"$VFIT" disk counter "$T/old.img" kernel 0 && pass || fail "$arch: counter record reset"
	tpm_boot replayed $arch "$T/old.img" 0 recovery \
		"^slot B stage 1: rollback index 1 < counter 2 for 'kernel'$"
	lacks "$arch: no older slot ran" "$T/replayed.log" "initramfs $tag"
	# Both slots failed once (bad in the TPM): the disk put right boots normally again.
	tpm_boot righted $arch "$T/d.img" 0 update \
		"^## No slot can boot: slot A failed verification at an earlier boot, trying it again$"
	# No good slot at all: recovery's OS installs an update (the host plays it), it is tried.
	cp --sparse=always "$T/d.img" "$T/broken.img" &&
		"$VFIT" disk write "$T/broken.img" a "$T/r1-bad.fit" &&
		"$VFIT" disk write "$T/broken.img" b "$T/r1-bad.fit" && pass || fail "$arch: broken disk"
	tpm_boot broken $arch "$T/broken.img" 0 recovery
	tpm_os "$VFIT" disk update --rom "$Q/$arch/rom.dtb" --tpm "$T/os" "$T/broken.img" \
		"$T/a2.fit" >"$T/upd.out" 2>&1
	is "$arch: recovery's update asked through the TPM" 0 $?
	tpm_boot repaired $arch "$T/broken.img" 0 update \
		"will be tried next \(3 attempts\); recovery stays as the fallback$"
	# The platform hides its TPM (its DTB node removed): the ROM requires one, so it halts.
	rm -f "$TPM/sock"
	swtpm socket --tpm2 --tpmstate "dir=$TPM" --ctrl "type=unixio,path=$TPM/sock" >/dev/null 2>&1 &
	TPM_PID=$!
	while kill -0 "$TPM_PID" 2>/dev/null && [ ! -S "$TPM/sock" ]; do sleep 0.05; done
	qemu-system-aarch64 -M virt -cpu cortex-a57 -m 1024 -smp 1 -display none -nic none \
		-chardev socket,id=chrtpm,path="$TPM/sock" -tpmdev emulator,id=tpm0,chardev=chrtpm \
		-device tpm-tis-device,tpmdev=tpm0 -M virt,dumpdtb="$T/virt.dtb" >/dev/null 2>&1
	tpm_stop
	tpm_node=$(fdtget -l "$T/virt.dtb" /platform-bus@c000000 | grep '^tpm')
	ok "$arch: QEMU's DTB without its TPM node" fdtput -r "$T/virt.dtb" "/platform-bus@c000000/$tpm_node"
	QEMU_EXTRA="-dtb $T/virt.dtb" tpm_boot hidden $arch "$T/d.img" 1 "" \
		"^vfit-stage: TPM: the ROM requires a TPM the platform does not describe"
	lacks "$arch: no slot was tried" "$T/hidden.log" "^## Trying"
	# The simulator reads what the stage wrote: one implementation, one NV layout.
	mkdir -p "$T/sim" && rm -f "$TPM/sock"
	swtpm socket --tpm2 --tpmstate "dir=$TPM" --server "type=unixio,path=$TPM/data" \
		--ctrl "type=unixio,path=$TPM/ctrl" --flags not-need-init >"$TPM/sim.log" 2>&1 &
	TPM_PID=$!
	while kill -0 "$TPM_PID" 2>/dev/null && [ ! -S "$TPM/ctrl" ]; do sleep 0.05; done
	"$VFIT" boot --device "$T/sim" --trust "$TPM" status >"$T/sim.out" 2>&1
	is "$arch: vfit boot --trust status on the stage's TPM" 0 $?
	tpm_stop
	contains "$arch: the simulator reads the stage's counter" "$T/sim.out" "^  kernel: 2$"
	contains "$arch: and its boot record (the repaired slot last)" "$T/sim.out" "^booted: slot B$"
	rm -f "$T/d.img" "$T/old.img" "$T/forged.img"
done
finish
