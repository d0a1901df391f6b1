#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit boot's one TPM store (--trust: the QEMU stage's NV trust state over
# swtpm's UNIX sockets, a real swtpm started and stopped here) where power
# and the TPM fail: a power cut inside mark-good loses nothing (the next
# confirmation completes it), the device directory's file store is never
# consulted, and a TPM that is gone is an error, never a silent fallback.
# The tss2 counter store (--tpm TCTI) is gone: the tool links no TPM stack.
# boot_trust.sh has the store's normal life and its refusals.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/boot_lib/device.sh"
. "$(dirname "$0")/boot_lib/swtpm.sh"

start_swtpm && pass || { fail "swtpm did not start"; cat "$SOCKDIR/swtpm.log"; finish; exit 1; }
boot_keys || { fail "keygen"; finish; exit 1; }
D=$T/dev
ok "device" std_device "$D" INDEX=1
kernel_fit "$W/kernel-i2.fit" kernel "$W/bl.dtb" INDEX=2
B="$VFIT boot --device $D --trust $SOCKDIR"

status 2 "--tpm TCTI is no option any more" "$VFIT" boot --device "$D" --tpm "swtpm:port=2321"
status 2 "provision without --trust is a usage error" "$VFIT" boot --device "$D" provision
status 0 "provision" $B provision
status 0 "boot" $B
status 0 "factory mark-good" $B mark-good
contains "counter advanced in the TPM" "$T/.out" "Rollback counter 'kernel': 0 -> 1"
status 0 "update to index 2" $B update "$W/kernel-i2.fit"
status 0 "trial boot" $B
contains "index 2 checked against the TPM" "$T/.out" "Rollback index 2 >= counter 1 for 'kernel' OK"

# Power cut inside mark-good after its first NV write (the state: slot B
# good), before the counter's: the counter is still 1, and the next
# confirmation of the same chain moves it.
VFIT_BOOT_CRASH_AFTER=2 $B mark-good >/dev/null 2>&1
is "mark-good cut" 99 $?
$B status >"$T/st" 2>&1
contains "cut after the state write: slot B confirmed" "$T/st" "^slot B: good"
contains "cut before the counter write: TPM still 1" "$T/st" "^  kernel: 1$"
status 0 "mark-good after the cut" $B mark-good
contains "the confirmation completed" "$T/.out" "Rollback counter 'kernel': 1 -> 2"
$B status >"$T/st" 2>&1
contains "TPM counter 2" "$T/st" "^  kernel: 2$"

# The device directory's own file store is not consulted: it still says 0.
status 0 "file store status" "$VFIT" boot --device "$D" status
contains "file counter still 0" "$T/.out" "^  kernel: 0$"
tamper "$D/slot-b/stage2.fit"
status 1 "index 1 refused by the TPM's counter" $B
contains "rollback reason" "$T/.out" "rollback index 1 < counter 2 for 'kernel'"

stop_swtpm
status 2 "TPM gone: an error" $B
contains "the error names swtpm's socket" "$T/.out" "^vfit: boot: $SOCKDIR/data: cannot connect to swtpm"
if grep -q "Starting\|counters: file" "$T/.out"; then
	fail "booted without its TPM, or used the file store"
else
	pass
fi
finish
