#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit mkimage: building and signing (images and configurations), -K/-r,
# -G, -o, -c, -t, -F multi-pass, SOURCE_DATE_EPOCH, the mkimage symlink.
# Signatures are checked independently: image signatures with openssl
# over the payload, configuration signatures with `vfit verify`.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/fixtures.sh"
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000

# its KIND HASH ALGO [PADDING] -> stdout: kernel+fdt, KIND = conf | image | both
its() {
	sigs=
	case $1 in image|both) sigs="-i $3:dev" ;; esac
	case $1 in conf|both) sigs="$sigs -c $3:dev" ;; esac
	# shellcheck disable=SC2086
	fit_its -d test -H "$2" -p "${4:-}" $sigs
}

prop_bin() { # FILE NODE PROP -> raw bytes on stdout
	fdtget -t bx "$1" "$2" "$3" | tr ' ' '\n' | awk 'NF { printf "%02s", $1 }' | tr ' ' 0 | xxd -r -p
}

fit_inputs 3000
mkdir -p keys keys2
ok "keygen dev" "$VFIT" keygen -a rsa2048 -k keys -n dev
ok "keygen prod" "$VFIT" keygen -a rsa2048 -k keys2 -n prod
openssl x509 -in keys/dev.crt -pubkey -noout > dev.pub

# --- configuration signature, -K -r, listing lines
its conf sha256 sha256,rsa2048 > conf.its
cp nosig.dtb control.dtb
"$VFIT" mkimage -f conf.its -k keys -K control.dtb -r -c "build 42" conf.fit > out.txt 2>&1
status 0 "sign conf" test $? = 0
contains "summary line" out.txt "^Signature written to 'conf.fit', node '/configurations/conf-1/signature-1'"
contains "key line" out.txt "^Public key written to 'control.dtb', node '/signature/key-dev'"
ok "verify conf" "$VFIT" verify -f conf.fit -k control.dtb
status 0 "required conf" test "$(fdtget control.dtb /signature/key-dev required)" = conf
status 0 "signer-name" test "$(fdtget conf.fit /configurations/conf-1/signature-1 signer-name)" = vfit
status 0 "comment" test "$(fdtget conf.fit /configurations/conf-1/signature-1 comment)" = "build 42"
status 0 "sig timestamp = SOURCE_DATE_EPOCH" test \
	"$(fdtget -t u conf.fit /configurations/conf-1/signature-1 timestamp)" = 1700000000
status 0 "root timestamp = SOURCE_DATE_EPOCH" test "$(fdtget -t u conf.fit / timestamp)" = 1700000000
status 0 "hashed-strings" test "$(fdtget -t u conf.fit /configurations/conf-1/signature-1 hashed-strings | cut -d' ' -f1)" = 0
status 0 "hashed-nodes" test "$(fdtget conf.fit /configurations/conf-1/signature-1 hashed-nodes)" = \
	"/ /configurations/conf-1 /images/fdt-1 /images/fdt-1/hash-1 /images/kernel /images/kernel/hash-1"
status 0 "sign-images untouched" test "$(fdtget conf.fit /configurations/conf-1/signature-1 sign-images)" = "fdt kernel"
status 0 "algo not written without -o" test "$(fdtget conf.fit /configurations/conf-1/signature-1 algo)" = sha256,rsa2048
# Re-running -K replaces the key node instead of adding a second one.
# (Like mkimage, every signing run grows the file by its retry step: compare trees.)
to_dts "control DTB after one -K" control.dtb control.once
ok "sign again" "$VFIT" mkimage -q -f conf.its -k keys -K control.dtb -r conf.fit
status 0 "one key node" test "$(fdtget -l control.dtb /signature)" = key-dev
to_dts "control DTB after two -K" control.dtb control.twice
same "same control tree" control.twice control.once
# The digest a config signature covers does not depend on the payload bytes.
cp conf.fit tampered.fit
# Flip the byte (a fixed value would already be there once in 256 runs).
b=$(od -An -tu1 -j 600 -N1 tampered.fit | tr -d ' ')
printf "$(printf '\\%03o' $((b ^ 0xff)))" | dd of=tampered.fit bs=1 seek=600 conv=notrunc 2>/dev/null
status 1 "tampered payload rejected" "$VFIT" verify -f tampered.fit -k control.dtb

# --- image signatures for every hash, checked with openssl
for h in sha1 sha256 sha384 sha512; do
	its image $h $h,rsa2048 > img.its
	ok "sign image $h" "$VFIT" mkimage -q -f img.its -k keys img.fit
	prop_bin img.fit /images/kernel/signature-1 value > sig.bin
	ok "openssl verifies image $h" openssl dgst -$h -verify dev.pub -signature sig.bin kernel.bin
	prop_bin img.fit /images/kernel/hash-1 value > hash.bin
	status 0 "hash-1 $h value" test "$(xxd -p hash.bin | tr -d '\n')" = \
		"$(openssl dgst -$h -r kernel.bin | cut -d' ' -f1)"
done
# PSS: salt length = hash length, MGF1 with the same hash.
its image sha256 sha256,rsa2048 pss > pss.its
ok "sign image pss" "$VFIT" mkimage -q -f pss.its -k keys pss.fit
prop_bin pss.fit /images/kernel/signature-1 value > sig.bin
ok "openssl verifies pss" openssl dgst -sha256 -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:32 \
	-verify dev.pub -signature sig.bin kernel.bin
its conf sha256 sha256,rsa2048 pss > cpss.its
cp nosig.dtb cpss.dtb
ok "sign conf pss" "$VFIT" mkimage -q -f cpss.its -k keys -K cpss.dtb -r cpss.fit
ok "verify conf pss" "$VFIT" verify -f cpss.fit -k cpss.dtb

# --- other hash algorithms
for h in crc32 md5 crc16-ccitt; do
	its none $h x > h.its
	ok "hash $h" "$VFIT" mkimage -q -f h.its h.fit
done
prop_bin h.fit /images/kernel/hash-1 value > hash.bin
status 0 "crc16-ccitt is 2 bytes" test "$(wc -c < hash.bin)" = 2
printf 123456789 > check.bin
sed 's/kernel.bin/check.bin/' h.its > c16.its
ok "crc16 check value" "$VFIT" mkimage -q -f c16.its c16.fit
status 0 "crc16-ccitt(123456789) = 31c3" test "$(prop_bin c16.fit /images/kernel/hash-1 value | xxd -p)" = 31c3
sed 's/crc16-ccitt/crc32/' c16.its > c32.its
ok "crc32 check value" "$VFIT" mkimage -q -f c32.its c32.fit
status 0 "crc32(123456789) = cbf43926" test "$(prop_bin c32.fit /images/kernel/hash-1 value | xxd -p)" = cbf43926

# --- -r: image keys, and conf wins when both kinds are signed
its image sha256 sha256,rsa2048 > img.its
cp nosig.dtb ri.dtb
ok "image -r" "$VFIT" mkimage -q -f img.its -k keys -K ri.dtb -r img.fit
status 0 "required image" test "$(fdtget ri.dtb /signature/key-dev required)" = image
its both sha256 sha256,rsa2048 > both.its
cp nosig.dtb rb.dtb
ok "both -r" "$VFIT" mkimage -q -f both.its -k keys -K rb.dtb -r both.fit
status 0 "conf wins" test "$(fdtget rb.dtb /signature/key-dev required)" = conf
cp nosig.dtb nr.dtb
ok "no -r" "$VFIT" mkimage -q -f both.its -k keys -K nr.dtb both.fit
status 1 "no required without -r" fdtget nr.dtb /signature/key-dev required

# --- -o overrides algo and writes it
its conf sha256 sha1,rsa2048 > o.its
cp nosig.dtb o.dtb
ok "-o" "$VFIT" mkimage -q -f o.its -k keys -K o.dtb -r -o sha512,rsa2048 o.fit
status 0 "-o in sig node" test "$(fdtget o.fit /configurations/conf-1/signature-1 algo)" = sha512,rsa2048
status 0 "-o in key node" test "$(fdtget o.dtb /signature/key-dev algo)" = sha512,rsa2048
ok "verify -o" "$VFIT" verify -f o.fit -k o.dtb

# --- -G: one key file for every node; -K derives the public key from it
cp nosig.dtb g.dtb
ok "-G" "$VFIT" mkimage -q -f conf.its -G keys/dev.key -K g.dtb -r g.fit
to_dts "-G control DTB" g.dtb g.dts
same "-G same key node as -k" g.dts control.once
ok "verify -G" "$VFIT" verify -f g.fit -k g.dtb

# --- -F multi-pass: two configuration signatures, two key directories
sed 's/\(signature-1 {[^}]*};\)/\1 signature-2 { algo = "sha256,rsa2048"; key-name-hint = "prod"; sign-images = "fdt", "kernel"; };/' \
	conf.its > two.its
ok "build unsigned" "$VFIT" mkimage -q -f two.its two.fit
cp two.fit two.orig
cp nosig.dtb two.dtb
status 2 "missing key is an error" "$VFIT" mkimage -q -F -k keys -K two.dtb -r two.fit
contains "names the key and path" "$T/.out" "key 'prod' not found: no keys/prod.key"
ok "failed -F leaves the FIT" cmp two.fit two.orig
ok "failed -F leaves the DTB" cmp two.dtb nosig.dtb
ok "pass 1 (dev)" "$VFIT" mkimage -q -F -k keys -K two.dtb -r --allow-missing-keys two.fit
contains "lenient warning" "$T/.out" "key 'prod' not found"
ok "pass 2 (prod)" "$VFIT" mkimage -q -F -k keys2 -K two.dtb -r --allow-missing-keys two.fit
ok "both keys verify" "$VFIT" verify -f two.fit -k two.dtb
status 0 "two key nodes" test "$(fdtget -l two.dtb /signature | sort | tr '\n' ' ')" = "key-dev key-prod "
# -t refreshes the root timestamp, which invalidates configuration signatures.
SOURCE_DATE_EPOCH=1800000000 "$VFIT" mkimage -q -F -t -k keys -K two.dtb --allow-missing-keys two.fit 2>/dev/null
status 0 "-t timestamp" test "$(fdtget -t u two.fit / timestamp)" = 1800000000
status 1 "prod signature stale after -t" "$VFIT" verify -f two.fit -k two.dtb

# --- -f auto, plain and signed (-g -o)
ok "auto" "$VFIT" mkimage -q -f auto -A arm64 -O linux -T kernel -C none -a 80000 -e 80000 \
	-n Linux -d kernel.bin -b board.dtb auto.fit
status 0 "auto hash" test "$(fdtget auto.fit /images/kernel-1/hash-1 algo)" = crc32
status 0 "auto load" test "$(fdtget -t x auto.fit /images/kernel-1 load)" = 80000
status 0 "auto fdt description" test "$(fdtget auto.fit /images/fdt-1 description)" = board
status 0 "auto conf" test "$(fdtget auto.fit /configurations/conf-1 fdt)" = fdt-1
cp nosig.dtb auto.dtb
ok "auto signed" "$VFIT" mkimage -q -f auto -A arm64 -O linux -T kernel -C none -d kernel.bin \
	-g dev -o sha256,rsa2048 -k keys -K auto.dtb -r auto2.fit
prop_bin auto2.fit /images/kernel-1/signature-1 value > sig.bin
ok "auto image signature" openssl dgst -sha256 -verify dev.pub -signature sig.bin kernel.bin
status 2 "auto unknown arch" "$VFIT" mkimage -f auto -A nosuch -d kernel.bin x.fit
contains "auto unknown arch message" "$T/.out" "^vfit: mkimage: unknown architecture 'nosuch'$"

# --- large payloads (read past dtc): same FIT as through dtc, errors name the .its
mkdir -p big
random big/kernel.bin 1200000
cp board.dtb big/
its conf sha256 sha256,rsa2048 > big/big.its
ok "large payload" "$VFIT" mkimage -q -f big/big.its -k keys big.fit
# /incbin/ with offset and size always goes through dtc: same FIT.
sed 's|/incbin/("kernel.bin")|/incbin/("kernel.bin", 0, 1200000)|' big/big.its > big/off.its
ok "large payload via dtc" "$VFIT" mkimage -q -f big/off.its -k keys big2.fit
ok "same bytes" cmp big.fit big2.fit
status 0 "payload in place" test "$(fdtget -t bx big.fit /images/kernel data | wc -w)" = 1200000
sed 's|/incbin/("kernel.bin")|/incbin/ ( "kernel.bin" )|' big/big.its > big/sp.its
ok "spaced /incbin/" "$VFIT" mkimage -q -f big/sp.its -k keys big3.fit
ok "spaced same bytes" cmp big.fit big3.fit
printf 'oops' >> big/sp.its
status 1 "dtc error with large payload" "$VFIT" mkimage -q -f big/sp.its -k keys big4.fit
contains "error names the .its" "$T/.out" "big/sp.its:[0-9]"
ls -A big > ls.txt
status 1 "no marker copies left" grep vfit- ls.txt
# /* /incbin/("kernel.bin") */ in a comment is not touched.
sed 's|description = "test";|description = "test"; /* /incbin/("kernel.bin") */|' big/big.its > big/cm.its
ok "comment" "$VFIT" mkimage -q -f big/cm.its -k keys big5.fit
ok "comment same bytes" cmp big.fit big5.fit

# --- /incbin/ resolves relative to the .its, then dtc's -i directories (-D)
mkdir -p src inc
cp kernel.bin inc/k.bin
cp board.dtb src/
its conf sha256 sha256,rsa2048 | sed 's|"kernel.bin"|"k.bin"|' > src/inc.its
status 2 "incbin not next to the .its" "$VFIT" mkimage -q -f src/inc.its inc.fit
contains "dtc says so" "$T/.out" "k.bin"
contains "a missing input, exit 2" "$T/.out" "^vfit: src/inc.its: dtc cannot open a file it names"
ok "-D with -i" "$VFIT" mkimage -q -D "-I dts -O dtb -i $T/inc" -f src/inc.its inc.fit
status 0 "-D: no padding kept" test "$(fdtget -t bx inc.fit /images/kernel data | wc -w)" = 3000

# --- the large-payload copy never touches the source tree, and resolves
# every path exactly as dtc does on the original: relative to the .its,
# from the current directory when the .its has no directory, through -i.
mkdir -p tmpd/deep ro/src ro/inc
cp big/kernel.bin ro/src/
cp board.dtb ro/inc/
its conf sha256 sha256,rsa2048 | sed 's|"board.dtb"|"../inc/board.dtb"|' > ro/src/ro.its
its conf sha256 sha256,rsa2048 | sed 's|"board.dtb"|"../inc/board.dtb"|; s|/incbin/("kernel.bin")|/incbin/("kernel.bin", 0, 1200000)|' > ro/src/ref.its
ok "reference through dtc" "$VFIT" mkimage -q -f ro/src/ref.its -k keys ro_ref.fit
# A decoy where "../inc/board.dtb" would land from the private directory.
mkdir -p tmpd/deep/inc
printf '/dts-v1/; / { model = "decoy"; };' | dtc -I dts -O dtb -o tmpd/deep/inc/board.dtb
ls -A ro/src > ro_before.txt
chmod a-w ro/src
TMPDIR=$T/tmpd/deep status 0 "read-only source dir, ../ path" "$VFIT" mkimage -q -f ro/src/ro.its -k keys ro.fit
chmod u+w ro/src
ok "../ path: same bytes as dtc" cmp ro.fit ro_ref.fit
ls -A ro/src > ro_after.txt
ok "nothing written next to the .its" cmp ro_before.txt ro_after.txt
status 0 "private directory removed" test "$(ls -A tmpd/deep)" = inc
# A dtc on PATH that logs its arguments shows which path was taken.
mkdir -p fakebin
printf '#!/bin/sh\necho "$*" >> "%s/dtc.log"\nexec %s "$@"\n' "$T" "$(command -v dtc)" > fakebin/dtc
chmod +x fakebin/dtc
cp big/kernel.bin ro/inc/
its conf sha256 sha256,rsa2048 | sed 's|"board.dtb"|"../inc/board.dtb"|; s|"kernel.bin"|"../inc/kernel.bin"|' > ro/src/up.its
PATH=$T/fakebin:$PATH ok "../ in the large path itself" "$VFIT" mkimage -q -f ro/src/up.its -k keys up.fit
ok "../: same bytes" cmp ro_ref.fit up.fit
PATH=$T/fakebin:$PATH ok "bypass with -D" "$VFIT" mkimage -q -D "-I dts -O dtb -p 500" -f big/big.its -k keys byp.fit
contains "bypass: copy in a private dir, -i the .its dir first" dtc.log "^-i big -I dts -O dtb -p 500 -o - /.*/vfit-dtc-[^/]*/big.its$"
ok "bypass: same bytes" cmp big.fit byp.fit
# .its without a directory: paths from the current directory.
(cd big && "$VFIT" mkimage -q -f big.its -k ../keys ../big_cwd.fit)
status 0 "its in the current directory" test $? = 0
ok "cwd: same bytes" cmp big.fit big_cwd.fit
# Large payload found next to the .its, small one only through -D -i (relative to the cwd).
mkdir -p split/src split/inc
cp big/kernel.bin split/src/
cp board.dtb split/inc/
its conf sha256 sha256,rsa2048 > split/src/s.its
ok "-i dir relative to the cwd" "$VFIT" mkimage -q -D "-I dts -O dtb -p 500 -i split/inc" \
	-f split/src/s.its -k keys split.fit
ok "-i: same bytes as the plain build" cmp big.fit split.fit
# The .its name is passed as one argument, never through a shell.
mkdir -p 'q;x'
cp big/kernel.bin board.dtb 'q;x/'
cp big/big.its "q;x/a'\$(touch pwned) b.its"
ok "quotes and shell syntax in the file name" "$VFIT" mkimage -q -f "q;x/a'\$(touch pwned) b.its" -k keys q.fit
status 1 "no command ran" test -e pwned
ok "odd name: same bytes" cmp big.fit q.fit
# -D is split into words like sh, but nothing is expanded or run.
status 2 "-D command substitution refused" "$VFIT" mkimage -q -D '-I dts -O dtb $(touch pwned2)' -f big/big.its q2.fit
contains "-D refusal names the character" "$T/.out" "-D: '\\$'"
status 1 "-D: nothing ran" test -e pwned2
status 2 "-D unterminated quote" "$VFIT" mkimage -q -D "-I dts -O 'dtb" -f big/big.its q2.fit
status 1 "-D failures write nothing" test -e q2.fit
ok "-D quoted -i dir with a space" sh -c 'mkdir -p "sp ace" && cp inc/k.bin "sp ace/" && \
	"$0" mkimage -q -D "-I dts -O dtb -i \"sp ace\"" -f src/inc.its sp.fit' "$VFIT"
ok "-D quoted: same bytes" cmp inc.fit sp.fit
# -d (dependency file) takes the plain path, so the file lists the real sources.
ok "-D -d depfile" "$VFIT" mkimage -q -D "-I dts -O dtb -p 500 -d dep.txt" -f big/big.its -k keys dep.fit
contains "depfile names the large payload" dep.txt "big/kernel.bin"
contains "depfile names the .its" dep.txt "big/big.its"
ok "depfile: same bytes" cmp big.fit dep.fit

# --- the shipped example, signed and verified
mkdir ex
cp "$ROOT/examples/signed-fit.its" ex/
random ex/Image 4096
cp board.dtb ex/
random ex/initramfs.cpio 1024
cp nosig.dtb ex.dtb
ok "example builds" "$VFIT" mkimage -q -f ex/signed-fit.its -k keys -K ex.dtb -r ex.fit
ok "example verifies" "$VFIT" verify -f ex.fit -k ex.dtb

# --- -q, -V, the mkimage name
"$VFIT" mkimage -q -f conf.its q.fit > q.txt
status 0 "-q prints nothing" test ! -s q.txt
ok "-V" "$VFIT" mkimage -V
contains "-V text" "$T/.out" "version"
ok "as mkimage" "$BUILD/mkimage" -f conf.its -k keys -K control.dtb -r sym.fit
contains "as mkimage prints listing" "$T/.out" "FIT description: test"
ok "same output as vfit mkimage" cmp sym.fit conf.fit
finish
