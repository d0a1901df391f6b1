#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Build-time algorithm selection: the device library built for sha256,rsa2048
# only (VFIT_HAVE_*=0 for the rest, as scripts/size does) still verifies a
# sha256,rsa2048 FIT and reports every compiled-out algorithm (each FIT also
# carries a sha256 hash, so the full build accepts them all) as
# VFIT_ERR_UNSUPPORTED (1) instead of accepting or crashing.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 2

MINIMAL="-DVFIT_HAVE_CRC32=0 -DVFIT_HAVE_CRC16=0 -DVFIT_HAVE_MD5=0 -DVFIT_HAVE_SHA1=0 -DVFIT_HAVE_SHA224=0
 -DVFIT_HAVE_SHA384=0 -DVFIT_HAVE_SHA512=0 -DVFIT_HAVE_RSA_PSS=0 -DVFIT_RSA_MAX_BITS=2048
 -DVFIT_HAVE_ECDSA_P256=0 -DVFIT_HAVE_ECDSA_P384=0"
cp "$ROOT/tests/build/verify_fit.c" drv.c
# shellcheck disable=SC2086
ok "minimal build" cc -std=c11 -O2 $MINIMAL -I"$ROOT/include" -o drv drv.c "$ROOT"/lib/*.c "$ROOT"/lib/*/*.c -lfdt

rsa_key dev 2048
mkdir -p k3 && cp dev.key dev.crt k3/ 2>/dev/null
rsa_key k3/dev 3072
random k.bin 1000
printf '/dts-v1/;\n/ { };\n' > ctl.dts

fit() { # NAME HASH ALGO PADDING KEYDIR: conf-signed FIT and its control DTB
	cat > $1.its <<ITS
/dts-v1/;
/ {
	description = "minimal";
	images {
		kernel {
			data = /incbin/("k.bin");
			type = "kernel"; arch = "arm"; os = "linux"; compression = "none";
			hash-1 { algo = "$2"; };
			hash-2 { algo = "sha256"; };
		};
	};
	configurations {
		default = "conf-1";
		conf-1 {
			kernel = "kernel";
			signature-1 { algo = "$3"; key-name-hint = "dev"; $4 sign-images = "kernel"; };
		};
	};
};
ITS
	dtc -I dts -O dtb -o $1.dtb ctl.dts
	mkimage -f $1.its -k $5 -K $1.dtb -r $1.fit >/dev/null
}
fit good sha256 sha256,rsa2048 "" .
is "sha256,rsa2048" 0 "$(./drv good.fit good.dtb)"
fit pss sha256 sha256,rsa2048 'padding = "pss";' .
is "pss compiled out" 1 "$(./drv pss.fit pss.dtb)"
fit sha1 sha256 sha1,rsa2048 "" .
is "sha1 compiled out" 1 "$(./drv sha1.fit sha1.dtb)"
fit sha512 sha512 sha256,rsa2048 "" .
is "sha512 hash compiled out" 1 "$(./drv sha512.fit sha512.dtb)"
fit crc crc32 sha256,rsa2048 "" .
is "crc32 hash compiled out" 1 "$(./drv crc.fit crc.dtb)"
fit crc16 crc16-ccitt sha256,rsa2048 "" .
is "crc16-ccitt hash compiled out" 1 "$(./drv crc16.fit crc16.dtb)"
fit big sha256 sha256,rsa3072 "" k3
is "rsa3072 above VFIT_RSA_MAX_BITS" 1 "$(./drv big.fit big.dtb)"
mkdir kec && "$VFIT" keygen -a ecdsa256 -k kec -n dev > /dev/null
sed 's/sha256,rsa2048/sha256,ecdsa256/' good.its > ec.its
dtc -I dts -O dtb -o ec.dtb ctl.dts
ok "ecdsa256 FIT" "$VFIT" mkimage -q -f ec.its -k kec -K ec.dtb -r ec.fit
is "ecdsa256: the full build verifies it" OK "$(code ec.fit ec.dtb)"
is "ecdsa256 compiled out" 1 "$(./drv ec.fit ec.dtb)"
# Without reporting (VFIT_REPORT=0) and with the crypto fixed at build time
# (VFIT_CRYPTO_TABLE=0: no backend table) every check still runs: same verdicts.
# shellcheck disable=SC2086
ok "minimal build without reporting" cc -std=c11 -O2 $MINIMAL -DVFIT_REPORT=0 \
	-DVFIT_CRYPTO_TABLE=0 -I"$ROOT/include" \
	-o drvq drv.c "$ROOT"/lib/*.c "$ROOT"/lib/hash/*.c "$ROOT"/lib/rsa/*.c "$ROOT"/lib/fit/*.c \
	"$ROOT"/lib/aes/*.c -lfdt
for n in good pss sha1 sha512 crc crc16 big ec; do
	is "no reporting: $n as with reporting" "$(./drv $n.fit $n.dtb)" "$(./drvq $n.fit $n.dtb)"
done
cp good.fit bad.fit
fdtput -t s bad.fit /images/kernel os evil
is "no reporting: a tampered FIT is still refused" 24 "$(./drvq bad.fit good.dtb)"
# An application built with other struct-sizing knobs than the library
# must not link (it would read the result struct at the wrong offsets).
status 1 "mismatched VFIT_MAX_IMAGES does not link" cc -std=c11 -O2 -DVFIT_MAX_IMAGES=8 \
	-I"$ROOT/include" -o drv8 drv.c "$BUILD/libvfit.a" -lfdt
contains "the link error names the stamped entry point" "$T/.out" "undefined reference to .vfit_verify_with_abi_2_8_48_1_32"
ok "matching knobs link" cc -std=c11 -O2 -I"$ROOT/include" -o drv16 drv.c "$BUILD/libvfit.a" -lfdt
# The full build accepts them all.
for n in pss sha1 sha512 crc crc16 big; do
	status 0 "full build: $n" "$VFIT" verify -f $n.fit -k $n.dtb
done
finish
