/* SPDX-License-Identifier: BSD-3-Clause */
/* The boot flow's ops on QEMU virt (ops.c). */
#ifndef PORT_OPS_H
#define PORT_OPS_H

#include "vfit/boot.h"

extern const struct vfit_boot_ops stage_ops;
/* With a TPM: state, counters and measurements through stage_trust (opened by main.c). */
extern const struct vfit_boot_ops stage_tpm_ops;
extern struct vfit_trust stage_trust;

#endif
