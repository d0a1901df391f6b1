#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The mutation check of lib/'s security decisions (on demand: `make mutate`;
# not part of `make test`).  For each one-line mutant of tests/mutate/mutants
# it changes one decision in a copy of the tree, rebuilds what the mutant's
# tests need, and runs those tests, fastest first: a mutant is
#   killed    when a test fails (or hangs past MUTATE_TIMEOUT, default 120 s),
#   survived  when every test passes: a decision no test notices,
#   stale     when its pattern is not in the file exactly once (the code
#             moved on: update the list), never counted as killed,
#   broken    when the mutated file does not compile (fix the mutant).
# It prints one line per mutant and the score, killed / (killed + survived),
# and exits 1 when any mutant survived, is stale or broken.
#   tests/mutate/run.sh                  every mutant
#   tests/mutate/run.sh lib/disk         those of files whose path contains lib/disk
#   tests/mutate/run.sh -n [lib/disk]    only whether each pattern is found (no build)
# The tree's build directory ($BUILD, default build) is copied along when it
# exists, so only the mutated object is rebuilt; the copy is removed at exit.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
LIST=${MUTANTS:-$ROOT/tests/mutate/mutants}
LIMIT=${MUTATE_TIMEOUT:-120}
DRY=
[ "${1:-}" = -n ] && DRY=1 && shift
ONLY=${1:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vfit-mutate.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM
tree=$tmp/tree

# Make targets and commands for a test name: test_x (a unit test, in quick
# mode), asan/test_x (the same under ASan+UBSan: a mutant that only opens an
# out-of-bounds access is killed there) or layer/x.sh (a script, through
# the vfit binary).
target() {
	case $1 in
	test_*) echo "build/tests/$1" ;;
	asan/test_*) echo "$1" ;;
	*.sh) echo "build/vfit" ;;
	esac
}
run_test() {
	case $1 in
	test_*) VFIT_TEST_QUICK=1 timeout -k 5 "$LIMIT" "build/tests/$1" ;;
	asan/test_*) VFIT_TEST_QUICK=1 timeout -k 5 "$LIMIT" "build/asan/tests/${1#asan/}" ;;
	*.sh) BUILD=build timeout -k 5 "$LIMIT" sh "tests/$1" ;;
	esac >"$tmp/out" 2>&1 </dev/null
	[ $? = 0 ] && ! grep -q '^FAIL' "$tmp/out"
}
build() { # TESTS...
	targets=
	for t in "$@"; do targets="$targets $(target "$t")"; done
	# shellcheck disable=SC2086
	make -s -j2 BUILD=build $targets >"$tmp/make" 2>&1
}

# count FILE: how often $FROM occurs in FILE.  apply FILE: replace it with $TO.
# In both, \n and \t stand for a newline and a tab.
count() { perl -0777 -ne '(my $f = $ENV{FROM}) =~ s/\\n/\n/g; $f =~ s/\\t/\t/g;
	my $n = () = /\Q$f\E/g; print $n' "$1"; }
apply() { perl -0777 -i -pe 'BEGIN { ($f = $ENV{FROM}) =~ s/\\n/\n/g; $f =~ s/\\t/\t/g;
	($t = $ENV{TO}) =~ s/\\n/\n/g; $t =~ s/\\t/\t/g } s/\Q$f\E/$t/' "$1"; }

# The list: "@ FILE: TEST..." starts a section; "FROM => TO" is a mutant of
# FILE, run against the section's tests; '#' starts a comment line.
parse() {
	file= tests=
	while IFS= read -r line; do
		case $line in
		'#'* | '') continue ;;
		'@ '*)
			file=${line#@ }
			tests=${file#*: }
			file=${file%%:*}
			continue ;;
		esac
		case $file in *"$ONLY"*) ;; *) continue ;; esac
		printf '%s\t%s\t%s\n' "$file" "$tests" "$line"
	done <"$LIST"
}
parse >"$tmp/plan"

if [ -n "$DRY" ]; then
	cd "$ROOT" || exit 2
else
	# The tree as it is on disk (uncommitted edits included), without builds.
	mkdir "$tree"
	tar -C "$ROOT" --exclude=./build --exclude=./.git -cf - . | tar -C "$tree" -xf -
	if [ -d "$BUILD" ]; then
		mkdir "$tree/build"
		for f in "$BUILD"/.deps-ok "$BUILD"/lib "$BUILD"/host "$BUILD"/cli "$BUILD"/tests \
			"$BUILD"/*.a "$BUILD"/vfit "$BUILD"/asan; do
			[ -e "$f" ] && cp -a "$f" "$tree/build/"
		done
	fi
	cd "$tree" || exit 2
fi

# Every test must pass on the unmutated tree, or a "kill" proves nothing.
all=$(cut -f2 "$tmp/plan" | tr ' ' '\n' | sort -u | tr '\n' ' ')
if [ -z "$DRY" ]; then
	echo "baseline: building and running $all"
	# shellcheck disable=SC2086
	if ! build $all; then
		echo "FAIL baseline: the unmutated tree does not build"; tail -n 20 "$tmp/make"; exit 2
	fi
	for t in $all; do
		run_test "$t" || {
			echo "FAIL baseline: $t fails on the unmutated tree"; tail -n 20 "$tmp/out"; exit 2
		}
	done
fi

killed=0 survived=0 stale=0 broken=0 n=0
while IFS='	' read -r file tests line; do
	n=$((n + 1))
	case $line in
	*' =>') FROM=${line% =>} TO= ;;
	*) FROM=${line%% => *} TO=${line#* => } ;;
	esac
	export FROM TO
	label="$file: $FROM => $TO"
	c=$(count "$file")
	if [ "$c" != 1 ]; then
		printf 'stale     %s (pattern found %s times)\n' "$label" "$c"
		stale=$((stale + 1))
		continue
	fi
	if [ -n "$DRY" ]; then
		printf 'found     %s\n' "$label"
		continue
	fi
	cp -p "$file" "$tmp/orig"
	apply "$file"
	# shellcheck disable=SC2086
	if ! build $tests; then
		printf 'broken    %s\n' "$label"
		sed -n 's/^.*error: /    error: /p' "$tmp/make" | head -n 2
		broken=$((broken + 1))
	else
		by=
		for t in $tests; do
			run_test "$t" || { by=$t; break; }
		done
		if [ -n "$by" ]; then
			printf 'killed    %s (by %s)\n' "$label" "$by"
			killed=$((killed + 1))
		else
			printf 'SURVIVED  %s\n' "$label"
			survived=$((survived + 1))
		fi
	fi
	# Back to the original with a new time stamp, so make rebuilds it next.
	cp "$tmp/orig" "$file"
	touch "$file"
done <"$tmp/plan"

score=$((killed + survived))
echo "$n mutants: $killed killed, $survived survived, $stale stale, $broken broken;" \
	"score $killed/$score"
[ "$survived" = 0 ] && [ "$stale" = 0 ] && [ "$broken" = 0 ]
