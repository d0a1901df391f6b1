/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The boot flow's platform (struct vfit_boot_ops, include/vfit/boot.h) on
 * QEMU virt, over the platform layer (plat.h): the ROM keys from flash,
 * chain stages and recovery from the disk's partitions, the state and
 * counter records, lib/decomp, the generic timer and the console.
 *
 * Left out on purpose:
 *   dev_mode  this machine has no developer-mode switch: always closed, so
 *             no user key store is read (USER_KEYS is ABSENT);
 *   write     the stage only boots and confirms; updates are written by the
 *             OS into the slot it does not run (`vfit disk update` plays
 *             the OS on the host), as the flow's update would on a device.
 */
#include <string.h>

#include "vfit/boot_tpm.h"
#include "vfit/decomp.h"
#include "ops.h"
#include "plat.h"

extern const uint8_t rom_keys[], rom_keys_end[];

static enum vfit_io io_of(enum plat_io r)
{
	switch (r) {
	case PLAT_IO_OK: return VFIT_IO_OK;
	case PLAT_IO_ABSENT: return VFIT_IO_ABSENT;
	case PLAT_IO_BIG: return VFIT_IO_TOO_BIG;
	default: return VFIT_IO_ERROR;
	}
}

static enum vfit_io op_read(void *plat, enum vfit_boot_obj obj, unsigned int slot,
			    unsigned int stage, void *dst, size_t cap, size_t *len)
{
	size_t n = (size_t)(rom_keys_end - rom_keys);

	(void)plat;
	switch (obj) {
	case VFIT_BOOT_OBJ_ROM:
		if (n > cap)
			return VFIT_IO_TOO_BIG;
		memcpy(dst, rom_keys, n);
		*len = n;
		return VFIT_IO_OK;
	case VFIT_BOOT_OBJ_STAGE:
		if (slot > PLAT_SLOT_B || !stage)
			return VFIT_IO_ABSENT;
		return io_of(plat_chain_read((enum plat_chain)slot, stage - 1, dst, cap, len));
	case VFIT_BOOT_OBJ_RECOVERY:
		return io_of(plat_chain_read(PLAT_RECOVERY, 0, dst, cap, len));
	default:
		return VFIT_IO_ABSENT;
	}
}

static enum vfit_io op_state_read(void *plat, void *buf, size_t cap, size_t *len)
{
	(void)plat;
	return io_of(plat_state_read(buf, cap, len));
}

static enum vfit_io op_state_write(void *plat, const void *buf, size_t len)
{
	(void)plat;
	return io_of(plat_state_write(buf, len));
}

static enum vfit_io op_counter_read(void *plat, const char *name, uint64_t *value)
{
	(void)plat;
	return io_of(plat_counter_read(name, value));
}

static enum vfit_io op_counter_advance(void *plat, const char *name, uint64_t value)
{
	(void)plat;
	return io_of(plat_counter_advance(name, value));
}

static enum vfit_decomp_result op_decompress(void *plat, enum vfit_comp comp, const void *src,
					     size_t len, void *dst, size_t cap, size_t *out)
{
	(void)plat;
	return vfit_decompress(comp, src, len, dst, cap, out);
}

static uint64_t op_now(void *plat)
{
	(void)plat;
	return plat_now_ns();
}

static void line(void *ctx, const char *s)
{
	(void)ctx;
	plat_print(s);
}

/* The console: every event as vfit_boot_format_event() words it, as the simulator prints. */
static void op_event(void *plat, const struct vfit_boot_event *ev)
{
	vfit_boot_format_event(ev, line, plat);
}

/*
 * With a TPM the state blob (the boot record) and the counters live in its
 * NV index (include/vfit/boot_tpm.h), and what the flow starts is measured.
 */
struct vfit_trust stage_trust;

static enum vfit_io tpm_state_read(void *plat, void *buf, size_t cap, size_t *len)
{
	return vfit_trust_state_read(plat, buf, cap, len);
}

static enum vfit_io tpm_state_write(void *plat, const void *buf, size_t len)
{
	return vfit_trust_state_write(plat, buf, len);
}

static enum vfit_io tpm_counter_read(void *plat, const char *name, uint64_t *value)
{
	return vfit_trust_counter_read(plat, name, value);
}

static enum vfit_io tpm_counter_advance(void *plat, const char *name, uint64_t value)
{
	return vfit_trust_counter_advance(plat, name, value);
}

static enum vfit_io tpm_commit(void *plat, bool keep)
{
	return vfit_trust_commit(plat, keep);
}

static enum vfit_io tpm_measure(void *plat, unsigned int pcr, uint32_t type,
				const struct vfit_digest_set *d, const void *event, size_t len)
{
	return vfit_trust_measure(plat, pcr, type, d, event, len);
}

/* A hash for each active PCR bank. */
static uint32_t tpm_measure_hashes(void *plat)
{
	return ((const struct vfit_trust *)plat)->hashes;
}

const struct vfit_boot_ops stage_tpm_ops = {
	.plat = &stage_trust,
	.read = op_read,
	.state_read = tpm_state_read,
	.state_write = tpm_state_write,
	.counter_read = tpm_counter_read,
	.counter_advance = tpm_counter_advance,
	.commit = tpm_commit,
	.decompress = op_decompress,
	.now_ns = op_now,
	.event = op_event,
	.measure = tpm_measure,
	.measure_hashes = tpm_measure_hashes,
};

const struct vfit_boot_ops stage_ops = {
	.plat = NULL,
	.read = op_read,
	.state_read = op_state_read,
	.state_write = op_state_write,
	.counter_read = op_counter_read,
	.counter_advance = op_counter_advance,
	.decompress = op_decompress,
	.now_ns = op_now,
	.event = op_event,
};
