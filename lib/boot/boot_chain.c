/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The chain of trust.  Stage 1 is verified with the ROM's built-in keys;
 * a stage whose configuration names a `firmware` and an `fdt` image hands
 * over to the next stage, whose FIT is verified with the keys of that
 * verified fdt; the stage whose configuration names a `kernel` is the last.
 * Each FIT is read into the staging area, verified in place, and only then
 * are its images copied (or decompressed) to their load addresses.
 */
#include <string.h>

#include <libfdt.h>

#include "boot_int.h"

static uint64_t now(const struct vfit_boot *b)
{
	return b->ops->now_ns ? b->ops->now_ns(b->ops->plat) : 0;
}

static void tick(struct vfit_boot *b, unsigned int stage, enum vfit_boot_phase ph,
		 uint64_t *t0)
{
	uint64_t t = now(b);

	b->t[stage][ph] += t - *t0;
	*t0 = t;
}

/* "slot A stage 2: " in front of every reason. */
static void where(struct vfit_line *l, const struct vfit_chain *c, unsigned int stage)
{
	vfit_line_str(l, c->label);
	if (stage) {
		vfit_line_str(l, " stage ");
		vfit_line_u32(l, stage);
	}
	vfit_line_str(l, ": ");
}

/* ---- console lines of one verification ------------------------------- */

static void print_conf_checks(const struct vfit_boot *b)
{
	const struct vfit_verify_result *res = &b->res;
	const struct vfit_check *k;
	struct vfit_line l;
	unsigned int i, n = 0;
	bool ok = false;

	vfit_line_init(&l);
	vfit_line_str(&l, "   Verifying Hash Integrity ... ");
	for (i = 0; i < res->nchecks; i++) {
		k = &res->check[i];
		if (k->kind != VFIT_CHECK_CONF_SIG)
			continue;
		ok |= k->result == VFIT_OK;
		vfit_line_str(&l, k->algo);
		vfit_line_str(&l, ":");
		vfit_line_str(&l, k->key_name);
		vfit_line_str(&l, k->result ? "- " : "+ ");
		n++;
	}
	if (!n)
		return;
	vfit_line_str(&l, ok && res->result != VFIT_ERR_REQUIRED ? "OK" : "error!");
	vfit_line_print(b, &l);
}

static void print_image_checks(const struct vfit_boot *b, const char *image)
{
	const struct vfit_verify_result *res = &b->res;
	const struct vfit_check *k;
	struct vfit_line l;
	bool bad = false;
	unsigned int i;

	vfit_line_init(&l);
	vfit_line_str(&l, "   Verifying Hash Integrity ... ");
	for (i = 0; i < res->nchecks; i++) {
		k = &res->check[i];
		if (k->kind == VFIT_CHECK_CONF_SIG || !k->image || strcmp(k->image, image))
			continue;
		vfit_line_str(&l, k->algo);
		if (k->kind == VFIT_CHECK_IMAGE_SIG) {
			vfit_line_str(&l, ":");
			vfit_line_str(&l, k->key_name);
		}
		vfit_line_str(&l, k->result ? "- " : "+ ");
		bad |= k->result && (k->required || k->kind == VFIT_CHECK_HASH);
	}
	vfit_line_str(&l, bad ? "error!" : "OK");
	vfit_line_print(b, &l);
}

/* The U-Boot-like block for the result in b->res. */
static void print_result(const struct vfit_boot *b)
{
	const struct vfit_verify_result *res = &b->res;
	const char *seen[VFIT_MAX_CHECKS];
	unsigned int i, j, nseen = 0;
	struct vfit_line l;

	if (res->conf) {
		vfit_line_init(&l);
		vfit_line_str(&l, "   Using '");
		vfit_line_str(&l, res->conf);
		vfit_line_str(&l, "' configuration");
		vfit_line_print(b, &l);
	}
	print_conf_checks(b);
	for (i = 0; i < res->nchecks; i++) {
		const char *img = res->check[i].image;

		if (res->check[i].kind == VFIT_CHECK_CONF_SIG || !img)
			continue;
		for (j = 0; j < nseen && strcmp(seen[j], img); j++)
			;
		if (j < nseen)
			continue;
		seen[nseen++] = img;
		vfit_line_init(&l);
		vfit_line_str(&l, "   Trying '");
		vfit_line_str(&l, img);
		vfit_line_str(&l, "' subimage");
		vfit_line_print(b, &l);
		print_image_checks(b, img);
	}
}

/* "<error> at <path>[ <prop>]" for a failed verification. */
static void why_verify(struct vfit_line *l, const struct vfit_verify_result *res,
		       const char *keys)
{
	vfit_line_str(l, vfit_result_to_string(res->result));
	if (res->err_path[0]) {
		vfit_line_str(l, res->in_control ? " in " : " at ");
		if (res->in_control) {
			vfit_line_str(l, keys);
			vfit_line_str(l, " ");
		}
		vfit_line_str(l, res->err_path);
		if (res->err_prop) {
			vfit_line_str(l, " ");
			vfit_line_str(l, res->err_prop);
		}
	}
	if (res->conf && res->result != VFIT_ERR_NO_CONFIG) {
		vfit_line_str(l, " (configuration '");
		vfit_line_str(l, res->conf);
		vfit_line_str(l, "')");
	}
}

/*
 * Built-in keys first, with their own policy; when that fails and the
 * developer-mode switch is open, the user keys as a second, independent
 * policy.  The union of the two is what "in addition" means: nothing the
 * built-in policy accepts is refused, and nothing is accepted without a
 * signature from a trusted key on the configuration.
 */
static bool verify(struct vfit_boot *b, const struct vfit_flow *f, const uint8_t *fit,
		   size_t len, const void *ctl, size_t ctl_len, const char *keys,
		   bool *by_user, struct vfit_line *why)
{
	struct vfit_line l;

	*by_user = false;
	if (vfit_verify(fit, len, ctl, ctl_len, NULL, 0, &b->res) == VFIT_OK) {
		print_result(b);
		return true;
	}
	print_result(b);
	vfit_line_init(&l);
	vfit_line_str(&l, "   ");
	why_verify(&l, &b->res, keys);
	vfit_line_print(b, &l);
	why_verify(why, &b->res, keys);
	if (!f->dev || !f->user)
		return false;
	vfit_boot_say(b, "   Built-in keys refused it; trying the user keys (developer mode)");
	if (vfit_verify(fit, len, f->user, f->user_len, NULL, 0, &b->res) != VFIT_OK) {
		print_result(b);
		vfit_line_str(why, "; user keys: ");
		why_verify(why, &b->res, "the user key store");
		return false;
	}
	print_result(b);
	vfit_boot_say(b, "   Accepted with a USER key (developer mode)");
	*by_user = true;
	return true;
}

/* ---- rollback ---------------------------------------------------------- */

bool vfit_counter_name_valid(const char *s, size_t len)
{
	size_t i;

	if (!len || len >= VFIT_BOOT_COUNTER_NAME)
		return false;
	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '-' || s[i] == '_' || s[i] == '.'))
			return false;
	return true;
}

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
 * rollback-index of the selected configuration, trusted only when a
 * configuration signature covered it (fit-format.md §11.2); checked against the
 * stored counter of its name.  A counter that cannot be read blocks the
 * boot as VFIT_WALK_IO: the store failed, not the slot, so the slot must
 * not be marked bad for it (a passing TPM fault would otherwise leave the
 * device on recovery for good).
 */
static enum vfit_walk rollback(struct vfit_boot *b, const uint8_t *fit,
			       struct vfit_boot_counter *c, unsigned int stage, bool final,
			       bool recovery, struct vfit_line *why)
{
	const struct vfit_boot_ops *o = b->ops;
	int node = b->res.conf_node, len;
	const char *name = fdt_getprop(fit, node, "rollback-counter", &len);
	const uint8_t *idx;
	struct vfit_line l;

	memset(c, 0, sizeof(*c));
	default_name(c->name, stage, final, recovery);
	if (name) {
		if (len < 1 || name[len - 1] || !vfit_counter_name_valid(name, (size_t)len - 1)) {
			vfit_line_str(why, "rollback-counter must be 1..31 characters of [A-Za-z0-9._-]");
			return VFIT_WALK_REJECT;
		}
		memcpy(c->name, name, (size_t)len);
	}
	idx = fdt_getprop(fit, node, "rollback-index", &len);
	if (idx && len != 4) {
		vfit_line_str(why, "rollback-index must be one 32-bit cell");
		return VFIT_WALK_REJECT;
	}
	vfit_line_init(&l);
	if (idx && b->res.conf_verified)
		c->index = fdt32_ld((const fdt32_t *)idx);
	else if (idx)
		vfit_boot_say(b, "   rollback-index ignored: no configuration signature covers it");
	if (o->counter_read) {
		if (o->counter_read(o->plat, c->name, &c->counter)) {
			vfit_line_str(why, "rollback counter '");
			vfit_line_str(why, c->name);
			vfit_line_str(why, "' cannot be read (refusing to guess)");
			return VFIT_WALK_IO;
		}
		c->has_counter = true;
		if (c->index < c->counter) {
			vfit_line_str(why, "rollback index ");
			vfit_line_u32(why, c->index);
			vfit_line_str(why, " < counter ");
			vfit_line_u32(why, c->counter > UINT32_MAX ? UINT32_MAX : (uint32_t)c->counter);
			vfit_line_str(why, " for '");
			vfit_line_str(why, c->name);
			vfit_line_str(why, "'");
			return VFIT_WALK_REJECT;
		}
	}
	vfit_line_str(&l, "   Rollback index ");
	vfit_line_u32(&l, c->index);
	if (c->has_counter) {
		vfit_line_str(&l, " >= counter ");
		vfit_line_u32(&l, (uint32_t)c->counter);
	} else {
		vfit_line_str(&l, " (no counter store)");
	}
	vfit_line_str(&l, " for '");
	vfit_line_str(&l, c->name);
	vfit_line_str(&l, "' OK");
	vfit_line_print(b, &l);
	return VFIT_WALK_OK;
}

int vfit_boot_advance(struct vfit_boot *b)
{
	const struct vfit_boot_ops *o = b->ops;
	struct vfit_boot_counter *c;
	struct vfit_line l;
	uint64_t cur;
	unsigned int i;

	if (!o->counter_read || !o->counter_advance)
		return 0;
	for (i = 0; i < b->ncounters; i++) {
		c = &b->counter[i];
		/* Re-read: two stages may share a counter name. */
		if (o->counter_read(o->plat, c->name, &cur))
			return -1;
		if (c->index <= cur)
			continue;
		if (o->counter_advance(o->plat, c->name, c->index))
			return -1;
		vfit_line_init(&l);
		vfit_line_str(&l, "   Rollback counter '");
		vfit_line_str(&l, c->name);
		vfit_line_str(&l, "': ");
		vfit_line_u32(&l, (uint32_t)cur);
		vfit_line_str(&l, " -> ");
		vfit_line_u32(&l, c->index);
		vfit_line_print(b, &l);
	}
	return 0;
}

/* ---- staging ------------------------------------------------------------ */

static uint64_t staging_room(const struct vfit_boot *b)
{
	const struct vfit_boot_ops *o = b->ops;

	return o->fit_addr + o->fit_size - b->fit_next;
}

/*
 * Puts stage `stage` of the chain into the staging area (reserved as a
 * whole, so no image can lie there).  Returns its bus address through *addr.
 */
static enum vfit_walk stage_in(struct vfit_boot *b, const struct vfit_chain *c,
			       unsigned int stage, enum vfit_boot_obj obj, uint64_t *addr,
			       size_t *len, struct vfit_line *why)
{
	const struct vfit_boot_ops *o = b->ops;
	uint8_t *dst = vfit_boot_ram(b, b->fit_next);
	uint64_t room = staging_room(b);
	int rc;

	*addr = b->fit_next;
	if (obj == VFIT_BOOT_OBJ_STAGE && stage >= c->first && stage - c->first < c->n) {
		*len = c->len[stage - c->first];
		if (*len > room) {
			vfit_line_str(why, "FIT larger than the staging area");
			return VFIT_WALK_REJECT;
		}
		memcpy(dst, c->fit[stage - c->first], *len);
	} else {
		rc = o->read(o->plat, obj, obj == VFIT_BOOT_OBJ_STAGE ? c->slot : 0,
			     obj == VFIT_BOOT_OBJ_STAGE ? stage : 0, dst, (size_t)room, len);
		if (rc == VFIT_BOOT_IO_ABSENT) {
			vfit_line_str(why, "no FIT stored");
			return VFIT_WALK_REJECT;
		}
		if (rc == VFIT_BOOT_IO_BIG || (!rc && *len > room)) {
			vfit_line_str(why, "FIT larger than the staging area");
			return VFIT_WALK_REJECT;
		}
		if (rc) {
			vfit_line_str(why, "read error");
			return VFIT_WALK_IO;
		}
	}
	b->fit_next += (*len + VFIT_BOOT_PAGE - 1) & ~(uint64_t)(VFIT_BOOT_PAGE - 1);
	return VFIT_WALK_OK;
}

static void announce(const struct vfit_boot *b, const char *what, uint64_t addr)
{
	struct vfit_line l;

	vfit_line_init(&l);
	vfit_line_str(&l, "## Loading ");
	vfit_line_str(&l, what);
	vfit_line_str(&l, " from FIT Image at ");
	vfit_line_hex(&l, addr);
	vfit_line_str(&l, " ...");
	vfit_line_print(b, &l);
}

/*
 * A non-final stage (load_from: its FIT's address when images are to be
 * loaded, 0 to verify only): its firmware is the next stage's code (placed at its
 * load address) and its fdt the next stage's control DTB, whose keys
 * verify the next FIT.  The verified fdt is copied into the loader region
 * (aligned for libfdt) and used from there: it replaces the previous
 * stage's keys, which are no longer needed.
 */
static bool hand_over(struct vfit_boot *b, uint64_t load_from, const void **ctl,
		      size_t *ctl_len, struct vfit_line *why)
{
	const struct vfit_image *fw = vfit_boot_image(&b->res, "firmware");
	const struct vfit_image *dtb = vfit_boot_image(&b->res, "fdt");
	uint8_t *next;
	uint64_t size;

	if (!fw || !dtb) {
		vfit_line_str(why, "configuration '");
		vfit_line_str(why, b->res.conf);
		vfit_line_str(why, "' has neither a kernel nor a firmware and an fdt");
		return false;
	}
	next = vfit_boot_ram(b, b->ops->loader_addr + VFIT_WS_NEXT);
	if (dtb->size <= VFIT_WS_VIEW_MAX)
		memcpy(next, dtb->data, dtb->size);
	if ((dtb->compression && strcmp(dtb->compression, "none")) ||
	    dtb->size > VFIT_WS_VIEW_MAX || vfit_control_check(next, dtb->size, NULL)) {
		vfit_line_str(why, "fdt '");
		vfit_line_str(why, dtb->name);
		vfit_line_str(why, "' is not a usable control DTB");
		return false;
	}
	if (!fw->has_load) {
		vfit_line_str(why, "firmware '");
		vfit_line_str(why, fw->name);
		vfit_line_str(why, "' has no load address");
		return false;
	}
	if (load_from) {
		announce(b, "firmware", load_from);
		if (!vfit_boot_load_one(b, fw, why, &size) ||
		    (dtb->has_load && !vfit_boot_load_one(b, dtb, why, &size)))
			return false;
	}
	*ctl = next;
	*ctl_len = dtb->size;
	return true;
}

static void print_stage_keys(const struct vfit_boot *b, const struct vfit_flow *f,
			     const void *ctl, const char *origin)
{
	vfit_boot_print_keys(b, ctl, "Trusting key", origin);
	if (f->dev && f->user)
		vfit_boot_print_keys(b, f->user, "Also trusting user key",
				     "the user key store (developer mode)");
}

enum vfit_walk vfit_boot_walk(struct vfit_boot *b, const struct vfit_flow *f,
			      const struct vfit_chain *c, bool load,
			      const uint8_t *stage_fit[VFIT_BOOT_MAX_STAGES],
			      size_t stage_len[VFIT_BOOT_MAX_STAGES])
{
	const void *ctl = f->rom;
	size_t ctl_len = f->rom_len, len;
	struct vfit_line why, origin, l;
	const struct vfit_image *k;
	enum vfit_walk w;
	unsigned int stage;
	uint64_t addr, t0;
	bool by_user;

	vfit_line_init(&origin);
	vfit_line_str(&origin, "the ROM control DTB");
	b->ncounters = 0;
	for (stage = 1; stage <= VFIT_BOOT_MAX_STAGES; stage++) {
		vfit_line_init(&why);
		where(&why, c, stage);
		t0 = now(b);
		w = stage_in(b, c, stage, VFIT_BOOT_OBJ_STAGE, &addr, &len, &why);
		tick(b, stage - 1, VFIT_BOOT_T_READ, &t0);
		if (w) {
			vfit_boot_reason(b, &why);
			return w;
		}
		stage_fit[stage - 1] = vfit_boot_ram(b, addr);
		stage_len[stage - 1] = len;
		vfit_line_init(&l);
		vfit_line_str(&l, "## Checking FIT Image at ");
		vfit_line_hex(&l, addr);
		vfit_line_str(&l, " (");
		vfit_line_str(&l, c->label);
		vfit_line_str(&l, ", stage ");
		vfit_line_u32(&l, stage);
		vfit_line_str(&l, ")");
		vfit_line_print(b, &l);
		print_stage_keys(b, f, ctl, origin.s);
		if (!verify(b, f, stage_fit[stage - 1], len, ctl, ctl_len, origin.s, &by_user,
			    &why)) {
			tick(b, stage - 1, VFIT_BOOT_T_VERIFY, &t0);
			vfit_boot_reason(b, &why);
			return VFIT_WALK_REJECT;
		}
		tick(b, stage - 1, VFIT_BOOT_T_VERIFY, &t0);
		b->bytes_verified += len;
		k = vfit_boot_image(&b->res, "kernel");
		w = rollback(b, stage_fit[stage - 1], &b->counter[stage - 1], stage, k != NULL,
			     false, &why);
		if (w) {
			vfit_boot_reason(b, &why);
			return w;
		}
		b->ncounters = stage;
		if (k) {
			b->nstages = stage;
			if (!load)
				return VFIT_WALK_OK;
			announce(b, "kernel", addr);
			if (!vfit_boot_load_images(b, addr, &why)) {
				tick(b, stage - 1, VFIT_BOOT_T_LOAD, &t0);
				vfit_boot_reason(b, &why);
				return VFIT_WALK_REJECT;
			}
			tick(b, stage - 1, VFIT_BOOT_T_LOAD, &t0);
			return VFIT_WALK_OK;
		}
		if (!hand_over(b, load ? addr : 0, &ctl, &ctl_len, &why)) {
			vfit_boot_reason(b, &why);
			return VFIT_WALK_REJECT;
		}
		tick(b, stage - 1, VFIT_BOOT_T_LOAD, &t0);
		vfit_line_init(&origin);
		vfit_line_str(&origin, "fdt '");
		vfit_line_str(&origin, vfit_boot_image(&b->res, "fdt")->name);
		vfit_line_str(&origin, "' verified in stage ");
		vfit_line_u32(&origin, stage);
		vfit_line_str(&origin, by_user ? " (by a user key)" : "");
	}
	vfit_line_init(&why);
	where(&why, c, 0);
	vfit_line_str(&why, "no kernel within ");
	vfit_line_u32(&why, VFIT_BOOT_MAX_STAGES);
	vfit_line_str(&why, " stages");
	vfit_boot_reason(b, &why);
	return VFIT_WALK_REJECT;
}

enum vfit_walk vfit_boot_recovery(struct vfit_boot *b, const struct vfit_flow *f)
{
	const struct vfit_chain rec = { 0, 0, 0, NULL, NULL, "recovery" };
	const unsigned int ts = VFIT_BOOT_MAX_STAGES;
	struct vfit_line why;
	enum vfit_walk w;
	uint64_t addr, t0;
	size_t len;
	const uint8_t *fit;

	vfit_line_init(&why);
	where(&why, &rec, 0);
	if (!f->recovery) {
		vfit_line_str(&why, "no key-recovery in the ROM control DTB");
		vfit_boot_reason(b, &why);
		return VFIT_WALK_REJECT;
	}
	t0 = now(b);
	w = stage_in(b, &rec, 0, VFIT_BOOT_OBJ_RECOVERY, &addr, &len, &why);
	tick(b, ts, VFIT_BOOT_T_READ, &t0);
	if (w) {
		vfit_boot_reason(b, &why);
		return w;
	}
	fit = vfit_boot_ram(b, addr);
	vfit_boot_print_keys(b, f->recovery, "Trusting recovery key", "the ROM control DTB");
	/* Recovery trusts key-recovery alone: no user keys, whatever the switch. */
	if (vfit_verify(fit, len, f->recovery, f->recovery_len, NULL, 0, &b->res)) {
		print_result(b);
		why_verify(&why, &b->res, "the recovery key");
		vfit_boot_reason(b, &why);
		return VFIT_WALK_REJECT;
	}
	print_result(b);
	tick(b, ts, VFIT_BOOT_T_VERIFY, &t0);
	b->bytes_verified += len;
	b->ncounters = 0;
	if (!vfit_boot_image(&b->res, "kernel")) {
		vfit_line_str(&why, "configuration has no kernel");
		vfit_boot_reason(b, &why);
		return VFIT_WALK_REJECT;
	}
	w = rollback(b, fit, &b->counter[0], 1, true, true, &why);
	if (w) {
		vfit_boot_reason(b, &why);
		return w;
	}
	announce(b, "recovery kernel", addr);
	if (!vfit_boot_load_images(b, addr, &why)) {
		vfit_boot_reason(b, &why);
		return VFIT_WALK_REJECT;
	}
	tick(b, ts, VFIT_BOOT_T_LOAD, &t0);
	b->nstages = 1;
	return VFIT_WALK_OK;
}
