/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/net's internals: frame layout, the phases of a fetch, and the calls
 * its files make of each other, each calling only those listed before it:
 * net_frame.c (Ethernet, ARP, IPv4, UDP), net_session.c (requests, waits,
 * the end), net_dhcp.c, net_tftp.c, net_fetch.c (the loop).
 */
#ifndef VFIT_NET_INT_H
#define VFIT_NET_INT_H

#include "vfit/net.h"

#define NET_ETH 14
#define NET_IP 20               /* an IPv4 header without options, as sent */
#define NET_UDP 8
#define NET_HDRS (NET_ETH + NET_IP + NET_UDP)   /* where a sent UDP payload starts */
#define NET_FRAME_MIN 60        /* Ethernet's minimum without FCS: shorter frames are padded */
#define NET_ETH_ARP 0x0806
#define NET_ETH_IP 0x0800
#define NET_BCAST 0xffffffffu

#define NET_PORT_BOOTPS 67
#define NET_PORT_BOOTPC 68
#define NET_PORT_TFTP 69

/* Where a fetch is; each phase has one request that a timeout sends again. */
enum vfit_net_phase_ {
	NET_PH_DISCOVER,        /* DISCOVER sent, waiting for an OFFER */
	NET_PH_REQUEST,         /* REQUEST sent, waiting for the ACK */
	NET_PH_ARP,             /* ARP request for the next hop sent */
	NET_PH_READ,            /* RRQ sent, waiting for the server's first answer */
	NET_PH_DATA,            /* ACK of the last block sent, waiting for the next */
};

/* A frame that passed Ethernet and then ARP, or IPv4 and UDP. */
struct vfit_net_pkt_ {
	bool arp;
	uint16_t op;            /* ARP opcode */
	const uint8_t *sha;     /* ARP sender's hardware address */
	uint32_t src, dst;      /* ARP sender and target, or IPv4 source and destination */
	uint16_t sport, dport;
	const uint8_t *data;    /* UDP payload */
	size_t len;
};

extern const uint8_t vfit_net_bcast_mac_[6];

/* A host address: not 0.x, 127.x, multicast, reserved or broadcast. */
bool vfit_net_host_ok_(uint32_t a);

/* The folded ones' complement sum of p[0..n) as big-endian 16-bit words (RFC 1071). */
uint16_t vfit_net_sum_(const uint8_t *p, size_t n);

/* Ethernet, then ARP or IPv4 + UDP: the first field out of line, or DROP_NONE and *p. */
enum vfit_net_drop vfit_net_parse_(const struct vfit_net_session *s, const uint8_t *f, size_t n,
				   struct vfit_net_pkt_ *p);

/*
 * Puts Ethernet, IPv4 and UDP headers in front of the payload at
 * f[NET_HDRS..NET_HDRS + len) (from our address, 0.0.0.0 before DHCP is
 * bound, to dst over dmac); returns the frame's length, padded to 60.
 */
size_t vfit_net_udp_frame_(struct vfit_net_session *s, uint8_t *f, const uint8_t dmac[6],
			   uint32_t dst, uint16_t sport, uint16_t dport, size_t len);
/* An ARP frame of opcode op to tha/tpa (broadcast for a request) in f; returns its length. */
size_t vfit_net_arp_frame_(const struct vfit_net_session *s, uint8_t *f, uint16_t op,
			   const uint8_t tha[6], uint32_t tpa);

/* net_session.c: send s->tx[0..len) as the phase's request (timer and tries reset). */
void vfit_net_request_(struct vfit_net_session *s, size_t len);
/* Sends f[0..len) once; a device failure ends the fetch. */
void vfit_net_send_(struct vfit_net_session *s, const uint8_t *f, size_t len);
/* The wait ran out: the request again, or the phase's failure once the tries are spent. */
void vfit_net_resend_(struct vfit_net_session *s);
/* Ends the fetch with r (the first end wins). */
void vfit_net_end_(struct vfit_net_session *s, enum vfit_net_result r);
void vfit_net_step_(struct vfit_net_session *s, enum vfit_net_step step);
/* ARP for the next hop to the TFTP server (after DHCP). */
void vfit_net_arp_start_(struct vfit_net_session *s);

/* net_dhcp.c */
void vfit_net_dhcp_start_(struct vfit_net_session *s);
enum vfit_net_drop vfit_net_dhcp_in_(struct vfit_net_session *s, const struct vfit_net_pkt_ *p);
/* A file name as sent in an RRQ: 1..127 printable, non-space ASCII characters. */
bool vfit_net_name_ok_(const uint8_t *name, size_t len);

/* net_tftp.c */
void vfit_net_tftp_start_(struct vfit_net_session *s);
enum vfit_net_drop vfit_net_tftp_in_(struct vfit_net_session *s, const struct vfit_net_pkt_ *p);

#endif
