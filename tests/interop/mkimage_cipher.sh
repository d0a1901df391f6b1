#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# FIT encryption against U-Boot's own tools, both ways:
#   - Debian's mkimage (2023.01) and vfit mkimage, with IV files, give the
#     same FIT byte for byte and the same -K key nodes; the FITs Debian's
#     mkimage encrypts decrypt in vfit to the original payloads;
#   - U-Boot HEAD's mkimage (random IV in the FIT, -E) encrypts, vfit
#     verify --decrypt gives the payloads back byte for byte; HEAD's
#     fit_check_sign (which decrypts on the host) accepts what vfit makes,
#     and the trees match HEAD's apart from the random IVs and ciphertexts.
# The HEAD tools are anchors: without them that half is a counted skip.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/fixtures.sh"
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000
need dtc fdtget mkimage
anchors

random kernel.bin 70000
random fdt.bin 4096
random rd.bin 3001
cipher_keys iv1 iv2
printf '/dts-v1/; / { model = "ctl"; };' | dtc -I dts -O dtb -o ctl0.dtb

# its IVHINT1 IVHINT2 IVHINT3: three images, one per key size.  conf-2 is
# for HEAD's fit_check_sign, whose host loading (after the checks) fails on
# a device tree or ramdisk of any FIT, but loads and decrypts a kernel.
its() {
	cipher_kernel_its "cipher interop" aes256 k256 "$1"
	cat <<EOT
		fdt {
			data = /incbin/("fdt.bin");
			type = "flat_dt"; arch = "arm64"; compression = "none";
			hash-1 { algo = "sha1"; };
			cipher { algo = "aes128"; key-name-hint = "k128"; $2 };
		};
		fw {
			data = /incbin/("rd.bin");
			type = "firmware"; arch = "arm64"; os = "u-boot"; compression = "none";
			load = <0x48000000>;
			hash-1 { algo = "sha256"; };
			cipher { algo = "aes192"; key-name-hint = "k192"; $3 };
		};
	};
	configurations {
		default = "conf-1";
		conf-1 {
			kernel = "kernel"; fdt = "fdt"; loadables = "fw";
			signature-1 { algo = "sha256,rsa2048"; key-name-hint = "dev"; sign-images = "kernel", "fdt", "loadables"; };
		};
		conf-2 {
			kernel = "kernel";
			signature-1 { algo = "sha256,rsa2048"; key-name-hint = "dev"; };
		};
	};
};
EOT
}
its 'iv-name-hint = "iv1";' 'iv-name-hint = "iv2";' 'iv-name-hint = "iv1";' > files.its
its "" 'iv-name-hint = "iv2";' "" > random.its

# decrypts NAME FIT CTL: vfit verify --decrypt gives back the three payloads.
decrypts() {
	rm -rf out && mkdir out
	ok "$1: vfit verify --decrypt" "$VFIT" verify -f "$2" -k "$3" --decrypt "$3" -o out
	same "$1: kernel" kernel.bin out/kernel
	same "$1: fdt" fdt.bin out/fdt
	same "$1: firmware" rd.bin out/fw
}

# ---- Debian's mkimage (u-boot-tools 2023.01)
cp ctl0.dtb d.dtb
cp ctl0.dtb v.dtb
ok "debian mkimage encrypts" mkimage -f files.its -k keys -K d.dtb -r d.fit
ok "vfit mkimage encrypts" "$VFIT" mkimage -f files.its -k keys -K v.dtb -r v.fit
# The signer's name differs in signed FITs: byte for byte without signatures.
grep -v signature-1 files.its > nosig.its
ok "debian mkimage encrypts, unsigned" mkimage -f nosig.its -k keys -K d.dtb dn.fit
ok "vfit mkimage encrypts, unsigned" "$VFIT" mkimage -f nosig.its -k keys -K v.dtb vn.fit
same "IV files: the same FIT byte for byte" dn.fit vn.fit
tree() { dtc -I dtb -O dts "$1" 2>/dev/null | grep -Ev "signer-(name|version) = "; }
tree d.fit > d.fit.dts
tree v.fit > v.fit.dts
same "signed: the same tree" d.fit.dts v.fit.dts
to_dts "debian -K" d.dtb d.dts
to_dts "vfit -K" v.dtb v.dts
same "the same key nodes" d.dts v.dts
decrypts "debian's FIT" d.fit d.dtb
rm -rf out && mkdir out
ok "debian -E" mkimage -E -f files.its -k keys -K d.dtb -r de.fit
decrypts "debian's -E FIT" de.fit d.dtb
# 2023.01 does not store a random IV anywhere without -K and garbles the
# key node name with -K (fixed in HEAD), so random IVs are HEAD's part.

# ---- U-Boot HEAD's tools
H=$HEAD_MKIMAGE FCS=$HEAD_CHECK
if [ -z "$H" ] || [ -z "$FCS" ]; then
	skip anchor "U-Boot HEAD's mkimage and fit_check_sign not found (set MKIMAGE_HEAD, FIT_CHECK_SIGN_HEAD)"
	finish
	exit $?
fi
# tree FIT: dtc source without what differs by nature or by tool (random
# IVs and the ciphertexts made with them, signature values and signer).
tree() {
	dtc -I dtb -O dts "$1" 2>/dev/null | awk '
		/^[\t ]*(iv|value|signer-version|signer-name|creator) = / { next }
		/^[\t ]*data = / && !keep { next }
		{ print }'
}
for it in files random; do
	for ext in "" -E; do
		n="HEAD $it${ext:+ $ext}"
		cp ctl0.dtb h.dtb
		cp ctl0.dtb w.dtb
		ok "$n: HEAD mkimage encrypts" "$H" $ext -f $it.its -k keys -K h.dtb -r h.fit
		decrypts "$n" h.fit h.dtb
		ok "$n: vfit mkimage encrypts" "$VFIT" mkimage $ext -f $it.its -k keys -K w.dtb -r w.fit
		"$FCS" -f w.fit -k w.dtb -c conf-2 > fcs.out 2>&1
		status 0 "$n: HEAD fit_check_sign accepts vfit's" test $? = 0
		contains "$n: and decrypts it" fcs.out "Decrypting Data"
		status 1 "$n: without a decryption error" grep -q "^Error" fcs.out
		tree h.fit > h.dts
		tree w.fit > w.dts
		same "$n: same tree (IVs, ciphertext, signatures aside)" h.dts w.dts
		to_dts "$n: HEAD -K" h.dtb hk.dts
		to_dts "$n: vfit -K" w.dtb wk.dts
		same "$n: same key nodes" hk.dts wk.dts
		is "$n: random IV in the FIT" "$(fdtget h.fit /images/kernel/cipher iv >/dev/null 2>&1 && echo y)" \
			"$(fdtget w.fit /images/kernel/cipher iv >/dev/null 2>&1 && echo y)"
	done
done
# A FIT HEAD encrypts and vfit re-signs with -F: never encrypted twice.
cp ctl0.dtb h.dtb
ok "HEAD encrypts for -F" "$H" -f random.its -k keys -K h.dtb -r h.fit
ok "vfit -F on HEAD's FIT" "$VFIT" mkimage -F h.fit -k keys -K h.dtb -r
decrypts "vfit -F of HEAD's FIT" h.fit h.dtb
ok "HEAD fit_check_sign after vfit -F" "$FCS" -f h.fit -k h.dtb -c conf-2
finish
