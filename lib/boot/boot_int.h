/* SPDX-License-Identifier: BSD-3-Clause */
/* Internals of the boot flow shared by the files of lib/boot. */
#ifndef VFIT_BOOT_INT_H
#define VFIT_BOOT_INT_H

#include "vfit/boot.h"

#include "../byteorder.h"

/* FIT staging addresses step in pages. */
#define VFIT_BOOT_PAGE 4096u

/*
 * [a, a+as) lies inside [base, base+size).  Written without a+as or
 * base+size, either of which may wrap around 2^64 for hostile values.
 */
static inline bool vfit_boot_within(uint64_t a, uint64_t as, uint64_t base, uint64_t size)
{
	return a >= base && a - base <= size && as <= size - (a - base);
}

/* One command in progress: its inputs, scratch and output. */
struct vfit_run {
	const struct vfit_boot_ops *ops;
	const struct vfit_boot_layout *lay;
	struct vfit_boot_scratch *s;
	struct vfit_boot_report *rep;
	bool quiet;               /* update's search: FAIL events recorded, nothing sent */
	/*
	 * The control FDT of the last vfit_verify(): once a stage verified,
	 * the one whose keys accepted it, and so the one that holds the keys
	 * of its encrypted images (/cipher).
	 */
	const void *keys;
	/* A boot that measures what it starts: the hashes its PCR banks need besides SHA-256. */
	uint32_t more;
	/*
	 * The event being built: one at a time, so each step does not need a
	 * copy on its own stack.  Reasons (FAIL) are built apart, by the walk.
	 */
	struct vfit_boot_event ev;
};

/* ---- events (boot_event.c) ------------------------------------------------ */

void vfit_ev_init_(struct vfit_boot_event *ev, enum vfit_boot_event_kind kind,
		  enum vfit_boot_chain chain, unsigned int stage);
/* r->ev, cleared and set to kind, chain, stage, to be filled and emitted. */
struct vfit_boot_event *vfit_ev_new_(struct vfit_run *r, enum vfit_boot_event_kind kind,
				    enum vfit_boot_chain chain, unsigned int stage);
/* Sends ev to the event op and records it in the report. */
void vfit_ev_emit_(struct vfit_run *r, const struct vfit_boot_event *ev);
/* An event with nothing but its kind, chain and stage. */
void vfit_ev_say_(struct vfit_run *r, enum vfit_boot_event_kind kind,
		 enum vfit_boot_chain chain, unsigned int stage);
/* Emits ev as the FAIL event `why`, which becomes the report's why. */
void vfit_ev_fail_(struct vfit_run *r, struct vfit_boot_event *ev, enum vfit_boot_why why);
/* A REASONS event, then every recorded FAIL event again as REASON. */
void vfit_ev_reasons_(struct vfit_run *r, enum vfit_boot_why why);
/* Copies s (NULL: "") into dst[0..cap), cut to fit. */
void vfit_ev_str_(char *dst, size_t cap, const char *s);
/* The outcome of a verification, as far as an event keeps it. */
void vfit_ev_verdict_(struct vfit_boot_verdict *v, const struct vfit_verify_result *res,
		     const void *ctl);

/* A reason as a report line says it: vfit_boot_why_to_string() or more (boot_names.c). */
const char *vfit_boot_why_sentence_(enum vfit_boot_why w);

/* ---- console lines (boot_line.c, used by the formatter) ----------------------- */

/*
 * Lines are built piecewise (the library has no printf): text is appended
 * and silently truncated at the buffer's end, never overrun.
 */
struct vfit_line {
	size_t n;
	char s[256];
};

void vfit_line_init_(struct vfit_line *l);
void vfit_line_str_(struct vfit_line *l, const char *s);
void vfit_line_u32_(struct vfit_line *l, uint32_t v);
/* At least 8 hex digits, no prefix, as U-Boot prints addresses. */
void vfit_line_hex_(struct vfit_line *l, uint64_t v);

/* ---- key views (boot_keys.c) ------------------------------------------------ */

/*
 * Key views: small control FDTs the flow builds in the scratch space
 * from the ROM DTB and the user key store.
 */
enum vfit_keyview {
	VFIT_VIEW_BUILT_IN,   /* every ROM key except key-recovery, policy unchanged */
	VFIT_VIEW_RECOVERY,   /* key-recovery alone, required for configurations */
	VFIT_VIEW_USER,       /* user keys, each required, required-mode "any" */
};

/* VFIT_OK, or VFIT_ERR_LIMIT when buf is too small, VFIT_ERR_CONTROL for a bad src. */
enum vfit_result vfit_boot_keyview_(void *buf, size_t cap, const void *src,
				   enum vfit_keyview kind, size_t *len);
/* Number of keys under /signature of a control FDT (0 if none). */
unsigned int vfit_boot_key_count_(const void *ctl);

/* ---- RAM (boot_load.c) ---------------------------------------------------------- */

/* Whether the layout is usable: regions disjoint, loader and staging area inside. */
bool vfit_boot_layout_ok_(const struct vfit_boot_layout *l);
/* Host pointer of bus range [addr, addr+size), NULL unless it lies inside one region. */
uint8_t *vfit_boot_host_(const struct vfit_run *r, uint64_t addr, uint64_t size);
void vfit_boot_ranges_reset_(struct vfit_run *r);
/* Reserves [addr, addr+size) for what; false (why filled) if out of RAM or overlapping. */
bool vfit_boot_reserve_(struct vfit_run *r, uint64_t addr, uint64_t size, const char *what,
		       struct vfit_boot_event *why);
/* First image the configuration references through prop (index 0), or NULL. */
const struct vfit_image *vfit_boot_image_(const struct vfit_verify_result *res, const char *prop);
/* Loads the verified images of the configuration in s->res (the final stage). */
bool vfit_boot_load_images_(struct vfit_run *r, uint64_t fit_addr, struct vfit_boot_event *why);
/* Loads one verified image to its load address (non-final stages). */
bool vfit_boot_load_one_(struct vfit_run *r, const struct vfit_image *img,
			struct vfit_boot_event *why, uint64_t *size);
/* Whether the kernel (or firmware) starts inside [load, load + size). */
bool vfit_boot_entry_inside_(const struct vfit_image *img, uint64_t size);

/* ---- the chain (boot_chain.c) ------------------------------------------------------ */

/*
 * Keys of one command, built once in the scratch space: the built-in view
 * and the recovery view of the ROM DTB, and the user view when the
 * developer-mode switch is open and a user key store is present.
 */
struct vfit_flow {
	const uint8_t *rom, *recovery, *user;
	size_t rom_len, recovery_len, user_len;
	bool dev;
};

/* Where the stages of a chain come from: fit[0..n) stand for stages first.. */
struct vfit_stages {
	enum vfit_boot_chain id;       /* how events name it */
	unsigned int slot;             /* the rest from this slot's storage */
	unsigned int first, n;
	const void *const *fit;
	const size_t *len;
};

/* Outcome of a chain walk. */
enum vfit_walk {
	VFIT_WALK_OK = 0,
	VFIT_WALK_REJECT,              /* something did not verify (FAIL recorded) */
	VFIT_WALK_IO,                  /* the medium failed: not the slot's fault */
};

/*
 * Verifies the chain stage by stage (each with the keys the previous stage
 * brought) and, with load, places each stage's images in RAM.  Records the
 * staged FITs in stage_fit/stage_len and the rollback indexes in
 * s->counter[].
 */
enum vfit_walk vfit_boot_walk_(struct vfit_run *r, const struct vfit_flow *f,
			      const struct vfit_stages *c, bool load,
			      const uint8_t *stage_fit[VFIT_BOOT_MAX_STAGES],
			      size_t stage_len[VFIT_BOOT_MAX_STAGES]);
/* The recovery FIT, verified with key-recovery alone, and (with load) loaded. */
enum vfit_walk vfit_boot_recovery_(struct vfit_run *r, const struct vfit_flow *f, bool load);
/* Advances the counters of s->counter[] below their verified index: NONE or why not. */
enum vfit_boot_why vfit_boot_advance_(struct vfit_run *r);

/* ---- the chain digest (boot_record.c) -------------------------------------------- */

/* s->stage_digest[at]: stage at's verified FIT (s->res), noted (s->meas[at]) and counted. */
void vfit_boot_stage_digest_(struct vfit_run *r, unsigned int at, const uint8_t *fit);
/* s->chain: the digest of the s->nstages stage digests. */
void vfit_boot_chain_digest_(struct vfit_run *r);

/* ---- what a chain brought (boot_measure.c) ---------------------------------- */

/* r->more for a walk that loads (and so measures) or not. */
uint32_t vfit_boot_more_hashes_(const struct vfit_run *r, bool load);
/*
 * vfit_verify() of the default configuration; with r->more through the
 * measuring tee (s->tee), so each SHA-256 the verifier takes brings the
 * other banks' digests of the same bytes.  Returns res->result.
 */
enum vfit_result vfit_boot_verify_(struct vfit_run *r, const uint8_t *fit, size_t len,
				   const void *ctl, size_t ctl_len, unsigned int flags,
				   struct vfit_verify_result *res);
/*
 * Records stage at's configuration, image digests and key (s->res,
 * verified with ctl), and with r->more their other banks' digests.
 */
void vfit_boot_note_stage_(struct vfit_run *r, unsigned int at, const uint8_t *fit,
			  const void *ctl, size_t ctl_len);
/* Hands every recorded stage to the measure op; false (FAIL MEASURE) when one fails. */
bool vfit_boot_measure_chain_(struct vfit_run *r, enum vfit_boot_chain chain);

#endif
