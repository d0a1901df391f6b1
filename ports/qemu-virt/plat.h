/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The platform layer of the QEMU virt port: exactly the services a boot
 * flow needs -- storage objects (FIT chains on GPT partitions) read into
 * and written from RAM, the state blob, the rollback counter store, a
 * console, a clock and the RAM layout.  ops.c maps these one to one onto
 * the boot flow's ops; nothing here knows about FITs or keys.
 */
#ifndef PORT_PLAT_H
#define PORT_PLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum plat_io {
	PLAT_IO_OK = 0,
	PLAT_IO_ABSENT = -1,   /* no such object (empty chain entry, no partition) */
	PLAT_IO_BIG = -2,      /* larger than the space offered */
	PLAT_IO_ERROR = -3,    /* the medium failed or holds corrupt metadata */
};

enum plat_chain { PLAT_SLOT_A = 0, PLAT_SLOT_B = 1, PLAT_RECOVERY = 2 };
#define PLAT_CHAINS 3

/*
 * Bus addresses.  RAM comes from QEMU's DTB; the loader region (the
 * stage's data, bss and stack) and the FIT staging area are fixed by the
 * link and lie inside RAM; images may be placed anywhere else.
 */
struct plat_ram {
	uint64_t base, size;
	uint64_t loader_addr, loader_size;
	uint64_t fit_addr, fit_size;
	uint64_t dtb_addr;             /* QEMU's own DTB (checked header) */
};

/* Brings up MMU, console, clock and the disk; NULL or why it failed. */
const char *plat_init(struct plat_ram *ram);
/* Stops the devices the stage drove (the disk), before Linux owns their memory. */
void plat_quiesce(void);

/*
 * FIT `stage` (0-based) of a chain into dst[0..cap): dst must be in RAM,
 * the device writes it there directly.  Whole sectors are transferred,
 * so cap must hold the size rounded up to 512 (else PLAT_IO_BIG).
 */
enum plat_io plat_chain_read(enum plat_chain c, unsigned int stage, void *dst, size_t cap,
			     size_t *len);

/*
 * Replaces a whole chain: the FITs first, the header last, so a power cut
 * leaves the old header (now pointing at overwritten data: the chain no
 * longer verifies, the flow's A/B takes over) or the new one.  Sources are
 * read by the device from RAM.
 */
enum plat_io plat_chain_write(enum plat_chain c, const void *const fit[], const size_t len[],
			      unsigned int n);

/* The state blob: ABSENT when never written; ERROR when no copy is valid. */
enum plat_io plat_state_read(void *buf, size_t cap, size_t *len);
enum plat_io plat_state_write(const void *buf, size_t len);

/* Rollback counters (0 when never advanced); ERROR when the store is corrupt. */
enum plat_io plat_counter_read(const char *name, uint64_t *value);
enum plat_io plat_counter_advance(const char *name, uint64_t value);

/*
 * The OS's confirmation of the boot it runs (vfit/disk.h): ABSENT when
 * there is none, including when no copy is valid (a request is no
 * security input); clear replaces it with "none".
 */
enum plat_io plat_confirm_read(unsigned int *slot, uint32_t *seq);
enum plat_io plat_confirm_clear(void);

void plat_print(const char *line);
uint64_t plat_now_ns(void);

#endif
