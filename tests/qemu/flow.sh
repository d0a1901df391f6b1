#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The boot flow on the QEMU virt stage (ports/qemu-virt), booting Debian's
# kernel: a clean disk boots slot A; slot A's kernel with one flipped byte
# boots slot B; both slots tampered boot recovery; a kernel signed by an
# unknown key never runs; a chain of two stages (a bootloader FIT whose
# fdt carries the kernel's key, then the kernel FIT) boots, and a kernel FIT
# the bootloader's keys do not vouch for does not; a lower rollback index
# never runs once a higher one was confirmed.  arm64 also hands Linux an
# initramfs encrypted with an AES key of the bootloader stage's DTB, whose
# size is no multiple of 16, with its plaintext's size (Linux's
# /proc/device-tree/chosen says so), and runs a device's
# life through `vfit disk update` and `vfit disk mark-good`: an update on
# trial runs out of attempts and falls back, a second update is confirmed
# by the OS and the stage advances the counter, an older FIT is then
# refused by the host and by the device; a confirmation made stale by an
# update confirms nothing, and one whose chain no longer verifies moves no
# counter.  armv7 runs the same cases minus
# that life (the counter is set by the factory tool instead).
# Which FIT ran is decided by its initramfs's marker line (tests/qemu/lib/qemu.sh).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib/qemu.sh"
qemu_setup

mkdir -p "$T/other" "$T/chain"
"$VFIT" keygen -a rsa2048 -k "$T/other" -n dev >/dev/null 2>&1
"$VFIT" keygen -a rsa2048 -k "$T/chain" -n kernel >/dev/null 2>&1

# chain ARCH: $T/bl.fit (firmware + fdt with key "kernel", signed by the ROM's dev key)
# and $T/k2.fit (the kernel FIT signed by "kernel"); $T/kdev.fit: stage 2 signed by dev.
chain() {
	printf '/dts-v1/;\n/ { };\n' | dtc -I dts -O dtb -o "$T/bl.dtb" - 2>/dev/null
	fit $1 "$T/k2.fit" chain -k "$T/chain" -n kernel -K "$T/bl.dtb" -r -i 1
	fit $1 "$T/kdev.fit" chain-dev -i 1
	# The firmware is the stage binary: loaded where the FIT says, verified, never run.
	sed -e "s|@FW@|$Q/$1/stage.bin|" -e "s|@DTB@|$T/bl.dtb|" -e "s|@ARCH@|$FITARCH|" \
		"$ROOT/ports/qemu-virt/bl.its.in" >"$T/bl.its"
	"$VFIT" mkimage -q -f "$T/bl.its" -k "$Q/keys" "$T/bl.fit" >/dev/null
}

# enc_chain ARCH: $T/bl-enc.fit (chain's bootloader stage, its DTB holding the kernel key and
# the AES key kkey) and $T/k-enc.fit (the kernel, and the initramfs tagged "cipher" padded to
# no multiple of 16 -- $T/rd.cpio -- encrypted with kkey and loaded at 0x4c000000).
enc_chain() {
	initrd $1 cipher && cp "$T/$1-cipher.cpio" "$T/rd.cpio" || return 1
	# Zeros after the cpio trailer, 4 at a time, are what Linux's unpacker skips.
	[ $(($(wc -c <"$T/rd.cpio") % 16)) != 0 ] || head -c 4 /dev/zero >>"$T/rd.cpio"
	random "$T/chain/kkey.bin" 32
	printf '/dts-v1/;\n/ { };\n' | dtc -I dts -O dtb -o "$T/bl-enc.dtb" - 2>/dev/null
	cat >"$T/k-enc.its" <<ITS
/dts-v1/;
/ {
	description = "Debian kernel, encrypted initramfs";
	#address-cells = <1>;
	images {
		kernel {
			data = /incbin/("$KERNEL");
			type = "kernel"; arch = "$FITARCH"; os = "linux"; compression = "none";
			load = <$LOAD>; entry = <$LOAD>;
			hash-1 { algo = "sha256"; };
		};
		ramdisk {
			data = /incbin/("$T/rd.cpio");
			type = "ramdisk"; arch = "$FITARCH"; os = "linux"; compression = "none";
			load = <0x4c000000>;
			hash-1 { algo = "sha256"; };
			cipher { algo = "aes256"; key-name-hint = "kkey"; };
		};
	};
	configurations {
		default = "conf-1";
		conf-1 {
			kernel = "kernel"; ramdisk = "ramdisk";
			signature-1 { algo = "sha256,rsa2048"; key-name-hint = "kernel";
				sign-images = "kernel", "ramdisk"; };
		};
	};
};
ITS
	"$VFIT" mkimage -q -f "$T/k-enc.its" -k "$T/chain" -K "$T/bl-enc.dtb" -r "$T/k-enc.fit" \
		>/dev/null &&
		sed -e "s|@FW@|$Q/$1/stage.bin|" -e "s|@DTB@|$T/bl-enc.dtb|" -e "s|@ARCH@|$FITARCH|" \
			"$ROOT/ports/qemu-virt/bl.its.in" >"$T/bl-enc.its" &&
		"$VFIT" mkimage -q -f "$T/bl-enc.its" -k "$Q/keys" "$T/bl-enc.fit" >/dev/null
}

for arch in arm64 arm; do
	R=$Q/$arch/recovery.fit
	fit $arch "$T/a.fit" slot-a -i 1 && fit $arch "$T/b.fit" slot-b -i 1 &&
		fit $arch "$T/evil.fit" evil -k "$T/other" -i 9 && chain $arch && pass ||
		fail "$arch: FITs"
	# One byte of the kernel, 1 MiB into the FIT.
	cp "$T/a.fit" "$T/a-bad.fit" && flip "$T/a-bad.fit" 1048576
	cp "$T/b.fit" "$T/b-bad.fit" && flip "$T/b-bad.fit" 1048576

	std_disk $arch "$T/clean.img"
	boot clean $arch "$T/clean.img" 0 main "^## Trying slot A$" \
		"^   Verifying Hash Integrity \.\.\. sha256,rsa2048:dev\+ OK$" \
		"^   Rollback index 1 >= counter 0 for 'kernel' OK$" \
		"^Starting kernel at $(printf %08x $LOAD), fdt none, ramdisk [0-9a-f]+ \.\.\.$" \
		'bootargs "console=ttyAMA0 vfit.slot=A"' "^vfit-stage: time verify [0-9]+ ns$"

	mkdisk "$T/d.img" "$T/a-bad.fit" "$T/b.fit" "$R" && pass || fail "$arch: disk"
	boot fallback $arch "$T/d.img" 0 slot-b \
		"^slot A stage 1: bad hash value at /images/kernel/hash-1 value \(configuration 'conf-1'\)$" "^   Marked bad: slot A$" \
		"^## Trying slot B$" 'vfit.slot=B'

	mkdisk "$T/d.img" "$T/a-bad.fit" "$T/b-bad.fit" "$R" && pass || fail "$arch: disk"
	boot recovery $arch "$T/d.img" 0 recovery "^## No slot verified: trying RECOVERY$" \
		"^   Trusting recovery key 'key-recovery' .* from the ROM control DTB$" \
		"^Starting RECOVERY kernel at " 'vfit.slot=recovery'

	mkdisk "$T/d.img" "$T/evil.fit" "$T/evil.fit" - && pass || fail "$arch: disk"
	boot unknown-key $arch "$T/d.img" 1 "" "^## Halting: nothing verified\. Reasons:$" \
		"^   - slot A stage 1: .*required" "^   - recovery: no FIT stored$" \
		"^vfit-stage: halted: nothing verified$"

	mkdisk "$T/d.img" "$T/bl.fit,$T/k2.fit" - - && pass || fail "$arch: disk"
	boot chain $arch "$T/d.img" 0 chain "^## Checking FIT Image at [0-9a-f]+ \(slot A, stage 2\)$" \
		"^   Loading firmware 'firmware-1' to 48000000$" \
		"^   Trusting key 'key-kernel' \(sha256,rsa2048, required for conf\) from fdt 'fdt-1' verified in stage 1$" \
		"^   Rollback index 0 >= counter 0 for 'bootloader' OK$"

	# The factory's counter above the index of every slot: only recovery may run.
	mkdisk "$T/d.img" "$T/a.fit" "$T/b.fit" "$R" && "$VFIT" disk counter "$T/d.img" kernel 2 &&
		pass || fail "$arch: disk"
	boot rollback $arch "$T/d.img" 0 recovery \
		"^slot A stage 1: rollback index 1 < counter 2 for 'kernel'$" \
		"^slot B stage 1: rollback index 1 < counter 2 for 'kernel'$"
	[ $arch = arm ] && break

	# A stage 2 that the ROM's key signed, not the bootloader's: the chain refuses it.
	mkdisk "$T/d.img" "$T/bl.fit,$T/kdev.fit" - - && pass || fail "$arch: disk"
	boot chain-wrong-key $arch "$T/d.img" 1 "" "^   - slot A stage 2: .*required"

	# The encrypted initramfs: Linux's initrd ends where the plaintext does.
	enc_chain $arch && mkdisk "$T/d.img" "$T/bl-enc.fit,$T/k-enc.fit" - - && pass ||
		fail "$arch: encrypted initramfs disk"
	boot cipher $arch "$T/d.img" 0 cipher "^   Loading ramdisk 'ramdisk' to 4c000000$"
	set -- $(sed -n 's/^VFIT-INITRD //p' "$T/cipher.log")
	is "$arch: the initrd Linux was handed: the plaintext's $(wc -c <"$T/rd.cpio") bytes" \
		"4c000000 $(wc -c <"$T/rd.cpio")" "${1#00000000} $((0x${2:-0} - 0x${1:-0}))"

	# A device's life: an update on trial that is never confirmed falls back after
	# its attempts; a confirmed one moves the counter; the old FIT is then refused.
	fit $arch "$T/new.fit" slot-b2 -i 2 && mkdisk "$T/d.img" "$T/a.fit" - "$R" && pass ||
		fail "$arch: disk"
	"$VFIT" disk update --rom "$Q/$arch/rom.dtb" "$T/d.img" "$T/new.fit" >"$T/upd.out" 2>&1
	is "update accepted" 0 $?
	contains "update: slot B offered" "$T/upd.out" \
		"^update: slot B will be tried next \(3 attempts\); slot A stays as the fallback$"
	for left in 2 1 0; do
		boot trial-$left $arch "$T/d.img" 0 slot-b2 \
			"^   slot B is on trial: $left attempts left after this boot"
	done
	"$VFIT" disk info "$T/d.img" >"$T/info.out"
	contains "no counter moves without a confirmation" "$T/info.out" '^counters: 0 '
	boot trial-over $arch "$T/d.img" 0 slot-a \
		"^slot B: no boot attempts left \(never confirmed with mark-good\)$" \
		"^   Marked bad: slot B$"

	# A confirmation of slot A, then the update: the request is stale at the next boot.
	"$VFIT" disk mark-good "$T/d.img" >/dev/null 2>&1
	is "mark-good of slot A asked" 0 $?
	"$VFIT" disk update --rom "$Q/$arch/rom.dtb" "$T/d.img" "$T/new.fit" >/dev/null 2>&1
	is "second update accepted" 0 $?
	boot trial-again $arch "$T/d.img" 0 slot-b2 "^   slot B is on trial: 2 attempts left" \
		"^request: ignored, made at state [0-9]+, the state is now [0-9]+$"
	lacks "$arch: a stale confirmation confirms nothing" "$T/trial-again.log" "^mark-good:"
	"$VFIT" disk mark-good "$T/d.img" >"$T/mg.out" 2>&1
	is "mark-good asked" 0 $?
	contains "mark-good names the slot" "$T/mg.out" "^mark-good: slot B \(booted at state [0-9]+\)"
	"$VFIT" disk info "$T/d.img" >"$T/info.out"
	contains "confirmation pending" "$T/info.out" "^confirmation: slot B at state [0-9]+, pending"
	boot confirmed $arch "$T/d.img" 0 slot-b2 "^request: the OS asked at state [0-9]+ to confirm slot B$" \
		"^   Rollback counter 'kernel': 0 -> 2$" "^mark-good: confirmed good: slot B$"
	"$VFIT" disk info "$T/d.img" >"$T/info.out"
	contains "counter advanced on the device" "$T/info.out" '^  kernel = 2$'
	contains "confirmation consumed" "$T/info.out" '^confirmation: none$'
	contains "slot B good" "$T/info.out" '^  slot A good, slot B good; slot B first'

	cp --sparse=always "$T/d.img" "$T/saved.img"
	"$VFIT" disk update --rom "$Q/$arch/rom.dtb" "$T/d.img" "$T/a.fit" >"$T/upd.out" 2>&1
	is "the host refuses the older FIT" 1 $?
	contains "for its rollback index" "$T/upd.out" "rollback index 1 < counter 2 for 'kernel'"
	ok "a refused update leaves the disk" cmp "$T/d.img" "$T/saved.img"
	# Slot B's kernel damaged on the disk after the OS confirmed it again: the
	# confirmation finds a chain that no longer verifies, and slot A's older FIT
	# is no fallback any more.
	"$VFIT" disk mark-good "$T/d.img" >/dev/null 2>&1
	is "mark-good asked again" 0 $?
	b_at=$(( (1 + 48) * 1048576 + 4096 ))
	flip "$T/d.img" $((b_at + 1048576))
	boot no-rollback $arch "$T/d.img" 0 recovery \
		"^mark-good: refused, chain no longer verifies: slot B$" \
		"^slot A stage 1: rollback index 1 < counter 2 for 'kernel'$" \
		"^slot B stage 1: bad hash value at /images/kernel/hash-1 value \(configuration 'conf-1'\)$"
	lacks "$arch: slot A's older FIT never ran" "$T/no-rollback.log" "initramfs slot-a"
	lacks "$arch: no counter moves for a chain that no longer verifies" "$T/no-rollback.log" \
		"^   Rollback counter "
	rm -f "$T"/*.img
done
finish
