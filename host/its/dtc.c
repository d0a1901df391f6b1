/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dtc's command line as mkimage builds it, and dtc run on it.
 *
 * mkimage runs `dtc <opts> -o <out> <its>` through the shell (opts
 * default "-I dts -O dtb -p 500", -D replaces them).  vfit runs dtc
 * directly with an argv instead, so no file name can inject shell
 * syntax: the -D string is split into words as sh would split it
 * (blanks, quotes, backslashes) and anything sh would expand ($, `,
 * globs, redirections) is refused rather than guessed at.  dtc itself
 * resolves /incbin/ and /include/ paths relative to the directory of the
 * file that names them, then the -i directories in order.  The output
 * goes to a pipe instead of a temporary file, so the blob is read once,
 * straight into the buffer that is then signed and written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vfit-host/io.h"
#include "its_int.h"

void vfit_dtc_cmd_free(struct vfit_dtc_cmd *c)
{
	free(c->argv);
	free(c->words);
	c->argv = NULL;
	c->words = NULL;
}

/* Does this dtc option word (or the one it takes an argument from) ask for -d? */
static int is_depfile_opt(const char *w, int *takes_next)
{
	/* dtc's short options that take an argument */
	static const char with_arg[] = "IOoVdRSpabiHWE";
	const char *c;

	*takes_next = 0;
	if (w[0] != '-' || !w[1])
		return 0;
	if (w[1] == '-')
		return !strncmp(w, "--out-d", 7);
	for (c = w + 1; *c; c++) {
		if (*c == 'd')
			return 1;
		if (strchr(with_arg, *c)) {
			*takes_next = !c[1];
			return 0;
		}
	}
	return 0;
}

/*
 * Splits s into words like sh: blanks separate, '...' is literal, "..."
 * is literal but for \" \\ \$ \`, a backslash outside quotes takes the
 * next character.  Unquoted characters sh would treat specially are
 * refused ($ ` | & ; < > ( ) * ? [ anywhere, # and ~ starting a word):
 * their meaning would depend on the shell and the environment.
 * Returns the word count or -1 (error in e).
 */
static int split_words(const char *s, char *buf, char **words, struct vfit_err *e)
{
	static const char special[] = "|&;<>()$`*?[";
	char *o = buf, q = 0;
	int n = 0, in_word = 0, fresh;

	for (; *s; s++) {
		if (!q && (*s == ' ' || *s == '\t' || *s == '\n')) {
			if (in_word) {
				*o++ = 0;
				in_word = 0;
			}
			continue;
		}
		fresh = !in_word;
		if (fresh) {
			words[n++] = o;
			in_word = 1;
		}
		if (q == '\'') {
			if (*s == '\'')
				q = 0;
			else
				*o++ = *s;
		} else if (q == '"') {
			if (*s == '"')
				q = 0;
			else if (*s == '\\' && s[1] && strchr("\"\\$`", s[1]))
				*o++ = *++s;
			else if (*s == '$' || *s == '`')
				goto special;
			else
				*o++ = *s;
		} else if (*s == '\'' || *s == '"') {
			q = *s;
		} else if (*s == '\\') {
			if (!s[1])
				return vfit_err_set(e, VFIT_EXIT_USAGE, "-D: trailing backslash");
			*o++ = *++s;
		} else if (strchr(special, *s) || (fresh && (*s == '#' || *s == '~'))) {
			/* # and ~ mean something to sh only at the start of a word. */
			goto special;
		} else {
			*o++ = *s;
		}
	}
	if (q)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "-D: unterminated %c quote", q);
	if (in_word)
		*o = 0;
	return n;
special:
	return vfit_err_set(e, VFIT_EXIT_USAGE,
			    "-D: '%c' needs a shell; vfit runs dtc without one (quote it)", *s);
}

/* Appends a copy of s to the word storage as the next argument. */
static void add_arg(struct vfit_dtc_cmd *c, int *k, char **o, const char *s)
{
	c->argv[(*k)++] = strcpy(*o, s);
	*o += strlen(s) + 1;
}

int vfit_dtc_cmd_make(struct vfit_dtc_cmd *c, const char *opts, const char *incdir,
		      const char *src, struct vfit_err *e)
{
	size_t len = strlen(opts);
	int n, i, k = 0, skip = 0;
	char *o;

	c->depfile = 0;
	/* The -D words need at most len + 1 bytes; the fixed arguments follow them. */
	c->words = malloc(len + 1 + (incdir ? strlen(incdir) : 0) + strlen(src) + 16);
	/* At most len/2 + 1 words, plus "dtc", "-i", dir, "-o", "-", src, NULL. */
	c->argv = malloc(sizeof(*c->argv) * (len / 2 + 8));
	if (!c->words || !c->argv) {
		vfit_dtc_cmd_free(c);
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", src);
	}
	o = c->words + len + 1;
	add_arg(c, &k, &o, "dtc");
	if (incdir) {
		add_arg(c, &k, &o, "-i");
		add_arg(c, &k, &o, incdir);
	}
	n = split_words(opts, c->words, c->argv + k, e);
	if (n < 0) {
		vfit_dtc_cmd_free(c);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (skip)
			skip = 0;
		else if (is_depfile_opt(c->argv[k + i], &skip))
			c->depfile = 1;
	}
	k += n;
	add_arg(c, &k, &o, "-o");
	add_arg(c, &k, &o, "-");
	add_arg(c, &k, &o, src);
	c->argv[k] = NULL;
	return 0;
}

int vfit_dtc_run(const char *what, const struct vfit_dtc_cmd *c, int errfd, char **data,
		 size_t *len, struct vfit_err *e)
{
	int pfd[2], st, ret;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: pipe: %s", what, strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: fork: %s", what, strerror(errno));
	}
	if (pid == 0) {
		if (dup2(pfd[1], STDOUT_FILENO) < 0 || (errfd >= 0 && dup2(errfd, STDERR_FILENO) < 0))
			_exit(127);
		execvp(c->argv[0], c->argv);
		_exit(127);
	}
	close(pfd[1]);
	ret = vfit_fd_read(pfd[0], what, VFIT_FIT_SLACK, data, len, e);
	close(pfd[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			st = -1;
			break;
		}
	if (ret)
		return ret;
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		free(*data);
		*data = NULL;
		if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 127)
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: cannot run dtc", what);
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: dtc failed (%s %d)", what,
				    st != -1 && WIFEXITED(st) ? "exit status" : "signal",
				    st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	}
	return 0;
}
