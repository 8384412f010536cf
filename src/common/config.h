/*
 * config.h — batsecd's configuration: batsec.conf(5), its defaults and the
 * command-line flags that override it.
 *
 * Order of precedence, lowest first: built-in defaults, the configuration
 * file, command-line flags.  `-i` on the command line replaces the file's
 * whole interface list instead of adding to it.
 *
 * struct bs_config holds every value in fixed-size, NUL-padded fields, so a
 * configuration is a plain value: it can be copied, compared and dumped
 * without allocation.  Every function that fills one builds it in private
 * storage first and, on any error, leaves the caller's copy cleared: a
 * half-parsed configuration is never handed out.
 *
 * Every function that can fail returns 0 on success, or -1 with a single
 * line (no newline) in err of errlen bytes, naming where and what, e.g.
 *   "/etc/batsec/batsec.conf:12: hop-penalty: 300 is out of range 0..255"
 *   "option -i: 'eth0/1' is not a valid interface name: contains '/'"
 */
#ifndef BATSEC_CONFIG_H
#define BATSEC_CONFIG_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BS_CONF_DEFAULT_PATH	"/etc/batsec/batsec.conf"

#define BS_CONF_FILE_MAX	65536	/* bytes; larger files are refused */
#define BS_CONF_LINE_MAX	1024	/* bytes of a line, without its '\n' */
#define BS_CONF_MAX_IFACES	16	/* mesh interfaces */
#define BS_CONF_PATH_MAX	1000	/* bytes of a path, without the NUL */
#define BS_CONF_SOCKET_MAX	107	/* sizeof(sockaddr_un.sun_path) - 1 */
#define BS_CONF_USER_MAX	32	/* bytes of a user name */
#define BS_CONF_IFNAME_MAX	(IFNAMSIZ - 1)
/* A buffer of this size always holds config_dump()'s output. */
#define BS_CONF_DUMP_MAX	8192

/* Defaults, as documented in batsec.conf(5). */
#define BS_CONF_DEF_TAP		"batsec0"
#define BS_CONF_DEF_KEY		"/etc/batsec/node.key"
#define BS_CONF_DEF_POLICY	"/etc/batsec/batsec.policy"
#define BS_CONF_DEF_SOCKET	"/run/batsec/batsecd.sock"
#define BS_CONF_DEF_STATE_DIR	"/var/lib/batsec"
#define BS_CONF_DEF_USER	"batsec"
#define BS_CONF_DEF_CHROOT	"/var/empty"
#define BS_CONF_DEF_ETHERTYPE	0x88b5
#define BS_CONF_DEF_ORIG_MS	1000
#define BS_CONF_DEF_HELLO_MS	1000
/* link-rekey: seconds between new link salts (batsec-protocol(7)). */
#define BS_CONF_DEF_REKEY_S	600
#define BS_CONF_REKEY_MIN_S	10
#define BS_CONF_REKEY_MAX_S	86400
#define BS_CONF_DEF_HOP_PENALTY	30

/*
 * interface NAME [auto|wired|wireless] [bcast-repeat N] [hop-penalty N]:
 * hop-penalty lowers the TQ of OGMs received on the interface; extra copies of
 * each broadcast sent on the interface (batsec.conf(5)).  Wireless
 * interfaces repeat twice unless told (three transmissions, as
 * batman-adv's BATADV_NUM_BCASTS_WIRELESS); wired ones not at all.
 */
#define BS_CONF_BCAST_REPEAT_MAX	4
#define BS_CONF_DEF_REPEAT_WIRELESS	2
#define BS_CONF_DEF_REPEAT_WIRED	0

#define BS_CONF_INTERVAL_MIN	100	/* ms, for both intervals */
#define BS_CONF_INTERVAL_MAX	60000
#define BS_CONF_ETHERTYPE_MIN	0x0600	/* below: 802.3 length field */

enum bs_gw_mode {
	BS_GW_OFF = 0,
	BS_GW_SERVER,
	BS_GW_CLIENT,		/* DHCP steered to a selected gateway */
};

/* gw-sel-class: batman-adv's selection classes 1..255, default 20. */
#define BS_CONF_GW_CLASS_MIN	1
#define BS_CONF_GW_CLASS_MAX	255
#define BS_CONF_DEF_GW_CLASS	20

/* The values are syslog(3) priorities, so a logger can use them directly. */
enum bs_log_level {
	BS_LOG_ERROR = 3,	/* LOG_ERR */
	BS_LOG_WARNING = 4,	/* LOG_WARNING */
	BS_LOG_INFO = 6,	/* LOG_INFO */
	BS_LOG_DEBUG = 7,	/* LOG_DEBUG */
};

/* fast-path: where transit UNICASTs are relayed (fwd_fast.c). */
enum bs_fast_path {
	BS_FAST_OFF = 0,	/* in the forwarder */
	BS_FAST_ON,		/* in the kernel: tcx, else a tc filter */
	BS_FAST_TC,		/* in the kernel, always as a tc filter */
};

/* e2e-cipher: the AEADs this node offers end to end (fwd_data.c). */
enum bs_e2e_cipher {
	BS_E2E_AUTO = 0,	/* AES-256-GCM where the CPU has it, with peers
				   that offer it; ChaCha20-Poly1305 otherwise */
	BS_E2E_CHACHA20,	/* ChaCha20-Poly1305 only */
};

/* multicast-listeners (fwd_mcast.h, batsec.conf(5)). */
enum bs_mcast_mode {
	BS_MCAST_AUTO = 0,	/* exact, every group once batsec0 is bridged */
	BS_MCAST_EXACT,		/* exact also with bridged clients */
	BS_MCAST_FLOOD,		/* flood our group frames, want every group */
};

/* epoch-seed: where a missing epoch file starts (state.h). */
enum bs_epoch_seed {
	BS_EPOCH_SEED_AUTO = 0,	/* the clock if plausible, else 1 on */
				/* persistent storage, refused on tmpfs */
	BS_EPOCH_SEED_CLOCK,	/* the clock, waiting until it is plausible */
	BS_EPOCH_SEED_NONE,	/* at 1 (labs: replayable after a loss) */
};

/* What a mesh interface is (interface NAME [auto|wired|wireless]). */
enum bs_medium {
	BS_MEDIUM_AUTO = 0,	/* wireless when the kernel says so */
	BS_MEDIUM_WIRED,
	BS_MEDIUM_WIRELESS,
};

/* The options of one interface line; all zero: auto, default repeats. */
struct bs_conf_iface {
	enum bs_medium	medium;
	bool		repeat_set;	/* bcast-repeat given */
	uint8_t		bcast_repeat;	/* 0..BS_CONF_BCAST_REPEAT_MAX */
	uint8_t		hop_penalty;	/* hop-penalty N: 0..255, default 0,
					   on OGMs received on it */
};

struct bs_config {
	char		ifaces[BS_CONF_MAX_IFACES][IFNAMSIZ];
	struct bs_conf_iface iface_opt[BS_CONF_MAX_IFACES];	/* by index */
	size_t		n_ifaces;
	char		tap[IFNAMSIZ];
	char		key[BS_CONF_PATH_MAX + 1];
	char		policy[BS_CONF_PATH_MAX + 1];
	char		socket[BS_CONF_SOCKET_MAX + 1];
	char		state_dir[BS_CONF_PATH_MAX + 1];
	char		user[BS_CONF_USER_MAX + 1];
	char		chroot_dir[BS_CONF_PATH_MAX + 1];
	uint16_t	ethertype;
	uint32_t	orig_interval_ms;
	uint32_t	hello_interval_ms;
	uint32_t	link_rekey_s;	/* new link salts this often */
	uint8_t		hop_penalty;
	enum bs_gw_mode	gw_mode;
	uint32_t	gw_down;	/* units of 100 kbit/s, as on the wire; */
	uint32_t	gw_up;		/* both 0 unless gw_mode is BS_GW_SERVER */
	uint8_t		gw_sel_class;	/* client: 1..255 (gw-sel-class) */
	enum bs_log_level log_level;
	bool		ap_isolation;	/* our clients are isolated clients */
	enum bs_fast_path fast_path;	/* relay UNICAST in the kernel
					   (fastpath.h) */
	enum bs_epoch_seed epoch_seed;
	bool		dat;		/* answer ARP from the cache
					   (fwd_dat.h) */
	enum bs_mcast_mode mcast;	/* multicast-listeners */
	bool		bla;		/* bridge loop avoidance
					   (fwd_bla.h), default off */
	enum bs_e2e_cipher e2e_cipher;	/* default auto */
};

enum bs_role {
	BS_ROLE_FORWARDER = 0,	/* batsecd */
	BS_ROLE_PARSER,		/* batsecd -P: the sandboxed parser child */
};

/*
 * The command line, parsed.  The strings point into the argv given to
 * config_parse_args() and stay valid as long as it does; NULL means "not
 * given".
 */
struct bs_args {
	enum bs_role	role;
	bool		foreground;	/* -f, or implied by -d */
	bool		debug;		/* -d: debug logging to stderr */
	bool		version;	/* -V */
	const char	*config;	/* -c; NULL: BS_CONF_DEFAULT_PATH */
	const char	*key;		/* -k */
	const char	*policy;	/* -p */
	const char	*socket;	/* -s */
	const char	*tap;		/* -t */
	const char	*state_dir;	/* -S */
	const char	*ifaces[BS_CONF_MAX_IFACES];	/* -i, in order */
	size_t		n_ifaces;
};

/* The usage line, without "usage: " and without a newline. */
const char *config_usage(void);

/*
 * Parses batsecd's command line (argv[0] is the program name and is
 * skipped).  Keeps no state between calls, never permutes argv and never
 * prints.  Option values are checked here with the same rules as the file
 * (absolute paths, interface names, lengths).  `-P` must be the only
 * argument.  Operands are refused.
 */
int config_parse_args(int argc, char **argv, struct bs_args *out, char *err,
    size_t errlen);

/* Built-in defaults; no interfaces. */
void config_defaults(struct bs_config *cfg);

/*
 * Defaults, then the configuration text in buf (len bytes, need not be NUL
 * terminated, at most BS_CONF_FILE_MAX).  name is used in error messages
 * ("name:line: ...").  Does not require an interface: that is checked by
 * config_validate() once command-line flags had their say.
 */
int config_parse_buf(struct bs_config *cfg, const char *buf, size_t len,
    const char *name, char *err, size_t errlen);

/*
 * Applies the command-line values in args over cfg (-i replaces the list).
 * On error cfg is left unchanged.
 */
int config_apply_args(struct bs_config *cfg, const struct bs_args *args,
    char *err, size_t errlen);

/*
 * Checks the configuration as a whole: every field within its rules, at
 * least one interface, no duplicate interface, the TAP name not also a
 * mesh interface.
 */
int config_validate(const struct bs_config *cfg, char *err, size_t errlen);

/*
 * What batsecd does at start-up: defaults, then the file (args->config, or
 * BS_CONF_DEFAULT_PATH when that is NULL; a missing default file is not an
 * error, a missing -c file is), then the flags, then config_validate().
 * The file must be a regular file of at most BS_CONF_FILE_MAX bytes, owned
 * by root or the effective user and not writable by group or others.
 */
int config_load(struct bs_config *cfg, const struct bs_args *args, char *err,
    size_t errlen);

/*
 * Writes cfg as batsec.conf text (every directive, defaults included) that
 * config_parse_buf() reads back to an equal configuration.  Returns the
 * length written (without the NUL), or -1 when len is too small (buf then
 * holds a truncated but NUL-terminated text when len > 0).
 */
int config_dump(const struct bs_config *cfg, char *buf, size_t len);

/* True when both configurations hold the same settings. */
bool config_equal(const struct bs_config *a, const struct bs_config *b);

/*
 * The broadcast repeats of an interface with options o that is wireless
 * (resolved: auto already decided) or not.
 */
unsigned config_iface_repeat(const struct bs_conf_iface *o, bool wireless);

/* True when both interface lines have the same options. */
bool config_iface_opt_equal(const struct bs_conf_iface *a,
    const struct bs_conf_iface *b);

/* "auto", "wired", "wireless"; "?" for anything else. */
const char *config_medium_name(enum bs_medium m);

/*
 * Runtime settings (batsec-ctl set / get): hop-penalty, orig-interval,
 * hello-interval, gateway, gw-sel-class, log-level ("gw-mode" is
 * accepted for "gateway", as in the file).  config_runtime_name(i) names the
 * i-th, NULL past the last.
 *
 * config_set_runtime: argv[0] is the name, argv[1..argc-1] the value as
 * the file's directive takes it ("gateway", "server", "10mbit/2mbit"),
 * checked by the file's own code (same ranges, same messages, without a
 * file and line).  On error cfg is unchanged.
 *
 * config_get_runtime: the value as the file spells it ("30", "server
 * 10000/2000"); its length, or -1 for an unknown name or a short buf.
 */
const char *config_runtime_name(size_t i);
int config_set_runtime(struct bs_config *cfg, size_t argc,
    const char *const argv[], char *err, size_t errlen);
int config_get_runtime(const struct bs_config *cfg, const char *name,
    char *buf, size_t len);

/* "error", "warning", "info", "debug"; "?" for anything else. */
const char *config_log_level_name(enum bs_log_level level);

#endif /* BATSEC_CONFIG_H */
