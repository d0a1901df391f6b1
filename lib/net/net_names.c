/* SPDX-License-Identifier: BSD-3-Clause */
/* The names of lib/net's results and drop reasons, for logs and consoles. */
#include "vfit/net.h"

const char *vfit_net_result_to_string(enum vfit_net_result r)
{
	switch (r) {
	case VFIT_NET_OK:
		return "ok";
	case VFIT_NET_ERR_PARAM:
		return "unusable configuration";
	case VFIT_NET_ERR_SEND:
		return "the network device could not send";
	case VFIT_NET_ERR_NO_DHCP:
		return "no DHCP answer";
	case VFIT_NET_ERR_DHCP_NAK:
		return "the DHCP server refused the address it offered";
	case VFIT_NET_ERR_NO_FILE:
		return "no file name from DHCP or the configuration";
	case VFIT_NET_ERR_NO_ROUTE:
		return "no route to the TFTP server";
	case VFIT_NET_ERR_NO_ARP:
		return "no ARP answer from the TFTP server or router";
	case VFIT_NET_ERR_TFTP:
		return "the TFTP server sent an error";
	case VFIT_NET_ERR_STALLED:
		return "the TFTP server stopped answering";
	case VFIT_NET_ERR_TOO_BIG:
		return "the file is larger than the room for it";
	case VFIT_NET_ERR_SIZE:
		return "the transfer did not end at the size the server announced";
	case VFIT_NET_ERR_OACK:
		return "the TFTP server acknowledged an option not asked for or out of range";
	case VFIT_NET_ERR_TIME:
		return "the fetch took longer than its limit";
	}
	return "unknown result";
}

const char *vfit_net_drop_to_string(enum vfit_net_drop d)
{
	static const char *const names[VFIT_NET_DROPS] = {
		[VFIT_NET_DROP_NONE] = "accepted",
		[VFIT_NET_DROP_LENGTH] = "frame length",
		[VFIT_NET_DROP_MAC] = "not our MAC",
		[VFIT_NET_DROP_ETHERTYPE] = "ethertype",
		[VFIT_NET_DROP_ARP] = "ARP header",
		[VFIT_NET_DROP_IP_HEADER] = "IPv4 header",
		[VFIT_NET_DROP_IP_CHECKSUM] = "IPv4 checksum",
		[VFIT_NET_DROP_IP_FRAGMENT] = "IPv4 fragment",
		[VFIT_NET_DROP_IP_ADDRESS] = "IPv4 address",
		[VFIT_NET_DROP_IP_PROTOCOL] = "not UDP",
		[VFIT_NET_DROP_UDP_LENGTH] = "UDP length",
		[VFIT_NET_DROP_UDP_CHECKSUM] = "UDP checksum",
		[VFIT_NET_DROP_PORT] = "UDP port",
		[VFIT_NET_DROP_DHCP] = "DHCP header",
		[VFIT_NET_DROP_DHCP_XID] = "DHCP transaction",
		[VFIT_NET_DROP_DHCP_OPTION] = "DHCP option",
		[VFIT_NET_DROP_TFTP] = "TFTP packet",
		[VFIT_NET_DROP_TFTP_TID] = "TFTP transfer id",
		[VFIT_NET_DROP_TFTP_BLOCK] = "TFTP block number",
		[VFIT_NET_DROP_UNEXPECTED] = "unexpected",
	};

	return d < VFIT_NET_DROPS ? names[d] : "unknown drop";
}
