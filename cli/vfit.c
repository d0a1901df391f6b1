/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit: one binary, one subcommand per file.  Under the name of one of
 * U-Boot's host tools it is that tool: a name ending in "mkimage"
 * (mkimage, uboot-mkimage as Yocto names U-Boot's, or
 * aarch64-linux-gnu-mkimage as Linux's scripts/mkuboot.sh looks for it),
 * "dumpimage", "mkenvimage", "fit_check_sign", "fit_info" or
 * "preload_check_sign", with any prefix.  Under a name starting with
 * "vfit" it takes a subcommand; any other name is refused with the list
 * of names it answers to, so a symlink to a tool vfit does not replace
 * fails loudly.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
	{ "boot", cmd_boot, "boot-flow simulator: --device DIR [--trust DIR] [boot|mark-good|update|init|status|provision|dev-mode]" },
	{ "audit", cmd_audit, "what a FIT's signatures protect, will it boot: -f FIT [-k DTB] [--svg OUT]" },
	{ "disk", cmd_disk, "boot disk image: create|write|counter|info|update|mark-good (GPT, slots, state, counters)" },
	{ "preload", cmd_preload, "pre-load signature header: -k KEY.pem [-a ALGO] [-p PAD] [-K DTB] IMAGE OUT" },
	{ "preload_check_sign", cmd_preload_check_sign, "check a pre-load header: -f FILE -k KEY.pem [-a ALGO] [-p PAD] | -K DTB" },
	{ "dumpimage", cmd_dumpimage, "U-Boot dumpimage: -l IMAGE, or -T TYPE -p N -o FILE IMAGE" },
	{ "mkenvimage", cmd_mkenvimage, "U-Boot mkenvimage: -s SIZE [-o OUT] [-r] [-b] [-p BYTE] [FILE|-]" },
	{ "fit_check_sign", cmd_fit_check_sign, "U-Boot fit_check_sign: -f FIT -k DTB [-c CONF]" },
	{ "fit_info", cmd_fit_info, "U-Boot fit_info: -f FIT -n NODE -p PROP" },
};

/* The U-Boot tool names, answered to with any prefix ("uboot-", "aarch64-linux-gnu-"). */
static const char *const tools[] = { "mkimage", "dumpimage", "mkenvimage", "fit_check_sign",
				     "fit_info", "preload_check_sign" };

static int usage(FILE *f, int status)
{
	size_t i;

	fprintf(f, "usage: vfit COMMAND [ARGS]   (vfit help COMMAND for its options)\n\n");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-14s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "  %-14s %s\n", "help", "the options of a command: vfit help COMMAND");
	fprintf(f, "\nexit status: 0 success, 1 verification failed or bad input, 2 usage or I/O error\n");
	return status;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static int is_tool(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (!strcmp(name, tools[i]))
			return 1;
	return 0;
}

/*
 * Runs command name, or returns -1 if there is none.  Alone, -V and
 * --version print the version and -h means --help, under every name.
 */
static int run(const char *name, int argc, char **argv)
{
	char *help[] = { argv[0], "--help", NULL };
	size_t i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(name, cmds[i].name))
			continue;
		if (argc == 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")))
			return cli_version(is_tool(name) ? name : NULL);
		if (argc == 2 && !strcmp(argv[1], "-h"))
			return cmds[i].run(2, help);
		return cmds[i].run(argc, argv);
	}
	return -1;
}

/* vfit help [COMMAND]: the list, or the command's own --help. */
static int help(int argc, char **argv)
{
	char *args[] = { argc > 2 ? argv[2] : NULL, "--help", NULL };
	int r;

	if (argc == 2 || (argc == 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))))
		return usage(stdout, 0);
	if (argc > 3) {
		fprintf(stderr, "vfit: help: one command at a time\n");
		return 2;
	}
	r = run(argv[2], 2, args);
	if (r >= 0)
		return r;
	fprintf(stderr, "vfit: help: unknown command '%s'\n", argv[2]);
	return usage(stderr, 2);
}

int main(int argc, char **argv)
{
	const char *self = argv[0] ? strrchr(argv[0], '/') : NULL;
	size_t i;
	int r;

	self = self ? self + 1 : argv[0] ? argv[0] : "vfit";
	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (ends_with(self, tools[i]))
			return run(tools[i], argc, argv);
	if (strncmp(self, "vfit", 4)) {
		fprintf(stderr, "vfit: called as '%s': this binary answers to vfit, mkimage, dumpimage, "
			"mkenvimage, fit_check_sign, fit_info and preload_check_sign (the tool names with any prefix, "
			"e.g. uboot-mkimage)\n", self);
		return 2;
	}
	if (argc < 2)
		return usage(stderr, 2);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return usage(stdout, 0);
	if (!strcmp(argv[1], "help"))
		return help(argc, argv);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
		return cli_version(NULL);
	r = run(argv[1], argc - 1, argv + 1);
	if (r >= 0)
		return r;
	fprintf(stderr, "vfit: unknown command '%s'\n", argv[1]);
	return usage(stderr, 2);
}
