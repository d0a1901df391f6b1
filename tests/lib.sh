# SPDX-License-Identifier: BSD-3-Clause
# Shell test helpers, sourced by tests/cli/*.sh, tests/interop/*.sh and
# tests/build/*.sh (tests/README.md says how tests/run counts them).
#   ok NAME CMD...            CMD must exit 0
#   status N NAME CMD...      CMD must exit with status N
#   contains NAME FILE REGEX  FILE must match the extended REGEX
#   is NAME WANT GOT          the strings WANT and GOT must be equal
#   same NAME A B             files A and B must exist, be non-empty and equal
#   to_dts NAME DTB OUT       OUT = dtc's source of DTB; a failure if dtc fails
#                             or prints nothing (counts only when it fails)
#   skip CLASS REASON         one part cannot run here: counted as skipped
#   need TOOL...              skips the whole test (and exits) if a tool is missing
#   random FILE N             N pseudo-random bytes into FILE, from the run's
#                             seed, FILE's name and how many calls came before
#   subtest NAME CMD...       runs a C test program (or another test script):
#                             its counts join ours, its FAIL and SKIP lines are
#                             repeated; no summary or a bad exit is a failure
#   code FIT CTL [ARGS]       prints vfit verify's result name (OK, REQUIRED...)
#   rsa_key PREFIX BITS       writes PREFIX.key and a self-signed PREFIX.crt
#   finish                    prints "N passed, N failed, N skipped" and exits
# Each test gets a scratch directory $T that is removed at exit.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
VFIT=${VFIT:-$BUILD/vfit}
VFIT_VECTORS=${VFIT_VECTORS:-$ROOT/tests/vectors}
T=$(mktemp -d "${TMPDIR:-/tmp}/vfit-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
_pass=0
_fail=0
_skip=0
_rand_n=0
# The payloads `random` writes derive from this seed: a failure replays with it.
VFIT_TEST_SEED=${VFIT_TEST_SEED:-1}
echo "seed $VFIT_TEST_SEED (VFIT_TEST_SEED=$VFIT_TEST_SEED replays this run)"

pass() { _pass=$((_pass + 1)); }
fail() { _fail=$((_fail + 1)); echo "FAIL $*"; }

skip() {
	_skip=$((_skip + 1))
	echo "SKIP $1: $2"
}

need() {
	_missing=
	for _tool in "$@"; do
		command -v "$_tool" >/dev/null 2>&1 || _missing="$_missing $_tool"
	done
	[ -z "$_missing" ] && return 0
	skip tool "not installed:$_missing (scripts/deps installs it)"
	finish
	exit $?
}

ok() {
	name=$1; shift
	if "$@" >"$T/.out" 2>&1; then pass; else fail "$name (exit $?)"; sed 's/^/    /' "$T/.out" | tail -n 20; fi
}

status() {
	want=$1 name=$2; shift 2
	"$@" >"$T/.out" 2>&1
	got=$?
	if [ "$got" = "$want" ]; then pass; else fail "$name (exit $got, want $want)"; sed 's/^/    /' "$T/.out" | tail -n 20; fi
}

contains() {
	if grep -Eq -- "$3" "$2"; then pass; else fail "$1 (no /$3/ in output)"; sed 's/^/    /' "$2" | tail -n 20; fi
}

is() {
	if [ "$2" = "$3" ]; then pass; else fail "$1 (got '$3', want '$2')"; fi
}

same() {
	if [ ! -s "$2" ] || [ ! -s "$3" ]; then
		fail "$1 (missing or empty: $(for f in "$2" "$3"; do [ -s "$f" ] || printf '%s ' "$f"; done))"
	elif cmp -s "$2" "$3"; then
		pass
	else
		fail "$1 ($2 and $3 differ)"
		diff "$2" "$3" 2>&1 | head -n 20 | sed 's/^/    /'
	fi
}

to_dts() {
	if dtc -I dtb -O dts -o "$3" "$2" >"$T/.dtc" 2>&1 && [ -s "$3" ]; then
		return 0
	fi
	fail "$1: dtc cannot decode $2"
	sed 's/^/    /' "$T/.dtc" | tail -n 5
	: >"$3"
	return 1
}

# flip_byte FILE OFFSET: invert the byte at OFFSET, so it always changes
# (writing a fixed byte is a no-op once in 256 over random data)
flip_byte() {
	_b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $((_b ^ 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

random() {
	_rand_n=$((_rand_n + 1))
	_key=$(printf '%s %s %s' "$VFIT_TEST_SEED" "$_rand_n" "${1#"$T"/}" | sha256sum | cut -c1-32)
	head -c "$2" /dev/zero | openssl enc -aes-128-ctr -K "$_key" -iv 00000000000000000000000000000000 >"$1"
}

subtest() {
	_name=$1
	shift
	"$@" >"$T/.sub" 2>&1
	_rc=$?
	_line=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$T/.sub" | tail -n 1)
	grep '^FAIL' "$T/.sub" | head -n 20 | sed "s|^FAIL |FAIL $_name: |"
	sed -n "s|^SKIP \([a-z][a-z0-9-]*\): |SKIP \1: $_name: |p" "$T/.sub"
	if [ -z "$_line" ] || [ "$_rc" != 0 ]; then
		fail "$_name (exit $_rc): ${_line:-no summary}"
		tail -n 5 "$T/.sub" | sed 's/^/    /'
	fi
	# shellcheck disable=SC2086
	set -- $_line
	_pass=$((_pass + ${1:-0}))
	_fail=$((_fail + ${3:-0}))
	_skip=$((_skip + ${5:-0}))
}

code() {
	f=$1 c=$2
	shift 2
	"$VFIT" verify -f "$f" -k "$c" --json "$@" 2>/dev/null | jq -r .result
}

rsa_key() {
	openssl genpkey -algorithm RSA -out "$1.key" -pkeyopt "rsa_keygen_bits:$2" 2>/dev/null &&
		openssl req -batch -new -x509 -key "$1.key" -out "$1.crt" 2>/dev/null
}

finish() {
	echo "$_pass passed, $_fail failed, $_skip skipped"
	[ "$_fail" = 0 ]
}
