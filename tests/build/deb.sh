#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The Debian packages as a user gets them.  debian/ is built with
# dpkg-buildpackage -b -us -uc in a copy of the tree (what a clean checkout of
# this change holds), DEB_BUILD_OPTIONS="nocheck parallel=2": the package's
# own check is the unit layer, which make test runs anyway.  Then
#  - two .debs; the version is include/vfit/vfit.h's; the build log has no
#    compiler warning and passes blhc (dpkg-buildflags' flags on every line);
#  - lintian on the binary and the source package: no error, and every tag
#    it still prints is explained in debian/README.source;
#  - the .debs unpacked with dpkg-deb -x (never installed): exactly the
#    expected files, none at a path u-boot-tools owns; the tool links libc,
#    libcrypto and libfdt alone (no TPM stack) and passes hardening-check;
#    libvfit-dev builds a program through its vfit.pc;
#  - with PATH=usr/lib/vfit/bin:$PATH, mkimage builds a Yocto-style FIT
#    (SOURCE_DATE_EPOCH) byte-identical to Debian's mkimage, signs it so
#    that fit_check_sign accepts it, and dumpimage -l and mkenvimage give
#    Debian's bytes; man finds every tool name's page through that PATH and
#    man -l renders every page under every name.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
. tests/lib.sh
. tests/build/lib/pkg.sh
need git dpkg-buildpackage dpkg-source dh lintian blhc hardening-check man pkg-config

ARCH=$(dpkg --print-architecture)
MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
is "debian/changelog has the tree's version" "$VERSION" \
	"$(dpkg-parsechangelog -l debian/changelog -S Version)"

# ---- build ------------------------------------------------------------------
ok "a copy of the tree" tree_copy "$T/vfit"
(cd "$T" && dpkg-source -Zgzip -b vfit) >"$T/source.log" 2>&1
is "dpkg-source -b: the source package" 0 $?
# In a clean environment, as a build daemon runs it: none of make test's
# variables (BUILD, WERROR, CC, CFLAGS, ...) and no jobserver of a parent make.
(cd "$T/vfit" && env -i PATH="$PATH" HOME="$HOME" TMPDIR="${TMPDIR:-/tmp}" LC_ALL=C.UTF-8 \
	DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -b -us -uc) >"$T/build.log" 2>&1
rc=$?
is "dpkg-buildpackage -b -us -uc" 0 $rc
[ $rc = 0 ] || tail -n 20 "$T/build.log" | sed 's/^/    /'
DEB=$T/vfit_${VERSION}_$ARCH.deb
DEV=$T/libvfit-dev_${VERSION}_$ARCH.deb
ok "vfit .deb" test -s "$DEB"
ok "libvfit-dev .deb" test -s "$DEV"
is "no compiler warning in the build log" "" "$(grep -E ':[0-9]+:[0-9]+: warning:' "$T/build.log")"
ok "blhc: the hardening flags on every compile and link line" blhc "$T/build.log"

# ---- lintian ------------------------------------------------------------------
lintian -I --pedantic --color never "$T/vfit_$VERSION.dsc" "$T/vfit_${VERSION}_$ARCH.changes" \
	>"$T/lintian.txt" 2>"$T/lintian.err"
is "lintian exits 0 (--fail-on error)" 0 $?
is "lintian: no error" "" "$(grep '^E:' "$T/lintian.txt")"
for tag in $(sed -n 's/^[WIP]: [^:]*: \([^ ]*\).*/\1/p' "$T/lintian.txt" | sort -u); do
	contains "lintian's $tag is explained in debian/README.source" debian/README.source "$tag"
done

# ---- the unpacked packages ------------------------------------------------------
R=$T/root
M=$R/usr/lib/vfit/bin
ok "dpkg-deb -x vfit" dpkg-deb -x "$DEB" "$R"
ok "dpkg-deb -x libvfit-dev" dpkg-deb -x "$DEV" "$R"
tools="mkimage dumpimage mkenvimage fit_check_sign fit_info preload_check_sign"
files() { dpkg-deb -c "$1" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }' | sort; }
want=$( {
	echo /usr/bin/vfit
	for t in $tools; do echo "/usr/lib/vfit/bin/$t"; echo "/usr/lib/vfit/man/man1/$t.1.gz"; done
	for p in man/*.1; do echo "/usr/share/man/man1/${p#man/}.gz"; done
	echo /usr/share/doc/vfit/changelog.gz
	echo /usr/share/doc/vfit/copyright
	for e in signed-fit.its demo.its example.its chain/bootloader.its chain/kernel.its \
		chain/recovery.its; do
		echo "/usr/share/doc/vfit/examples/$e"
	done
} | sort)
is "vfit holds the tool, the tool names, the man pages, the .its examples" "$want" \
	"$(files "$DEB")"
want=$( {
	for h in include/vfit/*.h; do echo "/usr/$h"; done
	echo "/usr/lib/$MA/libvfit.a"
	echo "/usr/lib/$MA/pkgconfig/vfit.pc"
	echo /usr/share/doc/libvfit-dev/changelog.gz
	echo /usr/share/doc/libvfit-dev/copyright
} | sort)
is "libvfit-dev holds the headers, libvfit.a and vfit.pc" "$want" "$(files "$DEV")"
dpkg-query -L u-boot-tools >"$T/u-boot-tools.list"
ok "u-boot-tools' file list" grep -qx /usr/bin/mkimage "$T/u-boot-tools.list"
is "no path of vfit's is u-boot-tools' (both install side by side)" "" \
	"$(files "$DEB" | grep -Fx -f "$T/u-boot-tools.list")"
is "vfit neither conflicts with nor replaces anything" "" \
	"$(dpkg-deb -f "$DEB" Conflicts Breaks Replaces)"
dpkg-deb -f "$DEB" Depends >"$T/depends"
contains "vfit depends on dtc (mkimage -f runs it)" "$T/depends" "device-tree-compiler"
is "the tool links libc, libcrypto and libfdt alone" "libc.so.6 libcrypto.so.3 libfdt.so.1" \
	"$(readelf -d "$R/usr/bin/vfit" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | sort | paste -sd' ')"
is "ldd: no TPM stack" "" "$(ldd "$R/usr/bin/vfit" | grep -i tss2)"
# Bookworm's dpkg-buildflags adds no -fcf-protection, and its crt1.o has no
# IBT note, so no binary there has CFI; the other five must all be there.
ok "hardening-check (PIE, stack protector, fortify, RELRO, BIND_NOW)" \
	hardening-check --nocfprotection "$R/usr/bin/vfit"
dev_check "libvfit-dev" "$R/usr/lib/$MA/pkgconfig" "$R"

# ---- the masquerade directory against Debian's tools ------------------------------
for t in $tools; do
	is "usr/lib/vfit/bin/$t links to the tool" ../../../bin/vfit "$(readlink "$M/$t")"
	is "PATH=usr/lib/vfit/bin:\$PATH finds its $t" "$M/$t" "$(PATH=$M:$PATH command -v "$t")"
done
mkdir -p "$T/y/keys" && cd "$T/y" || exit 2
yocto_inputs
"$VFIT" keygen -a rsa2048 -k keys -n dev >/dev/null || exit 2
export SOURCE_DATE_EPOCH=1700000000
ok "Debian's mkimage -f fit-image.its" /usr/bin/mkimage -f fit-image.its debian.fit
ok "the package's mkimage -f fit-image.its" env PATH="$M:$PATH" mkimage -f fit-image.its vfit.fit
same "the FIT, byte for byte" debian.fit vfit.fit
/usr/bin/dumpimage -l debian.fit >debian.list 2>&1
PATH=$M:$PATH dumpimage -l vfit.fit >vfit.list 2>&1
same "dumpimage -l" debian.list vfit.list
ok "mkimage -F -k -K -r signs it" env PATH="$M:$PATH" mkimage -F -k keys -K u-boot.dtb -r vfit.fit
ok "fit_check_sign accepts it" env PATH="$M:$PATH" fit_check_sign -f vfit.fit -k u-boot.dtb
printf 'bootdelay=2\nbootcmd=run distro_bootcmd\nfdtfile=am335x-boneblack.dtb\n' >env.txt
/usr/bin/mkenvimage -s 16384 -o debian.env env.txt
PATH=$M:$PATH mkenvimage -s 16384 -o vfit.env env.txt
same "mkenvimage -s 16384" debian.env vfit.env
/usr/bin/mkenvimage -r -s 8192 -o debian.renv env.txt
PATH=$M:$PATH mkenvimage -r -s 8192 -o vfit.renv env.txt
same "mkenvimage -r (redundant)" debian.renv vfit.renv
cd "$ROOT" || exit 2

# ---- man pages under every name ------------------------------------------------------
for p in "$R"/usr/share/man/man1/*.1.gz; do
	n=${p##*/}
	man_check "man page" "$p" "${n%.1.gz}"
done
for t in $tools; do
	man_check "$t's page" "$R/usr/lib/vfit/man/man1/$t.1.gz" "$t"
	is "man $t with PATH=usr/lib/vfit/bin:\$PATH finds vfit's page" \
		"$(readlink -f "$R/usr/lib/vfit/man/man1/$t.1.gz")" \
		"$(env -u MANPATH PATH="$M:$PATH" man -w "$t" 2>/dev/null)"
done
# Without the directory in PATH, man mkimage is not vfit's page (u-boot-tools', if any).
ours=$(readlink -f "$R/usr/share/man/man1/vfit.1.gz")
if [ "$(env -u MANPATH man -w mkimage 2>/dev/null)" = "$ours" ]; then
	fail "man mkimage finds vfit's page without usr/lib/vfit/bin in PATH"
else
	pass
fi
finish
