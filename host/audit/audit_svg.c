/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit audit --svg: the FIT as a layered graph, drawn as plain SVG text.
 * Five columns, left to right: configurations, images, hash nodes,
 * signature nodes, keys of the control DTB.  Every edge is coloured by
 * what protects that relation on the device (a signature a required key
 * verified, a signature by a key that is not required, a hash only,
 * nothing); what an attacker who rewrites the FIT controls is drawn with
 * a red dashed outline and says so.  Elements are groups with a class
 * (conf, image, hash, sig, key, edge, legend) and a <title>, so tests and
 * people can find them; all text is escaped, bytes outside printable
 * ASCII become '?', so any FIT gives well-formed XML.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vfit/fit.h"
#include "vfit-host/audit.h"
#include "vfit-host/io.h"

#define COLW 200
#define GAP 70
#define BOXH 42
#define ROWH 54
#define TOP 84   /* first row, without lanes */
#define LANE 7   /* vertical spacing of the lanes above the rows */

static const struct {
	const char *cls, *colour, *dash, *label;
} prot[] = {
	[VFIT_PROT_REQUIRED] = { "prot-required", "#1a7f37", "", "signature verified by a required key" },
	[VFIT_PROT_OPTIONAL] = { "prot-optional", "#0969da", "", "signature by a key that is not required" },
	[VFIT_PROT_HASH] = { "prot-hash", "#bf8700", "6,3", "hash only: integrity, not authenticity" },
	[VFIT_PROT_NONE] = { "prot-none", "#cf222e", "2,3", "nothing: the attacker's" },
};

static void esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '&')
			fputs("&amp;", f);
		else if (ch == '<')
			fputs("&lt;", f);
		else if (ch == '>')
			fputs("&gt;", f);
		else if (ch == '"')
			fputs("&quot;", f);
		else if (ch == '\'')
			fputs("&apos;", f);
		else if (ch < 0x20 || ch >= 0x7f)
			fputc('?', f);
		else
			fputc(ch, f);
	}
}

struct pos {
	int x, y;
};

/* Where the rows start: below the lanes of the edges that skip a column. */
struct lay {
	int top;
};

static struct pos at(const struct lay *l, int col, int row)
{
	struct pos p = { 20 + col * (COLW + GAP), l->top + row * ROWH };

	return p;
}

/* One box: class, name (bold), detail line, attacker mark, title text. */
static void box(FILE *f, const char *cls, struct pos p, const char *name, const char *detail,
		int attacker, const char *title)
{
	fprintf(f, "<g class=\"%s\"><title>", cls);
	esc(f, title);
	fprintf(f, "</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"5\" "
		"fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"%s/>", p.x, p.y, COLW, BOXH,
		attacker ? "#fff0f0" : "#f6f8fa", attacker ? "#cf222e" : "#57606a",
		attacker ? "2" : "1", attacker ? " stroke-dasharray=\"5,3\"" : "");
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">", p.x + 8, p.y + 17);
	esc(f, name);
	fprintf(f, "</text><text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"%s\">", p.x + 8,
		p.y + 33, attacker ? "#cf222e" : "#57606a");
	esc(f, detail);
	fputs("</text></g>\n", f);
}

/*
 * An edge between neighbouring columns is a curve; one that skips columns
 * (a configuration or an image to its signature) runs in its own lane
 * above the rows (lane >= 0), so it never seems to leave a box it passes.
 */
static void edge(FILE *f, const struct lay *l, struct pos a, struct pos b,
		 enum vfit_audit_prot pr, const char *what, int lane)
{
	int x1 = a.x + COLW, y1 = a.y + BOXH / 2, x2 = b.x, y2 = b.y + BOXH / 2, mx = (x1 + x2) / 2;
	char d[200];

	if (lane < 0) {
		snprintf(d, sizeof(d), "M%d,%d C%d,%d %d,%d %d,%d", x1, y1, mx, y1, mx, y2, x2, y2);
	} else {
		int ly = l->top - 12 - lane * LANE, xa = x1 + 8 + (lane % 5) * 5,
		    xb = x2 - 14 - (lane % 5) * 5;

		snprintf(d, sizeof(d), "M%d,%d H%d V%d H%d V%d H%d", x1, y1, xa, ly, xb, y2, x2);
	}
	fprintf(f, "<path class=\"edge %s\" d=\"%s\" fill=\"none\" stroke-linejoin=\"round\" "
		"stroke=\"%s\" stroke-width=\"2.5\"%s%s%s marker-end=\"url(#arrow-%s)\"><title>",
		prot[pr].cls, d, prot[pr].colour,
		prot[pr].dash[0] ? " stroke-dasharray=\"" : "", prot[pr].dash,
		prot[pr].dash[0] ? "\"" : "", prot[pr].cls);
	esc(f, what);
	fputs(": ", f);
	esc(f, prot[pr].label);
	fputs("</title></path>\n", f);
}

static const char *short_prot(enum vfit_audit_prot p)
{
	static const char *const s[] = { "signed, required key", "signed, key not required",
					 "hash only", "unprotected" };

	return s[p];
}

/* What protects an image's hash value: its best configuration signature, else the hash alone. */
static enum vfit_audit_prot hash_prot(const struct vfit_audit *a, const struct vfit_audit_hash *h)
{
	enum vfit_audit_prot p = a->img[h->image].prot;

	if (h->weak)
		return VFIT_PROT_NONE;
	return p <= VFIT_PROT_OPTIONAL ? p : VFIT_PROT_HASH;
}

/*
 * Rows in the signature and key columns: configuration signatures first
 * (in configuration order), then image signatures; keys a signature names
 * but the control DTB lacks get a row each after the keys it has.  The
 * configuration, image and hash columns are in model order.
 */
struct rows {
	int *sig;                   /* row of each signature */
	int *miss;                  /* row of each signature's missing key, or -1 */
	int nkeys;                  /* keys present and missing */
	int n;                      /* rows of the tallest column */
};

static int max(int x, int y)
{
	return x > y ? x : y;
}

static int rows_make(struct rows *r, const struct vfit_audit *a)
{
	int i, j, k = 0;

	r->sig = calloc((size_t)a->nsig + 1, sizeof(int));
	r->miss = calloc((size_t)a->nsig + 1, sizeof(int));
	if (!r->sig || !r->miss)
		return -1;
	for (i = 0; i < a->nsig; i++)
		if (a->sig[i].conf)
			r->sig[i] = k++;
	for (i = 0; i < a->nsig; i++)
		if (!a->sig[i].conf)
			r->sig[i] = k++;
	r->nkeys = a->nkey;
	for (i = 0; i < a->nsig; i++) {
		r->miss[i] = -1;
		if (a->sig[i].key >= 0 || !a->sig[i].hint[0])
			continue;
		for (j = 0; j < i; j++)
			if (r->miss[j] >= 0 && !strcmp(a->sig[j].hint, a->sig[i].hint))
				r->miss[i] = r->miss[j];
		if (r->miss[i] < 0)
			r->miss[i] = r->nkeys++;
	}
	r->n = max(max(max(a->nconf, a->nimg), max(a->nhash, a->nsig)), max(r->nkeys, 1));
	return 0;
}

static void rows_free(struct rows *r)
{
	free(r->sig);
	free(r->miss);
}

/* The document, its arrow markers, the title and the column heads. */
static void head(FILE *f, const struct vfit_audit *a, const struct lay *l, int width,
		 int height)
{
	static const char *const heads[] = { "configurations", "images", "hash nodes",
					     "signatures", "keys (control DTB)" };
	int i;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Verdana, sans-serif\" "
		"font-size=\"12\">\n<title>vfit audit: ", width, height, width, height);
	esc(f, a->file);
	fputs("</title>\n<defs>\n", f);
	for (i = 0; i < 4; i++)
		fprintf(f, "<marker id=\"arrow-%s\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
			"markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L10,5 "
			"L0,10 z\" fill=\"%s\"/></marker>\n", prot[i].cls, prot[i].colour);
	fprintf(f, "</defs>\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width, height);
	fputs("<text x=\"20\" y=\"28\" font-size=\"16\" font-weight=\"bold\">vfit audit: ", f);
	esc(f, a->file);
	if (a->ctl_file) {
		fputs(" against ", f);
		esc(f, a->ctl_file);
	}
	fprintf(f, "</text>\n<text x=\"20\" y=\"46\" font-size=\"11\" fill=\"#cf222e\">"
		"/configurations/default = \"");
	esc(f, a->default_conf);
	fputs("\" is never signed: whoever rewrites the FIT picks the configuration</text>\n", f);
	for (i = 0; i < 5; i++)
		fprintf(f, "<text x=\"%d\" y=\"68\" font-weight=\"bold\" fill=\"#24292f\">%s</text>\n",
			at(l, i, 0).x, heads[i]);
}

/* Every relation as an edge, drawn first so that the boxes sit on top. */
static void edges(FILE *f, const struct vfit_audit *a, const struct lay *l, const struct rows *r)
{
	char title[600];
	int i, j;

	for (i = 0; i < a->nconf; i++)
		for (j = 0; j < (int)a->conf[i].nref; j++) {
			snprintf(title, sizeof(title), "%s uses %s (%s)", a->conf[i].name,
				 a->img[a->conf[i].ref[j]].name, a->conf[i].ref_prop[j]);
			edge(f, l, at(l, 0, i), at(l, 1, a->conf[i].ref[j]),
			     a->conf[i].prot <= VFIT_PROT_OPTIONAL ? a->conf[i].prot : VFIT_PROT_NONE,
			     title, -1);
		}
	for (i = 0; i < a->nhash; i++) {
		snprintf(title, sizeof(title), "%s hashed by %s", a->img[a->hash[i].image].name,
			 a->hash[i].path);
		edge(f, l, at(l, 1, a->hash[i].image), at(l, 2, i), hash_prot(a, &a->hash[i]), title,
		     -1);
	}
	for (i = 0; i < a->nsig; i++) {
		const struct vfit_audit_sig *s = &a->sig[i];

		snprintf(title, sizeof(title), "%s signed by %s", s->conf ? a->conf[s->owner].name :
			 a->img[s->owner].name, s->path);
		edge(f, l, s->conf ? at(l, 0, s->owner) : at(l, 1, s->owner), at(l, 3, r->sig[i]),
		     s->prot, title, i);
		if (s->key >= 0) {
			snprintf(title, sizeof(title), "%s checked with %s", s->path,
				 a->key[s->key].name);
			edge(f, l, at(l, 3, r->sig[i]), at(l, 4, s->key),
			     s->prot == VFIT_PROT_HASH ? VFIT_PROT_OPTIONAL : s->prot, title, -1);
		} else if (r->miss[i] >= 0) {
			snprintf(title, sizeof(title), "%s names key %s, absent", s->path, s->hint);
			edge(f, l, at(l, 3, r->sig[i]), at(l, 4, r->miss[i]), VFIT_PROT_NONE, title,
			     -1);
		}
	}
}

/* The configuration, image and hash boxes. */
static void boxes_left(FILE *f, const struct vfit_audit *a, const struct lay *l)
{
	char detail[160], title[600];
	int i;

	for (i = 0; i < a->nconf; i++) {
		const struct vfit_audit_conf *c = &a->conf[i];

		if (a->have_verdicts)
			snprintf(detail, sizeof(detail), "vfit%c HEAD%c 2023.01%c Debian%c",
				 c->verdict[0].accept ? '+' : '-', c->verdict[1].accept ? '+' : '-',
				 c->verdict[2].accept ? '+' : '-', c->verdict[3].accept ? '+' : '-');
		else
			snprintf(detail, sizeof(detail), "%s", short_prot(c->prot));
		snprintf(title, sizeof(title), "configuration %s%s: %s%s; %s", c->name,
			 c->is_default ? " (default)" : "", short_prot(c->prot),
			 c->prot >= VFIT_PROT_HASH ? "; attacker-controlled: which images boot" : "",
			 a->have_verdicts ? "boots (+) or refused (-) by vfit, U-Boot HEAD, U-Boot "
			 "2023.01, Debian 12's U-Boot" : "source: not signed yet");
		box(f, "node conf", at(l, 0, i), c->name, detail, c->prot >= VFIT_PROT_HASH, title);
	}
	for (i = 0; i < a->nimg; i++) {
		const struct vfit_audit_image *im = &a->img[i];

		snprintf(detail, sizeof(detail), "%s%s%s", im->type[0] ? im->type : "?",
			 im->external ? ", external" : "", !im->refs ? ", unreferenced" :
			 im->prot >= VFIT_PROT_HASH ? ", load/entry unsigned" : "");
		snprintf(title, sizeof(title), "image %s: type, load, entry: %s%s", im->name,
			 short_prot(im->prot), im->prot >= VFIT_PROT_HASH ? " (attacker-controlled)" : "");
		box(f, "node image", at(l, 1, i), im->name, detail, im->prot >= VFIT_PROT_HASH, title);
	}
	for (i = 0; i < a->nhash; i++) {
		const struct vfit_audit_hash *h = &a->hash[i];
		const char *leaf = strrchr(h->path, '/');

		snprintf(detail, sizeof(detail), "%s%s", h->algo, h->weak ? " (forgeable)" : "");
		snprintf(title, sizeof(title), "%s: %s", h->path, short_prot(hash_prot(a, h)));
		box(f, "node hash", at(l, 2, i), leaf ? leaf + 1 : h->path, detail,
		    hash_prot(a, h) == VFIT_PROT_NONE, title);
	}
}

/* The signature and key boxes, keys the control DTB lacks marked. */
static void boxes_right(FILE *f, const struct vfit_audit *a, const struct lay *l,
			const struct rows *r)
{
	char detail[160], title[600], name[200];
	int i, j;

	for (i = 0; i < a->nsig; i++) {
		const struct vfit_audit_sig *s = &a->sig[i];

		snprintf(name, sizeof(name), "%s/%s", s->conf ? a->conf[s->owner].name :
			 a->img[s->owner].name, strrchr(s->path, '/') ? strrchr(s->path, '/') + 1 : "");
		snprintf(detail, sizeof(detail), "%s%s%s%s", s->algo[0] ? s->algo : "no algo",
			 s->hint[0] ? ":" : "", s->hint, s->has_value ? "" : " (no value)");
		snprintf(title, sizeof(title), "%s: %s", s->path, short_prot(s->prot));
		box(f, s->conf ? "node sig conf-sig" : "node sig image-sig", at(l, 3, r->sig[i]), name,
		    detail, s->prot == VFIT_PROT_NONE, title);
	}
	for (i = 0; i < a->nkey; i++) {
		const struct vfit_audit_key *k = &a->key[i];

		snprintf(detail, sizeof(detail), "%s%s%s", k->algo[0] ? k->algo : "no algo",
			 k->required == VFIT_REQ_CONF ? ", required conf" :
			 k->required == VFIT_REQ_IMAGE ? ", required image" : ", not required",
			 k->used ? "" : ", unused");
		snprintf(title, sizeof(title), "key /signature/%s: %s", k->name, detail);
		box(f, "node key", at(l, 4, i), k->name, detail, 0, title);
	}
	for (i = 0; i < a->nsig; i++) {
		for (j = 0; j < i; j++)
			if (r->miss[j] == r->miss[i])
				break;
		if (r->miss[i] < 0 || j < i)
			continue;
		snprintf(name, sizeof(name), "key-%s", a->sig[i].hint);
		snprintf(title, sizeof(title), "key %s: %s", name, a->ctl_file ?
			 "not in the control DTB" : "no control DTB given");
		box(f, "node key missing", at(l, 4, r->miss[i]), name, a->ctl_file ?
		    "not in the control DTB" : "no control DTB given", 1, title);
	}
}

/* One sample per colour, then the attacker mark, below row `rows`. */
static void legend(FILE *f, const struct lay *l, int rows)
{
	int i, y = l->top + rows * ROWH + 16;

	fprintf(f, "<g class=\"legend\"><text x=\"20\" y=\"%d\" font-weight=\"bold\">edges: what "
		"protects the relation on the device</text>\n", y);
	for (i = 0; i < 4; i++) {
		int yi = y + 20 + i * 20;

		fprintf(f, "<line class=\"%s\" x1=\"20\" y1=\"%d\" x2=\"80\" y2=\"%d\" stroke=\"%s\" "
			"stroke-width=\"2.5\"%s%s%s/><text x=\"90\" y=\"%d\">%s</text>\n", prot[i].cls,
			yi - 4, yi - 4, prot[i].colour, prot[i].dash[0] ? " stroke-dasharray=\"" : "",
			prot[i].dash, prot[i].dash[0] ? "\"" : "", yi, prot[i].label);
	}
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"60\" height=\"22\" rx=\"5\" fill=\"#fff0f0\" "
		"stroke=\"#cf222e\" stroke-width=\"2\" stroke-dasharray=\"5,3\"/><text x=\"%d\" "
		"y=\"%d\">attacker-controlled: load, entry, which images boot, or no key</text></g>\n",
		at(l, 2, 0).x + 60, y + 10, at(l, 2, 0).x + 130, y + 25);
}

int vfit_audit_svg(FILE *f, const struct vfit_audit *a)
{
	struct rows r = { 0 };
	struct lay l = { TOP + a->nsig * LANE };
	int width = 40 + 5 * COLW + 4 * GAP;

	if (rows_make(&r, a)) {
		rows_free(&r);
		return -1;
	}
	head(f, a, &l, width, l.top + r.n * ROWH + 120);
	edges(f, a, &l, &r);
	boxes_left(f, a, &l);
	boxes_right(f, a, &l, &r);
	legend(f, &l, r.n);
	fputs("</svg>\n", f);
	rows_free(&r);
	return 0;
}

int vfit_audit_svg_write(const struct vfit_audit *a, const char *path, struct vfit_err *e)
{
	struct vfit_out o = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int r;

	if (!f)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", path);
	/* An empty or cut picture must not be written as if it were the audit's. */
	if (vfit_audit_svg(f, a) | ferror(f) | fclose(f)) {
		free(buf);
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", path);
	}
	r = vfit_out_file(&o, path, buf, len, e);
	free(buf);
	return r;
}
