/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit disk create|write|counter|update|mark-good|info: the vfit boot disk
 * image (a GPT disk with slots A and B, recovery, state and counters) that
 * a port such as ports/qemu-virt boots from.  Exit: 0 success, 1 bad input,
 * a refused update or a corrupt disk, 2 usage or I/O.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "vfit-host/disk.h"

static const char usage[] =
	"usage: vfit disk create [--slot-size SIZE] [--recovery-size SIZE] DISK\n"
	"       vfit disk write DISK a|b|recovery [FIT...]\n"
	"       vfit disk counter DISK NAME VALUE\n"
	"       vfit disk update --rom DTB [--tpm DEV] DISK FIT...\n"
	"       vfit disk mark-good [--tpm DEV] DISK\n"
	"       vfit disk info DISK\n"
	"  create   new GPT disk: vfit-a, vfit-b (SIZE each, default 64M), vfit-recovery\n"
	"           (default: the slot size), vfit-state, vfit-counters (1M each)\n"
	"  write    replace a chain with FITs, stage 1 first (none: empty it)\n"
	"  counter  set a rollback counter (the factory's tool)\n"
	"  update   as the OS: install FITs into the slot not running, for a trial, by the\n"
	"           boot flow's rules (verified with the ROM keys in DTB, rollback checked)\n"
	"  mark-good  as the OS: ask the device to confirm the slot (or recovery) that booted last\n"
	"  --tpm DEV  with a trust state in the TPM: read it there and ask through the TPM\n"
	"             (DEV: /dev/tpm0, or a directory holding swtpm's data socket)\n"
	"  info     list partitions, chains, state and counters; exit 1 if anything is corrupt\n"
	"SIZE: bytes with an optional K, M or G suffix.\n"
	"Exit status: 0 success, 1 bad input or corrupt disk, 2 usage or I/O error.\n";

static int bad_usage(const char *why)
{
	fprintf(stderr, "vfit: disk: %s\n%s", why, usage);
	return 2;
}

static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || s[0] == '-')
		return -1;
	switch (*end) {
	case 'G': v <<= 10; /* fall through */
	case 'M': v <<= 10; /* fall through */
	case 'K': v <<= 10; end++; break;
	case 0: break;
	default: return -1;
	}
	if (*end || v > (1ull << 40))
		return -1;
	*out = v;
	return 0;
}

static int create(int argc, char **argv, struct vfit_err *e)
{
	uint64_t slot = 64ull << 20, rec = 0;
	int i;

	for (i = 1; i < argc - 1; i += 2) {
		uint64_t *dst = !strcmp(argv[i], "--slot-size") ? &slot :
				!strcmp(argv[i], "--recovery-size") ? &rec : NULL;

		if (!dst)
			break;
		if (parse_size(argv[i + 1], dst))
			return bad_usage("bad size");
	}
	if (i != argc - 1)
		return bad_usage("create takes options and one DISK");
	return vfit_disk_create(argv[i], slot, rec ? rec : slot, e) ? -1 : 0;
}

int cmd_disk(int argc, char **argv)
{
	struct vfit_err e = { 0 };
	char *end;
	uint64_t v;
	int r;

	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage, stdout);
		return 0;
	}
	if (argc < 3)
		return bad_usage("missing command or DISK");
	if (!strcmp(argv[1], "create"))
		r = create(argc - 1, argv + 1, &e);
	else if (!strcmp(argv[1], "write") && argc >= 4)
		r = vfit_disk_write(argv[2], argv[3], argv + 4, (unsigned int)(argc - 4), &e);
	else if (!strcmp(argv[1], "counter") && argc == 5) {
		errno = 0;
		v = strtoull(argv[4], &end, 0);
		if (errno || !*argv[4] || *end || argv[4][0] == '-')
			return bad_usage("bad counter value");
		r = vfit_disk_counter(argv[2], argv[3], v, &e);
	} else if (!strcmp(argv[1], "update") && argc >= 8 && !strcmp(argv[2], "--rom") &&
		   !strcmp(argv[4], "--tpm"))
		r = vfit_disk_update(argv[6], argv[3], argv[5], argv + 7, (unsigned int)(argc - 7),
				     &e);
	else if (!strcmp(argv[1], "update") && argc >= 6 && !strcmp(argv[2], "--rom"))
		r = vfit_disk_update(argv[4], argv[3], NULL, argv + 5, (unsigned int)(argc - 5), &e);
	else if (!strcmp(argv[1], "mark-good") && argc == 5 && !strcmp(argv[2], "--tpm"))
		r = vfit_disk_mark_good(argv[4], argv[3], &e);
	else if (!strcmp(argv[1], "mark-good") && argc == 3)
		r = vfit_disk_mark_good(argv[2], NULL, &e);
	else if (!strcmp(argv[1], "info") && argc == 3)
		r = vfit_disk_info(stdout, argv[2], &e);
	else
		return bad_usage("unknown command or wrong arguments");
	if (r == 2)
		return 2;
	return r ? vfit_err_print(&e, "disk") : 0;
}
