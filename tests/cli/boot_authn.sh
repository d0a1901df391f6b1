#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit boot: what a stage may take from its FIT (issue 10, classes 5 and 6).
# A configuration's rollback data, and the properties that decide where code
# lands and runs (load, entry, compression, which image is the kernel or the
# next stage), are used only when a configuration signature by a required
# key covered them; an image signature covers payload bytes alone.  The
# kernel's entry point must lie inside the loaded kernel under every policy.
# Every device below is one that the boot flow before this rule booted.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/boot_lib/device.sh"

boot_keys || { fail "keygen"; finish; exit 1; }
ctr() { "$VFIT" boot --device "$2" status | sed -n "s/^  $1: //p"; }
not_started() { # NAME ADDR: no kernel was started at ADDR
	if grep -q "^Starting kernel at $2" "$T/.out"; then fail "$1"; else pass; fi
}

# ---- class 6: the entry point lies inside the kernel (signed configuration) ----------
D=$T/entry
ok "device: entry in the FIT staging area" std_device "$D" KENTRY=0x88007000
status 1 "entry outside the kernel refused" "$VFIT" boot --device "$D"
contains "entry reason" "$T/.out" "^slot A stage 2: entry point 88007000 lies outside kernel 'kernel' \[80080000\.\.80084e20\)$"
contains "entry: recovery instead" "$T/.out" "^Starting RECOVERY kernel at 80080000"
not_started "started at an address outside the kernel" 88007000
status 1 "update with that kernel refused" "$VFIT" boot --device "$D" update "$W/kernel.fit"
contains "update: entry reason" "$T/.out" "^   - new chain stage 2: entry point 88007000 lies outside kernel"
D=$T/entry-end
ok "device: entry one past the kernel" std_device "$D" KENTRY=0x80084e20
status 1 "entry one past the end refused" "$VFIT" boot --device "$D"
contains "one past the end" "$T/.out" "entry point 80084e20 lies outside kernel 'kernel' \[80080000\.\.80084e20\)"
D=$T/entry-last
ok "device: entry on the kernel's last byte" std_device "$D" KENTRY=0x80084e1f
status 0 "entry on the last byte boots" "$VFIT" boot --device "$D"
contains "last byte" "$T/.out" "^Starting kernel at 80084e1f, fdt 83000000"
# A compressed kernel is checked once decompressed: against its real size.
D=$T/entry-gzip
ok "device: gzip kernel, entry past its decompressed end" std_device "$D" COMP=gzip KSIZE=300000 \
	KFILL=zero KENTRY=0x800c93e0
status 1 "entry past the decompressed kernel refused" "$VFIT" boot --device "$D"
contains "decompressed size" "$T/.out" "entry point 800c93e0 lies outside kernel 'kernel' \[80080000\.\.800c93e0\)"
D=$T/entry-gzip-in
ok "device: gzip kernel, entry beyond its compressed size" std_device "$D" COMP=gzip KSIZE=300000 \
	KFILL=zero KENTRY=0x800c0000
status 0 "entry inside the decompressed kernel boots" "$VFIT" boot --device "$D"
contains "gzip entry" "$T/.out" "^Starting kernel at 800c0000,"
# Sibling: the next stage's firmware starts inside itself too.
D=$T/fw-entry
ok "device" std_device "$D"
bl_fit "$W/bl-fwentry.fit" rom "$W/rom.dtb" "$W/bl.dtb" FWENTRY=0x87100000
cp "$W/bl-fwentry.fit" "$D/slot-a/stage1.fit" && cp "$W/bl-fwentry.fit" "$D/slot-b/stage1.fit"
status 1 "firmware entry outside the firmware refused" "$VFIT" boot --device "$D"
contains "firmware entry reason" "$T/.out" "^slot A stage 1: entry point 87100000 lies outside firmware 'firmware-1' \[87000000\.\.87001388\)$"

# ---- class 6: an image-signature-only policy authenticates no placement ---------------
# bl-img.fit: the vendor's bootloader (configuration signed by the ROM key)
# whose DTB requires key-kernel2 for images only; kernel-img.fit carries
# image signatures by that key and an unsigned configuration.
rm -f "$W/blimg.dtb"
kernel_fit "$W/kernel-img.fit" kernel2 "$W/blimg.dtb" IMGSIG=1
bl_fit "$W/bl-img.fit" rom "$W/rom.dtb" "$W/blimg.dtb"
is "key-kernel2 required for images" image "$(fdtget "$W/blimg.dtb" /signature/key-kernel2 required)"
ok "the verifier accepts the image-signed kernel" "$VFIT" verify -f "$W/kernel-img.fit" -k "$W/blimg.dtb"
img_device() { # DIR KERNEL-FIT
	std_device "$1" &&
	cp "$W/bl-img.fit" "$1/slot-a/stage1.fit" && cp "$W/bl-img.fit" "$1/slot-b/stage1.fit" &&
	cp "$2" "$1/slot-a/stage2.fit" && cp "$2" "$1/slot-b/stage2.fit"
}
D=$T/img
ok "device with the image-signed kernel" img_device "$D" "$W/kernel-img.fit"
status 1 "unsigned placement refused" "$VFIT" boot --device "$D"
contains "placement reason" "$T/.out" "^slot A stage 2: configuration 'conf-1' is not covered by a verified configuration signature: load, entry and compression are unauthenticated$"
contains "placement: recovery" "$T/.out" "^Starting RECOVERY kernel"
# The red team's case: entry moved into never-verified bytes of the staging area.
cp "$W/kernel-img.fit" "$W/kernel-img-entry.fit"
ok "entry rewritten" fdtput -t x "$W/kernel-img-entry.fit" /images/kernel entry 880073bc
ok "the rewritten FIT still verifies (entry is unsigned)" \
	"$VFIT" verify -f "$W/kernel-img-entry.fit" -k "$W/blimg.dtb"
D=$T/img-entry
ok "device with the rewritten entry" img_device "$D" "$W/kernel-img-entry.fit"
status 1 "unsigned entry refused" "$VFIT" boot --device "$D"
contains "unsigned entry reason" "$T/.out" "^slot A stage 2: configuration 'conf-1' is not covered"
not_started "started at the unsigned entry" 880073bc
cp "$W/kernel-img.fit" "$W/kernel-img-load.fit"
ok "load rewritten" fdtput -t x "$W/kernel-img-load.fit" /images/kernel load 86000000
D=$T/img-load
ok "device with the rewritten load address" img_device "$D" "$W/kernel-img-load.fit"
status 1 "unsigned load refused" "$VFIT" boot --device "$D"
if grep -q "Loading kernel 'kernel' to 86000000" "$T/.out"; then fail "loaded at the unsigned address"; else pass; fi
status 1 "update to an image-signed chain refused" "$VFIT" boot --device "$T/entry-last" \
	update "$W/bl-img.fit" "$W/kernel-img.fit"
contains "update: placement reason" "$T/.out" "new chain stage 2: configuration 'conf-1' is not covered"
# The same rule at stage 1: a ROM that requires image signatures only.
rm -f "$W/rom-img.dtb"
recovery_fit "$W/recovery-img.fit" "$W/rom-img.dtb"
bl_fit "$W/bl-romimg.fit" rom "$W/rom-img.dtb" "$W/bl.dtb" IMGSIG=1
D=$T/rom-img
ok "device whose ROM requires image signatures" "$VFIT" boot --device "$D" init \
	--rom "$W/rom-img.dtb" --recovery "$W/recovery-img.fit" "$W/bl-romimg.fit" "$W/kernel.fit"
status 1 "stage 1 with unsigned placement refused" "$VFIT" boot --device "$D"
contains "stage 1 reason" "$T/.out" "^slot A stage 1: configuration 'conf-1' is not covered"
if grep -q "Loading firmware" "$T/.out"; then fail "firmware placed at an unsigned address"; else pass; fi

# ---- class 5: rollback data no signature covers is never used -------------------------
D=$T/rb
ok "device with kernel index 5" std_device "$D" INDEX=5
ok "factory boot" "$VFIT" boot --device "$D"
ok "mark-good: counter 'kernel' at 5" "$VFIT" boot --device "$D" mark-good
is "counter kernel" 5 "$(ctr kernel "$D")"
cp -a "$D" "$T/rb.pristine"
kernel_fit "$W/kernel-img-ctr.fit" kernel2 "$W/blimg.dtb" IMGSIG=1 RCTR=fresh
for s in a b; do
	cp "$W/bl-img.fit" "$D/slot-$s/stage1.fit" && cp "$W/kernel-img-ctr.fit" "$D/slot-$s/stage2.fit"
done
status 1 "unsigned rollback-counter refused" "$VFIT" boot --device "$D"
contains "counter name reason" "$T/.out" "^slot A stage 2: rollback-index or rollback-counter that no verified configuration signature covers \(refusing an unauthenticated rollback policy\)$"
if grep -q "for 'fresh'" "$T/.out"; then fail "the unsigned counter name was used"; else pass; fi
contains "rollback: recovery" "$T/.out" "^Starting RECOVERY kernel"
kernel_fit "$W/kernel-img-idx.fit" kernel2 "$W/blimg.dtb" IMGSIG=1 INDEX=9
rm -rf "$D" && cp -a "$T/rb.pristine" "$D"
for s in a b; do
	cp "$W/bl-img.fit" "$D/slot-$s/stage1.fit" && cp "$W/kernel-img-idx.fit" "$D/slot-$s/stage2.fit"
done
status 1 "unsigned rollback-index refused" "$VFIT" boot --device "$D"
contains "index reason" "$T/.out" "^slot A stage 2: rollback-index or rollback-counter that no verified"
rm -rf "$D" && cp -a "$T/rb.pristine" "$D"
status 1 "update with an unsigned rollback policy refused" "$VFIT" boot --device "$D" \
	update "$W/bl-img.fit" "$W/kernel-img-ctr.fit"
contains "update: counter name reason" "$T/.out" "new chain stage 2: rollback-index or rollback-counter"
is "counter kernel unchanged" 5 "$(ctr kernel "$D")"

# Signed but malformed rollback data (U-Boot's mkimage signs what vfit mkimage refuses).
MKIMAGE=mkimage
kernel_fit "$W/kernel-badname.fit" kernel "$W/bl.dtb" RCTR=bad/name
kernel_fit "$W/kernel-twocells.fit" kernel "$W/bl.dtb" 'INDEX=1\ 2'
MKIMAGE="$VFIT mkimage"
for f in badname twocells; do
	rm -rf "$D" && cp -a "$T/rb.pristine" "$D"
	cp "$W/kernel-$f.fit" "$D/slot-a/stage2.fit" && cp "$W/kernel-$f.fit" "$D/slot-b/stage2.fit"
	status 1 "signed $f refused" "$VFIT" boot --device "$D"
	cp "$T/.out" "$T/$f.out"
done
contains "bad counter name" "$T/badname.out" "^slot A stage 2: rollback-counter must be 1\.\.31 characters"
contains "two cells" "$T/twocells.out" "^slot A stage 2: rollback-index must be one 32-bit cell"
finish
