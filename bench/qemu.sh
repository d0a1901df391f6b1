#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The QEMU virt stage in guest instructions: QEMU runs with
# `-icount shift=0,sleep=off`, so the generic timer advances one ns per
# guest instruction and the stage's "time" lines read as instruction
# counts (deterministic: the same on every run; the stage sleeps in WFI
# while the disk DMAs, so reading costs next to nothing).  Per architecture,
# the full boot flow (vfit_boot(): state, slot choice, rollback check) on
# the default disk, slot A holding linux.fit (Debian's kernel + busybox
# initramfs, sha256,rsa2048): reading the FIT from the virtio disk,
# verifying, loading (arm64 also with gzip and LZ4 Images, and a chain of
# two stages), and reset to kernel entry.  Where the U-Boot HEAD
# anchor binaries are (tests/fixtures.sh's `anchors`), U-Boot's
# `time bootm start` of the same FIT runs next to it, as the anchors'
# README measured it; without them that column says "-".  Last, network
# recovery: the recovery FIT fetched over QEMU's slirp and verified, next
# to U-Boot's `dhcp; tftpboot; bootm start` of it (net_rows).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
Q=$BUILD/qemu
VFIT=$BUILD/vfit
. "$ROOT/tests/fixtures.sh"
anchors
MARKER="VFIT-QEMU-MARKER: userspace reached on"
T=$(mktemp -d "${TMPDIR:-/tmp}/vfit-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

for a in arm64 arm; do
	make -s BUILD="$BUILD" ARCH=$a qemu-stage qemu-disk >"$T/make.log" 2>&1 ||
		{ echo "qemu bench: make qemu-stage qemu-disk ARCH=$a failed"; tail "$T/make.log"; exit 1; }
done

# run ARCH DISK NAME: one icount boot of $STAGE (default stage.bin); its lines in $T/NAME.log
run() {
	_a=$1 _d=$2 _n=$3
	shift 3
	QEMU_TIMEOUT=180 ports/qemu-virt/boot "$_a" "$Q/$_a/${STAGE:-stage.bin}" "$_d" "$MARKER" \
		-icount shift=0,sleep=off "$@" >"$T/$_n.log" 2>&1 ||
		{ echo "qemu bench: $_n did not boot"; grep -a vfit-stage "$T/$_n.log"; exit 1; }
}
t() { sed -n "s/^vfit-stage: time $2 \([0-9]*\) ns.*/\1/p" "$T/$1.log"; }
m() { awk -v n="$1" 'BEGIN { printf "%.1f M", n / 1e6 }'; }
k() { awk -v n="$1" 'BEGIN { printf "%.1f K", n / 1e3 }'; }

# uboot ARCH FIT: U-Boot's `time bootm start` of FIT in guest instructions, or "-".
uboot() {
	bin=$ANCHORS/u-boot-head-qemu_$( [ "$1" = arm64 ] && echo arm64 || echo arm )-cmdtime.bin
	[ -f "$bin" ] || { echo -; return; }
	if [ "$1" = arm64 ]; then qemu="qemu-system-aarch64 -M virt -cpu cortex-a57"
	else qemu="qemu-system-arm -M virt -cpu cortex-a15"; fi
	# Control DTB: QEMU's own, with the stage's /signature node grafted in.
	$qemu -m 2048 -smp 1 -nic none -display none -M virt,dumpdtb="$T/virt.dtb" >/dev/null 2>&1
	{ dtc -I dtb -O dts "$T/virt.dtb" 2>/dev/null
	  dtc -I dtb -O dts "$Q/$1/rom.dtb" 2>/dev/null | sed '/^\/dts-v1\/;/d'; } >"$T/ctl.dts"
	dtc -I dts -O dtb -o "$T/ctl.dtb" "$T/ctl.dts" 2>/dev/null || { echo -; return; }
	cp "$T/ctl.dtb" "$T/ctl-$1.dtb"
	printf '\nsetenv verify yes\ntime bootm start 0x50000000#conf-1\n' >"$T/cmds"
	# shellcheck disable=SC2086
	$qemu -m 2048 -smp 1 -nic none -display none -monitor none -serial stdio -bios "$bin" \
		-dtb "$T/ctl.dtb" -icount shift=0,sleep=off \
		-device loader,file="$2",addr=0x50000000,force-raw=on <"$T/cmds" >"$T/uboot.log" 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 600 ] && ! grep -aq '^time:' "$T/uboot.log"; do sleep 0.2; i=$((i + 1)); done
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	s=$(sed -n 's/^time: *\([0-9.]*\) seconds.*/\1/p' "$T/uboot.log" | head -n 1)
	[ -n "$s" ] && awk -v s="$s" 'BEGIN { printf "%.0f", s * 1e9 }' || echo -
}

printf '%-34s %10s %10s %10s %12s %14s %14s %7s\n' "guest instructions (-icount 0)" read verify load \
	verify+load "kernel entry" "U-Boot bootm" ratio
# row LOG LABEL UBOOT: one line of the table from the stage's time lines in LOG.
row() {
	v=$(t $1 verify) l=$(t $1 load)
	r=- ub=-
	if [ "$3" != - ]; then
		r=$(awk -v x=$((v + l)) -v y="$3" 'BEGIN { printf "%.3fx", x / y }')
		ub=$(m "$3")
	fi
	printf '%-34s %10s %10s %10s %12s %14s %14s %7s\n' "$2" "$(k "$(t $1 read)")" "$(m "$v")" \
		"$(m "$l")" "$(m $((v + l)))" "$(m "$(t $1 reset-to-kernel-entry)")" "$ub" "$r"
}
for a in arm64 arm; do
	# The default disk's contents, fresh: make qemu-boot's image keeps its boots' state.
	"$VFIT" disk create --slot-size 48M "$T/$a.img" >/dev/null &&
		"$VFIT" disk write "$T/$a.img" a "$Q/$a/linux.fit" &&
		"$VFIT" disk write "$T/$a.img" b "$Q/$a/linux.fit" &&
		"$VFIT" disk write "$T/$a.img" recovery "$Q/$a/recovery.fit" || exit 1
	run $a "$T/$a.img" $a
	rm -f "$T/$a.img"
	row $a "$a $(wc -c <"$Q/$a/linux.fit") B FIT" "$(uboot $a "$Q/$a/linux.fit")"
done

# uboot_swtpm DIR: swtpm on the state in DIR, its control socket DIR/sock (TPM_PID)
uboot_swtpm() {
	rm -f "$1/sock"
	swtpm socket --tpm2 --tpmstate "dir=$1" --ctrl "type=unixio,path=$1/sock" >"$1/swtpm.log" 2>&1 &
	TPM_PID=$!
	while [ ! -S "$1/sock" ]; do sleep 0.05; done
}

# uboot_tpm BANKS: U-Boot HEAD's measured bootm (the tpm-measured anchor) of linux.fit's twin
# with swtpm's PCR banks BANKS, reset to kernel entry in guest instructions; "-" without the
# anchor.  The twin's kernel starts with bench/kernel_probe.S (same sizes, same hashing and
# copying); the control DTB is QEMU's own with the stage's /signature node and the event-log
# area in the TPM node (anchors README), passed on to the kernel as its fdt (the FIT has none).
uboot_tpm() {
	bin=$ANCHORS/u-boot-head-qemu_arm64-tpm-measured.bin
	[ -f "$bin" ] || { echo -; return; }
	U=$T/ub-$(echo "$1" | tr , -)          # swtpm's options would split a path at a comma
	rm -rf "$U" && mkdir -p "$U" &&
		swtpm_setup --tpm2 --tpmstate "$U" --pcr-banks "$1" >"$U/setup.log" 2>&1 || { echo -; return; }
	tpm="-chardev socket,id=chrtpm,path=$U/sock -tpmdev emulator,id=tpm0,chardev=chrtpm
-device tpm-tis-device,tpmdev=tpm0"
	qemu="qemu-system-aarch64 -M virt -cpu cortex-a57 -m 2048 -smp 1 -nic none -display none"
	if [ ! -f "$T/probe.fit" ]; then
		aarch64-linux-gnu-as -o "$T/probe.o" bench/kernel_probe.S &&
			aarch64-linux-gnu-objcopy -O binary "$T/probe.o" "$T/probe.bin" || { echo -; return; }
		cp "$(ls "$Q"/root-arm64/boot/vmlinuz-* | head -n 1)" "$T/probe.Image"
		# code0: b +64, past the Image header; the probe there
		printf '\020\000\000\024' | dd of="$T/probe.Image" conv=notrunc 2>/dev/null
		dd if="$T/probe.bin" of="$T/probe.Image" bs=64 seek=1 conv=notrunc 2>/dev/null
		VFIT=$VFIT ports/qemu-virt/mkfit -i 1 arm64 "$T/probe.Image" "$Q/arm64/initramfs-main.cpio" \
			0x40400000 "$Q/keys" "$T/probe.fit" >/dev/null || { echo -; return; }
	fi
	if [ ! -f "$T/ctl-tpm.dtb" ]; then
		uboot_swtpm "$U"
		# shellcheck disable=SC2086
		$qemu -bios "$bin" $tpm -M virt,dumpdtb="$T/virt-tpm.dtb" >/dev/null 2>&1
		tpm_stop
		{ dtc -I dtb -O dts "$T/virt-tpm.dtb" 2>/dev/null
		  dtc -I dtb -O dts "$Q/arm64/rom.dtb" 2>/dev/null | sed '/^\/dts-v1\/;/d'
		  printf '&{/platform-bus@c000000/tpm_tis@0} { linux,sml-base = <0x0 0x4ff00000>; '
		  printf 'linux,sml-size = <0x10000>; };\n/ { reserved-memory { #address-cells = <2>; '
		  printf '#size-cells = <2>; ranges; tpm-log@4ff00000 { reg = <0x0 0x4ff00000 0x0 0x10000>; '
		  printf '}; }; };\n'; } >"$T/ctl-tpm.dts"
		dtc -I dts -O dtb -o "$T/ctl-tpm.dtb" "$T/ctl-tpm.dts" 2>/dev/null || { echo -; return; }
	fi
	uboot_swtpm "$U"
	printf '\nsetenv verify yes\nbootm 0x50000000#conf-1 0x50000000#conf-1 ${fdtcontroladdr}\n' \
		>"$T/cmds"
	# shellcheck disable=SC2086
	$qemu -monitor none -serial stdio -bios "$bin" -dtb "$T/ctl-tpm.dtb" -icount shift=0,sleep=off \
		$tpm -device loader,file="$T/probe.fit",addr=0x50000000,force-raw=on \
		<"$T/cmds" >"$U/uboot.log" 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 1500 ] && ! grep -aq '^VFIT-PROBE ' "$U/uboot.log"; do
		sleep 0.2
		i=$((i + 1))
	done
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	tpm_stop
	# count * 1e9 / frequency: ns, one per instruction under -icount shift=0
	# shellcheck disable=SC2046
	set -- $(sed -n 's/^VFIT-PROBE \([0-9a-f]*\) \([0-9a-f]*\)$/\1 \2/p' "$U/uboot.log" | tr -d '\r')
	if [ $# = 2 ]; then echo $((0x$1 * 1000000000 / 0x$2)); else echo -; fi
}

# Measured boot with the trust state in a TPM: stage-tpm.bin (its ROM requires one), swtpm
# with the indices provisioned, the same FIT and disk as the boot without a TPM above.  arm64
# with the sha256 bank alone and with all four (sha1, sha256, sha384, sha512: each image is
# hashed once more, all of them in one pass), armv7 with sha256.  "no TPM" is the boot above;
# "U-Boot HEAD" is U-Boot's measured bootm of the same FIT with the same banks, reset to kernel
# entry, run here where the anchor is (uboot_tpm), and "vs U-Boot" the ratio of the two.
if command -v swtpm_setup >/dev/null && command -v tpm2_nvdefine >/dev/null; then
	. "$ROOT/tests/qemu/lib/tpm.sh"
	trap 'tpm_stop; rm -rf "$T"' EXIT
	printf '%-34s %14s %14s %9s %9s %14s %10s\n' "with a TPM (-icount 0)" "kernel entry" "no TPM" ratio \
		"TPM cmds" "U-Boot HEAD" "vs U-Boot"
	n=0
	for r in arm64:sha256:"sha256 bank" arm64:sha1,sha256,sha384,sha512:"4 banks" \
		arm:sha256:"sha256 bank"; do
		a=${r%%:*} banks=${r#*:} n=$((n + 1))
		label="$a measured, ${banks#*:}" banks=${banks%%:*}
		TPM=$T/tpm$n
		tpm_new "$TPM" "$banks" || { echo "qemu bench: swtpm provisioning failed"; exit 1; }
		"$VFIT" disk create --slot-size 48M "$T/$a.img" >/dev/null &&
			"$VFIT" disk write "$T/$a.img" a "$Q/$a/linux.fit" || exit 1
		swtpm socket --tpm2 --tpmstate "dir=$TPM" --ctrl "type=unixio,path=$TPM/sock" \
			>"$TPM/swtpm.log" 2>&1 &
		TPM_PID=$!
		while [ ! -S "$TPM/sock" ]; do sleep 0.05; done
		STAGE=stage-tpm.bin run $a "$T/$a.img" tpm$n -chardev socket,id=chrtpm,path="$TPM/sock" \
			-tpmdev emulator,id=tpm0,chardev=chrtpm -device tpm-tis-device,tpmdev=tpm0
		tpm_stop
		rm -f "$T/$a.img"
		with=$(t tpm$n reset-to-kernel-entry) without=$(t $a reset-to-kernel-entry)
		cmds=$(sed -n 's/.*platform hierarchy disabled, \([0-9]*\) TPM commands.*/\1/p' "$T/tpm$n.log")
		ub=- vs=-
		[ $a = arm64 ] && ub=$(uboot_tpm "$banks")
		[ "$ub" != - ] && vs=$(awk -v x="$with" -v y="$ub" 'BEGIN { printf "%.4fx", x / y }') &&
			ub=$(m "$ub")
		printf '%-34s %14s %14s %9s %9s %14s %10s\n' "$label" "$(m "$with")" "$(m "$without")" \
			"$(awk -v x="$with" -v y="$without" 'BEGIN { printf "%.3fx", x / y }')" "$cmds" "$ub" "$vs"
	done
	[ -f "$ANCHORS/u-boot-head-qemu_arm64-tpm-measured.bin" ] || echo "SKIP anchor: no" \
		"u-boot-head-qemu_arm64-tpm-measured.bin (anchors README: 5,333 M with the sha256 bank," \
		"11,052 M with four)"
fi

# Compressed Images: the decompression is the load phase.
kernel=$(ls "$Q"/root-arm64/boot/vmlinuz-* | head -n 1)
gzip -9 -n -c "$kernel" >"$T/Image.gz"
lz4 -q -9 -c "$kernel" >"$T/Image.lz4"
for comp in gzip lz4; do
	f=$T/Image.gz
	[ $comp = lz4 ] && f=$T/Image.lz4
	VFIT=$VFIT ports/qemu-virt/mkfit -c $comp -i 1 arm64 "$f" "$Q/arm64/initramfs-main.cpio" \
		0x40400000 "$Q/keys" "$T/$comp.fit" >/dev/null || exit 1
	"$VFIT" disk create --slot-size 48M "$T/$comp.img" >/dev/null &&
		"$VFIT" disk write "$T/$comp.img" a "$T/$comp.fit" || exit 1
	run arm64 "$T/$comp.img" $comp
	row $comp "arm64 $comp Image, $(wc -c <"$T/$comp.fit") B FIT" -
	rm -f "$T/$comp.img"
done

# A chain of two stages: a bootloader FIT (firmware + an fdt with the kernel key) first.
mkdir -p "$T/k"
"$VFIT" keygen -a rsa2048 -k "$T/k" -n kernel >/dev/null 2>&1 || exit 1
printf '/dts-v1/;\n/ { };\n' | dtc -I dts -O dtb -o "$T/bl.dtb" - 2>/dev/null
VFIT=$VFIT ports/qemu-virt/mkfit -n kernel -K "$T/bl.dtb" -r -i 1 arm64 "$kernel" \
	"$Q/arm64/initramfs-main.cpio" 0x40400000 "$T/k" "$T/k.fit" >/dev/null || exit 1
sed -e "s|@FW@|$ROOT/$Q/arm64/stage.bin|" -e "s|@DTB@|$T/bl.dtb|" -e 's|@ARCH@|arm64|' \
	ports/qemu-virt/bl.its.in >"$T/bl.its"
"$VFIT" mkimage -q -f "$T/bl.its" -k "$Q/keys" "$T/bl.fit" >/dev/null || exit 1
"$VFIT" disk create --slot-size 48M "$T/chain.img" >/dev/null &&
	"$VFIT" disk write "$T/chain.img" a "$T/bl.fit" "$T/k.fit" || exit 1
run arm64 "$T/chain.img" chain
row chain "arm64 chain: bootloader + Image FIT" -
rm -f "$T/chain.img"

# Network recovery (arm64): the recovery FIT (29 MB, key-recovery) fetched over QEMU's user-mode
# network (slirp's DHCP and TFTP) and verified, against U-Boot HEAD's `dhcp; tftpboot; bootm
# start` of the same file from the same server.  Guest instructions under -icount shift=0 with
# sleep on (with sleep=off a WFI with a timer armed would jump to the timeout before slirp
# answers): the stage counts its fetch with the PMU's instruction counter, its verify and load
# never sleep; U-Boot's `time` is guest time, which is its instructions as it never sleeps (it
# polls the network, so its figure moves with how fast the host's slirp answers).  Wall time
# without icount (guest time is the host's then), each side NET_RUNS times (default 3),
# alternated, the median.
net_rows() {
	mkdir -p "$T/tftp"
	cp "$Q/arm64/recovery.fit" "$T/tftp/recovery.fit"
	size=$(wc -c <"$T/tftp/recovery.fit")
	"$VFIT" disk create --slot-size 48M "$T/net.img" >/dev/null || exit 1
	ub=$ANCHORS/u-boot-head-qemu_arm64-cmdtime.bin
	if [ -f "$ub" ]; then
		# U-Boot's control DTB: QEMU's, with the ROM keys, key-recovery the required one.
		cp "$T/ctl-arm64.dtb" "$T/ctl-net.dtb" 2>/dev/null ||
			{ echo "qemu bench: no control DTB for U-Boot"; exit 1; }
		fdtput -d "$T/ctl-net.dtb" /signature/key-dev required &&
			fdtput -t s "$T/ctl-net.dtb" /signature/key-recovery required conf || exit 1
		printf '\n\n\nsetenv autoload no; setenv verify yes; setenv nr "dhcp; tftpboot 0x50000000 recovery.fit; bootm start 0x50000000#conf-1"; time run nr\n' \
			>"$T/net-cmds"
	fi
	i=0
	while [ $i -lt "${NET_RUNS:-3}" ]; do
		for kind in icount wall; do
			icount=
			[ $kind = icount ] && icount="-icount shift=0"
			QEMU_TIMEOUT=180 ports/qemu-virt/boot arm64 "$Q/arm64/stage.bin" "$T/net.img" \
				"$MARKER" $icount -netdev "user,id=n0,tftp=$T/tftp,bootfile=recovery.fit" \
				-device virtio-net-device,netdev=n0 >"$T/net.log" 2>&1 ||
				{ echo "qemu bench: network recovery did not boot"; grep -a vfit-stage "$T/net.log"; exit 1; }
			fetch=$(sed -n 's/^vfit-stage: time net-fetch \([0-9]*\) ns.*/\1/p' "$T/net.log")
			inst=$(sed -n 's/^vfit-stage: time net-fetch [0-9]* ns, \([0-9]*\) instructions.*/\1/p' "$T/net.log")
			rec=$(grep -a '^vfit-stage: time recovery: ' "$T/net.log" | tail -n 1)
			verify=$(echo "$rec" | sed -n 's/.*verify \([0-9]*\),.*/\1/p')
			load=$(echo "$rec" | sed -n 's/.*load \([0-9]*\) ns.*/\1/p')
			# Under icount, the fetch's instructions (guest time also has the sleeps in WFI).
			[ $kind = icount ] && fetch=${inst:-$fetch}
			echo "$fetch $verify $load" >>"$T/net-$kind"
			[ -f "$ub" ] || continue
			# shellcheck disable=SC2086
			qemu-system-aarch64 -M virt -cpu cortex-a57 -m 2048 -smp 1 -display none -monitor none \
				-serial stdio -bios "$ub" -dtb "$T/ctl-net.dtb" $icount \
				-netdev "user,id=n0,tftp=$T/tftp" -device virtio-net-device,netdev=n0 \
				<"$T/net-cmds" >"$T/unet.log" 2>&1 &
			pid=$!
			j=0
			while [ $j -lt 1800 ] && ! grep -aq '^time:' "$T/unet.log"; do sleep 0.1; j=$((j + 1)); done
			kill "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
			grep -aq "sha256,rsa2048:recovery+ OK" "$T/unet.log" ||
				{ echo "qemu bench: U-Boot did not verify the fetched FIT"; tail -n 5 "$T/unet.log"; exit 1; }
			s=$(sed -n 's/^time: *\([0-9.]*\) seconds.*/\1/p' "$T/unet.log" | head -n 1)
			awk -v s="$s" 'BEGIN { printf "%.0f\n", s * 1e9 }' >>"$T/unet-$kind"
		done
		i=$((i + 1))
	done
	# median FILE COLUMN
	median() { awk -v c="$2" '{ print $c }' "$1" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
	sec() { awk -v n="$1" 'BEGIN { printf "%.2f s", n / 1e9 }'; }
	printf '%-34s %10s %10s %10s %12s %22s %7s\n' "network recovery, $size B FIT" fetch verify load \
		"all three" "U-Boot dhcp+tftp+bootm" ratio
	for kind in icount wall; do
		f=$(median "$T/net-$kind" 1) v=$(median "$T/net-$kind" 2) l=$(median "$T/net-$kind" 3)
		u=- r=- fmt=m label="  guest instructions (-icount 0)"
		[ $kind = wall ] && fmt=sec label="  wall time (median of ${NET_RUNS:-3})"
		if [ -f "$T/unet-$kind" ]; then
			um=$(median "$T/unet-$kind" 1)
			r=$(awk -v x=$((f + v + l)) -v y="$um" 'BEGIN { printf "%.3fx", x / y }')
			u=$($fmt "$um")
			[ $kind = icount ] && u=$(sort -n "$T/unet-$kind" |
				awk 'NR == 1 { a = $1 } { b = $1 } END { printf "%.0f-%.0f M", a / 1e6, b / 1e6 }')
		fi
		printf '%-34s %10s %10s %10s %12s %22s %7s\n' "$label" "$($fmt "$f")" "$($fmt "$v")" \
			"$($fmt "$l")" "$($fmt $((f + v + l)))" "$u" "$r"
	done
	echo "  U-Boot's instructions: the range of ${NET_RUNS:-3} runs (it polls while slirp answers);" \
		"ratios to medians; goal 0.25x instructions, 1x wall"
	rm -f "$T/net.img"
}
net_rows

# Stage size: the whole binary, and what of it is libvfit (lib/ objects) and libfdt,
# from the link map's kept input sections.
part() { # MAP REGEX: bytes of code, constants and data from objects whose path matches
	awk -v re="$2" '
	function hex(s,   i, c, v) { v = 0; s = tolower(substr(s, 3))
		for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
		return v }
	/^Linker script and memory map/ { on = 1 }
	!on { next }
	/^ \.(text|rodata|data)/ { if (NF == 1) { getline; $0 = "x " $0 }
		if ($4 ~ re && hex($2) != 0) s += hex($3) }
	END { print s + 0 }' "$1"
}
for a in arm64 arm; do
	total=$(wc -c <"$Q/$a/stage.bin")
	lib=$(part "$Q/$a/stage.map" '/obj/lib/')
	fdt=$(part "$Q/$a/stage.map" 'libfdt[.]a')
	keys=$(wc -c <"$Q/$a/rom.dtb")
	echo "stage.bin $a: $total bytes: libvfit $lib, libfdt $fdt, ROM keys $keys, port and C library $((total - lib - fdt - keys))"
	printf '  libvfit:'
	for d in boot fit rsa ecdsa hash decomp disk net; do
		printf ' lib/%s %s' $d "$(part "$Q/$a/stage.map" "/obj/lib/$d/")"
	done
	echo " (lib/boot's console formatter: $(part "$Q/$a/stage.map" '/obj/lib/boot/boot_(fmt|line)[.]o'))"
done
