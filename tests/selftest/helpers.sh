#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tests/lib.sh's helpers must be able to fail: comparing nothing with
# nothing, decoding a file dtc cannot read, a missing tool, a test program
# without a summary.  Each case runs a small script that sources lib.sh and
# checks the summary and FAIL/SKIP lines it prints.
. "$(dirname "$0")/../lib.sh"

# script NAME BODY: $T/NAME.sh sources tests/lib.sh, runs BODY, finishes;
# its output is in $T/NAME.out and its exit status in $rc
script() {
	mkdir -p "$T/tests/x"
	{
		printf '. "%s/tests/lib.sh"\n' "$ROOT"
		printf '%s\n' "$2"
		printf 'finish\n'
	} >"$T/tests/x/$1.sh"
	sh "$T/tests/x/$1.sh" >"$T/$1.out" 2>&1
	rc=$?
}

# summary NAME LINE: the script's last line
summary() {
	is "$1: summary" "$2" "$(tail -n 1 "$T/$1.out")"
}

: >"$T/empty1"
: >"$T/empty2"
echo same >"$T/a"
echo same >"$T/b"
echo other >"$T/c"
script same "same 'two empty files' $T/empty1 $T/empty2
same 'a missing file' $T/a $T/missing
same 'both missing' $T/missing $T/missing2
same 'equal files' $T/a $T/b
same 'different files' $T/a $T/c"
summary same "1 passed, 4 failed, 0 skipped"
is "same: exit status" 1 "$rc"
contains "same: names the empty files" "$T/same.out" "^FAIL two empty files \(missing or empty: .*empty1 .*empty2"

printf 'not a device tree' >"$T/junk.dtb"
printf '/dts-v1/; / { model = "m"; };' | dtc -I dts -O dtb -o "$T/good.dtb"
script dts "to_dts 'junk' $T/junk.dtb $T/junk.dts || echo returned-nonzero
to_dts 'missing' $T/none.dtb $T/none.dts || echo returned-nonzero
to_dts 'good' $T/good.dtb $T/good.dts && pass"
summary dts "1 passed, 2 failed, 0 skipped"
is "to_dts: a failure returns non-zero" 2 "$(grep -c returned-nonzero "$T/dts.out")"
contains "to_dts: the source" "$T/good.dts" 'model = "m"'

script need "pass
need sh no-such-tool-a no-such-tool-b
echo 'after need'
pass"
summary need "1 passed, 0 failed, 1 skipped"
is "need: exit status" 0 "$rc"
contains "need: names the tools" "$T/need.out" "^SKIP tool: not installed: no-such-tool-a no-such-tool-b"
if grep -q 'after need' "$T/need.out"; then fail "need: the test went on"; else pass; fi

script skip "pass
skip hw 'no such instruction'"
summary skip "1 passed, 0 failed, 1 skipped"
contains "skip: class and reason" "$T/skip.out" "^SKIP hw: no such instruction$"

# subtest: a program's counts join the script's; no summary is a failure
printf 'echo "SKIP hw: x"; echo "FAIL y"; echo "3 passed, 1 failed, 1 skipped"; exit 1\n' >"$T/p1"
printf 'echo "3 passed, 0 failed"\n' >"$T/p2"
script subtest "subtest p1 sh $T/p1
subtest p2 sh $T/p2"
summary subtest "3 passed, 3 failed, 1 skipped"
contains "subtest: repeats the skip" "$T/subtest.out" "^SKIP hw: p1: x$"
contains "subtest: repeats the failure" "$T/subtest.out" "^FAIL p1: y$"
contains "subtest: no summary" "$T/subtest.out" "^FAIL p2 \(exit 0\): no summary"

# random: the same seed and name give the same bytes, anything else differs
VFIT_TEST_SEED=1 script random "cd \$T && random a.bin 1000 && random b.bin 1000 && cp a.bin b.bin $T/ && pass"
mv "$T/a.bin" "$T/a1.bin"
mv "$T/b.bin" "$T/b1.bin"
VFIT_TEST_SEED=1 script random "cd \$T && random a.bin 1000 && cp a.bin $T/a2.bin && pass"
VFIT_TEST_SEED=2 script random "cd \$T && random a.bin 1000 && cp a.bin $T/a3.bin && pass"
is "random: size" 1000 "$(wc -c <"$T/a1.bin")"
ok "random: same seed, same bytes" cmp "$T/a1.bin" "$T/a2.bin"
status 1 "random: another name, other bytes" cmp -s "$T/a1.bin" "$T/b1.bin"
status 1 "random: another seed, other bytes" cmp -s "$T/a1.bin" "$T/a3.bin"
contains "random: the seed is printed" "$T/random.out" "^seed 2 \(VFIT_TEST_SEED=2 replays"
finish
