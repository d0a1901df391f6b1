/* SPDX-License-Identifier: BSD-3-Clause */
/* Names of the boot flow's enums, for logs and reports (as libavb's *_to_string). */
#include <stdbool.h>

#include "vfit/boot.h"
#include "boot_int.h"

const char *vfit_boot_outcome_to_string(enum vfit_boot_outcome o)
{
	switch (o) {
	case VFIT_BOOT_KERNEL: return "kernel";
	case VFIT_BOOT_RECOVERY: return "recovery";
	case VFIT_BOOT_HALT: return "halt";
	case VFIT_BOOT_FAILED: return "platform failure";
	}
	return "unknown outcome";
}

const char *vfit_boot_result_to_string(enum vfit_boot_result r)
{
	switch (r) {
	case VFIT_BOOT_DONE: return "done";
	case VFIT_BOOT_REFUSED: return "refused";
	case VFIT_BOOT_ERROR: return "platform failure";
	}
	return "unknown result";
}

/*
 * Each reason's name and, where a report line says more, its sentence
 * (boot_fmt.c's line about a chain): both wordings in one place.
 */
static const char *why_text(enum vfit_boot_why w, bool sentence)
{
	switch (w) {
	case VFIT_WHY_NONE: return "none";
	case VFIT_WHY_LAYOUT: return "RAM layout or platform ops unusable";
	case VFIT_WHY_ROM: return "ROM control DTB missing or malformed";
	case VFIT_WHY_MARKED_BAD: return sentence ? "marked bad by an earlier boot" : "marked bad";
	case VFIT_WHY_NO_ATTEMPTS:
		return sentence ? "no boot attempts left (never confirmed with mark-good)" :
				  "no attempts left";
	case VFIT_WHY_TRIAL_UNCOUNTED:
		return sentence ? "state write failed, trial boot not counted" :
				  "trial not counted";
	case VFIT_WHY_NO_FIT: return sentence ? "no FIT stored" : "no FIT";
	case VFIT_WHY_FIT_TOO_BIG:
		return sentence ? "FIT larger than the staging area" :
				  "FIT too big";
	case VFIT_WHY_READ_ERROR: return "read error";
	case VFIT_WHY_VERIFY: return "verification failed";
	case VFIT_WHY_ROLLBACK_NAME: return "rollback-counter malformed";
	case VFIT_WHY_ROLLBACK_FORMAT: return "rollback-index malformed";
	case VFIT_WHY_ROLLBACK_UNSIGNED: return "rollback data unsigned";
	case VFIT_WHY_COUNTER_UNREADABLE: return "counter unreadable";
	case VFIT_WHY_ROLLBACK: return "rollback refused";
	case VFIT_WHY_NO_HANDOVER: return "neither kernel nor firmware and fdt";
	case VFIT_WHY_CONTROL_DTB: return "unusable control DTB";
	case VFIT_WHY_NO_LOAD: return "no load address";
	case VFIT_WHY_PLACEMENT_UNSIGNED: return "placement unsigned";
	case VFIT_WHY_ENTRY_OUTSIDE: return "entry outside kernel";
	case VFIT_WHY_OUTSIDE_RAM: return "load range outside RAM";
	case VFIT_WHY_OVERLAP: return "load range refused (overlap)";
	case VFIT_WHY_TOO_MANY_RANGES: return "too many images";
	case VFIT_WHY_NO_ROOM: return "no room to decompress";
	case VFIT_WHY_COMPRESSION: return "compression not supported";
	case VFIT_WHY_DECOMPRESS: return "decompression failed";
	case VFIT_WHY_CHAIN_TOO_LONG: return "chain too long";
	case VFIT_WHY_NO_RECOVERY_KEY:
		return sentence ? "no key-recovery in the ROM control DTB" :
				  "no recovery key";
	case VFIT_WHY_NO_KERNEL: return sentence ? "configuration has no kernel" : "no kernel";
	case VFIT_WHY_NOTHING_VERIFIED: return "nothing verified";
	case VFIT_WHY_NOT_BOOTED: return "nothing booted yet";
	case VFIT_WHY_BOOTED_BAD: return "booted slot marked bad";
	case VFIT_WHY_NO_LONGER_VERIFIES: return "chain no longer verifies";
	case VFIT_WHY_UPDATE_COUNT: return "wrong number of FITs";
	case VFIT_WHY_UPDATE_TRIAL: return "running slot not confirmed";
	case VFIT_WHY_UPDATE_NO_POSITION: return "new chain fits no position";
	case VFIT_WHY_UPDATE_UNVERIFIED: return "new chain does not verify";
	case VFIT_WHY_UPDATE_READBACK: return "written slot does not verify";
	case VFIT_WHY_STATE_WRITE: return "state write failed";
	case VFIT_WHY_WRITE: return "stage write failed";
	case VFIT_WHY_COUNTER_ADVANCE: return "counter advance failed";
	case VFIT_WHY_CHAIN_CHANGED: return "chain is not the one booted";
	case VFIT_WHY_MEASURE:
		return sentence ? "measurement failed (PCR extend or event log): not started" :
				  "measurement failed";
	case VFIT_WHY_TPM_ABSENT: return "TPM declared but absent";
	case VFIT_WHY_TPM_TIMEOUT: return "TPM not answering";
	case VFIT_WHY_TPM_GARBAGE: return "TPM answer malformed";
	case VFIT_WHY_TPM_ERROR: return "TPM command refused";
	case VFIT_WHY_TPM_BANKS: return "PCR bank that cannot be hashed";
	case VFIT_WHY_NV_MISSING: return "trust-state NV index missing";
	case VFIT_WHY_NV_ATTRIBUTES: return "trust-state NV index has wrong attributes";
	case VFIT_WHY_NV_CONTENT: return "trust-state NV index content invalid";
	case VFIT_WHY_NV_WRITE: return "trust-state NV write failed";
	case VFIT_WHY_TPM_LOCK: return "platform hierarchy not disabled";
	case VFIT_WHY_CIPHER_KEY: return "cipher key missing or unusable";
	case VFIT_WHY_DECRYPT: return "decryption failed";
	case VFIT_WHY_CIPHER_COMPRESSED: return "encrypted and compressed";
	case VFIT_WHY_PRELOAD: return "pre-load signature refused";
	case VFIT_WHY_COUNTER_FULL: return "no room for another rollback counter";
	case VFIT_WHY_REQUEST_STALE: return "the OS's request is stale";
	case VFIT_WHY_REQUEST_MALFORMED: return "the OS's request is malformed";
	case VFIT_WHY_REQ_MISSING: return "request NV index missing";
	case VFIT_WHY_REQ_ATTRIBUTES: return "request NV index has wrong attributes";
	case VFIT_WHY_TPM_REQUIRED: return "the ROM requires a TPM the platform does not describe";
	case VFIT_WHY_ROM_TPM: return "the ROM's TPM requirement is malformed";
	}
	return "unknown reason";
}

const char *vfit_boot_why_to_string(enum vfit_boot_why w)
{
	return why_text(w, false);
}

const char *vfit_boot_why_sentence_(enum vfit_boot_why w)
{
	return why_text(w, true);
}

const char *vfit_io_to_string(enum vfit_io io)
{
	switch (io) {
	case VFIT_IO_OK: return "ok";
	case VFIT_IO_ABSENT: return "absent";
	case VFIT_IO_TOO_BIG: return "too big";
	case VFIT_IO_ERROR: return "I/O error";
	}
	return "unknown I/O result";
}

const char *vfit_state_check_to_string(enum vfit_state_check c)
{
	switch (c) {
	case VFIT_STATE_OK: return "ok";
	case VFIT_STATE_SIZE: return "wrong size";
	case VFIT_STATE_MAGIC: return "bad magic";
	case VFIT_STATE_VERSION: return "unknown version";
	case VFIT_STATE_CHECKSUM: return "checksum mismatch";
	case VFIT_STATE_FIELD: return "impossible field";
	}
	return "unknown state check";
}

const char *vfit_boot_event_kind_to_string(enum vfit_boot_event_kind k)
{
	switch (k) {
	case VFIT_EV_STATE: return "state";
	case VFIT_EV_DEV_MODE: return "dev-mode";
	case VFIT_EV_SLOTS: return "slots";
	case VFIT_EV_TRY: return "try";
	case VFIT_EV_STAGE: return "stage";
	case VFIT_EV_KEYS: return "keys";
	case VFIT_EV_VERIFY: return "verify";
	case VFIT_EV_USER_TRY: return "user-try";
	case VFIT_EV_USER_OK: return "user-ok";
	case VFIT_EV_ROLLBACK: return "rollback";
	case VFIT_EV_ROLLBACK_SKIPPED: return "rollback-skipped";
	case VFIT_EV_LOADING: return "loading";
	case VFIT_EV_LOAD: return "load";
	case VFIT_EV_TRIAL: return "trial";
	case VFIT_EV_MARKED_BAD: return "marked-bad";
	case VFIT_EV_FAIL: return "fail";
	case VFIT_EV_NO_SLOT: return "no-slot";
	case VFIT_EV_START: return "start";
	case VFIT_EV_REASONS: return "reasons";
	case VFIT_EV_REASON: return "reason";
	case VFIT_EV_COUNTER: return "counter";
	case VFIT_EV_NO_ADVANCE: return "no-advance";
	case VFIT_EV_CONFIRMED: return "confirmed";
	case VFIT_EV_REPAIR: return "repair";
	case VFIT_EV_POSITION: return "position";
	case VFIT_EV_WRITING: return "writing";
	case VFIT_EV_OFFERED: return "offered";
	case VFIT_EV_MEASURED: return "measured";
	case VFIT_EV_REQUEST: return "request";
	case VFIT_EV_RETRY: return "retry";
	}
	return "unknown event";
}

const char *vfit_boot_chain_to_string(enum vfit_boot_chain c)
{
	switch (c) {
	case VFIT_CHAIN_A: return "slot A";
	case VFIT_CHAIN_B: return "slot B";
	case VFIT_CHAIN_RECOVERY: return "recovery";
	case VFIT_CHAIN_NEW: return "new chain";
	case VFIT_CHAIN_NONE: return "none";
	}
	return "unknown chain";
}

const char *vfit_boot_keys_to_string(enum vfit_boot_keys k)
{
	switch (k) {
	case VFIT_KEYS_STAGE: return "stage keys";
	case VFIT_KEYS_USER: return "user keys";
	case VFIT_KEYS_RECOVERY: return "recovery key";
	}
	return "unknown keys";
}

const char *vfit_boot_store_to_string(enum vfit_boot_store s)
{
	switch (s) {
	case VFIT_STORE_ABSENT: return "absent";
	case VFIT_STORE_UNUSABLE: return "unusable";
	case VFIT_STORE_PRESENT: return "present";
	case VFIT_STORE_EMPTY: return "empty";
	case VFIT_STORE_TRUSTED: return "trusted";
	}
	return "unknown store";
}

const char *vfit_boot_obj_to_string(enum vfit_boot_obj o)
{
	switch (o) {
	case VFIT_BOOT_OBJ_ROM: return "ROM control DTB";
	case VFIT_BOOT_OBJ_STAGE: return "stage";
	case VFIT_BOOT_OBJ_RECOVERY: return "recovery FIT";
	case VFIT_BOOT_OBJ_USER_KEYS: return "user key store";
	}
	return "unknown object";
}

const char *vfit_boot_phase_to_string(enum vfit_boot_phase p)
{
	switch (p) {
	case VFIT_BOOT_T_READ: return "read";
	case VFIT_BOOT_T_VERIFY: return "verify";
	case VFIT_BOOT_T_LOAD: return "load";
	case VFIT_BOOT_T_PHASES: break;
	}
	return "unknown phase";
}

const char *vfit_boot_slot_status_name(unsigned int status)
{
	switch (status) {
	case VFIT_SLOT_GOOD: return "good";
	case VFIT_SLOT_TRYING: return "trying";
	case VFIT_SLOT_BAD: return "bad";
	default: return "unknown";
	}
}
