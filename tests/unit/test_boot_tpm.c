/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The boot flow's trust state in a TPM (lib/boot/boot_tpm.c) against a
 * real swtpm started here (sha256 bank alone, as swtpm_setup provisions
 * it; others with swtpm's four default banks, sha1 + sha256, sha384
 * alone, each opened with a hash for every bank): each reason the
 * stage halts for, from the TPM itself where it can produce it (index
 * missing, wrong attributes, wrong size, bad contents, hierarchy already
 * disabled, banks) and through a relay that breaks the real transport for
 * the rest (no TPM, timeout, a malformed answer, an extend or a hierarchy
 * control that fails); the trust state's life (fresh, staged, committed in
 * one NV_Write, kept over a power cycle, counters only upwards and never
 * more than the index holds); what the OS can do after vfit_trust_lock():
 * nothing to the trust index, only ask through the request index with
 * owner authorization, which the next power-on reads as hostile input.
 * Last, the OS's transport (host/disk/tpm_dev.c, host/core/tpm_sock.c) when swtpm is gone: an error
 * that names its socket and says the TPM was not reached, never SIGPIPE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <libfdt.h>

#include "vfit/boot_tpm.h"
#include "vfit-host/tpm_sock.h"
#include "check.h"
#include "swtpm.h"
#include "vfit-host/tpm_dev.h"

static char dir[64];
static struct swtpm sw = { -1 };

static const struct vfit_tpm_auth platform = { VFIT_TPM_RH_PLATFORM, NULL, 0 };
static const struct vfit_tpm_auth owner = { VFIT_TPM_RH_OWNER, NULL, 0 };

/*
 * A relay in front of the real transport that breaks it on purpose: from
 * command number `at` on (counted by the relay), or only for command code
 * `cc`, it answers `fail` instead, or (fail == VFIT_TPM_OK) hands back the
 * TPM's real answer with its tag damaged -- or, with rename set, with the
 * PCR bank of algorithm rename[0] in a GetCapability answer renamed
 * rename[1] (swtpm has no bank this library cannot hash).
 */
struct relay {
	struct vfit_tpm_transport real;
	unsigned int n, at;
	uint32_t cc;
	enum vfit_tpm_result fail;
	uint16_t rename[2];
};

/* The first TPMS_PCR_SELECTION of bank from (its algorithm, 3 select bytes) renamed to. */
static void rename_bank(uint8_t *rsp, size_t len, uint16_t from, uint16_t to)
{
	size_t i;

	for (i = 10; i + 3 <= len; i++)
		if (rsp[i] == from >> 8 && rsp[i + 1] == (from & 0xFF) && rsp[i + 2] == 3) {
			rsp[i] = (uint8_t)(to >> 8);
			rsp[i + 1] = (uint8_t)to;
			return;
		}
}

static enum vfit_tpm_result relay_xfer(void *ctx, const uint8_t *cmd, size_t cmd_len,
				       uint8_t *rsp, size_t rsp_cap, size_t *rsp_len)
{
	struct relay *r = ctx;
	uint32_t cc = cmd_len >= 10 ? (uint32_t)cmd[6] << 24 | (uint32_t)cmd[7] << 16 |
					      (uint32_t)cmd[8] << 8 | cmd[9] : 0;
	enum vfit_tpm_result res;
	bool hit = r->cc ? cc == r->cc : ++r->n >= r->at;

	if (hit && r->fail != VFIT_TPM_OK)
		return r->fail;
	res = r->real.xfer(r->real.ctx, cmd, cmd_len, rsp, rsp_cap, rsp_len);
	if (hit && !res && r->rename[0])
		rename_bank(rsp, *rsp_len, r->rename[0], r->rename[1]);
	else if (hit && !res && *rsp_len >= 2)
		rsp[1] ^= 0x55;
	return res;
}

static void relay_on(struct relay *r, struct vfit_tpm *tpm, unsigned int at, uint32_t cc,
		     enum vfit_tpm_result fail)
{
	struct vfit_tpm_transport tr = { relay_xfer, r };

	r->real = tpm->tr;
	r->n = 0;
	r->at = at;
	r->cc = cc;
	r->fail = fail;
	r->rename[0] = r->rename[1] = 0;
	vfit_tpm_init(tpm, &tr);
}

static void relay_off(struct relay *r, struct vfit_tpm *tpm)
{
	vfit_tpm_init(tpm, &r->real);
}

static struct vfit_trust trust;
static struct vfit_tpm_log tlog;
static uint8_t log_mem[4096];

static void why_is(enum vfit_boot_why got, enum vfit_boot_why want, const char *what,
		   const char *text)
{
	CHECK(got == want, "%s: %s (want %s)", what, vfit_boot_why_to_string(got),
	      vfit_boot_why_to_string(want));
	if (want != VFIT_WHY_NONE)
		CHECK(!strcmp(vfit_boot_why_to_string(want), text), "%s: reason text \"%s\"", what,
		      vfit_boot_why_to_string(want));
}

static enum vfit_boot_why open_(struct vfit_tpm *tpm)
{
	return vfit_trust_open(&trust, tpm, &tlog, log_mem, sizeof(log_mem));
}

static void define(struct vfit_tpm *tpm, uint32_t attrs, uint16_t size)
{
	struct vfit_tpm_nv_public p = { .index = VFIT_TRUST_INDEX, .name_alg = VFIT_TPM_ALG_SHA256,
					.attributes = attrs, .data_size = size };

	REQUIRE(!vfit_tpm_nv_define_space(tpm, &platform, NULL, 0, &p), "define: %s",
		vfit_tpm_rc_to_string(tpm->rc));
}

static void undefine(struct vfit_tpm *tpm)
{
	REQUIRE(!vfit_tpm_nv_undefine_space(tpm, &platform, VFIT_TRUST_INDEX), "undefine");
}

/* The request index as the factory defines it (auth: who defines it, attrs). */
static void define_req(struct vfit_tpm *tpm, const struct vfit_tpm_auth *auth, uint32_t attrs)
{
	struct vfit_tpm_nv_public p = { .index = VFIT_TRUST_REQ_INDEX,
					.name_alg = VFIT_TPM_ALG_SHA256, .attributes = attrs,
					.data_size = VFIT_TRUST_REQ_SIZE };

	REQUIRE(!vfit_tpm_nv_define_space(tpm, auth, NULL, 0, &p), "define the request index: %s",
		vfit_tpm_rc_to_string(tpm->rc));
}

/* The index's layout (vfit/boot_tpm.h). */
#define OFF_CTR (8 + VFIT_BOOT_STATE_SIZE)
#define CTR_ENTRY (VFIT_BOOT_COUNTER_NAME + 8)
#define OFF_PAD (OFF_CTR + VFIT_TRUST_COUNTERS * CTR_ENTRY)

/* The index as the stage's code writes it: counter "kernel" at 5, no state yet. */
static void good_content(uint8_t *nv)
{
	memset(nv, 0, VFIT_TRUST_SIZE);
	memcpy(nv, "VFTS", 4);
	nv[7] = 1;
	memcpy(nv + OFF_CTR, "kernel", 6);
	nv[OFF_CTR + CTR_ENTRY - 1] = 5;
}

/* Writes nv whole into the index (platform authorization) and opens it. */
static enum vfit_boot_why open_with(struct vfit_tpm *tpm, const uint8_t *nv)
{
	REQUIRE(!vfit_tpm_nv_write(tpm, &platform, VFIT_TRUST_INDEX, 0, nv, VFIT_TRUST_SIZE),
		"write");
	return open_(tpm);
}

/* Each field of a well-formed index changed alone: the index is refused. */
static void test_content(struct vfit_tpm *tpm)
{
	uint8_t nv[VFIT_TRUST_SIZE];
	uint64_t v = 0;
	unsigned int i;

	define(tpm, VFIT_TRUST_ATTRS, VFIT_TRUST_SIZE);
	good_content(nv);
	why_is(open_with(tpm, nv), VFIT_WHY_REQ_MISSING, "no request index",
	       "request NV index missing");
	/* An owner-defined look-alike of the request index (the OS could make one). */
	define_req(tpm, &owner, VFIT_TPMA_NV_OWNERWRITE | VFIT_TPMA_NV_OWNERREAD |
		   VFIT_TPMA_NV_AUTHREAD | VFIT_TPMA_NV_NO_DA | VFIT_TPMA_NV_WRITEALL);
	why_is(open_(tpm), VFIT_WHY_REQ_ATTRIBUTES, "owner-defined request index",
	       "request NV index has wrong attributes");
	REQUIRE(!vfit_tpm_nv_undefine_space(tpm, &owner, VFIT_TRUST_REQ_INDEX), "undefine");
	define_req(tpm, &platform, VFIT_TRUST_REQ_ATTRS);
	why_is(open_(tpm), VFIT_WHY_NONE, "the layout written by hand", "");
	CHECK(!vfit_trust_counter_read(&trust, "kernel", &v) && v == 5, "...is read: kernel %llu",
	      (unsigned long long)v);
	for (i = 0; i < 7; i++) {
		static const char *const what[] = {
			"magic", "version", "padding after the counters", "value of an unused entry",
			"counter name not [A-Za-z0-9._-]", "bytes after a name's NUL",
			"a counter name twice",
		};

		good_content(nv);
		switch (i) {
		case 0: nv[3] = 'X'; break;
		case 1: nv[7] = 2; break;
		case 2: nv[OFF_PAD] = 1; break;
		case 3: nv[OFF_CTR + 7 * CTR_ENTRY + CTR_ENTRY - 1] = 1; break;
		case 4: memcpy(nv + OFF_CTR, "ker/el", 6); break;
		case 5: nv[OFF_CTR + 10] = 'x'; break;
		case 6: memcpy(nv + OFF_CTR + CTR_ENTRY, "kernel", 6); break;
		}
		why_is(open_with(tpm, nv), VFIT_WHY_NV_CONTENT, what[i],
		       "trust-state NV index content invalid");
	}
	undefine(tpm);
	REQUIRE(!vfit_tpm_nv_undefine_space(tpm, &platform, VFIT_TRUST_REQ_INDEX), "undefine");
}
/* A power cycle through swtpm's control channel (what a reset does). */
static void reset(struct vfit_tpm_sock *s)
{
	REQUIRE(!vfit_tpm_sock_power_cycle(s), "power cycle");
}

static void test_index(struct vfit_tpm *tpm, struct vfit_tpm_sock *s)
{
	uint8_t junk[VFIT_TRUST_SIZE];

	why_is(open_(tpm), VFIT_WHY_NV_MISSING, "unprovisioned", "trust-state NV index missing");
	CHECK(trust.what && !strcmp(trust.what, "NV_ReadPublic"), "the failing step is named");
	/* Look-alikes: an extra attribute (OWNERWRITE), a missing one, another size. */
	define(tpm, VFIT_TRUST_ATTRS | VFIT_TPMA_NV_OWNERWRITE, VFIT_TRUST_SIZE);
	why_is(open_(tpm), VFIT_WHY_NV_ATTRIBUTES, "OWNERWRITE too",
	       "trust-state NV index has wrong attributes");
	undefine(tpm);
	define(tpm, VFIT_TRUST_ATTRS & ~VFIT_TPMA_NV_WRITEALL, VFIT_TRUST_SIZE);
	why_is(open_(tpm), VFIT_WHY_NV_ATTRIBUTES, "WRITEALL missing",
	       "trust-state NV index has wrong attributes");
	undefine(tpm);
	define(tpm, VFIT_TRUST_ATTRS, VFIT_TRUST_SIZE - 8);
	why_is(open_(tpm), VFIT_WHY_NV_ATTRIBUTES, "wrong size",
	       "trust-state NV index has wrong attributes");
	undefine(tpm);
	/* ...a name algorithm other than sha256, an authorization policy. */
	{
		struct vfit_tpm_nv_public p = { .index = VFIT_TRUST_INDEX,
						.name_alg = VFIT_TPM_ALG_SHA1,
						.attributes = VFIT_TRUST_ATTRS,
						.data_size = VFIT_TRUST_SIZE };

		REQUIRE(!vfit_tpm_nv_define_space(tpm, &platform, NULL, 0, &p), "define sha1");
		why_is(open_(tpm), VFIT_WHY_NV_ATTRIBUTES, "sha1 name",
		       "trust-state NV index has wrong attributes");
		undefine(tpm);
		p.name_alg = VFIT_TPM_ALG_SHA256;
		p.auth_policy_size = 32;
		memset(p.auth_policy, 0x11, 32);
		REQUIRE(!vfit_tpm_nv_define_space(tpm, &platform, NULL, 0, &p), "define policy");
		why_is(open_(tpm), VFIT_WHY_NV_ATTRIBUTES, "a policy",
		       "trust-state NV index has wrong attributes");
		undefine(tpm);
	}
	/* Right index, contents no stage wrote. */
	define(tpm, VFIT_TRUST_ATTRS, VFIT_TRUST_SIZE);
	memset(junk, 0x5a, sizeof(junk));
	REQUIRE(!vfit_tpm_nv_write(tpm, &platform, VFIT_TRUST_INDEX, 0, junk, sizeof(junk)), "write");
	why_is(open_(tpm), VFIT_WHY_NV_CONTENT, "garbage contents",
	       "trust-state NV index content invalid");
	undefine(tpm);
	test_content(tpm);
	/* The factory's step, then a fresh index. */
	why_is(vfit_trust_define(&trust, tpm), VFIT_WHY_NONE, "vfit_trust_define", "");
	reset(s);
}

static void test_life(struct vfit_tpm *tpm, struct vfit_tpm_sock *s)
{
	uint8_t st[VFIT_BOOT_STATE_SIZE], back[VFIT_BOOT_STATE_SIZE];
	char name[8];
	uint64_t v = 99;
	size_t len;
	unsigned int i;

	why_is(open_(tpm), VFIT_WHY_NONE, "fresh index opens", "");
	CHECK(!trust.written, "fresh: not written yet");
	CHECK(vfit_trust_state_read(&trust, st, sizeof(st), &len) == VFIT_IO_ABSENT,
	      "fresh: no state");
	CHECK(!vfit_trust_counter_read(&trust, "kernel", &v) && v == 0, "fresh: counters 0");
	memset(st, 0xa7, sizeof(st));
	CHECK(vfit_trust_state_write(&trust, st, sizeof(st) - 1) == VFIT_IO_TOO_BIG,
	      "a state blob of another size refused");
	CHECK(!vfit_trust_state_write(&trust, st, sizeof(st)), "state staged");
	CHECK(!vfit_trust_counter_advance(&trust, "kernel", 5), "counter to 5, staged");
	CHECK(!vfit_trust_counter_read(&trust, "kernel", &v) && v == 5, "the flow reads it staged");
	CHECK(!vfit_trust_commit(&trust, false) && !vfit_trust_counter_read(&trust, "kernel", &v) &&
	      v == 0 && vfit_trust_state_read(&trust, back, sizeof(back), &len) == VFIT_IO_ABSENT,
	      "dropped: state and counter as before");
	CHECK(!vfit_trust_state_write(&trust, st, sizeof(st)) &&
	      !vfit_trust_counter_advance(&trust, "kernel", 5), "staged again");
	{
		uint32_t before = tpm->commands;

		CHECK(!vfit_trust_commit(&trust, true) && tpm->commands == before + 1,
		      "state and counter committed in one NV_Write (%u commands)",
		      tpm->commands - before);
		CHECK(!vfit_trust_commit(&trust, true) && tpm->commands == before + 1,
		      "nothing staged: no command");
	}
	CHECK(vfit_trust_counter_advance(&trust, "kernel", 4) == VFIT_IO_ERROR,
	      "never downwards (firmware-enforced)");
	/* Names the flow never passes, with free entries left: refused here too. */
	CHECK(vfit_trust_counter_advance(&trust, "c1/x", 9) == VFIT_IO_ERROR &&
	      vfit_trust_counter_advance(&trust, "c1234567890123456789012345678901", 9) ==
	      VFIT_IO_ERROR, "invalid counter names refused");
	for (i = 1; i < VFIT_TRUST_COUNTERS; i++) {
		snprintf(name, sizeof(name), "c%u", i);
		CHECK(!vfit_trust_counter_advance(&trust, name, i), "counter %s", name);
	}
	CHECK(!vfit_trust_commit(&trust, true), "committed");
	CHECK(vfit_trust_counter_advance(&trust, "one-too-many", 1) == VFIT_IO_TOO_BIG &&
	      !trust.staged && !memcmp(trust.nv, trust.held, sizeof(trust.nv)),
	      "%u counters at most: the next name refused, nothing staged", VFIT_TRUST_COUNTERS);
	CHECK(!vfit_trust_counter_advance(&trust, "c7", 8) && !vfit_trust_commit(&trust, true),
	      "a known counter still moves");

	reset(s);
	why_is(open_(tpm), VFIT_WHY_NONE, "written index opens after a reset", "");
	CHECK(trust.written, "written");
	CHECK(!vfit_trust_state_read(&trust, back, sizeof(back), &len) && len == sizeof(back) &&
	      !memcmp(back, st, sizeof(st)), "state kept");
	CHECK(!vfit_trust_counter_read(&trust, "kernel", &v) && v == 5, "counter kept: %llu",
	      (unsigned long long)v);
	CHECK(!vfit_trust_counter_read(&trust, "c7", &v) && v == 8, "last counter kept");
}

/* After the stage's last step: the OS holds the TPM. */
static void test_lock(struct vfit_tpm *tpm, struct vfit_tpm_sock *s)
{
	uint8_t zero[VFIT_TRUST_SIZE] = { 0 }, st[VFIT_BOOT_STATE_SIZE] = { 1 };
	uint64_t v;

	why_is(vfit_trust_lock(&trust), VFIT_WHY_NONE, "hierarchy control", "");
	CHECK(vfit_tpm_nv_write(tpm, &platform, VFIT_TRUST_INDEX, 0, zero, sizeof(zero)) ==
	      VFIT_TPM_ERR_RC && vfit_tpm_rc_base(tpm->rc) == VFIT_TPM_RC_HIERARCHY,
	      "OS: platform write refused (%s)", vfit_tpm_rc_to_string(tpm->rc));
	CHECK(vfit_tpm_nv_write(tpm, &owner, VFIT_TRUST_INDEX, 0, zero, sizeof(zero)) ==
	      VFIT_TPM_ERR_RC, "OS: owner write refused (%s)", vfit_tpm_rc_to_string(tpm->rc));
	CHECK(vfit_tpm_nv_undefine_space(tpm, &owner, VFIT_TRUST_INDEX) == VFIT_TPM_ERR_RC,
	      "OS: owner cannot undefine it (%s)", vfit_tpm_rc_to_string(tpm->rc));
	CHECK(vfit_tpm_nv_undefine_space(tpm, &platform, VFIT_TRUST_INDEX) == VFIT_TPM_ERR_RC,
	      "OS: nor with platform authorization (%s)", vfit_tpm_rc_to_string(tpm->rc));
	CHECK(!vfit_trust_state_write(&trust, st, sizeof(st)) &&
	      vfit_trust_commit(&trust, true) == VFIT_IO_ERROR && !strcmp(trust.what, "NV_Write") &&
	      !trust.staged, "the stage's own write after the lock fails, and is dropped");
	/* A stage that finds the hierarchy already disabled (no reset since) stops. */
	why_is(open_(tpm), VFIT_WHY_TPM_LOCK, "already disabled", "platform hierarchy not disabled");
	reset(s);
	why_is(open_(tpm), VFIT_WHY_NONE, "reset: the firmware holds it again", "");
	CHECK(!vfit_trust_counter_read(&trust, "kernel", &v) && v == 5, "untouched: counter 5");
}

/*
 * After the hand-over the OS asks through the request index with owner
 * authorization (never with the platform's); the next power-on reads the
 * request, merged at one state, or a malformed one, and clears it.
 */
static void test_requests(struct vfit_tpm *tpm, struct vfit_tpm_sock *s)
{
	static struct vfit_trust os;
	static const struct vfit_boot_ops no_flow = { .plat = &trust };
	static struct vfit_boot_scratch sc;
	static struct vfit_boot_report rp;
	struct vfit_boot_request rq = { 41, 1, VFIT_BOOT_NONE };
	uint8_t junk[VFIT_TRUST_REQ_SIZE];
	uint64_t v = 0;

	vfit_boot_report_init(&rp, NULL, 0);
	why_is(open_(tpm), VFIT_WHY_NONE, "power-on", "");
	CHECK(trust.req_state == VFIT_TRUST_REQ_NONE, "no request yet");
	why_is(vfit_trust_lock(&trust), VFIT_WHY_NONE, "hand-over", "");
	why_is(vfit_trust_attach(&os, tpm), VFIT_WHY_NONE, "the OS reads the trust state", "");
	CHECK(!vfit_trust_counter_read(&os, "kernel", &v) && v == 5, "the OS sees counter 5");
	memset(junk, 0x11, sizeof(junk));
	CHECK(vfit_tpm_nv_write(tpm, &platform, VFIT_TRUST_REQ_INDEX, 0, junk, sizeof(junk)) ==
	      VFIT_TPM_ERR_RC && vfit_tpm_rc_base(tpm->rc) == VFIT_TPM_RC_HIERARCHY,
	      "no platform authorization for the OS: %s", vfit_tpm_rc_to_string(tpm->rc));
	why_is(vfit_trust_ask(&os, &rq, NULL, 0), VFIT_WHY_NONE, "the OS confirms (owner)", "");
	rq.confirm = VFIT_BOOT_NONE;
	rq.install = 0;
	why_is(vfit_trust_ask(&os, &rq, NULL, 0), VFIT_WHY_NONE, "and installs at that state", "");
	reset(s);
	why_is(open_(tpm), VFIT_WHY_NONE, "next power-on", "");
	CHECK(trust.req_state == VFIT_TRUST_REQ_VALID && trust.req.seq == 41 &&
	      trust.req.confirm == 1 && trust.req.install == 0, "one request: confirm B, try A");
	why_is(vfit_trust_serve(&trust, &no_flow, NULL, &sc, &rp), VFIT_WHY_NONE, "served", "");
	reset(s);
	why_is(open_(tpm), VFIT_WHY_NONE, "power-on", "");
	CHECK(trust.req_state == VFIT_TRUST_REQ_NONE, "the request was cleared");
	/* Whatever the OS writes there is hostile input: read, refused, cleared. */
	why_is(vfit_trust_lock(&trust), VFIT_WHY_NONE, "hand-over", "");
	CHECK(!vfit_tpm_nv_write(tpm, &owner, VFIT_TRUST_REQ_INDEX, 0, junk, sizeof(junk)),
	      "the OS writes garbage");
	reset(s);
	why_is(open_(tpm), VFIT_WHY_NONE, "power-on with garbage requested", "");
	CHECK(trust.req_state == VFIT_TRUST_REQ_MALFORMED, "malformed");
	memcpy(junk, "VFRQ\0\0\0\1\0\0\0\0\3\xff", 14);
	memset(junk + 14, 0, sizeof(junk) - 14);
	CHECK(!vfit_tpm_nv_write(tpm, &platform, VFIT_TRUST_REQ_INDEX, 0, junk, sizeof(junk)) &&
	      !open_(tpm) && trust.req_state == VFIT_TRUST_REQ_MALFORMED, "chain 3 refused");
	junk[12] = 2;
	junk[31] = 1;
	CHECK(!vfit_tpm_nv_write(tpm, &platform, VFIT_TRUST_REQ_INDEX, 0, junk, sizeof(junk)) &&
	      !open_(tpm) && trust.req_state == VFIT_TRUST_REQ_MALFORMED, "padding refused");
	junk[31] = 0;
	CHECK(!vfit_tpm_nv_write(tpm, &platform, VFIT_TRUST_REQ_INDEX, 0, junk, sizeof(junk)) &&
	      !open_(tpm) && trust.req_state == VFIT_TRUST_REQ_VALID &&
	      trust.req.confirm == VFIT_CHAIN_RECOVERY, "recovery confirmed: valid");
	why_is(vfit_trust_serve(&trust, &no_flow, NULL, &sc, &rp), VFIT_WHY_NONE, "cleared", "");
	reset(s);
}

/* The ROM, not the platform, says whether the trust state must be in a TPM. */
static void test_required(void)
{
	uint8_t dtb[256];
	bool req = true;
	int node;

	REQUIRE(!fdt_create_empty_tree(dtb, sizeof(dtb)), "dtb");
	why_is(vfit_trust_required(dtb, &req), VFIT_WHY_NONE, "no /config", "");
	CHECK(!req, "not required");
	node = fdt_add_subnode(dtb, 0, "config");
	REQUIRE(node >= 0 && !fdt_setprop_string(dtb, node, "vfit,tpm", "required"), "property");
	why_is(vfit_trust_required(dtb, &req), VFIT_WHY_NONE, "required", "");
	CHECK(req, "required");
	REQUIRE(!fdt_setprop_string(dtb, node, "vfit,tpm", "optional"), "property");
	why_is(vfit_trust_required(dtb, &req), VFIT_WHY_ROM_TPM, "optional",
	       "the ROM's TPM requirement is malformed");
	REQUIRE(!fdt_setprop(dtb, node, "vfit,tpm", "required", 8), "property");
	why_is(vfit_trust_required(dtb, &req), VFIT_WHY_ROM_TPM, "no NUL",
	       "the ROM's TPM requirement is malformed");
}

static void test_faults(struct vfit_tpm *tpm, struct vfit_tpm_sock *s)
{
	static const struct vfit_digest_set d = { VFIT_HASH_BIT(VFIT_HASH_SHA256), { 0 }, { 1 },
						  { 0 }, { 0 } };
	struct vfit_digest_set no256 = d;
	struct relay r;
	size_t before;

	relay_on(&r, tpm, 1, 0, VFIT_TPM_ERR_NO_TPM);
	why_is(open_(tpm), VFIT_WHY_TPM_ABSENT, "no TPM", "TPM declared but absent");
	relay_off(&r, tpm);
	relay_on(&r, tpm, 1, 0, VFIT_TPM_ERR_TIMEOUT);
	why_is(open_(tpm), VFIT_WHY_TPM_TIMEOUT, "timeout", "TPM not answering");
	relay_off(&r, tpm);
	relay_on(&r, tpm, 3, 0, VFIT_TPM_ERR_TIMEOUT);
	why_is(open_(tpm), VFIT_WHY_TPM_TIMEOUT, "timeout later", "TPM not answering");
	relay_off(&r, tpm);
	relay_on(&r, tpm, 2, 0, VFIT_TPM_OK);
	why_is(open_(tpm), VFIT_WHY_TPM_GARBAGE, "garbage", "TPM answer malformed");
	relay_off(&r, tpm);
	reset(s);
	why_is(open_(tpm), VFIT_WHY_NONE, "open", "");
	CHECK(!vfit_trust_measure(&trust, 8, 0xd, &d, "x", 1), "a measurement");
	before = tlog.len;
	relay_on(&r, tpm, 0, 0x00000182u /* PCR_Extend */, VFIT_TPM_ERR_TRANSPORT);
	CHECK(vfit_trust_measure(&trust, 8, 0xd, &d, "x", 1) == VFIT_IO_ERROR &&
	      !strcmp(trust.what, "PCR_Extend"), "a failed extend fails the measurement");
	CHECK(tlog.len == before, "and it is not in the log");
	relay_off(&r, tpm);
	/* Digests without the active bank's hash: nothing extended, nothing logged. */
	no256.hashes = VFIT_HASH_BIT(VFIT_HASH_SHA1);
	relay_on(&r, tpm, 0, 0x00000182u /* PCR_Extend */, VFIT_TPM_ERR_TRANSPORT);
	CHECK(vfit_trust_measure(&trust, 8, 0xd, &no256, "x", 1) == VFIT_IO_ERROR &&
	      trust.tr == VFIT_TPM_ERR_UNSUPPORTED && tlog.len == before,
	      "a measurement lacking the sha256 bank's digest (%s)",
	      vfit_tpm_result_to_string(trust.tr));
	relay_off(&r, tpm);
	relay_on(&r, tpm, 0, 0x00000121u /* HierarchyControl */, VFIT_TPM_OK);
	why_is(vfit_trust_lock(&trust), VFIT_WHY_TPM_LOCK, "hierarchy control garbled",
	       "platform hierarchy not disabled");
	relay_off(&r, tpm);
	reset(s);
}

/*
 * A data socket whose swtpm went away after the OS connected (the listener
 * closed under a connection it never accepted): the command is a transport
 * failure, reported as an I/O error naming the command -- on the old
 * write() the process died of SIGPIPE here.  No socket at all: the error
 * names DIR/data.
 */
static void test_os_gone(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char tmp[sizeof(a.sun_path) - sizeof("/data")];
	struct vfit_err e = { 0 };
	struct vfit_tpm_transport tr;
	struct vfit_tpm_sock d;
	struct vfit_trust t;
	struct vfit_tpm tpm;
	int l;

	/* $TMPDIR as the other tests; the socket's path must fit sun_path. */
	REQUIRE((size_t)snprintf(tmp, sizeof(tmp), "%s/vfit-tpmdev.XXXXXX",
				 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp") < sizeof(tmp) &&
		mkdtemp(tmp), "mkdtemp under $TMPDIR");
	CHECK(vfit_tpm_dev_open(&d, tmp, &e) && e.status == VFIT_EXIT_USAGE &&
	      strstr(e.msg, "/data: cannot connect to swtpm"), "no data socket: %s", e.msg);
	snprintf(a.sun_path, sizeof(a.sun_path), "%s/data", tmp);
	l = socket(AF_UNIX, SOCK_STREAM, 0);
	REQUIRE(l >= 0 && !bind(l, (struct sockaddr *)&a, sizeof(a)) && !listen(l, 1),
		"listening on %s", a.sun_path);
	memset(&e, 0, sizeof(e));
	REQUIRE(!vfit_tpm_dev_open(&d, tmp, &e), "connected: %s", e.msg);
	close(l);
	vfit_tpm_sock_transport(&d, &tr);
	vfit_tpm_init(&tpm, &tr);
	why_is(vfit_trust_attach(&t, &tpm), VFIT_WHY_TPM_ERROR, "swtpm gone", "TPM command refused");
	CHECK(t.tr == VFIT_TPM_ERR_TRANSPORT, "a transport failure (%s)",
	      vfit_tpm_result_to_string(t.tr));
	memset(&e, 0, sizeof(e));
	vfit_trust_err(&e, tmp, &t, VFIT_WHY_TPM_ERROR);
	CHECK(e.status == VFIT_EXIT_USAGE && strstr(e.msg, "(Startup: ") &&
	      strstr(e.msg, tmp) == e.msg, "an I/O error naming the TPM and the command: %s", e.msg);
	vfit_tpm_sock_close(&d);
	unlink(a.sun_path);
	rmdir(tmp);
}

int main(void)
{
	static struct vfit_tpm t;
	struct vfit_tpm_sock s, s4;
	struct vfit_tpm_transport tr;

	alarm(120);     /* watchdog: swtpm dies with us through PDEATHSIG */
	if (!swtpm_start(&sw, dir, sizeof(dir), "vfit-trust", "four-banks", NULL, &s4))
		return check_done();
	vfit_tpm_sock_transport(&s4, &tr);
	vfit_tpm_init(&t, &tr);
	/* Every bank it has is one the stage extends (this TPM was never provisioned). */
	why_is(open_(&t), VFIT_WHY_NV_MISSING, "swtpm's default banks", "trust-state NV index missing");
	CHECK(trust.banks.count == 4 && trust.hashes == VFIT_HASH_SET_ALL,
	      "four banks (%u), four hashes (0x%x)", (unsigned)trust.banks.count,
	      (unsigned)trust.hashes);
	{
		struct relay r;

		relay_on(&r, &t, 0, 0x0000017Au /* GetCapability */, VFIT_TPM_OK);
		r.rename[0] = VFIT_TPM_ALG_SHA1;
		r.rename[1] = VFIT_TPM_ALG_SM3_256;
		why_is(open_(&t), VFIT_WHY_TPM_BANKS, "an sm3_256 bank",
		       "PCR bank that cannot be hashed");
		CHECK(trust.what && !strcmp(trust.what, "sm3_256"), "the bank named: %s",
		      trust.what ? trust.what : "(none)");
		relay_off(&r, &t);
	}
	vfit_tpm_sock_close(&s4);
	swtpm_end(&sw);
	/* sha256 with another bank; one bank that is not sha256. */
	{
		static const char *const banks[] = { "sha1,sha256", "sha384" };
		static const char *const names[] = { "two-banks", "sha384" };
		static const uint32_t hashes[] = {
			VFIT_HASH_BIT(VFIT_HASH_SHA1) | VFIT_HASH_BIT(VFIT_HASH_SHA256),
			VFIT_HASH_BIT(VFIT_HASH_SHA384),
		};
		unsigned int i;

		for (i = 0; i < 2; i++) {
			REQUIRE(!swtpm_spawn(&sw, dir, names[i], banks[i], &s4),
				"swtpm_setup --pcr-banks %s and swtpm", banks[i]);
			vfit_tpm_sock_transport(&s4, &tr);
			vfit_tpm_init(&t, &tr);
			why_is(open_(&t), VFIT_WHY_NV_MISSING, banks[i], "trust-state NV index missing");
			CHECK(trust.hashes == hashes[i], "%s: hashes 0x%x", banks[i],
			      (unsigned)trust.hashes);
			vfit_tpm_sock_close(&s4);
			swtpm_end(&sw);
		}
	}

	REQUIRE(!swtpm_spawn(&sw, dir, "sha256", "sha256", &s), "swtpm_setup --pcr-banks sha256 and swtpm");
	vfit_tpm_sock_transport(&s, &tr);
	vfit_tpm_init(&t, &tr);
	test_index(&t, &s);
	test_life(&t, &s);
	test_lock(&t, &s);
	test_requests(&t, &s);
	test_faults(&t, &s);
	test_required();
	test_os_gone();
	vfit_tpm_sock_close(&s);
	return check_done();
}
