#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Runs every libFuzzer target ($BUILD/fuzz/fuzz_*, built by `make fuzz`) for
# FUZZ_SECONDS (default 40), FUZZ_JOBS (default 2) at a time, on a
# temporary copy of its corpus, so the tree is never modified.  One case per target: failed if the target crashed.
# Crash inputs are kept in $BUILD/fuzz/crash-<target>-*.  libFuzzer's seed
# is VFIT_TEST_SEED (default 1), printed: a run replays with it, as far as a
# time-bounded run goes (how far depends on the machine's speed; whether a
# target passes does not).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
secs=${FUZZ_SECONDS:-40}
seed=${VFIT_TEST_SEED:-1}
echo "seed $seed (VFIT_TEST_SEED=$seed replays this run)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vfit-fuzz.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

max_len() {
	case $1 in
	fuzz_verify) echo 16384 ;;   # seeds are FITs of up to 12 KiB
	fuzz_decomp) echo 16384 ;;   # seeds are streams of up to 9 KiB
	fuzz_tpm) echo 4200 ;;       # a selector and a response beyond VFIT_TPM_BUF_SIZE
	fuzz_cipher) echo 8192 ;;    # seeds are a FIT and its -K DTB, under 2 KiB
	fuzz_preload) echo 8192 ;;   # seeds are headers of 256..1024 bytes + 600 of image
	fuzz_disk) echo 16905 ;;     # selector, disk size, GPT header, 16 KiB of entries
	fuzz_net) echo 8192 ;;       # seeds are slirp's side of a fetch, under 5 KiB
	*) echo 4096 ;;              # control DTBs of up to 2 KiB
	esac
}

# run_one TARGET: one bounded run; its verdict line goes to $tmp/TARGET.res
run_one() {
	t=$1
	bin=$BUILD/fuzz/$t
	if [ ! -x "$bin" ]; then
		echo "FAIL $t: $bin not built (make fuzz)" >"$tmp/$t.res"
		return
	fi
	mkdir -p "$tmp/$t"
	cp "$ROOT/tests/fuzz/corpus/$t"/* "$tmp/$t/" 2>/dev/null
	if "$bin" -seed="$seed" -max_total_time="$secs" -max_len="$(max_len "$t")" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$BUILD/fuzz/crash-$t-" "$tmp/$t" >"$tmp/$t.log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$t.log")
		echo "ok   $t: ${runs:-?} executions in ${secs}s" >"$tmp/$t.res"
	else
		{
			echo "FAIL $t: crashed; input saved as $BUILD/fuzz/crash-$t-*"
			grep -E 'ERROR|SUMMARY' "$tmp/$t.log" | head -n 5
		} >"$tmp/$t.res"
	fi
}

# FUZZ_JOBS targets at a time (default 2, one per core of the 2-core CI
# machine): each keeps its own time budget, the layer takes a fraction.
targets=$(for src in "$ROOT"/tests/fuzz/fuzz_*.c; do basename "$src" .c; done)
n=0
for t in $targets; do
	run_one "$t" &
	n=$((n + 1))
	[ $((n % ${FUZZ_JOBS:-2})) = 0 ] && wait
done
wait
for t in $targets; do
	cat "$tmp/$t.res"
	case $(head -c 2 "$tmp/$t.res") in ok) pass=$((pass + 1)) ;; *) fail=$((fail + 1)) ;; esac
done
echo "$pass passed, $fail failed, 0 skipped"
[ "$fail" = 0 ]
