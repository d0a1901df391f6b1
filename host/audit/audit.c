/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit audit, one run: the model of a FIT and its control DTB
 * (audit_model.c), the rules that turn it into findings (audit_rules_*.c,
 * each finding of a class in audit_registry.c), and for a signed FIT the
 * verdicts of vfit and U-Boot (audit_verdict.c).  Everything is read
 * through libfdt's checked accessors after vfit_fdt_check(): a hostile
 * FIT gives odd findings, never an out-of-bounds read.
 */
#include <libfdt.h>

#include "vfit/fit.h"
#include "vfit-host/fdtbuf.h"
#include "vfit-host/its.h"
#include "audit_int.h"

int vfit_audit_run(struct vfit_audit *a, const char *file, const void *fit, size_t len,
		   int from_its, const char *ctl_file, const void *ctl, size_t ctl_len,
		   struct vfit_err *e)
{
	struct vfit_diag d = { -1, NULL, VFIT_LIMIT_NONE };

	a->file = file;
	a->ctl_file = ctl_file;
	a->from_its = from_its;
	if (vfit_fdt_check(fit, len, &d))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not a device tree: %s", file,
				    vfit_result_to_string(vfit_fdt_check(fit, len, NULL)));
	if (ctl && vfit_fdt_check(ctl, ctl_len, &d))
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: not a device tree: %s", ctl_file,
				    vfit_result_to_string(vfit_fdt_check(ctl, ctl_len, NULL)));
	if (fdt_path_offset(fit, "/images") < 0)
		return vfit_err_set(e, VFIT_EXIT_REJECT, "%s: /images: missing: not a FIT", file);
	if (vfit_audit_model(a, fit, len, ctl))
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", file);
	vfit_audit_rules_sig(a, fit, len, ctl, ctl_len);
	vfit_audit_rules_image(a, fit, len);
	if (!from_its) {
		vfit_audit_verdicts(a, fit, len, ctl, ctl_len);
		vfit_audit_rule_default(a);
	}
	/* A report missing a finding would read as clean. */
	if (a->oom)
		return vfit_err_set(e, VFIT_EXIT_USAGE, "%s: out of memory", file);
	return 0;
}

int vfit_audit_its(struct vfit_audit *a, const char *its, const char *ctl_file, const void *ctl,
		   size_t ctl_len, struct vfit_err *e)
{
	struct vfit_fdtbuf b = { 0 };
	int r;

	if (vfit_its_compile(its, "-I dts -O dtb -p 500", 0, &b, e))
		return -1;
	r = vfit_audit_run(a, its, b.buf, fdt_totalsize(b.buf), 1, ctl_file, ctl, ctl_len, e);
	vfit_fdtbuf_free(&b);
	return r;
}
