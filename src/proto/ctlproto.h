/*
 * ctlproto.h — the wire format of batsecd's control socket, shared by the
 * daemon (control.c) and batsec-ctl.  Pure functions over buffers: no
 * system calls, no allocation.
 *
 * The socket is AF_UNIX SOCK_SEQPACKET: one message is one datagram of at
 * most CTLP_MSG_MAX bytes, never merged or split.  Integers are
 * big-endian.  Every message starts with the same two bytes:
 *
 *	version:u8 (CTLP_VERSION)   type:u8
 *
 *	REQUEST  client -> daemon, type 1; one per exchange
 *		name_len:u8 (1..32)  name        [a-z][a-z0-9-]*
 *		argc:u8 (0..8)
 *		argc x { len:u16 (1..512)  bytes }   bytes 0x20..0x7e
 *	RECORD   daemon -> client, type 2; zero or more per reply
 *		nfields:u8 (1..64)
 *		nfields x { ftype:u8  name_len:u8 (1..32)  name  value }
 *		    name [a-z][a-z0-9_]*, unique within the record
 *		    ftype 1 string:  len:u16 (0..1024) bytes 0x20..0x7e
 *		    ftype 2 integer: u64
 *		    ftype 3 boolean: u8, 0 or 1
 *	END      daemon -> client, type 3; closes every reply
 *		status:u8  records:u32  msg_len:u8  msg   bytes 0x20..0x7e
 *		    status 0: success, records = RECORDs sent, msg_len 0;
 *		    status != 0: an error, records 0 (a reply that fails sends
 *		    no record), msg_len >= 1: one line for a person.
 *
 * Every length is checked against what remains before it is used, and a
 * message must end exactly where its last element ends.  The two header
 * bytes and the END layout never change between versions, so a daemon can
 * always answer a request of another version with an END that says so
 * (CTLP_E_VERSION), and any client can read it.
 *
 * The daemon never formats text for people: a reply is records of typed,
 * named fields, and batsec-ctl renders them as a table or as JSON.
 */
#ifndef BATSEC_CTLPROTO_H
#define BATSEC_CTLPROTO_H

#include <stddef.h>
#include <stdint.h>

#define CTLP_VERSION		1

#define CTLP_MSG_MAX		8192	/* bytes of one datagram */
#define CTLP_HDR_LEN		2
#define CTLP_NAME_MAX		32	/* command and field names */
#define CTLP_ARGS_MAX		8	/* arguments of a request */
#define CTLP_ARG_MAX		512	/* bytes of one argument */
#define CTLP_FIELDS_MAX		64	/* fields of one record */
#define CTLP_STR_MAX		1024	/* bytes of a string field */
#define CTLP_ERR_MAX		255	/* bytes of an END message */
/* The largest END: header, status, records, msg_len, msg. */
#define CTLP_END_MAX		(CTLP_HDR_LEN + 1 + 4 + 1 + CTLP_ERR_MAX)
/*
 * The most a reply may hold in total, records and framing: about 20000
 * originator rows.  The daemon refuses to queue more (CTLP_E_TOOBIG) and
 * batsec-ctl refuses to read more.
 */
#define CTLP_REPLY_MAX		(4u << 20)

enum ctlp_type {
	CTLP_T_REQUEST = 1,
	CTLP_T_RECORD = 2,
	CTLP_T_END = 3,
};

enum ctlp_ftype {
	CTLP_F_STR = 1,
	CTLP_F_U64 = 2,
	CTLP_F_BOOL = 3,
};

/* END status.  A client shows unknown codes (from a newer daemon) too. */
enum ctlp_status {
	CTLP_OK = 0,
	CTLP_E_PROTO = 1,	/* malformed request */
	CTLP_E_VERSION = 2,	/* unsupported protocol version */
	CTLP_E_UNKNOWN = 3,	/* unknown command */
	CTLP_E_USAGE = 4,	/* wrong number or form of arguments */
	CTLP_E_PERM = 5,	/* peer is not root nor in the control group */
	CTLP_E_BUSY = 6,	/* too many clients */
	CTLP_E_TOOBIG = 7,	/* reply larger than CTLP_REPLY_MAX */
	CTLP_E_FAILED = 8,	/* the command was understood but failed */
	CTLP_E_INTERNAL = 9,	/* a bug in the daemon */
};

/*
 * The commands batsec-ctl sends, their arguments and the fields it
 * expects (a handler may add more; JSON shows every field).
 *
 *	originators	-		address key next_hop tq interface
 *					last_seen_ms best(bool)
 *	neighbors	-		address key interface link_tq
 *					last_seen_ms
 *	interfaces	-		name active(bool) ifindex mtu address
 *	gateways	-		address key next_hop tq interface
 *					bandwidth_down_kbit bandwidth_up_kbit
 *					best(bool)
 *	clients		-		client vid originator last_seen_ms
 *	stats		-		one record (or several, merged) of
 *					integer counters
 *	status		-		built in: version protocol uptime_ms
 *					clients, and what the daemon adds
 *	version		-		built in: version protocol
 *	trust-list	-		key address name gateway(bool)
 *	trust-add	KEY [name NAME] [gateway]	no records
 *	trust-remove	KEY		no records
 *	block, unblock, revoke  KEY	no records
 *	reload		-		no records
 *	ping		ADDRESS		seqno address: an echo request left
 *					for that originator (or the one that
 *					announces that client MAC)
 *	ping-result	SEQNO		seqno state ("sent" or "replied")
 *					rtt_us
 *	anchors		-		key address name revocations
 *	policy-show	-		one record per line: line
 *	revoke-record	RECORD		no records; RECORD is the base64
 *					(CTLP_REVOKE_B64_LEN characters) of a
 *					BS_REVOKE_LEN revocation record
 *	set		NAME VALUE...	one record: NAME = the value now
 *					(config_set_runtime names and forms)
 *	get		[NAME]		one record: every runtime setting (or
 *					NAME) as text, as batsec.conf has it;
 *					field names have '_' for '-'
 *					(hop_penalty)
 *	events		[CURSOR]	without: one record, last (the newest
 *					event's number); with: lost (when
 *					events after CURSOR were overwritten),
 *					then up to 64 records seq time_ms
 *					type event [address] [detail]
 *	trust-list also gives "include" (the DIR an entry came from).
 *
 * KEY is the 44-character base64 public key (batsec-ctl reads key files
 * itself).  Addresses are "xx:xx:xx:xx:xx:xx".
 */
#define CTLP_CMD_ORIGINATORS	"originators"
#define CTLP_CMD_NEIGHBORS	"neighbors"
#define CTLP_CMD_INTERFACES	"interfaces"
#define CTLP_CMD_GATEWAYS	"gateways"
#define CTLP_CMD_CLIENTS	"clients"
#define CTLP_CMD_STATS		"stats"
#define CTLP_CMD_STATUS		"status"
#define CTLP_CMD_VERSION	"version"
#define CTLP_CMD_TRUST_LIST	"trust-list"
#define CTLP_CMD_TRUST_ADD	"trust-add"
#define CTLP_CMD_TRUST_REMOVE	"trust-remove"
#define CTLP_CMD_BLOCK		"block"
#define CTLP_CMD_UNBLOCK	"unblock"
#define CTLP_CMD_REVOKE		"revoke"
#define CTLP_CMD_RELOAD		"reload"
#define CTLP_CMD_PING		"ping"
#define CTLP_CMD_PING_RESULT	"ping-result"
#define CTLP_CMD_TRACE		"trace"
#define CTLP_CMD_ANCHORS	"anchors"
#define CTLP_CMD_POLICY_SHOW	"policy-show"
#define CTLP_CMD_REVOKE_RECORD	"revoke-record"
#define CTLP_CMD_SET		"set"
#define CTLP_CMD_GET		"get"
#define CTLP_CMD_EVENTS		"events"
/* base64 of a BS_REVOKE_LEN revocation record, padded */
#define CTLP_REVOKE_B64_LEN	(((BS_REVOKE_LEN + 2) / 3) * 4)

/* "xx:xx:xx:xx:xx:xx" (hex digits of either case) into mac: 0 or -1. */
int ctlp_mac_parse(const char *s, uint8_t mac[6]);

/* A decoded request: NUL-terminated copies, already validated. */
struct ctlp_request {
	char name[CTLP_NAME_MAX + 1];
	size_t argc;
	char arg[CTLP_ARGS_MAX][CTLP_ARG_MAX + 1];
};

/* One decoded field; str points into the decoded message. */
struct ctlp_field {
	uint8_t type;			/* enum ctlp_ftype */
	char name[CTLP_NAME_MAX + 1];
	const char *str;		/* CTLP_F_STR: str_len bytes, no NUL */
	size_t str_len;
	uint64_t u64;			/* CTLP_F_U64, or CTLP_F_BOOL 0/1 */
};

struct ctlp_record {
	size_t n;
	struct ctlp_field f[CTLP_FIELDS_MAX];
};

struct ctlp_end {
	uint8_t status;			/* enum ctlp_status */
	uint32_t records;
	char msg[CTLP_ERR_MAX + 1];	/* NUL-terminated */
};

/* An incremental RECORD writer over a caller's buffer. */
struct ctlp_rec {
	uint8_t *buf;
	size_t cap;			/* at most CTLP_MSG_MAX is used */
	size_t len;
	size_t nfields;
	int bad;			/* a field was refused: unusable */
};

/*
 * Validators over len bytes (s need not be NUL-terminated):
 * command names [a-z][a-z0-9-]{0,31}; field names [a-z][a-z0-9_]{0,31};
 * printable: every byte 0x20..0x7e.  1 when valid.
 */
int	ctlp_cmd_name_ok(const char *s, size_t len);
int	ctlp_field_name_ok(const char *s, size_t len);
int	ctlp_printable(const char *s, size_t len);

/* A short description of a status code ("unknown command", ...). */
const char *ctlp_status_str(unsigned status);

/*
 * Read the two header bytes: 0 and *type, or CTLP_E_VERSION for another
 * version or CTLP_E_PROTO for a message shorter than the header, each
 * with one line in err.
 */
int	ctlp_header(const uint8_t *buf, size_t len, uint8_t *type, char *err,
	    size_t errlen);

/*
 * REQUEST name with argc arguments into buf (buflen bytes).  0 and the
 * length in *outlen, or -1 with err naming the bad part ("argument 2:
 * ...") when a name or argument is out of range.
 */
int	ctlp_request_encode(uint8_t *buf, size_t buflen, const char *name,
	    size_t argc, const char *const argv[], size_t *outlen, char *err,
	    size_t errlen);
/* 0, or CTLP_E_PROTO / CTLP_E_VERSION with one line in err. */
int	ctlp_request_decode(const uint8_t *buf, size_t len,
	    struct ctlp_request *req, char *err, size_t errlen);

/*
 * RECORD writer: begin, add fields, end.  A field that is invalid or does
 * not fit returns -1 and makes the record bad; ctlp_rec_end then fails
 * too (also for a record without fields), so the caller may check only
 * the end.  The string value must be printable (ctlp_printable).
 */
void	ctlp_rec_begin(struct ctlp_rec *w, uint8_t *buf, size_t cap);
int	ctlp_rec_str(struct ctlp_rec *w, const char *name, const char *val,
	    size_t len);
int	ctlp_rec_u64(struct ctlp_rec *w, const char *name, uint64_t v);
int	ctlp_rec_bool(struct ctlp_rec *w, const char *name, int v);
/* 0 and the message length in *outlen, or -1. */
int	ctlp_rec_end(struct ctlp_rec *w, size_t *outlen);
/* 0, or CTLP_E_PROTO / CTLP_E_VERSION with one line in err. */
int	ctlp_record_decode(const uint8_t *buf, size_t len,
	    struct ctlp_record *rec, char *err, size_t errlen);

/* END: the same rules as the decoder; -1 with err when e breaks them. */
int	ctlp_end_encode(uint8_t *buf, size_t buflen, const struct ctlp_end *e,
	    size_t *outlen, char *err, size_t errlen);
int	ctlp_end_decode(const uint8_t *buf, size_t len, struct ctlp_end *e,
	    char *err, size_t errlen);

#endif /* BATSEC_CTLPROTO_H */
