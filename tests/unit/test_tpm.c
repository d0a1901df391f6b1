/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/tpm against a real swtpm that this test starts in a temp dir on UNIX
 * sockets and always stops (PR_SET_PDEATHSIG, a watchdog alarm): every
 * command, the platform-only NV indices before and after the platform
 * hierarchy is given up and across a power cycle, PCR extends checked
 * against OpenSSL, and the event log replayed by lib/tpm and by
 * tpm2-tools' tpm2_eventlog, both equal to what the TPM reads back.  Then a
 * table of hostile responses through a fake transport (the parser is under
 * test there, not the TPM), each refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "vfit/tpm.h"
#include "check.h"
#include "swtpm.h"

static char dir[64];
static struct swtpm sw = { -1 };

static const struct vfit_tpm_auth platform = { VFIT_TPM_RH_PLATFORM, NULL, 0 };

static const char *evp_name(uint16_t alg)
{
	switch (alg) {
	case VFIT_TPM_ALG_SHA1: return "SHA1";
	case VFIT_TPM_ALG_SHA256: return "SHA256";
	case VFIT_TPM_ALG_SHA384: return "SHA384";
	case VFIT_TPM_ALG_SHA512: return "SHA512";
	case VFIT_TPM_ALG_SM3_256: return "SM3";
	}
	return "none";
}

/* OpenSSL's digest of a||b (b may be NULL): the independent side of every PCR check. */
static int ossl_hash(uint16_t alg, const void *a, size_t alen, const void *b, size_t blen, uint8_t *out)
{
	EVP_MD *md = EVP_MD_fetch(NULL, evp_name(alg), NULL);
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	int ok = md && c && EVP_DigestInit_ex(c, md, NULL) && EVP_DigestUpdate(c, a, alen) &&
		 (!b || EVP_DigestUpdate(c, b, blen)) && EVP_DigestFinal_ex(c, out, NULL);

	EVP_MD_CTX_free(c);
	EVP_MD_free(md);
	return ok;
}

/* Digests of data in every bank of b. */
static void digests_of(const struct vfit_tpm_banks *b, const char *data, struct vfit_tpm_digests *d)
{
	uint32_t i;

	memset(d, 0, sizeof(*d));
	d->count = b->count;
	for (i = 0; i < b->count; i++) {
		d->d[i].alg = b->alg[i];
		REQUIRE(ossl_hash(b->alg[i], data, strlen(data), NULL, 0, d->d[i].digest),
			"OpenSSL has no %s", evp_name(b->alg[i]));
	}
}

static int has_bank(const struct vfit_tpm_banks *b, uint16_t alg)
{
	uint32_t i;

	for (i = 0; i < b->count; i++)
		if (b->alg[i] == alg)
			return 1;
	return 0;
}

#define R(call, want) do { \
	enum vfit_tpm_result r_ = (call); \
	CHECK(r_ == (want), "%s: %s (rc %s 0x%x), want %s", #call, vfit_tpm_result_to_string(r_), \
	      vfit_tpm_rc_to_string(tpm->rc), (unsigned)tpm->rc, vfit_tpm_result_to_string(want)); \
} while (0)
#define RC(call, base) do { \
	enum vfit_tpm_result r_ = (call); \
	CHECK(r_ == VFIT_TPM_ERR_RC && vfit_tpm_rc_base(tpm->rc) == (base), \
	      "%s: %s rc 0x%x (%s), want %s", #call, vfit_tpm_result_to_string(r_), \
	      (unsigned)tpm->rc, vfit_tpm_rc_to_string(tpm->rc), vfit_tpm_rc_to_string(base)); \
} while (0)

/* For the calls that involve no TPM. */
#define L(call, want) do { \
	enum vfit_tpm_result r_ = (call); \
	CHECK(r_ == (want), "%s: %s, want %s", #call, vfit_tpm_result_to_string(r_), \
	      vfit_tpm_result_to_string(want)); \
} while (0)

#define IDX_COUNTER 0x01500010u
#define IDX_RECORD  0x01500011u
#define IDX_AUTH    0x01500012u

static void test_commands(struct vfit_tpm *tpm, struct vfit_tpm_banks *banks)
{
	uint32_t v;
	uint8_t rnd[100], zero[100] = { 0 };

	R(vfit_tpm_startup_clear(tpm), VFIT_TPM_OK);
	R(vfit_tpm_startup_clear(tpm), VFIT_TPM_ERR_INITIALIZED);
	CHECK(tpm->rc == VFIT_TPM_RC_INITIALIZE, "rc 0x%x", (unsigned)tpm->rc);

	R(vfit_tpm_get_banks(tpm, banks), VFIT_TPM_OK);
	CHECK(has_bank(banks, VFIT_TPM_ALG_SHA256), "no sha256 bank among %u", (unsigned)banks->count);
	for (v = 0; v < banks->count; v++)
		printf("  bank %s, PCRs 0x%08x\n", vfit_tpm_alg_to_string(banks->alg[v]),
		       (unsigned)banks->pcr_mask[v]);

	R(vfit_tpm_get_property(tpm, VFIT_TPM_PT_MAX_RESPONSE_SIZE, &v), VFIT_TPM_OK);
	CHECK(v <= VFIT_TPM_BUF_SIZE, "swtpm's responses go up to %u bytes", (unsigned)v);
	R(vfit_tpm_get_property(tpm, VFIT_TPM_PT_NV_BUFFER_MAX, &v), VFIT_TPM_OK);
	CHECK(v >= VFIT_TPM_NV_CHUNK, "NV buffer %u", (unsigned)v);
	printf("  TPM_PT_NV_BUFFER_MAX %u\n", (unsigned)v);
	R(vfit_tpm_get_property(tpm, VFIT_TPM_PT_STARTUP_CLEAR, &v), VFIT_TPM_OK);
	CHECK(v & VFIT_TPMA_STARTUP_PH_ENABLE, "platform hierarchy disabled after Startup: 0x%x", (unsigned)v);
	/* 0x1FF is no property: the TPM answers with the next one it has. */
	R(vfit_tpm_get_property(tpm, 0x1FF, &v), VFIT_TPM_ERR_UNSUPPORTED);

	R(vfit_tpm_get_random(tpm, rnd, sizeof(rnd)), VFIT_TPM_OK);
	CHECK(memcmp(rnd, zero, sizeof(rnd)) != 0, "GetRandom gave zeros");
}

static void define(struct vfit_tpm *tpm, uint32_t index, uint32_t attrs, uint16_t size,
		   const char *pw, struct vfit_tpm_nv_public *pub)
{
	memset(pub, 0, sizeof(*pub));
	pub->index = index;
	pub->name_alg = VFIT_TPM_ALG_SHA256;
	pub->attributes = attrs;
	pub->data_size = size;
	R(vfit_tpm_nv_define_space(tpm, &platform, pw, pw ? strlen(pw) : 0, pub), VFIT_TPM_OK);
}

/* Platform-only NV indices as a boot stage keeps its counters and records. */
static void test_nv(struct vfit_tpm *tpm, struct vfit_tpm_sock *s)
{
	const uint32_t counter_attrs = VFIT_TPMA_NV_PPWRITE | VFIT_TPMA_NV_PPREAD | VFIT_TPMA_NV_AUTHREAD |
		VFIT_TPMA_NV_OWNERREAD | VFIT_TPMA_NV_NO_DA | VFIT_TPMA_NV_PLATFORMCREATE |
		VFIT_TPM_NT_COUNTER << VFIT_TPMA_NV_TPM_NT_SHIFT;
	const uint32_t record_attrs = VFIT_TPMA_NV_PPWRITE | VFIT_TPMA_NV_PPREAD | VFIT_TPMA_NV_AUTHREAD |
		VFIT_TPMA_NV_WRITE_STCLEAR | VFIT_TPMA_NV_NO_DA | VFIT_TPMA_NV_PLATFORMCREATE;
	const uint32_t auth_attrs = VFIT_TPMA_NV_AUTHWRITE | VFIT_TPMA_NV_AUTHREAD | VFIT_TPMA_NV_NO_DA |
		VFIT_TPMA_NV_READ_STCLEAR | VFIT_TPMA_NV_PLATFORMCREATE;
	const struct vfit_tpm_auth pw = { IDX_AUTH, (const uint8_t *)"secret", 6 };
	const struct vfit_tpm_auth bad_pw = { IDX_AUTH, (const uint8_t *)"secreT", 6 };
	const struct vfit_tpm_auth record_self = { IDX_RECORD, NULL, 0 };
	struct vfit_tpm_nv_public pub, got;
	uint8_t rec[600], back[600];
	uint64_t c0, c1;
	uint32_t v;
	size_t i;

	define(tpm, IDX_COUNTER, counter_attrs, 8, NULL, &pub);
	R(vfit_tpm_nv_read_public(tpm, IDX_COUNTER, &got), VFIT_TPM_OK);
	CHECK(got.index == IDX_COUNTER && got.name_alg == VFIT_TPM_ALG_SHA256 &&
	      got.attributes == counter_attrs && got.auth_policy_size == 0 && got.data_size == 8,
	      "counter public: index 0x%x alg 0x%x attrs 0x%x policy %u size %u", (unsigned)got.index,
	      got.name_alg, (unsigned)got.attributes, got.auth_policy_size, got.data_size);
	/* A counter reads nothing until its first increment. */
	RC(vfit_tpm_nv_read_counter(tpm, &platform, IDX_COUNTER, &c0), VFIT_TPM_RC_NV_UNINITIALIZED);
	R(vfit_tpm_nv_increment(tpm, &platform, IDX_COUNTER), VFIT_TPM_OK);
	R(vfit_tpm_nv_read_counter(tpm, &platform, IDX_COUNTER, &c0), VFIT_TPM_OK);
	R(vfit_tpm_nv_increment(tpm, &platform, IDX_COUNTER), VFIT_TPM_OK);
	R(vfit_tpm_nv_read_counter(tpm, &platform, IDX_COUNTER, &c1), VFIT_TPM_OK);
	CHECK(c1 == c0 + 1, "counter %llu then %llu", (unsigned long long)c0, (unsigned long long)c1);
	R(vfit_tpm_nv_read_public(tpm, IDX_COUNTER, &got), VFIT_TPM_OK);
	CHECK(got.attributes == (counter_attrs | VFIT_TPMA_NV_WRITTEN), "attrs 0x%x", (unsigned)got.attributes);
	RC(vfit_tpm_nv_define_space(tpm, &platform, NULL, 0, &pub), VFIT_TPM_RC_NV_DEFINED);

	/* A record of more than one NV chunk. */
	define(tpm, IDX_RECORD, record_attrs, sizeof(rec), NULL, &pub);
	for (i = 0; i < sizeof(rec); i++)
		rec[i] = (uint8_t)(i * 7 + 3);
	R(vfit_tpm_nv_write(tpm, &platform, IDX_RECORD, 0, rec, sizeof(rec)), VFIT_TPM_OK);
	R(vfit_tpm_nv_read(tpm, &platform, IDX_RECORD, 0, back, sizeof(back)), VFIT_TPM_OK);
	CHECK(!memcmp(rec, back, sizeof(rec)), "record read back differs");
	R(vfit_tpm_nv_read(tpm, &record_self, IDX_RECORD, 590, back, 10), VFIT_TPM_OK);
	CHECK(!memcmp(rec + 590, back, 10), "read at an offset differs");
	RC(vfit_tpm_nv_read(tpm, &platform, IDX_RECORD, 595, back, 10), VFIT_TPM_RC_NV_RANGE);
	/* The OS has no platform authorization, and the index's own does not write it. */
	RC(vfit_tpm_nv_write(tpm, &record_self, IDX_RECORD, 0, rec, 4), VFIT_TPM_RC_AUTH_UNAVAILABLE);
	R(vfit_tpm_nv_write_lock(tpm, &platform, IDX_RECORD), VFIT_TPM_OK);
	RC(vfit_tpm_nv_write(tpm, &platform, IDX_RECORD, 0, rec, 4), VFIT_TPM_RC_NV_LOCKED);
	R(vfit_tpm_nv_read_public(tpm, IDX_RECORD, &got), VFIT_TPM_OK);
	CHECK(got.attributes == (record_attrs | VFIT_TPMA_NV_WRITTEN | VFIT_TPMA_NV_WRITELOCKED),
	      "attrs 0x%x", (unsigned)got.attributes);

	/* An index with its own password. */
	define(tpm, IDX_AUTH, auth_attrs, 16, "secret", &pub);
	R(vfit_tpm_nv_write(tpm, &pw, IDX_AUTH, 0, "0123456789abcdef", 16), VFIT_TPM_OK);
	RC(vfit_tpm_nv_write(tpm, &bad_pw, IDX_AUTH, 0, "0123456789abcdef", 16), VFIT_TPM_RC_BAD_AUTH);
	R(vfit_tpm_nv_read(tpm, &pw, IDX_AUTH, 4, back, 4), VFIT_TPM_OK);
	CHECK(!memcmp(back, "4567", 4), "auth index read back differs");
	R(vfit_tpm_nv_read_lock(tpm, &pw, IDX_AUTH), VFIT_TPM_OK);
	RC(vfit_tpm_nv_read(tpm, &pw, IDX_AUTH, 4, back, 4), VFIT_TPM_RC_NV_LOCKED);
	R(vfit_tpm_nv_undefine_space(tpm, &platform, IDX_AUTH), VFIT_TPM_OK);
	RC(vfit_tpm_nv_read_public(tpm, IDX_AUTH, &got), VFIT_TPM_RC_HANDLE);

	/* The stage gives up platform authority: nothing after it moves these indices. */
	R(vfit_tpm_hierarchy_control(tpm, &platform, VFIT_TPM_RH_PLATFORM, 0), VFIT_TPM_OK);
	RC(vfit_tpm_nv_increment(tpm, &platform, IDX_COUNTER), VFIT_TPM_RC_HIERARCHY);
	RC(vfit_tpm_nv_write(tpm, &platform, IDX_RECORD, 0, rec, 4), VFIT_TPM_RC_HIERARCHY);
	RC(vfit_tpm_nv_undefine_space(tpm, &platform, IDX_COUNTER), VFIT_TPM_RC_HIERARCHY);
	RC(vfit_tpm_hierarchy_control(tpm, &platform, VFIT_TPM_RH_PLATFORM, 1), VFIT_TPM_RC_HIERARCHY);
	R(vfit_tpm_get_property(tpm, VFIT_TPM_PT_STARTUP_CLEAR, &v), VFIT_TPM_OK);
	CHECK(!(v & VFIT_TPMA_STARTUP_PH_ENABLE), "phEnable still set: 0x%x", (unsigned)v);
	R(vfit_tpm_nv_read_counter(tpm, &record_self, IDX_COUNTER, &c1), VFIT_TPM_ERR_RC);
	R(vfit_tpm_nv_read_counter(tpm, &(struct vfit_tpm_auth){ IDX_COUNTER, NULL, 0 }, IDX_COUNTER, &c1),
	  VFIT_TPM_OK);
	CHECK(c1 == c0 + 1, "counter moved while the hierarchy was off");

	/* The next reset gives the platform its hierarchy back, and the STCLEAR lock goes. */
	REQUIRE(!vfit_tpm_sock_power_cycle(s), "power cycle through %s: %s", s->ctrl_path, strerror(errno));
	R(vfit_tpm_nv_read_public(tpm, IDX_COUNTER, &got), VFIT_TPM_ERR_RC);  /* not started */
	R(vfit_tpm_startup_clear(tpm), VFIT_TPM_OK);
	R(vfit_tpm_nv_increment(tpm, &platform, IDX_COUNTER), VFIT_TPM_OK);
	R(vfit_tpm_nv_read_counter(tpm, &platform, IDX_COUNTER, &c1), VFIT_TPM_OK);
	CHECK(c1 == c0 + 2, "counter %llu after the power cycle", (unsigned long long)c1);
	R(vfit_tpm_nv_write(tpm, &platform, IDX_RECORD, 0, "new", 3), VFIT_TPM_OK);
	R(vfit_tpm_nv_read(tpm, &platform, IDX_RECORD, 0, back, 4), VFIT_TPM_OK);
	CHECK(!memcmp(back, "new", 3) && back[3] == rec[3], "record after the power cycle");
}

/* Reads PCR pcr of every bank into v. */
static void read_bank(struct vfit_tpm *tpm, const struct vfit_tpm_banks *b, uint32_t pcr,
		      uint8_t v[VFIT_TPM_MAX_BANKS][VFIT_TPM_MAX_DIGEST])
{
	uint32_t i;

	for (i = 0; i < b->count; i++)
		R(vfit_tpm_pcr_read(tpm, pcr, b->alg[i], v[i], NULL), VFIT_TPM_OK);
}

static void test_pcr(struct vfit_tpm *tpm, const struct vfit_tpm_banks *b)
{
	uint8_t before[VFIT_TPM_MAX_BANKS][VFIT_TPM_MAX_DIGEST], after[VFIT_TPM_MAX_BANKS][VFIT_TPM_MAX_DIGEST];
	uint8_t want[VFIT_TPM_MAX_DIGEST];
	struct vfit_tpm_digests d;
	uint32_t i;
	uint8_t x[VFIT_TPM_MAX_DIGEST];

	read_bank(tpm, b, 16, before);
	digests_of(b, "a kernel", &d);
	R(vfit_tpm_pcr_extend(tpm, 16, &d), VFIT_TPM_OK);
	read_bank(tpm, b, 16, after);
	for (i = 0; i < b->count; i++) {
		size_t n = vfit_tpm_alg_digest_size(b->alg[i]);

		REQUIRE(ossl_hash(b->alg[i], before[i], n, d.d[i].digest, n, want), "OpenSSL");
		CHECK(!memcmp(after[i], want, n), "PCR 16 %s after extend differs from OpenSSL's",
		      vfit_tpm_alg_to_string(b->alg[i]));
	}
	/* sha256 alone: the other banks do not move. */
	d.count = 1;
	for (i = 0; i < b->count && b->alg[i] != VFIT_TPM_ALG_SHA256; i++)
		;
	d.d[0] = d.d[i];
	R(vfit_tpm_pcr_extend(tpm, 16, &d), VFIT_TPM_OK);
	read_bank(tpm, b, 16, before);
	for (i = 0; i < b->count; i++) {
		size_t n = vfit_tpm_alg_digest_size(b->alg[i]);

		if (b->alg[i] == VFIT_TPM_ALG_SHA256) {
			REQUIRE(ossl_hash(b->alg[i], after[i], n, d.d[0].digest, n, want), "OpenSSL");
			CHECK(!memcmp(before[i], want, n), "sha256-only extend");
		} else {
			CHECK(!memcmp(before[i], after[i], n), "%s moved on a sha256-only extend",
			      vfit_tpm_alg_to_string(b->alg[i]));
		}
	}
	R(vfit_tpm_pcr_extend(tpm, 24, &d), VFIT_TPM_ERR_PARAM);
	/* A hash the TPM does not implement. */
	if (!has_bank(b, VFIT_TPM_ALG_SM3_256))
		RC(vfit_tpm_pcr_read(tpm, 16, VFIT_TPM_ALG_SM3_256, x, NULL), VFIT_TPM_RC_HASH);
}

/* Parses tpm2_eventlog's YAML "pcrs:" section for bank/pcr into out; 1 when found. */
static int eventlog_pcr(const char *yaml, const char *bank, uint32_t pcr, uint8_t *out, size_t n)
{
	const char *p = strstr(yaml, "\npcrs:\n"), *end;
	char key[32];

	if (!p)
		return 0;
	snprintf(key, sizeof(key), "\n  %s:\n", bank);
	p = strstr(p, key);
	if (!p)
		return 0;
	p += strlen(key);
	while (*p == ' ' && p[1] == ' ' && p[2] == ' ' && p[3] == ' ') {
		unsigned idx;
		char hex[2 * VFIT_TPM_MAX_DIGEST + 1];

		end = strchr(p, '\n');
		if (sscanf(p, " %u : 0x%128[0-9a-fA-F]", &idx, hex) == 2 && idx == pcr)
			return strlen(hex) == 2 * n && check_unhex(hex, 2 * n, out, n) == (long)n;
		if (!end)
			break;
		p = end + 1;
	}
	return 0;
}

static void test_log(struct vfit_tpm *tpm, const struct vfit_tpm_banks *b)
{
	static uint8_t mem[8192];
	static const uint32_t pcrs[] = { 0, 1, 8, 9 };
	struct vfit_tpm_log log;
	struct vfit_tpm_digests d;
	char path[128], cmd[256];
	char *yaml;
	size_t ylen, len;
	uint32_t i, j, events, c0, c1, agreed = 0;
	uint8_t x[VFIT_TPM_MAX_DIGEST];
	FILE *f;

	R(vfit_tpm_log_init(&log, mem, sizeof(mem), b), VFIT_TPM_OK);
	digests_of(b, "vfit stage 0.1", &d);
	R(vfit_tpm_measure(tpm, &log, 0, VFIT_TPM_EV_S_CRTM_VERSION, &d, "vfit 0.1", 9), VFIT_TPM_OK);
	digests_of(b, "control dtb", &d);
	R(vfit_tpm_measure(tpm, &log, 1, VFIT_TPM_EV_TABLE_OF_DEVICES, &d, "fdt", 4), VFIT_TPM_OK);
	digests_of(b, "kernel image", &d);
	R(vfit_tpm_pcr_read(tpm, 8, VFIT_TPM_ALG_SHA256, x, &c0), VFIT_TPM_OK);
	R(vfit_tpm_measure(tpm, &log, 8, VFIT_TPM_EV_IPL, &d, "kernel", 7), VFIT_TPM_OK);
	R(vfit_tpm_pcr_read(tpm, 8, VFIT_TPM_ALG_SHA256, x, &c1), VFIT_TPM_OK);
	CHECK(c1 > c0, "pcrUpdateCounter %u then %u", (unsigned)c0, (unsigned)c1);
	digests_of(b, "initrd image", &d);
	R(vfit_tpm_measure(tpm, &log, 9, VFIT_TPM_EV_IPL, &d, "ramdisk", 8), VFIT_TPM_OK);
	digests_of(b, "key dev", &d);
	R(vfit_tpm_measure(tpm, &log, 8, VFIT_TPM_EV_EFI_ACTION, &d, "key", 3), VFIT_TPM_OK);
	for (i = 0; i < 4; i++) {
		static const uint8_t sep[4];

		digests_of(b, "", &d);  /* placeholder, replaced by the separator's digests */
		for (j = 0; j < b->count; j++)
			REQUIRE(ossl_hash(b->alg[j], sep, 4, NULL, 0, d.d[j].digest), "OpenSSL");
		R(vfit_tpm_measure(tpm, &log, pcrs[i], VFIT_TPM_EV_SEPARATOR, &d, sep, 4), VFIT_TPM_OK);
	}

	/* A measurement the log cannot take extends nothing. */
	len = log.len;
	log.cap = log.len + 20;
	{
		uint8_t pre[VFIT_TPM_MAX_DIGEST], post[VFIT_TPM_MAX_DIGEST];

		R(vfit_tpm_pcr_read(tpm, 8, VFIT_TPM_ALG_SHA256, pre, NULL), VFIT_TPM_OK);
		R(vfit_tpm_measure(tpm, &log, 8, VFIT_TPM_EV_IPL, &d, "x", 1), VFIT_TPM_ERR_SPACE);
		R(vfit_tpm_pcr_read(tpm, 8, VFIT_TPM_ALG_SHA256, post, NULL), VFIT_TPM_OK);
		CHECK(!memcmp(pre, post, 32) && log.len == len, "a refused measurement extended PCR 8");
	}
	log.cap = sizeof(mem);
	/* Nor one whose banks are not the log's. */
	d.count--;
	R(vfit_tpm_measure(tpm, &log, 8, VFIT_TPM_EV_IPL, &d, "x", 1), VFIT_TPM_ERR_LOG);
	CHECK(log.len == len, "log grew");

	snprintf(path, sizeof(path), "%s/eventlog.bin", dir);
	f = fopen(path, "wb");
	REQUIRE(f && fwrite(log.base, 1, log.len, f) == log.len && !fclose(f), "write %s", path);
	snprintf(cmd, sizeof(cmd), "tpm2_eventlog '%s' > '%s/eventlog.yaml' 2>&1", path, dir);
	if (system(cmd)) {
		yaml = NULL;
		SKIP("tool", "tpm2_eventlog failed or is missing (tpm2-tools)");
	} else {
		snprintf(path, sizeof(path), "%s/eventlog.yaml", dir);
		yaml = check_read_file(path, &ylen);
	}

	for (i = 0; i < 4; i++) {
		for (j = 0; j < b->count; j++) {
			uint8_t tpmv[VFIT_TPM_MAX_DIGEST], mine[VFIT_TPM_MAX_DIGEST], theirs[VFIT_TPM_MAX_DIGEST];
			size_t n = vfit_tpm_alg_digest_size(b->alg[j]);
			const char *name = vfit_tpm_alg_to_string(b->alg[j]);
			enum vfit_tpm_result r;

			R(vfit_tpm_pcr_read(tpm, pcrs[i], b->alg[j], tpmv, NULL), VFIT_TPM_OK);
			r = vfit_tpm_log_replay(log.base, log.len, pcrs[i], b->alg[j], mine, &events);
			if (b->alg[j] == VFIT_TPM_ALG_SM3_256) {
				CHECK(r == VFIT_TPM_ERR_UNSUPPORTED, "sm3 replay: %s", vfit_tpm_result_to_string(r));
			} else {
				CHECK(r == VFIT_TPM_OK && !memcmp(mine, tpmv, n) && events == (pcrs[i] == 8 ? 3u : 2u),
				      "PCR %u %s: replay %s (%u events) differs from the TPM's",
				      (unsigned)pcrs[i], name, vfit_tpm_result_to_string(r), (unsigned)events);
			}
			if (yaml)
				agreed += CHECK(eventlog_pcr(yaml, name, pcrs[i], theirs, n) && !memcmp(theirs, tpmv, n),
						"PCR %u %s: tpm2_eventlog's value differs from the TPM's",
						(unsigned)pcrs[i], name);
		}
	}
	free(yaml);
	printf("  %u events in %zu bytes of log; tpm2_eventlog agrees on %u PCR values\n",
	       9u, log.len, agreed);

	/* Broken logs. */
	{
		uint8_t out[VFIT_TPM_MAX_DIGEST], bad[512];

		R(vfit_tpm_log_replay(log.base, log.len - 1, 8, VFIT_TPM_ALG_SHA256, out, NULL), VFIT_TPM_ERR_LOG);
		R(vfit_tpm_log_replay(log.base, 31, 8, VFIT_TPM_ALG_SHA256, out, NULL), VFIT_TPM_ERR_LOG);
		memcpy(bad, log.base, sizeof(bad));
		bad[32] ^= 1;                   /* the signature */
		R(vfit_tpm_log_replay(bad, sizeof(bad), 8, VFIT_TPM_ALG_SHA256, out, NULL), VFIT_TPM_ERR_LOG);
		R(vfit_tpm_log_replay(log.base, log.len, 8, 0x0099, out, NULL), VFIT_TPM_ERR_PARAM);
		R(vfit_tpm_log_replay(log.base, log.len, 24, VFIT_TPM_ALG_SHA256, out, NULL), VFIT_TPM_ERR_PARAM);
		/* the first event's digest count beyond the banks */
		memcpy(bad, log.base, sizeof(bad));
		bad[32 + 28 + 4 * b->count + 1 + 8] = 0xFF;
		R(vfit_tpm_log_replay(bad, sizeof(bad), 8, VFIT_TPM_ALG_SHA256, out, NULL), VFIT_TPM_ERR_LOG);
	}
}

/* ---- hostile responses through a fake transport ---- */

struct fake {
	const uint8_t *rsp;
	size_t len;
	enum vfit_tpm_result r;
	size_t claim;                   /* rsp_len reported, when not len */
};

static enum vfit_tpm_result fake_xfer(void *ctx, const uint8_t *cmd, size_t cmd_len, uint8_t *rsp,
				      size_t rsp_cap, size_t *rsp_len)
{
	struct fake *f = ctx;

	(void)cmd;
	(void)cmd_len;
	if (f->len > rsp_cap)
		return VFIT_TPM_ERR_TRANSPORT;
	memcpy(rsp, f->rsp, f->len);
	*rsp_len = f->claim ? f->claim : f->len;
	return f->r;
}

enum op { STARTUP, BANKS, PROPERTY, RANDOM, NV_PUBLIC, NV_READ, NV_WRITE, PCR_READ, HIER };

struct hostile {
	const char *what;
	enum op op;
	const char *hex;
	enum vfit_tpm_result want;
};

/* "????????" as the size: the true length (the cases after Startup's are about the body) */
#define HDR_NS(size) "8001" size "00000000"
#define HDR_S(size)  "8002" size "00000000"
#define PW_RSP "0000" "01" "0000"

static const struct hostile hostile[] = {
	{ "good Startup", STARTUP, HDR_NS("0000000a"), VFIT_TPM_OK },
	{ "error code", STARTUP, "8001" "0000000a" "00000101", VFIT_TPM_ERR_RC },
	{ "error with the 1.2 tag", STARTUP, "00c4" "0000000a" "0000001e", VFIT_TPM_ERR_RC },
	{ "truncated header", STARTUP, "80010000000a", VFIT_TPM_ERR_MALFORMED },
	{ "empty response", STARTUP, "", VFIT_TPM_ERR_MALFORMED },
	{ "size above bytes", STARTUP, HDR_NS("0000000b"), VFIT_TPM_ERR_MALFORMED },
	{ "size below bytes", STARTUP, HDR_NS("0000000a") "00", VFIT_TPM_ERR_MALFORMED },
	{ "size huge", STARTUP, HDR_NS("ffffffff"), VFIT_TPM_ERR_MALFORMED },
	{ "sessions tag on a no-session command", STARTUP, HDR_S("0000000a"), VFIT_TPM_ERR_MALFORMED },
	{ "unknown tag", STARTUP, "c1c1" "0000000a" "00000000", VFIT_TPM_ERR_MALFORMED },
	{ "error code with a body", STARTUP, "8001" "0000000e" "00000101" "00000000", VFIT_TPM_ERR_MALFORMED },
	{ "error code with the sessions tag", STARTUP, "8002" "0000000a" "00000101", VFIT_TPM_ERR_MALFORMED },
	{ "body after Startup", STARTUP, HDR_NS("0000000b") "00", VFIT_TPM_ERR_MALFORMED },

	{ "good banks", BANKS, HDR_NS("????????") "00" "00000005" "00000002" "000b" "03" "ffffff"
	  "0004" "03" "000000", VFIT_TPM_OK },
	{ "banks: other capability", BANKS, HDR_NS("????????") "00" "00000006" "00000001" "000b" "03" "ffffff",
	  VFIT_TPM_ERR_MALFORMED },
	{ "banks: moreData 2", BANKS, HDR_NS("????????") "02" "00000005" "00000001" "000b" "03" "ffffff",
	  VFIT_TPM_ERR_MALFORMED },
	{ "banks: an answer in parts (moreData 1)", BANKS, HDR_NS("????????") "01" "00000005" "00000001" "000b"
	  "03" "ffffff", VFIT_TPM_ERR_MALFORMED },
	{ "banks: none active", BANKS, HDR_NS("????????") "00" "00000005" "00000002" "000b" "03" "000000"
	  "0004" "03" "000000", VFIT_TPM_ERR_UNSUPPORTED },
	{ "banks: none at all", BANKS, HDR_NS("????????") "00" "00000005" "00000000", VFIT_TPM_ERR_UNSUPPORTED },
	{ "banks: huge count", BANKS, HDR_NS("????????") "00" "00000005" "ffffffff" "000b" "03" "ffffff",
	  VFIT_TPM_ERR_MALFORMED },
	{ "banks: count beyond the bytes", BANKS, HDR_NS("????????") "00" "00000005" "00000002" "000b" "03" "ffffff",
	  VFIT_TPM_ERR_MALFORMED },
	{ "banks: sizeofSelect 200", BANKS, HDR_NS("????????") "00" "00000005" "00000001" "000b" "c8" "ffffff",
	  VFIT_TPM_ERR_MALFORMED },
	{ "banks: select beyond the bytes", BANKS, HDR_NS("????????") "00" "00000005" "00000001" "000b" "04" "ffffff",
	  VFIT_TPM_ERR_MALFORMED },
	{ "banks: trailing byte", BANKS, HDR_NS("????????") "00" "00000005" "00000001" "000b" "03" "ffffff" "00",
	  VFIT_TPM_ERR_MALFORMED },
	{ "banks: one bank twice", BANKS, HDR_NS("????????") "00" "00000005" "00000002" "000b" "03" "ffffff"
	  "000b" "03" "000000", VFIT_TPM_ERR_MALFORMED },
	{ "banks: active unknown algorithm", BANKS, HDR_NS("????????") "00" "00000005" "00000001" "0099" "03" "010000",
	  VFIT_TPM_ERR_UNSUPPORTED },
	{ "banks: six active banks", BANKS, HDR_NS("????????") "00" "00000005" "00000006"
	  "0004" "03" "010000" "000b" "03" "010000" "000c" "03" "010000" "000d" "03" "010000"
	  "0012" "03" "010000" "0005" "03" "010000", VFIT_TPM_ERR_UNSUPPORTED },

	{ "good property", PROPERTY, HDR_NS("????????") "00" "00000006" "00000001" "0000011f" "00001000", VFIT_TPM_OK },
	{ "property: moreData 1 (more properties follow)", PROPERTY, HDR_NS("????????") "01" "00000006"
	  "00000001" "0000011f" "00001000", VFIT_TPM_OK },
	{ "property: another one", PROPERTY, HDR_NS("????????") "00" "00000006" "00000001" "00000120" "00001000",
	  VFIT_TPM_ERR_UNSUPPORTED },
	{ "property: two of them", PROPERTY, HDR_NS("????????") "00" "00000006" "00000002" "0000011f" "00001000"
	  "00000120" "00000000", VFIT_TPM_ERR_MALFORMED },
	{ "property: value cut", PROPERTY, HDR_NS("????????") "00" "00000006" "00000001" "0000011f" "0000",
	  VFIT_TPM_ERR_MALFORMED },

	{ "property: error code", PROPERTY, "8001" "0000000a" "00000101", VFIT_TPM_ERR_RC },

	{ "good random", RANDOM, HDR_NS("????????") "0004" "01020304", VFIT_TPM_OK },
	{ "random: zero bytes", RANDOM, HDR_NS("????????") "0000", VFIT_TPM_ERR_MALFORMED },
	{ "random: more than asked", RANDOM, HDR_NS("????????") "0005" "0102030405", VFIT_TPM_ERR_MALFORMED },
	{ "random: TPM2B beyond the bytes", RANDOM, HDR_NS("????????") "0008" "01020304", VFIT_TPM_ERR_MALFORMED },

	{ "good NV public", NV_PUBLIC, HDR_NS("????????") "000e" "01500010" "000b" "0002001f" "0000" "0008"
	  "0022" "000b" "00000000000000000000000000000000" "00000000000000000000000000000000", VFIT_TPM_OK },
	{ "NV public: another index", NV_PUBLIC, HDR_NS("????????") "000e" "01500011" "000b" "0002001f" "0000" "0008"
	  "0022" "000b" "00000000000000000000000000000000" "00000000000000000000000000000000",
	  VFIT_TPM_ERR_MALFORMED },
	{ "NV public: size larger than its contents", NV_PUBLIC, HDR_NS("????????") "0010" "01500010" "000b" "0002001f"
	  "0000" "0008" "0000" "0022" "000b" "00000000000000000000000000000000" "00000000000000000000000000000000",
	  VFIT_TPM_ERR_MALFORMED },
	{ "NV public: size smaller than its contents", NV_PUBLIC, HDR_NS("????????") "000c" "01500010" "000b"
	  "0002001f" "0000" "0008" "0022" "000b" "00000000000000000000000000000000"
	  "00000000000000000000000000000000", VFIT_TPM_ERR_MALFORMED },
	{ "NV public: TPM2B beyond the response", NV_PUBLIC, HDR_NS("????????") "0100" "01500010" "000b" "00",
	  VFIT_TPM_ERR_MALFORMED },
	{ "NV public: policy beyond the area", NV_PUBLIC, HDR_NS("????????") "000e" "01500010" "000b" "0002001f"
	  "0040" "0008" "0022" "000b" "00000000000000000000000000000000" "00000000000000000000000000000000",
	  VFIT_TPM_ERR_MALFORMED },
	{ "NV public: name of another algorithm", NV_PUBLIC, HDR_NS("????????") "000e" "01500010" "000b" "0002001f"
	  "0000" "0008" "0022" "0004" "00000000000000000000000000000000" "00000000000000000000000000000000",
	  VFIT_TPM_ERR_MALFORMED },
	{ "NV public: name of the wrong size", NV_PUBLIC, HDR_NS("????????") "000e" "01500010" "000b" "0002001f"
	  "0000" "0008" "0021" "000b" "00000000000000000000000000000000" "000000000000000000000000000000",
	  VFIT_TPM_ERR_MALFORMED },
	{ "NV public: no name", NV_PUBLIC, HDR_NS("????????") "000e" "01500010" "000b" "0002001f" "0000" "0008",
	  VFIT_TPM_ERR_MALFORMED },

	{ "good NV read", NV_READ, HDR_S("????????") "00000006" "0004" "61626364" PW_RSP, VFIT_TPM_OK },
	{ "NV read: other size", NV_READ, HDR_S("????????") "00000005" "0003" "616263" PW_RSP,
	  VFIT_TPM_ERR_MALFORMED },
	{ "NV read: no-session tag", NV_READ, HDR_NS("????????") "00000006" "0004" "61626364" PW_RSP,
	  VFIT_TPM_ERR_MALFORMED },
	{ "NV read: parameterSize beyond the response", NV_READ, HDR_S("????????") "00000100" "0004" "61626364" PW_RSP,
	  VFIT_TPM_ERR_MALFORMED },
	{ "NV read: parameterSize short of the TPM2B", NV_READ, HDR_S("????????") "00000005" "0004" "61626364" PW_RSP,
	  VFIT_TPM_ERR_MALFORMED },
	{ "NV read: no session area", NV_READ, HDR_S("????????") "00000006" "0004" "61626364",
	  VFIT_TPM_ERR_MALFORMED },
	{ "NV read: nonce in a password session", NV_READ, HDR_S("????????") "00000006" "0004" "61626364"
	  "0002" "aaaa" "01" "0000", VFIT_TPM_ERR_MALFORMED },
	{ "NV read: HMAC in a password session", NV_READ, HDR_S("????????") "00000006" "0004" "61626364"
	  "0000" "01" "0002" "aaaa", VFIT_TPM_ERR_MALFORMED },
	{ "NV read: bytes after the session", NV_READ, HDR_S("????????") "00000006" "0004" "61626364" PW_RSP "00",
	  VFIT_TPM_ERR_MALFORMED },
	{ "NV read: error code", NV_READ, "8001" "0000000a" "00000148", VFIT_TPM_ERR_RC },

	{ "good NV write", NV_WRITE, HDR_S("????????") "00000000" PW_RSP, VFIT_TPM_OK },
	{ "NV write: parameters where none are", NV_WRITE, HDR_S("????????") "00000002" "0000" PW_RSP,
	  VFIT_TPM_ERR_MALFORMED },
	{ "NV write: session cut", NV_WRITE, HDR_S("????????") "00000000" "000001", VFIT_TPM_ERR_MALFORMED },
	{ "good hierarchy control", HIER, HDR_S("????????") "00000000" PW_RSP, VFIT_TPM_OK },
	{ "hierarchy control: no session area", HIER, HDR_S("????????") "00000000", VFIT_TPM_ERR_MALFORMED },

	{ "good PCR read", PCR_READ, HDR_NS("????????") "00000007" "00000001" "000b" "03" "000100" "00000001"
	  "0020" "00000000000000000000000000000000" "00000000000000000000000000000000", VFIT_TPM_OK },
	{ "PCR read: bank without that PCR", PCR_READ, HDR_NS("????????") "00000007" "00000001" "000b" "03" "000000"
	  "00000000", VFIT_TPM_ERR_UNSUPPORTED },
	{ "PCR read: another PCR", PCR_READ, HDR_NS("????????") "00000007" "00000001" "000b" "03" "000200" "00000001"
	  "0020" "00000000000000000000000000000000" "00000000000000000000000000000000", VFIT_TPM_ERR_MALFORMED },
	{ "PCR read: another bank", PCR_READ, HDR_NS("????????") "00000007" "00000001" "000c" "03" "000100" "00000001"
	  "0020" "00000000000000000000000000000000" "00000000000000000000000000000000", VFIT_TPM_ERR_MALFORMED },
	{ "PCR read: digest of the wrong size", PCR_READ, HDR_NS("????????") "00000007" "00000001" "000b" "03" "000100"
	  "00000001" "000c" "000000000000000000000000", VFIT_TPM_ERR_MALFORMED },
	{ "PCR read: two digests", PCR_READ, HDR_NS("????????") "00000007" "00000001" "000b" "03" "000100" "00000002"
	  "0020" "00000000000000000000000000000000" "00000000000000000000000000000000"
	  "0020" "00000000000000000000000000000000" "00000000000000000000000000000000", VFIT_TPM_ERR_MALFORMED },
	{ "PCR read: selection count huge", PCR_READ, HDR_NS("????????") "00000007" "ffffffff" "000b" "03" "000100"
	  "00000000", VFIT_TPM_ERR_MALFORMED },
	{ "PCR read: sizeofSelect 5", PCR_READ, HDR_NS("????????") "00000007" "00000001" "000b" "05" "0001000000"
	  "00000000", VFIT_TPM_ERR_MALFORMED },
	{ "PCR read: select beyond the response", PCR_READ, HDR_NS("????????") "00000007" "00000001" "000b" "03" "00",
	  VFIT_TPM_ERR_MALFORMED },
	{ "PCR read: error code", PCR_READ, "8001" "0000000a" "000001c3", VFIT_TPM_ERR_RC },
	{ "PCR read: digest count huge", PCR_READ, HDR_NS("????????") "00000007" "00000001" "000b" "03" "000100"
	  "ffffffff", VFIT_TPM_ERR_MALFORMED },
	{ "PCR read: digest TPM2B beyond the response", PCR_READ, HDR_NS("????????") "00000007" "00000001" "000b" "03"
	  "000100" "00000001" "ffff", VFIT_TPM_ERR_MALFORMED },
};

static enum vfit_tpm_result run_op(struct vfit_tpm *tpm, enum op op)
{
	struct vfit_tpm_banks b;
	struct vfit_tpm_nv_public pub;
	struct vfit_tpm_digests d = { 0 };
	uint8_t buf[VFIT_TPM_MAX_DIGEST];
	uint32_t v;

	(void)d;
	switch (op) {
	case STARTUP: return vfit_tpm_startup_clear(tpm);
	case BANKS: return vfit_tpm_get_banks(tpm, &b);
	case PROPERTY: return vfit_tpm_get_property(tpm, VFIT_TPM_PT_MAX_RESPONSE_SIZE, &v);
	case RANDOM: return vfit_tpm_get_random(tpm, buf, 4);
	case NV_PUBLIC: return vfit_tpm_nv_read_public(tpm, IDX_COUNTER, &pub);
	case NV_READ: return vfit_tpm_nv_read(tpm, &platform, IDX_RECORD, 0, buf, 4);
	case NV_WRITE: return vfit_tpm_nv_write(tpm, &platform, IDX_RECORD, 0, "abcd", 4);
	case HIER: return vfit_tpm_hierarchy_control(tpm, &platform, VFIT_TPM_RH_PLATFORM, 0);
	case PCR_READ: return vfit_tpm_pcr_read(tpm, 8, VFIT_TPM_ALG_SHA256, buf, &v);
	}
	return VFIT_TPM_ERR_PARAM;
}

static void test_hostile(void)
{
	static struct vfit_tpm t;
	struct vfit_tpm *tpm = &t;
	struct fake f;
	struct vfit_tpm_transport tr = { fake_xfer, &f };
	uint8_t rsp[512];
	size_t i;

	vfit_tpm_init(tpm, &tr);
	for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		const struct hostile *h = &hostile[i];
		char hex[1024];
		long n;
		enum vfit_tpm_result r;
		size_t k;

		REQUIRE(strlen(h->hex) < sizeof(hex), "%s: too long", h->what);
		for (k = 0; h->hex[k]; k++)
			hex[k] = h->hex[k] == '?' ? '0' : h->hex[k];
		n = check_unhex(hex, k, rsp, sizeof(rsp));

		REQUIRE(n >= 0, "%s: bad hex", h->what);
		/* "????????" as responseSize: the true length (cases about the body, not the header) */
		if (n >= 10 && !memcmp(h->hex + 4, "????????", 8)) {
			rsp[2] = (uint8_t)(n >> 24);
			rsp[3] = (uint8_t)(n >> 16);
			rsp[4] = (uint8_t)(n >> 8);
			rsp[5] = (uint8_t)n;
		}
		memset(&f, 0, sizeof(f));
		f.rsp = rsp;
		f.len = (size_t)n;
		r = run_op(tpm, h->op);
		CHECK(r == h->want, "%s: %s, want %s", h->what, vfit_tpm_result_to_string(r),
		      vfit_tpm_result_to_string(h->want));
	}
	/* The transport's own failures pass through; a length beyond the buffer is one. */
	check_unhex(HDR_NS("0000000a"), 20, rsp, sizeof(rsp));
	memset(&f, 0, sizeof(f));
	f.rsp = rsp;
	f.len = 10;
	f.claim = VFIT_TPM_BUF_SIZE + 1;
	R(vfit_tpm_startup_clear(tpm), VFIT_TPM_ERR_TRANSPORT);
	f.claim = 0;
	f.r = VFIT_TPM_ERR_NO_TPM;
	R(vfit_tpm_startup_clear(tpm), VFIT_TPM_ERR_NO_TPM);
	f.r = VFIT_TPM_ERR_TIMEOUT;
	R(vfit_tpm_startup_clear(tpm), VFIT_TPM_ERR_TIMEOUT);
	f.r = VFIT_TPM_ERR_MALFORMED;           /* not a transport's result */
	R(vfit_tpm_startup_clear(tpm), VFIT_TPM_ERR_TRANSPORT);
	CHECK(tpm->commands == sizeof(hostile) / sizeof(hostile[0]) + 4, "%u commands", (unsigned)tpm->commands);
	/* Arguments refused before anything is sent. */
	f.r = VFIT_TPM_OK;
	R(vfit_tpm_nv_read(tpm, &platform, 0x81000000u, 0, rsp, 4), VFIT_TPM_ERR_PARAM);
	R(vfit_tpm_nv_read(tpm, &platform, IDX_RECORD, 0xFFFF, rsp, 4), VFIT_TPM_ERR_PARAM);
	R(vfit_tpm_nv_write(tpm, &(struct vfit_tpm_auth){ VFIT_TPM_RH_PLATFORM, NULL, 1 }, IDX_RECORD, 0, rsp, 4),
	  VFIT_TPM_ERR_PARAM);
	R(vfit_tpm_hierarchy_control(tpm, &platform, VFIT_TPM_RH_PLATFORM, 2), VFIT_TPM_ERR_PARAM);
	CHECK(tpm->commands == sizeof(hostile) / sizeof(hostile[0]) + 4, "argument errors sent commands");
}

/* Every named value has its own name, and unknown ones the fallback. */
static void names_distinct(void)
{
	static const uint32_t events[] = {
		VFIT_TPM_EV_PREBOOT_CERT, VFIT_TPM_EV_POST_CODE, VFIT_TPM_EV_NO_ACTION, VFIT_TPM_EV_SEPARATOR,
		VFIT_TPM_EV_ACTION, VFIT_TPM_EV_EVENT_TAG, VFIT_TPM_EV_S_CRTM_CONTENTS, VFIT_TPM_EV_S_CRTM_VERSION,
		VFIT_TPM_EV_CPU_MICROCODE, VFIT_TPM_EV_PLATFORM_CONFIG_FLAGS, VFIT_TPM_EV_TABLE_OF_DEVICES,
		VFIT_TPM_EV_COMPACT_HASH, VFIT_TPM_EV_IPL, VFIT_TPM_EV_IPL_PARTITION_DATA, VFIT_TPM_EV_NONHOST_CODE,
		VFIT_TPM_EV_NONHOST_CONFIG, VFIT_TPM_EV_NONHOST_INFO, VFIT_TPM_EV_OMIT_BOOT_DEVICE_EVENTS,
		VFIT_TPM_EV_EFI_ACTION, VFIT_TPM_EV_EFI_PLATFORM_FIRMWARE_BLOB, VFIT_TPM_EV_EFI_HANDOFF_TABLES,
	};
	static const uint32_t rcs[] = {
		VFIT_TPM_RC_SUCCESS, VFIT_TPM_RC_BAD_TAG, VFIT_TPM_RC_INITIALIZE, VFIT_TPM_RC_FAILURE,
		VFIT_TPM_RC_DISABLED, VFIT_TPM_RC_AUTH_MISSING, VFIT_TPM_RC_AUTH_UNAVAILABLE,
		VFIT_TPM_RC_COMMAND_CODE, VFIT_TPM_RC_NV_RANGE, VFIT_TPM_RC_NV_SIZE, VFIT_TPM_RC_NV_LOCKED,
		VFIT_TPM_RC_NV_AUTHORIZATION, VFIT_TPM_RC_NV_UNINITIALIZED, VFIT_TPM_RC_NV_SPACE,
		VFIT_TPM_RC_NV_DEFINED, VFIT_TPM_RC_ATTRIBUTES, VFIT_TPM_RC_HIERARCHY, VFIT_TPM_RC_VALUE,
		VFIT_TPM_RC_HASH, VFIT_TPM_RC_HANDLE, VFIT_TPM_RC_AUTH_FAIL, VFIT_TPM_RC_SIZE, VFIT_TPM_RC_BAD_AUTH,
		VFIT_TPM_RC_LOCKOUT, VFIT_TPM_RC_RETRY, VFIT_TPM_RC_NV_UNAVAILABLE,
	};
	static const uint16_t algs[] = { VFIT_TPM_ALG_SHA1, VFIT_TPM_ALG_SHA256, VFIT_TPM_ALG_SHA384,
					 VFIT_TPM_ALG_SHA512, VFIT_TPM_ALG_SM3_256 };
	size_t i, j;
	int r;

	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		const char *n = vfit_tpm_event_to_string(events[i]);

		for (j = 0; j < i && strcmp(n, vfit_tpm_event_to_string(events[j])); j++)
			;
		CHECK(j == i && strcmp(n, "EV_(unknown)"), "event 0x%x named %s", (unsigned)events[i], n);
	}
	CHECK(!strcmp(vfit_tpm_event_to_string(0x13), "EV_(unknown)"), "event 0x13");
	for (i = 0; i < sizeof(rcs) / sizeof(rcs[0]); i++) {
		const char *n = vfit_tpm_rc_to_string(rcs[i]);

		for (j = 0; j < i && strcmp(n, vfit_tpm_rc_to_string(rcs[j])); j++)
			;
		CHECK(j == i && strcmp(n, "TPM_RC_(other)"), "rc 0x%x named %s", (unsigned)rcs[i], n);
	}
	CHECK(!strcmp(vfit_tpm_rc_to_string(0x150), "TPM_RC_(other)"), "rc 0x150");
	for (i = 0; i < sizeof(algs) / sizeof(algs[0]); i++)
		CHECK(strcmp(vfit_tpm_alg_to_string(algs[i]), "unknown") && vfit_tpm_alg_digest_size(algs[i]),
		      "alg 0x%x", algs[i]);
	CHECK(!strcmp(vfit_tpm_alg_to_string(0x99), "unknown") && !vfit_tpm_alg_digest_size(0x99), "alg 0x99");
	for (r = VFIT_TPM_OK; r <= VFIT_TPM_ERR_LOG; r++) {
		const char *n = vfit_tpm_result_to_string((enum vfit_tpm_result)r);

		for (j = 0; j < (size_t)r && strcmp(n, vfit_tpm_result_to_string((enum vfit_tpm_result)j)); j++)
			;
		CHECK(j == (size_t)r && strcmp(n, "unknown TPM result"), "result %d named %s", r, n);
	}
	CHECK(!strcmp(vfit_tpm_result_to_string((enum vfit_tpm_result)99), "unknown TPM result"), "result 99");
}

/* The log writer's bounds, with no TPM. */
static void test_log_bounds(void)
{
	static uint8_t mem[256];
	struct vfit_tpm_banks b = { 2, { VFIT_TPM_ALG_SHA256, VFIT_TPM_ALG_SHA1 }, { 0xffffff, 0xffffff } };
	struct vfit_tpm_log log;
	struct vfit_tpm_digests d = { 2, { { VFIT_TPM_ALG_SHA1, { 1 } }, { VFIT_TPM_ALG_SHA256, { 2 } } } };
	uint8_t out[VFIT_TPM_MAX_DIGEST], want[32], zero[32] = { 0 };
	size_t need, len;
	uint32_t ev;

	L(vfit_tpm_log_init(&log, mem, 68, &b), VFIT_TPM_ERR_SPACE);
	L(vfit_tpm_log_init(&log, mem, 69, &b), VFIT_TPM_OK);
	CHECK(log.len == 69, "Spec ID event of %zu bytes", log.len);
	L(vfit_tpm_log_init(&log, mem, sizeof(mem), &b), VFIT_TPM_OK);
	need = 4 + 4 + 4 + (2 + 32) + (2 + 20) + 4 + 5;
	log.cap = log.len + need - 1;
	len = log.len;
	L(vfit_tpm_log_append(&log, 3, VFIT_TPM_EV_POST_CODE, &d, "hello", 5), VFIT_TPM_ERR_SPACE);
	CHECK(log.len == len, "a refused entry was written");
	log.cap = log.len + need;
	L(vfit_tpm_log_append(&log, 3, VFIT_TPM_EV_POST_CODE, &d, "hello", 5), VFIT_TPM_OK);
	CHECK(log.len == len + need, "entry of %zu bytes", log.len - len);
	L(vfit_tpm_log_append(&log, 3, VFIT_TPM_EV_POST_CODE, &d, "", 0), VFIT_TPM_ERR_SPACE);
	d.d[1].alg = VFIT_TPM_ALG_SHA384;
	log.cap = sizeof(mem);
	L(vfit_tpm_log_append(&log, 3, VFIT_TPM_EV_POST_CODE, &d, "", 0), VFIT_TPM_ERR_LOG);
	d.d[1].alg = VFIT_TPM_ALG_SHA1;         /* one bank twice */
	L(vfit_tpm_log_append(&log, 3, VFIT_TPM_EV_POST_CODE, &d, "", 0), VFIT_TPM_ERR_PARAM);
	d.d[1].alg = VFIT_TPM_ALG_SHA256;
	L(vfit_tpm_log_append(&log, 24, VFIT_TPM_EV_POST_CODE, &d, "", 0), VFIT_TPM_ERR_PARAM);
	/* sha256 replay: H(zeros || 02 00..). */
	L(vfit_tpm_log_replay(log.base, log.len, 3, VFIT_TPM_ALG_SHA256, out, &ev), VFIT_TPM_OK);
	{
		uint8_t dg[32] = { 2 };

		REQUIRE(ossl_hash(VFIT_TPM_ALG_SHA256, zero, 32, dg, 32, want), "OpenSSL");
	}
	CHECK(!memcmp(out, want, 32) && ev == 1, "replay of one event");
	L(vfit_tpm_log_replay(log.base, log.len, 4, VFIT_TPM_ALG_SHA256, out, &ev), VFIT_TPM_OK);
	CHECK(!memcmp(out, zero, 32) && ev == 0, "untouched PCR");
	L(vfit_tpm_log_replay(log.base, log.len, 17, VFIT_TPM_ALG_SHA1, out, &ev), VFIT_TPM_OK);
	CHECK(out[0] == 0xFF && out[19] == 0xFF, "PCR 17 starts at all ones");
	L(vfit_tpm_log_replay(log.base, log.len, 3, VFIT_TPM_ALG_SHA384, out, &ev), VFIT_TPM_ERR_UNSUPPORTED);
	/* StartupLocality 3: PCR 0 starts at 00..03. */
	{
		uint8_t ev_sl[17] = "StartupLocality";
		struct vfit_tpm_digests z = { 2, { { VFIT_TPM_ALG_SHA256, { 0 } }, { VFIT_TPM_ALG_SHA1, { 0 } } } };

		ev_sl[16] = 3;
		L(vfit_tpm_log_init(&log, mem, sizeof(mem), &b), VFIT_TPM_OK);
		L(vfit_tpm_log_append(&log, 0, VFIT_TPM_EV_NO_ACTION, &z, ev_sl, 17), VFIT_TPM_OK);
		L(vfit_tpm_log_replay(log.base, log.len, 0, VFIT_TPM_ALG_SHA256, out, &ev), VFIT_TPM_OK);
		CHECK(out[31] == 3 && !memcmp(out, zero, 31) && ev == 0, "StartupLocality");
		/* ... and only before PCR 0 was extended. */
		L(vfit_tpm_log_init(&log, mem, sizeof(mem), &b), VFIT_TPM_OK);
		L(vfit_tpm_log_append(&log, 0, VFIT_TPM_EV_POST_CODE, &z, "", 0), VFIT_TPM_OK);
		L(vfit_tpm_log_append(&log, 0, VFIT_TPM_EV_NO_ACTION, &z, ev_sl, 17), VFIT_TPM_OK);
		L(vfit_tpm_log_replay(log.base, log.len, 0, VFIT_TPM_ALG_SHA256, out, &ev), VFIT_TPM_ERR_LOG);
	}
	/*
	 * Logs the writer never makes, patched from a good one: Spec ID (69 bytes,
	 * algorithms at 60 and 64, sizes at 62 and 66), then an event of
	 * pcr, type, count (at 77), sha256 (at 81) + 32, sha1 (at 115) + 20, size, data.
	 */
	{
		static const struct { const char *what; size_t at; uint8_t v[4]; uint32_t pcr; uint16_t alg; } patch[] = {
			{ "Spec ID: digest size of sha256 wrong", 62, { 33, 0, 0x04, 0 }, 3, VFIT_TPM_ALG_SHA256 },
			{ "Spec ID: digest size 0", 66, { 0, 0, 2, 0 }, 3, VFIT_TPM_ALG_SHA256 },
			{ "Spec ID: one algorithm twice", 64, { 0x0B, 0, 32, 0 }, 3, VFIT_TPM_ALG_SHA256 },
			{ "Spec ID: no algorithm", 56, { 0, 0, 0, 0 }, 3, VFIT_TPM_ALG_SHA256 },
			{ "event: digest count above the Spec ID's", 77, { 3, 0, 0, 0 }, 3, VFIT_TPM_ALG_SHA256 },
			{ "event: algorithm not in the Spec ID", 81, { 0x0C, 0, 0x07, 0 }, 3, VFIT_TPM_ALG_SHA256 },
			{ "event: one algorithm twice", 115, { 0x0B, 0, 8, 0 }, 3, VFIT_TPM_ALG_SHA1 },
			{ "event: PCR 24", 69, { 24, 0, 0, 0 }, 3, VFIT_TPM_ALG_SHA256 },
			{ "event: size beyond the log", 137, { 0xFF, 0xFF, 0, 0 }, 3, VFIT_TPM_ALG_SHA256 },
		};
		struct vfit_tpm_digests two = { 2, { { VFIT_TPM_ALG_SHA256, { 7 } }, { VFIT_TPM_ALG_SHA1, { 8 } } } };
		uint8_t bad[256];
		size_t k, n;

		L(vfit_tpm_log_init(&log, mem, sizeof(mem), &b), VFIT_TPM_OK);
		L(vfit_tpm_log_append(&log, 3, VFIT_TPM_EV_POST_CODE, &two, "ab", 2), VFIT_TPM_OK);
		REQUIRE(log.len == 143 && mem[81] == 0x0B && mem[115] == 0x04 && mem[137] == 2,
			"event layout (%zu bytes)", log.len);
		n = log.len;
		for (k = 0; k < sizeof(patch) / sizeof(patch[0]); k++) {
			memcpy(bad, mem, n);
			memcpy(bad + patch[k].at, patch[k].v, 4);
			CHECK(vfit_tpm_log_replay(bad, n, patch[k].pcr, patch[k].alg, out, &ev) == VFIT_TPM_ERR_LOG,
			      "%s: not refused", patch[k].what);
		}
		/* An event without the sha256 digest: that bank cannot be replayed, sha1 can. */
		memcpy(bad, mem, 77);
		bad[77] = 1;
		memcpy(bad + 81, mem + 115, 22);        /* sha1 and its digest */
		memcpy(bad + 103, mem + 137, 6);        /* event size and data */
		L(vfit_tpm_log_replay(bad, 109, 3, VFIT_TPM_ALG_SHA256, out, &ev), VFIT_TPM_ERR_LOG);
		L(vfit_tpm_log_replay(bad, 109, 3, VFIT_TPM_ALG_SHA1, out, &ev), VFIT_TPM_OK);
		CHECK(ev == 1, "sha1 replay of %u events", (unsigned)ev);
	}
	/* A bank this build cannot hash (SM3) is written, but not replayed. */
	{
		struct vfit_tpm_banks sm3 = { 2, { VFIT_TPM_ALG_SHA256, VFIT_TPM_ALG_SM3_256 }, { 1, 1 } };
		struct vfit_tpm_digests z = { 2, { { VFIT_TPM_ALG_SM3_256, { 5 } }, { VFIT_TPM_ALG_SHA256, { 6 } } } };

		L(vfit_tpm_log_init(&log, mem, sizeof(mem), &sm3), VFIT_TPM_OK);
		L(vfit_tpm_log_append(&log, 3, VFIT_TPM_EV_POST_CODE, &z, "", 0), VFIT_TPM_OK);
		L(vfit_tpm_log_replay(log.base, log.len, 3, VFIT_TPM_ALG_SM3_256, out, &ev), VFIT_TPM_ERR_UNSUPPORTED);
		L(vfit_tpm_log_replay(log.base, log.len, 3, VFIT_TPM_ALG_SHA256, out, &ev), VFIT_TPM_OK);
		CHECK(ev == 1, "sha256 beside sm3");
	}
	CHECK(!strcmp(vfit_tpm_event_to_string(VFIT_TPM_EV_EFI_ACTION), "EV_EFI_ACTION"), "event name");
	names_distinct();
	CHECK(!strcmp(vfit_tpm_rc_to_string(0x9A2), "TPM_RC_BAD_AUTH"), "rc name of a session error");
	CHECK(!strcmp(vfit_tpm_rc_to_string(0x185), "TPM_RC_HIERARCHY"), "rc name of a handle error");
	CHECK(!strcmp(vfit_tpm_result_to_string(VFIT_TPM_ERR_MALFORMED), "malformed TPM response"), "result name");
}

/* ---- every active bank: hashes, extends, the log and its separators ---- */

static const uint16_t four[] = {
	VFIT_TPM_ALG_SHA1, VFIT_TPM_ALG_SHA256, VFIT_TPM_ALG_SHA384, VFIT_TPM_ALG_SHA512,
};

/* The log is little-endian, commands big-endian. */
static uint32_t le16(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t le32(const uint8_t *p)
{
	return le16(p) | le16(p + 2) << 16;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A transport that keeps each command and answers it as a password-session command succeeds. */
struct recorder {
	unsigned int n;
	size_t len[12];
	uint8_t cmd[12][512];
};

static enum vfit_tpm_result record_xfer(void *ctx, const uint8_t *cmd, size_t cmd_len, uint8_t *rsp,
					size_t rsp_cap, size_t *rsp_len)
{
	/* header (size 19, success), parameterSize 0, empty nonce, attributes, empty HMAC */
	static const uint8_t ok[] = { 0x80, 0x02, 0, 0, 0, 19, 0, 0, 0, 0, 0, 0, 0, 0,
				      0, 0, 0x01, 0, 0 };
	struct recorder *r = ctx;

	if (r->n < 12 && cmd_len <= sizeof(r->cmd[0])) {
		memcpy(r->cmd[r->n], cmd, cmd_len);
		r->len[r->n] = cmd_len;
	}
	r->n++;
	if (rsp_cap < sizeof(ok))
		return VFIT_TPM_ERR_TRANSPORT;
	memcpy(rsp, ok, sizeof(ok));
	*rsp_len = sizeof(ok);
	return VFIT_TPM_OK;
}

static void four_banks(struct vfit_tpm_banks *b)
{
	unsigned int i;

	memset(b, 0, sizeof(*b));
	for (i = 0; i < 4; i++) {
		b->alg[i] = four[i];
		b->pcr_mask[i] = 0xffffff;
	}
	b->count = 4;
}

/* The library's hash of each bank, and the digests of data for several banks in one pass. */
static void test_bank_hashes(void)
{
	struct vfit_tpm_banks b;
	struct vfit_tpm_digests d;
	struct vfit_digest_set s;
	uint8_t want[VFIT_TPM_MAX_DIGEST];
	uint32_t hashes = 0;
	uint16_t alg = 0;
	unsigned int i;

	CHECK(vfit_tpm_alg_hash(VFIT_TPM_ALG_SHA1) == VFIT_HASH_SHA1 &&
	      vfit_tpm_alg_hash(VFIT_TPM_ALG_SHA256) == VFIT_HASH_SHA256 &&
	      vfit_tpm_alg_hash(VFIT_TPM_ALG_SHA384) == VFIT_HASH_SHA384 &&
	      vfit_tpm_alg_hash(VFIT_TPM_ALG_SHA512) == VFIT_HASH_SHA512, "the four banks' hashes");
	CHECK(vfit_tpm_alg_hash(VFIT_TPM_ALG_SM3_256) == VFIT_HASH_INVALID &&
	      vfit_tpm_alg_hash(0x0099) == VFIT_HASH_INVALID, "no hash for sm3_256 or an unknown bank");

	four_banks(&b);
	L(vfit_tpm_banks_hashes(&b, &hashes, &alg), VFIT_TPM_OK);
	CHECK(hashes == VFIT_HASH_SET_ALL, "four banks need 0x%x", (unsigned)hashes);
	b.alg[2] = VFIT_TPM_ALG_SM3_256;
	L(vfit_tpm_banks_hashes(&b, &hashes, &alg), VFIT_TPM_ERR_UNSUPPORTED);
	CHECK(alg == VFIT_TPM_ALG_SM3_256, "the bank that cannot be hashed: %s",
	      vfit_tpm_alg_to_string(alg));
	L(vfit_tpm_digests_of(&b, "x", 1, &d), VFIT_TPM_ERR_UNSUPPORTED);
	b.count = 0;
	L(vfit_tpm_banks_hashes(&b, &hashes, &alg), VFIT_TPM_ERR_PARAM);

	/* Each bank's digest, in the banks' order, as OpenSSL computes it. */
	four_banks(&b);
	b.alg[0] = VFIT_TPM_ALG_SHA512;
	b.alg[3] = VFIT_TPM_ALG_SHA1;
	L(vfit_tpm_digests_of(&b, "a kernel", 8, &d), VFIT_TPM_OK);
	CHECK(d.count == 4, "%u digests", (unsigned)d.count);
	for (i = 0; i < 4; i++) {
		REQUIRE(ossl_hash(b.alg[i], "a kernel", 8, NULL, 0, want), "OpenSSL");
		CHECK(d.d[i].alg == b.alg[i] &&
		      !memcmp(d.d[i].digest, want, vfit_tpm_alg_digest_size(b.alg[i])),
		      "digest %u: %s as OpenSSL's", i, vfit_tpm_alg_to_string(b.alg[i]));
	}
	/* From a digest set: every bank's hash there, or nothing. */
	memset(&s, 0, sizeof(s));
	s.hashes = VFIT_HASH_SET_ALL & ~VFIT_HASH_BIT(VFIT_HASH_SHA384);
	L(vfit_tpm_digests_from(&b, &s, &d), VFIT_TPM_ERR_UNSUPPORTED);
	s.hashes = VFIT_HASH_SET_ALL;
	memset(s.sha384, 0x38, sizeof(s.sha384));
	L(vfit_tpm_digests_from(&b, &s, &d), VFIT_TPM_OK);
	CHECK(d.count == 4 && d.d[2].alg == VFIT_TPM_ALG_SHA384 && d.d[2].digest[47] == 0x38,
	      "sha384 from the set");
}

/* PCR_Extend of four banks, byte by byte (TPM 2.0 Part 3, TPM2_PCR_Extend). */
static void test_extend_encoding(void)
{
	static struct vfit_tpm t;
	static struct recorder rec;
	struct vfit_tpm_transport tr = { record_xfer, &rec };
	struct vfit_tpm_banks b;
	struct vfit_tpm_digests d;
	uint8_t want[512];
	size_t n = 0, i, k;
	struct vfit_tpm *tpm = &t;

	four_banks(&b);
	REQUIRE(!vfit_tpm_digests_of(&b, "initrd", 6, &d), "digests");
	vfit_tpm_init(tpm, &tr);
	R(vfit_tpm_pcr_extend(tpm, 9, &d), VFIT_TPM_OK);
	/* tag, size (below), PCR_Extend, handle = PCR 9, a password session of an empty password */
	n = 0;
	want[n++] = 0x80, want[n++] = 0x02;
	n += 4;
	want[n++] = 0, want[n++] = 0, want[n++] = 0x01, want[n++] = 0x82;
	want[n++] = 0, want[n++] = 0, want[n++] = 0, want[n++] = 9;
	want[n++] = 0, want[n++] = 0, want[n++] = 0, want[n++] = 9;
	want[n++] = 0x40, want[n++] = 0, want[n++] = 0, want[n++] = 0x09;
	want[n++] = 0, want[n++] = 0, want[n++] = 0x01, want[n++] = 0, want[n++] = 0;
	/* TPML_DIGEST_VALUES: count, then each bank's algorithm and digest */
	want[n++] = 0, want[n++] = 0, want[n++] = 0, want[n++] = 4;
	for (i = 0; i < 4; i++) {
		want[n++] = (uint8_t)(four[i] >> 8), want[n++] = (uint8_t)four[i];
		for (k = 0; k < vfit_tpm_alg_digest_size(four[i]); k++)
			want[n++] = d.d[i].digest[k];
	}
	want[2] = (uint8_t)(n >> 24), want[3] = (uint8_t)(n >> 16);
	want[4] = (uint8_t)(n >> 8), want[5] = (uint8_t)n;
	CHECK(rec.n == 1 && rec.len[0] == n && !memcmp(rec.cmd[0], want, n),
	      "PCR_Extend of four banks: %zu bytes, want %zu", rec.len[0], n);
}

/*
 * The log of a four-bank TPM: each event carries every bank's digest in the
 * Spec ID event's order, whatever order the digests came in; each bank
 * replays to its own chain of extends; and the separators end PCRs 0-7.
 */
static void test_log_banks(void)
{
	static uint8_t mem[4096];
	static struct vfit_tpm t;
	static struct recorder rec;
	struct vfit_tpm_transport tr = { record_xfer, &rec };
	struct vfit_tpm_banks b;
	struct vfit_tpm_digests d, rev;
	struct vfit_tpm_log log;
	const uint8_t *e;
	uint8_t v[VFIT_TPM_MAX_DIGEST], want[VFIT_TPM_MAX_DIGEST], sep[4] = { 0xff, 0xff, 0xff, 0xff };
	uint32_t i, pcr, ev;
	size_t at, off;
	struct vfit_tpm *tpm = &t;

	four_banks(&b);
	L(vfit_tpm_log_init(&log, mem, sizeof(mem), &b), VFIT_TPM_OK);
	/* Spec ID event: four algorithms with their digest sizes */
	CHECK(log.len == 32 + 29 + 16 && mem[32 + 24] == 4, "Spec ID event of %zu bytes", log.len);
	for (i = 0; i < 4; i++)
		CHECK(le16(mem + 32 + 28 + 4 * i) == four[i] &&
		      le16(mem + 32 + 30 + 4 * i) == vfit_tpm_alg_digest_size(four[i]),
		      "Spec ID bank %u", i);
	REQUIRE(!vfit_tpm_digests_of(&b, "kernel image", 12, &d), "digests");
	rev.count = 4;
	for (i = 0; i < 4; i++)
		rev.d[i] = d.d[3 - i];
	at = log.len;
	L(vfit_tpm_log_append(&log, 8, VFIT_TPM_EV_IPL, &rev, "kernel", 6), VFIT_TPM_OK);
	e = mem + at;
	CHECK(le32(e) == 8 && le32(e + 4) == VFIT_TPM_EV_IPL && le32(e + 8) == 4,
	      "the event's PCR, type and digest count");
	for (i = 0, off = 12; i < 4; i++) {
		size_t n = vfit_tpm_alg_digest_size(four[i]);

		CHECK(le16(e + off) == four[i] && !memcmp(e + off + 2, d.d[i].digest, n),
		      "digest %u in the Spec ID order: %s", i, vfit_tpm_alg_to_string(four[i]));
		off += 2 + n;
	}
	CHECK(le32(e + off) == 6 && !memcmp(e + off + 4, "kernel", 6) && at + off + 10 == log.len,
	      "the event data ends the entry");

	/* The separators: PCRs 0..7 each extended once in every bank, and logged. */
	vfit_tpm_init(tpm, &tr);
	R(vfit_tpm_separators(tpm, &log, &b, VFIT_TPM_SEPARATOR), VFIT_TPM_OK);
	CHECK(rec.n == 8, "%u PCR_Extend commands", rec.n);
	for (pcr = 0; pcr < 8 && pcr < rec.n; pcr++)
		CHECK(be32(rec.cmd[pcr] + 6) == 0x182 && be32(rec.cmd[pcr] + 10) == pcr &&
		      be32(rec.cmd[pcr] + 27) == 4, "separator %u: PCR_Extend of PCR %u, four banks",
		      pcr, pcr);
	for (i = 0; i < 4; i++) {
		size_t n = vfit_tpm_alg_digest_size(four[i]);
		uint8_t zero[VFIT_TPM_MAX_DIGEST] = { 0 }, dg[VFIT_TPM_MAX_DIGEST];

		for (pcr = 0; pcr < 10; pcr++) {
			L(vfit_tpm_log_replay(log.base, log.len, pcr, four[i], v, &ev), VFIT_TPM_OK);
			/* OpenSSL: zeros extended with the separator's digest (PCR 8: the kernel's) */
			REQUIRE(ossl_hash(four[i], pcr == 8 ? "kernel image" : (const char *)sep,
					  pcr == 8 ? 12 : 4, NULL, 0, dg), "OpenSSL");
			REQUIRE(ossl_hash(four[i], zero, n, dg, n, want), "OpenSSL");
			if (pcr == 9)
				CHECK(ev == 0, "PCR 9 %s: nothing", vfit_tpm_alg_to_string(four[i]));
			else
				CHECK(ev == 1 && !memcmp(v, want, n), "PCR %u %s: replay of one extend",
				      (unsigned)pcr, vfit_tpm_alg_to_string(four[i]));
		}
	}
	/* The separator events: EV_SEPARATOR, FFFFFFFFh as the event data. */
	for (pcr = 0, off = at + (log.len - at) - 8 * (12 + 4 * 2 + 20 + 32 + 48 + 64 + 4 + 4);
	     pcr < 8; pcr++, off += 12 + 8 + 164 + 8) {
		e = mem + off;
		CHECK(le32(e) == pcr && le32(e + 4) == VFIT_TPM_EV_SEPARATOR &&
		      le32(e + 12 + 8 + 164) == 4 && !memcmp(e + 12 + 8 + 164 + 4, sep, 4),
		      "separator event %u", (unsigned)pcr);
	}
	/* One that fails ends the run there: nothing more extended or logged. */
	rec.n = 0;
	at = log.len;
	log.cap = log.len + 3 * (12 + 8 + 164 + 8);
	R(vfit_tpm_separators(tpm, &log, &b, VFIT_TPM_SEPARATOR_ERROR), VFIT_TPM_ERR_SPACE);
	CHECK(rec.n == 3 && log.len == at + 3 * (12 + 8 + 164 + 8),
	      "three separators fit, the fourth is refused (%u extends)", rec.n);
}

int main(void)
{
	static struct vfit_tpm t;
	struct vfit_tpm *tpm = &t;
	struct vfit_tpm_sock s;
	struct vfit_tpm_transport tr;
	struct vfit_tpm_banks banks;

	alarm(120);     /* watchdog against a hang: swtpm dies with us through PDEATHSIG */
	test_hostile();
	test_log_bounds();
	test_bank_hashes();
	test_extend_encoding();
	test_log_banks();

	/* libtpms' default banks: every bank is extended and replayed. */
	if (!swtpm_start(&sw, dir, sizeof(dir), "vfit-tpm", "tpm", NULL, &s))
		return check_done();
	vfit_tpm_sock_transport(&s, &tr);
	vfit_tpm_init(tpm, &tr);
	test_commands(tpm, &banks);
	test_nv(tpm, &s);
	test_pcr(tpm, &banks);
	test_log(tpm, &banks);
	printf("  %u TPM commands\n", (unsigned)tpm->commands);
	/* The TPM goes away: the socket transport says so, and stays closed. */
	swtpm_end(&sw);
	R(vfit_tpm_get_random(tpm, banks.alg, 2), VFIT_TPM_ERR_TRANSPORT);
	CHECK(s.data_fd < 0, "data channel still open after a failure");
	R(vfit_tpm_startup_clear(tpm), VFIT_TPM_ERR_TRANSPORT);
	vfit_tpm_sock_close(&s);
	return check_done();
}
