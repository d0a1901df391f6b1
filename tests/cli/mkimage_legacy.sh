#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Legacy images and boot scripts (mkimage without -f): header fields, the
# multi-file layout, -x, -s, -l, -T list, and every refusal with its exit
# status.  Byte-for-byte equality with Debian's mkimage is checked in
# tests/interop/mkimage_buildsys.sh; here the expected bytes are written out.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000 TZ=UTC
MK=$BUILD/mkimage

be32() { od -An -tu4 --endian=big -j "$2" -N4 "$1" | tr -d ' '; }
byte() { od -An -tu1 -j "$2" -N1 "$1" | tr -d ' '; }
# CRC-32 of stdin, from the gzip trailer (no other tool needed).
crc32() { gzip -c | tail -c 8 | od -An -tu4 --endian=little -N4 | tr -d ' '; }
crc() { tail -c +$(($2 + 1)) "$1" | head -c $(($3 - $2)) | crc32; }
hcrc() { { head -c 4 "$1"; printf '\0\0\0\0'; tail -c +9 "$1" | head -c 56; } | crc32; }

printf 'echo hello\n' > boot.cmd
printf 'abcde' > a1
printf '0123456789' > a2
printf 'xyz' > a3

# Buildroot's boot script: -C none -A arm64 -T script, no -O.
ok "script" "$MK" -q -C none -A arm64 -T script -d boot.cmd boot.scr
is "script: magic" 654645590 "$(be32 boot.scr 0)"
is "script: time = SOURCE_DATE_EPOCH" 1700000000 "$(be32 boot.scr 8)"
is "script: size = table + data" 19 "$(be32 boot.scr 12)"
is "script: os linux, arch arm64, type script, comp none" "5 22 6 0" \
	"$(byte boot.scr 28) $(byte boot.scr 29) $(byte boot.scr 30) $(byte boot.scr 31)"
is "script: table" "11 0" "$(be32 boot.scr 64) $(be32 boot.scr 68)"
is "script: data CRC" "$(crc boot.scr 64 83)" "$(be32 boot.scr 24)"
is "script: header CRC" "$(hcrc boot.scr)" "$(be32 boot.scr 4)"
is "script: file size" 83 "$(wc -c < boot.scr)"

# A multi-file image: sizes, zero word, files padded to 4 but the last.
ok "multi" "$MK" -q -A arm -O linux -T multi -C gzip -a 8000 -e 8004 -n multi -d a1:a2:a3 m.img
is "multi: table" "5 10 3 0" "$(be32 m.img 64) $(be32 m.img 68) $(be32 m.img 72) $(be32 m.img 76)"
is "multi: layout" "abcde___0123456789__xyz" "$(tail -c +81 m.img | tr '\0' _)"
is "multi: load, entry" "32768 32772" "$(be32 m.img 16) $(be32 m.img 20)"
is "multi: comp gzip" 1 "$(byte m.img 31)"
"$MK" -l m.img > m.l
cat > m.want <<'EOF'
Image Name:   multi
Created:      Tue Nov 14 22:13:20 2023
Image Type:   ARM Linux Multi-File Image (gzip compressed)
Data Size:    39 Bytes = 0.04 KiB = 0.00 MiB
Load Address: 00008000
Entry Point:  00008004
Contents:
   Image 0: 5 Bytes = 0.00 KiB = 0.00 MiB
   Image 1: 10 Bytes = 0.01 KiB = 0.00 MiB
   Image 2: 3 Bytes = 0.00 KiB = 0.00 MiB
EOF
ok "multi: -l as mkimage" cmp m.want m.l
ok "script of two files" "$MK" -q -T script -d a1:a2 s2.scr
"$MK" -l s2.scr > s2.l
contains "script: file offset of the second file" s2.l "^    Offset = 0x00000054$"
contains "defaults: PowerPC Linux, gzip" s2.l "^Image Type:   PowerPC Linux Script \(gzip compressed\)$"

# Kernel uImage: entry defaults to load; -n keeps 32 bytes, unterminated.
ok "uImage" "$MK" -q -A arm -O linux -T kernel -C none -a 0x80008000 \
	-n 0123456789abcdef0123456789ABCDEFxyz -d a2 k.img
is "uImage: entry = load" "2147516416 2147516416" "$(be32 k.img 16) $(be32 k.img 20)"
is "uImage: name is 32 bytes" "0123456789abcdef0123456789ABCDEF0123456789" "$(tail -c +33 k.img | head -c 42)"
"$MK" -l k.img > k.l
contains "uImage: -l name" k.l "^Image Name:   0123456789abcdef0123456789ABCDEF$"
for c in none gzip bzip2 lzma lzo lz4 zstd; do
	ok "-C $c" "$MK" -q -A arm64 -T kernel -C "$c" -d a1 c.img
	"$MK" -l c.img > c.l
	contains "-C $c listed" c.l "^Image Type:   AArch64 Linux Kernel Image \((uncompressed|$c compressed)\)$"
done
for t in ramdisk firmware standalone filesystem kernel_noload; do
	ok "-T $t" "$MK" -q -A riscv -O u-boot -T "$t" -C none -d a1 t.img
done

# -x: the file starts with 64 bytes of 0xff that the header replaces.
{ head -c 64 /dev/zero | tr '\0' '\377'; printf 'payload'; } > xip.bin
ok "xip" "$MK" -q -A arm -T kernel -C none -a 1000 -x -d xip.bin x.img
is "xip: entry after the header" "4096 4160" "$(be32 x.img 16) $(be32 x.img 20)"
is "xip: data without the 0xff block" payload "$(tail -c +65 x.img)"
fails() { # STATUS NAME REGEX CMD...
	want=$1 name=$2 re=$3
	shift 3
	status "$want" "$name" "$@"
	contains "$name: message" "$T/.out" "$re"
	status 0 "$name: one line" test "$(wc -l < "$T/.out")" = 1
}
fails 1 "xip: not 0xff" "a2: too small for XIP" "$MK" -q -T kernel -x -d a2 x2.img
cp a2 big.bin; head -c 100 /dev/zero >> big.bin
fails 1 "xip: first block not erased" "big.bin: XIP needs the first 64 bytes erased" \
	"$MK" -q -T kernel -x -d big.bin x2.img
fails 2 "xip with multi" "-x: XIP is for single-file images" "$MK" -q -T multi -x -d a1:a2 x2.img
# -s: the header alone.
ok "-s" "$MK" -q -A arm -T kernel -C none -s -d a2 s.img
is "-s: header only" "64 0" "$(wc -c < s.img) $(be32 s.img 12)"

# Refusals: one line, the contract's status, nothing written.
fails 2 "SoC type" "^vfit: image type 'imximage' \(Freescale i.MX Boot Image\) is a SoC boot image: vfit does not build it" \
	"$MK" -T imximage -d a1 soc.img
fails 2 "FIT-only type" "^vfit: image type 'tee' .* cannot be a legacy image: put it in a FIT" \
	"$MK" -T tee -d a1 soc.img
fails 2 "flat_dt" "image type 'flat_dt' .* cannot be a legacy image" "$MK" -T flat_dt -d a1 soc.img
fails 2 "no -d" "a legacy 'script' image needs -d FILE" "$MK" -T script soc.img
fails 2 "missing file" "^vfit: nosuch: No such file or directory" "$MK" -T kernel -d nosuch soc.img
: > empty.bin
fails 1 "empty file" "^vfit: empty.bin: empty file" "$MK" -T kernel -d empty.bin soc.img
fails 2 "missing file in a list" "^vfit: nosuch: No such" "$MK" -T multi -d a1:nosuch soc.img
status 1 "nothing written" test -e soc.img
status 2 "unknown arch" "$MK" -A bogus -T kernel -d a1 soc.img
contains "unknown arch: the table" "$T/.out" "^	arm64            AArch64$"
contains "unknown arch: the line" "$T/.out" "^vfit: mkimage: unknown architecture 'bogus'$"
status 2 "bad hex" "$MK" -a 0x1g -T kernel -d a1 soc.img
cp k.img ro.img
chmod 444 ro.img
fails 2 "read-only output" "ro.img: read-only file \(mode 0444\), not replaced" "$MK" -T kernel -d a1 ro.img
ok "read-only output untouched" cmp k.img ro.img
status 0 "a FIT option in legacy mode: built" "$MK" -q -k keys -T kernel -d a1 w.img
contains "... with a warning" "$T/.out" "^vfit: mkimage: warning: -k not used for a legacy image"

# -T/-A/-O/-C list: mkimage's tables on stderr, exit 0.
status 0 "-T list" "$MK" -T list
contains "-T list: heading" "$T/.out" "^Invalid image type, supported are:$"
contains "-T list: format" "$T/.out" "^	kernel_noload    Kernel Image \(no loading done\)$"
contains "-T list: HEAD's types too" "$T/.out" "^	tfa-bl31         TFA BL31 Image$"
status 0 "-O list" "$MK" -O list
contains "-O list" "$T/.out" "^	arm-trusted-firmware  ARM Trusted Firmware$"
status 0 "-C list" "$MK" -C list
status 0 "-A list" "$MK" -A list
cp "$T/.out" a.list
contains "-A list: powerpc" a.list "^	powerpc          PowerPC$"
status 1 "-A list: no alias" grep -q "ppc " a.list

# -l on damaged images: exit 1 and what is wrong.
cp k.img bad.img
printf 'X' | dd of=bad.img bs=1 seek=40 conv=notrunc 2>/dev/null
fails 1 "-l: header CRC" "bad.img: legacy image header CRC mismatch" "$MK" -l bad.img
cp k.img bad.img
printf 'X' | dd of=bad.img bs=1 seek=70 conv=notrunc 2>/dev/null
fails 1 "-l: data CRC" "bad.img: legacy image data CRC mismatch" "$MK" -l bad.img
head -c 70 k.img > cut.img
fails 1 "-l: truncated" "cut.img: legacy image truncated" "$MK" -l cut.img
fails 1 "-l: neither FIT nor legacy" "a1: not a FIT or legacy image" "$MK" -l a1
status 0 "-l -q: checks, prints nothing" "$MK" -l -q k.img
cp "$T/.out" q.out
status 0 "-l -q: silent" test ! -s q.out
status 1 "-l -q: still checks" "$MK" -l -q bad.img
ok "vfit info lists legacy images" "$VFIT" info k.img
contains "info: same listing" "$T/.out" "^Image Type:   ARM Linux Kernel Image \(uncompressed\)$"
finish
