/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Minimal test harness.  Every CHECK counts one case; failures print one
 * line with file:line and a message.  check_done() prints the summary line
 * "N passed, N failed" that tests/run adds up, and returns the exit status.
 */
#ifndef VFIT_TEST_CHECK_H
#define VFIT_TEST_CHECK_H

#include <stddef.h>
#include <stdint.h>

#define CHECK(cond, ...) check_((cond) != 0, __FILE__, __LINE__, __VA_ARGS__)

int check_(int ok, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int check_done(void);

/* Vector files live in tests/vectors (run from the repository root) unless VFIT_VECTORS says otherwise. */
const char *check_vectors_dir(void);
/* Reads a whole file (NUL-terminated, malloc'd); exits with a failure if missing. */
char *check_read_file(const char *path, size_t *len);
/* Hex string (len chars, even) to bytes; returns byte count or -1. */
long check_unhex(const char *hex, size_t len, uint8_t *out, size_t cap);

#endif
