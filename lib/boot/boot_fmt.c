/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The U-Boot-like console text of the boot flow's events: optional, for
 * the simulator and any port that wants a console log.  The flow itself
 * never calls this file.
 */
#include <string.h>

#include <libfdt.h>

#include "boot_int.h"
#include "../fit/fit_int.h"

struct out {
	vfit_boot_print_fn *print;
	void *ctx;
	struct vfit_line l;
};

static void put(struct out *o)
{
	o->print(o->ctx, o->l.s);
	vfit_line_init_(&o->l);
}

static void say(struct out *o, const char *s)
{
	vfit_line_str_(&o->l, s);
	put(o);
}

static void chain(struct vfit_line *l, unsigned int c)
{
	vfit_line_str_(l, vfit_boot_chain_to_string((enum vfit_boot_chain)c));
}

/* "slot A stage 2: " in front of every reason about a chain. */
static void where(struct vfit_line *l, const struct vfit_boot_event *ev)
{
	chain(l, ev->chain);
	if (ev->stage) {
		vfit_line_str_(l, " stage ");
		vfit_line_u32_(l, ev->stage);
	}
	vfit_line_str_(l, ": ");
}

static void range(struct vfit_line *l, const char *what, uint64_t addr, uint64_t size)
{
	vfit_line_str_(l, what);
	vfit_line_str_(l, " [");
	vfit_line_hex_(l, addr);
	vfit_line_str_(l, "..");
	vfit_line_hex_(l, addr + size);
	vfit_line_str_(l, ")");
}

static void quoted(struct vfit_line *l, const char *a, const char *name, const char *b)
{
	vfit_line_str_(l, a);
	vfit_line_str_(l, " '");
	vfit_line_str_(l, name);
	vfit_line_str_(l, "'");
	vfit_line_str_(l, b);
}

/*
 * Where the keys came from: "the ROM control DTB", "fdt 'x' verified in
 * stage 1", the user key store or the recovery key (keys), as ev says.
 */
static void origin(struct vfit_line *l, const struct vfit_boot_event *ev, unsigned int keys)
{
	if (keys == VFIT_KEYS_USER) {
		vfit_line_str_(l, "the user key store");
		return;
	}
	if (keys == VFIT_KEYS_RECOVERY) {
		vfit_line_str_(l, "the recovery key");
		return;
	}
	if (!ev->origin) {
		vfit_line_str_(l, "the ROM control DTB");
		return;
	}
	quoted(l, "fdt", ev->name, " verified in stage ");
	vfit_line_u32_(l, ev->origin);
	vfit_line_str_(l, ev->flags & VFIT_EVF_USER_ORIGIN ? " (by a user key)" : "");
}

/* "<error> at <path>[ <prop>] (configuration 'c')" for a failed verification. */
static void verdict(struct vfit_line *l, const struct vfit_boot_verdict *v,
		    const struct vfit_boot_event *ev, unsigned int keys)
{
	vfit_line_str_(l, vfit_result_to_string(v->result));
	if (v->node[0]) {
		vfit_line_str_(l, v->in_control ? " in " : " at ");
		if (v->in_control) {
			origin(l, ev, keys);
			vfit_line_str_(l, " ");
		}
		vfit_line_str_(l, v->node);
		if (v->prop[0]) {
			vfit_line_str_(l, " ");
			vfit_line_str_(l, v->prop);
		}
	}
	if (v->has_conf)
		quoted(l, " (configuration", v->conf, ")");
}

/* ---- KEYS and VERIFY ---------------------------------------------------- */

/* A string property of at most 64 printable bytes, else NULL. */
static const char *short_str(const void *fdt, int node, const char *prop)
{
	const char *s = vfit_prop_str_(fdt, node, prop);

	return s && strlen(s) < 64 ? s : NULL;
}

static void keys(struct out *o, const struct vfit_boot_event *ev)
{
	static const char prefix[][24] = { "Trusting key", "Also trusting user key",
					    "Trusting recovery key" };
	const char *name, *algo, *req;
	int sig, key;

	if (ev->keys < VFIT_KEYS_STAGE || ev->keys > VFIT_KEYS_RECOVERY || !ev->ctl)
		return;
	sig = fdt_subnode_offset(ev->ctl, 0, "signature");
	if (sig < 0)
		return;
	fdt_for_each_subnode(key, ev->ctl, sig) {
		name = fdt_get_name(ev->ctl, key, NULL);
		algo = short_str(ev->ctl, key, "algo");
		req = short_str(ev->ctl, key, "required");
		vfit_line_str_(&o->l, "   ");
		quoted(&o->l, prefix[ev->keys - VFIT_KEYS_STAGE], name ? name : "?", " (");
		vfit_line_str_(&o->l, algo ? algo : "no algo");
		vfit_line_str_(&o->l, req ? ", required for " : ", not required");
		vfit_line_str_(&o->l, req ? req : "");
		vfit_line_str_(&o->l, ") from ");
		/* Where they came from: "the ROM control DTB" for recovery too. */
		origin(&o->l, ev, ev->keys == VFIT_KEYS_USER ? VFIT_KEYS_USER : VFIT_KEYS_STAGE);
		vfit_line_str_(&o->l, ev->keys == VFIT_KEYS_USER ? " (developer mode)" : "");
		put(o);
	}
}

static void conf_checks(struct out *o, const struct vfit_verify_result *res)
{
	const struct vfit_check *k;
	unsigned int i, n = 0;
	bool ok = false;

	vfit_line_str_(&o->l, "   Verifying Hash Integrity ... ");
	for (i = 0; i < res->nchecks; i++) {
		k = &res->check[i];
		if (k->kind != VFIT_CHECK_CONF_SIG)
			continue;
		ok |= k->result == VFIT_OK;
		vfit_line_str_(&o->l, k->algo);
		vfit_line_str_(&o->l, ":");
		vfit_line_str_(&o->l, k->key_name);
		vfit_line_str_(&o->l, k->result ? "- " : "+ ");
		n++;
	}
	if (!n) {
		vfit_line_init_(&o->l);
		return;
	}
	say(o, ok && res->result != VFIT_ERR_REQUIRED ? "OK" : "error!");
}

static void image_checks(struct out *o, const struct vfit_verify_result *res, const char *image)
{
	const struct vfit_check *k;
	bool bad = false;
	unsigned int i;

	vfit_line_str_(&o->l, "   Verifying Hash Integrity ... ");
	for (i = 0; i < res->nchecks; i++) {
		k = &res->check[i];
		if (k->kind == VFIT_CHECK_CONF_SIG || !k->image || strcmp(k->image, image))
			continue;
		vfit_line_str_(&o->l, k->algo);
		if (k->kind == VFIT_CHECK_IMAGE_SIG) {
			vfit_line_str_(&o->l, ":");
			vfit_line_str_(&o->l, k->key_name);
		}
		vfit_line_str_(&o->l, k->result ? "- " : "+ ");
		bad |= k->result && (k->required || k->kind == VFIT_CHECK_HASH);
	}
	say(o, bad ? "error!" : "OK");
}

/* The U-Boot-like block of one verification. */
static void verify(struct out *o, const struct vfit_boot_event *ev)
{
	const struct vfit_verify_result *res = ev->res;
	const char *seen[VFIT_MAX_CHECKS];
	unsigned int i, j, nseen = 0;

	if (res && res->conf) {
		quoted(&o->l, "   Using", res->conf, " configuration");
		put(o);
	}
	if (res)
		conf_checks(o, res);
	for (i = 0; res && i < res->nchecks; i++) {
		const char *img = res->check[i].image;

		if (res->check[i].kind == VFIT_CHECK_CONF_SIG || !img)
			continue;
		for (j = 0; j < nseen && strcmp(seen[j], img); j++)
			;
		if (j < nseen)
			continue;
		seen[nseen++] = img;
		quoted(&o->l, "   Trying", img, " subimage");
		put(o);
		image_checks(o, res, img);
	}
	/* The stage keys' refusal gets its own line; the others end in a FAIL. */
	if (ev->v.result && ev->keys == VFIT_KEYS_STAGE) {
		vfit_line_str_(&o->l, "   ");
		verdict(&o->l, &ev->v, ev, ev->keys);
		put(o);
	}
}

/* ---- FAIL --------------------------------------------------------------------- */

static void rollback_reason(struct vfit_line *l, const struct vfit_boot_event *ev)
{
	switch (ev->why) {
	case VFIT_WHY_ROLLBACK_NAME:
		vfit_line_str_(l, "rollback-counter must be 1..31 characters of [A-Za-z0-9._-]");
		break;
	case VFIT_WHY_ROLLBACK_FORMAT:
		vfit_line_str_(l, "rollback-index must be one 32-bit cell");
		break;
	case VFIT_WHY_ROLLBACK_UNSIGNED:
		vfit_line_str_(l, "rollback-index or rollback-counter that no verified configuration "
				 "signature covers (refusing an unauthenticated rollback policy)");
		break;
	case VFIT_WHY_COUNTER_UNREADABLE:
		quoted(l, "rollback counter", ev->name, " cannot be read (refusing to guess)");
		break;
	default:
		vfit_line_str_(l, "rollback index ");
		vfit_line_u32_(l, (uint32_t)ev->value);
		vfit_line_str_(l, " < counter ");
		vfit_line_u32_(l, ev->limit > UINT32_MAX ? UINT32_MAX : (uint32_t)ev->limit);
		quoted(l, " for", ev->name, "");
	}
}

static void load_reason(struct vfit_line *l, const struct vfit_boot_event *ev)
{
	switch (ev->why) {
	case VFIT_WHY_OUTSIDE_RAM:
		range(l, ev->what, ev->addr, ev->size);
		vfit_line_str_(l, " is outside RAM");
		break;
	case VFIT_WHY_OVERLAP:
		range(l, ev->what, ev->addr, ev->size);
		vfit_line_str_(l, " overlaps ");
		range(l, ev->other, ev->addr2, ev->size2);
		break;
	case VFIT_WHY_TOO_MANY_RANGES:
		vfit_line_str_(l, "too many images to place");
		break;
	case VFIT_WHY_NO_ROOM:
		range(l, ev->what, ev->addr, ev->size);
		vfit_line_str_(l, " is outside RAM or in use");
		break;
	case VFIT_WHY_COMPRESSION:
		quoted(l, ev->what, ev->name, ": compression '");
		vfit_line_str_(l, ev->other);
		vfit_line_str_(l, "' is not supported for this image");
		break;
	case VFIT_WHY_DECOMPRESS:
		quoted(l, ev->what, ev->name, ": ");
		vfit_line_str_(l, ev->other);
		vfit_line_str_(l, " data does not decompress into the ");
		vfit_line_u32_(l, ev->value > UINT32_MAX ? UINT32_MAX : (uint32_t)ev->value);
		vfit_line_str_(l, " KiB free at its load address");
		break;
	case VFIT_WHY_CIPHER_KEY:
		quoted(l, ev->what, ev->name, ": no usable cipher key for its cipher node in the "
			  "control DTB that verified it");
		if (ev->other[0]) {
			vfit_line_str_(l, " (");
			vfit_line_str_(l, ev->other);
			vfit_line_str_(l, ")");
		}
		break;
	case VFIT_WHY_DECRYPT:
		quoted(l, ev->what, ev->name, ": ciphertext length does not match "
			  "data-size-unciphered, not decrypted");
		break;
	case VFIT_WHY_CIPHER_COMPRESSED:
		quoted(l, ev->what, ev->name, ": encrypted and compressed images are not "
			  "supported");
		break;
	default:
		vfit_line_str_(l, "entry point ");
		vfit_line_hex_(l, ev->value);
		vfit_line_str_(l, " lies outside ");
		quoted(l, ev->what, ev->name, "");
		range(l, "", ev->addr, ev->size);
	}
}

/* The text after "slot A stage 2: " of a reason about a chain. */
static void chain_reason(struct vfit_line *l, const struct vfit_boot_event *ev)
{
	switch (ev->why) {
	case VFIT_WHY_VERIFY:
		verdict(l, &ev->v, ev, ev->keys);
		if (ev->flags & VFIT_EVF_USER_TRIED) {
			vfit_line_str_(l, "; user keys: ");
			verdict(l, &ev->user, ev, VFIT_KEYS_USER);
		}
		return;
	case VFIT_WHY_ROLLBACK_NAME: case VFIT_WHY_ROLLBACK_FORMAT:
	case VFIT_WHY_ROLLBACK_UNSIGNED: case VFIT_WHY_COUNTER_UNREADABLE: case VFIT_WHY_ROLLBACK:
		rollback_reason(l, ev);
		return;
	case VFIT_WHY_OUTSIDE_RAM: case VFIT_WHY_OVERLAP: case VFIT_WHY_TOO_MANY_RANGES:
	case VFIT_WHY_NO_ROOM: case VFIT_WHY_COMPRESSION: case VFIT_WHY_DECOMPRESS:
	case VFIT_WHY_ENTRY_OUTSIDE: case VFIT_WHY_CIPHER_KEY: case VFIT_WHY_DECRYPT:
	case VFIT_WHY_CIPHER_COMPRESSED:
		load_reason(l, ev);
		return;
	case VFIT_WHY_NO_HANDOVER:
		quoted(l, "configuration", ev->v.conf, " has neither a kernel nor a firmware and an fdt");
		return;
	case VFIT_WHY_PLACEMENT_UNSIGNED:
		quoted(l, "configuration", ev->v.conf, " is not covered by a verified configuration "
			  "signature: load, entry and compression are unauthenticated");
		return;
	case VFIT_WHY_CONTROL_DTB:
		quoted(l, ev->what, ev->name, " is not a usable control DTB");
		return;
	case VFIT_WHY_NO_LOAD:
		quoted(l, ev->what, ev->name, " has no load address");
		return;
	case VFIT_WHY_PRELOAD:
		vfit_line_str_(l, "pre-load signature refused before the FIT was parsed: ");
		vfit_line_str_(l, vfit_result_to_string((enum vfit_result)ev->value));
		vfit_line_str_(l, " (");
		vfit_line_str_(l, ev->what);
		vfit_line_str_(l, ")");
		return;
	case VFIT_WHY_CHAIN_TOO_LONG:
		vfit_line_str_(l, "no kernel within ");
		vfit_line_u32_(l, (uint32_t)ev->value);
		vfit_line_str_(l, " stages");
		return;
	default:
		vfit_line_str_(l, vfit_boot_why_sentence_((enum vfit_boot_why)ev->why));
	}
}

/* A reason: a command's own refusal, or "<chain>[ stage N]: " and its text. */
static void reason(struct vfit_line *l, const struct vfit_boot_event *ev)
{
	switch (ev->why) {
	case VFIT_WHY_ROM:
		vfit_line_str_(l, "ROM: control DTB missing or malformed");
		return;
	case VFIT_WHY_NOT_BOOTED:
		vfit_line_str_(l, "mark-good: no slot was booted (none yet, or recovery)");
		return;
	case VFIT_WHY_BOOTED_BAD:
		vfit_line_str_(l, "mark-good: refused, marked bad: ");
		chain(l, ev->chain);
		return;
	case VFIT_WHY_NO_LONGER_VERIFIES:
		vfit_line_str_(l, "mark-good: refused, chain no longer verifies: ");
		chain(l, ev->chain);
		return;
	case VFIT_WHY_CHAIN_CHANGED:
		vfit_line_str_(l, "mark-good: refused, not the chain that booted: ");
		chain(l, ev->chain);
		return;
	case VFIT_WHY_COUNTER_FULL:
		quoted(l, "mark-good: refused, no room for rollback counter", ev->name,
		       ": nothing changed");
		return;
	case VFIT_WHY_REQUEST_STALE:
		vfit_line_str_(l, "request: ignored, made at state ");
		vfit_line_u32_(l, (uint32_t)ev->value);
		vfit_line_str_(l, ", the state is now ");
		vfit_line_u32_(l, (uint32_t)ev->limit);
		return;
	case VFIT_WHY_REQUEST_MALFORMED:
		vfit_line_str_(l, "request: ignored, it names no chain that booted last or no slot");
		return;
	case VFIT_WHY_UPDATE_COUNT:
		vfit_line_str_(l, "update: refused: give 1 to 4 FITs");
		return;
	case VFIT_WHY_UPDATE_TRIAL:
		vfit_line_str_(l, "update: refused: ");
		chain(l, ev->chain);
		vfit_line_str_(l, " is not confirmed good (run mark-good after booting it)");
		return;
	case VFIT_WHY_UPDATE_UNVERIFIED:
		vfit_line_str_(l, "update: refused: the new chain does not verify");
		return;
	case VFIT_WHY_UPDATE_READBACK:
		vfit_line_str_(l, "update: refused: ");
		chain(l, ev->chain);
		vfit_line_str_(l, " does not verify after writing");
		return;
	}
	where(l, ev);
	chain_reason(l, ev);
}

/* ---- everything else ---------------------------------------------------------- */

static void state(struct out *o, const struct vfit_boot_event *ev)
{
	if (ev->io == VFIT_IO_ABSENT)
		say(o, "State: none stored yet (both slots good, slot A first)");
	else if (ev->io || ev->state_check)
		say(o, "State: unreadable or corrupted, starting from the default "
		       "(slots are verified anyway)");
}

static void dev_mode(struct out *o, const struct vfit_boot_event *ev)
{
	if (!(ev->flags & VFIT_EVF_DEV))
		say(o, ev->store == VFIT_STORE_ABSENT ? "Developer mode: off" :
			"Developer mode: off (user key store ignored)");
	else if (ev->store == VFIT_STORE_ABSENT)
		say(o, "Developer mode: ON, no user key store");
	else if (ev->store == VFIT_STORE_UNUSABLE)
		say(o, "Developer mode: ON, user key store unusable (ignored)");
	else if (ev->store == VFIT_STORE_EMPTY)
		say(o, "Developer mode: ON, user key store holds no keys");
	else
		say(o, "Developer mode: ON -- user-installed keys are trusted in addition to the "
		       "built-in keys");
}

static void slots(struct out *o, const struct vfit_boot_event *ev)
{
	const struct vfit_boot_state *st = &ev->state;
	unsigned int i;

	vfit_line_str_(&o->l, "State:");
	for (i = 0; i < VFIT_BOOT_SLOTS; i++) {
		vfit_line_str_(&o->l, i ? ", " : " ");
		chain(&o->l, i);
		vfit_line_str_(&o->l, " ");
		vfit_line_str_(&o->l, vfit_boot_slot_status_name(st->status[i]));
		if (st->status[i] == VFIT_SLOT_TRYING) {
			vfit_line_str_(&o->l, " (");
			vfit_line_u32_(&o->l, st->tries[i]);
			vfit_line_str_(&o->l, " attempts left)");
		}
	}
	vfit_line_str_(&o->l, "; ");
	chain(&o->l, st->active);
	say(o, " first");
}

static void start(struct out *o, const struct vfit_boot_event *ev)
{
	vfit_line_str_(&o->l, ev->chain == VFIT_CHAIN_RECOVERY ? "Starting RECOVERY kernel at " :
				"Starting kernel at ");
	vfit_line_hex_(&o->l, ev->addr);
	vfit_line_str_(&o->l, ", fdt ");
	if (ev->flags & VFIT_EVF_FDT)
		vfit_line_hex_(&o->l, ev->addr2);
	else
		vfit_line_str_(&o->l, "none");
	vfit_line_str_(&o->l, ", ramdisk ");
	if (ev->flags & VFIT_EVF_RAMDISK)
		vfit_line_hex_(&o->l, ev->value);
	else
		vfit_line_str_(&o->l, "none");
	say(o, " ...");
}

static void rollback(struct out *o, const struct vfit_boot_event *ev)
{
	vfit_line_str_(&o->l, "   Rollback index ");
	vfit_line_u32_(&o->l, (uint32_t)ev->value);
	if (ev->flags & VFIT_EVF_COUNTER) {
		vfit_line_str_(&o->l, " >= counter ");
		vfit_line_u32_(&o->l, (uint32_t)ev->limit);
	} else {
		vfit_line_str_(&o->l, " (no counter store)");
	}
	quoted(&o->l, " for", ev->name, " OK");
	put(o);
}

static void load(struct out *o, const struct vfit_boot_event *ev)
{
	vfit_line_str_(&o->l, "   Loading ");
	quoted(&o->l, ev->what, ev->name, " to ");
	vfit_line_hex_(&o->l, ev->addr);
	if (ev->other[0]) {
		vfit_line_str_(&o->l, " (");
		vfit_line_str_(&o->l, ev->other);
		vfit_line_str_(&o->l, ")");
	}
	put(o);
}

static void update(struct out *o, const struct vfit_boot_event *ev)
{
	switch (ev->kind) {
	case VFIT_EV_REPAIR:
		vfit_line_str_(&o->l, "update: no good slot: repairing ");
		chain(&o->l, ev->chain);
		break;
	case VFIT_EV_POSITION:
		vfit_line_str_(&o->l, "update: the new FIT");
		vfit_line_str_(&o->l, ev->value > 1 ? "s replace stages " : " replaces stage ");
		vfit_line_u32_(&o->l, ev->stage);
		if (ev->value > 1) {
			vfit_line_str_(&o->l, "..");
			vfit_line_u32_(&o->l, (uint32_t)(ev->stage + ev->value - 1));
		}
		vfit_line_str_(&o->l, " of ");
		chain(&o->l, ev->chain);
		break;
	case VFIT_EV_WRITING:
		vfit_line_str_(&o->l, "update: writing ");
		chain(&o->l, ev->chain);
		break;
	default:
		vfit_line_str_(&o->l, "update: ");
		chain(&o->l, ev->chain);
		vfit_line_str_(&o->l, " will be tried next (");
		vfit_line_u32_(&o->l, (uint32_t)ev->value);
		vfit_line_str_(&o->l, " attempts); ");
		chain(&o->l, (unsigned int)ev->limit);
		vfit_line_str_(&o->l, " stays as the fallback");
	}
	put(o);
}

/* "request: the OS asked at state N to confirm <chain>[ and to try slot X]" */
static void request(struct out *o, const struct vfit_boot_event *ev)
{
	vfit_line_str_(&o->l, "request: the OS asked at state ");
	vfit_line_u32_(&o->l, (uint32_t)ev->value);
	if (ev->chain != VFIT_CHAIN_NONE) {
		vfit_line_str_(&o->l, " to confirm ");
		chain(&o->l, ev->chain);
	}
	if (ev->limit < VFIT_BOOT_SLOTS) {
		vfit_line_str_(&o->l, ev->chain != VFIT_CHAIN_NONE ? " and" : "");
		vfit_line_str_(&o->l, " to try the update it installed in ");
		chain(&o->l, (unsigned int)ev->limit);
	}
	put(o);
}

/* Events of one fixed line, or of a chain label between two texts. */
static bool simple(struct out *o, const struct vfit_boot_event *ev)
{
	switch (ev->kind) {
	case VFIT_EV_TRY:
		vfit_line_str_(&o->l, "## Trying ");
		chain(&o->l, ev->chain);
		break;
	case VFIT_EV_STAGE:
		vfit_line_str_(&o->l, "## Checking FIT Image at ");
		vfit_line_hex_(&o->l, ev->addr);
		vfit_line_str_(&o->l, " (");
		chain(&o->l, ev->chain);
		vfit_line_str_(&o->l, ", stage ");
		vfit_line_u32_(&o->l, ev->stage);
		vfit_line_str_(&o->l, ")");
		break;
	case VFIT_EV_USER_TRY:
		vfit_line_str_(&o->l, "   Built-in keys refused it; trying the user keys (developer mode)");
		break;
	case VFIT_EV_USER_OK:
		vfit_line_str_(&o->l, "   Accepted with a USER key (developer mode)");
		break;
	case VFIT_EV_ROLLBACK_SKIPPED:
		vfit_line_str_(&o->l, "   Rollback data ignored: accepted through a user key "
				     "(developer mode), no counter checked or moved");
		break;
	case VFIT_EV_LOADING:
		vfit_line_str_(&o->l, "## Loading ");
		vfit_line_str_(&o->l, ev->what);
		vfit_line_str_(&o->l, " from FIT Image at ");
		vfit_line_hex_(&o->l, ev->addr);
		vfit_line_str_(&o->l, " ...");
		break;
	case VFIT_EV_TRIAL:
		vfit_line_str_(&o->l, "   ");
		chain(&o->l, ev->chain);
		vfit_line_str_(&o->l, " is on trial: ");
		vfit_line_u32_(&o->l, (uint32_t)ev->value);
		vfit_line_str_(&o->l, " attempts left after this boot; run mark-good to confirm");
		break;
	case VFIT_EV_MARKED_BAD:
		if (ev->io) {
			vfit_line_str_(&o->l, "   (state write failed: slot not marked bad)");
			break;
		}
		vfit_line_str_(&o->l, "   Marked bad: ");
		chain(&o->l, ev->chain);
		break;
	case VFIT_EV_NO_SLOT:
		vfit_line_str_(&o->l, "## No slot verified: trying RECOVERY");
		break;
	case VFIT_EV_COUNTER:
		quoted(&o->l, "   Rollback counter", ev->name, ": ");
		vfit_line_u32_(&o->l, (uint32_t)ev->limit);
		vfit_line_str_(&o->l, " -> ");
		vfit_line_u32_(&o->l, (uint32_t)ev->value);
		break;
	case VFIT_EV_NO_ADVANCE:
		vfit_line_str_(&o->l, "   Rollback counters not advanced: a stage was accepted "
				     "through a user key (developer mode)");
		break;
	case VFIT_EV_CONFIRMED:
		vfit_line_str_(&o->l, "mark-good: confirmed good: ");
		chain(&o->l, ev->chain);
		break;
	case VFIT_EV_RETRY:
		vfit_line_str_(&o->l, "## No slot can boot: ");
		chain(&o->l, ev->chain);
		vfit_line_str_(&o->l, " failed verification at an earlier boot, trying it again");
		break;
	case VFIT_EV_MEASURED:
		quoted(&o->l, "   Measured", ev->name, " (");
		vfit_line_str_(&o->l, ev->what);
		vfit_line_str_(&o->l, ") into PCR ");
		vfit_line_u32_(&o->l, (uint32_t)ev->value);
		break;
	default:
		return false;
	}
	put(o);
	return true;
}

void vfit_boot_format_event(const struct vfit_boot_event *ev, vfit_boot_print_fn *print,
			    void *ctx)
{
	struct out o;

	o.print = print;
	o.ctx = ctx;
	vfit_line_init_(&o.l);
	if (simple(&o, ev))
		return;
	switch (ev->kind) {
	case VFIT_EV_STATE: state(&o, ev); break;
	case VFIT_EV_DEV_MODE: dev_mode(&o, ev); break;
	case VFIT_EV_SLOTS: slots(&o, ev); break;
	case VFIT_EV_KEYS: keys(&o, ev); break;
	case VFIT_EV_VERIFY: verify(&o, ev); break;
	case VFIT_EV_ROLLBACK: rollback(&o, ev); break;
	case VFIT_EV_LOAD: load(&o, ev); break;
	case VFIT_EV_START: start(&o, ev); break;
	case VFIT_EV_FAIL:
		reason(&o.l, ev);
		put(&o);
		break;
	case VFIT_EV_REASON:
		vfit_line_str_(&o.l, "   - ");
		reason(&o.l, ev);
		put(&o);
		break;
	case VFIT_EV_REASONS:
		say(&o, ev->why == VFIT_WHY_UPDATE_NO_POSITION ?
			"update: refused: the new chain verifies at no stage position:" :
			"## Halting: nothing verified. Reasons:");
		break;
	case VFIT_EV_REPAIR: case VFIT_EV_POSITION: case VFIT_EV_WRITING: case VFIT_EV_OFFERED:
		update(&o, ev);
		break;
	case VFIT_EV_REQUEST:
		request(&o, ev);
		break;
	}
}
