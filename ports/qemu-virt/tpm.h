/* SPDX-License-Identifier: BSD-3-Clause */
/* The stage's TPM (tpm.c): trust state, the OS's requests, measured handover. */
#ifndef PORT_TPM_H
#define PORT_TPM_H

#include <stdbool.h>

#include "vfit/boot.h"

/*
 * Whether the ROM keys linked into the stage require the trust state in a
 * TPM (/config vfit,tpm, vfit_trust_required()); halts on a malformed one.
 * Only the ROM decides: a TPM QEMU's DTB describes is not used without it,
 * and one the DTB does not describe is no reason to keep state on the disk.
 */
bool stage_tpm_required(void);
/*
 * Opens the TPM QEMU's DTB declares and its trust state (stage_trust).
 * Halts, naming the reason, when the DTB declares none (TPM_REQUIRED) or
 * the TPM cannot be trusted.
 */
void stage_tpm_open(const void *qemu_dtb);
/*
 * The OS's request in the TPM's request index, acted on and cleared
 * (vfit_trust_serve()); halts when an NV write fails.
 */
void stage_tpm_serve(const struct vfit_boot_layout *layout, struct vfit_boot_scratch *scratch,
		     struct vfit_boot_report *report);
/* Halts with the TPM's reason (t->what, the response code). */
__attribute__((noreturn)) void stage_tpm_halt(enum vfit_boot_why why);
/* Copies the TPM's state blob to the disk's state partition, for the OS. */
void stage_tpm_mirror(void);
/*
 * Measures into PCR 1 QEMU's DTB (unless the FIT brought the fdt, which the
 * flow measured) and the command line, announces the event log in dtb
 * (opened for changes): linux,sml-base/size and /reserved-memory.  NULL
 * or why not; halts when a measurement fails.
 */
const char *stage_tpm_handover(void *dtb, bool fit_fdt, const char *bootargs);
/* Disables the platform hierarchy; halts when that fails.  Last step before Linux. */
void stage_tpm_lock(void);

#endif
