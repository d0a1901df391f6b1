/* SPDX-License-Identifier: BSD-3-Clause */
/* The boot flow's ops on QEMU virt (ops.c). */
#ifndef PORT_OPS_H
#define PORT_OPS_H

#include "vfit/boot.h"

extern const struct vfit_boot_ops stage_ops;

#endif
