/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/ecdsa as the library is built: see test_ecdsa.h. */
#include "test_ecdsa.h"

int main(void)
{
	return ecdsa_run("libvfit");
}
