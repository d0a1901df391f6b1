/* SPDX-License-Identifier: BSD-3-Clause */
/* libvfit: the device side of vfit.  Freestanding C11, no heap, no globals. */
#ifndef VFIT_H
#define VFIT_H

#include "vfit/config.h"
#include "vfit/result.h"
#include "vfit/hash.h"
#include "vfit/rsa.h"
#include "vfit/ecdsa.h"
#include "vfit/boot.h"

#endif
