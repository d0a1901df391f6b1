#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The Makefile's build conventions, on one object or a dry run each (no full
# build): a quiet line per file ("  CC      lib/result.o"), whole commands
# with V=1; the builder's CPPFLAGS and CFLAGS on every compile line after the
# project's own (so they win), LDFLAGS on the tool's link line, and the
# compiler check (scripts/check-build) run with them; AR, LD and OBJCOPY
# used for the installed library; -Werror only with WERROR=1, which make
# test sets: a plain make warns and goes on.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
. tests/lib.sh
mk() { env -u WERROR make --no-print-directory "$@"; }

B=$T/q
mk BUILD="$B" "$B/lib/result.o" >"$T/out" 2>&1
is "quiet: one line per object" "  CC      lib/result.o" "$(cat "$T/out")"
B=$T/v
mk V=1 BUILD="$B" CPPFLAGS=-DVFIT_T_CPP CFLAGS="-O1 -DVFIT_T_C" "$B/lib/result.o" >"$T/out" 2>&1
contains "V=1: the whole command" "$T/out" "-c -o $B/lib/result.o lib/result.c$"
contains "CPPFLAGS and CFLAGS after the project's -O2" "$T/out" \
	" -O2 .* -DVFIT_T_CPP .*-O1 -DVFIT_T_C "
if grep -q -- -Werror "$T/out"; then fail "plain make compiles with -Werror"; else pass; fi

mk -n V=1 BUILD="$T/n" LDFLAGS=-Wl,-z,now "$T/n/vfit" >"$T/out" 2>&1
contains "LDFLAGS on the tool's link line" "$T/out" " -Wl,-z,now -o $T/n/vfit "
mk -n V=1 BUILD="$T/n" AR=t-ar LD=t-ld OBJCOPY=t-objcopy "$T/n/libvfit.a" >"$T/out" 2>&1
contains "LD for the library's partial link" "$T/out" "^t-ld -r -o $T/n/libvfit.o "
contains "OBJCOPY for its API symbols" "$T/out" "^t-objcopy --keep-global-symbols="
contains "AR for the archive" "$T/out" "^t-ar rcs $T/n/libvfit.a "
mk -n V=1 WERROR=1 BUILD="$T/n" "$T/n/lib/result.o" >"$T/out" 2>&1
contains "WERROR=1: -Werror" "$T/out" " -Wextra -Werror "
# make test asks for it (its scripts/deps step runs at parse time even with -n).
mk -n V=1 BUILD="$T/n" test >"$T/out" 2>&1
contains "make test: -Werror" "$T/out" " -Wextra -Werror .* -c -o $T/n/lib/"

# A warning: plain make goes on, WERROR=1 stops.
B=$T/w
status 0 "a warning does not fail a plain make" mk BUILD="$B" CFLAGS=-Wpadded \
	"$B/lib/fit/fit_verify.o"
contains "the warning is shown" "$T/.out" "warning: .*-Wpadded"
status 2 "it fails with WERROR=1" mk WERROR=1 BUILD="$T/w1" CFLAGS=-Wpadded \
	"$T/w1/lib/fit/fit_verify.o"

# scripts/check-build compiles with the builder's flags: flags that break
# the compiler stop make before it compiles anything.
status 2 "check-build uses CPPFLAGS" mk BUILD="$T/c" CPPFLAGS="-include vfit-no-such.h" \
	"$T/c/lib/result.o"
contains "it names the compiler" "$T/.out" "a working C compiler"
is "and compiled nothing" "" "$(find "$T/c" -name '*.o' 2>/dev/null)"
finish
