/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Property writes collected and applied in one pass.  Setting thousands of
 * properties with fdt_setprop() moves the rest of the blob each time (a
 * FIT with 3,000 signed configurations: gigabytes of memmove); here every
 * write is recorded against the blob as it is, then one rebuild produces
 * the blob that the same fdt_setprop() calls, in the same order, leave.
 *
 * Byte for byte, including what libfdt does not clear: each node's
 * leading properties are rebuilt in a small window by replaying its
 * writes the way libfdt makes them (a new property is spliced in at the
 * front of the node, an existing one, the first of that name, is resized
 * in place; the value is copied and the padding after it keeps whatever
 * bytes the splice left there), so a 2-byte crc16 value is followed by
 * the same two stray bytes as in mkimage's output.  The window starts as
 * the node's original bytes and what follows them; a write could only see
 * different stray bytes if its splice reached into another edited node's
 * properties, which hash and signature nodes (each with an algo first)
 * never do.
 *
 * Names are added to the strings block as libfdt adds them (the first
 * NUL-terminated occurrence, suffixes included, else appended), in the
 * order of the writes; the model is kept as writes are recorded, so a
 * signer knows the block's size at each point of the sequence.
 */
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "vfit-host/fdtbuf.h"

/* Property values are padded to 4 bytes in the structure block. */
#define TAGALIGN(len) (((len) + 3) & ~(size_t)3)

struct edit {
	int node;               /* structure offset of the node in the original blob */
	uint32_t seq;           /* write order */
	uint32_t nameoff;       /* in the modelled strings block */
	char *val;
	size_t len;
};

struct vfit_edits {
	const void *fdt;        /* the blob the writes refer to */
	struct edit *e;
	size_t n, cap;
	char *str;              /* the strings block as it will be */
	size_t str_len, str_cap;
};

struct vfit_edits *vfit_edits_new(const void *fdt)
{
	struct vfit_edits *ed = calloc(1, sizeof(*ed));
	size_t len = fdt_size_dt_strings(fdt);

	if (!ed)
		return NULL;
	ed->fdt = fdt;
	ed->str_cap = len + 4096;
	ed->str = malloc(ed->str_cap);
	if (!ed->str) {
		free(ed);
		return NULL;
	}
	memcpy(ed->str, (const char *)fdt + fdt_off_dt_strings(fdt), len);
	ed->str_len = len;
	return ed;
}

void vfit_edits_free(struct vfit_edits *ed)
{
	size_t i;

	if (!ed)
		return;
	for (i = 0; i < ed->n; i++)
		free(ed->e[i].val);
	free(ed->e);
	free(ed->str);
	free(ed);
}

const char *vfit_edits_strings(const struct vfit_edits *ed, uint32_t *len)
{
	*len = (uint32_t)ed->str_len;
	return ed->str;
}

/* libfdt's fdt_find_add_string_(): the first occurrence, else appended. */
static long find_add_string(struct vfit_edits *ed, const char *s)
{
	size_t len = strlen(s) + 1, i;
	char *p;

	for (i = 0; i + len <= ed->str_len; i++)
		if (!memcmp(ed->str + i, s, len))
			return (long)i;
	if (ed->str_len + len > ed->str_cap) {
		p = realloc(ed->str, ed->str_len + len + 4096);
		if (!p)
			return -1;
		ed->str = p;
		ed->str_cap = ed->str_len + len + 4096;
	}
	memcpy(ed->str + ed->str_len, s, len);
	ed->str_len += len;
	return (long)(ed->str_len - len);
}

int vfit_edits_set(struct vfit_edits *ed, int node, const char *name, const void *val,
		   size_t len)
{
	struct edit *e, *grown;
	char *copy = malloc(len ? len : 1);
	long off;

	if (!copy || len > INT32_MAX)
		goto fail;
	memcpy(copy, val, len);
	off = find_add_string(ed, name);
	if (off < 0)
		goto fail;
	if (ed->n == ed->cap) {
		grown = realloc(ed->e, (ed->cap * 2 + 16) * sizeof(*ed->e));
		if (!grown)
			goto fail;
		ed->e = grown;
		ed->cap = ed->cap * 2 + 16;
	}
	e = &ed->e[ed->n];
	e->node = node;
	e->seq = (uint32_t)ed->n;
	e->nameoff = (uint32_t)off;
	e->val = copy;
	e->len = len;
	ed->n++;
	return 0;
fail:
	free(copy);
	return -FDT_ERR_NOSPACE;
}

static int by_node(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * One node's leading properties, replayed: w[0..wlen) starts as the bytes
 * of the original blob from the first property on (props is how many of
 * them are the node's leading properties and NOPs), long enough for every
 * splice to read what it would read.
 */
struct window {
	char *w;
	size_t wlen, props;
};

/* The first leading property named nameoff's name, or -1 (libfdt's lookup). */
static long find_prop(const struct window *win, const struct vfit_edits *ed, uint32_t nameoff)
{
	const char *want = ed->str + nameoff;
	size_t off = 0;
	uint32_t tag, len;

	while (off + 4 <= win->props) {
		tag = fdt32_ld((const fdt32_t *)(win->w + off));
		if (tag == FDT_NOP) {
			off += 4;
			continue;
		}
		len = fdt32_ld((const fdt32_t *)(win->w + off + 4));
		if (!strcmp(ed->str + fdt32_ld((const fdt32_t *)(win->w + off + 8)), want))
			return (long)off;
		off += 12 + TAGALIGN(len);
	}
	return -1;
}

/* fdt_splice_(): the bytes at p move from p + oldlen to p + newlen; the gap keeps its bytes. */
static void splice(struct window *win, size_t p, size_t oldlen, size_t newlen)
{
	memmove(win->w + p + newlen, win->w + p + oldlen,
		win->wlen - p - (oldlen > newlen ? oldlen : newlen));
	win->props = win->props + newlen - oldlen;
}

static void replay(struct window *win, const struct vfit_edits *ed, const struct edit *e)
{
	long at = find_prop(win, ed, e->nameoff);
	fdt32_t *h;
	size_t p;

	if (at < 0) {
		p = 0;
		splice(win, 0, 0, 12 + TAGALIGN(e->len));
	} else {
		p = (size_t)at;
		splice(win, p + 12, TAGALIGN(fdt32_ld((const fdt32_t *)(win->w + p + 4))),
		       TAGALIGN(e->len));
	}
	h = (fdt32_t *)(win->w + p);
	h[0] = cpu_to_fdt32(FDT_PROP);
	h[1] = cpu_to_fdt32((uint32_t)e->len);
	h[2] = cpu_to_fdt32(e->nameoff);
	memcpy(win->w + p + 12, e->val, e->len);
}

/*
 * Replays edits e[0..n) of the node whose properties start at struct
 * offset start (props: the length of its leading properties and NOPs)
 * into a new window; the caller emits win->w[0..win->props).
 */
static int node_window(const char *old, size_t old_used, int start, size_t props,
		       const struct vfit_edits *ed, const struct edit *e, size_t n,
		       struct window *win)
{
	size_t base = fdt_off_dt_struct(old) + (size_t)start, grow = 0, room, i;

	for (i = 0; i < n; i++)
		grow += 12 + TAGALIGN(e[i].len);
	win->wlen = props + 2 * grow + 16;
	win->w = calloc(1, win->wlen);
	if (!win->w)
		return -FDT_ERR_NOSPACE;
	/* Past the blob's end libfdt would find free space: zeros here, whatever the buffer holds. */
	room = base < old_used ? old_used - base : 0;
	memcpy(win->w, old + base, room < win->wlen ? room : win->wlen);
	win->props = props;
	for (i = 0; i < n; i++)
		replay(win, ed, &e[i]);
	return 0;
}

/* Bytes of the node's leading properties and NOPs, from struct offset start. */
static size_t leading(const void *fdt, int start)
{
	int off = start, next;
	uint32_t tag;

	for (;;) {
		tag = fdt_next_tag(fdt, off, &next);
		if ((tag != FDT_PROP && tag != FDT_NOP) || next < 0)
			return (size_t)(off - start);
		off = next;
	}
}

/*
 * One edited node: its leading properties [start, start + props) of the
 * old structure block become win.w[0..win.props), and everything from
 * the previous piece's end to start moves by shift bytes.
 */
struct piece {
	size_t start, props;
	long shift;
	struct window win;
};

/*
 * The rooms of the payloads still in their files ([start[i], end[i]) in
 * the blob, sorted): bytes nobody reads, so a run moves around them, never
 * touching them (host/core/fdtbuf.c).
 */
struct rooms {
	int n;
	size_t *start, *end;
};

/* Bytes of [from, from + len) outside the rooms: what moving it costs. */
static size_t cost(const struct rooms *rm, size_t from, size_t len)
{
	size_t c = len, a, z;
	int i;

	for (i = 0; i < rm->n; i++) {
		a = rm->start[i] > from ? rm->start[i] : from;
		z = rm->end[i] < from + len ? rm->end[i] : from + len;
		if (z > a)
			c -= z - a;
	}
	return c;
}

/*
 * memmove() of [from, from + len) by shift, but for the rooms inside it;
 * the pieces in the order that moves each before anything lands on it.
 */
static void move(char *buf, size_t from, size_t len, long shift, const struct rooms *rm)
{
	size_t a, z, end = from + len;
	int i, k;

	for (k = 0; k <= rm->n; k++) {
		i = shift > 0 ? rm->n - k : k;     /* the gap before room i (i == n: after the last) */
		a = i ? rm->end[i - 1] : 0;
		z = i < rm->n ? rm->start[i] : end;
		a = a > from ? a : from;
		z = z < end ? z : end;
		if (z > a)
			memmove(buf + (long)a + shift, buf + a, z - a);
	}
}

/*
 * Moves the header and the structure bytes between pieces (run i ends at
 * piece i; run n is the tail, shifted by tail) to where the new lengths
 * put them, less g: all in place, a run moving only when something before
 * it changes size, never into a second buffer.  With g, the shift of the
 * longest run, taken from the head room, that run (the payload) stays
 * where it is and what precedes it moves down instead.  Runs that move
 * down go first, in order, then runs that move up, in reverse order: each
 * lands on bytes already moved, on its own, or on bytes of an edited node.
 */
static void move_runs(char *buf, size_t soff, const struct piece *pc, size_t n, size_t ssize,
		      long tail, long g, const struct rooms *rm)
{
	size_t i, k, from, len;
	long shift;
	int up;

	for (up = 0; up < 2; up++)
		for (k = 0; k <= n + 1; k++) {
			i = up ? n + 1 - k : k;     /* 0: the header; i: run i - 1 */
			if (!i) {
				from = 0;
				len = soff;
				shift = -g;
			} else {
				from = i > 1 ? pc[i - 2].start + pc[i - 2].props : 0;
				len = (i - 1 < n ? pc[i - 1].start : ssize) - from;
				from += soff;
				shift = (i - 1 < n ? pc[i - 1].shift : tail) - g;
			}
			if (shift && (shift > 0) == up)
				move(buf, from, len, shift, rm);
		}
}

/*
 * The shift of the run that costs most to move when the head room covers
 * it, else 0.  libfdt reads a blob only at an 8-byte aligned address, so
 * the blob's start moves down by a multiple of 8 or not at all.
 */
static long head_shift(const struct piece *pc, size_t n, size_t soff, size_t ssize, long tail,
		       size_t head, const struct rooms *rm)
{
	size_t i, from, len, best = 0, c;
	long g = 0, shift;

	for (i = 0; i <= n; i++) {
		from = i ? pc[i - 1].start + pc[i - 1].props : 0;
		len = (i < n ? pc[i].start : ssize) - from;
		shift = i < n ? pc[i].shift : tail;
		c = cost(rm, soff + from, len);
		if (c > best) {
			best = c;
			g = shift > 0 && (size_t)shift <= head && !(shift % 8) ? shift : 0;
		}
	}
	return g;
}

/* The edited nodes' windows, replayed against the blob as it is; the shift of each. */
static int make_pieces(struct vfit_edits *ed, const struct vfit_fdtbuf *fit, struct piece *pc,
		       size_t *np, long *tail)
{
	const char *old = fit->buf;
	size_t i = 0, j, n = 0;
	int off = 0, next, r = 0;
	long shift = 0;
	uint32_t tag;

	for (;;) {
		tag = fdt_next_tag(old, off, &next);
		if (next < 0) {
			r = -FDT_ERR_BADSTRUCTURE;
			break;
		}
		if (tag == FDT_BEGIN_NODE && i < ed->n && ed->e[i].node == off) {
			for (j = i; j < ed->n && ed->e[j].node == off; j++)
				;
			pc[n].start = (size_t)next;
			pc[n].props = leading(old, next);
			pc[n].shift = shift;
			r = node_window(old, vfit_fdt_used(old), next, pc[n].props, ed, &ed->e[i], j - i,
					&pc[n].win);
			if (r)
				break;
			shift += (long)pc[n].win.props - (long)pc[n].props;
			next += (int)pc[n].props;
			n++;
			i = j;
		}
		if (tag == FDT_END)
			break;
		off = next;
	}
	*np = n;
	*tail = shift;
	if (!r && i != ed->n)
		r = -FDT_ERR_BADOFFSET;
	return r;
}

/*
 * The blob rebuilt in place: the buffer grows (realloc() of a large block
 * remaps it, the bytes stay put), the runs between edited nodes move
 * around the rooms (the costliest, a payload in memory, not at all when
 * the head room allows), the replayed windows and the new strings block
 * go in.
 */
int vfit_edits_apply(struct vfit_edits *ed, struct vfit_fdtbuf *fit)
{
	size_t i, n = 0, ssize, soff, used, new_used;
	struct rooms rm = { 0, NULL, NULL };
	struct piece *pc;
	long tail = 0, g;
	char *st;
	int r;

	if (ed->fdt != fit->buf)
		return -FDT_ERR_BADSTATE;
	ed->fdt = NULL;
	if (!ed->n)
		return 0;
	qsort(ed->e, ed->n, sizeof(*ed->e), by_node);
	pc = calloc(ed->n, sizeof(*pc));
	rm.start = calloc((size_t)fit->npl + 1, 2 * sizeof(size_t));
	if (!pc || !rm.start) {
		free(pc);
		free(rm.start);
		return -FDT_ERR_NOSPACE;
	}
	rm.end = rm.start + fit->npl + 1;
	r = make_pieces(ed, fit, pc, &n, &tail);
	soff = fdt_off_dt_struct(fit->buf);
	ssize = fdt_size_dt_struct(fit->buf);
	used = vfit_fdt_used(fit->buf);
	new_used = (size_t)((long)(soff + ssize) + tail) + ed->str_len;
	if (!r && new_used > used && vfit_fdtbuf_reserve(fit, new_used - used))
		r = -FDT_ERR_NOSPACE;
	if (!r && (rm.n = vfit_fdtbuf_rooms(fit, rm.start, rm.end)) < 0)
		r = -FDT_ERR_INTERNAL;
	if (!r) {
		g = head_shift(pc, n, soff, ssize, tail, fit->head, &rm);
		move_runs(fit->buf, soff, pc, n, ssize, tail, g, &rm);
		fit->buf -= g;
		fit->head -= (size_t)g;
		fit->cap += (size_t)g;
		st = fit->buf + soff;
		for (i = 0; i < n; i++)
			memcpy(st + (long)pc[i].start + pc[i].shift, pc[i].win.w, pc[i].win.props);
		ssize = (size_t)((long)ssize + tail);
		memcpy(st + ssize, ed->str, ed->str_len);
		fdt_set_size_dt_struct(fit->buf, (uint32_t)ssize);
		fdt_set_off_dt_strings(fit->buf, (uint32_t)(soff + ssize));
		fdt_set_size_dt_strings(fit->buf, (uint32_t)ed->str_len);
		fdt_set_totalsize(fit->buf, (uint32_t)fit->cap);
	}
	for (i = 0; i < n; i++)
		free(pc[i].win.w);
	free(pc);
	free(rm.start);
	return r;
}
