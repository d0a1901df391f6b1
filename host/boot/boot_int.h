/* SPDX-License-Identifier: BSD-3-Clause */
/* Private to host/boot/counters*.c: the backend interface behind struct vfit_ctr_store. */
#ifndef VFIT_BOOT_INT_H
#define VFIT_BOOT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "vfit-host/counters.h"
#include "vfit-host/io.h"

struct vfit_ctr_ops {
	int (*read)(struct vfit_ctr_store *s, const char *name, uint64_t *value,
		    struct vfit_err *e);
	/* name is valid; the backend compares value with the stored one. */
	int (*advance)(struct vfit_ctr_store *s, const char *name, uint64_t value,
		       uint64_t *old_value, uint64_t *new_value, struct vfit_err *e);
	void (*close)(struct vfit_ctr_store *s);
};

/* Every backend's state starts with this. */
struct vfit_ctr_store {
	const struct vfit_ctr_ops *ops;
	char desc[320];
};

/*
 * Writes len bytes as path with the host's atomic writer (vfit_out_file(),
 * fixed PATH.tmp: callers hold the store's lock, and a device that loses
 * power mid-write reuses that one file): replace, or link a new file that
 * must not exist yet (status 1 if it does).
 */
static inline int ctr_write(const char *path, const void *data, size_t len, int replace,
			    struct vfit_err *e)
{
	struct vfit_out o = { .mode = 0600, .no_replace = !replace, .fixed_tmp = 1 };

	return vfit_out_file(&o, path, data, len, e);
}

/* Big-endian fields of the store's on-disk format. */
static inline void ctr_put_be(uint8_t *p, uint64_t v, int n)
{
	while (n--) {
		p[n] = (uint8_t)v;
		v >>= 8;
	}
}

static inline uint64_t ctr_get_be(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

#endif
