#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit mkimage against Debian's mkimage (u-boot-tools 2023.01): same .its,
# keys and SOURCE_DATE_EPOCH must give the same tree (dtc -I dtb -O dts)
# except signer-name/signer-version (and creator for -f auto), and
# byte-identical control DTBs from -K.  Where mkimage 2023.01 signs a
# shorter node list than U-Boot HEAD's rule (an image the configuration
# references but sign-images omits), only hashed-nodes and value may
# differ, and vfit's FIT must verify.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000
MKIMAGE=${MKIMAGE:-/usr/bin/mkimage}
if ! "$MKIMAGE" -V 2>/dev/null | grep -q 2023.01; then
	echo "SKIP: $MKIMAGE is not mkimage 2023.01"
	finish
	exit $?
fi

head -c 5000 /dev/urandom > kernel.bin
head -c 3000 /dev/urandom > ramdisk.bin
printf '/dts-v1/; / { model = "board"; compatible = "v,b"; };' | dtc -I dts -O dtb -o board.dtb
printf '/dts-v1/; / { model = "control"; };' | dtc -I dts -O dtb -o control0.dtb
mkdir k1 k2
# Keys made once per run (4096 is slow); used by both tools.
for b in 2048 3072 4096; do
	"$VFIT" keygen -a rsa$b -k k1 -n key$b || exit 2
done
"$VFIT" keygen -a rsa2048 -k k2 -n prod || exit 2

# its NAME HASH ALGO KEY KIND [SIGN-IMAGES] [RAMDISK]
its() {
	isig= csig= rd= rref=
	case $5 in image|both) isig="signature-1 { algo = \"$3\"; key-name-hint = \"$4\"; };" ;; esac
	case $5 in conf|both) csig="signature-1 { algo = \"$3\"; key-name-hint = \"$4\"; sign-images = ${6:-\"fdt\", \"kernel\"}; };" ;; esac
	case $5 in two) csig="signature-1 { algo = \"$3\"; key-name-hint = \"$4\"; sign-images = \"fdt\", \"kernel\"; };
		signature-2 { algo = \"sha256,rsa2048\"; key-name-hint = \"prod\"; sign-images = \"fdt\", \"kernel\"; };" ;; esac
	if [ -n "${7:-}" ]; then
		rd="ramdisk-1 { data = /incbin/(\"ramdisk.bin\"); type = \"ramdisk\"; arch = \"arm64\";
			os = \"linux\"; compression = \"none\"; hash-1 { algo = \"$2\"; }; };"
		rref='ramdisk = "ramdisk-1";'
	fi
	cat > "$1" <<EOT
/dts-v1/;
/ {
	description = "compare";
	#address-cells = <1>;
	images {
		kernel {
			description = "kernel";
			data = /incbin/("kernel.bin");
			type = "kernel"; arch = "arm64"; os = "linux"; compression = "none";
			load = <0x80000>; entry = <0x80000>;
			hash-1 { algo = "$2"; };
			hash-2 { algo = "crc32"; };
			$isig
		};
		fdt-1 {
			description = "board";
			data = /incbin/("board.dtb");
			type = "flat_dt"; arch = "arm64"; compression = "none";
			hash-1 { algo = "$2"; };
		};
		$rd
	};
	configurations {
		default = "conf-1";
		conf-1 { description = "c"; kernel = "kernel"; fdt = "fdt-1"; $rref $csig };
	};
};
EOT
}

tree() { dtc -I dtb -O dts "$1" 2>/dev/null | grep -v 'signer-name\|signer-version\|creator = '; }

# same NAME MKIMAGE-ARGS... : both tools, compare trees and -K DTBs
same() {
	c=$1
	shift
	cp control0.dtb m.dtb
	cp control0.dtb v.dtb
	"$MKIMAGE" "$@" -K m.dtb m.fit > /dev/null 2>&1
	rm=$?
	"$VFIT" mkimage -q "$@" -K v.dtb v.fit > "$T/.vout" 2>&1
	rv=$?
	status 0 "$c: both succeed ($rm/$rv)" test "$rm/$rv" = 0/0
	tree m.fit > m.dts
	tree v.fit > v.dts
	if cmp -s m.dts v.dts; then pass; else fail "$c: trees differ"; diff m.dts v.dts | head -n 20; fi
	# Same key nodes; vfit's file only grows by what the key needs, not by
	# mkimage's padding schedule (man/vfit.1).
	tree m.dtb > m.ctl.dts
	tree v.dtb > v.ctl.dts
	ok "$c: control DTB: same tree" cmp m.ctl.dts v.ctl.dts
	ok "$c: control DTB no larger than mkimage's" test "$(wc -c < v.dtb)" -le "$(wc -c < m.dtb)"
	case $c in auto*) ;;  # creator strings differ in length
	*) ok "$c: file size identical" test "$(wc -c < m.fit)" = "$(wc -c < v.fit)" ;;
	esac
}

for h in sha1 sha256 sha384 sha512; do
	for b in 2048 3072 4096; do
		its c.its $h $h,rsa$b key$b conf
		same "conf $h,rsa$b" -f c.its -k k1 -r
		ok "conf $h,rsa$b verifies" "$VFIT" verify -f v.fit -k v.dtb
	done
	its i.its $h $h,rsa2048 key2048 image
	same "image $h" -f i.its -k k1 -r
done
its b.its sha256 sha256,rsa2048 key2048 both
same "image+conf, comment" -f b.its -k k1 -r -c "release 1"
same "-o override" -f b.its -k k1 -o sha384,rsa2048
same "external -E" -E -f b.its -k k1 -r
same "external -E -B 1000" -E -B 1000 -f b.its -k k1 -r
same "external -E -p 20000" -E -p 20000 -f b.its -k k1 -r
ok "-E -p verifies" "$VFIT" verify -f v.fit -k v.dtb
same "auto" -f auto -A arm64 -O linux -T kernel -C none -a 80000 -e 80000 -n Linux \
	-d kernel.bin -b board.dtb -i ramdisk.bin
same "auto signed" -f auto -A arm64 -O linux -T kernel -C none -d kernel.bin -b board.dtb \
	-g key2048 -o sha256,rsa2048 -k k1 -r
its h.its sha256 sha256,rsa2048 key2048 none
sed -i 's/hash-2 { algo = "crc32"; };/hash-2 { algo = "crc32"; }; hash-3 { algo = "md5"; }; hash-4 { algo = "crc16-ccitt"; }; hash-5 { algo = "sha1"; };/' h.its
"$MKIMAGE" -f h.its m.fit > /dev/null 2>&1
"$VFIT" mkimage -q -f h.its v.fit
tree m.fit > m.dts
tree v.fit > v.dts
ok "every hash algorithm" cmp m.dts v.dts
ok "unsigned FIT byte-identical" cmp m.fit v.fit

# Payloads of 1 MiB and more skip dtc (read straight into the blob): same bytes.
head -c 1500000 /dev/urandom > big.bin
mkdir sub
its sub/big.its sha256 sha256,rsa2048 key2048 both
sed -i 's|"kernel.bin"|"big.bin"|; s|"board.dtb"|"../board.dtb"|' sub/big.its
mv big.bin sub/
same "1.5 MB payload" -f sub/big.its -k k1 -r
cmp -s m.fit v.fit
status 1 "1.5 MB payload: differs only in signer strings" test \
	"$(cmp -l m.fit v.fit | wc -l)" -gt 40

# Two passes, two key directories (mkimage skips missing keys; vfit needs
# --allow-missing-keys for that).
its t.its sha256 sha256,rsa2048 key2048 two
"$MKIMAGE" -f t.its m.fit > /dev/null 2>&1
cp m.fit v.fit
cp control0.dtb m.dtb
cp control0.dtb v.dtb
"$MKIMAGE" -F -k k1 -K m.dtb -r m.fit > /dev/null 2>&1
"$MKIMAGE" -F -k k2 -K m.dtb -r m.fit > /dev/null 2>&1
ok "two passes: pass 1" "$VFIT" mkimage -q -F -k k1 -K v.dtb -r --allow-missing-keys v.fit
ok "two passes: pass 2" "$VFIT" mkimage -q -F -k k2 -K v.dtb -r --allow-missing-keys v.fit
tree m.fit > m.dts
tree v.fit > v.dts
ok "two passes: same tree" cmp m.dts v.dts
tree m.dtb > m.ctl.dts
tree v.dtb > v.ctl.dts
ok "two passes: same control DTB tree" cmp m.ctl.dts v.ctl.dts
ok "two passes: both verify" "$VFIT" verify -f v.fit -k v.dtb

# A ramdisk outside sign-images: mkimage 2023.01 leaves it out of the
# signed list, vfit (U-Boot HEAD's rule) covers it.  Only hashed-nodes and
# the configuration signature's value differ.
its r.its sha256 sha256,rsa2048 key2048 conf '"fdt", "kernel"' ramdisk
cp control0.dtb v.dtb
"$MKIMAGE" -f r.its -k k1 m.fit > /dev/null 2>&1
"$VFIT" mkimage -q -f r.its -k k1 -K v.dtb -r v.fit
tree m.fit | grep -v 'hashed-nodes\|value = ' > m.dts
tree v.fit | grep -v 'hashed-nodes\|value = ' > v.dts
ok "ramdisk: same tree but hashed-nodes/value" cmp m.dts v.dts
status 0 "ramdisk: vfit lists the ramdisk" test "$(fdtget v.fit /configurations/conf-1/signature-1 hashed-nodes | tr ' ' '\n' | grep -c ramdisk)" = 2
status 0 "ramdisk: mkimage does not" test "$(fdtget m.fit /configurations/conf-1/signature-1 hashed-nodes | tr ' ' '\n' | grep -c ramdisk)" = 0
ok "ramdisk: vfit's FIT verifies" "$VFIT" verify -f v.fit -k v.dtb

# Debian's mkimage re-signs a vfit FIT (and the other way round) to the same tree.
its c.its sha256 sha256,rsa2048 key2048 conf
"$VFIT" mkimage -q -f c.its v.fit
cp v.fit m.fit
"$MKIMAGE" -F -k k1 m.fit > /dev/null 2>&1
"$VFIT" mkimage -q -F -k k1 v.fit
tree m.fit > m.dts
tree v.fit > v.dts
ok "-F on the same input" cmp m.dts v.dts
finish
