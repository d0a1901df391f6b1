# SPDX-License-Identifier: BSD-3-Clause
# Helpers of tests/build's packaging checks (deb.sh, install.sh, yocto.sh,
# buildroot.sh), sourced after tests/lib.sh.
#   tree_copy DEST        DEST gets the working tree as a commit of it would
#                         hold it: tracked and untracked files .gitignore does
#                         not exclude (no build/, no debian/ build output), so
#                         a build in DEST starts as from a clean checkout.
#   dev_check NAME PCDIR SYSROOT  a program built with pkg-config's flags for
#                         vfit.pc in PCDIR (paths under SYSROOT) prints
#                         vfit_version() equal to the tree's version
#   man_check NAME PAGE WORD      man -l renders PAGE without a warning, and
#                         the text names WORD (a tool name or the page's own)
#   yocto_inputs          in the current directory: fit-image.its as oe-core's
#                         kernel-fitimage.bbclass writes it for one DTB and
#                         UBOOT_SIGN_KEYNAME=dev (kept literal: what is tested),
#                         its linux.bin and am335x-boneblack.dtb, and u-boot.dtb
#   VERSION               the tree's version, from include/vfit/vfit.h
VERSION=$(sed -n 's/^#define VFIT_VERSION_\(MAJOR\|MINOR\|PATCH\) //p' \
	"$ROOT/include/vfit/vfit.h" | paste -sd.)

tree_copy() {
	mkdir -p "$1" &&
		git -C "$ROOT" ls-files -z --cached --others --exclude-standard --deduplicate |
		(cd "$ROOT" && xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) |
		tar -C "$ROOT" --null -T - -cf - | tar -C "$1" -xf -
}

dev_check() {
	printf '#include <stdio.h>\n#include <vfit/vfit.h>\nint main(void)\n{\n%s\n%s\n}\n' \
		'	unsigned v = vfit_version();' \
		'	return printf("%u.%u.%u\n", v >> 16, (v >> 8) & 255, v & 255) < 0;' >"$T/dev.c"
	_flags=$(PKG_CONFIG_LIBDIR=$2 PKG_CONFIG_SYSROOT_DIR=$3 pkg-config --cflags --libs vfit)
	# shellcheck disable=SC2086
	if ! cc -o "$T/dev" "$T/dev.c" $_flags >"$T/.out" 2>&1; then
		fail "$1: cc with pkg-config's flags ($_flags)"
		sed 's/^/    /' "$T/.out" | tail -n 5
		return
	fi
	is "$1: a program linked with it prints vfit_version()" "$VERSION" "$("$T/dev")"
}

man_check() {
	MANWIDTH=80 man --warnings -l "$2" >"$T/man.txt" 2>"$T/man.err"
	_rc=$?
	is "$1: man -l $(basename "$2") exits 0 without a warning" "0:" "$_rc:$(cat "$T/man.err")"
	contains "$1: the rendered page names $3" "$T/man.txt" "$3"
}

yocto_inputs() {
	random linux.bin 20000
	printf '/dts-v1/; / { model = "BeagleBone Black"; compatible = "ti,am335x-bone-black"; };' |
		dtc -I dts -O dtb -o am335x-boneblack.dtb
	printf '/dts-v1/; / { model = "u-boot"; };' | dtc -I dts -O dtb -o u-boot.dtb
	cat >fit-image.its <<'EOF'
/dts-v1/;

/ {
        description = "Kernel fitImage for Poky/5.0/beaglebone-yocto";
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
                };
                fdt-am335x-boneblack.dtb {
                        description = "Flattened Device Tree blob";
                        data = /incbin/("am335x-boneblack.dtb");
                        type = "flat_dt";
                        arch = "arm";
                        compression = "none";
                        hash-1 {
                                algo = "sha256";
                        };
                };
	};

        configurations {
                default = "conf-am335x-boneblack.dtb";
                conf-am335x-boneblack.dtb {
                        description = "1 Linux kernel, FDT blob";
                        kernel = "kernel-1";
                        fdt = "fdt-am335x-boneblack.dtb";
                        hash-1 {
                                algo = "sha256";
                        };
                        signature-1 {
                                algo = "sha256,rsa2048";
                                key-name-hint = "dev";
                                padding = "pkcs-1.5";
                                sign-images = "kernel", "fdt";
                        };
                };
	};
};
EOF
}
