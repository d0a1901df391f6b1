/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The boot flow's trust state in a TPM 2.0 (design: docs/trust-state.md):
 * the state blob (the A/B state and the boot record: which slot and chain
 * the firmware booted last) and the rollback counters, in one NV index that
 * only platform authorization writes, plus measured boot.  The stage and
 * the simulator use it over their own transports (TIS MMIO, a socket to
 * swtpm), so both keep the same NV layout.
 *
 * The NV index (VFIT_TRUST_INDEX, VFIT_TRUST_SIZE bytes, big-endian):
 *     0  "VFTS"
 *     4  u32 version 1
 *     8  the state blob (VFIT_BOOT_STATE_SIZE bytes; all zero: never written)
 *   104  VFIT_TRUST_COUNTERS entries {name[VFIT_BOOT_COUNTER_NAME] NUL-padded,
 *        u64 value}; an unused entry is all zero
 *   424  zero to VFIT_TRUST_SIZE
 * It is written whole, in one TPM2_NV_Write (WRITEALL; below the 512 bytes
 * every PC Client TPM takes in one command), so a power cut leaves the old
 * or the new trust state, never a mix.  The flow's writes are staged in
 * struct vfit_trust and made durable by vfit_trust_commit() (the flow's
 * commit op), one NV_Write per command that changed something: a
 * mark-good's state and counters change together.
 *
 * Attributes (VFIT_TRUST_ATTRS, checked exactly, with or without WRITTEN):
 * PPWRITE alone authorizes writes, and the stage disables the platform
 * hierarchy (vfit_trust_lock) before it starts the OS; PLATFORMCREATE, so
 * the owner can neither undefine it nor have TPM2_Clear delete it; reads by
 * the platform, the owner or with the (empty) index password; NO_DA.  A
 * defined index that was never written is the factory's fresh one: it
 * reads as "no state, every counter 0" and the first write fills it.
 *
 * The OS's requests (mark-good, update installed: struct vfit_boot_request)
 * live in a second index, VFIT_TRUST_REQ_INDEX, VFIT_TRUST_REQ_SIZE bytes:
 *     0  "VFRQ"
 *     4  u32 version 1
 *     8  u32 seq      the trust state's sequence number the OS read
 *    12  u8 confirm   chain to confirm: 0, 1, 2 recovery, 0xff none
 *    13  u8 install   slot the OS installed an update into, 0xff none
 *    14  zero to VFIT_TRUST_REQ_SIZE
 * (all zero: no request).  Attributes VFIT_TRUST_REQ_ATTRS: OWNERWRITE, so
 * a running OS asks with owner authorization through its TPM driver --
 * someone who can only write the disk cannot -- and PPWRITE, so the stage
 * clears a request it acted on; PLATFORMCREATE, so the owner cannot
 * undefine it or define a look-alike.  The stage reads it as hostile
 * input: a malformed or stale request is ignored (and cleared).
 */
#ifndef VFIT_BOOT_TPM_H
#define VFIT_BOOT_TPM_H

#include "vfit/boot.h"
#include "vfit/tpm.h"

#define VFIT_TRUST_INDEX 0x01500100u
#define VFIT_TRUST_SIZE 432u
#define VFIT_TRUST_COUNTERS 8
#define VFIT_TRUST_ATTRS (VFIT_TPMA_NV_PPWRITE | VFIT_TPMA_NV_PPREAD | VFIT_TPMA_NV_OWNERREAD | \
			  VFIT_TPMA_NV_AUTHREAD | VFIT_TPMA_NV_NO_DA | VFIT_TPMA_NV_WRITEALL | \
			  VFIT_TPMA_NV_PLATFORMCREATE)

#define VFIT_TRUST_REQ_INDEX 0x01500101u
#define VFIT_TRUST_REQ_SIZE 32u
#define VFIT_TRUST_REQ_ATTRS (VFIT_TPMA_NV_PPWRITE | VFIT_TPMA_NV_OWNERWRITE | \
			      VFIT_TPMA_NV_PPREAD | VFIT_TPMA_NV_OWNERREAD | \
			      VFIT_TPMA_NV_AUTHREAD | VFIT_TPMA_NV_NO_DA | \
			      VFIT_TPMA_NV_WRITEALL | VFIT_TPMA_NV_PLATFORMCREATE)

/* What the request index holds. */
enum vfit_trust_req {
	VFIT_TRUST_REQ_NONE = 0,       /* never written, or cleared */
	VFIT_TRUST_REQ_VALID,          /* t->req */
	VFIT_TRUST_REQ_MALFORMED,      /* anything else: ignored */
};

struct vfit_trust {
	struct vfit_tpm *tpm;
	struct vfit_tpm_log *log;      /* NULL: measurements extend the PCRs only */
	struct vfit_tpm_banks banks;   /* the active PCR banks, */
	uint32_t hashes;               /* and the hashes that extend them (VFIT_HASH_BIT) */
	uint32_t index;
	bool written;                  /* the index holds a trust state (else factory-fresh) */
	bool staged;                   /* nv differs from what the TPM holds */
	enum vfit_trust_req req_state; /* the OS's request, as read when opened */
	struct vfit_boot_request req;
	/* The last failure: the command that failed, the layer's result, the TPM's code. */
	const char *what;
	enum vfit_tpm_result tr;
	uint32_t rc;
	uint8_t nv[VFIT_TRUST_SIZE];   /* the index with the staged changes */
	uint8_t held[VFIT_TRUST_SIZE]; /* the index as the TPM holds it */
};

/*
 * Whether the ROM control DTB requires the trust state in a TPM: the
 * string property /config/vfit,tpm = "required" (*required true), or no
 * such property (false).  Any other value is ROM_TPM: a ROM that cannot be
 * read for this must not boot in the mode a platform could choose.  The
 * ROM decides, never the platform's description of itself: a TPM the
 * platform does not describe is not a reason to keep state on the disk.
 */
VFIT_MUST_CHECK
enum vfit_boot_why vfit_trust_required(const void *rom, bool *required);

/*
 * Opens the trust state in a TPM that has just come out of reset:
 * Startup(CLEAR) (already started is fine), the PCR banks (t->banks,
 * t->hashes; one this build cannot hash is TPM_BANKS, t->what naming its
 * algorithm), the index's public area (missing: NV_MISSING; anything
 * but VFIT_TRUST_ATTRS, sha256, VFIT_TRUST_SIZE, no policy:
 * NV_ATTRIBUTES) and its contents, read with the platform's (empty)
 * authorization (NV_CONTENT unless valid; TPM_LOCK when the platform
 * hierarchy was disabled since the reset); then the request index in the
 * same way (REQ_MISSING, REQ_ATTRIBUTES) and the OS's request in it
 * (t->req_state, t->req).  With log, an event log is started in
 * log_mem[0..log_cap).  Returns VFIT_WHY_NONE, or why the TPM cannot be
 * trusted (t->what names the step).
 */
VFIT_MUST_CHECK
enum vfit_boot_why vfit_trust_open(struct vfit_trust *t, struct vfit_tpm *tpm,
				   struct vfit_tpm_log *log, void *log_mem, size_t log_cap);

/*
 * The flow's ops over an opened trust state (struct vfit_boot_ops).
 * state_write and counter_advance stage their change in t->nv; commit
 * writes it (one NV_Write, only when something changed), or drops it.
 * The state blob: returns VFIT_IO_OK, ABSENT when never written, TOO_BIG
 * when cap is short.
 */
VFIT_MUST_CHECK
enum vfit_io vfit_trust_state_read(struct vfit_trust *t, void *buf, size_t cap, size_t *len);
/* Stages a new state blob: returns VFIT_IO_OK or TOO_BIG. */
VFIT_MUST_CHECK
enum vfit_io vfit_trust_state_write(struct vfit_trust *t, const void *buf, size_t len);
/* Returns VFIT_IO_OK with *value (0 for a counter never advanced). */
VFIT_MUST_CHECK
enum vfit_io vfit_trust_counter_read(struct vfit_trust *t, const char *name, uint64_t *value);
/*
 * Only upwards (firmware-enforced monotonic).  TOO_BIG, with nothing
 * staged, when the name is new and all VFIT_TRUST_COUNTERS entries are
 * taken: an entry is never freed, since a counter that disappears reads 0
 * and would let its chains roll back.  Returns VFIT_IO_OK, TOO_BIG, or
 * ERROR for an invalid name or a value below the counter's.
 */
VFIT_MUST_CHECK
enum vfit_io vfit_trust_counter_advance(struct vfit_trust *t, const char *name, uint64_t value);
/*
 * With keep, writes what state_write and counter_advance staged in one
 * NV_Write (nothing when nothing changed); without, drops it.  Returns
 * VFIT_IO_OK, or ERROR (t->what): the stage must halt.
 */
VFIT_MUST_CHECK
enum vfit_io vfit_trust_commit(struct vfit_trust *t, bool keep);
/*
 * Extends pcr in every active bank with its digest from d and logs the
 * event: returns VFIT_IO_OK, or ERROR (t->what; nothing extended when d
 * lacks a bank's digest).
 */
VFIT_MUST_CHECK
enum vfit_io vfit_trust_measure(struct vfit_trust *t, unsigned int pcr, uint32_t type,
				const struct vfit_digest_set *d, const void *event, size_t len);

/*
 * Gives up platform authorization until the next reset:
 * TPM2_HierarchyControl(TPM_RH_PLATFORM, disable).  Returns VFIT_WHY_NONE,
 * or VFIT_WHY_TPM_LOCK: the OS must not be started.
 */
VFIT_MUST_CHECK
enum vfit_boot_why vfit_trust_lock(struct vfit_trust *t);

/*
 * At power-on, before vfit_boot(): the OS's request read by
 * vfit_trust_open() acted on (vfit_boot_apply_request() with ops, which
 * must be the trust state's own, commit included), then the request index
 * cleared -- a malformed request only cleared.  Returns VFIT_WHY_NONE, or NV_WRITE
 * when the trust state or the request index could not be written: the
 * stage must halt.  What was done is in report's events.
 */
VFIT_MUST_CHECK
enum vfit_boot_why vfit_trust_serve(struct vfit_trust *t, const struct vfit_boot_ops *ops,
				    const struct vfit_boot_layout *layout,
				    struct vfit_boot_scratch *scratch,
				    struct vfit_boot_report *report);

/*
 * The OS's side, after the stage handed over (platform hierarchy
 * disabled): both indices checked as vfit_trust_open() does, the trust
 * state read with the index's empty password (AUTHREAD) and the pending
 * request read.  No Startup is needed (a TPM not yet started is started).
 * Returns VFIT_WHY_NONE, or why the indices cannot be trusted.
 */
VFIT_MUST_CHECK
enum vfit_boot_why vfit_trust_attach(struct vfit_trust *t, struct vfit_tpm *tpm);

/*
 * The OS asks: rq written into the request index with owner
 * authorization (the owner's authValue owner_auth[0..len), empty on a
 * fresh TPM).  A pending request made at the same state is merged (a
 * confirmation and an installed update ride together).  Returns
 * VFIT_WHY_NONE, or TPM_ERROR with t->what/t->rc.
 */
VFIT_MUST_CHECK
enum vfit_boot_why vfit_trust_ask(struct vfit_trust *t, const struct vfit_boot_request *rq,
				  const uint8_t *owner_auth, uint16_t owner_auth_len);

/*
 * The factory step: defines both indices with platform authorization (on a
 * TPM whose platform hierarchy is still enabled).  Returns VFIT_WHY_NONE,
 * or why not (t->what, t->tr, t->rc).
 */
VFIT_MUST_CHECK
enum vfit_boot_why vfit_trust_define(struct vfit_trust *t, struct vfit_tpm *tpm);

/* Returns the reason a TPM layer result r gives the flow (VFIT_WHY_NONE for VFIT_TPM_OK). */
enum vfit_boot_why vfit_trust_why(enum vfit_tpm_result r);

#endif
