/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mkimage with a FIT (host/mkimage/): compiles or updates it, encrypts,
 * hashes, signs, extracts and writes it atomically.
 */
#ifndef VFIT_HOST_MKIMAGE_H
#define VFIT_HOST_MKIMAGE_H

#include <stdint.h>

#include "vfit-host/err.h"

/* One `mkimage` run; the fields mirror its options (fit-format.md §10). */
struct vfit_mkimage {
	const char *its;          /* -f FILE (NULL with -F or -f auto) */
	int auto_fit;             /* -f auto */
	int update;               /* -F: out is an existing FIT, updated in place */
	const char *out;          /* the FIT written */
	const char *dtc_opts;     /* -D (default "-I dts -O dtb -p 500") */
	const char *keydir;       /* -k */
	const char *keyfile;      /* -G */
	const char *keyname;      /* -g (auto FITs) */
	const char *algo;         /* -o */
	const char *keydest;      /* -K */
	const char *comment;      /* -c */
	const char *engine;       /* -N: OpenSSL engine holding the keys */
	int required;             /* -r */
	int allow_missing_keys;   /* --allow-missing-keys: skip unsigned nodes like mkimage */
	int touch;                /* -t */
	int external;             /* -E */
	uint32_t align;           /* -B (0: mkimage 2023.01's 4) */
	int64_t position;         /* -p (-1: none) */
	/* -f auto */
	const char *arch, *os, *type, *comp, *name;
	uint32_t load, entry;
	const char *datafile;     /* -d */
	const char **dtbs;        /* -b, repeatable */
	int ndtbs;
	const char *initrd;       /* -i */
	int auto_conf;            /* -f auto-conf: signed configurations (needs -g, -o) */
	const char *tfa, *tee;    /* -y, -z: TF-A BL31 and TEE loadables for -f auto */
	uint32_t tfa_addr, tee_addr;  /* -Y, -Z: their load and entry address */
	/* filled in by the run, for mkimage's closing lines */
	char signed_conf[256];
	char key_node[256];
};

/* Builds/updates, hashes, signs, extracts and writes atomically. */
int vfit_mkimage_run(struct vfit_mkimage *m, struct vfit_err *e);

/* The time mkimage stamps (a FIT, a legacy image): SOURCE_DATE_EPOCH (a number) or now. */
int vfit_timestamp(uint32_t *t, struct vfit_err *e);

#endif
