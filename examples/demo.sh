#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# `make demo`: the main job end to end, with vfit only.
#   1. a signing key           (vfit keygen)
#   2. a FIT of a sample kernel and device tree, hashed and signed
#                              (vfit mkimage -f demo.its -k keys -K control.dtb -r)
#   3. the public key, marked required, in the bootloader's control DTB
#   4. a boot-time check that verifies        (vfit verify: exit 0)
#   5. one flipped payload byte, rejected     (vfit verify: exit 1)
# then the boot flow (vfit boot, a device simulated in a directory):
#   6. a chain of trust ROM keys -> bootloader FIT -> its DTB's kernel key -> kernel FIT,
#      confirmed by the OS (mark-good), which moves the rollback counters up
#   7. slot A's kernel tampered: slot A is marked bad and slot B boots
# and last, the audit of the demo's own FIT (vfit audit):
#   8. will it boot in vfit, U-Boot HEAD, 2023.01 and Debian 12's U-Boot, what
#      does its signature protect (findings), and the picture (image.svg)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
VFIT=$BUILD/vfit
D=$BUILD/demo
rm -rf "$D"
mkdir -p "$D/keys"
cd "$D"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@"; }

step "1. a 2048-bit RSA signing key"
run "$VFIT" keygen -a rsa2048 -k keys -n dev

step "2. a sample kernel and device tree (generated), and the bootloader's control DTB"
{ printf 'VFIT-DEMO-KERNEL'; head -c 65536 /dev/urandom; } > Image
printf '/dts-v1/;\n/ { model = "vfit demo board"; compatible = "vfit,demo"; };\n' > board.dts
dtc -q -I dts -O dtb -o board.dtb board.dts
printf '/dts-v1/;\n/ { model = "vfit demo bootloader"; };\n' > control.dts
dtc -q -I dts -O dtb -o control.dtb control.dts
cp "$ROOT/examples/demo.its" .
run cat demo.its

step "3. build the FIT, hash and sign the configuration, put the key (required) in control.dtb"
SOURCE_DATE_EPOCH=1700000000 run "$VFIT" mkimage -f demo.its -k keys -K control.dtb -r image.fit

step "4. the boot-time check (device library) accepts the signed image"
run "$VFIT" verify -f image.fit -k control.dtb

step "5. one byte of the kernel flipped: rejected"
cp image.fit tampered.fit
off=$(grep -obUa 'VFIT-DEMO-KERNEL' tampered.fit | head -n 1 | cut -d: -f1)
echo "patching 'DEMO' -> 'dEMO' at offset $((off + 5)) of tampered.fit"
printf 'd' | dd of=tampered.fit bs=1 seek=$((off + 5)) conv=notrunc status=none
set +e
run "$VFIT" verify -f tampered.fit -k control.dtb
rc=$?
set -e
[ $rc = 1 ] || { echo "demo: tampered image was not rejected (exit $rc)" >&2; exit 1; }
printf '\nexit status %d: the tampered image does not boot.\n' $rc

step "6. a device: ROM keys -> bootloader (slot A/B) -> kernel, and a recovery image"
mkdir -p chain
cd chain
cp "$ROOT"/examples/chain/*.its .
cp ../Image ../board.dtb .
{ printf 'VFIT-DEMO-LOADER'; head -c 4096 /dev/urandom; } > u-boot.bin
printf '/dts-v1/;\n/ { };\n' > empty.dts
dtc -q -I dts -O dtb -o rom.dtb empty.dts      # mask ROM: root keys
dtc -q -I dts -O dtb -o bl.dtb empty.dts       # bootloader's control DTB: kernel key
for k in rom kernel recovery; do "$VFIT" keygen -a rsa2048 -k ../keys -n $k >/dev/null; done
export SOURCE_DATE_EPOCH=1700000000
run "$VFIT" mkimage -q -f kernel.its -k ../keys -K bl.dtb -r kernel.fit
run "$VFIT" mkimage -q -f bootloader.its -k ../keys -K rom.dtb -r bootloader.fit
run "$VFIT" mkimage -q -f recovery.its -k ../keys -K rom.dtb recovery.fit
run "$VFIT" boot --device dev init --rom rom.dtb --recovery recovery.fit bootloader.fit kernel.fit
run "$VFIT" boot --device dev
printf '\n# the OS confirms the boot: the rollback counters move up to the booted index\n'
run "$VFIT" boot --device dev mark-good

step "7. slot A's kernel FIT tampered: slot A is marked bad, slot B boots"
off=$(grep -obUa 'VFIT-DEMO-KERNEL' dev/slot-a/stage2.fit | head -n 1 | cut -d: -f1)
printf 'd' | dd of=dev/slot-a/stage2.fit bs=1 seek=$((off + 5)) conv=notrunc status=none
run "$VFIT" boot --device dev
run "$VFIT" boot --device dev status

step "8. the audit of the demo's own FIT: who boots it, and what its signature protects"
cd "$D"
run "$VFIT" audit -f image.fit -k control.dtb --svg image.svg
printf '\nthe picture: %s/image.svg (configurations -> images -> hashes -> signatures -> keys)\n' "$D"
