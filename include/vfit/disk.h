/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The vfit boot disk: a GPT disk whose partitions hold what a boot flow
 * needs (docs: man/vfit-disk.1, ports/qemu-virt/README.md).  The codecs here
 * are shared by the device (a port reads the disk through them) and the
 * host (`vfit disk` writes it through them), so both sides always agree.
 * Nothing here does I/O: the caller reads sectors and hands them in, every
 * field is distrusted and bounded before use.
 *
 * Partitions, found by name among the entries of type VFIT_DISK_TYPE_GUID:
 *   vfit-a, vfit-b, vfit-recovery   a chain of FITs (stage 1 first)
 *   vfit-state                      the boot flow's state blob, as a record at
 *                                   0, and the OS's confirmation at
 *                                   VFIT_CONFIRM_AT, as a second record
 *   vfit-counters                   rollback counters, as a record
 *
 * Chain header, the first 512 bytes of a chain partition (little-endian):
 *   0  "VFITCHN\0"   magic
 *   8  u32 version   1
 *  12  u32 count     FITs in the chain, 0..VFIT_CHAIN_MAX
 *  16  {u64 offset, u64 size}[VFIT_CHAIN_MAX]: FIT i at offset (bytes from
 *      the partition start, sector-aligned, after the header, ascending,
 *      not overlapping), unused entries zero
 *  80  u32 CRC-32 of bytes 0..79 (catches a torn or stale header; the
 *      FITs themselves are verified by their signatures)
 *
 * Record partitions hold two copies of VFIT_REC_COPY bytes each; a write
 * goes to the copy that is not the newest, so a power cut leaves the old
 * value readable.  A copy (little-endian):
 *   0  "VFITREC\0"   magic
 *   8  u32 kind      VFIT_REC_STATE or VFIT_REC_COUNTERS
 *  12  u32 seq       the newer valid copy wins (serial-number order)
 *  16  u32 len       payload bytes, 0..VFIT_REC_PAYLOAD_MAX
 *  20  u32 zero
 *  24  payload
 *  24+len  SHA-256 of bytes 0..24+len
 * A partition with no valid copy is corrupt: the reader fails closed
 * (never "empty", so wiping the partition cannot reset the counters).
 * A fresh disk has one copy with len 0 (state: never written).
 *
 * Counters payload: n entries of {name[VFIT_DISK_CTR_NAME] NUL-padded,
 * u64 value}, names unique and valid counter names.
 *
 * Confirmation payload (kind VFIT_REC_CONFIRM): empty (nothing to
 * confirm), or {u32 slot, u32 seq}: the OS asks the bootloader to confirm
 * the slot it booted, whose boot left the state blob at sequence number
 * seq.  The bootloader acts on it at its next power-on, only while the
 * state still says that slot booted last at that seq (nothing booted or
 * was updated since): it re-verifies the chain, ends its trial and
 * advances the rollback counters (vfit_boot_mark_good()), then clears the
 * request.  A request is no security input -- it can only make the device
 * confirm what it booted last, after verifying it again -- so a
 * confirmation record with no valid copy reads as "none", unlike state
 * and counters.
 */
#ifndef VFIT_DISK_H
#define VFIT_DISK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vfit/config.h"
#include "vfit/counter.h"

#define VFIT_DISK_SECTOR 512u
#define VFIT_CHAIN_MAX 4
#define VFIT_CHAIN_HDR_SIZE 84u
#define VFIT_REC_COPY 4096u
#define VFIT_REC_HDR 24u
#define VFIT_REC_SUM 32u
#define VFIT_REC_PAYLOAD_MAX (VFIT_REC_COPY - VFIT_REC_HDR - VFIT_REC_SUM)
#define VFIT_REC_STATE 1u
#define VFIT_REC_COUNTERS 2u
#define VFIT_REC_CONFIRM 3u
/* Byte offset of the confirmation record in the vfit-state partition. */
#define VFIT_CONFIRM_AT (2u * VFIT_REC_COPY)
#define VFIT_CONFIRM_SIZE 8u
#define VFIT_DISK_CTR_NAME ((unsigned int)VFIT_COUNTER_NAME)
#define VFIT_DISK_CTR_ENTRY (VFIT_DISK_CTR_NAME + 8u)
#define VFIT_DISK_CTR_MAX (VFIT_REC_PAYLOAD_MAX / VFIT_DISK_CTR_ENTRY)

/* GPT (UEFI 2.10 §5.3): a header of 92 bytes, entries of 128. */
#define VFIT_GPT_HDR_SIZE 92u
#define VFIT_GPT_ENTRY_SIZE 128u
#define VFIT_GPT_ENTRIES 128u
#define VFIT_GPT_NAME_CHARS 36u

/* Partition type of every vfit partition (mixed-endian, as GPT stores GUIDs). */
#define VFIT_DISK_TYPE_GUID "7f6d1a3c-91b2-4c57-a6e0-3b8d5e2f4c19"
/* The same GUID as GPT stores it (test_disk checks the two agree). */
#define VFIT_DISK_TYPE_BYTES { 0x3c, 0x1a, 0x6d, 0x7f, 0xb2, 0x91, 0x57, 0x4c, \
			       0xa6, 0xe0, 0x3b, 0x8d, 0x5e, 0x2f, 0x4c, 0x19 }

/* Results (include/vfit/result.h's convention: 0 success, failures positive). */
enum vfit_disk_result {
	VFIT_DISK_OK = 0,
	VFIT_DISK_BAD = 1,      /* malformed, checksum wrong, out of bounds */
	VFIT_DISK_ABSENT = 2,   /* no such partition, chain entry or counter */
	VFIT_DISK_FULL = 3,     /* does not fit (payload, partition, table) */
};
/* Returns the name of r for logs. */
const char *vfit_disk_result_to_string(enum vfit_disk_result r);

struct vfit_gpt {
	uint64_t my_lba, alt_lba;
	uint64_t first_lba, last_lba;    /* usable range, inclusive */
	uint64_t entries_lba;
	uint32_t nentries, entry_size;
	uint32_t entries_crc;
	uint8_t disk_guid[16];
};

struct vfit_part {
	uint64_t first_lba, last_lba;    /* inclusive */
	uint8_t type[16], guid[16];
};

struct vfit_chain {
	uint32_t count;
	uint64_t offset[VFIT_CHAIN_MAX], size[VFIT_CHAIN_MAX];
};

/* The OS's confirmation of the boot it runs. */
struct vfit_confirm {
	uint32_t slot;                   /* 0 (A), 1 (B) or 2 (recovery) */
	uint32_t seq;                    /* the state blob's seq after that boot */
};

/*
 * Writes the 16 GPT bytes of a textual GUID (8-4-4-4-12 hex digits) to out;
 * returns VFIT_DISK_OK, or VFIT_DISK_BAD when it is malformed.
 */
VFIT_MUST_CHECK
enum vfit_disk_result vfit_guid_parse(const char *s, uint8_t out[16]);

/*
 * Checks the GPT header in sec[0..VFIT_DISK_SECTOR) read from lba of a disk
 * of disk_lbas sectors: signature, revision, size, CRC, my_lba == lba,
 * usable range and entry array inside the disk and clear of each other,
 * at most VFIT_GPT_ENTRIES entries of VFIT_GPT_ENTRY_SIZE bytes.  Returns
 * VFIT_DISK_OK with *g filled, or VFIT_DISK_BAD.
 */
VFIT_MUST_CHECK
enum vfit_disk_result vfit_gpt_header(const uint8_t *sec, uint64_t lba, uint64_t disk_lbas,
				      struct vfit_gpt *g);

/* Returns the bytes of the entry array: nentries * entry_size (at most 16 KiB). */
uint32_t vfit_gpt_entries_bytes(const struct vfit_gpt *g);

/* Whether the entry array ents[0..vfit_gpt_entries_bytes(g)) has the header's CRC. */
bool vfit_gpt_entries_ok(const struct vfit_gpt *g, const uint8_t *ents);

/*
 * Finds the vfit partition called name (ASCII) in a checked entry array:
 * type VFIT_DISK_TYPE_GUID, name equal, range inside the usable LBAs and
 * sharing no sector with any other used entry.  Returns VFIT_DISK_OK with
 * *p filled, ABSENT when there is none, BAD when two have the name or the
 * range is bad.
 */
VFIT_MUST_CHECK
enum vfit_disk_result vfit_gpt_find(const struct vfit_gpt *g, const uint8_t *ents,
				    const char *name, struct vfit_part *p);

/* Writes GPT header fields and CRC into sec (zeroed first) for the host writer. */
void vfit_gpt_header_encode(const struct vfit_gpt *g, uint8_t *sec);

/* One 128-byte entry: type, guid, range, ASCII name. */
void vfit_gpt_entry_encode(const struct vfit_part *p, const char *name, uint8_t *ent);

/*
 * Decodes the chain header of a partition of part_bytes into *c, checking
 * magic, version, CRC and bounds: returns VFIT_DISK_OK or VFIT_DISK_BAD.
 */
VFIT_MUST_CHECK
enum vfit_disk_result vfit_chain_decode(const uint8_t *sec, uint64_t part_bytes,
					struct vfit_chain *c);
void vfit_chain_encode(const struct vfit_chain *c, uint8_t *sec);

/*
 * The newest valid copy of a record partition: copies are the two
 * VFIT_REC_COPY-byte halves.  Sets *payload (pointing into copies), *len
 * and *seq, and returns VFIT_DISK_OK; VFIT_DISK_BAD when neither copy is
 * valid for kind.  *which is the copy used (0 or 1): a write goes to the
 * other one.
 */
VFIT_MUST_CHECK
enum vfit_disk_result vfit_rec_decode(const uint8_t *copies, uint32_t kind,
				      const uint8_t **payload, uint32_t *len, uint32_t *seq,
				      unsigned int *which);

/*
 * Encodes one copy (VFIT_REC_COPY bytes, zero padded): returns
 * VFIT_DISK_OK, FULL when len is too large, BAD without SHA-256.
 */
VFIT_MUST_CHECK
enum vfit_disk_result vfit_rec_encode(uint32_t kind, uint32_t seq, const void *payload,
				      uint32_t len, uint8_t *copy);

/*
 * Counters payload: the value of name into *value; returns VFIT_DISK_OK,
 * ABSENT when it was never advanced, BAD when the payload is malformed
 * (size, padding, name, duplicates).
 */
VFIT_MUST_CHECK
enum vfit_disk_result vfit_ctr_get(const uint8_t *payload, uint32_t len, const char *name,
				   uint64_t *value);

/*
 * Sets name to value in payload[0..*len) (capacity cap), adding the entry
 * when absent: returns VFIT_DISK_OK, BAD for an invalid name or payload,
 * FULL when no entry fits.
 */
VFIT_MUST_CHECK
enum vfit_disk_result vfit_ctr_set(uint8_t *payload, uint32_t *len, uint32_t cap,
				   const char *name, uint64_t value);

/*
 * Decodes a confirmation payload into *c: returns VFIT_DISK_OK, ABSENT
 * when it is empty, BAD when it is malformed (size, slot).
 */
VFIT_MUST_CHECK
enum vfit_disk_result vfit_confirm_decode(const uint8_t *payload, uint32_t len,
					  struct vfit_confirm *c);
void vfit_confirm_encode(const struct vfit_confirm *c, uint8_t out[VFIT_CONFIRM_SIZE]);

#endif
