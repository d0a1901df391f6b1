# SPDX-License-Identifier: BSD-3-Clause
# A real TPM 2.0 (swtpm) behind QEMU's tpm-tis-device for tests/qemu/*.sh,
# sourced after tests/qemu/lib/qemu.sh.
#   tpm_new DIR [BANKS]         a fresh swtpm state in DIR with the PCR banks BANKS
#                               (swtpm_setup --pcr-banks; default: sha256 alone),
#                               provisioned as a factory does
#                               (ports/qemu-virt/with-tpm, docs/trust-state.md)
#   tpm_boot NAME ARCH DISK WANT TAG [REGEX...]   boot (qemu.sh) of stage-tpm.bin (the ROM
#                               that requires a TPM) with swtpm on DIR=$TPM
#   tpm_os CMD...               CMD as the running OS would, on the TPM of $TPM between two
#                               boots (swtpm's data socket in $T/os): `vfit disk ... --tpm $T/os`
#   tpm_log NAME                $T/NAME.bin: the event log Linux printed (VFIT-LOG lines)
#   pcr_of NAME N               the PCR Linux printed (VFIT-PCR), lower case
#   extend_of HEX...            SHA-256 PCR value after extending zeros with each digest
TPM_PID=

tpm_stop() {
	[ -n "$TPM_PID" ] && kill "$TPM_PID" 2>/dev/null
	[ -n "$TPM_PID" ] && wait "$TPM_PID" 2>/dev/null
	TPM_PID=
}
trap 'tpm_stop; rm -rf "$T"' EXIT

tpm_new() {
	rm -rf "$1" && PCR_BANKS=${2:-sha256} "$ROOT/ports/qemu-virt/with-tpm" "$1" true
}

tpm_boot() {
	_sock=$TPM/sock
	rm -f "$_sock"
	swtpm socket --tpm2 --tpmstate "dir=$TPM" --ctrl "type=unixio,path=$_sock" \
		>"$TPM/swtpm.log" 2>&1 &
	TPM_PID=$!
	while kill -0 "$TPM_PID" 2>/dev/null && [ ! -S "$_sock" ]; do sleep 0.05; done
	_extra=${QEMU_EXTRA:-} _stage=${STAGE:-}
	QEMU_EXTRA="$_extra -chardev socket,id=chrtpm,path=$_sock -tpmdev emulator,id=tpm0,chardev=chrtpm \
-device tpm-tis-device,tpmdev=tpm0"
	STAGE=${_stage:-stage-tpm.bin}
	boot "$@"
	QEMU_EXTRA=$_extra STAGE=$_stage
	tpm_stop
}

tpm_os() {
	rm -rf "$T/os" && mkdir -p "$T/os"
	swtpm socket --tpm2 --tpmstate "dir=$TPM" --server "type=unixio,path=$T/os/data" \
		--ctrl "type=unixio,path=$T/os/ctrl" --flags not-need-init >"$T/os.log" 2>&1 &
	TPM_PID=$!
	while kill -0 "$TPM_PID" 2>/dev/null && [ ! -S "$T/os/ctrl" ]; do sleep 0.05; done
	"$@"
	_rc=$?
	tpm_stop
	return $_rc
}

tpm_log() {
	sed -n '/^VFIT-LOG-BEGIN$/,/^VFIT-LOG-END$/p' "$T/$1.log" | grep -v '^VFIT' |
		tr -d ' \n' | xxd -r -p >"$T/$1.bin"
}

pcr_of() {
	sed -n "s/^VFIT-PCR sha256 $2 //p" "$T/$1.log" | tr 'A-F' 'a-f'
}

extend_of() {
	_v=0000000000000000000000000000000000000000000000000000000000000000
	for _d in "$@"; do
		_v=$(printf '%s%s' "$_v" "$_d" | xxd -r -p | sha256sum | cut -c1-64)
	done
	echo "$_v"
}
