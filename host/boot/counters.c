/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Rollback counters: the name rules and the calls of the store's backend
 * (host/boot/counters_file.c; the TPM store of vfit boot --trust is
 * lib/boot/boot_tpm.c's NV index instead).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "boot_int.h"

int vfit_ctr_name_valid(const char *name)
{
	return name && vfit_counter_name_valid(name, strlen(name));
}

static int check_name(const struct vfit_ctr_store *s, const char *name, struct vfit_err *e)
{
	if (vfit_ctr_name_valid(name))
		return 0;
	return vfit_err_set(e, VFIT_EXIT_USAGE,
			    "%s: invalid counter name '%s' (1..%d of A-Z a-z 0-9 . _ -)",
			    s->desc, name ? name : "(null)", VFIT_CTR_NAME_MAX);
}

int vfit_ctr_read(struct vfit_ctr_store *s, const char *name, uint64_t *value, struct vfit_err *e)
{
	if (check_name(s, name, e))
		return -1;
	return s->ops->read(s, name, value, e);
}

int vfit_ctr_advance(struct vfit_ctr_store *s, const char *name, uint64_t value,
		     uint64_t *old_value, uint64_t *new_value, struct vfit_err *e)
{
	uint64_t o, n;

	if (check_name(s, name, e))
		return -1;
	if (s->ops->advance(s, name, value, &o, &n, e))
		return -1;
	if (old_value)
		*old_value = o;
	if (new_value)
		*new_value = n;
	return 0;
}

const char *vfit_ctr_describe(const struct vfit_ctr_store *s)
{
	return s->desc;
}

void vfit_ctr_close(struct vfit_ctr_store *s)
{
	if (s)
		s->ops->close(s);
}

