/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Listings of FIT and legacy images.  The default is exactly what
 * `mkimage -l` (v2023.01) prints, line for line, because scripts and
 * oe-selftest parse it; for dm-verity nodes, which only HEAD knows, the
 * lines HEAD prints.  `vfit info` adds what a signing workflow needs to
 * see: whether each signature node is signed at all, who signed it,
 * padding, the configuration signatures' sign-images, hashed-nodes and
 * hashed-strings, compatible strings, where external payloads are, the
 * anti-rollback index, and referenced images a signature leaves out.
 * Every property is read through libfdt's checked accessors after
 * vfit_fdt_check(), so a hostile FIT only prints oddly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "vfit-host/cipher.h"
#include "vfit-host/fdtbuf.h"
#include "vfit-host/keys.h"
#include "vfit-host/names.h"
#include "vfit-host/tools.h"
#include "vfit-host/verify.h"
#include "tools_int.h"

struct lister {
	FILE *f;
	const void *fit;
	int info;
	int have_ts;
	uint32_t ts;
};

static void print_hex(FILE *f, const uint8_t *p, int len)
{
	int i;

	for (i = 0; i < len; i++)
		fprintf(f, "%02x", p[i]);
	fputc('\n', f);
}

/* A stringlist, one entry per line under the first. */
static void print_list(FILE *f, const char *label, const char *v, int len)
{
	const char *s;

	for (s = v; s < v + len; s += strlen(s) + 1)
		fprintf(f, "%s%s\n", s == v ? label : "                ", s);
}

static const char *str(const struct lister *l, int node, const char *name)
{
	return vfit_fdt_str(l->fit, node, name);
}

/* A property that is a NUL-terminated stringlist; NULL otherwise. */
static const char *strlist(const void *fit, int node, const char *name, int *len)
{
	const char *v = fdt_getprop(fit, node, name, len);

	return v && *len > 0 && !v[*len - 1] ? v : NULL;
}

/* ---- hash and signature nodes ----------------------------------------- */

/*
 * What key the algo needs: "RSA 2048-bit", or the ECDSA curve by its NIST
 * name and the ecdsa,curve string of the key node that verifies it; and
 * a value of the wrong size for it, which no key can verify.
 */
static void print_key_type(const struct lister *l, int node)
{
	const char *algo = str(l, node, "algo");
	struct vfit_algo a;
	int len;

	if (!algo || vfit_algo_parse(algo, (int)strlen(algo) + 1, &a)) {
		fprintf(l->f, "  Key type:     unknown algorithm\n");
		return;
	}
	if (a.sig->kind == VFIT_SIG_ECDSA)
		fprintf(l->f, "  Key type:     ECDSA P-%u (ecdsa,curve \"%s\"), value r||s\n",
			(unsigned int)a.sig->key_bits,
			vfit_ecdsa_curve_name((enum vfit_ec_curve)a.sig->curve));
	else
		fprintf(l->f, "  Key type:     RSA %u-bit\n", (unsigned int)a.sig->key_bits);
	if (fdt_getprop(l->fit, node, "value", &len) && len != a.sig->sig_len)
		fprintf(l->f, "  WARNING:      value is %d bytes, %s needs %u\n", len, algo,
			(unsigned int)a.sig->sig_len);
}

static void print_sig_info(const struct lister *l, int node, int conf)
{
	const char *v = str(l, node, "signer-name");
	int len;

	print_key_type(l, node);
	if (v)
		fprintf(l->f, "  Signer:       %s %s\n", v,
			str(l, node, "signer-version") ? str(l, node, "signer-version") : "");
	if (str(l, node, "comment"))
		fprintf(l->f, "  Comment:      %s\n", str(l, node, "comment"));
	if (!conf)
		return;
	v = strlist(l->fit, node, "sign-images", &len);
	if (v) {
		fprintf(l->f, "  Sign images:  ");
		for (; len > 0; len -= (int)strlen(v) + 1, v += strlen(v) + 1)
			fprintf(l->f, "%s%s", v, len > (int)strlen(v) + 1 ? ", " : "\n");
	}
	v = strlist(l->fit, node, "hashed-nodes", &len);
	if (v)
		print_list(l->f, "  Hashed nodes: ", v, len);
	v = fdt_getprop(l->fit, node, "hashed-strings", &len);
	if (v && len == 8)
		fprintf(l->f, "  Hashed strings: %u bytes\n",
			fdt32_to_cpu(((const fdt32_t *)v)[1]));
}

/* "Hash" or "Sign" node: algo[:key] [(required)], padding, value, timestamp. */
static void print_check(const struct lister *l, int node, const char *kind, int conf)
{
	const char *algo = str(l, node, "algo"), *key = str(l, node, "key-name-hint");
	const uint8_t *v;
	uint32_t t;
	int len, sig = kind[0] == 'S';

	fprintf(l->f, "  %s algo:    ", kind);
	if (!algo) {
		fprintf(l->f, "invalid/unsupported\n");
		return;
	}
	fprintf(l->f, "%s%s%s%s\n", algo, key ? ":" : "", key ? key : "",
		fdt_getprop(l->fit, node, "required", NULL) ? " (required)" : "");
	if (str(l, node, "padding"))
		fprintf(l->f, "  %s padding: %s\n", kind, str(l, node, "padding"));
	v = fdt_getprop(l->fit, node, "value", &len);
	fprintf(l->f, "  %s value:   ", kind);
	if (!v || len <= 0) {
		fprintf(l->f, "%s\n", l->info && sig ? "unsigned" : "unavailable");
		if (l->info && sig)
			return;
	} else {
		print_hex(l->f, v, len);
	}
	if (key) {
		if (!vfit_fdt_u32(l->fit, node, "timestamp", &t))
			vfit_print_time(l->f, "  Timestamp:    ", t);
		else
			fprintf(l->f, "  Timestamp:    unavailable\n");
	}
	if (l->info && sig)
		print_sig_info(l, node, conf);
}

/* HEAD's lines for a dm-verity node. */
static void print_verity(const struct lister *l, int node)
{
	const uint8_t *v;
	int len;

	fprintf(l->f, "  Verity algo:  %s\n", str(l, node, "algo") ? str(l, node, "algo") : "");
	v = fdt_getprop(l->fit, node, "digest", &len);
	fprintf(l->f, "  Verity hash:  ");
	if (v && len > 0)
		print_hex(l->f, v, len);
	else
		fprintf(l->f, "\n");
	v = fdt_getprop(l->fit, node, "salt", &len);
	fprintf(l->f, "  Verity salt:  ");
	if (v && len > 0)
		print_hex(l->f, v, len);
	else
		fprintf(l->f, "\n");
}

static void print_subnodes(const struct lister *l, int parent, int conf)
{
	const char *n;
	int sub;

	fdt_for_each_subnode(sub, l->fit, parent) {
		n = fdt_get_name(l->fit, sub, NULL);
		if (!n)
			continue;
		if (!strncmp(n, "hash", 4))
			print_check(l, sub, "Hash", conf);
		else if (!strncmp(n, "signature", 9))
			print_check(l, sub, "Sign", conf);
		else if (!conf && !strcmp(n, "dm-verity"))
			print_verity(l, sub);
	}
}

/* ---- images -------------------------------------------------------------- */

static int is_type(const char *type, const char *const *list)
{
	for (; type && *list; list++)
		if (!strcmp(type, *list))
			return 1;
	return 0;
}

/* load/entry of 1 or 2 cells as "0x%08llx"; mkimage's message for other sizes. */
static void print_addr(const struct lister *l, int node, const char *prop, const char *label,
		       int optional)
{
	const fdt32_t *v;
	uint64_t a;
	int len;

	v = fdt_getprop(l->fit, node, prop, &len);
	if (v && len != 4 && len != 8)
		fprintf(l->f, "Unsupported %s address size\n", prop);
	if (!v || (len != 4 && len != 8)) {
		if (!optional)
			fprintf(l->f, "%sunavailable\n", label);
		return;
	}
	a = fdt32_to_cpu(v[0]);
	if (len == 8)
		a = a << 32 | fdt32_to_cpu(v[1]);
	fprintf(l->f, "%s0x%08llx\n", label, (unsigned long long)a);
}

static void print_data(const struct lister *l, int img)
{
	uint32_t size, off;
	int len;

	fprintf(l->f, "  Data Size:    ");
	if (fdt_getprop(l->fit, img, "data", &len)) {
		vfit_print_size(l->f, (uint32_t)len);
		return;
	}
	if (vfit_fdt_u32(l->fit, img, "data-size", &size)) {
		fprintf(l->f, "unavailable\n");
		return;
	}
	vfit_print_size(l->f, size);
	if (!l->info)
		return;
	if (!vfit_fdt_u32(l->fit, img, "data-position", &off))
		fprintf(l->f, "  Data Position: 0x%08x (from the start of the FIT)\n", off);
	else if (!vfit_fdt_u32(l->fit, img, "data-offset", &off))
		fprintf(l->f, "  Data Offset:  0x%08x (after the FDT)\n", off);
}

static void print_image(const struct lister *l, int img, int idx)
{
	static const char *const arch_types[] = { "kernel", "standalone", "ramdisk", "firmware",
						  "flat_dt", NULL };
	static const char *const os_types[] = { "kernel", "ramdisk", "firmware", NULL };
	static const char *const load_types[] = { "kernel", "standalone", "firmware", "ramdisk",
						  "fpga", NULL };
	static const char *const entry_types[] = { "kernel", "standalone", "ramdisk", NULL };
	const char *type = str(l, img, "type"), *v;

	fprintf(l->f, " Image %d (%s)\n", idx, fdt_get_name(l->fit, img, NULL));
	v = str(l, img, "description");
	fprintf(l->f, "  Description:  %s\n", v ? v : "unavailable");
	if (l->have_ts)
		vfit_print_time(l->f, "  Created:      ", l->ts);
	else
		fprintf(l->f, "  Created:      unavailable\n");
	fprintf(l->f, "  Type:         %s\n", vfit_name_long(VFIT_NAME_TYPE, type));
	v = str(l, img, "compression");
	fprintf(l->f, "  Compression:  %s\n", vfit_name_long(VFIT_NAME_COMP, v ? v : "none"));
	print_data(l, img);
	if (l->info)
		vfit_list_cipher(l->f, l->fit, img);
	if (is_type(type, arch_types))
		fprintf(l->f, "  Architecture: %s\n",
			vfit_name_long(VFIT_NAME_ARCH, str(l, img, "arch")));
	if (is_type(type, os_types))
		fprintf(l->f, "  OS:           %s\n", vfit_name_long(VFIT_NAME_OS, str(l, img, "os")));
	if (is_type(type, load_types) || (type && !strcmp(type, "flat_dt")))
		print_addr(l, img, "load", "  Load Address: ", !is_type(type, load_types));
	if (is_type(type, entry_types))
		print_addr(l, img, "entry", "  Entry Point:  ", 0);
	print_subnodes(l, img, 0);
}

void vfit_fit_print_image(FILE *f, const void *fit, int node, int idx)
{
	struct lister l = { .f = f, .fit = fit };

	l.have_ts = !vfit_fdt_u32(fit, 0, "timestamp", &l.ts);
	print_image(&l, node, idx);
}

/* ---- configurations ----------------------------------------------------- */

/* Is /images/<img> (and so its hashes) among the signature's hashed-nodes? */
static int covered(const void *fit, int sig, const char *img)
{
	char path[256];
	const char *v, *s;
	int len;

	v = strlist(fit, sig, "hashed-nodes", &len);
	snprintf(path, sizeof(path), "/images/%s", img);
	for (s = v; s && s < v + len; s += strlen(s) + 1)
		if (!strcmp(s, path))
			return 1;
	return 0;
}

/*
 * U-Boot HEAD (and vfit verify) check every image a configuration
 * references; mkimage signs only those sign-images names.  A signed
 * configuration whose hashed-nodes leave one out fails there.  Calls
 * gap() for each such image; returns how many there are.
 */
static int find_gaps(const void *fit, int conf, int sig,
		     void (*gap)(void *ctx, const char *img, const char *prop), void *ctx)
{
	int images = fdt_path_offset(fit, "/images"), off, len, n = 0;
	const char *prop, *v, *s;

	fdt_for_each_property_offset(off, fit, conf) {
		v = fdt_getprop_by_offset(fit, off, &prop, &len);
		if (!v || !prop || !strcmp(prop, "description") || !strcmp(prop, "compatible") ||
		    !strcmp(prop, "default") || len <= 0 || v[len - 1])
			continue;
		for (s = v; s < v + len; s += strlen(s) + 1)
			if (fdt_subnode_offset(fit, images, s) >= 0 && !covered(fit, sig, s)) {
				if (gap)
					gap(ctx, s, prop);
				n++;
			}
	}
	return n;
}

struct gap_line {
	FILE *f;
	const char *sig;
};

static void print_gap(void *ctx, const char *img, const char *prop)
{
	const struct gap_line *g = ctx;

	fprintf(g->f, "  WARNING:      %s does not cover image '%s' (%s): U-Boot HEAD and vfit "
		"verify refuse it; sign with vfit mkimage, or add \"%s\" to sign-images\n",
		g->sig, img, prop, prop);
}

struct gap_first {
	char *img, *prop;
	size_t isize, psize;
};

static void first_gap(void *ctx, const char *img, const char *prop)
{
	struct gap_first *g = ctx;

	if (g->img[0])
		return;
	snprintf(g->img, g->isize, "%s", img);
	snprintf(g->prop, g->psize, "%s", prop);
}

int vfit_fit_sign_gap(const void *fit, size_t len, const char *sig_path, char *img, size_t isize,
		      char *prop, size_t psize)
{
	struct gap_first g = { img, prop, isize, psize };
	int sig, conf;

	if (!isize || !psize)
		return 0;
	img[0] = prop[0] = 0;
	if (vfit_fdt_check(fit, len, NULL))
		return 0;
	sig = fdt_path_offset(fit, sig_path);
	conf = sig < 0 ? sig : fdt_parent_offset(fit, sig);
	if (conf < 0 || fdt_parent_offset(fit, conf) != fdt_path_offset(fit, "/configurations"))
		return 0;
	return find_gaps(fit, conf, sig, first_gap, &g) > 0;
}

/*
 * The anti-rollback index (only trusted by the boot flow when a
 * configuration signature covers it).  A configuration without one counts
 * as index 0: any older FIT may replace it, which the listing says.
 */
static void print_rollback(const struct lister *l, int conf)
{
	const char *ctr = str(l, conf, "rollback-counter");
	uint32_t idx;
	int len;

	if (!vfit_fdt_u32(l->fit, conf, "rollback-index", &idx))
		fprintf(l->f, "  Rollback:     index %u, counter %s\n", idx,
			ctr ? ctr : "of its boot stage");
	else if (fdt_getprop(l->fit, conf, "rollback-index", &len))
		fprintf(l->f, "  Rollback:     invalid rollback-index (%d bytes, not 4)\n", len);
	else
		fprintf(l->f, "  Rollback:     WARNING: no rollback-index (treated as 0, no "
			      "protection against older FITs)\n");
}

static void print_info_conf(const struct lister *l, int conf)
{
	const char *v;
	int len;

	v = strlist(l->fit, conf, "compatible", &len);
	if (v)
		print_list(l->f, "  Compatible:   ", v, len);
	print_rollback(l, conf);
}

/* After the signature lines: every image a signed configuration leaves out. */
static void print_info_gaps(const struct lister *l, int conf)
{
	struct gap_line g = { .f = l->f };
	int sub, len;

	fdt_for_each_subnode(sub, l->fit, conf)
		if (!strncmp(fdt_get_name(l->fit, sub, NULL), "signature", 9) &&
		    fdt_getprop(l->fit, sub, "value", &len) && len > 0) {
			g.sig = fdt_get_name(l->fit, sub, NULL);
			find_gaps(l->fit, conf, sub, print_gap, &g);
		}
}

static void print_conf(const struct lister *l, int conf, int idx)
{
	static const struct {
		const char *prop, *label;
		int list;   /* every string, or the first only */
	} refs[] = {
		{ "ramdisk", "  Init Ramdisk: ", 0 }, { "firmware", "  Firmware:     ", 0 },
		{ "fdt", "  FDT:          ", 1 }, { "fpga", "  FPGA:         ", 0 },
		{ "loadables", "  Loadables:    ", 1 },
	};
	const char *v;
	size_t i;
	int len;

	fprintf(l->f, " Configuration %d (%s)\n", idx, fdt_get_name(l->fit, conf, NULL));
	v = str(l, conf, "description");
	fprintf(l->f, "  Description:  %s\n", v ? v : "unavailable");
	v = fdt_getprop(l->fit, conf, "kernel", &len);
	fprintf(l->f, "  Kernel:       %s\n",
		v && len > 0 && memchr(v, 0, (size_t)len) ? v : "unavailable");
	for (i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
		v = strlist(l->fit, conf, refs[i].prop, &len);
		if (v && refs[i].list)
			print_list(l->f, refs[i].label, v, len);
		else if (v)
			fprintf(l->f, "%s%s\n", refs[i].label, v);
	}
	if (l->info)
		print_info_conf(l, conf);
	print_subnodes(l, conf, 1);
	if (l->info)
		print_info_gaps(l, conf);
}

/* mkimage's warning (on stderr) for a FIT with '@' in a node name. */
static void warn_at(const void *fit, const char *name)
{
	int node, depth = 0, len;
	const char *n;

	for (node = fdt_next_node(fit, 0, &depth); node >= 0 && depth > 0;
	     node = fdt_next_node(fit, node, &depth)) {
		n = fdt_get_name(fit, node, &len);
		if (n && memchr(n, '@', (size_t)len)) {
			fprintf(stderr, "vfit: warning: %s: %s: '@' in a node name: U-Boot will not "
				"verify signatures in this FIT\n", name, vfit_node_path(fit, node));
			return;
		}
	}
}

static int fit_list(struct lister *l, const char *name, size_t len, struct vfit_err *e)
{
	const void *fit = l->fit;
	int images, confs, node, idx;
	const char *v;

	if (len < sizeof(struct fdt_header) || fdt_magic(fit) != FDT_MAGIC ||
	    fdt_totalsize(fit) > len)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not a FIT or legacy image", name);
	if (vfit_fdt_valid(name, fit, len, e))
		return -1;
	images = fdt_path_offset(fit, "/images");
	if (images < 0)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not a FIT (no /images)", name);
	warn_at(fit, name);
	v = str(l, 0, "description");
	fprintf(l->f, "FIT description: %s\n", v ? v : "unavailable");
	l->have_ts = !vfit_fdt_u32(fit, 0, "timestamp", &l->ts);
	if (l->have_ts)
		vfit_print_time(l->f, "Created:         ", l->ts);
	else
		fprintf(l->f, "Created:         unavailable\n");
	idx = 0;
	fdt_for_each_subnode(node, fit, images)
		print_image(l, node, idx++);
	confs = fdt_path_offset(fit, "/configurations");
	if (confs < 0)
		return 0;
	v = str(l, confs, "default");
	if (v)
		fprintf(l->f, " Default Configuration: '%s'\n", v);
	idx = 0;
	fdt_for_each_subnode(node, fit, confs)
		print_conf(l, node, idx++);
	return 0;
}

/*
 * A listing shows the tree, never the payload bytes: a FIT is read with
 * its big payloads left in the file (host/verify/fit_sparse.c), so listing the
 * 64 MiB FIT mkimage just wrote reads a few KiB; a legacy image, whose
 * data CRC is checked, is read whole.
 */
int vfit_image_list_file(FILE *f, const char *path, int info, struct vfit_err *e)
{
	struct lister l = { .f = f, .info = info };
	struct vfit_sparse *sp;
	const void *p;
	const char *buf;
	size_t len;
	int r = 0;

	if (vfit_sparse_open(path, &sp, &p, &len, e))
		return -1;
	buf = p ? p : "";
	l.fit = buf;
	if (len >= 4 && !memcmp(buf, "\x27\x05\x19\x56", 4)) {
		r = vfit_legacy_check(path, (const uint8_t *)buf, len, e);
		if (!r)
			vfit_legacy_print(f, (const uint8_t *)buf);
	} else {
		r = fit_list(&l, path, len, e);
	}
	vfit_sparse_close(sp);
	return r;
}
