#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# crc16-ccitt hash nodes (fit-format.md §2.3), as U-Boot's hash-images.its uses them,
# in FITs built by Debian's mkimage (u-boot-tools 2023.01 computes them):
# a signed configuration whose images carry crc16-ccitt next to a SHA-2
# node verifies; an image whose only protection under a signature would be
# a CRC is refused (WEAK_HASH: four chosen bytes forge a CRC-32, two a
# CRC-16), as is MD5 alone; the node over "123456789" holds the catalogue
# check value 31 c3; a changed byte of external data, a changed value and
# a value of the wrong length are rejected for the right reason, and
# without any signature the CRC alone decides.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 2

rsa_key dev 2048
random kernel.bin 3000
printf '123456789' > nine.bin
printf '/dts-v1/;\n/ { model = "vfit"; };\n' > base.dts
dtc -I dts -O dtb -o base.dtb base.dts
cat > c.its <<ITS
/dts-v1/;
/ {
	description = "crc16-ccitt hash nodes";
	#address-cells = <1>;
	images {
		kernel {
			data = /incbin/("kernel.bin");
			type = "kernel"; arch = "arm64"; os = "linux"; compression = "none";
			load = <0x80000>; entry = <0x80000>;
			hash-1 { algo = "crc16-ccitt"; };
			hash-2 { algo = "sha256"; };
		};
		check {
			data = /incbin/("nine.bin");
			type = "ramdisk"; arch = "arm64"; os = "linux"; compression = "none";
			hash-1 { algo = "crc16-ccitt"; };
			hash-2 { algo = "sha256"; };
		};
	};
	configurations {
		default = "conf-1";
		conf-1 {
			kernel = "kernel"; ramdisk = "check";
			signature-1 {
				algo = "sha256,rsa2048"; key-name-hint = "dev";
				sign-images = "kernel", "ramdisk";
			};
		};
	};
};
ITS

# Signed, embedded and external data.
for layout in "" "-E"; do
	cp base.dtb c.dtb
	# shellcheck disable=SC2086
	if mkimage -f c.its -k . -K c.dtb -r $layout c$layout.fit > mk.log 2>&1; then
		is "signed crc16-ccitt $layout" OK "$(code c$layout.fit c.dtb)"
	else
		fail "mkimage $layout"
	fi
done
is "mkimage's crc16-ccitt of 123456789" "31 c3" "$(fdtget -t bx c.fit /images/check/hash-1 value)"
"$VFIT" verify -f c.fit -k c.dtb > out.txt 2>&1
contains "kernel line" out.txt '^   Verifying Hash Integrity \.\.\. crc16-ccitt\+ sha256\+ OK$'
contains "ramdisk line" out.txt '^   Verifying Hash Integrity \.\.\. crc16-ccitt\+ sha256\+ OK$'

# A signed image protected by CRCs or MD5 alone is refused, naming the image.
weak_its() { # ALGO...: c.its with the check image's hash nodes replaced
	awk -v algos="$*" '
		/^\t\tcheck \{/ { inimg = 1 }
		inimg && /hash-[0-9]/ { next }
		inimg && /compression/ {
			print
			n = split(algos, a, " ")
			for (i = 1; i <= n; i++)
				printf "\t\t\thash-%d { algo = \"%s\"; };\n", i, a[i]
			next
		}
		/^\t\t};/ { inimg = 0 }
		{ print }' c.its
}
for weak in crc16-ccitt crc32 md5 "crc32 md5"; do
	weak_its $weak > w.its
	cp base.dtb w.dtb
	if mkimage -f w.its -k . -K w.dtb -r w.fit > mk.log 2>&1; then
		is "signed, $weak only" WEAK_HASH "$(code w.fit w.dtb)"
		status 1 "signed, $weak only: exit" "$VFIT" verify -f w.fit -k w.dtb
		contains "signed, $weak only: the error names the image" "$T/.out" \
			"^vfit: w.fit: /images/check: signed image has no cryptographic hash"
		is "unsigned, $weak only, allowed unenforced" OK \
			"$(code w.fit base.dtb --allow-unenforced)"
	else
		fail "mkimage $weak only"
		sed 's/^/    /' mk.log
	fi
done

# External data is outside the signed regions: only the hash node catches
# a changed byte.  Flip one byte of "check", whose only hash is crc16-ccitt.
# External data starts at totalsize (header word 1, big-endian) rounded up to 4.
off=$(fdtget -t u c-E.fit /images/check data-offset)
total=$(od -An -tu1 -j4 -N4 c-E.fit | awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }')
pos=$(( (total + 3) / 4 * 4 + off + 4 ))
byte=$(od -An -tu1 -j$pos -N1 c-E.fit | tr -d ' ')
is "the byte is the 5 of 123456789" 53 "$byte"
cp c-E.fit bad.fit
# shellcheck disable=SC2059
printf "$(printf '\\%03o' $(( byte ^ 1 )))" | dd of=bad.fit bs=1 seek=$pos conv=notrunc 2>/dev/null
is "flipped byte differs" 1 "$(cmp -l c-E.fit bad.fit | wc -l)"
is "external byte changed" HASH "$(code bad.fit c.dtb)"
status 1 "changed byte: exit" "$VFIT" verify -f bad.fit -k c.dtb

# Without any key (allowed explicitly) the hash nodes alone decide.
cp c.fit u.fit
is "unsigned, allowed unenforced" OK "$(code u.fit base.dtb --allow-unenforced)"
fdtput -t bx u.fit /images/check/hash-1 value 31 c4
is "wrong value" HASH "$(code u.fit base.dtb --allow-unenforced)"
fdtput -t bx u.fit /images/check/hash-1 value 31 c3 00
is "3-byte value" HASH_LENGTH "$(code u.fit base.dtb --allow-unenforced)"
fdtput -t bx u.fit /images/check/hash-1 value 31 c3
is "value restored" OK "$(code u.fit base.dtb --allow-unenforced)"

finish
