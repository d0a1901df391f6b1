/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The chain of trust.  Stage 1 is verified with the ROM's built-in keys;
 * a stage whose configuration names a `firmware` and an `fdt` image hands
 * over to the next stage, whose FIT is verified with the keys of that
 * verified fdt; the stage whose configuration names a `kernel` is the last.
 * Each FIT is read into the staging area, verified in place, and only then
 * are its images copied (or decompressed) to their load addresses.
 *
 * What the flow takes from a verified FIT besides payload bytes -- which
 * image is the kernel, firmware or fdt, load and entry addresses,
 * compression, the rollback index and counter name -- are properties of
 * the configuration and image nodes.  Only a configuration signature by a
 * required key covers them (res.conf_verified); an image signature covers
 * payload bytes alone.  So every stage needs a verified configuration
 * signature, and a stage whose configuration is unsigned is refused.
 */
#include <string.h>

#include <libfdt.h>

#include "boot_int.h"
#include "vfit/preload.h"

static uint64_t now(const struct vfit_run *r)
{
	return r->rep->timings && r->ops->now_ns ? r->ops->now_ns(r->ops->plat) : 0;
}

static void tick(struct vfit_run *r, unsigned int at, enum vfit_boot_phase ph, uint64_t *t0)
{
	uint64_t t;

	if (!r->rep->timings)
		return;
	t = now(r);
	r->rep->timings->t[at][ph] += t - *t0;
	*t0 = t;
}

/* Where the keys of a stage came from: the ROM (stage 0) or a verified fdt. */
struct vfit_origin {
	unsigned int stage;
	const char *fdt;
	bool by_user;
};

static void set_origin(struct vfit_boot_event *ev, const struct vfit_origin *o)
{
	ev->origin = (uint8_t)o->stage;
	vfit_ev_str_(ev->name, sizeof(ev->name), o->fdt);
	if (o->by_user)
		ev->flags |= VFIT_EVF_USER_ORIGIN;
}

static void keys_event(struct vfit_run *r, const struct vfit_boot_event *why,
		       enum vfit_boot_keys keys, const void *ctl, const struct vfit_origin *o)
{
	struct vfit_boot_event *ev;

	ev = vfit_ev_new_(r, VFIT_EV_KEYS, why->chain, why->stage);
	ev->keys = (uint8_t)keys;
	ev->ctl = ctl;
	set_origin(ev, o);
	vfit_ev_emit_(r, ev);
}

/* One vfit_verify() and its VERIFY event; the verdict is kept in *v. */
static enum vfit_result verify_one(struct vfit_run *r, const struct vfit_boot_event *why,
				   const uint8_t *fit, size_t len, const void *ctl,
				   size_t ctl_len, enum vfit_boot_keys keys,
				   const struct vfit_origin *o, struct vfit_boot_verdict *v)
{
	struct vfit_verify_result *res = &r->s->res;
	struct vfit_boot_event *ev;
	enum vfit_result verdict;

	ev = vfit_ev_new_(r, VFIT_EV_VERIFY, why->chain, why->stage);
	ev->keys = (uint8_t)keys;
	ev->res = res;
	set_origin(ev, o);
	r->keys = ctl;
	/*
	 * Encrypted images are accepted: the verifier takes them only under a
	 * configuration signature by a required key (which covers the cipher
	 * node and the plaintext length), the flow needs that signature on
	 * every stage anyway, and vfit_boot_load_one_() decrypts them only
	 * after this verification passed, with the key in this trusted ctl.
	 */
	verdict = vfit_boot_verify_(r, fit, len, ctl, ctl_len, VFIT_VERIFY_ALLOW_CIPHER, res);
	vfit_ev_verdict_(&ev->v, res, ctl);
	vfit_ev_emit_(r, ev);
	*v = ev->v;
	return verdict;
}

/*
 * Built-in keys first, with their own policy; when that fails and the
 * developer-mode switch is open, the user keys as a second, independent
 * policy.  The union of the two is what "in addition" means: nothing the
 * built-in policy accepts is refused, and nothing is accepted without a
 * signature from a trusted key on the configuration.
 */
static bool verify(struct vfit_run *r, const struct vfit_flow *f, const uint8_t *fit,
		   size_t len, const void *ctl, size_t ctl_len, const struct vfit_origin *o,
		   bool *by_user, struct vfit_boot_event *why)
{
	*by_user = false;
	if (!verify_one(r, why, fit, len, ctl, ctl_len, VFIT_KEYS_STAGE, o, &why->v))
		return true;
	why->why = VFIT_WHY_VERIFY;
	why->keys = VFIT_KEYS_STAGE;
	set_origin(why, o);
	if (!f->dev || !f->user)
		return false;
	vfit_ev_say_(r, VFIT_EV_USER_TRY, why->chain, why->stage);
	if (verify_one(r, why, fit, len, f->user, f->user_len, VFIT_KEYS_USER, o, &why->user)) {
		why->flags |= VFIT_EVF_USER_TRIED;
		return false;
	}
	vfit_ev_say_(r, VFIT_EV_USER_OK, why->chain, why->stage);
	*by_user = true;
	return true;
}

/*
 * The stage's configuration decides where code lands and runs: refused
 * unless a configuration signature covered it.
 */
static bool authenticated(const struct vfit_run *r, struct vfit_boot_event *why)
{
	const struct vfit_verify_result *res = &r->s->res;

	if (res->conf_verified)
		return true;
	why->why = VFIT_WHY_PLACEMENT_UNSIGNED;
	why->v.has_conf = 1;
	vfit_ev_str_(why->v.conf, sizeof(why->v.conf), res->conf);
	return false;
}

static void why_image(struct vfit_boot_event *why, enum vfit_boot_why w,
		      const struct vfit_image *img)
{
	why->why = (uint8_t)w;
	vfit_ev_str_(why->what, sizeof(why->what), img->prop);
	vfit_ev_str_(why->name, sizeof(why->name), img->name);
}

/*
 * Code starts inside the bytes verified for it: [load, load + size).  A
 * compressed kernel's size is known once decompressed, so
 * vfit_boot_load_images_() checks it again then.
 */
static bool entry_ok(const struct vfit_image *img, struct vfit_boot_event *why)
{
	if (!img->has_load) {
		why_image(why, VFIT_WHY_NO_LOAD, img);
		return false;
	}
	if ((img->compression && strcmp(img->compression, "none")) ||
	    vfit_boot_entry_inside_(img, img->size))
		return true;
	why_image(why, VFIT_WHY_ENTRY_OUTSIDE, img);
	why->addr = img->load;
	why->size = img->size;
	why->value = img->has_entry ? img->entry : img->load;
	return false;
}

/* ---- rollback ---------------------------------------------------------- */

static void default_name(char *out, unsigned int stage, bool final, bool recovery)
{
	const char *n = recovery ? "recovery" : final ? "kernel" : "bootloader";

	if (!recovery && !final && stage > 1) {
		/* "stage2".."stage4": later non-final stages count separately. */
		memcpy(out, "stage", 5);
		out[5] = (char)('0' + stage);
		out[6] = 0;
		return;
	}
	memcpy(out, n, strlen(n) + 1);
}

/*
 * rollback-counter and rollback-index of the selected configuration, used
 * only when a configuration signature covered them (fit-format.md §11.2):
 * a stage that carries them unsigned is refused rather than booted with a
 * policy nobody vouched for.  The index is checked against the stored
 * counter of that name.  A stage accepted through a user key (or with
 * keys that came through one) has its rollback data ignored: a user can
 * neither name nor move a vendor counter.  A counter that cannot be read
 * blocks the boot as VFIT_WALK_IO: the store failed, not the slot, so the
 * slot must not be marked bad for it (a passing TPM fault would otherwise
 * leave the device on recovery for good).
 */
static enum vfit_walk rollback(struct vfit_run *r, const uint8_t *fit, unsigned int at,
			       bool final, bool recovery, bool user,
			       struct vfit_boot_event *why)
{
	const struct vfit_boot_ops *o = r->ops;
	const struct vfit_verify_result *res = &r->s->res;
	struct vfit_boot_counter *c = &r->s->counter[at];
	const char *name = NULL;
	const uint8_t *idx = NULL;
	struct vfit_boot_event *ev;
	int nlen = 0, ilen = 0;
	enum vfit_io io;

	memset(c, 0, sizeof(*c));
	default_name(c->name, at + 1, final, recovery);
	ev = vfit_ev_new_(r, user ? VFIT_EV_ROLLBACK_SKIPPED : VFIT_EV_ROLLBACK, why->chain,
		     why->stage);
	if (!user) {
		name = fdt_getprop(fit, res->conf_node, "rollback-counter", &nlen);
		idx = fdt_getprop(fit, res->conf_node, "rollback-index", &ilen);
	}
	if ((name || idx) && !res->conf_verified) {
		why->why = VFIT_WHY_ROLLBACK_UNSIGNED;
		return VFIT_WALK_REJECT;
	}
	if (name) {
		if (nlen < 1 || name[nlen - 1] ||
		    !vfit_counter_name_valid(name, (size_t)nlen - 1)) {
			why->why = VFIT_WHY_ROLLBACK_NAME;
			return VFIT_WALK_REJECT;
		}
		memcpy(c->name, name, (size_t)nlen);
	}
	if (idx && ilen != 4) {
		why->why = VFIT_WHY_ROLLBACK_FORMAT;
		return VFIT_WALK_REJECT;
	}
	if (idx)
		c->index = ld_be32(idx);
	vfit_ev_str_(ev->name, sizeof(ev->name), c->name);
	vfit_ev_str_(why->name, sizeof(why->name), c->name);
	ev->value = why->value = c->index;
	if (o->counter_read && !user) {
		io = o->counter_read(o->plat, c->name, &ev->limit);
		if (io) {
			why->why = VFIT_WHY_COUNTER_UNREADABLE;
			why->io = io;
			return VFIT_WALK_IO;
		}
		ev->flags |= VFIT_EVF_COUNTER;
		why->limit = ev->limit;
		if (c->index < ev->limit) {
			why->why = VFIT_WHY_ROLLBACK;
			return VFIT_WALK_REJECT;
		}
	}
	vfit_ev_emit_(r, ev);
	return VFIT_WALK_OK;
}

/*
 * Each counter below its stage's verified index is moved up to it.  A
 * store with no room for another counter says TOO_BIG and has changed
 * nothing for it: COUNTER_FULL (a FAIL event names the counter), which
 * refuses the confirmation rather than leaving it half done.
 */
enum vfit_boot_why vfit_boot_advance_(struct vfit_run *r)
{
	const struct vfit_boot_ops *o = r->ops;
	struct vfit_boot_scratch *s = r->s;
	struct vfit_boot_event *ev;
	enum vfit_io io;
	uint64_t cur;
	unsigned int i;

	if (!o->counter_read || !o->counter_advance)
		return VFIT_WHY_NONE;
	for (i = 0; i < s->ncounters; i++) {
		/* Re-read: two stages may share a counter name. */
		if (o->counter_read(o->plat, s->counter[i].name, &cur))
			return VFIT_WHY_COUNTER_ADVANCE;
		if (s->counter[i].index <= cur)
			continue;
		io = o->counter_advance(o->plat, s->counter[i].name, s->counter[i].index);
		if (io == VFIT_IO_TOO_BIG) {
			ev = vfit_ev_new_(r, VFIT_EV_FAIL, VFIT_CHAIN_NONE, i + 1);
			vfit_ev_str_(ev->name, sizeof(ev->name), s->counter[i].name);
			vfit_ev_fail_(r, ev, VFIT_WHY_COUNTER_FULL);
			return VFIT_WHY_COUNTER_FULL;
		}
		if (io)
			return VFIT_WHY_COUNTER_ADVANCE;
		ev = vfit_ev_new_(r, VFIT_EV_COUNTER, VFIT_CHAIN_NONE, i + 1);
		vfit_ev_str_(ev->name, sizeof(ev->name), s->counter[i].name);
		ev->value = s->counter[i].index;
		ev->limit = cur;
		vfit_ev_emit_(r, ev);
	}
	return VFIT_WHY_NONE;
}

/* ---- staging ------------------------------------------------------------ */

/*
 * Free bytes of the staging area.  The cursor advances in whole pages and
 * may pass the end of an area that is not a whole number of pages.
 */
static uint64_t staging_room(const struct vfit_run *r)
{
	uint64_t used = r->s->fit_next - r->lay->fit_addr;

	return used < r->lay->fit_size ? r->lay->fit_size - used : 0;
}

/*
 * Puts stage `stage` of the chain into the staging area (reserved as a
 * whole, so no image can lie there).  Returns its bus address through *addr.
 */
static enum vfit_walk stage_in(struct vfit_run *r, const struct vfit_stages *c,
			       unsigned int stage, enum vfit_boot_obj obj, uint64_t *addr,
			       size_t *len, struct vfit_boot_event *why)
{
	const struct vfit_boot_ops *o = r->ops;
	uint64_t room = staging_room(r);
	size_t cap = room > SIZE_MAX ? SIZE_MAX : (size_t)room;
	uint8_t *dst = vfit_boot_host_(r, r->s->fit_next, cap);
	enum vfit_io io;

	*addr = r->s->fit_next;
	*len = 0;
	if (obj == VFIT_BOOT_OBJ_STAGE && stage >= c->first && stage - c->first < c->n) {
		*len = c->len[stage - c->first];
		io = *len > cap ? VFIT_IO_TOO_BIG : VFIT_IO_OK;
		if (!io)
			memcpy(dst, c->fit[stage - c->first], *len);
	} else {
		io = o->read(o->plat, obj, obj == VFIT_BOOT_OBJ_STAGE ? c->slot : 0,
			     obj == VFIT_BOOT_OBJ_STAGE ? stage : 0, dst, cap, len);
		if (!io && *len > cap)
			io = VFIT_IO_TOO_BIG;
	}
	why->io = io;
	switch (io) {
	case VFIT_IO_OK:
		break;
	case VFIT_IO_ABSENT:
		why->why = VFIT_WHY_NO_FIT;
		return VFIT_WALK_REJECT;
	case VFIT_IO_TOO_BIG:
		why->why = VFIT_WHY_FIT_TOO_BIG;
		return VFIT_WALK_REJECT;
	default:
		why->why = VFIT_WHY_READ_ERROR;
		return VFIT_WALK_IO;
	}
	r->s->fit_next += (*len + VFIT_BOOT_PAGE - 1) & ~(uint64_t)(VFIT_BOOT_PAGE - 1);
	return VFIT_WALK_OK;
}

/*
 * U-Boot's `bootm preload`, before anything of the FIT is parsed: when the
 * control DTB that is to verify it (the ROM's built-in or recovery view,
 * or the verified fdt of the stage before) has /image/pre-load/sig, a
 * header in front of the staged bytes is checked with that key and
 * stripped; with mandatory = "yes" a FIT without one is refused.  Without
 * the node nothing is checked, as in U-Boot.  The FIT then starts at
 * header_size, which must keep it 8-byte aligned for libfdt and for an fdt
 * handed over in place.  The key (about 1 KiB) lives on this frame only.
 */
static bool preload(const void *ctl, const uint8_t **fit, size_t *len, uint64_t *addr,
		    struct vfit_boot_event *why)
{
	struct vfit_preload_key key;
	struct vfit_preload_result res;
	enum vfit_result e = vfit_preload_key_load(ctl, &key, NULL);

	if (e == VFIT_ERR_MISSING)
		return true;
	why->why = VFIT_WHY_PRELOAD;
	if (e) {
		why->value = (uint64_t)e;
		vfit_ev_str_(why->what, sizeof(why->what), "key " VFIT_PRELOAD_PATH);
		return false;
	}
	e = vfit_preload_check(&key, *fit, *len, &res);
	if (!e && res.image_offset % 8) {
		e = VFIT_ERR_FORMAT;
		res.field = "header_size not a multiple of 8";
	}
	if (e) {
		why->value = (uint64_t)e;
		vfit_ev_str_(why->what, sizeof(why->what),
			    res.field ? res.field : res.present ? "header" : "no header");
		return false;
	}
	why->why = VFIT_WHY_NONE;
	*fit += res.image_offset;
	*len = res.image_len;
	*addr += res.image_offset;
	return true;
}

static void loading(struct vfit_run *r, const struct vfit_boot_event *why, const char *what,
		    uint64_t addr)
{
	struct vfit_boot_event *ev;

	ev = vfit_ev_new_(r, VFIT_EV_LOADING, why->chain, why->stage);
	vfit_ev_str_(ev->what, sizeof(ev->what), what);
	ev->addr = addr;
	vfit_ev_emit_(r, ev);
}

/*
 * A non-final stage (load_from: its FIT's address when images are to be
 * loaded, 0 to verify only): its firmware is the next stage's code (placed at its
 * load address) and its fdt the next stage's control DTB, whose keys
 * verify the next FIT.  The verified fdt is copied into the scratch space
 * (aligned for libfdt) and used from there: it replaces the previous
 * stage's keys, which are no longer needed.
 */
static bool hand_over(struct vfit_run *r, uint64_t load_from, const void **ctl,
		      size_t *ctl_len, struct vfit_boot_event *why)
{
	const struct vfit_verify_result *res = &r->s->res;
	const struct vfit_image *fw = vfit_boot_image_(res, "firmware");
	const struct vfit_image *dtb = vfit_boot_image_(res, "fdt");
	uint8_t *next = (uint8_t *)r->s->next;
	uint64_t size;

	if (!fw || !dtb) {
		why->why = VFIT_WHY_NO_HANDOVER;
		why->v.has_conf = 1;
		vfit_ev_str_(why->v.conf, sizeof(why->v.conf), res->conf);
		return false;
	}
	if ((dtb->compression && strcmp(dtb->compression, "none")) ||
	    dtb->size > VFIT_BOOT_VIEW_MAX) {
		why_image(why, VFIT_WHY_CONTROL_DTB, dtb);
		return false;
	}
	if (!entry_ok(fw, why))
		return false;
	/*
	 * Loaded before the fdt is copied to next: this stage's keys may be
	 * there (stage 2 on), and an encrypted firmware is decrypted with them.
	 */
	if (load_from) {
		loading(r, why, "firmware", load_from);
		if (!vfit_boot_load_one_(r, fw, why, &size) ||
		    (dtb->has_load && !vfit_boot_load_one_(r, dtb, why, &size)))
			return false;
	}
	memcpy(next, dtb->data, dtb->size);
	if (vfit_control_check(next, dtb->size, NULL)) {
		why_image(why, VFIT_WHY_CONTROL_DTB, dtb);
		return false;
	}
	*ctl = next;
	*ctl_len = dtb->size;
	return true;
}

static void stage_event(struct vfit_run *r, const struct vfit_boot_event *why, uint64_t addr,
			size_t len)
{
	struct vfit_boot_event *ev;

	ev = vfit_ev_new_(r, VFIT_EV_STAGE, why->chain, why->stage);
	ev->addr = addr;
	ev->size = len;
	vfit_ev_emit_(r, ev);
}

/* The final stage: its kernel checked and, with load, its images placed. */
static enum vfit_walk final_stage(struct vfit_run *r, const struct vfit_image *k, bool load,
				  uint64_t addr, const char *what, struct vfit_boot_event *why)
{
	if (!entry_ok(k, why))
		return VFIT_WALK_REJECT;
	if (!load)
		return VFIT_WALK_OK;
	loading(r, why, what, addr);
	return vfit_boot_load_images_(r, addr, why) ? VFIT_WALK_OK : VFIT_WALK_REJECT;
}

/* One stage of a chain; *k is its kernel (NULL: it hands over through *ctl). */
static enum vfit_walk walk_stage(struct vfit_run *r, const struct vfit_flow *f,
				 const struct vfit_stages *c, bool load, struct vfit_origin *o,
				 const void **ctl, size_t *ctl_len, const uint8_t **fit,
				 size_t *len, bool *tainted, struct vfit_boot_event *why)
{
	unsigned int stage = why->stage, at = stage - 1;
	const struct vfit_image *k;
	enum vfit_walk w;
	uint64_t addr, t0 = now(r);
	bool by_user;

	w = stage_in(r, c, stage, VFIT_BOOT_OBJ_STAGE, &addr, len, why);
	tick(r, at, VFIT_BOOT_T_READ, &t0);
	if (w)
		return w;
	*fit = vfit_boot_host_(r, addr, *len);
	stage_event(r, why, addr, *len);
	if (!preload(*ctl, fit, len, &addr, why))
		return VFIT_WALK_REJECT;
	keys_event(r, why, VFIT_KEYS_STAGE, *ctl, o);
	if (f->dev && f->user)
		keys_event(r, why, VFIT_KEYS_USER, f->user, o);
	if (!verify(r, f, *fit, *len, *ctl, *ctl_len, o, &by_user, why)) {
		tick(r, at, VFIT_BOOT_T_VERIFY, &t0);
		return VFIT_WALK_REJECT;
	}
	tick(r, at, VFIT_BOOT_T_VERIFY, &t0);
	if (r->rep->timings)
		r->rep->timings->bytes_verified += *len;
	/* Keys that came through a user key make everything after them the user's. */
	*tainted |= by_user;
	k = vfit_boot_image_(&r->s->res, "kernel");
	w = rollback(r, *fit, at, k != NULL, false, *tainted, why);
	if (w)
		return w;
	r->s->ncounters = stage;
	if (!authenticated(r, why))
		return VFIT_WALK_REJECT;
	vfit_boot_note_stage_(r, at, *fit, *ctl, *ctl_len);
	vfit_boot_stage_digest_(r, at, *fit);
	if (k) {
		r->s->nstages = stage;
		w = final_stage(r, k, load, addr, "kernel", why);
		tick(r, at, VFIT_BOOT_T_LOAD, &t0);
		return w;
	}
	if (!hand_over(r, load ? addr : 0, ctl, ctl_len, why))
		return VFIT_WALK_REJECT;
	tick(r, at, VFIT_BOOT_T_LOAD, &t0);
	o->stage = stage;
	o->fdt = vfit_boot_image_(&r->s->res, "fdt")->name;
	o->by_user = by_user;
	return VFIT_WALK_OK;
}

enum vfit_walk vfit_boot_walk_(struct vfit_run *r, const struct vfit_flow *f,
			      const struct vfit_stages *c, bool load,
			      const uint8_t *stage_fit[VFIT_BOOT_MAX_STAGES],
			      size_t stage_len[VFIT_BOOT_MAX_STAGES])
{
	struct vfit_origin o = { 0, NULL, false };
	const void *ctl = f->rom;
	size_t ctl_len = f->rom_len;
	struct vfit_boot_event why;
	enum vfit_walk w;
	unsigned int stage;
	bool tainted = false;

	r->s->ncounters = 0;
	r->s->nstages = 0;
	r->more = vfit_boot_more_hashes_(r, load);
	for (stage = 1; stage <= VFIT_BOOT_MAX_STAGES; stage++) {
		vfit_ev_init_(&why, VFIT_EV_FAIL, c->id, stage);
		w = walk_stage(r, f, c, load, &o, &ctl, &ctl_len, &stage_fit[stage - 1],
			       &stage_len[stage - 1], &tainted, &why);
		r->s->tainted = tainted;
		if (w)
			vfit_ev_fail_(r, &why, why.why);
		if (!w && r->s->nstages)
			vfit_boot_chain_digest_(r);
		if (w || r->s->nstages)
			return w;
	}
	vfit_ev_init_(&why, VFIT_EV_FAIL, c->id, 0);
	why.value = VFIT_BOOT_MAX_STAGES;
	vfit_ev_fail_(r, &why, VFIT_WHY_CHAIN_TOO_LONG);
	return VFIT_WALK_REJECT;
}

enum vfit_walk vfit_boot_recovery_(struct vfit_run *r, const struct vfit_flow *f, bool load)
{
	static const struct vfit_stages rec = { VFIT_CHAIN_RECOVERY, 0, 0, 0, NULL, NULL };
	static const struct vfit_origin rom = { 0, NULL, false };
	const unsigned int ts = VFIT_BOOT_MAX_STAGES;
	const struct vfit_image *k;
	struct vfit_boot_event why;
	enum vfit_walk w;
	uint64_t addr, t0 = now(r);
	size_t len;
	const uint8_t *fit;

	r->s->ncounters = 0;
	r->s->tainted = false;
	r->more = vfit_boot_more_hashes_(r, load);
	vfit_ev_init_(&why, VFIT_EV_FAIL, VFIT_CHAIN_RECOVERY, 0);
	if (!f->recovery) {
		vfit_ev_fail_(r, &why, VFIT_WHY_NO_RECOVERY_KEY);
		return VFIT_WALK_REJECT;
	}
	w = stage_in(r, &rec, 0, VFIT_BOOT_OBJ_RECOVERY, &addr, &len, &why);
	tick(r, ts, VFIT_BOOT_T_READ, &t0);
	if (w) {
		vfit_ev_fail_(r, &why, why.why);
		return w;
	}
	fit = vfit_boot_host_(r, addr, len);
	if (!preload(f->recovery, &fit, &len, &addr, &why)) {
		vfit_ev_fail_(r, &why, why.why);
		return VFIT_WALK_REJECT;
	}
	keys_event(r, &why, VFIT_KEYS_RECOVERY, f->recovery, &rom);
	/* Recovery trusts key-recovery alone: no user keys, whatever the switch. */
	if (verify_one(r, &why, fit, len, f->recovery, f->recovery_len, VFIT_KEYS_RECOVERY, &rom,
		       &why.v)) {
		why.keys = VFIT_KEYS_RECOVERY;
		vfit_ev_fail_(r, &why, VFIT_WHY_VERIFY);
		return VFIT_WALK_REJECT;
	}
	tick(r, ts, VFIT_BOOT_T_VERIFY, &t0);
	if (r->rep->timings)
		r->rep->timings->bytes_verified += len;
	k = vfit_boot_image_(&r->s->res, "kernel");
	if (!k) {
		vfit_ev_fail_(r, &why, VFIT_WHY_NO_KERNEL);
		return VFIT_WALK_REJECT;
	}
	w = rollback(r, fit, 0, true, true, false, &why);
	r->s->ncounters = 1;
	if (!w && !authenticated(r, &why))
		w = VFIT_WALK_REJECT;
	if (!w) {
		vfit_boot_note_stage_(r, 0, fit, f->recovery, f->recovery_len);
		vfit_boot_stage_digest_(r, 0, fit);
		w = final_stage(r, k, load, addr, "recovery kernel", &why);
	}
	tick(r, ts, VFIT_BOOT_T_LOAD, &t0);
	if (w) {
		vfit_ev_fail_(r, &why, why.why);
		return w;
	}
	r->s->nstages = 1;
	vfit_boot_chain_digest_(r);
	return VFIT_WALK_OK;
}
