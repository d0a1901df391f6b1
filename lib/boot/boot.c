/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The boot flow's commands: one power-on (vfit_boot_run), the OS's
 * confirmation (vfit_boot_mark_good) and a field update (vfit_boot_update).
 *
 * Invariant kept by every sequence of durable writes below: at any point a
 * power cut may strike, one slot holds a chain that verifies and that the
 * state does not mark bad, or recovery remains.  The running (good) slot is
 * never written; the other slot is marked bad before its first byte changes
 * and is offered for a trial only after it has been written, read back and
 * verified in full.
 */
#include <string.h>

#include "boot_int.h"

/* Character arrays, not pointers: no relocated data in the library. */
static const char slot_label[VFIT_BOOT_SLOTS][7] = { "slot A", "slot B" };

void vfit_boot_init(struct vfit_boot *b, const struct vfit_boot_ops *ops)
{
	memset(b, 0, sizeof(*b));
	b->ops = ops;
	b->slot = VFIT_BOOT_NONE;
	vfit_boot_state_default(&b->state);
}

static void say2(const struct vfit_boot *b, const char *a, const char *c)
{
	struct vfit_line l;

	vfit_line_init(&l);
	vfit_line_str(&l, a);
	vfit_line_str(&l, c);
	vfit_line_print(b, &l);
}

/* ---- platform checks and state ---------------------------------------- */

static bool layout_ok(const struct vfit_boot_ops *o)
{
	if (!o->read || !o->state_read || !o->state_write || !o->print || !o->ram ||
	    !o->ram_size || o->ram_base + o->ram_size < o->ram_base)
		return false;
	if (!vfit_boot_within(o->loader_addr, o->loader_size, o->ram_base, o->ram_size) ||
	    !vfit_boot_within(o->fit_addr, o->fit_size, o->ram_base, o->ram_size) ||
	    o->loader_size < VFIT_WS_SIZE || (o->fit_addr - o->ram_base) % VFIT_BOOT_PAGE ||
	    (o->loader_addr - o->ram_base) % VFIT_BOOT_PAGE)
		return false;
	return o->fit_addr + o->fit_size <= o->loader_addr ||
	       o->loader_addr + o->loader_size <= o->fit_addr;
}

static void state_load(struct vfit_boot *b)
{
	const struct vfit_boot_ops *o = b->ops;
	uint8_t buf[VFIT_BOOT_STATE_SIZE + 1];
	size_t len = 0;
	int rc = o->state_read(o->plat, buf, sizeof(buf), &len);

	vfit_boot_state_default(&b->state);
	if (rc == VFIT_BOOT_IO_ABSENT)
		vfit_boot_say(b, "State: none stored yet (both slots good, slot A first)");
	else if (rc || vfit_boot_state_decode(buf, len, &b->state))
		vfit_boot_say(b, "State: unreadable or corrupted, starting from the default "
				 "(slots are verified anyway)");
}

static int state_save(struct vfit_boot *b)
{
	const struct vfit_boot_ops *o = b->ops;
	uint8_t buf[VFIT_BOOT_STATE_SIZE];

	b->state.seq++;
	vfit_boot_state_encode(&b->state, buf);
	return o->state_write(o->plat, buf, sizeof(buf)) ? -1 : 0;
}

static void print_slots(const struct vfit_boot *b)
{
	struct vfit_line l;
	unsigned int i;

	vfit_line_init(&l);
	vfit_line_str(&l, "State:");
	for (i = 0; i < VFIT_BOOT_SLOTS; i++) {
		vfit_line_str(&l, i ? ", " : " ");
		vfit_line_str(&l, slot_label[i]);
		vfit_line_str(&l, " ");
		vfit_line_str(&l, vfit_boot_slot_status_name(b->state.status[i]));
		if (b->state.status[i] == VFIT_SLOT_TRYING) {
			vfit_line_str(&l, " (");
			vfit_line_u32(&l, b->state.tries[i]);
			vfit_line_str(&l, " attempts left)");
		}
	}
	vfit_line_str(&l, "; ");
	vfit_line_str(&l, slot_label[b->state.active]);
	vfit_line_str(&l, " first");
	vfit_line_print(b, &l);
}

/* ---- keys -------------------------------------------------------------- */

/* Reads a key DTB into the loader region; 0 ok, 1 absent, -1 unusable. */
static int read_dtb(struct vfit_boot *b, enum vfit_boot_obj obj, uint32_t off, size_t *len)
{
	const struct vfit_boot_ops *o = b->ops;
	int rc = o->read(o->plat, obj, 0, 0, vfit_boot_ram(b, o->loader_addr + off),
			 VFIT_WS_DTB_MAX, len);

	if (rc == VFIT_BOOT_IO_ABSENT)
		return 1;
	if (rc || *len > VFIT_WS_DTB_MAX ||
	    vfit_control_check(vfit_boot_ram(b, b->ops->loader_addr + off), *len, NULL))
		return -1;
	return 0;
}

static const uint8_t *view(struct vfit_boot *b, uint32_t src, uint32_t dst,
			   enum vfit_keyview kind, size_t *len)
{
	uint8_t *out = vfit_boot_ram(b, b->ops->loader_addr + dst);

	if (vfit_boot_keyview(out, VFIT_WS_VIEW_MAX, vfit_boot_ram(b, b->ops->loader_addr + src),
			      kind, len))
		return NULL;
	return out;
}

/*
 * Everything a command needs before touching a slot: the platform layout,
 * the state, the ROM keys and (developer mode) the user keys.
 */
static int setup(struct vfit_boot *b, struct vfit_flow *f)
{
	const struct vfit_boot_ops *o = b->ops;
	struct vfit_line l;
	size_t len;
	int rc;

	memset(f, 0, sizeof(*f));
	if (!layout_ok(o))
		return -1;
	vfit_boot_ranges_reset(b);
	state_load(b);
	if (read_dtb(b, VFIT_BOOT_OBJ_ROM, VFIT_WS_ROM, &len)) {
		vfit_line_init(&l);
		vfit_line_str(&l, "ROM: control DTB missing or malformed");
		vfit_boot_reason(b, &l);
		return 1;
	}
	f->rom = view(b, VFIT_WS_ROM, VFIT_WS_VIEW_ROM, VFIT_VIEW_BUILT_IN, &f->rom_len);
	f->recovery = view(b, VFIT_WS_ROM, VFIT_WS_VIEW_REC, VFIT_VIEW_RECOVERY, &f->recovery_len);
	if (!f->rom || !f->recovery)
		return -1;
	if (!vfit_boot_key_count(f->recovery))
		f->recovery = NULL;
	f->dev = o->dev_mode && o->dev_mode(o->plat);
	rc = read_dtb(b, VFIT_BOOT_OBJ_USER_KEYS, VFIT_WS_USER, &len);
	if (!f->dev) {
		vfit_boot_say(b, rc == 1 ? "Developer mode: off" :
				  "Developer mode: off (user key store ignored)");
		return 0;
	}
	if (rc) {
		vfit_boot_say(b, rc == 1 ? "Developer mode: ON, no user key store" :
				  "Developer mode: ON, user key store unusable (ignored)");
		return 0;
	}
	f->user = view(b, VFIT_WS_USER, VFIT_WS_VIEW_USER, VFIT_VIEW_USER, &f->user_len);
	if (!f->user || !vfit_boot_key_count(f->user)) {
		vfit_boot_say(b, "Developer mode: ON, user key store holds no keys");
		f->user = NULL;
		return 0;
	}
	vfit_boot_say(b, "Developer mode: ON -- user-installed keys are trusted in addition "
			 "to the built-in keys");
	return 0;
}

/* ---- one power-on ---------------------------------------------------- */

static void slot_reason(struct vfit_boot *b, unsigned int s, const char *what)
{
	struct vfit_line l;

	vfit_line_init(&l);
	vfit_line_str(&l, slot_label[s]);
	vfit_line_str(&l, ": ");
	vfit_line_str(&l, what);
	vfit_boot_reason(b, &l);
}

static void mark_bad(struct vfit_boot *b, unsigned int s)
{
	b->state.status[s] = VFIT_SLOT_BAD;
	b->state.tries[s] = 0;
	if (b->state.active == s)
		b->state.active = (uint8_t)(VFIT_BOOT_SLOTS - 1 - s);
	if (state_save(b))
		vfit_boot_say(b, "   (state write failed: slot not marked bad)");
	else
		say2(b, "   Marked bad: ", slot_label[s]);
}

/* Returns true when slot s verified and is loaded. */
static bool try_slot(struct vfit_boot *b, const struct vfit_flow *f, unsigned int s)
{
	struct vfit_chain c = { s, 0, 0, NULL, NULL, slot_label[s] };
	const uint8_t *fit[VFIT_BOOT_MAX_STAGES];
	size_t len[VFIT_BOOT_MAX_STAGES];
	struct vfit_boot_state *st = &b->state;
	enum vfit_walk w;

	if (st->status[s] == VFIT_SLOT_BAD) {
		slot_reason(b, s, "marked bad by an earlier boot");
		return false;
	}
	if (st->status[s] == VFIT_SLOT_TRYING && !st->tries[s]) {
		slot_reason(b, s, "no boot attempts left (never confirmed with mark-good)");
		mark_bad(b, s);
		return false;
	}
	say2(b, "## Trying ", slot_label[s]);
	vfit_boot_ranges_reset(b);
	w = vfit_boot_walk(b, f, &c, true, fit, len);
	if (w == VFIT_WALK_REJECT)
		mark_bad(b, s);
	if (w)
		return false;
	if (st->status[s] == VFIT_SLOT_TRYING || st->booted != s) {
		if (st->status[s] == VFIT_SLOT_TRYING)
			st->tries[s]--;
		st->booted = (uint8_t)s;
		/* A trial that cannot be counted must not run: it could loop forever. */
		if (state_save(b) && st->status[s] == VFIT_SLOT_TRYING) {
			slot_reason(b, s, "state write failed, trial boot not counted");
			return false;
		}
	}
	/*
	 * No counter moves here, not even for a good slot: "good" comes from
	 * the state blob, which storage can forge and which defaults to "both
	 * good" when corrupted -- an unconfirmed new image would then lock the
	 * old one out.  Only the OS's mark-good advances counters.
	 */
	if (st->status[s] == VFIT_SLOT_TRYING) {
		struct vfit_line l;

		vfit_line_init(&l);
		vfit_line_str(&l, "   ");
		vfit_line_str(&l, slot_label[s]);
		vfit_line_str(&l, " is on trial: ");
		vfit_line_u32(&l, st->tries[s]);
		vfit_line_str(&l, " attempts left after this boot; run mark-good to confirm");
		vfit_line_print(b, &l);
	}
	return true;
}

static void start_line(struct vfit_boot *b, const char *what)
{
	struct vfit_line l;

	vfit_line_init(&l);
	vfit_line_str(&l, what);
	vfit_line_hex(&l, b->entry);
	vfit_line_str(&l, ", fdt ");
	if (b->has_fdt)
		vfit_line_hex(&l, b->fdt_addr);
	else
		vfit_line_str(&l, "none");
	vfit_line_str(&l, ", ramdisk ");
	if (b->has_ramdisk)
		vfit_line_hex(&l, b->ramdisk_addr);
	else
		vfit_line_str(&l, "none");
	vfit_line_str(&l, " ...");
	vfit_line_print(b, &l);
}

/* Lists every reason recorded so far; returns 1. */
static int halt_reasons(struct vfit_boot *b)
{
	struct vfit_line l;
	unsigned int i;

	for (i = 0; i < b->nreasons; i++) {
		vfit_line_init(&l);
		vfit_line_str(&l, "   - ");
		vfit_line_str(&l, b->reason[i]);
		vfit_line_print(b, &l);
	}
	return 1;
}

static enum vfit_boot_outcome halt(struct vfit_boot *b)
{
	vfit_boot_say(b, "## Halting: nothing verified. Reasons:");
	halt_reasons(b);
	return VFIT_BOOT_HALT;
}

enum vfit_boot_outcome vfit_boot_run(struct vfit_boot *b)
{
	struct vfit_flow f;
	unsigned int i, s, first;
	int rc = setup(b, &f);

	if (rc < 0)
		return VFIT_BOOT_FAILED;
	if (rc)
		return halt(b);
	print_slots(b);
	/* The order is fixed up front: marking a slot bad moves `active`. */
	first = b->state.active;
	for (i = 0; i < VFIT_BOOT_SLOTS; i++) {
		s = (first + i) % VFIT_BOOT_SLOTS;
		if (try_slot(b, &f, s)) {
			b->slot = s;
			start_line(b, "Starting kernel at ");
			return VFIT_BOOT_KERNEL;
		}
	}
	vfit_boot_say(b, "## No slot verified: trying RECOVERY");
	vfit_boot_ranges_reset(b);
	if (vfit_boot_recovery(b, &f) == VFIT_WALK_OK) {
		if (b->state.booted != VFIT_BOOT_NONE) {
			b->state.booted = VFIT_BOOT_NONE;
			state_save(b);
		}
		start_line(b, "Starting RECOVERY kernel at ");
		return VFIT_BOOT_RECOVERY;
	}
	return halt(b);
}

/* ---- confirmation ------------------------------------------------------ */

int vfit_boot_mark_good(struct vfit_boot *b)
{
	struct vfit_flow f;
	const uint8_t *fit[VFIT_BOOT_MAX_STAGES];
	size_t len[VFIT_BOOT_MAX_STAGES];
	struct vfit_chain c;
	unsigned int s;
	int rc = setup(b, &f);

	if (rc)
		return rc < 0 ? 2 : 1;
	s = b->state.booted;
	if (s == VFIT_BOOT_NONE) {
		vfit_boot_say(b, "mark-good: no slot was booted (none yet, or recovery)");
		return 1;
	}
	if (b->state.status[s] == VFIT_SLOT_BAD) {
		say2(b, "mark-good: refused, marked bad: ", slot_label[s]);
		return 1;
	}
	/* Counters may only move to indexes that verify now. */
	memset(&c, 0, sizeof(c));
	c.slot = s;
	c.label = slot_label[s];
	vfit_boot_ranges_reset(b);
	if (vfit_boot_walk(b, &f, &c, false, fit, len)) {
		say2(b, "mark-good: refused, chain no longer verifies: ", slot_label[s]);
		return 1;
	}
	if (b->state.status[s] == VFIT_SLOT_TRYING) {
		b->state.status[s] = VFIT_SLOT_GOOD;
		b->state.tries[s] = 0;
		if (state_save(b))
			return 2;
	}
	if (vfit_boot_advance(b))
		return 2;
	say2(b, "mark-good: confirmed good: ", slot_label[s]);
	return 0;
}

/* ---- field update ------------------------------------------------------ */

/*
 * Where the new FITs go: the first stage position at which cur's chain
 * with fit[0..n) put in verifies completely (quietly; the reasons of every
 * attempt are kept for the refusal).  0 if there is none.
 */
static unsigned int update_position(struct vfit_boot *b, const struct vfit_flow *f,
				    struct vfit_chain *c)
{
	const uint8_t *sfit[VFIT_BOOT_MAX_STAGES];
	size_t slen[VFIT_BOOT_MAX_STAGES];
	unsigned int pos;

	b->quiet = true;
	for (pos = 1; pos + c->n - 1 <= VFIT_BOOT_MAX_STAGES; pos++) {
		c->first = pos;
		vfit_boot_ranges_reset(b);
		/* Every new FIT must be used: none may sit after the kernel. */
		if (!vfit_boot_walk(b, f, c, false, sfit, slen) && b->nstages >= pos + c->n - 1)
			break;
	}
	b->quiet = false;
	return pos + c->n - 1 <= VFIT_BOOT_MAX_STAGES ? pos : 0;
}

static int refuse(struct vfit_boot *b, const char *a, const char *c)
{
	struct vfit_line l;

	vfit_line_init(&l);
	vfit_line_str(&l, "update: refused: ");
	vfit_line_str(&l, a);
	vfit_line_str(&l, c);
	vfit_boot_reason(b, &l);
	return 1;
}

static int write_slot(struct vfit_boot *b, unsigned int target, const uint8_t *const fit[],
		      const size_t len[], unsigned int n)
{
	const struct vfit_boot_ops *o = b->ops;
	unsigned int k;

	if (!o->write)
		return -1;
	for (k = 1; k <= VFIT_BOOT_MAX_STAGES; k++)
		if (o->write(o->plat, target, k, k <= n ? fit[k - 1] : NULL,
			     k <= n ? len[k - 1] : 0))
			return -1;
	return 0;
}

int vfit_boot_update(struct vfit_boot *b, const void *const fit[], const size_t len[],
		     unsigned int n)
{
	const uint8_t *sfit[VFIT_BOOT_MAX_STAGES];
	size_t slen[VFIT_BOOT_MAX_STAGES];
	struct vfit_chain c;
	struct vfit_flow f;
	struct vfit_line l;
	unsigned int cur, target, pos;
	int rc = setup(b, &f);

	if (rc)
		return rc < 0 ? 2 : 1;
	if (!n || n > VFIT_BOOT_MAX_STAGES)
		return refuse(b, "give 1 to 4 FITs", "");
	/*
	 * cur: the confirmed slot the device runs (the source of the stages
	 * not replaced), kept as the fallback; the update goes to the other.
	 * With no good slot at all (the device runs recovery) the active
	 * slot is repaired in place: there is no fallback to protect.
	 */
	cur = b->state.booted != VFIT_BOOT_NONE ? b->state.booted : b->state.active;
	if (b->state.status[cur] == VFIT_SLOT_TRYING)
		return refuse(b, slot_label[cur],
			      " is not confirmed good (run mark-good after booting it)");
	if (b->state.status[cur] == VFIT_SLOT_BAD && b->state.status[1 - cur] == VFIT_SLOT_GOOD)
		cur = 1 - cur;
	target = b->state.status[cur] == VFIT_SLOT_GOOD ? 1 - cur : cur;
	if (target == cur)
		say2(b, "update: no good slot: repairing ", slot_label[cur]);
	c.slot = cur;
	c.n = n;
	c.fit = fit;
	c.len = len;
	c.label = "new chain";
	pos = update_position(b, &f, &c);
	if (!pos) {
		vfit_boot_say(b, "update: refused: the new chain verifies at no stage position:");
		return halt_reasons(b);
	}
	vfit_line_init(&l);
	vfit_line_str(&l, "update: the new FIT");
	vfit_line_str(&l, n > 1 ? "s replace stages " : " replaces stage ");
	vfit_line_u32(&l, pos);
	if (n > 1) {
		vfit_line_str(&l, "..");
		vfit_line_u32(&l, pos + n - 1);
	}
	vfit_line_str(&l, " of ");
	vfit_line_str(&l, slot_label[cur]);
	vfit_line_print(b, &l);

	/* 1. The complete new chain, verified again with its console log. */
	c.first = pos;
	b->nreasons = 0;
	vfit_boot_ranges_reset(b);
	if (vfit_boot_walk(b, &f, &c, false, sfit, slen))
		return refuse(b, "the new chain does not verify", "");

	/* 2. Target out of service before its first byte changes. */
	if (b->state.status[target] != VFIT_SLOT_BAD ||
	    (target != cur && b->state.active != cur)) {
		b->state.status[target] = VFIT_SLOT_BAD;
		b->state.tries[target] = 0;
		if (target != cur)
			b->state.active = (uint8_t)cur;
		if (state_save(b))
			return 2;
	}
	/* 3. Stage by stage, each replaced atomically, from the staging area. */
	say2(b, "update: writing ", slot_label[target]);
	if (write_slot(b, target, sfit, slen, b->nstages))
		return 2;
	/* 4. Read back and verify what the target now holds. */
	memset(&c, 0, sizeof(c));
	c.slot = target;
	c.label = slot_label[target];
	vfit_boot_ranges_reset(b);
	if (vfit_boot_walk(b, &f, &c, false, sfit, slen))
		return refuse(b, slot_label[target], " does not verify after writing");
	/* 5. Offer it for a trial; the confirmed slot stays as the fallback. */
	b->state.status[target] = VFIT_SLOT_TRYING;
	b->state.tries[target] = VFIT_BOOT_TRIES;
	b->state.active = (uint8_t)target;
	if (state_save(b))
		return 2;
	vfit_line_init(&l);
	vfit_line_str(&l, "update: ");
	vfit_line_str(&l, slot_label[target]);
	vfit_line_str(&l, " will be tried next (");
	vfit_line_u32(&l, VFIT_BOOT_TRIES);
	vfit_line_str(&l, " attempts); ");
	vfit_line_str(&l, target != cur ? slot_label[cur] : "recovery");
	vfit_line_str(&l, " stays as the fallback");
	vfit_line_print(b, &l);
	return 0;
}
