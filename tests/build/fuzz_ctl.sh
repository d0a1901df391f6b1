#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tests/fuzz/fuzz_ctl.h is generated (tests/fuzz/gen_ctl.sh) from the
# control DTB sources in tests/fuzz/ctl/: regenerated here, it must be the
# header in the tree byte for byte, and hold the DTBs dtc makes.
. "$(dirname "$0")/../lib.sh"

ok "gen_ctl.sh runs" sh "$ROOT/tests/fuzz/gen_ctl.sh" "$T/fuzz_ctl.h"
ok "fuzz_ctl.h is what gen_ctl.sh writes (rerun it after editing tests/fuzz/ctl/)" \
	cmp "$T/fuzz_ctl.h" "$ROOT/tests/fuzz/fuzz_ctl.h"
for n in conf image both none ecdsa256 ecdsa384; do
	ok "dtc compiles ctl/$n.dts" dtc -I dts -O dtb -o "$T/$n.dtb" "$ROOT/tests/fuzz/ctl/$n.dts"
	is "ctl_$n holds the DTB of ctl/$n.dts" "$(wc -c < "$T/$n.dtb")" \
		"$(sed -n "s/^static const uint8_t ctl_$n\[\([0-9]*\)\].*/\1/p" "$ROOT/tests/fuzz/fuzz_ctl.h")"
done
finish
