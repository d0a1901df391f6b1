#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit mkimage -N: keys in an OpenSSL engine, here libp11's "pkcs11" engine
# in front of a SoftHSM2 token that lives in $T (private SOFTHSM2_CONF).
# The key on the token is imported from a key file, so signing through the
# engine must give the same FIT and -K DTB as signing with the file
# (RSASSA-PKCS1-v1_5 is deterministic).  Key id forms, PIN and error
# handling, an ECDSA P-256 key on the token, and (interop) Debian's
# mkimage -N pkcs11 on the same token.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/fixtures.sh"
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000

MODULE=
for m in /usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so /usr/lib/softhsm/libsofthsm2.so \
	 /usr/lib/*/softhsm/libsofthsm2.so; do
	[ -f "$m" ] && MODULE=$m && break
done
need softhsm2-util pkcs11-tool
if [ -z "$MODULE" ] || ! openssl engine pkcs11 >/dev/null 2>&1; then
	skip tool "softhsm2 / libengine-pkcs11-openssl not installed (scripts/deps installs them)"
	finish
	exit
fi
mkdir tokens
printf 'directories.tokendir = %s/tokens\nobjectstore.backend = file\nlog.level = ERROR\n' \
	"$T" > softhsm2.conf
export SOFTHSM2_CONF=$T/softhsm2.conf PKCS11_MODULE_PATH=$MODULE
unset MKIMAGE_SIGN_PIN

fit_inputs 3000

# its PADDING -> stdout: kernel (image signature) + fdt, configuration signature
its() { fit_its -d pkcs11 -i sha256,rsa2048:dev -c sha256,rsa2048:dev -p "${1:-}"; }
its > x.its
its pss > pss.its

# --- the token: key made by vfit keygen, imported as PKCS#8 with label dev
mkdir keys
ok "keygen" "$VFIT" keygen -a rsa2048 -k keys -n dev
ok "pkcs8" openssl pkcs8 -topk8 -nocrypt -in keys/dev.key -out dev.p8
ok "init token" softhsm2-util --init-token --free --label vfit --pin 1234 --so-pin 5678
ok "import key" softhsm2-util --import dev.p8 --token vfit --label dev --id 01 --pin 1234

# --- reference: the same key from the key directory
cp nosig.dtb ref.dtb
ok "sign with keydir" "$VFIT" mkimage -q -k keys -K ref.dtb -r -f x.its ref.fit

# vsign NAME OUT ARGS...: sign into OUT with -K OUT.dtb -r, PIN 1234; compare with ref.fit
vsign() {
	name=$1 out=$2; shift 2
	REF=${REF:-ref.fit}
	cp nosig.dtb "$out.dtb"
	MKIMAGE_SIGN_PIN=1234 "$VFIT" mkimage -K "$out.dtb" -r "$@" "$out" > "$out.txt" 2>&1
	status 0 "$name: exit" test $? = 0
	ok "$name: FIT identical to keydir signing" cmp "$out" "$REF"
	ok "$name: -K DTB identical to keydir/dev.crt" cmp "$out.dtb" ref.dtb
}

vsign "pkcs11: URI" e1.fit -N pkcs11 -k 'pkcs11:token=vfit' -f x.its
ok "verify" "$VFIT" verify -f e1.fit -k e1.fit.dtb
ok "conf signature value equal" test \
	"$(fdtget -t bx e1.fit /configurations/conf-1/signature-1 value)" = \
	"$(fdtget -t bx ref.fit /configurations/conf-1/signature-1 value)"
ok "image signature value equal" test \
	"$(fdtget -t bx e1.fit /images/kernel/signature-1 value)" = \
	"$(fdtget -t bx ref.fit /images/kernel/signature-1 value)"
contains "closing lines" e1.fit.txt "^Signature written to 'e1.fit', node '/configurations/conf-1/signature-1'"
contains "key node line" e1.fit.txt "^Public key written to 'e1.fit.dtb', node '/signature/key-dev'"
vsign "object= in -k" e2.fit -N pkcs11 -k 'pkcs11:token=vfit;object=dev' -f x.its
vsign "id= in -k" e3.fit -N pkcs11 -k 'pkcs11:token=vfit;id=%01' -f x.its
vsign "no pkcs11: prefix" e4.fit -N pkcs11 -k 'token=vfit' -f x.its
contains "no prefix: warning" e4.fit.txt "warning: -k token=vfit: not a PKCS#11 URI, using 'pkcs11:token=vfit'"
vsign "-N alone" e5.fit -N pkcs11 -f x.its
vsign "--engine, -q" e6.fit -q --engine=pkcs11 -k 'pkcs11:token=vfit' -f x.its
# -q drops the listing; the two "... written" lines stay, as with mkimage.
status 0 "-q: no listing" test "$(grep -vc -e "^Signature written to 'e6.fit'" \
	-e "^Public key written to 'e6.fit.dtb'" e6.fit.txt)" = 0
contains "-q: the signature line" e6.fit.txt "^Signature written to 'e6.fit', node '/configurations/conf-1/signature-1'$"

# -F: re-sign an unsigned FIT in place, through the engine and with the key files
"$VFIT" mkimage -q -f x.its e7.fit >/dev/null 2>&1
cp e7.fit ref7.fit
cp nosig.dtb ref7.dtb
ok "-F with keydir" "$VFIT" mkimage -q -k keys -K ref7.dtb -r -F ref7.fit
REF=ref7.fit vsign "-F re-sign" e7.fit -q -N pkcs11 -k 'pkcs11:token=vfit' -F

# PSS is randomised: check it verifies, and its key node equals the keydir one
cp nosig.dtb pss.dtb
MKIMAGE_SIGN_PIN=1234 "$VFIT" mkimage -q -N pkcs11 -k 'pkcs11:token=vfit' -K pss.dtb -r \
	-f pss.its pss.fit > /dev/null 2>&1
status 0 "pss: exit" test $? = 0
ok "pss: verify" "$VFIT" verify -f pss.fit -k pss.dtb
ok "pss: -K DTB identical" cmp pss.dtb ref.dtb

# --- failures: exit 2, one line naming the problem, no file changed
cp ref.fit keep.fit
cp nosig.dtb keep.dtb
# fails NAME REGEX ARGS...: mkimage -K keep.dtb ... keep.fit must fail with status 2
fails() {
	name=$1 re=$2; shift 2
	"$VFIT" mkimage -q -K keep.dtb "$@" keep.fit > err.txt 2>&1
	ok "$name: exit 2" test $? = 2
	contains "$name: message" err.txt "$re"
	ok "$name: FIT unchanged" cmp keep.fit ref.fit
	ok "$name: DTB unchanged" cmp keep.dtb nosig.dtb
	ok "$name: no temporary files" test "$(ls -a | grep -c '^\.keep\.')" = 0
}
MKIMAGE_SIGN_PIN=4321 fails "wrong PIN" \
	"^vfit: -N pkcs11: cannot load private key 'pkcs11:token=vfit;object=dev;type=private' \(PIN incorrect\)$" \
	-N pkcs11 -k 'pkcs11:token=vfit' -f x.its
fails "no PIN" "MKIMAGE_SIGN_PIN is not set" -N pkcs11 -k 'pkcs11:token=vfit' -f x.its
MKIMAGE_SIGN_PIN=1234 fails "unknown object" \
	"'pkcs11:token=vfit;object=nope;type=private' \(object not found\)" \
	-N pkcs11 -k 'pkcs11:token=vfit;object=nope' -f x.its
MKIMAGE_SIGN_PIN=1234 fails "unknown token" "token=other;object=dev;type=private" \
	-N pkcs11 -k 'pkcs11:token=other' -f x.its
MKIMAGE_SIGN_PIN=1234 fails "unknown engine" "^vfit: -N nosuch: OpenSSL engine not available" \
	-N nosuch -k keys/ -f x.its
MKIMAGE_SIGN_PIN=1234 fails "empty engine name" "^vfit: mkimage: -N needs an engine name$" \
	-N '' -f x.its
status 2 "missing engine name" "$VFIT" mkimage -f x.its keep.fit -N
contains "missing engine name: message" "$T/.out" "^vfit: mkimage: -N needs a value$"
ok "token has exactly the one key pair" test \
	"$(pkcs11-tool --module "$MODULE" --token-label vfit --login --pin 1234 -O 2>/dev/null |
	   grep -c 'Key Object')" = 2

# --- ECDSA P-256 on the token: the signature is randomized, so the FIT is
# compared as a tree (values left out) and checked by vfit; the -K DTB,
# whose point comes from the token's public key object, byte for byte.
ok "keygen ecdsa256" "$VFIT" keygen -a ecdsa256 -k keys -n ec
ok "ec pkcs8" openssl pkcs8 -topk8 -nocrypt -in keys/ec.pem -out ec.p8
ok "import ec key" softhsm2-util --import ec.p8 --token vfit --label ec --id 02 --pin 1234
sed 's/sha256,rsa2048"; key-name-hint = "dev"/sha256,ecdsa256"; key-name-hint = "ec"/' x.its > ec.its
sed 's/sha256,rsa2048"; key-name-hint = "dev"/sha384,ecdsa256"; key-name-hint = "ec"/' x.its > ec384.its
notvalue() { dtc -I dtb -O dts "$1" 2>/dev/null | grep -v 'value = '; }
for src in ec.its ec384.its; do
	cp nosig.dtb "$src.ref.dtb"
	ok "$src: sign with keydir" "$VFIT" mkimage -q -k keys -K "$src.ref.dtb" -r -f "$src" \
		"$src.ref.fit"
	cp nosig.dtb "$src.dtb"
	MKIMAGE_SIGN_PIN=1234 "$VFIT" mkimage -q -N pkcs11 -k 'pkcs11:token=vfit' -K "$src.dtb" -r \
		-f "$src" "$src.fit" > "$src.txt" 2>&1
	status 0 "$src: sign through the engine" test $? = 0
	ok "$src: -K DTB identical to keydir/ec.pem's" cmp "$src.dtb" "$src.ref.dtb"
	ok "$src: verify" "$VFIT" verify -f "$src.fit" -k "$src.dtb"
	contains "$src: image signature checked" "$T/.out" "ecdsa256:ec\+ sha256\+ OK"
done
notvalue ec.its.fit > e.dts
notvalue ec.its.ref.fit > r.dts
ok "ec: same tree as keydir signing but the values" cmp e.dts r.dts
MKIMAGE_SIGN_PIN=1234 "$VFIT" mkimage -q -N pkcs11 -k 'pkcs11:token=vfit;object=dev' \
	-f ec.its wrong.fit > err.txt 2>&1
status 0 "RSA object for an ECDSA algo: exit 1" test $? = 1
contains "RSA object for an ECDSA algo: message" err.txt \
	"^vfit: -N pkcs11: 'pkcs11:token=vfit;object=dev;type=private' is not an ECDSA key$"
status 1 "RSA object for an ECDSA algo: no FIT" test -e wrong.fit

# --- interop: Debian's mkimage (2023.01) -N pkcs11 on the same token.  It
# always prepends "pkcs11:" to -k, so it is given the bare form.
if command -v mkimage >/dev/null && mkimage -h 2>&1 | grep -q -- '-N => openssl engine'; then
	cp nosig.dtb m.dtb
	MKIMAGE_SIGN_PIN=1234 ok "mkimage -N pkcs11: exit" mkimage -N pkcs11 -k 'token=vfit' \
		-K m.dtb -r -f x.its m.fit
	to_dts "mkimage -N pkcs11" m.fit m.dts && grep -v 'signer-name\|signer-version' m.dts >m.tree
	to_dts "vfit -N pkcs11" e4.fit v.dts && grep -v 'signer-name\|signer-version' v.dts >v.tree
	same "mkimage -N pkcs11: same tree as vfit -N pkcs11" m.tree v.tree
	to_dts "mkimage -N pkcs11 -K" m.dtb m.ctl.dts
	to_dts "vfit -N pkcs11 -K" e4.fit.dtb v.ctl.dts
	same "mkimage -N pkcs11: same control DTB tree" m.ctl.dts v.ctl.dts
	ok "vfit verifies mkimage's engine-signed FIT" "$VFIT" verify -f m.fit -k e4.fit.dtb
else
	skip tool "no mkimage with -N on PATH (u-boot-tools): Debian's mkimage -N pkcs11 not compared"
fi
finish
