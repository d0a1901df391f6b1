/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The /incbin/ bypass (host/its/incbin.c, vfit_incbin_compile) and its
 * scanner, against dtc itself: where the bypass takes a source, the blob
 * must be the one `dtc -I dts -O dtb -p 500` writes for it (structure and
 * strings, byte for byte); where the source holds something the scanner
 * must not touch or cannot vouch for -- the directive in a comment or a
 * string, a small file, a path climbing out with `..`, offsets, a value
 * concatenated with others, a dependency file -- it must say "not
 * applicable" (1) and leave the source to dtc.  The files' sizes are not
 * multiples of 4: dtc pads their values with zeros.  Files of 1 MiB and more
 * are bypassed; each case runs dtc once or twice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libfdt.h>

#include "check.h"
#include "../../host/its/its_int.h"

#define MIB (1u << 20)

static char dir[64];

static void put(const char *name, const void *data, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	REQUIRE(f && fwrite(data, 1, len, f) == len && !fclose(f), "writing %s", path);
}

/* dtc's own blob for the source in file name; NULL when dtc fails. */
static char *dtc(const char *name, size_t *len)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "cd %s && dtc -q -I dts -O dtb -p 500 -o ref.dtb %s", dir, name);
	if (system(cmd))
		return NULL;
	snprintf(cmd, sizeof(cmd), "%s/ref.dtb", dir);
	return check_read_file(cmd, len);
}

static int same_blob(const char *a, const char *b)
{
	return fdt_size_dt_struct(a) == fdt_size_dt_struct(b) &&
	       fdt_size_dt_strings(a) == fdt_size_dt_strings(b) &&
	       !memcmp(a + fdt_off_dt_struct(a), b + fdt_off_dt_struct(b), fdt_size_dt_struct(a)) &&
	       !memcmp(a + fdt_off_dt_strings(a), b + fdt_off_dt_strings(b),
		       fdt_size_dt_strings(a));
}

/* Compiles name (holding src) through the bypass; its result, and the blob checked. */
static int bypass(const char *name, const char *src, const char *opts)
{
	struct vfit_fdtbuf out = { 0 };
	struct vfit_err e = { 0 };
	char its[128], *ref;
	size_t len;
	int r;

	put(name, src, strlen(src));
	snprintf(its, sizeof(its), "%s/%s", dir, name);
	r = vfit_incbin_compile(its, src, strlen(src), opts, 0, &out, &e);
	if (r == 0) {
		ref = dtc(name, &len);
		CHECK(ref && same_blob(out.buf, ref), "%s: the bypass's blob is not dtc's", name);
		free(ref);
		vfit_fdtbuf_free(&out);
	}
	CHECK(r >= 0, "%s: error %s", name, e.msg);
	return r;
}

#define HEAD "/dts-v1/;\n/ {\n\tdescription = \"incbin test\";\n\timages {\n"

int main(void)
{
	static const char dflt[] = "-I dts -O dtb -p 500";
	uint8_t *big = malloc(MIB + 5);
	char cmd[128];

	REQUIRE(big != NULL, "memory");
	check_seed(1);
	snprintf(dir, sizeof(dir), "/tmp/vfit-incbin.XXXXXX");
	REQUIRE(mkdtemp(dir) != NULL, "temporary directory");
	check_rand_bytes(big, MIB + 5);
	put("big.bin", big, MIB + 5);
	put("exact.bin", big, MIB);
	put("small.bin", big, MIB - 1);
	put("inc.dtsi", "/ { extra = /incbin/(\"small.bin\"); };\n", 39);

	CHECK(bypass("one.its", HEAD "\t\tk { data = /incbin/(\"big.bin\"); };\n\t};\n};\n", dflt) == 0,
	      "one large file bypassed");
	CHECK(bypass("two.its", HEAD "\t\tk { data = /incbin/ ( \"big.bin\" ) ; };\n"
				"\t\tr { data = /incbin/(\"exact.bin\"); x = /incbin/(\"small.bin\"); };\n"
				"\t};\n};\n", dflt) == 0,
	      "blanks inside the directive; a file of exactly 1 MiB bypassed, a smaller one left");
	CHECK(bypass("abs.its", HEAD "\t\tk { data = /incbin/(\"/tmp/../tmp/x/../nothing\"); };\n"
				"\t\tr { data = /incbin/(\"big.bin\"); };\n\t};\n};\n", dflt) == 1,
	      "a missing file: left to dtc, which reports it");
	CHECK(bypass("comments.its", HEAD "\t\t// data = /incbin/(\"big.bin\");\n"
				     "\t\t/* data = /incbin/(\"big.bin\"); */\n"
				     "\t\tk { s = \"/incbin/(\\\"big.bin\\\")\"; c = 'a'; };\n\t};\n};\n",
			  dflt) == 1,
	      "directives in comments and strings are not directives");
	CHECK(bypass("mixed.its", HEAD "\t\t/* /incbin/(\"big.bin\") */ k { s = \"/incbin/\";\n"
				  "\t\t\tdata = /incbin/(\"big.bin\"); };\n\t};\n};\n", dflt) == 0,
	      "a real directive after a commented and a quoted one");
	CHECK(bypass("small.its", HEAD "\t\tk { data = /incbin/(\"small.bin\"); };\n\t};\n};\n", dflt) == 1,
	      "nothing large: nothing to bypass");
	CHECK(bypass("include.its", HEAD "\t\tk { data = /incbin/(\"big.bin\"); };\n\t};\n};\n"
				    "/include/ \"inc.dtsi\"\n", dflt) == 0,
	      "an /include/ kept for dtc");
	CHECK(bypass("climb.its", HEAD "\t\tk { data = /incbin/(\"big.bin\"); };\n"
				  "\t\tr { data = /incbin/(\"../x/small.bin\"); };\n\t};\n};\n", dflt) == 1,
	      "a path climbing out with .. turns the bypass off");
	CHECK(bypass("offsets.its", HEAD "\t\tk { data = /incbin/(\"big.bin\", 0, 16); };\n\t};\n};\n",
		     dflt) == 1,
	      "/incbin/ with offsets is left to dtc");
	CHECK(bypass("concat.its", HEAD "\t\tk { data = [00], /incbin/(\"big.bin\"); };\n\t};\n};\n",
		     dflt) == 1,
	      "a value concatenated with others is left to dtc");
	CHECK(bypass("self.its", HEAD "\t\tk { data = /incbin/(\"big.bin\"); };\n"
				 "\t\tr { data = /incbin/(\"self.its\"); };\n\t};\n};\n", dflt) == 1,
	      "a path naming the source itself turns the bypass off");
	CHECK(bypass("dep.its", HEAD "\t\tk { data = /incbin/(\"big.bin\"); };\n\t};\n};\n",
		     "-I dts -O dtb -d deps") == 1,
	      "a dependency file asked for: left to dtc");
	CHECK(bypass("escape.its", HEAD "\t\tk { data = /incbin/(\"big\\x2ebin\"); };\n\t};\n};\n",
		     dflt) == 1,
	      "an escape in the path: left to dtc");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0, "cleanup");
	free(big);
	return check_done();
}
