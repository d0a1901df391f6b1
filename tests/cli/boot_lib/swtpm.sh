# SPDX-License-Identifier: BSD-3-Clause
# A real TPM 2.0 (swtpm) for the boot tests, sourced after tests/lib.sh.
#   start_swtpm    starts swtpm on a free port with its state in $T/tpm; sets
#                  SWTPM_PID and TCTI; returns 1 (log in $T/swtpm.log) if it
#                  exits before it answers; skips the test (and exits) if
#                  swtpm or tpm2-tools are not installed.  It is stopped when
#                  the test exits.
#   stop_swtpm     stops it now.
SWTPM_PID=
trap '[ -n "$SWTPM_PID" ] && kill "$SWTPM_PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$T"' EXIT

# alive PID: the process runs (an exited child stays a zombie until waited for)
alive() {
	_st=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" 2>/dev/null)
	[ -n "$_st" ] && [ "$_st" != Z ]
}

start_swtpm() {
	need swtpm tpm2_getcap
	mkdir -p "$T/tpm"
	for try in 1 2 3 4 5; do
		port=$(( 20000 + ($$ * 7 + try * 131) % 20000 ))
		swtpm socket --tpm2 --server "type=tcp,port=$port,bindaddr=127.0.0.1" \
			--ctrl "type=tcp,port=$((port + 1)),bindaddr=127.0.0.1" --tpmstate "dir=$T/tpm" \
			--flags not-need-init,startup-clear >"$T/swtpm.log" 2>&1 &
		SWTPM_PID=$!
		TCTI="swtpm:host=127.0.0.1,port=$port"
		# Ready when it answers, gone when the port was taken: no time
		# limit here (tests/run's per-test timeout ends a hang).
		while alive "$SWTPM_PID" &&
		      ! tpm2_getcap -T "$TCTI" properties-fixed >/dev/null 2>&1; do
			sleep 0.1
		done
		alive "$SWTPM_PID" && return 0
		stop_swtpm
	done
	return 1
}

stop_swtpm() {
	[ -n "$SWTPM_PID" ] && kill "$SWTPM_PID" 2>/dev/null
	[ -n "$SWTPM_PID" ] && wait "$SWTPM_PID" 2>/dev/null
	SWTPM_PID=
}
