#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Every public function that returns something says what, in a comment on
# or right above its declaration.  Precisely, in include/vfit/*.h:
#   - a declaration is a line at file scope (outside braces, comments and
#     preprocessor lines with their continuations) that starts with an
#     identifier, is not a typedef, and holds `NAME(`; it runs to the line
#     ending in `;` or holding `{` (a static inline), and attribute lines
#     right above it (VFIT_MUST_CHECK, __attribute__) belong to it;
#   - it returns something unless the words before NAME are void, static
#     void or static inline void;
#   - its comment is a comment ending on the line right above its first
#     line, or one on any of its lines; that comment must say "returns"
#     ("Returns ...") or, for a question returning bool, "whether".
# So that the check cannot pass by finding nothing, every function of
# lib/api.list must be among the declarations it finds, and it runs first
# on a copy of the headers with one comment removed and one comment that
# no longer says what its function returns: each must fail, naming it.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
. tests/lib.sh

# "FILE:LINE NAME value|void documented|UNDOCUMENTED" per function
# declaration, "FILE:LINE NAME object" per extern object.
scan() { # header...
	awk '
	FNR == 1 { depth = 0; incom = 0; cend = -1; cont = 0; indecl = 0; attr = 0; inblock = 0 }
	cont { cont = /\\$/; next }
	{
		# The line as code and comment text.
		s = $0; code = ""; com = ""; had = incom
		while (length(s)) {
			if (incom) {
				p = index(s, "*/")
				if (!p) { com = com " " s; break }
				com = com " " substr(s, 1, p - 1); s = substr(s, p + 2); incom = 0
				continue
			}
			p = index(s, "/*")
			if (!p) { code = code s; break }
			code = code substr(s, 1, p - 1); s = substr(s, p + 2); incom = 1; had = 1
		}
		gsub(/^[ \t]+|[ \t]+$/, "", code)
		# A comment on lines of its own: its text, and the line it ends on.
		if (code == "" && had) {
			block = (inblock ? block : "") com
			inblock = incom
			if (!incom) { cend = FNR; ctext = block }
		} else {
			inblock = 0
		}
		if (code ~ /^#/) { cont = /\\$/; attr = 0; next }
		if (code == "") next
		if (depth == 0 && !indecl && code ~ /^(VFIT_MUST_CHECK|__attribute__)/ && code !~ /;$/) {
			if (!attr) first = FNR
			attr = 1
			next
		}
		if (depth == 0 && !indecl && code ~ /^[A-Za-z_]/ && code !~ /^typedef/) {
			head = code; sub(/\(.*/, "", head)
			if (code ~ /^extern/ && code !~ /\(/) {
				name = code; sub(/[ \t]*(\[.*)?;.*$/, "", name); sub(/.*[^A-Za-z0-9_]/, "", name)
				print FILENAME ":" FNR " " name " object"
			} else if (code ~ /[A-Za-z0-9_][ \t]*\(/ && head ~ /[ \t*]/) {
				if (!attr) first = FNR
				name = head; sub(/.*[^A-Za-z0-9_]/, "", name)
				ret = head; sub(/[A-Za-z0-9_]+[ \t]*$/, "", ret); gsub(/^[ \t]+|[ \t]+$/, "", ret)
				void = ret ~ /^(static[ \t]+)?(inline[ \t]+)?void$/
				doc = cend == first - 1 ? ctext : ""
				indecl = 1
			}
		}
		attr = 0
		if (indecl) {
			if (had) doc = doc " " com
			if (code ~ /;$/ || code ~ /\{/) {
				print FILENAME ":" first " " name " " (void ? "void" : "value") " " \
				      (void || doc ~ /[Rr]eturns|[Ww]hether/ ? "documented" : "UNDOCUMENTED")
				indecl = 0
			}
		}
		n = gsub(/\{/, "{", code); depth += n
		n = gsub(/\}/, "}", code); depth -= n
	}' "$@"
}

# What a copy of include/vfit with one edit has undocumented that the headers have not.
undocumented_after() { # file sed-script
	rm -rf "$T/inc" && cp -r include/vfit "$T/inc"
	sed -i "$2" "$T/inc/$1"
	scan "$T"/inc/*.h | awk '$4 == "UNDOCUMENTED" { print $2 }' | sort >"$T/after"
	comm -13 "$T/before" "$T/after" | tr '\n' ' '
}

scan include/vfit/*.h >"$T/scan"
awk '$4 == "UNDOCUMENTED" { print $2 }' "$T/scan" | sort >"$T/before"
is "the comment above vfit_hash_lookup removed: it is found undocumented" "vfit_hash_lookup " \
	"$(undocumented_after hash.h '/^\/\* Returns the hash of the FIT name/d')"
is "vfit_fit_check's comment without its Returns sentence: it is found undocumented" \
	"vfit_fit_check " \
	"$(undocumented_after fit.h '/^ \* and path limits (§7)/,/^ \* may be NULL)\./{/Returns/d;/may be NULL)\./d}')"

# Every function and object the installed library exports is declared where the scan sees it.
sed -n 's/^\(vfit_[A-Za-z0-9_]*\).*/\1/p' lib/api.list | sed 's/_abi_[0-9_]*$//' | sort -u >"$T/api"
awk '{ print $2 }' "$T/scan" | sort -u >"$T/found"
is "every symbol of lib/api.list is a declaration the scan found" "" \
	"$(comm -23 "$T/api" "$T/found" | tr '\n' ' ')"
n=$(awk '$3 == "value"' "$T/scan" | wc -l)
echo "$n public functions return a value; $(awk '$3 == "void"' "$T/scan" | wc -l) return nothing"
awk '$4 == "UNDOCUMENTED" { print "FAIL " $1 " " $2 ": no comment says what it returns" }' "$T/scan"
is "every one of the $n says what it returns" 0 "$(awk '$4 == "UNDOCUMENTED"' "$T/scan" | wc -l)"
finish
