#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A kernel FIT with 1,500 device trees and a signed configuration for each
# (the layout of Linux's scripts/make_fit.py, 6,005 nodes): vfit mkimage
# builds and signs it, its -K control DTB holds just the key, vfit verify
# accepts every configuration it wrote and refuses a tampered one, vfit
# info lists it, and a re-sign in place (-F) still verifies.  U-Boot
# HEAD's fit_check_sign checks one configuration where it is available.
# The operation counts that prove the work linear are in
# tests/unit/test_fit_scale.c; nothing here is timed.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/fixtures.sh"
cd "$T" || exit 2
N=1500
# U-Boot HEAD's fit_check_sign (HEAD_CHECK), where it is.
anchors

mkdir keys
"$VFIT" keygen -a rsa2048 -k keys -n dev > /dev/null || exit 2
random Image 65536
printf '/dts-v1/;\n/ { model = "board"; compatible = "vendor,board"; };\n' |
	dtc -I dts -O dtb -o board.dtb - 2>/dev/null
printf '/dts-v1/;\n/ { };\n' | dtc -I dts -O dtb -o ctl.dtb -

fit_dtbs_its $N > dtbs.its

ok "mkimage signs $N configurations" "$VFIT" mkimage -q -f dtbs.its -k keys -K ctl.dtb -r dtbs.fit
is "every configuration signed" $N "$(fdtget -l dtbs.fit /configurations | wc -l)"
size=$(wc -c < ctl.dtb)
status 0 "-K DTB holds the key, not a padding schedule ($size bytes < 64 KiB)" test "$size" -lt 65536
is "one key node" key-dev "$(fdtget -l ctl.dtb /signature)"
for c in conf-1 conf-750 conf-$N; do
	ok "verify $c" "$VFIT" verify -f dtbs.fit -k ctl.dtb -c $c
done
is "conf-750 brings fdt-750" fdt-750 \
	"$("$VFIT" verify -f dtbs.fit -k ctl.dtb -c conf-750 --json | jq -r '.images[1].name')"

# A changed DTB node fails its configuration, and only that one.
cp dtbs.fit bad.fit
fdtput -t s bad.fit /images/fdt-750 description "board-750!"
is "tampered fdt-750: its configuration refused" REQUIRED "$(code bad.fit ctl.dtb -c conf-750)"
is "tampered fdt-750: another configuration still verifies" OK "$(code bad.fit ctl.dtb -c conf-751)"

ok "info" "$VFIT" info dtbs.fit
is "info lists every image" $((N + 1)) "$(grep -c '^ Image [0-9]* (' "$T/.out")"
is "info lists every configuration" $N "$(grep -c '^ Configuration [0-9]* (' "$T/.out")"

# Another key, then a re-sign in place (-F): every signature node re-made.
"$VFIT" keygen -a rsa2048 -k keys -n prod > /dev/null || exit 2
sed 's/key-name-hint = "dev"/key-name-hint = "prod"/' dtbs.its > prod.its
printf '/dts-v1/;\n/ { };\n' | dtc -I dts -O dtb -o ctl2.dtb -
ok "mkimage with a second key" env SOURCE_DATE_EPOCH=1700000000 "$VFIT" mkimage -q -f prod.its \
	-k keys -K ctl2.dtb -r dtbs2.fit
ok "the second key verifies conf-$N" "$VFIT" verify -f dtbs2.fit -k ctl2.dtb -c conf-$N
cp dtbs2.fit before.fit
ok "mkimage -F re-signs $N configurations in place" env SOURCE_DATE_EPOCH=1700000100 "$VFIT" \
	mkimage -q -F -k keys -K ctl2.dtb -r dtbs2.fit
ok "verify after -F" "$VFIT" verify -f dtbs2.fit -k ctl2.dtb -c conf-1200
status 1 "-F made new signatures (a later timestamp)" cmp -s before.fit dtbs2.fit
is "-F: conf-$N's signature timestamp" 1700000100 \
	"$(fdtget -t u dtbs2.fit /configurations/conf-$N/signature-1 timestamp)"

if [ -x "$HEAD_CHECK" ]; then
	ok "U-Boot HEAD's fit_check_sign accepts conf-750" "$HEAD_CHECK" -f dtbs.fit -k ctl.dtb \
		-c conf-750
else
	skip anchor "U-Boot HEAD's fit_check_sign not found (set FIT_CHECK_SIGN_HEAD or VFIT_ANCHORS)"
fi
finish
