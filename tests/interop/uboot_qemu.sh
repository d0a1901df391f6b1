#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Against a real U-Boot: Debian's u-boot-qemu (U-Boot 2023.01 for QEMU's arm64
# "virt" machine, CONFIG_FIT_SIGNATURE, RSA PKCS#1 v1.5 only, no PSS) must accept
# the FITs the signer produces and reject tampered copies.
#
# For every key size (2048/3072/4096), hash (sha1/256/384/512) and signing mode
# (configuration / image signatures) the signer writes the public key, required,
# into QEMU's own machine DTB (-K -r) and signs three FITs: embedded data, -E,
# and -E -p. Each FIT and its tampered copies are placed in RAM with QEMU's
# loader device, and ONE boot of U-Boot per control DTB runs `bootm start
# ADDR#conf-1` for each of them at the prompt.
#
#   SIGNER=vfit    (default) $BUILD/vfit mkimage and $BUILD/vfit keygen sign;
#                  Debian's mkimage signs a control group (embedded data)
#                  with the same keys, checked in the same boots.
#   SIGNER=debian  Debian's /usr/bin/mkimage and openssl sign everything (to
#                  check the harness itself).
#
# The prompt is driven through a FIFO on QEMU's serial stdin: each command is
# sent only once the previous prompt has appeared in the log, so nothing
# depends on sleeps or on how fast QEMU runs. Every QEMU run is bounded by
# timeout(1), QEMU_TIMEOUT seconds: a bound for a hang, far above a boot's
# normal time even on a loaded machine.
. "$(dirname "$0")/../lib.sh"

SIGNER=${SIGNER:-vfit}
UBOOT=${UBOOT:-/usr/lib/u-boot/qemu_arm64/u-boot.bin}
QEMU=${QEMU:-qemu-system-aarch64}
DEBIAN_MKIMAGE=${DEBIAN_MKIMAGE:-/usr/bin/mkimage}
QDIR=$ROOT/tests/interop/qemu
# The same machine options for dumpdtb and for booting: QEMU's DTB depends on
# them. -nic none: the default virtio NIC needs efi-virtio.rom (ipxe-qemu, not
# installed) and would only give U-Boot a network to try booting from.
MACHINE="-machine virt -cpu cortex-a57 -m 1G -nic none -display none -monitor none"
# RAM is 0x40000000..0x7fffffff; QEMU puts the DTB at 0x40000000 and U-Boot
# relocates itself to the top (below 0x7dc00000 is untouched), so the FITs go
# at 0x50000000 and up, 1 MiB apart.
FIT_BASE=0x50000000
FIT_STEP=0x100000
QEMU_TIMEOUT=${QEMU_TIMEOUT:-180}
export SOURCE_DATE_EPOCH=1700000000

case $SIGNER in
vfit) MKIMAGE="$VFIT mkimage" ;;
debian) MKIMAGE=$DEBIAN_MKIMAGE ;;
*) echo "uboot_qemu.sh: SIGNER must be vfit or debian" >&2; exit 2 ;;
esac

# ---------------------------------------------------------------- signing

keygen() { # BITS DIR
	mkdir -p "$2"
	if [ "$SIGNER" = vfit ]; then
		$VFIT keygen -a "rsa$1" -k "$2" -n dev
	else
		rsa_key "$2/dev" "$1"
	fi
}

# its MODE HASH BITS OUT: the .its template with the algorithm filled in
its() {
	sed -e "s|@HASH@|$2|g" -e "s|@ALGO@|$2,rsa$3|g" -e "s|@DATA@|$T/data|g" \
		"$QDIR/$1.its" >"$4"
}

# ---------------------------------------------------------------- tampering

# offset FILE STRING: byte offset of the first occurrence of STRING in FILE
offset() {
	LC_ALL=C grep -obUa -F -- "$2" "$1" | head -n 1 | cut -d: -f1
}

# flip FILE STRING: change the first byte of STRING inside FILE
flip() {
	o=$(offset "$1" "$2")
	[ -n "$o" ] || return 1
	printf 'X' | dd of="$1" bs=1 seek="$o" conv=notrunc 2>/dev/null
}

# totalsize FILE: the FDT header's totalsize (big-endian u32 at offset 4)
totalsize() {
	od -An -tu1 -j4 -N4 "$1" |
		awk '{ print ((($1 * 256 + $2) * 256 + $3) * 256 + $4) }'
}

# setload FIT OUT: OUT = FIT with the kernel's load address 0x40480000 changed
# to 0x40500000 by patching one byte of the value in place (fdtput would
# repack the blob and move external data). The value is found as the first
# 4-byte-aligned cell 40 48 00 00, which is `load` (it precedes `entry`).
setload() {
	o=$(od -An -v -tx1 -w4 "$1" |
		awk '$0 == " 40 48 00 00" { print (NR - 1) * 4 + 1; exit }')
	[ -n "$o" ] || return 1
	cp "$1" "$2" &&
	printf 'P' | dd of="$2" bs=1 seek="$o" conv=notrunc 2>/dev/null &&
	head -c "$(totalsize "$2")" "$2" >"$2.fdt" &&
	[ "$(fdtget -t x "$2.fdt" /images/kernel load)" = 40500000 ] &&
	rm -f "$2.fdt"
}

# ---------------------------------------------------------------- U-Boot

# uboot DTB LOG CMDS LOADER...: boot U-Boot once with control DTB DTB, stop
# autoboot, run each line of CMDS at the prompt, power off. The serial output
# goes to LOG. Fails if a prompt does not come or QEMU has to be killed; after
# one such hang the remaining boots are not tried, so the test stays bounded.
uboot() {
	dtb=$1 log=$2 cmds=$3
	shift 3
	[ "$hung" = 0 ] || { echo "not booted: an earlier QEMU run hung"; return 1; }
	rm -f "$T/serial"
	mkfifo "$T/serial"
	t0=$(date +%s%N)
	# shellcheck disable=SC2086
	timeout "$QEMU_TIMEOUT" $QEMU $MACHINE -serial stdio -bios "$UBOOT" \
		-dtb "$dtb" "$@" <"$T/serial" >"$log" 2>&1 &
	qpid=$!
	exec 3>"$T/serial"
	# Any key stops the autoboot countdown; the byte waits in the UART.
	printf '\n' >&3
	n=1
	rc=0
	while IFS= read -r c; do
		prompt $n || { rc=1; break; }
		printf '%s\n' "$c" >&3
		n=$((n + 1))
	done <"$cmds"
	if [ $rc = 0 ]; then
		prompt $n && printf 'poweroff\n' >&3 || rc=1
	fi
	exec 3>&-
	wait $qpid
	qrc=$?
	boot_ms=$((boot_ms + ($(date +%s%N) - t0) / 1000000))
	boots=$((boots + 1))
	[ $qrc = 124 ] && hung=1
	[ $qrc = 0 ] || rc=1
	[ $rc = 0 ] || tail -n 5 "$log"
	return $rc
}

# prompt N: wait until the log shows the N-th U-Boot prompt (or QEMU is gone)
prompt() {
	while [ "$(grep -c '^=> ' "$log")" -lt "$1" ]; do
		kill -0 "$qpid" 2>/dev/null || return 1
		sleep 0.01
	done
}

# block LOG CMD: what U-Boot printed in answer to CMD
block() {
	tr -d '\r' <"$1" | awk -v c="=> $2" '$0 == c { p = 1; next } /^=> / { p = 0 } p'
}

# accepted NAME BLOCK LINE: U-Boot verified everything, printed LINE and
# went on to use the device tree.
accepted() {
	if grep -qxF -- "$3" "$2" && grep -q 'Booting using the fdt blob' "$2" &&
		! grep -Eq 'Bad|error|ERROR|Fail|fail|-skipped' "$2"; then
		pass
	else
		fail "$1: not accepted (want '$3')"
		sed 's/^/    /' "$2" | grep -v '^     *[A-Z][a-z ]*:  ' | tail -n 20
	fi
}

# rejected NAME BLOCK LINE: U-Boot refused it with "Bad Data Hash" and said
# why in LINE; it never got as far as the device tree.
rejected() {
	if grep -qxF -- "$3" "$2" && grep -qxF 'Bad Data Hash' "$2" &&
		! grep -q 'Booting using the fdt blob' "$2"; then
		pass
	else
		fail "$1: not rejected as expected (want '$3')"
		sed 's/^/    /' "$2" | grep -v '^     *[A-Z][a-z ]*:  ' | tail -n 20
	fi
}

# ---------------------------------------------------------------- one session

# fit NAME ACCEPT|REJECT LINE: queue the FIT $d/NAME.fit for the next boot,
# with what U-Boot must say about it
fit() {
	addr=$(printf '0x%x' $((FIT_BASE + nfit * FIT_STEP)))
	nfit=$((nfit + 1))
	nbootm=$((nbootm + 1))
	printf 'bootm start %s#conf-1\n' "$addr" >>"$d/cmds"
	printf '%s\t%s\t%s\t%s\n' "$addr" "$2" "$1" "$3" >>"$d/expect"
	loaders="$loaders -device loader,file=$d/$1.fit,addr=$addr,force-raw=on"
}

# tampered NAME: queue copies of $d/NAME.fit that U-Boot must reject. A flipped
# payload byte is caught by the image hash (configuration signing) or by the
# image signature; a changed load address by the configuration signature.
# (Image signatures cover only the payload, so there is no load-address case
# for them: U-Boot would rightly accept it, fit-format.md §3.1.)
tampered() {
	cp "$d/$1.fit" "$d/$1-kflip.fit"
	ok "$id $1: flip a kernel byte" flip "$d/$1-kflip.fit" VFIT-KERNEL-PAYLOAD
	if [ "$mode" = conf ]; then
		fit "$1-kflip" reject "Bad hash value for 'hash-1' hash node in 'kernel' image node"
		ok "$id $1: change the kernel load address" \
			setload "$d/$1.fit" "$d/$1-load.fit"
		fit "$1-load" reject "Failed to verify required signature 'key-dev'"
	else
		fit "$1-kflip" reject "Unable to verify required signature for '' hash node in 'kernel' image node"
		cp "$d/$1.fit" "$d/$1-fflip.fit"
		ok "$id $1: flip a device-tree byte" flip "$d/$1-fflip.fit" VFIT-FDT-PAYLOAD
		fit "$1-fflip" reject "Unable to verify required signature for '' hash node in 'fdt-1' image node"
	fi
}

# session MODE HASH BITS: sign with one key and one algorithm, boot once
session() {
	mode=$1 hash=$2 bits=$3
	algo=$hash,rsa$bits
	d=$T/$mode-$hash-$bits
	id="$mode $algo"
	mkdir -p "$d"
	: >"$d/cmds"
	: >"$d/expect"
	nfit=0
	loaders=
	its "$mode" "$hash" "$bits" "$d/fit.its"
	cp "$T/virt.dtb" "$d/control.dtb"
	good="   Verifying Hash Integrity ... $algo:dev+ OK"
	[ "$mode" = image ] && good="   Verifying Hash Integrity ... $algo:dev+ $hash+ OK"
	for layout in int ext extp; do
		case $layout in
		int) opts= ;;
		ext) opts=-E ;;
		extp) opts="-E -p 0x4000" ;;
		esac
		# shellcheck disable=SC2086
		ok "$id $layout: $SIGNER signs" $MKIMAGE $opts -f "$d/fit.its" \
			-k "$T/keys/$bits" -K "$d/control.dtb" -r "$d/$layout.fit"
		if [ -f "$d/$layout.fit" ]; then
			fit "$layout" accept "$good"
			tampered "$layout"
		fi
		# Control group (embedded data only, to keep the test fast): Debian's
		# mkimage signs with the same key; its FIT must pass with the key node
		# the signer under test wrote.
		if [ "$SIGNER" = vfit ] && [ $layout = int ]; then
			# shellcheck disable=SC2086
			ok "$id $layout: debian mkimage signs" $DEBIAN_MKIMAGE $opts \
				-f "$d/fit.its" -k "$T/keys/$bits" "$d/debian-$layout.fit"
			[ -f "$d/debian-$layout.fit" ] && fit "debian-$layout" accept "$good"
		fi
	done
	[ "$nfit" = 0 ] && return
	# shellcheck disable=SC2086
	ok "$id: U-Boot boots and answers every command" \
		uboot "$d/control.dtb" "$d/log" "$d/cmds" $loaders
	while IFS="$(printf '\t')" read -r addr want name line; do
		block "$d/log" "bootm start $addr#conf-1" >"$d/$name.out"
		if [ "$want" = accept ]; then
			accepted "$id $name" "$d/$name.out" "$line"
		else
			rejected "$id $name" "$d/$name.out" "$line"
		fi
	done <"$d/expect"
}

# ---------------------------------------------------------------- main

need "$QEMU" dtc
for f in "$UBOOT" "$DEBIAN_MKIMAGE"; do
	if [ ! -f "$f" ]; then
		skip tool "$f is not installed (u-boot-qemu, u-boot-tools; scripts/deps installs them)"
		finish
		exit
	fi
done

mkdir -p "$T/data"
awk 'BEGIN { for (i = 0; i < 64; i++) printf "vfit interop kernel line %04d\n", i
	printf "VFIT-KERNEL-PAYLOAD\n"
	for (i = 0; i < 64; i++) printf "vfit interop kernel line %04d\n", i + 64 }' \
	>"$T/data/kernel.bin"
ok "compile the device-tree payload" dtc -I dts -O dtb -o "$T/data/fdt.dtb" "$QDIR/fdt.dts"
# shellcheck disable=SC2086
ok "QEMU dumps its virt DTB" $QEMU $MACHINE -machine dumpdtb="$T/virt.dtb"
for bits in 2048 3072 4096; do
	ok "rsa$bits key ($SIGNER)" keygen $bits "$T/keys/$bits"
done

# Writing to the FIFO after QEMU died must fail the check, not kill the test.
trap '' PIPE
boots=0 boot_ms=0 hung=0 nbootm=0
start=$(date +%s%N)
for mode in conf image; do
	for bits in 2048 3072 4096; do
		for hash in sha1 sha256 sha384 sha512; do
			session "$mode" "$hash" "$bits"
		done
	done
done
ver=$(tr -d "\r" <"$T/conf-sha1-2048/log" 2>/dev/null | grep -m 1 "^U-Boot ")
echo "U-Boot under test: ${ver:-none booted} ($UBOOT)"
echo "signer $SIGNER: $nbootm bootm checks in $boots U-Boot boots," \
	"$((boot_ms / (boots > 0 ? boots : 1))) ms per boot," \
	"$((($(date +%s%N) - start) / 1000000)) ms for the matrix"
finish
