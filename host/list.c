/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Listing of a FIT in the layout of `mkimage -l`, plus what a signing
 * workflow needs to see: whether each signature node is signed at all
 * ("unsigned" when it has no value), who signed it, padding, the
 * configuration signatures' hashed-nodes/hashed-strings, and where
 * external payloads are.  Every property is read through libfdt's checked
 * accessors after fdt_check_full(), so a hostile FIT only prints oddly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libfdt.h>

#include "mkimage_int.h"
#include "names.h"

static void print_time(FILE *f, const char *label, uint32_t t)
{
	time_t tt = (time_t)t;
	char buf[64];
	struct tm tm;

	if (!localtime_r(&tt, &tm) || !strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y", &tm))
		snprintf(buf, sizeof(buf), "%u", t);
	fprintf(f, "%s%s\n", label, buf);
}

static void print_hex(FILE *f, const uint8_t *p, int len)
{
	int i;

	for (i = 0; i < len; i++)
		fprintf(f, "%02x", p[i]);
	fputc('\n', f);
}

/* A stringlist as "a, b, c"; `sep` between entries. */
static void print_list(FILE *f, const char *v, int len, const char *sep)
{
	const char *s;
	int first = 1;

	for (s = v; s < v + len; s += strlen(s) + 1) {
		fprintf(f, "%s%s", first ? "" : sep, s);
		first = 0;
	}
	fputc('\n', f);
}

static void print_sig(FILE *f, const void *fit, int node, int conf)
{
	const char *algo = vfit_fdt_str(fit, node, "algo"), *hint = vfit_fdt_str(fit, node, "key-name-hint");
	const char *v, *who = vfit_fdt_str(fit, node, "signer-name");
	uint32_t t;
	int len;

	fprintf(f, "  Sign algo:    %s:%s\n", algo ? algo : "unavailable", hint ? hint : "unavailable");
	if (vfit_fdt_str(fit, node, "padding"))
		fprintf(f, "  Sign padding: %s\n", vfit_fdt_str(fit, node, "padding"));
	v = fdt_getprop(fit, node, "value", &len);
	if (v && len > 0) {
		fprintf(f, "  Sign value:   ");
		print_hex(f, (const uint8_t *)v, len);
	} else {
		fprintf(f, "  Sign value:   unsigned\n");
		return;
	}
	if (!vfit_fdt_u32(fit, node, "timestamp", &t))
		print_time(f, "  Timestamp:    ", t);
	if (who)
		fprintf(f, "  Signer:       %s %s\n", who,
			vfit_fdt_str(fit, node, "signer-version") ? vfit_fdt_str(fit, node, "signer-version")
							       : "");
	if (vfit_fdt_str(fit, node, "comment"))
		fprintf(f, "  Comment:      %s\n", vfit_fdt_str(fit, node, "comment"));
	if (!conf)
		return;
	v = fdt_getprop(fit, node, "sign-images", &len);
	if (v && len > 0 && !v[len - 1]) {
		fprintf(f, "  Sign images:  ");
		print_list(f, v, len, ", ");
	}
	v = fdt_getprop(fit, node, "hashed-nodes", &len);
	if (v && len > 0 && !v[len - 1]) {
		fprintf(f, "  Hashed nodes: ");
		print_list(f, v, len, "\n                ");
	}
	v = fdt_getprop(fit, node, "hashed-strings", &len);
	if (v && len == 8)
		fprintf(f, "  Hashed strings: %u bytes\n", fdt32_to_cpu(((const fdt32_t *)v)[1]));
}

static void print_addr(FILE *f, const void *fit, int node, const char *prop, const char *label)
{
	int len;
	const fdt32_t *v = fdt_getprop(fit, node, prop, &len);

	if (v && len == 4)
		fprintf(f, "%s0x%08x\n", label, fdt32_to_cpu(v[0]));
	else if (v && len == 8)
		fprintf(f, "%s0x%08x%08x\n", label, fdt32_to_cpu(v[0]), fdt32_to_cpu(v[1]));
	else
		fprintf(f, "%sunavailable\n", label);
}

static void print_image(FILE *f, const void *fit, int img, int idx, int have_ts, uint32_t ts)
{
	const char *type = vfit_fdt_str(fit, img, "type"), *v;
	uint32_t off, size;
	int sub, len;

	fprintf(f, " Image %d (%s)\n", idx, fdt_get_name(fit, img, NULL));
	v = vfit_fdt_str(fit, img, "description");
	fprintf(f, "  Description:  %s\n", v ? v : "unavailable");
	if (have_ts)
		print_time(f, "  Created:      ", ts);
	fprintf(f, "  Type:         %s\n", vfit_name_long(VFIT_NAME_TYPE, type));
	fprintf(f, "  Compression:  %s\n",
		vfit_name_long(VFIT_NAME_COMP, vfit_fdt_str(fit, img, "compression") ?
			       vfit_fdt_str(fit, img, "compression") : "none"));
	v = fdt_getprop(fit, img, "data", &len);
	if (v) {
		size = (uint32_t)len;
	} else if (!vfit_fdt_u32(fit, img, "data-size", &size)) {
		if (!vfit_fdt_u32(fit, img, "data-position", &off))
			fprintf(f, "  Data Position: 0x%08x (from the start of the FIT)\n", off);
		else if (!vfit_fdt_u32(fit, img, "data-offset", &off))
			fprintf(f, "  Data Offset:  0x%08x (after the FDT)\n", off);
	} else {
		size = 0;
		fprintf(f, "  Data:         unavailable\n");
	}
	fprintf(f, "  Data Size:    %u Bytes = %.2f KiB = %.2f MiB\n", size, (double)size / 1.024e3,
		(double)size / 1.048576e6);
	if (vfit_fdt_str(fit, img, "arch"))
		fprintf(f, "  Architecture: %s\n", vfit_name_long(VFIT_NAME_ARCH, vfit_fdt_str(fit, img, "arch")));
	if (vfit_fdt_str(fit, img, "os"))
		fprintf(f, "  OS:           %s\n", vfit_name_long(VFIT_NAME_OS, vfit_fdt_str(fit, img, "os")));
	if (type && (!strcmp(type, "kernel") || !strcmp(type, "ramdisk") ||
		     !strcmp(type, "standalone") || !strcmp(type, "firmware"))) {
		print_addr(f, fit, img, "load", "  Load Address: ");
		print_addr(f, fit, img, "entry", "  Entry Point:  ");
	}
	fdt_for_each_subnode(sub, fit, img) {
		const char *n = fdt_get_name(fit, sub, NULL);

		if (n && !strncmp(n, "hash", 4)) {
			v = vfit_fdt_str(fit, sub, "algo");
			fprintf(f, "  Hash algo:    %s\n", v ? v : "unavailable");
			v = fdt_getprop(fit, sub, "value", &len);
			fprintf(f, "  Hash value:   ");
			if (v && len > 0)
				print_hex(f, (const uint8_t *)v, len);
			else
				fprintf(f, "unavailable\n");
		} else if (n && !strncmp(n, "signature", 9)) {
			print_sig(f, fit, sub, 0);
		}
	}
}

/*
 * The anti-rollback index (only trusted by the boot flow when a
 * configuration signature covers it).  A configuration without one counts
 * as index 0: any older FIT may replace it, which the listing says.
 */
static void print_rollback(FILE *f, const void *fit, int conf)
{
	const char *ctr = vfit_fdt_str(fit, conf, "rollback-counter");
	uint32_t idx;
	int len;

	if (!vfit_fdt_u32(fit, conf, "rollback-index", &idx))
		fprintf(f, "  Rollback:     index %u, counter %s\n", idx, ctr ? ctr : "of its boot stage");
	else if (fdt_getprop(fit, conf, "rollback-index", &len))
		fprintf(f, "  Rollback:     invalid rollback-index (%d bytes, not 4)\n", len);
	else
		fprintf(f, "  Rollback:     WARNING: no rollback-index (treated as 0, no "
			   "protection against older FITs)\n");
}

static void print_conf(FILE *f, const void *fit, int conf, int idx)
{
	static const struct {
		const char *prop, *label;
	} refs[] = {
		{ "kernel", "  Kernel:       " }, { "ramdisk", "  Init Ramdisk: " },
		{ "fdt", "  FDT:          " }, { "loadables", "  Loadables:    " },
		{ "fpga", "  FPGA:         " }, { "firmware", "  Firmware:     " },
		{ "script", "  Script:       " }, { "setup", "  Setup:        " },
		{ "standalone", "  Standalone:   " },
	};
	const char *v;
	size_t i;
	int sub, len;

	fprintf(f, " Configuration %d (%s)\n", idx, fdt_get_name(fit, conf, NULL));
	v = vfit_fdt_str(fit, conf, "description");
	fprintf(f, "  Description:  %s\n", v ? v : "unavailable");
	for (i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
		v = fdt_getprop(fit, conf, refs[i].prop, &len);
		if (v && len > 0 && !v[len - 1]) {
			fprintf(f, "%s", refs[i].label);
			print_list(f, v, len, "\n                ");
		}
	}
	v = vfit_fdt_str(fit, conf, "compatible");
	if (v)
		fprintf(f, "  Compatible:   %s\n", v);
	print_rollback(f, fit, conf);
	fdt_for_each_subnode(sub, fit, conf) {
		const char *n = fdt_get_name(fit, sub, NULL);

		if (n && !strncmp(n, "signature", 9))
			print_sig(f, fit, sub, 1);
	}
}

static int fit_list(FILE *f, const char *name, const void *fit, size_t len, struct vfit_err *e)
{
	int images, confs, node, idx, r, have_ts;
	const char *v;
	uint32_t ts;

	if (len < sizeof(struct fdt_header) || fdt_magic(fit) != FDT_MAGIC ||
	    fdt_totalsize(fit) > len)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not a FIT (no valid FDT header)", name);
	r = fdt_check_full(fit, fdt_totalsize(fit));
	if (r)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: malformed FDT: %s", name,
				    fdt_strerror(r));
	images = fdt_path_offset(fit, "/images");
	if (images < 0)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not a FIT (no /images)", name);
	v = vfit_fdt_str(fit, 0, "description");
	fprintf(f, "FIT description: %s\n", v ? v : "unavailable");
	have_ts = !vfit_fdt_u32(fit, 0, "timestamp", &ts);
	if (have_ts)
		print_time(f, "Created:         ", ts);
	idx = 0;
	fdt_for_each_subnode(node, fit, images)
		print_image(f, fit, node, idx++, have_ts, ts);
	confs = fdt_path_offset(fit, "/configurations");
	if (confs < 0)
		return 0;
	v = vfit_fdt_str(fit, confs, "default");
	if (v)
		fprintf(f, " Default Configuration: '%s'\n", v);
	idx = 0;
	fdt_for_each_subnode(node, fit, confs)
		print_conf(f, fit, node, idx++);
	return 0;
}

int vfit_fit_list_file(FILE *f, const char *path, struct vfit_err *e)
{
	char *buf;
	size_t len;
	int r;

	if (vfit_file_read(path, 0, &buf, &len, e))
		return -1;
	r = fit_list(f, path, buf, len, e);
	free(buf);
	return r;
}
