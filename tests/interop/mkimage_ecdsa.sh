#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# ECDSA against U-Boot's own tools.
#   Debian's mkimage 2023.01 (sha<N>,ecdsa256 only): its image and
#   configuration signatures verify in vfit; vfit gives the same tree (but
#   the signature values, which are randomized) and, where 2023.01 writes
#   a key node, the same control DTB tree; where it does not (-r, no
#   /signature) vfit writes U-Boot HEAD's node.
#   U-Boot HEAD's mkimage and fit_check_sign (tests/fixtures.sh's
#   `anchors`: $MKIMAGE_HEAD / $FIT_CHECK_SIGN_HEAD, then $VFIT_ANCHORS and
#   ../shared/anchors): HEAD
#   checks vfit's P-256 and P-384 FITs, vfit checks HEAD's, and their -K
#   -r control DTBs are the same tree.
# Each part without its tool reports itself skipped.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/fixtures.sh"
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000
MKIMAGE=${MKIMAGE:-/usr/bin/mkimage}
anchors
H=$HEAD_MKIMAGE FCS=$HEAD_CHECK

fit_inputs 5000
fit_keys ecdsa256:dev ecdsa256:img ecdsa384:big

# its CONF-ALGO CONF-KEY IMAGE-ALGO IMAGE-KEY: kernel (image signature) + fdt, conf-1
its() { fit_its -d "ecdsa interop" -c "$1:$2" -i "$3:$4"; }
# The tree without what legitimately differs: signer strings and the randomized values.
tree() { dtc -I dtb -O dts "$1" 2>/dev/null | grep -v 'signer-name\|signer-version\|value = '; }

# ---- Debian's mkimage 2023.01 ------------------------------------------------------
if "$MKIMAGE" -V 2>/dev/null | grep -q 2023.01; then
	# 2023.01 fails when a -K key node exists, so the image and the
	# configuration are signed by two keys here.
	for h in sha256 sha1 sha384 sha512; do
		its $h,ecdsa256 dev $h,ecdsa256 img > d.its
		cp empty.dtb m.dtb
		cp empty.dtb v.dtb
		"$MKIMAGE" -f d.its -k keys -K m.dtb m.fit > m.out 2>&1
		status 0 "$h: mkimage 2023.01 signs" test $? = 0
		"$VFIT" mkimage -q -f d.its -k keys -K v.dtb v.fit > v.out 2>&1
		status 0 "$h: vfit signs" test $? = 0
		tree m.fit > m.dts
		tree v.fit > v.dts
		ok "$h: same tree but the values" cmp m.dts v.dts
		tree m.dtb > m.ctl
		tree v.dtb > v.ctl
		ok "$h: control DTB: same tree (2023.01's nodes)" cmp m.ctl v.ctl
		ok "$h: vfit's DTB no larger" test "$(wc -c < v.dtb)" -le "$(wc -c < m.dtb)"
		is "$h: 2023.01's node: three properties" "ecdsa,y-point ecdsa,x-point ecdsa,curve " \
			"$(fdtget -p m.dtb /signature/dev | tr '\n' ' ')"
		# 2023.01 cannot mark an ECDSA key required: the DTB is completed
		# by hand (img stays optional: fdt-1 has no image signature)
		fdtput -t s m.dtb /signature/dev required conf
		"$VFIT" verify -f m.fit -k m.dtb > out.txt 2>&1
		status 0 "$h: vfit verifies mkimage's FIT" test $? = 0
		contains "$h: configuration line" out.txt "sha[0-9]+,ecdsa256:dev\+ OK$"
		contains "$h: image line" out.txt "sha[0-9]+,ecdsa256:img\+ sha256\+ OK$"
		is "$h: vfit's FIT with mkimage's keys" OK "$(code v.fit m.dtb)"
		"$MKIMAGE" -l v.fit > ml.txt 2>&1
		"$VFIT" mkimage -l v.fit > vl.txt 2>&1
		ok "$h: mkimage -l prints vfit's FIT as vfit does" cmp ml.txt vl.txt
	done
	# Where 2023.01 writes no node (no /signature: it fails) or ignores -r,
	# vfit writes HEAD's node.
	its sha256,ecdsa256 dev sha256,ecdsa256 img > d.its
	cp nosig.dtb m.dtb
	"$MKIMAGE" -f d.its -k keys -K m.dtb m.fit > m.out 2>&1
	is "no /signature: mkimage 2023.01 fails" 1 "$?"
	cp nosig.dtb v.dtb
	ok "no /signature: vfit creates it" "$VFIT" mkimage -q -f d.its -k keys -K v.dtb v.fit
	for k in img dev; do
		is "no /signature: HEAD's node for $k" \
			"algo ecdsa,y-point ecdsa,x-point ecdsa,curve key-name-hint " \
			"$(fdtget -p v.dtb /signature/$k | tr '\n' ' ')"
	done
	cp empty.dtb m.dtb
	cp empty.dtb v.dtb
	"$MKIMAGE" -f d.its -k keys -K m.dtb -r m.fit > /dev/null 2>&1
	ok "-r: vfit" "$VFIT" mkimage -q -f d.its -k keys -K v.dtb -r v.fit
	status 1 "-r: 2023.01 marks nothing required" fdtget m.dtb /signature/dev required
	is "-r: vfit marks the key required" conf "$(fdtget v.dtb /signature/dev required)"
	is "-r: vfit marks the image key required" image "$(fdtget v.dtb /signature/img required)"
	is "-r: so an unsigned image is refused" NO_SIGNATURE "$(code v.fit v.dtb)"
	fdtput -d v.dtb /signature/img required
	is "-r: the configuration verifies" OK "$(code v.fit v.dtb)"
else
	skip tool "$MKIMAGE is not Debian's mkimage 2023.01: its -r and ECDSA behaviour not compared"
fi

# ---- U-Boot HEAD ----------------------------------------------------------------------
if [ -n "$H" ] && [ -n "$FCS" ] && [ -x "$H" ] && [ -x "$FCS" ]; then
	for pair in sha256,ecdsa256:sha256,ecdsa256:dev sha384,ecdsa256:sha1,ecdsa256:dev \
		    sha384,ecdsa384:sha384,ecdsa384:big sha512,ecdsa384:sha256,ecdsa384:big; do
		algo=${pair%%:*} rest=${pair#*:}
		ialgo=${rest%%:*} key=${rest#*:}
		its "$algo" "$key" "$ialgo" "$key" > h.its
		cp nosig.dtb v.dtb
		cp nosig.dtb h.dtb
		ok "$algo: vfit signs" "$VFIT" mkimage -q -f h.its -k keys -K v.dtb -r v.fit
		"$FCS" -f v.fit -k v.dtb > fcs.txt 2>&1
		status 0 "$algo: HEAD's fit_check_sign accepts vfit's FIT" test $? = 0
		contains "$algo: HEAD checked the signature" fcs.txt "$algo:$key\+"
		"$H" -f h.its -k keys -K h.dtb -r h.fit > h.out 2>&1
		status 0 "$algo: HEAD signs" test $? = 0
		is "$algo: vfit verifies HEAD's FIT" OK "$(code h.fit h.dtb)"
		is "$algo: vfit verifies HEAD's FIT with vfit's DTB" OK "$(code h.fit v.dtb)"
		tree h.dtb > h.ctl
		tree v.dtb > v.ctl
		ok "$algo: -K -r: same control DTB tree as HEAD" cmp h.ctl v.ctl
		tree h.fit > h.dts
		tree v.fit > v.dts
		ok "$algo: same FIT tree but the values" cmp h.dts v.dts
		# tampered: HEAD refuses it too
		cp v.fit t.fit
		b=$(fdtget -t bx t.fit /configurations/conf-1/signature-1 value)
		fdtput -t bx t.fit /configurations/conf-1/signature-1 value \
			$(printf '%x' $(( (0x$(echo "$b" | cut -d' ' -f1) + 1) % 256 ))) \
			$(echo "$b" | cut -d' ' -f2-)
		status 1 "$algo: tampered: HEAD refuses" "$FCS" -f t.fit -k v.dtb
		is "$algo: tampered: vfit refuses" REQUIRED "$(code t.fit v.dtb)"
	done
else
	skip anchor "U-Boot HEAD's mkimage and fit_check_sign not found (set MKIMAGE_HEAD, FIT_CHECK_SIGN_HEAD): ECDSA not compared with HEAD"
fi
finish
