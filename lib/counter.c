/* SPDX-License-Identifier: BSD-3-Clause */
/* The rollback counter name rule (vfit/counter.h). */
#include "vfit/counter.h"

bool vfit_counter_name_valid(const char *s, size_t len)
{
	size_t i;

	if (!len || len >= VFIT_COUNTER_NAME)
		return false;
	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '-' || s[i] == '_' || s[i] == '.'))
			return false;
	return true;
}
