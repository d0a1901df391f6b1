/* SPDX-License-Identifier: BSD-3-Clause */
/* Names of the TPM layer's results, algorithms, response codes and event types, for reports. */
#include "vfit/tpm.h"

const char *vfit_tpm_result_to_string(enum vfit_tpm_result r)
{
	switch (r) {
	case VFIT_TPM_OK: return "OK";
	case VFIT_TPM_ERR_PARAM: return "invalid parameter";
	case VFIT_TPM_ERR_TRANSPORT: return "TPM transport failed";
	case VFIT_TPM_ERR_NO_TPM: return "no TPM answers on the transport";
	case VFIT_TPM_ERR_TIMEOUT: return "TPM did not answer in time";
	case VFIT_TPM_ERR_MALFORMED: return "malformed TPM response";
	case VFIT_TPM_ERR_RC: return "TPM returned an error code";
	case VFIT_TPM_ERR_INITIALIZED: return "TPM already started";
	case VFIT_TPM_ERR_UNSUPPORTED: return "algorithm, bank or property not supported";
	case VFIT_TPM_ERR_SPACE: return "does not fit the buffer or log region";
	case VFIT_TPM_ERR_LIMIT: return "more active PCR banks than supported";
	case VFIT_TPM_ERR_LOG: return "malformed event log, or its banks differ from the digests";
	}
	return "unknown TPM result";
}

const char *vfit_tpm_alg_to_string(uint16_t alg)
{
	switch (alg) {
	case VFIT_TPM_ALG_SHA1: return "sha1";
	case VFIT_TPM_ALG_SHA256: return "sha256";
	case VFIT_TPM_ALG_SHA384: return "sha384";
	case VFIT_TPM_ALG_SHA512: return "sha512";
	case VFIT_TPM_ALG_SM3_256: return "sm3_256";
	}
	return "unknown";
}

uint32_t vfit_tpm_rc_base(uint32_t rc)
{
	/* Format one (bit 7): bits 8..11 and 6 number the handle/parameter/session at fault. */
	return rc & 0x80u ? rc & 0xBFu : rc;
}

const char *vfit_tpm_rc_to_string(uint32_t rc)
{
	switch (vfit_tpm_rc_base(rc)) {
	case VFIT_TPM_RC_SUCCESS: return "TPM_RC_SUCCESS";
	case VFIT_TPM_RC_BAD_TAG: return "TPM_RC_BAD_TAG";
	case VFIT_TPM_RC_INITIALIZE: return "TPM_RC_INITIALIZE";
	case VFIT_TPM_RC_FAILURE: return "TPM_RC_FAILURE";
	case VFIT_TPM_RC_DISABLED: return "TPM_RC_DISABLED";
	case VFIT_TPM_RC_AUTH_MISSING: return "TPM_RC_AUTH_MISSING";
	case VFIT_TPM_RC_AUTH_UNAVAILABLE: return "TPM_RC_AUTH_UNAVAILABLE";
	case VFIT_TPM_RC_COMMAND_CODE: return "TPM_RC_COMMAND_CODE";
	case VFIT_TPM_RC_NV_RANGE: return "TPM_RC_NV_RANGE";
	case VFIT_TPM_RC_NV_SIZE: return "TPM_RC_NV_SIZE";
	case VFIT_TPM_RC_NV_LOCKED: return "TPM_RC_NV_LOCKED";
	case VFIT_TPM_RC_NV_AUTHORIZATION: return "TPM_RC_NV_AUTHORIZATION";
	case VFIT_TPM_RC_NV_UNINITIALIZED: return "TPM_RC_NV_UNINITIALIZED";
	case VFIT_TPM_RC_NV_SPACE: return "TPM_RC_NV_SPACE";
	case VFIT_TPM_RC_NV_DEFINED: return "TPM_RC_NV_DEFINED";
	case VFIT_TPM_RC_ATTRIBUTES: return "TPM_RC_ATTRIBUTES";
	case VFIT_TPM_RC_HIERARCHY: return "TPM_RC_HIERARCHY";
	case VFIT_TPM_RC_VALUE: return "TPM_RC_VALUE";
	case VFIT_TPM_RC_HASH: return "TPM_RC_HASH";
	case VFIT_TPM_RC_HANDLE: return "TPM_RC_HANDLE";
	case VFIT_TPM_RC_AUTH_FAIL: return "TPM_RC_AUTH_FAIL";
	case VFIT_TPM_RC_SIZE: return "TPM_RC_SIZE";
	case VFIT_TPM_RC_BAD_AUTH: return "TPM_RC_BAD_AUTH";
	case VFIT_TPM_RC_LOCKOUT: return "TPM_RC_LOCKOUT";
	case VFIT_TPM_RC_RETRY: return "TPM_RC_RETRY";
	case VFIT_TPM_RC_NV_UNAVAILABLE: return "TPM_RC_NV_UNAVAILABLE";
	}
	return "TPM_RC_(other)";
}

const char *vfit_tpm_event_to_string(uint32_t type)
{
	switch (type) {
	case VFIT_TPM_EV_PREBOOT_CERT: return "EV_PREBOOT_CERT";
	case VFIT_TPM_EV_POST_CODE: return "EV_POST_CODE";
	case VFIT_TPM_EV_NO_ACTION: return "EV_NO_ACTION";
	case VFIT_TPM_EV_SEPARATOR: return "EV_SEPARATOR";
	case VFIT_TPM_EV_ACTION: return "EV_ACTION";
	case VFIT_TPM_EV_EVENT_TAG: return "EV_EVENT_TAG";
	case VFIT_TPM_EV_S_CRTM_CONTENTS: return "EV_S_CRTM_CONTENTS";
	case VFIT_TPM_EV_S_CRTM_VERSION: return "EV_S_CRTM_VERSION";
	case VFIT_TPM_EV_CPU_MICROCODE: return "EV_CPU_MICROCODE";
	case VFIT_TPM_EV_PLATFORM_CONFIG_FLAGS: return "EV_PLATFORM_CONFIG_FLAGS";
	case VFIT_TPM_EV_TABLE_OF_DEVICES: return "EV_TABLE_OF_DEVICES";
	case VFIT_TPM_EV_COMPACT_HASH: return "EV_COMPACT_HASH";
	case VFIT_TPM_EV_IPL: return "EV_IPL";
	case VFIT_TPM_EV_IPL_PARTITION_DATA: return "EV_IPL_PARTITION_DATA";
	case VFIT_TPM_EV_NONHOST_CODE: return "EV_NONHOST_CODE";
	case VFIT_TPM_EV_NONHOST_CONFIG: return "EV_NONHOST_CONFIG";
	case VFIT_TPM_EV_NONHOST_INFO: return "EV_NONHOST_INFO";
	case VFIT_TPM_EV_OMIT_BOOT_DEVICE_EVENTS: return "EV_OMIT_BOOT_DEVICE_EVENTS";
	case VFIT_TPM_EV_EFI_ACTION: return "EV_EFI_ACTION";
	case VFIT_TPM_EV_EFI_PLATFORM_FIRMWARE_BLOB: return "EV_EFI_PLATFORM_FIRMWARE_BLOB";
	case VFIT_TPM_EV_EFI_HANDOFF_TABLES: return "EV_EFI_HANDOFF_TABLES";
	}
	return "EV_(unknown)";
}
