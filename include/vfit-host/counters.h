/* SPDX-License-Identifier: BSD-3-Clause */
/* The rollback counter file store of the simulator (host/boot/counters*.c; libvfit-sim). */
#ifndef VFIT_HOST_COUNTERS_H
#define VFIT_HOST_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#include "vfit/boot.h"
#include "vfit-host/err.h"

/*
 * Named monotonic counters for anti-rollback.  A counter name is
 * 1..VFIT_CTR_NAME_MAX characters of [A-Za-z0-9._-]; a configuration that
 * names no counter (rollback-counter) uses its boot stage's own counter
 * ("bootloader", "stageN", "kernel", "recovery": see lib/boot/boot_chain.c), so
 * chains never share one by accident.  Values are unsigned 64-bit and only
 * move forward.
 *
 * The store is one checksummed file (at most 64 counters), replaced
 * atomically (format in host/boot/counters_file.c).  A counter never
 * advanced reads as 0.  A missing, truncated or corrupted file is an error
 * (status 1), never a reset to zero.  The checksum catches corruption and
 * naive edits, not an attacker who can write storage (he can replay an old
 * copy): that is what the TPM trust state is for (vfit boot --trust,
 * include/vfit-host/sim.h, docs/trust-state.md).
 *
 * Every function returns 0 (or a handle) on success, and -1 (or NULL) with
 * e set on failure.
 */
#define VFIT_CTR_NAME_MAX (VFIT_BOOT_COUNTER_NAME - 1)

struct vfit_ctr_store;

/* Whether name is a valid counter name. */
int vfit_ctr_name_valid(const char *name);

/* Creates an empty file store at path; fails if path already exists. */
int vfit_ctr_file_provision(const char *path, struct vfit_err *e);
struct vfit_ctr_store *vfit_ctr_file_open(const char *path, struct vfit_err *e);

/* Current value of counter name. */
int vfit_ctr_read(struct vfit_ctr_store *s, const char *name, uint64_t *value, struct vfit_err *e);
/*
 * Moves counter name forward to value.  A value not above the current one
 * changes nothing and succeeds.  old_value/new_value (either may be NULL)
 * receive the counter before and after.
 */
int vfit_ctr_advance(struct vfit_ctr_store *s, const char *name, uint64_t value,
		     uint64_t *old_value, uint64_t *new_value, struct vfit_err *e);
/* "file PATH", for log lines. */
const char *vfit_ctr_describe(const struct vfit_ctr_store *s);
void vfit_ctr_close(struct vfit_ctr_store *s);

#endif
