#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit keygen: NAME.key (0600) + NAME.crt (self-signed, CN=NAME), sizes,
# no overwrite without --force, usable by vfit mkimage and openssl; ECDSA
# keys as NAME.pem alone, which Debian's mkimage signs with.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 2

mkdir k
ok "rsa2048" "$VFIT" keygen -a rsa2048 -k k -n dev
status 0 "key mode 0600" test "$(stat -c %a k/dev.key)" = 600
ok "key is PEM RSA" openssl pkey -in k/dev.key -noout
status 0 "2048 bits" test "$(openssl pkey -in k/dev.key -text -noout | head -n1 | sed 's/[^(]*(\([0-9]*\) bit.*/\1/')" = 2048
openssl x509 -in k/dev.crt -noout -subject > subj.txt
contains "CN=NAME" subj.txt "CN ?= ?dev"
ok "self-signed" openssl verify -CAfile k/dev.crt k/dev.crt
status 0 "cert matches key" test "$(openssl x509 -in k/dev.crt -pubkey -noout | openssl pkey -pubin -outform der | sha256sum)" = \
	"$(openssl pkey -in k/dev.key -pubout -outform der | sha256sum)"
cp k/dev.key dev.key.orig
status 2 "refuses to overwrite" "$VFIT" keygen -a rsa2048 -k k -n dev
contains "says why" "$T/.out" "already exists \(use --force"
ok "key kept" cmp k/dev.key dev.key.orig
ok "--force" "$VFIT" keygen -a rsa2048 -k k -n dev --force
status 1 "--force replaced it" cmp -s k/dev.key dev.key.orig
status 0 "mode after --force" test "$(stat -c %a k/dev.key)" = 600
ok "rsa3072" "$VFIT" keygen -a rsa3072 -k k -n k3
status 0 "3072 bits" test "$(openssl pkey -in k/k3.key -text -noout | head -n1 | sed 's/[^(]*(\([0-9]*\) bit.*/\1/')" = 3072
if [ -z "${VFIT_TEST_QUICK:-}" ]; then
	ok "rsa4096" "$VFIT" keygen -a rsa4096 -k k -n k4
	status 0 "4096 bits" test "$(openssl pkey -in k/k4.key -text -noout | head -n1 | sed 's/[^(]*(\([0-9]*\) bit.*/\1/')" = 4096
fi
status 2 "unknown algorithm" "$VFIT" keygen -a rsa1024 -k k -n x
contains "names it" "$T/.out" "unknown algorithm 'rsa1024'"
status 2 "missing -n" "$VFIT" keygen -a rsa2048 -k k
status 2 "bad name" "$VFIT" keygen -a rsa2048 -k k -n a/b
# A missing key directory is made, mode 0700 (the README's first line, in a fresh directory).
ok "missing dir: made" "$VFIT" keygen -a rsa2048 -k fresh -n x
is "missing dir: mode 0700" 700 "$(stat -c %a fresh)"
ok "missing dir: key there" openssl pkey -in fresh/x.key -noout
# Only the last component: a mistyped parent is an error that names it, and nothing is made.
status 2 "missing parent" "$VFIT" keygen -a rsa2048 -k nosuch/keys -n x
contains "missing parent: names the directory" "$T/.out" "^vfit: keygen: nosuch/keys: cannot make the key directory: No such file"
status 1 "missing parent: nothing made" test -e nosuch
# A refused name makes no directory.
status 2 "bad name in a missing dir" "$VFIT" keygen -a rsa2048 -k fresh2 -n a/b
status 1 "bad name: no directory left" test -e fresh2
# Only a certificate there: refused, and no key appears next to it.
cp k/dev.crt k/half.crt
status 2 "existing certificate alone" "$VFIT" keygen -a rsa2048 -k k -n half
status 1 "no key written beside it" test -e k/half.key
# Read-only directory (meaningless as root, who may write anyway).
if [ "$(id -u)" != 0 ]; then
	mkdir ro && chmod a-w ro
	status 2 "read-only directory" "$VFIT" keygen -a rsa2048 -k ro -n x
	status 0 "nothing written" test -z "$(ls -A ro)"
fi
status 2 "path too long" "$VFIT" keygen -a rsa2048 -k "$(printf '%04100d' 0)" -n x
contains "says so" "$T/.out" "path too long"

# ECDSA: NAME.pem only; mkimage derives the public key from it (docs/fit-format.md §4.1).
ok "ecdsa256" "$VFIT" keygen -a ecdsa256 -k k -n e256
status 0 "pem mode 0600" test "$(stat -c %a k/e256.pem)" = 600
openssl pkey -in k/e256.pem -noout -text > e256.txt 2>&1
contains "P-256 private key" e256.txt "NIST CURVE: P-256"
status 1 "no certificate" test -e k/e256.crt
status 1 "no .key" test -e k/e256.key
cp k/e256.pem e256.orig
status 2 "ecdsa: refuses to overwrite" "$VFIT" keygen -a ecdsa256 -k k -n e256
contains "says why" "$T/.out" "e256.pem: already exists \(use --force"
ok "ecdsa: key kept" cmp k/e256.pem e256.orig
ok "ecdsa: --force" "$VFIT" keygen -a ecdsa256 -k k -n e256 --force
status 1 "ecdsa: --force replaced it" cmp -s k/e256.pem e256.orig
status 0 "ecdsa: mode after --force" test "$(stat -c %a k/e256.pem)" = 600
ok "ecdsa384" "$VFIT" keygen -a ecdsa384 -k k -n e384
openssl pkey -in k/e384.pem -noout -text > e384.txt 2>&1
contains "P-384 private key" e384.txt "NIST CURVE: P-384"
status 2 "ecdsa: bad name" "$VFIT" keygen -a ecdsa256 -k k -n a@b
ok "ecdsa: missing dir made" "$VFIT" keygen -a ecdsa384 -k fresh3 -n x
is "ecdsa: dir mode 0700" 700 "$(stat -c %a fresh3)"
status 2 "ecdsa: missing parent" "$VFIT" keygen -a ecdsa384 -k nosuch/k -n x
status 2 "unknown ECDSA size" "$VFIT" keygen -a ecdsa521 -k k -n x
contains "lists the algorithms" "$T/.out" "ecdsa256, ecdsa384"
# Debian's mkimage 2023.01 (P-256 only) signs with the key and writes its
# public point into a -K DTB that has /signature.
if mkimage -V 2>/dev/null | grep -q 2023.01; then
	printf 'kernel' > kernel.bin
	cat > e.its <<'ITS'
/dts-v1/;
/ {
	description = "keygen";
	#address-cells = <1>;
	images { kernel { data = /incbin/("kernel.bin"); type = "kernel"; arch = "arm";
		os = "linux"; compression = "none"; load = <0>; entry = <0>;
		hash-1 { algo = "sha256"; }; }; };
	configurations { default = "conf-1"; conf-1 { kernel = "kernel";
		signature-1 { algo = "sha256,ecdsa256"; key-name-hint = "e256";
			sign-images = "kernel"; }; }; };
};
ITS
	printf '/dts-v1/; / { signature { }; };' | dtc -q -I dts -O dtb -o ctl.dtb
	ok "mkimage signs with the ECDSA key" mkimage -f e.its -k k -K ctl.dtb e.fit
	is "key node curve" prime256v1 "$(fdtget ctl.dtb /signature/e256 ecdsa,curve 2>&1)"
	is "key node point is the key's" \
		"$(openssl pkey -in k/e256.pem -pubout -outform DER | tail -c 64 | xxd -p -c 64)" \
		"$(for p in x y; do fdtget -t bx ctl.dtb /signature/e256 ecdsa,$p-point; done |
			awk '{ for (i = 1; i <= NF; i++) printf "%02s", $i }' | tr ' ' 0)"
else
	skip tool "mkimage 2023.01 (u-boot-tools) not installed: ECDSA key not tried with it"
fi
ls -A k > ls.txt
status 1 "no temporary files" grep -Ev '^[a-z0-9]+\.(key|crt|pem)$' ls.txt
finish
