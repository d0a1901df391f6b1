/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libvfit-host: the build-machine side (OpenSSL 3, libfdt, dtc), one
 * header per concern, as host/ has one folder per job.  This header
 * includes them all, for a program that calls across them (the vfit
 * binary, the tests); host/'s own files include the ones they use.
 */
#ifndef VFIT_HOST_H
#define VFIT_HOST_H

#include "vfit-host/err.h"      /* errors and exit statuses (host/core) */
#include "vfit-host/io.h"       /* files, the atomic writer (host/core) */
#include "vfit-host/fdtbuf.h"   /* FDT buffers, payloads left in files (host/core) */
#include "vfit-host/json.h"     /* --json output (host/core) */
#include "vfit-host/names.h"    /* U-Boot's name tables (host/core) */
#include "vfit-host/its.h"      /* .its compiled, -f auto (host/its) */
#include "vfit-host/mkimage.h"  /* mkimage with a FIT (host/mkimage) */
#include "vfit-host/keys.h"     /* key material, PKCS#11, keygen (host/keys) */
#include "vfit-host/tools.h"    /* dumpimage, mkenvimage, legacy images, listings (host/tools) */
#include "vfit-host/verify.h"   /* the sparse read of vfit verify (host/verify) */
#include "vfit-host/cipher.h"   /* decryption for checks (host/verify) */
#include "vfit-host/preload.h"  /* pre-load headers (host/preload) */
#include "vfit-host/audit.h"    /* vfit audit (host/audit) */
#include "vfit-host/disk.h"     /* vfit disk (host/disk) */
#include "vfit-host/tpm_dev.h"  /* a TPM device as lib/tpm's transport (host/disk) */

#endif
