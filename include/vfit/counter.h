/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Rollback counter names: one rule for everything that stores or reads
 * counters by name -- the boot flow and its FIT rollback data (vfit/boot.h),
 * the disk's counters record (vfit/disk.h), the TPM trust state
 * (vfit/boot_tpm.h) and the host's stores.  Below all of them (lib/counter.c,
 * with the result names), so none reaches up into another for it.
 */
#ifndef VFIT_COUNTER_H
#define VFIT_COUNTER_H

#include <stdbool.h>
#include <stddef.h>

/* Bytes of a counter name field: 1..31 characters and the NUL padding. */
#define VFIT_COUNTER_NAME 32

/*
 * Whether name[0..len) (no NUL) is a rollback counter name: true for 1 to
 * VFIT_COUNTER_NAME - 1 characters of [A-Za-z0-9._-], false otherwise.
 */
bool vfit_counter_name_valid(const char *name, size_t len);

#endif
