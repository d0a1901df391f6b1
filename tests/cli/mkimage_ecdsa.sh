#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit mkimage with ECDSA keys (DIR/NAME.pem, -G), every hash pairing on
# P-256 and P-384, the -K key node in 2023.01's and in v2025.01's form,
# -r, vfit verify and vfit info lines, the errors, and required-mode
# any/all with an RSA and an ECDSA key.  The signatures themselves are
# checked against OpenSSL in tests/unit/test_fit_ecdsa.c and against
# Debian's and U-Boot HEAD's tools in tests/interop/mkimage_ecdsa.sh.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/fixtures.sh"
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000

# its ALGO KEY [IMAGE-ALGO] [CONF-EXTRA] -> stdout: kernel (image signature) + fdt,
# conf-1 signed with ALGO by KEY; IMAGE-ALGO "-" leaves the kernel unsigned
its() {
	ia=${3:-$1}:$2
	[ "${3:-}" = - ] && ia=
	fit_its -d ecdsa -c "$1:$2" ${ia:+-i "$ia"} -x "${4:-}"
}
props() { fdtget -p "$1" "$2" | tr '\n' ' '; }

fit_inputs 3000
mkdir keys
ok "keygen ecdsa256" "$VFIT" keygen -a ecdsa256 -k keys -n dev
ok "keygen ecdsa384" "$VFIT" keygen -a ecdsa384 -k keys -n big
ok "keygen rsa2048" "$VFIT" keygen -a rsa2048 -k keys -n rsa

# --- P-256, -K -r: v2025.01's node, verify and info lines
its sha256,ecdsa256 dev > p256.its
cp empty.dtb c1.dtb
"$VFIT" mkimage -f p256.its -k keys -K c1.dtb -r p256.fit > out.txt 2>&1
status 0 "sign P-256" test $? = 0
contains "signature line" out.txt "^Signature written to 'p256.fit', node '/configurations/conf-1/signature-1'$"
contains "key line: no key- prefix" out.txt "^Public key written to 'c1.dtb', node '/signature/dev'$"
contains "listing" out.txt "^  Sign algo:    sha256,ecdsa256:dev$"
is "-r: v2025.01's node" "required algo ecdsa,y-point ecdsa,x-point ecdsa,curve key-name-hint " \
	"$(props c1.dtb /signature/dev)"
is "required conf" conf "$(fdtget c1.dtb /signature/dev required)"
is "algo" sha256,ecdsa256 "$(fdtget c1.dtb /signature/dev algo)"
is "curve" prime256v1 "$(fdtget c1.dtb /signature/dev ecdsa,curve)"
is "x: 32 bytes" 32 "$(fdtget -t bx c1.dtb /signature/dev ecdsa,x-point | wc -w)"
is "value: 64 bytes" 64 "$(fdtget -t bx p256.fit /configurations/conf-1/signature-1 value | wc -w)"
"$VFIT" verify -f p256.fit -k c1.dtb > v.txt 2>&1
status 0 "verify" test $? = 0
contains "conf line" v.txt "^   Verifying Hash Integrity \.\.\. sha256,ecdsa256:dev\+ OK$"
contains "image line" v.txt "^   Verifying Hash Integrity \.\.\. sha256,ecdsa256:dev\+ sha256\+ OK$"
is "json" OK "$(code p256.fit c1.dtb)"
"$VFIT" info p256.fit > i.txt 2>&1
status 0 "info" test $? = 0
contains "info: key type" i.txt '^  Key type:     ECDSA P-256 \(ecdsa,curve "prime256v1"\), value r\|\|s$'
contains "info: signer" i.txt "^  Signer:       vfit "
# every signature differs (randomized nonces), the tree does not
"$VFIT" mkimage -q -f p256.its -k keys p256b.fit > /dev/null
status 1 "randomized: values differ" cmp -s p256.fit p256b.fit
is "randomized: same size" "$(wc -c < p256.fit)" "$(wc -c < p256b.fit)"

# --- a value of the wrong size, seen by info and refused by verify
cp p256.fit cut.fit
fdtput -t bx cut.fit /configurations/conf-1/signature-1 value \
	$(fdtget -t bx p256.fit /configurations/conf-1/signature-1 value | cut -d' ' -f2-)
is "63 bytes" SIG_LENGTH "$(code cut.fit c1.dtb)"
"$VFIT" info cut.fit > i.txt 2>&1
contains "info: wrong size" i.txt "^  WARNING:      value is 63 bytes, sha256,ecdsa256 needs 64$"

# --- 2023.01's node: /signature exists, no node yet, no -r
cp empty.dtb c2.dtb
ok "sign, 2023.01 form" "$VFIT" mkimage -q -f p256.its -k keys -K c2.dtb p2.fit
is "three properties" "ecdsa,y-point ecdsa,x-point ecdsa,curve " "$(props c2.dtb /signature/dev)"
is "not required: nothing enforced" UNENFORCED "$(code p2.fit c2.dtb)"
cp c2.dtb c2.keep
ok "again: the node is rewritten as it is" "$VFIT" mkimage -q -f p256.its -k keys -K c2.dtb p2.fit
ok "again: DTB unchanged" cmp c2.dtb c2.keep
fdtput -t s c2.dtb /signature/dev required conf
is "required added by hand" OK "$(code p2.fit c2.dtb)"
# -r on it: the later form, in place
ok "-r on a 2023.01 node" "$VFIT" mkimage -q -f p256.its -k keys -K c2.dtb -r p2.fit
is "-r: hint and algo added" "algo key-name-hint required ecdsa,y-point ecdsa,x-point ecdsa,curve " \
	"$(props c2.dtb /signature/dev)"
is "-r: verifies" OK "$(code p2.fit c2.dtb)"
# no /signature: created, as U-Boot HEAD does (2023.01 fails there)
cp nosig.dtb c3.dtb
ok "no /signature" "$VFIT" mkimage -q -f p256.its -k keys -K c3.dtb p3.fit
is "created, later form" "algo ecdsa,y-point ecdsa,x-point ecdsa,curve key-name-hint " \
	"$(props c3.dtb /signature/dev)"
# a later node is updated in place (algo follows the last signature, as in HEAD)
its sha384,ecdsa256 dev > p256b.its
ok "update in place" "$VFIT" mkimage -q -f p256b.its -k keys -K c3.dtb p3.fit
is "algo updated" sha384,ecdsa256 "$(fdtget c3.dtb /signature/dev algo)"
is "one node" dev "$(fdtget -l c3.dtb /signature)"
fdtput -t s c3.dtb /signature/dev required conf
is "sha384 on P-256 verifies" OK "$(code p3.fit c3.dtb)"
is "the key serves sha256 too" OK "$(code p256.fit c3.dtb)"

# --- every hash with both curves (the image signed with another hash than the configuration)
for pair in sha1,ecdsa256:sha512,ecdsa256:dev sha512,ecdsa256:sha1,ecdsa256:dev \
	    sha384,ecdsa384:sha512,ecdsa384:big sha256,ecdsa384:sha1,ecdsa384:big; do
	algo=${pair%%:*} rest=${pair#*:}
	ialgo=${rest%%:*} key=${rest#*:}
	its "$algo" "$key" "$ialgo" > h.its
	cp nosig.dtb h.dtb
	ok "$algo + $ialgo: sign" "$VFIT" mkimage -q -f h.its -k keys -K h.dtb -r h.fit
	is "$algo + $ialgo: verify" OK "$(code h.fit h.dtb)"
done
is "P-384 value: 96 bytes" 96 "$(fdtget -t bx h.fit /configurations/conf-1/signature-1 value | wc -w)"
is "P-384 curve" secp384r1 "$(fdtget h.dtb /signature/big ecdsa,curve)"
"$VFIT" info h.fit > i.txt 2>&1
contains "info: P-384" i.txt '^  Key type:     ECDSA P-384 \(ecdsa,curve "secp384r1"\), value r\|\|s$'

# --- -G FILE
its sha256,ecdsa256 dev > g.its
cp nosig.dtb g.dtb
ok "-G" "$VFIT" mkimage -q -f g.its -G keys/dev.pem -K g.dtb -r g.fit
is "-G: verifies" OK "$(code g.fit g.dtb)"
ok "-G: same key node as -k" test "$(fdtget -t bx g.dtb /signature/dev ecdsa,x-point)" = \
	"$(fdtget -t bx c1.dtb /signature/dev ecdsa,x-point)"
# -k and -G: mkimage's ECDSA code takes -G (its RSA code -k)
mkdir other
ok "keygen other" "$VFIT" keygen -a ecdsa256 -k other -n dev
cp nosig.dtb g2.dtb
ok "-k and -G" "$VFIT" mkimage -q -f g.its -k keys -G other/dev.pem -K g2.dtb -r g2.fit
status 1 "-k and -G: not -k's key" test "$(fdtget -t bx g2.dtb /signature/dev ecdsa,x-point)" = \
	"$(fdtget -t bx c1.dtb /signature/dev ecdsa,x-point)"
is "-k and -G: -G's key signed" OK "$(code g2.fit g2.dtb)"

# --- an encrypted key: MKIMAGE_SIGN_PASSWORD, as mkimage; never a prompt
openssl pkcs8 -topk8 -in keys/dev.pem -out keys/enc.pem -passout pass:s3cret -v2 aes-256-cbc
its sha256,ecdsa256 enc > enc.its
timeout 20 "$VFIT" mkimage -q -f enc.its -k keys enc.fit < /dev/null > err.txt 2>&1
is "encrypted key, no passphrase: exit 1" 1 "$?"
contains "encrypted key: message" err.txt "^vfit: keys/enc.pem: cannot read a PEM private key \(if it is encrypted, give its passphrase in MKIMAGE_SIGN_PASSWORD\)$"
MKIMAGE_SIGN_PASSWORD=wrong timeout 20 "$VFIT" mkimage -q -f enc.its -k keys enc.fit < /dev/null > err.txt 2>&1
is "wrong passphrase: exit 1" 1 "$?"
cp nosig.dtb enc.dtb
MKIMAGE_SIGN_PASSWORD=s3cret timeout 20 "$VFIT" mkimage -q -f enc.its -k keys -K enc.dtb -r enc.fit \
	< /dev/null > err.txt 2>&1
is "passphrase: signed" 0 "$?"
is "passphrase: verifies" OK "$(code enc.fit enc.dtb)"

# --- errors: exit status, one line, no file changed
openssl ecparam -name secp256k1 -genkey -noout -out keys/k1.pem 2>/dev/null
openssl ecparam -name brainpoolP256r1 -genkey -noout -out keys/bp.pem 2>/dev/null
cp keys/rsa.key keys/rsapem.pem
cp empty.dtb keep.dtb
"$VFIT" mkimage -q -f p256.its -k keys keep.fit > /dev/null
cp keep.fit keep.orig
# fails STATUS NAME REGEX ITS [ARGS...]
fails() {
	st=$1 name=$2 re=$3 src=$4
	shift 4
	"$VFIT" mkimage -q -f "$src" -K keep.dtb "$@" keep.fit > err.txt 2>&1
	is "$name: exit" "$st" "$?"
	contains "$name: message" err.txt "$re"
	ok "$name: FIT unchanged" cmp keep.fit keep.orig
	ok "$name: DTB unchanged" cmp keep.dtb empty.dtb
}
its sha256,ecdsa256 big > e.its
fails 1 "P-384 key for ecdsa256" \
	"^vfit: e.its: /images/kernel/signature-1: key 'big' is on curve secp384r1 but algo 'sha256,ecdsa256' needs prime256v1$" \
	e.its -k keys
its sha384,ecdsa384 dev > e.its
fails 1 "P-256 key for ecdsa384" "key 'dev' is on curve prime256v1 but algo 'sha384,ecdsa384' needs secp384r1" \
	e.its -k keys
its sha256,ecdsa256 k1 > e.its
fails 1 "secp256k1" "key 'k1': unsupported ECDSA curve secp256k1 \(need prime256v1 or secp384r1\)" \
	e.its -k keys
its sha256,ecdsa256 bp > e.its
fails 1 "brainpoolP256r1" "unsupported ECDSA curve brainpoolP256r1" e.its -k keys
its sha256,ecdsa256 rsapem > e.its
fails 1 "RSA key in NAME.pem" "^vfit: keys/rsapem.pem: not an ECDSA key$" e.its -k keys
fails 1 "-G RSA key" "^vfit: keys/rsa.key: not an ECDSA key$" p256.its -G keys/rsa.key
its sha256,rsa2048 dev > e.its
fails 2 "RSA algo: NAME.key, not NAME.pem" "key 'dev' not found: no keys/dev.key" e.its -k keys
its sha256,ecdsa256 nokey > e.its
fails 2 "missing NAME.pem" "key 'nokey' not found: no keys/nokey.pem \(use --allow-missing-keys" \
	e.its -k keys
its sha256,ecdsa256 dev - 'padding = "pss";' > e.its
fails 1 "pss" "^vfit: e.its: /configurations/conf-1/signature-1: padding 'pss' with algo 'sha256,ecdsa256': ECDSA has no padding \(remove the property\)$" \
	e.its -k keys
its sha512,secp521r1 dev - > e.its
fails 1 "secp521r1" "algo 'sha512,secp521r1': P-521 is not supported \(no device can verify it; use ecdsa256 or ecdsa384\)" \
	e.its -k keys
its sha256,ecdsa512 dev - > e.its
fails 1 "ecdsa512" "unknown algo 'sha256,ecdsa512'" e.its -k keys
its sha256,ecdsa256 dev - 'padding = "pkcs-1.5";' > e.its
ok "pkcs-1.5 on ECDSA: U-Boot's default name, accepted" "$VFIT" mkimage -q -f e.its -k keys e.fit
# a key of both kinds under one name: NAME.key for RSA, NAME.pem for ECDSA
cp keys/rsa.key keys/dev.key
cp keys/rsa.crt keys/dev.crt
sed 's/algo = "sha256,ecdsa256"; key-name-hint = "dev"; };$/algo = "sha256,rsa2048"; key-name-hint = "dev"; };/' \
	p256.its > both.its
cp nosig.dtb both.dtb
ok "RSA and ECDSA key named dev" "$VFIT" mkimage -q -f both.its -k keys -K both.dtb both.fit
is "two nodes" "dev key-dev" "$(fdtget -l both.dtb /signature | sort | tr '\n' ' ' | sed 's/ $//')"
fdtput -t s both.dtb /signature/dev required conf
"$VFIT" verify -f both.fit -k both.dtb > v.txt 2>&1
status 0 "both verify" test $? = 0
contains "ECDSA configuration signature" v.txt "sha256,ecdsa256:dev\+ OK$"
contains "RSA image signature" v.txt "sha256,rsa2048:dev\+ sha256\+ OK$"

# --- required-mode across RSA and ECDSA: two configuration signatures
fit_its -d two -f "" -c sha256,rsa2048:rsa -c sha384,ecdsa384:big > two.its
cp nosig.dtb two.dtb
ok "RSA + ECDSA signatures" "$VFIT" mkimage -q -f two.its -k keys -K two.dtb -r two.fit
is "all (default)" OK "$(code two.fit two.dtb)"
fdtput -t s two.dtb /signature required-mode any
is "any" OK "$(code two.fit two.dtb)"
# flip one byte of signature-2's r
v=$(fdtget -t bx two.fit /configurations/conf-1/signature-2 value)
first=$(echo "$v" | cut -d' ' -f1)
cp two.fit bad2.fit
fdtput -t bx bad2.fit /configurations/conf-1/signature-2 value \
	$(printf '%x' $(( (0x$first + 1) % 256 ))) $(echo "$v" | cut -d' ' -f2-)
is "any: ECDSA bad, RSA enough" OK "$(code bad2.fit two.dtb)"
fdtput -t s two.dtb /signature required-mode all
is "all: ECDSA bad" REQUIRED "$(code bad2.fit two.dtb)"
"$VFIT" verify -f bad2.fit -k two.dtb > out.txt 2> err.txt
contains "all: the ECDSA key named" out.txt "^Failed to verify required signature 'big'$"
contains "all: at signature-2" err.txt "^vfit: bad2.fit: /configurations/conf-1/signature-2: value: failed to verify required signature$"
# signed by RSA only: "any" passes, "all" has no ECDSA signature for big
sed '/signature-2/d' two.its > one.its
"$VFIT" mkimage -q -f one.its -k keys one.fit > /dev/null
is "all: RSA only" KEY_ALGO "$(code one.fit two.dtb)"
fdtput -t s two.dtb /signature required-mode any
is "any: RSA only" OK "$(code one.fit two.dtb)"
finish
