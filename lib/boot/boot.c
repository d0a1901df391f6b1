/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The boot flow's commands: one power-on (vfit_boot), the OS's
 * confirmation (vfit_boot_mark_good) and requests (vfit_boot_apply_request),
 * and a field update (vfit_boot_update).
 *
 * Invariant kept by every sequence of durable writes below: at any point a
 * power cut may strike, one slot holds a chain that verifies and that the
 * state does not mark bad, or recovery remains.  The running (good) slot is
 * never written; the other slot is marked bad before its first byte changes
 * and is offered for a trial only after it has been written, read back and
 * verified in full.  With a store that stages its writes (the commit op:
 * a TPM NV index), each command's changes become durable together, in one
 * write, where the command ends (update: also before the target changes).
 */
#include <string.h>

#include "boot_int.h"

_Static_assert(VFIT_BOOT_SLOTS == 2, "the flow, the state blob and update are A/B");

static void run_init(struct vfit_run *r, const struct vfit_boot_ops *ops,
		     const struct vfit_boot_layout *layout, struct vfit_boot_scratch *scratch,
		     struct vfit_boot_report *report)
{
	struct vfit_boot_event *ev = report->ev;
	struct vfit_boot_timings *t = report->timings;
	unsigned int cap = report->cap;

	vfit_boot_report_init(report, ev, cap);
	report->timings = t;
	if (t)
		memset(t, 0, sizeof(*t));
	r->ops = ops;
	r->lay = layout;
	r->s = scratch;
	r->rep = report;
	r->quiet = false;
}

/* ---- state ------------------------------------------------------------------ */

static void state_load(struct vfit_run *r)
{
	const struct vfit_boot_ops *o = r->ops;
	uint8_t buf[VFIT_BOOT_STATE_SIZE + 1];
	struct vfit_boot_event *ev;
	size_t len = 0;

	ev = vfit_ev_new_(r, VFIT_EV_STATE, VFIT_CHAIN_NONE, 0);
	vfit_boot_state_default(&r->s->state);
	ev->io = o->state_read(o->plat, buf, sizeof(buf), &len);
	if (!ev->io)
		ev->state_check = (uint8_t)vfit_boot_state_decode(buf, len, &r->s->state);
	ev->state = r->s->state;
	vfit_ev_emit_(r, ev);
}

static enum vfit_io state_save(struct vfit_run *r)
{
	const struct vfit_boot_ops *o = r->ops;
	uint8_t buf[VFIT_BOOT_STATE_SIZE];
	enum vfit_io io;

	r->s->state.seq++;
	vfit_boot_state_encode(&r->s->state, buf);
	io = o->state_write(o->plat, buf, sizeof(buf));
	if (io)
		r->rep->why = VFIT_WHY_STATE_WRITE;
	return io;
}

/* The command's staged changes made durable at once (keep), or dropped. */
static enum vfit_io commit(struct vfit_run *r, bool keep)
{
	const struct vfit_boot_ops *o = r->ops;
	enum vfit_io io = o->commit ? o->commit(o->plat, keep) : VFIT_IO_OK;

	if (io && keep)
		r->rep->why = VFIT_WHY_STATE_WRITE;
	return io;
}

/* A command's end: its changes kept when it is done, else dropped. */
static enum vfit_boot_result finish(struct vfit_run *r, enum vfit_boot_result rc)
{
	if (commit(r, rc == VFIT_BOOT_DONE))
		return VFIT_BOOT_ERROR;
	if (rc == VFIT_BOOT_DONE)
		r->rep->why = VFIT_WHY_NONE;
	return rc;
}

/* ---- keys ---------------------------------------------------------------- */

/* Reads a key DTB into buf (VFIT_BOOT_DTB_MAX bytes of scratch). */
static enum vfit_boot_store read_dtb(struct vfit_run *r, enum vfit_boot_obj obj, uint64_t *buf,
				     size_t *len)
{
	enum vfit_io io = r->ops->read(r->ops->plat, obj, 0, 0, buf, VFIT_BOOT_DTB_MAX, len);

	if (io == VFIT_IO_ABSENT)
		return VFIT_STORE_ABSENT;
	if (io || *len > VFIT_BOOT_DTB_MAX || vfit_control_check(buf, *len, NULL))
		return VFIT_STORE_UNUSABLE;
	return VFIT_STORE_PRESENT;
}

static const uint8_t *view(uint64_t *dst, const uint64_t *src, enum vfit_keyview kind,
			   size_t *len)
{
	return vfit_boot_keyview_(dst, VFIT_BOOT_VIEW_MAX, src, kind, len) ? NULL :
	       (const uint8_t *)dst;
}

/* The developer-mode switch and, when it is open, the user keys. */
static void user_keys(struct vfit_run *r, struct vfit_flow *f)
{
	struct vfit_boot_scratch *s = r->s;
	struct vfit_boot_event *ev;
	size_t len;

	ev = vfit_ev_new_(r, VFIT_EV_DEV_MODE, VFIT_CHAIN_NONE, 0);
	f->dev = r->ops->dev_mode && r->ops->dev_mode(r->ops->plat);
	ev->store = (uint8_t)read_dtb(r, VFIT_BOOT_OBJ_USER_KEYS, s->user, &len);
	if (f->dev) {
		ev->flags = VFIT_EVF_DEV;
		if (ev->store == VFIT_STORE_PRESENT) {
			f->user = view(s->view_user, s->user, VFIT_VIEW_USER, &f->user_len);
			if (f->user && !vfit_boot_key_count_(f->user))
				f->user = NULL;
			ev->store = f->user ? VFIT_STORE_TRUSTED : VFIT_STORE_EMPTY;
		}
	}
	vfit_ev_emit_(r, ev);
}

/* A reason about a chain as a whole, or about the command. */
static void fail(struct vfit_run *r, enum vfit_boot_why why, enum vfit_boot_chain chain)
{
	vfit_ev_fail_(r, vfit_ev_new_(r, VFIT_EV_FAIL, chain, 0), why);
}

enum setup {
	SETUP_OK = 0,
	SETUP_HALT,       /* no ROM keys: nothing can verify */
	SETUP_FAILED,     /* the platform is unusable */
};

/*
 * Everything a command needs before touching a slot: the platform layout,
 * the state, the ROM keys and (developer mode) the user keys.
 */
static enum setup setup(struct vfit_run *r, struct vfit_flow *f)
{
	const struct vfit_boot_ops *o = r->ops;
	struct vfit_boot_scratch *s = r->s;
	size_t len;

	memset(f, 0, sizeof(*f));
	if (!o || !o->read || !o->state_read || !o->state_write || !vfit_boot_layout_ok_(r->lay)) {
		r->rep->why = VFIT_WHY_LAYOUT;
		return SETUP_FAILED;
	}
	vfit_boot_ranges_reset_(r);
	state_load(r);
	if (read_dtb(r, VFIT_BOOT_OBJ_ROM, s->rom, &len) != VFIT_STORE_PRESENT) {
		fail(r, VFIT_WHY_ROM, VFIT_CHAIN_NONE);
		return SETUP_HALT;
	}
	f->rom = view(s->view_rom, s->rom, VFIT_VIEW_BUILT_IN, &f->rom_len);
	f->recovery = view(s->view_rec, s->rom, VFIT_VIEW_RECOVERY, &f->recovery_len);
	if (!f->rom || !f->recovery) {
		r->rep->why = VFIT_WHY_LAYOUT;
		return SETUP_FAILED;
	}
	if (!vfit_boot_key_count_(f->recovery))
		f->recovery = NULL;
	user_keys(r, f);
	return SETUP_OK;
}

/*
 * run_init() and setup() for a command of the OS: VFIT_BOOT_DONE when it
 * may go on.  Inline: six arguments through the stack would cost more
 * than the three copies.
 */
#ifdef __GNUC__
__attribute__((always_inline))
#endif
static inline enum vfit_boot_result begin(struct vfit_run *r, struct vfit_flow *f,
				   const struct vfit_boot_ops *ops,
				   const struct vfit_boot_layout *layout,
				   struct vfit_boot_scratch *scratch, struct vfit_boot_report *report)
{
	enum setup rc;

	run_init(r, ops, layout, scratch, report);
	rc = setup(r, f);
	if (rc)
		return rc == SETUP_FAILED ? VFIT_BOOT_ERROR : VFIT_BOOT_REFUSED;
	return VFIT_BOOT_DONE;
}

/* ---- one power-on ---------------------------------------------------- */

/*
 * failed: the chain failed verification (retried when nothing else boots).
 * Such a slot keeps the attempts a trial had left (none if it was
 * confirmed): put right, it returns to what it was (try_slot()).
 */
static void mark_bad(struct vfit_run *r, unsigned int s, bool failed)
{
	struct vfit_boot_state *st = &r->s->state;
	struct vfit_boot_event *ev;

	st->status[s] = VFIT_SLOT_BAD;
	if (!failed)
		st->tries[s] = 0;
	st->failed[s] = failed;
	if (st->active == s)
		st->active = (uint8_t)(1 - s);
	ev = vfit_ev_new_(r, VFIT_EV_MARKED_BAD, (enum vfit_boot_chain)s, 0);
	ev->io = state_save(r);
	vfit_ev_emit_(r, ev);
}

/* Nothing to start until a chain has verified and loaded in full. */
static void no_handoff(struct vfit_boot_report *rep)
{
	rep->entry = 0;
	memset(&rep->kernel, 0, sizeof(rep->kernel));
	memset(&rep->fdt, 0, sizeof(rep->fdt));
	memset(&rep->ramdisk, 0, sizeof(rep->ramdisk));
}

/*
 * The boot record: which chain booted, written (with the trial counted,
 * and with the slot's status when `changed` says the caller set it)
 * before anything of it runs.  A record that cannot be written stops the
 * boot whatever the slot's status: a trial could loop uncounted, and a
 * good slot would run as a chain the record does not name.
 */
static bool record(struct vfit_run *r, enum vfit_boot_chain c, bool changed)
{
	struct vfit_boot_state *st = &r->s->state;
	bool trial = c < VFIT_CHAIN_RECOVERY && st->status[c] == VFIT_SLOT_TRYING;

	if (changed || trial || st->booted != c ||
	    memcmp(st->chain, r->s->chain, sizeof(st->chain))) {
		if (trial)
			st->tries[c]--;
		st->booted = (uint8_t)c;
		memcpy(st->chain, r->s->chain, sizeof(st->chain));
		if (state_save(r)) {
			fail(r, trial ? VFIT_WHY_TRIAL_UNCOUNTED : VFIT_WHY_STATE_WRITE, c);
			return false;
		}
	}
	if (commit(r, true)) {
		fail(r, VFIT_WHY_STATE_WRITE, c);
		return false;
	}
	return true;
}

enum try {
	TRY_NO = 0,       /* not started: the next slot, or recovery */
	TRY_BOOT,         /* verified, loaded, recorded */
	TRY_HALT,         /* the record could not be written: nothing may run */
};

/* Slot s (retry: a bad slot whose chain failed verification before, tried again). */
static enum try try_slot(struct vfit_run *r, const struct vfit_flow *f, unsigned int s,
			 bool retry)
{
	const struct vfit_stages c = { (enum vfit_boot_chain)s, s, 0, 0, NULL, NULL };
	const uint8_t *fit[VFIT_BOOT_MAX_STAGES];
	size_t len[VFIT_BOOT_MAX_STAGES];
	struct vfit_boot_state *st = &r->s->state;
	struct vfit_boot_event *ev;
	enum vfit_walk w;

	if (st->status[s] == VFIT_SLOT_BAD && !retry) {
		fail(r, VFIT_WHY_MARKED_BAD, c.id);
		return TRY_NO;
	}
	if (st->status[s] == VFIT_SLOT_TRYING && !st->tries[s]) {
		fail(r, VFIT_WHY_NO_ATTEMPTS, c.id);
		mark_bad(r, s, false);
		return TRY_NO;
	}
	if (retry)
		vfit_ev_say_(r, VFIT_EV_RETRY, c.id, 0);
	vfit_ev_say_(r, VFIT_EV_TRY, c.id, 0);
	vfit_boot_ranges_reset_(r);
	w = vfit_boot_walk_(r, f, &c, true, fit, len);
	if (w == VFIT_WALK_REJECT && !retry)
		mark_bad(r, s, true);
	if (w) {
		no_handoff(r->rep);
		return TRY_NO;
	}
	/*
	 * Verified again after a failure: the disk was put right, and the
	 * slot is what it was before: on trial with the attempts it had left
	 * (a trial is never made good without the OS), or confirmed.
	 */
	if (retry) {
		st->status[s] = st->tries[s] ? VFIT_SLOT_TRYING : VFIT_SLOT_GOOD;
		st->failed[s] = 0;
	}
	if (!record(r, c.id, retry)) {
		no_handoff(r->rep);
		return TRY_HALT;
	}
	/*
	 * No counter moves here, not even for a good slot: "good" comes from
	 * the state blob, which storage can forge and which defaults to "both
	 * good" when corrupted -- an unconfirmed new image would then lock the
	 * old one out.  Only the OS's mark-good advances counters.
	 */
	if (st->status[s] == VFIT_SLOT_TRYING) {
		ev = vfit_ev_new_(r, VFIT_EV_TRIAL, c.id, 0);
		ev->value = st->tries[s];
		vfit_ev_emit_(r, ev);
	}
	return TRY_BOOT;
}

static void start(struct vfit_run *r, enum vfit_boot_chain chain)
{
	const struct vfit_boot_report *rep = r->rep;
	struct vfit_boot_event *ev;

	ev = vfit_ev_new_(r, VFIT_EV_START, chain, 0);
	ev->addr = rep->entry;
	ev->size = rep->kernel.size;
	ev->addr2 = rep->fdt.addr;
	ev->value = rep->ramdisk.addr;
	ev->flags = (uint8_t)((rep->fdt.present ? VFIT_EVF_FDT : 0) |
			     (rep->ramdisk.present ? VFIT_EVF_RAMDISK : 0));
	r->rep->why = VFIT_WHY_NONE;
	vfit_ev_emit_(r, ev);
}

/* Nothing runs; what was staged (slots marked bad) is kept if the store can. */
static enum vfit_boot_outcome halt(struct vfit_run *r, bool listing)
{
	enum vfit_boot_why why = r->rep->why;

	no_handoff(r->rep);
	(void)commit(r, true);
	if (listing)
		vfit_ev_reasons_(r, VFIT_WHY_NOTHING_VERIFIED);
	r->rep->why = why;
	return VFIT_BOOT_HALT;
}

/*
 * A recorded chain: measured, then handed over.  A measurement that fails
 * halts with its own reason: the chain verified, so there is no list of
 * what did not.
 */
static enum vfit_boot_outcome started(struct vfit_run *r, enum vfit_boot_chain chain)
{
	if (!vfit_boot_measure_chain_(r, chain))
		return halt(r, false);
	r->rep->slot = chain < VFIT_CHAIN_RECOVERY ? chain : VFIT_BOOT_NONE;
	r->rep->nstages = r->s->nstages;
	start(r, chain);
	return chain < VFIT_CHAIN_RECOVERY ? VFIT_BOOT_KERNEL : VFIT_BOOT_RECOVERY;
}

/* One power-on: the slots in order (unless recovery alone is asked for), then recovery. */
static enum vfit_boot_outcome power_on(const struct vfit_boot_ops *ops,
				       const struct vfit_boot_layout *layout,
				       struct vfit_boot_scratch *scratch,
				       struct vfit_boot_report *report, bool slots)
{
	struct vfit_boot_state *st = &scratch->state;
	struct vfit_boot_event *ev;
	struct vfit_flow f;
	struct vfit_run r;
	unsigned int i, s, first;
	bool again[VFIT_BOOT_SLOTS];
	enum try t;
	enum setup rc;

	run_init(&r, ops, layout, scratch, report);
	rc = setup(&r, &f);
	if (rc == SETUP_FAILED)
		return VFIT_BOOT_FAILED;
	if (rc)
		return halt(&r, true);
	if (slots) {
		ev = vfit_ev_new_(&r, VFIT_EV_SLOTS, VFIT_CHAIN_NONE, 0);
		ev->state = *st;
		vfit_ev_emit_(&r, ev);
	}
	/* The order is fixed up front: marking a slot bad moves `active`. */
	first = st->active;
	for (i = 0; i < VFIT_BOOT_SLOTS; i++)
		again[i] = st->status[i] == VFIT_SLOT_BAD && st->failed[i];
	for (i = 0; slots && i < 2 * VFIT_BOOT_SLOTS; i++) {
		s = (first + i) % VFIT_BOOT_SLOTS;
		/* Second round: the slots bad for a failed verification, before recovery. */
		if (i >= VFIT_BOOT_SLOTS && !again[s])
			continue;
		t = try_slot(&r, &f, s, i >= VFIT_BOOT_SLOTS);
		if (t == TRY_HALT)
			return halt(&r, false);
		if (t == TRY_BOOT)
			return started(&r, (enum vfit_boot_chain)s);
	}
	if (slots)
		vfit_ev_say_(&r, VFIT_EV_NO_SLOT, VFIT_CHAIN_RECOVERY, 0);
	vfit_boot_ranges_reset_(&r);
	if (vfit_boot_recovery_(&r, &f, true) != VFIT_WALK_OK)
		return halt(&r, true);
	if (!record(&r, VFIT_CHAIN_RECOVERY, false))
		return halt(&r, false);
	return started(&r, VFIT_CHAIN_RECOVERY);
}

enum vfit_boot_outcome vfit_boot(const struct vfit_boot_ops *ops,
				 const struct vfit_boot_layout *layout,
				 struct vfit_boot_scratch *scratch, struct vfit_boot_report *report)
{
	return power_on(ops, layout, scratch, report, true);
}

enum vfit_boot_outcome vfit_boot_recover(const struct vfit_boot_ops *ops,
					 const struct vfit_boot_layout *layout,
					 struct vfit_boot_scratch *scratch,
					 struct vfit_boot_report *report)
{
	return power_on(ops, layout, scratch, report, false);
}

/* ---- confirmation and the OS's requests ---------------------------------------- */

/*
 * The chain that booted last, confirmed: verified again (counters may
 * only move to indexes that verify now), compared with the boot record
 * (only the chain the device itself booted is confirmed), its counters
 * advanced -- first, so that a counter the store cannot hold refuses
 * before anything changed -- and a slot's trial ended.
 */
static enum vfit_boot_result confirm_booted(struct vfit_run *r, const struct vfit_flow *f)
{
	const uint8_t *fit[VFIT_BOOT_MAX_STAGES];
	size_t len[VFIT_BOOT_MAX_STAGES];
	struct vfit_boot_state *st = &r->s->state;
	unsigned int s = st->booted;
	struct vfit_stages c;
	enum vfit_boot_why w;
	enum vfit_walk walk;

	w = vfit_boot_state_confirmable(st);
	if (w) {
		fail(r, w, w == VFIT_WHY_BOOTED_BAD ? (enum vfit_boot_chain)s : VFIT_CHAIN_NONE);
		return VFIT_BOOT_REFUSED;
	}
	memset(&c, 0, sizeof(c));
	c.id = (enum vfit_boot_chain)s;
	c.slot = s;
	vfit_boot_ranges_reset_(r);
	walk = s == VFIT_CHAIN_RECOVERY ? vfit_boot_recovery_(r, f, false) :
	       vfit_boot_walk_(r, f, &c, false, fit, len);
	if (walk) {
		fail(r, VFIT_WHY_NO_LONGER_VERIFIES, c.id);
		return VFIT_BOOT_REFUSED;
	}
	if (memcmp(r->s->chain, st->chain, sizeof(st->chain))) {
		fail(r, VFIT_WHY_CHAIN_CHANGED, c.id);
		return VFIT_BOOT_REFUSED;
	}
	/*
	 * As libavb when unlocked: a chain that came through a user key moves
	 * no counter, so nothing a user signs can lock the vendor's images out.
	 */
	if (r->s->tainted) {
		vfit_ev_say_(r, VFIT_EV_NO_ADVANCE, c.id, 0);
	} else {
		w = vfit_boot_advance_(r);
		r->rep->why = w;
		if (w)
			return w == VFIT_WHY_COUNTER_FULL ? VFIT_BOOT_REFUSED : VFIT_BOOT_ERROR;
	}
	if (s < VFIT_BOOT_SLOTS && st->status[s] == VFIT_SLOT_TRYING) {
		st->status[s] = VFIT_SLOT_GOOD;
		st->tries[s] = 0;
		if (state_save(r))
			return VFIT_BOOT_ERROR;
	}
	vfit_ev_say_(r, VFIT_EV_CONFIRMED, c.id, 0);
	return VFIT_BOOT_DONE;
}

enum vfit_boot_result vfit_boot_mark_good(const struct vfit_boot_ops *ops,
					  const struct vfit_boot_layout *layout,
					  struct vfit_boot_scratch *scratch,
					  struct vfit_boot_report *report)
{
	enum vfit_boot_result res;
	struct vfit_flow f;
	struct vfit_run r;

	res = begin(&r, &f, ops, layout, scratch, report);
	if (res)
		return res;
	return finish(&r, confirm_booted(&r, &f));
}

/*
 * The slot the OS installed, offered for a trial.  Whatever the other
 * slot's state: a trial is verified at every boot and moves no counter,
 * and recovery's update must bring a device with no good slot back.
 */
static enum vfit_boot_result offer(struct vfit_run *r, unsigned int x)
{
	struct vfit_boot_state *st = &r->s->state;
	struct vfit_boot_event *ev;

	st->status[x] = VFIT_SLOT_TRYING;
	st->tries[x] = VFIT_BOOT_TRIES;
	st->failed[x] = 0;
	st->active = (uint8_t)x;
	if (state_save(r))
		return VFIT_BOOT_ERROR;
	ev = vfit_ev_new_(r, VFIT_EV_OFFERED, (enum vfit_boot_chain)x, 0);
	ev->value = VFIT_BOOT_TRIES;
	ev->limit = st->status[1 - x] == VFIT_SLOT_GOOD ? 1 - x : VFIT_CHAIN_RECOVERY;
	vfit_ev_emit_(r, ev);
	return VFIT_BOOT_DONE;
}

enum vfit_boot_result vfit_boot_apply_request(const struct vfit_boot_ops *ops,
					      const struct vfit_boot_layout *layout,
					      struct vfit_boot_scratch *scratch,
					      struct vfit_boot_report *report,
					      const struct vfit_boot_request *rq)
{
	struct vfit_boot_state *st = &scratch->state;
	struct vfit_boot_event *ev;
	enum vfit_boot_result res;
	struct vfit_flow f;
	struct vfit_run r;

	res = begin(&r, &f, ops, layout, scratch, report);
	if (res)
		return res;
	ev = vfit_ev_new_(&r, VFIT_EV_REQUEST,
			  rq->confirm <= VFIT_CHAIN_RECOVERY ? (enum vfit_boot_chain)rq->confirm :
			  VFIT_CHAIN_NONE, 0);
	ev->value = rq->seq;
	ev->limit = rq->install;
	vfit_ev_emit_(&r, ev);
	/* Made against another state (an older boot, or before a change since). */
	if (rq->seq != st->seq) {
		ev = vfit_ev_new_(&r, VFIT_EV_FAIL, VFIT_CHAIN_NONE, 0);
		ev->value = rq->seq;
		ev->limit = st->seq;
		vfit_ev_fail_(&r, ev, VFIT_WHY_REQUEST_STALE);
		return finish(&r, VFIT_BOOT_REFUSED);
	}
	if ((rq->confirm > VFIT_CHAIN_RECOVERY && rq->confirm != VFIT_BOOT_NONE) ||
	    (rq->install >= VFIT_BOOT_SLOTS && rq->install != VFIT_BOOT_NONE) ||
	    (rq->confirm != VFIT_BOOT_NONE && rq->confirm != st->booted)) {
		fail(&r, VFIT_WHY_REQUEST_MALFORMED, VFIT_CHAIN_NONE);
		return finish(&r, VFIT_BOOT_REFUSED);
	}
	if (rq->confirm != VFIT_BOOT_NONE)
		res = confirm_booted(&r, &f);
	if (res == VFIT_BOOT_DONE && rq->install != VFIT_BOOT_NONE)
		res = offer(&r, rq->install);
	return finish(&r, res);
}

/* ---- field update ------------------------------------------------------ */

/*
 * Where the new FITs go: the first stage position at which cur's chain
 * with fit[0..n) put in verifies completely (quietly; the FAIL events of
 * every attempt are kept for the refusal, and dropped when a position is
 * found).  0 if there is none.
 */
static unsigned int update_position(struct vfit_run *r, const struct vfit_flow *f,
				    struct vfit_stages *c)
{
	const uint8_t *sfit[VFIT_BOOT_MAX_STAGES];
	size_t slen[VFIT_BOOT_MAX_STAGES];
	unsigned int pos, mark = r->rep->n, dropped = r->rep->dropped;

	r->quiet = true;
	for (pos = 1; pos + c->n - 1 <= VFIT_BOOT_MAX_STAGES; pos++) {
		c->first = pos;
		vfit_boot_ranges_reset_(r);
		/* Every new FIT must be used: none may sit after the kernel. */
		if (!vfit_boot_walk_(r, f, c, false, sfit, slen) && r->s->nstages >= pos + c->n - 1)
			break;
	}
	r->quiet = false;
	if (pos + c->n - 1 > VFIT_BOOT_MAX_STAGES)
		return 0;
	r->rep->n = mark;
	r->rep->dropped = dropped;
	return pos;
}

static enum vfit_io write_slot(struct vfit_run *r, unsigned int target,
			       const uint8_t *const fit[], const size_t len[], unsigned int n)
{
	const struct vfit_boot_ops *o = r->ops;
	enum vfit_io io = VFIT_IO_ERROR;
	unsigned int k;

	for (k = 1; o->write && k <= VFIT_BOOT_MAX_STAGES; k++) {
		io = o->write(o->plat, target, k, k <= n ? fit[k - 1] : NULL, k <= n ? len[k - 1] : 0);
		if (io)
			break;
	}
	if (io)
		r->rep->why = VFIT_WHY_WRITE;
	return io;
}

/*
 * The slot the update builds on (the confirmed slot the device runs, the
 * source of the stages not replaced, kept as the fallback) and the one it
 * writes (the other).  With no good slot at all (the device runs
 * recovery) the active slot is repaired in place: there is no fallback to
 * protect.
 */
static void update_slots(const struct vfit_boot_state *st, unsigned int *cur,
			 unsigned int *target)
{
	*cur = st->booted < VFIT_BOOT_SLOTS ? st->booted : st->active;
	if (st->status[*cur] == VFIT_SLOT_BAD && st->status[1 - *cur] == VFIT_SLOT_GOOD)
		*cur = 1 - *cur;
	*target = st->status[*cur] == VFIT_SLOT_GOOD ? 1 - *cur : *cur;
}

/* The target is out of service before its first byte changes, then written. */
static enum vfit_io write_target(struct vfit_run *r, unsigned int cur, unsigned int target,
				 const uint8_t *const sfit[], const size_t slen[])
{
	struct vfit_boot_state *st = &r->s->state;
	enum vfit_io io;

	if (st->status[target] != VFIT_SLOT_BAD || st->failed[target] ||
	    (target != cur && st->active != cur)) {
		st->status[target] = VFIT_SLOT_BAD;
		st->tries[target] = 0;
		st->failed[target] = 0;
		if (target != cur)
			st->active = (uint8_t)cur;
		io = state_save(r);
		if (!io)
			io = commit(r, true);
		if (io)
			return io;
	}
	/* Stage by stage, each replaced atomically, from the staging area. */
	vfit_ev_say_(r, VFIT_EV_WRITING, (enum vfit_boot_chain)target, 0);
	return write_slot(r, target, sfit, slen, r->s->nstages);
}

/* The update itself (steps 1..5): the target ends up on trial, or nothing was offered. */
static enum vfit_boot_result update(struct vfit_run *r, const struct vfit_flow *f,
				    const void *const fit[], const size_t len[], unsigned int n)
{
	const uint8_t *sfit[VFIT_BOOT_MAX_STAGES];
	size_t slen[VFIT_BOOT_MAX_STAGES];
	struct vfit_boot_state *st = &r->s->state;
	struct vfit_boot_event *ev;
	struct vfit_stages c;
	unsigned int cur, target, pos;

	if (!n || n > VFIT_BOOT_MAX_STAGES) {
		fail(r, VFIT_WHY_UPDATE_COUNT, VFIT_CHAIN_NONE);
		return VFIT_BOOT_REFUSED;
	}
	update_slots(st, &cur, &target);
	if (st->status[cur] == VFIT_SLOT_TRYING) {
		fail(r, VFIT_WHY_UPDATE_TRIAL, (enum vfit_boot_chain)cur);
		return VFIT_BOOT_REFUSED;
	}
	if (target == cur)
		vfit_ev_say_(r, VFIT_EV_REPAIR, (enum vfit_boot_chain)cur, 0);
	c = (struct vfit_stages){ VFIT_CHAIN_NEW, cur, 0, n, fit, len };
	pos = update_position(r, f, &c);
	if (!pos) {
		vfit_ev_reasons_(r, VFIT_WHY_UPDATE_NO_POSITION);
		r->rep->why = VFIT_WHY_UPDATE_NO_POSITION;
		return VFIT_BOOT_REFUSED;
	}
	ev = vfit_ev_new_(r, VFIT_EV_POSITION, (enum vfit_boot_chain)cur, pos);
	ev->value = n;
	vfit_ev_emit_(r, ev);

	/* 1. The complete new chain, verified again with its events. */
	c.first = pos;
	vfit_boot_ranges_reset_(r);
	if (vfit_boot_walk_(r, f, &c, false, sfit, slen)) {
		fail(r, VFIT_WHY_UPDATE_UNVERIFIED, VFIT_CHAIN_NEW);
		return VFIT_BOOT_REFUSED;
	}
	/* 2., 3. Target out of service (durably), then written. */
	if (write_target(r, cur, target, sfit, slen))
		return VFIT_BOOT_ERROR;
	/* 4. Read back and verify what the target now holds. */
	c = (struct vfit_stages){ (enum vfit_boot_chain)target, target, 0, 0, NULL, NULL };
	vfit_boot_ranges_reset_(r);
	if (vfit_boot_walk_(r, f, &c, false, sfit, slen)) {
		fail(r, VFIT_WHY_UPDATE_READBACK, c.id);
		return VFIT_BOOT_REFUSED;
	}
	/* 5. Offer it for a trial; the confirmed slot stays as the fallback. */
	return offer(r, target);
}

enum vfit_boot_result vfit_boot_update(const struct vfit_boot_ops *ops,
				       const struct vfit_boot_layout *layout,
				       struct vfit_boot_scratch *scratch,
				       struct vfit_boot_report *report, const void *const fit[],
				       const size_t len[], unsigned int n)
{
	enum vfit_boot_result res;
	struct vfit_flow f;
	struct vfit_run r;

	res = begin(&r, &f, ops, layout, scratch, report);
	if (res)
		return res;
	return finish(&r, update(&r, &f, fit, len, n));
}
