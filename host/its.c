/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * FIT sources: an .its compiled by dtc as mkimage runs it, or the tree
 * `mkimage -f auto` generates from -d/-b/-i.
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
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libfdt.h>

#include "mkimage_int.h"
#include "names.h"

/* Room for hash values and signatures, so the buffer rarely grows. */
#define FIT_SLACK (64 * 1024)

/* A dtc command line: "dtc", [-i dir], the -D words, "-o", "-", source. */
struct dtc_cmd {
	char **argv;
	char *words;     /* storage for the split -D words */
	int depfile;     /* -D asks dtc for a dependency file (-d) */
};

static void dtc_cmd_free(struct dtc_cmd *c)
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
static void add_arg(struct dtc_cmd *c, int *k, char **o, const char *s)
{
	c->argv[(*k)++] = strcpy(*o, s);
	*o += strlen(s) + 1;
}

static int dtc_cmd_make(struct dtc_cmd *c, const char *opts, const char *incdir, const char *src,
			struct vfit_err *e)
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
		dtc_cmd_free(c);
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
		dtc_cmd_free(c);
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

/* Runs dtc; the blob comes back on a pipe.  With errfd >= 0, dtc's stderr goes there. */
static int run_dtc(const char *what, const struct dtc_cmd *c, int errfd, char **data,
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
	ret = vfit_fd_read(pfd[0], what, FIT_SLACK, data, len, e);
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

/*
 * Large payloads bypass dtc.  dtc copies every /incbin/ file several
 * times in memory (about three copies at its peak) before writing the
 * blob, which for a 64 MiB kernel costs more than everything else mkimage
 * does.  So an /incbin/("file") of at least BYPASS_MIN bytes is replaced
 * in a copy of the source by a 16-byte random marker, dtc compiles that
 * copy, and the marker property is then resized to the file's length and
 * the file read straight into it.  libfdt's resize gives exactly the
 * bytes dtc would have written.
 *
 * The copy lives in a private temporary directory, never next to the
 * user's files, and dtc gets `-i <directory of the .its>` ahead of the -D
 * options.  dtc looks in the including file's directory first (now the
 * private one, which holds nothing but the copy), then in the -i
 * directories in order, so every path resolves to the same file as
 * before provided it cannot reach anything through the private directory:
 * a relative path with a `..` component or naming the copy itself turns
 * the bypass off.  So does anything else unusual (concatenated values,
 * /incbin/ with offsets, a directive the scanner does not understand, a
 * marker not found exactly once, a dependency file requested with -d,
 * any failure of the copy): the original source is then compiled as is.
 */
#define BYPASS_MIN (1u << 20)
#define BYPASS_MAX 16
#define MARK_LEN 16

struct bypass {
	int n;
	char *path[BYPASS_MAX];
	size_t size[BYPASS_MAX];
	uint8_t mark[BYPASS_MAX][MARK_LEN];
	int prop[BYPASS_MAX];   /* property offset in the compiled blob */
	int node[BYPASS_MAX];
};

static void bypass_free(struct bypass *b)
{
	int i;

	for (i = 0; i < b->n; i++)
		free(b->path[i]);
	b->n = 0;
}

static size_t skip_blanks(const char *src, size_t len, size_t j)
{
	while (j < len && (src[j] == ' ' || src[j] == '\t'))
		j++;
	return j;
}

/*
 * After a /incbin/ or /include/ keyword at j: [ '(' ] "path" (no escapes).
 * Returns the offset after the closing quote and the path span, or 0.
 */
static size_t path_arg(const char *src, size_t len, size_t j, int paren, size_t *p0, size_t *p1)
{
	j = skip_blanks(src, len, j);
	if (paren) {
		if (j >= len || src[j++] != '(')
			return 0;
		j = skip_blanks(src, len, j);
	}
	if (j >= len || src[j++] != '"')
		return 0;
	*p0 = j;
	while (j < len && src[j] != '"' && src[j] != '\\' && src[j] != '\n')
		j++;
	if (j >= len || src[j] != '"')
		return 0;
	*p1 = j;
	return j + 1;
}

/*
 * Does a path resolve to the same file from the private directory?  An
 * absolute one does; a relative one unless it climbs out with `..` or
 * names the copy.
 */
static int path_safe(const char *p, size_t n, const char *copy)
{
	size_t i = 0, k;

	if (n && p[0] == '/')
		return 1;
	while (i < n) {
		for (k = i; k < n && p[k] != '/'; k++)
			;
		if (k - i == 2 && p[i] == '.' && p[i + 1] == '.')
			return 0;
		if (k == n && k - i == strlen(copy) && !memcmp(p + i, copy, k - i))
			return 0;
		i = k + 1;
	}
	return 1;
}

/* The file an /incbin/ path names, as dtc resolves it first: relative to the .its. */
static char *resolve(const char *its, const char *p, size_t n)
{
	const char *slash = strrchr(its, '/');
	size_t dl = p[0] == '/' || !slash ? 0 : (size_t)(slash - its) + 1;
	char *r = malloc(dl + n + 1);

	if (r) {
		memcpy(r, its, dl);
		memcpy(r + dl, p, n);
		r[dl + n] = 0;
	}
	return r;
}

/* Records a bypassed file if it is big enough; 1 if taken. */
static int take(const char *its, const char *p, size_t n, struct bypass *b)
{
	char *path;
	struct stat st;

	if (b->n == BYPASS_MAX)
		return 0;
	path = resolve(its, p, n);
	if (!path || stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size < BYPASS_MIN ||
	    st.st_size > INT32_MAX ||
	    getrandom(b->mark[b->n], MARK_LEN, 0) != MARK_LEN) {
		free(path);
		return 0;
	}
	b->path[b->n] = path;
	b->size[b->n] = (size_t)st.st_size;
	b->n++;
	return 1;
}

/* The marker replaces the /incbin/ on the same line, so dtc's line numbers hold. */
static void put_mark(char **o, const uint8_t *mark)
{
	int k;

	*o += sprintf(*o, "[");
	for (k = 0; k < MARK_LEN; k++)
		*o += sprintf(*o, "%02x", mark[k]);
	*o += sprintf(*o, "]");
}

/*
 * At src[i], a /incbin/ or /include/ directive: copies it to *o (or its
 * marker), returns the offset after it; 0 when the bypass must be off.
 */
static size_t directive(const char *its, const char *copy, const char *src, size_t len,
			size_t i, char **o, struct bypass *b)
{
	static const char inc[] = "/include/", bin[] = "/incbin/";
	size_t end, close, p0, p1;

	if (len - i >= sizeof(inc) - 1 && !memcmp(src + i, inc, sizeof(inc) - 1))
		end = path_arg(src, len, i + sizeof(inc) - 1, 0, &p0, &p1);
	else
		end = path_arg(src, len, i + sizeof(bin) - 1, 1, &p0, &p1);
	if (!end)
		return 0;
	close = skip_blanks(src, len, end);
	if (src[i + 4] == 'b' && close < len && src[close] == ')' &&
	    take(its, src + p0, p1 - p0, b)) {
		put_mark(o, b->mark[b->n - 1]);
		return close + 1;
	}
	if (!path_safe(src + p0, p1 - p0, copy))
		return 0;
	memcpy(*o, src + i, end - i);
	*o += end - i;
	return end;
}

static int at_directive(const char *src, size_t len, size_t i)
{
	return len - i >= 8 && (!memcmp(src + i, "/incbin/", 8) ||
				(len - i >= 9 && !memcmp(src + i, "/include/", 9)));
}

/*
 * Copies src with large /incbin/s replaced by markers; NULL when there is
 * nothing to replace or the bypass is off.  A tiny lexer skips comments
 * and string literals.
 */
static char *substitute(const char *its, const char *copy, const char *src, size_t len,
			struct bypass *b)
{
	size_t i = 0, end;
	char *out = malloc(len + BYPASS_MAX * (2 * MARK_LEN + 2) + 1), *o = out;

	if (!out)
		return NULL;
	while (i < len) {
		char c = src[i];

		if (c == '/' && i + 1 < len && (src[i + 1] == '/' || src[i + 1] == '*')) {
			const char *stop = src[i + 1] == '/' ? "\n" : "*/";
			const char *f = memmem(src + i + 2, len - i - 2, stop, strlen(stop));
			size_t n = f ? (size_t)(f - src) + strlen(stop) - i : len - i;

			memcpy(o, src + i, n);
			o += n;
			i += n;
			continue;
		}
		if (c == '"' || c == '\'') {
			size_t j = i + 1;

			while (j < len && src[j] != c && src[j] != '\n')
				j += src[j] == '\\' ? 2 : 1;
			j = j < len ? j + 1 : len;
			memcpy(o, src + i, j - i);
			o += j - i;
			i = j;
			continue;
		}
		if (at_directive(src, len, i)) {
			end = directive(its, copy, src, len, i, &o, b);
			if (!end)
				goto off;
			i = end;
			continue;
		}
		*o++ = c;
		i++;
	}
	*o = 0;
	if (b->n)
		return out;
off:
	bypass_free(b);
	free(out);
	return NULL;
}

/* Each marker names exactly one property of the compiled blob. */
static int find_marks(const void *fdt, struct bypass *b)
{
	int off = 0, next, tag, node = 0, i, len, found[BYPASS_MAX] = { 0 };
	const struct fdt_property *p;

	do {
		tag = (int)fdt_next_tag(fdt, off, &next);
		if (next < 0)
			return -1;
		/* Properties come before subnodes: the last node opened owns them. */
		if (tag == FDT_BEGIN_NODE)
			node = off;
		if (tag == FDT_PROP) {
			p = fdt_get_property_by_offset(fdt, off, &len);
			for (i = 0; p && len == MARK_LEN && i < b->n; i++)
				if (!memcmp(p->data, b->mark[i], MARK_LEN)) {
					found[i]++;
					b->prop[i] = off;
					b->node[i] = node;
				}
		}
		off = next;
	} while (tag != FDT_END);
	for (i = 0; i < b->n; i++)
		if (found[i] != 1)
			return -1;
	return 0;
}

static int read_into(const char *path, uint8_t *dst, size_t size, struct vfit_err *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;
	ssize_t r = 0;
	uint8_t extra;

	if (fd < 0)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", path, strerror(errno));
	while (got < size && ((r = read(fd, dst + got, size - got)) > 0 || (r < 0 && errno == EINTR)))
		got += r > 0 ? (size_t)r : 0;
	if (got == size)
		r = read(fd, &extra, 1);
	close(fd);
	if (got != size || r != 0)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: file changed while being read", path);
	return 0;
}

/* Resizes each marker property to its file and reads the file into it, last first. */
static int fill_marks(struct vfit_fdtbuf *out, struct bypass *b, struct vfit_err *e)
{
	size_t total = FIT_SLACK;
	char name[256];
	const char *pn;
	void *dst;
	int i, k, best, r;
	char done[BYPASS_MAX] = { 0 };

	for (i = 0; i < b->n; i++)
		total += b->size[i] + 8;
	if (vfit_fdt_used(out->buf) + total > INT32_MAX)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: FIT would be larger than 2 GiB",
				    b->path[0]);
	if (vfit_fdtbuf_reserve(out, total))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", b->path[0]);
	for (k = 0; k < b->n; k++) {
		best = -1;
		for (i = 0; i < b->n; i++)
			if (!done[i] && (best < 0 || b->prop[i] > b->prop[best]))
				best = i;
		done[best] = 1;
		if (!fdt_getprop_by_offset(out->buf, b->prop[best], &pn, NULL) ||
		    strlen(pn) >= sizeof(name))
			return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: bad property", b->path[best]);
		strcpy(name, pn);
		r = fdt_setprop_placeholder(out->buf, b->node[best], name, (int)b->size[best], &dst);
		if (r)
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", b->path[best], fdt_strerror(r));
		if (read_into(b->path[best], dst, b->size[best], e))
			return -1;
	}
	return 0;
}

/* dtc's diagnostics about the marker copy, shown as about the user's .its. */
static void show_errors(FILE *f, const char *tmp, const char *its)
{
	char line[1024], *hit;
	size_t tl = strlen(tmp);

	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		char *p = line;

		while ((hit = strstr(p, tmp))) {
			fwrite(p, 1, (size_t)(hit - p), stderr);
			fputs(its, stderr);
			p = hit + tl;
		}
		fputs(p, stderr);
	}
}

/* Writes the marker copy into a fresh private directory; the copy's path or NULL. */
static char *write_copy(const char *copy, const char *text)
{
	const char *tdir = getenv("TMPDIR");
	size_t n, tl = strlen(text);
	char *dir, *path;
	int fd;

	if (!tdir || !*tdir)
		tdir = "/tmp";
	n = strlen(tdir) + strlen(copy) + 32;
	path = malloc(n);
	if (!path)
		return NULL;
	snprintf(path, n, "%s/vfit-dtc-XXXXXX", tdir);
	dir = mkdtemp(path);
	if (!dir) {
		free(path);
		return NULL;
	}
	n = strlen(path);
	snprintf(path + n, strlen(copy) + 2, "/%s", copy);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0 && write(fd, text, tl) == (ssize_t)tl && !close(fd))
		return path;
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	path[n] = 0;
	rmdir(path);
	free(path);
	return NULL;
}

static void remove_copy(char *path)
{
	unlink(path);
	*strrchr(path, '/') = 0;
	rmdir(path);
	free(path);
}

/* 0: compiled, 1: use the plain path instead, -1: error. */
static int compile_bypass(const char *its, const char *text, const char *dtc_opts,
			  struct bypass *b, struct vfit_fdtbuf *out, struct vfit_err *e)
{
	const char *slash = strrchr(its, '/');
	struct vfit_err quiet = { 0 };
	struct dtc_cmd cmd = { 0 };
	char *copy = NULL, *data = NULL, dir[PATH_MAX];
	FILE *errf = tmpfile();
	size_t len = 0;
	int r = 1;

	/* dtc searches the .its's own directory first for its /incbin/ paths. */
	if (vfit_dirname(its, dir, sizeof(dir)) || !errf)
		goto out;
	copy = write_copy(slash ? slash + 1 : its, text);
	if (!copy || dtc_cmd_make(&cmd, dtc_opts, dir, copy, &quiet) || cmd.depfile)
		goto out;
	r = run_dtc(its, &cmd, fileno(errf), &data, &len, &quiet) ? 1 : 0;
	if (r || vfit_fdtbuf_adopt(out, data, len, len + FIT_SLACK, its, &quiet) ||
	    find_marks(out->buf, b)) {
		vfit_fdtbuf_free(out);
		r = 1;
		goto out;
	}
	show_errors(errf, copy, its);
	r = fill_marks(out, b, e);
	if (r)
		vfit_fdtbuf_free(out);
out:
	if (copy)
		remove_copy(copy);
	dtc_cmd_free(&cmd);
	if (errf)
		fclose(errf);
	return r;
}

int vfit_its_compile(const char *its, const char *dtc_opts, struct vfit_fdtbuf *out,
		     struct vfit_err *e)
{
	const char *slash = strrchr(its, '/');
	struct bypass b = { .n = 0 };
	struct dtc_cmd cmd = { 0 };
	char *src, *text, *data;
	size_t len;
	int r;

	if (vfit_file_read(its, 0, &src, &len, e))
		return -1;
	text = memchr(src, 0, len) ? NULL : substitute(its, slash ? slash + 1 : its, src, len, &b);
	free(src);
	if (text) {
		r = compile_bypass(its, text, dtc_opts, &b, out, e);
		free(text);
		bypass_free(&b);
		if (r <= 0)
			return r;
	}
	if (dtc_cmd_make(&cmd, dtc_opts, NULL, its, e))
		return -1;
	r = run_dtc(its, &cmd, -1, &data, &len, e);
	dtc_cmd_free(&cmd);
	if (r)
		return -1;
	return vfit_fdtbuf_adopt(out, data, len, len + FIT_SLACK, its, e);
}

/* ---- -f auto ---------------------------------------------------------------- */

/* File name without directory and without its last extension (mkimage's rule). */
static void base_name(char *out, size_t size, const char *path)
{
	const char *b = strrchr(path, '/'), *dot;
	size_t n;

	b = b ? b + 1 : path;
	dot = strrchr(b, '.');
	n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
	if (n >= size)
		n = size - 1;
	memcpy(out, b, n);
	out[n] = 0;
}

/* The -d, -b and -i files of -f auto, sized up front and read straight into the tree. */
struct auto_files {
	const char *path[64];
	size_t len[64];
	int n;
	struct vfit_err *e;
};

static int sw_check(int r, struct vfit_err *e)
{
	if (r)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "-f auto: cannot build the tree: %s",
				    fdt_strerror(r));
	return 0;
}

static int hash_or_sign(void *fdt, const struct vfit_mkimage *m)
{
	int r;

	if (m->keyname && m->algo) {
		r = fdt_begin_node(fdt, "signature-1");
		r = r ? r : fdt_property_string(fdt, "algo", m->algo);
		r = r ? r : fdt_property_string(fdt, "key-name-hint", m->keyname);
	} else {
		r = fdt_begin_node(fdt, "hash-1");
		r = r ? r : fdt_property_string(fdt, "algo", "crc32");
	}
	return r ? r : fdt_end_node(fdt);
}

/* Adds path with its size: a regular file the FDT's 32-bit lengths can hold. */
static int auto_file(struct auto_files *f, const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return vfit_err_set(f->e, VFIT_EXIT_USAGE, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return vfit_err_set(f->e, VFIT_EXIT_USAGE, "%s: not a regular file", path);
	if (st.st_size > INT32_MAX)
		return vfit_err_set(f->e, VFIT_EXIT_USAGE, "-f auto: image file too large");
	f->path[f->n] = path;
	f->len[f->n++] = (size_t)st.st_size;
	return 0;
}

/* The `data` property of file i: room made in the tree, then the file read into it. */
static int auto_data(void *fdt, const struct auto_files *f, int i)
{
	void *dst;
	int r = fdt_property_placeholder(fdt, "data", (int)f->len[i], &dst);

	/* A read error is in f->e already (first error wins over sw_check's). */
	return r ? r : read_into(f->path[i], dst, f->len[i], f->e) ? -FDT_ERR_BADVALUE : 0;
}

static int write_images(void *fdt, const struct vfit_mkimage *m, const struct auto_files *f)
{
	char str[128], base[96];
	int r, i;

	r = fdt_begin_node(fdt, "images");
	snprintf(str, sizeof(str), "%s-1", m->type);
	r = r ? r : fdt_begin_node(fdt, str);
	r = r ? r : fdt_property_string(fdt, "description", m->name ? m->name : "");
	r = r ? r : fdt_property_string(fdt, "type", m->type);
	r = r ? r : fdt_property_string(fdt, "arch", m->arch);
	r = r ? r : fdt_property_string(fdt, "os", m->os);
	r = r ? r : fdt_property_string(fdt, "compression", m->comp);
	r = r ? r : fdt_property_u32(fdt, "load", m->load);
	r = r ? r : fdt_property_u32(fdt, "entry", m->entry);
	/* Payload last: a loader reading only the start still sees the properties. */
	r = r ? r : auto_data(fdt, f, 0);
	r = r ? r : hash_or_sign(fdt, m);
	r = r ? r : fdt_end_node(fdt);
	for (i = 0; !r && i < m->ndtbs; i++) {
		snprintf(str, sizeof(str), "fdt-%d", i + 1);
		base_name(base, sizeof(base), m->dtbs[i]);
		r = fdt_begin_node(fdt, str);
		r = r ? r : fdt_property_string(fdt, "description", base);
		r = r ? r : auto_data(fdt, f, 1 + i);
		r = r ? r : fdt_property_string(fdt, "type", "flat_dt");
		r = r ? r : fdt_property_string(fdt, "arch", m->arch);
		r = r ? r : fdt_property_string(fdt, "compression", "none");
		r = r ? r : hash_or_sign(fdt, m);
		r = r ? r : fdt_end_node(fdt);
	}
	if (!r && m->initrd) {
		r = fdt_begin_node(fdt, "ramdisk-1");
		r = r ? r : fdt_property_string(fdt, "type", "ramdisk");
		r = r ? r : fdt_property_string(fdt, "os", m->os);
		r = r ? r : fdt_property_string(fdt, "arch", m->arch);
		r = r ? r : auto_data(fdt, f, f->n - 1);
		r = r ? r : hash_or_sign(fdt, m);
		r = r ? r : fdt_end_node(fdt);
	}
	return r ? r : fdt_end_node(fdt);
}

/*
 * One configuration per -b (or one without): the main image under the
 * property "kernel" (mkimage 2023.01 used the type's name, e.g.
 * "kernel_noload", which U-Boot does not understand), loadables, ramdisk, fdt.
 */
static int write_confs(void *fdt, const struct vfit_mkimage *m)
{
	char str[128], main_img[96], base[96];
	int r, i;

	snprintf(main_img, sizeof(main_img), "%s-1", m->type);
	r = fdt_begin_node(fdt, "configurations");
	r = r ? r : fdt_property_string(fdt, "default", "conf-1");
	for (i = 0; !r && i < m->ndtbs; i++) {
		snprintf(str, sizeof(str), "conf-%d", i + 1);
		base_name(base, sizeof(base), m->dtbs[i]);
		r = fdt_begin_node(fdt, str);
		r = r ? r : fdt_property_string(fdt, "description", base);
		r = r ? r : fdt_property_string(fdt, "kernel", main_img);
		r = r ? r : fdt_property_string(fdt, "loadables", main_img);
		if (!r && m->initrd)
			r = fdt_property_string(fdt, "ramdisk", "ramdisk-1");
		snprintf(str, sizeof(str), "fdt-%d", i + 1);
		r = r ? r : fdt_property_string(fdt, "fdt", str);
		r = r ? r : fdt_end_node(fdt);
	}
	if (!r && !m->ndtbs) {
		r = fdt_begin_node(fdt, "conf-1");
		r = r ? r : fdt_property_string(fdt, "kernel", main_img);
		if (!r && m->initrd)
			r = fdt_property_string(fdt, "ramdisk", "ramdisk-1");
		r = r ? r : fdt_end_node(fdt);
	}
	return r ? r : fdt_end_node(fdt);
}

int vfit_its_auto(const struct vfit_mkimage *m, struct vfit_fdtbuf *out, struct vfit_err *e)
{
	const struct {
		enum vfit_name_kind kind;
		const char *what;
		const char *const *value;
	} kinds[4] = {
		{ VFIT_NAME_TYPE, "image type (-T)", &m->type },
		{ VFIT_NAME_ARCH, "architecture (-A)", &m->arch },
		{ VFIT_NAME_OS, "OS (-O)", &m->os },
		{ VFIT_NAME_COMP, "compression (-C)", &m->comp },
	};
	struct auto_files f = { .n = 0 };
	const char *tname = vfit_name_long(VFIT_NAME_TYPE, m->type);
	size_t size = 4096, used;
	char desc[160];
	void *fdt = NULL;
	int i, r = -1;

	if (!m->datafile)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "-f auto needs an image file (-d)");
	for (i = 0; i < 4; i++)
		if (!vfit_name_find(kinds[i].kind, *kinds[i].value))
			return vfit_err_set(e, VFIT_EXIT_USAGE, "-f auto: unknown %s '%s'",
					    kinds[i].what, *kinds[i].value);
	if (m->ndtbs > 60)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "-f auto: too many -b files");
	f.e = e;
	if (auto_file(&f, m->datafile))
		return -1;
	size += f.len[0];
	for (i = 0; i < m->ndtbs; i++) {
		if (auto_file(&f, m->dtbs[i]))
			return -1;
		size += f.len[f.n - 1] + 512;
	}
	if (m->initrd) {
		if (auto_file(&f, m->initrd))
			return -1;
		size += f.len[f.n - 1] + 512;
	}
	size += FIT_SLACK;
	fdt = malloc(size);
	if (!fdt)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "-f auto: out of memory");
	snprintf(desc, sizeof(desc), "%s image with one or more FDT blobs", tname);
	r = fdt_create(fdt, (int)size);
	r = r ? r : fdt_finish_reservemap(fdt);
	r = r ? r : fdt_begin_node(fdt, "");
	r = r ? r : fdt_property_string(fdt, "description", desc);
	r = r ? r : fdt_property_string(fdt, "creator", "vfit mkimage " VFIT_VERSION);
	r = r ? r : fdt_property_u32(fdt, "#address-cells", 1);
	r = r ? r : write_images(fdt, m, &f);
	r = r ? r : write_confs(fdt, m);
	r = r ? r : fdt_end_node(fdt);
	r = r ? r : fdt_finish(fdt);
	if (sw_check(r, e)) {
		free(fdt);
		return -1;
	}
	used = fdt_totalsize(fdt);
	return vfit_fdtbuf_adopt(out, fdt, used, size, "-f auto", e);
}
