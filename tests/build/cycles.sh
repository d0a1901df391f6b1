#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# No link cycles.  From nm of the built objects (what they define and what
# they call, not their file names), one dependency graph per library:
#   lib        lib/**/*.c          (libvfit)
#   host       host/**/*.c but host/boot/  (libvfit-host)
#   host/boot  host/boot/*.c       (libvfit-sim)
#   cli        cli/*.c             (the vfit binary)
# Object A depends on object B of the same library when A has an undefined
# symbol that B defines.  Any cycle fails, printed with the symbol behind
# each arrow (a -> b (sym) -> a).  host/'s folders (one per job:
# docs/architecture.md) are a graph of their own too, each folder one node
# (host/boot's included): no folder may call into one that calls back, even
# through objects that form no cycle themselves.  In lib/ the capabilities
# are layered too, lowest first:
#   core (lib/*.c) < hash < rsa, ecdsa, aes < fit < preload, decomp, disk, tpm < boot
# and an object may only call into its own capability or a lower layer:
# lib/fit must not call lib/boot, lib/disk not lib/boot, lib/hash not lib/fit...
# Before the tree, the detector runs on objects made here with a known
# cycle, a known cycle between two folders and a known upward call, so it
# cannot pass by finding nothing.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
. tests/lib.sh
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac

# The layer of a lib/ object (its capability is the folder under lib/).
layers='core 0 hash 1 rsa 2 ecdsa 2 aes 2 fit 3 preload 4 decomp 4 disk 4 tpm 4 boot 5'

# "OBJ D SYM" / "OBJ U SYM" lines of the objects given, OBJ relative to $1.
symbols() { # base obj...
	base=$1
	shift
	for o in "$@"; do
		nm "$o" | awk -v o="${o#"$base"/}" '
			$1 == "U" { print o, "U", $2 }
			NF == 3 && $2 ~ /^[TDRBVWC]$/ { print o, "D", $3 }'
	done
}

# Reads symbols() lines; prints "cycle: a -> b (sym) -> a" per strongly
# connected set of objects (Tarjan), and with LAYERS "upward: ..." per call
# from a lib/ object into a capability of its own layer or above.
graph() { # [layers]
	awk -v layers="${1:-}" '
	function cap(o,   p) { p = o; sub(/^lib\//, "", p); return p ~ /\// ? substr(p, 1, index(p, "/") - 1) : "core" }
	function visit(v,   n, i, j, k, m, w, a, cnt, first, members) {
		idx[v] = low[v] = ++ix; stack[++sp] = v; on[v] = 1
		n = split(out[v], a, " ")
		for (i = 1; i <= n; i++) {
			w = a[i]
			if (!(w in idx)) { visit(w); if (low[w] < low[v]) low[v] = low[w] }
			else if (on[w] && idx[w] < low[v]) low[v] = idx[w]
		}
		if (low[v] != idx[v]) return
		cnt = 0; nscc++; first = v; members = ""
		do {
			w = stack[sp--]; on[w] = 0; scc[w] = nscc; cnt++
			if (w < first) first = w
		} while (w != v)
		if (cnt < 2) return
		k = 0
		for (w in scc) if (scc[w] == nscc) m[++k] = w
		for (i = 2; i <= k; i++)
			for (j = i; j > 1 && m[j - 1] > m[j]; j--) { w = m[j]; m[j] = m[j - 1]; m[j - 1] = w }
		for (i = 1; i <= k; i++) members = members " " m[i]
		print "cycle: " loop(first) (cnt > 2 ? "; all of" members " are on cycles" : "")
	}
	# A path from v back to v inside its set (breadth first: a shortest one).
	function loop(v,   q, h, t, u, n, i, a, w, from, s) {
		h = t = 1; q[1] = v; delete from
		while (h <= t) {
			u = q[h++]; n = split(out[u], a, " ")
			for (i = 1; i <= n; i++) {
				w = a[i]
				if (scc[w] != scc[v]) continue
				if (w == v) {
					s = v " (" edge[u, v] ")"
					for (; u != v; u = from[u]) s = u " (" edge[from[u], u] ") -> " s
					return v " -> " s
				}
				if (!(w in from)) { from[w] = u; q[++t] = w }
			}
		}
	}
	$2 == "D" { def[$3] = $1; next }
	$2 == "U" { nu++; uo[nu] = $1; us[nu] = $3 }
	END {
		n = split(layers, a, " ")
		for (i = 1; i < n; i += 2) rank[a[i]] = a[i + 1]
		for (i = 1; i <= nu; i++) {
			s = us[i]
			if (!(s in def) || def[s] == uo[i] || (uo[i], def[s]) in edge) continue
			edge[uo[i], def[s]] = s
			out[uo[i]] = out[uo[i]] " " def[s]
			node[uo[i]] = node[def[s]] = 1
			if (layers != "" && cap(uo[i]) != cap(def[s]) && rank[cap(uo[i])] <= rank[cap(def[s])])
				print "upward: " uo[i] " (" cap(uo[i]) ") -> " def[s] " (" cap(def[s]) ") for " s
		}
		for (v in node) if (!(v in idx)) visit(v)
	}' | sort
}

# The objects of the sources under a directory ($BUILD mirrors the tree).
objects() { # find-args...
	for src in $(find "$@" -name '*.c' -print | sort); do
		echo "$BUILD/${src%.c}.o"
	done
}

# symbols() lines with each object named by its folder (host/mkimage/sign.o: host/mkimage).
by_folder() {
	awk '{ sub(/\/[^\/]*$/, "", $1); print }'
}

# One library: every object built, then no cycle (and in lib/ no upward call).
# With FOLDERS=1 the nodes are the objects' folders.
check() { # name layers find-args...
	name=$1 lay=$2
	shift 2
	objs=$(objects "$@")
	missing=
	for o in $objs; do [ -f "$o" ] || missing="$missing ${o#"$BUILD"/}"; done
	if [ -n "$missing" ]; then
		fail "$name: not built (run make):$missing"
		return
	fi
	# shellcheck disable=SC2086
	found=$T/$(echo "$name" | tr / _).found
	# shellcheck disable=SC2086
	if [ "${FOLDERS:-0}" = 1 ]; then
		symbols "$BUILD" $objs | by_folder | graph "$lay" >"$found"
	else
		symbols "$BUILD" $objs | graph "$lay" >"$found"
	fi
	n=$(echo $objs | wc -w)
	edges=$(symbols "$BUILD" $objs | awk '$2 == "U"' | wc -l)
	if [ "$edges" -eq 0 ]; then
		fail "$name: nm lists no undefined symbol in $n objects"
	elif [ -s "$found" ]; then
		fail "$name: link cycles or upward calls among its $n objects:"
		sed 's/^/    /' "$found"
	else
		pass
	fi
}

# The detector itself, on objects with known faults: a three-object cycle
# (x -> y -> z -> x), folders a and b calling each other through four
# objects that form no cycle (a/p -> b/q, b/r -> a/s), and lib/hash
# calling up into lib/fit.
mkdir -p "$T/self/lib/hash" "$T/self/lib/fit" "$T/self/a" "$T/self/b"
printf 'int y(void);\nint x(void) { return y(); }\n' >"$T/self/x.c"
printf 'int z(void);\nint y(void) { return z(); }\n' >"$T/self/y.c"
printf 'int x(void);\nint z(void) { return x() + 1; }\n' >"$T/self/z.c"
printf 'int vfit_fit_(void);\nint vfit_h_(void) { return vfit_fit_(); }\n' >"$T/self/lib/hash/h.c"
printf 'int vfit_fit_(void) { return 1; }\n' >"$T/self/lib/fit/f.c"
printf 'int q(void);\nint p(void) { return q(); }\n' >"$T/self/a/p.c"
printf 'int q(void) { return 1; }\n' >"$T/self/b/q.c"
printf 'int s(void);\nint r(void) { return s(); }\n' >"$T/self/b/r.c"
printf 'int s(void) { return 2; }\n' >"$T/self/a/s.c"
for c in x y z lib/hash/h lib/fit/f a/p a/s b/q b/r; do
	cc -c -o "$T/self/$c.o" "$T/self/$c.c" || fail "cannot compile the detector's own test objects"
done
symbols "$T/self" "$T/self/x.o" "$T/self/y.o" "$T/self/z.o" | graph >"$T/self.found"
is "the detector finds a known three-object cycle" \
	"cycle: x.o -> y.o (y) -> z.o (z) -> x.o (x); all of x.o y.o z.o are on cycles" \
	"$(cat "$T/self.found")"
symbols "$T/self" "$T/self/x.o" "$T/self/y.o" | graph >"$T/self.found"
is "and nothing once the cycle is broken" "" "$(cat "$T/self.found")"
self_ab="$T/self/a/p.o $T/self/a/s.o $T/self/b/q.o $T/self/b/r.o"
# shellcheck disable=SC2086
symbols "$T/self" $self_ab | graph >"$T/self.found"
is "four objects of two folders form no cycle among themselves" "" "$(cat "$T/self.found")"
# shellcheck disable=SC2086
symbols "$T/self" $self_ab | by_folder | graph >"$T/self.found"
is "the detector finds the two folders calling each other" "cycle: a -> b (q) -> a (s)" \
	"$(cat "$T/self.found")"
symbols "$T/self" "$T/self/lib/hash/h.o" "$T/self/lib/fit/f.o" | graph "$layers" >"$T/self.found"
is "the detector finds lib/hash calling up into lib/fit" \
	"upward: lib/hash/h.o (hash) -> lib/fit/f.o (fit) for vfit_fit_" "$(cat "$T/self.found")"

check lib "$layers" lib
check host "" host -path host/boot -prune -o
check host/boot "" host/boot
FOLDERS=1 check "host folders" "" host
check cli "" cli
finish
