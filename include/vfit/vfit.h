/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libvfit: the device side of vfit.  Freestanding C11, no heap, no globals.
 * The documented API is what these headers declare; lib/api.list names
 * every symbol the installed libvfit.a exports (tests/build/symbols.sh).
 */
#ifndef VFIT_H
#define VFIT_H

#include "vfit/config.h"
#include "vfit/result.h"
#include "vfit/hash.h"
#include "vfit/rsa.h"
#include "vfit/ecdsa.h"
#include "vfit/crypto.h"
#include "vfit/boot.h"
#include "vfit/boot_tpm.h"
#include "vfit/counter.h"
#include "vfit/decomp.h"
#include "vfit/disk.h"
#include "vfit/aes.h"
#include "vfit/cipher.h"
#include "vfit/preload.h"
#include "vfit/tpm.h"
#include "vfit/net.h"

/* The release these headers belong to (semantic versioning). */
#define VFIT_VERSION_MAJOR 0
#define VFIT_VERSION_MINOR 2
#define VFIT_VERSION_PATCH 0
/* One number to compare: (major << 16) | (minor << 8) | patch. */
#define VFIT_VERSION_NUMBER \
	((VFIT_VERSION_MAJOR << 16) | (VFIT_VERSION_MINOR << 8) | VFIT_VERSION_PATCH)

/*
 * Returns the release of the library linked in, as VFIT_VERSION_NUMBER:
 * compare it with the headers' when the library may be another build's.
 */
unsigned long vfit_version(void);

#endif
