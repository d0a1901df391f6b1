#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit boot with encrypted images (fit-format.md §11.1): a kernel encrypted
# and signed by `vfit mkimage` is decrypted into its load address with the
# key of the control DTB that verified it; without that key, or encrypted
# and compressed, it is refused with the reason named; a tampered
# ciphertext is refused by its hash before any decryption.  An encrypted
# fdt and ramdisk whose plaintexts are no multiple of the AES block are
# handed over with the plaintext's size, not the ciphertext's (which
# would reach up to 15 bytes past what was verified and decrypted).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/boot_lib/device.sh"
need dtc fdtget fdtput

boot_keys || { fail "keygen"; finish; exit 1; }
random "$K/kkey.bin" 32

# enc_fit OUT COMP [FDT]: kernel (aes256) + fdt, signed with key-rom into $W/rom.dtb;
# FDT=nl: the fdt encrypted too, without a load address.
enc_fit() {
	fload="load = <0x83000000>;" fcipher=
	[ "${3:-}" = nl ] && fload= fcipher='cipher { algo = "aes256"; key-name-hint = "kkey"; };'
	d=$W/e.$(basename "$1")
	mkdir -p "$d"
	random "$d/kernel.bin" 20000
	cp "$d/kernel.bin" "$1.kernel.bin"
	if [ "$2" = gzip ]; then gzip -9 -n -c "$d/kernel.bin" >"$d/kernel.img"
	else cp "$d/kernel.bin" "$d/kernel.img"; fi
	printf '/dts-v1/;\n/ { model = "sim"; };\n' | dtc -I dts -O dtb -o "$d/board.dtb" - 2>/dev/null
	cat >"$d/k.its" <<ITS
/dts-v1/;
/ {
	description = "encrypted kernel";
	#address-cells = <1>;
	images {
		kernel {
			data = /incbin/("kernel.img");
			type = "kernel"; arch = "arm64"; os = "linux"; compression = "$2";
			load = <0x80080000>; entry = <0x80080000>;
			hash-1 { algo = "sha256"; };
			cipher { algo = "aes256"; key-name-hint = "kkey"; };
		};
		fdt-1 {
			data = /incbin/("board.dtb");
			type = "flat_dt"; arch = "arm64"; compression = "none";
			$fload
			hash-1 { algo = "sha256"; };
			$fcipher
		};
	};
	configurations {
		default = "conf-1";
		conf-1 {
			kernel = "kernel"; fdt = "fdt-1";
			signature-1 { algo = "sha256,rsa2048"; key-name-hint = "rom";
				sign-images = "kernel", "fdt"; };
		};
	};
};
ITS
	(cd "$d" && $MKIMAGE -q -f k.its -k "$K" -K "$W/rom.dtb" -r "$1") >"$d/log" 2>&1 ||
		{ cat "$d/log"; return 1; }
}

# enc_rd_fit OUT: a plain kernel, an fdt of 1004 bytes and a ramdisk of 3001 bytes, both
# encrypted (aes256) with load addresses; OUT.fdt, OUT.ramdisk: their plaintexts.
enc_rd_fit() {
	d=$W/r.$(basename "$1")
	mkdir -p "$d"
	random "$d/kernel.bin" 20000
	random "$1.ramdisk" 3001
	printf '/dts-v1/;\n/ { model = "sim"; };\n' | dtc -S 1004 -I dts -O dtb -o "$1.fdt" - 2>/dev/null
	cat >"$d/k.its" <<ITS
/dts-v1/;
/ {
	description = "encrypted fdt and ramdisk";
	#address-cells = <1>;
	images {
		kernel {
			data = /incbin/("kernel.bin");
			type = "kernel"; arch = "arm64"; os = "linux"; compression = "none";
			load = <0x80080000>; entry = <0x80080000>;
			hash-1 { algo = "sha256"; };
		};
		fdt-1 {
			data = /incbin/("$1.fdt");
			type = "flat_dt"; arch = "arm64"; compression = "none"; load = <0x83000000>;
			hash-1 { algo = "sha256"; };
			cipher { algo = "aes256"; key-name-hint = "kkey"; };
		};
		ramdisk-1 {
			data = /incbin/("$1.ramdisk");
			type = "ramdisk"; arch = "arm64"; os = "linux"; compression = "none";
			load = <0x84000000>;
			hash-1 { algo = "sha256"; };
			cipher { algo = "aes256"; key-name-hint = "kkey"; };
		};
	};
	configurations {
		default = "conf-1";
		conf-1 {
			kernel = "kernel"; fdt = "fdt-1"; ramdisk = "ramdisk-1";
			signature-1 { algo = "sha256,rsa2048"; key-name-hint = "rom";
				sign-images = "kernel", "fdt", "ramdisk"; };
		};
	};
};
ITS
	(cd "$d" && $MKIMAGE -q -f k.its -k "$K" -K "$W/rom.dtb" -r "$1") >"$d/log" 2>&1 ||
		{ cat "$d/log"; return 1; }
}

empty_dtb "$W/rom.dtb"
ok "encrypted kernel FIT" enc_fit "$W/enc.fit" none
ok "gzip+encrypted kernel FIT" enc_fit "$W/encgz.fit" gzip
ok "FIT with an encrypted fdt without load address" enc_fit "$W/encnl.fit" none nl
ok "the key is in the ROM DTB" fdtget -l "$W/rom.dtb" /cipher
# hexof FILE [BYTES]: one line of hex (the first BYTES only, when given).
hexof() { if [ -n "${2:-}" ]; then head -c "$2" "$1"; else cat "$1"; fi | od -An -v -tx1 | tr -d ' \n'; }
hexof "$W/enc.fit" >"$W/enc.hex"
if grep -qF "$(hexof "$W/enc.fit.kernel.bin" 64)" "$W/enc.hex"; then
	fail "plaintext kernel bytes found in the FIT"
else
	pass
fi

D=$T/dev
ok "device" "$VFIT" boot --device "$D" init --rom "$W/rom.dtb" "$W/enc.fit"
status 0 "encrypted kernel boots" "$VFIT" boot --device "$D" --dump "$T/ram"
contains "started" "$T/.out" "^Starting kernel at 80080000"
ok "decrypted kernel bytes in RAM" cmp "$T/ram/kernel.bin" "$W/enc.fit.kernel.bin"

# An encrypted fdt and ramdisk (1004 and 3001 bytes): handed over with their plaintext sizes.
ok "encrypted fdt and ramdisk FIT" enc_rd_fit "$W/encrd.fit"
ok "device (encrypted fdt and ramdisk)" "$VFIT" boot --device "$T/rd" init --rom "$W/rom.dtb" \
	"$W/encrd.fit"
status 0 "it boots" "$VFIT" boot --device "$T/rd" --dump "$T/rdram"
ok "the fdt handed over: its 1004 plaintext bytes" cmp "$T/rdram/fdt.dtb" "$W/encrd.fit.fdt"
ok "the ramdisk handed over: its 3001 plaintext bytes" cmp "$T/rdram/ramdisk.bin" \
	"$W/encrd.fit.ramdisk"

# The same FIT, the /cipher key gone from the ROM DTB: refused, reason named.
cp "$W/rom.dtb" "$W/nokey.dtb"
ok "remove /cipher" fdtput -r "$W/nokey.dtb" /cipher
ok "device without the key" "$VFIT" boot --device "$T/nokey" init --rom "$W/nokey.dtb" "$W/enc.fit"
status 1 "no cipher key: refused" "$VFIT" boot --device "$T/nokey"
contains "reason named" "$T/.out" \
	"^slot A stage 1: kernel 'kernel': no usable cipher key for its cipher node in the control DTB"
if grep -q "^Starting kernel" "$T/.out"; then fail "started without the key"; else pass; fi

# Tampered ciphertext: the hash refuses it; nothing is loaded or decrypted.
ok "device to tamper" "$VFIT" boot --device "$T/bad" init --rom "$W/rom.dtb" "$W/enc.fit"
tamper "$T/bad/slot-a/stage1.fit"
tamper "$T/bad/slot-b/stage1.fit"
status 1 "tampered ciphertext refused" "$VFIT" boot --device "$T/bad" --dump "$T/ram2"
contains "hash failure" "$T/.out" "^slot A stage 1: bad hash value at /images/kernel"
if grep -q "cipher key\|ciphertext\|Loading kernel" "$T/.out"; then
	fail "decryption reached after a failed hash"
else
	pass
fi
[ -e "$T/ram2/kernel.bin" ] && fail "a kernel was dumped" || pass

# Encrypted and compressed: refused by name (decompression needs the plaintext first).
ok "gzip device" "$VFIT" boot --device "$T/gz" init --rom "$W/rom.dtb" "$W/encgz.fit"
status 1 "encrypted+compressed refused" "$VFIT" boot --device "$T/gz"
contains "reason named" "$T/.out" "kernel 'kernel': encrypted and compressed images are not supported"

# An encrypted fdt with no load address would be handed over as ciphertext: refused.
ok "encrypted fdt device" "$VFIT" boot --device "$T/nl" init --rom "$W/rom.dtb" "$W/encnl.fit"
status 1 "encrypted image without load address refused" "$VFIT" boot --device "$T/nl"
contains "reason named" "$T/.out" "^slot A stage 1: fdt 'fdt-1' has no load address"
finish
