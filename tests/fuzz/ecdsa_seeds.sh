#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Not a test: how the ECDSA seeds were made, once, for the record.  It
# writes (over the committed copies)
#   tests/fuzz/corpus/fuzz_verify/conf-ecdsa256  selector 4 + a FIT signed
#       by Debian's mkimage 2023.01: conf-1 by key ecdev (sha256,ecdsa256),
#       kernel, fdt-1 and ramdisk-1 by key ecimg with sha384, sha256 and
#       sha1 (a digest longer, equal and shorter than P-256's order);
#   tests/fuzz/corpus/fuzz_verify/conf-ecdsa384  selector 5 + a FIT signed
#       by U-Boot HEAD's mkimage: conf-1 by ec384 (sha384,ecdsa384), the
#       kernel by the same key with sha512,ecdsa384;
#   tests/fuzz/ctl/ecdsa256.dts, ecdsa384.dts: their control DTBs, which
#       gen_ctl.sh turns into fuzz_ctl[4] and [5]: 2023.01's key nodes (no
#       algo) with `required` added by fdtput, 2023.01 having no -r for
#       ECDSA; HEAD's -K -r node;
#   tests/fuzz/corpus/fuzz_keys/ctl-ecdsa256, ctl-ecdsa384: the same DTBs.
# The private keys are thrown away.  Usage: tests/fuzz/ecdsa_seeds.sh HEAD-MKIMAGE
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HEAD_MKIMAGE=$(realpath "$1")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
export SOURCE_DATE_EPOCH=1796000000
mkdir keys
openssl ecparam -name prime256v1 -genkey -noout -out keys/ecdev.pem
openssl ecparam -name prime256v1 -genkey -noout -out keys/ecimg.pem
openssl ecparam -name secp384r1 -genkey -noout -out keys/ec384.pem
head -c 3000 /dev/urandom > kernel.bin
head -c 2000 /dev/urandom > ramdisk.bin
printf '/dts-v1/; / { model = "board"; compatible = "v,b"; };' | dtc -I dts -O dtb -o board.dtb

# its CONF-ALGO CONF-KEY KERNEL-SIG FDT-SIG RAMDISK-SIG: the shape of the RSA seeds
its() {
	cat <<EOT
/dts-v1/;
/ {
	description = "fuzz seed";
	#address-cells = <1>;
	images {
		kernel {
			data = /incbin/("kernel.bin");
			type = "kernel"; arch = "arm64"; os = "linux"; compression = "none";
			load = <0x80000>; entry = <0x80000>;
			hash-1 { algo = "sha256"; };
			$3
		};
		fdt-1 {
			data = /incbin/("board.dtb");
			type = "flat_dt"; arch = "arm64"; compression = "none";
			hash-1 { algo = "crc32"; };
			hash-2 { algo = "sha256"; };
			$4
		};
		ramdisk-1 {
			data = /incbin/("ramdisk.bin");
			type = "ramdisk"; arch = "arm64"; os = "linux"; compression = "none";
			load = <0x0 0x90000>;
			hash-1 { algo = "sha256"; };
			$5
		};
	};
	configurations {
		default = "conf-1";
		conf-1 {
			kernel = "kernel"; fdt = "fdt-1"; ramdisk = "ramdisk-1"; loadables = "kernel";
			signature-1 {
				algo = "$1"; key-name-hint = "$2";
				sign-images = "fdt", "kernel", "ramdisk", "loadables";
			};
		};
		conf-2 { kernel = "kernel"; fdt = "fdt-1"; };
	};
};
EOT
}
sig() { echo "signature-1 { algo = \"$1\"; key-name-hint = \"$2\"; };"; }

# P-256 by 2023.01.  It fails when a -K key node exists, so the FIT is
# signed without -K and the two key nodes are written by a second run.
its sha256,ecdsa256 ecdev "$(sig sha384,ecdsa256 ecimg)" "$(sig sha256,ecdsa256 ecimg)" \
	"$(sig sha1,ecdsa256 ecimg)" > p256.its
/usr/bin/mkimage -f p256.its -k keys p256.fit > /dev/null
printf '/dts-v1/; / { model = "control"; signature { }; };' | dtc -I dts -O dtb -o ctl256.dtb
its sha256,ecdsa256 ecdev "$(sig sha256,ecdsa256 ecimg)" "" "" > keys256.its
/usr/bin/mkimage -f keys256.its -k keys -K ctl256.dtb keys256.fit > /dev/null
fdtput -t s ctl256.dtb /signature/ecdev required conf
fdtput -t s ctl256.dtb /signature/ecimg required image

# P-384 by HEAD, which writes a whole key node (and /signature) itself.
its sha384,ecdsa384 ec384 "$(sig sha512,ecdsa384 ec384)" "" "" > p384.its
printf '/dts-v1/; / { model = "control"; };' | dtc -I dts -O dtb -o ctl384.dtb
"$HEAD_MKIMAGE" -f p384.its -k keys -K ctl384.dtb -r p384.fit > /dev/null

corpus=$ROOT/tests/fuzz/corpus
{ printf '\004'; cat p256.fit; } > "$corpus/fuzz_verify/conf-ecdsa256"
{ printf '\005'; cat p384.fit; } > "$corpus/fuzz_verify/conf-ecdsa384"
cp ctl256.dtb "$corpus/fuzz_keys/ctl-ecdsa256"
cp ctl384.dtb "$corpus/fuzz_keys/ctl-ecdsa384"

dtc -I dtb -O dts -o "$ROOT/tests/fuzz/ctl/ecdsa256.dts" ctl256.dtb
dtc -I dtb -O dts -o "$ROOT/tests/fuzz/ctl/ecdsa384.dts" ctl384.dtb
sh "$ROOT/tests/fuzz/gen_ctl.sh"
echo "written: conf-ecdsa256, conf-ecdsa384, ctl-ecdsa256, ctl-ecdsa384, ctl/ecdsa*.dts, fuzz_ctl.h"
