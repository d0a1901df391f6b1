/* SPDX-License-Identifier: BSD-3-Clause */
/* Rollback counter stores of the host side (host/boot/counters*.c; libvfit-sim). */
#ifndef VFIT_HOST_COUNTERS_H
#define VFIT_HOST_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#include "vfit/boot.h"
#include "vfit-host/host.h"

/*
 * Named monotonic counters for anti-rollback.  A counter name is
 * 1..VFIT_CTR_NAME_MAX characters of [A-Za-z0-9._-]; a configuration that
 * names no counter (rollback-counter) uses its boot stage's own counter
 * ("bootloader", "stageN", "kernel", "recovery": see lib/boot/boot_chain.c), so
 * chains never share one by accident.  Values are unsigned 64-bit and only
 * move forward.
 *
 * Two backends behind one handle:
 *  - file: one checksummed file (at most 64 counters), replaced atomically
 *    (format in host/boot/counters_file.c).  A counter never advanced reads as 0.
 *    A missing, truncated or corrupted file is an error (status 1), never a
 *    reset to zero.  The checksum catches corruption and naive edits, not
 *    an attacker who can write storage (he can replay an old copy): that
 *    is what the TPM backend is for.
 *  - tpm: one TPM 2.0 NV counter per name (see host/boot/counters_tpm.c for the
 *    index layout, attributes and threat model), reached through a TCTI
 *    string such as "swtpm:host=127.0.0.1,port=2321".  Counters must be
 *    provisioned; an unprovisioned name is an error (status 1), so is a TPM
 *    that refuses a command; an unreachable TPM is status 2.  There is no
 *    fallback from one backend to the other.
 * Every function returns 0 (or a handle) on success, and -1 (or NULL) with
 * e set on failure.
 */
#define VFIT_CTR_NAME_MAX (VFIT_BOOT_COUNTER_NAME - 1)
/* Size of the TPM counters' authValue file (raw random bytes). */
#define VFIT_CTR_AUTH_SIZE 32

struct vfit_ctr_store;

/* Whether name is a valid counter name. */
int vfit_ctr_name_valid(const char *name);

/* Creates an empty file store at path; fails if path already exists. */
int vfit_ctr_file_provision(const char *path, struct vfit_err *e);
struct vfit_ctr_store *vfit_ctr_file_open(const char *path, struct vfit_err *e);

/*
 * Defines (if needed) and initialises the TPM counters for names[0..n-1].
 * auth_path holds the VFIT_CTR_AUTH_SIZE-byte authValue; it is created from
 * fresh random bytes when missing.  Needs the platform hierarchy (empty
 * platform auth, as firmware has it before handing the TPM to the OS).
 * Idempotent: already provisioned names are checked, not changed.
 */
int vfit_ctr_tpm_provision(const char *tcti, const char *auth_path, const char *const *names,
			   size_t n, struct vfit_err *e);
/*
 * Opens the TPM counters with the authValue in auth_path.  Both TPM
 * functions set TSS2_LOG=all+none when it is unset, so tpm2-tss does not
 * print its own lines next to ours (child processes inherit that).
 */
struct vfit_ctr_store *vfit_ctr_tpm_open(const char *tcti, const char *auth_path,
					 struct vfit_err *e);
/*
 * NV index of the TPM counter for name: VFIT_CTR_TPM_BASE + 2 * (first two
 * bytes of SHA-256(name)); its baseline index is the next one.
 */
#define VFIT_CTR_TPM_BASE 0x01500000u
uint32_t vfit_ctr_tpm_index(const char *name);
/* An NV counter moves by one per command: one advance moves at most this far. */
#define VFIT_CTR_TPM_MAX_STEP 1024

/* Current value of counter name. */
int vfit_ctr_read(struct vfit_ctr_store *s, const char *name, uint64_t *value, struct vfit_err *e);
/*
 * Moves counter name forward to value.  A value not above the current one
 * changes nothing and succeeds.  old_value/new_value (either may be NULL)
 * receive the counter before and after.
 */
int vfit_ctr_advance(struct vfit_ctr_store *s, const char *name, uint64_t value,
		     uint64_t *old_value, uint64_t *new_value, struct vfit_err *e);
/* "file PATH" or "tpm TCTI", for log lines. */
const char *vfit_ctr_describe(const struct vfit_ctr_store *s);
void vfit_ctr_close(struct vfit_ctr_store *s);

#endif
