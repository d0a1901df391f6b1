#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A new user's first run, under every name vfit answers to: each vfit
# subcommand, and each u-boot-tools name through a symlink (as build/mkimage
# is), with no arguments, --help, -h, -V/--version, a missing file, a
# directory, /dev/null and an unknown option.  Help and version go to
# stdout with exit 0; every error is one "vfit: ..." line first on stderr
# (a usage may follow) with nothing on stdout, exit 2 for usage and I/O;
# Debian's mkimage, dumpimage and mkenvimage put the same things on the
# same streams (their exit status is 1 where vfit's is 2, as documented).
# Then the rough edges of issue 29 item 8: the README's first command in a
# fresh directory, a missing /incbin/ file named, `disk info` on bad input,
# `boot --device` on a directory that is no device; README and man pages
# quote the binary's version.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/fixtures.sh"
need mkimage dumpimage mkenvimage dtc
cd "$T" || exit 2

tools="mkimage dumpimage mkenvimage fit_check_sign fit_info preload_check_sign"
cmds="mkimage keygen info verify boot audit disk preload preload_check_sign dumpimage mkenvimage fit_check_sign fit_info"
mkdir bin dir
for n in $tools; do
	ln -s "$VFIT" "bin/$n"
done
version=$("$VFIT" --version | sed -n 's/^vfit //p')
fit_inputs 1000
fit_keys rsa2048:dev

# run CMD...: exit status in $rc, stdout in o, stderr in e
run() {
	"$@" > o 2> e < /dev/null
	rc=$?
}
# help NAME CMD...: usage on stdout, exit 0, stderr empty
help() {
	_n=$1
	shift
	run "$@"
	is "$_n: exit 0" 0 "$rc"
	is "$_n: usage on stdout" true "$(head -n 1 o | grep -q '^usage: ' && echo true)"
	is "$_n: stderr empty" "" "$(cat e)"
}
# usage_err NAME CMD...: exit 2, stdout empty, stderr starts with one "vfit: " line
usage_err() {
	_n=$1
	shift
	run "$@"
	is "$_n: exit 2" 2 "$rc"
	is "$_n: stdout empty" "" "$(cat o)"
	is "$_n: first line on stderr says what" true "$(head -n 1 e | grep -q '^vfit: ' && echo true)"
}
# one_line NAME STATUS REGEX CMD...: exit STATUS, stdout empty, exactly one stderr line matching
one_line() {
	_n=$1 _want=$2 _re=$3
	shift 3
	run "$@"
	is "$_n: exit $_want" "$_want" "$rc"
	is "$_n: stdout empty" "" "$(cat o)"
	is "$_n: one line on stderr" 1 "$(wc -l < e)"
	contains "$_n: the line" e "$_re"
}

# ---- help and version under every name
for n in $tools; do
	help "$n --help" "bin/$n" --help
	help "$n -h" "bin/$n" -h
	for v in -V --version; do
		run "bin/$n" "$v"
		is "$n $v: exit 0" 0 "$rc"
		is "$n $v: U-Boot's line, vfit's version" "$n version vfit $version" "$(cat o)"
		is "$n $v: stderr empty" "" "$(cat e)"
	done
done
for c in $cmds; do
	help "vfit $c --help" "$VFIT" "$c" --help
	help "vfit $c -h" "$VFIT" "$c" -h
	"$VFIT" "$c" --help > want.txt 2>&1
	help "vfit help $c" "$VFIT" help "$c"
	ok "vfit help $c: the command's own --help" cmp o want.txt
	run "$VFIT" "$c" --version
	is "vfit $c --version: exit 0" 0 "$rc"
	is "vfit $c --version: the line" "$(case " $tools " in *" $c "*) echo "$c version vfit $version" ;;
		*) echo "vfit $version" ;; esac)" "$(cat o)"
done
help "vfit --help" "$VFIT" --help
help "vfit help" "$VFIT" help
usage_err "vfit help of nothing" "$VFIT" help nosuch
run "$VFIT"
is "vfit alone: exit 2, the list on stderr" "2 true" "$rc $(grep -q '^  verify ' e && echo true)"

# ---- no arguments, an unknown option, a missing value
for n in $tools; do
	usage_err "$n alone" "bin/$n"
	[ "$n" = mkimage ] && continue # cli/mkimage.c's parser: another helper's
	usage_err "$n -Z" "bin/$n" -Z
	is "$n -Z: named" "vfit: $n: unknown option -Z" "$(head -n 1 e)"
	usage_err "$n --bogus" "bin/$n" --bogus
	is "$n --bogus: named" "vfit: $n: unknown option --bogus" "$(head -n 1 e)"
done
for c in keygen info verify boot audit disk preload; do
	usage_err "vfit $c alone" "$VFIT" "$c"
	# boot's option parser is another helper's (issue 31): getopt's own words there.
	[ "$c" = boot ] && continue
	usage_err "vfit $c --bogus" "$VFIT" "$c" --bogus
	[ "$c" = disk ] ||
		is "vfit $c --bogus: named" "vfit: $c: unknown option --bogus" "$(head -n 1 e)"
done
usage_err "dumpimage -p without a value" bin/dumpimage -l -p
is "dumpimage -p: says so" "vfit: dumpimage: -p needs a value" "$(head -n 1 e)"

# ---- a missing file, a directory, /dev/null: one line naming it
for f in nothere dir /dev/null; do
	# /dev/null is not a regular file: vfit refuses it as it refuses a directory.
	case $f in nothere) re="^vfit: .*nothere: No such file" ;; *) re="^vfit: .*$f: (not a regular file|read: Is a directory)" ;; esac
	one_line "mkimage -l $f" 2 "$re" bin/mkimage -l "$f"
	one_line "dumpimage -l $f" 2 "$re" bin/dumpimage -l "$f"
	one_line "fit_check_sign -f $f" 2 "$re" bin/fit_check_sign -f "$f" -k nosig.dtb
	one_line "fit_check_sign -k $f" 2 "$re" bin/fit_check_sign -f nosig.dtb -k "$f"
	one_line "fit_info -f $f" 2 "$re" bin/fit_info -f "$f" -n / -p x
	one_line "vfit info $f" 2 "$re" "$VFIT" info "$f"
	one_line "vfit verify -f $f" 2 "$re" "$VFIT" verify -f "$f" -k nosig.dtb
	one_line "vfit audit -f $f" 2 "$re" "$VFIT" audit -f "$f"
	one_line "vfit disk info $f" 2 "$re|nothere: open: No such file" "$VFIT" disk info "$f"
	[ "$f" = /dev/null ] && continue # an empty input text; a header-less file (below)
	one_line "mkenvimage $f" 2 "$re" bin/mkenvimage -s 100 -o env.bin "$f"
	one_line "preload_check_sign -f $f" 2 "$re" bin/preload_check_sign -f "$f" -k keys/dev.key
done
one_line "preload_check_sign -f /dev/null: bad input" 1 "^vfit: /dev/null: magic: " \
	bin/preload_check_sign -f /dev/null -k keys/dev.key

# ---- Debian's tools: the same streams for the same requests
for n in mkimage dumpimage mkenvimage; do
	run "$n" -V
	is "Debian $n -V: exit 0, one line on stdout" "0 1" "$rc $(wc -l < o)"
	d=$(sed 's/ version .*//' o)
	run "bin/$n" -V
	is "$n -V: the same line up to the version" "$d" "$(sed 's/ version .*//' o)"
done
for f in nothere dir; do
	for n in mkimage dumpimage; do
		run "$n" -l "$f"
		d="$(wc -l < o) $(wc -l < e)"
		run "bin/$n" -l "$f"
		is "$n -l $f: stdout and stderr lines as Debian's" "$d" "$(wc -l < o) $(wc -l < e)"
	done
done
printf 'bootcmd=boot\n' > env.txt
mkenvimage -s 0x100 -o deb.env /dev/null
ok "mkenvimage /dev/null: an empty environment" bin/mkenvimage -s 0x100 -o vfit.env /dev/null
same "mkenvimage /dev/null: Debian's bytes" deb.env vfit.env

# ---- the README's first command, in a fresh directory
line=$(sed -n '/^## Usage/,/^```$/p' "$ROOT/README.md" | grep -m 1 '^vfit keygen' | sed 's/ *#.*//')
is "README: the first Usage line is keygen" "vfit keygen -a rsa2048 -k keys -n dev" "$line"
mkdir fresh
(cd fresh && set -f && eval "\"\$VFIT\" ${line#vfit }") > o 2> e
is "README's first line in a fresh directory: exit 0" "0 " "$? $(cat e)"
is "keys/ made 0700" 700 "$(stat -c %a fresh/keys 2>/dev/null)"
is "keys/dev.key 0600" 600 "$(stat -c %a fresh/keys/dev.key 2>/dev/null)"

# ---- a missing /incbin/ file is named in vfit's own line
fit_its -k missing.bin > miss.its
run "$VFIT" mkimage -f miss.its miss.fit
is "missing /incbin/: exit 2" 2 "$rc"
contains "missing /incbin/: vfit's line names it" e \
	'^vfit: miss.its: dtc cannot open a file it names \(/incbin/ or /include/\): "missing.bin": No such file or directory$'
is "missing /incbin/: no output" absent "$([ -e miss.fit ] && echo present || echo absent)"
run "$VFIT" audit --its miss.its
contains "missing /incbin/, audit: named" e 'vfit: audit: miss.its: .*"missing.bin": No such file'

# ---- disk info on what is no disk: exit 1, one line
head -c 1000 /dev/zero > odd.img
one_line "disk info: a size that is no disk" 1 "^vfit: disk: odd.img: not a disk image \(1000 bytes" \
	"$VFIT" disk info odd.img
random junk.img 4096
one_line "disk info: sectors without a GPT" 1 "^vfit: disk: junk.img: no valid GPT$" \
	"$VFIT" disk info junk.img

# ---- boot --device on what is no device: exit 2, one line saying so
mkdir empty
one_line "boot --device an empty directory" 2 \
	"^vfit: boot: empty: not a device: no rom.dtb \(vfit boot --device empty init " \
	"$VFIT" boot --device empty
one_line "boot --device a missing directory" 2 "^vfit: boot: nothere: no such device directory$" \
	"$VFIT" boot --device nothere
one_line "boot --device a file" 2 "^vfit: boot: env.txt: not a device directory$" \
	"$VFIT" boot --device env.txt status
is "boot: nothing written in the empty directory" "" "$(ls -A empty)"

# ---- the version the docs quote is the binary's (README's -V line, each man page)
is "README quotes -V as the binary prints it" "mkimage version vfit $version" \
	"$(grep -o 'mkimage version vfit [0-9][0-9.]*' "$ROOT/README.md")"
for m in "$ROOT"/man/*.1; do
	contains "${m##*/}: .TH says vfit $version" "$m" "^[.]TH .* \"vfit $version\""
done
finish
