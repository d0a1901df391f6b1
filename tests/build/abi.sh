#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Every entry point that takes a struct sized by an [ABI] knob
# (include/vfit/config.h) must refuse to link an application built with
# other knob values than the library: each one is called from a tiny
# application built with each knob changed in turn and linked against the
# default $BUILD/libvfit.a (the link must fail, naming the stamped symbol),
# then with the default knobs (the link must succeed).  So must an
# application built against older headers (an older VFIT_ABI_GEN: 0.1's
# crypto ops took no backend) and one built with VFIT_CRYPTO_TABLE=0,
# whose vfit_verify() is a function of its own.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
. tests/lib.sh
BUILD=${BUILD:-build}
lib=$BUILD/libvfit.a
[ -f "$lib" ] || { fail "no $lib: run make"; finish; exit $?; }

# One call per entry point; ENTRY picks it.  Nothing runs: only the link matters.
cat >"$T/app.c" <<'C'
#include <stdlib.h>
#include "vfit/boot.h"
#include "vfit/fit.h"

static struct vfit_boot_scratch scratch;
static struct vfit_verify_result res;
static struct vfit_conf_refs refs;
static struct vfit_node_list list;

int main(int argc, char **argv)
{
	struct vfit_boot_report rep;
	const void *fit[1] = { argv[0] };
	size_t len[1] = { 1 };

	if (argc < 99)
		return 0;
	vfit_boot_report_init(&rep, NULL, 0);
	switch (ENTRY) {
	case 1: return vfit_verify(argv[0], 1, argv[0], 1, NULL, 0, &res);
#if VFIT_CRYPTO_TABLE
	case 2: return vfit_verify_with(&vfit_crypto_portable, argv[0], 1, argv[0], 1, NULL, 0, &res);
#endif
	case 3: return vfit_conf_refs(argv[0], 0, &refs, NULL);
	case 4: return vfit_conf_list(argv[0], 0, &refs, &list, NULL);
	case 5: return vfit_boot(NULL, NULL, &scratch, &rep);
	case 6: return vfit_boot_mark_good(NULL, NULL, &scratch, &rep);
	case 8: return vfit_boot_recover(NULL, NULL, &scratch, &rep);
	default: return vfit_boot_update(NULL, NULL, &scratch, &rep, fit, len, 1);
	}
}
C
entries="1:vfit_verify_with 2:vfit_verify_with 3:vfit_conf_refs 4:vfit_conf_list 5:vfit_boot
6:vfit_boot_mark_good 7:vfit_boot_update 8:vfit_boot_recover"
knobs="-DVFIT_MAX_IMAGES=4 -DVFIT_MAX_CHECKS=8 -DVFIT_REPORT=0 -DVFIT_MAX_CONF_REFS=8"

link() { # output entry knob-flags...
	o=$1 e=$2
	shift 2
	cc -std=c11 -Iinclude -DENTRY="$e" "$@" -o "$T/$o" "$T/app.c" "$lib" -lfdt
}

for spec in $entries; do
	e=${spec%%:*} sym=${spec#*:}
	for k in $knobs; do
		status 1 "entry $e ($sym) with $k must not link" link "app$e" "$e" "$k"
		contains "entry $e with $k: the link names $sym's stamp" "$T/.out" \
			"undefined reference to .${sym}_abi_"
	done
	ok "entry $e ($sym) with the library's knobs links" link "app$e" "$e"
done

# 0.1's application object: the stamp without a generation, and its backend's ops
# without the table argument (a link would hand the library the wrong function types).
cat >"$T/old.c" <<'C'
#include <stddef.h>
struct old_crypto { void *hash_init, *hash_update, *hash_final, *sig_verify; };
extern const struct old_crypto vfit_crypto_default;
int vfit_verify_with_abi_16_48_1_32(const struct old_crypto *cr, const void *fit, size_t len,
				    const void *ctl, size_t ctl_len, const char *conf,
				    unsigned int flags, void *res);
int main(int argc, char **argv)
{
	return argc < 99 ? 0 : vfit_verify_with_abi_16_48_1_32(&vfit_crypto_default, argv[0], 1,
							       argv[0], 1, NULL, 0, argv[1]);
}
C
status 1 "an application built against 0.1's headers does not link" \
	cc -std=c11 -o "$T/old" "$T/old.c" "$lib" -lfdt
contains "its link names 0.1's stamp" "$T/.out" "undefined reference to .vfit_verify_with_abi_16_48_1_32"
status 1 "entry 1 (vfit_verify) built with VFIT_CRYPTO_TABLE=0 does not link" \
	link app1 1 -DVFIT_CRYPTO_TABLE=0
contains "its link names the stamped vfit_verify" "$T/.out" "undefined reference to .vfit_verify_abi_2_"
finish
