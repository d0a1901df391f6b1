#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# `vfit verify` command line: exit statuses (0 verified, 1 rejected, 2 usage
# or I/O), the error line on stderr, --json on failures, --allow-unenforced,
# and the man page against --help.
. "$(dirname "$0")/../lib.sh"
cd "$T" || exit 2

rsa_key dev 2048
random k.bin 777
printf '/dts-v1/;\n/ { };\n' > ctl.dts
dtc -I dts -O dtb -o ctl.dtb ctl.dts
cp ctl.dtb nokeys.dtb
cat > a.its <<ITS
/dts-v1/;
/ {
	description = "cli";
	images {
		kernel {
			data = /incbin/("k.bin");
			type = "kernel"; arch = "arm"; os = "linux"; compression = "none";
			load = <0x0 0x80000000>; entry = <0x80000000>;
			hash-1 { algo = "sha256"; };
		};
	};
	configurations {
		default = "conf-1";
		conf-1 {
			kernel = "kernel";
			signature-1 { algo = "sha256,rsa2048"; key-name-hint = "dev"; sign-images = "kernel"; };
		};
	};
};
ITS
mkimage -f a.its -k . -K ctl.dtb -r a.fit >/dev/null

status 0 "verified" "$VFIT" verify -f a.fit -k ctl.dtb
status 0 "-c" "$VFIT" verify -f a.fit -k ctl.dtb -c conf-1
status 1 "-c missing configuration" "$VFIT" verify -f a.fit -k ctl.dtb -c conf-9
status 2 "no arguments" "$VFIT" verify
status 2 "no -k" "$VFIT" verify -f a.fit
status 2 "extra argument" "$VFIT" verify -f a.fit -k ctl.dtb extra
status 2 "unknown option" "$VFIT" verify -f a.fit -k ctl.dtb --bogus
status 2 "missing FIT" "$VFIT" verify -f none.fit -k ctl.dtb
status 2 "missing DTB" "$VFIT" verify -f a.fit -k none.dtb
status 2 "directory" "$VFIT" verify -f . -k ctl.dtb
mkfifo fifo
status 2 "FIFO: refused, no hang" timeout 120 "$VFIT" verify -f fifo -k ctl.dtb
status 0 "--help" "$VFIT" verify --help
: > empty
status 1 "empty FIT" "$VFIT" verify -f empty -k ctl.dtb
status 1 "garbage control DTB" "$VFIT" verify -f a.fit -k k.bin
status 1 "not a FIT" "$VFIT" verify -f k.bin -k ctl.dtb

# The configuration -c names is named in the error line.
"$VFIT" verify -f a.fit -k ctl.dtb -c conf-9 > out.txt 2> err.txt
contains "-c missing configuration: named" err.txt "^vfit: a.fit: /configurations/conf-9: no such configuration$"
cp a.fit nodef.fit
fdtput -t s nodef.fit /configurations default conf-7
"$VFIT" verify -f nodef.fit -k ctl.dtb > out.txt 2> err.txt
contains "default naming no configuration: named" err.txt \
	"^vfit: nodef.fit: /configurations/conf-7: no such configuration \(the default names it\)$"
# Usage errors say what is wrong in one line before the usage.
"$VFIT" verify -f a.fit > out.txt 2> err.txt
is "no -k: the line" "vfit: verify: -k CONTROL_DTB is needed" "$(head -n 1 err.txt)"
"$VFIT" verify -f a.fit -k ctl.dtb --bogus > out.txt 2> err.txt
is "unknown long option: named" "vfit: verify: unknown option --bogus" "$(head -n 1 err.txt)"
"$VFIT" verify -f a.fit -k ctl.dtb --json=x > out.txt 2> err.txt
is "flag with a value" "vfit: verify: --json takes no value" "$(head -n 1 err.txt)"
"$VFIT" verify -f a.fit -k > out.txt 2> err.txt
is "missing value" "vfit: verify: -k needs a value" "$(head -n 1 err.txt)"
"$VFIT" verify -f a.fit -k ctl.dtb --decrypt > out.txt 2> err.txt
is "missing value of a long option" "vfit: verify: --decrypt needs a value" "$(head -n 1 err.txt)"
"$VFIT" verify -f a.fit -k ctl.dtb -o dir > out.txt 2> err.txt
is "-o without --decrypt" "vfit: verify: -o DIR goes with --decrypt KEY_DTB" "$(head -n 1 err.txt)"

# --json: every failure prints one JSON object on stdout whose error member
# has the exit status and the line printed on stderr (man/vfit.1, JSON ERRORS).
json_fail() { # NAME STATUS ARGS...
	n=$1 want=$2
	shift 2
	"$VFIT" verify --json "$@" > jf.out 2> jf.err
	got=$?
	is "--json $n: exit $want" "$want" "$got"
	if jq -e . jf.out > /dev/null 2>&1 && [ "$(grep -c . jf.out)" = 1 ]; then pass
	else fail "--json $n: stdout is not one JSON object: $(head -c 200 jf.out)"; fi
	is "--json $n: error.status" "$want" "$(jq -r '.error.status' jf.out 2>/dev/null)"
	is "--json $n: error.message is the stderr line" "$(grep '^vfit: ' jf.err | tail -n 1)" \
		"$(jq -r '.error.message' jf.out 2>/dev/null)"
}
json_fail "missing FIT" 2 -f none.fit -k ctl.dtb
json_fail "missing DTB" 2 -f a.fit -k none.dtb
json_fail "directory" 2 -f . -k ctl.dtb
json_fail "/dev/null" 2 -f /dev/null -k ctl.dtb
json_fail "no -k" 2 -f a.fit
json_fail "unknown option" 2 -f a.fit -k ctl.dtb --bogus
json_fail "unknown option first" 2 --bogus -f a.fit -k ctl.dtb
json_fail "extra argument" 2 -f a.fit -k ctl.dtb extra
json_fail "missing configuration" 1 -f a.fit -k ctl.dtb -c conf-9
is "--json missing configuration: the result is there too" "false NO_CONFIG conf-9" \
	"$(jq -r '"\(.verified) \(.result) \(.configuration)"' jf.out)"
json_fail "not a FIT" 1 -f k.bin -k ctl.dtb
json_fail "empty FIT" 1 -f empty -k ctl.dtb
json_fail "unenforced" 1 -f a.fit -k nokeys.dtb
json_fail "decrypt key DTB missing" 2 -f a.fit -k ctl.dtb --decrypt none.dtb
is "--json decrypt key DTB missing: verified, then the error" true "$(jq -r .verified jf.out)"
"$VFIT" verify --json -f a.fit -k ctl.dtb > jf.out
is "--json success: no error member" null "$(jq -r '.error' jf.out)"

# No required key: rejected unless allowed.
status 1 "unenforced" "$VFIT" verify -f a.fit -k nokeys.dtb
"$VFIT" verify -f a.fit -k nokeys.dtb > out.txt 2> err.txt
contains "unenforced: error line" err.txt "^vfit: nokeys.dtb: no required key: nothing enforced$"
status 0 "--allow-unenforced" "$VFIT" verify -f a.fit -k nokeys.dtb --allow-unenforced
"$VFIT" verify -f a.fit -k nokeys.dtb --allow-unenforced > out.txt 2>&1
contains "unenforced: summary" out.txt "UNENFORCED"
contains "unenforced: hashes" out.txt "^   Verifying Hash Integrity \.\.\. sha256\+ OK$"

# JSON, success and failure.
"$VFIT" verify -f a.fit -k ctl.dtb --json > ok.json
is "json ok" "true OK conf-1 1 2147483648" \
	"$(jq -r '"\(.verified) \(.result) \(.configuration) \(.images | length) \(.images[0].load)"' ok.json)"
fdtput -t x a.fit /images/kernel entry 1000
"$VFIT" verify -f a.fit -k ctl.dtb --json > bad.json 2> err.txt
is "json rejected" "false REQUIRED /configurations/conf-1/signature-1 value 0" \
	"$(jq -r '"\(.verified) \(.result) \(.where.path) \(.where.property) \(.images | length)"' bad.json)"
is "json check" "conf-signature false dev /signature/key-dev" \
	"$(jq -r '.checks[0] | "\(.kind) \(.ok) \(.key_name) \(.key)"' bad.json)"
is "json failed key" "/signature/key-dev" "$(jq -r '.where.failed_key' bad.json)"
contains "error line" err.txt \
	"^vfit: a.fit: /configurations/conf-1/signature-1: value: failed to verify required signature$"
# Text from the FIT goes out as UTF-8 where it is UTF-8; control characters
# and bytes of no UTF-8 sequence are \u-escaped, so the output stays JSON.
cp a.fit u.fit
fdtput -t s u.fit /configurations default "$(printf 'caf\303\251\001\377\360\237\224\221\355\240\200')"
status 1 "json: unknown UTF-8 configuration" "$VFIT" verify -f u.fit -k ctl.dtb --json
"$VFIT" verify -f u.fit -k ctl.dtb --json > u.json 2>/dev/null
ok "json: UTF-8 passed through, the rest escaped" grep -qF \
	"\"configuration\":\"$(printf 'caf\303\251')\\u0001\\u00ff$(printf '\360\237\224\221')\\u00ed\\u00a0\\u0080\"" u.json
is "json: jq reads it back" "$(printf 'caf\303\251\001\303\277\360\237\224\221\303\255\302\240\302\200')" \
	"$(jq -j .configuration u.json)"
# Both streams into one file (stdout then block-buffered): the reason on
# stderr comes after the U-Boot lines and the summary, not before them.
"$VFIT" verify -f a.fit -k ctl.dtb > both.txt 2>&1
is "combined log: reason last" "vfit: a.fit" "$(tail -n 1 both.txt | cut -d: -f1-2)"
is "combined log: summary before it" "Rejected" "$(tail -n 2 both.txt | head -n 1 | cut -d: -f1)"

# Image signatures with a required image key: the failing key is named,
# as U-Boot names it, and the error line points at the signature.
sed -e 's/hash-1 { algo = "sha256"; };/&\n\t\t\tsignature-1 { algo = "sha256,rsa2048"; key-name-hint = "dev"; };/' \
	-e '/conf-1 {/,/};/{/signature-1/d}' a.its > img.its
printf '/dts-v1/;\n/ { };\n' | dtc -I dts -O dtb -o img.dtb -
mkimage -f img.its -k . -K img.dtb -r img.fit >/dev/null
status 0 "image-signed: verified" "$VFIT" verify -f img.fit -k img.dtb
cp img.fit short.fit
fdtput -t x short.fit /images/kernel/signature-1 value 1 2 3
"$VFIT" verify -f short.fit -k img.dtb > out.txt 2> err.txt
is "image-signed: short signature rejected" 1 $?
contains "image-signed: error line" err.txt \
	"^vfit: short.fit: /images/kernel/signature-1: value: signature length does not match the key$"
fdtput -t x img.fit /images/kernel data 1 2 3
"$VFIT" verify -f img.fit -k img.dtb > out.txt 2> err.txt
is "image-signed: changed payload rejected" 1 $?
contains "image-signed: error! line" out.txt \
	"^   Verifying Hash Integrity \.\.\. sha256,rsa2048:dev- error!$"
contains "image-signed: failed key" out.txt "^Failed to verify required signature 'key-dev'$"

# The man page documents every option of --help.
"$VFIT" verify --help > help.txt
for o in -f -k -c --json --allow-unenforced --help; do
	grep -q -- "$o" help.txt || fail "help lacks $o"
	man_o=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
	if grep -q -- "$man_o" "$ROOT/man/vfit-verify.1"; then pass; else fail "man page lacks $o"; fi
done
finish
