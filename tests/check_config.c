/*
 * check_config.c — batsec.conf(5) parser, defaults, command-line overrides.
 *
 * Most tests are tables: a configuration text and either the line that
 * config_dump() must print for it (so the value was understood exactly) or
 * the exact error message, line number included.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/config.h"
#include "lib/t_check.h"

#define ERRLEN	512

static char tmpdir[64];

/* ---- helpers ----------------------------------------------------------- */

static void
tmp_setup(void)
{
	t_tmpdir(tmpdir, sizeof(tmpdir), "check_config");
}

static void
tmp_teardown(void)
{
	t_rmtree(tmpdir);
}

/* Writes text to tmpdir/name with the given mode; returns the path. */
static const char *
write_file(const char *name, const char *text, size_t len, mode_t mode)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	unlink(path);
	t_write_file(path, text, len, mode);
	return path;
}

/* The repository's top directory (for contrib/ and man/). */
static const char *
top_dir(void)
{
	static char top[PATH_MAX];
	char *s;
	ssize_t n;
	int up;

	if ((s = getenv("BATSEC_TOP")) != NULL)
		return s;
	if (access("contrib/batsec.conf.example", R_OK) == 0 &&
	    getcwd(top, sizeof(top)) != NULL)
		return top;
	/* build/tests/check_config -> three levels up. */
	n = readlink("/proc/self/exe", top, sizeof(top) - 1);
	ck_assert_int_gt(n, 0);
	top[n] = '\0';
	for (up = 0; up < 3; up++)
		if ((s = strrchr(top, '/')) != NULL)
			*s = '\0';
	return top;
}

static void
parse_ok(const char *text, struct bs_config *cfg)
{
	char err[ERRLEN];

	if (config_parse_buf(cfg, text, strlen(text), "t.conf", err,
	    sizeof(err)) != 0)
		ck_abort_msg("'%s' failed: %s", text, err);
}

/* ---- valid directives -------------------------------------------------- */

static const struct {
	const char *text;
	const char *dumped;	/* the line config_dump() must contain */
} valid_cases[] = {
	{ "interface eth0", "\ninterface eth0\n" },
	{ "  interface\teth0\t # uplink", "\ninterface eth0\n" },
	{ "interface eth0#x", "\ninterface eth0#x\n" },
	{ "interface 0123456789abcde", "\ninterface 0123456789abcde\n" },
	{ "interface wlan0.100", "\ninterface wlan0.100\n" },
	{ "interface eth0\ninterface eth1", "\ninterface eth0\ninterface eth1\n" },
	{ "interface wlan0 wireless", "\ninterface wlan0 wireless\n" },
	{ "interface eth0 auto", "\ninterface eth0\n" },
	{ "interface eth0 wired bcast-repeat 1",
	    "\ninterface eth0 wired bcast-repeat 1\n" },
	{ "interface m0 bcast-repeat 0", "\ninterface m0 bcast-repeat 0\n" },
	{ "interface w\twireless  bcast-repeat 04 # lossy",
	    "\ninterface w wireless bcast-repeat 4\n" },
	{ "interface v wired bcast-repeat 0 hop-penalty 100",
	    "\ninterface v wired bcast-repeat 0 hop-penalty 100\n" },
	{ "interface v hop-penalty 255", "\ninterface v hop-penalty 255\n" },
	{ "interface v hop-penalty 0", "\ninterface v\n" },
	{ "tap mesh9", "\ntap mesh9\n" },
	{ "key /etc/k", "\nkey /etc/k\n" },
	{ "policy /p/q.policy", "\npolicy /p/q.policy\n" },
	{ "socket /run/a.sock", "\nsocket /run/a.sock\n" },
	{ "state-dir /var/db/batsec/", "\nstate-dir /var/db/batsec/\n" },
	{ "user _batsec.1-x", "\nuser _batsec.1-x\n" },
	{ "chroot /var/empty/", "\nchroot /var/empty/\n" },
	{ "ethertype 0x88B6", "\nethertype 0x88b6\n" },
	{ "ethertype 0x600", "\nethertype 0x0600\n" },
	{ "ethertype 0Xfffe", "\nethertype 0xfffe\n" },
	{ "orig-interval 100", "\norig-interval 100\n" },
	{ "orig-interval 60000", "\norig-interval 60000\n" },
	{ "hello-interval 250", "\nhello-interval 250\n" },
	{ "link-rekey 10", "\nlink-rekey 10\n" },
	{ "link-rekey 86400", "\nlink-rekey 86400\n" },
	{ "hop-penalty 0", "\nhop-penalty 0\n" },
	{ "hop-penalty 255", "\nhop-penalty 255\n" },
	{ "hop-penalty 007", "\nhop-penalty 7\n" },
	{ "gateway off", "\ngateway off\n" },
	{ "gateway client", "\ngateway client\n" },
	{ "gw-mode client", "\ngateway client\n" },
	{ "gw-mode server 10M/2M", "\ngateway server 10000/2000\n" },
	{ "gw-sel-class 1", "\ngw-sel-class 1\n" },
	{ "gw-sel-class 255", "\ngw-sel-class 255\n" },
	{ "gateway server 10000/2000", "\ngateway server 10000/2000\n" },
	{ "gateway server 10M/2M", "\ngateway server 10000/2000\n" },
	{ "gateway server 10mbit/2mbit", "\ngateway server 10000/2000\n" },
	{ "gateway server 1g/0.1G", "\ngateway server 1000000/100000\n" },
	{ "gateway server 0.1m/100k", "\ngateway server 100/100\n" },
	{ "gateway server 2.5Mbit/300kbit", "\ngateway server 2500/300\n" },
	{ "gateway server 1.0001g/100", "\ngateway server 1000100/100\n" },
	{ "gateway server 429496729500/100",
	    "\ngateway server 429496729500/100\n" },
	{ "log-level error", "\nlog-level error\n" },
	{ "log-level warning", "\nlog-level warning\n" },
	{ "log-level info", "\nlog-level info\n" },
	{ "log-level debug", "\nlog-level debug\n" },
	{ "ap-isolation on", "\nap-isolation on\n" },
	{ "ap-isolation off", "\nap-isolation off\n" },
	{ "# only a comment\n", "\nap-isolation off\n" },
	{ "fast-path off", "\nfast-path off\n" },
	{ "fast-path on", "\nfast-path on\n" },
	{ "fast-path tc", "\nfast-path tc\n" },
	{ "epoch-seed clock", "\nepoch-seed clock\n" },
	{ "epoch-seed none", "\nepoch-seed none\n" },
	{ "epoch-seed auto", "\nepoch-seed auto\n" },
	{ "dat off", "\ndat off\n" },
	{ "dat on", "\ndat on\n" },
	{ "# only a comment\n", "\ndat on\n" },
	{ "bla on", "\nbla on\n" },
	{ "bla off", "\nbla off\n" },
	{ "e2e-cipher chacha20-poly1305", "\ne2e-cipher chacha20-poly1305\n" },
	{ "e2e-cipher auto", "\ne2e-cipher auto\n" },
	{ "# only a comment\n", "\ne2e-cipher auto\n" },
	{ "# only a comment\n", "\nbla off\n" },
	{ "# only a comment\n", "\nepoch-seed auto\n" },
	{ "# only a comment\n\n \t \n", "\nfast-path on\n" },
	{ "# only a comment\n\n \t \n", "\ntap batsec0\n" },
	{ "interface eth0\n\n# end, no newline\nhop-penalty 1",
	    "\nhop-penalty 1\n" },
};

START_TEST(test_valid)
{
	struct bs_config cfg;
	char dump[BS_CONF_DUMP_MAX + 1] = "\n";

	parse_ok(valid_cases[_i].text, &cfg);
	ck_assert_int_gt(config_dump(&cfg, dump + 1, sizeof(dump) - 1), 0);
	if (strstr(dump, valid_cases[_i].dumped) == NULL)
		ck_abort_msg("'%s': dump lacks '%s':%s", valid_cases[_i].text,
		    valid_cases[_i].dumped, dump);
}
END_TEST

START_TEST(test_values)
{
	struct bs_config cfg;

	parse_ok("interface eth0\ninterface wlan1\ntap t0\n"
	    "ethertype 0x88b6\norig-interval 500\nhello-interval 2000\n"
	    "hop-penalty 15\ngateway server 10M/2M\nlog-level warning\n"
	    "user nobody\nchroot /srv/empty\n", &cfg);
	ck_assert_uint_eq(cfg.n_ifaces, 2);
	ck_assert_str_eq(cfg.ifaces[0], "eth0");
	ck_assert_str_eq(cfg.ifaces[1], "wlan1");
	ck_assert_str_eq(cfg.tap, "t0");
	ck_assert_uint_eq(cfg.ethertype, 0x88b6);
	ck_assert_uint_eq(cfg.orig_interval_ms, 500);
	ck_assert_uint_eq(cfg.hello_interval_ms, 2000);
	ck_assert_uint_eq(cfg.hop_penalty, 15);
	ck_assert_int_eq(cfg.gw_mode, BS_GW_SERVER);
	/* 100 kbit/s units, as on the wire. */
	ck_assert_uint_eq(cfg.gw_down, 100);
	ck_assert_uint_eq(cfg.gw_up, 20);
	ck_assert_int_eq(cfg.log_level, BS_LOG_WARNING);
	ck_assert_str_eq(cfg.user, "nobody");
	ck_assert_str_eq(cfg.chroot_dir, "/srv/empty");

	parse_ok("gateway server 429496729500/100", &cfg);
	ck_assert_uint_eq(cfg.gw_down, UINT32_MAX);
	ck_assert_uint_eq(cfg.gw_up, 1);

	/* Interface options: the medium and the broadcast repeats. */
	parse_ok("interface e0\ninterface w0 wireless\n"
	    "interface w1 wireless bcast-repeat 0\ninterface e1 wired "
	    "bcast-repeat 3\ninterface a0 bcast-repeat 1\n", &cfg);
	ck_assert_uint_eq(cfg.n_ifaces, 5);
	ck_assert_int_eq(cfg.iface_opt[0].medium, BS_MEDIUM_AUTO);
	ck_assert(!cfg.iface_opt[0].repeat_set);
	ck_assert_int_eq(cfg.iface_opt[1].medium, BS_MEDIUM_WIRELESS);
	ck_assert_int_eq(cfg.iface_opt[2].medium, BS_MEDIUM_WIRELESS);
	ck_assert_int_eq(cfg.iface_opt[3].medium, BS_MEDIUM_WIRED);
	ck_assert_int_eq(cfg.iface_opt[4].medium, BS_MEDIUM_AUTO);
	ck_assert_uint_eq(cfg.iface_opt[4].hop_penalty, 0);
	/* Defaults by medium: wireless 2 (three sends), wired none. */
	ck_assert_uint_eq(config_iface_repeat(&cfg.iface_opt[0], false), 0);
	ck_assert_uint_eq(config_iface_repeat(&cfg.iface_opt[0], true), 2);
	ck_assert_uint_eq(config_iface_repeat(&cfg.iface_opt[1], true), 2);
	/* A count given wins whatever the medium. */
	ck_assert_uint_eq(config_iface_repeat(&cfg.iface_opt[2], true), 0);
	ck_assert_uint_eq(config_iface_repeat(&cfg.iface_opt[3], false), 3);
	ck_assert_uint_eq(config_iface_repeat(&cfg.iface_opt[4], true), 1);
	ck_assert_uint_eq(config_iface_repeat(&cfg.iface_opt[4], false), 1);
	ck_assert_str_eq(config_medium_name(BS_MEDIUM_WIRED), "wired");
	ck_assert_str_eq(config_medium_name((enum bs_medium)3), "?");
	/* The hop penalty of an interface, 0 unless given. */
	parse_ok("interface e0\ninterface v0 wired hop-penalty 100\n", &cfg);
	ck_assert_uint_eq(cfg.iface_opt[0].hop_penalty, 0);
	ck_assert_uint_eq(cfg.iface_opt[1].hop_penalty, 100);
	ck_assert_int_eq(cfg.iface_opt[1].medium, BS_MEDIUM_WIRED);
}
END_TEST

START_TEST(test_defaults)
{
	struct bs_config cfg, def;

	config_defaults(&def);
	ck_assert_uint_eq(def.n_ifaces, 0);
	ck_assert_str_eq(def.tap, "batsec0");
	ck_assert_str_eq(def.key, "/etc/batsec/node.key");
	ck_assert_str_eq(def.policy, "/etc/batsec/batsec.policy");
	ck_assert_str_eq(def.socket, "/run/batsec/batsecd.sock");
	ck_assert_str_eq(def.state_dir, "/var/lib/batsec");
	ck_assert_str_eq(def.user, "batsec");
	ck_assert_str_eq(def.chroot_dir, "/var/empty");
	ck_assert_uint_eq(def.ethertype, 0x88b5);
	ck_assert_uint_eq(def.orig_interval_ms, 1000);
	ck_assert_uint_eq(def.hello_interval_ms, 1000);
	ck_assert_uint_eq(def.hop_penalty, 30);
	ck_assert_int_eq(def.gw_mode, BS_GW_OFF);
	ck_assert_uint_eq(def.gw_down, 0);
	ck_assert_uint_eq(def.gw_up, 0);
	ck_assert_int_eq(def.log_level, BS_LOG_INFO);

	/* An empty file and a file of comments change nothing. */
	parse_ok("", &cfg);
	ck_assert(config_equal(&cfg, &def));
	parse_ok("# nothing\n\n", &cfg);
	ck_assert(config_equal(&cfg, &def));
	/* A file sets only what it names. */
	parse_ok("hop-penalty 40\n", &cfg);
	ck_assert_uint_eq(cfg.hop_penalty, 40);
	cfg.hop_penalty = def.hop_penalty;
	ck_assert(config_equal(&cfg, &def));
}
END_TEST

/* ---- invalid directives ------------------------------------------------ */

static char long_line[BS_CONF_LINE_MAX + 2];
static char max_line[BS_CONF_LINE_MAX + 1];
static char long_key[BS_CONF_LINE_MAX];
static char long_socket[160];
static char max_socket[160];
static char long_user[64];
static char many_ifaces[512];
static char long_key_err[256];
static char long_socket_err[256];

static void
invalid_setup(void)
{
	int i;

	memset(long_line, '#', BS_CONF_LINE_MAX + 1);
	memset(max_line, '#', BS_CONF_LINE_MAX);
	snprintf(long_key, sizeof(long_key), "key /%0*d",
	    BS_CONF_PATH_MAX, 0);
	snprintf(long_socket, sizeof(long_socket), "socket /%0*d",
	    BS_CONF_SOCKET_MAX, 0);
	snprintf(max_socket, sizeof(max_socket), "socket /%0*d",
	    BS_CONF_SOCKET_MAX - 1, 0);
	snprintf(long_user, sizeof(long_user), "user %0*d",
	    BS_CONF_USER_MAX + 1, 0);
	/* Values in messages are cut to 64 bytes and marked with "...". */
	snprintf(long_key_err, sizeof(long_key_err), "t.conf:1: key: "
	    "'/%063d...': path longer than 1000 bytes", 0);
	snprintf(long_socket_err, sizeof(long_socket_err), "t.conf:1: socket: "
	    "'/%063d...': path longer than 107 bytes", 0);
	many_ifaces[0] = '\0';
	for (i = 0; i <= BS_CONF_MAX_IFACES; i++)
		snprintf(many_ifaces + strlen(many_ifaces),
		    sizeof(many_ifaces) - strlen(many_ifaces),
		    "interface e%d\n", i);
}

static const struct {
	const char *text;
	size_t len;		/* 0: strlen(text) */
	const char *err;
} invalid_cases[] = {
	/* Lines. */
	{ "bogus 1", 0, "t.conf:1: unknown directive 'bogus'" },
	{ "Interface eth0", 0, "t.conf:1: unknown directive 'Interface'" },
	{ "interface eth0\x01", 0, "t.conf:1: control character 0x01 in line" },
	{ "interface eth0\r\n", 0, "t.conf:1: control character 0x0d in line" },
	{ "interface eth0\x7f", 0, "t.conf:1: control character 0x7f in line" },
	{ "\n# x\ninterface e\0th0\n", 20,
	    "t.conf:3: control character 0x00 in line" },
	{ long_line, 0, "t.conf:1: line longer than 1024 bytes" },
	{ "# 1\n\n# 3\n\t\n  \n# 6\ninterface eth0\n\n\n\n\nhop-penalty 300\n",
	    0, "t.conf:12: hop-penalty: 300 is out of range 0..255" },
	/* Argument counts and duplicates. */
	{ "interface", 0, "t.conf:1: interface: missing argument" },
	{ "interface #eth0", 0, "t.conf:1: interface: missing argument" },
	{ "interface a b", 0, "t.conf:1: interface: 'b' is not auto, wired, "
	    "wireless, bcast-repeat N or hop-penalty N (in that order, each once)" },
	{ "interface a wired bcast-repeat 1 hop-penalty 2 x", 0,
	    "t.conf:1: interface: unexpected extra argument 'x'" },
	{ "tap a # c\ntap b", 0,
	    "t.conf:2: tap: given twice (first on line 1)" },
	{ "key /a\n\nkey /a", 0,
	    "t.conf:3: key: given twice (first on line 1)" },
	{ "log-level info\nlog-level info", 0,
	    "t.conf:2: log-level: given twice (first on line 1)" },
	{ "hop-penalty", 0, "t.conf:1: hop-penalty: missing argument" },
	{ "hop-penalty 1 2", 0,
	    "t.conf:1: hop-penalty: unexpected extra argument '2'" },
	/* interface */
	{ "interface eth0\ninterface eth1\ninterface eth0", 0,
	    "t.conf:3: interface: 'eth0' is listed twice" },
	{ "interface a wireless wired", 0, "t.conf:1: interface: 'wired' is "
	    "not auto, wired, wireless, bcast-repeat N or hop-penalty N (in that order, each once)" },
	{ "interface a bcast-repeat 2 wireless", 0, "t.conf:1: interface: "
	    "'wireless' is not auto, wired, wireless, bcast-repeat N or hop-penalty N (in that order, each once)" },
	{ "interface a bcast-repeat 1 bcast-repeat", 0, "t.conf:1: interface: "
	    "'bcast-repeat' is not auto, wired, wireless, bcast-repeat N or hop-penalty N (in that order, each once)" },
	{ "interface a hop-penalty 1 bcast-repeat 1", 0, "t.conf:1: interface: "
	    "'bcast-repeat' is not auto, wired, wireless, bcast-repeat N or hop-penalty N (in that order, each once)" },
	{ "interface a hop-penalty 1 wired", 0, "t.conf:1: interface: "
	    "'wired' is not auto, wired, wireless, bcast-repeat N or hop-penalty N (in that order, each once)" },
	{ "interface a hop-penalty 1 hop-penalty 2", 0, "t.conf:1: interface: "
	    "'hop-penalty' is not auto, wired, wireless, bcast-repeat N or hop-penalty N (in that order, each once)" },
	{ "interface a wired hop-penalty", 0,
	    "t.conf:1: interface: hop-penalty needs a value" },
	{ "interface a hop-penalty 256", 0,
	    "t.conf:1: interface: 256 is out of range 0..255" },
	{ "interface a hop-penalty -1", 0,
	    "t.conf:1: interface: '-1' is not a decimal number" },
	{ "interface a wired bcast-repeat", 0,
	    "t.conf:1: interface: bcast-repeat needs a count" },
	{ "interface a bcast-repeat 5", 0,
	    "t.conf:1: interface: 5 is out of range 0..4" },
	{ "interface a bcast-repeat -1", 0,
	    "t.conf:1: interface: '-1' is not a decimal number" },
	{ "interface a bcast-repeat wired", 0,
	    "t.conf:1: interface: 'wired' is not a decimal number" },
	{ many_ifaces, 0, "t.conf:17: interface: more than 16 interfaces" },
	{ "interface 0123456789abcdef", 0, "t.conf:1: interface: "
	    "'0123456789abcdef' is not a valid interface name: longer than 15 "
	    "bytes" },
	{ "interface a/b", 0, "t.conf:1: interface: 'a/b' is not a valid "
	    "interface name: contains '/'" },
	{ "interface a:1", 0, "t.conf:1: interface: 'a:1' is not a valid "
	    "interface name: contains ':'" },
	{ "interface .", 0, "t.conf:1: interface: '.' is not a valid "
	    "interface name: '.' and '..' are reserved" },
	{ "interface ..", 0, "t.conf:1: interface: '..' is not a valid "
	    "interface name: '.' and '..' are reserved" },
	/* tap */
	{ "tap", 0, "t.conf:1: tap: missing argument" },
	{ "tap x/y", 0, "t.conf:1: tap: 'x/y' is not a valid interface name: "
	    "contains '/'" },
	/* paths */
	{ "key node.key", 0, "t.conf:1: key: 'node.key' is not an absolute "
	    "path" },
	{ long_key, 0, long_key_err },
	{ "policy ./p", 0, "t.conf:1: policy: './p' is not an absolute path" },
	{ "socket run/s", 0, "t.conf:1: socket: 'run/s' is not an absolute "
	    "path" },
	{ long_socket, 0, long_socket_err },
	{ "state-dir ~/x", 0, "t.conf:1: state-dir: '~/x' is not an absolute "
	    "path" },
	{ "chroot empty", 0, "t.conf:1: chroot: 'empty' is not an absolute "
	    "path" },
	{ "chroot /", 0, "t.conf:1: chroot: '/' is the root directory; the "
	    "parser needs an empty one" },
	{ "chroot /./", 0, "t.conf:1: chroot: '/./' is the root directory; "
	    "the parser needs an empty one" },
	/* user */
	{ "user -x", 0, "t.conf:1: user: '-x' is not a valid user name: "
	    "begins with '-' or '.'" },
	{ "user a$", 0, "t.conf:1: user: 'a$' is not a valid user name: only "
	    "letters, digits, '_', '-' and '.' are allowed" },
	{ long_user, 0, "t.conf:1: user: '000000000000000000000000000000000' "
	    "is not a valid user name: longer than 32 bytes" },
	/* ethertype */
	{ "ethertype 88b5", 0, "t.conf:1: ethertype: '88b5' is not a "
	    "hexadecimal ethertype like 0x88b5" },
	{ "ethertype 0x", 0, "t.conf:1: ethertype: '0x' is not a hexadecimal "
	    "ethertype like 0x88b5" },
	{ "ethertype 0x088b5", 0, "t.conf:1: ethertype: '0x088b5' is not a "
	    "hexadecimal ethertype like 0x88b5" },
	{ "ethertype 0x88g5", 0, "t.conf:1: ethertype: '0x88g5' is not a "
	    "hexadecimal ethertype like 0x88b5" },
	{ "ethertype 0x5ff", 0, "t.conf:1: ethertype: 0x05ff is below 0x0600 "
	    "(smaller values are 802.3 length fields)" },
	{ "ethertype 0x0800", 0, "t.conf:1: ethertype: 0x0800 is in use by "
	    "IPv4; 0x88b5 and 0x88b6 are free for local protocols" },
	{ "ethertype 0x806", 0, "t.conf:1: ethertype: 0x0806 is in use by "
	    "ARP; 0x88b5 and 0x88b6 are free for local protocols" },
	{ "ethertype 0x86DD", 0, "t.conf:1: ethertype: 0x86dd is in use by "
	    "IPv6; 0x88b5 and 0x88b6 are free for local protocols" },
	{ "ethertype 0x8100", 0, "t.conf:1: ethertype: 0x8100 is in use by "
	    "802.1Q VLAN; 0x88b5 and 0x88b6 are free for local protocols" },
	{ "ethertype 0x88a8", 0, "t.conf:1: ethertype: 0x88a8 is in use by "
	    "802.1ad VLAN; 0x88b5 and 0x88b6 are free for local protocols" },
	{ "ethertype 0x4305", 0, "t.conf:1: ethertype: 0x4305 is in use by "
	    "batman-adv; 0x88b5 and 0x88b6 are free for local protocols" },
	/* intervals and hop penalty */
	{ "orig-interval 99", 0,
	    "t.conf:1: orig-interval: 99 is out of range 100..60000" },
	{ "orig-interval 60001", 0,
	    "t.conf:1: orig-interval: 60001 is out of range 100..60000" },
	{ "orig-interval 1s", 0,
	    "t.conf:1: orig-interval: '1s' is not a decimal number" },
	{ "orig-interval -100", 0,
	    "t.conf:1: orig-interval: '-100' is not a decimal number" },
	{ "orig-interval +100", 0,
	    "t.conf:1: orig-interval: '+100' is not a decimal number" },
	{ "hello-interval 0", 0,
	    "t.conf:1: hello-interval: 0 is out of range 100..60000" },
	{ "hello-interval 99999999999999999999999", 0,
	    "t.conf:1: hello-interval: 99999999999999999999999 is out of range "
	    "100..60000" },
	{ "hello-interval 0x100", 0,
	    "t.conf:1: hello-interval: '0x100' is not a decimal number" },
	{ "link-rekey 9", 0,
	    "t.conf:1: link-rekey: 9 is out of range 10..86400" },
	{ "link-rekey 86401", 0,
	    "t.conf:1: link-rekey: 86401 is out of range 10..86400" },
	{ "hop-penalty 256", 0,
	    "t.conf:1: hop-penalty: 256 is out of range 0..255" },
	{ "hop-penalty 1.5", 0,
	    "t.conf:1: hop-penalty: '1.5' is not a decimal number" },
	/* gateway */
	{ "gateway", 0, "t.conf:1: gateway: missing argument" },
	{ "gateway proxy", 0,
	    "t.conf:1: gateway: 'proxy' is not 'off', 'client' or 'server'" },
	{ "gw-mode client 10/2", 0,
	    "t.conf:1: gw-mode: unexpected argument '10/2' after 'client'" },
	{ "gateway off\ngw-mode client", 0,
	    "t.conf:2: gw-mode: given twice (first on line 1)" },
	{ "gw-sel-class 0", 0,
	    "t.conf:1: gw-sel-class: 0 is out of range 1..255" },
	{ "gw-sel-class 20\ngw-sel-class 30", 0,
	    "t.conf:2: gw-sel-class: given twice (first on line 1)" },
	{ "gateway off 10/2", 0,
	    "t.conf:1: gateway: unexpected argument '10/2' after 'off'" },
	{ "gateway server", 0, "t.conf:1: gateway: 'server' needs the "
	    "bandwidth DOWN/UP, e.g. 10mbit/2mbit" },
	{ "gateway server 10M/2M x", 0,
	    "t.conf:1: gateway: unexpected extra argument 'x'" },
	{ "gateway server 10000", 0, "t.conf:1: gateway: '10000' is not "
	    "DOWN/UP, e.g. 10mbit/2mbit" },
	{ "gateway server /2000", 0, "t.conf:1: gateway: '/2000' is not "
	    "DOWN/UP, e.g. 10mbit/2mbit" },
	{ "gateway server 1000/", 0, "t.conf:1: gateway: '1000/' is not "
	    "DOWN/UP, e.g. 10mbit/2mbit" },
	{ "gateway server 1M/2M/3M", 0, "t.conf:1: gateway: '1M/2M/3M' is not "
	    "DOWN/UP, e.g. 10mbit/2mbit" },
	{ "gateway server 150/100", 0, "t.conf:1: gateway: bandwidth '150' is "
	    "150 kbit/s, not a multiple of 100 kbit/s" },
	{ "gateway server 1M/0.25M", 0, "t.conf:1: gateway: bandwidth '0.25M' "
	    "is 250 kbit/s, not a multiple of 100 kbit/s" },
	{ "gateway server 0/100", 0, "t.conf:1: gateway: bandwidth '0' is out "
	    "of range 100..429496729500 kbit/s" },
	{ "gateway server 1M/0M", 0, "t.conf:1: gateway: bandwidth '0M' is out "
	    "of range 100..429496729500 kbit/s" },
	{ "gateway server 429496729600/100", 0, "t.conf:1: gateway: bandwidth "
	    "'429496729600' is out of range 100..429496729500 kbit/s" },
	{ "gateway server 429497g/1m", 0, "t.conf:1: gateway: bandwidth '429497g' "
	    "is out of range 100..429496729500 kbit/s" },
	{ "gateway server 99999999999999999999/1m", 0, "t.conf:1: gateway: "
	    "bandwidth '99999999999999999999' is out of range "
	    "100..429496729500 kbit/s" },
	{ "gateway server 10x/2m", 0, "t.conf:1: gateway: bandwidth '10x' is "
	    "not a number with an optional unit kbit, mbit or gbit" },
	{ "gateway server 10mbps/2m", 0, "t.conf:1: gateway: bandwidth "
	    "'10mbps' is not a number with an optional unit kbit, mbit or "
	    "gbit" },
	{ "gateway server .5m/1m", 0, "t.conf:1: gateway: bandwidth '.5m' is "
	    "not a number with an optional unit kbit, mbit or gbit" },
	{ "gateway server 5./1m", 0, "t.conf:1: gateway: bandwidth '5.' is "
	    "not a number with an optional unit kbit, mbit or gbit" },
	{ "gateway server m/1m", 0, "t.conf:1: gateway: bandwidth 'm' is "
	    "not a number with an optional unit kbit, mbit or gbit" },
	{ "gateway server 1.5k/1m", 0, "t.conf:1: gateway: bandwidth '1.5k' "
	    "is not a whole number of kbit/s" },
	{ "gateway server 1.0000001g/1m", 0, "t.conf:1: gateway: bandwidth "
	    "'1.0000001g' has more than 6 decimal places" },
	/* log-level */
	{ "log-level verbose", 0, "t.conf:1: log-level: 'verbose' is not one "
	    "of error, warning, info, debug" },
	{ "log-level DEBUG", 0, "t.conf:1: log-level: 'DEBUG' is not one of "
	    "error, warning, info, debug" },
	/* ap-isolation */
	{ "ap-isolation 1", 0, "t.conf:1: ap-isolation: '1' is neither 'on' "
	    "nor 'off'" },
	{ "ap-isolation", 0, "t.conf:1: ap-isolation: missing argument" },
	{ "ap-isolation on\nap-isolation off", 0,
	    "t.conf:2: ap-isolation: given twice (first on line 1)" },
	/* epoch-seed */
	{ "epoch-seed yes", 0, "t.conf:1: epoch-seed: 'yes' is not auto, "
	    "clock or none" },
	{ "epoch-seed AUTO", 0, "t.conf:1: epoch-seed: 'AUTO' is not auto, "
	    "clock or none" },
	{ "epoch-seed clock\nepoch-seed none", 0, "t.conf:2: epoch-seed: "
	    "given twice (first on line 1)" },
	/* dat */
	{ "dat yes", 0, "t.conf:1: dat: 'yes' is not on or off" },
	/* bla */
	{ "bla yes", 0, "t.conf:1: bla: 'yes' is not on or off" },
	{ "bla on\nbla off", 0, "t.conf:2: bla: given twice (first on line 1)" },
	/* fast-path */
	{ "fast-path yes", 0, "t.conf:1: fast-path: 'yes' is not on, off or "
	    "tc" },
	{ "fast-path TC", 0, "t.conf:1: fast-path: 'TC' is not on, off or "
	    "tc" },
	{ "fast-path on\nfast-path off", 0, "t.conf:2: fast-path: "
	    "given twice (first on line 1)" },
	/* e2e-cipher */
	{ "e2e-cipher aes", 0, "t.conf:1: e2e-cipher: 'aes' is not auto or "
	    "chacha20-poly1305" },
	{ "e2e-cipher chacha20", 0, "t.conf:1: e2e-cipher: 'chacha20' is not "
	    "auto or chacha20-poly1305" },
	{ "e2e-cipher auto\ne2e-cipher auto", 0, "t.conf:2: e2e-cipher: "
	    "given twice (first on line 1)" },
};

START_TEST(test_invalid)
{
	struct bs_config cfg;
	char err[ERRLEN];
	const char *text = invalid_cases[_i].text;
	size_t len = invalid_cases[_i].len ? invalid_cases[_i].len :
	    strlen(text);

	memset(&cfg, 0xa5, sizeof(cfg));
	ck_assert_int_eq(config_parse_buf(&cfg, text, len, "t.conf", err,
	    sizeof(err)), -1);
	ck_assert_str_eq(err, invalid_cases[_i].err);
	/* Nothing half-parsed is handed out. */
	ck_assert_uint_eq(cfg.n_ifaces, 0);
	ck_assert_str_eq(cfg.tap, "");
	ck_assert_str_eq(cfg.key, "");
}
END_TEST

START_TEST(test_sizes)
{
	struct bs_config cfg;
	char err[ERRLEN];
	char *big;

	/* A line of exactly the maximum length is fine. */
	parse_ok(max_line, &cfg);
	parse_ok(max_socket, &cfg);
	ck_assert_uint_eq(strlen(cfg.socket), BS_CONF_SOCKET_MAX);
	/* A file of the maximum size is fine, one byte more is not. */
	big = malloc(BS_CONF_FILE_MAX + 1);
	ck_assert_ptr_nonnull(big);
	memset(big, '\n', BS_CONF_FILE_MAX + 1);
	ck_assert_int_eq(config_parse_buf(&cfg, big, BS_CONF_FILE_MAX,
	    "t.conf", err, sizeof(err)), 0);
	ck_assert_int_eq(config_parse_buf(&cfg, big, BS_CONF_FILE_MAX + 1,
	    "t.conf", err, sizeof(err)), -1);
	ck_assert_str_eq(err, "t.conf: larger than 65536 bytes");
	free(big);
	/* A short error buffer is filled, cut and terminated. */
	ck_assert_int_eq(config_parse_buf(&cfg, "bogus", 5, "t.conf", err, 8),
	    -1);
	ck_assert_str_eq(err, "t.conf:");
	ck_assert_int_eq(config_parse_buf(&cfg, "bogus", 5, "t.conf", NULL, 0),
	    -1);
}
END_TEST

/* ---- command line ------------------------------------------------------ */

#define MAXARGV 24

static const struct {
	const char *argv[MAXARGV];
	const char *err;	/* NULL: must succeed */
} args_cases[] = {
	{ { "batsecd" }, NULL },
	{ { "batsecd", "-d", "-f", "-V" }, NULL },
	{ { "batsecd", "-dfV", "-ieth0", "-i", "eth1" }, NULL },
	{ { "batsecd", "-P" }, NULL },
	{ { "batsecd", "--" }, NULL },
	{ { "batsecd", "-x" }, "unknown option -x" },
	{ { "batsecd", "-dx" }, "unknown option -x" },
	{ { "batsecd", "--help" }, "unknown option --" },
	{ { "batsecd", "-c" }, "option -c requires an argument" },
	{ { "batsecd", "-d", "-i" }, "option -i requires an argument" },
	{ { "batsecd", "-k" }, "option -k requires an argument" },
	{ { "batsecd", "-S" }, "option -S requires an argument" },
	{ { "batsecd", "-P", "-d" },
	    "-P (the parser role) takes no other options" },
	{ { "batsecd", "-d", "-P" },
	    "-P (the parser role) takes no other options" },
	{ { "batsecd", "-Pf" }, "-P (the parser role) takes no other options" },
	{ { "batsecd", "-P", "-P" },
	    "-P (the parser role) takes no other options" },
	{ { "batsecd", "-P", "-c", "/x" },
	    "-P (the parser role) takes no other options" },
	{ { "batsecd", "eth0" }, "unexpected argument 'eth0'" },
	{ { "batsecd", "-d", "--", "-f" }, "unexpected argument '-f'" },
	{ { "batsecd", "-" }, "unexpected argument '-'" },
	{ { "batsecd", "-f", "x", "-d" }, "unexpected argument 'x'" },
	{ { "batsecd", "-c", "/a", "-c", "/b" }, "option -c given twice" },
	{ { "batsecd", "-t", "a", "-tb" }, "option -t given twice" },
	{ { "batsecd", "-c", "batsec.conf" },
	    "option -c: 'batsec.conf' is not an absolute path" },
	{ { "batsecd", "-c", "" }, "option -c: '' is not an absolute path" },
	{ { "batsecd", "-k", "node.key" },
	    "option -k: 'node.key' is not an absolute path" },
	{ { "batsecd", "-k", "/a b" },
	    "option -k: '/a b': path contains a blank or control character" },
	{ { "batsecd", "-p", "p" }, "option -p: 'p' is not an absolute path" },
	{ { "batsecd", "-s", "s" }, "option -s: 's' is not an absolute path" },
	{ { "batsecd", "-S", "d" }, "option -S: 'd' is not an absolute path" },
	{ { "batsecd", "-t", "a/b" },
	    "option -t: 'a/b' is not a valid interface name: contains '/'" },
	{ { "batsecd", "-i", "" },
	    "option -i: '' is not a valid interface name: empty" },
	{ { "batsecd", "-i", "a b" }, "option -i: 'a b' is not a valid "
	    "interface name: contains a blank or control character" },
	{ { "batsecd", "-i", "#e" }, "option -i: '#e' is not a valid "
	    "interface name: begins with '#', which starts a comment" },
	{ { "batsecd", "-i", "eth0", "-i", "eth0" },
	    "option -i: 'eth0' is listed twice" },
	{ { "batsecd", "-ia", "-ib", "-ic", "-id", "-ie", "-if", "-ig", "-ih",
	    "-ii", "-ij", "-ik", "-il", "-im", "-in", "-io", "-ip", "-iq" },
	    "option -i: more than 16 interfaces" },
};

static int
argv_count(const char *const *argv)
{
	int n = 0;

	while (n < MAXARGV && argv[n] != NULL)
		n++;
	return n;
}

START_TEST(test_args)
{
	struct bs_args args;
	char err[ERRLEN];
	char *argv[MAXARGV + 1] = { 0 };
	int argc = argv_count(args_cases[_i].argv), rc, i;

	for (i = 0; i < argc; i++)
		argv[i] = strdup(args_cases[_i].argv[i]);
	rc = config_parse_args(argc, argv, &args, err, sizeof(err));
	if (args_cases[_i].err == NULL) {
		if (rc != 0)
			ck_abort_msg("case %d failed: %s", _i, err);
	} else {
		ck_assert_int_eq(rc, -1);
		ck_assert_str_eq(err, args_cases[_i].err);
		ck_assert_uint_eq(args.n_ifaces, 0);
		ck_assert_ptr_null(args.config);
	}
	for (i = 0; i < argc; i++)
		free(argv[i]);
}
END_TEST

static int
parse_argv(const char *const *list, struct bs_args *args)
{
	/* Static and writable: args points into these strings. */
	static char store[MAXARGV][PATH_MAX];
	static char *argv[MAXARGV + 1];
	char err[ERRLEN];
	int argc = argv_count(list), i;

	for (i = 0; i < argc; i++) {
		snprintf(store[i], sizeof(store[i]), "%s", list[i]);
		argv[i] = store[i];
	}
	argv[argc] = NULL;
	if (config_parse_args(argc, argv, args, err, sizeof(err)) != 0)
		ck_abort_msg("args failed: %s", err);
	return argc;
}

START_TEST(test_args_values)
{
	static const char *const all[] = { "batsecd", "-f", "-c", "/c.conf",
	    "-k/k", "-p", "/p", "-s", "/s", "-t", "t1", "-S", "/state",
	    "-i", "eth1", "-ieth0", NULL };
	static const char *const dbg[] = { "batsecd", "-d", NULL };
	static const char *const ver[] = { "batsecd", "-V", NULL };
	static const char *const par[] = { "batsecd", "-P", NULL };
	struct bs_args a;

	parse_argv(all, &a);
	ck_assert_int_eq(a.role, BS_ROLE_FORWARDER);
	ck_assert(a.foreground && !a.debug && !a.version);
	ck_assert_str_eq(a.config, "/c.conf");
	ck_assert_str_eq(a.key, "/k");
	ck_assert_str_eq(a.policy, "/p");
	ck_assert_str_eq(a.socket, "/s");
	ck_assert_str_eq(a.tap, "t1");
	ck_assert_str_eq(a.state_dir, "/state");
	ck_assert_uint_eq(a.n_ifaces, 2);
	ck_assert_str_eq(a.ifaces[0], "eth1");
	ck_assert_str_eq(a.ifaces[1], "eth0");

	/* -d implies -f; the parser keeps no state from the last call. */
	parse_argv(dbg, &a);
	ck_assert(a.debug && a.foreground && !a.version);
	ck_assert_ptr_null(a.config);
	ck_assert_uint_eq(a.n_ifaces, 0);
	parse_argv(ver, &a);
	ck_assert(a.version && !a.debug && !a.foreground);
	parse_argv(par, &a);
	ck_assert_int_eq(a.role, BS_ROLE_PARSER);
	ck_assert(!a.version && !a.debug && !a.foreground);
	ck_assert_str_eq(config_usage(), "batsecd [-dfV] [-c config] "
	    "[-k keyfile] [-p policyfile] [-s socket] [-t tapname] "
	    "[-S statedir] [-i iface]...");
}
END_TEST

/* ---- loading: defaults, file, flags ------------------------------------ */

static const char file_text[] =
    "interface eth0\n"
    "interface eth1\n"
    "tap t0\n"
    "key /file/node.key\n"
    "policy /file/p\n"
    "hop-penalty 10\n"
    "log-level warning\n";

START_TEST(test_precedence)
{
	struct bs_config cfg;
	struct bs_args a;
	char err[ERRLEN], copt[PATH_MAX];
	const char *path = write_file("p.conf", file_text, strlen(file_text),
	    0644);
	const char *flags[] = { "batsecd", "-c", copt, "-k", "/flag/key",
	    "-t", "t1", "-i", "wlan0", "-d", NULL };
	const char *plain[] = { "batsecd", "-c", copt, NULL };

	snprintf(copt, sizeof(copt), "%s", path);

	/* The file over the defaults. */
	parse_argv(plain, &a);
	ck_assert_int_eq(config_load(&cfg, &a, err, sizeof(err)), 0);
	ck_assert_uint_eq(cfg.n_ifaces, 2);
	ck_assert_str_eq(cfg.ifaces[0], "eth0");
	ck_assert_str_eq(cfg.ifaces[1], "eth1");
	ck_assert_str_eq(cfg.tap, "t0");
	ck_assert_str_eq(cfg.key, "/file/node.key");
	ck_assert_str_eq(cfg.socket, BS_CONF_DEF_SOCKET);
	ck_assert_uint_eq(cfg.hop_penalty, 10);
	ck_assert_int_eq(cfg.log_level, BS_LOG_WARNING);

	/* Flags over the file; -i replaces the list; -d means debug. */
	parse_argv(flags, &a);
	ck_assert_int_eq(config_load(&cfg, &a, err, sizeof(err)), 0);
	ck_assert_uint_eq(cfg.n_ifaces, 1);
	ck_assert_str_eq(cfg.ifaces[0], "wlan0");
	ck_assert_str_eq(cfg.tap, "t1");
	ck_assert_str_eq(cfg.key, "/flag/key");
	ck_assert_str_eq(cfg.policy, "/file/p");
	ck_assert_uint_eq(cfg.hop_penalty, 10);
	ck_assert_int_eq(cfg.log_level, BS_LOG_DEBUG);
}
END_TEST

START_TEST(test_apply_args)
{
	struct bs_config cfg, before;
	struct bs_args a;
	char err[ERRLEN];

	parse_ok("interface eth0\ninterface eth1\n", &cfg);
	before = cfg;
	memset(&a, 0, sizeof(a));
	ck_assert_int_eq(config_apply_args(&cfg, &a, err, sizeof(err)), 0);
	ck_assert(config_equal(&cfg, &before));
	/* A bad value leaves cfg as it was, even after a good one. */
	a.key = "/good";
	a.tap = "bad/tap";
	ck_assert_int_eq(config_apply_args(&cfg, &a, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "option -t: 'bad/tap' is not a valid interface "
	    "name: contains '/'");
	ck_assert(config_equal(&cfg, &before));
	a.tap = NULL;
	a.ifaces[0] = "x";
	a.ifaces[1] = "x";
	a.n_ifaces = 2;
	ck_assert_int_eq(config_apply_args(&cfg, &a, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "option -i: 'x' is listed twice");
	ck_assert(config_equal(&cfg, &before));
	a.n_ifaces = BS_CONF_MAX_IFACES + 1;
	ck_assert_int_eq(config_apply_args(&cfg, &a, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "option -i: more than 16 interfaces");
	ck_assert(config_equal(&cfg, &before));
	a.n_ifaces = 1;
	ck_assert_int_eq(config_apply_args(&cfg, &a, err, sizeof(err)), 0);
	ck_assert_uint_eq(cfg.n_ifaces, 1);
	ck_assert_str_eq(cfg.ifaces[0], "x");
	ck_assert_str_eq(cfg.ifaces[1], "");
	ck_assert_str_eq(cfg.key, "/good");
}
END_TEST

START_TEST(test_load_default_path)
{
	struct bs_config cfg, def;
	struct bs_args a;
	char err[ERRLEN];
	const char *only_i[] = { "batsecd", "-i", "eth0", NULL };
	const char *none[] = { "batsecd", NULL };

	/* Only meaningful where no /etc/batsec/batsec.conf is installed. */
	if (access(BS_CONF_DEFAULT_PATH, F_OK) == 0 || errno != ENOENT)
		return;
	parse_argv(only_i, &a);
	ck_assert_int_eq(config_load(&cfg, &a, err, sizeof(err)), 0);
	config_defaults(&def);
	ck_assert_uint_eq(cfg.n_ifaces, 1);
	cfg.n_ifaces = 0;
	memset(cfg.ifaces, 0, sizeof(cfg.ifaces));
	ck_assert(config_equal(&cfg, &def));
	/* Without -i there is no interface: the message says how to add one. */
	parse_argv(none, &a);
	ck_assert_int_eq(config_load(&cfg, &a, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "no mesh interface configured: add 'interface "
	    "NAME' to batsec.conf or give -i NAME");
}
END_TEST

enum { F_MISSING, F_DIR, F_FIFO, F_BIG, F_GROUPW, F_OTHERW, F_BADLINE,
    F_NOIFACE, F_TAPIFACE, F_OWNER };

static const struct {
	int kind;
	const char *err;	/* after "<path>" */
} load_cases[] = {
	{ F_MISSING, ": No such file or directory" },
	{ F_DIR, ": not a regular file" },
	{ F_FIFO, ": not a regular file" },
	{ F_BIG, ": larger than 65536 bytes" },
	{ F_GROUPW, ": writable by group or others (mode 0664); run chmod "
	    "go-w" },
	{ F_OTHERW, ": writable by group or others (mode 0602); run chmod "
	    "go-w" },
	{ F_BADLINE, ":2: tap: missing argument" },
	{ F_NOIFACE, "" },
	{ F_TAPIFACE, "" },
	{ F_OWNER, ": owned by uid 12345, not by root; refusing to use it" },
};

static const char *
make_load_case(int kind)
{
	static char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/load%d.conf", tmpdir, kind);
	switch (kind) {
	case F_MISSING:
		break;
	case F_DIR:
		ck_assert_int_eq(mkdir(path, 0755), 0);
		break;
	case F_FIFO:
		ck_assert_int_eq(mkfifo(path, 0644), 0);
		break;
	case F_BIG:
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(ftruncate(fd, BS_CONF_FILE_MAX + 1), 0);
		close(fd);
		break;
	case F_GROUPW:
		return write_file("load-gw.conf", "", 0, 0664);
	case F_OTHERW:
		return write_file("load-ow.conf", "", 0, 0602);
	case F_BADLINE:
		return write_file("load-bl.conf", "interface eth0\ntap\n", 19,
		    0644);
	case F_NOIFACE:
		return write_file("load-ni.conf", "tap t0\n", 7, 0600);
	case F_TAPIFACE:
		return write_file("load-ti.conf", "interface batsec0\n", 18,
		    0600);
	case F_OWNER:
		snprintf(path, sizeof(path), "%s",
		    write_file("load-own.conf", "", 0, 0644));
		ck_assert_int_eq(chown(path, 12345, 0), 0);
		break;
	}
	return path;
}

START_TEST(test_load_errors)
{
	struct bs_config cfg;
	struct bs_args a;
	char err[ERRLEN], want[PATH_MAX + ERRLEN], path[PATH_MAX];

	if (load_cases[_i].kind == F_OWNER && geteuid() != 0)
		return;		/* only root can give a file away */
	snprintf(path, sizeof(path), "%s", make_load_case(load_cases[_i].kind));
	memset(&a, 0, sizeof(a));
	a.config = path;
	memset(&cfg, 0x5a, sizeof(cfg));
	ck_assert_int_eq(config_load(&cfg, &a, err, sizeof(err)), -1);
	if (load_cases[_i].kind == F_NOIFACE)
		snprintf(want, sizeof(want), "no mesh interface configured: "
		    "add 'interface NAME' to batsec.conf or give -i NAME");
	else if (load_cases[_i].kind == F_TAPIFACE)
		snprintf(want, sizeof(want),
		    "tap: 'batsec0' is also a mesh interface");
	else
		snprintf(want, sizeof(want), "%s%s", path, load_cases[_i].err);
	ck_assert_str_eq(err, want);
	/* The daemon never gets a half-made configuration. */
	ck_assert_uint_eq(cfg.n_ifaces, 0);
	ck_assert_str_eq(cfg.tap, "");
}
END_TEST

START_TEST(test_example_file)
{
	struct bs_config cfg;
	struct bs_args a;
	char err[ERRLEN], path[PATH_MAX + 64], real[PATH_MAX];

	snprintf(path, sizeof(path), "%s/contrib/batsec.conf.example",
	    top_dir());
	ck_assert_ptr_nonnull(realpath(path, real));
	memset(&a, 0, sizeof(a));
	a.config = real;
	if (config_load(&cfg, &a, err, sizeof(err)) != 0)
		ck_abort_msg("example: %s", err);
	ck_assert_uint_ge(cfg.n_ifaces, 1);
}
END_TEST

/* Every directive has an entry in batsec.conf(5). */
START_TEST(test_man_page)
{
	static const char *const directives[] = { "interface", "tap", "key",
	    "policy", "socket", "state-dir", "user", "chroot", "ethertype",
	    "orig-interval", "hello-interval", "link-rekey", "hop-penalty",
	    "gateway", "log-level", "ap-isolation", "fast-path", "epoch-seed",
	    "gw-sel-class", "gw-mode", "dat", "bla", "e2e-cipher" };
	struct bs_config cfg;
	char path[PATH_MAX + 64], dump[BS_CONF_DUMP_MAX], want[64];
	static char man[65536];
	size_t i, n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/man/batsec.conf.5", top_dir());
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(man, 1, sizeof(man) - 1, f);
	fclose(f);
	man[n] = '\0';
	for (i = 0; i < sizeof(directives) / sizeof(directives[0]); i++) {
		snprintf(want, sizeof(want), "\n.It Ic %s", directives[i]);
		if (strstr(man, want) == NULL)
			ck_abort_msg("batsec.conf.5 lacks '%s'", want + 1);
	}
	/* The EXAMPLES file parses. */
	{
		char *ex = strstr(man, "\n# /etc/batsec/batsec.conf\n");
		char *end = ex != NULL ? strstr(ex, "\n.Ed\n") : NULL;
		char err[ERRLEN];

		ck_assert_ptr_nonnull(end);
		end[1] = '\0';
		if (config_parse_buf(&cfg, ex + 1, strlen(ex + 1), "man", err,
		    sizeof(err)) != 0)
			ck_abort_msg("man page example: %s", err);
		ck_assert_int_eq(config_validate(&cfg, err, sizeof(err)), 0);
		ck_assert_int_eq(cfg.gw_mode, BS_GW_SERVER);
	}
	/* ...and the dump uses no directive missing from that list (all
	 * but gw-mode, which it spells by its other name, gateway). */
	parse_ok("interface e\ngateway server 1M/1M", &cfg);
	ck_assert_int_gt(config_dump(&cfg, dump, sizeof(dump)), 0);
	for (i = 0, n = 0; dump[i] != '\0'; i++)
		n += dump[i] == '\n';
	ck_assert_uint_eq(n, sizeof(directives) / sizeof(directives[0]) - 1);
}
END_TEST

/* ---- validation of a whole configuration ------------------------------- */

enum { V_OK, V_NOIFACE, V_TOOMANY, V_DUP, V_BADIF, V_UNTERM, V_TAP,
    V_CHROOT, V_KEY, V_USER, V_ETHER, V_IVL, V_GWOFF, V_GWSRV, V_GWMODE,
    V_LOG, V_MEDIUM, V_REPEAT };

static const struct {
	int kind;
	const char *err;
} validate_cases[] = {
	{ V_OK, NULL },
	{ V_NOIFACE, "no mesh interface configured: add 'interface NAME' to "
	    "batsec.conf or give -i NAME" },
	{ V_TOOMANY, "interface: more than 16 interfaces" },
	{ V_DUP, "interface: 'eth0' is listed twice" },
	{ V_BADIF, "interface: 'a/b' is not a valid interface name: contains "
	    "'/'" },
	{ V_UNTERM, "configuration has an unterminated string" },
	{ V_TAP, "tap: 'eth0' is also a mesh interface" },
	{ V_CHROOT, "chroot: '/' is the root directory; the parser needs an "
	    "empty one" },
	{ V_KEY, "key: 'k' is not an absolute path" },
	{ V_USER, "user: '' is not a valid user name: empty" },
	{ V_ETHER, "ethertype: 0x0806 is in use by ARP; 0x88b5 and 0x88b6 are "
	    "free for local protocols" },
	{ V_IVL, "an interval is out of range 100..60000" },
	{ V_GWOFF, "gateway: inconsistent mode and bandwidth" },
	{ V_GWSRV, "gateway: inconsistent mode and bandwidth" },
	{ V_GWMODE, "gateway: inconsistent mode and bandwidth" },
	{ V_LOG, "log-level: unknown level 5" },
	{ V_MEDIUM, "interface: eth1: options out of range" },
	{ V_REPEAT, "interface: eth0: options out of range" },
};

static void
break_config(struct bs_config *c, int kind)
{
	switch (kind) {
	case V_NOIFACE: c->n_ifaces = 0; break;
	case V_TOOMANY: c->n_ifaces = BS_CONF_MAX_IFACES + 1; break;
	case V_DUP: strcpy(c->ifaces[1], "eth0"); break;
	case V_BADIF: strcpy(c->ifaces[1], "a/b"); break;
	case V_UNTERM: memset(c->policy, 'x', sizeof(c->policy)); break;
	case V_TAP: strcpy(c->tap, "eth0"); break;
	case V_CHROOT: strcpy(c->chroot_dir, "/"); break;
	case V_KEY: strcpy(c->key, "k"); break;
	case V_USER: c->user[0] = '\0'; break;
	case V_ETHER: c->ethertype = 0x0806; break;
	case V_IVL: c->hello_interval_ms = 99; break;
	case V_GWOFF: c->gw_up = 1; break;
	case V_GWSRV: c->gw_mode = BS_GW_SERVER; c->gw_down = 1; break;
	case V_GWMODE: c->gw_mode = (enum bs_gw_mode)7; break;
	case V_LOG: c->log_level = (enum bs_log_level)5; break;
	case V_MEDIUM: c->iface_opt[1].medium = (enum bs_medium)3; break;
	case V_REPEAT: c->iface_opt[0].bcast_repeat = 5; break;
	}
}

START_TEST(test_validate)
{
	struct bs_config cfg;
	char err[ERRLEN];

	parse_ok("interface eth0\ninterface eth1\n", &cfg);
	break_config(&cfg, validate_cases[_i].kind);
	if (validate_cases[_i].err == NULL) {
		ck_assert_int_eq(config_validate(&cfg, err, sizeof(err)), 0);
		return;
	}
	ck_assert_int_eq(config_validate(&cfg, err, sizeof(err)), -1);
	ck_assert_str_eq(err, validate_cases[_i].err);
}
END_TEST

/* ---- dump and parse back ----------------------------------------------- */

static void
make_max_config(struct bs_config *c)
{
	size_t i;

	config_defaults(c);
	for (i = 0; i < BS_CONF_MAX_IFACES; i++) {
		snprintf(c->ifaces[i], IFNAMSIZ, "%015zu", i);
		c->iface_opt[i].medium = BS_MEDIUM_WIRELESS;
		c->iface_opt[i].repeat_set = true;
		c->iface_opt[i].bcast_repeat = BS_CONF_BCAST_REPEAT_MAX;
	}
	c->n_ifaces = BS_CONF_MAX_IFACES;
	memset(c->tap, 't', BS_CONF_IFNAME_MAX);
	memset(c->key, 'k', BS_CONF_PATH_MAX);
	memset(c->policy, 'p', BS_CONF_PATH_MAX);
	memset(c->socket, 's', BS_CONF_SOCKET_MAX);
	memset(c->state_dir, 'd', BS_CONF_PATH_MAX);
	memset(c->user, 'u', BS_CONF_USER_MAX);
	memset(c->chroot_dir, 'c', BS_CONF_PATH_MAX);
	c->key[0] = c->policy[0] = c->socket[0] = c->state_dir[0] = '/';
	c->chroot_dir[0] = '/';
	c->ethertype = 0xfffe;
	c->orig_interval_ms = c->hello_interval_ms = BS_CONF_INTERVAL_MAX;
	c->hop_penalty = 255;
	c->gw_mode = BS_GW_SERVER;
	c->gw_down = c->gw_up = UINT32_MAX;
	c->log_level = BS_LOG_WARNING;
}

static const char *const roundtrip_texts[] = {
	"",
	"interface eth0\n",
	"interface a\ninterface b\ntap c\nkey /k\npolicy /p\nsocket /s\n"
	    "state-dir /d\nuser u\nchroot /c\nethertype 0x88b6\n"
	    "orig-interval 100\nhello-interval 60000\nhop-penalty 0\n"
	    "gateway server 1.5M/0.1m\nlog-level error\n",
	"gateway server 100/100\nlog-level debug\n",
	NULL,	/* the largest configuration */
};

START_TEST(test_roundtrip)
{
	struct bs_config a, b;
	char d1[BS_CONF_DUMP_MAX], d2[BS_CONF_DUMP_MAX], err[ERRLEN];
	int n;

	if (roundtrip_texts[_i] != NULL)
		parse_ok(roundtrip_texts[_i], &a);
	else
		make_max_config(&a);
	n = config_dump(&a, d1, sizeof(d1));
	ck_assert_int_gt(n, 0);
	ck_assert_uint_eq(strlen(d1), (size_t)n);
	if (config_parse_buf(&b, d1, (size_t)n, "dump", err, sizeof(err)) != 0)
		ck_abort_msg("dump does not parse: %s\n%s", err, d1);
	ck_assert(config_equal(&a, &b));
	ck_assert_int_eq(config_dump(&b, d2, sizeof(d2)), n);
	ck_assert_str_eq(d1, d2);
}
END_TEST

START_TEST(test_dump_short_buffer)
{
	struct bs_config c, d;
	char buf[BS_CONF_DUMP_MAX];
	int n;

	make_max_config(&c);
	n = config_dump(&c, buf, sizeof(buf));
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(config_dump(&c, buf, (size_t)n), -1);
	ck_assert_uint_lt(strlen(buf), (size_t)n);
	ck_assert_int_eq(config_dump(&c, buf, (size_t)n + 1), n);
	ck_assert_int_eq(config_dump(&c, buf, 0), -1);
	/* config_equal notices a change in any one field. */
	d = c;
	ck_assert(config_equal(&c, &d));
	d.gw_up--;
	ck_assert(!config_equal(&c, &d));
	d = c;
	d.ifaces[15][0] = 'x';
	ck_assert(!config_equal(&c, &d));
	d = c;
	d.chroot_dir[5] = 'x';
	ck_assert(!config_equal(&c, &d));
	d = c;
	d.iface_opt[3].medium = BS_MEDIUM_WIRED;
	ck_assert(!config_equal(&c, &d));
	d = c;
	d.iface_opt[15].bcast_repeat = 3;
	ck_assert(!config_equal(&c, &d));
	d = c;
	d.iface_opt[0].repeat_set = false;
	ck_assert(!config_equal(&c, &d));
	ck_assert_str_eq(config_log_level_name(BS_LOG_ERROR), "error");
	ck_assert_str_eq(config_log_level_name((enum bs_log_level)0), "?");
}
END_TEST

/* ---- suite ------------------------------------------------------------- */

static Suite *
config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc;

	tc = tcase_create("file");
	tcase_add_unchecked_fixture(tc, invalid_setup, NULL);
	tcase_add_loop_test(tc, test_valid, 0, T_NELEM(valid_cases));
	tcase_add_loop_test(tc, test_invalid, 0, T_NELEM(invalid_cases));
	tcase_add_test(tc, test_values);
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_sizes);
	suite_add_tcase(s, tc);

	tc = tcase_create("args");
	tcase_add_loop_test(tc, test_args, 0, T_NELEM(args_cases));
	tcase_add_test(tc, test_args_values);
	tcase_add_test(tc, test_apply_args);
	suite_add_tcase(s, tc);

	tc = tcase_create("load");
	tcase_add_unchecked_fixture(tc, tmp_setup, tmp_teardown);
	tcase_add_test(tc, test_precedence);
	tcase_add_test(tc, test_load_default_path);
	tcase_add_loop_test(tc, test_load_errors, 0, T_NELEM(load_cases));
	tcase_add_test(tc, test_example_file);
	tcase_add_test(tc, test_man_page);
	suite_add_tcase(s, tc);

	tc = tcase_create("whole");
	tcase_add_loop_test(tc, test_validate, 0, T_NELEM(validate_cases));
	tcase_add_loop_test(tc, test_roundtrip, 0, T_NELEM(roundtrip_texts));
	tcase_add_test(tc, test_dump_short_buffer);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return t_run(config_suite());
}
