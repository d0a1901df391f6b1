# SPDX-License-Identifier: BSD-3-Clause
# Shell test helpers, sourced by tests/cli/*.sh and tests/interop/*.sh.
#   ok NAME CMD...            CMD must exit 0
#   status N NAME CMD...      CMD must exit with status N
#   contains NAME FILE REGEX  FILE must match the extended REGEX
#   is NAME WANT GOT          the strings WANT and GOT must be equal
#   code FIT CTL [ARGS]       prints vfit verify's result name (OK, REQUIRED...)
#   rsa_key PREFIX BITS       writes PREFIX.key and a self-signed PREFIX.crt
#   finish                    prints "N passed, N failed" and exits
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

pass() { _pass=$((_pass + 1)); }
fail() { _fail=$((_fail + 1)); echo "FAIL $*"; }

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
	echo "$_pass passed, $_fail failed"
	[ "$_fail" = 0 ]
}
