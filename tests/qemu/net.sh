#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Network recovery on the QEMU virt stage (ports/qemu-virt/netboot.c,
# lib/net) against QEMU's user-mode network and its built-in DHCP and TFTP
# server (-netdev user,tftp=DIR,bootfile=NAME): with both slots and the
# disk's recovery image broken, the recovery FIT fetched over virtio-net
# boots Linux (its own initramfs tag, so the log says the network's FIT
# ran); a tampered FIT, one signed by another key, one larger than the
# staging area, a truncated one, no network device, no DHCP answer, a
# file the server does not have, no file name at all and a server that
# stops mid-transfer are each refused with their reason and no kernel
# runs; 'n' at the console asks for network recovery although slot A is
# good, and the OS's confirmation of that recovery confirms nothing (the
# device cannot read the network's FIT again); the ROM's /config (stages built with their own ROM) fetches first,
# names the file and sets the waits, or turns the network off; a normal boot sends not one frame (QEMU's filter-dump of the
# network stays empty); with a TPM (stage-tpm.bin, swtpm) the FIT fetched
# over the network is measured exactly as the same FIT read from the
# disk's recovery partition (PCRs 7, 8, 9 of the stage's log replay).
# armv7 boots and refuses the tampered FIT the same way.  The refusals of every malformed packet are test_net's and
# fuzz_net's: slirp only sends good ones.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib/qemu.sh"
qemu_setup

mkdir -p "$T/other" "$T/tftp"
"$VFIT" keygen -a rsa2048 -k "$T/other" -n recovery >/dev/null 2>&1

# net NAME ARCH DISK WANT TAG FILE [REGEX...]: boot with slirp serving $T/tftp, DHCP naming FILE.
net() {
	_n=$1 _a=$2 _d=$3 _w=$4 _t=$5 _f=$6
	shift 6
	QEMU_EXTRA="${QEMU_EXTRA:-} -netdev user,id=n0,tftp=$T/tftp${_f:+,bootfile=$_f}
		-device virtio-net-device,netdev=n0" boot "$_n" "$_a" "$_d" "$_w" "$_t" "$@"
}

# The network stops once the transfer started: QEMU's monitor adds a filter
# that holds every frame for 100 s (the stage gives up long before).
stall_later() {
	rm -f "$T/mon.in" "$T/mon.out"
	mkfifo "$T/mon.in" "$T/mon.out"
	cat "$T/mon.out" >/dev/null &
	(
		i=0
		while [ $i -lt 900 ] && ! grep -aq '^vfit-stage: net: TFTP: ' "$T/$1.raw" 2>/dev/null; do
			sleep 0.1
			i=$((i + 1))
		done
		timeout 10 sh -c "echo 'object_add filter-buffer,id=stall,netdev=n0,interval=100000000' \
			>'$T/mon.in'"
	) &
}

NOTHING="^vfit-stage: nothing on the disk verified: network recovery$"
for arch in arm64 arm; do
	fit $arch "$T/netrec.fit" netrec -n recovery -i 1 && fit $arch "$T/a.fit" slot-a -i 1 &&
		fit $arch "$T/evil.fit" evil -k "$T/other" -n recovery && pass || fail "$arch: FITs"
	cp "$T/a.fit" "$T/a-bad.fit" && flip "$T/a-bad.fit" 1048576
	cp "$Q/$arch/recovery.fit" "$T/rec-bad.fit" && flip "$T/rec-bad.fit" 1048576
	mkdisk "$T/broken.img" "$T/a-bad.fit" "$T/a-bad.fit" "$T/rec-bad.fit" && pass ||
		fail "$arch: disk"
	size=$(wc -c <"$T/netrec.fit")

	cp "$T/netrec.fit" "$T/tftp/netrec.fit"
	net recovery $arch "$T/broken.img" 0 netrec netrec.fit \
		"^slot A stage 1: bad hash value" "^recovery: bad hash value" "$NOTHING" \
		"^vfit-stage: net: DHCP: 10\.0\.2\.15/24 from 10\.0\.2\.2, TFTP server 10\.0\.2\.2, file 'netrec\.fit'$" \
		"^vfit-stage: net: TFTP: blksize 1428, tsize $size$" \
		"^vfit-stage: net: fetched $size bytes in [0-9]+ blocks, " \
		"^   Trusting recovery key 'key-recovery' .* from the ROM control DTB$" \
		"^   Verifying Hash Integrity \.\.\. sha256,rsa2048:recovery\+ OK$" \
		"^   Rollback index 1 >= counter 0 for 'recovery' OK$" 'vfit.slot=recovery'

	# Fetched, then refused by the verifier as a disk recovery image would be.
	cp "$T/netrec.fit" "$T/tftp/tampered.fit" && flip "$T/tftp/tampered.fit" 1048576
	net tampered $arch "$T/broken.img" 1 "" tampered.fit "^vfit-stage: net: fetched $size bytes" \
		"^   - recovery: bad hash value at /images/kernel/hash-1 value" \
		"^vfit-stage: halted: nothing verified$"
	[ $arch = arm ] && break

	cp "$T/evil.fit" "$T/tftp/evil.fit"
	net other-key arm64 "$T/broken.img" 1 "" evil.fit "^vfit-stage: net: fetched [0-9]+ bytes" \
		"^   - recovery: .*(signature|required)" "^vfit-stage: halted: nothing verified$"

	head -c 1000000 "$T/netrec.fit" >"$T/tftp/truncated.fit"
	net truncated arm64 "$T/broken.img" 1 "" truncated.fit \
		"^vfit-stage: net: fetched 1000000 bytes" \
		"^   - recovery: FIT larger than the bytes loaded$"

	# 800 MiB (sparse) against 768 MiB of staging: refused at the tsize, before any block.
	truncate -s 800M "$T/tftp/huge.fit"
	net too-big arm64 "$T/broken.img" 1 "" huge.fit "^vfit-stage: net: TFTP: blksize 1428, tsize 838860800$" \
		"^vfit-stage: network recovery failed: the file is larger than the room for it \(staging area 805306368 bytes, tsize 838860800\) \[huge\.fit\]$" \
		"^   - recovery: FIT larger than the staging area" "^vfit-stage: halted: nothing verified$"
	lacks "arm64 too-big: nothing fetched" "$T/too-big.log" "^vfit-stage: net: fetched"
	rm -f "$T/tftp/huge.fit"

	net wrong-name arm64 "$T/broken.img" 1 "" nothere.fit \
		"^vfit-stage: network recovery failed: the TFTP server sent an error: 1 'File not found' \[nothere\.fit\]$" \
		"^vfit-stage: halted: nothing verified$"

	net no-name arm64 "$T/broken.img" 1 "" "" \
		"^vfit-stage: network recovery failed: no file name from DHCP or the configuration$"

	boot no-device arm64 "$T/broken.img" 1 "" "$NOTHING" \
		"^vfit-stage: network recovery failed: no network device$" \
		"^vfit-stage: halted: nothing verified$"

	# A network with no one on it: DISCOVER 4 times (1 + 2 + 4 + 4 s of waits), then one line.
	QEMU_EXTRA="-netdev hubport,id=n0,hubid=0 -device virtio-net-device,netdev=n0" \
		boot no-dhcp arm64 "$T/broken.img" 1 "" "^vfit-stage: network recovery failed: no DHCP answer$" \
		"^vfit-stage: halted: nothing verified$"

	# 700 MiB that fit; the network stops once the transfer runs.
	truncate -s 700M "$T/tftp/big.fit"
	stall_later stalled
	QEMU_EXTRA="-monitor pipe:$T/mon" net stalled arm64 "$T/broken.img" 1 "" big.fit \
		"^vfit-stage: network recovery failed: the TFTP server stopped answering \[big\.fit\]$" \
		"^vfit-stage: halted: nothing verified$"
	wait
	rm -f "$T/tftp/big.fit"

	# Slot A is good, but 'n' at the console asks for network recovery first.
	std_disk arm64 "$T/good.img"
	printf n >"$T/key"
	QEMU_STDIN=$T/key net key arm64 "$T/good.img" 0 netrec netrec.fit \
		"^vfit-stage: network recovery asked for at the console$" 'vfit.slot=recovery'
	lacks "arm64 key: no slot tried" "$T/key.log" "^## Trying slot"
	# The OS confirms the recovery that booted: the device cannot read the network's FIT
	# again, so it confirms nothing and the recovery counter stays below its index.
	"$VFIT" disk mark-good "$T/good.img" >/dev/null 2>&1
	is "arm64: mark-good of the network's recovery asked" 0 $?
	net confirm arm64 "$T/good.img" 0 main netrec.fit \
		"^mark-good: refused, not the chain that booted: recovery$"
	"$VFIT" disk info "$T/good.img" >"$T/info.out" 2>&1
	lacks "arm64 confirm: the recovery counter not moved" "$T/info.out" "^  recovery = "

	# The ROM's /config (ports/qemu-virt/README.md), through stages built with their own ROM:
	# "first" fetches before the disk, the configured name when DHCP names none, with the
	# ROM's waits (0.2 + 0.4 s), and boots the disk when the network gives nothing; "off"
	# never touches the network, whatever the console says.
	rom_stage() { # NAME PROP TYPE VALUE...: $Q/arm64/stage-NAME.bin, rom.dtb with those /config
		_n=$1
		shift
		cp "$Q/arm64/rom.dtb" "$T/rom-$_n.dtb"
		while [ $# -gt 0 ]; do
			fdtput -p -t "$2" "$T/rom-$_n.dtb" /config "$1" "$3" || return 1
			shift 3
		done
		cp "$T/rom-$_n.dtb" "$Q/arm64/rom-$_n.dtb" &&
			make -s -C "$ROOT" BUILD="$BUILD" ARCH=arm64 "$Q/arm64/stage-$_n.bin" >"$T/make.log" 2>&1
	}
	rom_stage net-first vfit,net-recovery s first vfit,net-file s cfg.fit vfit,net-timeout-ms i 200 \
		vfit,net-tries i 2 && rom_stage net-off vfit,net-recovery s off && pass ||
		{ fail "arm64: stages with their own ROM"; tail -n 5 "$T/make.log"; }
	cp "$T/netrec.fit" "$T/tftp/cfg.fit"
	STAGE=stage-net-first.bin net first arm64 "$T/good.img" 0 netrec "" \
		"^vfit-stage: network recovery first \(ROM /config vfit,net-recovery\)$" \
		"^vfit-stage: net: DHCP: .*, file 'cfg\.fit'$"
	lacks "arm64 first: no slot tried" "$T/first.log" "^## Trying slot"
	STAGE=stage-net-first.bin QEMU_EXTRA="-netdev hubport,id=n0,hubid=0 -device virtio-net-device,netdev=n0" \
		boot first-no-dhcp arm64 "$T/good.img" 0 main \
		"^vfit-stage: network recovery failed: no DHCP answer$" \
		"^vfit-stage: nothing from the network verified: the disk$" "^## Trying slot A$"
	fetch=$(sed -n 's/^vfit-stage: time recovery: read \([0-9]*\),.*/\1/p' "$T/first-no-dhcp.log" | head -n 1)
	[ "${fetch:-0}" -ge 500000000 ] && [ "$fetch" -lt 3000000000 ] && pass ||
		fail "arm64 first-no-dhcp: the ROM's waits, 0.6 s, not the default 11 s ($fetch ns)"
	QEMU_STDIN=$T/key STAGE=stage-net-off.bin net off arm64 "$T/broken.img" 1 "" netrec.fit \
		"^vfit-stage: halted: nothing verified$"
	lacks "arm64 off: the network never used" "$T/off.log" "^vfit-stage: (net|network|nothing on)"

	# Measured boot: the same recovery FIT from the disk, then from the network, each with a
	# fresh TPM: the same measurements (the stage's replay of its log), the kernel's extended once.
	if command -v swtpm >/dev/null 2>&1 && command -v swtpm_setup >/dev/null 2>&1; then
		. "$(dirname "$0")/lib/tpm.sh"
		TPM=$T/tpm
		mkdisk "$T/m-disk.img" "$T/a-bad.fit" "$T/a-bad.fit" "$T/netrec.fit" &&
			tpm_new "$TPM" >/dev/null 2>&1 && pass || fail "arm64: disk and TPM for measured boot"
		tpm_boot measured-disk arm64 "$T/m-disk.img" 0 netrec "^   Measured 'kernel' \(kernel\) into PCR 8$"
		tpm_new "$TPM" >/dev/null 2>&1 && pass || fail "arm64: TPM for measured network recovery"
		QEMU_EXTRA="-netdev user,id=n0,tftp=$T/tftp,bootfile=netrec.fit -device virtio-net-device,netdev=n0" \
			tpm_boot measured-net arm64 "$T/broken.img" 0 netrec "$NOTHING" \
			"^   Measured 'recovery' \(key\) into PCR 7$" "^   Measured 'kernel' \(kernel\) into PCR 8$" \
			"^   Measured 'ramdisk' \(ramdisk\) into PCR 9$"
		replay() { sed -n "s/^vfit-stage: TPM: log replay PCR $2 sha256 //p" "$T/$1.log"; }
		# (PCR 1 holds QEMU's DTB, whose /chosen rng-seed differs at every boot.)
		for pcr in 7 8 9; do
			is "arm64: PCR $pcr of network recovery as of disk recovery" "$(replay measured-disk $pcr)" \
				"$(replay measured-net $pcr)"
		done
		is "arm64: PCR 8, the kernel's SHA-256 extended once" \
			"$(extend_of "$(sha256sum <"$KERNEL" | cut -c1-64)")" "$(replay measured-net 8)"
	else
		skip tool "swtpm not installed: network recovery's measured boot not checked"
	fi

	# A normal boot: not one frame on the network (the capture holds only its header).
	QEMU_EXTRA="-object filter-dump,id=d0,netdev=n0,file=$T/normal.pcap" \
		net normal arm64 "$T/good.img" 0 main netrec.fit "^## Trying slot A$"
	lacks "arm64 normal: no network line" "$T/normal.log" "^vfit-stage: net"
	is "arm64 normal: no frame sent or received" 24 "$(wc -c <"$T/normal.pcap")"
	rm -f "$T"/*.img
done
finish
