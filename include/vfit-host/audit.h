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

#include "vfit-host/host.h"

enum vfit_audit_sev {
	VFIT_AUDIT_INFO = 0,
	VFIT_AUDIT_WARNING,
	VFIT_AUDIT_ERROR,
};

/* One finding: severity, stable id (VAnnn) and name, where, what, the fix. */
struct vfit_audit_finding {
	enum vfit_audit_sev sev;
	const char *id;             /* "VA001": never reused for another class */
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

/* Adds one finding (host/audit.c); the text is printf-formatted. */
void vfit_audit_add(struct vfit_audit *a, enum vfit_audit_sev sev, const char *id,
		    const char *node, const char *prop, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/* The verdicts of every configuration (host/audit_verdict.c). */
void vfit_audit_verdicts(struct vfit_audit *a, const void *fit, size_t len, const void *ctl,
			 size_t ctl_len);

/* Reports (host/audit_report.c): the human table and lines, or one JSON object. */
const char *vfit_audit_sev_name(enum vfit_audit_sev s);
const char *vfit_audit_verifier_name(enum vfit_audit_verifier v);
void vfit_audit_print(FILE *f, const struct vfit_audit *a);
void vfit_audit_json(FILE *f, const struct vfit_audit *a);
/* The picture (host/audit_svg.c): a standalone SVG document. */
void vfit_audit_svg(FILE *f, const struct vfit_audit *a);
/* The picture written atomically to path (a failure leaves path as it was). */
int vfit_audit_svg_write(const struct vfit_audit *a, const char *path, struct vfit_err *e);
/* Findings at or above sev. */
int vfit_audit_count(const struct vfit_audit *a, enum vfit_audit_sev sev);

#endif
