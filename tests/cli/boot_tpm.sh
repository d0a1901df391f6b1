#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit boot with its rollback counters in a TPM 2.0 (a real swtpm started
# and stopped here): provisioning, counters read at boot, advanced only on
# confirmation, old index refused; an unreachable TPM is an error, never a
# silent fallback to the file store.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/boot_lib/device.sh"
. "$(dirname "$0")/boot_lib/swtpm.sh"

need tpm2_nvreadpublic tpm2_nvincrement tpm2_nvwrite tpm2_nvundefine tpm2_nvdefine \
	tpm2_startauthsession tpm2_policycommandcode tpm2_flushcontext
start_swtpm && pass || { fail "swtpm did not start"; cat "$T/swtpm.log"; finish; exit 1; }

boot_keys || { fail "keygen"; finish; exit 1; }
D=$T/dev
ok "device" std_device "$D" INDEX=1
kernel_fit "$W/kernel-i2.fit" kernel "$W/bl.dtb" INDEX=2
cp "$W/kernel.fit" "$W/kernel-i1.fit"

status 0 "provision" "$VFIT" boot --device "$D" provision --tpm "$TCTI"
contains "provisioned" "$T/.out" "TPM counter"
status 0 "boot" "$VFIT" boot --device "$D" --tpm "$TCTI"
contains "counter read from the TPM" "$T/.out" "Rollback index 1 >= counter 0 for 'kernel' OK"
status 0 "factory mark-good" "$VFIT" boot --device "$D" --tpm "$TCTI" mark-good
contains "counter advanced in the TPM" "$T/.out" "Rollback counter 'kernel': 0 -> 1"
status 0 "status" "$VFIT" boot --device "$D" --tpm "$TCTI" status
contains "TPM backend" "$T/.out" "^counters: tpm "
contains "kernel counter 1" "$T/.out" "^  kernel: 1$"
status 0 "update to index 2" "$VFIT" boot --device "$D" --tpm "$TCTI" update "$W/kernel-i2.fit"
status 0 "trial boot" "$VFIT" boot --device "$D" --tpm "$TCTI"
contains "index 2 checked against the TPM" "$T/.out" "Rollback index 2 >= counter 1 for 'kernel' OK"
if grep -q "Rollback counter 'kernel'" "$T/.out"; then fail "unconfirmed boot advanced the TPM counter"; else pass; fi
"$VFIT" boot --device "$D" --tpm "$TCTI" status >"$T/st" 2>&1
contains "no advance without confirmation" "$T/st" "^  kernel: 1$"
# While index 2 is unconfirmed, index 1 still boots (on a copy: same TPM).
rm -rf "$T/copy" && cp -a "$D" "$T/copy"
tamper "$T/copy/slot-b/stage2.fit"
status 0 "index 1 still boots before confirmation" "$VFIT" boot --device "$T/copy" --tpm "$TCTI"
contains "index 1 accepted" "$T/.out" "Rollback index 1 >= counter 1 for 'kernel' OK"

# Power cut between the verification and the TPM increment (after the
# state write, step 2): nothing lost, the next confirmation completes it.
VFIT_BOOT_CRASH_AFTER=2 "$VFIT" boot --device "$D" --tpm "$TCTI" mark-good >/dev/null 2>&1
[ $? = 99 ] && pass || fail "mark-good not cut"
"$VFIT" boot --device "$D" --tpm "$TCTI" status >"$T/st" 2>&1
contains "cut before the increment: TPM still 1" "$T/st" "^  kernel: 1$"
contains "cut after the state write: slot B confirmed" "$T/st" "^slot B: good"
status 0 "mark-good after the cut" "$VFIT" boot --device "$D" --tpm "$TCTI" mark-good
contains "confirmed advance" "$T/.out" "Rollback counter 'kernel': 1 -> 2"
"$VFIT" boot --device "$D" --tpm "$TCTI" status >"$T/st" 2>&1
contains "TPM counter 2" "$T/st" "^  kernel: 2$"
tamper "$D/slot-b/stage2.fit"
status 1 "index 1 refused" "$VFIT" boot --device "$D" --tpm "$TCTI"
contains "rollback reason" "$T/.out" "rollback index 1 < counter 2 for 'kernel'"

# The OS side (no authValue; owner, platform authorization empty as on
# swtpm) cannot move the counter at all: the TPM refuses every attempt.
h=$(printf kernel | sha256sum | cut -c1-4)
NV=$(printf '0x%08x' $((0x01500000 + 2 * 0x$h)))
tpm2_nvreadpublic -T "$TCTI" "$NV" >"$T/pub" 2>&1
contains "kernel counter is an NV counter" "$T/pub" "nt=0x1"
status 1 "TPM refuses increment without the auth" tpm2_nvincrement -T "$TCTI" "$NV"
contains "authorization failure" "$T/.out" "0x0*9a2"
status 1 "TPM refuses increment by the owner" tpm2_nvincrement -T "$TCTI" -C o "$NV"
status 1 "TPM refuses increment by the platform" tpm2_nvincrement -T "$TCTI" -C p "$NV"
status 1 "TPM refuses writing the counter" sh -c \
	"printf '\\000\\000\\000\\000\\000\\000\\000\\000' | tpm2_nvwrite -T '$TCTI' -i- '$NV'"
status 1 "TPM refuses writing the baseline" sh -c \
	"printf '\\000\\000\\000\\000' | tpm2_nvwrite -T '$TCTI' -C p -i- '$(printf '0x%08x' $((NV + 1)))'"
# Undefine (then redefine at 0) needs the policy nobody can satisfy.
tpm2_startauthsession -T "$TCTI" --policy-session -S "$T/s.ctx" >/dev/null 2>&1 &&
	tpm2_policycommandcode -T "$TCTI" -S "$T/s.ctx" TPM2_CC_NV_UndefineSpaceSpecial >/dev/null 2>&1
status 1 "TPM refuses deleting the counter" tpm2_nvundefine -T "$TCTI" -C p -S "$T/s.ctx" "$NV"
tpm2_flushcontext -T "$TCTI" "$T/s.ctx" >/dev/null 2>&1
status 1 "TPM refuses redefining the index" tpm2_nvdefine -T "$TCTI" -C o -s 8 -a "ownerwrite|ownerread|nt=1" "$NV"
"$VFIT" boot --device "$D" --tpm "$TCTI" status >"$T/st" 2>&1
contains "counter unchanged after the attacks" "$T/st" "^  kernel: 2$"
# Nor does replaying an older state matter: the value lives in the TPM.
cp "$T/copy/state" "$D/state"
status 1 "index 1 still refused" "$VFIT" boot --device "$D" --tpm "$TCTI"
contains "still rollback" "$T/.out" "rollback index 1 < counter 2 for 'kernel'"
# The file store is not consulted: it still says 0, and the TPM's 2 wins.
status 0 "file store untouched" "$VFIT" boot --device "$D" status
contains "file counter still 0" "$T/.out" "^  kernel: 0$"
stop_swtpm
status 2 "TPM gone: error, no fallback" "$VFIT" boot --device "$D" --tpm "$TCTI"
contains "TPM gone: the error names the TPM" "$T/.out" "^vfit: boot: .*TPM.*$port"
if grep -q "Starting\|counters\b" "$T/.out"; then fail "booted without its TPM, or used the file store"; else pass; fi
finish
