#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Real power cuts on the QEMU virt stage with a TPM (arm64, stage-tpm.bin,
# swtpm behind tpm-tis-device).  The OS asks through the TPM's request index
# -- an update installed (the host plays the OS), then mark-good of that
# update's trial (its initramfs asks through /dev/tpm0) -- and the power-on
# that serves each request is stopped by gdb attached to QEMU's gdb server
# (stage-tpm.elf's symbols) at the NV_Write that makes the request's change
# (vfit_tpm_nv_write of index 0x01500100 once vfit_trust_serve began): once
# before the command reaches the TPM, once after the TPM answered.  QEMU is
# killed there (SIGKILL: nothing more reaches swtpm).  The TPM then holds the
# trust state before the request or the one serving it made -- slots, boot
# record and counters together, as the OS reads them -- never a mix, and the
# next power-on boots from it: it serves the request still pending (cut
# before) or finds it stale and clears it (cut after), and both end where an
# uncut power-on does.  The simulator's cuts at every NV write of mark-good
# and update are tests/cli/boot_trust.sh's.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib/qemu.sh"
. "$(dirname "$0")/lib/tpm.sh"
need swtpm swtpm_setup tpm2_nvdefine gdb-multiarch
qemu_setup

arch=arm64
arch_vars $arch
ELF=$Q/$arch/stage-tpm.elf
ok "the stage's symbols for gdb ($ELF)" test -f "$ELF"
mods=$(ls -d "$Q"/root-$arch/lib/modules/*/kernel/drivers/char/tpm)
# The update's initramfs confirms its own trial through /dev/tpm0, as an OS that came up does.
VFIT_OS_REQUEST=confirm "$ROOT/ports/qemu-virt/mkinitramfs" "$Q/root-$arch/bin/busybox" \
	"$MARKER" "$T/$arch-update.cpio" update "$mods/tpm_tis_core.ko" "$mods/tpm_tis.ko" &&
	fit $arch "$T/m1.fit" main -i 1 && fit $arch "$T/a2.fit" update -i 2 && pass ||
	fail "FITs"
TPM=$T/tpm
ok "factory TPM" tpm_new "$TPM"
mkdisk "$T/d.img" "$T/m1.fit" "$T/m1.fit" "$Q/$arch/recovery.fit" && pass || fail "disk"
tpm_boot first $arch "$T/d.img" 0 main "^   Rollback index 1 >= counter 0 for 'kernel' OK$"

# trust NAME: $T/NAME.st, the slots, boot record and counters the TPM of $TPM holds, as the
# OS reads them (vfit boot --trust status: the stage's own layout and code).
trust() {
	mkdir -p "$T/sim"
	tpm_os "$VFIT" boot --device "$T/sim" --trust "$T/os" status >"$T/$1.out" 2>&1
	grep -E '^(slot|booted|  [a-z]+:)' "$T/$1.out" >"$T/$1.st"
}

# cut NAME before|after DISK: a power-on of the TPM $TPM and DISK stopped at the NV_Write of
# the trust state that serves the OS's request (before it is sent, or once the TPM answered)
# and QEMU killed there.
cut() {
	_fin=
	[ "$2" = after ] && _fin="-ex finish"
	rm -f "$T/gdb.sock" "$T/qemu.pid"
	(
		i=0
		while [ ! -S "$T/gdb.sock" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
		# shellcheck disable=SC2086
		timeout 300 gdb-multiarch -batch -nx -ex "file $ELF" -ex "target remote $T/gdb.sock" \
			-ex 'break vfit_trust_serve' -ex continue \
			-ex 'break vfit_tpm_nv_write if $x2 == 0x01500100' -ex continue $_fin \
			-ex "shell kill -KILL \$(cat $T/qemu.pid)"
	) >"$T/$1.gdb" 2>&1 &
	_gdb=$!
	QEMU_EXTRA="-chardev socket,id=gdb,path=$T/gdb.sock,server=on,wait=off -gdb chardev:gdb -S \
-pidfile $T/qemu.pid" tpm_boot "$1" $arch "$3" 137 "" "^request: the OS asked at state "
	wait $_gdb
	contains "$1: serving the OS's request" "$T/$1.gdb" "^Breakpoint 1, vfit_trust_serve \("
	contains "$1: stopped at its NV_Write of the trust state" "$T/$1.gdb" \
		"^Breakpoint 2, vfit_tpm_nv_write \("
	if [ "$2" = after ]; then
		contains "$1: the TPM answered" "$T/$1.gdb" "^Value returned is .* = VFIT_TPM_OK$"
	fi
	lacks "$1: cut before the boot itself" "$T/$1.log" "^## Trying"
}

# powercut KIND OLD SERVED NEXT-TAG: the OS's request pending in $TPM and $T/d.img.  A cut
# after the NV_Write on a copy, then one before it on the device itself: the TPM holds OLD
# (before) or SERVED (after), each as a string of trust's lines; each next power-on boots
# (initramfs NEXT-TAG) and both end in the same trust state.
powercut() {
	pc_kind=$1 pc_old=$2 pc_new=$3 pc_tag=$4 pc_dev=$TPM
	rm -rf "$T/cut.tpm" && cp -a "$TPM" "$T/cut.tpm" && cp --sparse=always "$T/d.img" "$T/cut.img"
	TPM=$T/cut.tpm
	cut $pc_kind-after after "$T/cut.img"
	trust $pc_kind-after
	is "$pc_kind, cut after the NV_Write: the served state, slots and counters together" "$pc_new" \
		"$(cat "$T/$pc_kind-after.st")"
	tpm_boot $pc_kind-after-next $arch "$T/cut.img" 0 $pc_tag \
		"^request: ignored, made at state [0-9]+, the state is now [0-9]+"
	trust $pc_kind-after-next
	TPM=$pc_dev
	cut $pc_kind-before before "$T/d.img"
	trust $pc_kind-before
	is "$pc_kind, cut before the NV_Write: the state before, slots and counters together" "$pc_old" \
		"$(cat "$T/$pc_kind-before.st")"
	tpm_boot $pc_kind-before-next $arch "$T/d.img" 0 $pc_tag "^request: the OS asked at state "
	lacks "$pc_kind: the request served once" "$T/$pc_kind-before-next.log" "^request: ignored"
	trust $pc_kind-before-next
	ok "$pc_kind: after either cut the next power-on ends where an uncut one does" \
		cmp "$T/$pc_kind-after-next.st" "$T/$pc_kind-before-next.st"
}

# states A-SLOT B-SLOT BOOTED KERNEL: the lines trust writes.
states() {
	printf 'slot A: %s\nslot B: %s\nbooted: slot %s\n  bootloader: 0\n  kernel: %s\n  recovery: 0' \
		"$1" "$2" "$3" "$4"
}

# The update: the OS writes slot B and asks through the TPM; serving it offers slot B.
tpm_os "$VFIT" disk update --rom "$Q/$arch/rom.dtb" --tpm "$T/os" "$T/d.img" "$T/a2.fit" \
	>"$T/upd.out" 2>&1
is "update asked through the TPM" 0 $?
contains "asked" "$T/upd.out" "^update: the device is asked through the TPM to try slot B$"
powercut update "$(states "good, tried first" good A 0)" \
	"$(states good "trying (3 attempts left), tried first" A 0)" update
contains "update: the trial booted" "$T/update-before-next.log" \
	"^   slot B is on trial: 2 attempts left after this boot"
# mark-good: the trial's own OS asked (its initramfs); serving it ends the trial and moves
# the counter to 2 in the same NV_Write.
contains "mark-good asked from the trial's OS" "$T/update-before-next.log" \
	"^VFIT-OS-REQUEST confirm rc 00000000$"
powercut mark-good "$(states good "trying (2 attempts left), tried first" B 0)" \
	"$(states good "good, tried first" B 2)" update
contains "mark-good: served" "$T/mark-good-before-next.log" "^   Rollback counter 'kernel': 0 -> 2$"
finish
