# SPDX-License-Identifier: BSD-3-Clause
# vfit-sign: oe-core's FIT signing runs vfit instead of u-boot-tools' mkimage.
# With meta-vfit in BBLAYERS, one line in local.conf:
#
#   INHERIT += "vfit-sign"
#
# kernel-fitimage.bbclass (and kernel-fit-image.bbclass, whose
# meta/lib/oe/fitimage.py runs each of these as one program path, not a
# shell word list) and uboot-sign.bbclass take their programs from the
# variables below, which uboot-config.bbclass only sets with ?=, so the
# values here win; UBOOT_MKIMAGE_DTCOPTS, SPL_MKIMAGE_DTCOPTS,
# UBOOT_MKIMAGE_SIGN_ARGS and SPL_MKIMAGE_SIGN_ARGS pass through to vfit as
# they did to mkimage.  The programs are vfit-native's masquerade links
# (recipes-devtools/vfit/vfit.bb), so vfit runs under the tool names.
VFIT_BIN = "${STAGING_LIBDIR_NATIVE}/vfit/bin"
UBOOT_MKIMAGE = "${VFIT_BIN}/mkimage"
UBOOT_MKIMAGE_SIGN = "${VFIT_BIN}/mkimage"
UBOOT_FIT_CHECK_SIGN = "${VFIT_BIN}/fit_check_sign"

# Only the recipes that sign FITs need vfit-native in their sysroot.
python () {
    for c in ('kernel-fitimage', 'kernel-fit-image', 'uboot-sign'):
        if bb.data.inherits_class(c, d):
            d.appendVar('DEPENDS', ' vfit-native')
            break
}
