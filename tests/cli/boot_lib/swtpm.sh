# SPDX-License-Identifier: BSD-3-Clause
# A real TPM 2.0 (swtpm) for the boot tests, sourced after tests/lib.sh.
#   start_swtpm    starts swtpm on a free port with its state in $T/tpm; sets
#                  SWTPM_PID and TCTI; returns 1 (log in $T/swtpm.log) if it
#                  does not answer.  It is stopped when the test exits.
#   stop_swtpm     stops it now.
SWTPM_PID=
trap '[ -n "$SWTPM_PID" ] && kill "$SWTPM_PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$T"' EXIT

start_swtpm() {
	mkdir -p "$T/tpm"
	for try in 1 2 3 4 5; do
		port=$(( 20000 + ($$ * 7 + try * 131) % 20000 ))
		swtpm socket --tpm2 --server "type=tcp,port=$port,bindaddr=127.0.0.1" \
			--ctrl "type=tcp,port=$((port + 1)),bindaddr=127.0.0.1" --tpmstate "dir=$T/tpm" \
			--flags not-need-init,startup-clear >"$T/swtpm.log" 2>&1 &
		SWTPM_PID=$!
		TCTI="swtpm:host=127.0.0.1,port=$port"
		# Ready when it answers; gone when the port was taken.
		i=0
		while [ $i -lt 50 ] && kill -0 "$SWTPM_PID" 2>/dev/null &&
		      ! tpm2_getcap -T "$TCTI" properties-fixed >/dev/null 2>&1; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -0 "$SWTPM_PID" 2>/dev/null && [ $i -lt 50 ] && return 0
		stop_swtpm
	done
	return 1
}

stop_swtpm() {
	[ -n "$SWTPM_PID" ] && kill "$SWTPM_PID" 2>/dev/null
	[ -n "$SWTPM_PID" ] && wait "$SWTPM_PID" 2>/dev/null
	SWTPM_PID=
}
