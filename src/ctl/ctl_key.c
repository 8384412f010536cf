/*
 * ctl_key.c — batsec-ctl key generate, key public, key address: secret
 * keys, public keys and mesh addresses.  The secret key is written only by
 * key generate, to its file or stdout, and wiped from memory after use.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "batsec_crypto.h"
#include "batsec_keys.h"
#include "ctl_files.h"
#include "ctl_key.h"
#include "ctl_util.h"

/* Print a 32-byte key as one base64 line. */
static int
ctl_print_key(const uint8_t key[static 32])
{
	char b64[BS_KEY_B64_LEN + 1];

	bs_key_to_b64(b64, key);
	(void)printf("%s\n", b64);
	return ctl_flush_stdout();
}

/* The secret key as one base64 line on stdout, bypassing stdio. */
static int
ctl_print_secret(const struct bs_identity *id)
{
	char line[BS_KEY_B64_LEN + 2];
	int rc = CTL_EXIT_OK;

	bs_key_to_b64(line, id->seed);
	line[BS_KEY_B64_LEN] = '\n';
	if (bs_fd_write_all(STDOUT_FILENO, line, BS_KEY_B64_LEN + 1) != 0) {
		ctl_warnx("write to stdout failed: %s", strerror(errno));
		rc = CTL_EXIT_FAIL;
	}
	sodium_memzero(line, sizeof(line));
	return rc;
}

int
ctl_key_generate(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	static const struct option opts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct bs_identity id;
	const char *out = NULL;
	int ch, force = 0, rc;

	(void)ctl;
	ctl_opt_reset();
	while ((ch = getopt_long(argc, argv, ":fho:", opts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			force = 1;
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			return ctl_help(cmd);
		default:
			return ctl_bad_option(cmd, ch, argv);
		}
	}
	if ((rc = ctl_operands(cmd, argc, 0, 0)) != 0)
		return rc;
	if (out != NULL && *out == '\0')
		return ctl_usage_err(cmd, "empty file name for -o");
	if (force && out == NULL)
		return ctl_usage_err(cmd, "-f needs -o FILE");
	if (bs_identity_generate(&id) != 0) {
		ctl_warnx("cannot generate a key pair");
		return CTL_EXIT_FAIL;
	}
	if (out != NULL)
		rc = ctl_save(out, force, ctl_write_seckey, &id);
	else
		rc = ctl_print_secret(&id);
	bs_identity_wipe(&id);
	return rc;
}

int
ctl_key_public(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	struct bs_identity id;
	const char *path;
	int rc;

	if ((rc = ctl_opts_basic(ctl, cmd, argc, argv, 0)) != 0)
		return rc == CTL_HELP_SHOWN ? CTL_EXIT_OK : rc;
	if ((rc = ctl_operands(cmd, argc, 1, 1)) != 0)
		return rc;
	path = optind < argc ? argv[optind] : "-";
	if (*path == '\0')
		return ctl_usage_err(cmd, "empty file name");
	if ((rc = ctl_load_seckey(ctl, path, &id)) != 0)
		return rc;
	rc = ctl_print_key(id.pk);
	bs_identity_wipe(&id);
	return rc;
}

int
ctl_key_address(struct ctl *ctl, const struct ctl_cmd *cmd, int argc,
    char **argv)
{
	static const struct option opts[] = {
		{ "secret", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct bs_identity id;
	uint8_t pk[BS_PK_LEN], addr[BS_ADDR_LEN];
	char str[18];
	const char *arg;
	const char *secret = NULL;
	int rc;

	if ((rc = ctl_opts_one(cmd, argc, argv, ":hS", opts, 'S', &secret,
	    &arg, "key or file name")) != 0)
		return rc == CTL_HELP_SHOWN ? CTL_EXIT_OK : rc;
	if (secret != NULL) {
		if ((rc = ctl_load_seckey(ctl, arg, &id)) != 0)
			return rc;
		memcpy(pk, id.pk, sizeof(pk));
		bs_identity_wipe(&id);
	} else if ((rc = ctl_load_pubkey(ctl, arg, pk)) != 0) {
		return rc;
	}
	bs_mesh_addr(addr, pk);
	bs_addr_to_str(str, addr);
	(void)printf("%s\n", str);
	return ctl_flush_stdout();
}
