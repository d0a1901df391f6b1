/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Comparing a key-node writer with `mkimage -K` (test_keys.c for RSA,
 * test_keys_ecdsa.c for ECDSA).  mkimage grows the DTB file by 0, then
 * 1024, then 2048 ... more bytes (cumulatively, keeping what a failed
 * attempt wrote) until neither the FIT nor the DTB reports
 * -FDT_ERR_NOSPACE; the writer is driven the same way, with the number of
 * attempts taken from the size mkimage ended with.
 */
#ifndef VFIT_TEST_KEYNODE_H
#define VFIT_TEST_KEYNODE_H

#include <stddef.h>
#include <stdint.h>

/* Writes one key node into fdt: 0 or a negative libfdt error. */
typedef int (*keynode_writer)(void *fdt, const void *arg);

/*
 * CHECKs that the writer, applied to a copy of in[0 .. in_len) with
 * mkimage's growth, gives exactly the file mk_path (`what` names the case).
 */
void keynode_compare(const char *what, const char *mk_path, const uint8_t *in, size_t in_len,
		     keynode_writer write, const void *arg);

/*
 * The two tests drive mkimage and dtc in a scratch directory `dir`:
 * system() of the formatted command line (its wait status).
 */
int keynode_run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Writes text to dir/name; a failure ends the program (REQUIRE). */
void keynode_write(const char *dir, const char *name, const char *text);

/* dir/name read whole (check_read_file), or NULL. */
uint8_t *keynode_read(const char *dir, const char *name, size_t *len);

/*
 * Writes dir/x.its: a kernel and conf-1 signed with algo by key "dev", the
 * FIT both tests sign with `mkimage -K`.
 */
void keynode_its(const char *dir, const char *algo);

#endif
