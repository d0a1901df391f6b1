/* SPDX-License-Identifier: BSD-3-Clause */
/* virtio block device on QEMU virt's virtio-mmio transports (legacy v1 or v2, virtio.h). */
#ifndef PORT_VIRTIO_BLK_H
#define PORT_VIRTIO_BLK_H

#include <stddef.h>
#include <stdint.h>

/* 0: found and initialised, capacity in 512-byte sectors; -1: no usable disk. */
int vblk_init(uint64_t *sectors);

/* Reads/writes n sectors at lba to/from RAM at buf; 0 or -1 on a device error. */
int vblk_read(uint64_t lba, void *buf, uint64_t n);
int vblk_write(uint64_t lba, const void *buf, uint64_t n);
/* Resets the device (also after a request it did not complete as asked: reads fail since). */
void vblk_stop(void);

#endif
