#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Pre-load signature headers (include/vfit/preload.h): vfit preload makes
# them (RSA PKCS#1 v1.5 and PSS, ECDSA P-256/P-384, SHA-1/256/384/512) and
# writes the control DTB's key node; preload_check_sign checks them with a
# PEM key or that node.  Headers built here with openssl(1) alone, field by
# field as binman does, pass too; every header field and signature that is
# changed is refused with its name; a failed command writes nothing.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 2
need openssl dtc fdtget xxd
random img.bin 10000
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out r2048.pem 2>/dev/null
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:3072 -out r3072.pem 2>/dev/null
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out p256.pem 2>/dev/null
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out p384.pem 2>/dev/null
openssl pkey -in r2048.pem -pubout -out r2048.pub
printf '/dts-v1/; / { model = "ctl"; };' | dtc -I dts -O dtb -o ctl0.dtb
CHECK="$VFIT preload_check_sign"

# both NAME KEY ALGO PADDING: make, check with the PEM (private and public) and with -K.
both() {
	cp ctl0.dtb "$1.dtb"
	ok "$1: vfit preload" "$VFIT" preload -k "$2" -a "$3" -p "$4" -K "$1.dtb" -m img.bin "$1.bin"
	ok "$1: check with the key" $CHECK -f "$1.bin" -k "$2" -a "$3" -p "$4"
	ok "$1: check with the control DTB" $CHECK -f "$1.bin" -K "$1.dtb"
	status 0 "$1: image after the header" cmp -i 4096:0 "$1.bin" img.bin
}
both pkcs r2048.pem sha256,rsa2048 pkcs-1.5
both pss r2048.pem sha256,rsa2048 pss
both pss384 r3072.pem sha384,rsa3072 pss
both sha1 r3072.pem sha1,rsa3072 pkcs-1.5
both sha512 r2048.pem sha512,rsa2048 pkcs-1.5
both p256 p256.pem sha256,ecdsa256 pkcs-1.5
both p384 p384.pem sha384,ecdsa384 pkcs-1.5
ok "public key PEM" $CHECK -f pkcs.bin -k r2048.pub
ln -s "$VFIT" preload_check_sign
ok "under U-Boot's tool name" ./preload_check_sign -f pss.bin -k r2048.pem -p pss
status 2 "unknown option" ./preload_check_sign -f pss.bin -k r2048.pem -x
contains "named" "$T/.out" "vfit: preload_check_sign: unknown option -x"
is "key node: algo-name" sha256,rsa2048 "$(fdtget pkcs.dtb /image/pre-load/sig algo-name)"
is "key node: padding-name" pss "$(fdtget pss.dtb /image/pre-load/sig padding-name)"
is "key node: signature-size" 256 "$(fdtget -t u pkcs.dtb /image/pre-load/sig signature-size)"
is "key node: mandatory" yes "$(fdtget pkcs.dtb /image/pre-load/sig mandatory)"
is "key node: RSAPublicKey DER" "$(openssl pkey -in r2048.pem -pubout -outform DER | openssl rsa -pubin -inform DER -RSAPublicKey_out -outform DER 2>/dev/null | xxd -p | tr -d '\n')" \
	"$(fdtget -t bx pkcs.dtb /image/pre-load/sig public-key | tr ' ' '\n' | while read -r b; do printf '%02x' "0x$b"; done)"
ok "-s 1024" "$VFIT" preload -k r2048.pem -s 1024 img.bin small.bin
ok "-s 1024 checks" $CHECK -f small.bin -k r2048.pem
status 0 "-s 1024: image at 1024" cmp -i 1024:0 small.bin img.bin
status 2 "header too small for two signatures" "$VFIT" preload -k r2048.pem -s 512 img.bin x.bin
status 1 "key does not make the algorithm" "$VFIT" preload -k r3072.pem -a sha256,rsa2048 img.bin x.bin
status 1 "pss with an EC key" "$VFIT" preload -k p256.pem -a sha256,ecdsa256 -p pss img.bin x.bin
status 1 "no file written" test -e x.bin

# A header built with openssl alone, as binman's pre-load entry builds it.
be32() { for s in 24 16 8 0; do printf "\\$(printf '%03o' $((($1 >> s) & 255)))"; done; }
openssl dgst -sha256 -sign r2048.pem -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:max \
	-out isig.bin img.bin
{
	printf UBSH; be32 1; be32 4096; be32 10000; be32 320; be32 0; be32 0; be32 0
	openssl dgst -sha256 -binary isig.bin
} > first.bin
openssl dgst -sha256 -sign r2048.pem -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:max \
	-out hsig.bin first.bin
cat first.bin hsig.bin isig.bin > ossl.bin
head -c $((4096 - 576)) /dev/zero >> ossl.bin
cat img.bin >> ossl.bin
ok "openssl-built header passes" $CHECK -f ossl.bin -k r2048.pem -p pss

# Tampering: each field, each signature, the image.
# patch NAME OFFSET BYTES REASON: a copy of pkcs.bin with BYTES (printf) at OFFSET must be refused.
patch() {
	cp pkcs.bin t.bin
	printf "$3" | dd of=t.bin bs=1 seek="$2" conv=notrunc 2>/dev/null
	status 1 "$1: refused" $CHECK -f t.bin -K pkcs.dtb
	contains "$1: says why" "$T/.out" "$4"
}
patch "magic" 0 'UBSX' "magic: no pre-load header, and the signature is mandatory"
patch "version" 7 '\002' "version: "
patch "header_size past the file" 8 '\377' "header_size: "
patch "image_size past the file" 12 '\001' "image_size: "
patch "offset_img_sig" 19 '\000' "offset_img_sig: "
patch "flags" 23 '\001' "flags: "
patch "reserved" 27 '\001' "reserved: "
patch "padding" 4000 '\001' "padding: "
patch "sha256 of the image signature" 40 'X' "header signature: "
patch "header signature" 100 'X' "header signature: header signature check has failed"
patch "image signature" 400 'X' "sha256_img_sig: sha256 of image signature is invalid"
patch "image" 5000 'X' "image signature: image signature check has failed"
head -c 10000 pkcs.bin > t.bin
status 1 "truncated image" $CHECK -f t.bin -K pkcs.dtb
contains "says so" "$T/.out" "image_size: "
status 1 "mandatory: no header" $CHECK -f img.bin -K pkcs.dtb
cp ctl0.dtb opt.dtb
ok "optional key node" "$VFIT" preload -k r2048.pem -K opt.dtb img.bin o.bin
ok "not mandatory: no header is fine" $CHECK -f img.bin -K opt.dtb
contains "and says so" "$T/.out" "no pre-load header \(not mandatory\)"
status 1 "wrong key" $CHECK -f pkcs.bin -k r3072.pem -a sha256,rsa3072
status 1 "wrong padding" $CHECK -f pss.bin -k r2048.pem -p pkcs-1.5
status 2 "usage: no file" $CHECK -k r2048.pem
status 2 "usage: both key sources" $CHECK -f pkcs.bin -k r2048.pem -K pkcs.dtb
finish
