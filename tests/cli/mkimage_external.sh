#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vfit mkimage -E / -B / -p (fit-format.md §2.6, mkimage 2023.01 layout) and -F on
# an external FIT (data imported first), checked with fdtget and verify.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/fixtures.sh"
cd "$T" || exit 2
export SOURCE_DATE_EPOCH=1700000000

fit_inputs 500
fit_keys rsa2048:dev
fit_its -d external -n -L 0 -i sha256,rsa2048:dev -c sha256,rsa2048:dev -s "" > ext.its
dsize=$(wc -c < board.dtb)
hexv() { printf '%x' "$1"; }
total() { fdtdump "$1" 2>/dev/null | sed -n 's/^\/\/ totalsize:.*(\([0-9]*\))/\1/p'; }

cp nosig.dtb control.dtb
ok "sign embedded" "$VFIT" mkimage -q -f ext.its -k keys -K control.dtb -r emb.fit
ok "-E" "$VFIT" mkimage -q -E -f ext.its -k keys e.fit
status 0 "kernel data-offset 0" test "$(fdtget -t x e.fit /images/kernel data-offset)" = 0
status 0 "kernel data-size" test "$(fdtget -t x e.fit /images/kernel data-size)" = 1f4
status 0 "fdt after kernel, 4-aligned" test "$(fdtget -t x e.fit /images/fdt-1 data-offset)" = 1f4
status 1 "no data left" fdtget e.fit /images/kernel data
t=$(total e.fit)
status 0 "totalsize 4-aligned" test $((t % 4)) = 0
status 0 "file = totalsize + data" test "$(wc -c < e.fit)" = $((t + 500 + (dsize + 3) / 4 * 4))
ok "payload at totalsize" cmp -i "$t:0" -n 500 e.fit kernel.bin
ok "-E verifies" "$VFIT" verify -f e.fit -k control.dtb
status 0 "same signature as embedded" test \
	"$(fdtget -t x e.fit /configurations/conf-1/signature-1 value)" = \
	"$(fdtget -t x emb.fit /configurations/conf-1/signature-1 value)"

ok "-E -B 1000" "$VFIT" mkimage -q -E -B 1000 -f ext.its -k keys b.fit
status 0 "-B totalsize" test "$(total b.fit)" = 4096
status 0 "-B fdt offset" test "$(fdtget -t x b.fit /images/fdt-1 data-offset)" = 1000
ok "-B verifies" "$VFIT" verify -f b.fit -k control.dtb

ok "-E -p 10000" "$VFIT" mkimage -q -E -p 10000 -f ext.its -k keys p.fit
status 0 "-p kernel position" test "$(fdtget -t x p.fit /images/kernel data-position)" = 10000
status 0 "-p fdt position" test "$(fdtget -t x p.fit /images/fdt-1 data-position)" = 101f4
status 1 "-p no data-offset" fdtget p.fit /images/kernel data-offset
ok "-p payload at position" cmp -i 65536:0 -n 500 p.fit kernel.bin
ok "-p verifies" "$VFIT" verify -f p.fit -k control.dtb

# -F imports external data first; without -E the result is embedded again.
cp e.fit f.fit
ok "-F external" "$VFIT" mkimage -q -F -k keys f.fit
status 1 "-F external rewrote the FIT" cmp -s f.fit e.fit
status 0 "data imported" test "$(fdtget -t bx f.fit /images/kernel data | wc -w)" = 500
status 1 "data-offset removed" fdtget f.fit /images/kernel data-offset
status 1 "data-size removed" fdtget f.fit /images/kernel data-size
ok "-F external verifies" "$VFIT" verify -f f.fit -k control.dtb
cp p.fit g.fit
ok "-F -E on data-position FIT" "$VFIT" mkimage -q -F -E -k keys g.fit
status 1 "-F -E rewrote the FIT" cmp -s g.fit p.fit
status 0 "back to data-offset" test "$(fdtget -t x g.fit /images/fdt-1 data-offset)" = 1f4
ok "-F -E verifies" "$VFIT" verify -f g.fit -k control.dtb
# Same images; the configuration signature differs only because the strings
# block still holds "data-position", so hashed-strings covers more.
to_dts "-F -E output" g.fit g.full && sed '/configurations {/,$d' g.full > g.dts
to_dts "-E output" e.fit e.full && sed '/configurations {/,$d' e.full > e.dts
same "-F -E reproduces the -E images" g.dts e.dts

# External data outside the file is refused, the FIT left alone.
head -c "$t" e.fit > short.fit
cp short.fit short.orig
status 1 "truncated external data" "$VFIT" mkimage -q -F short.fit
contains "names the node" "$T/.out" "short.fit: /images/kernel: external data outside the file"
ok "truncated FIT unchanged" cmp short.fit short.orig
# An offset past 2 GiB (U-Boot reads it as a signed int) and a missing size.
# (fdtput keeps only the FDT: the payloads are put back after it.)
cp e.fit big.fit
fdtput -t x big.fit /images/fdt-1 data-offset 80000000
tail -c +$((t + 1)) e.fit >> big.fit
cp big.fit big.orig
status 1 "offset past 2 GiB" "$VFIT" mkimage -q -F big.fit
contains "offset: names the node" "$T/.out" "big.fit: /images/fdt-1: external data outside the file"
ok "offset: FIT unchanged" cmp big.fit big.orig
cp e.fit nosize.fit
fdtput -d nosize.fit /images/kernel data-size
tail -c +$((t + 1)) e.fit >> nosize.fit
status 1 "data-size missing" "$VFIT" mkimage -q -F nosize.fit
contains "size: names the node" "$T/.out" "nosize.fit: /images/kernel: data-size missing"

# A 256 MiB kernel (sparse: cheap to make, hash and copy; issue 29 item 11).
# Signed and embedded, the FIT is past the 256 MiB in which U-Boot checks
# signatures: refused, naming the limit and -E.  With -E the FDT is what
# the device checks: built, as Debian's mkimage builds it, with a warning
# that U-Boot HEAD bounds external data by the same limit (so does vfit
# verify, built with U-Boot's default).  Unsigned and embedded: built.
truncate -s 256M k256.bin
fit_its -d big -k k256.bin -f "" -c sha256,rsa2048:dev > k256.its
cp nosig.dtb big.dtb
status 1 "256 MiB, signed, embedded: refused" "$VFIT" mkimage -q -f k256.its -k keys k256.fit
contains "256 MiB: the limit and -E named" "$T/.out" \
	"k256.its: the FIT is [0-9]+ bytes, more than the 268435456 .*CONFIG_FIT_SIGNATURE_MAX_SIZE.*with -E$"
status 1 "256 MiB: nothing written" test -e k256.fit
ok "256 MiB, signed, -E: built" "$VFIT" mkimage -q -E -f k256.its -k keys -K big.dtb -r k256e.fit
contains "256 MiB -E: U-Boot HEAD's bound named" "$T/.out" \
	"warning: k256e.fit: external data ends at byte [0-9]+, past 268435456: .*CONFIG_FIT_SIGNATURE_MAX_SIZE raised"
t=$(total k256e.fit)
status 0 "256 MiB -E: the data after the FDT" test "$(wc -c < k256e.fit)" = $((t + 268435456))
ok "256 MiB -E: the payload's holes stay holes" test "$(du -k k256e.fit | cut -f1)" -lt 1024
status 1 "256 MiB -E: vfit verify refuses it as U-Boot HEAD does" "$VFIT" verify -f k256e.fit -k big.dtb
contains "256 MiB -E: out of bounds" "$T/.out" "external data is out of bounds"
fit_its -d big -k k256.bin -f "" > k256u.its
ok "256 MiB, unsigned, embedded: built" "$VFIT" mkimage -q -f k256u.its k256u.fit
status 0 "256 MiB, embedded: the FDT holds the payload" test "$(total k256u.fit)" -gt 268435456
finish
