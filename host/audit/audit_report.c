/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit audit's reports: a verdict table and one line per finding for
 * people, one JSON object for CI.  The JSON keys and the finding ids are
 * stable: scripts match on them.
 */
#include <stdio.h>
#include <string.h>

#include "vfit-host/audit.h"
#include "vfit-host/json.h"

const char *vfit_audit_sev_name(enum vfit_audit_sev s)
{
	return s == VFIT_AUDIT_ERROR ? "error" : s == VFIT_AUDIT_WARNING ? "warning" : "info";
}

const char *vfit_audit_verifier_name(enum vfit_audit_verifier v)
{
	static const char *const names[] = { "vfit", "U-Boot HEAD", "U-Boot 2023.01",
					     "Debian 12 U-Boot" };

	return (unsigned int)v < VFIT_AUDIT_NVERIFIERS ? names[v] : "?";
}

void vfit_audit_print(FILE *f, const struct vfit_audit *a)
{
	int i, v;

	fprintf(f, "vfit audit: %s%s%s%s\n", a->file, a->ctl_file ? " against " : "",
		a->ctl_file ? a->ctl_file : "", a->from_its ? " (source, before signing)" : "");
	if (a->have_verdicts && a->nconf) {
		fprintf(f, "\n%-24s %-10s %-12s %-15s %s\n", "configuration", "vfit", "U-Boot HEAD",
			"U-Boot 2023.01", "Debian 12 U-Boot");
		for (i = 0; i < a->nconf; i++) {
			const struct vfit_audit_conf *c = &a->conf[i];
			char name[160];

			snprintf(name, sizeof(name), "%s%s", c->name, c->is_default ? " (default)" : "");
			fprintf(f, "%-24s %-10s %-12s %-15s %s\n", name,
				c->verdict[0].accept ? "boots" : "REFUSED",
				c->verdict[1].accept ? "boots" : "REFUSED",
				c->verdict[2].accept ? "boots" : "REFUSED",
				c->verdict[3].accept ? "boots" : "REFUSED");
			for (v = 0; v < VFIT_AUDIT_NVERIFIERS; v++)
				fprintf(f, "    %-17s %s\n", vfit_audit_verifier_name(v),
					c->verdict[v].why);
		}
	}
	fprintf(f, "\n%d finding%s: %d error%s, %d warning%s, %d info\n", a->nf,
		a->nf == 1 ? "" : "s", vfit_audit_count(a, VFIT_AUDIT_ERROR),
		vfit_audit_count(a, VFIT_AUDIT_ERROR) == 1 ? "" : "s",
		vfit_audit_count(a, VFIT_AUDIT_WARNING) - vfit_audit_count(a, VFIT_AUDIT_ERROR),
		vfit_audit_count(a, VFIT_AUDIT_WARNING) - vfit_audit_count(a, VFIT_AUDIT_ERROR) == 1 ?
		"" : "s", a->nf - vfit_audit_count(a, VFIT_AUDIT_WARNING));
	for (i = 0; i < a->nf; i++) {
		const struct vfit_audit_finding *x = &a->f[i];

		/* A source audited with the FIT (--its) names its file. */
		fprintf(f, "%-7s %s %s %s%s%s%s%s: %s; fix: %s\n", vfit_audit_sev_name(x->sev), x->id,
			x->name, strcmp(x->file, a->file) ? x->file : "",
			strcmp(x->file, a->file) ? ":" : "", x->node, x->prop[0] ? ":" : "", x->prop,
			x->msg, x->fix);
	}
}

void vfit_audit_json(FILE *f, const struct vfit_audit *a, int status, const char *line)
{
	static const char *const keys[] = { "vfit", "u-boot-head", "u-boot-2023.01",
					    "debian-12-u-boot" };
	int i, v;

	fputs("{\"file\":", f);
	vfit_json_str(f, a->file);
	fputs(",\"control\":", f);
	vfit_json_str(f, a->ctl_file);
	fprintf(f, ",\"source\":%s,\"default\":", a->from_its ? "true" : "false");
	vfit_json_str(f, a->default_conf[0] ? a->default_conf : NULL);
	fputs(",\"verdicts\":[", f);
	for (i = 0; a->have_verdicts && i < a->nconf; i++) {
		const struct vfit_audit_conf *c = &a->conf[i];

		fprintf(f, "%s{\"configuration\":", i ? "," : "");
		vfit_json_str(f, c->name);
		fprintf(f, ",\"default\":%s", c->is_default ? "true" : "false");
		for (v = 0; v < VFIT_AUDIT_NVERIFIERS; v++) {
			fprintf(f, ",\"%s\":{\"accept\":%s,\"why\":", keys[v],
				c->verdict[v].accept ? "true" : "false");
			vfit_json_str(f, c->verdict[v].why);
			fputc('}', f);
		}
		fputc('}', f);
	}
	fputs("],\"findings\":[", f);
	for (i = 0; i < a->nf; i++) {
		const struct vfit_audit_finding *x = &a->f[i];

		fprintf(f, "%s{\"severity\":\"%s\",\"id\":\"%s\",\"name\":\"%s\",\"file\":", i ? "," : "",
			vfit_audit_sev_name(x->sev), x->id, x->name);
		vfit_json_str(f, x->file);
		fputs(",\"node\":", f);
		vfit_json_str(f, x->node);
		fputs(",\"property\":", f);
		vfit_json_str(f, x->prop[0] ? x->prop : NULL);
		fputs(",\"message\":", f);
		vfit_json_str(f, x->msg);
		fputs(",\"fix\":", f);
		vfit_json_str(f, x->fix);
		fputc('}', f);
	}
	fprintf(f, "],\"summary\":{\"error\":%d,\"warning\":%d,\"info\":%d}",
		vfit_audit_count(a, VFIT_AUDIT_ERROR),
		vfit_audit_count(a, VFIT_AUDIT_WARNING) - vfit_audit_count(a, VFIT_AUDIT_ERROR),
		a->nf - vfit_audit_count(a, VFIT_AUDIT_WARNING));
	if (status) {
		fputc(',', f);
		vfit_json_error(f, status, line);
	}
	fputs("}\n", f);
}
