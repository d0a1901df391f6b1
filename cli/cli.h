/* SPDX-License-Identifier: BSD-3-Clause */
/* Subcommands of the vfit binary; each returns the process exit status. */
#ifndef VFIT_CLI_H
#define VFIT_CLI_H

int cmd_mkimage(int argc, char **argv);
int cmd_keygen(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_boot(int argc, char **argv);
int cmd_disk(int argc, char **argv);
int cmd_preload(int argc, char **argv);
int cmd_audit(int argc, char **argv);
/* U-Boot's other host tools, also run when the binary has their name. */
int cmd_dumpimage(int argc, char **argv);
int cmd_mkenvimage(int argc, char **argv);
int cmd_fit_check_sign(int argc, char **argv);
int cmd_fit_info(int argc, char **argv);
int cmd_preload_check_sign(int argc, char **argv);

/*
 * The one line for a getopt() failure (run with opterr = 0 and a leading
 * ':' in the option string): "vfit: CMD: unknown option -x" or "...: -x
 * needs a value".  Returns 2, the usage status.
 */
int cli_bad_option(const char *cmd, int opt);

#endif
