################################################################################
#
# vfit
#
################################################################################

# This BR2_EXTERNAL tree lives in vfit's own tree and builds that tree.
VFIT_VERSION = 0.2.0
VFIT_SITE = $(BR2_EXTERNAL_VFIT_PATH)/..
VFIT_SITE_METHOD = local
VFIT_LICENSE = BSD-3-Clause
VFIT_LICENSE_FILES = LICENSE
HOST_VFIT_DEPENDENCIES = host-dtc host-openssl host-pkgconf

# The Makefile takes CC, CFLAGS, LDFLAGS, AR, ... from HOST_CONFIGURE_OPTS
# and warns without failing (-Werror only under make test).  host-dtc's
# headers are in HOST_DIR/include/libfdt, which HOST_CPPFLAGS lacks (else
# the build machine's libfdt.h would do); objects go to br-build, not to a
# build/ the local site's rsync may have copied from a developer's tree.
HOST_VFIT_MAKE_OPTS = $(HOST_CONFIGURE_OPTS) \
	CPPFLAGS="$(HOST_CPPFLAGS) -I$(HOST_DIR)/include/libfdt" \
	BUILD=br-build PREFIX=$(HOST_DIR) V=1

define HOST_VFIT_BUILD_CMDS
	$(HOST_MAKE_ENV) $(MAKE) -C $(@D) $(HOST_VFIT_MAKE_OPTS) all
endef

define HOST_VFIT_INSTALL_CMDS
	$(HOST_MAKE_ENV) $(MAKE) -C $(@D) $(HOST_VFIT_MAKE_OPTS) install
endef

$(eval $(host-generic-package))
