/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An in-memory device for the boot flow's unit tests (test_boot_*.c): the
 * platform ops of include/vfit/boot.h over blobs in memory, a RAM layout
 * over a caller's buffer, power cuts, and FITs signed here with the host
 * library into a temporary directory.
 */
#ifndef VFIT_TEST_BOOT_DEV_H
#define VFIT_TEST_BOOT_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vfit/boot.h"

#define RAM_BASE 0x80000000u
#define RAM_SIZE 0x04000000u        /* 64 MiB */
#define FIT_ADDR 0x82000000u
#define FIT_SIZE 0x01000000u
#define LOADER_ADDR 0x83f00000u
#define LOADER_SIZE 0x00100000u

struct blob {
	uint8_t *p;
	size_t n;
};

struct dev {
	struct blob stage[VFIT_BOOT_SLOTS][VFIT_BOOT_MAX_STAGES];
	struct blob rom, recovery, user, state;
	char ctr_name[8][VFIT_BOOT_COUNTER_NAME];
	uint64_t ctr[8];
	unsigned int nctr;
	bool dev_mode;
	bool ctr_broken;    /* counter reads fail (a TPM fault) */
	bool advance_broken; /* counter advances fail */
	bool stage_broken;  /* stage reads fail (a medium error) */
	bool state_broken;  /* state writes fail */
	bool write_broken;  /* stage writes fail */
	bool write_flips;   /* stage writes store one byte flipped */
	int writes;         /* durable writes done */
	int cut_after;      /* > 0: writes after this many are lost (power cut) */
	char log[1 << 16];  /* console text, when the ops print */
	size_t loglen;
};

void blob_set(struct blob *b, const void *p, size_t n);
/* The device's ops; with print, events are formatted into d->log. */
struct vfit_boot_ops dev_ops(struct dev *d, bool print);
/* One region [RAM_BASE, +RAM_SIZE) at ram, loader and staging area as above. */
void dev_layout(struct vfit_boot_layout *l, struct vfit_boot_region *region, uint8_t *ram);
/* Counter `name` of the device (created at 0). */
uint64_t *dev_ctr(struct dev *d, const char *name);
void dev_copy(struct dev *dst, const struct dev *src);
void dev_free(struct dev *d);

/* ---- signed FITs in a temporary directory --------------------------------- */

extern char dev_dir[64];
/* The kernel payload of the standard FITs (KSIZE bytes, loaded at RAM_BASE + 0x80000). */
#define KSIZE 50000
extern uint8_t *kernel_payload;

/* Creates dev_dir, a fresh temporary directory. */
int dev_tempdir(void);
int dev_write_file(const char *path, const void *p, size_t n);
struct blob dev_read_blob(const char *path);
/* Signs an .its (text) into DIR/name.fit with the keys of DIR, public key into dtb. */
int dev_sign(const char *its_text, const char *name, const char *dtb, int req);
/*
 * Keys rom, recovery, kernel; kernel.bin and fw.bin; rom.dtb and bl.dtb;
 * kernel.fit (key kernel, in bl.dtb, required), recovery.fit (key
 * recovery, in rom.dtb, not required), bl.fit (key rom, required:
 * firmware fw.bin at 0x81000000 and fdt bl.dtb).  Both with rollback-index 1
 * on the kernels.
 */
int dev_build_fits(void);
/* Both slots [bl.fit, kernel.fit], rom.dtb and recovery.fit. */
void dev_factory(struct dev *d);
bool dev_kernel_in_ram(const uint8_t *ram);
/* Removes the temporary directory. */
void dev_cleanup(void);

#endif
