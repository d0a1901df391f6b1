/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A small TPM 2.0 command layer for a boot stage (TPM 2.0 Library, Part 3)
 * over the port's own transport (TIS MMIO, SPI, I2C, a socket on a host),
 * and the TCG2 crypto-agile event log of the TCG PC Client Platform Firmware
 * Profile (writer and replay).
 *
 * Freestanding: no heap, no global state.  Everything lives in a struct
 * vfit_tpm the caller owns (about 4 KiB: the command/response buffer) and in
 * the memory region the caller gives the log.
 *
 * Every response is hostile input: tag, responseSize (equal to the bytes the
 * transport received, within the buffer), parameterSize of a session
 * response, each TPM2B size against what is left, each count against its
 * limit, and the exact end of the response are checked before anything is
 * used; any violation is VFIT_TPM_ERR_MALFORMED.  Outputs are written only
 * on VFIT_TPM_OK (vfit_tpm_nv_read and _get_random: only what came before
 * the failing chunk).
 * A response code other than TPM_RC_SUCCESS is VFIT_TPM_ERR_RC with the code
 * in tpm->rc (VFIT_TPM_ERR_INITIALIZED for Startup's TPM_RC_INITIALIZE).
 *
 * Authorization is the password session TPM_RS_PW (struct vfit_tpm_auth):
 * the platform hierarchy's password is empty after Startup(CLEAR), an NV
 * index with AUTHREAD/AUTHWRITE uses its own password.
 *
 * The host transport to swtpm (its data and control sockets, power cycles)
 * is in host/core/tpm_sock.c, include/vfit-host/tpm_sock.h (libvfit-host).
 */
#ifndef VFIT_TPM_H
#define VFIT_TPM_H

#include <stddef.h>
#include <stdint.h>

#include "vfit/config.h"
#include "vfit/hash.h"

/*
 * Command and response buffer: TPM 2.0 MAX_COMMAND_SIZE / MAX_RESPONSE_SIZE
 * of PC Client TPMs (swtpm, most discrete parts) are 4096.  One buffer holds
 * the command, then the response (see struct vfit_tpm_transport).
 */
#define VFIT_TPM_BUF_SIZE 4096
/* Most banks handled at once (sha1, sha256, sha384, sha512, sm3_256). */
#define VFIT_TPM_MAX_BANKS 5
#define VFIT_TPM_MAX_DIGEST 64         /* sha512 */
#define VFIT_TPM_MAX_PASSWORD 64       /* password of a TPM_RS_PW session */
#define VFIT_TPM_PCR_COUNT 24          /* PC Client: PCRs 0..23 */
/*
 * NV_Read / NV_Write move at most this many bytes per command: below any
 * PC Client TPM's TPM_PT_NV_BUFFER_MAX (swtpm: 1024, checked by test_tpm).
 */
#define VFIT_TPM_NV_CHUNK 512

/* Results.  Values are stable; new ones are only appended. */
enum vfit_tpm_result {
	VFIT_TPM_OK = 0,
	VFIT_TPM_ERR_PARAM = 1,        /* impossible argument (NULL, size beyond a limit) */
	VFIT_TPM_ERR_TRANSPORT = 2,    /* transport failure (bus error, short transfer, closed socket) */
	VFIT_TPM_ERR_NO_TPM = 3,       /* transport found no TPM where one was declared */
	VFIT_TPM_ERR_TIMEOUT = 4,      /* TPM did not answer in time */
	VFIT_TPM_ERR_MALFORMED = 5,    /* response violates the TPM 2.0 format */
	VFIT_TPM_ERR_RC = 6,           /* TPM returned an error: tpm->rc holds the code */
	VFIT_TPM_ERR_INITIALIZED = 7,  /* Startup: TPM already started (TPM_RC_INITIALIZE) */
	VFIT_TPM_ERR_UNSUPPORTED = 8,  /* algorithm unknown here, bank not active, property absent */
	VFIT_TPM_ERR_SPACE = 9,        /* command, or log entry, does not fit its buffer/region */
	VFIT_TPM_ERR_LIMIT = 10,       /* TPM reports more active banks than VFIT_TPM_MAX_BANKS */
	VFIT_TPM_ERR_LOG = 11,         /* event log malformed (replay, or log/digest banks differ) */
};
/* Returns the name of r for logs ("unknown TPM result" past the list). */
const char *vfit_tpm_result_to_string(enum vfit_tpm_result r);

/*
 * The port's transport.  xfer sends cmd_len bytes of a marshalled command
 * and receives the whole response into rsp (at most rsp_cap bytes), setting
 * *rsp_len.  cmd and rsp are the SAME buffer (tpm->buf): the transport must
 * have sent the whole command before it writes the first response byte, as
 * every TPM transport does (TPM commands are half-duplex).  A response
 * longer than rsp_cap is VFIT_TPM_ERR_TRANSPORT (or truncated to rsp_cap: the
 * parser then refuses it as MALFORMED since responseSize disagrees).
 * Returns VFIT_TPM_OK, VFIT_TPM_ERR_TRANSPORT, VFIT_TPM_ERR_NO_TPM or
 * VFIT_TPM_ERR_TIMEOUT; anything else is treated as VFIT_TPM_ERR_TRANSPORT.
 */
struct vfit_tpm_transport {
	enum vfit_tpm_result (*xfer)(void *ctx, const uint8_t *cmd, size_t cmd_len,
				     uint8_t *rsp, size_t rsp_cap, size_t *rsp_len);
	void *ctx;
};

struct vfit_tpm {
	struct vfit_tpm_transport tr;
	uint32_t rc;            /* response code of the last command answered (0 = success) */
	uint32_t commands;      /* commands sent since vfit_tpm_init (bench: command count) */
	uint8_t buf[VFIT_TPM_BUF_SIZE];
};

void vfit_tpm_init(struct vfit_tpm *tpm, const struct vfit_tpm_transport *tr);

/* ---- constants (TPM 2.0 Part 2) ---- */

/* Hash algorithms (TPM_ALG_ID) of PCR banks and NV name algorithms. */
enum vfit_tpm_alg {
	VFIT_TPM_ALG_SHA1 = 0x0004,
	VFIT_TPM_ALG_SHA256 = 0x000B,
	VFIT_TPM_ALG_SHA384 = 0x000C,
	VFIT_TPM_ALG_SHA512 = 0x000D,
	VFIT_TPM_ALG_SM3_256 = 0x0012,
};
const char *vfit_tpm_alg_to_string(uint16_t alg);   /* returns "sha256", ...; "unknown" */
size_t vfit_tpm_alg_digest_size(uint16_t alg);      /* returns its digest bytes, 0 if unknown */

/* Permanent handles */
#define VFIT_TPM_RH_OWNER       0x40000001u
#define VFIT_TPM_RH_NULL        0x40000007u
#define VFIT_TPM_RS_PW          0x40000009u
#define VFIT_TPM_RH_LOCKOUT     0x4000000Au
#define VFIT_TPM_RH_ENDORSEMENT 0x4000000Bu
#define VFIT_TPM_RH_PLATFORM    0x4000000Cu
#define VFIT_TPM_RH_PLATFORM_NV 0x4000000Du
/* NV index handles are 0x01000000..0x01FFFFFF (TPM_HT_NV_INDEX). */
#define VFIT_TPM_HR_NV_INDEX    0x01000000u

/* TPMA_NV bits */
#define VFIT_TPMA_NV_PPWRITE        (1u << 0)
#define VFIT_TPMA_NV_OWNERWRITE     (1u << 1)
#define VFIT_TPMA_NV_AUTHWRITE      (1u << 2)
#define VFIT_TPMA_NV_POLICYWRITE    (1u << 3)
#define VFIT_TPMA_NV_TPM_NT_SHIFT   4           /* 4 bits: index type */
#define VFIT_TPMA_NV_TPM_NT_MASK    (0xFu << 4)
#define VFIT_TPM_NT_ORDINARY        0u
#define VFIT_TPM_NT_COUNTER         1u
#define VFIT_TPM_NT_BITS            2u
#define VFIT_TPM_NT_EXTEND          4u
#define VFIT_TPMA_NV_POLICY_DELETE  (1u << 10)
#define VFIT_TPMA_NV_WRITELOCKED    (1u << 11)
#define VFIT_TPMA_NV_WRITEALL       (1u << 12)
#define VFIT_TPMA_NV_WRITEDEFINE    (1u << 13)
#define VFIT_TPMA_NV_WRITE_STCLEAR  (1u << 14)
#define VFIT_TPMA_NV_GLOBALLOCK     (1u << 15)
#define VFIT_TPMA_NV_PPREAD         (1u << 16)
#define VFIT_TPMA_NV_OWNERREAD      (1u << 17)
#define VFIT_TPMA_NV_AUTHREAD       (1u << 18)
#define VFIT_TPMA_NV_POLICYREAD     (1u << 19)
#define VFIT_TPMA_NV_NO_DA          (1u << 25)
#define VFIT_TPMA_NV_ORDERLY        (1u << 26)
#define VFIT_TPMA_NV_CLEAR_STCLEAR  (1u << 27)
#define VFIT_TPMA_NV_READLOCKED     (1u << 28)
#define VFIT_TPMA_NV_WRITTEN        (1u << 29)
#define VFIT_TPMA_NV_PLATFORMCREATE (1u << 30)
#define VFIT_TPMA_NV_READ_STCLEAR   (1u << 31)

/* Properties for vfit_tpm_get_property (TPM_PT) */
#define VFIT_TPM_PT_MANUFACTURER       0x00000105u
#define VFIT_TPM_PT_MAX_COMMAND_SIZE   0x0000011Eu
#define VFIT_TPM_PT_MAX_RESPONSE_SIZE  0x0000011Fu
#define VFIT_TPM_PT_NV_BUFFER_MAX      0x0000012Cu
#define VFIT_TPM_PT_PERMANENT          0x00000200u
#define VFIT_TPM_PT_STARTUP_CLEAR      0x00000201u
/* TPMA_STARTUP_CLEAR bits (value of VFIT_TPM_PT_STARTUP_CLEAR) */
#define VFIT_TPMA_STARTUP_PH_ENABLE    (1u << 0)
#define VFIT_TPMA_STARTUP_SH_ENABLE    (1u << 1)
#define VFIT_TPMA_STARTUP_EH_ENABLE    (1u << 2)
#define VFIT_TPMA_STARTUP_PH_ENABLE_NV (1u << 3)
#define VFIT_TPMA_STARTUP_ORDERLY      (1u << 31)

/*
 * Response codes (TPM_RC) callers test for.  A format-one code carries the
 * number of the handle, parameter or session at fault: compare
 * vfit_tpm_rc_base(tpm->rc) with these.
 */
#define VFIT_TPM_RC_SUCCESS          0x000u
#define VFIT_TPM_RC_BAD_TAG          0x01Eu
#define VFIT_TPM_RC_INITIALIZE       0x100u
#define VFIT_TPM_RC_FAILURE          0x101u
#define VFIT_TPM_RC_DISABLED         0x120u
#define VFIT_TPM_RC_AUTH_MISSING     0x125u
#define VFIT_TPM_RC_AUTH_UNAVAILABLE 0x12Fu
#define VFIT_TPM_RC_COMMAND_CODE     0x143u
#define VFIT_TPM_RC_NV_RANGE         0x146u
#define VFIT_TPM_RC_NV_SIZE          0x147u
#define VFIT_TPM_RC_NV_LOCKED        0x148u
#define VFIT_TPM_RC_NV_AUTHORIZATION 0x149u
#define VFIT_TPM_RC_NV_UNINITIALIZED 0x14Au
#define VFIT_TPM_RC_NV_SPACE         0x14Bu
#define VFIT_TPM_RC_NV_DEFINED       0x14Cu
#define VFIT_TPM_RC_ATTRIBUTES       0x082u
#define VFIT_TPM_RC_HIERARCHY        0x085u
#define VFIT_TPM_RC_VALUE            0x084u
#define VFIT_TPM_RC_HASH             0x083u
#define VFIT_TPM_RC_HANDLE           0x08Bu
#define VFIT_TPM_RC_AUTH_FAIL        0x08Eu
#define VFIT_TPM_RC_SIZE             0x095u
#define VFIT_TPM_RC_BAD_AUTH         0x0A2u
#define VFIT_TPM_RC_LOCKOUT          0x921u
#define VFIT_TPM_RC_RETRY            0x922u
#define VFIT_TPM_RC_NV_UNAVAILABLE   0x923u
/* Returns rc without the handle/parameter/session number of a format-one code. */
uint32_t vfit_tpm_rc_base(uint32_t rc);
/* Returns "TPM_RC_NV_LOCKED", ... for the codes above (on the base), else "TPM_RC_(other)". */
const char *vfit_tpm_rc_to_string(uint32_t rc);

/*
 * ---- commands ----
 * Each returns VFIT_TPM_OK; VFIT_TPM_ERR_RC (tpm->rc holds the code) when
 * the TPM refused the command; a transport result (TRANSPORT, NO_TPM,
 * TIMEOUT) when it could not be asked; VFIT_TPM_ERR_MALFORMED for an
 * answer that breaks the format; and the results its comment names.
 */

/* Password session: handle authorizes (TPM_RH_PLATFORM, TPM_RH_OWNER, or the NV index itself). */
struct vfit_tpm_auth {
	uint32_t handle;
	const uint8_t *password;        /* NULL when password_len is 0 */
	uint16_t password_len;          /* <= VFIT_TPM_MAX_PASSWORD */
};

/*
 * TPM2_Startup(TPM_SU_CLEAR).  Returns as every command, and
 * VFIT_TPM_ERR_INITIALIZED if the TPM was already started.
 */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_startup_clear(struct vfit_tpm *tpm);

/* Active PCR banks: TPM2_GetCapability(TPM_CAP_PCRS). */
struct vfit_tpm_banks {
	uint32_t count;                          /* banks with at least one PCR selected */
	uint16_t alg[VFIT_TPM_MAX_BANKS];        /* TPM's order */
	uint32_t pcr_mask[VFIT_TPM_MAX_BANKS];   /* bit n: PCR n allocated in that bank (PCRs 0..31) */
};
/*
 * Fills *out; returns as every command.  Banks whose algorithm this layer
 * does not know (vfit_tpm_alg_digest_size 0) are VFIT_TPM_ERR_UNSUPPORTED
 * when active: a caller could not extend them, and a PCR bank left
 * unextended is a forgeable one; more than VFIT_TPM_MAX_BANKS are
 * VFIT_TPM_ERR_LIMIT; no active bank is VFIT_TPM_ERR_UNSUPPORTED, and an
 * answer in parts (moreData) VFIT_TPM_ERR_MALFORMED.
 */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_get_banks(struct vfit_tpm *tpm, struct vfit_tpm_banks *out);

/*
 * One TPM_PT property (TPM_CAP_TPM_PROPERTIES) into *value; returns as
 * every command, VFIT_TPM_ERR_UNSUPPORTED if the TPM lacks it.
 */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_get_property(struct vfit_tpm *tpm, uint32_t property, uint32_t *value);

/* TPM2_GetRandom, looping until len bytes were received; returns as every command. */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_get_random(struct vfit_tpm *tpm, void *out, size_t len);

/*
 * TPM2_HierarchyControl: auth->handle is TPM_RH_PLATFORM (or the hierarchy
 * that owns `enable`), enable is TPM_RH_PLATFORM/OWNER/ENDORSEMENT/PLATFORM_NV,
 * state 0 disables, 1 enables.  Disabling TPM_RH_PLATFORM lasts until the
 * next Startup(CLEAR) (i.e. the next reset).  Returns as every command.
 */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_hierarchy_control(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
						uint32_t enable, int state);

/* NV public area (TPMS_NV_PUBLIC), every field, so that callers compare attributes exactly. */
struct vfit_tpm_nv_public {
	uint32_t index;
	uint16_t name_alg;
	uint32_t attributes;                    /* TPMA_NV */
	uint16_t auth_policy_size;              /* <= VFIT_TPM_MAX_DIGEST */
	uint8_t auth_policy[VFIT_TPM_MAX_DIGEST];
	uint16_t data_size;
};

/*
 * TPM2_NV_ReadPublic into *out; returns as every command.  The response
 * must describe `index` (else MALFORMED); an undefined index is
 * VFIT_TPM_ERR_RC with rc base TPM_RC_HANDLE.
 */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_nv_read_public(struct vfit_tpm *tpm, uint32_t index,
					     struct vfit_tpm_nv_public *out);

/*
 * TPM2_NV_DefineSpace with hierarchy auth (TPM_RH_PLATFORM or TPM_RH_OWNER),
 * the index's own password (index_auth, may be NULL with len 0) and its
 * public area (pub->index, name_alg, attributes, auth policy, data_size).
 * Returns as every command.
 */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_nv_define_space(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
					      const void *index_auth, size_t index_auth_len,
					      const struct vfit_tpm_nv_public *pub);
/* TPM2_NV_UndefineSpace (auth: the hierarchy that defined it); returns as every command. */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_nv_undefine_space(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
						uint32_t index);

/*
 * TPM2_NV_Read / TPM2_NV_Write of len bytes at offset, in commands of at most
 * VFIT_TPM_NV_CHUNK bytes.  auth->handle is TPM_RH_PLATFORM (PPREAD/PPWRITE),
 * TPM_RH_OWNER, or the index (AUTHREAD/AUTHWRITE).  Each returns as every
 * command; a read response with another size than asked is MALFORMED.
 */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_nv_read(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
				      uint32_t index, uint16_t offset, void *out, size_t len);
/* (TPM2_NV_Write: see vfit_tpm_nv_read(); returns as every command.) */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_nv_write(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
				       uint32_t index, uint16_t offset, const void *data, size_t len);
/* A TPM_NT_COUNTER index: NV_Read of its 8 bytes, big-endian; returns as every command. */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_nv_read_counter(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
					      uint32_t index, uint64_t *value);
/* TPM2_NV_Increment of a TPM_NT_COUNTER index; returns as every command. */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_nv_increment(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
					   uint32_t index);
/* TPM2_NV_WriteLock (WRITE_STCLEAR / WRITEDEFINE indices); returns as every command. */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_nv_write_lock(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
					    uint32_t index);
/* TPM2_NV_ReadLock (READ_STCLEAR indices); returns as every command. */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_nv_read_lock(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth,
					   uint32_t index);

/* A digest per bank (TPML_DIGEST_VALUES). */
struct vfit_tpm_digests {
	uint32_t count;
	struct {
		uint16_t alg;
		uint8_t digest[VFIT_TPM_MAX_DIGEST];    /* vfit_tpm_alg_digest_size(alg) bytes used */
	} d[VFIT_TPM_MAX_BANKS];
};

/*
 * TPM2_PCR_Extend of every digest in d (empty password on the PCR handle);
 * returns as every command.
 */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_pcr_extend(struct vfit_tpm *tpm, uint32_t pcr, const struct vfit_tpm_digests *d);

/*
 * TPM2_PCR_Read of one PCR in one bank: out gets vfit_tpm_alg_digest_size(alg)
 * bytes; update_counter (may be NULL) the TPM's pcrUpdateCounter.
 * Returns as every command; VFIT_TPM_ERR_UNSUPPORTED if the bank does not
 * hold that PCR; a hash the TPM does not implement is VFIT_TPM_ERR_RC with
 * TPM_RC_HASH.
 */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_pcr_read(struct vfit_tpm *tpm, uint32_t pcr, uint16_t alg,
				       uint8_t out[VFIT_TPM_MAX_DIGEST], uint32_t *update_counter);

/* ---- TCG2 event log (TCG PC Client Platform Firmware Profile, crypto-agile format) ---- */

/* Event types (TCG PC Client PFP, section "Events"): uint32_t values, some above INT_MAX */
#define VFIT_TPM_EV_PREBOOT_CERT               0x00000000u
#define VFIT_TPM_EV_POST_CODE                  0x00000001u
#define VFIT_TPM_EV_NO_ACTION                  0x00000003u
#define VFIT_TPM_EV_SEPARATOR                  0x00000004u
#define VFIT_TPM_EV_ACTION                     0x00000005u
#define VFIT_TPM_EV_EVENT_TAG                  0x00000006u
#define VFIT_TPM_EV_S_CRTM_CONTENTS            0x00000007u
#define VFIT_TPM_EV_S_CRTM_VERSION             0x00000008u
#define VFIT_TPM_EV_CPU_MICROCODE              0x00000009u
#define VFIT_TPM_EV_PLATFORM_CONFIG_FLAGS      0x0000000Au
#define VFIT_TPM_EV_TABLE_OF_DEVICES           0x0000000Bu
#define VFIT_TPM_EV_COMPACT_HASH               0x0000000Cu
#define VFIT_TPM_EV_IPL                        0x0000000Du
#define VFIT_TPM_EV_IPL_PARTITION_DATA         0x0000000Eu
#define VFIT_TPM_EV_NONHOST_CODE               0x0000000Fu
#define VFIT_TPM_EV_NONHOST_CONFIG             0x00000010u
#define VFIT_TPM_EV_NONHOST_INFO               0x00000011u
#define VFIT_TPM_EV_OMIT_BOOT_DEVICE_EVENTS    0x00000012u
#define VFIT_TPM_EV_EFI_ACTION                 0x80000007u
#define VFIT_TPM_EV_EFI_PLATFORM_FIRMWARE_BLOB 0x80000008u
#define VFIT_TPM_EV_EFI_HANDOFF_TABLES         0x80000009u
/* Returns "EV_SEPARATOR", ...; "EV_(unknown)" for others. */
const char *vfit_tpm_event_to_string(uint32_t type);

/* The writer: a region the caller reserves (and later announces to the OS). */
struct vfit_tpm_log {
	uint8_t *base;
	size_t cap;
	size_t len;                              /* bytes written: the log is base[0..len) */
	uint32_t bank_count;                     /* banks of every event, in this order */
	uint16_t alg[VFIT_TPM_MAX_BANKS];
};

/*
 * Starts a log in mem[0..cap) with the Spec ID event (EV_NO_ACTION,
 * "Spec ID Event03", SHA-1 event format) listing banks->alg with their digest
 * sizes.  Returns VFIT_TPM_OK, VFIT_TPM_ERR_SPACE if it does not fit,
 * UNSUPPORTED for a bank of unknown digest size.
 */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_log_init(struct vfit_tpm_log *log, void *mem, size_t cap,
				       const struct vfit_tpm_banks *banks);

/*
 * Appends a TCG_PCR_EVENT2 (pcr, type, one digest per log bank, event data).
 * Returns VFIT_TPM_OK; VFIT_TPM_ERR_LOG unless d holds exactly the log's
 * banks (any order), VFIT_TPM_ERR_SPACE (nothing written) if the region
 * cannot take it.
 */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_log_append(struct vfit_tpm_log *log, uint32_t pcr, uint32_t type,
					 const struct vfit_tpm_digests *d, const void *event, size_t event_len);

/*
 * Measures: extends `pcr` with the digests the caller already computed (no
 * re-hashing here) and appends the matching log entry.  The room in the log
 * and the banks are checked first, so a PCR is never extended with a
 * measurement the log would miss; if the extend fails nothing is logged.
 * log may be NULL (extend only).  Returns what the extend or the log
 * check returned (VFIT_TPM_OK when both were done).
 */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_measure(struct vfit_tpm *tpm, struct vfit_tpm_log *log, uint32_t pcr,
				      uint32_t type, const struct vfit_tpm_digests *d,
				      const void *event, size_t event_len);

/*
 * Replays a log (Spec ID event first, then TCG_PCR_EVENT2 entries, exactly
 * len bytes): the value PCR `pcr` of bank `alg` must hold after those
 * extends, written to out (vfit_tpm_alg_digest_size(alg) bytes).  Starts
 * from zeros (0xFF for PCRs 17..22; PCR 0 from the locality of a
 * StartupLocality EV_NO_ACTION event).  Returns VFIT_TPM_OK;
 * VFIT_TPM_ERR_LOG for a malformed log,
 * UNSUPPORTED for a bank the log lacks or this build cannot hash (sha1,
 * sha256, sha384, sha512 are replayed).  *events (may be NULL) gets the
 * number of events extended into that PCR.
 */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_log_replay(const void *log, size_t len, uint32_t pcr, uint16_t alg,
					 uint8_t out[VFIT_TPM_MAX_DIGEST], uint32_t *events);

/* ---- banks and the library's hashes ---- */

/* Returns the hash of a bank's algorithm in vfit/hash.h, VFIT_HASH_INVALID for none (sm3_256). */
enum vfit_hash vfit_tpm_alg_hash(uint16_t alg);

/*
 * *hashes: the hashes (VFIT_HASH_BIT of each) whose digests extend the
 * banks of b.  Returns VFIT_TPM_OK, VFIT_TPM_ERR_PARAM, or
 * VFIT_TPM_ERR_UNSUPPORTED with the algorithm in *alg of a bank this build
 * cannot hash (sm3_256, or a SHA-2 compiled out): a bank left unextended
 * is one the OS can forge.
 */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_banks_hashes(const struct vfit_tpm_banks *b, uint32_t *hashes,
					   uint16_t *alg);

/*
 * d: the digest of every bank of b, taken from s.  Returns VFIT_TPM_OK,
 * VFIT_TPM_ERR_PARAM, or VFIT_TPM_ERR_UNSUPPORTED when s lacks one.
 */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_digests_from(const struct vfit_tpm_banks *b,
					   const struct vfit_digest_set *s, struct vfit_tpm_digests *d);

/*
 * d: the digest of data[0..len) for every bank of b, in one pass
 * (vfit_hash_set).  Returns what vfit_tpm_banks_hashes() returns.
 */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_digests_of(const struct vfit_tpm_banks *b, const void *data,
					 size_t len, struct vfit_tpm_digests *d);

/*
 * EV_SEPARATOR event data (TCG PC Client PFP, "EV_SEPARATOR"): 4 bytes,
 * 00000000h or FFFFFFFFh where the pre-OS phase ends (U-Boot HEAD writes
 * FFFFFFFFh, UEFI firmware 00000000h), 00000001h after an error.
 */
#define VFIT_TPM_SEPARATOR       0xFFFFFFFFu
#define VFIT_TPM_SEPARATOR_ERROR 0x00000001u

/*
 * Ends the firmware's phase as the PFP asks before the OS starts: an
 * EV_SEPARATOR with value (little-endian event data) into each of PCRs 0
 * to 7, in every bank of b, each logged (log may be NULL).  Returns
 * VFIT_TPM_OK, or the first failure (vfit_tpm_measure()'s), where it stops.
 */
VFIT_MUST_CHECK
enum vfit_tpm_result vfit_tpm_separators(struct vfit_tpm *tpm, struct vfit_tpm_log *log,
					 const struct vfit_tpm_banks *b, uint32_t value);

#endif
