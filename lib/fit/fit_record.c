/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The verifier's check records (struct vfit_verify_result.check[]), apart
 * from the entry point so that the checks (fit_sig.c, fit_image.c) and the
 * entry point (fit_verify.c) depend on it and never on each other.
 */
#include <libfdt.h>

#include "fit_int.h"

#if VFIT_REPORT
void vfit_record_(struct vfit_ctx *c, enum vfit_check_kind kind, enum vfit_result r, int node,
		 int key_node)
{
	struct vfit_verify_result *res = c->res;
	struct vfit_check *k;

	if (res->nchecks >= VFIT_MAX_CHECKS) {
		res->checks_dropped++;
		return;
	}
	k = &res->check[res->nchecks++];
	k->kind = (uint8_t)kind;
	k->required = kind == VFIT_CHECK_HASH || c->required;
	k->image = c->img ? c->img->name : NULL;
	k->result = r;
	k->node = node;
	k->key_node = key_node;
	k->algo = vfit_prop_str_(c->fit, node, "algo");
	k->key_name = key_node >= 0 ? vfit_key_name(c->ctl, key_node) :
		      kind == VFIT_CHECK_HASH ? NULL : vfit_prop_str_(c->fit, node, "key-name-hint");
}
#endif
