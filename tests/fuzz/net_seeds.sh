#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Not a test: how the fuzz_net seeds were made, for the record (rerun it
# after a change of fuzz_net.c's input format; it writes over the committed
# copies).  Each seed is what QEMU's slirp sent in one real fetch
# (tests/vectors/net/*.pcap, captured with -object filter-dump): the room
# byte, then every frame not sent by the stage's MAC as a record with every
# fix-up on (fuzz_net.c), so a run starts from a fetch that gets through.
# Usage: tests/fuzz/net_seeds.sh
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$ROOT/tests/fuzz/corpus/fuzz_net
mkdir -p "$OUT"

# seed PCAP ROOM OUT: ROOM is the first byte (room = 64 * ROOM bytes).
seed() {
	perl -e '
		local $/;
		open(my $f, "<:raw", $ARGV[0]) or die "$ARGV[0]: $!";
		my $d = <$f>;
		my ($magic) = unpack("V", $d);
		die "$ARGV[0]: not a little-endian pcap\n" unless $magic == 0xa1b2c3d4;
		my $out = pack("C", $ARGV[1]);
		for (my $o = 24; $o + 16 <= length($d);) {
			my (undef, undef, $incl) = unpack("VVV", substr($d, $o, 12));
			my $fr = substr($d, $o + 16, $incl);
			$o += 16 + $incl;
			next if substr($fr, 6, 6) eq pack("H12", "525400123456");
			$out .= pack("Cn", 0x1f, length($fr)) . $fr;
		}
		print $out;' "$1" "$2" >"$3"
}
seed "$ROOT/tests/vectors/net/slirp-fetch.pcap" 255 "$OUT/slirp-fetch"
seed "$ROOT/tests/vectors/net/slirp-fetch.pcap" 40 "$OUT/slirp-fetch-too-big"
seed "$ROOT/tests/vectors/net/slirp-error.pcap" 255 "$OUT/slirp-error"
