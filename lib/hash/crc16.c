/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CRC-16 of FIT `crc16-ccitt` hash nodes (fit-format.md §2.3), the catalogue's
 * CRC-16/XMODEM: polynomial x^16 + x^12 + x^5 + 1 (0x1021), register
 * starting at 0, bits not reflected, no final xor.  Only small images use
 * it, so it is built for size: one nibble at a time through a 16-entry
 * table (32 bytes) instead of 256 entries (512 bytes).
 *
 * Unreflected means the register's top bit is the highest power of x.
 * Feeding four message bits m is register r multiplied by x^4 with m added
 * at the top: the four bits t = (r >> 12) ^ m leave the register, and
 * t(x) * x^16 mod P(x) comes back in, which is nib[t].
 */
#include "vfit/hash.h"

#if VFIT_HAVE_CRC16

/* nib[t] = t(x) * x^16 mod 0x11021, for every 4-bit t. */
static const uint16_t nib[16] = {
	0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50a5, 0x60c6, 0x70e7,
	0x8108, 0x9129, 0xa14a, 0xb16b, 0xc18c, 0xd1ad, 0xe1ce, 0xf1ef,
};

uint16_t vfit_crc16(uint16_t crc, const void *p, size_t n)
{
	const uint8_t *b = p;
	unsigned int r = crc;

	for (; n; n--, b++) {
		r = (unsigned int)(nib[(r >> 12) ^ (*b >> 4)] ^ (r << 4)) & 0xffff;
		r = (unsigned int)(nib[(r >> 12) ^ (*b & 15)] ^ (r << 4)) & 0xffff;
	}
	return (uint16_t)r;
}

#endif
