#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Conformance: FITs built and signed by Debian's mkimage (u-boot-tools
# 2023.01) verify with `vfit verify`, for every hash x RSA size, PKCS#1 v1.5
# and PSS, image and configuration signatures, embedded and external data
# (-E, -E -p, -E -B), and two required keys with required-mode any / all.
# A configuration referencing an image mkimage 2023.01 did not sign
# (ramdisk outside sign-images) is rejected, as U-Boot HEAD does.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/fixtures.sh"
cd "$T" || exit 2

# One key per size, generated once for the whole run.
for bits in 2048 3072 4096; do
	mkdir -p k$bits
	rsa_key k$bits/dev $bits
done
cp k3072/dev.key k2048/prod.key && cp k3072/dev.crt k2048/prod.crt
random kernel.bin 4000
random ramdisk.bin 1500
printf '/dts-v1/;\n/ { model = "vfit"; };\n' > base.dts
dtc -I dts -O dtb -o base.dtb base.dts
cp base.dtb fdt.dtb

# its HASH ALGO PADDING MODE [SIGN-IMAGES]: MODE conf or image.
its() {
	if [ "$4" = image ]; then
		fit_its -d conformance -H "$1" -f fdt.dtb -r ramdisk.bin -I "$2:dev" -p "$3"
	else
		fit_its -d conformance -H "$1" -f fdt.dtb -r ramdisk.bin -c "$2:dev" -p "$3" \
			-s "${5:-\"kernel\", \"fdt\", \"ramdisk\"}"
	fi
}

for h in sha1 sha256 sha384 sha512; do
	for bits in 2048 3072 4096; do
		for pad in pkcs pss; do
			p=
			[ $pad = pss ] && p=pss
			for mode in conf image; do
				n=$h-rsa$bits-$pad-$mode
				its $h "$h,rsa$bits" "$p" $mode > $n.its
				cp base.dtb $n.dtb
				for layout in "" "-E" "-E -p 0x10000" "-E -B 0x1000"; do
					# shellcheck disable=SC2086
					if ! mkimage -f $n.its -k k$bits -K $n.dtb -r $layout $n.fit \
						>mk.log 2>&1; then
						fail "mkimage $n $layout"
						continue
					fi
					is "$n $layout" OK "$(code $n.fit $n.dtb)"
				done
			done
		done
	done
done

# The U-Boot lines and the summary for one of them.
cp base.dtb c.dtb
mkimage -f sha256-rsa2048-pkcs-conf.its -k k2048 -K c.dtb -r c.fit >/dev/null
ok "verify lines" "$VFIT" verify -f c.fit -k c.dtb
"$VFIT" verify -f c.fit -k c.dtb > out.txt 2>&1
contains "config line" out.txt '^   Verifying Hash Integrity \.\.\. sha256,rsa2048:dev\+ OK$'
contains "image line" out.txt '^   Verifying Hash Integrity \.\.\. sha256\+ OK$'
contains "summary" out.txt "^Verified configuration 'conf-1': 3 images$"
"$VFIT" verify -f c.fit -k c.dtb --json > out.json
is "json images" 3 "$(jq '.images | length' out.json)"
is "json kernel size" 4000 "$(jq '.images[0].size' out.json)"
is "json load" 524288 "$(jq '.images[0].load' out.json)"
is "json signature" true "$(jq '.checks[0].ok and .checks[0].kind == "conf-signature"' out.json)"

# Two keys, both required: signed by both -> any and all verify.
fit_its -d "two keys" -n -f "" -c sha256,rsa2048:dev -c sha256,rsa3072:prod > two.its
mkdir -p k23 && cp k2048/dev.* k23/ && cp k3072/dev.key k23/prod.key && cp k3072/dev.crt k23/prod.crt
cp base.dtb two.dtb
mkimage -f two.its -k k23 -K two.dtb -r two.fit >/dev/null
is "two keys, all" OK "$(code two.fit two.dtb)"
fdtput -t s two.dtb /signature required-mode any
is "two keys, any" OK "$(code two.fit two.dtb)"
# Signed by dev only: any still verifies, all does not.
sed '/signature-2/d' two.its > one.its
mkimage -f one.its -k k23 one.fit >/dev/null
is "dev only, any" OK "$(code one.fit two.dtb)"
fdtput -t s two.dtb /signature required-mode all
# (prod's key node says sha256,rsa3072: no signature here has that algo)
is "dev only, all" KEY_ALGO "$(code one.fit two.dtb)"
status 1 "dev only, all: exit" "$VFIT" verify -f one.fit -k two.dtb
"$VFIT" verify -f one.fit -k two.dtb > out.txt 2> err.txt
contains "failed line" out.txt "^Failed to verify required signature 'key-prod'$"
contains "error line" err.txt "^vfit: one.fit: /configurations/conf-1/signature-1: value: key algorithm"

# A ramdisk outside sign-images: mkimage 2023.01 signs without it, HEAD rejects.
its sha256 sha256,rsa2048 "" conf '"kernel", "fdt"' > part.its
cp base.dtb part.dtb
mkimage -f part.its -k k2048 -K part.dtb -r part.fit >/dev/null
is "partial sign-images" REQUIRED "$(code part.fit part.dtb)"
status 1 "partial sign-images: exit" "$VFIT" verify -f part.fit -k part.dtb

finish
