/* SPDX-License-Identifier: BSD-3-Clause */
/* The disk module's result names, for logs (apart: a port that never prints links none). */
#include "vfit/disk.h"

const char *vfit_disk_result_to_string(enum vfit_disk_result r)
{
	switch (r) {
	case VFIT_DISK_OK:
		return "ok";
	case VFIT_DISK_BAD:
		return "malformed";
	case VFIT_DISK_ABSENT:
		return "absent";
	case VFIT_DISK_FULL:
		return "does not fit";
	}
	return "unknown result";
}
