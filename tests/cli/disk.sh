#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit disk: a real GPT (sgdisk -v accepts it, sgdisk -p lists the five
# partitions), chains written byte for byte where the header says, rollback
# counters in two checksummed copies (one torn copy is survived, two fail
# closed), and every refused command leaves the image unchanged.
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
finish
