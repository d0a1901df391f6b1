#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# U-Boot's verified-boot test (test/py/tests/test_vboot.py, fit-format.md §9)
# replayed with Debian's mkimage as the signer and `vfit verify` as the
# device: 9.2 main sequence (sets 1-8, 11-13), 9.3 required-key sequence
# (sets 9, 10), 9.4 external data bounds, 9.6 key added separately.
# 9.5 (pre-load "global" signature, sets 14-15) is not implemented by vfit
# and is skipped.  The forged-configuration, fake-root and clone attacks of
# 9.2 step 5 are built byte for byte in tests/unit/test_fit_attacks.c; the
# kernel@ case is repeated here with fdtput.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 2

MAX=268435456   # VFIT_SIGNATURE_MAX_SIZE

u32() { # FILE OFFSET: big-endian header word
	od -An -tu4 --endian=big -j "$2" -N4 "$1" | tr -d ' '
}
set_u32() { # FILE OFFSET VALUE
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($3 >> 24 & 255)) $(($3 >> 16 & 255)) \
		$(($3 >> 8 & 255)) $(($3 & 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
# fdtput that keeps the external payloads: fdtput writes only totalsize
# bytes, so the tail (data-offset area, or -p area at 0x10000) is restored.
fdtput_keep() { # FIT fdtput-args...
	f=$1
	shift
	cp "$f" "$f.orig"
	old=$(( ($(u32 "$f" 4) + 3) / 4 * 4 ))
	fdtput "$f" "$@" || return 1
	new=$(( ($(u32 "$f" 4) + 3) / 4 * 4 ))
	if grep -q -- -p "$f.opts" 2>/dev/null; then
		dd if="$f.orig" of="$f" bs=65536 skip=1 seek=1 conv=notrunc 2>/dev/null
	else
		truncate -s "$new" "$f"
		tail -c +$((old + 1)) "$f.orig" >> "$f"
	fi
}

rsa_key dev 2048
rsa_key prod 2048
mkdir -p k3072
rsa_key k3072/dev 3072
head -c 500 /dev/zero > test-kernel.bin
printf '/dts-v1/;\n/ { model = "Sandbox Verified Boot Test"; };\n' > kernel.dts
dtc -I dts -O dtb -o sandbox-kernel.dtb kernel.dts
printf '/dts-v1/;\n/ { model = "sandbox"; };\n' > ctl.dts
dtc -I dts -O dtb -o fresh.dtb ctl.dts

# The .its files of fit-format.md §9.7: its KIND HASH ALGO PAD HINT (KIND images|configs).
its() {
	a=
	[ -n "$3" ] && a="algo = \"$3\";"
	p=
	[ "$4" = pss ] && p='padding = "pss";'
	s="signature { $a key-name-hint = \"$5\"; $p"
	if [ "$1" = images ]; then
		ih="$s };" ch= hn=
	else
		ih= hn="hash-1 { algo = \"$2\"; };"
		ch="$s sign-images = \"fdt\", \"kernel\"; };"
	fi
	cat <<ITS
/dts-v1/;
/ {
	description = "Chrome OS kernel image with one or more FDT blobs";
	#address-cells = <1>;
	images {
		kernel {
			data = /incbin/("test-kernel.bin");
			type = "kernel_noload"; arch = "sandbox"; os = "linux";
			compression = "none"; load = <0x4>; entry = <0x8>;
			kernel-version = <1>;
			$hn $ih
		};
		fdt-1 {
			description = "snow";
			data = /incbin/("sandbox-kernel.dtb");
			type = "flat_dt"; arch = "sandbox"; compression = "none";
			fdt-version = <1>;
			$hn $ih
		};
	};
	configurations {
		default = "conf-1";
		conf-1 { kernel = "kernel"; fdt = "fdt-1"; $ch };
	};
};
ITS
}

# 9.2, one parameter set: NAME HASH PAD OPTS BITS [ALGO-ARG]
main_sequence() {
	n=$1 h=$2 pad=$3 opts=$4 bits=$5 argo=${6:-}
	keys=.
	[ "$bits" = 3072 ] && keys=k3072
	algo="$h,rsa$bits"
	o=
	if [ -n "$argo" ]; then o="-o $algo"; algo=; fi

	# 1. image signatures present but no key: '-', still boots (unenforced).
	its images "$h" "$algo" "$pad" dev > $n-img.its
	mkimage -f $n-img.its $n-img.fit >/dev/null
	echo "$opts" > $n-img.fit.opts
	cp fresh.dtb $n-1.dtb
	is "$n 1 default" UNENFORCED "$(code $n-img.fit $n-1.dtb)"
	"$VFIT" verify -f $n-img.fit -k $n-1.dtb --allow-unenforced > out.txt 2>&1
	is "$n 1 boots" 0 $?
	contains "$n 1 dev-" out.txt '(:dev)?- OK$'
	# 2. signed (-r: required image key): dev+.
	# shellcheck disable=SC2086
	mkimage -F -k $keys -K $n-1.dtb -r $opts $o $n-img.fit >/dev/null
	is "$n 2" OK "$(code $n-img.fit $n-1.dtb)"
	"$VFIT" verify -f $n-img.fit -k $n-1.dtb > out.txt 2>&1
	contains "$n 2 dev+" out.txt ":dev\+ "

	# 3. configuration signature not yet signed, fresh DTB: hashes only.
	its configs "$h" "$algo" "$pad" dev > $n-conf.its
	mkimage -f $n-conf.its $n-conf.fit >/dev/null
	echo "$opts" > $n-conf.fit.opts
	cp fresh.dtb $n-3.dtb
	"$VFIT" verify -f $n-conf.fit -k $n-3.dtb --allow-unenforced > out.txt 2>&1
	is "$n 3 boots" 0 $?
	contains "$n 3 hashes" out.txt "^   Verifying Hash Integrity \.\.\. $h\+ OK$"
	# 4. signed, key required "conf": dev+.
	# shellcheck disable=SC2086
	mkimage -F -k $keys -K $n-3.dtb -r $opts $o $n-conf.fit >/dev/null
	is "$n 4" OK "$(code $n-conf.fit $n-3.dtb)"
	"$VFIT" verify -f $n-conf.fit -k $n-3.dtb > out.txt 2>&1
	contains "$n 4 dev+" out.txt "^   Verifying Hash Integrity \.\.\. [a-z0-9]+,rsa$bits:dev\+ OK$"

	# 5. (sha1-basic) kernel@ unit address.
	if [ $n = sha1-basic ]; then
		cp $n-conf.fit at.fit
		fdtput -c at.fit /images/kernel@evil
		is "$n 5 kernel@" UNIT_ADDRESS "$(code at.fit $n-3.dtb)"
	fi

	# 6. totalsize = MAX + 1, then restored.
	cp $n-conf.fit t.fit
	ts=$(u32 t.fit 4)
	set_u32 t.fit 4 $((MAX + 1))
	is "$n 6 totalsize" TOO_LARGE "$(code t.fit $n-3.dtb)"
	set_u32 t.fit 4 "$ts"
	is "$n 6 restored" OK "$(code t.fit $n-3.dtb)"

	# 7. first byte of the configuration signature value incremented.
	cp $n-conf.fit v.fit
	cp $n-conf.fit.opts v.fit.opts
	sig=/configurations/conf-1/signature
	val=$(fdtget -t bx v.fit $sig value)
	first=${val%% *}
	rest=${val#* }
	# shellcheck disable=SC2086
	fdtput_keep v.fit -t bx $sig value $(printf %x $(((0x$first + 1) & 255))) $rest
	is "$n 7 value" REQUIRED "$(code v.fit $n-3.dtb)"

	# 8. hashed-strings: one cell, size + 1, size.
	size=$(u32 $n-conf.fit 32)
	for c in "0:HASHED_STRINGS" "0 $((size + 1)):STRINGS_BOUNDS" "0 $size:REQUIRED"; do
		cp $n-conf.fit s.fit
		cp $n-conf.fit.opts s.fit.opts
		# shellcheck disable=SC2086
		fdtput_keep s.fit -t u $sig hashed-strings ${c%%:*}
		is "$n 8 hashed-strings <${c%%:*}>" "${c#*:}" "$(code s.fit $n-3.dtb)"
	done
	"$VFIT" verify -f s.fit -k $n-3.dtb > out.txt 2>&1
	contains "$n 8 lines" out.txt "^Verification failed for 'conf-1' config node$"

	# 9.6: key written separately (stand-in for fdt_add_pubkey), FIT signed with -F -k only.
	cp fresh.dtb $n-6.dtb
	its configs "$h" "$algo" "$pad" dev > $n-k.its
	mkimage -f $n-k.its $n-k.fit >/dev/null
	# shellcheck disable=SC2086
	mkimage -F -k $keys -K $n-6.dtb -r $o $n-k.fit >/dev/null
	mkimage -f $n-k.its $n-k2.fit >/dev/null
	# shellcheck disable=SC2086
	mkimage -F -k $keys $opts $o $n-k2.fit >/dev/null
	is "$n 9.6" OK "$(code $n-k2.fit $n-6.dtb)"
}

main_sequence sha1-basic sha1 "" "" 2048
main_sequence sha1-pad sha1 "" "-E -p 0x10000" 2048
main_sequence sha1-pss sha1 pss "" 2048
main_sequence sha1-pss-pad sha1 pss "-E -p 0x10000" 2048
main_sequence sha256-basic sha256 "" "" 2048
main_sequence sha256-pad sha256 "" "-E -p 0x10000" 2048
main_sequence sha256-pss sha256 pss "" 2048
main_sequence sha256-pss-pad sha256 pss "-E -p 0x10000" 2048
main_sequence sha384-basic sha384 "" "" 3072
main_sequence sha384-pad sha384 "" "-E -p 0x10000" 3072
main_sequence algo-arg sha256 "" "" 2048 algo-arg

# 9.3: sets 9 and 10.
required_sequence() { # NAME OPTS
	n=$1 opts=$2
	cp fresh.dtb $n.dtb
	its configs sha256 sha256,rsa2048 pss prod > $n-prod.its
	mkimage -f $n-prod.its $n-prod.fit >/dev/null
	# shellcheck disable=SC2086
	mkimage -F -k . -K $n.dtb -r $opts $n-prod.fit >/dev/null
	is "$n prod" OK "$(code $n-prod.fit $n.dtb)"
	its configs sha256 sha256,rsa2048 pss dev > $n-dev.its
	mkimage -f $n-dev.its $n-dev.fit >/dev/null
	# shellcheck disable=SC2086
	mkimage -F -k . -K $n.dtb $opts $n-dev.fit >/dev/null
	is "$n dev, prod required" REQUIRED "$(code $n-dev.fit $n.dtb)"
	# Re-signed with -r.  mkimage 2023.01 cannot re-import data-position
	# payloads (v2024.01 can), so the FIT is rebuilt from its source first.
	mkimage -f $n-dev.its $n-dev.fit >/dev/null
	# shellcheck disable=SC2086
	mkimage -F -k . -K $n.dtb -r $opts $n-dev.fit >/dev/null
	fdtput -t s $n.dtb /signature required-mode any
	is "$n any" OK "$(code $n-dev.fit $n.dtb)"
	"$VFIT" verify -f $n-dev.fit -k $n.dtb > out.txt 2>&1
	contains "$n any dev+" out.txt ":dev\+ OK$"
	fdtput -t s $n.dtb /signature required-mode all
	is "$n all" REQUIRED "$(code $n-dev.fit $n.dtb)"
	status 1 "$n all: exit" "$VFIT" verify -f $n-dev.fit -k $n.dtb
}
required_sequence sha256-pss-required ""
required_sequence sha256-pss-pad-required "-E -p 0x10000"

# 9.4: external data bounds on a -E FIT, one fdtput at a time.
cp fresh.dtb e.dtb
its configs sha256 sha256,rsa2048 "" dev > e.its
mkimage -f e.its -k . -K e.dtb -r -E e.fit >/dev/null
: > e.fit.opts
is "9.4 good" OK "$(code e.fit e.dtb)"
for c in "data-position $((0xffffffff)):DATA" "data-offset $((0xffffffff)):DATA" \
	"data-size $((0xffffffff)):DATA" "data-position $((0x7fffffff)):DATA_BOUNDS" \
	"data-offset $((0x10000000)):DATA_BOUNDS" "data-size $((0x7fffffff)):DATA_BOUNDS" \
	"data-position $((MAX + 1)) data-size 0:DATA_BOUNDS" \
	"data-offset $((MAX + 1)) data-size 0:DATA_BOUNDS" \
	"data-position 0 data-size $((MAX + 1)):DATA_BOUNDS" \
	"data-position $MAX data-size 0:DATA_BOUNDS" \
	"data-offset $MAX data-size 0:DATA_BOUNDS" \
	"data-position 0 data-size $MAX:DATA_BOUNDS"; do
	cp e.fit x.fit
	: > x.fit.opts
	set -- ${c%%:*}
	fdtput_keep x.fit -t u /images/kernel "$1" "$2"
	[ $# = 4 ] && fdtput_keep x.fit -t u /images/kernel "$3" "$4"
	is "9.4 ${c%%:*}" "${c#*:}" "$(code x.fit e.dtb)"
done
"$VFIT" verify -f x.fit -k e.dtb > out.txt 2> err.txt
contains "9.4 error line" err.txt "^vfit: x.fit: /images/kernel: data-position: external data is out of bounds$"

# 9.5: pre-load signatures are not part of vfit; skipped.
finish
