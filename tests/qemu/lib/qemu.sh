# SPDX-License-Identifier: BSD-3-Clause
# Helpers of tests/qemu/*.sh, sourced after tests/lib.sh.  Each boot is
# bounded by a timeout and decided by what the guest prints and QEMU's exit
# (ports/qemu-virt/boot: 0 only for the marker after a clean power-off, 1
# when QEMU powered off without it, 124 on the timeout).  The marker comes
# from the initramfs: "<MARKER> <machine>, Linux <release>, initramfs <tag>"
# -- the release only the running kernel knows, the tag only the initramfs
# of that FIT -- so a log says which FIT really ran.
#   qemu_setup                  a skip (and exit) without the tools or Debian's packages;
#                               builds stage and default disk for arm64 and arm
#   arch_vars ARCH              KERNEL, RELEASE, LOAD, FITARCH, MACHINE of ARCH
#   initrd ARCH TAG             $T/ARCH-TAG.cpio, whose /init prints TAG
#   fit ARCH OUT TAG [mkfit options]   a signed FIT (keys of the stage unless -k)
#   mkdisk OUT A B REC          a disk whose slot chains are the FIT lists A, B and
#                               REC (comma-separated, "-" for none)
#   std_disk ARCH OUT           a fresh copy of the default disk (make qemu-disk's
#                               contents; that image itself keeps the state of its boots)
#   boot NAME ARCH DISK WANT TAG [REGEX...]   one boot: exit WANT; TAG's marker
#                               line (WANT 0) or no marker at all; each REGEX in the log;
#                               $QEMU_EXTRA: more QEMU arguments; $STAGE: the stage
#                               binary of build/qemu/ARCH (default stage.bin); the
#                               console log is copied into $QEMU_LOGS when set
#   lacks NAME FILE REGEX       FILE must not match REGEX
#   flip FILE OFFSET            flips one bit of the byte at OFFSET
MARKER="VFIT-QEMU-MARKER: userspace reached on"
Q=$BUILD/qemu
MKFIT=$ROOT/ports/qemu-virt/mkfit
export VFIT

qemu_setup() {
	need qemu-system-aarch64 qemu-system-arm aarch64-linux-gnu-gcc arm-linux-gnueabihf-gcc \
		dtc gzip lz4
	if ! (cd "$ROOT" && scripts/deps qemu "$Q") >"$T/deps.log" 2>&1; then
		skip net "Debian's kernel/busybox/libfdt packages could not be fetched (scripts/deps qemu $Q): $(tail -n 1 "$T/deps.log")"
		finish
		exit $?
	fi
	for a in arm64 arm; do
		if make -s -C "$ROOT" BUILD="$BUILD" ARCH=$a qemu-stage qemu-disk >"$T/make.log" 2>&1; then
			pass
		else
			fail "$a: make qemu-stage qemu-disk"
			tail -n 20 "$T/make.log"
			finish
			exit 1
		fi
	done
}

arch_vars() {
	KERNEL=$(ls "$Q"/root-$1/boot/vmlinuz-* | head -n 1)
	RELEASE=${KERNEL##*/vmlinuz-}
	LOAD=$(sed -n 's/^QV_LOAD_'$1' *:= *//p' "$ROOT/ports/qemu-virt/port.mk")
	if [ $1 = arm64 ]; then FITARCH=arm64 MACHINE=aarch64; else FITARCH=arm MACHINE=armv7l; fi
}

initrd() {
	[ -f "$T/$1-$2.cpio" ] ||
		"$ROOT/ports/qemu-virt/mkinitramfs" "$Q/root-$1/bin/busybox" "$MARKER" "$T/$1-$2.cpio" "$2"
}

# fit ARCH OUT TAG [-k KEYDIR] [-K ...] [mkfit options]: KERNEL, LOAD of ARCH unless -e/-l given.
fit() {
	_a=$1 _out=$2 _tag=$3
	shift 3
	_keys=$Q/keys _kern= _load=
	arch_vars "$_a"
	initrd "$_a" "$_tag"
	while [ $# -gt 0 ]; do
		case $1 in
		-k) _keys=$2; shift 2 ;;
		-e) _kern=$2; shift 2 ;;
		-l) _load=$2; shift 2 ;;
		*) break ;;
		esac
	done
	"$MKFIT" "$@" "$FITARCH" "${_kern:-$KERNEL}" "$T/$_a-$_tag.cpio" "${_load:-$LOAD}" "$_keys" \
		"$_out" >/dev/null
}

mkdisk() {
	rm -f "$1"
	"$VFIT" disk create --slot-size 48M "$1" || return 1
	for _c in a:"$2" b:"$3" recovery:"$4"; do
		_fits=${_c#*:}
		[ "$_fits" = - ] && continue
		# shellcheck disable=SC2046
		"$VFIT" disk write "$1" "${_c%%:*}" $(echo "$_fits" | tr , ' ') || return 1
	done
}

std_disk() {
	mkdisk "$2" "$Q/$1/linux.fit" "$Q/$1/linux.fit" "$Q/$1/recovery.fit"
}

boot() {
	_name=$1 _arch=$2 _disk=$3 _want=$4 _tag=$5
	shift 5
	arch_vars "$_arch"
	# shellcheck disable=SC2086
	QEMU_TIMEOUT=${QEMU_TIMEOUT:-90} "$ROOT/ports/qemu-virt/boot" "$_arch" "$Q/$_arch/${STAGE:-stage.bin}" \
		"$_disk" "$MARKER" ${QEMU_EXTRA:-} >"$T/$_name.raw" 2>&1
	_got=$?
	# The console ends lines with CR LF.
	tr -d '\r' <"$T/$_name.raw" >"$T/$_name.log"
	[ -z "${QEMU_LOGS:-}" ] || cp "$T/$_name.log" "$QEMU_LOGS/$_arch-$_name.log"
	if [ "$_got" = "$_want" ]; then pass; else
		fail "$_arch $_name: boot exit $_got, want $_want"
		grep -a -E '^(vfit-stage|## |   - |slot|recovery|VFIT)' "$T/$_name.log" | head -n 20
	fi
	if [ "$_want" = 0 ]; then
		contains "$_arch $_name: the marker of initramfs $_tag under Debian's $RELEASE" \
			"$T/$_name.log" "^$MARKER $MACHINE, Linux $RELEASE, initramfs $_tag\$"
	else
		lacks "$_arch $_name: no kernel ran" "$T/$_name.log" "^$MARKER"
	fi
	for _re in "$@"; do contains "$_arch $_name" "$T/$_name.log" "$_re"; done
}

lacks() {
	if grep -Eaq -- "$3" "$2"; then fail "$1 (/$3/ found)"; grep -Ea -- "$3" "$2" | head -n 3; else pass; fi
}

flip() {
	_b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $(( (_b ^ 1) & 255 )))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
