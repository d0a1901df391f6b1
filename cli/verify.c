/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit verify -f FIT -k CONTROL_DTB [-c CONF] [--json] [--allow-unenforced]
 *             [--decrypt KEY_DTB [-o DIR]]
 *
 * Runs the device library's verifier on the FIT read once (vfit_sparse_open():
 * the tree in memory, big payloads hashed straight from the file through a
 * small buffer, as `openssl dgst` reads; with --decrypt, which needs the
 * payloads in memory, vfit_file_map()) and prints U-Boot's familiar lines,
 * or one JSON object for CI systems.  Exit: 0 verified, 1 rejected, 2 usage
 * or I/O.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <libfdt.h>

#include "cli.h"
#include "vfit/fit.h"
#include "vfit-host/cipher.h"
#include "vfit-host/host.h"

static const char usage[] =
	"usage: vfit verify -f FIT -k CONTROL_DTB [-c CONF] [--json] [--allow-unenforced]\n"
	"                   [--decrypt KEY_DTB [-o DIR]]\n"
	"  -f FIT              FIT image to verify\n"
	"  -k CONTROL_DTB      control device tree holding the public keys (/signature)\n"
	"  -c CONF             configuration to verify (default: /configurations/default)\n"
	"  --json              print one JSON object instead of U-Boot's lines\n"
	"  --allow-unenforced  accept when the control DTB requires no key\n"
	"  --decrypt KEY_DTB   accept encrypted images (cipher nodes) under a configuration\n"
	"                      signature and decrypt them with the keys in KEY_DTB's /cipher\n"
	"  -o DIR              with --decrypt: write each image (plaintext) to DIR/NAME\n"
	"                      (DIR must exist)\n"
	"  -h, --help          this help\n"
	"Exit status: 0 verified, 1 rejected, 2 usage or I/O error.\n";

/* Stable names of the result codes, for --json (index = enum value). */
static const char *const result_names[] = {
	"OK", "UNSUPPORTED", "KEY", "SIG_LENGTH", "SIG_RANGE", "SIGNATURE", "PARAM",
	"FORMAT", "TRUNCATED", "TOO_LARGE", "UNIT_ADDRESS", "LIMIT", "DUPLICATE", "MISSING",
	"NO_CONFIG", "NO_IMAGES", "NO_HASH", "HASH", "HASH_LENGTH", "HASHED_STRINGS",
	"STRINGS_BOUNDS", "DATA", "DATA_BOUNDS", "DATA_OVERLAP", "REQUIRED", "KEY_ALGO",
	"NO_SIGNATURE", "UNENFORCED", "CONTROL", "WEAK_HASH",
};

static const char *result_name(enum vfit_result r)
{
	return (unsigned int)r < sizeof(result_names) / sizeof(result_names[0]) ?
	       result_names[r] : "UNKNOWN";
}

/* What each limit is, in the order of enum vfit_limit, for VFIT_ERR_LIMIT. */
static const struct {
	const char *what, *knob;
	long value;
} limits[] = {
	[VFIT_LIMIT_DEPTH] = { "node nesting levels", "VFIT_MAX_DEPTH", VFIT_MAX_DEPTH },
	[VFIT_LIMIT_PATH] = { "bytes of a node path", "VFIT_PATH_MAX", VFIT_PATH_MAX },
	[VFIT_LIMIT_IMAGES] = { "image references in one configuration", "VFIT_MAX_IMAGES",
				VFIT_MAX_IMAGES },
	[VFIT_LIMIT_CONF_REFS] = { "distinct strings in one configuration", "VFIT_MAX_CONF_REFS",
				   VFIT_MAX_CONF_REFS },
	[VFIT_LIMIT_HASHED_NODES] = { "nodes under one configuration signature",
				      "VFIT_MAX_HASHED_NODES", VFIT_MAX_HASHED_NODES },
	[VFIT_LIMIT_REGIONS] = { "regions per signed node (18 + 7 per node)", NULL, 0 },
	[VFIT_LIMIT_SIGNATURES] = { "signature nodes in one node", "VFIT_MAX_SIGNATURES",
				    VFIT_MAX_SIGNATURES },
	[VFIT_LIMIT_HASHES] = { "hash nodes in one image", "VFIT_MAX_HASHES", VFIT_MAX_HASHES },
	[VFIT_LIMIT_KEYS] = { "required keys", "VFIT_MAX_KEYS", VFIT_MAX_KEYS },
};

/*
 * "more than 16 image references in one configuration (VFIT_MAX_IMAGES;
 * ...)": the limit, its value and the fix.  Limits that are U-Boot's own
 * cannot be raised: a FIT past them does not boot in U-Boot either.
 */
static void put_limit(FILE *f, enum vfit_limit l)
{
	if ((unsigned int)l >= sizeof(limits) / sizeof(limits[0]) || !limits[l].what)
		return;
	if (!limits[l].knob)
		fprintf(f, ": more %s than U-Boot allows", limits[l].what);
	else if (l == VFIT_LIMIT_DEPTH || l == VFIT_LIMIT_PATH || l == VFIT_LIMIT_HASHED_NODES ||
		 l == VFIT_LIMIT_KEYS)
		fprintf(f, ": more than %ld %s (%s, U-Boot's own limit: restructure the FIT)",
			limits[l].value, limits[l].what, limits[l].knob);
	else
		fprintf(f, ": more than %ld %s (%s; rebuild libvfit with -D%s=N to allow more)",
			limits[l].value, limits[l].what, limits[l].knob, limits[l].knob);
}

/* What a verification that enforced nothing did check, counted from the records. */
static void put_unenforced(const struct vfit_verify_result *res)
{
	unsigned int i, hashes = 0, sigs = 0;

	for (i = 0; i < res->nchecks; i++) {
		if (res->check[i].kind == VFIT_CHECK_HASH)
			hashes++;
		else if (!res->check[i].result)
			sigs++;
	}
	printf(" (UNENFORCED: no key is required, authenticity NOT checked; ");
	if (!hashes && !sigs)
		printf("nothing was checked: no hash node, no signature)");
	else
		printf("integrity only: %u hash%s, %u optional signature%s verified)", hashes,
		       hashes == 1 ? "" : "es", sigs, sigs == 1 ? "" : "s");
}

struct map {
	const char *path;
	const void *p;
	size_t len;
};

static const char *node_path(const void *fdt, int node, char *buf, int size)
{
	if (node < 0 || fdt_get_path(fdt, node, buf, size))
		buf[0] = 0;
	return buf;
}

static void put_checks(const struct vfit_verify_result *res, enum vfit_check_kind kind,
		       const char *image)
{
	const struct vfit_check *k;
	unsigned int i;

	for (i = 0; i < res->nchecks; i++) {
		k = &res->check[i];
		if (k->kind == VFIT_CHECK_HASH && kind == VFIT_CHECK_IMAGE_SIG)
			; /* image lines show image signatures and hashes */
		else if (k->kind != kind)
			continue;
		if (image && (!k->image || strcmp(k->image, image)))
			continue;
		if (k->kind == VFIT_CHECK_HASH)
			printf("%s%c ", k->algo ? k->algo : "?", k->result ? '-' : '+');
		else if (!k->algo)
			printf("%c ", k->result ? '-' : '+');
		else
			printf("%s:%s%c ", k->algo, k->key_name ? k->key_name : "",
			       k->result ? '-' : '+');
	}
}

/* U-Boot's line for the required key that verified nothing. */
static void put_failed_key(const struct vfit_verify_result *res, const void *ctl)
{
	if (res->err_key >= 0)
		printf("Failed to verify required signature '%s'\n",
		       fdt_get_name(ctl, res->err_key, NULL));
}

/* Whether the error happened in this image (or in one of its subnodes). */
static bool failed_in(const struct vfit_verify_result *res, const char *image, const void *fit)
{
	char path[VFIT_PATH_MAX];
	size_t n;

	if (res->in_control || res->err_node < 0 || !image)
		return false;
	node_path(fit, res->err_node, path, sizeof(path));
	n = strlen("/images/");
	return !strncmp(path, "/images/", n) && !strncmp(path + n, image, strlen(image)) &&
	       (path[n + strlen(image)] == 0 || path[n + strlen(image)] == '/');
}

/* U-Boot's lines: one for the configuration, one per image checked. */
static void print_lines(const struct vfit_verify_result *res, const void *fit,
			const void *ctl)
{
	bool conf_failed, has_conf = false;
	unsigned int i, j;

	for (i = 0; i < res->nchecks; i++)
		if (res->check[i].kind == VFIT_CHECK_CONF_SIG)
			has_conf = true;
	conf_failed = res->result && !res->in_control && res->err_node >= 0 &&
		      res->conf_node >= 0 && (res->err_node == res->conf_node ||
		      fdt_parent_offset(fit, res->err_node) == res->conf_node);
	if (has_conf || conf_failed || (!res->result && !res->unenforced)) {
		printf("   Verifying Hash Integrity ... ");
		put_checks(res, VFIT_CHECK_CONF_SIG, NULL);
		if (!conf_failed) {
			printf("OK\n");
		} else {
			printf("error!\n%s for '%s' config node\n",
			       res->result == VFIT_ERR_NO_SIGNATURE ? "No 'signature' subnode found" :
			       "Verification failed", res->conf);
			put_failed_key(res, ctl);
		}
	}
	for (i = 0; i < res->nchecks; i++) {
		const char *image = res->check[i].image;
		bool seen = false;

		if (!image)
			continue;
		for (j = 0; j < i; j++)
			if (res->check[j].image && !strcmp(res->check[j].image, image))
				seen = true;
		if (seen)
			continue;
		printf("   Verifying Hash Integrity ... ");
		put_checks(res, VFIT_CHECK_IMAGE_SIG, image);
		if (failed_in(res, image, fit)) {
			printf("error!\n");
			if (res->result == VFIT_ERR_HASH)
				printf("Bad hash value for '%s' hash node in '%s' image node\n",
				       fdt_get_name(fit, res->err_node, NULL), image);
			else if (res->result == VFIT_ERR_REQUIRED)
				put_failed_key(res, ctl);
			else
				printf("%s in '%s' image node\n", vfit_result_to_string(res->result),
				       image);
		} else {
			printf("OK\n");
		}
	}
}

/* The result as one JSON object; a failure (status, its stderr line) adds "error". */
static void print_json(const struct vfit_verify_result *res, const char *file,
		       const void *fit, const void *ctl, int status, const char *line)
{
	char path[VFIT_PATH_MAX];
	unsigned int i;

	printf("{\"file\":");
	vfit_json_str(stdout, file);
	printf(",\"verified\":%s,\"code\":%d,\"result\":\"%s\",\"reason\":",
	       res->result ? "false" : "true", (int)res->result, result_name(res->result));
	vfit_json_str(stdout, vfit_result_to_string(res->result));
	printf(",\"where\":{\"in_control\":%s,\"path\":", res->in_control ? "true" : "false");
	vfit_json_str(stdout, res->result && res->err_node >= 0 ? res->err_path : NULL);
	printf(",\"property\":");
	vfit_json_str(stdout, res->err_prop);
	printf(",\"limit\":");
	vfit_json_str(stdout, res->result == VFIT_ERR_LIMIT && res->err_limit ?
		      limits[res->err_limit].knob : NULL);
	printf(",\"failed_key\":");
	vfit_json_str(stdout, res->err_key >= 0 ?
		      node_path(ctl, res->err_key, path, sizeof(path)) : NULL);
	printf("},\"configuration\":");
	vfit_json_str(stdout, res->conf);
	printf(",\"unenforced\":%s,\"checks\":[", res->unenforced ? "true" : "false");
	for (i = 0; i < res->nchecks; i++) {
		const struct vfit_check *k = &res->check[i];
		static const char *const kinds[] = { "", "conf-signature", "image-signature", "hash" };

		printf("%s{\"kind\":\"%s\",\"node\":", i ? "," : "", kinds[k->kind]);
		vfit_json_str(stdout, node_path(fit, k->node, path, sizeof(path)));
		printf(",\"image\":");
		vfit_json_str(stdout, k->image);
		printf(",\"algo\":");
		vfit_json_str(stdout, k->algo);
		printf(",\"key\":");
		vfit_json_str(stdout, k->key_node >= 0 ?
			      node_path(ctl, k->key_node, path, sizeof(path)) : NULL);
		printf(",\"key_name\":");
		vfit_json_str(stdout, k->key_name);
		printf(",\"required\":%s,\"ok\":%s,\"result\":\"%s\"}", k->required ? "true" : "false",
		       k->result ? "false" : "true", result_name(k->result));
	}
	printf("],\"images\":[");
	for (i = 0; i < res->nimages; i++) {
		const struct vfit_image *img = &res->image[i];

		printf("%s{\"name\":", i ? "," : "");
		vfit_json_str(stdout, img->name);
		printf(",\"property\":");
		vfit_json_str(stdout, img->prop);
		printf(",\"index\":%u,\"type\":", img->index);
		vfit_json_str(stdout, img->type);
		printf(",\"os\":");
		vfit_json_str(stdout, img->os);
		printf(",\"arch\":");
		vfit_json_str(stdout, img->arch);
		printf(",\"compression\":");
		vfit_json_str(stdout, img->compression);
		printf(",\"external\":%s,\"offset\":%zu,\"size\":%zu", img->external ? "true" : "false",
		       img->offset, img->size);
		if (img->has_load)
			printf(",\"load\":%" PRIu64, img->load);
		if (img->has_entry)
			printf(",\"entry\":%" PRIu64, img->entry);
		putchar('}');
	}
	putchar(']');
	if (status) {
		putchar(',');
		vfit_json_error(stdout, status, line);
	}
	printf("}\n");
}

/*
 * The one line for a rejection: file, node, property, reason, and what to
 * do where vfit knows (the image a sign-images list left out, the
 * configuration that is not there, an encrypted image, a limit).
 */
static void reject_line(FILE *f, const struct vfit_verify_result *res, const char *fit_path,
			const char *ctl_path, const void *fit, size_t len, const char *conf)
{
	char img[128], prop[64];

	fprintf(f, "vfit: %s: ", res->in_control ? ctl_path : fit_path);
	/* A signature made by mkimage's sign-images rule: say which image it left out. */
	if (res->result == VFIT_ERR_REQUIRED && !res->in_control && res->err_path[0] &&
	    vfit_fit_sign_gap(fit, len, res->err_path, img, sizeof(img), prop, sizeof(prop))) {
		fprintf(f, "%s: does not cover image '%s' (%s), which U-Boot HEAD and vfit check: "
			"sign again with vfit mkimage, or add \"%s\" to sign-images", res->err_path,
			img, prop, prop);
		return;
	}
	if (res->result == VFIT_ERR_NO_CONFIG && (conf || res->conf)) {
		fprintf(f, "/configurations/%s: no such configuration%s", conf ? conf : res->conf,
			conf ? "" : " (the default names it)");
		return;
	}
	if (res->err_path[0])
		fprintf(f, "%s: ", res->err_path);
	if (res->err_prop)
		fprintf(f, "%s: ", res->err_prop);
	fprintf(f, "%s", vfit_result_to_string(res->result));
	if (res->result == VFIT_ERR_UNSUPPORTED && strstr(res->err_path, "/cipher"))
		fprintf(f, " (an encrypted image: --decrypt KEY_DTB accepts it under a "
			"configuration signature by a required key)");
	if (res->result == VFIT_ERR_LIMIT)
		put_limit(f, res->err_limit);
}

/* U-Boot's lines and the summary line, for people. */
static void print_text(const struct vfit_verify_result *res, const void *fit, const void *ctl)
{
	print_lines(res, fit, ctl);
	if (res->result) {
		printf("Rejected: %s\n", vfit_result_to_string(res->result));
		return;
	}
	printf("Verified configuration '%s': %u image%s", res->conf, res->nimages,
	       res->nimages == 1 ? "" : "s");
	if (res->unenforced)
		put_unenforced(res);
	putchar('\n');
}

/* What is wrong with the arguments, or NULL. */
static const char *misuse(const struct map *fit, const struct map *ctl, const char *outdir,
			  const char *keydtb, int rest)
{
	return !fit->path ? "-f FIT is needed" : !ctl->path ? "-k CONTROL_DTB is needed" :
	       rest ? "arguments after the options are not used" :
	       outdir && !keydtb ? "-o DIR goes with --decrypt KEY_DTB" : NULL;
}

/* The FIT read (sparse unless its payloads are to be decrypted) and the control DTB. */
static int load(struct map *fit, struct map *ctl, bool whole, struct vfit_sparse **sp,
		struct vfit_err *e)
{
	if ((whole ? vfit_file_map(fit->path, &fit->p, &fit->len, e) :
		     vfit_sparse_open(fit->path, sp, &fit->p, &fit->len, e)) ||
	    vfit_file_map(ctl->path, &ctl->p, &ctl->len, e)) {
		if (whole)
			vfit_file_unmap(fit->p, fit->len);
		vfit_sparse_close(*sp);
		return -1;
	}
	return 0;
}

int cmd_verify(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "allow-unenforced", no_argument, NULL, 'U' },
		{ "decrypt", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* A few KiB: kept off the stack, as a bootloader would. */
	static struct vfit_verify_result result;
	struct vfit_verify_result *res = &result;
	struct map fit = { 0 }, ctl = { 0 };
	struct vfit_sparse *sp = NULL;
	struct vfit_err e = { 0 };
	const char *conf = NULL, *keydtb = NULL, *outdir = NULL, *why;
	/* Known before the options are read, so that a usage error is JSON too. */
	bool json = cli_json(argc, argv);
	unsigned int flags = 0;
	char line[1024];
	FILE *lf;
	int opt, status;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":f:k:c:o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f': fit.path = optarg; break;
		case 'k': ctl.path = optarg; break;
		case 'c': conf = optarg; break;
		case 'J': break;
		case 'U': flags |= VFIT_VERIFY_ALLOW_UNENFORCED; break;
		case 'D': keydtb = optarg; flags |= VFIT_VERIFY_ALLOW_CIPHER; break;
		case 'o': outdir = optarg; break;
		case 'h': fputs(usage, stdout); return 0;
		default:
			opt = cli_bad_option(json, "verify", opt, argv);
			fputs(usage, stderr);
			return opt;
		}
	}
	why = misuse(&fit, &ctl, outdir, keydtb, argc - optind);
	if (why) {
		status = cli_fail(json, 2, "verify: %s", why);
		fputs(usage, stderr);
		return status;
	}
	if (load(&fit, &ctl, keydtb != NULL, &sp, &e))
		return cli_err(json, NULL, &e);
	/* An empty file is still a (zero-length) buffer for the verifier. */
	if (sp && vfit_sparse_verify(sp, ctl.p ? ctl.p : "", ctl.len, conf, flags, res, &e)) {
		vfit_sparse_close(sp);
		vfit_file_unmap(ctl.p, ctl.len);
		return cli_err(json, NULL, &e);
	}
	if (!sp)
		res->result = vfit_verify(fit.p ? fit.p : "", fit.len, ctl.p ? ctl.p : "", ctl.len,
					  conf, flags, res);
	status = res->result ? VFIT_EXIT_REJECT : 0;
	line[0] = 0;
	lf = status ? fmemopen(line, sizeof(line), "w") : NULL;
	if (lf) {
		reject_line(lf, res, fit.path, ctl.path, fit.p, fit.len, conf);
		fclose(lf);
	} else if (status) {
		snprintf(line, sizeof(line), "vfit: %s: %s", fit.path,
			 vfit_result_to_string(res->result));
	}
	if (!json)
		print_text(res, fit.p, ctl.p);
	/* After everything verified: the ciphertext that was checked is decrypted. */
	if (!status && keydtb && vfit_decrypt_images(json ? stderr : stdout, res, fit.p, keydtb,
						      outdir, &e)) {
		status = e.status ? e.status : VFIT_EXIT_USAGE;
		snprintf(line, sizeof(line), "vfit: %s", e.msg);
	}
	if (json)
		print_json(res, fit.path, fit.p, ctl.p, status, line);
	if (status) {
		/* stdout is block-buffered when piped: flush it so a log that
		 * merges both streams shows the reason after the lines above. */
		fflush(stdout);
		fprintf(stderr, "%s\n", line);
	}
	if (sp)
		vfit_sparse_close(sp);
	else
		vfit_file_unmap(fit.p, fit.len);
	vfit_file_unmap(ctl.p, ctl.len);
	return status;
}
