/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit: one binary, one subcommand per file.  Run under a name ending in
 * "mkimage" (mkimage, uboot-mkimage as Yocto names U-Boot's, or
 * aarch64-linux-gnu-mkimage as Linux's scripts/mkuboot.sh looks for it)
 * it is `vfit mkimage`.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
} cmds[] = {
	{ "mkimage", cmd_mkimage, "U-Boot mkimage: build and sign FITs, legacy images, scripts" },
	{ "keygen", cmd_keygen, "make a key pair: -a rsa2048|rsa3072|rsa4096|ecdsa256|ecdsa384 -k DIR -n NAME" },
	{ "info", cmd_info, "list a FIT (with signature status) or a legacy image" },
	{ "verify", cmd_verify, "verify a FIT against a control DTB: -f FIT -k DTB [-c CONF]" },
	{ "boot", cmd_boot, "boot-flow simulator: --device DIR [boot|mark-good|update FIT|init|status]" },
	{ "disk", cmd_disk, "boot disk image: create|write|counter|info (GPT, slots, state, counters)" },
	{ "preload", cmd_preload, "pre-load signature header: -k KEY.pem [-a ALGO] [-p PAD] [-K DTB] IMAGE OUT" },
	{ "preload_check_sign", cmd_preload_check_sign, "check a pre-load header: -f FILE -k KEY.pem [-a ALGO] [-p PAD]" },
};

static int usage(FILE *f, int status)
{
	size_t i;

	fprintf(f, "usage: vfit COMMAND [ARGS]   (vfit COMMAND --help for details)\n\n");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "\nexit status: 0 success, 1 verification failed or bad input, 2 usage or I/O error\n");
	return status;
}

int main(int argc, char **argv)
{
	const char *self = strrchr(argv[0], '/');
	size_t i;

	self = self ? self + 1 : argv[0];
	if (strlen(self) >= 7 && !strcmp(self + strlen(self) - 7, "mkimage"))
		return cmd_mkimage(argc, argv);
	if (argc < 2)
		return usage(stderr, 2);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))
		return usage(stdout, 0);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("vfit %s\n", VFIT_VERSION);
		return 0;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].run(argc - 1, argv + 1);
	fprintf(stderr, "vfit: unknown command '%s'\n", argv[1]);
	return usage(stderr, 2);
}
