#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# FIT encryption (fit-format.md §11.1): vfit mkimage -k encrypts images with
# a cipher node (AES-128/192/256-CBC, IV from a file or random), writes the
# key nodes into -K, never encrypts twice under -F, embedded and -E; vfit
# verify --decrypt gives the plaintext back; OpenSSL decrypts the
# ciphertext dumpimage extracts; tampering and missing keys are refused.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/fixtures.sh"
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000
need dtc fdtget fdtput dumpimage openssl xxd

random kernel.bin 5000
random fdt.bin 1024
random rd.bin 777
mkdir out
cipher_keys iv
printf '/dts-v1/; / { model = "ctl"; };' | dtc -I dts -O dtb -o ctl0.dtb
# hex FDT NODE PROP: a byte property as one hex string (fdtget drops leading zeros).
hex() { fdtget -t bx "$@" | tr ' ' '\n' | while read -r b; do printf '%02x' "0x$b"; done; }

# its CONF-SIGNATURE [IMAGE-SIGNATURE]: kernel aes256 with a random IV,
# fdt aes128 with an IV file (a full padding block: 1024 bytes), ramdisk aes192.
its() {
	cipher_kernel_its cipher aes256 k256 "" "${2:-}"
	cat <<EOT
		fdt {
			data = /incbin/("fdt.bin");
			type = "flat_dt"; arch = "arm64"; compression = "none";
			hash-1 { algo = "sha256"; };
			cipher { algo = "aes128"; key-name-hint = "k128"; iv-name-hint = "iv"; };
		};
		ramdisk {
			data = /incbin/("rd.bin");
			type = "ramdisk"; arch = "arm64"; os = "linux"; compression = "none";
			hash-1 { algo = "sha256"; };
			cipher { algo = "aes192"; key-name-hint = "k192"; };
		};
	};
	configurations {
		default = "conf-1";
		conf-1 {
			kernel = "kernel"; fdt = "fdt"; ramdisk = "ramdisk";
			$1
		};
	};
};
EOT
}
CONFSIG='signature-1 { algo = "sha256,rsa2048"; key-name-hint = "dev"; sign-images = "kernel", "fdt", "ramdisk"; };'
its "$CONFSIG" > c.its
cp ctl0.dtb ctl.dtb
ok "encrypt and sign" "$VFIT" mkimage -f c.its -k keys -K ctl.dtb -r c.fit
to_dts "control DTB" ctl.dtb ctl.dts
contains "aes256 key node" ctl.dts "key-aes256-k256 \{"
contains "aes128 key node named with the IV" ctl.dts "key-aes128-k128-iv \{"
contains "aes192 key node" ctl.dts "key-aes192-k192 \{"
is "key-len" 32 "$(fdtget -t u ctl.dtb /cipher/key-aes256-k256 key-len)"
is "key bytes" "$(xxd -p -c 64 keys/k256.bin)" "$(hex ctl.dtb /cipher/key-aes256-k256 key)"
is "file IV in the key node" "$(xxd -p keys/iv.bin)" "$(hex ctl.dtb /cipher/key-aes128-k128-iv iv)"
status 1 "no IV in the key node for a random IV" fdtget ctl.dtb /cipher/key-aes256-k256 iv
is "random IV in the FIT" 16 "$(fdtget -t bx c.fit /images/kernel/cipher iv | wc -w)"
status 1 "no IV in the FIT for a file IV" fdtget c.fit /images/fdt/cipher iv
is "data-size-unciphered" 5000 "$(fdtget -t u c.fit /images/kernel data-size-unciphered)"
is "PKCS#7: whole padding block" 1040 "$(fdtget -t bx c.fit /images/fdt data | wc -w)"
is "PKCS#7: partial block" 784 "$(fdtget -t bx c.fit /images/ramdisk data | wc -w)"

# OpenSSL decrypts what dumpimage (Debian's u-boot-tools) extracts.
ok "dumpimage extracts the kernel" dumpimage -T flat_dt -p 0 -o ct.bin c.fit
iv=$(hex c.fit /images/kernel/cipher iv)
ok "openssl decrypts" openssl enc -d -aes-256-cbc -K "$(xxd -p -c 64 keys/k256.bin)" -iv "$iv" \
	-in ct.bin -out pt.bin
same "openssl plaintext" kernel.bin pt.bin
ok "dumpimage extracts the fdt" dumpimage -T flat_dt -p 1 -o ct1.bin c.fit
ok "openssl decrypts aes128" openssl enc -d -aes-128-cbc -K "$(xxd -p keys/k128.bin)" \
	-iv "$(xxd -p keys/iv.bin)" -in ct1.bin -out pt1.bin
same "openssl plaintext (fdt)" fdt.bin pt1.bin

status 1 "verify refuses an encrypted image without --decrypt" "$VFIT" verify -f c.fit -k ctl.dtb
contains "and says why" "$T/.out" "/images/kernel/cipher: .*encrypted image: --decrypt"
ok "verify --decrypt" "$VFIT" verify -f c.fit -k ctl.dtb --decrypt ctl.dtb -o out
contains "U-Boot's line" "$T/.out" "Decrypting Data \.\.\. OK"
contains "what was used" "$T/.out" "Image 'kernel': aes256, key 'k256', IV from the FIT: 5008 bytes"
same "kernel plaintext" kernel.bin out/kernel
same "fdt plaintext" fdt.bin out/fdt
same "ramdisk plaintext" rd.bin out/ramdisk
"$VFIT" info c.fit > info.txt
contains "info: encrypted" info.txt "Encrypted:    aes256, key 'k256', IV in the FIT, 5000 bytes of plaintext"
contains "info: file IV" info.txt "Encrypted:    aes128, key 'k128', IV in the control DTB iv"

# -F: re-hash and re-sign, never encrypt again.
cp c.fit f.fit
ok "-F" "$VFIT" mkimage -F f.fit -k keys -K ctl.dtb -r
is "-F keeps the ciphertext" "$(fdtget -t bx c.fit /images/kernel data | md5sum)" \
	"$(fdtget -t bx f.fit /images/kernel data | md5sum)"
rm -f out/*
ok "-F: still decrypts" "$VFIT" verify -f f.fit -k ctl.dtb --decrypt ctl.dtb -o out
same "-F: kernel plaintext" kernel.bin out/kernel

# External data: the ciphertext goes after the FDT.
cp ctl0.dtb ctle.dtb
ok "-E" "$VFIT" mkimage -E -f c.its -k keys -K ctle.dtb -r e.fit
is "-E: ciphertext size" 5008 "$(fdtget -t u e.fit /images/kernel data-size)"
rm -f out/*
ok "-E: verify --decrypt" "$VFIT" verify -f e.fit -k ctle.dtb --decrypt ctle.dtb -o out
same "-E: kernel plaintext" kernel.bin out/kernel
same "-E: ramdisk plaintext" rd.bin out/ramdisk

# Tampering and keys.
cp c.fit t.fit
fdtput -t bx t.fit /images/kernel/cipher iv 00 11 22 33 44 55 66 77 88 99 aa bb cc dd ee ff
status 1 "changed IV: the configuration signature fails" "$VFIT" verify -f t.fit -k ctl.dtb --decrypt ctl.dtb
cp c.fit t.fit
fdtput -t u t.fit /images/kernel data-size-unciphered 4990
status 1 "changed data-size-unciphered: signature fails" "$VFIT" verify -f t.fit -k ctl.dtb --decrypt ctl.dtb
rm -f out/*
status 1 "no key node" "$VFIT" verify -f c.fit -k ctl.dtb --decrypt ctl0.dtb -o out
contains "names it" "$T/.out" "ctl0.dtb: /: .*missing"
status 0 "a failed decryption writes nothing" test -z "$(ls out)"
cp ctl.dtb short.dtb
fdtput -t bx short.dtb /cipher/key-aes256-k256 key 00 11 22 33
status 1 "short key" "$VFIT" verify -f c.fit -k ctl.dtb --decrypt short.dtb
contains "names the key" "$T/.out" "short.dtb: /cipher/key-aes256-k256: key: "
cp ctl.dtb nokl.dtb
fdtput -t u nokl.dtb /cipher/key-aes256-k256 key-len 16
status 1 "key-len disagrees" "$VFIT" verify -f c.fit -k ctl.dtb --decrypt nokl.dtb

# An image signature covers the ciphertext only: refused even with --decrypt.
its "" 'signature-1 { algo = "sha256,rsa2048"; key-name-hint = "dev"; };' > i.its
cp ctl0.dtb ctli.dtb
ok "image-signed encrypted FIT" "$VFIT" mkimage -f i.its -k keys -K ctli.dtb -r i.fit
status 1 "refused under an image signature" "$VFIT" verify -f i.fit -k ctli.dtb --decrypt ctli.dtb
contains "at the cipher node" "$T/.out" "/images/kernel/cipher"

# Bad cipher nodes and key files.
sed 's/aes256/aes512/' c.its > b.its
status 1 "unknown algorithm" "$VFIT" mkimage -f b.its -k keys -K ctl0.dtb b.fit
contains "names it" "$T/.out" "/images/kernel/cipher: unsupported cipher 'aes512'"
head -c 31 keys/k256.bin > keys/short.bin
sed 's/"k256"/"short"/' c.its > b.its
status 1 "short key file" "$VFIT" mkimage -f b.its -k keys b.fit
contains "says the size" "$T/.out" "short.bin: 31 bytes, aes256 needs 32"
status 1 "failed runs leave no output" test -e b.fit
sed 's/key-name-hint = "k256"; //' c.its > b.its
status 1 "no key-name-hint" "$VFIT" mkimage -f b.its -k keys b.fit
contains "names it" "$T/.out" "/images/kernel/cipher: key-name-hint missing"
ok "without -k: plaintext left as U-Boot does" "$VFIT" mkimage -f c.its n.fit
status 1 "without -k: no data-size-unciphered" fdtget n.fit /images/kernel data-size-unciphered
finish
