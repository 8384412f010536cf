/*
 * check_keys.c — unit tests of the keys library: strict base64, key files
 * with every refusal, armour, and the atomic writer.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>
#include <sodium.h>

#include "batsec_keys.h"
#include "lib/t_check.h"
#include "lib/t_ident.h"

/* RFC 8032 TEST 1 key pair as base64, and TEST 2's public key. */
#define SEED_A_B64 "nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A="
#define PK_A_B64   "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="
#define PK_A_HEX   "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
#define SEED_B_HEX "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb"

/* ---- fixture: a private temporary directory per test ------------------- */

static char tdir[PATH_MAX];
static char err[512];

static void
setup(void)
{
	ck_assert_int_eq(bs_crypto_init(), 0);
	t_tmpdir(tdir, sizeof(tdir), "check_keys");
	err[0] = '\0';
}

static void
teardown(void)
{
	t_rmtree(tdir);
}

/* Path of name inside the test directory (static buffer per slot). */
static const char *
tpath(const char *name)
{
	static char buf[4][PATH_MAX];
	static int slot;
	char *p = buf[slot++ % 4];

	ck_assert_int_lt(snprintf(p, PATH_MAX, "%s/%s", tdir, name), PATH_MAX);
	return p;
}

static const char *
put_file(const char *name, const void *data, size_t len, mode_t mode)
{
	const char *p = tpath(name);

	t_write_file(p, data, len, mode);
	return p;
}

/* Number of entries in the test directory, "." and ".." excluded. */
static int
dir_entries(void)
{
	DIR *d = opendir(tdir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

static void
assert_no_tmp(void)
{
	DIR *d = opendir(tdir);
	struct dirent *e;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL)
		ck_assert_msg(strstr(e->d_name, ".tmp.") == NULL,
		    "temporary file %s left behind", e->d_name);
	closedir(d);
}

static mode_t
file_mode(const char *p)
{
	struct stat st;

	ck_assert_int_eq(stat(p, &st), 0);
	return st.st_mode & 07777;
}

static size_t
file_read(const char *p, char *buf, size_t len)
{
	int fd = open(p, O_RDONLY);
	ssize_t n;

	ck_assert_int_ge(fd, 0);
	n = read(fd, buf, len);
	ck_assert_int_ge(n, 0);
	close(fd);
	return (size_t)n;
}

/* err starts with "<prefix>: " and contains what. */
static void
assert_err(const char *prefix, const char *what)
{
	size_t n = strlen(prefix);

	ck_assert_msg(strncmp(err, prefix, n) == 0 && err[n] == ':',
	    "message \"%s\" does not start with \"%s:\"", err, prefix);
	ck_assert_msg(strstr(err, what) != NULL,
	    "message \"%s\" lacks \"%s\"", err, what);
	ck_assert_ptr_null(strchr(err, '\n'));
}

/* ---- base64 ------------------------------------------------------------- */

START_TEST(test_b64_roundtrip)
{
	uint8_t k[32], back[32];
	char s[BS_KEY_B64_LEN + 1];
	int i;

	for (i = 0; i < 200; i++) {
		randombytes_buf(k, sizeof(k));
		bs_key_to_b64(s, k);
		ck_assert_uint_eq(strlen(s), BS_KEY_B64_LEN);
		ck_assert_int_eq(bs_key_from_b64(back, s, strlen(s)), 0);
		ck_assert_mem_eq(k, back, sizeof(k));
	}
	t_unhex(k, sizeof(k), PK_A_HEX);
	bs_key_to_b64(s, k);
	ck_assert_str_eq(s, PK_A_B64);
}
END_TEST

/* 44-character (or near) strings that must not decode as a key. */
static const char *const bad_b64[] = {
	"nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A",		/* 43 */
	"nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A=A",	/* 45 */
	"nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2AA",		/* 33 bytes */
	"nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2B=",		/* bits */
	"nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2==",		/* 31 bytes */
	"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A=",		/* url-safe */
	"nWGxne-9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A=",
	"nWGxne 9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A=",		/* space */
	"nWGxne\n9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A=",
	"nWGxne=9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A=",
	" WGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A=",
	"nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A\n",
	"============================================",
	"",
	/* libsodium 1.0.18 alone decodes any byte >= 0x80 as '/'. */
	"nWGxne\x80" "9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A=",
	"nWGxne\xaf" "9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A=",
	"nWGxne\xff" "9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A=",
	"IVL40Zt5HSRFMkLhXy6rbLfP+\x8btqXtMAl5YOBpiB2xI=",
};

START_TEST(test_b64_reject)
{
	uint8_t k[32];
	const char *s = bad_b64[_i];

	ck_assert_int_eq(bs_key_from_b64(k, s, strlen(s)), -1);
}
END_TEST

START_TEST(test_b64_nul_inside)
{
	char s[] = SEED_A_B64;
	uint8_t k[32];

	ck_assert_int_eq(bs_key_from_b64(k, s, BS_KEY_B64_LEN), 0);
	s[10] = '\0';
	ck_assert_int_eq(bs_key_from_b64(k, s, BS_KEY_B64_LEN), -1);
	ck_assert_int_eq(bs_key_from_b64(k, NULL, BS_KEY_B64_LEN), -1);
}
END_TEST

START_TEST(test_b64_generic)
{
	const uint8_t in[5] = { 1, 2, 3, 4, 5 };
	uint8_t out[5];
	char s[9];

	ck_assert_int_eq(bs_b64_encode(s, 8, in, 5), -1);
	ck_assert_int_eq(bs_b64_encode(s, 9, in, 5), 8);
	ck_assert_str_eq(s, "AQIDBAU=");
	ck_assert_int_eq(bs_b64_decode_exact(out, 5, s, 8), 5);
	ck_assert_mem_eq(out, in, 5);
	ck_assert_int_eq(bs_b64_decode_exact(out, 4, s, 8), -1);
	ck_assert_int_eq(bs_b64_decode_exact(out, 5, s, 7), -1);
	ck_assert_int_eq(bs_b64_decode_exact(out, 5, "AQIDBAV=", 8), -1);
	ck_assert_int_eq(bs_b64_encode(s, sizeof(s), NULL, 0), 0);
	ck_assert_str_eq(s, "");
}
END_TEST

START_TEST(test_addr_to_str)
{
	const uint8_t a[6] = { 0x2e, 0x03, 0x34, 0xb7, 0x2b, 0xff };
	char s[18];

	bs_addr_to_str(s, a);
	ck_assert_str_eq(s, "2e:03:34:b7:2b:ff");
}
END_TEST

/* ---- key parsing -------------------------------------------------------- */

struct parse_case {
	const char *text;
	size_t len;		/* 0: strlen(text) */
	const char *err;	/* NULL: accepted */
};

#define KEY SEED_A_B64
static const struct parse_case key_parses[] = {
	{ KEY "\n", 0, NULL },
	{ KEY, 0, NULL },
	{ "", 0, "empty file" },
	{ "\n", 0, "is 0 characters long, expected 44" },
	{ KEY "\n\n", 0, "unexpected data after the secret key line" },
	{ KEY "\nx", 0, "unexpected data after the secret key line" },
	{ KEY "\n" KEY "\n", 0, "unexpected data after the secret key line" },
	{ KEY "\r\n", 0, "is 45 characters long" },
	{ " " KEY "\n", 0, "is 45 characters long" },
	{ KEY " \n", 0, "is 45 characters long" },
	{ "\t" KEY, 0, "is 45 characters long" },
	{ "nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A\n", 0,
	  "is 43 characters long" },
	{ "nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2\n", 0,
	  "is 42 characters long" },
	{ "nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2AA\n", 0,
	  "not valid base64 of 32 bytes" },
	{ "nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2==\n", 0,
	  "not valid base64 of 32 bytes" },
	{ "nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2B=\n", 0,
	  "not valid base64 of 32 bytes" },
	{ "nWGxne/9WmC6hEr0 uwsxERJxWl7MmkZcDusAxyuf2A=\n", 0,
	  "not valid base64 of 32 bytes" },
	{ "nWGxne/9WmC6hEr0*uwsxERJxWl7MmkZcDusAxyuf2A=\n", 0,
	  "not valid base64 of 32 bytes" },
	{ "nWGxne/9WmC6hEr0\0uwsxERJxWl7MmkZcDusAxyuf2A=\n", 45,
	  "not valid base64 of 32 bytes" },
	{ "-----BEGIN BATSEC CERTIFICATE-----\n", 0, "is 34 characters" },
	{ "nWGxne\xaf" "9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A=\n", 0,
	  "not valid base64 of 32 bytes" },
};
#undef KEY

START_TEST(test_seckey_parse)
{
	const struct parse_case *t = &key_parses[_i];
	size_t len = t->len != 0 ? t->len : strlen(t->text);
	uint8_t seed[32], want[32];

	memset(seed, 0x55, sizeof(seed));
	if (t->err == NULL) {
		ck_assert_int_eq(bs_seckey_parse(t->text, len, seed, "t.key",
		    err, sizeof(err)), 0);
		ck_assert_int_eq(bs_key_from_b64(want, SEED_A_B64,
		    BS_KEY_B64_LEN), 0);
		ck_assert_mem_eq(seed, want, sizeof(seed));
		return;
	}
	ck_assert_int_eq(bs_seckey_parse(t->text, len, seed, "t.key", err,
	    sizeof(err)), -1);
	assert_err("t.key", t->err);
	/* The same text as a public key fails the same way. */
	ck_assert_int_eq(bs_pubkey_parse(t->text, len, seed, "t.pub", err,
	    sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "t.pub: "));
}
END_TEST

START_TEST(test_parse_err_buffers)
{
	uint8_t k[32];
	char small[8];

	/* No message buffer at all, and a tiny one: still refused, no overrun. */
	ck_assert_int_eq(bs_seckey_parse("x", 1, k, "n", NULL, 0), -1);
	ck_assert_int_eq(bs_seckey_parse("x", 1, k, "n", small, sizeof(small)),
	    -1);
	ck_assert_uint_eq(strlen(small), sizeof(small) - 1);
	ck_assert_int_eq(bs_seckey_parse(NULL, 0, k, NULL, err, sizeof(err)),
	    -1);
	assert_err("(input)", "empty file");
}
END_TEST

/* ---- secret key files --------------------------------------------------- */

struct load_case {
	const char *content;	/* NULL: see size */
	size_t size;		/* filler bytes when content is NULL */
	mode_t mode;
	const char *err;	/* NULL: accepted */
};

static const struct load_case seckey_loads[] = {
	{ SEED_A_B64 "\n", 0, 0600, NULL },
	{ SEED_A_B64, 0, 0600, NULL },
	{ SEED_A_B64 "\n", 0, 0400, NULL },
	{ SEED_A_B64 "\n", 0, 0700, NULL },
	{ SEED_A_B64 "\n", 0, 0640,
	  "accessible by group or others (mode 0640); run chmod 600" },
	{ SEED_A_B64 "\n", 0, 0604,
	  "accessible by group or others (mode 0604)" },
	{ SEED_A_B64 "\n", 0, 0644, "(mode 0644)" },
	{ SEED_A_B64 "\n", 0, 0660, "(mode 0660)" },
	{ SEED_A_B64 "\n", 0, 0610, "(mode 0610)" },
	{ SEED_A_B64 "\n", 0, 0602, "(mode 0602)" },
	{ SEED_A_B64 "\n", 0, 0601, "(mode 0601)" },
	{ SEED_A_B64 "\n", 0, 0666, "(mode 0666)" },
	{ "", 0, 0600, "empty file" },
	{ "bm90IGEga2V5\n", 0, 0600, "is 12 characters long, expected 44" },
	{ "nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A\n", 0, 0600,
	  "is 43 characters long" },
	{ "nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyu%2A=\n", 0, 0600,
	  "not valid base64" },
	{ "nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2==\n", 0, 0600,
	  "not valid base64 of 32 bytes" },
	{ SEED_A_B64 "\ngarbage\n", 0, 0600, "unexpected data after" },
	{ NULL, BS_KEYFILE_MAX + 1, 0600, "too large (4097 bytes, at most 4096)" },
	{ NULL, 1 << 20, 0600, "too large" },
	{ NULL, BS_KEYFILE_MAX, 0600, "unexpected data after" },
};

START_TEST(test_seckey_load)
{
	const struct load_case *t = &seckey_loads[_i];
	struct bs_identity id;
	char *big = NULL;
	const char *p;
	uint8_t pk[32];

	if (t->content != NULL) {
		p = put_file("node.key", t->content, strlen(t->content),
		    t->mode);
	} else {
		big = malloc(t->size);
		ck_assert_ptr_nonnull(big);
		memset(big, '\n', t->size);
		memcpy(big, SEED_A_B64, BS_KEY_B64_LEN);
		p = put_file("node.key", big, t->size, t->mode);
		free(big);
	}
	memset(&id, 0, sizeof(id));
	if (t->err == NULL) {
		ck_assert_int_eq(bs_seckey_load(p, &id, err, sizeof(err)), 0);
		t_unhex(pk, sizeof(pk), PK_A_HEX);
		ck_assert_mem_eq(id.pk, pk, sizeof(pk));
		return;
	}
	ck_assert_int_eq(bs_seckey_load(p, &id, err, sizeof(err)), -1);
	assert_err(p, t->err);
}
END_TEST

START_TEST(test_seckey_load_not_regular)
{
	struct bs_identity id;
	const char *p;

	ck_assert_int_eq(bs_seckey_load(tpath("missing.key"), &id, err,
	    sizeof(err)), -1);
	assert_err(tpath("missing.key"), "cannot open: No such file");
	p = tpath("dir.key");
	ck_assert_int_eq(mkdir(p, 0700), 0);
	ck_assert_int_eq(bs_seckey_load(p, &id, err, sizeof(err)), -1);
	assert_err(p, "is a directory, expected a regular file");
	/* A FIFO would block a naive reader; it is refused at once. */
	p = tpath("fifo.key");
	ck_assert_int_eq(mkfifo(p, 0600), 0);
	ck_assert_int_eq(bs_seckey_load(p, &id, err, sizeof(err)), -1);
	assert_err(p, "is a FIFO");
	ck_assert_int_eq(bs_seckey_load("/dev/null", &id, err, sizeof(err)),
	    -1);
	assert_err("/dev/null", "is a device");
	ck_assert_int_eq(bs_seckey_load(tpath("missing/x.key"), &id, err,
	    sizeof(err)), -1);
	assert_err(tpath("missing/x.key"), "cannot open");
}
END_TEST

/* chmod 000 denies reading only to non-root users. */
START_TEST(test_seckey_load_unreadable)
{
	struct bs_identity id;
	const char *p = put_file("node.key", SEED_A_B64 "\n", 45, 0000);

	if (geteuid() == 0) {
		/* Root reads it anyway; no group/other bits, so it loads. */
		ck_assert_int_eq(bs_seckey_load(p, &id, err, sizeof(err)), 0);
		return;
	}
	ck_assert_int_eq(bs_seckey_load(p, &id, err, sizeof(err)), -1);
	assert_err(p, "cannot open: Permission denied");
}
END_TEST

/* A secret key is never read through a symbolic link (O_NOFOLLOW). */
START_TEST(test_seckey_load_symlink)
{
	struct bs_identity id;
	const char *p = put_file("real.key", SEED_A_B64 "\n", 45, 0600);
	const char *l = tpath("link.key");

	ck_assert_int_eq(symlink(p, l), 0);
	ck_assert_int_eq(bs_seckey_load(l, &id, err, sizeof(err)), -1);
	assert_err(l, "is a symbolic link");
	ck_assert_int_eq(bs_seckey_load(p, &id, err, sizeof(err)), 0);
	/* A dangling one too, not "No such file". */
	ck_assert_int_eq(unlink(p), 0);
	ck_assert_int_eq(bs_seckey_load(l, &id, err, sizeof(err)), -1);
	assert_err(l, "is a symbolic link");
}
END_TEST

/*
 * The key file's owner: root or the user reading it.  Needs root to give
 * a file away (the tests run as root in CI); otherwise only the
 * reader's own file is tried.
 */
START_TEST(test_seckey_load_owner)
{
	struct bs_identity id;
	const char *p = put_file("node.key", SEED_A_B64 "\n", 45, 0600);
	char want[64];

	ck_assert_int_eq(bs_seckey_load(p, &id, err, sizeof(err)), 0);
	if (geteuid() != 0) {
		fprintf(stderr, "test_seckey_load_owner: not root, the owner "
		    "check of another user's file did not run\n");
		return;
	}
	ck_assert_int_eq(chown(p, 4242, 4242), 0);
	ck_assert_int_eq(bs_seckey_load(p, &id, err, sizeof(err)), -1);
	assert_err(p, "owned by uid 4242, not by root or uid 0");
	snprintf(want, sizeof(want), "run chown root %s", p);
	ck_assert_ptr_nonnull(strstr(err, want));
	ck_assert_int_eq(chown(p, 0, 4242), 0);
	ck_assert_int_eq(bs_seckey_load(p, &id, err, sizeof(err)), 0);
}
END_TEST

/* bs_file_check_perms on its own: owner, then secret, then writable. */
static const struct perm_case {
	uint32_t uid, mode;
	int secret;
	const char *err;	/* NULL: accepted */
} perm_cases[] = {
	{ 0, 0100600, 1, NULL },
	{ 0, 0100400, 1, NULL },
	{ 0, 0100640, 1, "accessible by group or others (mode 0640)" },
	{ 0, 0100604, 1, "accessible by group or others (mode 0604)" },
	{ 0, 0100644, 0, NULL },
	{ 0, 0040755, 0, NULL },
	{ 0, 0041777, 0, "writable by group or others (mode 1777)" },
	{ 0, 0100664, 0, "writable by group or others (mode 0664); run "
	  "chmod go-w" },
	{ 0, 0100646, 0, "writable by group or others" },
	{ 4242, 0100644, 0, "owned by uid 4242" },
	{ 4242, 0100600, 1, "owned by uid 4242" },
};

START_TEST(test_check_perms)
{
	const struct perm_case *t = &perm_cases[_i];
	uint32_t uid = t->uid;
	int r;

	/* 4242 stands for another user; run as 4242, use 4243. */
	if (uid == 4242 && geteuid() == 4242)
		uid = 4243;
	err[0] = '\0';
	r = bs_file_check_perms("/x/f", uid, t->mode, t->secret, err,
	    sizeof(err));
	if (t->err == NULL) {
		ck_assert_msg(r == 0, "case %d: %s", _i, err);
		return;
	}
	ck_assert_int_eq(r, -1);
	assert_err("/x/f", uid == t->uid ? t->err : "owned by uid");
}
END_TEST

/* Saved keys have mode 0600 whatever the umask, and load back. */
static const mode_t umasks[] = { 0, 022, 077, 0777 };

START_TEST(test_seckey_save)
{
	struct bs_identity id, back;
	const char *p = tpath("node.key");
	char buf[100], line[BS_KEY_B64_LEN + 2];
	size_t n;

	umask(umasks[_i]);
	ck_assert_int_eq(bs_identity_generate(&id), 0);
	ck_assert_int_eq(bs_seckey_save(p, &id, err, sizeof(err)), 0);
	ck_assert_uint_eq(file_mode(p), 0600);
	n = file_read(p, buf, sizeof(buf));
	bs_key_to_b64(line, id.seed);
	strcat(line, "\n");
	ck_assert_uint_eq(n, BS_KEY_B64_LEN + 1);
	ck_assert_mem_eq(buf, line, n);
	ck_assert_int_eq(bs_seckey_load(p, &back, err, sizeof(err)), 0);
	ck_assert_mem_eq(back.pk, id.pk, BS_PK_LEN);
	ck_assert_mem_eq(back.sk, id.sk, BS_SK_LEN);
	ck_assert_int_eq(dir_entries(), 1);
	assert_no_tmp();
}
END_TEST

START_TEST(test_seckey_save_replaces)
{
	struct bs_identity id, back;
	const char *p = put_file("node.key", "old contents\n", 13, 0644);

	ck_assert_int_eq(bs_identity_generate(&id), 0);
	ck_assert_int_eq(bs_seckey_save(p, &id, err, sizeof(err)), 0);
	ck_assert_uint_eq(file_mode(p), 0600);
	ck_assert_int_eq(bs_seckey_load(p, &back, err, sizeof(err)), 0);
	ck_assert_mem_eq(back.pk, id.pk, BS_PK_LEN);
	ck_assert_int_eq(dir_entries(), 1);
}
END_TEST

START_TEST(test_seckey_save_fails)
{
	struct bs_identity id;
	const char *p;

	ck_assert_int_eq(bs_identity_generate(&id), 0);
	p = tpath("nodir/node.key");
	ck_assert_int_eq(bs_seckey_save(p, &id, err, sizeof(err)), -1);
	assert_err(p, "cannot create temporary file");
	/* Renaming over a directory fails; the temporary file is removed. */
	p = tpath("adir");
	ck_assert_int_eq(mkdir(p, 0700), 0);
	ck_assert_int_eq(bs_seckey_save(p, &id, err, sizeof(err)), -1);
	assert_err(p, "cannot rename");
	ck_assert_int_eq(dir_entries(), 1);
	assert_no_tmp();
}
END_TEST

/* ---- atomic write ------------------------------------------------------- */

static const unsigned write_modes[] = { 0600, 0644, 0640, 0400, 0755, 0 };

START_TEST(test_write_atomic_modes)
{
	const char *p = tpath("state");
	size_t u;

	for (u = 0; u < sizeof(umasks) / sizeof(umasks[0]); u++) {
		umask(umasks[u]);
		ck_assert_int_eq(bs_file_write_atomic(p, "abc", 3,
		    write_modes[_i], err, sizeof(err)), 0);
		ck_assert_uint_eq(file_mode(p), write_modes[_i]);
		ck_assert_int_eq(dir_entries(), 1);
	}
	assert_no_tmp();
}
END_TEST

START_TEST(test_write_atomic_content)
{
	const size_t big = 3 << 20;
	uint8_t *data = malloc(big), *back = malloc(big + 1);
	const char *p = tpath("big");
	size_t got = 0;
	ssize_t r;
	int fd;

	ck_assert_ptr_nonnull(data);
	ck_assert_ptr_nonnull(back);
	randombytes_buf(data, big);
	ck_assert_int_eq(bs_file_write_atomic(p, data, big, 0644, err,
	    sizeof(err)), 0);
	fd = open(p, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	while ((r = read(fd, back + got, big + 1 - got)) > 0)
		got += (size_t)r;
	close(fd);
	ck_assert_uint_eq(got, big);
	ck_assert_int_eq(memcmp(data, back, big), 0);
	/* Empty content replaces it with an empty file. */
	ck_assert_int_eq(bs_file_write_atomic(p, NULL, 0, 0600, err,
	    sizeof(err)), 0);
	ck_assert_uint_eq(file_read(p, (char *)back, big), 0);
	ck_assert_int_eq(dir_entries(), 1);
	free(data);
	free(back);
}
END_TEST

/* A write that fails half-way leaves the old file intact and no temp. */
START_TEST(test_write_atomic_short_write)
{
	struct rlimit rl = { 1000, 1000 };
	const char *p = put_file("policy", "old\n", 4, 0644);
	char buf[4096], back[16];

	/* RLIMIT_FSIZE: the first write is cut short, the next gets EFBIG. */
	signal(SIGXFSZ, SIG_IGN);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	memset(buf, 'x', sizeof(buf));
	ck_assert_int_eq(bs_file_write_atomic(p, buf, sizeof(buf), 0644, err,
	    sizeof(err)), -1);
	ck_assert_msg(strstr(err, "write failed: File too large") != NULL,
	    "message \"%s\"", err);
	ck_assert_ptr_nonnull(strstr(err, ".tmp."));
	ck_assert_uint_eq(file_read(p, back, sizeof(back)), 4);
	ck_assert_mem_eq(back, "old\n", 4);
	ck_assert_int_eq(dir_entries(), 1);
	assert_no_tmp();
	/* Within the limit the same call succeeds. */
	ck_assert_int_eq(bs_file_write_atomic(p, buf, 999, 0644, err,
	    sizeof(err)), 0);
}
END_TEST

START_TEST(test_write_atomic_bad_args)
{
	char longpath[PATH_MAX + 10], big[2 * PATH_MAX];

	ck_assert_int_eq(bs_file_write_atomic(tpath("x"), "a", 1, 010600, err,
	    sizeof(err)), -1);
	assert_err(tpath("x"), "invalid file mode");
	ck_assert_int_eq(bs_file_write_atomic(NULL, "a", 1, 0600, err,
	    sizeof(err)), -1);
	ck_assert_int_eq(bs_file_write_atomic("", "a", 1, 0600, err,
	    sizeof(err)), -1);
	ck_assert_int_eq(bs_file_write_atomic(tpath("x"), NULL, 1, 0600, err,
	    sizeof(err)), -1);
	memset(longpath, 'a', sizeof(longpath) - 1);
	longpath[sizeof(longpath) - 1] = '\0';
	ck_assert_int_eq(bs_file_write_atomic(longpath, "a", 1, 0600, big,
	    sizeof(big)), -1);
	ck_assert_ptr_nonnull(strstr(big, ": path too long"));
	ck_assert_int_eq(dir_entries(), 0);
}
END_TEST

/* A relative path without a directory part syncs "." */
START_TEST(test_write_atomic_relative)
{
	char back[8];

	ck_assert_int_eq(chdir(tdir), 0);
	ck_assert_int_eq(bs_file_write_atomic("rel", "xyz", 3, 0600, err,
	    sizeof(err)), 0);
	ck_assert_uint_eq(file_read(tpath("rel"), back, sizeof(back)), 3);
	ck_assert_int_eq(dir_entries(), 1);
}
END_TEST

START_TEST(test_write_atomic_readonly_dir)
{
	const char *d = tpath("ro");
	const char *p = tpath("ro/file");

	if (geteuid() == 0)
		return;	/* root writes into a 0500 directory anyway */
	ck_assert_int_eq(mkdir(d, 0500), 0);
	ck_assert_int_eq(bs_file_write_atomic(p, "a", 1, 0600, err,
	    sizeof(err)), -1);
	assert_err(p, "cannot create temporary file: Permission denied");
	ck_assert_int_eq(chmod(d, 0700), 0);
}
END_TEST

/* ---- writing a new file only (BS_FILE_NOREPLACE) ------------------------ */

START_TEST(test_write_new_modes)
{
	const char *p = tpath("new");
	char back[8];
	size_t u;

	for (u = 0; u < sizeof(umasks) / sizeof(umasks[0]); u++) {
		umask(umasks[u]);
		ck_assert_int_eq(bs_file_write(p, "abc", 3, write_modes[_i],
		    BS_FILE_NOREPLACE, err, sizeof(err)), 0);
		ck_assert_uint_eq(file_mode(p), write_modes[_i]);
		ck_assert_uint_eq(file_read(p, back, sizeof(back)), 3);
		ck_assert_mem_eq(back, "abc", 3);
		ck_assert_int_eq(dir_entries(), 1);
		ck_assert_int_eq(unlink(p), 0);
	}
	assert_no_tmp();
}
END_TEST

/* An existing file, or a symlink even to nothing, is never replaced. */
START_TEST(test_write_new_exists)
{
	const char *p = put_file("old", "old\n", 4, 0640);
	const char *l = tpath("link"), *target = tpath("target");
	char back[16];

	errno = 0;
	ck_assert_int_eq(bs_file_write(p, "new\n", 4, 0600, BS_FILE_NOREPLACE,
	    err, sizeof(err)), -1);
	ck_assert_int_eq(errno, EEXIST);
	assert_err(p, "already exists");
	ck_assert_uint_eq(file_read(p, back, sizeof(back)), 4);
	ck_assert_mem_eq(back, "old\n", 4);
	ck_assert_uint_eq(file_mode(p), 0640);
	ck_assert_int_eq(symlink(target, l), 0);
	errno = 0;
	ck_assert_int_eq(bs_file_write(l, "new\n", 4, 0600, BS_FILE_NOREPLACE,
	    err, sizeof(err)), -1);
	ck_assert_int_eq(errno, EEXIST);
	assert_err(l, "already exists");
	ck_assert_int_eq(access(target, F_OK), -1);
	ck_assert_int_eq(dir_entries(), 2);
	assert_no_tmp();
	/* Without the flag the same call replaces the file. */
	ck_assert_int_eq(bs_file_write(p, "new\n", 4, 0600, 0, err,
	    sizeof(err)), 0);
	ck_assert_uint_eq(file_read(p, back, sizeof(back)), 4);
	ck_assert_mem_eq(back, "new\n", 4);
}
END_TEST

START_TEST(test_write_new_fails)
{
	const char *p = tpath("nodir/new");

	ck_assert_int_eq(bs_file_write(p, "a", 1, 0600, BS_FILE_NOREPLACE,
	    err, sizeof(err)), -1);
	ck_assert_int_ne(errno, EEXIST);
	assert_err(p, "cannot create: No such file or directory");
	/* A directory in the way is an existing path too. */
	p = tpath("adir");
	ck_assert_int_eq(mkdir(p, 0700), 0);
	ck_assert_int_eq(bs_file_write(p, "a", 1, 0600, BS_FILE_NOREPLACE,
	    err, sizeof(err)), -1);
	ck_assert_int_eq(errno, EEXIST);
	assert_err(p, "already exists");
	ck_assert_int_eq(dir_entries(), 1);
	assert_no_tmp();
}
END_TEST

/* bs_fd_write_all writes everything, across a pipe's short writes. */
START_TEST(test_fd_write_all)
{
	const size_t big = 1 << 20;
	char *data = malloc(big), *back = malloc(big);
	size_t got = 0;
	ssize_t r;
	int fds[2];
	pid_t pid;

	ck_assert_ptr_nonnull(data);
	ck_assert_ptr_nonnull(back);
	randombytes_buf(data, big);
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(fds[0]);
		_exit(bs_fd_write_all(fds[1], data, big) == 0 ? 0 : 1);
	}
	close(fds[1]);
	while ((r = read(fds[0], back + got, big - got)) > 0)
		got += (size_t)r;
	close(fds[0]);
	ck_assert_uint_eq(got, big);
	ck_assert_int_eq(memcmp(data, back, big), 0);
	ck_assert_int_eq(bs_fd_write_all(-1, "a", 1), -1);
	ck_assert_int_eq(errno, EBADF);
	free(data);
	free(back);
}
END_TEST

/* ---- bs_file_read_small ------------------------------------------------- */

START_TEST(test_read_small)
{
	char buf[BS_KEYFILE_MAX];
	const char *p = put_file("f", "0123456789", 10, 0644);

	ck_assert_int_eq(bs_file_read_small(p, buf, sizeof(buf), 0, err,
	    sizeof(err)), 10);
	ck_assert_mem_eq(buf, "0123456789", 10);
	ck_assert_int_eq(bs_file_read_small(p, buf, 10, 0, err, sizeof(err)),
	    10);
	ck_assert_int_eq(bs_file_read_small(p, buf, 9, 0, err, sizeof(err)),
	    -1);
	assert_err(p, "too large (10 bytes, at most 9)");
	ck_assert_int_eq(bs_file_read_small(p, buf, sizeof(buf), 1, err,
	    sizeof(err)), -1);
	assert_err(p, "(mode 0644)");
	ck_assert_int_eq(chmod(p, 0600), 0);
	ck_assert_int_eq(bs_file_read_small(p, buf, sizeof(buf), 1, err,
	    sizeof(err)), 10);
	p = put_file("empty", "", 0, 0600);
	ck_assert_int_eq(bs_file_read_small(p, buf, sizeof(buf), 1, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(bs_file_read_small(NULL, buf, sizeof(buf), 1, err,
	    sizeof(err)), -1);
}
END_TEST

/*
 * A file may hold more than fstat said (it grew, or it is a /proc file
 * that reports size 0): the reader still stops at the limit and refuses.
 */
START_TEST(test_read_small_grown)
{
	const char *p = "/proc/self/status";
	char buf[16];

	ck_assert_int_eq(access(p, R_OK), 0);
	ck_assert_int_eq(bs_file_read_small(p, buf, sizeof(buf), 0, err,
	    sizeof(err)), -1);
	assert_err(p, "too large (more than 16 bytes)");
}
END_TEST

/* ---- public keys -------------------------------------------------------- */

START_TEST(test_pubkey_load)
{
	uint8_t pk[32], want[32];
	const char *p;

	t_unhex(want, sizeof(want), PK_A_HEX);
	p = put_file("a.pub", PK_A_B64 "\n", 45, 0644);
	ck_assert_int_eq(bs_pubkey_load(p, pk, err, sizeof(err)), 0);
	ck_assert_mem_eq(pk, want, 32);
	/* The key text itself (contains '/', names no existing file). */
	memset(pk, 0, sizeof(pk));
	ck_assert_int_eq(bs_pubkey_load(PK_A_B64, pk, err, sizeof(err)), 0);
	ck_assert_mem_eq(pk, want, 32);
	/* Bad contents name the file. */
	p = put_file("bad.pub", "hello\n", 6, 0644);
	ck_assert_int_eq(bs_pubkey_load(p, pk, err, sizeof(err)), -1);
	assert_err(p, "public key is 5 characters long");
	/* Neither a file nor a key. */
	ck_assert_int_eq(bs_pubkey_load(tpath("none.pub"), pk, err,
	    sizeof(err)), -1);
	assert_err(tpath("none.pub"), "cannot open: No such file");
	ck_assert_int_eq(bs_pubkey_load(
	    "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo", pk, err,
	    sizeof(err)), -1);
	ck_assert_int_eq(bs_pubkey_load(
	    "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURp=", pk, err,
	    sizeof(err)), -1);
	assert_err("11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURp=", "cannot open");
	ck_assert_int_eq(bs_pubkey_load(NULL, pk, err, sizeof(err)), -1);
	/* Public key files may be world-readable; a directory is not one. */
	ck_assert_int_eq(bs_pubkey_load(tdir, pk, err, sizeof(err)), -1);
	assert_err(tdir, "is a directory");
}
END_TEST

/* An existing file wins over reading its name as a key. */
START_TEST(test_pubkey_file_wins)
{
	struct bs_identity id;
	uint8_t pk[32];
	char name[BS_KEY_B64_LEN + 1], other[BS_KEY_B64_LEN + 2];
	unsigned i;

	/* A deterministic key whose base64 has no '/', usable as a name. */
	for (i = 0;; i++) {
		t_ident(&id, (uint8_t)i);
		bs_key_to_b64(name, id.pk);
		if (strchr(name, '/') == NULL)
			break;
	}
	ck_assert_int_eq(chdir(tdir), 0);
	ck_assert_int_eq(bs_pubkey_load(name, pk, err, sizeof(err)), 0);
	ck_assert_mem_eq(pk, id.pk, 32);
	snprintf(other, sizeof(other), "%s\n", PK_A_B64);
	put_file(name, other, strlen(other), 0644);
	ck_assert_int_eq(bs_pubkey_load(name, pk, err, sizeof(err)), 0);
	ck_assert(memcmp(pk, id.pk, 32) != 0);
	/* And a file with bad content is an error, not a fallback. */
	put_file(name, "x\n", 2, 0644);
	ck_assert_int_eq(bs_pubkey_load(name, pk, err, sizeof(err)), -1);
	assert_err(name, "public key is 1 characters long");
}
END_TEST

/* ---- armour ------------------------------------------------------------- */

#define CERT_B64 \
	"AQEOAD1AF8PoQ4lakrcKp00bfrycmCzPLsSWjMDNVfEq9GYM11qYAYKxCrfVS/7TyWQH" \
	"Og7hcvPapiMlrwIaaPcHURoAAAAAZVPxAAAAAABrSdIAbm9kZS0xLmV4YW1wbGUAAAAA" \
	"AAAAAAAAAAAAAAAAAABHSzhqDTDZCHocEYxXNjcjdNj09KerUd9KSVCHQGeqJ2ViueNQ" \
	"fJH65Ho6glArlz7KKvkKG6Nw8XLb6jxJ9BIA"
#define CERT_BEGIN "-----BEGIN BATSEC CERTIFICATE-----\n"
#define CERT_END "-----END BATSEC CERTIFICATE-----\n"
#define CERT_ARMOR CERT_BEGIN CERT_B64 "\n" CERT_END

#define REV_B64 \
	"AQAAAD1AF8PoQ4lakrcKp00bfrycmCzPLsSWjMDNVfEq9GYM11qYAYKxCrfVS/7TyWQH" \
	"Og7hcvPapiMlrwIaaPcHURoAAAAAaE7hgD1NGgnDMM68R8GpxqD6xiKyBMNlF4XmtqMp" \
	"qx/bui3W1nqayrbcZXhtuCcRSKA+JJqiDP/K8byCDaWBGHTomAU="
#define REV_BEGIN "-----BEGIN BATSEC REVOCATION-----\n"
#define REV_END "-----END BATSEC REVOCATION-----\n"
#define REV_ARMOR REV_BEGIN REV_B64 "\n" REV_END

/* The certificate and revocation of check_crypto's known answers. */
static void
fixtures(struct bs_identity *ca, struct bs_cert *c, struct bs_revoke *r)
{
	struct bs_identity b;
	uint8_t seed[32];

	ck_assert_int_eq(bs_key_from_b64(seed, SEED_A_B64, 44), 0);
	ck_assert_int_eq(bs_identity_from_seed(ca, seed), 0);
	t_unhex(seed, sizeof(seed), SEED_B_HEX);
	ck_assert_int_eq(bs_identity_from_seed(&b, seed), 0);
	ck_assert_int_eq(bs_cert_issue(c, ca, b.pk, "node-1.example",
	    BS_ROLE_GATEWAY, 1700000000, 1800000000), 0);
	ck_assert_int_eq(bs_revoke_issue(r, ca, b.pk, 1750000000), 0);
}

START_TEST(test_armor_kat)
{
	struct bs_identity ca;
	struct bs_cert c, d;
	struct bs_revoke r, s;
	char text[BS_ARMOR_MAX];

	fixtures(&ca, &c, &r);
	ck_assert_int_eq(bs_cert_to_armor(text, sizeof(text), &c),
	    (int)strlen(CERT_ARMOR));
	ck_assert_str_eq(text, CERT_ARMOR);
	ck_assert_int_eq(bs_revoke_to_armor(text, sizeof(text), &r),
	    (int)strlen(REV_ARMOR));
	ck_assert_str_eq(text, REV_ARMOR);
	ck_assert_int_eq(bs_cert_parse_armor(CERT_ARMOR, strlen(CERT_ARMOR),
	    &d, "c", err, sizeof(err)), 0);
	ck_assert_int_eq(bs_cert_verify(&d, ca.pk, 1750000000), BS_CERT_OK);
	ck_assert_str_eq(d.name, "node-1.example");
	ck_assert_int_eq(bs_revoke_parse_armor(REV_ARMOR, strlen(REV_ARMOR),
	    &s, "r", err, sizeof(err)), 0);
	ck_assert_int_eq(bs_revoke_verify(&s, ca.pk), 0);
	ck_assert_mem_eq(s.revoked_pk, c.node_pk, BS_PK_LEN);
	/* Buffers: exactly enough, one byte short. */
	ck_assert_int_eq(bs_cert_to_armor(text, strlen(CERT_ARMOR) + 1, &c),
	    (int)strlen(CERT_ARMOR));
	ck_assert_int_eq(bs_cert_to_armor(text, strlen(CERT_ARMOR), &c), -1);
	ck_assert_int_eq(bs_revoke_to_armor(text, strlen(REV_ARMOR), &r), -1);
	ck_assert_int_eq(bs_cert_to_armor(NULL, 0, &c), -1);
}
END_TEST

static const struct parse_case cert_parses[] = {
	{ CERT_ARMOR, 0, NULL },
	{ CERT_BEGIN CERT_B64 "\n-----END BATSEC CERTIFICATE-----", 0, NULL },
	{ "", 0, "empty file, expected a certificate" },
	{ "hello\n", 0, "first line is not \"-----BEGIN BATSEC CERTIFICATE-----\"" },
	{ "\n" CERT_ARMOR, 0, "first line is not" },
	{ REV_ARMOR, 0, "first line is not" },
	{ "-----BEGIN BATSEC CERTIFICATE-----", 0, "ends before the END line" },
	{ CERT_BEGIN, 0, "ends before the END line" },
	{ CERT_BEGIN CERT_B64, 0, "ends before the END line" },
	{ CERT_BEGIN CERT_B64 "\n", 0, "third line is not" },
	{ CERT_BEGIN CERT_B64 "\n" REV_END, 0, "third line is not" },
	{ CERT_BEGIN CERT_B64 "\n" CERT_END "\n", 0,
	  "unexpected data after the END line" },
	{ CERT_BEGIN CERT_B64 "\n" CERT_END "x", 0,
	  "unexpected data after the END line" },
	{ CERT_BEGIN CERT_B64 "\n" CERT_END CERT_ARMOR, 0,
	  "unexpected data after the END line" },
	{ "-----BEGIN BATSEC CERTIFICATE-----\r\n" CERT_B64 "\r\n"
	  "-----END BATSEC CERTIFICATE-----\r\n", 0, "first line is not" },
	{ CERT_BEGIN " " CERT_B64 "\n" CERT_END, 0,
	  "body is 241 characters long, expected 240" },
	{ CERT_BEGIN "AAAA\n" CERT_END, 0,
	  "body is 4 characters long, expected 240" },
	{ CERT_BEGIN "\n" CERT_END, 0, "body is 0 characters long" },
	{ CERT_BEGIN "*" CERT_B64 "\n" CERT_END, 0, "body is 241 characters" },
	{ CERT_BEGIN "*" CERT_B64 "\n" CERT_END, 0, "body is 241 characters" },
	{ CERT_BEGIN "A" CERT_B64 "\n" CERT_END, 0, "body is 241 characters" },
	/* Right length, wrong alphabet / version / name. */
	{ CERT_BEGIN "*" CERT_B64 "\n" CERT_END, 0, "body is 241" },
	{ CERT_BEGIN "AgEOAD1AF8PoQ4lakrcKp00bfrycmCzPLsSWjMDNVfEq9GYM11qYAYKxCrfVS/7TyWQH"
	  "Og7hcvPapiMlrwIaaPcHURoAAAAAZVPxAAAAAABrSdIAbm9kZS0xLmV4YW1wbGUAAAAA"
	  "AAAAAAAAAAAAAAAAAABHSzhqDTDZCHocEYxXNjcjdNj09KerUd9KSVCHQGeqJ2ViueNQ"
	  "fJH65Ho6glArlz7KKvkKG6Nw8XLb6jxJ9BIA\n" CERT_END, 0,
	  "malformed certificate: unsupported format version" },
	{ CERT_BEGIN "AQEOAD1AF8PoQ4lakrcKp00bfrycmCzPLsSWjMDNVfEq9GYM11qYAYKxCrfVS/7TyWQH"
	  "Og7hcvPapiMlrwIaaPcHURoAAAAAZVPxAAAAAABrSdIAbm9kZS0xLmV4YW1wbGUAAAAA"
	  "AAAAAAAAAAAAAAAAAABHSzhqDTDZCHocEYxXNjcjdNj09KerUd9KSVCHQGeqJ2ViueNQ"
	  "fJH65Ho6glArlz7KKvkKG6Nw8XLb6jxJ9BI*\n" CERT_END, 0,
	  "certificate body is not valid base64" },
	{ CERT_BEGIN "AQEOAD1AF8PoQ4lakrcKp00bfrycmCzPLsSWjMDNVfEq9GYM11qYAYKxCrfVS\xaf" "7TyWQH"
	  "Og7hcvPapiMlrwIaaPcHURoAAAAAZVPxAAAAAABrSdIAbm9kZS0xLmV4YW1wbGUAAAAA"
	  "AAAAAAAAAAAAAAAAAABHSzhqDTDZCHocEYxXNjcjdNj09KerUd9KSVCHQGeqJ2ViueNQ"
	  "fJH65Ho6glArlz7KKvkKG6Nw8XLb6jxJ9BIA\n" CERT_END, 0,
	  "certificate body is not valid base64" },
	{ CERT_BEGIN "AQEOAD1AF8PoQ4lakrcKp00bfrycmCzPLsSWjMDNVfEq9GYM11qYAYKxCrfVS/7TyWQH"
	  "Og7hcvPapiMlrwIaaPcHURoAAAAAZVPxAAAAAABrSdIAbm9kZS0xLmV4YW1wbGUgAAAA"
	  "AAAAAAAAAAAAAAAAAABHSzhqDTDZCHocEYxXNjcjdNj09KerUd9KSVCHQGeqJ2ViueNQ"
	  "fJH65Ho6glArlz7KKvkKG6Nw8XLb6jxJ9BIA\n" CERT_END, 0,
	  "malformed certificate: name padding not zero" },
};

START_TEST(test_cert_parse)
{
	const struct parse_case *t = &cert_parses[_i];
	size_t len = t->len != 0 ? t->len : strlen(t->text);
	struct bs_cert c;

	if (t->err == NULL) {
		ck_assert_int_eq(bs_cert_parse_armor(t->text, len, &c, "c.crt",
		    err, sizeof(err)), 0);
		ck_assert_str_eq(c.name, "node-1.example");
		return;
	}
	ck_assert_int_eq(bs_cert_parse_armor(t->text, len, &c, "c.crt", err,
	    sizeof(err)), -1);
	assert_err("c.crt", t->err);
}
END_TEST

static const struct parse_case revoke_parses[] = {
	{ REV_ARMOR, 0, NULL },
	{ REV_BEGIN REV_B64 "\n-----END BATSEC REVOCATION-----", 0, NULL },
	{ "", 0, "empty file, expected a revocation record" },
	{ CERT_ARMOR, 0,
	  "first line is not \"-----BEGIN BATSEC REVOCATION-----\"" },
	{ REV_BEGIN REV_B64 "\n" CERT_END, 0, "third line is not" },
	{ REV_BEGIN REV_B64 "\n" REV_END "#", 0, "unexpected data after" },
	{ REV_BEGIN REV_B64 "=\n" REV_END, 0,
	  "body is 189 characters long, expected 188" },
	{ REV_BEGIN "AQAAAD1AF8PoQ4lakrcKp00bfrycmCzPLsSWjMDNVfEq9GYM11qYAYKxCrfVS/7TyWQH"
	  "Og7hcvPapiMlrwIaaPcHURoAAAAAaE7hgD1NGgnDMM68R8GpxqD6xiKyBMNlF4XmtqMp"
	  "qx/bui3W1nqayrbcZXhtuCcRSKA+JJqiDP/K8byCDaWBGHTomAV=\n" REV_END, 0,
	  "revocation record body is not valid base64" },
	{ REV_BEGIN "AQABAD1AF8PoQ4lakrcKp00bfrycmCzPLsSWjMDNVfEq9GYM11qYAYKxCrfVS/7TyWQH"
	  "Og7hcvPapiMlrwIaaPcHURoAAAAAaE7hgD1NGgnDMM68R8GpxqD6xiKyBMNlF4XmtqMp"
	  "qx/bui3W1nqayrbcZXhtuCcRSKA+JJqiDP/K8byCDaWBGHTomAU=\n" REV_END, 0,
	  "malformed revocation record: reserved byte not zero" },
};

START_TEST(test_revoke_parse)
{
	const struct parse_case *t = &revoke_parses[_i];
	size_t len = t->len != 0 ? t->len : strlen(t->text);
	struct bs_revoke r;

	if (t->err == NULL) {
		ck_assert_int_eq(bs_revoke_parse_armor(t->text, len, &r, "r.rev",
		    err, sizeof(err)), 0);
		ck_assert_uint_eq(r.issued_at, 1750000000);
		return;
	}
	ck_assert_int_eq(bs_revoke_parse_armor(t->text, len, &r, "r.rev", err,
	    sizeof(err)), -1);
	assert_err("r.rev", t->err);
}
END_TEST

START_TEST(test_armor_files)
{
	struct bs_identity ca;
	struct bs_cert c, d;
	struct bs_revoke r, s;
	char buf[BS_ARMOR_MAX];
	const char *cp = tpath("node.crt"), *rp = tpath("node.rev");

	umask(077);
	fixtures(&ca, &c, &r);
	ck_assert_int_eq(bs_cert_save(cp, &c, err, sizeof(err)), 0);
	ck_assert_int_eq(bs_revoke_save(rp, &r, err, sizeof(err)), 0);
	ck_assert_uint_eq(file_mode(cp), 0644);
	ck_assert_uint_eq(file_mode(rp), 0644);
	ck_assert_uint_eq(file_read(cp, buf, sizeof(buf)), strlen(CERT_ARMOR));
	ck_assert_mem_eq(buf, CERT_ARMOR, strlen(CERT_ARMOR));
	ck_assert_int_eq(bs_cert_load(cp, &d, err, sizeof(err)), 0);
	ck_assert_int_eq(bs_cert_verify(&d, ca.pk, 0), BS_CERT_OK);
	ck_assert_int_eq(bs_revoke_load(rp, &s, err, sizeof(err)), 0);
	ck_assert_int_eq(bs_revoke_verify(&s, ca.pk), 0);
	assert_no_tmp();
	/* Loaders name the file; a certificate is not a revocation. */
	ck_assert_int_eq(bs_revoke_load(cp, &s, err, sizeof(err)), -1);
	assert_err(cp, "first line is not");
	ck_assert_int_eq(bs_cert_load(rp, &d, err, sizeof(err)), -1);
	assert_err(rp, "first line is not");
	ck_assert_int_eq(bs_cert_load(tpath("none"), &d, err, sizeof(err)),
	    -1);
	assert_err(tpath("none"), "cannot open");
	ck_assert_int_eq(bs_revoke_load(tdir, &s, err, sizeof(err)), -1);
	assert_err(tdir, "is a directory");
	ck_assert_int_eq(bs_cert_save(tpath("no/dir"), &c, err, sizeof(err)),
	    -1);
	ck_assert_int_eq(bs_revoke_save(tpath("no/dir"), &r, err, sizeof(err)),
	    -1);
	ck_assert_int_eq(dir_entries(), 2);
}
END_TEST

/* The _write forms of the savers: BS_FILE_NOREPLACE keeps a file. */
START_TEST(test_savers_no_replace)
{
	struct bs_identity ca, id;
	struct bs_cert c;
	struct bs_revoke r;
	const char *kp = tpath("node.key"), *cp = tpath("node.crt");
	const char *rp = tpath("node.rev");
	char buf[BS_ARMOR_MAX];

	umask(077);
	fixtures(&ca, &c, &r);
	ck_assert_int_eq(bs_seckey_write(kp, &ca, BS_FILE_NOREPLACE, err,
	    sizeof(err)), 0);
	ck_assert_uint_eq(file_mode(kp), 0600);
	ck_assert_int_eq(bs_seckey_load(kp, &id, err, sizeof(err)), 0);
	ck_assert_mem_eq(id.pk, ca.pk, BS_PK_LEN);
	ck_assert_int_eq(bs_cert_write(cp, &c, BS_FILE_NOREPLACE, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(bs_revoke_write(rp, &r, BS_FILE_NOREPLACE, err,
	    sizeof(err)), 0);
	ck_assert_uint_eq(file_mode(cp), 0644);
	ck_assert_uint_eq(file_mode(rp), 0644);
	ck_assert_uint_eq(file_read(cp, buf, sizeof(buf)), strlen(CERT_ARMOR));
	ck_assert_mem_eq(buf, CERT_ARMOR, strlen(CERT_ARMOR));
	/* Each refuses a second time, the first file stays. */
	ck_assert_int_eq(bs_identity_generate(&id), 0);
	ck_assert_int_eq(bs_seckey_write(kp, &id, BS_FILE_NOREPLACE, err,
	    sizeof(err)), -1);
	ck_assert_int_eq(errno, EEXIST);
	assert_err(kp, "already exists");
	ck_assert_int_eq(bs_seckey_load(kp, &id, err, sizeof(err)), 0);
	ck_assert_mem_eq(id.pk, ca.pk, BS_PK_LEN);
	ck_assert_int_eq(bs_cert_write(rp, &c, BS_FILE_NOREPLACE, err,
	    sizeof(err)), -1);
	assert_err(rp, "already exists");
	ck_assert_int_eq(bs_revoke_write(cp, &r, BS_FILE_NOREPLACE, err,
	    sizeof(err)), -1);
	assert_err(cp, "already exists");
	ck_assert_int_eq(bs_cert_load(cp, &c, err, sizeof(err)), 0);
	ck_assert_int_eq(bs_revoke_load(rp, &r, err, sizeof(err)), 0);
	ck_assert_int_eq(dir_entries(), 3);
	assert_no_tmp();
}
END_TEST

static Suite *
keys_suite(void)
{
	Suite *s = suite_create("keys");
	TCase *tc;

	tc = tcase_create("b64");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_b64_roundtrip);
	tcase_add_loop_test(tc, test_b64_reject, 0, T_NELEM(bad_b64));
	tcase_add_test(tc, test_b64_nul_inside);
	tcase_add_test(tc, test_b64_generic);
	tcase_add_test(tc, test_addr_to_str);
	suite_add_tcase(s, tc);

	tc = tcase_create("keyfile");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_seckey_parse, 0, T_NELEM(key_parses));
	tcase_add_test(tc, test_parse_err_buffers);
	tcase_add_loop_test(tc, test_seckey_load, 0, T_NELEM(seckey_loads));
	tcase_add_test(tc, test_seckey_load_not_regular);
	tcase_add_test(tc, test_seckey_load_unreadable);
	tcase_add_test(tc, test_seckey_load_symlink);
	tcase_add_test(tc, test_seckey_load_owner);
	tcase_add_loop_test(tc, test_check_perms, 0, T_NELEM(perm_cases));
	tcase_add_loop_test(tc, test_seckey_save, 0, T_NELEM(umasks));
	tcase_add_test(tc, test_seckey_save_replaces);
	tcase_add_test(tc, test_seckey_save_fails);
	tcase_add_test(tc, test_pubkey_load);
	tcase_add_test(tc, test_pubkey_file_wins);
	suite_add_tcase(s, tc);

	tc = tcase_create("fileio");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_write_atomic_modes, 0,
	    T_NELEM(write_modes));
	tcase_add_test(tc, test_write_atomic_content);
	tcase_add_test(tc, test_write_atomic_short_write);
	tcase_add_test(tc, test_write_atomic_bad_args);
	tcase_add_test(tc, test_write_atomic_relative);
	tcase_add_test(tc, test_write_atomic_readonly_dir);
	tcase_add_loop_test(tc, test_write_new_modes, 0,
	    T_NELEM(write_modes));
	tcase_add_test(tc, test_write_new_exists);
	tcase_add_test(tc, test_write_new_fails);
	tcase_add_test(tc, test_fd_write_all);
	tcase_add_test(tc, test_read_small);
	tcase_add_test(tc, test_read_small_grown);
	suite_add_tcase(s, tc);

	tc = tcase_create("armor");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_armor_kat);
	tcase_add_loop_test(tc, test_cert_parse, 0, T_NELEM(cert_parses));
	tcase_add_loop_test(tc, test_revoke_parse, 0, T_NELEM(revoke_parses));
	tcase_add_test(tc, test_armor_files);
	tcase_add_test(tc, test_savers_no_replace);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return t_run(keys_suite());
}
