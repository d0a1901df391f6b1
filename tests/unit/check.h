/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Minimal test harness.  Every CHECK counts one case; failures print one
 * line "FAIL file:line: message".  SKIP counts a part that cannot run on
 * this machine and prints "SKIP class: reason" (tests/README.md lists the
 * classes).  check_done() prints the summary line
 * "N passed, N failed, N skipped" that tests/run adds up, and returns the
 * exit status.
 */
#ifndef VFIT_TEST_CHECK_H
#define VFIT_TEST_CHECK_H

#include <stddef.h>
#include <stdint.h>

#define CHECK(cond, ...) check_((cond) != 0, __FILE__, __LINE__, __VA_ARGS__)

/*
 * A precondition of the checks that follow (a libfdt edit, a setup step):
 * counts nothing when it holds; otherwise prints FAIL and ends the program
 * with its summary, so a check can never pass on an input that was not made.
 */
#define REQUIRE(cond, ...) check_require_((cond) != 0, __FILE__, __LINE__, __VA_ARGS__)

/* A libfdt call the next checks rely on (an edit, a tree built): its result must be >= 0. */
#define FDT(call) REQUIRE((call) >= 0, "%s", #call)

int check_(int ok, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void check_require_(int ok, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* One skipped part; cls is a class word such as "hw" or "tool". */
void check_skip(const char *cls, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define SKIP(cls, ...) check_skip(cls, __VA_ARGS__)
int check_done(void);

/*
 * The seed of this run's random choices: VFIT_TEST_SEED if set, else dflt.
 * Printed, so that any run can be replayed; also seeds check_rand().
 */
unsigned long check_seed(unsigned long dflt);
/* Deterministic pseudo-random numbers from the seed (not for keys). */
uint64_t check_rand(void);
void check_rand_bytes(void *p, size_t n);

/*
 * For a path that needs a CPU feature: returns 1 when `have` (this CPU has
 * it).  Otherwise runs the whole program again under `qemu-x86_64 -cpu max`
 * if the emulator has the feature (never returns then), else SKIPs with the
 * reason and returns 0.  VFIT_TEST_HIDE_CPU=feature[,feature] pretends the
 * CPU lacks one, to test this path (tests/selftest).  Call it first in main.
 */
int check_cpu(int have, const char *feature, char **argv);

/* Vector files live in tests/vectors (run from the repository root) unless VFIT_VECTORS says otherwise. */
const char *check_vectors_dir(void);
/* Reads a whole file (NUL-terminated, malloc'd); exits with a failure if missing. */
char *check_read_file(const char *path, size_t *len);
/* Hex string (len chars, even) to bytes; returns byte count or -1. */
long check_unhex(const char *hex, size_t len, uint8_t *out, size_t cap);

#endif
