#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# make install and make uninstall as a packager uses them, from $BUILD (no
# rebuild): DESTDIR, PREFIX, a multiarch LIBDIR and UBOOT_TOOLS_NAMES=1 put
# exactly the expected files in place (the tool, its names in BINDIR and in
# the masquerade directory, relative links, the man pages under every name,
# headers, libraries, a vfit.pc that builds a program); every page renders
# under every name; make uninstall then leaves DESTDIR empty.  A tool name
# in BINDIR that is not vfit's link stays; PREFIX alone places everything
# under it.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
. tests/lib.sh
. tests/build/lib/pkg.sh
need pkg-config man

MA=x86_64-linux-gnu
D=$T/dest
tools="mkimage dumpimage mkenvimage fit_check_sign fit_info preload_check_sign"
# page NAME: the page that documents tool NAME
page() { case $1 in mkimage | preload_check_sign) echo vfit ;; *) echo vfit-uboot-tools ;; esac; }
mk() { make -s --no-print-directory -C "$ROOT" BUILD="$BUILD" "$@"; }
DIRS="DESTDIR=$D PREFIX=/usr LIBDIR=/usr/lib/$MA"

# shellcheck disable=SC2086
ok "make install $DIRS UBOOT_TOOLS_NAMES=1" mk $DIRS UBOOT_TOOLS_NAMES=1 install
want=$( {
	echo /usr/bin/vfit
	for t in $tools; do
		echo "/usr/bin/$t"
		echo "/usr/share/man/man1/$t.1"
		echo "/usr/lib/vfit/bin/$t"
		echo "/usr/lib/vfit/man/man1/$t.1"
	done
	for p in man/*.1; do echo "/usr/share/man/man1/${p#man/}"; done
	for h in include/vfit/*.h include/vfit-host/*.h; do echo "/usr/$h"; done
	for l in libvfit.a libvfit-host.a libvfit-sim.a pkgconfig/vfit.pc; do echo "/usr/lib/$MA/$l"; done
} | sort)
is "exactly the expected files" "$want" "$(cd "$D" && find . ! -type d | sed 's/^\.//' | sort)"
for t in $tools; do
	is "BINDIR/$t -> vfit" vfit "$(readlink "$D/usr/bin/$t")"
	is "masquerade $t -> ../../../bin/vfit" ../../../bin/vfit "$(readlink "$D/usr/lib/vfit/bin/$t")"
	"$D/usr/lib/vfit/bin/$t" -h >"$T/h" 2>&1
	contains "masquerade $t runs as $t" "$T/h" "^usage: (vfit )?$t "
	is "man1/$t.1 -> $(page "$t").1" "$(page "$t").1" "$(readlink "$D/usr/share/man/man1/$t.1")"
	is "masquerade man1/$t.1 -> its page" "../../../../share/man/man1/$(page "$t").1" \
		"$(readlink "$D/usr/lib/vfit/man/man1/$t.1")"
	man_check "$t" "$D/usr/share/man/man1/$t.1" "$t"
	man_check "masquerade $t" "$D/usr/lib/vfit/man/man1/$t.1" "$t"
done
for p in man/*.1; do
	n=${p#man/}
	man_check "${n%.1}" "$D/usr/share/man/man1/$n" "${n%.1}"
done
contains "vfit.pc: the multiarch libdir" "$D/usr/lib/$MA/pkgconfig/vfit.pc" "^libdir=/usr/lib/$MA$"
contains "vfit.pc: the version" "$D/usr/lib/$MA/pkgconfig/vfit.pc" "^Version: $VERSION$"
dev_check "installed libvfit" "$D/usr/lib/$MA/pkgconfig" "$D"

# shellcheck disable=SC2086
ok "make uninstall $DIRS" mk $DIRS uninstall
is "DESTDIR is empty again" "" "$(find "$D" -mindepth 1)"
ok "DESTDIR itself stays" test -d "$D"

# Someone else's mkimage in BINDIR (not vfit's link) survives uninstall.
# shellcheck disable=SC2086
ok "make install (no tool names in BINDIR)" mk $DIRS install
ok "plain install: no tool name in BINDIR" test ! -e "$D/usr/bin/mkimage"
printf '#!/bin/sh\n' >"$D/usr/bin/mkimage"
ln -s /usr/bin/other "$D/usr/bin/dumpimage"
# ... and a tool-name install over it is refused, not replaced.
# shellcheck disable=SC2086
status 2 "UBOOT_TOOLS_NAMES=1 over a foreign mkimage: refused" mk $DIRS UBOOT_TOOLS_NAMES=1 install
contains "the file named" "$T/.out" "make install: $D/usr/bin/mkimage is not vfit's: left alone"
is "the foreign mkimage kept" "#!/bin/sh" "$(cat "$D/usr/bin/mkimage")"
# shellcheck disable=SC2086
ok "make uninstall" mk $DIRS uninstall
is "only the foreign names are left" "./usr/bin/dumpimage ./usr/bin/mkimage" \
	"$(cd "$D" && find . ! -type d | sort | paste -sd' ')"

# PREFIX alone: every directory under it, links still relative.
ok "make install PREFIX=/opt/vfit" mk DESTDIR="$T/opt" PREFIX=/opt/vfit install
ok "the tool in PREFIX/bin" test -x "$T/opt/opt/vfit/bin/vfit"
ok "libvfit.a in PREFIX/lib" test -s "$T/opt/opt/vfit/lib/libvfit.a"
is "the masquerade mkimage in PREFIX/lib/vfit/bin" ../../../bin/vfit \
	"$(readlink "$T/opt/opt/vfit/lib/vfit/bin/mkimage")"
contains "vfit.pc: prefix" "$T/opt/opt/vfit/lib/pkgconfig/vfit.pc" "^prefix=/opt/vfit$"
finish
