/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The TFTP read (RFC 1350, octet mode) of one file, asking for the
 * blksize (RFC 2348) and tsize (RFC 2349) options (RFC 2347).  The
 * server's first answer fixes its port (the transfer id); an option
 * acknowledgement may only carry what was asked, a block size no larger
 * than asked and decimal values; a tsize beyond the room is refused
 * before any block arrives.  Blocks are taken strictly in order: a
 * duplicate or early block is dropped (never acknowledged again, so a
 * server that answers every ACK cannot be made to send twice), and a
 * lost ACK is sent again when the wait runs out.  A block that would
 * write past dst, or past the announced tsize, ends the transfer with an
 * ERROR to the server; no byte is written outside dst[0..cap).
 */
#include <string.h>

#include "../byteorder.h"
#include "net_int.h"

enum { RRQ = 1, DATA = 3, ACK = 4, ERROR = 5, OACK = 6 };
/* RFC 1350's block size when the server takes no options. */
#define PLAIN_BLKSIZE 512u

static size_t put_str(uint8_t *p, const char *str)
{
	size_t n = strlen(str) + 1;

	memcpy(p, str, n);
	return n;
}

static size_t put_dec(uint8_t *p, uint32_t v)
{
	char d[11];
	size_t i = sizeof(d) - 1;

	d[i] = 0;
	do {
		d[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return put_str(p, d + i);
}

static size_t frame(struct vfit_net_session *s, size_t len)
{
	return vfit_net_udp_frame_(s, s->tx, s->hop_mac, s->lease.tftp_server, s->port,
				   s->phase == NET_PH_READ ? NET_PORT_TFTP : s->tid, len);
}

void vfit_net_tftp_start_(struct vfit_net_session *s)
{
	uint8_t *b = s->tx + NET_HDRS;
	size_t n = 2;

	st_be16(b, RRQ);
	n += put_str(b + n, s->lease.file);
	n += put_str(b + n, "octet");
	n += put_str(b + n, "blksize");
	n += put_dec(b + n, s->asked);
	n += put_str(b + n, "tsize");
	n += put_str(b + n, "0");
	s->phase = NET_PH_READ;
	vfit_net_request_(s, frame(s, n));
}

static size_t ack(struct vfit_net_session *s, uint16_t block)
{
	uint8_t *b = s->tx + NET_HDRS;

	st_be16(b, ACK);
	st_be16(b + 2, block);
	return frame(s, 4);
}

/* Tells the server why we stop (it would otherwise wait), then ends with r. */
static void abort_with(struct vfit_net_session *s, uint16_t code, const char *msg,
		       enum vfit_net_result r)
{
	uint8_t *b = s->tx + NET_HDRS;

	st_be16(b, ERROR);
	st_be16(b + 2, code);
	vfit_net_send_(s, s->tx, frame(s, 4 + put_str(b + 4, msg)));
	vfit_net_end_(s, r);
}

/* The server's ERROR: its code and message (NUL-terminated, shown printable and cut). */
static enum vfit_net_drop error_in(struct vfit_net_session *s, const uint8_t *d, size_t n)
{
	size_t i, j = 0;

	for (i = 4; i < n && d[i]; i++)
		;
	if (i == n)
		return VFIT_NET_DROP_TFTP;
	s->tftp_code = ld_be16(d + 2);
	for (i = 4; d[i] && j < VFIT_NET_MSG_MAX - 1; i++)
		s->tftp_msg[j++] = d[i] >= 0x20 && d[i] <= 0x7e ? (char)d[i] : '?';
	s->tftp_msg[j] = 0;
	vfit_net_end_(s, VFIT_NET_ERR_TFTP);
	return VFIT_NET_DROP_NONE;
}

/* Decimal digits only, no sign, no leading zero, at most 19 of them. */
static bool number(const uint8_t *v, size_t len, uint64_t *out)
{
	size_t i;

	*out = 0;
	if (!len || len > 19 || (len > 1 && v[0] == '0'))
		return false;
	for (i = 0; i < len; i++) {
		if (v[i] < '0' || v[i] > '9')
			return false;
		*out = *out * 10 + (uint64_t)(v[i] - '0');
	}
	return true;
}

/* Option names are case-insensitive (RFC 2347); want is lower case. */
static bool named(const uint8_t *name, size_t len, const char *want)
{
	size_t i;

	for (i = 0; i < len && want[i]; i++)
		if ((name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i]) != want[i])
			return false;
	return i == len && !want[i];
}

/* Length of the string at p, which the caller knows ends before p[n]. */
static size_t str_len(const uint8_t *p)
{
	size_t n = 0;

	while (p[n])
		n++;
	return n;
}

/*
 * The option acknowledgement's name/value pairs: DROP_TFTP when they are
 * malformed (nothing changes), else *ok says whether each is one we asked
 * for, once, with a value in range; the values land in s only then.
 */
static enum vfit_net_drop oack(struct vfit_net_session *s, const uint8_t *p, size_t n, bool *ok)
{
	uint64_t blk = PLAIN_BLKSIZE, tsize = 0, v;
	bool has_blk = false, has_tsize = false, bad = false;
	const uint8_t *name;
	size_t i = 0, nl, vl;

	*ok = false;
	if (!n || p[n - 1])
		return VFIT_NET_DROP_TFTP;
	while (i < n) {
		name = p + i;
		nl = str_len(name);
		i += nl + 1;
		if (!nl || i >= n)
			return VFIT_NET_DROP_TFTP;
		vl = str_len(p + i);
		if (!number(p + i, vl, &v)) {
			bad = true;
		} else if (named(name, nl, "blksize") && !has_blk && v >= 8 && v <= s->asked) {
			has_blk = true;
			blk = v;
		} else if (named(name, nl, "tsize") && !has_tsize) {
			has_tsize = true;
			tsize = v;
		} else {
			bad = true;
		}
		i += vl + 1;
	}
	*ok = !bad;
	if (bad)
		return VFIT_NET_DROP_NONE;
	s->blksize = (uint16_t)blk;
	s->has_tsize = has_tsize;
	s->tsize = tsize;
	return VFIT_NET_DROP_NONE;
}

static void transfer(struct vfit_net_session *s, uint16_t tid)
{
	s->tid = tid;
	s->phase = NET_PH_DATA;
	s->block = 1;
	vfit_net_step_(s, VFIT_NET_STEP_TRANSFER);
}

static enum vfit_net_drop oack_in(struct vfit_net_session *s, const struct vfit_net_pkt_ *p)
{
	enum vfit_net_drop d;
	bool ok;

	d = oack(s, p->data + 2, p->len - 2, &ok);
	if (d)
		return d;
	transfer(s, p->sport);
	if (!ok)
		abort_with(s, 8, "option not asked for or out of range", VFIT_NET_ERR_OACK);
	else if (s->has_tsize && s->tsize > s->cap)
		abort_with(s, 3, "file larger than the room for it", VFIT_NET_ERR_TOO_BIG);
	else
		vfit_net_request_(s, ack(s, 0));
	return VFIT_NET_DROP_NONE;
}

static enum vfit_net_drop data_in(struct vfit_net_session *s, const struct vfit_net_pkt_ *p)
{
	uint16_t block = ld_be16(p->data + 2);
	size_t len = p->len - 4;

	if (s->phase == NET_PH_READ) {
		/* No OACK: the server took no option, so RFC 1350's blocks. */
		if (block != 1)
			return VFIT_NET_DROP_TFTP_BLOCK;
		if (len > PLAIN_BLKSIZE)
			return VFIT_NET_DROP_TFTP;
		s->blksize = PLAIN_BLKSIZE;
		transfer(s, p->sport);
	}
	if (block != s->block)
		return VFIT_NET_DROP_TFTP_BLOCK;
	if (len > s->blksize)
		return VFIT_NET_DROP_TFTP;
	if (len > s->cap - s->received) {
		abort_with(s, 3, "file larger than the room for it", VFIT_NET_ERR_TOO_BIG);
		return VFIT_NET_DROP_NONE;
	}
	if (s->has_tsize && len > s->tsize - s->received) {
		abort_with(s, 0, "more data than the tsize announced", VFIT_NET_ERR_SIZE);
		return VFIT_NET_DROP_NONE;
	}
	memcpy(s->dst + s->received, p->data + 4, len);
	s->received += len;
	s->blocks++;
	if (len == s->blksize) {
		vfit_net_request_(s, ack(s, block));
		s->block = (uint16_t)(block + 1);    /* after 65535 comes 0, as servers roll over */
	} else if (s->has_tsize && s->received != s->tsize) {
		abort_with(s, 0, "file shorter than the tsize announced", VFIT_NET_ERR_SIZE);
	} else {
		vfit_net_send_(s, s->tx, ack(s, block));
		vfit_net_end_(s, VFIT_NET_OK);
	}
	return VFIT_NET_DROP_NONE;
}

enum vfit_net_drop vfit_net_tftp_in_(struct vfit_net_session *s, const struct vfit_net_pkt_ *p)
{
	uint16_t op;

	if (s->phase < NET_PH_READ)
		return VFIT_NET_DROP_UNEXPECTED;
	if (p->src != s->lease.tftp_server || p->dst != s->lease.ip)
		return VFIT_NET_DROP_IP_ADDRESS;
	if (!p->sport)
		return VFIT_NET_DROP_PORT;
	if (s->phase == NET_PH_DATA && p->sport != s->tid)
		return VFIT_NET_DROP_TFTP_TID;
	if (p->len < 4)
		return VFIT_NET_DROP_TFTP;
	op = ld_be16(p->data);
	if (op == ERROR)
		return error_in(s, p->data, p->len);
	if (op == OACK && s->phase == NET_PH_READ)
		return oack_in(s, p);
	if (op == DATA)
		return data_in(s, p);
	return VFIT_NET_DROP_TFTP;
}
