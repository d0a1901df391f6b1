#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# `make` never installs anything: with apt-get, apt, dpkg-query and sudo
# all failing (and logging that they were called) ahead on PATH, a plain
# `make` in a fresh BUILD directory still builds the tool and the library
# from what is installed, calls none of them, and the tool needs neither
# zlib nor liblz4 (only tests and benches do), nor a TPM stack: with
# pkg-config knowing no tpm2-tss, everything builds, and the tool needs
# libcrypto, libfdt and libc alone.  Without OpenSSL's pkg-config files, or
# without a compiler, `make` stops before compiling and names what is
# missing.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
. tests/lib.sh
need readelf

fake=$T/bin
mkdir -p "$fake"
for t in apt-get apt dpkg-query sudo; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/called"\nexit 100\n' "$t" "$T" >"$fake/$t"
	chmod +x "$fake/$t"
done
# pkg-config without some packages' files: $1 is a case pattern of the missing ones.
hide() {
	printf '#!/bin/sh\nfor a; do case $a in %s) exit 1 ;; esac; done\nexec %s "$@"\n' \
		"$1" "$(command -v pkg-config)" >"$fake/pkg-config"
	chmod +x "$fake/pkg-config"
}
# -O0: what is checked here is what make runs, not the code.
hide 'tss2-*'
ok "make without apt-get or tpm2-tss builds the tool and every library" \
	env PATH="$fake:$PATH" make -j2 BUILD="$T/b" OPT=-O0 all
rm "$fake/pkg-config"
is "nothing tried to install" "" "$(cat "$T/called" 2>/dev/null)"
status 0 "build/vfit runs" "$T/b/vfit" --version
ok "libvfit.a built" test -s "$T/b/libvfit.a"
is "the tool links libc, libcrypto and libfdt alone (no libssl, zlib, liblz4, tss2)" \
	"libc.so.6 libcrypto.so.3 libfdt.so.1" \
	"$(readelf -d "$T/b/vfit" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | sort | paste -sd' ')"

# No OpenSSL development files: pkg-config does not know libssl.
hide 'libcrypto'
status 2 "make without OpenSSL stops" env PATH="$fake:$PATH" make BUILD="$T/c" "$T/c/vfit"
contains "it names OpenSSL and its package" "$T/.out" "OpenSSL 3.*libssl-dev"
is "and compiled nothing" "" "$(find "$T/c" -name '*.o' 2>/dev/null)"
rm "$fake/pkg-config"
status 2 "make without a compiler stops" env PATH="$fake:$PATH" make BUILD="$T/d" \
	CC=no-such-cc "$T/d/libvfit.a"
contains "it names the compiler" "$T/.out" "a working C compiler \('no-such-cc'\)"
is "still nothing tried to install" "" "$(cat "$T/called" 2>/dev/null)"
finish
