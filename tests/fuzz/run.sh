#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Runs every libFuzzer target ($BUILD/fuzz/fuzz_*, built by `make fuzz`) for
# FUZZ_SECONDS (default 60) on a temporary copy of its corpus, so the tree is
# never modified.  One case per target: failed if the target crashed.
# Crash inputs are kept in $BUILD/fuzz/crash-<target>-*.  libFuzzer's seed
# is VFIT_TEST_SEED (default 1), printed: a run replays with it, as far as a
# time-bounded run goes (how far depends on the machine's speed; whether a
# target passes does not).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
secs=${FUZZ_SECONDS:-60}
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
	fuzz_disk) echo 16905 ;;     # selector, disk size, GPT header, 16 KiB of entries
	*) echo 4096 ;;              # control DTBs of up to 2 KiB
	esac
}

for src in "$ROOT"/tests/fuzz/fuzz_*.c; do
	t=$(basename "$src" .c)
	bin=$BUILD/fuzz/$t
	if [ ! -x "$bin" ]; then
		echo "FAIL $t: $bin not built (make fuzz)"
		fail=$((fail + 1))
		continue
	fi
	mkdir -p "$tmp/$t"
	cp "$ROOT/tests/fuzz/corpus/$t"/* "$tmp/$t/" 2>/dev/null
	if "$bin" -seed="$seed" -max_total_time="$secs" -max_len="$(max_len "$t")" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$BUILD/fuzz/crash-$t-" "$tmp/$t" >"$tmp/$t.log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$t.log")
		echo "ok   $t: ${runs:-?} executions in ${secs}s"
		pass=$((pass + 1))
	else
		echo "FAIL $t: crashed; input saved as $BUILD/fuzz/crash-$t-*"
		grep -E 'ERROR|SUMMARY' "$tmp/$t.log" | head -n 5
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed, 0 skipped"
[ "$fail" = 0 ]
