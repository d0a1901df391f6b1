/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Internal interfaces of the host library: files (host/fdtfile.c, also
 * used by keygen.c and the counter stores) and the mkimage passes
 * (its.c, dtc.c, incbin.c, fit_auto.c, verity.c, extdata.c, fit_hash.c,
 * sign_keys.c, sign.c, fit_conf.c, mkimage.c, list.c, legacy.c).  Not
 * installed.
 */
#ifndef VFIT_MKIMAGE_INT_H
#define VFIT_MKIMAGE_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "vfit-host/host.h"

/* The Makefile passes the version; builds that do not (fuzz targets) still compile. */
#ifndef VFIT_VERSION
#define VFIT_VERSION "unknown"
#endif

/* ---- whole files and FDT buffers (host/fdtfile.c) ---------------------- */

/* Reads path into a malloc'ed buffer with `extra` spare bytes after the data. */
int vfit_file_read(const char *path, size_t extra, char **data, size_t *len,
		   struct vfit_err *e);
/* Reads a pipe or file descriptor to its end (same contract as vfit_file_read). */
int vfit_fd_read(int fd, const char *what, size_t extra, char **data, size_t *len,
		 struct vfit_err *e);

/*
 * Reads at most cap bytes of a small regular file (pass cap = limit + 1 to
 * detect an oversized one); 0, or -1 with errno (EINVAL: not a regular file).
 */
int vfit_read_small(const char *path, void *buf, size_t cap, size_t *len);
/* Asks for 2 MiB pages over the whole ones inside [p, p + len) of a big buffer. */
void vfit_hugepages(void *p, size_t len);
/* 0 if path is absent or writable; a read-only file (no write bit, or no access) is an error. */
int vfit_check_writable(const char *path, struct vfit_err *e);
/* Reads all n bytes at offset off (pread, retried; EIO at end of file); 0 or -1 with errno. */
int vfit_read_full(int fd, void *p, size_t n, uint64_t off);
/* Writes all n bytes at offset off (pwrite, retried); 0 or -1 with errno. */
int vfit_write_full(int fd, const void *p, size_t n, uint64_t off);
/* Reads exactly size bytes of path into dst (the file must not have changed size). */
int vfit_read_exact(const char *path, uint8_t *dst, size_t size, struct vfit_err *e);
/*
 * The buffer a payload streams through (its hash on the way to a FIT,
 * the sparse verify's hash): small enough to stay in the L2 cache
 * between the read and the hash.
 */
#define VFIT_IO_PIECE (256u * 1024)
/* The directory part of path ("." when none, "/" for the root); -1 if it does not fit. */
int vfit_dirname(const char *path, char *dir, size_t size);
/* fsync of the directory holding path, so a rename or link in it survives a power cut. */
int vfit_sync_dir(const char *path);

/*
 * One piece of an output file: len bytes at file offset off, from memory
 * at p or, when p is NULL, from the file fd at offset from (copied by the
 * kernel, never through this process's memory).
 */
struct vfit_seg {
	uint64_t off;
	const void *p;
	size_t len;
	int fd;
	uint64_t from;
};

/*
 * The one atomic file writer of the host side.  vfit_out_write() writes
 * and fsyncs a temporary file in the target's directory; vfit_out_commit()
 * renames it over the target (or, with no_replace, links it there,
 * failing with status 1 if the target exists) and fsyncs the directory;
 * vfit_out_discard() removes it.  Several outputs are written first and
 * committed together, so a failure before the commit leaves every file
 * as it was.  mode 0 keeps the target's mode (0666 & ~umask for a new
 * file).
 *
 * The temporary file has a unique name beside the target, which is
 * resolved through symlinks as writing through it would be, unless
 * fixed_tmp: then it is always PATH.tmp, created anew (a planted symlink
 * of that name is removed, never followed) and the target is the name
 * itself -- for device stores (the simulator's directory, counter files),
 * which an attacker may control and where a device that loses power
 * mid-write must reuse one file instead of collecting a new one each time.
 * durable(arg), when set, runs after each step that a power cut cannot
 * undo (the temporary file on disk, then the new name on disk): the
 * simulator counts them to cut power after any one.
 *
 * A uniquely named temporary file is removed when SIGINT, SIGTERM or
 * SIGHUP ends the process before the commit (vfit_tmp_hold()).
 */
struct vfit_out {
	char *path;
	char *tmp;
	mode_t mode;
	int no_replace;
	int fixed_tmp;
	void (*durable)(void *arg);
	void *arg;
};
int vfit_out_write(struct vfit_out *o, const char *path, const struct vfit_seg *seg, int nseg,
		   uint64_t size, struct vfit_err *e);
/*
 * vfit_out_write() in two steps, for a writer that fills the temporary
 * file itself (the disk image's sparse copy): vfit_out_open() creates it
 * and returns its descriptor, vfit_out_close() fsyncs and closes it; each
 * discards o on failure.  Then vfit_out_commit() or vfit_out_discard().
 */
int vfit_out_open(struct vfit_out *o, const char *path, struct vfit_err *e);
/* The segments written to fd from vfit_out_open(), the size set, then vfit_out_close(). */
int vfit_out_write_fd(struct vfit_out *o, int fd, const struct vfit_seg *seg, int nseg,
		      uint64_t size, struct vfit_err *e);
int vfit_out_close(struct vfit_out *o, int fd, struct vfit_err *e);
int vfit_out_commit(struct vfit_out *o, struct vfit_err *e);
void vfit_out_discard(struct vfit_out *o);
/* vfit_out_write() of len bytes at data, then vfit_out_commit(). */
int vfit_out_file(struct vfit_out *o, const char *path, const void *data, size_t len,
		  struct vfit_err *e);

/*
 * Temporary paths removed if a signal (SIGINT, SIGTERM, SIGHUP) ends the
 * process while they exist, most recent first (a directory after its
 * files).  vfit_tmp_make() is mkstemp() (returning the descriptor) or,
 * with dir, mkdtemp() (returning 0) of tmpl, holding the result;
 * vfit_tmp_hold() holds a path about to be created in a private
 * directory; vfit_tmp_drop() after removing or renaming it.  The path's
 * storage (compared by address) must live until it is dropped.
 */
int vfit_tmp_make(char *tmpl, int dir);
int vfit_tmp_hold(const char *path);
void vfit_tmp_drop(const char *path);

/* ---- FDT buffers and the payloads left in their files (host/fdtbuf.c) ---- */

/*
 * A payload left in its file: the `data` of the image node at path node,
 * size bytes of the file fd from offset from.  Its room in the tree has
 * its length but is never written nor read, so none of it is faulted in,
 * whatever the number, order and sizes of the payloads: the image pass
 * hashes it from the file (vfit_payload_read()), the writer has the
 * kernel copy it from the file into the output (vfit_fdtbuf_segs()), and
 * what needs the bytes in memory (encryption, dm-verity, a libfdt write
 * that moves what follows it) reads every payload into its room first
 * (vfit_payloads_fill()).  The file is held open from the start, so the
 * bytes hashed and the bytes copied are one file's; vfit_payloads_same()
 * checks after the copy that nothing wrote to it meanwhile.
 */
struct vfit_payload {
	char *node;
	char *file;      /* as named, for messages */
	int fd;
	uint64_t from;
	size_t size;
	struct stat st;  /* when it was taken */
};

/* Payloads of at least this size stay in their files (smaller ones are read with the tree). */
#define VFIT_PAYLOAD_MIN (1u << 20)

/*
 * An FDT in a malloc'ed buffer in libfdt's read-write layout (header,
 * reservation map, structure, strings, free space), with the payloads
 * still in their files.  Writes through vfit_fdt_setprop() grow the
 * buffer instead of failing with NOSPACE; node offsets stay valid across
 * growth.  A buffer that grows from small to big (a payload about to be
 * read into it) gets head room: then vfit_edits_apply() can make room at
 * the front of the blob (the root timestamp) by moving what is before the
 * payload down, not the payload up.
 */
struct vfit_fdtbuf {
	char *buf;
	size_t cap;
	size_t head;    /* spare bytes allocated before buf (the block starts at buf - head) */
	struct vfit_payload *pl;   /* payloads still in their files, in structure order */
	int npl;
};
/* Head room a small buffer gets when it grows big: what writes at the front need. */
#define VFIT_FDTBUF_HEAD 4096
/* vfit_fdt_check() of a device tree read from file, as one error line (status 1). */
int vfit_fdt_valid(const char *file, const void *fdt, size_t len, struct vfit_err *e);
/* Takes ownership of data (len bytes used, cap allocated); checks and lays it out. */
int vfit_fdtbuf_adopt(struct vfit_fdtbuf *b, char *data, size_t len, size_t cap,
		      const char *file, struct vfit_err *e);
int vfit_fdtbuf_reserve(struct vfit_fdtbuf *b, size_t more);
/* fdt_setprop() that grows the buffer; payloads still in their files are read in first. */
int vfit_fdt_setprop(struct vfit_fdtbuf *b, int node, const char *name, const void *val,
		     size_t len);
int vfit_fdt_setprop_str(struct vfit_fdtbuf *b, int node, const char *name, const char *s);
int vfit_fdt_setprop_u32(struct vfit_fdtbuf *b, int node, const char *name, uint32_t v);
/* A property that is one NUL-terminated string, else NULL. */
const char *vfit_fdt_str(const void *fdt, int node, const char *name);
/* A 4-byte property as a number; -1 when absent or another size. */
int vfit_fdt_u32(const void *fdt, int node, const char *name, uint32_t *v);
/* Whether node's name starts with prefix ("hash", "signature": mkimage's test). */
int vfit_fdt_prefix(const void *fdt, int node, const char *prefix);
/* Finds or adds the subnode `name` of parent (a node offset, or a libfdt error). */
int vfit_fdt_subnode(void *fdt, int parent, const char *name);
/* Bytes in use: end of the strings block (the packed size). */
size_t vfit_fdt_used(const void *fdt);
/* Sets totalsize to size (>= used), zero-filling the free space up to it. */
int vfit_fdtbuf_set_size(struct vfit_fdtbuf *b, size_t size);
/* Frees the buffer and closes the payloads' files. */
void vfit_fdtbuf_free(struct vfit_fdtbuf *b);

/*
 * Makes node's `data` (added, or resized from what it is) size bytes of
 * room for the payload at offset from of the open file fd, which b now
 * owns (closed here on failure).  Payloads are added in structure order:
 * each resize moves only what follows it, never an earlier room.
 */
int vfit_fdtbuf_payload(struct vfit_fdtbuf *b, int node, const char *file, int fd,
			uint64_t from, size_t size, struct vfit_err *e);
/* The payload whose room is data (a `data` value in b->buf), or NULL. */
const struct vfit_payload *vfit_fdtbuf_payload_at(const struct vfit_fdtbuf *b, const void *data);
/* Reads the payload once, in pieces, each to eat(). */
int vfit_payload_read(const struct vfit_payload *p,
		      void (*eat)(void *arg, const uint8_t *p, size_t n), void *arg,
		      struct vfit_err *e);
/* Reads every payload into its room and forgets them: b is then an FDT like any other. */
int vfit_payloads_fill(struct vfit_fdtbuf *b, struct vfit_err *e);
/* Each payload's file as it was when taken (status 2, the file named, if not). */
int vfit_payloads_same(const struct vfit_fdtbuf *b, struct vfit_err *e);
/*
 * The bytes [0, size) of b as output segments: the buffer's, with each
 * room taken from its file.  *seg is malloc'ed; -1 if out of memory.
 */
int vfit_fdtbuf_segs(const struct vfit_fdtbuf *b, size_t size, struct vfit_seg **seg, int *n);
/* The rooms' offsets in b->buf, sorted: start[i], end[i]; their count, or -1 if one is lost. */
int vfit_fdtbuf_rooms(const struct vfit_fdtbuf *b, size_t *start, size_t *end);

/* ---- property writes in one pass (host/fdtedit.c) --------------------------- */

/*
 * Writes recorded against fdt as it is now and applied together by
 * vfit_edits_apply(), which leaves exactly the blob the same fdt_setprop()
 * calls in the same order would have (see host/fdtedit.c).
 */
struct vfit_edits;
struct vfit_edits *vfit_edits_new(const void *fdt);
/* Records name = val[0..len) on node (an offset in fdt); 0 or a negative libfdt error. */
int vfit_edits_set(struct vfit_edits *ed, int node, const char *name, const void *val,
		   size_t len);
/* The strings block as the writes recorded so far leave it, and its size. */
const char *vfit_edits_strings(const struct vfit_edits *ed, uint32_t *len);
/* Rebuilds fit with every write, in one pass; fit must still be the blob of vfit_edits_new(). */
int vfit_edits_apply(struct vfit_edits *ed, struct vfit_fdtbuf *fit);
void vfit_edits_free(struct vfit_edits *ed);

/* ---- a FIT's nodes indexed in one walk (host/fit_index.c) -------------------- */

struct vfit_fit_index;
/* fit passed vfit_fit_check(); two children of /images with one name are refused. */
struct vfit_fit_index *vfit_fit_index_new(const char *file, const void *fit, struct vfit_err *e);
void vfit_fit_index_free(struct vfit_fit_index *ix);
/* end[off / 4] past each node's END_NODE, for vfit_conf_digest_skip(). */
const int32_t *vfit_fit_index_ends(const struct vfit_fit_index *ix);
/* /images, and its child named name (or -1). */
int vfit_fit_index_images(const struct vfit_fit_index *ix);
int vfit_fit_index_image(const struct vfit_fit_index *ix, const char *name);
/* Parent's offset of the node at off, or -1. */
int vfit_fit_index_parent(const struct vfit_fit_index *ix, int off);
/* The node's path; -1 if it does not fit in size. */
int vfit_fit_index_path(const struct vfit_fit_index *ix, int off, char *buf, size_t size);

/* ---- sources (host/its.c, dtc.c, incbin.c, fit_auto.c) ------------------ */

/* Room left after a compiled FIT for hash values and signatures. */
#define VFIT_FIT_SLACK (64 * 1024)

/*
 * The .its compiled as mkimage does (host/its.c), dtc run without a shell.
 * With defer, /incbin/ image payloads of VFIT_PAYLOAD_MIN or more stay in
 * their files (out->pl); without, every byte is in out->buf.
 */
int vfit_its_compile(const char *its, const char *dtc_opts, int defer, struct vfit_fdtbuf *out,
		     struct vfit_err *e);

/* A dtc command line: "dtc", [-i dir], the -D words, "-o", "-", source. */
struct vfit_dtc_cmd {
	char **argv;
	char *words;     /* storage for the split -D words */
	int depfile;     /* -D asks dtc for a dependency file (-d) */
};
int vfit_dtc_cmd_make(struct vfit_dtc_cmd *c, const char *opts, const char *incdir,
		      const char *src, struct vfit_err *e);
void vfit_dtc_cmd_free(struct vfit_dtc_cmd *c);
/* Runs dtc; the blob comes back on a pipe.  With errfd >= 0, dtc's stderr goes there. */
int vfit_dtc_run(const char *what, const struct vfit_dtc_cmd *c, int errfd, char **data,
		 size_t *len, struct vfit_err *e);
/*
 * The /incbin/ bypass for large payloads (host/incbin.c): 0 compiled
 * into out, 1 not applicable (compile the source as is), -1 error.
 */
int vfit_incbin_compile(const char *its, const char *src, size_t len, const char *dtc_opts,
			int defer, struct vfit_fdtbuf *out, struct vfit_err *e);
/* The FIT `mkimage -f auto` / `-f auto-conf` generates. */
int vfit_its_auto(const struct vfit_mkimage *m, struct vfit_fdtbuf *out, struct vfit_err *e);

/* ---- dm-verity (host/verity.c) ------------------------------------------- */

/*
 * For each image with a dm-verity node: appends the hash tree to the
 * image data and fills in digest, salt, num-data-blocks and
 * hash-start-block, as U-Boot HEAD's mkimage does (needs -E).
 */
int vfit_verity_images(const char *name, struct vfit_fdtbuf *fit, int external,
		       struct vfit_err *e);

/* ---- listings (host/list.c, legacy.c, print.c) ----------------------------- */

#define VFIT_LEGACY_HDR 64
#define VFIT_LEGACY_MAGIC 0x27051956u

/* "Tue Nov 14 22:13:20 2023" (local time, as ctime()), after label. */
void vfit_print_time(FILE *f, const char *label, uint32_t t);
/* "N Bytes = x.xx KiB = y.yy MiB". */
void vfit_print_size(FILE *f, uint32_t size);
/* Header magic, header CRC, size and data CRC of a legacy image in memory. */
int vfit_legacy_check(const char *name, const uint8_t *p, size_t len, struct vfit_err *e);
/* File pos of a checked multi-file image, or the whole data of another type. */
int vfit_legacy_part(const char *name, const uint8_t *p, unsigned long pos, const uint8_t **data,
		     size_t *len, struct vfit_err *e);
/* `mkimage -l` of a checked legacy image. */
void vfit_legacy_print(FILE *f, const uint8_t *p);
/* The lines `mkimage -l` prints for the image node at node, the idx-th under /images. */
void vfit_fit_print_image(FILE *f, const void *fit, int node, int idx);

/* ---- external data (host/extdata.c) ------------------------------------- */

/*
 * Loads the FIT at path for -F: its FDT, with every data-offset or
 * data-position payload (after the FDT) made a `data` property; payloads
 * of VFIT_PAYLOAD_MIN or more, embedded or external, stay in the file
 * (host/fdtbuf.c), the others are read once.  *imported: whether any
 * data was external.
 */
int vfit_ext_load(const char *path, struct vfit_fdtbuf *out, int *imported,
		  struct vfit_err *e);

/* The layout -E produces: the packed FDT plus payload segments. */
struct vfit_ext_layout {
	struct vfit_fdtbuf fdt;  /* FDT without payloads */
	struct vfit_seg *seg;    /* [0] = FDT, then one per payload */
	int nseg;
	uint64_t size;           /* file size */
};
/*
 * Payloads still in their files become segments copied from them.  The
 * FDT's padding to its aligned size is what mkimage 2023.01 leaves there
 * (vfit_ext_pad()), or with zero_pad zeros, as U-Boot HEAD writes (for a
 * FIT whose external data came in as HEAD imports it, -F).
 */
int vfit_ext_extract(const char *name, const struct vfit_fdtbuf *fit, uint32_t align,
		     int64_t position, int zero_pad, struct vfit_ext_layout *lay,
		     struct vfit_err *e);
void vfit_ext_layout_free(struct vfit_ext_layout *lay);
/*
 * The bytes [from, to) past the packed end of the external FIT's FDT, as
 * mkimage 2023.01 leaves them there (host/extdata_pad.c): fit is the
 * signed FIT with its data, from the FDT's packed size, to its aligned one.
 */
int vfit_ext_pad(const struct vfit_fdtbuf *fit, int64_t position, uint32_t align, uint8_t *pad,
		 size_t from, size_t to);

/* ---- checks, hashes and signatures ---------------------------------------- */

/*
 * Structure rules mkimage and U-Boot need before anything is written
 * (fit-format.md §3.4, 6.2, 7); VFIT_FIT_ALLOW_AT lets '@' through for a
 * FIT that will not be signed.
 */
int vfit_fit_precheck(const char *name, const void *fit, unsigned int flags, struct vfit_err *e);

/* Key material and what was signed, shared by the image and configuration passes. */
struct vfit_signer;
struct vfit_signer *vfit_signer_new(const struct vfit_mkimage *m);
void vfit_signer_free(struct vfit_signer *s);
int vfit_signer_active(const struct vfit_signer *s);

/*
 * The root timestamp (unless ts is NULL), then every image: hash* values
 * and (with keys) signature* nodes, in node order.  A payload still in
 * its file is hashed from it.
 */
int vfit_fit_hash_images(const char *name, struct vfit_fdtbuf *fit, const uint32_t *ts,
			 struct vfit_signer *s, struct vfit_fdtbuf *keydtb, struct vfit_err *e);
/*
 * Signs one image signature node of fit given the payload digest
 * (host/sign.c); its properties are recorded in ed.
 */
int vfit_sign_image_node(struct vfit_signer *s, const char *name, const void *fit, int node,
			 const uint8_t *digest, enum vfit_hash hash, struct vfit_edits *ed,
			 struct vfit_fdtbuf *keydtb, struct vfit_err *e);
/* Hash algorithm of a signature node's algo (after -o); INVALID + error if bad. */
enum vfit_hash vfit_sign_node_hash(const struct vfit_signer *s, const char *name,
				   const void *fit, int node, struct vfit_err *e);
/*
 * Every configuration signature* node.  external: the data will move out
 * of the FDT (-E), so the FIT the device checks is the FDT without it.
 */
int vfit_fit_sign_confs(const char *name, struct vfit_fdtbuf *fit, int external,
			struct vfit_signer *s, struct vfit_fdtbuf *keydtb, struct vfit_err *e);
/* Last signed configuration node path ("" if none), for mkimage's closing lines. */
const char *vfit_signer_last_conf(const struct vfit_signer *s);
const char *vfit_signer_last_key(const struct vfit_signer *s);

/*
 * Keys in an OpenSSL engine (-N, host/engine.c): the engine stays open
 * for as long as keys loaded from it are used.  MKIMAGE_SIGN_PIN is
 * given to it as its PIN.
 */
struct vfit_engine;
struct evp_pkey_st;
struct vfit_engine *vfit_engine_open(const char *id, struct vfit_err *e);
/* The private key, or with public != 0 the public key, named key_id. */
struct evp_pkey_st *vfit_engine_key(struct vfit_engine *g, const char *key_id, int public,
				    struct vfit_err *e);
void vfit_engine_close(struct vfit_engine *g);

/* Shared helpers. */
/* SOURCE_DATE_EPOCH (must be a number) or now. */
int vfit_timestamp(uint32_t *t, struct vfit_err *e);
/* Absolute path of a node (static storage overwritten by the next call). */
const char *vfit_node_path(const void *fdt, int node);

#endif
