# SPDX-License-Identifier: BSD-3-Clause
SUMMARY = "Verified boot for U-Boot FIT images: sign, verify, and a drop-in mkimage"
DESCRIPTION = "vfit builds, signs and verifies U-Boot FIT images byte for byte \
as U-Boot's mkimage does, and holds the freestanding verifier library libvfit."
SECTION = "bootloaders"
LICENSE = "BSD-3-Clause"
LIC_FILES_CHKSUM = "file://LICENSE;md5=9ba0cf8a9d547a2f3fdc0a2b9d8dd6b7"

# meta-vfit lives in vfit's tree and builds that tree (three levels up);
# set EXTERNALSRC elsewhere, or replace this with SRC_URI and SRCREV, to
# build another checkout.
inherit externalsrc pkgconfig
EXTERNALSRC ?= "${@os.path.abspath(d.getVar('THISDIR') + '/../../..')}"
EXTERNALSRC_BUILD = "${WORKDIR}/build"
PV = "0.2.0"

DEPENDS = "dtc openssl"
# vfit mkimage -f compiles the .its with dtc.
RDEPENDS:${PN} = "dtc"

# The Makefile takes CC, AR, OBJCOPY, CFLAGS, CPPFLAGS and LDFLAGS from the
# environment bitbake exports, runs from the source tree with its objects in
# ${B}, and warns without failing (-Werror only under make test).
EXTRA_OEMAKE = "-C ${S} BUILD=${B} PREFIX=${prefix} BINDIR=${bindir} LIBDIR=${libdir} \
    INCLUDEDIR=${includedir} MANDIR=${mandir} MASQDIR=${libdir}/vfit V=1"

do_compile() {
	oe_runmake all
}

do_install() {
	oe_runmake install DESTDIR=${D}
}

# ${libdir}/vfit/bin: mkimage, dumpimage, ... as links to vfit (the masquerade
# directory, what classes/vfit-sign.bbclass points oe-core's signing at).
FILES:${PN} += "${libdir}/vfit/bin"
FILES:${PN}-doc += "${libdir}/vfit/man"

BBCLASSEXTEND = "native nativesdk"
