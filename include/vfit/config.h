/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Build-time algorithm selection for the device library, in the spirit of
 * U-Boot's Kconfig: a product that only needs sha256,rsa2048 builds with
 * e.g. -DVFIT_HAVE_SHA1=0 -DVFIT_HAVE_SHA384=0 ... and links only that.
 * Everything is on by default.  A disabled algorithm is reported as
 * VFIT_ERR_UNSUPPORTED at run time, never silently accepted.
 */
#ifndef VFIT_CONFIG_H
#define VFIT_CONFIG_H

#ifndef VFIT_HAVE_CRC32
#define VFIT_HAVE_CRC32 1
#endif
/* FIT `crc16-ccitt` (U-Boot's hash-images.its); 32 bytes of table. */
#ifndef VFIT_HAVE_CRC16
#define VFIT_HAVE_CRC16 1
#endif
#ifndef VFIT_HAVE_MD5
#define VFIT_HAVE_MD5 1
#endif
#ifndef VFIT_HAVE_SHA1
#define VFIT_HAVE_SHA1 1
#endif
/* SHA-224 shares the SHA-256 engine; only the vector tests need it. */
#ifndef VFIT_HAVE_SHA224
#define VFIT_HAVE_SHA224 1
#endif
#ifndef VFIT_HAVE_SHA256
#define VFIT_HAVE_SHA256 1
#endif
#ifndef VFIT_HAVE_SHA384
#define VFIT_HAVE_SHA384 1
#endif
#ifndef VFIT_HAVE_SHA512
#define VFIT_HAVE_SHA512 1
#endif
#ifndef VFIT_HAVE_RSA_PSS
#define VFIT_HAVE_RSA_PSS 1
#endif
/*
 * ECDSA curves (FIT ecdsa256 / ecdsa384).  Each costs its constants and
 * base-point table; the arithmetic is shared.
 */
#ifndef VFIT_HAVE_ECDSA_P256
#define VFIT_HAVE_ECDSA_P256 1
#endif
#ifndef VFIT_HAVE_ECDSA_P384
#define VFIT_HAVE_ECDSA_P384 1
#endif
/* Largest RSA modulus the verifier accepts; sizes its stack buffers. */
#ifndef VFIT_RSA_MAX_BITS
#define VFIT_RSA_MAX_BITS 4096
#endif

#endif
