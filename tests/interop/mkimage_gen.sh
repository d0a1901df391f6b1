#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit mkimage against Debian's mkimage (u-boot-tools 2023.01) on generated
# .its shapes, not only the ones we thought of (issue 34): 1-6 images of
# five types, payloads of 0 and 1 bytes, of the streaming threshold (1 MiB)
# and one byte either side, small, medium and big (up to 64 MiB, sparse
# files with random bytes at both ends and in the middle), equal sizes and
# one file in two images, images in any order, hash nodes of every
# algorithm both tools know, image and configuration signatures with -k,
# -K and -r, external data (-E with -B and -p), -F re-signing of a FIT
# built by Debian's mkimage, -f auto, and the configurations before the
# images or after them.  Each shape is built by both
# tools with SOURCE_DATE_EPOCH and the outputs compared byte for byte, but
# for what differs on purpose (README "Deliberate differences"):
#   - signer-name and signer-version name the tool: replaced by the same
#     string in both outputs (of the same padded length) before comparing;
#   - the -K control DTB grows only by what the key needs: compared as a tree;
#   - -f auto's creator names the tool (a length apart): compared as trees
#     without creator, and payloads through dumpimage -p;
#   - with the configurations first, Debian's dumpimage -l lists no default
#     configuration (it reads `default` from the node after /images); vfit's
#     lists it, as HEAD's does;
#   - -F of an external FIT imports its data as U-Boot HEAD does: the FDT's
#     padding to its aligned size is HEAD's zeros, the rest byte for byte;
#     with data-position (-p) Debian's -F fails (it imports data-offset
#     only), so vfit's FIT is only checked.
# Then each output is listed by Debian's dumpimage -l and vfit's (the same
# text for both tools' FITs), verified by vfit verify and vfit's
# fit_check_sign, and where the anchors are, by U-Boot HEAD's fit_check_sign
# and built by HEAD's mkimage too (HEAD sizes its FIT differently: compared
# through its listing and its verdicts; its -E refuses an empty image); an
# external payload with a byte changed is refused by all of them.
#
# make test runs seed 1 (VFIT_GEN_SHAPES shapes, 32 by default, at most
# VFIT_GEN_BIG MiB in payloads over 8 MiB); a long run takes a random seed:
#   VFIT_GEN_SEED=random VFIT_GEN_SHAPES=2000 sh tests/interop/mkimage_gen.sh
# Every failure names its seed and shape; VFIT_GEN_SEED=S VFIT_GEN_SHAPE=K
# replays that one shape and keeps its files (VFIT_GEN_KEEP=DIR).
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/fixtures.sh"
need dtc fdtget fdtput dumpimage
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000
MKIMAGE=${MKIMAGE:-/usr/bin/mkimage}
if ! "$MKIMAGE" -V 2>/dev/null | grep -q 'mkimage version 2023\.01'; then
	skip tool "$MKIMAGE is not Debian's mkimage 2023.01 (u-boot-tools): nothing compared"
	finish
	exit $?
fi
SEED=${VFIT_GEN_SEED:-1}
[ "$SEED" = random ] && SEED=$(($(od -An -tu4 -N4 /dev/urandom) % 2147483646 + 1))
SHAPES=${VFIT_GEN_SHAPES:-32}
ONLY=${VFIT_GEN_SHAPE:-}
BIG=$((${VFIT_GEN_BIG:-64} * 1048576))
MIN=1048576     # VFIT_PAYLOAD_MIN: payloads from this size on stay in their files
echo "generator seed $SEED, $SHAPES shapes (VFIT_GEN_SEED=$SEED VFIT_GEN_SHAPE=K replays shape K)"
anchors
H=$HEAD_MKIMAGE FCS=$HEAD_CHECK
if [ -z "$H" ] || [ -z "$FCS" ] || [ ! -x "$H" ] || [ ! -x "$FCS" ]; then
	H= FCS=
	skip anchor "U-Boot HEAD's mkimage and fit_check_sign not found: HEAD builds and checks left out"
fi
HDUMP=${ANCHORS:+$ANCHORS/u-boot-head-dumpimage}
[ -n "$H" ] && [ -x "${HDUMP:-}" ] || HDUMP=
mkdir bin keys
for t in dumpimage fit_check_sign; do ln -s "$VFIT" "bin/$t"; done
"$VFIT" keygen -a rsa2048 -k keys -n dev >/dev/null &&
	"$VFIT" keygen -a rsa2048 -k keys -n prod >/dev/null || exit 2
printf '/dts-v1/; / { model = "u-boot"; };' | dtc -I dts -O dtb -o ctl0.dtb 2>/dev/null || exit 2

# ---- the shape's random choices: MINSTD (31 bits), the same in every sh ----
rnd() {
	_x=$((_x * 48271 % 2147483647))
	R=$((_x % $1))
}
# pick WORD...: P = one of the words
pick() {
	rnd $#
	shift "$R"
	P=$1
}
# A payload size: 0, 1, the threshold and one byte either side, small,
# medium, 2-8 MiB, or (while the run's budget lasts) 16-64 MiB.
size() {
	rnd 100
	if [ "$R" -lt 5 ]; then S=0
	elif [ "$R" -lt 10 ]; then S=1
	elif [ "$R" -lt 17 ]; then S=$((MIN - 1))
	elif [ "$R" -lt 24 ]; then S=$MIN
	elif [ "$R" -lt 31 ]; then S=$((MIN + 1))
	elif [ "$R" -lt 60 ]; then rnd 5000; S=$((2 + R))
	elif [ "$R" -lt 82 ]; then rnd 600000; S=$((5000 + R))
	elif [ "$R" -lt 95 ] || [ "$BIG" -lt $((16 * MIN)) ]; then rnd $((6 * MIN)); S=$((2 * MIN + R))
	else
		rnd $((48 * MIN)); S=$((16 * MIN + R))
		[ "$S" -gt "$BIG" ] && S=$BIG
		BIG=$((BIG - S))
	fi
}
# payload FILE SIZE: random bytes; over 8 MiB a sparse file with random
# bytes at both ends and in the middle (what -E's padding may come from).
payload() {
	if [ "$2" -le $((8 * MIN)) ]; then
		random "$1" "$2"
		return
	fi
	truncate -s "$2" "$1"
	random piece 65536
	for at in 0 $(($2 / 2)) $(($2 - 65536)); do
		dd if=piece of="$1" bs=65536 seek="$at" oflag=seek_bytes conv=notrunc 2>/dev/null
	done
}
HASHES="crc32 crc16-ccitt md5 sha1 sha256 sha384 sha512"
STRONG="sha1 sha256 sha384 sha512"

# ---- one shape: shape.its (or auto's arguments), the options, the checks ----
# Globals of a shape: N images IMG_k (name), TYP_k, and what the options are.
gen_images() {
	rnd 6
	N=$((R + 1))
	SIGNED=0 IMGSIG=
	k=1
	while [ "$k" -le "$N" ]; do
		pick kernel kernel fdt ramdisk firmware fs
		eval "TYP_$k=$P IMG_$k=$P-$k"
		rnd 100
		if [ "$k" -gt 1 ] && [ "$R" -lt 8 ]; then
			eval "FILE_$k=\$FILE_$((k - 1))"      # one file in two images
		elif [ "$k" -gt 1 ] && [ "$R" -lt 20 ]; then
			eval "FILE_$k=p$k.bin"
			payload "p$k.bin" "$(wc -c < "$(eval echo "\$FILE_$((k - 1))")")"
		else
			size
			eval "FILE_$k=p$k.bin"
			payload "p$k.bin" "$S"
		fi
		k=$((k + 1))
	done
}

# The image node k, with 0-2 hash nodes (a strong one when a signed
# configuration may reference it) and sometimes an image signature.
image_node() {
	eval "t=\$TYP_$k n=\$IMG_$k f=\$FILE_$k"
	printf '\t\t%s {\n\t\t\tdescription = "%s";\n\t\t\tdata = /incbin/("%s");\n' "$n" "$n" "$f"
	case $t in
	kernel) printf '\t\t\ttype = "kernel"; arch = "arm64"; os = "linux"; compression = "none";\n\t\t\tload = <0x80000>; entry = <0x80000>;\n' ;;
	fdt) printf '\t\t\ttype = "flat_dt"; arch = "arm64"; compression = "none";\n' ;;
	ramdisk) printf '\t\t\ttype = "ramdisk"; arch = "arm64"; os = "linux"; compression = "none";\n' ;;
	firmware) printf '\t\t\ttype = "firmware"; arch = "arm64"; os = "arm-trusted-firmware"; compression = "none";\n\t\t\tload = <0x40000000>;\n' ;;
	fs) printf '\t\t\ttype = "filesystem"; arch = "arm64"; compression = "none";\n' ;;
	esac
	rnd 3
	h=$R
	[ "$KEYS" = 1 ] && [ "$h" = 0 ] && h=1
	i=1
	while [ "$i" -le "$h" ]; do
		if [ "$i" = 1 ] && [ "$KEYS" = 1 ]; then
			# shellcheck disable=SC2086
			pick $STRONG
		else
			# shellcheck disable=SC2086
			pick $HASHES
		fi
		printf '\t\t\thash-%d { algo = "%s"; };\n' "$i" "$P"
		i=$((i + 1))
	done
	rnd 10
	if [ "$KEYS" = 1 ] && [ "$R" = 0 ]; then
		printf '\t\t\tsignature-1 { algo = "%s,rsa2048"; key-name-hint = "dev"; };\n' "$DEV"
		SIGS="$SIGS /images/$n/signature-1"
	fi
	printf '\t\t};\n'
}

# The images of type $1 (names), one of them in P ("" if none).
of_type() {
	L= P=
	k=1
	while [ "$k" -le "$N" ]; do
		eval "[ \"\$TYP_$k\" = $1 ] && L=\"\$L \$IMG_$k\""
		k=$((k + 1))
	done
	# shellcheck disable=SC2086
	[ -n "$L" ] && pick $L
}

# Configuration c: one kernel, fdt and ramdisk if there are any, the
# firmware and filesystems as loadables; signed, over everything it names.
conf_node() {
	refs= list=
	printf '\t\tconf-%d {\n\t\t\tdescription = "conf %d";\n' "$c" "$c"
	for t in kernel fdt ramdisk; do
		of_type $t
		[ -n "$P" ] || continue
		printf '\t\t\t%s = "%s";\n' "$t" "$P"
		refs="$refs, \"$t\""
	done
	for t in firmware fs; do
		of_type $t
		for p in $L; do list="$list${list:+, }\"$p\""; done
	done
	if [ -n "$list" ]; then
		printf '\t\t\tloadables = %s;\n' "$list"
		refs="$refs, \"loadables\""
	fi
	# The default configuration signed by every key the shape uses (with -r
	# each is required), the others by dev and maybe prod, or not at all.
	rnd 3
	if [ "$KEYS" = 1 ] && { [ "$c" = 1 ] || [ "$R" != 0 ]; }; then
		printf '\t\t\tsignature-1 { algo = "%s,rsa2048"; key-name-hint = "dev"; sign-images = %s; };\n' "$DEV" "${refs#, }"
		SIGS="$SIGS /configurations/conf-$c/signature-1"
		rnd 2
		if [ -n "$PROD" ] && { [ "$c" = 1 ] || [ "$R" = 0 ]; }; then
			printf '\t\t\tsignature-2 { algo = "%s,rsa2048"; key-name-hint = "prod"; sign-images = %s; };\n' "$PROD" "${refs#, }"
			SIGS="$SIGS /configurations/conf-$c/signature-2"
		fi
	fi
	printf '\t\t};\n'
}

gen_its() {
	# One hash per key: the -K key node says the algo its signatures use.
	pick sha1 sha256 sha384 sha512
	DEV=$P
	pick sha1 sha256 sha384 sha512 "" "" "" ""
	PROD=$P
	gen_images
	rnd 3
	NC=$((R + 1))
	{
		printf '\timages {\n'
		k=1
		while [ "$k" -le "$N" ]; do
			image_node
			k=$((k + 1))
		done
		printf '\t};\n'
	} > images.dtsi
	{
		printf '\tconfigurations {\n\t\tdefault = "conf-1";\n'
		c=1
		while [ "$c" -le "$NC" ]; do
			conf_node
			c=$((c + 1))
		done
		printf '\t};\n'
	} > confs.dtsi
	# Sometimes the configurations first: their signatures then grow the
	# tree before the payloads.
	pick images images images images confs
	FIRST=$P
	{
		printf '/dts-v1/;\n/ {\n\tdescription = "shape %s:%s";\n\t#address-cells = <1>;\n' "$SEED" "$K"
		if [ "$FIRST" = confs ]; then cat confs.dtsi images.dtsi; else cat images.dtsi confs.dtsi; fi
		printf '};\n'
	} > shape.its
}

# -E with or without -B and -p, or embedded.
gen_ext() {
	EXT=
	rnd 3
	[ "$R" = 0 ] || return 0
	EXT=-E
	pick "" "" 8 100 1000
	[ -n "$P" ] && EXT="$EXT -B $P"
	rnd 5
	[ "$R" = 0 ] && EXT="$EXT -p 20000"
}

# -f auto: -d, 0-2 -b, sometimes -i, sometimes -E; the files sized as above.
gen_auto() {
	AUTO="-f auto -A arm64 -O linux -T kernel -C none -a 0x80000 -e 0x80000"
	N=1
	size
	payload a1.bin "$S"
	AUTO="$AUTO -d a1.bin"
	rnd 3
	b=$R
	while [ "$b" -gt 0 ]; do
		N=$((N + 1))
		size
		payload "a$N.bin" "$S"
		AUTO="$AUTO -b a$N.bin"
		b=$((b - 1))
	done
	rnd 2
	if [ "$R" = 0 ]; then
		N=$((N + 1))
		size
		payload "a$N.bin" "$S"
		AUTO="$AUTO -i a$N.bin"
	fi
}

# ---- comparing two FITs -----------------------------------------------------

totalsize() {
	od -An -tu4 --endian=big -j4 -N4 "$1" | tr -d ' '
}

# fdt_part FIT OUT: the FDT (its first totalsize bytes); tail_part: the rest.
fdt_part() {
	head -c "$(totalsize "$1")" "$1" > "$2"
}
tail_part() {
	tail -c +$(($(totalsize "$1") + 1)) "$1" > "$2"
}

# The signer's name and version in each signed node of FDT replaced by
# strings of the padded length both tools' values have (8 and 8 bytes).
normalize() {
	for p in $SIGS; do
		fdtget "$1" "$p" signer-name >/dev/null 2>&1 || continue
		fdtput -t s "$1" "$p" signer-name "signer!" &&
			fdtput -t s "$1" "$p" signer-version "version" || return 1
	done
}

# same_fit NAME VFIT_OUT MKIMAGE_OUT [zero-pad]: byte for byte, but the
# signer strings; with zero-pad, the FDT's padding past its used size.
same_fit() {
	fdt_part "$2" v.fdt && fdt_part "$3" m.fdt && tail_part "$2" v.tail && tail_part "$3" m.tail
	normalize v.fdt && normalize m.fdt || { fail "$1: cannot normalize the signer strings"; return; }
	if [ "${4:-}" = zero-pad ]; then
		used=$(($(od -An -tu4 --endian=big -j12 -N4 m.fdt) + $(od -An -tu4 --endian=big -j32 -N4 m.fdt)))
		head -c "$used" m.fdt > m.used && head -c "$used" v.fdt > v.used
		cmp -s m.used v.used && [ "$(totalsize v.fdt)" = "$(totalsize m.fdt)" ] &&
			[ -z "$(tail -c +$((used + 1)) v.fdt | tr -d '\0')" ]
	else
		cmp -s v.fdt m.fdt
	fi || { fail "$1: the FDTs differ ($(cmp v.fdt m.fdt 2>&1 | head -n 1))"; return; }
	if cmp -s v.tail m.tail; then pass; else fail "$1: the external data differ ($(cmp v.tail m.tail 2>&1))"; fi
}

# The tree of an FDT without its `data` properties and creator, as dtc prints it.
bare_tree() {
	cp "$1" bare.dtb
	for n in $(fdtget -l bare.dtb /images 2>/dev/null); do
		fdtput -d bare.dtb "/images/$n" data 2>/dev/null
	done
	dtc -I dtb -O dts bare.dtb 2>/dev/null | grep -v 'creator = '
}

# ---- the checks on each output ---------------------------------------------

# A control DTB for checking FIT: the -K output, or ctl0.dtb (nothing required).
listing() {
	"$1" -l "$2" 2>&1 | grep -v '^ *Sign value:'
}

# check_out NAME FIT CTL: listings, vfit verify, vfit's and HEAD's
# fit_check_sign.  A control DTB that requires no key enforces nothing:
# vfit's fit_check_sign refuses it as vfit verify does without
# --allow-unenforced (fail closed, on purpose); HEAD's accepts it, as vfit
# verify does with the option.
check_out() {
	listing dumpimage "$2" > l.deb
	listing bin/dumpimage "$2" > l.vfit
	if [ "$FIRST" = confs ]; then
		# 2023.01 reads `default` from the node after /images: with the
		# configurations first it lists none; vfit lists it, as HEAD does.
		grep -v "^ Default Configuration: 'conf-1'$" l.vfit > l.nodef
		mv l.nodef l.vfit
	fi
	if cmp -s l.deb l.vfit; then pass; else fail "$1: vfit's dumpimage -l is not Debian's"; diff l.deb l.vfit | head -n 6 | sed 's/^/    /'; fi
	if [ -n "$HDUMP" ]; then
		listing "$HDUMP" "$2" > l.head
		listing bin/dumpimage "$2" > l.vfit
		if cmp -s l.head l.vfit; then pass; else fail "$1: vfit's dumpimage -l is not HEAD's"; diff l.head l.vfit | head -n 6 | sed 's/^/    /'; fi
	fi
	"$VFIT" verify -f "$2" -k "$3" --allow-unenforced > v.out 2>&1
	vv=$?
	"$VFIT" verify -f "$2" -k "$3" > /dev/null 2>&1
	vs=$?
	bin/fit_check_sign -f "$2" -k "$3" > f.out 2>&1
	vf=$?
	is "$1: vfit verify accepts" 0 "$vv"
	[ "$vv" = 0 ] || sed 's/^/    /' v.out | tail -n 3
	is "$1: vfit's fit_check_sign as vfit verify" "$vs" "$vf"
	if [ -n "$FCS" ]; then
		"$FCS" -f "$2" -k "$3" > h.out 2>&1
		is "$1: HEAD's fit_check_sign as vfit verify" "$([ "$vv" = 0 ] && echo 0 || echo 1)" "$([ $? = 0 ] && echo 0 || echo 1)"
	fi
}

# An external payload of the default configuration, with a hash, with one
# byte changed: refused by vfit verify; and by HEAD's fit_check_sign where
# it loads the image (kernel, fdt, ramdisk: it loads no loadables, whose
# hashes vfit verify checks as well).
check_tampered() {
	[ -n "$EXT" ] || return 0
	img= s=0
	for p in kernel fdt ramdisk loadables; do
		for n in $(fdtget "$1" /configurations/conf-1 "$p" 2>/dev/null); do
			s=$(fdtget "$1" "/images/$n" data-size 2>/dev/null) || continue
			[ "$s" -gt 0 ] && fdtget -l "$1" "/images/$n" | grep -q '^hash' || continue
			img=$n
			break 2
		done
	done
	[ -n "$img" ] || return 0
	cp "$1" bad.fit
	if ! o=$(fdtget bad.fit "/images/$img" data-position 2>/dev/null); then
		a=4
		case $EXT in *-B\ *) a=${EXT#*-B }; a=$((0x${a%% *})) ;; esac
		o=$((($(totalsize bad.fit) + a - 1) / a * a + $(fdtget bad.fit "/images/$img" data-offset)))
	fi
	flip_byte bad.fit $((o + s / 2))
	"$VFIT" verify -f bad.fit -k "$2" --allow-unenforced > /dev/null 2>&1
	is "$3: a changed $p payload is refused by vfit verify" 1 $?
	if [ -n "$FCS" ] && [ "$p" != loadables ]; then
		"$FCS" -f bad.fit -k "$2" > /dev/null 2>&1
		is "$3: and by HEAD's fit_check_sign" 1 "$([ $? = 0 ] && echo 0 || echo 1)"
	fi
}

# build TOOL OUT CTL ARGS...: one build; in B 0 if it built, 1 if not
build() {
	_tool=$1 _out=$2 _ctl=$3
	shift 3
	cp ctl0.dtb "$_ctl"
	if [ "$_tool" = vfit ]; then
		"$VFIT" mkimage "$@" "$_out" > "$_out.log" 2>&1
	else
		"$_tool" "$@" "$_out" > "$_out.log" 2>&1
	fi
	B=$?
	[ "$B" = 0 ] || B=1
}

# ---- the shapes ----------------------------------------------------------------

one_shape() {
	_x=$(( (SEED * 1000003 + K * 7919) % 2147483646 + 1 ))
	rm -f ./*.bin ./*.fit ./*.dtb.k
	SIGS= KEYS=0 EXT= AUTO= MODE=its FIRST=images
	rnd 10
	case $R in 0) MODE=auto ;; 1|2) MODE=F ;; esac
	rnd 2
	[ "$R" = 0 ] && [ "$MODE" != auto ] && KEYS=1
	[ "$MODE" = F ] && KEYS=1
	gen_ext
	KOPT=
	if [ "$KEYS" = 1 ]; then
		pick "-k keys -K" "-k keys -r -K"
		KOPT=$P
	fi
	shape="shape $K ($MODE $EXT $KOPT, seed $SEED)"
	if [ "$MODE" = auto ]; then
		gen_auto
		# shellcheck disable=SC2086
		build vfit v.fit v.dtb $AUTO $EXT
		vb=$B
		# shellcheck disable=SC2086
		build "$MKIMAGE" m.fit m.dtb $AUTO $EXT
		is "$shape: exit status as Debian's" "$B" "$vb"
		[ "$B$vb" = 00 ] || return 0
		fdt_part v.fit v.fdt && fdt_part m.fit m.fdt
		bare_tree v.fdt > v.tree && bare_tree m.fdt > m.tree
		same "$shape: the same tree (but creator)" m.tree v.tree
		i=0
		while [ "$i" -lt "$N" ]; do
			dumpimage -T flat_dt -p "$i" -o v.img v.fit > /dev/null 2>&1
			dumpimage -T flat_dt -p "$i" -o m.img m.fit > /dev/null 2>&1
			ok "$shape: image $i's payload" cmp v.img m.img
			i=$((i + 1))
		done
		check_out "$shape" v.fit ctl0.dtb
		check_tampered v.fit ctl0.dtb "$shape"
		return 0
	fi
	gen_its
	if [ "$MODE" = F ]; then
		# A FIT built (unsigned) by Debian's mkimage, signed in place by each tool.
		# shellcheck disable=SC2086
		"$MKIMAGE" -f shape.its $EXT base.fit > base.log 2>&1 || { fail "$shape: Debian's mkimage cannot build the base"; return 0; }
		cp base.fit v.fit
		cp base.fit m.fit
		# shellcheck disable=SC2086
		build vfit v.fit v.dtb -F $KOPT v.dtb $EXT
		vb=$B
		# shellcheck disable=SC2086
		build "$MKIMAGE" m.fit m.dtb -F $KOPT m.dtb $EXT
	else
		# shellcheck disable=SC2086
		build vfit v.fit v.dtb -f shape.its ${KOPT:+$KOPT v.dtb} $EXT
		vb=$B
		# shellcheck disable=SC2086
		build "$MKIMAGE" m.fit m.dtb -f shape.its ${KOPT:+$KOPT m.dtb} $EXT
	fi
	if [ "$MODE" = F ] && [ "${EXT#*-p}" != "$EXT" ]; then
		# 2023.01's -F imports data-offset only: "Can't get image data/size".
		is "$shape: Debian's mkimage cannot update a FIT with data-position" 1 "$B"
		is "$shape: vfit imports it as U-Boot HEAD does" 0 "$vb"
		[ "$vb" = 0 ] && check_out "$shape" v.fit v.dtb
		return 0
	fi
	is "$shape: exit status as Debian's" "$B" "$vb"
	if [ "$B$vb" != 00 ]; then
		[ "$B" = "$vb" ] || sed 's/^/    /' v.fit.log | tail -n 3
		return 0
	fi
	pad=
	[ "$MODE" = F ] && [ -n "$EXT" ] && pad=zero-pad
	same_fit "$shape" v.fit m.fit $pad
	if [ "$KEYS" = 1 ]; then
		dtc -I dtb -O dts m.dtb > m.dtb.dts 2>/dev/null
		dtc -I dtb -O dts v.dtb > v.dtb.dts 2>/dev/null
		same "$shape: the same -K key nodes" m.dtb.dts v.dtb.dts
		ctl=v.dtb
	else
		ctl=ctl0.dtb
		dtc -I dtb -O dts ctl0.dtb > ctl0.dtb.dts 2>/dev/null
	fi
	listing dumpimage m.fit > l.m
	listing dumpimage v.fit > l.v
	same "$shape: Debian's dumpimage -l, as for Debian's FIT" l.m l.v
	check_out "$shape" v.fit "$ctl"
	check_tampered v.fit "$ctl" "$shape"
	if [ -n "$H" ] && [ "$MODE" = its ]; then
		# shellcheck disable=SC2086
		build "$H" h.fit h.dtb -f shape.its ${KOPT:+$KOPT h.dtb} $EXT
		# HEAD's -E refuses an empty image ("Bad parameters for FIT image
		# type"), which 2023.01 and vfit build.
		empty=0
		for f in p*.bin; do [ -s "$f" ] || empty=1; done
		if [ -n "$EXT" ] && [ "$empty" = 1 ]; then
			is "$shape: HEAD's mkimage -E refuses an empty image" 1 "$B"
			return 0
		fi
		is "$shape: exit status as HEAD's" "$B" 0
		[ "$B" = 0 ] && ok "$shape: vfit verify accepts HEAD's FIT" \
			"$VFIT" verify -f h.fit -k "$([ "$KEYS" = 1 ] && echo h.dtb || echo ctl0.dtb)" \
			--allow-unenforced
		if [ -n "$HDUMP" ] && [ "$B" = 0 ]; then
			listing "$HDUMP" h.fit > l.h
			listing "$HDUMP" v.fit > l.hv
			same "$shape: HEAD's dumpimage -l, as for HEAD's FIT" l.h l.hv
		fi
	fi
}

# Issue 34's FIT first, smaller: a 2 MB kernel, then a larger 3 MB ramdisk.
random small.payload 2000000
random big.payload 3000000
fit_its -d issue34 -k small.payload -f "" -r big.payload -s '"kernel", "ramdisk"' > i34.its
"$VFIT" mkimage -q -f i34.its i34v.fit > i34v.log 2>&1
"$MKIMAGE" -f i34.its i34m.fit > /dev/null 2>&1
ok "issue 34: a larger payload after one of 2 MB, as Debian's mkimage builds it" cmp i34v.fit i34m.fit
rm -f ./*.payload

if [ -n "$ONLY" ]; then
	K=$ONLY
	one_shape
	[ -n "${VFIT_GEN_KEEP:-}" ] && mkdir -p "$VFIT_GEN_KEEP" && cp -- * "$VFIT_GEN_KEEP"/ 2>/dev/null
	SHAPES=1
else
	K=1
	while [ "$K" -le "$SHAPES" ]; do
		one_shape
		K=$((K + 1))
	done
fi
echo "NOTE seed $SEED, $SHAPES shape(s)${ONLY:+ (shape $ONLY)}"
finish
