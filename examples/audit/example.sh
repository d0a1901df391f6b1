#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The FIT of the README's "Auditing a FIT": example.its signed the way many
# build scripts sign (U-Boot's mkimage, sign-images kernel and fdt), then
# audited.  Writes docs/audit-example.svg and, with rsvg-convert,
# docs/audit-example.png.
#   examples/audit/example.sh        (after make; BUILD=dir for another build)
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
VFIT=$BUILD/vfit
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cp "$ROOT/examples/audit/example.its" "$W/"
cd "$W"
mkdir keys
"$VFIT" keygen -a rsa2048 -k keys -n dev > /dev/null
{ printf 'VFIT-AUDIT-KERNEL'; head -c 16384 /dev/zero; } > Image
printf 'VFIT-AUDIT-INITRD' > initrd
printf '/dts-v1/; / { model = "board"; };' | dtc -q -I dts -O dtb -o board.dtb
printf '/dts-v1/; / { model = "u-boot"; };' | dtc -q -I dts -O dtb -o u-boot.dtb
SOURCE_DATE_EPOCH=1700000000 mkimage -f example.its -k keys -K u-boot.dtb -r image.fit > /dev/null
# The names in the picture are the ones a reader sees in the README.
set +e
"$VFIT" audit -f image.fit -k u-boot.dtb --svg "$ROOT/docs/audit-example.svg"
rc=$?
set -e
[ $rc = 1 ] || { echo "example: want findings (exit 1), got exit $rc" >&2; exit 1; }
rsvg-convert -o "$ROOT/docs/audit-example.png" "$ROOT/docs/audit-example.svg"
