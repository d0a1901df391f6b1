# SPDX-License-Identifier: BSD-3-Clause
# A real TPM 2.0 (swtpm) for `vfit boot --trust`, sourced after tests/lib.sh.
#   start_swtpm [BANKS]  a fresh TPM (PCR banks BANKS, default sha256) with its
#                  state in $SOCKDIR/st, then swtpm_up.  Skips the test (and
#                  exits) if swtpm is not installed; returns 1 (logs in
#                  $SOCKDIR) if swtpm_setup fails or swtpm exits before its
#                  sockets appear.
#   swtpm_up       swtpm on the state already in $SOCKDIR/st (a restart keeps
#                  the TPM's NV), listening on the UNIX sockets $SOCKDIR/data
#                  and $SOCKDIR/ctrl: SOCKDIR=$T/tpm is what --trust takes.
#                  Its pid is $SWTPM_PID; it is stopped when the test exits.
#   stop_swtpm     stops it now (its state stays in $SOCKDIR/st).
SWTPM_PID=
SOCKDIR=$T/tpm
trap '[ -n "$SWTPM_PID" ] && kill "$SWTPM_PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$T"' EXIT

start_swtpm() {
	need swtpm swtpm_setup
	stop_swtpm
	rm -rf "$SOCKDIR" && mkdir -p "$SOCKDIR/st" || return 1
	swtpm_setup --tpm2 --tpmstate "$SOCKDIR/st" --pcr-banks "${1:-sha256}" --overwrite \
		>"$SOCKDIR/setup.log" 2>&1 || return 1
	swtpm_up
}

swtpm_up() {
	stop_swtpm
	rm -f "$SOCKDIR/data" "$SOCKDIR/ctrl"
	swtpm socket --tpm2 --tpmstate "dir=$SOCKDIR/st" --server "type=unixio,path=$SOCKDIR/data" \
		--ctrl "type=unixio,path=$SOCKDIR/ctrl" --flags not-need-init >"$SOCKDIR/swtpm.log" 2>&1 &
	SWTPM_PID=$!
	# Ready when the control socket exists; tests/run's per-test timeout ends a hang.
	while kill -0 "$SWTPM_PID" 2>/dev/null && [ ! -S "$SOCKDIR/ctrl" ]; do sleep 0.05; done
	kill -0 "$SWTPM_PID" 2>/dev/null
}

stop_swtpm() {
	[ -n "$SWTPM_PID" ] && kill "$SWTPM_PID" 2>/dev/null
	[ -n "$SWTPM_PID" ] && wait "$SWTPM_PID" 2>/dev/null
	SWTPM_PID=
}
