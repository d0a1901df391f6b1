/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SHA-1/224/256/384/512: every NIST CAVP vector (ShortMsg, LongMsg and the
 * Monte Carlo chains) on every path (plain C, CPU instructions, the generic
 * vfit_hash_* interface), FIPS 180-4 examples for SHA-224, streaming with
 * awkward split sizes, every path against the others on random data, and
 * against OpenSSL.  Also the name/size/lookup table of vfit/hash.h.
 * Cross builds without OpenSSL (tests/build/aarch64.sh) define
 * VFIT_TEST_NO_OPENSSL and drop only the OpenSSL comparison.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef VFIT_TEST_NO_OPENSSL
#include <openssl/evp.h>
#endif

#include "check.h"
#include "vfit/hash.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

/* How a digest is computed: the per-algorithm API with a forced path, or the generic one. */
enum path { P_PORTABLE, P_ACCEL, P_GENERIC, NPATHS };

static const char *const path_name[NPATHS] = { "portable", "accel", "generic" };

static int quick;
/* The accelerated path is tested (the CPU has it, and VFIT_TEST_HIDE_CPU does not hide it). */
static int accel;

/*
 * Whether vfit should find SHA instructions, asked independently of the
 * library: x86 CPUID.(7,0):EBX bit 29 (SHA) with CPUID.1:ECX bits 9 and 19
 * (SSSE3, SSE4.1); on ARM, a build for the crypto extensions promises them.
 */
static int cpu_has_sha(void)
{
#if defined(__x86_64__)
	unsigned int a, b, c, d;

	if (__get_cpuid_max(0, NULL) < 7)
		return 0;
	__cpuid_count(7, 0, a, b, c, d);
	if (!(b >> 29 & 1))
		return 0;
	__cpuid(1, a, b, c, d);
	return (c >> 9 & 1) && (c >> 19 & 1);
#elif defined(__ARM_FEATURE_SHA2) || defined(__ARM_FEATURE_CRYPTO)
	return 1;
#else
	return 0;
#endif
}

static int is_sha2_512(enum vfit_hash a)
{
	return a == VFIT_HASH_SHA384 || a == VFIT_HASH_SHA512;
}

/* Whether path exists for algo on this CPU (SHA-384/512 have no accelerated path). */
static int path_ok(enum vfit_hash a, enum path p)
{
	if (p != P_ACCEL)
		return 1;
	return !is_sha2_512(a) && accel;
}

/*
 * One message, fed in pieces of `step` bytes (0: all at once), through the
 * per-algorithm functions with the path forced, or through vfit_hash_*.
 */
static int digest(enum vfit_hash a, enum path p, const uint8_t *m, size_t len, size_t step,
		  uint8_t *out)
{
	enum vfit_impl impl = p == P_ACCEL ? VFIT_IMPL_ACCEL : VFIT_IMPL_PORTABLE;
	struct vfit_sha1_ctx s1;
	struct vfit_sha256_ctx s2;
	struct vfit_sha512_ctx s5;
	struct vfit_hash_ctx g;
	size_t off = 0, k;

	if (p == P_GENERIC && !step)
		return vfit_hash(a, m, len, out);
	if (p == P_GENERIC && vfit_hash_init(&g, a))
		return -1;
	if (p != P_GENERIC) {
		switch (a) {
		case VFIT_HASH_SHA1:
			if (vfit_sha1_init_impl(&s1, impl))
				return -1;
			break;
		case VFIT_HASH_SHA224:
			if (vfit_sha224_init_impl(&s2, impl))
				return -1;
			break;
		case VFIT_HASH_SHA256:
			if (vfit_sha256_init_impl(&s2, impl))
				return -1;
			break;
		case VFIT_HASH_SHA384:
			vfit_sha384_init(&s5);
			break;
		case VFIT_HASH_SHA512:
			vfit_sha512_init(&s5);
			break;
		default:
			return -1;
		}
	}
	do {
		k = step && step < len - off ? step : len - off;
		if (p == P_GENERIC)
			vfit_hash_update(&g, m + off, k);
		else if (a == VFIT_HASH_SHA1)
			vfit_sha1_update(&s1, m + off, k);
		else if (is_sha2_512(a))
			vfit_sha512_update(&s5, m + off, k);
		else
			vfit_sha256_update(&s2, m + off, k);
		off += k;
	} while (off < len);
	if (p == P_GENERIC)
		vfit_hash_final(&g, out);
	else if (a == VFIT_HASH_SHA1)
		vfit_sha1_final(&s1, out);
	else if (is_sha2_512(a))
		vfit_sha512_final(&s5, out);
	else
		vfit_sha256_final(&s2, out);
	return 0;
}

static void hex(char *s, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(s + 2 * i, "%02x", b[i]);
}

/* Value after "Key = " on a .rsp line (CRLF stripped by the caller), or NULL. */
static const char *field(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) || strncmp(line + n, " = ", 3))
		return NULL;
	return line + n + 3;
}

/* Lines of a .rsp file, CR and LF removed, in place. */
static char *next_line(char **cur)
{
	char *s = *cur, *e;

	if (!*s)
		return NULL;
	e = strchr(s, '\n');
	*cur = e ? e + 1 : s + strlen(s);
	if (e)
		*e = 0;
	e = s + strlen(s);
	while (e > s && (e[-1] == '\r' || e[-1] == ' '))
		*--e = 0;
	return s;
}

static const char *rsp_name(enum vfit_hash a)
{
	switch (a) {
	case VFIT_HASH_SHA1: return "SHA1";
	case VFIT_HASH_SHA256: return "SHA256";
	case VFIT_HASH_SHA384: return "SHA384";
	default: return "SHA512";
	}
}

static char *load_rsp(enum vfit_hash a, const char *kind)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/nist-sha/%s%s.rsp", check_vectors_dir(), rsp_name(a), kind);
	return check_read_file(path, NULL);
}

/* ShortMsg and LongMsg: Len (bits), Msg (hex; "00" for Len = 0), MD. */
static void msg_vectors(enum vfit_hash a, const char *kind, enum path p)
{
	char *text = load_rsp(a, kind), *cur = text, *line;
	static uint8_t msg[1 << 16];
	uint8_t md[64], want[64];
	long bits = -1, mlen = -1, dlen;
	const char *v;
	unsigned int n = 0;

	while ((line = next_line(&cur))) {
		if ((v = field(line, "Len"))) {
			bits = atol(v);
		} else if ((v = field(line, "Msg"))) {
			mlen = check_unhex(v, strlen(v), msg, sizeof(msg));
		} else if ((v = field(line, "MD"))) {
			dlen = check_unhex(v, strlen(v), want, sizeof(want));
			if (!CHECK(bits >= 0 && bits % 8 == 0 && mlen >= bits / 8 &&
				   dlen == (long)vfit_hash_size(a),
				   "%s%s: malformed vector near Len = %ld", rsp_name(a), kind, bits))
				break;
			memset(md, 0, sizeof(md));
			CHECK(!digest(a, p, msg, (size_t)bits / 8, 0, md) &&
			      !memcmp(md, want, (size_t)dlen),
			      "%s%s %s Len = %ld", rsp_name(a), kind, path_name[p], bits);
			n++;
			bits = mlen = -1;
		}
	}
	CHECK(n >= 60, "%s%s: only %u vectors found", rsp_name(a), kind, n);
	free(text);
}

/*
 * SHAVS Monte Carlo: from Seed, MD[i] = H(MD[i-3] || MD[i-2] || MD[i-1])
 * with MD[0..2] = Seed, 1000 times per checkpoint; the last becomes the
 * next seed.  VFIT_TEST_QUICK checks the first 10 of the 100 checkpoints.
 */
static void monte(enum vfit_hash a, enum path p)
{
	char *text = load_rsp(a, "Monte"), *cur = text, *line;
	uint8_t md[3 * 64], want[64], next[64];
	size_t ds = vfit_hash_size(a);
	const char *v;
	int seeded = 0, i;
	unsigned int n = 0, limit = quick ? 10 : 100;

	while ((line = next_line(&cur)) && n < limit) {
		if ((v = field(line, "Seed"))) {
			seeded = check_unhex(v, strlen(v), next, sizeof(next)) == (long)ds;
		} else if ((v = field(line, "MD"))) {
			if (!CHECK(seeded && check_unhex(v, strlen(v), want, sizeof(want)) == (long)ds,
				   "%sMonte: malformed file", rsp_name(a)))
				break;
			memcpy(md, next, ds);
			memcpy(md + ds, next, ds);
			memcpy(md + 2 * ds, next, ds);
			for (i = 0; i < 1000; i++) {
				if (digest(a, p, md, 3 * ds, 0, next))
					break;
				memmove(md, md + ds, 2 * ds);
				memcpy(md + 2 * ds, next, ds);
			}
			CHECK(i == 1000 && !memcmp(next, want, ds), "%sMonte %s checkpoint %u",
			      rsp_name(a), path_name[p], n);
			n++;
		}
	}
	CHECK(n == limit, "%sMonte: %u checkpoints found", rsp_name(a), n);
	free(text);
}

static void fill_random(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(rand() >> 7);
}

/* Random lengths 0..70000 and splits: every path gives the portable digest. */
static void paths_agree(enum vfit_hash a, const uint8_t *data)
{
	uint8_t ref[64], md[64];
	unsigned int i, bad = 0, n = 0, rounds = quick ? 8 : 40;
	size_t len, step;
	enum path p;

	for (i = 0; i < rounds; i++) {
		len = (size_t)rand() % 70001;
		step = i % 2 ? (size_t)rand() % 300 + 1 : 0;
		if (digest(a, P_PORTABLE, data, len, 0, ref)) {
			bad++;
			continue;
		}
		for (p = P_ACCEL; p < NPATHS; p++) {
			if (!path_ok(a, p))
				continue;
			n++;
			if (digest(a, p, data, len, step, md) || memcmp(md, ref, vfit_hash_size(a)))
				bad++;
		}
	}
	CHECK(!bad, "%s: %u of %u random messages differ between paths", vfit_hash_name(a), bad, n);
}

#ifndef VFIT_TEST_NO_OPENSSL
static const EVP_MD *evp_md(enum vfit_hash a)
{
	switch (a) {
	case VFIT_HASH_SHA1: return EVP_sha1();
	case VFIT_HASH_SHA224: return EVP_sha224();
	case VFIT_HASH_SHA256: return EVP_sha256();
	case VFIT_HASH_SHA384: return EVP_sha384();
	default: return EVP_sha512();
	}
}

/* Random lengths 0..70000, random split sizes, against OpenSSL. */
static void cross_check(enum vfit_hash a, enum path p, const uint8_t *data)
{
	uint8_t md[64], ref[64];
	unsigned int rlen, i, rounds = quick ? 8 : 40, bad = 0;
	size_t len, step;

	for (i = 0; i < rounds; i++) {
		len = i < 4 ? i * 1023 : (size_t)rand() % 70001;
		step = i % 3 ? (size_t)rand() % 5000 + 1 : 0;
		if (digest(a, p, data, len, step, md) ||
		    !EVP_Digest(data, len, ref, &rlen, evp_md(a), NULL) ||
		    memcmp(md, ref, rlen))
			bad++;
	}
	CHECK(!bad, "%s %s: %u of %u random messages differ from OpenSSL",
	      vfit_hash_name(a), path_name[p], bad, rounds);
}
#endif

/* Every split size gives the one-shot digest, on every length that matters around blocks. */
static void streaming(enum vfit_hash a, enum path p, const uint8_t *data)
{
	static const size_t steps[] = { 1, 3, 63, 64, 65, 127, 128, 129, 1000 };
	static const size_t lens[] = { 0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129,
				       1023, 1024, 1025, 3000, 4097 };
	uint8_t one[64], part[64];
	size_t i, j, rnd;
	unsigned int bad = 0, n = 0;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		if (digest(a, p, data, lens[i], 0, one)) {
			bad++;
			continue;
		}
		for (j = 0; j <= sizeof(steps) / sizeof(steps[0]); j++) {
			rnd = j < sizeof(steps) / sizeof(steps[0]) ? steps[j] : (size_t)rand() % 200 + 1;
			n++;
			if (digest(a, p, data, lens[i], rnd, part) || memcmp(one, part, vfit_hash_size(a)))
				bad++;
		}
	}
	CHECK(!bad, "%s %s: %u of %u split hashes differ from one-shot",
	      vfit_hash_name(a), path_name[p], bad, n);
}

/* FIPS 180-4 example digests for SHA-224 (and the empty message). */
static void sha224_known(enum path p)
{
	static const struct {
		const char *msg;
		const char *md;
	} kat[] = {
		{ "abc", "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7" },
		{ "", "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525" },
	};
	uint8_t md[28];
	char got[57];
	size_t i;

	for (i = 0; i < sizeof(kat) / sizeof(kat[0]); i++) {
		memset(got, 0, sizeof(got));
		if (!digest(VFIT_HASH_SHA224, p, (const uint8_t *)kat[i].msg, strlen(kat[i].msg),
			    0, md))
			hex(got, md, sizeof(md));
		CHECK(!strcmp(got, kat[i].md), "sha224 %s \"%s\": %s", path_name[p], kat[i].msg, got);
	}
}

/* SHA-224 over a million 'a' (FIPS 180-4 example), in uneven pieces. */
static void sha224_million(enum path p)
{
	static uint8_t a[1000000];
	uint8_t md[28];
	char got[57] = "";

	memset(a, 'a', sizeof(a));
	if (!digest(VFIT_HASH_SHA224, p, a, sizeof(a), 4099, md))
		hex(got, md, sizeof(md));
	CHECK(!strcmp(got, "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67"),
	      "sha224 %s million a: %s", path_name[p], got);
}

/* AUTO picks the CPU path once a message is long enough, and the digest does not change. */
static void auto_switch(const uint8_t *data)
{
	struct vfit_sha256_ctx c;
	struct vfit_sha1_ctx s;
	struct vfit_hash_ctx g;
	uint8_t md[32], ref[32];
	int have = vfit_hash_have_accel(VFIT_HASH_SHA256);
	size_t off;

	vfit_sha256_init(&c);
	/* 2: undecided (a build without any accelerated back end says 0 at once) */
	CHECK(c.accel == 2 || (!have && c.accel == 0), "sha256 auto: accel %u before any data",
	      c.accel);
	for (off = 0; off < 5000; off += 100)
		vfit_sha256_update(&c, data + off, 100);
	CHECK(c.accel == (have ? 1 : 0), "sha256 auto: accel %u after 5000 bytes", c.accel);
	vfit_sha256_final(&c, md);
	digest(VFIT_HASH_SHA256, P_PORTABLE, data, 5000, 0, ref);
	CHECK(!memcmp(md, ref, 32), "sha256 auto: digest after switching paths mid-message");

	vfit_sha1_init(&s);
	vfit_sha1_update(&s, data, 1023);
	CHECK(s.accel == 2 || (!vfit_hash_have_accel(VFIT_HASH_SHA1) && s.accel == 0),
	      "sha1 auto: accel %u under 1 KiB", s.accel);
	vfit_sha1_update(&s, data + 1023, 1);
	CHECK(s.accel == (vfit_hash_have_accel(VFIT_HASH_SHA1) ? 1 : 0),
	      "sha1 auto: accel %u at 1 KiB", s.accel);
	vfit_sha1_final(&s, md);
	digest(VFIT_HASH_SHA1, P_PORTABLE, data, 1024, 0, ref);
	CHECK(!memcmp(md, ref, 20), "sha1 auto: digest after switching paths");

	CHECK(vfit_sha256_init_impl(&c, VFIT_IMPL_PORTABLE) == 0 && c.accel == 0,
	      "sha256 portable: accel %u", c.accel);
	CHECK(vfit_sha256_init_impl(&c, VFIT_IMPL_ACCEL) == (have ? VFIT_OK : VFIT_ERR_UNSUPPORTED),
	      "sha256 accel init must fail exactly when the CPU lacks it");
	CHECK(vfit_sha1_init_impl(&s, VFIT_IMPL_ACCEL) ==
	      (vfit_hash_have_accel(VFIT_HASH_SHA1) ? VFIT_OK : VFIT_ERR_UNSUPPORTED),
	      "sha1 accel init must fail exactly when the CPU lacks it");

	/* the generic interface passes the forced path through */
	CHECK(vfit_hash_init_impl(&g, VFIT_HASH_SHA256, VFIT_IMPL_PORTABLE) == 0 &&
	      g.u.sha256.accel == 0, "generic sha256 portable");
	CHECK(vfit_hash_init_impl(&g, VFIT_HASH_SHA224, VFIT_IMPL_ACCEL) == (have ? VFIT_OK : VFIT_ERR_UNSUPPORTED) &&
	      (!have || g.u.sha256.accel == 1), "generic sha224 accel");
	CHECK(vfit_hash_init_impl(&g, VFIT_HASH_SHA1, VFIT_IMPL_ACCEL) ==
	      (vfit_hash_have_accel(VFIT_HASH_SHA1) ? VFIT_OK : VFIT_ERR_UNSUPPORTED), "generic sha1 accel");
}

static void names(void)
{
	static const struct {
		enum vfit_hash a;
		const char *name;
		size_t size;
	} t[] = {
		{ VFIT_HASH_CRC32, "crc32", 4 }, { VFIT_HASH_MD5, "md5", 16 },
		{ VFIT_HASH_SHA1, "sha1", 20 }, { VFIT_HASH_SHA224, "sha224", 28 },
		{ VFIT_HASH_SHA256, "sha256", 32 }, { VFIT_HASH_SHA384, "sha384", 48 },
		{ VFIT_HASH_SHA512, "sha512", 64 },
	};
	static const char *const bad[] = {
		"sha256 ", "SHA256", "sha2560", "sha25", "", "sha-256", " sha256", "crc", "md50",
	};
	struct vfit_hash_ctx c;
	const char *n;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		n = vfit_hash_name(t[i].a);
		CHECK(n && !strcmp(n, t[i].name), "name of %d", (int)t[i].a);
		CHECK(vfit_hash_size(t[i].a) == t[i].size, "size of %s", t[i].name);
		CHECK(vfit_hash_lookup(t[i].name, strlen(t[i].name)) == t[i].a, "lookup %s",
		      t[i].name);
		CHECK(t[i].size <= VFIT_HASH_MAX_SIZE, "%s fits VFIT_HASH_MAX_SIZE", t[i].name);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(vfit_hash_lookup(bad[i], strlen(bad[i])) == VFIT_HASH_INVALID,
		      "lookup \"%s\" must fail", bad[i]);
	/* len bounds the name: the start of "sha256,rsa2048" is sha256, "sha2" is nothing */
	CHECK(vfit_hash_lookup("sha256,rsa2048", 6) == VFIT_HASH_SHA256, "lookup by length");
	CHECK(vfit_hash_lookup("sha256", 4) == VFIT_HASH_INVALID, "lookup of a prefix");
	CHECK(vfit_hash_lookup("sha1\0", 5) == VFIT_HASH_INVALID, "lookup with a NUL inside");
	CHECK(vfit_hash_lookup(NULL, 0) == VFIT_HASH_INVALID, "lookup NULL");
	CHECK(vfit_hash_name(VFIT_HASH_INVALID) == NULL && vfit_hash_size(VFIT_HASH_INVALID) == 0,
	      "invalid algo has no name or size");
	CHECK(vfit_hash_name((enum vfit_hash)99) == NULL && vfit_hash_size((enum vfit_hash)99) == 0,
	      "out-of-range algo has no name or size");
	CHECK(vfit_hash_init(&c, VFIT_HASH_INVALID) == VFIT_ERR_UNSUPPORTED, "init of INVALID fails");
	CHECK(vfit_hash_init(&c, (enum vfit_hash)99) == VFIT_ERR_UNSUPPORTED, "init of 99 fails");
	CHECK(vfit_hash(VFIT_HASH_INVALID, "", 0, NULL) == VFIT_ERR_UNSUPPORTED, "one-shot of INVALID fails");
	CHECK(vfit_hash_init_impl(&c, VFIT_HASH_MD5, VFIT_IMPL_ACCEL) == VFIT_ERR_UNSUPPORTED &&
	      vfit_hash_init_impl(&c, VFIT_HASH_CRC32, VFIT_IMPL_ACCEL) == VFIT_ERR_UNSUPPORTED &&
	      vfit_hash_init_impl(&c, VFIT_HASH_SHA512, VFIT_IMPL_ACCEL) == VFIT_ERR_UNSUPPORTED &&
	      vfit_hash_init_impl(&c, VFIT_HASH_SHA384, VFIT_IMPL_ACCEL) == VFIT_ERR_UNSUPPORTED,
	      "no accelerated path for crc32, md5, sha384, sha512");
	CHECK(!vfit_hash_have_accel(VFIT_HASH_SHA512) && !vfit_hash_have_accel(VFIT_HASH_MD5) &&
	      !vfit_hash_have_accel(VFIT_HASH_INVALID), "have_accel only for sha1/224/256");
}

int main(int argc, char **argv)
{
	static const enum vfit_hash nist[] = {
		VFIT_HASH_SHA1, VFIT_HASH_SHA256, VFIT_HASH_SHA384, VFIT_HASH_SHA512,
	};
	static const enum vfit_hash all[] = {
		VFIT_HASH_SHA1, VFIT_HASH_SHA224, VFIT_HASH_SHA256, VFIT_HASH_SHA384,
		VFIT_HASH_SHA512,
	};
	static uint8_t data[70000];
	enum path p;
	size_t i;

	(void)argc;
#if defined(__x86_64__)
	accel = check_cpu(cpu_has_sha(), "sha-ni", argv);
#else
	/* elsewhere the path exists only in builds for the instructions */
	(void)argv;
	accel = cpu_has_sha();
#endif
	CHECK(vfit_hash_have_accel(VFIT_HASH_SHA256) == cpu_has_sha() &&
	      vfit_hash_have_accel(VFIT_HASH_SHA1) == cpu_has_sha(),
	      "vfit_hash_have_accel says %d/%d, the CPU %d",
	      vfit_hash_have_accel(VFIT_HASH_SHA256), vfit_hash_have_accel(VFIT_HASH_SHA1),
	      cpu_has_sha());
	quick = getenv("VFIT_TEST_QUICK") != NULL;
	srand((unsigned)check_seed(1));
	fill_random(data, sizeof(data));

	for (i = 0; i < sizeof(nist) / sizeof(nist[0]); i++)
		for (p = 0; p < NPATHS; p++) {
			if (!path_ok(nist[i], p))
				continue;
			msg_vectors(nist[i], "ShortMsg", p);
			msg_vectors(nist[i], "LongMsg", p);
			monte(nist[i], p);
		}
	for (p = 0; p < NPATHS; p++) {
		if (!path_ok(VFIT_HASH_SHA224, p))
			continue;
		sha224_known(p);
		sha224_million(p);
	}
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		for (p = 0; p < NPATHS; p++) {
			if (!path_ok(all[i], p))
				continue;
			streaming(all[i], p, data);
#ifndef VFIT_TEST_NO_OPENSSL
			cross_check(all[i], p, data);
#endif
		}
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		paths_agree(all[i], data);
	auto_switch(data);
	names();
	return check_done();
}
