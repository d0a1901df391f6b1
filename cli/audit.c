/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit audit -f FIT [-k CONTROL_DTB] [--its ITS] [--json] [--svg OUT]
 *            [--fail-on error|warning|info] [--loader ADDR:SIZE]
 *
 * Will this FIT boot (vfit, U-Boot HEAD, U-Boot 2023.01), and what does
 * its signature really protect?  Exit: 0 no finding at or above
 * --fail-on, 1 some, 2 usage or I/O.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "vfit-host/audit.h"

static const char usage[] =
	"usage: vfit audit -f FIT [-k CONTROL_DTB] [--its ITS] [--json] [--svg OUT.svg]\n"
	"                  [--fail-on error|warning|info] [--loader ADDR:SIZE]\n"
	"  -f FIT            signed FIT to audit (verdicts, findings, picture)\n"
	"  -k CONTROL_DTB    the device's control DTB (keys under /signature)\n"
	"  --its ITS         also audit a source before signing (compiled with dtc);\n"
	"                    alone, without -f: findings only\n"
	"  --json            one JSON object (stable finding ids) instead of text\n"
	"  --svg OUT         draw configurations -> images -> hashes -> signatures -> keys\n"
	"  --fail-on SEV     exit 1 on findings at or above SEV (default: error)\n"
	"  --loader A:S      the loader's region (hex; default 0:8000), no load may touch it\n"
	"  -h, --help        this help\n"
	"Exit status: 0 clean, 1 findings at or above --fail-on (or bad input), 2 usage or I/O.\n";

static int parse_hex(const char *s, uint64_t *v)
{
	char *end;

	if (!*s)
		return -1;
	*v = strtoull(s, &end, 16);
	return *end ? -1 : 0;
}

/* The .its findings join the FIT's report, each still naming its file. */
static void merge(struct vfit_audit *a, const struct vfit_audit *b)
{
	int i;

	for (i = 0; i < b->nf; i++) {
		const struct vfit_audit_finding *x = &b->f[i];
		int n = a->nf;

		vfit_audit_add(a, x->sev, x->cls, x->node, x->prop, x->fix, "%s", x->msg);
		if (a->nf > n)
			a->f[n].file = x->file;
	}
}

/* --fail-on SEV */
static int severity(const char *s, enum vfit_audit_sev *sev)
{
	enum vfit_audit_sev v;

	for (v = VFIT_AUDIT_INFO; v <= VFIT_AUDIT_ERROR; v++)
		if (!strcmp(s, vfit_audit_sev_name(v))) {
			*sev = v;
			return 0;
		}
	return -1;
}

/* --loader ADDR:SIZE, in hex, SIZE not 0. */
static int loader(char *arg, uint64_t *addr, uint64_t *size)
{
	char *c = strchr(arg, ':');

	if (!c)
		return -1;
	*c = 0;
	return parse_hex(arg, addr) || parse_hex(c + 1, size) || !*size ? -1 : 0;
}

/* The audits of the FIT and of the source (b: the source's, when both). */
static int audit(struct vfit_audit *a, struct vfit_audit *b, const char *fit_path,
		 const void *fit, size_t fit_len, const char *its, const char *ctl_path,
		 const void *ctl, size_t ctl_len, const char *svg, struct vfit_err *e)
{
	if (fit_path && vfit_audit_run(a, fit_path, fit ? fit : "", fit_len, 0, ctl_path, ctl,
				       ctl_len, e))
		return -1;
	/* With -f, the FIT's audit has covered the control DTB already. */
	if (its && fit_path) {
		if (vfit_audit_its(b, its, NULL, NULL, 0, e))
			return -1;
		merge(a, b);
	} else if (its && vfit_audit_its(a, its, ctl_path, ctl, ctl_len, e)) {
		return -1;
	}
	return svg ? vfit_audit_svg_write(a, svg, e) : 0;
}

/* The report; 1 with its line on stderr when a finding reaches fail_on. */
static int report(const struct vfit_audit *a, bool json, enum vfit_audit_sev fail_on)
{
	int n = vfit_audit_count(a, fail_on);
	char line[512];

	snprintf(line, sizeof(line), "vfit: audit: %s: %d finding%s at or above %s (--fail-on)",
		 a->file, n, n == 1 ? "" : "s", vfit_audit_sev_name(fail_on));
	if (json)
		vfit_audit_json(stdout, a, n ? VFIT_EXIT_REJECT : 0, line);
	else
		vfit_audit_print(stdout, a);
	if (!n)
		return 0;
	fflush(stdout);
	fprintf(stderr, "%s\n", line);
	return VFIT_EXIT_REJECT;
}

int cmd_audit(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "its", required_argument, NULL, 'I' },
		{ "json", no_argument, NULL, 'J' },
		{ "svg", required_argument, NULL, 'S' },
		{ "fail-on", required_argument, NULL, 'F' },
		{ "loader", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *fit_path = NULL, *ctl_path = NULL, *its = NULL, *svg = NULL;
	const void *fit = NULL, *ctl = NULL;
	size_t fit_len = 0, ctl_len = 0;
	struct vfit_audit a = { 0 }, b = { 0 };
	struct vfit_err e = { 0 };
	enum vfit_audit_sev fail_on = VFIT_AUDIT_ERROR;
	uint64_t loader_addr = 0, loader_size = 0x8000;
	/* Known before the options are read, so that a usage error is JSON too. */
	bool json = cli_json(argc, argv);
	int opt, status;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":f:k:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f': fit_path = optarg; break;
		case 'k': ctl_path = optarg; break;
		case 'I': its = optarg; break;
		case 'J': break;
		case 'S': svg = optarg; break;
		case 'F':
			if (severity(optarg, &fail_on))
				return cli_fail(json, 2, "audit: --fail-on: '%s' is not error, warning "
						"or info", optarg);
			break;
		case 'L':
			if (loader(optarg, &loader_addr, &loader_size))
				return cli_fail(json, 2, "audit: --loader: want ADDR:SIZE in hex");
			break;
		case 'h': fputs(usage, stdout); return 0;
		default:
			opt = cli_bad_option(json, "audit", opt, argv);
			fputs(usage, stderr);
			return opt;
		}
	}
	if ((!fit_path && !its) || optind != argc || (svg && !fit_path)) {
		status = cli_fail(json, 2, "audit: %s", optind != argc ?
				  "arguments after the options are not used" : svg && !fit_path ?
				  "--svg draws a FIT: give -f FIT" : "-f FIT or --its ITS is needed");
		fputs(usage, stderr);
		return status;
	}
	if ((fit_path && vfit_file_map(fit_path, &fit, &fit_len, &e)) ||
	    (ctl_path && vfit_file_map(ctl_path, &ctl, &ctl_len, &e))) {
		vfit_file_unmap(fit, fit_len);
		return cli_err(json, "audit", &e);
	}
	a.now = b.now = (uint64_t)time(NULL);
	a.loader_addr = b.loader_addr = loader_addr;
	a.loader_size = b.loader_size = loader_size;
	if (audit(&a, &b, fit_path, fit, fit_len, its, ctl_path, ctl, ctl_len, svg, &e))
		status = cli_err(json, "audit", &e);
	else
		status = report(&a, json, fail_on);
	vfit_audit_free(&a);
	vfit_audit_free(&b);
	vfit_file_unmap(fit, fit_len);
	vfit_file_unmap(ctl, ctl_len);
	return status;
}
