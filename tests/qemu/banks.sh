#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Every active PCR bank, and the end of the firmware's phase in the log, on
# the arm64 stage with a TPM (swtpm behind QEMU's tpm-tis-device, the trust
# state provisioned as a factory does), booting Debian's kernel with an
# initramfs that prints what Linux reads of the TPM.  For swtpm with
# sha1 + sha256, with its four banks and with sha256 alone:
#   - for every bank, each PCR 0-9 Linux reads (pcr-<bank>/N) equals
#     tpm2_eventlog's replay of the log Linux exposes and the stage's own
#     replay; PCR 8 and 9 are the kernel's and the initramfs's digests in
#     that bank (the host's sha1sum ... sha512sum), extended once;
#   - the log passes a measured-boot policy of the kind Keylime applies,
#     written here over tpm2_eventlog's YAML: PCR 0 opens with the stage's
#     version (EV_S_CRTM_VERSION, digest of its event data) and the stage
#     itself (EV_S_CRTM_CONTENTS, the digest of stage-tpm.bin); each of PCRs
#     0-7 has exactly one EV_SEPARATOR, after every other event of that PCR,
#     its event data 4 bytes of 00000000h or FFFFFFFFh (TCG PC Client PFP,
#     EV_SEPARATOR) and its digest that data's in every bank.
# A bank the stage cannot hash halts it naming the bank: swtpm 0.7 offers
# none (sha1, sha256, sha384, sha512 only), so tests/unit/test_boot_tpm.c
# renames one to sm3_256 on its way from a real swtpm.
# Bounded: three boots of Debian's kernel (arm64), each under QEMU_TIMEOUT.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib/qemu.sh"
. "$(dirname "$0")/lib/tpm.sh"
need swtpm swtpm_setup tpm2_nvdefine tpm2_getcap tpm2_eventlog xxd fdtput \
	sha1sum sha256sum sha384sum sha512sum
qemu_setup

STAGE_BIN=$Q/arm64/stage-tpm.bin
arch_vars arm64
mods=$(ls -d "$Q"/root-arm64/lib/modules/*/kernel/drivers/char/tpm)
"$ROOT/ports/qemu-virt/mkinitramfs" "$Q/root-arm64/bin/busybox" "$MARKER" \
	"$T/arm64-measured.cpio" measured "$mods/tpm_tis_core.ko" "$mods/tpm_tis.ko"
fit arm64 "$T/m.fit" measured -i 1 && pass || fail "FIT"

# digest BANK: the digest of stdin in BANK (sha1, sha256, ...), lower-case hex
digest() {
	"${1}sum" | cut -d' ' -f1
}

# extend BANK HEX...: the PCR value after extending zeros with each digest in BANK
extend() {
	_bank=$1
	shift
	_v=$(printf '%s' "" | digest "$_bank" | tr '0-9a-f' '0')
	for _d in "$@"; do
		_v=$(printf '%s%s' "$_v" "$_d" | xxd -r -p | digest "$_bank")
	done
	echo "$_v"
}

# is_hex NAME WANT GOT: is, where nothing at all never counts as equal
is_hex() {
	if [ -z "$2" ]; then fail "$1 (nothing to compare: got '$3')"; else is "$@"; fi
}

# linux_pcr NAME BANK N: what Linux read (VFIT-PCR lines), lower case
linux_pcr() {
	sed -n "s/^VFIT-PCR $2 $3 //p" "$T/$1.log" | tr 'A-F' 'a-f'
}

# events YAML: one line per event of tpm2_eventlog's YAML:
#   NUM PCR TYPE event=HEX|- BANK=DIGEST...
events() {
	awk '
	function flush() { if (num != "") print num, pcr, type, "event=" ev, digests; num = "" }
	/^- EventNum: / { flush(); num = $3; pcr = "-"; type = "-"; ev = "-"; digests = ""; next }
	/^pcrs:/ { flush(); exit }
	/^  PCRIndex: / { pcr = $2 }
	/^  EventType: / { type = $2 }
	/^  - AlgorithmId: / { alg = $3 }
	/^    Digest: / { d = $2; gsub(/"/, "", d); digests = digests " " alg "=" d }
	/^  Event: "/ { ev = $2; gsub(/"/, "", ev) }
	END { flush() }' "$1"
}

# policy NAME BANKS: the Keylime-style checks on $T/NAME.yaml (see the top)
policy() {
	_n=$1 _banks=$(echo "$2" | tr , ' ')
	events "$T/$_n.yaml" >"$T/$_n.events"
	_version=$(awk '$2 == 0 && $3 == "EV_S_CRTM_VERSION"' "$T/$_n.events")
	_contents=$(awk '$2 == 0 && $3 == "EV_S_CRTM_CONTENTS"' "$T/$_n.events")
	is "$_n: PCR 0 opens with EV_S_CRTM_VERSION, then EV_S_CRTM_CONTENTS" \
		"EV_NO_ACTION EV_S_CRTM_VERSION EV_S_CRTM_CONTENTS" \
		"$(awk '$2 == 0 { print $3 }' "$T/$_n.events" | head -n 3 | tr '\n' ' ' | sed 's/ $//')"
	_vhex=$(echo "$_version" | sed 's/.* event=\([0-9a-f]*\) .*/\1/')
	is "$_n: the version event's data names the stage" "vfit QEMU virt stage arm64" \
		"$(echo "$_vhex" | xxd -r -p | tr -d '\0' | cut -d' ' -f1-5)"
	for _b in $_banks; do
		is_hex "$_n: $_b digest of the version: its event data's" \
			"$(echo "$_vhex" | xxd -r -p | digest "$_b")" \
			"$(echo "$_version" | sed -n "s/.* $_b=\([0-9a-f]*\).*/\1/p")"
		is_hex "$_n: $_b digest of the stage itself: stage-tpm.bin's" \
			"$(digest "$_b" <"$STAGE_BIN")" \
			"$(echo "$_contents" | sed -n "s/.* $_b=\([0-9a-f]*\).*/\1/p")"
	done
	for _p in 0 1 2 3 4 5 6 7; do
		_seps=$(awk -v p=$_p '$2 == p && $3 == "EV_SEPARATOR"' "$T/$_n.events")
		is "$_n: PCR $_p: one EV_SEPARATOR" 1 "$(echo "$_seps" | grep -c .)"
		is "$_n: PCR $_p: its separator is its last event" "EV_SEPARATOR" \
			"$(awk -v p=$_p '$2 == p { t = $3 } END { print t }' "$T/$_n.events")"
		_data=$(echo "$_seps" | sed -n 's/.* event=\([0-9a-f]*\) .*/\1/p' | head -n 1)
		case $_data in
		00000000 | ffffffff) pass ;;
		*) fail "$_n: PCR $_p: separator data '$_data' is neither 00000000h nor FFFFFFFFh" ;;
		esac
		for _b in $_banks; do
			is_hex "$_n: PCR $_p: the separator's $_b digest is its data's" \
				"$(echo "$_data" | xxd -r -p | digest "$_b")" \
				"$(echo "$_seps" | sed -n "s/.* $_b=\([0-9a-f]*\).*/\1/p" | head -n 1)"
		done
	done
}

n=0
for banks in sha1,sha256 sha1,sha256,sha384,sha512 sha256; do
	n=$((n + 1))
	bn=banks$n
	TPM=$T/tpm$n
	ok "factory TPM with the banks $banks" tpm_new "$TPM" "$banks"
	mkdisk "$T/d$n.img" "$T/m.fit" - - && pass || fail "$bn: disk"
	tpm_boot $bn arm64 "$T/d$n.img" 0 measured \
		"^   Measured 'kernel' \(kernel\) into PCR 8$" \
		"^vfit-stage: TPM: event log [0-9]+ bytes at [0-9a-fx]+, platform hierarchy disabled, [0-9]+ TPM commands$"
	tpm_log $bn
	tpm2_eventlog "$T/$bn.bin" >"$T/$bn.yaml" 2>"$T/$bn.err"
	is "$bn: tpm2_eventlog reads the log Linux exposes" 0 $?
	for b in $(echo $banks | tr , ' '); do
		for p in 0 1 2 3 4 5 6 7 8 9; do
			replay=$(sed -n "/^  $b:/,/^  [a-z]/p" "$T/$bn.yaml" | sed -n "s/^ *$p *: 0x//p")
			linux=$(linux_pcr $bn $b $p)
			is_hex "$bn: $b PCR $p: Linux reads the log's replay" "$replay" "$linux"
			is_hex "$bn: $b PCR $p: the stage's replay" "$linux" \
				"$(sed -n "s/^vfit-stage: TPM: log replay PCR $p $b //p" "$T/$bn.log")"
		done
		is_hex "$bn: $b PCR 8: Debian's kernel, extended once" \
			"$(extend $b "$(digest $b <"$KERNEL")")" "$(linux_pcr $bn $b 8)"
		is_hex "$bn: $b PCR 9: the initramfs, extended once" \
			"$(extend $b "$(digest $b <"$T/arm64-measured.cpio")")" "$(linux_pcr $bn $b 9)"
	done
	for b in sha1 sha256 sha384 sha512; do
		case ,$banks, in
		*,$b,*) ;;
		*) lacks "$bn: Linux shows no $b bank" "$T/$bn.log" "^VFIT-PCR $b " ;;
		esac
	done
	policy $bn $banks
done
finish
