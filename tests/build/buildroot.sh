#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The Buildroot host package (BR2_EXTERNAL tree buildroot/), checked without
# Buildroot: GNU make reads buildroot/package/vfit/vfit.mk itself, beside a
# stand-in for what Buildroot defines around it (HOST_DIR, HOST_MAKE_ENV,
# HOST_CONFIGURE_OPTS with host CFLAGS/LDFLAGS, and host-generic-package as
# rules whose directory $(@D) is the package's copy of the source, as the
# local site method rsyncs it); the package's HOST_VFIT_BUILD_CMDS and
# HOST_VFIT_INSTALL_CMDS run as written and the tree in HOST_DIR is checked.
# What is not checked here: Buildroot's Kconfig, its download and
# dependency handling, and a target package (there is none).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
. tests/lib.sh
. tests/build/lib/pkg.sh
need git pkg-config
P=buildroot/package/vfit
is "VFIT_VERSION is the tree's version" "$VERSION" \
	"$(sed -n 's/^VFIT_VERSION = //p' "$P/vfit.mk")"
contains "Config.in.host: BR2_PACKAGE_HOST_VFIT" "$P/Config.in.host" \
	"^config BR2_PACKAGE_HOST_VFIT$"
contains "external.desc names the tree VFIT" buildroot/external.desc "^name: VFIT$"

H=$T/host
# The machine's OpenSSL and libfdt stand in for host-openssl and host-dtc.
PC=$H/lib/pkgconfig:$(pkg-config --variable pc_path pkg-config)
BD=$T/build/host-vfit-$VERSION
ok "the local site's copy of the source" tree_copy "$BD"
# rsync copies a developer's build/ too: it must not be what gets installed.
mkdir -p "$BD/build" && printf '#!/bin/sh\necho stale\n' >"$BD/build/vfit" && chmod +x "$BD/build/vfit"
cat >"$T/br.mk" <<EOF2
# Stand-in for Buildroot around one host package.
BR2_EXTERNAL_VFIT_PATH := $ROOT/buildroot
HOST_DIR := $H
HOST_CFLAGS := -I$H/include -O2
HOST_LDFLAGS := -L$H/lib -Wl,-rpath,$H/lib
HOST_MAKE_ENV := PATH=$H/bin:\$(PATH) PKG_CONFIG_LIBDIR=$PC
HOST_CPPFLAGS := -I$H/include
HOST_CONFIGURE_OPTS := CC="gcc" AR="ar" LD="ld" OBJCOPY="objcopy" \\
	CFLAGS="\$(HOST_CFLAGS)" CPPFLAGS="\$(HOST_CPPFLAGS)" LDFLAGS="\$(HOST_LDFLAGS)"
define host-generic-package
all: $BD/.stamp_host_installed
$BD/.stamp_built:
	\$\$(HOST_VFIT_BUILD_CMDS)
	touch \$\$@
$BD/.stamp_host_installed: $BD/.stamp_built
	\$\$(HOST_VFIT_INSTALL_CMDS)
	touch \$\$@
endef
include \$(BR2_EXTERNAL_VFIT_PATH)/external.mk
EOF2
env -i PATH="$PATH" HOME="$HOME" TMPDIR="${TMPDIR:-/tmp}" make -f "$T/br.mk" >"$T/br.log" 2>&1
rc=$?
is "HOST_VFIT_BUILD_CMDS and HOST_VFIT_INSTALL_CMDS" 0 $rc
[ $rc = 0 ] || tail -n 10 "$T/br.log" | sed 's/^/    /'
contains "HOST_CFLAGS reach the compiler" "$T/br.log" " -I$H/include -O2 .*-c -o br-build/cli/vfit.o"
contains "host-dtc's libfdt headers first" "$T/br.log" "-I$H/include -I$H/include/libfdt .*-c -o br-build/cli/vfit.o"
if grep -q -- "-Werror" "$T/br.log"; then fail "the package's build uses -Werror"; else pass; fi
ok "HOST_DIR/bin/vfit runs" "$H/bin/vfit" --version
"$H/bin/vfit" --version >"$T/v" 2>&1
contains "the one built here, not a copied build/" "$T/v" "^vfit $VERSION$"
for t in mkimage dumpimage mkenvimage fit_check_sign fit_info preload_check_sign; do
	is "HOST_DIR/lib/vfit/bin/$t -> ../../../bin/vfit" ../../../bin/vfit \
		"$(readlink "$H/lib/vfit/bin/$t")"
done
"$H/lib/vfit/bin/mkimage" -V >"$T/v" 2>&1
contains "HOST_DIR/lib/vfit/bin/mkimage runs as mkimage" "$T/v" "^mkimage version vfit $VERSION$"
ok "HOST_DIR/include/vfit/vfit.h" test -s "$H/include/vfit/vfit.h"
dev_check "HOST_DIR's libvfit" "$H/lib/pkgconfig" /
finish
