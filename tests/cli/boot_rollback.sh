#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit boot with rollback indexes and the file counter store: an index
# below the counter is refused and falls back; only a confirmed boot
# advances a counter; a cut between the advance and the confirmation loses nothing;
# an unreadable store fails closed.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/boot_lib/device.sh"

boot_keys || { fail "keygen"; finish; exit 1; }
D=$T/dev
ok "device with kernel index 1" std_device "$D" INDEX=1
cp "$W/kernel.fit" "$W/kernel-i1.fit"
cp "$W/kernel.fit.kernel.bin" "$W/kernel-i1.fit.kernel.bin"
kernel_fit "$W/kernel-i2.fit" kernel "$W/bl.dtb" INDEX=2

ctr() { "$VFIT" boot --device "${2:-$D}" status | sed -n "s/^  $1: //p"; }

status 0 "factory boot" "$VFIT" boot --device "$D"
contains "index checked" "$T/.out" "Rollback index 1 >= counter 0 for 'kernel' OK"
contains "bootloader counter separate" "$T/.out" "Rollback index 0 >= counter 0 for 'bootloader' OK"
if grep -q "Rollback counter 'kernel'" "$T/.out"; then fail "a boot advanced the counter"; else pass; fi
status 0 "factory mark-good" "$VFIT" boot --device "$D" mark-good
contains "confirmation advances" "$T/.out" "Rollback counter 'kernel': 0 -> 1"
[ "$(ctr kernel)" = 1 ] && pass || fail "kernel counter is $(ctr kernel), want 1"

status 0 "update to index 2" "$VFIT" boot --device "$D" update "$W/kernel-i2.fit"
status 0 "trial boot of index 2" "$VFIT" boot --device "$D"
contains "index 2 checked" "$T/.out" "Rollback index 2 >= counter 1 for 'kernel' OK"
if grep -q "Rollback counter 'kernel'" "$T/.out"; then fail "unconfirmed boot advanced the counter"; else pass; fi
[ "$(ctr kernel)" = 1 ] && pass || fail "counter moved without confirmation: $(ctr kernel)"
# While unconfirmed, index 1 still boots.
rm -rf "$T/copy" && cp -a "$D" "$T/copy"
tamper "$T/copy/slot-b/stage2.fit"
status 0 "index 1 still boots before confirmation" "$VFIT" boot --device "$T/copy"
contains "index 1 accepted" "$T/.out" "Rollback index 1 >= counter 1 for 'kernel' OK"
# A corrupted (or forged) state says both slots are good: the unconfirmed
# index-2 slot boots as "good" when slot A fails, and must still not move
# the counter -- only mark-good does.
rm -rf "$T/copy" && cp -a "$D" "$T/copy"
tamper "$T/copy/slot-a/stage2.fit"
printf 'garbage' >"$T/copy/state"
status 0 "unconfirmed slot boots from a default state" "$VFIT" boot --device "$T/copy"
contains "default state used" "$T/.out" "^State: unreadable or corrupted"
contains "index 2 booted" "$T/.out" "Rollback index 2 >= counter 1 for 'kernel' OK"
if grep -q "Rollback counter 'kernel'" "$T/.out"; then fail "a forged good state advanced the counter"; else pass; fi
[ "$(ctr kernel "$T/copy")" = 1 ] && pass || fail "counter moved without confirmation: $(ctr kernel "$T/copy")"

# Confirmation, cut between the counter advance and the state write (counters move first,
# so a cut never leaves a confirmed slot with its counters behind).
cp -a "$D" "$T/trial"
VFIT_BOOT_CRASH_AFTER=1 "$VFIT" boot --device "$D" mark-good >/dev/null 2>&1
[ $? = 99 ] && pass || fail "mark-good not cut"
[ "$(ctr kernel)" = 2 ] && pass || fail "counter after the cut: $(ctr kernel)"
status 0 "boot after the cut" "$VFIT" boot --device "$D"
contains "index 2 boots after the cut, still on trial" "$T/.out" "is on trial"
status 0 "mark-good after the cut" "$VFIT" boot --device "$D" mark-good
contains "next confirmation ends the trial" "$T/.out" "^mark-good: confirmed good: slot B$"
[ "$(ctr kernel)" = 2 ] && pass || fail "counter is $(ctr kernel), want 2"

# The same confirmation without a cut.
rm -rf "$D" && cp -a "$T/trial" "$D"
status 0 "mark-good" "$VFIT" boot --device "$D" mark-good
contains "confirmation advances" "$T/.out" "Rollback counter 'kernel': 1 -> 2"
[ "$(ctr kernel)" = 2 ] && pass || fail "counter is $(ctr kernel), want 2"

# Now index 1 is refused, like any verification failure.
tamper "$D/slot-b/stage2.fit"
status 1 "index 1 refused after confirmation" "$VFIT" boot --device "$D"
contains "rollback reason" "$T/.out" "^slot A stage 2: rollback index 1 < counter 2 for 'kernel'"
contains "falls back to recovery" "$T/.out" "^Starting RECOVERY kernel"

# An update with the old index is refused before anything is written.
rm -rf "$D" && cp -a "$T/trial" "$D"
status 0 "mark-good" "$VFIT" boot --device "$D" mark-good
status 1 "old index refused by update" "$VFIT" boot --device "$D" update "$W/kernel-i1.fit"
contains "update reason" "$T/.out" "rollback index 1 < counter 2 for 'kernel'"

# An attacker who edits the stored value back to 1 (slot A still holds the
# index-1 kernel) is caught by the checksum: the store fails closed.
cp "$D/counters" "$T/counters.good"
off=$(grep -obUa kernel "$D/counters" | head -n 1 | cut -d: -f1)
printf '\001' | dd of="$D/counters" bs=1 seek=$((off + 39)) conv=notrunc 2>/dev/null
status 1 "edited value: nothing boots" "$VFIT" boot --device "$D"
contains "edit detected by the checksum" "$T/.out" "counters: counter store checksum mismatch .*refusing to use it"
if grep -q "Starting" "$T/.out"; then fail "booted with an edited store"; else pass; fi
# The refusal is the store's fault, not the slots': restored, slot B boots.
cp "$T/counters.good" "$D/counters"
status 0 "store restored: boots again" "$VFIT" boot --device "$D"
contains "newest index boots" "$T/.out" "Rollback index 2 >= counter 2 for 'kernel' OK"

# A corrupted counter store fails closed.
printf 'garbage' >"$D/counters"
status 1 "corrupted store: nothing boots" "$VFIT" boot --device "$D"
contains "store refused, not reset" "$T/.out" "counters: .*refusing to use it"
if grep -q "Starting" "$T/.out"; then fail "booted with a corrupted store"; else pass; fi
rm -f "$D/counters"
status 1 "missing store" "$VFIT" boot --device "$D"
contains "missing store named" "$T/.out" "counters"
finish
