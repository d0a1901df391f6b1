#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit mkimage against U-Boot HEAD's mkimage and fit_check_sign for what
# only HEAD has: -f auto-conf (oe-core's uboot-sign.bbclass since 2025,
# Phytec's meta-ampliphy), -y/-Y/-z/-Z, HEAD's long options, dm-verity
# generation (doc/usage/fit/dm-verity.rst) and HEAD's listing of them.
# The anchors are found by tests/fixtures.sh's `anchors` ($MKIMAGE_HEAD /
# $FIT_CHECK_SIGN_HEAD, then $VFIT_ANCHORS and ../shared/anchors beside the
# repository); without them this test reports itself skipped.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/fixtures.sh"
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000
VMKIMAGE=$BUILD/mkimage
anchors
H=$HEAD_MKIMAGE FCS=$HEAD_CHECK
if [ -z "$H" ] || [ -z "$FCS" ] || [ ! -x "$H" ] || [ ! -x "$FCS" ]; then
	skip anchor "U-Boot HEAD's mkimage and fit_check_sign not found (set MKIMAGE_HEAD, FIT_CHECK_SIGN_HEAD): nothing compared"
	finish
	exit $?
fi

random kernel.bin 5000
random rd.bin 3000
random bl31.bin 300
random tee.bin 200
printf '/dts-v1/; / { model = "board"; compatible = "v,b"; };' | dtc -I dts -O dtb -o board.dtb
printf '/dts-v1/; / { model = "u-boot"; };' | dtc -I dts -O dtb -o ctl.dtb
mkdir keys
"$VFIT" keygen -a rsa2048 -k keys -n dev >/dev/null || exit 2

# Signature values (and hashed-nodes, see below) left out: the creator
# string, which differs, is in the signed root node.
tree() {
	dtc -I dtb -O dts "$1" 2>/dev/null | awk -v drop="${2:-value}" '
		/^[\t ]*signature[^ ]* \{/ { sig = 1 }
		sig && /^[\t ]*};/ { sig = 0 }
		sig && $1 ~ "^(" drop ")$" { next }
		/signer-name|signer-version|creator = / { next }
		{ print }'
}

# both NAME ARGS...: HEAD and vfit, each with a fresh copy of ctl.dtb as -K.
both() {
	name=$1
	shift
	cp ctl.dtb h.dtb
	cp ctl.dtb v.dtb
	"$H" "$@" -K h.dtb h.itb > h.out 2>&1
	rh=$?
	"$VMKIMAGE" "$@" -K v.dtb v.itb > v.out 2>&1
	rv=$?
	status 0 "$name: same exit status ($rh/$rv)" test "$rh" = "$rv"
	[ "$rh" = "$rv" ] || sed 's/^/    /' v.out | tail -n 5
}
same() { # NAME [PROPS-TO-DROP-IN-SIGNATURES]
	tree h.itb "${2:-value}" > h.dts
	tree v.itb "${2:-value}" > v.dts
	if [ -s h.dts ] && cmp -s h.dts v.dts; then pass; else fail "$1: trees differ"; diff h.dts v.dts | head -n 10; fi
	dtc -I dtb -O dts h.dtb > hk.dts 2>/dev/null
	dtc -I dtb -O dts v.dtb > vk.dts 2>/dev/null
	ok "$1: same key node in the -K DTB" cmp hk.dts vk.dts
}

# oe-core meta/classes-recipe/uboot-sign.bbclass concat_dtb (2025+), also
# Phytec's fitimage-signature class: a dummy auto-conf FIT to put the
# configuration key into u-boot.dtb, then fit_check_sign on it.
both "uboot-sign auto-conf" -D "-I dts -O dtb -p 2000" -f auto-conf -k keys -o sha256,rsa2048 \
	-g dev -d /dev/null -r -c "a smart comment"
same "uboot-sign auto-conf"
ok "uboot-sign auto-conf: HEAD's fit_check_sign accepts vfit's" "$FCS" -k v.dtb -f v.itb

# auto-conf with every HEAD option: HEAD's signer covers only kernel and
# fdt (sign-images defaults), so HEAD's own verifier rejects its FIT; vfit
# signs every referenced image (ramdisk, TF-A, TEE) and HEAD accepts it.
both "auto-conf -i -y -z" -f auto-conf -A arm64 -O linux -T kernel -C none -a 80000 -e 80000 \
	-n Linux -d kernel.bin -b board.dtb -b board.dtb -i rd.bin -y bl31.bin -Y 40000 \
	-z tee.bin -Z 50000 -g dev -o sha256,rsa2048 -k keys -r
same "auto-conf -i -y -z" "value|hashed-nodes"
ok "auto-conf -i -y -z: HEAD accepts vfit's conf-1" "$FCS" -k v.dtb -f v.itb -c conf-1
ok "auto-conf -i -y -z: HEAD accepts vfit's conf-2" "$FCS" -k v.dtb -f v.itb -c conf-2
status 1 "auto-conf -i: HEAD rejects its own FIT" "$FCS" -k h.dtb -f h.itb -c conf-1
ok "auto-conf -i -y -z: vfit verify" "$VFIT" verify -f v.itb -k v.dtb
"$H" -l h.itb > h.l
"$VMKIMAGE" -l h.itb > v.l
ok "auto-conf: -l of HEAD's FIT as HEAD prints it" cmp h.l v.l
# mkimage exits 1 on every error, vfit 2 on usage errors.
status 1 "auto-conf without -g: HEAD refuses" "$H" -f auto-conf -d kernel.bin x.itb
status 2 "auto-conf without -g: vfit refuses" "$VMKIMAGE" -f auto-conf -d kernel.bin x.itb
contains "auto-conf without -g: says what is missing" "$T/.out" "auto-conf .*needs -g KEYNAME and -o ALGO"

# -f auto with -y/-z (HEAD's layout: "hash" nodes, loadables).
both "-f auto -y -z" -f auto -A arm64 -O linux -T kernel -C none -d kernel.bin -y bl31.bin \
	-z tee.bin -Z 50000
same "-f auto -y -z"

# Every long option HEAD has for FITs.  HEAD's own --tfa-bl31-file,
# --tfa-bl31-addr, --tee-file and --tee-addr take no argument there (the
# addresses crash it, the files become the output name), so HEAD gets the
# short letters for those four.
long="--fit auto --architecture arm64 --os linux --type kernel --compression none
	--load-address 80000 --entry-point 80000 --config Linux --image kernel.bin
	--device-tree board.dtb --initramfs rd.bin --key-name-hint dev --algo sha256,rsa2048
	--key-dir keys --key-required --comment hi --external --alignment 8 --position 0
	--quiet"
cp ctl.dtb h.dtb
cp ctl.dtb v.dtb
rm -f h.itb v.itb
# shellcheck disable=SC2086
ok "long options: HEAD" "$H" $long -y bl31.bin -Y 40000 -z tee.bin -Z 50000 -K h.dtb h.itb
# shellcheck disable=SC2086
ok "long options: vfit" "$VMKIMAGE" $long --tfa-bl31-file bl31.bin --tfa-bl31-addr 40000 \
	--tee-file tee.bin --tee-addr 50000 --dtcopts "-I dts" --key-dest v.dtb v.itb
same "long options"
cp v.itb short.itb
"$VMKIMAGE" -q -f auto -A arm64 -O linux -T kernel -C none -a 80000 -e 80000 -n Linux \
	-d kernel.bin -b board.dtb -i rd.bin -y bl31.bin -Y 40000 -z tee.bin -Z 50000 -g dev \
	-o sha256,rsa2048 -k keys -r -c hi -E -B 8 -K v.dtb short2.itb
ok "long options = short options" cmp short.itb short2.itb
cp h.itb upd.itb
ok "--update --touch --key-file" "$VMKIMAGE" --update --touch --key-file keys/dev.key \
	--key-name-hint dev --quiet upd.itb

# dm-verity (doc/usage/fit/dm-verity.rst): mkimage -E -B 0x1000 -f image.its,
# with the document's .its as it is written there (not fixtures.sh's).
random rootfs.squashfs $((64 * 4096))
cat > verity.its <<'EOF'
/dts-v1/;

/ {
    description = "Kernel + dm-verity rootfs";
    #address-cells = <1>;

    images {
        kernel {
            description = "Linux kernel";
            data = /incbin/("./kernel.bin");
            type = "kernel";
            arch = "arm64";
            os = "linux";
            compression = "gzip";
            load = <0x44000000>;
            entry = <0x44000000>;
            hash-1 {
                algo = "sha256";
            };
        };

        rootfs {
            description = "SquashFS root filesystem";
            data = /incbin/("./rootfs.squashfs");
            type = "filesystem";
            arch = "arm64";
            compression = "none";
            hash-1 {
                algo = "sha256";
            };

            dm-verity {
                algo = "sha256";
                data-block-size = <4096>;
                hash-block-size = <4096>;
            };
        };
    };

    configurations {
        default = "config-1";
        config-1 {
            description = "Boot with dm-verity rootfs";
            kernel = "kernel";
            loadables = "rootfs";
            signature-1 { algo = "sha256,rsa2048"; key-name-hint = "dev"; sign-images = "kernel", "loadables"; };
        };
    };
};
EOF
both "dm-verity" -E -B 0x1000 -f verity.its -k keys -r
# Root hash and salt differ (random salt), and with them the image hash.
dtc -I dtb -O dts h.itb 2>/dev/null | grep -v 'digest =\|salt =\|value =\|creator' > h.dts
dtc -I dtb -O dts v.itb 2>/dev/null | grep -v 'digest =\|salt =\|value =\|creator\|signer' > v.dts
grep -v 'signer' h.dts > h2.dts
ok "dm-verity: same tree but digest, salt, hash values" cmp h2.dts v.dts
ok "dm-verity: HEAD accepts vfit's FIT" "$FCS" -k v.dtb -f v.itb
cp h.itb again.itb
ok "dm-verity: vfit -E -F over HEAD's FIT" "$VMKIMAGE" -q -E -B 0x1000 -F again.itb
ok "dm-verity: rebuilds HEAD's tree byte for byte" cmp h.itb again.itb
"$H" -l v.itb > h.l
"$VMKIMAGE" -l v.itb > v.l
ok "dm-verity: -l as HEAD" cmp h.l v.l
contains "dm-verity: listed" v.l "^  Verity salt:  [0-9a-f]{64}$"
status 2 "dm-verity without -E" "$VMKIMAGE" -f verity.its x.itb
contains "dm-verity without -E: says so" "$T/.out" "dm-verity needs external data \(-E\)"
if command -v veritysetup >/dev/null 2>&1; then
	hex() { fdtget -tx v.itb /images/rootfs/dm-verity "$1" | awk '{ for (i = 1; i <= NF; i++) printf "%08s", $i }' | tr ' ' 0; }
	off=$(($(od -An -tu4 --endian=big -j4 -N4 v.itb | tr -d ' ') + 3))
	off=$((off / 4 * 4 + $(fdtget v.itb /images/rootfs data-offset)))
	tail -c +$((off + 1)) v.itb | head -c "$(fdtget v.itb /images/rootfs data-size)" > fs.img
	ok "dm-verity: veritysetup verify" veritysetup verify --no-superblock \
		--hash-offset=$((64 * 4096)) --data-blocks=64 --salt="$(hex salt)" fs.img fs.img "$(hex digest)"
else
	skip tool "veritysetup not installed (cryptsetup-bin): tree not checked by it"
fi

# Legacy images and -T list as HEAD writes them.
printf 'echo hi\n' > boot.cmd
"$H" -A arm64 -T script -C none -d boot.cmd h.scr > /dev/null
"$VMKIMAGE" -q -A arm64 -T script -C none -d boot.cmd v.scr
ok "boot script as HEAD" cmp h.scr v.scr
"$H" -A arm -T fdt_legacy -C none -d board.dtb h.img > /dev/null
"$VMKIMAGE" -q -A arm -T fdt_legacy -C none -d board.dtb v.img
ok "fdt_legacy as HEAD" cmp h.img v.img
"$H" -T list > h.l 2>&1
"$VMKIMAGE" -T list > v.l 2>&1
ok "-T list as HEAD" cmp h.l v.l
finish
