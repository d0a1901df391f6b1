#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# host/ has a folder per job and each keeps its internals to itself
# (docs/architecture.md): a file of host/ includes the public headers
# ("vfit/...", "vfit-host/...") and, by its bare name, a header of its own
# folder, never a path into another folder; a folder holds at most one
# header, named FOLDER_int.h, and no file lies outside the folders.  cli/ includes only the public headers and
# its own.  (The link-level side, no cycle between host's folders, is
# tests/build/cycles.sh.)  The check runs first on a tree made here that
# breaks each rule, so it cannot pass by finding nothing.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
. tests/lib.sh

# One line per breach in the tree at $1 (host/ and cli/ under it).
breaches() { # root
	(
		cd "$1" || exit 2
		for d in host/*/; do
			d=${d%/}
			for h in "$d"/*.h; do
				[ -e "$h" ] || continue
				[ "$h" = "$d/${d##*/}_int.h" ] || echo "$h: a folder's one header is ${d##*/}_int.h"
			done
		done
		for f in host/*/*.[ch] cli/*.[ch]; do
			[ -e "$f" ] || continue
			sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
				while read -r inc; do
					case $inc in
					vfit/*.h | vfit-host/*.h) [ -e "$ROOT/include/$inc" ] ||
						echo "$f: $inc is not in include/" ;;
					*/*) echo "$f: $inc reaches into another folder" ;;
					*) [ -e "${f%/*}/$inc" ] || echo "$f: $inc is not in ${f%/*}" ;;
					esac
				done
		done
	)
}

# A tree that breaks each rule once, then the same tree mended.
mkdir -p "$T/tree/host/a" "$T/tree/host/b" "$T/tree/cli"
printf '#include "vfit-host/io.h"\n#include "a_int.h"\n#include "../b/b_int.h"\n' >"$T/tree/host/a/x.c"
printf '#include "vfit/fit.h"\n' >"$T/tree/host/a/a_int.h"
printf '\n' >"$T/tree/host/b/b_int.h"
printf '\n' >"$T/tree/host/b/extra.h"
printf '#include "cli.h"\n#include "../host/a/a_int.h"\n' >"$T/tree/cli/x.c"
printf '\n' >"$T/tree/cli/cli.h"
is "a made tree's breaches are found, each once" \
	"cli/x.c: ../host/a/a_int.h reaches into another folder
host/a/x.c: ../b/b_int.h reaches into another folder
host/b/extra.h: a folder's one header is b_int.h" "$(breaches "$T/tree" | sort)"
sed -i '/\.\.\//d' "$T/tree/host/a/x.c" "$T/tree/cli/x.c"
rm "$T/tree/host/b/extra.h"
is "and none once it is mended" "" "$(breaches "$T/tree")"

found=$(breaches "$ROOT")
if [ -n "$found" ]; then
	fail "host/ or cli/ includes another folder's internals:"
	echo "$found" | sed 's/^/    /'
else
	pass
fi
is "no file left at host/'s top, outside the folders" "" "$(find host -maxdepth 1 -type f)"
finish
