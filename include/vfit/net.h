/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One file fetched over the network into RAM: DHCP (RFC 2131, options of
 * RFC 2132) for an address and a file name, then a TFTP read (RFC 1350)
 * with the blksize (RFC 2348) and tsize (RFC 2349) options, over UDP,
 * IPv4 and Ethernet with ARP.  A loader uses it to fetch a recovery FIT,
 * which it then verifies exactly as one read from disk.
 *
 * Nothing here is trusted, and nothing has to be: DHCP and TFTP are
 * unauthenticated, so what lands in the buffer is only bytes for the
 * verifier.  Every frame is parsed as hostile input -- lengths,
 * checksums, addresses, ports, transaction ids, block numbers, option
 * values -- and refused on the first field out of line; the file is
 * written only inside dst[0..cap), every wait is bounded, and the whole
 * fetch ends within the configured limit whatever the network sends.
 *
 * Device code: no heap, no globals; all state is the caller's struct
 * vfit_net_session, the device is a struct vfit_net_dev of three calls.
 * One copy per byte (the device's receive buffer into dst).
 */
#ifndef VFIT_NET_H
#define VFIT_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vfit/config.h"

/* An Ethernet frame without FCS or VLAN tag: 14-byte header + 1500. */
#define VFIT_NET_FRAME_MAX 1514
/* The largest TFTP block in one unfragmented IPv4 datagram: 1500 - 20 - 8 - 4. */
#define VFIT_NET_BLKSIZE 1468
/* File names: DHCP's 128-byte file field, NUL included. */
#define VFIT_NET_FILE_MAX 128
/* The server's TFTP ERROR message as kept (cut, non-printable bytes as '?'). */
#define VFIT_NET_MSG_MAX 80

/* Results (include/vfit/result.h's convention: 0 success, failures positive). */
enum vfit_net_result {
	VFIT_NET_OK = 0,
	VFIT_NET_ERR_PARAM = 1,     /* unusable configuration: file name, block size, no device call */
	VFIT_NET_ERR_SEND = 2,      /* the device could not send */
	VFIT_NET_ERR_NO_DHCP = 3,   /* no DHCP offer, or no acknowledgement, before the tries ran out */
	VFIT_NET_ERR_DHCP_NAK = 4,  /* the server refused the address it had offered, every time */
	VFIT_NET_ERR_NO_FILE = 5,   /* neither DHCP nor the configuration names a file */
	VFIT_NET_ERR_NO_ROUTE = 6,  /* no usable TFTP server address, or no router to reach it */
	VFIT_NET_ERR_NO_ARP = 7,    /* the server (or router) never answered ARP */
	VFIT_NET_ERR_TFTP = 8,      /* the server sent a TFTP ERROR (code and message in the session) */
	VFIT_NET_ERR_STALLED = 9,   /* the TFTP server stopped answering */
	VFIT_NET_ERR_TOO_BIG = 10,  /* the file (its tsize, or the blocks sent) does not fit dst */
	VFIT_NET_ERR_SIZE = 11,     /* the transfer did not end at the tsize the server announced */
	VFIT_NET_ERR_OACK = 12,     /* option acknowledgement with an option not asked for or out of range */
	VFIT_NET_ERR_TIME = 13,     /* the whole fetch took longer than its limit */
};
/* Returns the name of r for logs ("no DHCP answer", ...; "unknown result" past them). */
const char *vfit_net_result_to_string(enum vfit_net_result r);

/*
 * Why a frame was dropped (counted per reason in the session): the first
 * field found out of line.  A dropped frame changes nothing else.
 */
enum vfit_net_drop {
	VFIT_NET_DROP_NONE = 0,       /* accepted */
	VFIT_NET_DROP_LENGTH,         /* frame shorter than its headers, or longer than FRAME_MAX */
	VFIT_NET_DROP_MAC,            /* to neither our MAC nor broadcast */
	VFIT_NET_DROP_ETHERTYPE,      /* neither ARP nor IPv4 (a VLAN tag included) */
	VFIT_NET_DROP_ARP,            /* ARP not for Ethernet/IPv4, bad opcode or sender */
	VFIT_NET_DROP_IP_HEADER,      /* IPv4 version, header length, total length, reserved flag */
	VFIT_NET_DROP_IP_CHECKSUM,    /* IPv4 header checksum */
	VFIT_NET_DROP_IP_FRAGMENT,    /* a fragment (never reassembled) */
	VFIT_NET_DROP_IP_ADDRESS,     /* source not a unicast host, or destination not us */
	VFIT_NET_DROP_IP_PROTOCOL,    /* not UDP */
	VFIT_NET_DROP_UDP_LENGTH,     /* UDP length other than the IPv4 payload's */
	VFIT_NET_DROP_UDP_CHECKSUM,   /* UDP checksum (verified when not zero) */
	VFIT_NET_DROP_PORT,           /* to a port nothing listens on, or from the wrong one */
	VFIT_NET_DROP_DHCP,           /* BOOTP header: length, op, hardware, cookie, fields */
	VFIT_NET_DROP_DHCP_XID,       /* another transaction or another client's hardware address */
	VFIT_NET_DROP_DHCP_OPTION,    /* option overrun, missing end, duplicate, length or value */
	VFIT_NET_DROP_TFTP,           /* TFTP packet malformed or of an opcode not expected now */
	VFIT_NET_DROP_TFTP_TID,       /* from another port than the server's transfer id */
	VFIT_NET_DROP_TFTP_BLOCK,     /* a duplicate or out-of-order block */
	VFIT_NET_DROP_UNEXPECTED,     /* well-formed, but nothing waits for it now */
	VFIT_NET_DROPS
};
/* Returns the name of d for logs ("UDP checksum", ...; "unknown drop" past them). */
const char *vfit_net_drop_to_string(enum vfit_net_drop d);

/* What the device says when it tells the caller about progress. */
enum vfit_net_step {
	VFIT_NET_STEP_BOUND = 1,      /* DHCP acknowledged: session->lease is filled */
	VFIT_NET_STEP_TRANSFER = 2,   /* the server answered the read: blksize, tsize known */
};

struct vfit_net_session;

/* The network device: the port's driver. */
struct vfit_net_dev {
	void *plat;                   /* passed back to every call */
	uint8_t mac[6];               /* this interface's unicast address */
	/*
	 * Sends frame[0..len) (destination MAC first, no FCS; 60 <= len <=
	 * VFIT_NET_FRAME_MAX).  The frame may be reused as soon as it returns.
	 */
	enum vfit_net_result (*send)(void *plat, const uint8_t *frame, size_t len);
	/*
	 * The next received frame, waiting at most until now_ns() reaches
	 * deadline: its bytes (destination MAC first, no FCS) and length,
	 * valid until the next recv; NULL when none came.
	 */
	const uint8_t *(*recv)(void *plat, uint64_t deadline, size_t *len);
	/* A monotonic clock in nanoseconds. */
	uint64_t (*now_ns)(void *plat);
	/* Optional: called at each step (the console's hook). */
	void (*step)(void *plat, enum vfit_net_step step, const struct vfit_net_session *s);
};

struct vfit_net_config {
	/* The file to read when DHCP names none (option 67, the file field); NULL: none. */
	const char *file;
	/* First wait for an answer, doubled at each resend up to timeout_max_ms (0: 1000, 4000). */
	uint32_t timeout_ms, timeout_max_ms;
	/* Sends of one request (DISCOVER, REQUEST, ARP, RRQ, an ACK) before giving up (0: 4). */
	uint32_t tries;
	/* The whole fetch, DHCP to the last block (0: 300000 ms). */
	uint32_t limit_ms;
	/* TFTP block size asked for, 8..VFIT_NET_BLKSIZE (0: VFIT_NET_BLKSIZE). */
	uint16_t blksize;
	/* Varies the DHCP transaction id and the TFTP port from boot to boot. */
	uint32_t seed;
};

/* What DHCP gave (addresses in host order; 0: none). */
struct vfit_net_lease {
	uint32_t ip, mask, router, dhcp_server, tftp_server;
	char file[VFIT_NET_FILE_MAX];     /* the file read: DHCP's, else the configuration's */
};

/*
 * The fetch's whole state, owned by the caller (under 1 KiB).  After
 * vfit_net_fetch() the first block says what happened; the rest is its own.
 */
struct vfit_net_session {
	struct vfit_net_lease lease;
	uint16_t blksize;                 /* block size in effect (512 unless the server agreed) */
	bool has_tsize;
	uint64_t tsize;                   /* the size the server announced, when has_tsize */
	uint64_t received;                /* bytes written to dst, all in order */
	uint32_t blocks;                  /* DATA blocks taken */
	uint16_t tftp_code;               /* VFIT_NET_ERR_TFTP: the server's code and message */
	char tftp_msg[VFIT_NET_MSG_MAX];
	uint32_t frames;                  /* frames received */
	uint32_t resends;                 /* requests sent again after a timeout */
	uint32_t drops[VFIT_NET_DROPS];   /* frames dropped, by reason */
	enum vfit_net_drop last_drop;

	/* ---- the fetch's own ---- */
	const struct vfit_net_dev *dev;
	uint8_t *dst;
	size_t cap;
	const char *cfg_file;
	uint64_t deadline, end;           /* of the current wait; of the whole fetch */
	uint32_t wait_ms, wait_first_ms, wait_max_ms, tries, tries_left, naks;
	uint32_t xid, offer_ip, offer_server, hop;
	uint16_t port, tid, block, ip_id, asked;
	uint8_t phase, result, done;
	uint8_t hop_mac[6];
	size_t tx_len;
	uint8_t tx[400];                  /* the request last sent: sent again on a timeout */
	uint8_t reply[64];                /* an ARP reply */
};

/*
 * Fetches one file into dst[0..cap) (*len: its size): DHCP, ARP for the
 * server or router, TFTP read.  Returns VFIT_NET_OK only for a transfer that
 * ended on the server's last block (and at its tsize when it sent one);
 * otherwise dst holds garbage that must not be used.  Returns within
 * cfg->limit_ms of the device's clock, whatever arrives.
 */
VFIT_MUST_CHECK
enum vfit_net_result vfit_net_fetch(const struct vfit_net_dev *dev,
				    const struct vfit_net_config *cfg,
				    struct vfit_net_session *s, void *dst, size_t cap, size_t *len);

#endif
