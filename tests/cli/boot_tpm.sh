#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit boot's one TPM store (--trust: the QEMU stage's NV trust state over
# swtpm's UNIX sockets, a real swtpm started and stopped here) against the
# stores it replaced: the tss2 counter store (--tpm TCTI) is gone, the tool
# links no TPM stack; the device directory's own file store is never
# consulted, whatever it says or whether it is there at all; and a TPM that
# is gone is an I/O error (exit 2) naming swtpm's socket for every command,
# never a fallback to the files, with the device directory left as it was
# -- and for the OS's own `vfit disk ... --tpm`, with the disk left as it was.
# boot_trust.sh has the store's normal life, its refusals and power cuts.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/boot_lib/device.sh"
. "$(dirname "$0")/boot_lib/swtpm.sh"
need fdtput

start_swtpm && pass || { fail "swtpm did not start"; cat "$SOCKDIR/swtpm.log"; finish; exit 1; }
boot_keys || { fail "keygen"; finish; exit 1; }
D=$T/dev
ok "device" std_device "$D" INDEX=1
ok "its ROM requires the TPM" fdtput -p -t s "$D/rom.dtb" /config vfit,tpm required
B="$VFIT boot --device $D --trust $SOCKDIR"

status 2 "--tpm TCTI is no option any more" "$VFIT" boot --device "$D" --tpm "swtpm:port=2321"
status 2 "provision without --trust is a usage error" "$VFIT" boot --device "$D" provision
status 0 "provision" $B provision

# The file store at a counter the TPM never saw: a device whose ROM trusts no TPM,
# its slot confirmed at index 5, lends the TPM device its counter file and state.
F=$T/files
ok "a device with the file store" std_device "$F" INDEX=5
ok "boot (file store)" "$VFIT" boot --device "$F"
ok "mark-good (file store)" "$VFIT" boot --device "$F" mark-good
status 0 "file store status" "$VFIT" boot --device "$F" status
contains "the file counter is 5" "$T/.out" "^  kernel: 5$"
cp "$F/counters" "$F/state" "$D/"
status 0 "boot: index 1 against the TPM's counter, not the file's 5" $B
contains "the TPM's counter" "$T/.out" "^   Rollback index 1 >= counter 0 for 'kernel' OK$"
contains "slot A starts" "$T/.out" "^Starting kernel"
status 0 "status" $B status
contains "the TPM's counter named" "$T/.out" "^counters: tpm trust state, NV index 0x01500100$"
contains "kernel 0 in the TPM" "$T/.out" "^  kernel: 0$"

# No file store at all (the file store refuses a missing counter file): not needed.
rm -f "$D/counters"
status 0 "mark-good with no counter file" $B mark-good
status 0 "the power-on that serves it" $B
contains "counter advanced in the TPM" "$T/.out" "^   Rollback counter 'kernel': 0 -> 1$"
if [ -e "$D/counters" ]; then fail "a counter file was written"; else pass; fi

# The TPM gone (swtpm stopped): each command is an I/O error naming the socket and
# changes nothing; no boot, no file store.
kernel_fit "$W/kernel-i2.fit" kernel "$W/bl.dtb" INDEX=2
cp "$W/kernel-i2.fit" "$T/upd.fit"
stop_swtpm
snapshot() { (cd "$D" && find . -type f | sort | xargs sha256sum); }
snapshot >"$T/before"
for cmd in boot mark-good "update $T/upd.fit" status provision; do
	# shellcheck disable=SC2086
	status 2 "TPM gone: $cmd is an error" $B $cmd
	contains "$cmd: the error names swtpm's socket" "$T/.out" \
		"^vfit: boot: $SOCKDIR/data: cannot connect to swtpm: "
	if grep -q "^Starting\|^counters: \|Rollback" "$T/.out"; then
		fail "$cmd: went on without its TPM"
	else
		pass
	fi
done
snapshot >"$T/after"
ok "the device directory unchanged" cmp "$T/before" "$T/after"
ok "a disk" "$VFIT" disk create --slot-size 1M "$T/disk.img"
cp "$T/disk.img" "$T/disk0.img"
for cmd in mark-good "update --rom $D/rom.dtb"; do
	# shellcheck disable=SC2086
	status 2 "TPM gone: vfit disk $cmd --tpm is an error" "$VFIT" disk $cmd --tpm "$SOCKDIR" \
		"$T/disk.img" $([ "$cmd" = mark-good ] || echo "$T/upd.fit")
	contains "vfit disk $cmd: the error names swtpm's socket" "$T/.out" \
		"^vfit: disk: $SOCKDIR/data: cannot connect to swtpm: "
done
ok "the disk unchanged" cmp "$T/disk.img" "$T/disk0.img"

# The TPM back (its NV kept): the counter it holds.
ok "swtpm restarted on its state" swtpm_up
status 0 "status" $B status
contains "counter 1 kept" "$T/.out" "^  kernel: 1$"
finish
