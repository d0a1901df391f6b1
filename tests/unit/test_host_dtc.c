/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The dtc command line vfit builds from mkimage's -D string (host/its/dtc.c,
 * vfit_dtc_cmd_make), against /bin/sh: every -D string vfit accepts must
 * split into the words sh's `eval "set -- $D"` gives (quotes, backslashes,
 * blanks, empty words), placed between "dtc" [-i DIR] and "-o - SRC";
 * every string whose meaning would depend on a shell (expansions,
 * globs, redirections, comments, a tilde, an open quote, a trailing
 * backslash) is refused with a usage error naming -D; a request for a
 * dependency file (-d), which the /incbin/ bypass cannot honour, is seen
 * in every spelling and not in an option's argument.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../host/its/its_int.h"

/* The words sh makes of s, each followed by \001; NULL if sh failed. */
static char *sh_words(const char *s)
{
	static char out[4096];
	size_t n;
	FILE *p;

	if (setenv("VFIT_WORDS", s, 1))
		return NULL;
	p = popen("eval \"set -- $VFIT_WORDS\" && for a; do printf '%s\\001' \"$a\"; done", "r");
	if (!p)
		return NULL;
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = 0;
	return pclose(p) ? NULL : out;
}

static void accepted(const char *d, const char *incdir)
{
	struct vfit_dtc_cmd c = { 0 };
	struct vfit_err e = { 0 };
	char got[4096] = "", *want = sh_words(d);
	int i, first = incdir ? 3 : 1, ok;

	REQUIRE(want != NULL, "sh splits [%s]", d);
	if (!CHECK(vfit_dtc_cmd_make(&c, d, incdir, "in.its", &e) == 0, "-D [%s] refused: %s", d,
		   e.msg))
		return;
	for (i = first; c.argv[i] && strcmp(c.argv[i], "-o"); i++) {
		strcat(got, c.argv[i]);
		strcat(got, "\001");
	}
	ok = !strcmp(c.argv[0], "dtc") && c.argv[i] && !strcmp(c.argv[i + 1], "-") &&
	     !strcmp(c.argv[i + 2], "in.its") && !c.argv[i + 3];
	if (incdir)
		ok = ok && !strcmp(c.argv[1], "-i") && !strcmp(c.argv[2], incdir);
	CHECK(ok && !strcmp(got, want), "-D [%s]: words differ from sh's, or misplaced", d);
	vfit_dtc_cmd_free(&c);
}

static void refused(const char *d, const char *why)
{
	struct vfit_dtc_cmd c = { 0 };
	struct vfit_err e = { 0 };

	CHECK(vfit_dtc_cmd_make(&c, d, NULL, "in.its", &e) == -1 && e.status == VFIT_EXIT_USAGE &&
		      strstr(e.msg, "-D") && strstr(e.msg, why) && !c.argv && !c.words,
	      "-D [%s]: expected a usage error with '%s', got '%s'", d, why, e.msg);
}

static void depfile(const char *d, int want)
{
	struct vfit_dtc_cmd c = { 0 };
	struct vfit_err e = { 0 };

	REQUIRE(vfit_dtc_cmd_make(&c, d, NULL, "in.its", &e) == 0, "-D [%s]: %s", d, e.msg);
	CHECK(c.depfile == want, "-D [%s]: dependency file %s", d, want ? "missed" : "seen");
	vfit_dtc_cmd_free(&c);
}

int main(void)
{
	static const char *const ok[] = {
		"-I dts -O dtb -p 500", "", "   ", "\t-p\t1000 ", "'-p'  \"1000\"",
		"-i \"dir with space\"", "-i 'it''s'", "a\\ b", "\"a\\\"b\"", "'a\"b'",
		"\"a\\\\b\"", "\"x\\$y\"", "\"x\\`y\"", "a'b'c\"d\"e", "'a\\b'", "\"a\\b\"",
		"a#b", "a~b", "''", "\"\" x ''", "'$HOME' \"|&;<>()*?[\"", "'#' \"~\"",
		"\\$x \\* \\# \\~", "-Wno-unit_address_vs_reg -E unit_address_format",
	};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		accepted(ok[i], i % 2 ? "/some/dir" : NULL);
	refused("-i $HOME", "'$'");
	refused("\"$HOME\"", "'$'");
	refused("`id`", "'`'");
	refused("\"`id`\"", "'`'");
	refused("a|b", "'|'");
	refused("a&", "'&'");
	refused("-p 1;id", "';'");
	refused("<in", "'<'");
	refused("a>b", "'>'");
	refused("(x)", "'('");
	refused("*.dtb", "'*'");
	refused("a?", "'?'");
	refused("a[b]", "'['");
	refused("#comment", "'#'");
	refused("x #comment", "'#'");
	refused("~/dir", "'~'");
	refused("'open", "unterminated ' quote");
	refused("\"open", "unterminated \" quote");
	refused("trailing\\", "trailing backslash");
	depfile("-d deps", 1);
	depfile("-I dts -d deps -O dtb", 1);
	depfile("-qd deps", 1);
	depfile("-ddeps", 1);
	depfile("--out-dependency deps", 1);
	depfile("-I d", 0);
	depfile("-Id", 0);
	depfile("-o d -p 500", 0);
	depfile("-V 17 -b 0 -R 4 -S 8192 -a 8 -H both -W x -i d", 0);
	depfile("-p d", 0);
	depfile("--out-format dtb", 0);
	return check_done();
}
