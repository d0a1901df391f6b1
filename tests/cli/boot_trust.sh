#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit boot --trust: the simulator with the QEMU stage's trust state
# (include/vfit/boot_tpm.h, the same lib/boot code and NV layout) in a real
# swtpm started here (sha256 bank alone) over its UNIX sockets; every
# command is a power-on (power cycle, Startup, index check).  Unprovisioned
# and mis-provisioned TPMs are refused with their reason; counters move
# only for the chain that booted: an update that never booted, and a slot
# rewritten after it booted, are not confirmed; a device directory put back
# from an older copy changes nothing the TPM holds.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/boot_lib/device.sh"
need swtpm swtpm_setup
S=$T/tpm
PID=
trap '[ -n "$PID" ] && kill "$PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$T"' EXIT

# sw_start: a fresh TPM (sha256 bank) in $S, sockets $S/data and $S/ctrl.
sw_start() {
	[ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
	rm -rf "$S" && mkdir -p "$S/st" &&
		swtpm_setup --tpm2 --tpmstate "$S/st" --pcr-banks sha256 --overwrite >"$S/setup.log" 2>&1 ||
		return 1
	swtpm socket --tpm2 --tpmstate "dir=$S/st" --server "type=unixio,path=$S/data" \
		--ctrl "type=unixio,path=$S/ctrl" --flags not-need-init >"$S/swtpm.log" 2>&1 &
	PID=$!
	while kill -0 "$PID" 2>/dev/null && [ ! -S "$S/ctrl" ]; do sleep 0.05; done
	kill -0 "$PID" 2>/dev/null
}

boot_keys || { fail "keygen"; finish; exit 1; }
D=$T/dev
ok "device" std_device "$D" INDEX=1
kernel_fit "$W/kernel-i2.fit" kernel "$W/bl.dtb" INDEX=2
kernel_fit "$W/kernel-i3.fit" kernel "$W/bl.dtb" INDEX=3 DESC=other
ok "swtpm" sw_start
B="$VFIT boot --device $D --trust $S"

status 1 "unprovisioned TPM refused" $B
contains "named" "$T/.out" "TPM: trust-state NV index missing \(NV_ReadPublic"
status 0 "provision (platform authorization)" $B provision
contains "index defined" "$T/.out" "^provision: trust-state NV index 0x01500100 defined"
status 1 "provisioning twice fails" $B provision
status 0 "boot" $B
contains "counter from the TPM" "$T/.out" "^   Rollback index 1 >= counter 0 for 'kernel' OK$"
contains "kernel measured" "$T/.out" "^   Measured 'kernel' \(kernel\) into PCR 8$"
contains "each stage's key measured" "$T/.out" "^   Measured 'rom' \(key\) into PCR 7$"
contains "the bootloader stage measured" "$T/.out" "^   Measured 'firmware-1' \(firmware\) into PCR 4$"
status 0 "mark-good" $B mark-good
contains "counter advanced in NV" "$T/.out" "^   Rollback counter 'kernel': 0 -> 1$"
status 0 "status" $B status
contains "trust state" "$T/.out" "^counters: tpm trust state, NV index 0x01500100$"
contains "kernel 1" "$T/.out" "^  kernel: 1$"

# An update offered but never booted: mark-good confirms what booted (slot A), nothing of B.
status 0 "update to index 2" $B update "$W/kernel-i2.fit"
status 0 "mark-good before booting it" $B mark-good
contains "slot A confirmed" "$T/.out" "^mark-good: confirmed good: slot A$"
if grep -q "Rollback counter 'kernel'" "$T/.out"; then fail "the unbooted update moved a counter"; else pass; fi
status 0 "trial boot of B" $B
contains "index 2 on trial" "$T/.out" "Rollback index 2 >= counter 1 for 'kernel' OK"
# Slot B rewritten after it booted (another vendor-signed FIT): not the chain that booted.
cp -a "$D" "$T/old"
cp "$W/kernel-i3.fit" "$D/slot-b/stage2.fit"
status 1 "mark-good of a swapped chain refused" $B mark-good
contains "not the chain that booted" "$T/.out" "^mark-good: refused, not the chain that booted: slot B$"
status 0 "status" $B status
contains "counter unchanged" "$T/.out" "^  kernel: 1$"
cp "$W/kernel-i2.fit" "$D/slot-b/stage2.fit"
status 0 "mark-good of the chain that booted" $B mark-good
contains "advanced to 2" "$T/.out" "^   Rollback counter 'kernel': 1 -> 2$"
# The device directory from before (slot A at index 1 first, its state file): the TPM decides.
rm -rf "$D" && cp -a "$T/old" "$D"
tamper "$D/slot-b/stage2.fit"
status 1 "older directory: index 1 refused" $B
contains "rollback" "$T/.out" "rollback index 1 < counter 2 for 'kernel'"

# Mis-provisioned: another size at the index (tpm-lib's NV_DefineSpace through the same sockets
# is the factory's step; here the look-alike comes from tpm2-tools when present).
ok "fresh swtpm" sw_start
if command -v tpm2_nvdefine >/dev/null; then
	# tpm2-tools speak to swtpm over TCP only: a TCP instance on the same state.
	kill "$PID" && wait "$PID" 2>/dev/null
	port=$(( 20000 + ($$ * 13) % 20000 ))
	swtpm socket --tpm2 --tpmstate "dir=$S/st" --server "type=tcp,port=$port,bindaddr=127.0.0.1" \
		--ctrl "type=tcp,port=$((port + 1)),bindaddr=127.0.0.1" --flags not-need-init,startup-clear \
		>"$S/tcp.log" 2>&1 &
	PID=$!
	tcti="swtpm:host=127.0.0.1,port=$port"
	while kill -0 "$PID" 2>/dev/null && ! tpm2_getcap -T "$tcti" properties-fixed >/dev/null 2>&1; do
		sleep 0.1
	done
	status 0 "a look-alike index (owner-defined, 432 bytes)" tpm2_nvdefine -T "$tcti" -C o -s 432 \
		-a "ownerwrite|ownerread|authread|authwrite|no_da" 0x01500100
	tpm2_shutdown -T "$tcti" >/dev/null 2>&1
	kill "$PID" && wait "$PID" 2>/dev/null
	rm -f "$S/data" "$S/ctrl"
	swtpm socket --tpm2 --tpmstate "dir=$S/st" --server "type=unixio,path=$S/data" \
		--ctrl "type=unixio,path=$S/ctrl" --flags not-need-init >"$S/swtpm.log" 2>&1 &
	PID=$!
	while kill -0 "$PID" 2>/dev/null && ! [ -S "$S/ctrl" ]; do sleep 0.05; done
	status 1 "look-alike refused" $B
	contains "wrong attributes named" "$T/.out" "TPM: trust-state NV index has wrong attributes"
else
	skip tool "tpm2-tools not installed"
fi
finish
