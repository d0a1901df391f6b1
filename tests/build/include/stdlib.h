/* SPDX-License-Identifier: BSD-3-Clause */
/* libfdt_env.h includes <stdlib.h>; the device library uses nothing from it. */
#ifndef VFIT_SHIM_STDLIB_H
#define VFIT_SHIM_STDLIB_H
#include <stddef.h>
#endif
