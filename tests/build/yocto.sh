#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# meta-vfit, checked without bitbake (which cannot run here): the recipe's
# own do_compile and do_install bodies and EXTRA_OEMAKE, cut out of
# recipes-devtools/vfit/vfit.bb, run in a shell that holds what bitbake
# gives a -native build (native.bbclass's paths under the native sysroot,
# ${S} from EXTERNALSRC, ${B} outside it, CC/CFLAGS/LDFLAGS exported, a clean
# environment, set -e) and oe_runmake as base.bbclass runs it; the installed
# tree is checked for -native and, from the same build, for nativesdk's
# prefix.  Then classes/vfit-sign.bbclass's UBOOT_MKIMAGE,
# UBOOT_MKIMAGE_SIGN and UBOOT_FIT_CHECK_SIGN (cut out of the class) point
# into that tree once staged, and the command lines kernel-fitimage.bbclass
# and uboot-sign.bbclass run with them give Debian mkimage's bytes for the
# unsigned FIT and a signed FIT and control DTB that their check accepts.
# What is not checked here: bitbake's parsing, the target (cross) variant,
# and the class's DEPENDS (Python).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
. tests/lib.sh
. tests/build/lib/pkg.sh
need dtc
L=meta-vfit
R=$L/recipes-devtools/vfit/vfit.bb
C=$L/classes/vfit-sign.bbclass

# var FILE NAME: the value of NAME = "..." in FILE, continuation lines joined
var() {
	sed -n "/^$2 [?]*= \"/,/\"\$/p" "$1" | sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' |
		sed -n "s/^$2 [?]*= \"\(.*\)\"\$/\1/p" | tr -s ' \t' '  '
}
# task FILE NAME: the body of the shell function NAME() { ... } in FILE
task() { awk -v f="$2() {" '$0 == f { on = 1; next } on && /^}$/ { exit } on' "$1"; }

is "PV is the tree's version" "$VERSION" "$(var "$R" PV)"
is "LIC_FILES_CHKSUM is LICENSE's md5" "file://LICENSE;md5=$(md5sum <LICENSE | cut -c1-32)" \
	"$(var "$R" LIC_FILES_CHKSUM)"
is "BBCLASSEXTEND: native and nativesdk" "native nativesdk" "$(var "$R" BBCLASSEXTEND)"
ok "the layer's layer.conf names the collection" grep -q '^BBFILE_COLLECTIONS += "vfit"$' \
	"$L/conf/layer.conf"
# EXTERNALSRC ?= "${@os.path.abspath(d.getVar('THISDIR') + '/../../..')}"
up=$(sed -n "s|^EXTERNALSRC ?= .*getVar('THISDIR') + '\([./]*\)'.*|\1|p" "$R")
S=$(cd "$ROOT/$(dirname "$R")$up" && pwd)
is "EXTERNALSRC is the tree the layer lives in" "$ROOT" "$S"

# run TASK PREFIX D: the recipe's TASK with the -native variables, prefix PREFIX
run() {
	{
		echo 'set -e'
		echo "S='$S' B='$T/build' D='$3' prefix='$2'"
		echo 'bindir=$prefix/bin libdir=$prefix/lib includedir=$prefix/include'
		echo 'datadir=$prefix/share; mandir=$datadir/man'
		echo "EXTRA_OEMAKE=\"$(var "$R" EXTRA_OEMAKE)\""
		# base.bbclass: ${MAKE} ${EXTRA_OEMAKE} "$@", ${PARALLEL_MAKE} in front
		echo 'oe_runmake() { make -j2 $EXTRA_OEMAKE "$@"; }'
		echo 'mkdir -p "$B" && cd "$B"'
		task "$R" "$1"
	} >"$T/$1.sh"
	env -i PATH="$PATH" HOME="$HOME" TMPDIR="${TMPDIR:-/tmp}" CC=gcc AR=ar LD=ld OBJCOPY=objcopy \
		CFLAGS="-isystem$N/usr/include -O2 -pipe" CPPFLAGS="-isystem$N/usr/include" \
		LDFLAGS="-L$N/usr/lib -Wl,-rpath-link,$N/usr/lib -Wl,-rpath,$N/usr/lib -Wl,-O1" \
		sh "$T/$1.sh" >"$T/$1.log" 2>&1
}
# ran NAME TASK PREFIX D: run's exit status 0, else its log's end
ran() {
	_n=$1
	shift
	if run "$@"; then pass; else fail "$_n (exit $?)"; tail -n 5 "$T/$1.log" | sed 's/^/    /'; fi
}
N=$T/recipe-sysroot-native
SDK=/usr/local/oecore-x86_64/sysroots/x86_64-oesdk-linux/usr
ran "do_compile (-native)" do_compile "$N/usr" "$T/image"
ran "do_install (-native)" do_install "$N/usr" "$T/image"
ran "do_install (nativesdk, the same build)" do_install "$SDK" "$T/sdk"
if grep -q -- "-Werror" "$T/do_compile.log"; then
	fail "the recipe's build uses -Werror"
else
	pass
fi
contains "the recipe's CFLAGS reach the compiler" "$T/do_compile.log" \
	"-isystem$N/usr/include -O2 -pipe"

# tree ROOT PREFIX: what the recipe's FILES expect under PREFIX
tree() {
	I=$1$2
	ok "$2: bin/vfit runs" "$I/bin/vfit" --version
	for t in mkimage dumpimage mkenvimage fit_check_sign fit_info preload_check_sign; do
		is "$2: lib/vfit/bin/$t -> ../../../bin/vfit" ../../../bin/vfit \
			"$(readlink "$I/lib/vfit/bin/$t")"
		ok "$2: lib/vfit/man/man1/$t.1 resolves" test -s "$I/lib/vfit/man/man1/$t.1"
	done
	ok "$2: include/vfit/vfit.h" test -s "$I/include/vfit/vfit.h"
	ok "$2: lib/libvfit.a" test -s "$I/lib/libvfit.a"
	contains "$2: lib/pkgconfig/vfit.pc" "$I/lib/pkgconfig/vfit.pc" "^libdir=$2/lib$"
	ok "$2: share/man/man1/vfit.1" test -s "$I/share/man/man1/vfit.1"
}
tree "$T/image" "$N/usr"
tree "$T/sdk" "$SDK"

# ---- the switch ---------------------------------------------------------------
# Staged into the native sysroot, as bitbake does for a recipe that DEPENDS on it.
mkdir -p "$N" && cp -a "$T/image$N/." "$N/"
STAGING_LIBDIR_NATIVE=$N/usr/lib
VFIT_BIN=$(eval "echo \"$(var "$C" VFIT_BIN)\"")
MK=$(eval "echo \"$(var "$C" UBOOT_MKIMAGE)\"")
MKS=$(eval "echo \"$(var "$C" UBOOT_MKIMAGE_SIGN)\"")
CHK=$(eval "echo \"$(var "$C" UBOOT_FIT_CHECK_SIGN)\"")
is "UBOOT_MKIMAGE is the staged mkimage" "$N/usr/lib/vfit/bin/mkimage" "$MK"
is "UBOOT_MKIMAGE_SIGN too" "$MK" "$MKS"
is "UBOOT_FIT_CHECK_SIGN is the staged fit_check_sign" "$N/usr/lib/vfit/bin/fit_check_sign" "$CHK"
[ -n "$VFIT_BIN" ] && pass || fail "VFIT_BIN empty"

mkdir -p "$T/k/keys" && cd "$T/k" || exit 2
yocto_inputs
"$MK" -V >/dev/null 2>&1 || fail "the staged mkimage does not run"
"$N/usr/bin/vfit" keygen -a rsa2048 -k keys -n dev >/dev/null || exit 2
export SOURCE_DATE_EPOCH=1700000000
# Step 7 (assemble), as oe/fitimage.py runs it: the variable as one program path.
ok "UBOOT_MKIMAGE -f fit-image.its fitImage-none" "$MK" -f fit-image.its fitImage-none
ok "Debian's mkimage, the same line" /usr/bin/mkimage -f fit-image.its debian-none
same "the unsigned fitImage, byte for byte" debian-none fitImage-none
dtcopts="-I dts -O dtb -p 2000"
ok "with UBOOT_MKIMAGE_DTCOPTS (-D)" "$MK" -D "$dtcopts" -f fit-image.its fitImage-dtc
ok "Debian's mkimage -D" /usr/bin/mkimage -D "$dtcopts" -f fit-image.its debian-dtc
same "the -D fitImage, byte for byte" debian-dtc fitImage-dtc
# uboot-sign.bbclass's concat_dtb: the key into u-boot.dtb, checked.
ok "UBOOT_MKIMAGE_SIGN -f auto-conf ... -K u-boot.dtb" "$MKS" -D "$dtcopts" -f auto-conf \
	-k keys -o sha256,rsa2048 -g dev -K u-boot.dtb -d /dev/null -r unused.itb
ok "UBOOT_FIT_CHECK_SIGN -k u-boot.dtb -f unused.itb" "$CHK" -k u-boot.dtb -f unused.itb
# Step 8 (sign): -F -k KEYDIR -r.
cp fitImage-none fitImage
ok "UBOOT_MKIMAGE_SIGN -D ... -F -k keys -r fitImage" "$MKS" -D "$dtcopts" -F -k keys -r fitImage
ok "the signed fitImage verifies with u-boot.dtb's key" "$CHK" -k u-boot.dtb -f fitImage
finish
