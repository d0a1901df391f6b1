#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Pre-load headers against U-Boot HEAD's host tools (anchors; without them
# a counted skip): U-Boot's preload_check_sign accepts what vfit preload
# makes (RSA PKCS#1 v1.5 and PSS, SHA-256/384/512, 2048 and 4096 bits) and
# refuses the tampered copies vfit refuses, each for its reason; and U-Boot
# HEAD's mkimage -k -K fills /image/pre-load/sig/public-key as vfit's does.
# (HEAD's preload_check_sign cannot load an EC key: "keyfile, keyname, or
# key-name-hint missing"; vfit's ECDSA headers are checked in cli/preload.sh.)
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/fixtures.sh"
cd "$T" || exit 2
need openssl dtc
anchors
P=${PRELOAD_CHECK_SIGN_HEAD:-${ANCHORS:+$ANCHORS/u-boot-head-preload_check_sign}}
if [ -z "$P" ] || [ ! -x "$P" ] || [ -z "$HEAD_MKIMAGE" ]; then
	skip anchor "U-Boot HEAD's preload_check_sign and mkimage not found (set PRELOAD_CHECK_SIGN_HEAD, MKIMAGE_HEAD)"
	finish
	exit $?
fi
random img.bin 20000
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out r2048.pem 2>/dev/null
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:4096 -out r4096.pem 2>/dev/null

for k in r2048:sha256,rsa2048 r4096:sha256,rsa4096 r2048:sha384,rsa2048 r4096:sha512,rsa4096; do
	key=${k%%:*}.pem algo=${k#*:}
	for pad in pkcs-1.5 pss; do
		n="$algo $pad"
		ok "$n: vfit preload" "$VFIT" preload -k "$key" -a "$algo" -p "$pad" img.bin h.bin
		ok "$n: U-Boot's preload_check_sign accepts it" "$P" -f h.bin -k "$key" -a "$algo" -p "$pad"
		contains "$n: and says so" "$T/.out" "signature check has succeed"
	done
done

# Tampered: both refuse, for the same reason.
ok "vfit preload" "$VFIT" preload -k r2048.pem img.bin h.bin
# tamper NAME OFFSET UBOOT-REASON VFIT-REASON
tamper() {
	cp h.bin t.bin
	flip_byte t.bin "$2"
	status 1 "$1: U-Boot refuses" sh -c '"$1" -f t.bin -k r2048.pem; test $? = 0 && exit 0 || exit 1' sh "$P"
	contains "$1: U-Boot's reason" "$T/.out" "$3"
	status 1 "$1: vfit refuses" "$VFIT" preload_check_sign -f t.bin -k r2048.pem
	contains "$1: vfit's reason" "$T/.out" "$4"
}
tamper "header field (the image signature's hash)" 40 "header signature check has failed" "header signature check has failed"
tamper "image signature" 400 "sha256 of image signature is invalid" "sha256 of image signature is invalid"
tamper "image" 9000 "ERROR: signature check has failed" "image signature check has failed"
tamper "magic" 0 "signature is mandatory" "signature is mandatory"

# mkimage -k -K: the key node's public-key from KEYDIR/<key-name>.crt.  (HEAD
# needs room in the DTB for it: its -FDT_ERR_NOSPACE there is not retried.)
mkdir keys
"$VFIT" keygen -a rsa2048 -k keys -n pre >/dev/null || exit 2
random k.bin 100
printf '/dts-v1/; / { description = "p"; images { k { data = /incbin/("k.bin"); type = "kernel"; arch = "arm64"; os = "linux"; compression = "none"; hash-1 { algo = "sha256"; }; }; }; configurations { default = "c"; c { kernel = "k"; }; }; };' > f.its
printf '/dts-v1/; / { image { pre-load { sig { algo-name = "sha256,rsa2048"; padding-name = "pss"; signature-size = <256>; mandatory = "yes"; key-name = "pre"; }; }; }; };' |
	dtc -I dts -O dtb -p 4096 -o ctl0.dtb
cp ctl0.dtb h.dtb
cp ctl0.dtb v.dtb
ok "HEAD mkimage -K" "$HEAD_MKIMAGE" -f f.its -k keys -K h.dtb h.fit
ok "vfit mkimage -K" "$VFIT" mkimage -f f.its -k keys -K v.dtb v.fit
to_dts "HEAD's" h.dtb h.dts
to_dts "vfit's" v.dtb v.dts
same "same key node" h.dts v.dts
contains "with the public key" v.dts "public-key = "
openssl x509 -in keys/pre.crt -noout >/dev/null 2>&1 || exit 2
ok "a header for that key node" "$VFIT" preload -k keys/pre.key -p pss img.bin hk.bin
ok "checks against mkimage's key node" "$VFIT" preload_check_sign -f hk.bin -K v.dtb
finish
