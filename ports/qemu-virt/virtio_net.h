/* SPDX-License-Identifier: BSD-3-Clause */
/* virtio network device on QEMU virt's virtio-mmio transports (virtio.h), for lib/net. */
#ifndef PORT_VIRTIO_NET_H
#define PORT_VIRTIO_NET_H

#include <stddef.h>
#include <stdint.h>

/* 0: found and started, its MAC address in mac; -1: no usable network device. */
int vnet_init(uint8_t mac[6]);

/* Sends one Ethernet frame (no FCS, 60..1514 bytes); 0 or -1. */
int vnet_send(const uint8_t *frame, size_t len);

/*
 * The next received frame (destination MAC first), valid until the next
 * call; the CPU sleeps in WFI until a frame or the deadline (ns of
 * clock_ns()).  NULL at the deadline.
 */
const uint8_t *vnet_recv(uint64_t deadline, size_t *len);

/* Resets the device: it stops receiving and its interrupt goes quiet. */
void vnet_stop(void);

#endif
