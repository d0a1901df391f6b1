/* SPDX-License-Identifier: BSD-3-Clause */
/* The release of the library, for applications that link a libvfit built elsewhere. */
#include "vfit/vfit.h"

unsigned long vfit_version(void)
{
	return VFIT_VERSION_NUMBER;
}
