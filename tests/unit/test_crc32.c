/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CRC-32 (zlib's): Go's golden table, the RevEng catalogue check value,
 * the FIT example of docs/fit-format.md, continuation and splitting, zlib on
 * random data, and the big-endian output of vfit_hash_final.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "check.h"
#include "vfit/hash.h"

/* crc32/crc32_golden_go.tsv: crc32_iso_hdlc, crc32c, len, msg_hex, msg_ascii (tabs) */
static void golden(void)
{
	char path[512], *text, *line, *save = NULL, *col[5], *s;
	static uint8_t msg[4096];
	unsigned int rows = 0, i;
	long n;

	snprintf(path, sizeof(path), "%s/crc32/crc32_golden_go.tsv", check_vectors_dir());
	text = check_read_file(path, NULL);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		for (i = 0, s = line; i < 5; i++) {
			col[i] = s;
			s = s ? strchr(s, '\t') : NULL;
			if (s)
				*s++ = 0;
		}
		if (!CHECK(col[3], "golden row %u has too few columns", rows))
			continue;
		n = check_unhex(col[3], strlen(col[3]), msg, sizeof(msg));
		if (!CHECK(n == atol(col[2]), "golden row %u: bad message", rows))
			continue;
		CHECK(vfit_crc32(0, msg, (size_t)n) == (uint32_t)strtoul(col[0], NULL, 16),
		      "golden row %u (len %ld): %08x, want %s", rows, n,
		      vfit_crc32(0, msg, (size_t)n), col[0]);
		rows++;
	}
	CHECK(rows >= 30, "only %u golden rows", rows);
	free(text);
}

/* The CRC-32/ISO-HDLC line of the RevEng catalogue: its check value is the CRC of "123456789". */
static void catalogue(void)
{
	char path[512], *text, *line, *chk;
	uint32_t want;

	snprintf(path, sizeof(path), "%s/crc32/crc32_catalogue_width32.txt", check_vectors_dir());
	text = check_read_file(path, NULL);
	line = strstr(text, "name=\"CRC-32/ISO-HDLC\"");
	while (line && line > text && line[-1] != '\n')
		line--;
	chk = line ? strstr(line, "check=0x") : NULL;
	if (CHECK(chk, "no CRC-32/ISO-HDLC line in the catalogue")) {
		want = (uint32_t)strtoul(chk + 8, NULL, 16);
		CHECK(want == vfit_crc32(0, "123456789", 9), "check value %08x, want %08x",
		      vfit_crc32(0, "123456789", 9), want);
	}
	free(text);
}

/* docs/fit-format.md §2.3: a crc32 hash node over 500 zero bytes holds 02 83 b9 7a. */
static void fit_example(void)
{
	static const uint8_t want[4] = { 0x02, 0x83, 0xb9, 0x7a };
	static const uint8_t zero[500];
	struct vfit_hash_ctx c;
	uint8_t out[4] = { 0 };

	CHECK(vfit_hash(VFIT_HASH_CRC32, zero, sizeof(zero), out) == 0 && !memcmp(out, want, 4),
	      "500 zero bytes: %02x %02x %02x %02x", out[0], out[1], out[2], out[3]);
	memset(out, 0, sizeof(out));
	CHECK(vfit_hash_init(&c, VFIT_HASH_CRC32) == 0, "init crc32");
	vfit_hash_update(&c, zero, 17);
	vfit_hash_update(&c, zero + 17, 0);
	vfit_hash_update(&c, zero + 17, 483);
	vfit_hash_final(&c, out);
	CHECK(!memcmp(out, want, 4), "500 zero bytes in pieces");
	CHECK(vfit_hash_size(VFIT_HASH_CRC32) == 4, "crc32 size");
}

/* Feeding the result back continues the CRC; every split and zlib agree. */
static void incremental(void)
{
	static uint8_t data[70000];
	unsigned int i, bad = 0, rounds = getenv("VFIT_TEST_QUICK") ? 50 : 400;
	size_t len, cut, j;
	uint32_t one, two;

	for (j = 0; j < sizeof(data); j++)
		data[j] = (uint8_t)(rand() >> 7);
	CHECK(vfit_crc32(0, NULL, 0) == 0, "crc of nothing is 0");
	CHECK(vfit_crc32(0x12345678, NULL, 0) == 0x12345678, "empty update keeps the value");
	for (i = 0; i < rounds; i++) {
		len = i < 64 ? i : (size_t)rand() % (sizeof(data) + 1);
		cut = len ? (size_t)rand() % (len + 1) : 0;
		/* start at an odd offset too, so the 8-byte loop sees every alignment */
		one = vfit_crc32(0, data + i % 8, len - i % 8 * (len >= 8));
		two = (uint32_t)crc32(0, data + i % 8, (uInt)(len - i % 8 * (len >= 8)));
		if (one != two)
			bad++;
		one = vfit_crc32(0, data, len);
		two = vfit_crc32(vfit_crc32(0, data, cut), data + cut, len - cut);
		if (one != two)
			bad++;
	}
	CHECK(!bad, "%u of %u random CRCs differ from zlib or from the split CRC", bad, 2 * rounds);
	for (len = 0, bad = 0; len < 40; len++) {
		two = 0;
		for (j = 0; j < len; j++)
			two = vfit_crc32(two, data + j, 1);
		bad += two != vfit_crc32(0, data, len);
	}
	CHECK(!bad, "byte-at-a-time CRC differs for %u lengths", bad);
}

int main(void)
{
	srand((unsigned)check_seed(3));
	golden();
	catalogue();
	fit_example();
	incremental();
	return check_done();
}
