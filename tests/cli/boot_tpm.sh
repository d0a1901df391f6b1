#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit boot with its rollback counters in a TPM 2.0 (a real swtpm started
# and stopped here): provisioning, counters read at boot, advanced only on
# confirmation, old index refused; an unreachable TPM is an error, never a
# silent fallback to the file store.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/boot_lib/device.sh"

SWTPM_PID=
trap '[ -n "$SWTPM_PID" ] && kill "$SWTPM_PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$T"' EXIT
mkdir -p "$T/tpm"
for try in 1 2 3 4 5; do
	port=$(( 20000 + ($$ * 7 + try * 131) % 20000 ))
	swtpm socket --tpm2 --server "type=tcp,port=$port,bindaddr=127.0.0.1" \
		--ctrl "type=tcp,port=$((port + 1)),bindaddr=127.0.0.1" --tpmstate "dir=$T/tpm" \
		--flags not-need-init,startup-clear >"$T/swtpm.log" 2>&1 &
	SWTPM_PID=$!
	TCTI="swtpm:host=127.0.0.1,port=$port"
	# Ready when it answers; gone when the port was taken.
	i=0
	while [ $i -lt 50 ] && kill -0 "$SWTPM_PID" 2>/dev/null &&
	      ! tpm2_getcap -T "$TCTI" properties-fixed >/dev/null 2>&1; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -0 "$SWTPM_PID" 2>/dev/null && [ $i -lt 50 ] && break
	kill "$SWTPM_PID" 2>/dev/null
	wait "$SWTPM_PID" 2>/dev/null
	SWTPM_PID=
done
[ -n "$SWTPM_PID" ] && pass || { fail "swtpm did not start"; cat "$T/swtpm.log"; finish; exit 1; }

boot_keys || { fail "keygen"; finish; exit 1; }
D=$T/dev
ok "device" std_device "$D" INDEX=1
kernel_fit "$W/kernel-i2.fit" kernel "$W/bl.dtb" INDEX=2
cp "$W/kernel.fit" "$W/kernel-i1.fit"

status 0 "provision" "$VFIT" boot --device "$D" provision --tpm "$TCTI"
contains "provisioned" "$T/.out" "TPM counter"
status 0 "boot" "$VFIT" boot --device "$D" --tpm "$TCTI"
contains "counter advanced in the TPM" "$T/.out" "Rollback counter 'kernel': 0 -> 1"
status 0 "status" "$VFIT" boot --device "$D" --tpm "$TCTI" status
contains "TPM backend" "$T/.out" "^counters: tpm "
contains "kernel counter 1" "$T/.out" "^  kernel: 1$"
status 0 "update to index 2" "$VFIT" boot --device "$D" --tpm "$TCTI" update "$W/kernel-i2.fit"
status 0 "trial boot" "$VFIT" boot --device "$D" --tpm "$TCTI"
"$VFIT" boot --device "$D" --tpm "$TCTI" status >"$T/st" 2>&1
contains "no advance without confirmation" "$T/st" "^  kernel: 1$"
status 0 "mark-good" "$VFIT" boot --device "$D" --tpm "$TCTI" mark-good
contains "confirmed advance" "$T/.out" "Rollback counter 'kernel': 1 -> 2"
tamper "$D/slot-b/stage2.fit"
status 1 "index 1 refused" "$VFIT" boot --device "$D" --tpm "$TCTI"
contains "rollback reason" "$T/.out" "rollback index 1 < counter 2 for 'kernel'"
# The file store is not consulted: it still says 0, and the TPM's 2 wins.
status 0 "file store untouched" "$VFIT" boot --device "$D" status
contains "file counter still 0" "$T/.out" "^  kernel: 0$"
kill "$SWTPM_PID" 2>/dev/null
wait "$SWTPM_PID" 2>/dev/null
SWTPM_PID=
status 2 "TPM gone: error, no fallback" "$VFIT" boot --device "$D" --tpm "$TCTI"
if grep -q "Starting" "$T/.out"; then fail "booted without its TPM"; else pass; fi
finish
