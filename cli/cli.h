/* SPDX-License-Identifier: BSD-3-Clause */
/* Subcommands of the vfit binary; each returns the process exit status. */
#ifndef VFIT_CLI_H
#define VFIT_CLI_H

#include <stdbool.h>

#include "vfit-host/host.h"

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

/* ---- failures, options, version (cli/fail.c) ---- */

/*
 * A failure: the one line "vfit: MESSAGE" on stderr and, with json, the
 * object {"error":{"status":STATUS,"message":"vfit: MESSAGE"}} on stdout
 * (vfit_json_error()), so a --json run never fails with stdout empty.
 * Returns status.
 */
int cli_fail(bool json, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A host error as a failure: "vfit: [CMD: ]MSG" with its status (2 if it has none). */
int cli_err(bool json, const char *cmd, const struct vfit_err *e);
/* Whether --json is among the options (before "--"): known before they are parsed. */
bool cli_json(int argc, char *const argv[]);
/*
 * The failure of getopt_long() run with opterr = 0 and a leading ':' in
 * the option string: "vfit: CMD: unknown option -x" (or --name), "...: -x
 * needs a value", "...: --name takes no value".  Returns 2.
 */
int cli_bad_option(bool json, const char *cmd, int opt, char *const argv[]);
/* -V, --version: "TOOL version vfit X.Y.Z" (U-Boot's form), or "vfit X.Y.Z" for tool NULL. */
int cli_version(const char *tool);

#endif
