#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The mkimage command lines of Debian's flash-kernel and of OpenWrt's image
# build, run with Debian's mkimage (u-boot-tools 2023.01) and with vfit
# called `mkimage`, from identical copies of the inputs: the same exit
# status, legacy images byte for byte (SOURCE_DATE_EPOCH fixed), FITs the
# same tree and the same payloads (read back with Debian's dumpimage).
# Each command line is quoted above the case as the script writes it; the
# variables are filled in with the values those scripts pass.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000
MKIMAGE=${MKIMAGE:-/usr/bin/mkimage}
DUMPIMAGE=${DUMPIMAGE:-/usr/bin/dumpimage}
if ! "$MKIMAGE" -V 2>/dev/null | grep -q 'mkimage version 2023\.01'; then
	skip tool "$MKIMAGE is not Debian's mkimage 2023.01 (u-boot-tools): nothing compared"
	finish
	exit $?
fi
mkdir bin
ln -s "$VFIT" bin/mkimage

mkdir in
random in/vmlinuz 20000
random in/initrd.img 7000
random in/Image.lzma 9000
printf '/dts-v1/; / { model = "board"; compatible = "v,board"; };' | dtc -I dts -O dtb -o in/board.dtb
printf 'setenv bootargs "console=ttyS0 root=/dev/mmcblk0p2"\nload mmc 0 ${kernel_addr_r} vmlinuz\nbootz ${kernel_addr_r}\n' >in/bootscript

# both NAME CMD: CMD (a shell line using mkimage from PATH, as the scripts
# do) in m/ with Debian's mkimage first in PATH and in v/ with vfit's.
both() {
	rm -rf m v
	cp -r in m
	cp -r in v
	(cd m && PATH=/usr/bin:$PATH sh -c "$2") >m.out 2>&1
	rm_=$?
	(cd v && PATH=$T/bin:$PATH sh -c "$2") >v.out 2>&1
	rv=$?
	is "$1: exit status" "$rm_" "$rv"
	[ "$rv" = "$rm_" ] || sed 's/^/    /' v.out | tail -n 5
}
same_bytes() { same "$1: $2 identical" "m/$2" "v/$2"; }

# ---- Debian flash-kernel, functions ---------------------------------------
# mkimage_script():
#	mkimage -A "$mkarch" -O linux -T script -C none -a "$saddr" -e "$saddr" \
#		-n "$sdesc" -d "$tdata" "$script" >&2 1>/dev/null
# $saddr is the machine's U-Boot-Script-Address, empty for most current
# boards (Firefly-RK3399, ODROID-C2, ESPRESSOBin, NanoPi NEO2): mkimage reads "" as 0.
for saddr in "" 0x02000000 0x4004000000; do
	both "flash-kernel script -a '$saddr'" "saddr='$saddr'; mkarch=arm64; sdesc='boot script'; tdata=bootscript; script=boot.scr
	mkimage -A \"\$mkarch\" -O linux -T script -C none -a \"\$saddr\" -e \"\$saddr\" \\
		-n \"\$sdesc\" -d \"\$tdata\" \"\$script\" >&2 1>/dev/null"
	same_bytes "flash-kernel script -a '$saddr'" boot.scr
done
# The X-Gene Mustang's 0x4004000000 is truncated to the header's 32 bits, as
# mkimage does, with a warning naming it.
contains "flash-kernel script: truncation named" v.out 'warning: -a 0x4004000000 truncated to 0x04000000'
# mkimage_kernel(), mkimage_initrd(), mkimage_multi():
#	mkimage -A "$mkarch" -O linux -T kernel -C none -a "$kaddr" -e "$epoint" \
#		-n "$kdesc" -d "$kdata" "$uimage" >&2 1>/dev/null
#	mkimage -A "$mkarch" -O linux -T ramdisk -C none -a "$iaddr" -e "$iaddr" \
#		-n "$idesc" -d "$idata" "$uinitrd" >&2 1>/dev/null
#	mkimage -A "$mkarch" -O linux -T multi -C none -a "$maddr" -e "$maddr" \
#		-n "$mdesc" -d "$kdata:$idata" "$umulti" >&2 1>/dev/null
for addr in "" 0x00008000; do
	both "flash-kernel kernel -a '$addr'" "kaddr='$addr'; epoint='$addr'; mkarch=arm; kdesc='kernel 6.1.0-13-armmp'; kdata=vmlinuz; uimage=uImage
	mkimage -A \"\$mkarch\" -O linux -T kernel -C none -a \"\$kaddr\" -e \"\$epoint\" \\
		-n \"\$kdesc\" -d \"\$kdata\" \"\$uimage\" >&2 1>/dev/null"
	same_bytes "flash-kernel kernel -a '$addr'" uImage
	both "flash-kernel initrd -a '$addr'" "iaddr='$addr'; mkarch=arm; idesc='initramfs 6.1.0-13-armmp'; idata=initrd.img; uinitrd=uInitrd
	mkimage -A \"\$mkarch\" -O linux -T ramdisk -C none -a \"\$iaddr\" -e \"\$iaddr\" \\
		-n \"\$idesc\" -d \"\$idata\" \"\$uinitrd\" >&2 1>/dev/null"
	same_bytes "flash-kernel initrd -a '$addr'" uInitrd
	both "flash-kernel multi -a '$addr'" "maddr='$addr'; mkarch=arm; mdesc='kernel + initramfs'; kdata=vmlinuz; idata=initrd.img; umulti=uImage
	mkimage -A \"\$mkarch\" -O linux -T multi -C none -a \"\$maddr\" -e \"\$maddr\" \\
		-n \"\$mdesc\" -d \"\$kdata:\$idata\" \"\$umulti\" >&2 1>/dev/null"
	same_bytes "flash-kernel multi -a '$addr'" uImage
done
# A kernel at an address wider than 32 bits would load elsewhere: vfit
# refuses it (README, deliberate differences) where mkimage truncates.
(cd v && PATH=$T/bin:$PATH mkimage -A arm64 -O linux -T kernel -C none -a 0x4000080000 \
	-e 0x4000080000 -n k -d vmlinuz uImage.wide) >v.out 2>&1
is "64-bit kernel address refused" 2 "$?"
ok "64-bit kernel address: nothing written" test ! -e v/uImage.wide

# ---- OpenWrt, include/image-commands.mk ---------------------------------------
# Build/append-uImage-fakehdr (Netgear EX2700, DM200, ipq40xx DniImage devices):
#	touch $@.fakehdr
#	$(STAGING_DIR_HOST)/bin/mkimage \
#		-A $(LINUX_KARCH) -O linux -T $(type) -C none \
#		-n '$(VERSION_DIST) fake $(type)' \
#		$(if $(magic),-M $(magic)) \
#		-d $@.fakehdr \
#		-s \
#		$@.fakehdr
# (-M is OpenWrt's own patch to mkimage; the devices here pass no magic.)
for type in filesystem kernel; do
	both "OpenWrt fakehdr $type" "touch k.fakehdr
	mkimage -A mips -O linux -T $type -C none -n 'OpenWrt fake $type' -d k.fakehdr -s k.fakehdr"
	same_bytes "OpenWrt fakehdr $type" k.fakehdr
	is "OpenWrt fakehdr $type: header only" 64 "$(wc -c <v/k.fakehdr)"
done
# Build/uImage:
#	mkimage \
#		-A $(LINUX_KARCH) \
#		-O linux \
#		-T kernel \
#		-C $(word 1,$(1)) \
#		-a $(KERNEL_LOADADDR) \
#		-e $(if $(KERNEL_ENTRY),$(KERNEL_ENTRY),$(KERNEL_LOADADDR)) \
#		-n '$(if $(UIMAGE_NAME),$(UIMAGE_NAME),$(call toupper,$(LINUX_KARCH)) $(VERSION_DIST) Linux-$(LINUX_VERSION))' \
#		$(if $(UIMAGE_MAGIC),-M $(UIMAGE_MAGIC)) \
#		$(wordlist 2,$(words $(1)),$(1)) \
#		-d $@ $@.new
both "OpenWrt uImage lzma" "mkimage -A mips -O linux -T kernel -C lzma -a 0x80060000 -e 0x80060000 \
	-n 'MIPS OpenWrt Linux-6.6.60' -d Image.lzma Image.lzma.new"
same_bytes "OpenWrt uImage lzma" Image.lzma.new

# Build/fit: scripts/mkits.sh -D $(DEVICE_NAME) -o $@.its -k $@ -C ... -d ...
# -a $(KERNEL_LOADADDR) -e ... -c "config-1" -A $(LINUX_KARCH) -v $(LINUX_VERSION),
# then:
#	PATH=$(LINUX_DIR)/scripts/dtc:$(PATH) mkimage $(if $(findstring external,$(word 3,$(1))),\
#		-E -B 0x1000 $(if $(findstring static,$(word 3,$(1))),-p 0x1000)) -f $@.its $@.new
# The .its below is what mkits.sh writes for `-A arm64 -C lzma -a 0x48000000
# -e 0x48000000 -v 6.6.60 -k Image.lzma -d board.dtb -D glinet_gl-mt6000
# -c config-1` (kernel-1 and fdt-1, a crc32 and a sha1 hash each).
cat >in/fit.its <<'EOF'
/dts-v1/;

/ {
	description = "ARM64 OpenWrt FIT (Flattened Image Tree)";
	#address-cells = <1>;

	images {
		kernel-1 {
			description = "ARM64 OpenWrt Linux-6.6.60";
			data = /incbin/("Image.lzma");
			type = "kernel";
			arch = "arm64";
			os = "linux";
			compression = "lzma";
			load = <0x48000000>;
			entry = <0x48000000>;
			hash-1 {
				algo = "crc32";
			};
			hash-2 {
				algo = "sha1";
			};
		};

		fdt-1 {
			description = "ARM64 OpenWrt glinet_gl-mt6000 device tree blob";
			
			data = /incbin/("board.dtb");
			type = "flat_dt";
			
			arch = "arm64";
			compression = "none";
			hash-1 {
				algo = "crc32";
			};
			hash-2 {
				algo = "sha1";
			};
		};

	};

	configurations {
		default = "config-1";
		config-1 {
			description = "OpenWrt glinet_gl-mt6000";
			kernel = "kernel-1";
			fdt = "fdt-1";
			
			
			
		};

	};
};
EOF
tree() { dtc -I dtb -O dts "$1" 2>/dev/null; }
for opts in "" "-E -B 0x1000" "-E -B 0x1000 -p 0x1000"; do
	both "OpenWrt fit '$opts'" "mkimage $opts -f fit.its fit.new"
	tree m/fit.new >m.dts
	tree v/fit.new >v.dts
	same "OpenWrt fit '$opts': same tree" m.dts v.dts
	for p in 0 1; do
		"$DUMPIMAGE" -T flat_dt -p $p -o m.part m/fit.new >/dev/null 2>&1
		"$DUMPIMAGE" -T flat_dt -p $p -o v.part v/fit.new >/dev/null 2>&1
		same "OpenWrt fit '$opts': image $p" m.part v.part
	done
done
finish
