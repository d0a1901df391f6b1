/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The virtio-mmio transport of QEMU virt (virtio 1.2 §4.2, and the legacy
 * interface of §4.2.4 that QEMU 7.2 offers by default), shared by the
 * block and network drivers: device discovery, feature negotiation, split
 * virtqueues of VQ_SIZE entries in the legacy layout (which version 2
 * takes too, by addresses), notification and the interrupt.
 */
#ifndef PORT_VIRTIO_H
#define PORT_VIRTIO_H

#include <stddef.h>
#include <stdint.h>

#define VQ_SIZE 32u
#define VQ_PAGE 4096u

/* Descriptor flags; the available ring's "no interrupt" flag; the used ring's "no notify". */
#define VQ_D_NEXT 1u
#define VQ_D_WRITE 2u
#define VQ_AVAIL_NO_INTERRUPT 1u
#define VQ_USED_NO_NOTIFY 1u

struct vq_desc {
	uint64_t addr;
	uint32_t len;
	uint16_t flags, next;
};

/* Legacy layout: descriptors and available ring in the first page, the used ring page-aligned after. */
struct vq {
	struct vq_desc d[VQ_SIZE];
	uint16_t avail_flags, avail_idx, avail_ring[VQ_SIZE], used_event;
	uint8_t pad[VQ_PAGE - VQ_SIZE * sizeof(struct vq_desc) - (3 + VQ_SIZE) * 2];
	uint16_t used_flags, used_idx;
	struct {
		uint32_t id, len;
	} used_ring[VQ_SIZE];
	uint16_t avail_event;
} __attribute__((aligned(VQ_PAGE)));

struct virtio_dev {
	uintptr_t base;
	uint32_t version;        /* 1: legacy, 2: virtio 1.x */
	uint32_t features;       /* the device's low 32 feature bits that the driver took */
	unsigned int intid;      /* the GIC interrupt of its transport */
};

/*
 * The first transport holding device `id` (1 network, 2 block): reset,
 * ACKNOWLEDGE and DRIVER, features negotiated (of the low 32 bits only
 * `want`, and VERSION_1 on version 2).  0, or -1 when there is none.
 */
int virtio_find(uint32_t id, uint32_t want, struct virtio_dev *d);
/* Queue `index` on q (VQ_SIZE entries); 0, or -1 when the device offers fewer. */
int virtio_queue(const struct virtio_dev *d, unsigned int index, struct vq *q);
/* DRIVER_OK (the device starts), and its interrupt wakes the CPU from WFI. */
void virtio_ready(const struct virtio_dev *d);
/* Marks the device failed; resets it (it stops using the driver's memory, its interrupt drops). */
void virtio_fail(const struct virtio_dev *d);
void virtio_reset(const struct virtio_dev *d);
/* Tells the device that queue `index` has new buffers (unless it said it needs no telling). */
void virtio_notify(const struct virtio_dev *d, unsigned int index);
/* Publishes descriptor head `id` in q's available ring and tells the device about queue `index`. */
void virtio_post(const struct virtio_dev *d, unsigned int index, struct vq *q, uint16_t id);
/* Acknowledges the device's interrupt (level-triggered until then). */
void virtio_irq_ack(const struct virtio_dev *d);
/* The 32-bit word at byte off of the device's configuration space. */
uint32_t virtio_config(const struct virtio_dev *d, uint32_t off);

#endif
