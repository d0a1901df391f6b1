#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Power cuts: VFIT_BOOT_CRASH_AFTER=N kills vfit boot (exit 99) right after
# its N-th durable write.  After a cut at every step of an update, of a
# trial boot's state write, of marking a slot bad and of mark-good, the
# device must still boot a verified kernel, and finishing the interrupted
# job must still work.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/boot_lib/device.sh"

boot_keys || { fail "keygen"; finish; exit 1; }
P=$T/pristine
D=$T/dev
ok "build a device" std_device "$P"
ok "first boot" "$VFIT" boot --device "$P"
kernel_fit "$W/kernel-v2.fit" kernel "$W/bl.dtb"

fresh() { rm -rf "$D" && cp -a "${1:-$P}" "$D"; }

# Boots $D and checks a verified kernel (old or new) starts, from an intact state.
boots_verified() { # label
	"$VFIT" boot --device "$D" --dump "$T/ram" >"$T/boot.out" 2>&1
	rc=$?
	if [ $rc = 0 ] && tail -n 1 "$T/boot.out" | grep -q '^Starting kernel at ' &&
	   { cmp -s "$T/ram/kernel.bin" "$W/kernel.fit.kernel.bin" ||
	     cmp -s "$T/ram/kernel.bin" "$W/kernel-v2.fit.kernel.bin"; } &&
	   ! grep -q "corrupted" "$T/boot.out"; then
		pass
	else
		fail "$1: no verified boot after the cut (exit $rc)"
		tail -n 15 "$T/boot.out" | sed 's/^/    /'
	fi
}

# A boot of a copy of SRC cut after each of its two durable steps (the
# state's temp file, its rename), then a verified boot.
cut_boots() { # SRC LABEL
	for n in 1 2; do
		fresh "$1"
		VFIT_BOOT_CRASH_AFTER=$n "$VFIT" boot --device "$D" >/dev/null 2>&1
		[ $? = 99 ] && pass || fail "$2 did not reach step $n"
		boots_verified "$2 cut after step $n"
	done
}

# ---- update ------------------------------------------------------------------
n=1
while [ $n -le 30 ]; do
	fresh
	VFIT_BOOT_CRASH_AFTER=$n "$VFIT" boot --device "$D" update "$W/kernel-v2.fit" \
		>"$T/upd.out" 2>&1
	rc=$?
	[ $rc = 99 ] || break
	rm -rf "$T/cut" && cp -a "$D" "$T/cut"
	boots_verified "update cut after step $n"
	# The interrupted update can simply be run again.
	status 0 "update again after cut $n" "$VFIT" boot --device "$T/cut" update "$W/kernel-v2.fit"
	n=$((n + 1))
done
[ $rc = 0 ] && pass || fail "update without a cut at step $n (exit $rc)"
[ $n -ge 7 ] && pass || fail "update has only $((n - 1)) durable steps"
echo "update: $((n - 1)) durable steps, each cut survived"

# ---- a trial boot's state write, then mark-good ------------------------------------
fresh
ok "update" "$VFIT" boot --device "$D" update "$W/kernel-v2.fit"
cp -a "$D" "$T/updated"
cut_boots "$T/updated" "trial boot"
fresh "$T/updated"
ok "trial boot" "$VFIT" boot --device "$D"
cp -a "$D" "$T/trial"
n=1
while [ $n -le 10 ]; do
	fresh "$T/trial"
	VFIT_BOOT_CRASH_AFTER=$n "$VFIT" boot --device "$D" mark-good >/dev/null 2>&1
	rc=$?
	[ $rc = 99 ] || break
	boots_verified "mark-good cut after step $n"
	n=$((n + 1))
done
[ $rc = 0 ] && pass || fail "mark-good without a cut (exit $rc)"

# ---- marking a tampered slot bad ----------------------------------------------------
fresh
tamper "$D/slot-a/stage2.fit"
cp -a "$D" "$T/tampered"
cut_boots "$T/tampered" "mark-bad"

# ---- a torn state file is never trusted -----------------------------------------
fresh "$T/updated"
head -c 40 "$T/updated/state" >"$D/state"
status 0 "torn state: default order, still verified" "$VFIT" boot --device "$D"
contains "torn state reported" "$T/.out" "^State: unreadable or corrupted"

# ---- temporary names are never followed ------------------------------------------
# The device directory is attacker-controlled storage: a symlink planted
# where a durable write puts its temporary file must not redirect it.
fresh
echo victim >"$T/victim"
for tmp in dev-mode.tmp state.tmp counters.tmp; do ln -sf "$T/victim" "$D/$tmp"; done
ok "dev-mode through a planted tmp link" "$VFIT" boot --device "$D" dev-mode open
ok "boot through planted tmp links" "$VFIT" boot --device "$D"
ok "mark-good through planted tmp links" "$VFIT" boot --device "$D" mark-good
is "planted link target untouched" victim "$(cat "$T/victim")"
if [ -L "$D/dev-mode" ] || [ -L "$D/state" ]; then fail "a planted link was installed"; else pass; fi
finish
