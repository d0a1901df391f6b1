/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The registry of vfit audit's finding classes (their stable ids, names
 * and default fixes, indexed by enum vfit_audit_class, so a class that
 * does not exist does not compile) and the findings of one run.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vfit-host/audit.h"

static const struct {
	const char *name, *fix;
} classes[VFIT_VA_END] = {
	[VFIT_VA_WEAK_HASH_ONLY] = { "weak-hash-only", "add a sha256 hash node (hash-2 { algo = \"sha256\"; }) or change algo to sha256" },
	[VFIT_VA_UNSIGNED_CONFIG] = { "unsigned-config", "add signature-1 { algo = \"sha256,rsa2048\"; key-name-hint = ...; } to the configuration and sign with -k and -K -r" },
	[VFIT_VA_IMAGE_SIG_ONLY] = { "image-sig-only", "sign the configuration instead: image signatures cover payload bytes only" },
	[VFIT_VA_NO_REQUIRED_KEY] = { "no-required-key", "mark the key required: mkimage -K control.dtb -r (required = \"conf\")" },
	[VFIT_VA_REQUIRED_SAYS_NOTHING] = { "required-says-nothing", "set exactly required = \"conf\" (or \"image\") and required-mode = \"any\" or \"all\"" },
	[VFIT_VA_HASHED_NODES_GAP] = { "hashed-nodes-gap", "sign again with vfit mkimage, or list every image property in sign-images" },
	[VFIT_VA_UNIT_ADDRESS] = { "unit-address", "rename the node without '@' (U-Boot refuses unit addresses in signed FITs)" },
	[VFIT_VA_RSA_KEY_SMALL] = { "rsa-key-small", "use a key of at least 2048 bits (vfit keygen -a rsa3072)" },
	[VFIT_VA_SHA1] = { "sha1", "use sha256 (algo = \"sha256,rsa2048\" / hash algo = \"sha256\")" },
	[VFIT_VA_KEY_NOT_IN_CONTROL] = { "key-not-in-control", "add the key to the control DTB (mkimage -K control.dtb -r) or fix key-name-hint" },
	[VFIT_VA_DEFAULT_WEAKER] = { "default-weaker", "point default at the best-protected configuration, or sign the default like the others" },
	[VFIT_VA_UNREFERENCED_IMAGE] = { "unreferenced-image", "remove the image or reference it from a signed configuration" },
	[VFIT_VA_LOAD_OVERLAP] = { "load-overlap", "give each image of a configuration its own load range" },
	[VFIT_VA_LOAD_LOADER_REGION] = { "load-loader-region", "move the load address out of the loader's region" },
	[VFIT_VA_ENTRY_OUTSIDE_KERNEL] = { "entry-outside-kernel", "set entry inside [load, load + size) of the kernel" },
	[VFIT_VA_REQUIRED_MODE] = { "required-mode", "mark only the production key required, or use required-mode = \"all\"" },
	[VFIT_VA_MIXED_ALGORITHMS] = { "mixed-algorithms", "sign every node with one algorithm, the one the key node's algo names" },
	[VFIT_VA_FUTURE_TIMESTAMP] = { "future-timestamp", "build with a correct clock or SOURCE_DATE_EPOCH" },
	[VFIT_VA_EXTERNAL_UNSIGNED] = { "external-unsigned", "protect every external payload with a sha256 hash under a configuration signature; keep padding zero" },
	[VFIT_VA_DM_VERITY] = { "dm-verity", "sign with a U-Boot that lists dm-verity nodes (2026.10 cycle) and use sha256, a 32-byte salt" },
	[VFIT_VA_ENCRYPTED_IMAGE] = { "encrypted-image", "keep the image under a configuration signature by a required key and its key in the control DTB's /cipher (mkimage -k DIR -K control.dtb writes it)" },
	[VFIT_VA_NO_HASH] = { "no-hash", "add hash-1 { algo = \"sha256\"; } to the image" },
	[VFIT_VA_UNSIGNED_SIGNATURE] = { "unsigned-signature", "sign again with the key at hand (mkimage -F -k DIR); vfit mkimage fails instead of skipping" },
	[VFIT_VA_DEFAULT_REFUSED] = { "default-refused", "sign the default configuration with a key the control DTB holds as required (mkimage -k DIR -K control.dtb -r), or point default at a configuration that boots" },
};

void vfit_audit_add(struct vfit_audit *a, enum vfit_audit_sev sev, enum vfit_audit_class cls,
		    const char *node, const char *prop, const char *fix, const char *fmt, ...)
{
	struct vfit_audit_finding *f;
	va_list ap;

	if (a->nf == a->cap_f) {
		int cap = a->cap_f ? a->cap_f * 2 : 32;
		void *p = realloc(a->f, (size_t)cap * sizeof(*a->f));

		if (!p) {
			a->oom = 1;
			return;
		}
		a->f = p;
		a->cap_f = cap;
	}
	f = &a->f[a->nf++];
	memset(f, 0, sizeof(*f));
	f->sev = sev;
	f->cls = cls;
	snprintf(f->id, sizeof(f->id), "VA%03d", (int)cls);
	f->name = cls > 0 && cls < VFIT_VA_END ? classes[cls].name : "unknown";
	f->fix = fix && *fix ? fix : cls > 0 && cls < VFIT_VA_END ? classes[cls].fix : "";
	f->file = a->file;
	snprintf(f->node, sizeof(f->node), "%s", node ? node : "");
	snprintf(f->prop, sizeof(f->prop), "%s", prop ? prop : "");
	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
}

int vfit_audit_count(const struct vfit_audit *a, enum vfit_audit_sev sev)
{
	int i, n = 0;

	for (i = 0; i < a->nf; i++)
		n += a->f[i].sev >= sev;
	return n;
}

void vfit_audit_free(struct vfit_audit *a)
{
	free(a->conf);
	free(a->img);
	free(a->hash);
	free(a->sig);
	free(a->key);
	free(a->f);
	a->conf = NULL;
	a->img = NULL;
	a->hash = NULL;
	a->sig = NULL;
	a->key = NULL;
	a->f = NULL;
	a->nconf = a->nimg = a->nhash = a->nsig = a->nkey = a->nf = a->cap_f = 0;
}
