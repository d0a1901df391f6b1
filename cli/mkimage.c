/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vfit mkimage: U-Boot mkimage's command line (v2023.01 and HEAD), same
 * letters, long options and meanings (numbers in hex, as mkimage reads
 * them).  Also what runs when the binary is called `mkimage`.  Three
 * modes, as in mkimage: -l lists an image, -f/-F build or update a FIT,
 * anything else builds a legacy image (-T kernel by default).  Options a
 * mode does not use are accepted as mkimage accepts them; the ones that
 * look like a mistake get a warning on stderr.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "vfit-host/host.h"

#define OPT_ALLOW_MISSING 256

struct cmd {
	struct vfit_mkimage m;
	struct vfit_legacy l;
	int list, quiet;
	unsigned char seen[128];   /* short options given */
	const char *wide[2];       /* -a, -e values wider than 32 bits (checked per mode) */
};

static int usage(FILE *f, int status)
{
	fprintf(f,
		"usage: vfit mkimage [-D dtc_options] -f fit.its [signing options] fit.itb\n"
		"       vfit mkimage -f auto|auto-conf -A arch -O os -T type -C comp -a addr -e ep\n"
		"                    -n name -d data_file [-b dtb ...] [-i ramdisk]\n"
		"                    [-y bl31 -Y addr] [-z tee -Z addr] fit.itb\n"
		"       vfit mkimage -F [-E] [signing options] fit.itb\n"
		"       vfit mkimage [-x] [-s] -A arch -O os -T type -C comp -a addr -e ep -n name\n"
		"                    -d data_file[:data_file...] image     (legacy image, script)\n"
		"       vfit mkimage -l image;  -T list (also -A, -O, -C list);  -V\n"
		"signing options:\n"
		"  -k keydir   keys as keydir/NAME.key (NAME = key-name-hint), NAME.crt for -K\n"
		"  -G keyfile  private key for every signature node (when -k is absent)\n"
		"  -N engine   keys in this OpenSSL engine; pkcs11: -k is a PKCS#11 URI\n"
		"              (e.g. pkcs11:token=NAME), PIN from MKIMAGE_SIGN_PIN\n"
		"  -g name     key-name-hint for -f auto;  -o algo  e.g. sha256,rsa2048\n"
		"  -K dtb      write the public keys into this control DTB;  -r  mark them required\n"
		"  -c comment  comment in each signature node\n"
		"  -t          update the timestamp (with -F)\n"
		"  -E          external data;  -B align (hex, default 4);  -p position (hex)\n"
		"  -q          quiet;  --allow-missing-keys  leave nodes whose key is missing unsigned\n"
		"long options as U-Boot's mkimage (--fit, --key-dir, --external, ...)\n"
		"exit status: 0 success, 1 bad input, 2 usage or I/O error\n");
	return status;
}

static int hex_arg(int opt, const char *s, uint64_t max, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 16);
	if (errno || !*s || *end || *s == '-' || *out > max) {
		fprintf(stderr, "vfit: mkimage: -%c: invalid hex number '%s'\n", opt, s);
		return -1;
	}
	return 0;
}

static int hex32(int opt, const char *s, uint32_t *out)
{
	uint64_t v;

	if (hex_arg(opt, s, UINT32_MAX, &v))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/*
 * -a/-e: "" is 0, as mkimage reads it (flash-kernel passes -a "$usaddr"
 * with an empty value for most boards).  A value wider than 32 bits is
 * kept truncated and remembered in *wide: whether that is acceptable
 * depends on the image type (check_wide()).
 */
static int addr_arg(int opt, const char *s, uint32_t *out, const char **wide)
{
	uint64_t v = 0;

	if (*s && hex_arg(opt, s, UINT64_MAX, &v))
		return -1;
	*out = (uint32_t)v;
	*wide = v > UINT32_MAX ? s : NULL;
	return 0;
}

/*
 * A legacy header holds 32-bit addresses and mkimage truncates wider
 * ones silently.  For a boot script that is harmless (`source` uses
 * neither address: flash-kernel's X-Gene Mustang entry passes
 * -a 0x4004000000), so vfit truncates with a warning; for anything that
 * is loaded or started at that address a truncated one puts it somewhere
 * else, so it is refused.
 */
static int check_wide(const struct cmd *c, int script)
{
	int k;

	for (k = 0; k < 2; k++) {
		if (!c->wide[k])
			continue;
		if (!script) {
			fprintf(stderr, "vfit: mkimage: -%c %s: wider than 32 bits (mkimage truncates it "
				"to 0x%08x, another address)\n", "ae"[k], c->wide[k],
				k ? c->m.entry : c->m.load);
			return 2;
		}
		fprintf(stderr, "vfit: mkimage: warning: -%c %s truncated to 0x%08x (a legacy header "
			"holds 32 bits; a script's addresses are not used)\n", "ae"[k], c->wide[k],
			k ? c->m.entry : c->m.load);
	}
	return 0;
}

/*
 * -T/-A/-O/-C: a name U-Boot knows.  "list" prints mkimage's table (on
 * stderr, as mkimage does) and ends the run with status 0; an unknown name
 * prints it too and fails.  Returns -1 to go on, else an exit status.
 */
static int name_arg(enum vfit_name_kind kind, const char *s, const char **out)
{
	static const char *const what[] = { "image type", "architecture", "OS", "compression" };

	if (!strcmp(s, "list")) {
		vfit_name_print_all(stderr, kind);
		return 0;
	}
	if (!vfit_name_known(kind, s)) {
		vfit_name_print_all(stderr, kind);
		fprintf(stderr, "vfit: mkimage: unknown %s '%s'\n", what[kind], s);
		return 2;
	}
	*out = s;
	return -1;
}

static const struct option longopts[] = {
	{ "allow-missing-keys", no_argument, NULL, OPT_ALLOW_MISSING },
	{ "alignment", required_argument, NULL, 'B' },
	{ "algo", required_argument, NULL, 'o' },
	{ "architecture", required_argument, NULL, 'A' },
	{ "comment", required_argument, NULL, 'c' },
	{ "compression", required_argument, NULL, 'C' },
	{ "config", required_argument, NULL, 'n' },
	{ "device-tree", required_argument, NULL, 'b' },
	{ "dtcopts", required_argument, NULL, 'D' },
	{ "engine", required_argument, NULL, 'N' },
	{ "entry-point", required_argument, NULL, 'e' },
	{ "external", no_argument, NULL, 'E' },
	{ "fit", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ "image", required_argument, NULL, 'd' },
	{ "initramfs", required_argument, NULL, 'i' },
	{ "key-dest", required_argument, NULL, 'K' },
	{ "key-dir", required_argument, NULL, 'k' },
	{ "key-file", required_argument, NULL, 'G' },
	{ "key-name-hint", required_argument, NULL, 'g' },
	{ "key-required", no_argument, NULL, 'r' },
	{ "list", no_argument, NULL, 'l' },
	{ "load-address", required_argument, NULL, 'a' },
	{ "no-copy", no_argument, NULL, 's' },
	{ "os", required_argument, NULL, 'O' },
	{ "position", required_argument, NULL, 'p' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "secondary-config", required_argument, NULL, 'R' },
	{ "tee-addr", required_argument, NULL, 'Z' },
	{ "tee-file", required_argument, NULL, 'z' },
	{ "tfa-bl31-addr", required_argument, NULL, 'Y' },
	{ "tfa-bl31-file", required_argument, NULL, 'y' },
	{ "touch", no_argument, NULL, 't' },
	{ "type", required_argument, NULL, 'T' },
	{ "update", no_argument, NULL, 'F' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, 'V' },
	{ "xip", no_argument, NULL, 'x' },
	{ NULL, 0, NULL, 0 },
};

/* -B: 0 means mkimage's default; anything else must be a power of two. */
static int align_arg(const char *s, uint32_t *out)
{
	uint64_t v;

	if (hex_arg('B', s, 0x10000000, &v))
		return -1;
	if (v & (v - 1)) {
		fprintf(stderr, "vfit: mkimage: -B %s: alignment must be a power of two\n", s);
		return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

static int add_dtb(struct vfit_mkimage *m, const char *path)
{
	const char **d = realloc(m->dtbs, sizeof(*d) * (size_t)(m->ndtbs + 1));

	if (!d) {
		fprintf(stderr, "vfit: out of memory\n");
		return -1;
	}
	m->dtbs = d;
	m->dtbs[m->ndtbs++] = path;
	return 0;
}

/* Options with an argument that is a name, a number or a list; -1 to go on, else a status. */
static int value_opt(struct cmd *c, int opt)
{
	struct vfit_mkimage *m = &c->m;
	uint64_t v;

	switch (opt) {
	case 'A': return name_arg(VFIT_NAME_ARCH, optarg, &m->arch);
	case 'O': return name_arg(VFIT_NAME_OS, optarg, &m->os);
	case 'C': return name_arg(VFIT_NAME_COMP, optarg, &m->comp);
	case 'T': return name_arg(VFIT_NAME_TYPE, optarg, &m->type);
	case 'a': return addr_arg(opt, optarg, &m->load, &c->wide[0]) ? 2 : -1;
	case 'e': return addr_arg(opt, optarg, &m->entry, &c->wide[1]) ? 2 : -1;
	case 'Y': return hex32(opt, optarg, &m->tfa_addr) ? 2 : -1;
	case 'Z': return hex32(opt, optarg, &m->tee_addr) ? 2 : -1;
	case 'B': return align_arg(optarg, &m->align) ? 2 : -1;
	case 'b': return add_dtb(m, optarg) ? 2 : -1;
	case 'p':
		if (hex_arg(opt, optarg, INT32_MAX, &v))
			return 2;
		/* mkimage treats -p 0 as "no position". */
		m->position = v ? (int64_t)v : -1;
		return -1;
	case 'f':
		m->auto_fit = !strcmp(optarg, "auto") || !strcmp(optarg, "auto-conf");
		m->auto_conf = !strcmp(optarg, "auto-conf");
		m->its = m->auto_fit ? NULL : optarg;
		return -1;
	}
	return 2;
}

/* Parses argv into c; returns -1 to go on, or an exit status to return. */
static int parse(int argc, char **argv, struct cmd *c)
{
	struct vfit_mkimage *m = &c->m;
	int opt, r;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv,
				  ":a:A:b:B:c:C:d:D:e:Ef:Fg:G:hi:k:K:ln:N:o:O:p:qrR:stT:vVxy:Y:z:Z:",
				  longopts, NULL)) != -1) {
		if (opt > 0 && opt < 128)
			c->seen[opt] = 1;
		switch (opt) {
		case 'F': m->update = 1; break;
		case 'k': m->keydir = optarg; break;
		case 'G': m->keyfile = optarg; break;
		case 'g': m->keyname = optarg; break;
		case 'o': m->algo = optarg; break;
		case 'K': m->keydest = optarg; break;
		case 'r': m->required = 1; break;
		case 'c': m->comment = optarg; break;
		case 'N': m->engine = optarg; break;
		case 'E': m->external = 1; break;
		case 't': m->touch = 1; break;
		case 'D': m->dtc_opts = optarg; break;
		case 'd': m->datafile = optarg; break;
		case 'i': m->initrd = optarg; break;
		case 'y': m->tfa = optarg; break;
		case 'z': m->tee = optarg; break;
		case 'n': m->name = optarg; break;
		case 'l': c->list = 1; break;
		case 'q': c->quiet = 1; break;
		case 'x': c->l.xip = 1; break;
		case 's': c->l.no_data = 1; break;
		case 'R': case 'v': break;       /* SoC image types only; verbose */
		case 'V': printf("mkimage version vfit %s\n", VFIT_VERSION); return 0;
		case 'h': return usage(stdout, 0);
		case OPT_ALLOW_MISSING: m->allow_missing_keys = 1; break;
		case '?':
		case ':': return usage(stderr, cli_bad_option(false, "mkimage", opt, argv));
		default:
			r = value_opt(c, opt);
			if (r >= 0)
				return r;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "vfit: mkimage: missing image file name\n");
		return usage(stderr, 2);
	}
	/* mkimage takes the first name and ignores the rest. */
	if (optind < argc - 1)
		fprintf(stderr, "vfit: mkimage: warning: '%s'%s not used: the image is '%s'\n",
			argv[optind + 1], optind < argc - 2 ? " and later arguments" : "",
			argv[optind]);
	m->out = argv[optind];
	return -1;
}

/* One warning line naming the options given that this mode does not use. */
static void warn_unused(const struct cmd *c, const char *letters, const char *why)
{
	char list[64] = "";
	size_t n = 0;

	for (; *letters; letters++)
		if (c->seen[(unsigned char)*letters] && n + 4 < sizeof(list))
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s-%c", n ? " " : "", *letters);
	if (n)
		fprintf(stderr, "vfit: mkimage: warning: %s not used %s\n", list, why);
}

static int fit_check(struct cmd *c)
{
	struct vfit_mkimage *m = &c->m;
	const char *err = NULL;

	/* With -f, mkimage compiles the source: -F only means "FIT" then. */
	if (m->its || m->auto_fit)
		m->update = 0;
	if (m->datafile && !m->auto_fit)
		err = "-d is for -f auto and legacy images, not -f FILE or -F";
	else if (m->auto_fit && !m->datafile)
		err = "-f auto needs -d FILE";
	else if (m->engine && !*m->engine)
		err = "-N needs an engine name";
	if (err) {
		fprintf(stderr, "vfit: mkimage: %s\n", err);
		return 2;
	}
	if (!m->auto_fit)
		warn_unused(c, "biyzYZ", "without -f auto");
	if (!m->external)
		warn_unused(c, "Bp", "without -E");
	warn_unused(c, "xs", "for a FIT");
	return 0;
}

static int run_fit(struct cmd *c)
{
	struct vfit_mkimage *m = &c->m;
	struct vfit_err e = { 0 };
	int r = fit_check(c);

	/* Only -f auto writes -a/-e (as 32-bit cells, as mkimage 2023.01 does). */
	if (!r && m->auto_fit)
		r = check_wide(c, 0);
	if (r)
		return r;
	if (vfit_mkimage_run(m, &e))
		return vfit_err_print(&e, NULL);
	/* -q drops the listing, not these two lines (mkimage prints them anyway). */
	if (!c->quiet)
		r = vfit_image_list_file(stdout, m->out, 0, &e) ? vfit_err_print(&e, NULL) : 0;
	if (m->signed_conf[0])
		printf("Signature written to '%s', node '%s'\n", m->out, m->signed_conf);
	if (m->key_node[0])
		printf("Public key written to '%s', node '%s'\n", m->keydest, m->key_node);
	return r;
}

static int run_legacy(struct cmd *c)
{
	struct vfit_legacy *l = &c->l;
	struct vfit_err e = { 0 };

	if (check_wide(c, !strcmp(c->m.type, "script")))
		return 2;
	l->arch = c->m.arch;
	l->os = c->m.os;
	l->type = c->m.type;
	l->comp = c->m.comp;
	l->load = c->m.load;
	l->entry = c->m.entry;
	l->entry_set = c->seen['e'];
	l->name = c->m.name;
	l->datafiles = c->m.datafile;
	warn_unused(c, "kGKNgorcEBpbitDyzYZ", "for a legacy image (they are FIT options)");
	if (vfit_legacy_write(l, c->m.out, &e))
		return vfit_err_print(&e, NULL);
	if (c->quiet)
		return 0;
	return vfit_image_list_file(stdout, c->m.out, 0, &e) ? vfit_err_print(&e, NULL) : 0;
}

/* mkimage -l -q checks the image and prints nothing. */
static int list(const char *path, int quiet)
{
	FILE *f = quiet ? fopen("/dev/null", "w") : stdout;
	struct vfit_err e = { 0 };
	int r;

	if (!f) {
		fprintf(stderr, "vfit: /dev/null: %s\n", strerror(errno));
		return 2;
	}
	r = vfit_image_list_file(f, path, 0, &e) ? vfit_err_print(&e, NULL) : 0;
	if (quiet)
		fclose(f);
	return r;
}

int cmd_mkimage(int argc, char **argv)
{
	struct cmd c = { .m = { .position = -1 } };
	int r;

	c.m.arch = "powerpc";  /* mkimage's defaults */
	c.m.os = "linux";
	c.m.type = "kernel";
	c.m.comp = "gzip";
	r = parse(argc, argv, &c);
	if (r >= 0)
		goto out;
	if (c.list) {
		r = list(c.m.out, c.quiet);
	} else if (c.m.its || c.m.auto_fit || c.m.update) {
		r = run_fit(&c);
	} else {
		r = run_legacy(&c);
	}
out:
	free(c.m.dtbs);
	return r;
}
