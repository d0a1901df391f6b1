#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Not a test: how the fuzz_disk seeds were made, for the record (rerun it
# after a change of the disk format; it writes over the committed copies).
# Every seed is cut from a disk that `vfit disk` wrote: create, write a
# chain, set counters, update (which writes the state blob for a trial);
# the confirmation record is the fresh one (a request needs a boot on the
# device).  Selectors are fuzz_disk.c's.
# Usage (after make): tests/fuzz/disk_seeds.sh
. "$(dirname "$0")/../lib.sh"      # $T, $VFIT, random (the FITs' payloads)
. "$ROOT/tests/cli/boot_lib/device.sh"
set -e
OUT=$ROOT/tests/fuzz/corpus/fuzz_disk
MiB=1048576

# seed NAME SELECTOR [FILE...]: the selector byte, then the files; trailing
# zeros trimmed for the fixed-size blocks (selector modulo 8 below 3).
seed() {
	name=$1 sel=$2
	shift 2
	trim='s/\0+\z//'
	[ $((sel % 8)) -lt 3 ] || trim=
	{ printf "\\$(printf %o "$sel")"; cat "$@"; } | perl -0777 -pe "$trim" >"$OUT/$name"
}
take() { # DISK OFFSET COUNT OUT
	dd if="$1" of="$4" bs=512 skip=$(($2 / 512)) count=$(($3 / 512)) 2>/dev/null
}
le64() { # VALUE OUT
	perl -e 'print pack("Q<", $ARGV[0])' "$1" >"$2"
}
# The payload of a record's copy with the higher seq (both are valid here).
payload() { # RECORD OUT
	perl -0777 -ne 'my @c = map { substr($_, 0, 4096) } (substr($_, 0, 4096), substr($_, 4096));
		my @s = map { unpack("V", substr($_, 12, 4)) } @c; my $c = $c[$s[1] > $s[0] ? 1 : 0];
		print substr($c, 24, unpack("V", substr($c, 16, 4)))' "$1" >"$2"
}

boot_keys
recovery_fit "$W/recovery.fit" "$W/rom.dtb"
kernel_fit "$W/kernel.fit" kernel "$W/bl.dtb" INDEX=1
bl_fit "$W/bl.fit" rom "$W/rom.dtb" "$W/bl.dtb"
kernel_fit "$W/kernel-v2.fit" kernel "$W/bl.dtb" INDEX=2
d=$T/d.img
"$VFIT" disk create --slot-size 2M --recovery-size 1M "$d"
mkdir -p "$OUT"
rm -f "$OUT"/*

# The GPT as the device reads it: LBA 1, then the entry array from LBA 2.
le64 $(($(wc -c <"$d") / 512)) "$T/lbas"
take "$d" 512 512 "$T/hdr"
take "$d" 1024 16384 "$T/ents"
seed gpt-fresh 0 "$T/lbas" "$T/hdr" "$T/ents"
# The backup header at the last LBA, read as if it were LBA 1: refused (my_lba).
take "$d" $(($(wc -c <"$d") - 512)) 512 "$T/alt"
seed gpt-backup 0 "$T/lbas" "$T/alt" "$T/ents"

# Partitions (man/vfit-disk.1): a at 1 MiB (2 MiB), b, recovery (1 MiB), state, counters.
"$VFIT" disk write "$d" a "$W/bl.fit" "$W/kernel.fit"
"$VFIT" disk write "$d" recovery "$W/recovery.fit"
le64 $((2 * MiB)) "$T/a-size"
take "$d" $MiB 512 "$T/chain-a"
seed chain-two 1 "$T/chain-a" "$T/a-size"
le64 $MiB "$T/r-size"
take "$d" $((5 * MiB)) 512 "$T/chain-r"
seed chain-one 1 "$T/chain-r" "$T/r-size"
take "$d" $((3 * MiB)) 512 "$T/chain-b"
seed chain-empty 1 "$T/chain-b" "$T/a-size"

take "$d" $((7 * MiB)) 8192 "$T/ctr0"
seed counters-fresh 10 "$T/ctr0"      # 10: record, pick 1 = counters
"$VFIT" disk counter "$d" kernel 1
"$VFIT" disk counter "$d" bootloader 0
"$VFIT" disk counter "$d" kernel 2
take "$d" $((7 * MiB)) 8192 "$T/ctr"
seed counters-two 10 "$T/ctr"
payload "$T/ctr" "$T/ctr-payload"
seed counters-payload 4 "$T/ctr-payload"   # 4: the payload alone

take "$d" $((6 * MiB)) 8192 "$T/state0"
seed state-fresh 2 "$T/state0"        # 2: record, pick 0 = state
"$VFIT" disk update --rom "$W/rom.dtb" "$d" "$W/kernel-v2.fit" >/dev/null
take "$d" $((6 * MiB)) 8192 "$T/state"
seed state-trial 2 "$T/state"
payload "$T/state" "$T/blob"
seed state-blob 3 "$T/blob"           # 3: the blob alone
take "$d" $((6 * MiB + 8192)) 8192 "$T/conf"
seed confirm-none 18 "$T/conf"        # 18: record, pick 2 = confirmation
# A request needs a boot on the device (tests/qemu/flow.sh): its 8 bytes as
# include/vfit/disk.h lays them out, slot B at seq 5.
printf '\001\000\000\000\005\000\000\000' >"$T/req"
seed confirm-request 5 "$T/req"       # 5: a confirmation payload alone
