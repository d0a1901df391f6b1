#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The exact mkimage command lines real build systems run, each run twice
# from identical copies of the inputs: once with Debian's mkimage (u-boot-tools
# 2023.01), once with vfit called by the name `mkimage` ($BUILD/mkimage).
# Same exit status; FITs give the same tree (dtc -I dtb -O dts, signer
# name/version and creator aside), legacy images and -K control DTBs the
# same bytes (SOURCE_DATE_EPOCH fixed).  Where each line comes from is
# written above it; the list is repeated in README.md ("mkimage").
# The command lines and .its texts are kept literal, as those build
# systems write them (whitespace included), not made by tests/fixtures.sh:
# they are what is tested, so their likeness to other tests' sources is
# not repetition to share.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000
MKIMAGE=${MKIMAGE:-/usr/bin/mkimage}
VMKIMAGE=$BUILD/mkimage
if ! "$MKIMAGE" -V 2>/dev/null | grep -q 2023.01; then
	skip tool "$MKIMAGE is not Debian's mkimage 2023.01 (u-boot-tools): nothing compared"
	finish
	exit $?
fi

# ---- inputs, shared by both runs -------------------------------------------
mkdir in in/keys in/spl in/dts
random in/linux.bin 20000
random in/initramfs.cpio.gz 3000
random in/u-boot-nodtb.bin 4000
random in/bl31.bin 600
random in/tee-raw.bin 500
printf 'echo "hello world"\nbooti ${kernel_addr_r} - ${fdt_addr_r}\n' > in/boot.cmd
printf '/dts-v1/; / { model = "BeagleBone Black"; compatible = "ti,am335x-bone-black"; };' |
	dtc -I dts -O dtb -o in/dts/am335x-boneblack.dtb
printf '/dts-v1/; / { model = "Pinebook Pro"; compatible = "pine64,pinebook-pro"; };' |
	dtc -I dts -O dtb -o in/rk3399-pinebook-pro.dtb
printf '/dts-v1/; / { model = "u-boot"; };' | dtc -I dts -O dtb -o in/u-boot.dtb
cp in/u-boot.dtb in/spl/u-boot-spl.dtb
"$VFIT" keygen -a rsa2048 -k in/keys -n dev >/dev/null || exit 2
"$VFIT" keygen -a rsa2048 -k in/keys -n dev2 >/dev/null || exit 2

tree() { dtc -I dtb -O dts "$1" 2>/dev/null | grep -v 'signer-name\|signer-version\|creator = '; }

# both NAME SCRIPT: runs SCRIPT in m/ with $MK = Debian's mkimage and in v/
# with $MK = vfit as `mkimage`; the exit statuses must match.
both() {
	name=$1
	rm -rf m v
	cp -r in m
	cp -r in v
	(cd m && MK=$MKIMAGE sh -c "$2") > m.out 2>&1
	rm_=$?
	(cd v && MK=$VMKIMAGE sh -c "$2") > v.out 2>&1
	rv=$?
	status 0 "$name: same exit status ($rm_/$rv)" test "$rm_" = "$rv"
	[ "$rv" = "$rm_" ] || sed 's/^/    /' v.out | tail -n 5
}
same_tree() {
	tree "m/$2" > m.dts
	tree "v/$2" > v.dts
	if [ -s m.dts ] && cmp -s m.dts v.dts; then pass; else fail "$1: $2 trees differ"; diff m.dts v.dts | head -n 10; fi
}
same_bytes() { ok "$1: $2 identical" cmp "m/$2" "v/$2"; }
# A -K control DTB: mkimage's key nodes, but vfit does not grow the file on
# mkimage 2023.01's padding schedule (man/vfit.1), so: same tree, no larger.
same_keydtb() {
	same_tree "$1" "$2"
	ok "$1: $2 no larger than mkimage's" test "$(wc -c < "v/$2")" -le "$(wc -c < "m/$2")"
}
same_list() {
	"$MKIMAGE" -l "m/$2" > m.l 2>/dev/null
	"$VMKIMAGE" -l "v/$2" > v.l 2>/dev/null
	sed -i 's|^\(.*\) [mv]/|\1 |' m.l v.l
	ok "$1: -l of $2 the same" cmp m.l v.l
}

# ---- Yocto / OpenEmbedded ---------------------------------------------------
# The .its that meta/classes-recipe/kernel-fitimage.bbclass emits (and
# meta/lib/oe/fitimage.py since 2025): kernel-1, fdt-<dtb>, bootscr-<file>,
# ramdisk-1, each with hash-1; a configuration per DTB with hash-1 and
# signature-1 (padding pkcs-1.5, sign-images of every image it uses);
# with FIT_SIGN_INDIVIDUAL an image signature with the image key.
kits() { # FILE INDIVIDUAL
	isig=
	[ "$2" = 1 ] && isig='signature-1 { algo = "sha256,rsa2048"; key-name-hint = "dev2"; };'
	cat > "$1" <<EOF
/dts-v1/;

/ {
        description = "Kernel fitImage for Poky/6.6/beaglebone-yocto";
        #address-cells = <1>;

        images {
                kernel-1 {
                        description = "Linux kernel";
                        data = /incbin/("linux.bin");
                        type = "kernel";
                        arch = "arm";
                        os = "linux";
                        compression = "none";
                        load = <0x80008000>;
                        entry = <0x80008000>;
                        hash-1 {
                                algo = "sha256";
                        };
                        $isig
                };
                fdt-am335x-boneblack.dtb {
                        description = "Flattened Device Tree blob";
                        data = /incbin/("dts/am335x-boneblack.dtb");
                        type = "flat_dt";
                        arch = "arm";
                        compression = "none";
                        hash-1 {
                                algo = "sha256";
                        };
                        $isig
                };
                bootscr-boot.cmd {
                        description = "U-boot script";
                        data = /incbin/("boot.cmd");
                        type = "script";
                        arch = "arm";
                        compression = "none";
                        hash-1 {
                                algo = "sha256";
                        };
                        $isig
                };
                ramdisk-1 {
                        description = "core-image-minimal-initramfs";
                        data = /incbin/("initramfs.cpio.gz");
                        type = "ramdisk";
                        arch = "arm";
                        os = "linux";
                        compression = "none";
                        hash-1 {
                                algo = "sha256";
                        };
                        $isig
                };
        };

        configurations {
                default = "conf-am335x-boneblack.dtb";
                conf-am335x-boneblack.dtb {
                        description = "1 Linux kernel, FDT blob, ramdisk, u-boot script";
                        kernel = "kernel-1";
                        fdt = "fdt-am335x-boneblack.dtb";
                        ramdisk = "ramdisk-1";
                        bootscr = "bootscr-boot.cmd";
                        hash-1 {
                                algo = "sha256";
                        };
                        signature-1 {
                                algo = "sha256,rsa2048";
                                key-name-hint = "dev";
                                padding = "pkcs-1.5";
                                sign-images = "kernel", "fdt", "ramdisk", "bootscr";
                        };
                };
        };
};
EOF
}
kits in/fit-image.its 0
kits in/fit-image-ind.its 1

# kernel-fitimage.bbclass fitimage_assemble, steps 7 and 8
# (UBOOT_MKIMAGE_DTCOPTS = "-I dts -O dtb -p 2000", UBOOT_MKIMAGE_SIGN_ARGS
# = "-c 'a smart comment'" as oe-selftest sets them): the signing pass has
# -D and -r but no -K.
both "kernel-fitimage assemble+sign" '
	$MK -D "-I dts -O dtb -p 2000" -f fit-image.its fitImage-none &&
	$MK -D "-I dts -O dtb -p 2000" -F -k keys -r fitImage-none -c "a smart comment"'
same_tree "kernel-fitimage" fitImage-none
same_list "kernel-fitimage" fitImage-none
# meta/lib/oe/fitimage.py run_mkimage_sign: the same, options after the file.
both "oe.fitimage sign" '
	$MK -D "-I dts -O dtb -p 2000" -f fit-image.its fitImage &&
	$MK -F -k keys -r fitImage -D "-I dts -O dtb -p 2000" -c "a smart comment"'
same_tree "oe.fitimage" fitImage
# uboot-sign.bbclass concat_dtb (up to 2024): re-sign the kernel FIT to put the
# key into u-boot.dtb.
both "uboot-sign concat_dtb" '
	$MK -D "-I dts -O dtb -p 2000" -f fit-image-ind.its fitImage-linux &&
	$MK -D "-I dts -O dtb -p 2000" -F -k keys -K u-boot.dtb -r fitImage-linux'
same_tree "concat_dtb" fitImage-linux
same_keydtb "concat_dtb" u-boot.dtb
ok "concat_dtb: vfit verify" "$VFIT" verify -f v/fitImage-linux -k v/u-boot.dtb
# uboot-sign.bbclass concat_dtb (since 2025), FIT_SIGN_INDIVIDUAL = "1": a
# throw-away auto FIT from /dev/null, only to write the image key.
both "uboot-sign dummy -f auto" '
	$MK -D "-I dts -O dtb -p 2000" -f auto -k keys -o sha256,rsa2048 -g dev2 \
		-K u-boot.dtb -d /dev/null -r unused.itb -c "a smart comment"'
same_tree "dummy -f auto" unused.itb
same_keydtb "dummy -f auto" u-boot.dtb

# uboot-sign.bbclass uboot_fitimage_assemble with SPL_SIGN_ENABLE,
# UBOOT_FIT_ARM_TRUSTED_FIRMWARE and UBOOT_FIT_TEE: image signatures only
# (no hash nodes), the key into the SPL DTB.
cat > in/u-boot.its <<'EOF'
/dts-v1/;

/ {
    description = "U-Boot fitImage for Poky/2024.01/qemuarm64";
    #address-cells = <1>;

    images {
        uboot {
            description = "U-Boot image";
            data = /incbin/("u-boot-nodtb.bin");
            type = "standalone";
            os = "u-boot";
            arch = "arm64";
            compression = "none";
            load = <0x80080000>;
            entry = <0x80080000>;
            signature {
                algo = "sha256,rsa2048";
                key-name-hint = "dev2";
            };
        };
        fdt {
            description = "U-Boot FDT";
            data = /incbin/("u-boot.dtb");
            type = "flat_dt";
            arch = "arm64";
            compression = "none";
            signature {
                algo = "sha256,rsa2048";
                key-name-hint = "dev2";
            };
        };
        tee {
            description = "Trusted Execution Environment";
            data = /incbin/("tee-raw.bin");
            type = "tee";
            arch = "arm64";
            os = "tee";
            load = <0x8e000000>;
            entry = <0x8e000000>;
            compression = "none";
            signature {
                algo = "sha256,rsa2048";
                key-name-hint = "dev2";
            };
        };
        atf {
            description = "ARM Trusted Firmware";
            data = /incbin/("bl31.bin");
            type = "firmware";
            arch = "arm64";
            os = "arm-trusted-firmware";
            load = <0x80000000>;
            entry = <0x80000000>;
            compression = "none";
            signature {
                algo = "sha256,rsa2048";
                key-name-hint = "dev2";
            };
        };
    };

    configurations {
        default = "conf";
        conf {
            description = "Boot with signed U-Boot FIT";
            loadables = "atf", "tee", "uboot";
            fdt = "fdt";
        };
    };
};
EOF
both "uboot_fitimage_assemble" '
	$MK -D "-I dts -O dtb -p 2000" -f u-boot.its u-boot-fitImage &&
	$MK -D "-I dts -O dtb -p 2000" -F -k keys -K spl/u-boot-spl.dtb -r u-boot-fitImage'
same_tree "u-boot FIT" u-boot-fitImage
same_keydtb "u-boot FIT" spl/u-boot-spl.dtb
same_list "u-boot FIT" u-boot-fitImage

# meta/recipes-bsp/u-boot/u-boot.inc (UBOOT_ENV_SUFFIX = "scr") and
# uboot-extlinux-config.bbclass's boot script: -C none -A arch -T script.
both "u-boot.inc boot script" '$MK -C none -A arm -T script -d boot.cmd boot.scr'
same_bytes "boot script" boot.scr
same_list "boot script" boot.scr

# ---- Buildroot -----------------------------------------------------------
# package/uboot-tools/uboot-tools.mk HOST_UBOOT_TOOLS_GENERATE_BOOT_SCRIPT
both "uboot-tools boot.scr" '$MK -C none -A arm64 -T script -d boot.cmd boot.scr'
same_bytes "uboot-tools boot.scr" boot.scr
# fs/cpio/cpio.mk ROOTFS_CPIO_UBOOT_MKIMAGE (BR2_TARGET_ROOTFS_CPIO_UIMAGE)
both "cpio uImage" '$MK -A arm -T ramdisk -C none -d initramfs.cpio.gz initramfs.cpio.uboot'
same_bytes "cpio uImage" initramfs.cpio.uboot
same_list "cpio uImage" initramfs.cpio.uboot
# board post-image.sh of the Pinebook Pro (Buildroot external tree): a -f
# auto kernel FIT, an rkspi boot image (SoC type: vfit refuses with one
# line, so only mkimage builds it) and per-device boot scripts.
both "pinebook-pro FIT" '
	$MK -f auto -A arm64 -O linux -T kernel -C lzma -a 0x02080000 -e 0x02080000 \
		-n linux -d linux.bin -b rk3399-pinebook-pro.dtb Image.fit &&
	$MK -C none -A arm64 -T script -d boot.cmd boot-sdcard.scr'
same_tree "pinebook-pro" Image.fit
same_bytes "pinebook-pro" boot-sdcard.scr
status 2 "rkspi refused" "$VMKIMAGE" -n rk3399 -T rkspi -d in/u-boot-nodtb.bin:in/bl31.bin idb.bin
contains "rkspi: one line naming the type" "$T/.out" "^vfit: image type 'rkspi' \(Rockchip SPI Boot Image\) is a SoC boot image: vfit does not build it"
status 1 "rkspi: nothing written" test -e idb.bin

# ---- meta-rockchip, meta-mediatek -------------------------------------------
# meta-rockchip recipes-bsp/u-boot/u-boot_%.bbappend: the idblock through
# mkimage's rksd type, refused by vfit like every SoC boot-ROM format.
status 2 "meta-rockchip rksd refused" "$VMKIMAGE" -n rk3399 -T rksd -d in/u-boot-nodtb.bin idblock.img
contains "rksd: one line" "$T/.out" "^vfit: image type 'rksd' \(Rockchip SD Boot Image\) is a SoC boot image"
# meta-mediatek-bsp classes/kernel-fitimage-with-dtbo.bbclass: the
# kernel-fitimage its, then -F -k -K -r in one pass.
both "meta-mediatek dtbo FIT" '
	$MK -D "-I dts -O dtb -p 2000" -f fit-image.its fitImage &&
	$MK -D "-I dts -O dtb -p 2000" -F -k keys -K u-boot.dtb -r fitImage'
same_tree "meta-mediatek" fitImage
same_keydtb "meta-mediatek" u-boot.dtb

# ---- Linux ------------------------------------------------------------------
# scripts/Makefile.lib cmd_uimage (make uImage LOADADDR=0x80008000)
both "make uImage" "\$MK -A arm -O linux -C none -T kernel -a 0x80008000 -e 0x80008000 -n 'Linux-6.1.0' -d linux.bin uImage"
same_bytes "make uImage" uImage
# scripts/make_fit.py: its FIT (kernel_noload, fdt-N with compatible, one
# configuration each, no hash nodes) made external with `mkimage -E -F`.
cat > in/image.dts <<'EOF'
/dts-v1/;
/ {
	description = "Linux-6.10 with devicetree set";
	#address-cells = <1>;
	timestamp = <0x6553f100>;
	images {
		kernel {
			description = "Linux-6.10";
			type = "kernel_noload";
			arch = "arm64";
			os = "linux";
			compression = "gzip";
			data = /incbin/("linux.bin");
			load = <0>;
			entry = <0>;
		};
		fdt-1 {
			description = "Pinebook Pro";
			type = "flat_dt";
			arch = "arm64";
			compression = "gzip";
			compatible = "pine64,pinebook-pro";
			data = /incbin/("rk3399-pinebook-pro.dtb");
		};
	};
	configurations {
		conf-1 {
			compatible = "pine64,pinebook-pro";
			description = "Pinebook Pro";
			fdt = "fdt-1";
			kernel = "kernel";
		};
	};
};
EOF
(cd in && dtc -I dts -O dtb -o image.fit image.dts) || exit 2
both "make_fit.py -E" '$MK -E -F image.fit'
same_tree "make_fit.py" image.fit
# The external data must match byte for byte; mkimage 2023.01 leaves two
# stale bytes in the FDT's alignment padding, vfit (like HEAD) zeroes them.
fdtsize() { od -An -tu4 --endian=big -j4 -N4 "$1" | tr -d ' '; }
status 0 "make_fit.py: same FDT size" test "$(fdtsize m/image.fit)" = "$(fdtsize v/image.fit)"
tail -c +"$(($(fdtsize m/image.fit) + 1))" m/image.fit > m.ext
tail -c +"$(($(fdtsize v/image.fit) + 1))" v/image.fit > v.ext
ok "make_fit.py: external data identical" cmp m.ext v.ext
status 0 "make_fit.py: data moved out" test "$(wc -c < v.ext)" -gt 20000

# ---- the rest of mkimage's command line, as scripts use it -------------------
for k in A O C; do
	"$MKIMAGE" -$k list 2>&1 | sed -n '/supported are:/,/^$/p' | grep -v '^$' > m.l
	"$VMKIMAGE" -$k list 2>&1 | grep -v '^$' > v.l
	ok "-$k list: mkimage's table" cmp m.l v.l
done
"$MKIMAGE" -T list > m.l 2>&1
"$VMKIMAGE" -T list > v.l 2>&1
status 0 "-T list: every mkimage 2023.01 line" test "$(grep -cvxFf v.l m.l)" = 0
# A read-only -K DTB: mkimage (not root) fails to open it, vfit refuses it.
if command -v setpriv >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
	rm -rf ro && cp -r in ro && chmod 444 ro/u-boot.dtb && chmod -R a+rX ro && chmod a+rwx ro
	chmod 755 "$T"
	asnobody() { (cd ro && setpriv --reuid=65534 --regid=65534 --clear-groups "$@"); }
	status 1 "read-only -K: mkimage fails" asnobody "$MKIMAGE" -f fit-image.its -K u-boot.dtb m.fit
	status 2 "read-only -K: vfit refuses" asnobody "$VMKIMAGE" -f fit-image.its -K u-boot.dtb v.fit
	contains "read-only -K: says so" "$T/.out" "u-boot.dtb: read-only file \(mode 0444\), not replaced"
	ok "read-only -K: unchanged" cmp ro/u-boot.dtb in/u-boot.dtb
else
	skip root "read-only -K against mkimage needs root and setpriv (mkimage as root writes anyway)"
fi

# ---- U-Boot's documentation -------------------------------------------------
# doc/usage/fit/beaglebone_vboot.rst step 5 (with the kernel-fitimage its).
both "beaglebone_vboot" '$MK -f fit-image.its -K u-boot.dtb -k keys -r image.fit'
same_tree "beaglebone_vboot" image.fit
same_keydtb "beaglebone_vboot" u-boot.dtb
# doc/usage/fit/signature.rst: re-sign an existing FIT in place.
both "signature.rst -F" '$MK -f fit-image.its image.fit && $MK -F -k keys -K u-boot.dtb -r image.fit'
same_tree "signature.rst -F" image.fit
same_keydtb "signature.rst -F" u-boot.dtb
# doc/usage/fit/sec_firmware_ppa.rst: '@' in image names (and a type U-Boot
# does not know).  mkimage builds it with a warning; so does vfit, but it
# refuses to sign it, and U-Boot (like vfit verify) checks no signature in it.
mkdir -p in/ppa/obj
random in/ppa/obj/monitor.bin 1000
random in/fuse_scr.bin 300
cat > in/ppa/ppa.its <<'EOF'
/dts-v1/;

/{
    description = "PPA Firmware";
    #address-cells = <1>;
    images {
        firmware@1 {
            description = "PPA Firmware: <version>";
            data = /incbin/("./obj/monitor.bin");
            type = "firmware";
            arch = "arm64";
            compression = "none";
        };
        trustedOS@1 {
            description = "Trusted OS";
            data = /incbin/("../tee-raw.bin");
            type = "OS";
            arch = "arm64";
            compression = "none";
            load = <0x00200000>;
        };
        fuse_scr {
            description = "Fuse Script";
            data = /incbin/("../fuse_scr.bin");
            type = "firmware";
            arch = "arm64";
            compression = "none";
            load = <0x00180000>;
        };
    };

    configurations {
        default = "config-1";
        config-1 {
            description = "PPA Secure firmware";
            firmware = "firmware@1";
            loadables = "trustedOS@1", "fuse_scr";
        };
    };
};
EOF
both "sec_firmware_ppa (@)" '$MK -f ppa/ppa.its ppa.itb'
same_tree "sec_firmware_ppa" ppa.itb
same_bytes "sec_firmware_ppa" ppa.itb
same_list "sec_firmware_ppa" ppa.itb
contains "@: mkimage warns" m.out "unit addresses @, this will break signing"
contains "@: vfit warns" v.out "^vfit: mkimage: warning: ppa/ppa.its: /images/firmware@1: '@' in a node name: U-Boot will not verify signatures in this FIT$"
sed 's|^            load = <0x00180000>;|&\n            signature-1 { algo = "sha256,rsa2048"; key-name-hint = "dev"; };|' \
	in/ppa/ppa.its > in/ppa/ppa-signed.its
status 1 "@: vfit refuses to sign" sh -c "cd in && '$VMKIMAGE' -q -f ppa/ppa-signed.its -k keys x.itb"
contains "@: says why" "$T/.out" "ppa/ppa-signed.its: /images/firmware@1: '@' in a node name: U-Boot verifies no signature in such a FIT"
status 1 "@: nothing written" test -e in/x.itb
status 1 "@: vfit verify refuses" "$VFIT" verify -f v/ppa.itb -k in/u-boot.dtb
contains "@: names the node" "$T/.out" "/images/firmware@1: unit address \(@\) in node name"
finish
