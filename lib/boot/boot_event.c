/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Events: every step of a command is one struct vfit_boot_event, sent to
 * the platform's optional event op while it happens and kept in the
 * caller's report.  The report holds copies: strings are copied in, and
 * the pointers that are only valid during the op are cleared.
 */
#include <string.h>

#include <libfdt.h>

#include "boot_int.h"

void vfit_boot_report_init(struct vfit_boot_report *r, struct vfit_boot_event *ev,
			   unsigned int cap)
{
	memset(r, 0, sizeof(*r));
	r->slot = VFIT_BOOT_NONE;
	r->ev = ev;
	r->cap = ev ? cap : 0;
}

void vfit_ev_init_(struct vfit_boot_event *ev, enum vfit_boot_event_kind kind,
		  enum vfit_boot_chain chain, unsigned int stage)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = (uint8_t)kind;
	ev->chain = (uint8_t)chain;
	ev->stage = (uint8_t)stage;
}

struct vfit_boot_event *vfit_ev_new_(struct vfit_run *r, enum vfit_boot_event_kind kind,
				    enum vfit_boot_chain chain, unsigned int stage)
{
	vfit_ev_init_(&r->ev, kind, chain, stage);
	return &r->ev;
}

static void record(struct vfit_boot_report *rep, const struct vfit_boot_event *ev)
{
	struct vfit_boot_event *e;

	if (rep->n >= rep->cap) {
		rep->dropped++;
		return;
	}
	e = &rep->ev[rep->n++];
	*e = *ev;
	e->res = NULL;
	e->ctl = NULL;
}

void vfit_ev_emit_(struct vfit_run *r, const struct vfit_boot_event *ev)
{
	if (!r->quiet && r->ops->event)
		r->ops->event(r->ops->plat, ev);
	/* A listing repeats recorded events: it is not recorded again. */
	if (ev->kind != VFIT_EV_REASON && (!r->quiet || ev->kind == VFIT_EV_FAIL))
		record(r->rep, ev);
}

void vfit_ev_say_(struct vfit_run *r, enum vfit_boot_event_kind kind,
		 enum vfit_boot_chain chain, unsigned int stage)
{
	vfit_ev_emit_(r, vfit_ev_new_(r, kind, chain, stage));
}

void vfit_ev_fail_(struct vfit_run *r, struct vfit_boot_event *ev, enum vfit_boot_why why)
{
	ev->kind = VFIT_EV_FAIL;
	ev->why = (uint8_t)why;
	r->rep->why = why;
	vfit_ev_emit_(r, ev);
}

void vfit_ev_reasons_(struct vfit_run *r, enum vfit_boot_why why)
{
	struct vfit_boot_event *ev;
	unsigned int i;

	ev = vfit_ev_new_(r, VFIT_EV_REASONS, VFIT_CHAIN_NONE, 0);
	ev->why = (uint8_t)why;
	vfit_ev_emit_(r, ev);
	for (i = 0; i < r->rep->n; i++) {
		if (r->rep->ev[i].kind != VFIT_EV_FAIL)
			continue;
		*ev = r->rep->ev[i];
		ev->kind = VFIT_EV_REASON;
		vfit_ev_emit_(r, ev);
	}
}

void vfit_ev_str_(char *dst, size_t cap, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s ? s : "", n);
	dst[n] = 0;
}

/* The required key that verified the configuration, NULL if none did. */
static const char *conf_key(const struct vfit_verify_result *res)
{
	unsigned int i;

	for (i = 0; i < res->nchecks; i++)
		if (res->check[i].kind == VFIT_CHECK_CONF_SIG && res->check[i].result == VFIT_OK &&
		    res->check[i].required)
			return res->check[i].key_name;
	return NULL;
}

void vfit_ev_verdict_(struct vfit_boot_verdict *v, const struct vfit_verify_result *res,
		     const void *ctl)
{
	v->result = res->result;
	v->in_control = res->in_control;
	v->has_conf = res->conf && res->result != VFIT_ERR_NO_CONFIG;
	vfit_ev_str_(v->node, sizeof(v->node), res->err_path);
	vfit_ev_str_(v->prop, sizeof(v->prop), res->err_prop);
	vfit_ev_str_(v->conf, sizeof(v->conf), v->has_conf ? res->conf : NULL);
	vfit_ev_str_(v->key, sizeof(v->key),
		    res->result ? (res->err_key >= 0 ? vfit_key_name(ctl, res->err_key) : NULL) :
				  conf_key(res));
}
