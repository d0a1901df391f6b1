#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit boot update / mark-good: trials with attempts counting down, falling
# back by itself, confirmation, a bootloader upgrade that rotates the
# kernel sub-key, and refusals.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/boot_lib/device.sh"

boot_keys || { fail "keygen"; finish; exit 1; }
D=$T/dev
ok "build a device" std_device "$D"
cp -a "$D" "$T/pristine"
kernel_fit "$W/kernel-v2.fit" kernel "$W/bl.dtb"
out=$T/out

# ---- a new kernel, never confirmed: attempts count down, then fallback -------------
status 0 "first boot" "$VFIT" boot --device "$D"
status 0 "update kernel" "$VFIT" boot --device "$D" update "$W/kernel-v2.fit"
cp "$T/.out" "$out"
contains "position found" "$out" "^update: the new FIT replaces stage 2 of slot A"
contains "new chain verified" "$out" "Checking FIT Image at .* \(new chain, stage 2\)"
contains "written" "$out" "^update: writing slot B"
contains "read back" "$out" "Checking FIT Image at .* \(slot B, stage 2\)"
contains "trial offered" "$out" "^update: slot B will be tried next \(3 attempts\); slot A stays as the fallback"
ok "slot B holds the new kernel" cmp "$D/slot-b/stage2.fit" "$W/kernel-v2.fit"
ok "slot B stage 1 copied" cmp "$D/slot-b/stage1.fit" "$D/slot-a/stage1.fit"
ok "status" "$VFIT" boot --device "$D" status
contains "trying 3" "$T/.out" "^slot B: trying \(3 attempts left\), tried first"
for left in 2 1 0; do
	status 0 "trial boot ($left left)" "$VFIT" boot --device "$D" --dump "$T/ram"
	contains "counts down to $left" "$T/.out" "slot B is on trial: $left attempts left after this boot"
	ok "the new kernel runs ($left)" cmp "$T/ram/kernel.bin" "$W/kernel-v2.fit.kernel.bin"
done
status 0 "attempts exhausted" "$VFIT" boot --device "$D" --dump "$T/ram"
cp "$T/.out" "$out"
contains "exhausted reason" "$out" "^slot B: no boot attempts left"
contains "marked bad" "$out" "Marked bad: slot B"
contains "old slot again" "$out" "^## Trying slot A"
ok "the old kernel runs" cmp "$T/ram/kernel.bin" "$W/kernel.fit.kernel.bin"
status 0 "status after revert" "$VFIT" boot --device "$D" status
contains "B bad" "$T/.out" "^slot B: bad$"
contains "A first again" "$T/.out" "^slot A: good, tried first"

# ---- the same update, confirmed ------------------------------------------------
status 0 "update again" "$VFIT" boot --device "$D" update "$W/kernel-v2.fit"
status 0 "mark-good before the trial confirms the running slot only" \
	"$VFIT" boot --device "$D" mark-good
contains "running slot" "$T/.out" "^mark-good: confirmed good: slot A"
ok "status" "$VFIT" boot --device "$D" status
contains "B still on trial" "$T/.out" "^slot B: trying \(3 attempts left\)"
status 0 "trial boot" "$VFIT" boot --device "$D"
status 1 "no second update during a trial" "$VFIT" boot --device "$D" update "$W/kernel.fit"
contains "trial reason" "$T/.out" "slot B is not confirmed good"
status 0 "mark-good" "$VFIT" boot --device "$D" mark-good
contains "confirmed" "$T/.out" "^mark-good: confirmed good: slot B"
status 0 "status" "$VFIT" boot --device "$D" status
contains "B good" "$T/.out" "^slot B: good, tried first"
status 0 "confirmed boot" "$VFIT" boot --device "$D"
if grep -q "on trial" "$T/.out"; then fail "still on trial after mark-good"; else pass; fi

# ---- a failing upgrade reverts by itself ----------------------------------------
rm -rf "$D" && cp -a "$T/pristine" "$D"
status 0 "boot" "$VFIT" boot --device "$D"
status 0 "update" "$VFIT" boot --device "$D" update "$W/kernel-v2.fit"
tamper "$D/slot-b/stage2.fit"
status 0 "broken new slot: old one boots" "$VFIT" boot --device "$D" --dump "$T/ram"
contains "new slot refused" "$T/.out" "^slot B stage 2: bad hash value"
ok "old kernel" cmp "$T/ram/kernel.bin" "$W/kernel.fit.kernel.bin"

# ---- repair from recovery: no good slot left -------------------------------------
rm -rf "$D" && cp -a "$T/pristine" "$D"
tamper "$D/slot-a/stage2.fit"
tamper "$D/slot-b/stage2.fit"
status 1 "both slots broken: recovery" "$VFIT" boot --device "$D"
contains "recovery ran" "$T/.out" "^Starting RECOVERY kernel"
status 0 "update from recovery" "$VFIT" boot --device "$D" update "$W/kernel-v2.fit"
contains "repair announced" "$T/.out" "^update: no good slot: repairing slot A"
contains "recovery is the fallback" "$T/.out" "slot A will be tried next \(3 attempts\); recovery stays as the fallback"
status 0 "repaired slot boots" "$VFIT" boot --device "$D" --dump "$T/ram"
ok "the new kernel runs" cmp "$T/ram/kernel.bin" "$W/kernel-v2.fit.kernel.bin"
status 0 "confirm the repaired slot" "$VFIT" boot --device "$D" mark-good

# ---- refusals leave everything as it was ------------------------------------------
rm -rf "$D" && cp -a "$T/pristine" "$D"
status 0 "boot" "$VFIT" boot --device "$D"
cp "$D/state" "$T/state.before"
kernel_fit "$W/foreign.fit" kernel2 "$W/foreign.dtb"
status 1 "unknown key refused" "$VFIT" boot --device "$D" update "$W/foreign.fit"
contains "refusal" "$T/.out" "update: refused: the new chain verifies at no stage position"
ok "state unchanged" cmp "$D/state" "$T/state.before"
ok "slot B unchanged" cmp "$D/slot-b/stage2.fit" "$T/pristine/slot-b/stage2.fit"
status 2 "missing file" "$VFIT" boot --device "$D" update "$T/nonexistent.fit"
status 2 "no FIT" "$VFIT" boot --device "$D" update

# ---- bootloader upgrade that rotates the kernel sub-key -----------------------------
rm -f "$W/bl2.dtb"
kernel_fit "$W/kernel2.fit" kernel2 "$W/bl2.dtb"
# Signing with the ROM key again rewrites its key node in rom.dtb with the
# same values: the device's ROM stays valid (the file may grow, the tree not).
to_dts "ROM before signing" "$W/rom.dtb" "$T/rom.before"
bl_fit "$W/bl2.fit" rom "$W/rom.dtb" "$W/bl2.dtb"
to_dts "ROM after signing" "$W/rom.dtb" "$T/rom.after"
same "ROM unchanged by signing" "$T/rom.before" "$T/rom.after"
status 1 "new bootloader alone refused (old kernel key rotated out)" \
	"$VFIT" boot --device "$D" update "$W/bl2.fit"
contains "old kernel fails with new keys" "$T/.out" "new chain stage 2: failed to verify required signature"
status 0 "bootloader + kernel" "$VFIT" boot --device "$D" update "$W/bl2.fit" "$W/kernel2.fit"
contains "two stages replaced" "$T/.out" "^update: the new FITs replace stages 1\.\.2 of slot A"
status 0 "boot the rotated chain" "$VFIT" boot --device "$D"
contains "new sub-key trusted" "$T/.out" "Trusting key 'key-kernel2' .* from fdt 'fdt-1' verified in stage 1"
contains "signed by the new sub-key" "$T/.out" "sha256,rsa2048:kernel2\+ OK"
status 0 "confirm" "$VFIT" boot --device "$D" mark-good
status 1 "a kernel signed with the retired sub-key is refused" \
	"$VFIT" boot --device "$D" update "$W/kernel.fit"
status 0 "a kernel with the new sub-key is accepted" \
	"$VFIT" boot --device "$D" update "$W/kernel2.fit"
contains "stage 2 of slot B" "$T/.out" "^update: the new FIT replaces stage 2 of slot B"
finish
