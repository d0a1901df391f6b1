#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# What is API: the installed $BUILD/libvfit.a exports exactly the symbols
# that lib/api.list documents, each declared in a public header
# (include/vfit/), and the internal functions of lib/ are all in it but
# local; the internal archive the tests link ($BUILD/libvfit-int.a) still
# has them global.  The tool links the installed library alone, so the
# host code uses the API only.  Results that decide trust must be used.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
. tests/lib.sh
BUILD=${BUILD:-build}
for f in libvfit.a libvfit-int.a; do
	[ -f "$BUILD/$f" ] || { fail "no $BUILD/$f: run make"; finish; exit $?; }
done

sed -n 's/^\(vfit_[A-Za-z0-9_]*\).*/\1/p' lib/api.list | sort >"$T/api"
nm -g --defined-only "$BUILD/libvfit.a" | awk 'NF == 3 { print $3 }' | sort >"$T/exported"
nm -g --defined-only "$BUILD/libvfit-int.a" | awk 'NF == 3 { print $3 }' | sort -u >"$T/int"
is "lib/api.list names each symbol once" \
	"$(wc -l <"$T/api")" "$(sort -u "$T/api" | wc -l)"
if cmp -s "$T/api" "$T/exported"; then
	pass
else
	fail "libvfit.a exports other symbols than lib/api.list (< list only, > exported only):"
	diff "$T/api" "$T/exported" | grep '^[<>]' | sed 's/^/    /'
fi
# Every documented symbol is declared in a public header (stamped names by their base).
undeclared=
for s in $(cat "$T/api"); do
	grep -qw "${s%%_abi_*}" include/vfit/*.h || undeclared="$undeclared $s"
done
is "every API symbol is declared in include/vfit/" "" "$undeclared"
# The internals are in the archive, local.
comm -23 "$T/int" "$T/api" >"$T/internal"
# One prefix for every global of lib/, and internals marked as libfdt marks
# them (a trailing underscore): a firmware that compiles lib/ through lib.mk
# or CMake links every object as it is, so nothing else may be global.
is "every global of lib/ is vfit_-prefixed; every internal one ends in _" "" \
	"$(grep -v '^vfit_[A-Za-z0-9_]*_$' "$T/internal" | tr '\n' ' ')"
is "no API symbol ends in _ (the internals' mark)" "" \
	"$(grep '_$' "$T/api" | tr '\n' ' ')"
n_int=$(wc -l <"$T/internal")
nm --defined-only "$BUILD/libvfit.a" | awk 'NF == 3 && $2 ~ /^[tTdDrRbB]$/ { print $3 }' |
	sort -u >"$T/all"
is "every internal function of libvfit-int.a is in libvfit.a, local" "$n_int" \
	"$(comm -12 "$T/internal" "$T/all" | wc -l)"
is "internal functions exist (vfit_sigs_, vfit_boot_walk_, vfit_ec_add_ ...)" 3 \
	"$(grep -cxE 'vfit_sigs_|vfit_boot_walk_|vfit_ec_add_' "$T/internal")"
echo "exported: $(wc -l <"$T/exported"), internal (local): $n_int"
# The host libraries need nothing else of lib/: the tool links the installed archive.
nm -u "$BUILD/libvfit-host.a" "$BUILD/libvfit-sim.a" | awk '$2 ~ /^vfit_/ { print $2 }' |
	sort -u >"$T/host-undef"
nm -g --defined-only "$BUILD/libvfit-host.a" "$BUILD/libvfit-sim.a" |
	awk 'NF == 3 { print $3 }' | sort -u >"$T/host-def"
is "the host libraries call lib/ through the API only" "" \
	"$(comm -23 "$T/host-undef" "$T/host-def" | comm -23 - "$T/exported" | tr '\n' ' ')"
# Results that decide trust carry VFIT_MUST_CHECK: dropping one does not compile.
printf '#include "vfit/fit.h"\nvoid f(const void *p);\nvoid f(const void *p) { %s; }\n' \
	'vfit_fit_check(p, 64, 0, NULL)' >"$T/drop.c"
status 1 "a dropped vfit_fit_check() result is an error under -Werror" \
	cc -std=c11 -Wall -Werror -Iinclude -c -o "$T/drop.o" "$T/drop.c"
contains "it says why" "$T/.out" "ignoring return value of .vfit_fit_check."
printf '#include "vfit/fit.h"\nint f(const void *p);\nint f(const void *p) { return %s; }\n' \
	'vfit_fit_check(p, 64, 0, NULL)' >"$T/use.c"
ok "a checked one compiles" cc -std=c11 -Wall -Werror -Iinclude -c -o "$T/use.o" "$T/use.c"
finish
