#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit disk: a real GPT (sgdisk -v accepts it, sgdisk -p lists the five
# partitions), chains written byte for byte where the header says, rollback
# counters in two checksummed copies (one torn copy is survived, two fail
# closed), and every refused command leaves the image unchanged.  update
# installs a chain by the boot flow's rules (vfit_boot_update over the
# disk: position, verification with the ROM keys, rollback against the
# disk's counters, the trial) and mark-good only asks; the device side of
# both is tests/qemu/flow.sh.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 2

# FDT-shaped payloads of about N bytes (dtc pads them).
fdt() { printf '/dts-v1/;\n/ { description = "%s"; };\n' "$1" | dtc -I dts -O dtb -p "$2" -o "$1.fit"; }
fdt one 3000
fdt two 70000
fdt big 3000000
random junk.bin 5000

status 0 "create" "$VFIT" disk create --slot-size 2M --recovery-size 1M d.img
is "size: 1 MiB head + 2+2+1+1+1 MiB + 1 MiB tail" 9437184 "$(wc -c <d.img)"
if command -v sgdisk >/dev/null 2>&1; then
	sgdisk -v d.img >sg.out 2>&1
	contains "sgdisk -v finds no problem" sg.out '^No problems found'
	sgdisk -p d.img >sg.out 2>&1
	for n in vfit-a vfit-b vfit-recovery vfit-state vfit-counters; do
		contains "sgdisk lists $n" sg.out " $n\$"
	done
else
	skip tool "sgdisk not installed (gdisk, scripts/deps): disk layout not checked by it"
fi
status 0 "info of a fresh disk" "$VFIT" disk info d.img
"$VFIT" disk info d.img >info.out
contains "fresh chains are empty" info.out '^  chain: 0 FITs$'
contains "fresh state" info.out '^state: never written'
contains "fresh counters" info.out '^counters: 0 '

status 0 "write a chain of two" "$VFIT" disk write d.img a one.fit two.fit
"$VFIT" disk info d.img >info.out
contains "chain listed" info.out "^  chain: 2 FITs: $(wc -c <one.fit) bytes at \+4096, $(wc -c <two.fit) bytes at \+8192\$"
# vfit-a starts at 1 MiB: the FITs are where the header says.
dd if=d.img of=back.fit bs=1 skip=$((1048576 + 8192)) count="$(wc -c <two.fit)" 2>/dev/null
ok "second FIT read back" cmp back.fit two.fit
status 0 "write recovery" "$VFIT" disk write d.img recovery one.fit
status 0 "empty slot b" "$VFIT" disk write d.img b

cp d.img saved.img
status 1 "not a FIT" "$VFIT" disk write d.img a junk.bin
ok "refused write left the disk unchanged" cmp d.img saved.img
status 1 "too big for the slot" "$VFIT" disk write d.img b big.fit
"$VFIT" disk write d.img b big.fit 2>err.out
contains "size named" err.out 'big.fit does not fit the 2097152-byte partition'
ok "still unchanged" cmp d.img saved.img
status 2 "unknown chain" "$VFIT" disk write d.img c one.fit
status 2 "five FITs" "$VFIT" disk write d.img a one.fit one.fit one.fit one.fit one.fit
status 2 "missing FIT file" "$VFIT" disk write d.img a nope.fit
status 2 "missing disk" "$VFIT" disk info nope.img
status 2 "usage" "$VFIT" disk
status 2 "bad size" "$VFIT" disk create --slot-size 12Q x.img
status 2 "bad counter value" "$VFIT" disk counter d.img kernel -1
ok "unchanged after usage errors" cmp d.img saved.img
[ ! -e x.img ] && pass || fail "a refused create left x.img"
ls d.img.* >/dev/null 2>&1 && fail "temporary files left behind" || pass

status 0 "set a counter" "$VFIT" disk counter d.img kernel 7
status 0 "set another" "$VFIT" disk counter d.img bootloader 0x10
status 0 "raise the first" "$VFIT" disk counter d.img kernel 9
"$VFIT" disk info d.img >info.out
contains "kernel counter" info.out '^  kernel = 9$'
contains "bootloader counter" info.out '^  bootloader = 16$'
contains "two counters, newest copy" info.out '^counters: 2 \(copy 1, seq 4\)$'
status 1 "bad counter name" "$VFIT" disk counter d.img 'a/b' 1

# vfit-counters is the fifth partition: 1 MiB + 2 + 2 + 1 + 1 MiB in.
ctr=$((7 * 1048576))
cp d.img torn.img
printf 'X' | dd of=torn.img bs=1 seek=$((ctr + 4096 + 100)) conv=notrunc 2>/dev/null
"$VFIT" disk info torn.img >info.out 2>&1
contains "a torn newest copy: the older one is used" info.out '^  kernel = 7$'
printf 'X' | dd of=torn.img bs=1 seek=$((ctr + 100)) conv=notrunc 2>/dev/null
status 1 "both copies corrupt: info fails closed" "$VFIT" disk info torn.img
"$VFIT" disk info torn.img >/dev/null 2>err.out
contains "names the partition" err.out 'vfit-counters: no valid copy \(corrupt\)'
status 1 "counter update on a corrupt store" "$VFIT" disk counter torn.img kernel 10

# The primary GPT header broken: the backup at the end still finds the partitions.
cp d.img gpt.img
printf 'X' | dd of=gpt.img bs=1 seek=520 conv=notrunc 2>/dev/null
status 0 "backup GPT used" "$VFIT" disk info gpt.img
dd if=/dev/zero of=gpt.img bs=512 seek=$(( $(wc -c <gpt.img) / 512 - 1 )) count=1 conv=notrunc 2>/dev/null
status 1 "both GPT headers broken" "$VFIT" disk info gpt.img

# ---- update and mark-good ----------------------------------------------------
. "$ROOT/tests/cli/boot_lib/device.sh"
boot_keys || { fail "keygen"; finish; exit 1; }
recovery_fit "$W/recovery.fit" "$W/rom.dtb" && kernel_fit "$W/kernel.fit" kernel "$W/bl.dtb" INDEX=1 &&
	bl_fit "$W/bl.fit" rom "$W/rom.dtb" "$W/bl.dtb" &&
	kernel_fit "$W/kernel-v2.fit" kernel "$W/bl.dtb" INDEX=2 &&
	kernel_fit "$W/other.fit" kernel2 "$W/other.dtb" INDEX=3 && pass || fail "FITs"
"$VFIT" disk create --slot-size 2M --recovery-size 1M u.img &&
	"$VFIT" disk write u.img a "$W/bl.fit" "$W/kernel.fit" &&
	"$VFIT" disk write u.img recovery "$W/recovery.fit" && pass || fail "disk for updates"
"$VFIT" disk info u.img >info.out
contains "a fresh disk has an empty confirmation" info.out '^confirmation: none$'
status 1 "mark-good before any boot" "$VFIT" disk mark-good u.img
contains "says why" "$T/.out" "mark-good: nothing booted yet"

cp u.img saved.img
status 0 "update the kernel stage" "$VFIT" disk update --rom "$W/rom.dtb" u.img "$W/kernel-v2.fit"
cp "$T/.out" upd.out
contains "position: stage 2" upd.out '^update: the new FIT replaces stage 2 of slot A$'
contains "verified with the bootloader's keys" upd.out \
	"^   Trusting key 'key-kernel' .* from fdt 'fdt-1' verified in stage 1$"
contains "written and read back" upd.out '^## Checking FIT Image at [0-9a-f]+ \(slot B, stage 2\)$'
contains "offered for a trial" upd.out \
	'^update: slot B will be tried next \(3 attempts\); slot A stays as the fallback$'
"$VFIT" disk info u.img >info.out
contains "slot B on trial" info.out '^  slot A good, slot B trying \(3 attempts left\); slot B first'
contains "slot B: stage 1 copied, stage 2 new" info.out \
	"^  chain: 2 FITs: $(wc -c <"$W/bl.fit") bytes at \+4096, $(wc -c <"$W/kernel-v2.fit") bytes at "
off=$(sed -n '/^vfit-b/{n;s/.*, [0-9]* bytes at +\([0-9]*\)$/\1/p}' info.out)
dd if=u.img of=back.fit bs=4096 skip=$(( (3 * 1048576 + off) / 4096 )) \
	count=$(( ($(wc -c <"$W/kernel-v2.fit") + 4095) / 4096 )) 2>/dev/null
head -c "$(wc -c <"$W/kernel-v2.fit")" back.fit >back2.fit
ok "slot B's stage 2 is the new FIT" cmp back2.fit "$W/kernel-v2.fit"
dd if=u.img of=a.now bs=1M skip=1 count=2 2>/dev/null
dd if=saved.img of=a.before bs=1M skip=1 count=2 2>/dev/null
ok "slot A untouched" cmp a.now a.before

cp u.img saved.img
status 1 "no update while the new slot is on trial" "$VFIT" disk update --rom "$W/rom.dtb" u.img \
	"$W/kernel-v2.fit"
contains "says why" "$T/.out" "update: refused: slot B is not confirmed good"
ok "a refused update leaves the disk" cmp u.img saved.img

"$VFIT" disk create --slot-size 2M --recovery-size 1M v.img && "$VFIT" disk write v.img a \
	"$W/bl.fit" "$W/kernel.fit" && cp v.img saved.img && pass || fail "second disk"
status 1 "a FIT no trusted key signed" "$VFIT" disk update --rom "$W/rom.dtb" v.img "$W/other.fit"
contains "refusal listed" "$T/.out" '^update: refused: the new chain verifies at no stage position:$'
ok "unchanged" cmp v.img saved.img
"$VFIT" disk counter v.img kernel 5 && cp v.img saved.img
status 1 "a rollback index below the disk's counter" "$VFIT" disk update --rom "$W/rom.dtb" \
	v.img "$W/kernel-v2.fit"
contains "rollback named" "$T/.out" "rollback index 2 < counter 5 for 'kernel'"
ok "unchanged" cmp v.img saved.img
state=$((1048576 + 5 * 1048576))
printf 'XX' | dd of=v.img bs=1 seek=$((state + 30)) conv=notrunc 2>/dev/null
printf 'XX' | dd of=v.img bs=1 seek=$((state + 4096 + 30)) conv=notrunc 2>/dev/null
status 1 "a corrupt state partition" "$VFIT" disk update --rom "$W/rom.dtb" v.img "$W/kernel.fit"
contains "named" "$T/.out" 'vfit-state: no valid copy \(corrupt\)'
status 2 "update without --rom" "$VFIT" disk update v.img "$W/kernel.fit"
status 2 "a missing ROM DTB" "$VFIT" disk update --rom nope.dtb v.img "$W/kernel.fit"
status 2 "five FITs" "$VFIT" disk update --rom "$W/rom.dtb" v.img "$W/kernel.fit" "$W/kernel.fit" \
	"$W/kernel.fit" "$W/kernel.fit" "$W/kernel.fit"
ls ./*.img.* >/dev/null 2>&1 && fail "temporary files left behind" || pass
finish
