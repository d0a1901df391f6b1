#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit boot: the chain of trust, A/B fallback, recovery, halt, load-address
# fences, compressed kernels, user keys behind the developer switch, and no
# boot that cannot be recorded.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/boot_lib/device.sh"

boot_keys || { fail "keygen"; finish; exit 1; }
D=$T/dev
ok "build a device" std_device "$D"
out=$T/out

# ---- a good two-stage boot -------------------------------------------------
status 0 "good boot" "$VFIT" boot --device "$D" --dump "$T/ram"
cp "$T/.out" "$out"
contains "ROM keys named" "$out" "Trusting key 'key-rom' \(sha256,rsa2048, required for conf\) from the ROM control DTB"
contains "stage-2 keys from the verified DTB" "$out" "Trusting key 'key-kernel' .* from fdt 'fdt-1' verified in stage 1"
contains "recovery key not trusted for slots" "$out" "^## Trying slot A"
if grep -q "Trusting key 'key-recovery'" "$out"; then fail "recovery key offered for a slot"; else pass; fi
contains "stage 1 signature" "$out" "Verifying Hash Integrity \.\.\. sha256,rsa2048:rom\+ OK"
contains "stage 2 signature" "$out" "Verifying Hash Integrity \.\.\. sha256,rsa2048:kernel\+ OK"
contains "U-Boot-like lines" "$out" "^   Using 'conf-1' configuration"
contains "loading line" "$out" "^## Loading kernel from FIT Image at 88[0-9a-f]{6} \.\.\."
contains "firmware handed over" "$out" "Loading firmware 'firmware-1' to 87000000"
contains "final line" "$out" "^Starting kernel at 80080000, fdt 83000000, ramdisk 84000000 \.\.\.$"
[ "$(tail -n 1 "$out")" = "Starting kernel at 80080000, fdt 83000000, ramdisk 84000000 ..." ] && pass ||
	fail "the last line names the entry point"
ok "kernel bytes in RAM" cmp "$T/ram/kernel.bin" "$W/kernel.fit.kernel.bin"
status 0 "status" "$VFIT" boot --device "$D" status
contains "booted slot recorded" "$T/.out" "^booted: slot A"
status 0 "timings" "$VFIT" boot --device "$D" --timings
contains "timings per stage" "$T/.out" "^  stage 2 +[0-9.]+ +[0-9.]+ +[0-9.]+$"
status 2 "no device" "$VFIT" boot --device "$T/nonexistent"
status 2 "usage" "$VFIT" boot
status 2 "unknown command" "$VFIT" boot --device "$D" frobnicate
# No bypass: there is no option or command that boots without verification.
status 2 "no verify=no" "$VFIT" boot --device "$D" --no-verify

# ---- storage that is not a file: a FIFO in place of a FIT or the state ---------------
# Opening a FIFO for reading would wait for a writer forever: a hang, not a boot.
# (timeout bounds the hang far above a boot's time on a loaded machine.)
rm -rf "$T/fifo" && cp -a "$D" "$T/fifo"
rm "$T/fifo/slot-a/stage2.fit" "$T/fifo/dev-mode" &&
	mkfifo "$T/fifo/slot-a/stage2.fit" "$T/fifo/dev-mode"
status 0 "FIFOs: no hang, slot B boots" timeout 120 "$VFIT" boot --device "$T/fifo"
contains "FIFO is a read error" "$T/.out" "^slot A stage 2: read error"
contains "FIFO switch reads closed" "$T/.out" "^Developer mode: off"
contains "FIFO: slot B" "$T/.out" "^Starting kernel at 80080000"
# A FIFO as the state: read as corrupted, and the boot record cannot be
# written there (the simulator replaces no special file): nothing runs.
rm "$T/fifo/state" && mkfifo "$T/fifo/state"
status 1 "FIFO state: no hang, halted" timeout 120 "$VFIT" boot --device "$T/fifo"
contains "FIFO state not trusted" "$T/.out" "^State: unreadable or corrupted"
contains "FIFO state: the record not written" "$T/.out" "the boot record could not be written"
ok "the state is still a FIFO" test -p "$T/fifo/state"

# ---- tampered kernel in slot A: slot B boots --------------------------------
tamper "$D/slot-a/stage2.fit"
status 0 "slot B after a tampered slot A" "$VFIT" boot --device "$D"
cp "$T/.out" "$out"
contains "reason for slot A" "$out" "^slot A stage 2: bad hash value at /images/"
contains "slot A marked bad" "$out" "Marked bad: slot A"
contains "slot B tried" "$out" "^## Trying slot B"
contains "slot B boots" "$out" "^Starting kernel at 80080000"
status 0 "next boot" "$VFIT" boot --device "$D"
contains "good slot first now" "$T/.out" "^State: slot A bad, slot B good; slot B first"
if grep -q "^## Trying slot A" "$T/.out"; then fail "bad slot tried again"; else pass; fi

# ---- both slots bad: recovery -----------------------------------------------
tamper "$D/slot-b/stage1.fit"
status 1 "recovery" "$VFIT" boot --device "$D"
cp "$T/.out" "$out"
contains "stage 1 of slot B refused" "$out" "^slot B stage 1: bad hash value"
contains "recovery key used" "$out" "Trusting recovery key 'key-recovery'"
contains "recovery verified" "$out" "sha256,rsa2048:recovery\+ OK"
contains "recovery started" "$out" "^Starting RECOVERY kernel at 80080000"
contains "says recovery" "$out" "booted RECOVERY: no slot verified"

# ---- nothing valid: halt with every reason ------------------------------------
tamper "$D/recovery.fit"
status 1 "halt" "$VFIT" boot --device "$D"
cp "$T/.out" "$out"
contains "halt line" "$out" "^## Halting: nothing verified"
contains "reason A" "$out" "^   - slot A: marked bad"
contains "reason B" "$out" "^   - slot B: marked bad"
contains "reason recovery" "$out" "^   - recovery: bad hash value"
contains "says halted" "$out" "halted: nothing verified"

# ---- a FIT signed by a key the ROM does not have --------------------------------
D2=$T/dev2
ok "device 2" std_device "$D2"
kernel_fit "$W/other.fit" kernel2 "$W/other.dtb"
bl_fit "$W/bl-other.fit" kernel2 "$W/rom-other.dtb" "$W/bl.dtb"
cp "$W/bl-other.fit" "$D2/slot-a/stage1.fit"
cp "$W/bl-other.fit" "$D2/slot-b/stage1.fit"
status 1 "foreign bootloader refused" "$VFIT" boot --device "$D2"
contains "required key named" "$T/.out" "slot A stage 1: .*(required|signature)"
contains "fell back to recovery" "$T/.out" "^Starting RECOVERY kernel"

# ---- a chain signed by U-Boot's own mkimage boots the same way ----------------------
DM=$T/dev-uboot
MKIMAGE=mkimage
ok "device signed by U-Boot's mkimage" std_device "$DM" INDEX=3 COMP=gzip
MKIMAGE="$VFIT mkimage"
status 0 "U-Boot-signed chain boots" "$VFIT" boot --device "$DM" --dump "$T/ram-uboot"
contains "U-Boot-signed: index" "$T/.out" "Rollback index 3 >= counter 0 for 'kernel' OK"
ok "U-Boot-signed: kernel bytes" cmp "$T/ram-uboot/kernel.bin" "$W/kernel.fit.kernel.bin"

# ---- longer chains: ROM -> stage 1 -> stage 2 -> kernel; five stages are too many ----
D3=$T/dev3
rm -f "$W/rom3.dtb" "$W/mid.dtb" "$W/bl3.dtb"
kernel_fit "$W/k3.fit" kernel "$W/bl3.dtb"
bl_fit "$W/mid.fit" kernel2 "$W/mid.dtb" "$W/bl3.dtb" FWLOAD=0x86000000
bl_fit "$W/first.fit" rom "$W/rom3.dtb" "$W/mid.dtb"
status 2 "init with an unreadable input" "$VFIT" boot --device "$D3" init --rom "$W/rom3.dtb" \
	--recovery "$W/nosuch.fit" "$W/first.fit" "$W/mid.fit" "$W/k3.fit"
printf 'not a device tree' > "$T/junk.bin"
status 1 "init with a ROM that is no control DTB" "$VFIT" boot --device "$D3" init --rom "$T/junk.bin" \
	"$W/first.fit"
contains "the ROM named" "$T/.out" "^vfit: boot: $T/junk.bin: not a control DTB: "
ok "nothing made" test ! -e "$D3"
mkdir "$T/plain"
status 2 "dev-mode on a directory that is no device" "$VFIT" boot --device "$T/plain" dev-mode open
ok "nothing written there" test ! -e "$T/plain/dev-mode"
ok "three-stage device (init again after the failure)" "$VFIT" boot --device "$D3" init --rom "$W/rom3.dtb" \
	"$W/first.fit" "$W/mid.fit" "$W/k3.fit"
status 0 "three-stage boot" "$VFIT" boot --device "$D3"
contains "stage 2 keys" "$T/.out" "Trusting key 'key-kernel2' .* from fdt 'fdt-1' verified in stage 1"
contains "stage 3 keys" "$T/.out" "Trusting key 'key-kernel' .* from fdt 'fdt-1' verified in stage 2"
contains "stage 3 checked" "$T/.out" "\(slot A, stage 3\)"
contains "middle stage counter" "$T/.out" "Rollback index 0 >= counter 0 for 'stage2' OK"
contains "three-stage kernel" "$T/.out" "^Starting kernel at 80080000"
D5=$T/dev5
rm -f "$W/m1.dtb" "$W/m2.dtb"
bl_fit "$W/m2.fit" kernel2 "$W/m2.dtb" "$W/mid.dtb" FWLOAD=0x85000000
bl_fit "$W/m1.fit" kernel "$W/m1.dtb" "$W/m2.dtb" FWLOAD=0x84800000
bl_fit "$W/first5.fit" rom "$W/rom5.dtb" "$W/m1.dtb"
ok "five-stage device" "$VFIT" boot --device "$D5" init --rom "$W/rom5.dtb" \
	"$W/first5.fit" "$W/m1.fit" "$W/m2.fit" "$W/mid.fit"
status 1 "no kernel within 4 stages" "$VFIT" boot --device "$D5"
contains "chain too long" "$T/.out" "slot A: no kernel within 4 stages"

# ---- load-address fences (CVE-2018-18439/18440) ----------------------------------
fence() { # name regex kernel_fit-options...
	name=$1 re=$2
	shift 2
	dd=$T/fence-$name
	ok "device $name" std_device "$dd" "$@"
	status 1 "$name refused" "$VFIT" boot --device "$dd"
	contains "$name reason" "$T/.out" "$re"
	contains "$name: nothing but recovery" "$T/.out" "^Starting RECOVERY kernel"
}
fence overlap "slot A stage 2: fdt \[80080100\.\.[0-9a-f]+\) overlaps kernel \[80080000\.\." FDTLOAD=0x80080100
fence loader "kernel \[8fe00000\.\.[0-9a-f]+\) overlaps loader \[8fe00000\.\.90000000\)" KLOAD=0x8fe00000
fence fit "ramdisk \[88000800\.\.[0-9a-f]+\) overlaps FIT staging area \[88000000\.\.8fe00000\)" RDLOAD=0x88000800
# The free end of the staging area is fenced too: a later stage's FIT is read there.
fence staging "ramdisk \[8f000000\.\.[0-9a-f]+\) overlaps FIT staging area \[88000000\.\." RDLOAD=0x8f000000
fence firmware "kernel \[87000000\.\.[0-9a-f]+\) overlaps firmware \[87000000\.\." KLOAD=0x87000000
fence outside "kernel \[70000000\.\.[0-9a-f]+\) is outside RAM" KLOAD=0x70000000
fence wrap "fdt \[fffffff0\.\.[0-9a-f]+\) is outside RAM" FDTLOAD=0xfffffff0

# ---- gzip and lz4 kernels -------------------------------------------------------
for comp in gzip lz4; do
	dc=$T/dev-$comp
	ok "$comp device" std_device "$dc" COMP=$comp KSIZE=300000
	status 0 "$comp boot" "$VFIT" boot --device "$dc" --dump "$T/ram-$comp"
	contains "$comp announced" "$T/.out" "Loading kernel 'kernel' to 80080000 \($comp\)"
	ok "$comp kernel decompressed exactly" cmp "$T/ram-$comp/kernel.bin" "$W/kernel.fit.kernel.bin"
done
# A compression lib/decomp does not read is refused by name, never tried as another one.
dc=$T/dev-lzma
ok "lzma device" std_device "$dc" COMP=lzma KSIZE=3000
status 1 "lzma kernel refused" "$VFIT" boot --device "$dc"
contains "lzma named" "$T/.out" "kernel 'kernel': compression 'lzma' is not supported for this image"
# A compressed kernel that does not fit below the next reserved range.
dc=$T/dev-tight
ok "tight device" std_device "$dc" COMP=gzip KSIZE=300000 KLOAD=0x86ff0000
status 1 "no room to decompress" "$VFIT" boot --device "$dc"
contains "room reason" "$T/.out" "gzip data does not decompress into the 64 KiB free"

# ---- user keys behind the developer-mode switch ------------------------------------
DU=$T/dev-user
ok "user device" std_device "$DU"
rm -f "$W/user.dtb"
kernel_fit "$W/user-kernel.fit" user "$W/user.dtb"
mkdir -p "$DU/sdcard"
cp "$W/user.dtb" "$DU/sdcard/keys.dtb"
cp "$W/user-kernel.fit" "$DU/slot-a/stage2.fit"
cp "$W/user-kernel.fit" "$DU/slot-b/stage2.fit"
cp -a "$DU" "$DU.pristine"
status 1 "switch closed: user-signed kernel refused" "$VFIT" boot --device "$DU"
contains "closed switch says so" "$T/.out" "^Developer mode: off \(user key store ignored\)"
if grep -Eq "USER key|Also trusting user key" "$T/.out"; then fail "user keys consulted while closed"; else pass; fi
contains "closed: recovery" "$T/.out" "^Starting RECOVERY kernel"
rm -rf "$DU" && cp -a "$DU.pristine" "$DU"
ok "open the switch" "$VFIT" boot --device "$DU" dev-mode open
status 0 "switch open: user-signed kernel boots" "$VFIT" boot --device "$DU"
cp "$T/.out" "$out"
contains "open switch says so" "$out" "^Developer mode: ON -- user-installed keys are trusted in addition to the built-in keys"
contains "user key listed" "$out" "Also trusting user key 'key-user' .* from the user key store \(developer mode\)"
contains "built-in keys still listed" "$out" "Trusting key 'key-kernel'"
contains "accepted by the user key" "$out" "Accepted with a USER key \(developer mode\)"
contains "user signature line" "$out" "sha256,rsa2048:user\+ OK"
contains "open: kernel starts" "$out" "^Starting kernel at 80080000"
# Built-in signatures keep working with the switch open.
cp "$W/kernel.fit" "$DU/slot-a/stage2.fit"
status 0 "open: vendor kernel boots too" "$VFIT" boot --device "$DU"
if grep -q "USER key" "$T/.out"; then fail "vendor kernel attributed to the user key"; else pass; fi
# A user-signed bootloader at stage 1, although the ROM key is required.
bl_fit "$W/user-bl.fit" user "$W/user-rom-scratch.dtb" "$W/bl.dtb"
cp "$W/user-bl.fit" "$DU/slot-a/stage1.fit"
status 0 "open: user-signed bootloader boots" "$VFIT" boot --device "$DU"
contains "stage 1 by user key" "$T/.out" "sha256,rsa2048:user\+ OK"
contains "stage 2 keys came via a user-verified DTB" "$T/.out" "verified in stage 1 \(by a user key\)"
# Recovery never trusts user keys, whatever the switch says.
rm -rf "$T/dev-user-rec" && cp -a "$DU.pristine" "$T/dev-user-rec"
kernel_fit "$W/user-recovery.fit" user "$W/user-rec-scratch.dtb" DESC=recovery
cp "$W/user-recovery.fit" "$T/dev-user-rec/recovery.fit"
tamper "$T/dev-user-rec/slot-a/stage1.fit"
tamper "$T/dev-user-rec/slot-b/stage1.fit"
ok "open (recovery device)" "$VFIT" boot --device "$T/dev-user-rec" dev-mode open
status 1 "user-signed recovery refused" "$VFIT" boot --device "$T/dev-user-rec"
contains "halted, not recovered" "$T/.out" "^## Halting: nothing verified"
# A user key store whose keys are not marked required cannot admit an unsigned kernel.
rm -rf "$T/dev-nosig" && cp -a "$DU.pristine" "$T/dev-nosig"
rm -f "$W/user-optional.dtb"
kernel_fit "$W/user-optional.fit" user "$W/user-optional.dtb" REQ=
kernel_fit "$W/unsigned.fit" kernel "$W/unsigned-scratch.dtb" NOSIG=1
cp "$W/user-optional.dtb" "$T/dev-nosig/sdcard/keys.dtb"
cp "$W/unsigned.fit" "$T/dev-nosig/slot-a/stage2.fit"
cp "$W/unsigned.fit" "$T/dev-nosig/slot-b/stage2.fit"
ok "open (unsigned device)" "$VFIT" boot --device "$T/dev-nosig" dev-mode open
status 1 "unsigned kernel refused with the switch open" "$VFIT" boot --device "$T/dev-nosig"
contains "unsigned: user path refused too" "$T/.out" "slot A stage 2: .*; user keys: "
contains "unsigned: recovery" "$T/.out" "^Starting RECOVERY kernel"
cp "$W/kernel.fit" "$DU/slot-b/stage2.fit"
ok "close the switch" "$VFIT" boot --device "$DU" dev-mode closed
status 0 "closed again: falls back to slot B" "$VFIT" boot --device "$DU"
contains "closed: slot A refused" "$T/.out" "^slot A stage 1: "

# ---- a boot record that cannot be written ----------------------------------------
# Nothing runs, for a good slot as for a trial (DIR/state a directory: no write of it lands).
ok "device whose state cannot be written" std_device "$T/norec"
mkdir "$T/norec/state"
status 1 "a boot record that cannot be written halts" "$VFIT" boot --device "$T/norec"
contains "said so" "$T/.out" "^vfit: boot: halted: the boot record could not be written$"
if grep -q "^Starting" "$T/.out"; then fail "a kernel started unrecorded"; else pass; fi
finish
