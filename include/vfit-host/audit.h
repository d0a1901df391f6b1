/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit audit: what a FIT's signatures really protect, and whether it boots.
 * A model of the FIT (configurations, images, hash and signature nodes,
 * the control DTB's keys), verdicts per configuration for vfit (its real
 * verifier), U-Boot HEAD and U-Boot 2023.01 (their rules, fit-format.md
 * §3.3, §6, §12), and findings with stable identifiers.  Host only.
 */
#ifndef VFIT_HOST_AUDIT_H
#define VFIT_HOST_AUDIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vfit-host/err.h"

enum vfit_audit_sev {
	VFIT_AUDIT_INFO = 0,
	VFIT_AUDIT_WARNING,
	VFIT_AUDIT_ERROR,
};

/*
 * The finding classes: the number is the stable id (VA001 ...), never
 * reused for another class, so CI can match on it; the registry
 * (host/audit/audit_registry.c) holds each one's name and default fix.
 */
enum vfit_audit_class {
	VFIT_VA_WEAK_HASH_ONLY = 1,     /* VA001 weak-hash-only */
	VFIT_VA_UNSIGNED_CONFIG,        /* VA002 unsigned-config */
	VFIT_VA_IMAGE_SIG_ONLY,         /* VA003 image-sig-only */
	VFIT_VA_NO_REQUIRED_KEY,        /* VA004 no-required-key */
	VFIT_VA_REQUIRED_SAYS_NOTHING,  /* VA005 required-says-nothing */
	VFIT_VA_HASHED_NODES_GAP,       /* VA006 hashed-nodes-gap */
	VFIT_VA_UNIT_ADDRESS,           /* VA007 unit-address */
	VFIT_VA_RSA_KEY_SMALL,          /* VA008 rsa-key-small */
	VFIT_VA_SHA1,                   /* VA009 sha1 */
	VFIT_VA_KEY_NOT_IN_CONTROL,     /* VA010 key-not-in-control */
	VFIT_VA_DEFAULT_WEAKER,         /* VA011 default-weaker */
	VFIT_VA_UNREFERENCED_IMAGE,     /* VA012 unreferenced-image */
	VFIT_VA_LOAD_OVERLAP,           /* VA013 load-overlap */
	VFIT_VA_LOAD_LOADER_REGION,     /* VA014 load-loader-region */
	VFIT_VA_ENTRY_OUTSIDE_KERNEL,   /* VA015 entry-outside-kernel */
	VFIT_VA_REQUIRED_MODE,          /* VA016 required-mode */
	VFIT_VA_MIXED_ALGORITHMS,       /* VA017 mixed-algorithms */
	VFIT_VA_FUTURE_TIMESTAMP,       /* VA018 future-timestamp */
	VFIT_VA_EXTERNAL_UNSIGNED,      /* VA019 external-unsigned */
	VFIT_VA_DM_VERITY,              /* VA020 dm-verity */
	VFIT_VA_ENCRYPTED_IMAGE,        /* VA021 encrypted-image */
	VFIT_VA_NO_HASH,                /* VA022 no-hash */
	VFIT_VA_UNSIGNED_SIGNATURE,     /* VA023 unsigned-signature */
	VFIT_VA_DEFAULT_REFUSED,        /* VA024 default-refused */
	VFIT_VA_END
};

/* One finding: severity, stable id (VAnnn) and name, where, what, the fix. */
struct vfit_audit_finding {
	enum vfit_audit_sev sev;
	enum vfit_audit_class cls;
	char id[8];                 /* "VA001": the class number */
	const char *name;           /* "weak-hash-only" */
	const char *file;           /* the FIT or the .its it came from */
	char node[256];
	char prop[64];              /* "" when the finding is about the whole node */
	char msg[320];
	const char *fix;
};

/* How well a relation is protected, strongest first: the SVG's edge colours. */
enum vfit_audit_prot {
	VFIT_PROT_REQUIRED = 0,     /* a signature a required key verifies */
	VFIT_PROT_OPTIONAL,         /* a signature by a key that is not required (or absent) */
	VFIT_PROT_HASH,             /* a hash only: integrity, not authenticity */
	VFIT_PROT_NONE,             /* nothing: the attacker's */
};

enum vfit_audit_verifier {
	VFIT_AUDIT_VFIT = 0,
	VFIT_AUDIT_HEAD,
	VFIT_AUDIT_2023,
	/*
	 * Debian 12's U-Boot build (u-boot-qemu 2023.01+dfsg-2+deb12u3): the
	 * CVE-2026-46728 fix backported (HEAD's node list), RSA PKCS#1 v1.5
	 * only on the device (no PSS, no ECDSA), no external-data bounds.
	 */
	VFIT_AUDIT_DEBIAN,
	VFIT_AUDIT_NVERIFIERS,
};

struct vfit_audit_key {
	char name[80];              /* key node name: key-dev, or dev for ECDSA */
	char hint[64];              /* key-name-hint, else the name without key- */
	char algo[32];
	unsigned int bits;          /* RSA modulus / ECDSA curve bits, 0 if unknown */
	int required;               /* enum vfit_required */
	int node;                   /* offset in the control DTB */
	int used;                   /* a signature of the FIT names it */
};

struct vfit_audit_sig {
	char path[256];
	char algo[32];
	char hint[64];
	int node;
	int conf;                   /* 1: configuration signature, 0: image signature */
	int owner;                  /* index of its configuration or image */
	int key;                    /* index of the key it names (key-name-hint), or -1 */
	int has_value;
	enum vfit_audit_prot prot;  /* what vfit's check of it found (VFIT_PROT_NONE: no value) */
};

struct vfit_audit_hash {
	char path[256];
	char algo[16];
	int image;
	int weak;                   /* crc16-ccitt, crc32, md5: forgeable */
};

struct vfit_audit_image {
	char name[128];
	char type[32];
	int node;
	int refs;                   /* configurations referencing it */
	int external;               /* data-offset / data-position */
	int cipher, verity;
	uint64_t load, entry;
	int has_load, has_entry;
	uint32_t size;              /* stored payload bytes */
	enum vfit_audit_prot prot;  /* of its load/entry/type: the best configuration signature */
};

#define VFIT_AUDIT_MAX_REFS 32

struct vfit_audit_verdict {
	int accept;
	char why[200];
};

struct vfit_audit_conf {
	char name[128];
	int node;
	int is_default;
	unsigned int nref;
	int ref[VFIT_AUDIT_MAX_REFS];         /* image indexes */
	const char *ref_prop[VFIT_AUDIT_MAX_REFS];
	enum vfit_audit_prot prot;            /* its own signature */
	struct vfit_audit_verdict verdict[VFIT_AUDIT_NVERIFIERS];
};

struct vfit_audit {
	const char *file;           /* the FIT (or .its) */
	const char *ctl_file;       /* control DTB, NULL without -k */
	int from_its;               /* a compiled .its: nothing hashed or signed yet */
	int have_verdicts;
	char default_conf[128];
	/* vfit's verdict on what the device boots: the default configuration (have_verdicts) */
	struct vfit_audit_verdict default_verdict;
	uint64_t now;               /* for timestamps in the future */
	/* a typical loader region the loads must not touch (--loader) */
	uint64_t loader_addr, loader_size;
	struct vfit_audit_conf *conf;
	int nconf;
	struct vfit_audit_image *img;
	int nimg;
	struct vfit_audit_hash *hash;
	int nhash;
	struct vfit_audit_sig *sig;
	int nsig;
	struct vfit_audit_key *key;
	int nkey;
	struct vfit_audit_finding *f;
	int nf;
	int cap_f;
	int oom;                    /* a finding could not be stored: the run fails */
};

/*
 * Audits the FIT in fit[0..len) (from file; from_its: a compiled .its)
 * against the control DTB ctl[0..ctl_len) (ctl NULL: none given).  The
 * model, findings and (for a FIT) the verdicts go into a, which the
 * caller zeroed and sets now/loader_* in first.  0, or -1 with e set when
 * the input is not a device tree at all (status 1) or memory ran out.
 */
int vfit_audit_run(struct vfit_audit *a, const char *file, const void *fit, size_t len,
		   int from_its, const char *ctl_file, const void *ctl, size_t ctl_len,
		   struct vfit_err *e);
/* Compiles an .its with the project's dtc path (as vfit mkimage -f) and audits it. */
int vfit_audit_its(struct vfit_audit *a, const char *its, const char *ctl_file, const void *ctl,
		   size_t ctl_len, struct vfit_err *e);
void vfit_audit_free(struct vfit_audit *a);

/*
 * Adds one finding of class cls (host/audit/audit_registry.c); the text is
 * printf-formatted, fix NULL or "" takes the class's own.
 */
void vfit_audit_add(struct vfit_audit *a, enum vfit_audit_sev sev, enum vfit_audit_class cls,
		    const char *node, const char *prop, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/* Reports (host/audit/audit_report.c): the human table and lines, or one JSON object. */
const char *vfit_audit_sev_name(enum vfit_audit_sev s);
const char *vfit_audit_verifier_name(enum vfit_audit_verifier v);
void vfit_audit_print(FILE *f, const struct vfit_audit *a);
/*
 * The report as one JSON object; a failing run (status non-zero: findings
 * at or above --fail-on) adds the member vfit_json_error() writes, with
 * line, the run's line on stderr.
 */
void vfit_audit_json(FILE *f, const struct vfit_audit *a, int status, const char *line);
/*
 * The picture (host/audit/audit_svg.c): a standalone SVG document.  0, or -1
 * when memory ran out (then f holds no complete picture).
 */
int vfit_audit_svg(FILE *f, const struct vfit_audit *a);
/* The picture written atomically to path (a failure leaves path as it was). */
int vfit_audit_svg_write(const struct vfit_audit *a, const char *path, struct vfit_err *e);
/* Findings at or above sev. */
int vfit_audit_count(const struct vfit_audit *a, enum vfit_audit_sev sev);

#endif
