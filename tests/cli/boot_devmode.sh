#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit boot: user keys cannot brick the vendor chain (issue 10, class 4).
# A stage accepted through a user key -- and every stage whose keys came
# through one -- never advances a counter and never names one, as libavb
# when unlocked.  The whole sequence on a simulated device: factory boot,
# open the switch, a user update whose FITs name the vendor's counters with
# huge indexes, mark-good, close the switch: the vendor slot and recovery
# still boot.  With the file store and with the TPM trust state (--trust, swtpm:
# there the OS asks for mark-good and update, and the power-on after it serves
# the request).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/boot_lib/device.sh"
. "$(dirname "$0")/boot_lib/swtpm.sh"

boot_keys || { fail "keygen"; finish; exit 1; }
# The user's chain: a bootloader signed by the user key whose DTB trusts
# that key for the kernel; both name vendor counters with index 1000.
rm -f "$W/user.dtb" "$W/userbl.dtb"
kernel_fit "$W/user-k.fit" user "$W/userbl.dtb" INDEX=1000 RCTR=kernel
bl_fit "$W/user-bl.fit" user "$W/user.dtb" "$W/userbl.dtb" INDEX=1000 RCTR=recovery
kernel_fit "$W/user-k2.fit" user "$W/user.dtb" INDEX=1000 RCTR=bootloader

# sequence DIR LABEL [--trust SOCKDIR]: the whole story on the device in DIR.
sequence() {
	d=$1 l=$2
	shift 2
	vb() { "$VFIT" boot --device "$d" "$@"; }
	counters() { vb "$@" status | sed -n 's/^  \([a-z]*\): \([0-9]*\)$/\1=\2/p' | tr '\n' ' '; }
	# asked LABEL CMD...: the OS's command; with the TPM, then the power-on that serves it.
	asked() {
		_al=$1
		shift
		status 0 "$l: $_al" vb "$@"
		[ "$1" != --trust ] || status 0 "$l: $_al: the power-on that serves it" vb "$1" "$2"
	}
	status 0 "$l: factory boot" vb "$@"
	asked "factory mark-good" "$@" mark-good
	contains "$l: vendor counter advanced" "$T/.out" "Rollback counter 'kernel': 0 -> 1"
	before=$(counters "$@")
	is "$l: vendor counters" "bootloader=0 kernel=1 recovery=0 " "$before"
	mkdir -p "$d/sdcard" && cp "$W/user.dtb" "$d/sdcard/keys.dtb"
	ok "$l: open the switch" vb dev-mode open
	status 0 "$l: user update" vb "$@" update "$W/user-bl.fit" "$W/user-k.fit"
	contains "$l: both stages replaced" "$T/.out" "^update: the new FITs replace stages 1\.\.2 of slot A"
	status 0 "$l: the user chain boots" vb "$@"
	contains "$l: on trial" "$T/.out" "slot B is on trial"
	cp "$T/.out" "$T/user-boot.out"
	contains "$l: accepted through the user key" "$T/user-boot.out" "Accepted with a USER key"
	contains "$l: keys from the user's DTB" "$T/user-boot.out" "verified in stage 1 \(by a user key\)"
	is "$l: rollback data ignored at both stages" 2 "$(grep -c 'Rollback data ignored: accepted through a user key' "$T/user-boot.out")"
	if grep -q "Rollback index 1000\|for 'recovery'" "$T/user-boot.out"; then
		fail "$l: a user-signed counter name or index was used"; else pass; fi
	asked "mark-good of the user chain" "$@" mark-good
	contains "$l: no counter moves" "$T/.out" "Rollback counters not advanced: a stage was accepted through a user key"
	contains "$l: confirmed" "$T/.out" "^mark-good: confirmed good: slot B"
	is "$l: counters as the vendor left them" "$before" "$(counters "$@")"
	ok "$l: close the switch" vb dev-mode closed
	status 0 "$l: the vendor slot boots again" vb "$@" --dump "$T/ram"
	contains "$l: user slot refused" "$T/.out" "^slot B stage 1: "
	contains "$l: vendor index accepted" "$T/.out" "Rollback index 1 >= counter 1 for 'kernel' OK"
	contains "$l: vendor kernel starts" "$T/.out" "^Starting kernel at 80080000"
	ok "$l: the vendor's kernel bytes" cmp "$T/ram/kernel.bin" "$W/kernel.fit.kernel.bin"
	tamper "$d/slot-a/stage2.fit"
	status 1 "$l: recovery boots" vb "$@"
	contains "$l: recovery index accepted" "$T/.out" "Rollback index 0 >= counter 0 for 'recovery' OK"
	contains "$l: recovery starts" "$T/.out" "^Starting RECOVERY kernel at 80080000"
}

# ---- file store -------------------------------------------------------------------
ok "vendor device" std_device "$T/dev" INDEX=1
sequence "$T/dev" file

# A vendor bootloader with a user kernel that names the bootloader's counter.
D=$T/dev2
ok "vendor device 2" std_device "$D" INDEX=1
status 0 "factory boot" "$VFIT" boot --device "$D"
mkdir -p "$D/sdcard" && cp "$W/user.dtb" "$D/sdcard/keys.dtb"
ok "open the switch" "$VFIT" boot --device "$D" dev-mode open
# (update would put a kernel-only FIT at stage 1: the user keys accept it there)
cp "$W/user-k2.fit" "$D/slot-a/stage2.fit"
status 0 "user kernel boots" "$VFIT" boot --device "$D"
contains "after the vendor bootloader" "$T/.out" "Trusting key 'key-kernel' .* verified in stage 1$"
contains "vendor stage checked" "$T/.out" "Rollback index 0 >= counter 0 for 'bootloader' OK"
is "user stage ignored" 1 "$(grep -c 'Rollback data ignored' "$T/.out")"
status 0 "mark-good" "$VFIT" boot --device "$D" mark-good
if grep -q "Rollback counter '" "$T/.out"; then fail "a counter moved"; else pass; fi
ok "close the switch" "$VFIT" boot --device "$D" dev-mode closed
status 0 "vendor bootloader still boots" "$VFIT" boot --device "$D"
contains "bootloader counter untouched" "$T/.out" "Rollback index 0 >= counter 0 for 'bootloader' OK"
contains "vendor kernel" "$T/.out" "^Starting kernel at 80080000"

# ---- TPM --------------------------------------------------------------------------
if start_swtpm; then
	pass
	ok "vendor device (TPM)" std_device "$T/tpmdev" INDEX=1
	ok "its ROM requires the TPM" fdtput -p -t s "$T/tpmdev/rom.dtb" /config vfit,tpm required
	status 0 "provision the TPM trust state" "$VFIT" boot --device "$T/tpmdev" --trust "$SOCKDIR" \
		provision
	sequence "$T/tpmdev" tpm --trust "$SOCKDIR"
	stop_swtpm
else
	fail "swtpm did not start"
	cat "$SOCKDIR/swtpm.log"
fi
finish
