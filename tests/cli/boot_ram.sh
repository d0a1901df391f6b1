#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit boot: the RAM map is the device's, not the simulator's.  A FIT laid
# out for an i.MX8M Mini (U-Boot proper at 0x40200000, kernel at 0x40480000,
# fdt at 0x43000000, ramdisk at 0x43800000) halts on the default map and
# boots on a device initialised with --ram 0x40000000:0x40000000; one or
# more regions, fenced like the default one; bad maps are refused.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/boot_lib/device.sh"

boot_keys || { fail "keygen"; finish; exit 1; }
imx="KLOAD=0x40480000 FDTLOAD=0x43000000 RDLOAD=0x43800000"
rm -f "$W/rom.dtb" "$W/bl.dtb"
kernel_fit "$W/rec-imx.fit" recovery "$W/rom.dtb" DESC=recovery REQ= $imx
kernel_fit "$W/k-imx.fit" kernel "$W/bl.dtb" $imx
bl_fit "$W/bl-imx.fit" rom "$W/rom.dtb" "$W/bl.dtb" FWLOAD=0x40200000
imx_device() { # DIR [init options...]
	dir=$1
	shift
	"$VFIT" boot --device "$dir" init --rom "$W/rom.dtb" --recovery "$W/rec-imx.fit" "$@" \
		"$W/bl-imx.fit" "$W/k-imx.fit"
}

# ---- the default map: 0x80000000, 256 MiB --------------------------------------------
ok "i.MX8MM device, default RAM" imx_device "$T/default"
status 1 "halts on the default map" "$VFIT" boot --device "$T/default"
contains "firmware outside RAM" "$T/.out" "^slot A stage 1: firmware \[40200000\.\.40201388\) is outside RAM$"
contains "recovery outside RAM" "$T/.out" "^recovery: kernel \[40480000\.\.[0-9a-f]+\) is outside RAM$"
contains "halted" "$T/.out" "^## Halting: nothing verified"

# ---- its own map -------------------------------------------------------------------------
D=$T/imx
ok "i.MX8MM device, --ram 0x40000000:0x40000000" imx_device "$D" --ram 0x40000000:0x40000000
contains "init says so" "$T/.out" "its own RAM map"
is "ram file" "0x40000000:0x40000000" "$(cat "$D/ram")"
status 0 "status" "$VFIT" boot --device "$D" status
contains "status: region" "$T/.out" "^ram: 0x40000000:0x40000000$"
contains "status: staging and loader" "$T/.out" "^staging: 0x60000000 \(510 MiB\), loader: 0x7fe00000 \(2 MiB\)$"
status 0 "boots" "$VFIT" boot --device "$D" --dump "$T/ram"
contains "staged at 0x60000000" "$T/.out" "^## Checking FIT Image at 60000000 \(slot A, stage 1\)$"
contains "firmware at 0x40200000" "$T/.out" "Loading firmware 'firmware-1' to 40200000$"
contains "starts" "$T/.out" "^Starting kernel at 40480000, fdt 43000000, ramdisk 43800000 \.\.\.$"
ok "kernel bytes" cmp "$T/ram/kernel.bin" "$W/k-imx.fit.kernel.bin"
ok "mark-good" "$VFIT" boot --device "$D" mark-good
kernel_fit "$W/k-imx2.fit" kernel "$W/bl.dtb" $imx
status 0 "update" "$VFIT" boot --device "$D" update "$W/k-imx2.fit"
status 0 "trial boot of the update" "$VFIT" boot --device "$D" --dump "$T/ram"
ok "updated kernel bytes" cmp "$T/ram/kernel.bin" "$W/k-imx2.fit.kernel.bin"
# The fences follow the map.
kernel_fit "$W/k-loader.fit" kernel "$W/bl.dtb" KLOAD=0x7fe00000 FDTLOAD=0x43000000 RDLOAD=0x43800000
cp "$W/k-loader.fit" "$D/slot-a/stage2.fit" && cp "$W/k-loader.fit" "$D/slot-b/stage2.fit"
status 1 "loader region fenced" "$VFIT" boot --device "$D"
contains "overlaps the loader" "$T/.out" "kernel \[7fe00000\.\.[0-9a-f]+\) overlaps loader \[7fe00000\.\.80000000\)"
contains "recovery boots on the map" "$T/.out" "^Starting RECOVERY kernel at 40480000"

# ---- two regions -------------------------------------------------------------------------
D=$T/two
ok "two regions" imx_device "$D" --ram 0x40000000:0x10000000 --ram 0x80000000:0x10000000
status 0 "status" "$VFIT" boot --device "$D" status
contains "status: second region" "$T/.out" "^ram: 0x80000000:0x10000000$"
contains "staging in the last region" "$T/.out" "^staging: 0x88000000 "
status 0 "kernel in the first region, FITs staged in the second" "$VFIT" boot --device "$D" --dump "$T/ram"
contains "two regions: starts" "$T/.out" "^Starting kernel at 40480000, fdt 43000000"
ok "two regions: kernel bytes" cmp "$T/ram/kernel.bin" "$W/k-imx.fit.kernel.bin"
kernel_fit "$W/k-gap.fit" kernel "$W/bl.dtb" KLOAD=0x60000000 FDTLOAD=0x43000000 RDLOAD=0x43800000
kernel_fit "$W/k-straddle.fit" kernel "$W/bl.dtb" KLOAD=0x40480000 FDTLOAD=0x4fffff80 RDLOAD=0x43800000
for f in gap straddle; do
	rm -rf "$T/two-$f" && cp -a "$D" "$T/two-$f"
	cp "$W/k-$f.fit" "$T/two-$f/slot-a/stage2.fit" && cp "$W/k-$f.fit" "$T/two-$f/slot-b/stage2.fit"
	status 1 "$f refused" "$VFIT" boot --device "$T/two-$f"
	cp "$T/.out" "$T/$f.out"
done
contains "between the regions" "$T/gap.out" "^slot A stage 2: kernel \[60000000\.\.[0-9a-f]+\) is outside RAM$"
contains "across a region's end" "$T/straddle.out" "^slot A stage 2: fdt \[4fffff80\.\.[0-9a-f]+\) is outside RAM$"

# ---- bad maps ------------------------------------------------------------------------------
bad_map() { # NAME REGEX --ram SPEC...
	name=$1 re=$2
	shift 2
	rm -rf "$T/bad"
	status 2 "$name refused" imx_device "$T/bad" "$@"
	contains "$name: reason" "$T/.out" "$re"
	[ ! -e "$T/bad/rom.dtb" ] && pass || fail "$name: device written"
}
bad_map "no size" "RAM region '0x40000000': want BASE:SIZE" --ram 0x40000000
bad_map "sign" "RAM region '-1:0x10000000': want BASE:SIZE" --ram -1:0x10000000
bad_map "unaligned base" "base must be 4 KiB aligned" --ram 0x40000800:0x10000000
bad_map "tiny" "size a multiple of 4 MiB from 8 MiB to 2 GiB" --ram 0x40000000:0x400000
bad_map "huge" "from 8 MiB to 2 GiB" --ram 0x40000000:0x100000000
bad_map "wrap" "from 8 MiB to 2 GiB|aligned" --ram 0xfffffffffff00000:0x10000000
bad_map "overlap" "RAM region '0x48000000:0x10000000' overlaps 0x40000000:0x10000000" \
	--ram 0x40000000:0x10000000 --ram 0x48000000:0x10000000
printf 'garbage\n' >"$T/imx/ram"
status 2 "malformed DIR/ram" "$VFIT" boot --device "$T/imx"
contains "names the file" "$T/.out" "ram: RAM region 'garbage': want BASE:SIZE"
for i in $(seq 60); do echo 0x40000000:0x40000000; done >"$T/imx/ram"
status 2 "overlong DIR/ram" "$VFIT" boot --device "$T/imx"
contains "too long, not cut" "$T/.out" "ram: too long"
finish
