/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef PORT_STORAGE_H
#define PORT_STORAGE_H

/* Finds the virtio disk and its vfit partitions; NULL or why it failed. */
const char *storage_init(void);
/* Resets the disk: no request of the stage's is left for it. */
void storage_stop(void);

#endif
