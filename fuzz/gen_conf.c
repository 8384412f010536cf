/*
 * gen_conf.c — seeds for fuzz_conf: configurations written by
 * config_dump(), a few hand-written files that reach each error path, and
 * command lines in fuzz_conf's "\0ARGV\0" form.  Each seed is written to
 * the directory given as the only argument, named by the hex BLAKE2b-128
 * of its content.
 *
 *   gen_conf OUTDIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/config.h"
#include "lib/t_seed.h"

/* Parses text (which must be valid) and writes its canonical dump. */
static void
gen_dump_of(const char *text)
{
	struct bs_config cfg;
	char err[512], dump[BS_CONF_DUMP_MAX];
	int n;

	if (config_parse_buf(&cfg, text, strlen(text), "gen", err,
	    sizeof(err)) != 0) {
		fprintf(stderr, "gen_conf: %s\n", err);
		exit(1);
	}
	if ((n = config_dump(&cfg, dump, sizeof(dump))) < 0)
		t_seed_fail("config_dump");
	t_seed_write(dump, (size_t)n);
}

/* argv[1..] of a command line, as fuzz_conf expects it. */
static void
gen_args(const char *const *args)
{
	char buf[1024];
	size_t len = 6, n;

	memcpy(buf, "\0ARGV\0", 6);
	for (; *args != NULL; args++) {
		n = strlen(*args) + 1;
		if (len + n > sizeof(buf))
			abort();
		memcpy(buf + len, *args, n);
		len += n;
	}
	t_seed_write(buf, len - 1);	/* no NUL after the last argument */
}

static const char *const dumped[] = {
	"interface eth0\n",
	"interface eth0\ninterface wlan0\ntap mesh0\nkey /k\npolicy /p\n"
	    "socket /s\nstate-dir /d\nuser nobody\nchroot /srv/empty\n"
	    "ethertype 0x88b6\norig-interval 500\nhello-interval 250\n"
	    "hop-penalty 15\ngateway server 10M/2M\nlog-level debug\n",
	"gateway server 1.5mbit/0.1g\n",
	"interface eth0\nepoch-seed clock\n",
	"interface eth0\ngw-mode client\ngw-sel-class 3\n",
	"interface eth0 wired bcast-repeat 1\ninterface wlan0 wireless\n"
	    "interface m0 auto bcast-repeat 4\n",
};

static const char *const texts[] = {
	"# comment\n\n  interface\teth0 # trailing\r\n",
	"interface a\ninterface a\n",
	"tap t\ntap t\n",
	"hop-penalty 300\n",
	"ethertype 0x0800\n",
	"gateway server 150/100\n",
	"gateway off extra\n",
	"gateway off\ngw-mode client\n",
	"gw-mode client 1m/1m\ngw-sel-class 0\n",
	"log-level verbose\n",
	"epoch-seed later\n",
	"chroot /\n",
	"unknown directive\n",
	"interface w wireless bcast-repeat 5\n",
	"interface w bcast-repeat 1 wired\n",
	"interface w wireless bcast-repeat\n",
};

static const char *const cmdline1[] = { "-df", "-c", "/etc/batsec/b.conf",
    "-i", "eth0", "-iwlan0", "-t", "bs1", NULL };
static const char *const cmdline2[] = { "-k", "/k", "-p", "/p", "-s", "/s",
    "-S", "/state", "-V", NULL };
static const char *const cmdline3[] = { "-P", NULL };
static const char *const cmdline4[] = { "-x", "--", "operand", NULL };
/* The parser's command line, as the forwarder writes it. */
static const char *const cmdline5[] = { "-P", "-u", "batsec", "-r",
    "/var/empty", NULL };
static const char *const cmdline6[] = { "-P", "-d", "-u", "nobody", "-r",
    "/run/batsec/empty", NULL };

int
main(int argc, char **argv)
{
	size_t i;

	t_seed_main(argc, argv, "gen_conf", T_SEED_BLAKE2B);
	for (i = 0; i < sizeof(dumped) / sizeof(dumped[0]); i++)
		gen_dump_of(dumped[i]);
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		t_seed_write(texts[i], strlen(texts[i]));
	gen_args(cmdline1);
	gen_args(cmdline2);
	gen_args(cmdline3);
	gen_args(cmdline4);
	gen_args(cmdline5);
	gen_args(cmdline6);
	return 0;
}
