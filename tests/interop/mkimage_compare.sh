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
. "$ROOT/tests/fixtures.sh"
need dtc fdtget
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000
MKIMAGE=${MKIMAGE:-/usr/bin/mkimage}
if ! "$MKIMAGE" -V 2>/dev/null | grep -q 'mkimage version 2023\.01'; then
	skip tool "$MKIMAGE is not Debian's mkimage 2023.01 (u-boot-tools): nothing compared"
	finish
	exit $?
fi

fit_inputs 5000
random ramdisk.bin 3000
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

# tree NAME FIT OUT [GREP-V-REGEX]: FIT's source without the strings that
# name the tool (a failure, and an empty OUT, if dtc cannot decode FIT)
tree() {
	to_dts "$1" "$2" "$3.full" &&
		grep -v "signer-name\|signer-version\|creator = ${4:+\|$4}" "$3.full" >"$3"
}

# both NAME MKIMAGE-ARGS...: the same command through both tools, into m.fit
# (-K m.dtb) and v.fit (-K v.dtb); fails unless both succeed
both() {
	c=$1
	shift
	rm -f m.fit v.fit
	cp nosig.dtb m.dtb
	cp nosig.dtb v.dtb
	"$MKIMAGE" "$@" -K m.dtb m.fit >"$T/.mout" 2>&1
	rm=$?
	"$VFIT" mkimage -q "$@" -K v.dtb v.fit >"$T/.vout" 2>&1
	rv=$?
	if [ "$rm/$rv" = 0/0 ] && [ -s m.fit ] && [ -s v.fit ]; then
		pass
		return 0
	fi
	fail "$c: mkimage exit $rm, vfit exit $rv"
	cat "$T/.mout" "$T/.vout" | tail -n 10 | sed 's/^/    /'
	return 1
}

# compare NAME MKIMAGE-ARGS...: both tools; same trees and -K DTBs
compare() {
	both "$@" || return
	c=$1
	tree "$c: mkimage" m.fit m.dts
	tree "$c: vfit" v.fit v.dts
	same "$c: same tree" m.dts v.dts
	# Same key nodes; vfit's file only grows by what the key needs, not by
	# mkimage's padding schedule (man/vfit.1).
	tree "$c: mkimage -K" m.dtb m.ctl.dts
	tree "$c: vfit -K" v.dtb v.ctl.dts
	same "$c: control DTB: same tree" m.ctl.dts v.ctl.dts
	ok "$c: control DTB no larger than mkimage's" test "$(wc -c < v.dtb)" -le "$(wc -c < m.dtb)"
	"$MKIMAGE" -l m.fit > m.l 2>&1
	"$VFIT" mkimage -l v.fit > v.l 2>&1
	ok "$c: -l prints the same" cmp m.l v.l
	case $c in auto*) ;;  # creator strings differ in length
	*) is "$c: file size identical" "$(wc -c < m.fit)" "$(wc -c < v.fit)" ;;
	esac
}

for h in sha1 sha256 sha384 sha512; do
	for b in 2048 3072 4096; do
		its c.its $h $h,rsa$b key$b conf
		compare "conf $h,rsa$b" -f c.its -k k1 -r
		ok "conf $h,rsa$b verifies" "$VFIT" verify -f v.fit -k v.dtb
	done
	its i.its $h $h,rsa2048 key2048 image
	compare "image $h" -f i.its -k k1 -r
done
its b.its sha256 sha256,rsa2048 key2048 both
compare "image+conf, comment" -f b.its -k k1 -r -c "release 1"
compare "-o override" -f b.its -k k1 -o sha384,rsa2048
compare "external -E" -E -f b.its -k k1 -r
compare "external -E -B 1000" -E -B 1000 -f b.its -k k1 -r
compare "external -E -p 20000" -E -p 20000 -f b.its -k k1 -r
ok "-E -p verifies" "$VFIT" verify -f v.fit -k v.dtb
compare "auto" -f auto -A arm64 -O linux -T kernel -C none -a 80000 -e 80000 -n Linux \
	-d kernel.bin -b board.dtb -i ramdisk.bin
compare "auto signed" -f auto -A arm64 -O linux -T kernel -C none -d kernel.bin -b board.dtb \
	-g key2048 -o sha256,rsa2048 -k k1 -r
its h.its sha256 sha256,rsa2048 key2048 none
sed -i 's/hash-2 { algo = "crc32"; };/hash-2 { algo = "crc32"; }; hash-3 { algo = "md5"; }; hash-4 { algo = "crc16-ccitt"; }; hash-5 { algo = "sha1"; };/' h.its
rm -f m.fit v.fit
ok "every hash: mkimage" "$MKIMAGE" -f h.its m.fit
ok "every hash: vfit" "$VFIT" mkimage -q -f h.its v.fit
tree "every hash: mkimage" m.fit m.dts
tree "every hash: vfit" v.fit v.dts
same "every hash algorithm" m.dts v.dts
same "unsigned FIT byte-identical" m.fit v.fit

# Payloads of 1 MiB and more skip dtc (read straight into the blob): same bytes.
mkdir sub
random sub/big.bin 1500000
its sub/big.its sha256 sha256,rsa2048 key2048 both
sed -i 's|"kernel.bin"|"big.bin"|; s|"board.dtb"|"../board.dtb"|' sub/big.its
compare "1.5 MB payload" -f sub/big.its -k k1 -r
n=$(cmp -l m.fit v.fit 2>&1 | wc -l)
if [ -s m.fit ] && [ "$n" -ge 1 ] && [ "$n" -le 40 ]; then
	pass
else
	fail "1.5 MB payload: $n bytes differ, want 1..40 (the signer strings)"
fi

# Two passes, two key directories (mkimage skips missing keys; vfit needs
# --allow-missing-keys for that).  Each pass must succeed and sign.
its t.its sha256 sha256,rsa2048 key2048 two
rm -f m.fit v.fit
ok "two passes: mkimage builds" "$MKIMAGE" -f t.its m.fit
cp m.fit unsigned.fit
cp m.fit v.fit
cp nosig.dtb m.dtb
cp nosig.dtb v.dtb
ok "two passes: mkimage pass 1" "$MKIMAGE" -F -k k1 -K m.dtb -r m.fit
ok "two passes: mkimage pass 2" "$MKIMAGE" -F -k k2 -K m.dtb -r m.fit
ok "two passes: pass 1" "$VFIT" mkimage -q -F -k k1 -K v.dtb -r --allow-missing-keys v.fit
ok "two passes: pass 2" "$VFIT" mkimage -q -F -k k2 -K v.dtb -r --allow-missing-keys v.fit
for f in m v; do
	for sig in signature-1 signature-2; do
		is "two passes: $f.fit has a $sig value" 256 \
			"$(fdtget -t bx $f.fit /configurations/conf-1/$sig value 2>&1 | wc -w)"
	done
done
tree "two passes: mkimage" m.fit m.dts
tree "two passes: vfit" v.fit v.dts
same "two passes: same tree" m.dts v.dts
tree "two passes: mkimage -K" m.dtb m.ctl.dts
tree "two passes: vfit -K" v.dtb v.ctl.dts
same "two passes: same control DTB tree" m.ctl.dts v.ctl.dts
ok "two passes: both verify" "$VFIT" verify -f v.fit -k v.dtb

# A ramdisk outside sign-images: mkimage 2023.01 leaves it out of the
# signed list, vfit (U-Boot HEAD's rule) covers it.  Only hashed-nodes and
# the configuration signature's value differ.
its r.its sha256 sha256,rsa2048 key2048 conf '"fdt", "kernel"' ramdisk
cp nosig.dtb v.dtb
rm -f m.fit v.fit
ok "ramdisk: mkimage signs" "$MKIMAGE" -f r.its -k k1 m.fit
ok "ramdisk: vfit signs" "$VFIT" mkimage -q -f r.its -k k1 -K v.dtb -r v.fit
tree "ramdisk: mkimage" m.fit m.dts 'hashed-nodes\|value = '
tree "ramdisk: vfit" v.fit v.dts 'hashed-nodes\|value = '
same "ramdisk: same tree but hashed-nodes/value" m.dts v.dts
status 0 "ramdisk: vfit lists the ramdisk" test "$(fdtget v.fit /configurations/conf-1/signature-1 hashed-nodes | tr ' ' '\n' | grep -c ramdisk)" = 2
status 0 "ramdisk: mkimage does not" test "$(fdtget m.fit /configurations/conf-1/signature-1 hashed-nodes | tr ' ' '\n' | grep -c ramdisk)" = 0
ok "ramdisk: vfit's FIT verifies" "$VFIT" verify -f v.fit -k v.dtb
# mkimage's FIT fails there (as on U-Boot HEAD), and both say why.
cp nosig.dtb m.dtb
"$MKIMAGE" -F -k k1 -K m.dtb -r m.fit > /dev/null 2>&1
status 1 "ramdisk: mkimage's FIT refused" "$VFIT" verify -f m.fit -k m.dtb
contains "ramdisk: verify names the image left out" "$T/.out" \
	"^vfit: m.fit: /configurations/conf-1/signature-1: does not cover image 'ramdisk-1' \(ramdisk\), which U-Boot HEAD and vfit check: sign again with vfit mkimage, or add \"ramdisk\" to sign-images$"
ok "ramdisk: info" "$VFIT" info m.fit
contains "ramdisk: info flags the gap" "$T/.out" "^  WARNING:      signature-1 does not cover image 'ramdisk-1' \(ramdisk\)"
ok "ramdisk: info on vfit's FIT" "$VFIT" info v.fit
cp "$T/.out" vinfo.txt
status 1 "ramdisk: no gap in vfit's FIT" grep -q "does not cover" vinfo.txt

# Debian's mkimage re-signs a vfit FIT (and the other way round) to the same
# tree: each -F must succeed and change the unsigned input.
its c.its sha256 sha256,rsa2048 key2048 conf
rm -f m.fit v.fit
ok "-F: vfit builds the unsigned FIT" "$VFIT" mkimage -q -f c.its v.fit
cp v.fit unsigned.fit
cp v.fit m.fit
ok "-F: mkimage signs" "$MKIMAGE" -F -k k1 m.fit
ok "-F: vfit signs" "$VFIT" mkimage -q -F -k k1 v.fit
status 1 "-F: mkimage changed the FIT" cmp -s m.fit unsigned.fit
status 1 "-F: vfit changed the FIT" cmp -s v.fit unsigned.fit
tree "-F: mkimage" m.fit m.dts
tree "-F: vfit" v.fit v.dts
same "-F on the same input" m.dts v.dts
for f in m v; do
	is "-F: $f.fit has a signature value" 256 \
		"$(fdtget -t bx $f.fit /configurations/conf-1/signature-1 value 2>&1 | wc -w)"
done
finish
