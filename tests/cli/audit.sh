#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit audit: each finding class from a FIT built for it (sources from
# fixtures.sh, signed by Debian's mkimage, edited with fdtput) produces
# exactly that finding id and no other; a clean signed FIT produces none;
# the exit status follows --fail-on; --its audits a source before signing;
# the SVG parses as XML, names every configuration, image and key in a
# labelled element, colours every edge as its legend entry, and renders
# with rsvg-convert.  The vfit column is vfit's boot flow (an encrypted,
# configuration-signed FIT is decrypted and boots); a default the device
# refuses is the error VA024; every --json failure is a JSON error object;
# an allocation failure while drawing writes no picture.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/fixtures.sh"
need mkimage dtc fdtput jq xmllint rsvg-convert
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000

fit_inputs 4000
random ramdisk.bin 1500
fit_keys rsa2048:dev rsa2048:prod

# ids FIT [ARGS]: the distinct finding ids, sorted, space-separated
ids() {
	f=$1
	shift
	"$VFIT" audit -f "$f" --json "$@" > ids.json 2> ids.err
	jq -r '[.findings[].id] | unique | join(" ")' ids.json
}

# sign NAME ITS CTL [MKIMAGE ARGS]: Debian's mkimage, keys required; CTL starts as nosig.dtb
sign() {
	n=$1 its=$2 ctl=$3
	shift 3
	cp nosig.dtb "$ctl"
	if ! mkimage -f "$its" -k keys -K "$ctl" -r "$@" "$n" > mk.log 2>&1; then
		fail "mkimage $n"
		sed 's/^/    /' mk.log | tail -n 5
	fi
}

# ---- a clean signed FIT: no finding, exit 0, every verifier boots it
fit_its -c sha256,rsa2048:dev > clean.its
sign clean.fit clean.its clean.dtb
is "clean: no finding" "" "$(ids clean.fit -k clean.dtb)"
status 0 "clean: exit 0" "$VFIT" audit -f clean.fit -k clean.dtb
is "clean: verdicts" "true true true" \
	"$(jq -r '.verdicts[0] | [.vfit.accept, ."u-boot-head".accept, ."u-boot-2023.01".accept] | join(" ")' ids.json)"
is "clean: default" conf-1 "$(jq -r .default ids.json)"
"$VFIT" audit -f clean.fit -k clean.dtb > out.txt
contains "clean: table" out.txt '^conf-1 \(default\) +boots +boots +boots'
contains "clean: summary" out.txt '^0 findings: 0 errors, 0 warnings, 0 info$'
status 0 "clean source: exit 0" "$VFIT" audit --its clean.its -k clean.dtb

# ---- VA001: CRC-32 as the only hash of a signed image (vfit refuses, U-Boot boots)
fit_its -H crc32 -c sha256,rsa2048:dev > crc.its
sign crc.fit crc.its crc.dtb
is "VA001 weak-hash-only (vfit refuses the default: VA024)" "VA001 VA024" "$(ids crc.fit -k crc.dtb)"
is "VA001: node and property" "/images/kernel/hash-1 algo" \
	"$(jq -r '.findings[0] | "\(.node) \(.property)"' ids.json)"
is "VA001: vfit refuses, U-Boot boots" "false true true" \
	"$(jq -r '.verdicts[0] | [.vfit.accept, ."u-boot-head".accept, ."u-boot-2023.01".accept] | join(" ")' ids.json)"
status 1 "VA001: exit 1" "$VFIT" audit -f crc.fit -k crc.dtb
"$VFIT" audit -f crc.fit -k crc.dtb > out.txt
contains "VA001: one line with the fix" out.txt \
	'^error +VA001 weak-hash-only /images/kernel/hash-1:algo: crc32 is the only hash .*; fix: .*sha256'

# ---- VA002: an unsigned configuration
fit_its > unsigned.its
mkimage -f unsigned.its unsigned.fit > /dev/null
is "VA002 unsigned-config" "VA002 VA024" "$(ids unsigned.fit -k clean.dtb)"

# ---- VA003: image signatures only (load, entry, which images boot: unsigned)
fit_its -I sha256,rsa2048:dev > isig.its
sign isig.fit isig.its isig.dtb
is "VA003 image-sig-only" VA003 "$(ids isig.fit -k isig.dtb)"

# ---- VA004: no key is required (the same FIT, key written without -r)
cp nosig.dtb opt.dtb
mkimage -f clean.its -k keys -K opt.dtb opt.fit > /dev/null
is "VA004 no-required-key" "VA004 VA024" "$(ids opt.fit -k opt.dtb)"
is "VA004: names the control DTB" "opt.dtb /signature" "$(jq -r '.findings[0] | "\(.file) \(.node)"' ids.json)"
is "VA004: vfit refuses, U-Boot boots" "false true true" \
	"$(jq -r '.verdicts[0] | [.vfit.accept, ."u-boot-head".accept, ."u-boot-2023.01".accept] | join(" ")' ids.json)"

# ---- VA005: a `required` that says two things (U-Boot reads "conf")
cp clean.dtb two.dtb
fdtput -t s two.dtb /signature/key-dev required conf image
is "VA005 required-says-nothing" "VA005 VA024" "$(ids clean.fit -k two.dtb)"

# ---- VA006: mkimage's sign-images leaves the ramdisk out
fit_its -r ramdisk.bin -c sha256,rsa2048:dev -s '"kernel", "fdt"' > gap.its
sign gap.fit gap.its gap.dtb
is "VA006 hashed-nodes-gap" "VA006 VA024" "$(ids gap.fit -k gap.dtb)"
is "VA006: HEAD and vfit refuse, 2023.01 boots" "false false true" \
	"$(jq -r '.verdicts[0] | [.vfit.accept, ."u-boot-head".accept, ."u-boot-2023.01".accept] | join(" ")' ids.json)"
is "VA006: before signing (warning)" "VA006 warning" \
	"$("$VFIT" audit --its gap.its --json | jq -r '[.findings[] | "\(.id) \(.severity)"] | join(",")')"

# ---- VA007: '@' in a node name
sed 's/kernel {/kernel@1 {/; s/kernel = "kernel"/kernel = "kernel@1"/' clean.its > at.its
sign at.fit at.its at.dtb
is "VA007 unit-address" "VA007 VA024" "$(ids at.fit -k at.dtb)"
is "VA007: every verifier refuses" "false false false" \
	"$(jq -r '.verdicts[0] | [.vfit.accept, ."u-boot-head".accept, ."u-boot-2023.01".accept] | join(" ")' ids.json)"

# ---- VA008: an RSA key below 2048 bits in the control DTB
mkdir -p k1024
rsa_key k1024/dev 1024
cp nosig.dtb small.dtb
mkimage -f clean.its -k k1024 -K small.dtb -r small.fit > /dev/null 2>&1
is "VA008 rsa-key-small" "VA008 VA024" "$(ids small.fit -k small.dtb)"

# ---- VA009: SHA-1 for hashes and signature
fit_its -H sha1 -c sha1,rsa2048:dev > sha1.its
sign sha1.fit sha1.its sha1.dtb
is "VA009 sha1" VA009 "$(ids sha1.fit -k sha1.dtb)"

# ---- VA010: a signature by a key the control DTB does not hold
fit_its -c sha256,rsa2048:dev -c sha256,rsa2048:prod > twokeys.its
sign twokeys.fit twokeys.its twokeys.dtb
is "VA010 key-not-in-control" VA010 "$(ids twokeys.fit -k clean.dtb)"

# ---- VA016: two required keys, required-mode "any"
cp twokeys.dtb any.dtb
fdtput -t s any.dtb /signature required-mode any
is "VA016 required-mode" VA016 "$(ids twokeys.fit -k any.dtb)"
status 0 "VA016: a warning passes --fail-on error" "$VFIT" audit -f twokeys.fit -k any.dtb
status 1 "VA016: and fails --fail-on warning" "$VFIT" audit -f twokeys.fit -k any.dtb --fail-on warning

# ---- VA011: the default configuration is weaker than another
sed -e 's/default = "conf-1"/default = "conf-2"/' \
	-e 's|^\t};\n};||' clean.its | awk '
	/^\t\tconf-1 \{/ { c = 1 }
	{ print }
	c && /^\t\t\};/ { c = 0; print "\t\tconf-2 {\n\t\t\tkernel = \"kernel\"; fdt = \"fdt-1\";"
		print "\t\t\tsignature-1 { algo = \"sha256,rsa2048\"; key-name-hint = \"prod\"; sign-images = \"fdt\", \"kernel\"; };\n\t\t};" }' > weak.its
sign weak.fit weak.its weak.dtb
fdtput -d weak.dtb /signature/key-prod required
is "VA011 default-weaker (and refused)" "VA011 VA024" "$(ids weak.fit -k weak.dtb)"

# ---- VA012: an image no configuration references
awk '{ print } /^\timages \{/ { print "\t\tspare {\n\t\t\tdata = /incbin/(\"ramdisk.bin\");\n\t\t\ttype = \"ramdisk\"; compression = \"none\";\n\t\t\thash-1 { algo = \"sha256\"; };\n\t\t};" }' clean.its > spare.its
sign spare.fit spare.its spare.dtb
is "VA012 unreferenced-image" VA012 "$(ids spare.fit -k spare.dtb)"

# ---- VA013: two load ranges of one configuration overlap
fit_its -r ramdisk.bin -c sha256,rsa2048:dev -s '"kernel", "fdt", "ramdisk"' |
	sed '/ramdisk-1 {/,/};/ s|compression = "none";|compression = "none"; load = <0x80800>;|' > overlap.its
sign overlap.fit overlap.its overlap.dtb
is "VA013 load-overlap" VA013 "$(ids overlap.fit -k overlap.dtb)"

# ---- VA014: a load into the loader's region (the default, and --loader)
fit_its -L 0x4000 -c sha256,rsa2048:dev > low.its
sign low.fit low.its low.dtb
is "VA014 load-loader-region" VA014 "$(ids low.fit -k low.dtb)"
is "VA014: --loader" VA014 "$(ids clean.fit -k clean.dtb --loader 80800:100)"
is "VA014: --loader elsewhere" "" "$(ids clean.fit -k clean.dtb --loader 90000:1000)"
status 2 "--loader: bad value" "$VFIT" audit -f clean.fit --loader 80000

# ---- VA015: an entry point outside the kernel
sed 's/entry = <0x80000>/entry = <0x100000>/' clean.its > entry.its
sign entry.fit entry.its entry.dtb
is "VA015 entry-outside-kernel" VA015 "$(ids entry.fit -k entry.dtb)"

# ---- VA017: mixed algorithms
fit_its -c sha256,rsa2048:dev -c sha512,rsa2048:prod > mixed.its
sign mixed.fit mixed.its mixed.dtb
is "VA017 mixed-algorithms" VA017 "$(ids mixed.fit -k mixed.dtb)"

# ---- VA018: timestamps in the future
SOURCE_DATE_EPOCH=4000000000 sign future.fit clean.its future.dtb
is "VA018 future-timestamp" VA018 "$(ids future.fit -k future.dtb)"

# ---- VA019: bytes of an external-data file no hash or signature covers
sign ext.fit clean.its ext.dtb -E
is "external: clean" "" "$(ids ext.fit -k ext.dtb)"
cp ext.fit extx.fit
printf 'EVIL' >> extx.fit
is "VA019 external-unsigned" VA019 "$(ids extx.fit -k ext.dtb)"

# ---- VA020: dm-verity (vfit mkimage generates it as U-Boot HEAD does)
random fs.bin 8192
fit_its -r fs.bin -c sha256,rsa2048:dev -s '"kernel", "fdt", "ramdisk"' |
	sed '/ramdisk-1 {/,/};/ s|hash-1 {|dm-verity { algo = "sha256"; data-block-size = <4096>; hash-block-size = <4096>; };\n\t\t\thash-1 {|' > verity.its
cp nosig.dtb verity.dtb
"$VFIT" mkimage -q -f verity.its -k keys -K verity.dtb -r -E verity.fit > mk.log 2>&1 ||
	fail "vfit mkimage dm-verity: $(tail -n 1 mk.log)"
is "VA020 dm-verity" VA020 "$(ids verity.fit -k verity.dtb)"

# ---- VA021: an encrypted image (vfit refuses it)
head -c 32 /dev/urandom > keys/aes.bin
sed 's|hash-1 { algo = "sha256"; };|&\n\t\t\tcipher { algo = "aes256"; key-name-hint = "aes"; };|' clean.its |
	awk '/cipher/ && n++ { next } { print }' > enc.its
sign enc.fit enc.its enc.dtb
# vfit's boot flow decrypts it (verify --decrypt, the boot flow): the vfit column boots it,
# and the finding says what CBC and the key in clear mean, as information.
is "VA021 encrypted-image" VA021 "$(ids enc.fit -k enc.dtb)"
is "VA021: info, not an error" info "$(jq -r '.findings[0].severity' ids.json)"
is "VA021: every column boots it" "true true true true" \
	"$(jq -r '.verdicts[0] | [.vfit.accept, ."u-boot-head".accept, ."u-boot-2023.01".accept, ."debian-12-u-boot".accept] | join(" ")' ids.json)"
contains "VA021: vfit decrypts it" ids.json '"why":"verified: 2 images, 1 decrypted'
ok "VA021: as vfit verify --decrypt does" "$VFIT" verify -f enc.fit -k enc.dtb --decrypt enc.dtb
status 0 "VA021: exit 0" "$VFIT" audit -f enc.fit -k enc.dtb
"$VFIT" audit -f enc.fit -k enc.dtb > out.txt
if grep -q 'vfit does not decrypt\|vfit refuses' out.txt; then fail "VA021: false advice printed"; else pass; fi
# Encrypted and compressed: vfit's boot flow refuses it (it decrypts only uncompressed images).
awk '/^\t\tkernel \{/ { k = 1 } k && /compression/ { sub(/"none"/, "\"gzip\""); k = 0 } { print }' \
	enc.its > encgz.its
sign encgz.fit encgz.its encgz.dtb
ids encgz.fit -k encgz.dtb > /dev/null
is "encrypted and compressed: vfit refuses" false "$(jq -r '.verdicts[0].vfit.accept' ids.json)"
contains "encrypted and compressed: says why" ids.json '"why":"image .kernel. is encrypted and compressed'
# The key missing from the control DTB: nobody can decrypt it, and the default does not boot.
cp enc.dtb enckey.dtb
fdtput -r enckey.dtb /cipher
is "VA021 without the key: and VA024" "VA021 VA024" "$(ids enc.fit -k enckey.dtb)"
is "VA021 without the key: an error naming the key node" "error" \
	"$(jq -r '.findings[] | select(.id == "VA021") | .severity' ids.json)"
contains "VA021 without the key: says which" ids.json 'no /cipher node in the control DTB'
is "VA021 without the key: vfit refuses" false "$(jq -r '.verdicts[0].vfit.accept' ids.json)"
# Under image signatures only, the cipher node is unsigned: vfit refuses it.
sed 's|hash-1 { algo = "sha256"; };|&\n\t\t\tcipher { algo = "aes256"; key-name-hint = "aes"; };|' isig.its |
	awk '/cipher/ && n++ { next } { print }' > encisig.its
sign encisig.fit encisig.its encisig.dtb
is "VA021 under an image signature: error" "error" \
	"$(ids encisig.fit -k encisig.dtb > /dev/null; jq -r '.findings[] | select(.id == "VA021") | .severity' ids.json)"
is "VA021 under an image signature: vfit refuses" false "$(jq -r '.verdicts[0].vfit.accept' ids.json)"
contains "VA021 under an image signature: the reason" ids.json 'decrypted only under a configuration signature by a required key'

# ---- VA024: the device's verifier refuses the default configuration: an error
fit_its -c sha256,rsa2048:prod > prodonly.its
sign prodonly.fit prodonly.its prodonly.dtb
is "VA024 default-refused (signed only by a key the control DTB lacks)" "VA010 VA024" \
	"$(ids prodonly.fit -k clean.dtb)"
is "VA024: an error" error "$(jq -r '.findings[] | select(.id == "VA024") | .severity' ids.json)"
contains "VA024: says it will not boot" ids.json 'vfit refuses the default configuration .conf-1. with the keys of clean.dtb .*this FIT will not boot on that device'
status 1 "VA024: exit 1" "$VFIT" audit -f prodonly.fit -k clean.dtb
is "VA024: not without a control DTB (no device named)" "" \
	"$(ids prodonly.fit | tr ' ' '\n' | grep VA024)"
# A default that names no configuration.
cp clean.fit nodef.fit
fdtput -t s nodef.fit /configurations default conf-9
is "VA024: a default naming no configuration" "VA024" "$(ids nodef.fit -k clean.dtb)"
contains "VA024: says why" ids.json 'conf-9'


# ---- VA022: an image without hash node under a configuration signature (source)
fit_its -r ramdisk.bin -c sha256,rsa2048:dev -s '"kernel", "fdt", "ramdisk"' |
	awk '/ramdisk-1 \{/ { r = 1 } r && /hash-1/ { r = 0; next } { print }' > nohash.its
is "VA022 no-hash (source)" VA022 \
	"$("$VFIT" audit --its nohash.its --json | jq -r '[.findings[].id] | unique | join(" ")')"

# ---- VA023: a signature node mkimage left without value (its key was missing)
mkdir -p devonly && cp keys/dev.key keys/dev.crt devonly/
cp nosig.dtb half.dtb
mkimage -f twokeys.its -k devonly half.fit > /dev/null 2>&1
is "VA023 unsigned-signature" VA023 "$(ids half.fit)"

# ---- Linux's make_fit.py layout: a kernel and many device trees, one configuration each
cp kernel.bin Image
fit_dtbs_its 12 > dtbs.its
sign dtbs.fit dtbs.its dtbs.dtb
is "12 DTBs, signed: no finding" "" "$(ids dtbs.fit -k dtbs.dtb)"
is "12 DTBs: 12 configurations, each boots everywhere" "12 12" \
	"$(jq -r '[.verdicts | length, ([.[] | select(.vfit.accept and ."u-boot-head".accept and ."debian-12-u-boot".accept)] | length)] | join(" ")' ids.json)"
fit_dtbs_its 12 unsigned > dtbsu.its
mkimage -f dtbsu.its dtbsu.fit > /dev/null
is "12 DTBs, unsigned: VA002 per configuration, the default refused" "12 VA002 VA024" \
	"$("$VFIT" audit -f dtbsu.fit -k dtbs.dtb --json | jq -r '[([.findings[] | select(.id == "VA002")] | length), ([.findings[].id] | unique | join(" "))] | join(" ")')"

# ---- the source and the FIT together; bad input; usage
"$VFIT" audit -f gap.fit -k gap.dtb --its gap.its --json > both.json
is "-f with --its: both files' findings" "gap.fit gap.its" \
	"$(jq -r '[.findings[].file] | unique | join(" ")' both.json)"
"$VFIT" audit -f gap.fit -k gap.dtb --its gap.its > both.txt
contains "-f with --its: the source's line names it" both.txt \
	'^warning VA006 hashed-nodes-gap gap.its:/configurations/conf-1/signature-1:sign-images: '
contains "-f with --its: the FIT's line does not" both.txt \
	'^error +VA006 hashed-nodes-gap /configurations/conf-1/signature-1:hashed-nodes: '
head -c 100 /dev/urandom > junk.bin
status 1 "not a device tree: exit 1" "$VFIT" audit -f junk.bin
"$VFIT" audit -f junk.bin 2> err.txt
contains "not a device tree: one line" err.txt '^vfit: audit: junk.bin: not a device tree'
status 2 "missing file: exit 2" "$VFIT" audit -f nothere.fit
printf '/dts-v1/;\n/ { images {' > broken.its
status 1 "broken source: exit 1" "$VFIT" audit --its broken.its
printf '/dts-v1/;\n/ { description = "x"; };' | dtc -I dts -O dtb -o noimages.dtb 2>/dev/null
status 1 "a device tree without /images: exit 1" "$VFIT" audit -f noimages.dtb
status 2 "no input: exit 2" "$VFIT" audit
status 2 "bad --fail-on: exit 2" "$VFIT" audit -f clean.fit --fail-on never
status 2 "--svg without -f: exit 2" "$VFIT" audit --its clean.its --svg x.svg
ok "--help" "$VFIT" audit --help

# ---- --json: every failure is one JSON object on stdout whose error says
# the exit status and the line on stderr (man/vfit.1, JSON ERRORS)
# json_fail NAME STATUS ARGS...: exit STATUS, stdout valid JSON, .error as stderr's last line
json_fail() {
	n=$1 want=$2
	shift 2
	"$VFIT" audit --json "$@" > jf.out 2> jf.err
	got=$?
	is "--json $n: exit $want" "$want" "$got"
	if jq -e . jf.out > /dev/null 2>&1; then pass; else fail "--json $n: stdout is not JSON: $(head -c 200 jf.out)"; fi
	is "--json $n: error.status" "$want" "$(jq -r '.error.status' jf.out 2>/dev/null)"
	is "--json $n: error.message is the stderr line" "$(grep '^vfit: ' jf.err | tail -n 1)" \
		"$(jq -r '.error.message' jf.out 2>/dev/null)"
}
json_fail "missing file" 2 -f nothere.fit
json_fail "missing control DTB" 2 -f clean.fit -k nothere.dtb
json_fail "a directory" 2 -f "$T"
json_fail "unknown option" 2 -f clean.fit --nosuch
json_fail "option before --json" 2 --bogus -f clean.fit
json_fail "missing value" 2 -f clean.fit --fail-on
json_fail "bad --fail-on" 2 -f clean.fit --fail-on never
json_fail "no input" 2
json_fail "not a device tree" 1 -f junk.bin
json_fail "broken source" 1 --its broken.its
json_fail "findings" 1 -f crc.fit -k crc.dtb
is "--json findings: the report is there too" VA001 "$(jq -r '.findings[0].id' jf.out)"
"$VFIT" audit --json -f clean.fit -k clean.dtb > jf.out
is "--json success: no error member" null "$(jq -r '.error' jf.out)"

# ---- the picture
"$VFIT" audit -f weak.fit -k weak.dtb --svg weak.svg > /dev/null
ok "svg: well-formed XML" xmllint --noout weak.svg
is "svg: namespace" "http://www.w3.org/2000/svg" \
	"$(xmllint --xpath 'namespace-uri(/*)' weak.svg)"
x() { xmllint --xpath "$1" weak.svg 2>/dev/null; }
for c in conf-1 conf-2; do
	is "svg: configuration $c labelled" 1 \
		"$(x "count(//*[local-name()='g'][@class='node conf']/*[local-name()='text'][1][.='$c'])")"
done
for i in kernel fdt-1; do
	is "svg: image $i labelled" 1 \
		"$(x "count(//*[local-name()='g'][@class='node image']/*[local-name()='text'][1][.='$i'])")"
done
for k in key-dev key-prod; do
	is "svg: key $k labelled" 1 \
		"$(x "count(//*[local-name()='g'][@class='node key']/*[local-name()='text'][1][.='$k'])")"
done
# Every edge's colour is its legend entry's; weak.fit has required and optional edges.
for p in prot-required prot-optional prot-hash prot-none; do
	legend=$(x "string(//*[local-name()='g'][@class='legend']/*[local-name()='line'][@class='$p']/@stroke)")
	n=$(x "count(//*[local-name()='path'][contains(@class,'edge $p')])")
	bad=$(x "count(//*[local-name()='path'][contains(@class,'edge $p')][@stroke!='$legend'])")
	is "svg: legend has $p" 1 "$([ -n "$legend" ] && echo 1)"
	is "svg: $p edges ($n) in the legend's colour" 0 "$bad"
done
is "svg: required edges drawn" true "$([ "$(x "count(//*[local-name()='path'][contains(@class,'edge prot-required')])")" -gt 0 ] && echo true)"
is "svg: optional edges drawn" true "$([ "$(x "count(//*[local-name()='path'][contains(@class,'edge prot-optional')])")" -gt 0 ] && echo true)"
# The attacker's parts are marked: m has an unsigned configuration.
"$VFIT" audit -f isig.fit -k isig.dtb --svg isig.svg > /dev/null
is "svg: attacker-controlled configuration marked" 1 \
	"$(xmllint --xpath "count(//*[local-name()='g'][contains(@class,'conf')]/*[local-name()='rect'][@stroke='#cf222e'])" isig.svg)"
# Strings that need escaping stay text (a key-name-hint is any string).
sed "s/key-name-hint = \"dev\"/key-name-hint = \"d<e>\&v'\"/" clean.its > esc.its
mkimage -f esc.its esc.fit > /dev/null
"$VFIT" audit -f esc.fit --svg esc.svg > /dev/null
ok "svg: escaped names parse" xmllint --noout esc.svg
is "svg: escaped key name" 1 \
	"$(xmllint --xpath "count(//*[local-name()='text'][.=\"key-d<e>&v'\"])" esc.svg)"
ok "svg: rsvg-convert renders it" rsvg-convert -o weak.png weak.svg
is "png: an image" PNG "$(head -c 4 weak.png | tail -c 3)"
# A blank canvas of this size compresses to a few hundred bytes.
is "png: non-trivial content" true "$([ "$(wc -c < weak.png)" -gt 20000 ] && echo true)"
# A failed command writes nothing.
status 1 "svg: bad input" "$VFIT" audit -f junk.bin --svg junk.svg
is "svg: no file on failure" absent "$([ -e junk.svg ] && echo present || echo absent)"

# Out of memory while drawing: an error, never an empty picture written as the audit's.
# A preloaded calloc() fails its Nth call (counted from program start); each N
# must give a whole picture (exit 0, or 1 for weak.fit's findings) or exit 2
# "out of memory" and no file.
if command -v cc > /dev/null 2>&1; then
	cat > failcalloc.c <<'EOC'
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
void *__libc_calloc(size_t n, size_t size);
static long fail_at, calls;
__attribute__((constructor)) static void init(void)
{
	const char *s = getenv("FAIL_CALLOC");

	fail_at = s ? atol(s) : 0;
}
void *calloc(size_t n, size_t size)
{
	if (fail_at && ++calls == fail_at) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_calloc(n, size);
}
EOC
	cc -shared -fPIC -o failcalloc.so failcalloc.c || fail "svg: cannot build the calloc shim"
	oom=0
	for n in 1 2 3 4 5 6 7 8; do
		rm -f oom.svg
		LD_PRELOAD=$T/failcalloc.so FAIL_CALLOC=$n "$VFIT" audit -f weak.fit -k weak.dtb \
			--svg oom.svg > oom.out 2> oom.err
		r=$?
		if [ $r -le 1 ] && xmllint --noout oom.svg 2> /dev/null; then
			pass
		elif [ $r = 2 ] && [ ! -e oom.svg ] && grep -q 'out of memory' oom.err; then
			pass
			oom=$((oom + 1))
		else
			fail "svg: calloc #$n failing: exit $r, $(wc -c < oom.svg 2>/dev/null || echo no) bytes of SVG: $(head -n 1 oom.err)"
		fi
	done
	is "svg: the failing calloc hit the picture" true "$([ $oom -gt 0 ] && echo true)"
else
	skip tool "no C compiler for the calloc shim: svg out-of-memory not tested"
fi

finish
