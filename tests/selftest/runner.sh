#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tests/run itself, on stub layers written here: every way a program can
# fail to prove anything must fail the run, a skip must be counted as a skip
# (and fail the run unless VFIT_ALLOW_SKIP names it), and the last line must
# always be the exact total.
. "$(dirname "$0")/../lib.sh"
RUN=$ROOT/tests/run

# stub NAME BODY: a layer directory $T/NAME holding one program x.sh
stub() {
	mkdir -p "$T/$1"
	printf '%s\n' "$2" >"$T/$1/x.sh"
}

# expect NAME RC LAST [REGEX]: tests/run on layer NAME exits RC, its last line
# is LAST, and its output matches REGEX
expect() {
	BUILD=$T/build "$RUN" "$T/$1" >"$T/$1.out" 2>&1
	is "$1: exit status" "$2" "$?"
	is "$1: closing line" "$3" "$(tail -n 1 "$T/$1.out")"
	[ -z "${4:-}" ] || contains "$1: report" "$T/$1.out" "$4"
}

stub good 'echo "4 passed, 0 failed, 0 skipped"'
expect good 0 "4 passed, 0 failed, 0 skipped" '^PASS good +x\.sh +4 passed'

stub silent 'true'
expect silent 1 "0 passed, 1 failed, 0 skipped" '^FAIL silent +x\.sh .*no summary line'

stub oldform 'echo "5 passed, 0 failed"'
expect oldform 1 "0 passed, 1 failed, 0 skipped" 'no summary line'

stub failline 'echo "FAIL something broke"; echo "7 passed, 0 failed, 0 skipped"'
expect failline 1 "7 passed, 1 failed, 0 skipped" "1 FAIL lines, but the summary says 0 failed"
contains "failline: the FAIL line is shown" "$T/failline.out" "^ +FAIL something broke"

stub exitcode 'echo "3 passed, 0 failed, 0 skipped"; exit 3'
expect exitcode 1 "3 passed, 1 failed, 0 skipped" 'exit 3'

stub failed 'echo "FAIL a"; echo "FAIL b"; echo "2 passed, 2 failed, 0 skipped"; exit 1'
expect failed 1 "2 passed, 2 failed, 0 skipped" 'x\.sh +2 passed 2 failed'

stub nothing 'echo "0 passed, 0 failed, 0 skipped"'
expect nothing 1 "0 passed, 1 failed, 0 skipped" 'ran nothing'

stub twice 'echo "1 passed, 0 failed, 0 skipped"; echo "1 passed, 0 failed, 0 skipped"'
expect twice 1 "1 passed, 1 failed, 0 skipped" '2 summary lines'

stub noreason 'echo "1 passed, 0 failed, 1 skipped"'
expect noreason 1 "1 passed, 1 failed, 1 skipped" "1 skipped, but 0 'SKIP class: reason' lines"

# A hang ends at the time limit and counts as a failure.
stub hang 'sleep 600'
VFIT_TEST_TIMEOUT=1 expect hang 1 "0 passed, 1 failed, 0 skipped" 'timed out after 1s'

mkdir -p "$T/empty"
expect empty 1 "0 passed, 1 failed, 0 skipped" 'no test programs found'

# A skip is its own count, shows its reason, and is refused unless allowed.
stub skip 'echo "SKIP tool: frob is not installed"; echo "2 passed, 0 failed, 1 skipped"'
expect skip 1 "2 passed, 0 failed, 1 skipped" '^SKIP skip x\.sh: tool: frob is not installed$'
contains "skip: the refusal says how to allow it" "$T/skip.out" "skip\(s\) not allowed.*VFIT_ALLOW_SKIP"
for allow in all tool skip skip/x skip/x.sh 'sk*' 'hw,tool'; do
	VFIT_ALLOW_SKIP=$allow expect skip 0 "2 passed, 0 failed, 1 skipped"
done
for deny in hw other skip/y 'unit*'; do
	VFIT_ALLOW_SKIP=$deny expect skip 1 "2 passed, 0 failed, 1 skipped"
done
# Unset, VFIT_ALLOW_SKIP allows the U-Boot HEAD comparisons (class anchor)
# alone, so a clone with nothing beside it passes; set empty, nothing.
stub anchorskip 'echo "SKIP anchor: no U-Boot HEAD tools"; echo "2 passed, 0 failed, 1 skipped"'
saved=${VFIT_ALLOW_SKIP-unset}
unset VFIT_ALLOW_SKIP
expect anchorskip 0 "2 passed, 0 failed, 1 skipped"
expect skip 1 "2 passed, 0 failed, 1 skipped"
VFIT_ALLOW_SKIP= expect anchorskip 1 "2 passed, 0 failed, 1 skipped"
[ "$saved" = unset ] || export VFIT_ALLOW_SKIP="$saved"

# A whole layer that ran nothing because its build is missing.
BUILD=$T/nobuild "$RUN" unit cli >"$T/nobuild.out" 2>&1
is "missing build: exit status" 1 "$?"
is "missing build: closing line" "0 passed, 2 failed, 0 skipped" "$(tail -n 1 "$T/nobuild.out")"
contains "missing build: says so" "$T/nobuild.out" "^FAIL unit .*missing or older than the sources"

# Stale binaries are refused: a copy of the build with one test binary older
# than its sources.
if [ -x "$BUILD/tests/test_crc16" ]; then
	mkdir -p "$T/stale"
	for f in "$BUILD"/* "$BUILD"/.build-ok "$BUILD"/.sim-ok; do
		case ${f##*/} in asan | fuzz | logs) ;; *) cp -a "$f" "$T/stale/" ;; esac
	done
	BUILD=$T/stale "$RUN" unit/test_crc16 >"$T/fresh.out" 2>&1
	is "fresh copy of the build: runs" 0 "$?"
	touch -d @1 "$T/stale/tests/test_crc16"
	BUILD=$T/stale "$RUN" unit/test_crc16 >"$T/stale.out" 2>&1
	is "stale binary: exit status" 1 "$?"
	contains "stale binary: refused" "$T/stale.out" "^FAIL unit .*older than the sources"
	if grep -q '^PASS' "$T/stale.out"; then fail "stale binary: it was run"; else pass; fi
else
	fail "no $BUILD/tests/test_crc16 to make stale (run make unit)"
fi

# One test of a layer; an unknown test or layer.
"$RUN" selftest/nosuch >"$T/nosuch.out" 2>&1
is "unknown test: exit status" 1 "$?"
contains "unknown test: named" "$T/nosuch.out" "^FAIL selftest +nosuch +no such test"
"$RUN" nolayer >"$T/nolayer.out" 2>&1
is "unknown layer: exit status" 2 "$?"
finish
