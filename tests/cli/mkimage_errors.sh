#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit mkimage: every rejected input gets one line naming file and node and
# the contract's exit status (1 bad input, 2 usage / missing file / I/O),
# and a failed run leaves every file byte for byte as it was.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000

# its [IMAGE-EXTRA] [CONF-EXTRA] [HASH] [SIG-ALGO] [IMAGE-NAME]
its() {
	hash='hash-1 { algo = "sha256"; };'
	[ $# -ge 3 ] && hash=$3
	cat <<EOT
/dts-v1/;
/ {
	description = "errors";
	images {
		${5:-kernel} {
			data = /incbin/("kernel.bin");
			type = "kernel"; arch = "arm64"; os = "linux"; compression = "none";
			load = <0>; entry = <0>;
			$hash
			${1-}
		};
	};
	configurations {
		default = "conf-1";
		conf-1 {
			kernel = "${5:-kernel}";
			signature-1 { algo = "${4:-sha256,rsa2048}"; key-name-hint = "dev"; };
			${2-}
		};
	};
};
EOT
}

fails() { # STATUS NAME REGEX CMD... : exit status, one-line message matching REGEX
	want=$1 name=$2 re=$3
	shift 3
	status "$want" "$name" "$@"
	contains "$name: message" "$T/.out" "$re"
	status 0 "$name: one line" test "$(grep -vc "Warning (" "$T/.out")" = 1
}

random kernel.bin 1000
printf '/dts-v1/; / { model = "c"; };' | dtc -I dts -O dtb -o control0.dtb
mkdir keys
"$VFIT" keygen -a rsa2048 -k keys -n dev || exit 2
its > good.its
"$VFIT" mkimage -q -f good.its -k keys good.fit || exit 2

fails 2 "missing its" "nosuch.its: No such file" "$VFIT" mkimage -f nosuch.its x.fit
fails 2 "missing -F file" "nosuch.fit: No such file" "$VFIT" mkimage -F nosuch.fit
fails 2 "missing -K file" "nosuch.dtb: No such file" "$VFIT" mkimage -f good.its -k keys -K nosuch.dtb x.fit
fails 2 "missing key" "/configurations/conf-1/signature-1: key 'dev' not found: no nokeys/dev.key" \
	"$VFIT" mkimage -f good.its -k nokeys x.fit
fails 2 "missing -G file" "key .* not found" "$VFIT" mkimage -f good.its -G nosuch.key x.fit
fails 2 "output directory missing" "nodir/x.fit: cannot create temporary file" \
	"$VFIT" mkimage -f good.its -k keys nodir/x.fit
# The FIT is written, then the -K DTB fails: neither file changes.
mkdir kdir
cp control0.dtb kdir/c.dtb
cp good.fit keep.fit
chmod a-w kdir
if [ "$(id -u)" != 0 ]; then
	fails 2 "-K DTB not writable" "kdir/c.dtb: cannot create temporary file" \
		"$VFIT" mkimage -f good.its -k keys -K kdir/c.dtb keep.fit
	ok "FIT untouched when the DTB fails" cmp keep.fit good.fit
	ok "DTB untouched" cmp kdir/c.dtb control0.dtb
fi
chmod u+w kdir
# The output is a directory, a FIFO, a device or read-only: refused before
# anything is written (a rename would put a plain file in its place).
mkdir isdir.fit
status 2 "output is a directory" "$VFIT" mkimage -f good.its -k keys isdir.fit
contains "directory refused" "$T/.out" "^vfit: isdir.fit: not a regular file, not replaced$"
status 0 "directory untouched" test -z "$(ls -A isdir.fit)"
mkfifo fifo.fit
status 2 "output is a FIFO" "$VFIT" mkimage -f good.its -k keys fifo.fit
ok "still a FIFO" test -p fifo.fit
if mknod null.fit c 1 3 2>/dev/null; then
	printf 'a=b\n' >env.txt
	status 2 "output is a device" "$VFIT" mkenvimage -s 64 -o null.fit env.txt
	ok "still a device" test -c null.fit
fi
cp good.fit ro.fit && chmod 444 ro.fit
status 2 "-F on a read-only FIT" "$VFIT" mkimage -F -k keys ro.fit
contains "read-only refused" "$T/.out" "^vfit: ro.fit: read-only file \\(mode 0444\\), not replaced$"
ok "read-only FIT unchanged" cmp ro.fit good.fit
ls -A > ls0.txt
status 1 "no temporary files left" grep "^\\..*\\.[A-Za-z0-9]\\{6\\}$" ls0.txt
fails 2 "dtc not installed" "good.its: cannot run dtc" env PATH=/nonexistent "$VFIT" mkimage -f good.its x.fit
fails 2 "-D with shell syntax" "-D: ';' needs a shell" "$VFIT" mkimage -D "-I dts; touch y" -f good.its x.fit
status 1 "no output after -D refusal" test -e x.fit
fails 2 "-N unknown engine" "-N nosuch: OpenSSL engine not available" "$VFIT" mkimage -N nosuch -f good.its -k keys x.fit
# What mkimage accepts, vfit accepts: options a mode does not use are ignored
# (with a warning where they look like a mistake), none writes x.fit wrongly.
ok "-B without -E: ignored" "$VFIT" mkimage -q -B 100 -f good.its -k keys ign.fit
contains "-B without -E: warning" "$T/.out" "^vfit: mkimage: warning: -B not used without -E$"
ok "-B without -E: same FIT" cmp ign.fit good.fit
fails 2 "bad -B" "alignment must be" "$VFIT" mkimage -E -B 3 -f good.its x.fit
fails 2 "bad hex" "-p: invalid hex number 'zz'" "$VFIT" mkimage -E -p zz -f good.its x.fit
fails 2 "-p overlaps" "-p 0x10 overlaps the FIT" "$VFIT" mkimage -E -p 10 -f good.its x.fit
ok "-r without -K: accepted" "$VFIT" mkimage -q -r -f good.its ign.fit
cp "$T/.out" r.out
status 0 "-r without -K: no warning" test ! -s r.out
ok "-f and -F: -f wins" "$VFIT" mkimage -q -F -f good.its -k keys ign.fit
ok "-f and -F: same FIT" cmp ign.fit good.fit
ok "-D with -F: accepted" "$VFIT" mkimage -q -D "-I dts -O dtb -p 2000" -F ign.fit
cp "$T/.out" d.out
status 0 "-D with -F: no warning" test ! -s d.out
fails 2 "-d with -f FILE" "-d is for -f auto and legacy images" "$VFIT" mkimage -d good.its -f good.its x.fit
fails 2 "bad SOURCE_DATE_EPOCH" "SOURCE_DATE_EPOCH=abc: not a time" \
	env SOURCE_DATE_EPOCH=abc "$VFIT" mkimage -f good.its x.fit
status 2 "no output name" "$VFIT" mkimage -f good.its
status 2 "unknown option" "$VFIT" mkimage -j -f good.its x.fit

printf '/dts-v1/; / { oops' > bad.its
status 1 "dtc error" "$VFIT" mkimage -f bad.its x.fit
contains "dtc's own message shown" "$T/.out" "bad.its:1"
contains "dtc error line" "$T/.out" "^vfit: bad.its: dtc failed"
status 1 "not a dtb from -D" "$VFIT" mkimage -D "-I dts -O dts" -f good.its x.fit

its "" "" 'hash-1 { algo = "sha3"; };' > e.its
fails 1 "unknown hash" "/images/kernel/hash-1: unsupported hash algorithm 'sha3'" "$VFIT" mkimage -f e.its x.fit
its "" "" "" "sha256,rsa1234" > e.its
fails 1 "unknown algo" "/configurations/conf-1/signature-1: unknown algo 'sha256,rsa1234'" \
	"$VFIT" mkimage -f e.its -k keys x.fit
its "" "" "" "sha512,secp521r1" > e.its
fails 1 "P-521" "algo 'sha512,secp521r1': P-521 is not supported" "$VFIT" mkimage -f e.its -k keys x.fit
its "" "" "" "sha256,rsa4096" > e.its
fails 1 "key size" "key 'dev' has 2048 bits but algo 'sha256,rsa4096' needs 4096" \
	"$VFIT" mkimage -f e.its -k keys x.fit
fails 1 "-o checked too" "algo 'sha1,rsa3072' needs 3072" "$VFIT" mkimage -f good.its -k keys -o sha1,rsa3072 x.fit
sed 's/key-name-hint = "dev";/key-name-hint = "dev"; padding = "oaep";/' good.its > e.its
fails 1 "unknown padding" "unknown padding 'oaep'" "$VFIT" mkimage -f e.its -k keys x.fit
its "" "" "" "" "kernel@1" > e.its
# '@': built unsigned with a warning, as mkimage does; never signed.
fails 1 "@ in node name, signing" "e.its: /images/kernel@1: '@' in a node name: U-Boot verifies no signature in such a FIT" \
	"$VFIT" mkimage -f e.its -k keys x.fit
ok "@ in node name, unsigned" "$VFIT" mkimage -q -f e.its at.fit
contains "@ unsigned: warned" "$T/.out" "^vfit: mkimage: warning: e.its: /images/kernel@1: '@' in a node name: U-Boot will not verify signatures in this FIT$"
# Beyond the device verifier's limits but not U-Boot's: built, with a warning.
many=$(for i in $(seq 1 17); do printf 'hash-%d { algo = "sha256"; }; ' "$i"; done)
refs=$(for i in $(seq 1 16); do printf '"kernel", '; done)
its "" "" "$many" | sed "s/kernel = \"kernel\";/kernel = \"kernel\"; loadables = ${refs%, };/" > e.its
ok "17 hash nodes, 17 references: built" "$VFIT" mkimage -q -f e.its -k keys many.fit
contains "hash nodes: warned" "$T/.out" "^vfit: mkimage: warning: e.its: /images/kernel: 17 hash nodes \\(VFIT_MAX_HASHES\\): vfit's verifier takes 16 at its default limits: a vfit device refuses this FIT, U-Boot takes it$"
contains "references: warned" "$T/.out" "^vfit: mkimage: warning: e.its: /configurations/conf-1: 17 image references \\(VFIT_MAX_IMAGES\\): vfit's verifier takes 16 "
ok "16 hash nodes: no warning" sh -c "'$VFIT' mkimage -q -f good.its -k keys g16.fit 2>&1 | (! grep -q warning)"
long=$(printf 'n%.0s' $(seq 1 190))
its "$long { x = <1>; };" > e.its
fails 1 "path too long" "/images/kernel/$long: node path longer than U-Boot's 200-byte limit" \
	"$VFIT" mkimage -f e.its x.fit
sed 's/kernel = "kernel";/kernel = "kernel"; fdt = "nosuch";/' good.its > e.its
fails 1 "missing image" "/configurations/conf-1: fdt image 'nosuch' not found in /images" \
	"$VFIT" mkimage -f e.its x.fit
sed 's/default = "conf-1";/default = "conf-9";/' good.its > e.its
fails 1 "missing default" "default configuration 'conf-9' not found" "$VFIT" mkimage -f e.its x.fit
its "" "" " " > e.its
fails 1 "config-signed image without hash" "/images/kernel: no hash node, but signed configuration /configurations/conf-1 needs one" \
	"$VFIT" mkimage -f e.its -k keys x.fit
sed 's/description = "errors";//' good.its > e.its
fails 1 "no description" "^vfit: e.its: /: description missing" "$VFIT" mkimage -f e.its x.fit
sed 's/algo = "sha256,rsa2048"; //' good.its > e.its
fails 1 "no algo" "signature-1: algo missing" "$VFIT" mkimage -f e.its -k keys x.fit
its 'cipher { algo = "aes256"; key-name-hint = "aes"; };' > e.its
fails 2 "cipher key missing" "/images/kernel/cipher: keys/aes.bin: No such file" "$VFIT" mkimage -f e.its -k keys x.fit
fails 1 "cipher without -k" "/images/kernel/cipher: encryption needs -k KEYDIR" "$VFIT" mkimage -f e.its -G keys/dev.key x.fit
printf 'not a dtb' > junk.dtb
fails 1 "bad -K dtb" "junk.dtb: not a valid FDT" "$VFIT" mkimage -f good.its -k keys -K junk.dtb x.fit
fails 1 "-F on junk" "junk.dtb: not a valid FDT" "$VFIT" mkimage -F junk.dtb
# A property length of 0xfffffff4 wraps libfdt's next-tag offset back onto
# the tag: libfdt's fdt_check_full() loops forever on it, dtc and fdtdump
# crash.  Every reader refuses it at once (timeout: a hang fails here).
printf '/dts-v1/; / { description = "x"; timestamp = <1>; wrap = "ABCDEFG"; images { }; };' |
	dtc -I dts -O dtb -o wrap.fit
at=$(grep -abo ABCDEFG wrap.fit | cut -d: -f1)
printf '\377\377\377\364' | dd of=wrap.fit bs=1 seek=$((at - 8)) conv=notrunc 2>/dev/null
cp wrap.fit wrap.dtb
fails 1 "-F on a wrapping length" "wrap.fit: malformed FDT" timeout 60 "$VFIT" mkimage -F wrap.fit
fails 1 "-l of a wrapping length" "wrap.fit: malformed FDT" timeout 60 "$VFIT" mkimage -l wrap.fit
fails 1 "-K with a wrapping length" "wrap.dtb: malformed FDT" \
	timeout 60 "$VFIT" mkimage -f good.its -k keys -K wrap.dtb x.fit
status 1 "info of a wrapping length" timeout 60 "$VFIT" info wrap.fit
contains "info of a wrapping length: message" "$T/.out" "wrap.fit: malformed FDT"
"$VFIT" mkimage -q -f good.its -k keys good.fit || exit 2
status 1 "verify against a wrapping control DTB" timeout 60 "$VFIT" verify -f good.fit -k wrap.dtb
contains "verify against a wrapping control DTB: message" "$T/.out" "malformed control FDT"
# External-data properties outside /images are not image data.
printf '/dts-v1/; / { description = "x"; timestamp = <1>; data-offset = <0>; data-size = <4>; };' |
	dtc -I dts -O dtb -o noimg.fit
fails 1 "-F without /images" "noimg.fit: /images missing" "$VFIT" mkimage -F noimg.fit
# A certificate that is not the private key's would write a useless key node.
mkdir other
"$VFIT" keygen -a rsa2048 -k other -n dev || exit 2
cp keys/dev.key mixed.key
mkdir mixed && cp keys/dev.key mixed/dev.key && cp other/dev.crt mixed/dev.crt
fails 1 "certificate mismatch" "mixed/dev.crt: certificate does not match mixed/dev.key" \
	"$VFIT" mkimage -f good.its -k mixed -K control0.dtb x.fit
fails 2 "missing certificate" "other2/dev.crt: cannot read the certificate" \
	sh -c "mkdir -p other2 && cp keys/dev.key other2/ && '$VFIT' mkimage -f good.its -k other2 -K control0.dtb x.fit"

# Corrupted FITs: -F and info end with a status, never a crash.
cp good.fit g0.fit
size=$(wc -c < g0.fit)
crashes=0
off=0
while [ $off -lt 600 ] && [ $off -lt "$size" ]; do
	cp g0.fit c.fit
	printf '\377' | dd of=c.fit bs=1 seek=$off conv=notrunc 2>/dev/null
	"$VFIT" mkimage -q -F -k keys c.fit > /dev/null 2>&1
	[ $? -gt 2 ] && crashes=$((crashes + 1)) && echo "crash: -F, byte $off"
	"$VFIT" info c.fit > /dev/null 2>&1
	[ $? -gt 2 ] && crashes=$((crashes + 1)) && echo "crash: info, byte $off"
	off=$((off + 5))
done
status 0 "no crash on 120 corrupted FITs" test $crashes = 0

# Atomicity: failing -F and -K runs leave the FIT and the DTB untouched.
cp good.fit a.fit
cp control0.dtb a.dtb
status 1 "-F fails late (key size)" "$VFIT" mkimage -F -k keys -K a.dtb -o sha256,rsa4096 a.fit
ok "FIT unchanged" cmp a.fit good.fit
ok "DTB unchanged" cmp a.dtb control0.dtb
status 1 "-K fails (cert mismatch)" "$VFIT" mkimage -F -k mixed -K a.dtb a.fit
ok "FIT unchanged after -K failure" cmp a.fit good.fit
ok "DTB unchanged after -K failure" cmp a.dtb control0.dtb
if [ "$(id -u)" != 0 ]; then  # root writes anyway
	status 2 "unwritable directory" sh -c "mkdir ro && cp good.fit ro/ && chmod 555 ro &&
		'$VFIT' mkimage -q -F -k keys ro/good.fit"
	ok "FIT unchanged in read-only dir" cmp ro/good.fit good.fit
fi
ls -A > ls.txt
status 1 "no temporary files left" grep "^\\..*\\.[A-Za-z0-9]\\{6\\}$" ls.txt
ok "x.fit never created" test ! -e x.fit
finish
