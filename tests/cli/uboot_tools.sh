#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit as dumpimage, mkenvimage, fit_check_sign and fit_info on its own:
# the names it answers to (and the one line for a name it does not),
# hostile images that dumpimage would read out of bounds (every offset and
# size checked: one line, exit 1, no output), and the deliberate
# differences the README lists.  The side-by-side comparisons with U-Boot's
# tools are tests/interop/uboot_tools.sh.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000
mkdir bin
for n in mkimage dumpimage mkenvimage fit_check_sign fit_info uboot-mkimage \
	aarch64-linux-gnu-dumpimage uboot-fit_check_sign kwboot; do
	ln -s "$VFIT" "bin/$n"
done
B=$T/bin

# fails STATUS NAME REGEX CMD...: CMD exits STATUS, its first stderr line
# matches REGEX, it prints one line only, and leaves no file "out".
fails() {
	_s=$1 _n=$2 _re=$3
	shift 3
	rm -f out
	"$@" >/dev/null 2>err
	_got=$?
	if [ "$_got" = "$_s" ] && head -n 1 err | grep -Eq -- "$_re" && [ ! -e out ] &&
		{ [ "$_s" = 2 ] || [ "$(wc -l <err)" = 1 ]; }; then
		pass
	else
		fail "$_n (exit $_got, want $_s; /$_re/; out left: $([ -e out ] && echo yes || echo no))"
		sed 's/^/    /' err | head -n 3
	fi
}

# crc32 FILE: the CRC-32 of FILE as 8 hex digits (gzip's trailer holds it).
crc32() { gzip -c <"$1" | tail -c 8 | head -c 4 | od -An -tx4 | tr -d ' \n'; }
# be32 HEX: 4 bytes, big-endian.
be32() {
	for _b in $(printf '%s' "$1" | sed 's/\(..\)/\1 /g'); do
		# shellcheck disable=SC2059
		printf "\\$(printf %03o "0x$_b")"
	done
}
# multi NAME DATA: a legacy image of type multi (4) around DATA with both
# CRCs right, whatever DATA's size table says: built as a kernel image,
# then its type byte changed and its header CRC made again.
multi() {
	"$B/mkimage" -A arm -O linux -T kernel -C none -n hostile -d "$2" "$1" >/dev/null || exit 2
	printf '\004' | dd of="$1" bs=1 seek=30 conv=notrunc 2>/dev/null
	head -c 64 "$1" >hdr
	printf '\0\0\0\0' | dd of=hdr bs=1 seek=4 conv=notrunc 2>/dev/null
	be32 "$(crc32 hdr)" | dd of="$1" bs=1 seek=4 conv=notrunc 2>/dev/null
}

# ---- names --------------------------------------------------------------
"$B/mkimage" -V >v.txt
contains "mkimage -V: a line scripts match, naming vfit" v.txt '^mkimage version vfit [0-9]+\.'
"$B/uboot-mkimage" -V >v.txt
contains "uboot-mkimage -V" v.txt '^mkimage version vfit '
"$B/aarch64-linux-gnu-dumpimage" -V >v.txt
contains "prefixed dumpimage -V" v.txt '^dumpimage version vfit '
"$B/mkenvimage" -V >v.txt
contains "mkenvimage -V" v.txt '^mkenvimage version vfit '
"$VFIT" dumpimage -V >v.txt
contains "vfit dumpimage -V" v.txt '^dumpimage version vfit '
fails 2 "a name vfit does not answer to" \
	"^vfit: called as 'kwboot': .*mkimage, dumpimage, mkenvimage, fit_check_sign, fit_info and preload_check_sign" \
	"$B/kwboot" -f x -k y
for n in dumpimage mkenvimage fit_check_sign fit_info; do
	ok "$n -h" "$B/$n" -h
	contains "$n -h: usage" "$T/.out" "^usage: $n"
done

# make install UBOOT_TOOLS_NAMES=1 installs the names beside vfit (and only then).
make -s -C "$ROOT" BUILD="$BUILD" DESTDIR="$T/inst" PREFIX=/usr UBOOT_TOOLS_NAMES=1 install >/dev/null 2>&1
for n in mkimage dumpimage mkenvimage fit_check_sign fit_info; do
	is "install UBOOT_TOOLS_NAMES=1: $n" vfit "$(readlink "$T/inst/usr/bin/$n")"
done
"$T/inst/usr/bin/fit_check_sign" -h >v.txt
contains "installed fit_check_sign runs" v.txt '^usage: fit_check_sign'
make -s -C "$ROOT" BUILD="$BUILD" DESTDIR="$T/inst2" PREFIX=/usr install >/dev/null 2>&1
ok "plain install: vfit" test -x "$T/inst2/usr/bin/vfit"
ok "plain install: no tool names" test ! -e "$T/inst2/usr/bin/dumpimage"
ok "man page installed" test -s "$T/inst2/usr/share/man/man1/vfit-uboot-tools.1"

# ---- inputs -------------------------------------------------------------
random k.bin 3000
random r.bin 500
printf '/dts-v1/; / { model = "u-boot"; };' | dtc -I dts -O dtb -o ctl.dtb
cat >f.its <<'EOF'
/dts-v1/;
/ {
	description = "t";
	#address-cells = <1>;
	images {
		kernel { data = /incbin/("k.bin"); type = "kernel"; arch = "arm64"; os = "linux"; compression = "none"; load = <0x80000>; entry = <0x80000>; hash-1 { algo = "sha256"; }; };
		ramdisk { data = /incbin/("r.bin"); type = "ramdisk"; arch = "arm64"; os = "linux"; compression = "none"; hash-1 { algo = "sha256"; }; };
	};
	configurations { default = "conf-1"; conf-1 { kernel = "kernel"; ramdisk = "ramdisk"; }; };
};
EOF
"$B/mkimage" -E -f f.its fe.fit >/dev/null || exit 2
"$B/mkimage" -A arm -O linux -T multi -C none -n m -d k.bin:r.bin m.img >/dev/null || exit 2

# ---- mkimage -a/-e: empty, and wider than a legacy header's 32 bits -------------
printf 'echo hi\n' >s.txt
ok "script -a '' -e ''" "$B/mkimage" -T script -C none -a '' -e '' -d s.txt s.scr
ok "script -a 64-bit: built" "$B/mkimage" -T script -C none -a 0x4004000000 -e 0x4004000000 -d s.txt w.scr
contains "script -a 64-bit: warning names the truncation" "$T/.out" \
	'warning: -a 0x4004000000 truncated to 0x04000000 \(a legacy header holds 32 bits'
fails 2 "kernel -a 64-bit" '^vfit: mkimage: -a 0x4004000000: wider than 32 bits \(mkimage truncates it to 0x04000000' \
	"$B/mkimage" -T kernel -C none -a 0x4004000000 -d k.bin out
fails 2 "kernel -e 64-bit" '^vfit: mkimage: -e 0x100000000: wider than 32 bits' \
	"$B/mkimage" -T kernel -C none -a 0 -e 0x100000000 -d k.bin out
fails 2 "-f auto -a 64-bit" '^vfit: mkimage: -a 0x4004000000: wider than 32 bits' \
	"$B/mkimage" -f auto -A arm64 -O linux -T kernel -C none -a 0x4004000000 -d k.bin out
fails 2 "-a beyond 64 bits" "^vfit: mkimage: -a: invalid hex number '0x10000000000000000'" \
	"$B/mkimage" -T script -C none -a 0x10000000000000000 -d s.txt out

# ---- dumpimage: hostile images --------------------------------------------
# External data cut off: the FIT is whole, its payload is not.
size=$(wc -c <fe.fit)
head -c $((size - 100)) fe.fit >cut.fit
fails 1 "external data past the end" '^vfit: dumpimage: cut.fit: /images/ramdisk: data-offset .* runs past the end of the file' \
	"$B/dumpimage" -T flat_dt -p 1 -o out cut.fit
ok "the image before it still extracts" "$B/dumpimage" -T flat_dt -p 0 -o out cut.fit
ok "... the kernel's bytes" cmp out k.bin
# Offsets and sizes that wrap 32 bits, or point far beyond the file.
for props in 'data-offset = <0x100000>; data-size = <16>;' \
	'data-offset = <0xfffffff0>; data-size = <0x20>;' \
	'data-position = <0xffffffff>; data-size = <0xffffffff>;' \
	'data-position = <0>; data-size = <0x7fffffff>;'; do
	printf '/dts-v1/; / { timestamp = <0>; images { kernel { type = "kernel"; %s }; }; };' "$props" |
		dtc -I dts -O dtb -o bad.fit
	fails 1 "FIT with $props" '^vfit: dumpimage: bad.fit: /images/kernel: data-(offset|position) [0-9]+ \+ data-size [0-9]+ runs past' \
		"$B/dumpimage" -T flat_dt -o out bad.fit
done
printf '/dts-v1/; / { images { kernel { type = "kernel"; data-offset = <0>; }; }; };' | dtc -I dts -O dtb -o bad.fit
fails 1 "FIT without data-size" '^vfit: dumpimage: bad.fit: /images/kernel: data-size missing' \
	"$B/dumpimage" -T flat_dt -o out bad.fit
printf '/dts-v1/; / { images { kernel { type = "kernel"; }; }; };' | dtc -I dts -O dtb -o bad.fit
fails 1 "FIT image without data" '^vfit: dumpimage: bad.fit: /images/kernel: no data' \
	"$B/dumpimage" -T flat_dt -o out bad.fit
head -c 600 m.img >cut.img
fails 1 "legacy image cut short" '^vfit: dumpimage: cut.img: legacy image truncated' \
	"$B/dumpimage" -T multi -o out cut.img
# Multi-file images whose size tables lie (both CRCs right).
{ be32 fffffff0; be32 00000000; head -c 100 r.bin; } >t1
multi h1.img t1
fails 1 "multi: a file larger than the data" '^vfit: dumpimage: h1.img: file 0 \(4294967280 bytes at 8\) runs past the data' \
	"$B/dumpimage" -T multi -p 0 -o out h1.img
{ be32 00000010; be32 fffffffd; be32 00000000; head -c 100 r.bin; } >t2
multi h2.img t2
fails 1 "multi: offsets that wrap 32 bits" '^vfit: dumpimage: h2.img: file 1 .* runs past the data' \
	"$B/dumpimage" -T multi -p 1 -o out h2.img
{ be32 00000001; be32 00000001; be32 00000001; } >t3
multi h3.img t3
fails 1 "multi: a table with no end" '^vfit: dumpimage: h3.img: multi-file size table runs past the data' \
	"$B/dumpimage" -T multi -o out h3.img
ok "multi: -l of the same prints what the data holds" "$B/dumpimage" -l h3.img
fails 1 "multi: no file 2" '^vfit: dumpimage: m.img: no file 2 \(the image holds 2\)' \
	"$B/dumpimage" -T multi -p 2 -o out m.img
# A failed extraction leaves an existing output file as it was.
cp r.bin out.keep
cp r.bin out2
"$B/dumpimage" -T multi -p 2 -o out2 m.img 2>/dev/null
ok "failure leaves -o as it was" cmp out2 out.keep

# ---- dumpimage: deliberate differences ---------------------------------------
# dumpimage prints its usage and exits 0 for these; a build script's typo must fail.
fails 2 "dumpimage -i (2023.01 and HEAD have no -i)" '^vfit: dumpimage: unknown option -i' \
	"$B/dumpimage" -i fe.fit -o out x
fails 2 "dumpimage without an image" '^vfit: dumpimage: missing image file name' "$B/dumpimage"
# dumpimage lists any file as a "GP Header".
fails 1 "dumpimage -l of a file that is no image" '^vfit: dumpimage: k.bin: not a FIT or legacy image' \
	"$B/dumpimage" -l k.bin
fails 2 "dumpimage -T of a SoC format" "^vfit: dumpimage: image type 'imximage'" \
	"$B/dumpimage" -T imximage -o out m.img

# ---- mkenvimage -----------------------------------------------------------------
printf 'a=1\nb=2\n' >env.txt
fails 2 "mkenvimage -p above a byte" '^vfit: mkenvimage: -p 0x100: not a number from 0 to 255' \
	"$B/mkenvimage" -s 64 -p 0x100 -o out env.txt
fails 2 "mkenvimage -s too small for CRC and two NULs" '^vfit: mkenvimage: -s 6: at least 7 bytes' \
	"$B/mkenvimage" -r -s 6 -o out env.txt
fails 2 "mkenvimage -s beyond 256 MiB" '^vfit: mkenvimage: -s 0x20000000: not a number' \
	"$B/mkenvimage" -s 0x20000000 -o out env.txt
fails 2 "mkenvimage -s negative" '^vfit: mkenvimage: -s -1: not a number' \
	"$B/mkenvimage" -s -1 -o out env.txt
ok "mkenvimage smallest -s" "$B/mkenvimage" -s 6 -o out /dev/null
is "mkenvimage smallest -s: size" 6 "$(wc -c <out)"
fails 2 "mkenvimage output in a missing directory" '^vfit: mkenvimage: ' \
	"$B/mkenvimage" -s 64 -o nodir/out env.txt

# ---- fit_check_sign, fit_info ------------------------------------------------------
mkdir keys
"$VFIT" keygen -a rsa2048 -k keys -n dev >/dev/null || exit 2
sed 's/conf-1 { kernel = "kernel"; ramdisk = "ramdisk"; };/conf-1 { kernel = "kernel"; ramdisk = "ramdisk"; signature-1 { algo = "sha256,rsa2048"; key-name-hint = "dev"; }; };/' \
	f.its >s.its
"$B/mkimage" -f s.its -k keys -K ctl.dtb -r s.fit >/dev/null || exit 2
ok "fit_check_sign" "$B/uboot-fit_check_sign" -f s.fit -k ctl.dtb
contains "fit_check_sign: U-Boot's lines" "$T/.out" 'Verifying Hash Integrity \.\.\. sha256,rsa2048:dev\+ OK'
contains "fit_check_sign: last line" "$T/.out" '^Signature check OK$'
fails 2 "fit_check_sign without -k" '^vfit: fit_check_sign: -k CONTROL_DTB is needed' \
	"$B/fit_check_sign" -f s.fit
fails 2 "fit_check_sign extra argument" '^vfit: fit_check_sign: arguments after the options' \
	"$B/fit_check_sign" -f s.fit -k ctl.dtb extra
status 1 "fit_check_sign, no such configuration" "$B/fit_check_sign" -f s.fit -k ctl.dtb -c conf-9
contains "fit_check_sign, no such configuration: Bad" "$T/.out" '^Signature check Bad$'
fails 1 "fit_info, no such property" "^vfit: fit_info: s.fit: /images/kernel: no property 'none'" \
	"$B/fit_info" -f s.fit -n /images/kernel -p none
fails 1 "fit_info, not a device tree" '^vfit: fit_info: k.bin: not a valid FIT' \
	"$B/fit_info" -f k.bin -n / -p x
ok "fit_info" "$B/fit_info" -f s.fit -n /images/kernel -p data
off=$(sed -n 's/^OFF: //p' "$T/.out")
tail -c +$((off + 1)) s.fit | head -c 3000 >data.out
ok "fit_info: OFF and LEN locate the kernel's bytes" cmp data.out k.bin
finish
