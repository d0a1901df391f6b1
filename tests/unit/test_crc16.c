/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CRC-16 of FIT crc16-ccitt hash nodes: the RevEng catalogue's
 * CRC-16/XMODEM facts (check and residue), a bitwise reference written
 * from the definition on random data, continuation, and the generic
 * interface (name, size, big-endian output, no accelerated path).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vfit/hash.h"

/*
 * The definition, one bit at a time, most significant first: the bit that
 * leaves the register plus the message bit decides whether the register,
 * shifted up by one, gets P = 0x1021 (x^16 dropped) added.
 */
static uint16_t crc16_bitwise(uint16_t crc, const uint8_t *p, size_t n)
{
	unsigned int r = crc, top;
	size_t i;
	int b;

	for (i = 0; i < n; i++)
		for (b = 7; b >= 0; b--) {
			top = ((r >> 15) ^ ((unsigned int)p[i] >> b)) & 1;
			r = (r << 1) & 0xffff;
			if (top)
				r ^= 0x1021;
		}
	return (uint16_t)r;
}

/*
 * RevEng: CRC-16/XMODEM width=16 poly=0x1021 init=0x0000 refin=false
 * refout=false xorout=0x0000 check=0x31c3 residue=0x0000.  The residue is
 * the register after a message followed by its own CRC (big-endian here,
 * since nothing is reflected): 0 for every message.
 */
static void catalogue(void)
{
	static const uint8_t want[2] = { 0x31, 0xc3 };
	uint8_t msg[64 + 2], out[2] = { 0 };
	unsigned int i, bad = 0;
	uint16_t c;

	CHECK(vfit_crc16(0, "123456789", 9) == 0x31c3, "check value %04x, want 31c3",
	      vfit_crc16(0, "123456789", 9));
	CHECK(crc16_bitwise(0, (const uint8_t *)"123456789", 9) == 0x31c3,
	      "the bitwise reference gives the check value");
	CHECK(vfit_hash(VFIT_HASH_CRC16, "123456789", 9, out) == 0 && !memcmp(out, want, 2),
	      "generic one-shot writes 31 c3, got %02x %02x", out[0], out[1]);
	CHECK(vfit_crc16(0, NULL, 0) == 0, "crc of nothing is 0 (init 0, no xorout)");
	CHECK(vfit_crc16(0, "\0\0\0\0", 4) == 0, "zero bytes keep a zero register");
	for (i = 0; i < 64; i++) {
		size_t j;

		for (j = 0; j < i; j++)
			msg[j] = (uint8_t)rand();
		c = vfit_crc16(0, msg, i);
		msg[i] = (uint8_t)(c >> 8);
		msg[i + 1] = (uint8_t)c;
		bad += vfit_crc16(0, msg, i + 2) != 0;
	}
	CHECK(!bad, "residue: %u of 64 messages with their CRC appended are not 0", bad);
}

/* The nibble table against the bitwise reference, every split, byte by byte. */
static void random_data(void)
{
	static uint8_t data[70000];
	unsigned int i, bad = 0, rounds = getenv("VFIT_TEST_QUICK") ? 40 : 300;
	size_t len, cut, j;
	uint16_t one, two;

	for (j = 0; j < sizeof(data); j++)
		data[j] = (uint8_t)(rand() >> 7);
	CHECK(vfit_crc16(0x1234, NULL, 0) == 0x1234, "empty update keeps the value");
	for (i = 0; i < rounds; i++) {
		len = i < 64 ? i : (size_t)rand() % (sizeof(data) + 1);
		cut = len ? (size_t)rand() % (len + 1) : 0;
		one = vfit_crc16(0, data + i % 5, len - i % 5 * (len >= 5));
		two = crc16_bitwise(0, data + i % 5, len - i % 5 * (len >= 5));
		bad += one != two;
		one = vfit_crc16(0, data, len);
		two = vfit_crc16(vfit_crc16(0, data, cut), data + cut, len - cut);
		bad += one != two;
		/* a non-zero start value too, as continuation passes it */
		bad += vfit_crc16((uint16_t)i * 977, data, len % 300) !=
		       crc16_bitwise((uint16_t)i * 977, data, len % 300);
	}
	CHECK(!bad, "%u of %u random CRCs differ from the bitwise reference or the split CRC",
	      bad, 3 * rounds);
	for (len = 0, bad = 0; len < 40; len++) {
		two = 0;
		for (j = 0; j < len; j++)
			two = vfit_crc16(two, data + j, 1);
		bad += two != vfit_crc16(0, data, len);
	}
	CHECK(!bad, "byte-by-byte CRC differs for %u lengths", bad);
}

/* The generic interface: name, size, streaming, big-endian output, no accelerated path. */
static void generic(void)
{
	static uint8_t data[1000];
	struct vfit_hash_ctx c;
	uint8_t out[2] = { 0 };
	uint16_t want;
	const char *n;
	size_t i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + 3);
	want = crc16_bitwise(0, data, sizeof(data));
	n = vfit_hash_name(VFIT_HASH_CRC16);
	CHECK(n && !strcmp(n, "crc16-ccitt"), "name %s", n ? n : "(null)");
	CHECK(vfit_hash_size(VFIT_HASH_CRC16) == 2, "size 2");
	CHECK(vfit_hash_lookup("crc16-ccitt", 11) == VFIT_HASH_CRC16, "lookup crc16-ccitt");
	CHECK(vfit_hash_lookup("crc16", 5) == VFIT_HASH_INVALID &&
	      vfit_hash_lookup("crc16-ccit", 10) == VFIT_HASH_INVALID &&
	      vfit_hash_lookup("crc16-ccitt ", 12) == VFIT_HASH_INVALID &&
	      vfit_hash_lookup("CRC16-CCITT", 11) == VFIT_HASH_INVALID,
	      "near names are not crc16-ccitt");
	CHECK(VFIT_HASH_CRC16 == VFIT_HASH_SHA512 + 1, "CRC16 is appended after SHA512");
	CHECK(vfit_hash_init_impl(&c, VFIT_HASH_CRC16, VFIT_IMPL_ACCEL) == VFIT_ERR_UNSUPPORTED,
	      "no accelerated crc16");
	CHECK(!vfit_hash_have_accel(VFIT_HASH_CRC16), "have_accel is 0 for crc16");
	CHECK(vfit_hash_init_impl(&c, VFIT_HASH_CRC16, VFIT_IMPL_PORTABLE) == 0, "portable init");
	vfit_hash_update(&c, data, 333);
	vfit_hash_update(&c, data + 333, 0);
	vfit_hash_update(&c, data + 333, sizeof(data) - 333);
	vfit_hash_final(&c, out);
	CHECK(out[0] == want >> 8 && out[1] == (want & 0xff),
	      "streamed and big-endian: %02x %02x, want %04x", out[0], out[1], want);
}

int main(void)
{
	srand((unsigned)check_seed(16));
	catalogue();
	random_data();
	generic();
	return check_done();
}
