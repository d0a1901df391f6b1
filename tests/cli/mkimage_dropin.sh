#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit mkimage where build systems use U-Boot's mkimage: the option
# combinations mkimage accepts, HEAD's -f auto-conf and dm-verity, and the
# refusals that replace silent damage (read-only -K, -F -t without keys).
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000
MK=$BUILD/mkimage

random kernel.bin 3000
random rd.bin 1000
printf '/dts-v1/; / { model = "b"; };' | dtc -I dts -O dtb -o board.dtb
printf '/dts-v1/; / { model = "c"; };' | dtc -I dts -O dtb -o ctl0.dtb
mkdir keys
"$VFIT" keygen -a rsa2048 -k keys -n dev >/dev/null || exit 2
cat > k.its <<'EOF'
/dts-v1/;
/ {
	description = "k";
	images {
		kernel { data = /incbin/("kernel.bin"); type = "kernel"; arch = "arm64"; os = "linux";
			compression = "none"; load = <0>; entry = <0>; hash-1 { algo = "sha256"; }; };
		ramdisk { data = /incbin/("rd.bin"); type = "ramdisk"; arch = "arm64"; os = "linux";
			compression = "none"; hash-1 { algo = "sha256"; }; };
	};
	configurations {
		default = "conf-1";
		conf-1 { kernel = "kernel"; ramdisk = "ramdisk";
			signature-1 { algo = "sha256,rsa2048"; key-name-hint = "dev"; }; };
	};
};
EOF

# A read-only -K DTB is refused (mkimage edits it in place and fails),
# even for root, and nothing changes.
cp ctl0.dtb ro.dtb
chmod 444 ro.dtb
status 2 "read-only -K" "$MK" -f k.its -k keys -K ro.dtb -r ro.fit
contains "read-only -K: says so" "$T/.out" "^vfit: ro.dtb: read-only file \(mode 0444\), not replaced$"
ok "read-only -K: untouched" cmp ro.dtb ctl0.dtb
status 1 "read-only -K: no FIT" test -e ro.fit
# A directory without write access is named as the reason.
if command -v setpriv >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
	mkdir rodir wdir
	cp ctl0.dtb rodir/c.dtb
	chmod 755 "$T" rodir
	chmod 777 wdir
	chmod 666 rodir/c.dtb
	status 2 "directory not writable" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$MK" -f k.its -K rodir/c.dtb wdir/nobody.fit
	contains "directory not writable: named" "$T/.out" "c.dtb: cannot create temporary file in .*/rodir: Permission denied \(the directory must be writable"
	ok "directory not writable: DTB untouched" cmp rodir/c.dtb ctl0.dtb
	status 1 "directory not writable: no FIT" test -e wdir/nobody.fit
else
	skip root "directory permission check needs root and setpriv"
fi

# -F -t without keys would leave a signature over the old timestamp.
cp ctl0.dtb c.dtb
ok "signed FIT" "$MK" -q -f k.its -k keys -K c.dtb -r s.fit
cp s.fit t.fit
status 2 "-F -t without keys" "$MK" -q -F -t t.fit
contains "-F -t: names the signature" "$T/.out" "t.fit: -t changes the timestamp that /configurations/conf-1/signature-1 signs: give the keys"
ok "-F -t: FIT untouched" cmp s.fit t.fit
ok "-F without -t, without keys" "$MK" -q -F t.fit
ok "... still verifies" "$VFIT" verify -f t.fit -k c.dtb
SOURCE_DATE_EPOCH=1700000100 ok "-F -t with keys" "$MK" -q -F -t -k keys t.fit
is "-F -t: new timestamp" 1700000100 "$(fdtget t.fit / timestamp)"
ok "-F -t with keys: verifies" "$VFIT" verify -f t.fit -k c.dtb

# What mkimage accepts in FIT mode, vfit accepts: options a mode ignores.
ok "-D with -f auto" "$MK" -q -D "-I dts -O dtb -p 2000" -f auto -d kernel.bin a.fit
ok "-r without -K" "$MK" -q -f k.its -k keys -r a.fit
status 0 "-b with -f FILE: warned" "$MK" -q -f k.its -b board.dtb a.fit
contains "-b with -f FILE: the warning" "$T/.out" "^vfit: mkimage: warning: -b not used without -f auto$"
status 0 "-x with -f: warned" "$MK" -q -x -f k.its a.fit
contains "-x with -f: the warning" "$T/.out" "^vfit: mkimage: warning: -x not used for a FIT$"
status 0 "an extra argument: mkimage ignores it" "$MK" -q -f k.its a.fit extra.fit
contains "an extra argument: warned" "$T/.out" "^vfit: mkimage: warning: 'extra.fit' not used: the image is 'a.fit'$"
status 1 "an extra argument: not written" test -e extra.fit
ok "-B 0 = default" "$MK" -q -E -B 0 -f k.its a0.fit
"$MK" -q -E -f k.its a4.fit
ok "-B 0: same file" cmp a0.fit a4.fit
status 2 "-B not a power of two" "$MK" -q -E -B c -f k.its a.fit
contains "-B: says why" "$T/.out" "alignment must be a power of two"
status 2 "-f auto -g without -o" "$MK" -q -f auto -g dev -d kernel.bin a.fit
contains "-g without -o: says why" "$T/.out" "-f auto with -g signs the images: it needs -o ALGO"

# -d /dev/null, as oe-core's uboot-sign.bbclass passes it.
cp ctl0.dtb ac.dtb
ok "auto-conf from /dev/null" "$MK" -q -f auto-conf -k keys -o sha256,rsa2048 -g dev \
	-K ac.dtb -d /dev/null -r unused.itb
ok "auto-conf: verifies" "$VFIT" verify -f unused.itb -k ac.dtb
is "auto-conf: HEAD's node names" "hash signature" \
	"$(fdtget -l unused.itb /images/kernel-1) $(fdtget -l unused.itb /configurations/conf-1)"
is "auto-conf: SHA-1 image hashes" sha1 "$(fdtget unused.itb /images/kernel-1/hash algo)"
is "auto-conf: empty kernel" 0 "$(fdtget -tbx unused.itb /images/kernel-1 data | wc -w)"

# Long options mean their letters.
cp ctl0.dtb l1.dtb
cp ctl0.dtb l2.dtb
"$MK" -q -f k.its -k keys -K l1.dtb -r -c hi -E l1.fit
ok "long options" "$MK" --quiet --fit k.its --key-dir keys --key-dest l2.dtb --key-required \
	--comment hi --external l2.fit
ok "long options: same FIT" cmp l1.fit l2.fit
ok "long options: same DTB" cmp l1.dtb l2.dtb

# vfit info flags an image a signature leaves out (here: hashed-nodes edited).
fdtput -t s s.fit /configurations/conf-1/signature-1 hashed-nodes / /configurations/conf-1 \
	/images/kernel /images/kernel/hash-1
ok "info on a partial signature" "$VFIT" info s.fit
contains "info: the gap" "$T/.out" "^  WARNING:      signature-1 does not cover image 'ramdisk' \(ramdisk\): U-Boot HEAD and vfit verify refuse it"
"$MK" -l s.fit > l.txt
status 1 "-l: no such line (mkimage's format)" grep -q WARNING l.txt

# dm-verity (U-Boot HEAD): the hash tree after the data, the root hash in the node.
random fs.img $((8 * 4096))
cat > v.its <<'EOF'
/dts-v1/;
/ {
	description = "v";
	images {
		fs { data = /incbin/("fs.img"); type = "filesystem"; arch = "arm64"; compression = "none";
			hash-1 { algo = "sha256"; };
			dm-verity { algo = "sha256"; data-block-size = <4096>; hash-block-size = <4096>; }; };
	};
	configurations { default = "c"; c { loadables = "fs"; }; };
};
EOF
ok "dm-verity" "$MK" -q -E -f v.its v.fit
is "dm-verity: blocks" "8 8" "$(fdtget v.fit /images/fs/dm-verity num-data-blocks) $(fdtget v.fit /images/fs/dm-verity hash-start-block)"
is "dm-verity: data + one hash block" $((9 * 4096)) "$(fdtget v.fit /images/fs data-size)"
is "dm-verity: 32-byte digest and salt" "8 8" \
	"$(fdtget -tx v.fit /images/fs/dm-verity digest | wc -w) $(fdtget -tx v.fit /images/fs/dm-verity salt | wc -w)"
cp v.fit v2.fit
ok "dm-verity: -F again" "$MK" -q -E -F v2.fit
# -F imports the data as U-Boot HEAD does and pads the FDT with zeros as
# HEAD does, where a build from source has 2023.01's leftover bytes there:
# the same tree and data, and from then on the same bytes.
to_dts "dm-verity: -F" v.fit v.dts && to_dts "dm-verity: -F" v2.fit v2.dts
same "dm-verity: -F keeps the tree" v.dts v2.dts
is "dm-verity: -F keeps the data" "$(tail -c $((9 * 4096)) v.fit | sha256sum)" "$(tail -c $((9 * 4096)) v2.fit | sha256sum)"
cp v2.fit v3.fit
ok "dm-verity: -F again" "$MK" -q -E -F v3.fit
ok "dm-verity: -F is idempotent" cmp v2.fit v3.fit
"$MK" -l v.fit > v.l
contains "dm-verity: listed" v.l "^  Verity algo:  sha256$"
if command -v veritysetup >/dev/null 2>&1; then
	hex() { fdtget -tx v.fit /images/fs/dm-verity "$1" | awk '{ for (i = 1; i <= NF; i++) printf "%08s", $i }' | tr ' ' 0; }
	off=$(($(od -An -tu4 --endian=big -j4 -N4 v.fit | tr -d ' ') + 3))
	off=$((off / 4 * 4 + $(fdtget v.fit /images/fs data-offset)))
	tail -c +$((off + 1)) v.fit | head -c $((9 * 4096)) > tree.img
	ok "dm-verity: veritysetup verify" veritysetup verify --no-superblock --hash-offset=32768 \
		--data-blocks=8 --salt="$(hex salt)" tree.img tree.img "$(hex digest)"
else
	skip tool "veritysetup not installed (cryptsetup-bin): tree not checked by it"
fi
sed 's/data-block-size = <4096>/data-block-size = <1000>/' v.its > vb.its
status 1 "dm-verity: bad block size" "$MK" -q -E -f vb.its x.fit
contains "dm-verity: says why" "$T/.out" "/images/fs/dm-verity: block sizes must be powers of two"
random fs.img 5000
status 1 "dm-verity: partial block" "$MK" -q -E -f v.its x.fit
contains "dm-verity: size named" "$T/.out" "image size 5000 is not a multiple"
status 2 "dm-verity without -E" "$MK" -q -f v.its x.fit
status 1 "nothing written" test -e x.fit
finish
