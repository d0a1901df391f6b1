# SPDX-License-Identifier: BSD-3-Clause
# A real TPM 2.0 (swtpm) behind QEMU's tpm-tis-device for tests/qemu/*.sh,
# sourced after tests/qemu/lib/qemu.sh.
#   tpm_new DIR [ATTRS [SIZE]]  a fresh swtpm state in DIR with the sha256 bank
#                               alone (swtpm_setup), provisioned as a factory
#                               does (docs/trust-state.md): tpm2_nvdefine of
#                               the trust-state index with platform authorization
#                               and ATTRS/SIZE (default: the stage's own)
#   tpm_boot NAME ARCH DISK WANT TAG [REGEX...]   boot (qemu.sh) with swtpm on DIR=$TPM
#   tpm_log NAME                $T/NAME.bin: the event log Linux printed (VFIT-LOG lines)
#   pcr_of NAME N               the PCR Linux printed (VFIT-PCR), lower case
#   extend_of HEX...            SHA-256 PCR value after extending zeros with each digest
TPM_ATTRS="ppwrite|ppread|ownerread|authread|no_da|writeall|platformcreate"
TPM_INDEX=0x01500100
TPM_SIZE=432
TPM_PID=

tpm_stop() {
	[ -n "$TPM_PID" ] && kill "$TPM_PID" 2>/dev/null
	[ -n "$TPM_PID" ] && wait "$TPM_PID" 2>/dev/null
	TPM_PID=
}
trap 'tpm_stop; rm -rf "$T"' EXIT

tpm_new() {
	_d=$1 _attrs=${2:-$TPM_ATTRS} _size=${3:-$TPM_SIZE}
	rm -rf "$_d" && mkdir -p "$_d" || return 1
	swtpm_setup --tpm2 --tpmstate "$_d" --pcr-banks sha256 --overwrite >"$_d/setup.log" 2>&1 ||
		return 1
	[ "$_attrs" = none ] && return 0
	for _try in 1 2 3 4 5; do
		_port=$(( 20000 + ($$ * 11 + _try * 173) % 20000 ))
		swtpm socket --tpm2 --tpmstate "dir=$_d" \
			--server "type=tcp,port=$_port,bindaddr=127.0.0.1" \
			--ctrl "type=tcp,port=$((_port + 1)),bindaddr=127.0.0.1" \
			--flags not-need-init,startup-clear >"$_d/provision.log" 2>&1 &
		TPM_PID=$!
		_tcti="swtpm:host=127.0.0.1,port=$_port"
		while kill -0 "$TPM_PID" 2>/dev/null &&
		      ! tpm2_getcap -T "$_tcti" properties-fixed >/dev/null 2>&1; do
			sleep 0.1
		done
		kill -0 "$TPM_PID" 2>/dev/null && break
		tpm_stop
	done
	tpm2_nvdefine -T "$_tcti" -C p -s "$_size" -a "$_attrs" "$TPM_INDEX" >>"$_d/provision.log" 2>&1
	_rc=$?
	tpm2_shutdown -T "$_tcti" >/dev/null 2>&1
	tpm_stop
	return $_rc
}

tpm_boot() {
	_sock=$TPM/sock
	rm -f "$_sock"
	swtpm socket --tpm2 --tpmstate "dir=$TPM" --ctrl "type=unixio,path=$_sock" \
		>"$TPM/swtpm.log" 2>&1 &
	TPM_PID=$!
	while kill -0 "$TPM_PID" 2>/dev/null && [ ! -S "$_sock" ]; do sleep 0.05; done
	QEMU_EXTRA="-chardev socket,id=chrtpm,path=$_sock -tpmdev emulator,id=tpm0,chardev=chrtpm \
-device tpm-tis-device,tpmdev=tpm0" boot "$@"
	tpm_stop
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
