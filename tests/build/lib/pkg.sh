# SPDX-License-Identifier: BSD-3-Clause
# Helpers of tests/build's packaging checks (deb.sh, install.sh, yocto.sh,
# buildroot.sh), sourced after tests/lib.sh.
#   tree_copy DEST        DEST gets the working tree as a commit of it would
#                         hold it: tracked and untracked files .gitignore does
#                         not exclude (no build/, no debian/ build output), so
#                         a build in DEST starts as from a clean checkout.
#   dev_check NAME PCDIR SYSROOT  a program built with pkg-config's flags for
#                         vfit.pc in PCDIR (paths under SYSROOT) prints
#                         vfit_version() equal to the tree's version
#   man_check NAME PAGE WORD      man -l renders PAGE without a warning, and
#                         the text names WORD (a tool name or the page's own)
#   VERSION               the tree's version, from include/vfit/vfit.h
VERSION=$(sed -n 's/^#define VFIT_VERSION_\(MAJOR\|MINOR\|PATCH\) //p' \
	"$ROOT/include/vfit/vfit.h" | paste -sd.)

tree_copy() {
	mkdir -p "$1" &&
		git -C "$ROOT" ls-files -z --cached --others --exclude-standard --deduplicate |
		(cd "$ROOT" && xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) |
		tar -C "$ROOT" --null -T - -cf - | tar -C "$1" -xf -
}

dev_check() {
	printf '#include <stdio.h>\n#include <vfit/vfit.h>\nint main(void)\n{\n%s\n%s\n}\n' \
		'	unsigned v = vfit_version();' \
		'	return printf("%u.%u.%u\n", v >> 16, (v >> 8) & 255, v & 255) < 0;' >"$T/dev.c"
	_flags=$(PKG_CONFIG_LIBDIR=$2 PKG_CONFIG_SYSROOT_DIR=$3 pkg-config --cflags --libs vfit)
	# shellcheck disable=SC2086
	if ! cc -o "$T/dev" "$T/dev.c" $_flags >"$T/.out" 2>&1; then
		fail "$1: cc with pkg-config's flags ($_flags)"
		sed 's/^/    /' "$T/.out" | tail -n 5
		return
	fi
	is "$1: a program linked with it prints vfit_version()" "$VERSION" "$("$T/dev")"
}

man_check() {
	MANWIDTH=80 man --warnings -l "$2" >"$T/man.txt" 2>"$T/man.err"
	_rc=$?
	is "$1: man -l $(basename "$2") exits 0 without a warning" "0:" "$_rc:$(cat "$T/man.err")"
	contains "$1: the rendered page names $3" "$T/man.txt" "$3"
}
