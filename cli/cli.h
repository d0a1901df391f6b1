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
int cmd_preload_check_sign(int argc, char **argv);

#endif
