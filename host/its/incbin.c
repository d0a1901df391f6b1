/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Large /incbin/ payloads bypass dtc.  dtc copies every /incbin/ file several
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
 *
 * With defer (mkimage), the payloads that are images' `data` are not read
 * at all: each property gets its size and the bytes stay in their files
 * (host/core/fdtbuf.c), hashed from there and copied from there to the output.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libfdt.h>

#include "vfit-host/io.h"
#include "its_int.h"

#define BYPASS_MIN VFIT_PAYLOAD_MIN
#define BYPASS_MAX 16
#define MARK_LEN 16
#define TAGALIGN(len) (((len) + 3) & ~(size_t)3)

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

/* Whether marker i may stay in its file: an image's `data` (host/core/fdtbuf.c). */
static int streamable(const void *fdt, const struct bypass *b, int i)
{
	const char *name;
	int parent = fdt_parent_offset(fdt, b->node[i]);

	return fdt_getprop_by_offset(fdt, b->prop[i], &name, NULL) && !strcmp(name, "data") &&
	       parent >= 0 && parent == fdt_path_offset(fdt, "/images");
}

/* Marker i resized to its file and the file read into it (a `data` of defer: left there). */
static int fill_mark(struct vfit_fdtbuf *out, struct bypass *b, int i, int defer,
		     struct vfit_err *e)
{
	char name[256];
	const char *pn;
	void *dst;
	int r, fd;

	if (defer && streamable(out->buf, b, i)) {
		fd = open(b->path[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", b->path[i], strerror(errno));
		return vfit_fdtbuf_payload(out, b->node[i], b->path[i], fd, 0, b->size[i], e);
	}
	if (!fdt_getprop_by_offset(out->buf, b->prop[i], &pn, NULL) || strlen(pn) >= sizeof(name))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: bad property", b->path[i]);
	strcpy(name, pn);
	r = fdt_setprop_placeholder(out->buf, b->node[i], name, (int)b->size[i], &dst);
	if (r)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: %s", b->path[i], fdt_strerror(r));
	/* dtc pads a value with zeros; the resize left whatever its splice moved there. */
	memset((char *)dst + b->size[i], 0, (4 - b->size[i] % 4) % 4);
	return vfit_read_exact(b->path[i], dst, b->size[i], e);
}

/*
 * Resizes each marker property to its file, first to last: each resize
 * moves only the small markers after it, never a payload before it.
 */
static int fill_marks(struct vfit_fdtbuf *out, struct bypass *b, int defer, struct vfit_err *e)
{
	size_t total = VFIT_FIT_SLACK, grow;
	int i, k, next, later;
	char done[BYPASS_MAX] = { 0 };

	for (i = 0; i < b->n; i++)
		total += b->size[i] + 8;
	if (vfit_fdt_used(out->buf) + total > INT32_MAX)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: FIT would be larger than 2 GiB",
				    b->path[0]);
	if (vfit_fdtbuf_reserve(out, total))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", b->path[0]);
	for (k = 0; k < b->n; k++) {
		next = -1;
		for (i = 0; i < b->n; i++)
			if (!done[i] && (next < 0 || b->prop[i] < b->prop[next]))
				next = i;
		done[next] = 1;
		if (fill_mark(out, b, next, defer, e))
			return -1;
		/* What follows moved by the growth: later markers and their nodes. */
		grow = TAGALIGN(b->size[next]) - MARK_LEN;
		for (later = 0; later < b->n; later++) {
			if (done[later])
				continue;
			b->prop[later] += (int)grow;
			if (b->node[later] > b->prop[next])
				b->node[later] += (int)grow;
		}
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

/* The marker copy and the private directory that holds it, both removed on a fatal signal. */
struct copy {
	char *dir, *file;
};

static void remove_copy(struct copy *c)
{
	if (c->file) {
		unlink(c->file);
		vfit_tmp_drop(c->file);
	}
	if (c->dir) {
		rmdir(c->dir);
		vfit_tmp_drop(c->dir);
	}
	free(c->file);
	free(c->dir);
	c->file = c->dir = NULL;
}

/* Writes the marker copy, named name, into a fresh private directory; 0 or -1. */
static int write_copy(struct copy *c, const char *name, const char *text)
{
	const char *tdir = getenv("TMPDIR");
	size_t n, tl = strlen(text);
	int fd;

	if (!tdir || !*tdir)
		tdir = "/tmp";
	n = strlen(tdir) + strlen(name) + 32;
	c->dir = malloc(n);
	c->file = malloc(n);
	if (!c->dir || !c->file) {
		free(c->dir);
		free(c->file);
		c->dir = c->file = NULL;
		return -1;
	}
	snprintf(c->dir, n, "%s/vfit-dtc-XXXXXX", tdir);
	if (vfit_tmp_make(c->dir, 1)) {
		free(c->dir);
		c->dir = NULL;
		remove_copy(c);
		return -1;
	}
	snprintf(c->file, n, "%s/%s", c->dir, name);
	/* Nothing else can be in the private directory: held before it exists. */
	vfit_tmp_hold(c->file);
	fd = open(c->file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0 && write(fd, text, tl) == (ssize_t)tl && !close(fd))
		return 0;
	if (fd >= 0)
		close(fd);
	remove_copy(c);
	return -1;
}

static int compile_bypass(const char *its, const char *text, const char *dtc_opts,
			  int defer, struct bypass *b, struct vfit_fdtbuf *out, struct vfit_err *e)
{
	const char *slash = strrchr(its, '/');
	struct vfit_err quiet = { 0 };
	struct vfit_dtc_cmd cmd = { 0 };
	struct copy copy = { NULL, NULL };
	char *data = NULL, dir[PATH_MAX];
	FILE *errf = tmpfile();
	size_t len = 0;
	int r = 1;

	/* dtc searches the .its's own directory first for its /incbin/ paths. */
	if (vfit_dirname(its, dir, sizeof(dir)) || !errf)
		goto out;
	if (write_copy(&copy, slash ? slash + 1 : its, text) ||
	    vfit_dtc_cmd_make(&cmd, dtc_opts, dir, copy.file, &quiet) || cmd.depfile)
		goto out;
	r = vfit_dtc_run(its, &cmd, fileno(errf), &data, &len, &quiet) ? 1 : 0;
	if (r || vfit_fdtbuf_adopt(out, data, len, len + VFIT_FIT_SLACK, its, &quiet) ||
	    find_marks(out->buf, b)) {
		vfit_fdtbuf_free(out);
		r = 1;
		goto out;
	}
	show_errors(errf, copy.file, its);
	r = fill_marks(out, b, defer, e);
	if (r)
		vfit_fdtbuf_free(out);
out:
	remove_copy(&copy);
	vfit_dtc_cmd_free(&cmd);
	if (errf)
		fclose(errf);
	return r;
}

int vfit_incbin_compile(const char *its, const char *src, size_t len, const char *dtc_opts,
			int defer, struct vfit_fdtbuf *out, struct vfit_err *e)
{
	const char *slash = strrchr(its, '/');
	struct bypass b = { .n = 0 };
	char *text = substitute(its, slash ? slash + 1 : its, src, len, &b);
	int r;

	if (!text)
		return 1;
	r = compile_bypass(its, text, dtc_opts, defer, &b, out, e);
	free(text);
	bypass_free(&b);
	return r;
}
