/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef VFIT_RESULT_H
#define VFIT_RESULT_H

/*
 * Result of every device-side check.  The numeric values are stable ABI:
 * new codes are only ever appended.
 */
enum vfit_result {
	VFIT_OK = 0,
	VFIT_ERR_UNSUPPORTED = 1,   /* algorithm unknown or not built in */
	VFIT_ERR_KEY = 2,           /* key malformed or inconsistent */
	VFIT_ERR_SIG_LENGTH = 3,    /* signature length != modulus length */
	VFIT_ERR_SIG_RANGE = 4,     /* signature value >= modulus */
	VFIT_ERR_SIGNATURE = 5,     /* padding or digest does not match */
	VFIT_ERR_PARAM = 6,         /* caller passed an impossible argument */
};

const char *vfit_result_to_string(enum vfit_result r);

#endif
