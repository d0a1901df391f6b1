#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit boot --trust: the simulator with the QEMU stage's trust state
# (include/vfit/boot_tpm.h, the same lib/boot code and NV layout) in a real
# swtpm started here (sha256 bank; four banks for the power cuts) over its
# UNIX sockets.  `boot` is a power-on (power cycle, Startup, both indices
# checked, the OS's pending request served, the boot, platform
# authorization given up); `mark-good` and `update` are the running OS,
# which asks through the request index with owner authorization.  Unprovisioned and mis-provisioned TPMs are
# refused with their reason; the ROM, not the command line, says whether
# the state is in a TPM; requests on the disk (the device directory) are
# not requests; counters move only for the chain that booted, and never
# past the index's room (refused, nothing changed); a request is one change
# (a refused confirmation drops the update it rode with); a disk whose two slots
# failed once boots normally when put right; recovery's own update brings
# a device with no good slot back, and recovery confirms its own counter;
# a power cut at every NV write of mark-good and update leaves the old or
# the new trust state.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/boot_lib/device.sh"
. "$(dirname "$0")/boot_lib/swtpm.sh"
need swtpm swtpm_setup fdtput sha256sum xxd
S=$SOCKDIR
lacks() { # NAME FILE REGEX
	if grep -Eq -- "$3" "$2"; then fail "$1 (/$3/ found)"; else pass; fi
}
# trust_state: slots and counters as the OS reads them from the TPM (no power cycle).
trust_state() {
	$B status 2>&1 | grep -E '^(slot|booted|  [a-z0-9]+:)'
}

boot_keys || { fail "keygen"; finish; exit 1; }
D=$T/dev
ok "device" std_device "$D" INDEX=1
kernel_fit "$W/kernel-i2.fit" kernel "$W/bl.dtb" INDEX=2
kernel_fit "$W/kernel-i3.fit" kernel "$W/bl.dtb" INDEX=3 DESC=other
ok "swtpm" start_swtpm
B="$VFIT boot --device $D --trust $S"

# The ROM decides: without /config vfit,tpm it trusts no TPM; with it, no disk state.
status 1 "a ROM that trusts no TPM refuses --trust" $B
contains "named" "$T/.out" "the ROM trusts no TPM"
ok "the ROM requires the TPM" fdtput -p -t s "$D/rom.dtb" /config vfit,tpm required
status 1 "and then the disk state is refused" "$VFIT" boot --device "$D"
contains "named" "$T/.out" "the ROM requires the trust state in a TPM"

status 1 "unprovisioned TPM refused" $B
contains "named" "$T/.out" "TPM: trust-state NV index missing \(NV_ReadPublic"
status 0 "provision (platform authorization)" $B provision
contains "index defined" "$T/.out" "^provision: trust-state NV index 0x01500100 defined"
status 1 "provisioning twice fails" $B provision
status 0 "boot" $B
contains "counter from the TPM" "$T/.out" "^   Rollback index 1 >= counter 0 for 'kernel' OK$"
contains "kernel measured" "$T/.out" "^   Measured 'kernel' \(kernel\) into PCR 8$"
contains "each stage's key measured" "$T/.out" "^   Measured 'rom' \(key\) into PCR 7$"
contains "the bootloader stage measured" "$T/.out" "^   Measured 'firmware-1' \(firmware\) into PCR 4$"
status 0 "mark-good: the OS asks" $B mark-good
contains "asked" "$T/.out" "^mark-good: slot A \(booted at state [0-9]+\) is confirmed at the next boot$"
lacks "nothing moves yet" "$T/.out" "Rollback counter"
status 0 "the next power-on serves it" $B
contains "request read" "$T/.out" "^request: the OS asked at state [0-9]+ to confirm slot A$"
contains "counter advanced in NV" "$T/.out" "^   Rollback counter 'kernel': 0 -> 1$"
status 0 "status" $B status
contains "trust state" "$T/.out" "^counters: tpm trust state, NV index 0x01500100$"
contains "kernel 1" "$T/.out" "^  kernel: 1$"
status 0 "a request is served once" $B
lacks "cleared after" "$T/.out" "^request:"

# Requests on the disk are not requests: a state file offering slot B (checksummed).
forged_state() { # SEQ: slot B on trial (3 attempts), tried first, A good
	printf 'VFBS\000\000\000\003' >"$T/st"
	printf "$(printf '\\%03o' 0 0 0 "$1")" >>"$T/st"
	printf '\001\377\001\002\000\003\000\000' >>"$T/st"
	head -c 44 /dev/zero >>"$T/st"
	sha256sum "$T/st" | cut -c1-64 | xxd -r -p >>"$T/st"
}
cp -a "$D" "$T/before-forgery"
forged_state 99 && cp "$T/st" "$D/state" && cp "$W/kernel-i2.fit" "$D/slot-b/stage2.fit"
status 0 "a forged trial offer on the disk" $B
contains "slot A booted" "$T/.out" "^Starting kernel"
lacks "slot B never tried" "$T/.out" "^## Trying slot B"
rm -rf "$D" && cp -a "$T/before-forgery" "$D"

# An update the OS installs, asked through the TPM; mark-good before booting it confirms A.
status 0 "update to index 2 (the OS)" $B update "$W/kernel-i2.fit"
contains "asked to try B" "$T/.out" "^update: the device is asked through the TPM to try slot B$"
status 0 "mark-good before booting it" $B mark-good
status 0 "power-on: both requests, then B's trial" $B
contains "one request" "$T/.out" "^request: the OS asked at state [0-9]+ to confirm slot A and to try the update it installed in slot B$"
contains "slot A confirmed" "$T/.out" "^mark-good: confirmed good: slot A$"
lacks "the unbooted update moved no counter" "$T/.out" "Rollback counter 'kernel'"
contains "index 2 on trial" "$T/.out" "Rollback index 2 >= counter 1 for 'kernel' OK"
# Slot B rewritten after it booted (another vendor-signed FIT): not the chain that booted.
cp -a "$D" "$T/old"
cp "$W/kernel-i3.fit" "$D/slot-b/stage2.fit"
status 0 "mark-good asked for the swapped chain" $B mark-good
status 0 "power-on" $B
contains "not the chain that booted" "$T/.out" "^mark-good: refused, not the chain that booted: slot B$"
status 0 "status" $B status
contains "counter unchanged" "$T/.out" "^  kernel: 1$"
cp "$W/kernel-i2.fit" "$D/slot-b/stage2.fit"
status 0 "its last trial boots the chain put back" $B
status 0 "mark-good" $B mark-good
status 0 "power-on" $B
contains "advanced to 2" "$T/.out" "^   Rollback counter 'kernel': 1 -> 2$"
# The device directory from before (slot A at index 1 first, its state file): the TPM decides.
cp -a "$D" "$T/good"
rm -rf "$D" && cp -a "$T/old" "$D"
tamper "$D/slot-b/stage2.fit"
status 1 "older directory: index 1 refused" $B
contains "rollback" "$T/.out" "rollback index 1 < counter 2 for 'kernel'"
# Both slots failed once (bad in the TPM); the disk put right boots normally again.
rm -rf "$D" && cp -a "$T/good" "$D"
status 0 "the disk put right: normal boot" $B
contains "tried again" "$T/.out" "^## No slot can boot: slot B failed verification at an earlier boot, trying it again$"
contains "slot B" "$T/.out" "^Starting kernel"

# No good slot: recovery's OS installs an update, the device tries it.
tamper "$D/slot-a/stage2.fit" && tamper "$D/slot-b/stage2.fit"
status 1 "both slots broken: recovery" $B
contains "recovery started" "$T/.out" "^Starting RECOVERY kernel"
status 0 "recovery's update (the OS)" $B update "$W/kernel-i2.fit"
status 0 "the installed slot is tried" $B
contains "offered" "$T/.out" "will be tried next \(3 attempts\); recovery stays as the fallback"
contains "trial" "$T/.out" "is on trial: 2 attempts left"
# Recovery confirms its own image: a newer recovery (index 2) moves its counter.
kernel_fit "$W/rec2.fit" recovery "$W/scratch.dtb" DESC=recovery REQ= INDEX=2
cp "$D/recovery.fit" "$T/rec0.fit" && cp "$W/rec2.fit" "$D/recovery.fit"
tamper "$D/slot-a/stage2.fit" && tamper "$D/slot-b/stage2.fit"
status 1 "recovery (index 2) boots" $B
status 0 "recovery's OS confirms it" $B mark-good
contains "recovery asked" "$T/.out" "^mark-good: recovery \(booted at state [0-9]+\) is confirmed at the next boot$"
status 1 "power-on: recovery's counter moves" $B
contains "recovery counter" "$T/.out" "^   Rollback counter 'recovery': 0 -> 2$"
cp "$T/rec0.fit" "$D/recovery.fit"
status 1 "the old recovery image is refused now" $B
contains "refused" "$T/.out" "rollback index 0 < counter 2 for 'recovery'"

# One request is one change: a confirmation refused leaves the update it rode with unoffered.
rm -rf "$D" && cp -a "$T/good" "$D"
ok "good device: slot B boots" $B
cp "$W/kernel-i3.fit" "$D/slot-b/stage2.fit"
status 0 "update (the OS) into slot A" $B update "$W/kernel-i2.fit"
status 0 "and mark-good of slot B, rewritten since it booted" $B mark-good
status 0 "power-on" $B
contains "one request with both" "$T/.out" "to confirm slot B and to try the update it installed in slot A$"
contains "the confirmation refused" "$T/.out" "^mark-good: refused, not the chain that booted: slot B$"
lacks "the update not offered" "$T/.out" "will be tried next"
lacks "slot A not tried" "$T/.out" "^## Trying slot A"

# Counter entries: 8 names at most (kernel, recovery and c1..c6 here).  The 9th name is
# refused at mark-good, before anything changed: the trial goes on, no entry taken.
rm -rf "$D" && cp -a "$T/good" "$D"
ok "good device" $B
i=1
while [ $i -le 8 ]; do
	kernel_fit "$W/c$i.fit" kernel "$W/scratch2.dtb" INDEX=3 RCTR=c$i DESC=c$i
	$B update "$W/c$i.fit" >/dev/null 2>&1 && $B >/dev/null 2>&1 && $B mark-good >/dev/null 2>&1 &&
		$B >"$T/c.out" 2>&1 || break
	grep -q "Rollback counter 'c$i': 0 -> 3" "$T/c.out" || break
	i=$((i + 1))
done
is "6 more counters confirmed, the 9th name refused" 7 $i
contains "no room" "$T/c.out" "^mark-good: refused, no room for rollback counter 'c7': nothing changed$"
lacks "not confirmed" "$T/c.out" "^mark-good: confirmed good"
contains "the trial goes on (the refusal changed nothing)" "$T/c.out" "is on trial: 1 attempts left"
status 0 "status" $B status
lacks "no entry taken" "$T/.out" "^  c7:"

# Power cuts at every NV write of mark-good and update: the OS's request, and the
# power-on that serves it -- one NV write for the request's whole change (a trial's end
# and its counters together), one to clear it, one for the boot record.  After a cut the
# TPM holds the state before, the state once served, or the state after the boot: a
# confirmed slot with its counters not moved (or the reverse) would be a fourth.  The TPM
# has all four PCR banks, as a board's usually arrives: the trust state does not care.
rm -rf "$D" && cp -a "$T/good" "$D"
ok "fresh swtpm, four banks" start_swtpm sha1,sha256,sha384,sha512
ok "provision" $B provision
status 0 "boot" $B
contains "measured" "$T/.out" "^   Measured 'kernel' \(kernel\) into PCR 8$"
ok "update (the OS)" $B update "$W/kernel-i2.fit"
ok "trial boot" $B
snap() { rm -rf "$T/$1" "$T/$1.tpm" && cp -a "$D" "$T/$1" && cp -a "$S/st" "$T/$1.tpm"; }
back() { # restores snapshot $1 and restarts swtpm on it
	stop_swtpm
	rm -rf "$D" "$S/st" && cp -a "$T/$1" "$D" && cp -a "$T/$1.tpm" "$S/st" && swtpm_up
}
snap trial
ok "mark-good" $B mark-good
ok "confirmed" $B
snap confirmed
cut_case() { # LABEL SNAPSHOT OS-COMMAND...
	label=$1 from=$2
	shift 2
	back "$from"
	trust_state >"$T/s0"
	$B "$@" >/dev/null 2>&1 && VFIT_BOOT_CRASH_AFTER=2 $B >/dev/null 2>&1
	trust_state >"$T/s1"
	back "$from"
	$B "$@" >/dev/null 2>&1 && $B >/dev/null 2>&1
	trust_state >"$T/s2"
	if cmp -s "$T/s0" "$T/s2"; then fail "$label: the case changes nothing"; return; fi
	n=1 k=
	while [ $n -le 40 ]; do
		back "$from"
		VFIT_BOOT_CRASH_AFTER=$n $B "$@" >/dev/null 2>&1
		rc=$?
		cut=request
		if [ $rc != 99 ]; then
			# The OS's command took k - 1 steps: cut the power-on after it at each of its own.
			k=${k:-$n}
			VFIT_BOOT_CRASH_AFTER=$((n - k + 1)) $B >/dev/null 2>&1
			rc=$?
			cut=power-on
		fi
		[ $rc = 99 ] || break
		trust_state >"$T/cut"
		if cmp -s "$T/cut" "$T/s0" || cmp -s "$T/cut" "$T/s1" || cmp -s "$T/cut" "$T/s2"; then
			pass
		else
			fail "$label: cut at step $n ($cut) left a mixed state"
			diff "$T/s0" "$T/cut" | head -6
		fi
		# The next power-on finishes the job (or the OS asks again, as its copy says).
		$B >/dev/null 2>&1
		n=$((n + 1))
	done
	[ -n "$k" ] && [ $((n - k)) -ge 4 ] && pass || fail "$label: the power-on had no NV write to cut"
	echo "$label: $((k - 1)) steps of the OS's command, $((n - k)) NV write steps of the power-on cut; each left the state before, served or after"
}
cut_case "mark-good of a trial" trial mark-good
cut_case "update" confirmed update "$W/kernel-i3.fit"

# Mis-provisioned: another size at the index (tpm-lib's NV_DefineSpace through the same sockets
# is the factory's step; here the look-alike comes from tpm2-tools when present).
ok "fresh swtpm" start_swtpm
if command -v tpm2_nvdefine >/dev/null; then
	# tpm2-tools speak to swtpm over TCP only: a TCP instance on the same state.
	stop_swtpm
	port=$(( 20000 + ($$ * 13) % 20000 ))
	swtpm socket --tpm2 --tpmstate "dir=$S/st" --server "type=tcp,port=$port,bindaddr=127.0.0.1" \
		--ctrl "type=tcp,port=$((port + 1)),bindaddr=127.0.0.1" --flags not-need-init,startup-clear \
		>"$S/tcp.log" 2>&1 &
	SWTPM_PID=$!
	tcti="swtpm:host=127.0.0.1,port=$port"
	while kill -0 "$SWTPM_PID" 2>/dev/null && ! tpm2_getcap -T "$tcti" properties-fixed >/dev/null 2>&1; do
		sleep 0.1
	done
	status 0 "a look-alike index (owner-defined, 432 bytes)" tpm2_nvdefine -T "$tcti" -C o -s 432 \
		-a "ownerwrite|ownerread|authread|authwrite|no_da" 0x01500100
	tpm2_shutdown -T "$tcti" >/dev/null 2>&1
	swtpm_up
	status 1 "look-alike refused" $B
	contains "wrong attributes named" "$T/.out" "TPM: trust-state NV index has wrong attributes"
else
	skip tool "tpm2-tools not installed"
fi
finish
