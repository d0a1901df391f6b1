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
 * or the new trust state, never a mix.
 *
 * Attributes (VFIT_TRUST_ATTRS, checked exactly, with or without WRITTEN):
 * PPWRITE alone authorizes writes, and the stage disables the platform
 * hierarchy (vfit_trust_lock) before it starts the OS; PLATFORMCREATE, so
 * the owner can neither undefine it nor have TPM2_Clear delete it; reads by
 * the platform, the owner or with the (empty) index password; NO_DA.  A
 * defined index that was never written is the factory's fresh one: it
 * reads as "no state, every counter 0" and the first write fills it.
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

struct vfit_trust {
	struct vfit_tpm *tpm;
	struct vfit_tpm_log *log;      /* NULL: measurements extend the PCRs only */
	uint32_t index;
	bool written;                  /* the index holds a trust state (else factory-fresh) */
	/* The last failure: the command that failed, the layer's result, the TPM's code. */
	const char *what;
	enum vfit_tpm_result tr;
	uint32_t rc;
	uint8_t nv[VFIT_TRUST_SIZE];   /* the index as last read or written */
};

/*
 * Opens the trust state in a TPM that has just come out of reset:
 * Startup(CLEAR) (already started is fine), the PCR banks (sha256 alone:
 * else TPM_BANKS), the index's public area (missing: NV_MISSING; anything
 * but VFIT_TRUST_ATTRS, sha256, VFIT_TRUST_SIZE, no policy:
 * NV_ATTRIBUTES) and its contents, read with the platform's (empty)
 * authorization (NV_CONTENT unless valid; TPM_LOCK when the platform
 * hierarchy was disabled since the reset).  With log, an
 * event log is started in log_mem[0..log_cap).  Returns VFIT_WHY_NONE,
 * or why the TPM cannot be trusted (t->what names the step).
 */
VFIT_MUST_CHECK
enum vfit_boot_why vfit_trust_open(struct vfit_trust *t, struct vfit_tpm *tpm,
				   struct vfit_tpm_log *log, void *log_mem, size_t log_cap);

/*
 * The flow's ops over an opened trust state (struct vfit_boot_ops).  The
 * state blob: returns VFIT_IO_OK, ABSENT when never written, TOO_BIG when
 * cap is short.
 */
VFIT_MUST_CHECK
enum vfit_io vfit_trust_state_read(struct vfit_trust *t, void *buf, size_t cap, size_t *len);
/* Replaces the state blob in one NV_Write: returns VFIT_IO_OK, TOO_BIG, or ERROR (t->what). */
VFIT_MUST_CHECK
enum vfit_io vfit_trust_state_write(struct vfit_trust *t, const void *buf, size_t len);
/* Returns VFIT_IO_OK with *value (0 for a counter never advanced). */
VFIT_MUST_CHECK
enum vfit_io vfit_trust_counter_read(struct vfit_trust *t, const char *name, uint64_t *value);
/*
 * Only upwards (firmware-enforced monotonic): returns VFIT_IO_OK, or ERROR
 * for an invalid name, a value below the counter's, no free entry or a
 * failed write.
 */
VFIT_MUST_CHECK
enum vfit_io vfit_trust_counter_advance(struct vfit_trust *t, const char *name, uint64_t value);
/* Extends PCR pcr and logs the event: returns VFIT_IO_OK, or ERROR (t->what). */
VFIT_MUST_CHECK
enum vfit_io vfit_trust_measure(struct vfit_trust *t, unsigned int pcr, uint32_t type,
				const uint8_t digest[VFIT_BOOT_DIGEST], const void *event,
				size_t len);

/*
 * Gives up platform authorization until the next reset:
 * TPM2_HierarchyControl(TPM_RH_PLATFORM, disable).  Returns VFIT_WHY_NONE,
 * or VFIT_WHY_TPM_LOCK: the OS must not be started.
 */
VFIT_MUST_CHECK
enum vfit_boot_why vfit_trust_lock(struct vfit_trust *t);

/*
 * The factory step: defines the index with platform authorization (on a
 * TPM whose platform hierarchy is still enabled).  Returns VFIT_WHY_NONE,
 * or why not (t->what, t->tr, t->rc).
 */
VFIT_MUST_CHECK
enum vfit_boot_why vfit_trust_define(struct vfit_trust *t, struct vfit_tpm *tpm);

/* Returns the reason a TPM layer result r gives the flow (VFIT_WHY_NONE for VFIT_TPM_OK). */
enum vfit_boot_why vfit_trust_why(enum vfit_tpm_result r);

#endif
