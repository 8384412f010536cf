-- batsec.lua -- Wireshark dissector for the batsec mesh protocol: HELLO of
-- version 4 (with the link salt and the link-authentication trailer, 8-byte
-- tags), OGM of version 3 (full and compact entries, 8-byte tags, 12-byte
-- chain elements), data frames of version 2.
--
-- Usage:
--   tshark -X lua_script:batsec.lua -r capture.pcap -V
--   wireshark -X lua_script:batsec.lua capture.pcap
-- or copy this file into Wireshark's personal Lua plugins folder
-- (Help > About > Folders).  `make install` puts it under
-- $(PREFIX)/share/batsec/.
--
-- The layout is the one of batsec-protocol(7); this file follows that page
-- section by section.  Every field of every frame type is shown: HELLO
-- (neighbours, certificate, then its link-authentication trailer: auth
-- type, number of tags, and either MAC tags with their key ids, under the
-- OGM link keys of the neighbours, or the sender's signature; the counter
-- the tags cover, epoch << 32 | seqno, is shown as a generated field),
-- OGM aggregates (each entry's
-- mutable part with its kind, then for a full entry the signed part, TVLV
-- containers and signature, for a compact one the originator's mesh
-- address and sequence number; then the link-authentication trailer with
-- MAC tags or a signature), and the data
-- frames of version 2: UNICAST, ECHO, TRACE and TTLX (hop part,
-- end-to-end header, ciphertext and AEAD tag; the payload is encrypted end
-- to end and stays opaque here) and BCAST (hop counter, tag list, signed header, the inner
-- Ethernet frame handed to Wireshark's Ethernet dissector, signature).
-- Data frames of version 1 are decoded with their old layout but marked
-- with an error: batsecd refuses them.  So are OGMs of version 1 (before
-- compact entries: byte 3 of each entry was reserved, at most 16
-- entries) and 2 (16-byte link tags, chain elements and anchors, 2
-- reserved bytes in each entry's mutable part), and HELLOs of version 2
-- (before the link trailer: a bare signature after the neighbours and
-- certificate) and 3 (16-byte link tags), each read to its end with its
-- old layout.  A HELLO of version 1 (before the link salt) is
-- marked as refused too.
--
-- The dissector applies the structural rules batsecd applies before it
-- looks at anything else (step 1 of RECEIVING in batsec-protocol(7)):
-- every violation becomes an expert info of severity Error, so a frame
-- batsecd would drop unread is easy to find (display filter
-- _ws.expert.severity == "Error", or one class such as
-- batsec.malformed.reserved).  A well-formed frame produces no error and
-- no warning; an unknown TVLV container gives a note.
-- Signatures, MAC tags, hop tags and hop chains are shown, not verified,
-- and UNICAST/ECHO payloads are not decrypted: that needs the keys and
-- BLAKE2b/SipHash/Ed25519/ChaCha20-Poly1305, which Wireshark's Lua does
-- not offer.
--
-- The ethertype is a preference (Edit > Preferences > Protocols > BATSEC),
-- 0x88B5 by default, as in batsec.conf(5).

local batsec = Proto("batsec", "batsec mesh protocol")

-- ---- constants (batsec-protocol(7), "Sizes and limits") -----------------

local VERSION = 3		-- OGM (version 2: compact entries; version 3:
				-- 8-byte tags, 12-byte chain elements, no
				-- reserved bytes in the mutable part)
local HELLO_VERSION = 4		-- HELLO (version 4: 8-byte tags; 3: the link trailer;
				-- version 2 added the link salt)
local SALT_LEN = 16
local DATA_VERSION = 2		-- UNICAST, BCAST, ECHO
local DEFAULT_ETHERTYPE = 0x88B5
local PK_LEN, SIG_LEN, ADDR_LEN = 32, 64, 6
local TAG_LEN, KEYID_LEN, CHAIN_LEN = 8, 4, 12
local OLD_TAG_LEN, OLD_CHAIN_LEN = 16, 16	-- OGM 1 and 2, HELLO 3 (obsolete)
local MAXHOPS = 32
local CERT_LEN, REVOKE_LEN = 180, 140
local HELLO_MAX_NEIGH, RX_WINDOW = 64, 64
local HELLO_MAX_WANT = 8	-- wanted originators in a HELLO
local OGM_MAX_ENTRIES, OGM_MAX_LEN = 40, 4096
local OGM_V1_MAX_ENTRIES = 16	-- version 1 (obsolete)
-- Entry kinds (byte 3 of the mutable part, batsec-protocol(7), "OGM CHAIN").
local KIND_FULL, KIND_COMPACT = 0, 1
local ENTRY_KINDS = { [KIND_FULL] = "full", [KIND_COMPACT] = "compact" }
local TVLV_MAX, TT_MAX, TT_ENTRY_LEN = 1024, 64, 12
local MAX_TAGS = 32
local INNER_MIN, INNER_MAX = 14, 1518
local ETH_MIN_PAYLOAD = 46
local INTERVAL_MIN, INTERVAL_MAX = 100, 60000
local CERT_NAME_MAX = 32
-- Data frames, version 2 (batsec-protocol(7), "DATA FRAMES").
local HOP_LEN, E2E_LEN, AEAD_LEN = 24, 28, 16
local HOP_KEYID_LEN, HOP_TAG_LEN = 4, 8
local BC_HDR_LEN, BC_TAG_LEN, BC_SIGNED_LEN = 12, 12, 20
local BC_MAX_TAGS = 8
local ECHO_PLAIN_LEN = 6
-- FRAG: a piece of a UNICAST's end-to-end part (batsec-protocol(7), FRAG).
local FRAG_HDR_LEN, FRAG_TOTAL_MIN, FRAG_TOTAL_MAX = 44, 58, 1562
local TTLX_PLAIN_LEN = 16

local T_HELLO, T_OGM, T_UNICAST, T_BCAST = 0x01, 0x02, 0x40, 0x41
local T_ECHO, T_TRACE, T_TTLX, T_FRAG = 0x42, 0x43, 0x44, 0x45
local TYPES = {
	[T_HELLO] = "HELLO", [T_OGM] = "OGM",
	[T_UNICAST] = "UNICAST", [T_BCAST] = "BCAST", [T_ECHO] = "ECHO",
	[T_TRACE] = "TRACE", [T_TTLX] = "TTLX", [T_FRAG] = "FRAG",
}
local ECHO_KINDS = { [1] = "request", [2] = "reply" }

local TV_GATEWAY, TV_TT, TV_CERT, TV_REVOKE = 0x01, 0x02, 0x03, 0x04
local TV_TT_PAGE, TV_MCAST = 0x05, 0x06
local TVLV_TYPES = {
	[TV_GATEWAY] = "GATEWAY", [TV_TT] = "TT",
	[TV_CERT] = "CERT", [TV_REVOKE] = "REVOKE", [TV_TT_PAGE] = "TT_PAGE",
	[TV_MCAST] = "MCAST",
}
local MCAST_MAX = 32
local TT_PAGE_HDR_LEN, TT_PAGE_MAX, TT_TOTAL_MAX = 12, 60, 3840

local AUTH_MAC, AUTH_SIG = 1, 2
local AUTH_TYPES = { [AUTH_MAC] = "MAC tags", [AUTH_SIG] = "signature" }

-- ---- fields ---------------------------------------------------------------

local F = {
	type = ProtoField.uint8("batsec.type", "Type", base.HEX, TYPES),
	version = ProtoField.uint8("batsec.version", "Version", base.DEC),
	reserved = ProtoField.bytes("batsec.reserved", "Reserved"),
	ttl = ProtoField.uint8("batsec.ttl", "TTL", base.DEC),
	signature = ProtoField.bytes("batsec.signature", "Signature"),
	trailing = ProtoField.bytes("batsec.trailing", "Trailing bytes"),
	padding = ProtoField.bytes("batsec.padding", "Ethernet padding"),

	-- HELLO
	hello = ProtoField.none("batsec.hello", "HELLO"),
	hello_flags = ProtoField.uint8("batsec.hello.flags", "Flags",
	    base.HEX),
	hello_flag_cert = ProtoField.bool("batsec.hello.flags.cert",
	    "Certificate present", 8, nil, 0x01),
	hello_flag_fresh = ProtoField.bool("batsec.hello.flags.fresh",
	    "Fresh (knows no full OGM entries yet)", 8, nil, 0x02),
	hello_flag_want = ProtoField.bool("batsec.hello.flags.want",
	    "Want list present", 8, nil, 0x04),
	hello_num_want = ProtoField.uint8("batsec.hello.num_want",
	    "Wanted originators", base.DEC),
	want_addr = ProtoField.ether("batsec.hello.want",
	    "Wanted originator (its full OGM entry)"),
	hello_num_neigh = ProtoField.uint8("batsec.hello.num_neigh",
	    "Neighbour entries", base.DEC),
	hello_pk = ProtoField.bytes("batsec.hello.pubkey",
	    "Sender public key"),
	hello_ifmac = ProtoField.ether("batsec.hello.ifmac",
	    "Sender interface MAC"),
	hello_interval = ProtoField.uint16("batsec.hello.interval",
	    "HELLO interval (ms)", base.DEC),
	hello_epoch = ProtoField.uint32("batsec.hello.epoch", "Epoch",
	    base.DEC),
	hello_salt = ProtoField.bytes("batsec.hello.salt", "Link salt"),
	hello_seqno = ProtoField.uint32("batsec.hello.seqno",
	    "Sequence number", base.DEC),
	neigh = ProtoField.none("batsec.hello.neigh", "Neighbour"),
	neigh_addr = ProtoField.ether("batsec.hello.neigh.addr",
	    "Mesh address"),
	neigh_rx = ProtoField.uint8("batsec.hello.neigh.rx_count",
	    "rx_count (of the last 64 HELLOs)", base.DEC),

	-- certificate (HELLO and CERT TVLV)
	cert = ProtoField.none("batsec.cert", "Certificate"),
	cert_version = ProtoField.uint8("batsec.cert.version",
	    "Format version", base.DEC),
	cert_roles = ProtoField.uint8("batsec.cert.roles", "Roles", base.HEX),
	cert_role_gw = ProtoField.bool("batsec.cert.roles.gateway", "Gateway",
	    8, nil, 0x01),
	cert_name_len = ProtoField.uint8("batsec.cert.name_len",
	    "Name length", base.DEC),
	cert_node = ProtoField.bytes("batsec.cert.node_key",
	    "Node public key"),
	cert_issuer = ProtoField.bytes("batsec.cert.issuer_key",
	    "Issuer (CA) public key"),
	cert_nbefore = ProtoField.uint64("batsec.cert.not_before",
	    "Not before (Unix s)", base.DEC),
	cert_nafter = ProtoField.uint64("batsec.cert.not_after",
	    "Not after (Unix s)", base.DEC),
	cert_name = ProtoField.string("batsec.cert.name", "Name"),
	cert_name_pad = ProtoField.bytes("batsec.cert.name_padding",
	    "Name padding"),
	cert_sig = ProtoField.bytes("batsec.cert.signature",
	    "Issuer signature"),

	-- revocation record (REVOKE TVLV)
	rev = ProtoField.none("batsec.revoke", "Revocation record"),
	rev_version = ProtoField.uint8("batsec.revoke.version",
	    "Format version", base.DEC),
	rev_key = ProtoField.bytes("batsec.revoke.revoked_key",
	    "Revoked public key"),
	rev_issuer = ProtoField.bytes("batsec.revoke.issuer_key",
	    "Issuer (CA) public key"),
	rev_issued = ProtoField.uint64("batsec.revoke.issued_at",
	    "Issued at (Unix s)", base.DEC),
	rev_sig = ProtoField.bytes("batsec.revoke.signature",
	    "Issuer signature"),

	-- OGM
	ogm = ProtoField.none("batsec.ogm", "OGM"),
	ogm_num = ProtoField.uint8("batsec.ogm.num_entries", "Entries",
	    base.DEC),
	ogm_sender = ProtoField.ether("batsec.ogm.sender",
	    "Sender mesh address"),
	entry = ProtoField.none("batsec.ogm.entry", "Entry"),
	mut = ProtoField.none("batsec.ogm.mutable", "Mutable part"),
	tq = ProtoField.uint8("batsec.ogm.tq", "TQ", base.DEC),
	hops = ProtoField.uint8("batsec.ogm.hops", "Hops", base.DEC),
	prev = ProtoField.ether("batsec.ogm.prev_sender",
	    "Previous sender"),
	kind = ProtoField.uint8("batsec.ogm.kind", "Entry kind", base.DEC,
	    ENTRY_KINDS),
	chain = ProtoField.bytes("batsec.ogm.chain", "Hop-chain element"),
	cp = ProtoField.none("batsec.ogm.compact", "Compact part"),
	ogm_orig = ProtoField.ether("batsec.ogm.orig",
	    "Originator mesh address"),
	sgn = ProtoField.none("batsec.ogm.signed", "Signed part"),
	orig_pk = ProtoField.bytes("batsec.ogm.orig_key",
	    "Originator public key"),
	ogm_epoch = ProtoField.uint32("batsec.ogm.epoch", "Epoch", base.DEC),
	ogm_seqno = ProtoField.uint32("batsec.ogm.seqno", "Sequence number",
	    base.DEC),
	ogm_flags = ProtoField.uint8("batsec.ogm.flags", "Flags", base.HEX),
	ogm_interval = ProtoField.uint16("batsec.ogm.interval",
	    "OGM interval (ms)", base.DEC),
	anchor = ProtoField.bytes("batsec.ogm.anchor",
	    "Hop-chain anchor H^32(seed)"),
	tvlv_len = ProtoField.uint16("batsec.ogm.tvlv_len", "TVLV length",
	    base.DEC),
	ogm_sig = ProtoField.bytes("batsec.ogm.signature",
	    "Originator signature"),

	-- TVLV containers
	tvlv = ProtoField.none("batsec.tvlv", "TVLV"),
	tvlv_type = ProtoField.uint8("batsec.tvlv.type", "Type", base.HEX,
	    TVLV_TYPES),
	tvlv_version = ProtoField.uint8("batsec.tvlv.version", "Version",
	    base.DEC),
	tvlv_vlen = ProtoField.uint16("batsec.tvlv.len", "Length", base.DEC),
	tvlv_value = ProtoField.bytes("batsec.tvlv.value", "Value"),
	gw_down = ProtoField.uint32("batsec.tvlv.gw.down",
	    "Bandwidth down (100 kbit/s)", base.DEC),
	gw_up = ProtoField.uint32("batsec.tvlv.gw.up",
	    "Bandwidth up (100 kbit/s)", base.DEC),
	tt = ProtoField.none("batsec.tvlv.tt.entry", "Client"),
	tt_mac = ProtoField.ether("batsec.tvlv.tt.mac", "Client MAC"),
	tt_vid = ProtoField.uint16("batsec.tvlv.tt.vid", "VLAN", base.HEX),
	tt_tagged = ProtoField.bool("batsec.tvlv.tt.tagged", "Tagged", 16,
	    nil, 0x8000),
	tt_vlan = ProtoField.uint16("batsec.tvlv.tt.vlan_id", "VLAN id",
	    base.DEC, nil, 0x0fff),
	tt_flags = ProtoField.uint8("batsec.tvlv.tt.flags", "Flags",
	    base.HEX),
	tt_flag_isolated = ProtoField.bool("batsec.tvlv.tt.flags.isolated",
	    "Isolated client (ap-isolation)", 8, nil, 0x01),
	mc_flags = ProtoField.uint8("batsec.tvlv.mcast.flags", "Flags",
	    base.HEX),
	mc_all4 = ProtoField.bool("batsec.tvlv.mcast.flags.all4",
	    "Every IPv4 group", 8, nil, 0x01),
	mc_all6 = ProtoField.bool("batsec.tvlv.mcast.flags.all6",
	    "Every IPv6 group", 8, nil, 0x02),
	mc_group = ProtoField.ether("batsec.tvlv.mcast.group", "Group"),
	lan_kind = ProtoField.uint8("batsec.lan.type", "LAN frame type",
	    base.DEC, { [1] = "ANNOUNCE", [2] = "CLAIM" }),
	lan_version = ProtoField.uint8("batsec.lan.version", "Version",
	    base.DEC),
	lan_addr = ProtoField.ether("batsec.lan.addr", "Sender mesh address"),
	lan_epoch = ProtoField.uint32("batsec.lan.epoch", "Epoch", base.DEC),
	lan_seqno = ProtoField.uint32("batsec.lan.seqno", "Sequence number",
	    base.DEC),
	ttp_ttvn = ProtoField.uint16("batsec.tvlv.ttpage.ttvn",
	    "Table version", base.DEC),
	ttp_total = ProtoField.uint16("batsec.tvlv.ttpage.total",
	    "Clients in the whole table", base.DEC),
	ttp_sum = ProtoField.uint32("batsec.tvlv.ttpage.checksum",
	    "Table checksum", base.HEX),
	ttp_pages = ProtoField.uint8("batsec.tvlv.ttpage.pages", "Pages",
	    base.DEC),
	ttp_page = ProtoField.uint8("batsec.tvlv.ttpage.page", "Page",
	    base.DEC),

	-- link-authentication trailer
	trailer = ProtoField.none("batsec.trailer",
	    "Link-authentication trailer"),
	auth = ProtoField.uint8("batsec.trailer.auth", "Auth type", base.DEC,
	    AUTH_TYPES),
	num_tags = ProtoField.uint8("batsec.trailer.num_tags", "Tags",
	    base.DEC),
	counter = ProtoField.uint64("batsec.trailer.counter", "Frame counter",
	    base.DEC),
	counter_epoch = ProtoField.uint32("batsec.trailer.counter_epoch",
	    "Counter: epoch (upper 32 bits)", base.DEC),
	counter_low = ProtoField.uint32("batsec.trailer.counter_low",
	    "Counter: count (lower 32 bits)", base.DEC),
	tag = ProtoField.none("batsec.trailer.tag", "Tag"),
	keyid = ProtoField.bytes("batsec.trailer.keyid", "Key id"),
	mac_tag = ProtoField.bytes("batsec.trailer.mac", "MAC tag"),
	link_sig = ProtoField.bytes("batsec.trailer.signature",
	    "Link signature"),

	-- data frames (version 2)
	hop = ProtoField.none("batsec.hop", "Hop part"),
	hop_keyid = ProtoField.bytes("batsec.hop.keyid", "Hop key id"),
	hop_counter = ProtoField.uint64("batsec.hop.counter", "Hop counter",
	    base.DEC),
	hop_lane = ProtoField.uint8("batsec.hop.lane",
	    "Lane (0: user-space forwarder, 1..255: in-kernel relay)",
	    base.DEC),
	hop_count = ProtoField.uint64("batsec.hop.count",
	    "Count (lower 56 bits)", base.DEC),
	hop_tag = ProtoField.bytes("batsec.hop.tag", "Hop tag"),
	bc_ntags = ProtoField.uint8("batsec.bcast.ntags", "Hop tags",
	    base.DEC),
	bc_tag = ProtoField.none("batsec.bcast.tag", "Hop tag entry"),
	e2e = ProtoField.none("batsec.e2e", "End-to-end header"),
	src_epoch = ProtoField.uint32("batsec.e2e.src_epoch", "Source epoch",
	    base.DEC),
	dst_epoch = ProtoField.uint32("batsec.e2e.dst_epoch",
	    "Destination epoch", base.DEC),
	e2e_counter = ProtoField.uint64("batsec.e2e.counter",
	    "Suite byte and counter (nonce)", base.DEC),
	e2e_suite = ProtoField.uint8("batsec.e2e.suite", "Suite byte",
	    base.HEX),
	e2e_suite_aes = ProtoField.bool("batsec.e2e.suite.aes",
	    "Sealed with AES-256-GCM (else ChaCha20-Poly1305)", 8, nil, 0x01),
	e2e_suite_can_aes = ProtoField.bool("batsec.e2e.suite.can_aes",
	    "Source opens AES-256-GCM", 8, nil, 0x02),
	e2e_count = ProtoField.uint64("batsec.e2e.count",
	    "End-to-end counter (lower 56 bits)", base.DEC),
	ciphertext = ProtoField.bytes("batsec.ciphertext", "Ciphertext"),
	ct_len = ProtoField.uint16("batsec.ciphertext_len",
	    "Ciphertext length", base.DEC),
	aead_tag = ProtoField.bytes("batsec.aead_tag",
	    "AEAD tag (ChaCha20-Poly1305)"),
	bc_signed = ProtoField.none("batsec.bcast.signed", "Signed header"),
	bc_flags = ProtoField.uint8("batsec.bcast.flags", "Flags", base.HEX),
	bc_epoch = ProtoField.uint32("batsec.bcast.epoch", "Epoch", base.DEC),
	dst = ProtoField.ether("batsec.dst", "Destination originator"),
	src = ProtoField.ether("batsec.src", "Source originator"),
	orig = ProtoField.ether("batsec.orig", "Originator"),
	bc_seqno = ProtoField.uint32("batsec.bcast.seqno", "Sequence number",
	    base.DEC),
	inner_len = ProtoField.uint16("batsec.inner_len",
	    "Inner frame length", base.DEC),
	inner = ProtoField.bytes("batsec.inner", "Inner Ethernet frame"),

	-- FRAG
	frag = ProtoField.none("batsec.frag", "Fragment header"),
	frag_orig = ProtoField.ether("batsec.frag.fragmenter",
	    "Fragmenter (the node that cut the frame)"),
	frag_seqno = ProtoField.uint32("batsec.frag.seqno",
	    "Fragment sequence number", base.DEC),
	frag_total = ProtoField.uint16("batsec.frag.total",
	    "Total length (end-to-end part)", base.DEC),
	frag_offset = ProtoField.uint16("batsec.frag.offset", "Offset",
	    base.DEC),
	frag_piece = ProtoField.bytes("batsec.frag.piece", "Piece"),
	frag_piece_len = ProtoField.uint16("batsec.frag.piece_len",
	    "Piece length", base.DEC),

	-- echo (batsec-ctl ping)
	echo_kind = ProtoField.uint8("batsec.echo.kind", "Kind", base.DEC,
	    ECHO_KINDS),
	echo_ident = ProtoField.uint16("batsec.echo.ident", "Identifier",
	    base.HEX),
	echo_seqno = ProtoField.uint16("batsec.echo.seqno", "Sequence number",
	    base.DEC),
}

local field_list = {}
for _, f in pairs(F) do field_list[#field_list + 1] = f end
batsec.fields = field_list

-- ---- expert infos ---------------------------------------------------------
-- The errors: one per class of batsecd's parse errors (enum wire_err in
-- src/proto/wire.h); each makes batsecd drop the whole frame.  Then two notes
-- and two warnings for what is not a structural error.

local function err_info(abbr, text, group)
	return ProtoExpert.new("batsec." .. abbr, text, group,
	    expert.severity.ERROR)
end

local MAL, PROTO = expert.group.MALFORMED, expert.group.PROTOCOL
local E = {
	trunc = err_info("malformed.truncated", "Frame truncated", MAL),
	version = err_info("malformed.version",
	    "Unsupported protocol version", PROTO),
	type = err_info("malformed.type", "Unknown frame type", PROTO),
	reserved = err_info("malformed.reserved",
	    "Reserved field or unknown flag not zero", PROTO),
	count = err_info("malformed.count", "Count out of range", MAL),
	len = err_info("malformed.length",
	    "Length odd, too large or inconsistent", MAL),
	range = err_info("malformed.range", "Value out of range", PROTO),
	addr = err_info("malformed.address", "Invalid address", PROTO),
	vid = err_info("malformed.vid", "Invalid VLAN id", PROTO),
	auth = err_info("malformed.auth", "Unknown link-auth type", PROTO),
	dup = err_info("malformed.duplicate", "Duplicate item", PROTO),
	cert = err_info("malformed.cert",
	    "Malformed certificate or revocation", MAL),
	trailing = err_info("malformed.trailing",
	    "Trailing bytes after the frame", MAL),
	padding = err_info("malformed.padding",
	    "Ethernet padding not zero", MAL),
	toolong = err_info("malformed.too_long", "Frame too long", MAL),
	-- Not errors: batsecd skips unknown TVLVs, and a short capture is
	-- the capture's fault, not the sender's.
	unknown_tvlv = ProtoExpert.new("batsec.tvlv.unknown",
	    "Unknown TVLV container, skipped", expert.group.UNDECODED,
	    expert.severity.NOTE),
	snap = ProtoExpert.new("batsec.snaplen",
	    "Capture shorter than the frame; decoding stops there",
	    expert.group.UNDECODED, expert.severity.NOTE),
	inner = ProtoExpert.new("batsec.inner_failed",
	    "The inner Ethernet frame could not be dissected",
	    expert.group.MALFORMED, expert.severity.WARN),
	ifmac = ProtoExpert.new("batsec.hello.ifmac_mismatch",
	    "Interface MAC differs from the Ethernet source; batsecd " ..
	    "drops this HELLO", expert.group.PROTOCOL, expert.severity.WARN),
}

local expert_list = {}
for _, e in pairs(E) do expert_list[#expert_list + 1] = e end
batsec.experts = expert_list

-- ---- preferences ----------------------------------------------------------

-- A string, so that it can be written in hex as in batsec.conf(5).
batsec.prefs.ethertype = Pref.string("Ethertype", "0x88B5",
    "Ethertype of batsec frames, as 'ethertype' in batsec.conf " ..
    "(0x0600..0xFFFF, hex with 0x or decimal; default 0x88B5)")

local eth_dissector = Dissector.get("eth_withoutfcs")
local eth_src_field = Field.new("eth.src")

-- Bitwise AND of two small non-negative integers in plain arithmetic:
-- not every Lua version and Wireshark build has a bit library.
local function band(a, b)
	local r, v = 0, 1
	while a > 0 and b > 0 do
		if a % 2 == 1 and b % 2 == 1 then r = r + v end
		a, b, v = math.floor(a / 2), math.floor(b / 2), v * 2
	end
	return r
end

-- ---- the cursor -----------------------------------------------------------
-- Like batsecd's own parser: a read position and a stop; a field that
-- does not fit what remains raises one "truncated" expert info and every
-- later take returns nil, so the dissection stops cleanly without ever
-- touching a byte outside the frame.

local Cur = {}
Cur.__index = Cur

local function cur_new(tvb, pinfo)
	return setmetatable({ tvb = tvb, pinfo = pinfo, off = 0,
	    stop = tvb:len(), snap = tvb:reported_len() > tvb:len(),
	    err = false }, Cur)
end

function Cur:rem()
	return self.stop - self.off
end

-- The remaining bytes as a range, nil when nothing remains.
function Cur:rest()
	if self:rem() <= 0 then return nil end
	return self.tvb(self.off, self:rem())
end

-- The next n bytes as a range, or nil: after an error, for n = 0 (an
-- empty range may lie past the end of the buffer), or when fewer than n
-- bytes remain (and the truncation is noted).
function Cur:take(n, tree, what)
	if self.err or n <= 0 then return nil end
	if n > self:rem() then
		self.err = true
		local r = self:rest()
		local e = self.snap and E.snap or E.trunc
		local msg = string.format("%s: needs %d bytes at offset %d, " ..
		    "%d left", what, n, self.off, self:rem())
		if r then
			tree:add_tvb_expert_info(e, r, msg)
		else
			tree:add_proto_expert_info(e, msg)
		end
		return nil
	end
	local r = self.tvb(self.off, n)
	self.off = self.off + n
	return r
end

-- A subtree starting at the cursor; its length is fixed later by done().
function Cur:subtree(tree, field, label)
	local item
	local r = self:rest()
	if r then
		item = tree:add(field, r)
	else
		item = tree:add(field)
	end
	if label then item:set_text(label) end
	return item, self.off
end

function Cur:done(item, start)
	if self.off > start then item:set_len(self.off - start) end
end

-- ---- field helpers --------------------------------------------------------

-- Adds field over the next n bytes; returns the item and the range (both
-- nil when the bytes are missing).
local function add(c, tree, field, n, what)
	local r = c:take(n, tree, what)
	if not r then return nil, nil end
	return tree:add(field, r), r
end

local function nonzero(r)
	local b = r:bytes()
	for i = 0, b:len() - 1 do
		if b:get_index(i) ~= 0 then return true end
	end
	return false
end

-- Reserved bytes: shown, and an error when not zero.
local function reserved(c, tree, n, what)
	local it, r = add(c, tree, F.reserved, n, what)
	if r and nonzero(r) then
		it:add_proto_expert_info(E.reserved, what .. " is not zero")
	end
	return r
end

local function flags(c, tree, field, mask, what)
	local it, r = add(c, tree, field, 1, what)
	if r and band(r:uint(), 0xff - mask) ~= 0 then
		it:add_proto_expert_info(E.reserved, string.format(
		    "%s: undefined flag bits 0x%02x", what,
		    band(r:uint(), 0xff - mask)))
	end
	return it, r
end

-- An integer field that must lie in lo..hi (experts: kind).
local function ranged(c, tree, field, n, lo, hi, kind, what)
	local it, r = add(c, tree, field, n, what)
	if r then
		local v = r:uint()
		if v < lo or v > hi then
			it:add_proto_expert_info(kind, string.format(
			    "%s %d is outside %d..%d", what, v, lo, hi))
		end
	end
	return it, r
end

-- A mesh address: locally administered (0x02) set, multicast (0x01) clear.
local function mesh_addr(c, tree, field, what)
	local it, r = add(c, tree, field, ADDR_LEN, what)
	if r then
		local b0 = r:range(0, 1):uint()
		if band(b0, 0x03) ~= 0x02 then
			it:add_proto_expert_info(E.addr, what ..
			    " is not a mesh address (first byte must have " ..
			    "bit 0x02 set and 0x01 clear)")
		end
	end
	return it, r
end

-- A unicast, non-zero MAC address.
local function unicast_mac(c, tree, field, what)
	local it, r = add(c, tree, field, ADDR_LEN, what)
	if r and (band(r:range(0, 1):uint(), 0x01) ~= 0 or
	    not nonzero(r)) then
		it:add_proto_expert_info(E.addr, what ..
		    " is not a unicast, non-zero MAC address")
	end
	return it, r
end

local function interval(c, tree, field, what)
	return ranged(c, tree, field, 2, INTERVAL_MIN, INTERVAL_MAX, E.range,
	    what)
end

local function unix_time(it, r)
	local v = tonumber(tostring(r:uint64()))
	if v and v < 253402300800 then	-- before year 10000
		it:append_text(os.date("!  (%Y-%m-%d %H:%M:%S UTC)", v))
	end
end

-- Nothing may follow a frame (HELLO, OGM).
local function no_trailing(c, tree)
	if c.err then return end
	local r = c:rest()
	if r then
		tree:add(F.trailing, r):add_proto_expert_info(E.trailing,
		    string.format("%d bytes after the end of the frame",
		    r:len()))
		c.off = c.stop
	end
end

-- ---- certificates and revocations ----------------------------------------
-- Fixed-size records (the TVLV code checks the size first); every format
-- rule of CERTIFICATES AND REVOCATIONS in batsec-protocol(7) is checked,
-- the issuer's signature is not.

local function cert_name_ok(r, n)
	for i = 0, n - 1 do
		local ch = r:range(i, 1):uint()
		if ch < 0x21 or ch > 0x7e then return false end
	end
	return true
end

local function dissect_cert(c, tree, what)
	local st, start = c:subtree(tree, F.cert, what)
	local r
	local it
	it, r = add(c, st, F.cert_version, 1, "certificate version")
	if r and r:uint() ~= 1 then
		it:add_proto_expert_info(E.cert, "unsupported format version")
	end
	local roles_it
	roles_it, r = add(c, st, F.cert_roles, 1, "certificate roles")
	if r then
		roles_it:add(F.cert_role_gw, r)
		if band(r:uint(), 0xfe) ~= 0 then
			roles_it:add_proto_expert_info(E.cert,
			    "unknown role bits")
		end
	end
	local nlen
	it, r = add(c, st, F.cert_name_len, 1, "certificate name length")
	if r then
		nlen = r:uint()
		if nlen > CERT_NAME_MAX then
			it:add_proto_expert_info(E.cert,
			    "name longer than 32 bytes")
		end
	end
	it, r = add(c, st, F.reserved, 1, "certificate reserved")
	if r and nonzero(r) then
		it:add_proto_expert_info(E.cert, "reserved byte not zero")
	end
	add(c, st, F.cert_node, PK_LEN, "certificate node key")
	add(c, st, F.cert_issuer, PK_LEN, "certificate issuer key")
	local nb_it, nb = add(c, st, F.cert_nbefore, 8, "not before")
	local na_it, na = add(c, st, F.cert_nafter, 8, "not after")
	if nb then unix_time(nb_it, nb) end
	if na then
		unix_time(na_it, na)
		if nb and na:uint64() <= nb:uint64() then
			na_it:add_proto_expert_info(E.cert,
			    "not-after is not later than not-before")
		end
	end
	r = c:take(CERT_NAME_MAX, st, "certificate name")
	if r and nlen then
		local n = math.min(nlen, CERT_NAME_MAX)
		if n > 0 then
			local name_it = st:add(F.cert_name, r:range(0, n))
			if not cert_name_ok(r, n) then
				name_it:add_proto_expert_info(E.cert,
				    "name has a byte outside 0x21..0x7e")
			end
		end
		if n < CERT_NAME_MAX then
			local pad = r:range(n, CERT_NAME_MAX - n)
			local pit = st:add(F.cert_name_pad, pad)
			if nonzero(pad) then
				pit:add_proto_expert_info(E.cert,
				    "name padding not zero")
			end
		end
		st:append_text(n > 0 and (": " .. r:range(0, n):string()) or
		    "")
	end
	add(c, st, F.cert_sig, SIG_LEN, "certificate signature")
	c:done(st, start)
end

local function dissect_revoke(c, tree)
	local st, start = c:subtree(tree, F.rev)
	local it, r = add(c, st, F.rev_version, 1, "revocation version")
	if r and r:uint() ~= 1 then
		it:add_proto_expert_info(E.cert, "unsupported format version")
	end
	it, r = add(c, st, F.reserved, 3, "revocation reserved")
	if r and nonzero(r) then
		it:add_proto_expert_info(E.cert, "reserved byte not zero")
	end
	add(c, st, F.rev_key, PK_LEN, "revoked key")
	add(c, st, F.rev_issuer, PK_LEN, "revocation issuer key")
	it, r = add(c, st, F.rev_issued, 8, "issued at")
	if r then unix_time(it, r) end
	add(c, st, F.rev_sig, SIG_LEN, "revocation signature")
	c:done(st, start)
end

-- Mark item it as a duplicate (expert info "<what> listed twice") when
-- key is in the set seen already; then add it.  Returns key.
local function once(seen, key, it, what)
	if seen[key] then
		it:add_proto_expert_info(E.dup, what .. " listed twice")
	end
	seen[key] = true
	return key
end

-- ---- link-authentication trailer (OGM frames and HELLOs) ---------------

local function dissect_tags(c, tree, n, taglen)
	local seen = {}
	for i = 1, n do
		if c.err then return end
		local tt, start = c:subtree(tree, F.tag,
		    string.format("Tag %d", i))
		local kit, kr = add(c, tt, F.keyid, KEYID_LEN, "tag key id")
		add(c, tt, F.mac_tag, taglen, "tag")
		if kr then
			local key = once(seen, kr:bytes():tohex(), kit,
			    "key id")
			tt:append_text(": key id " .. key:lower())
		end
		c:done(tt, start)
	end
end

-- The link-authentication trailer of an OGM frame (hello nil: its
-- 8-byte frame counter follows the 4-byte header, then the link
-- signature or the tags) or of a HELLO (hello = { epoch = range, seqno =
-- range }: no counter on the wire, the tags cover epoch << 32 | seqno,
-- shown as a generated field; the signature is the sender's own, domain
-- "batsec1 hello").  Returns the text for the Info column (", signed" or
-- ", N tags"), nil for an unknown auth type.  taglen: the tags' length
-- (TAG_LEN; OLD_TAG_LEN in frames of the obsolete versions).
local function dissect_trailer(c, tree, hello, taglen)
	local tt, start = c:subtree(tree, F.trailer)
	local ait, ar = add(c, tt, F.auth, 1, "auth type")
	local auth = ar and ar:uint()
	if ar and not AUTH_TYPES[auth] then
		ait:add_proto_expert_info(E.auth, string.format(
		    "auth type %d: 1 (MAC tags) or 2 (signature)", auth))
	end
	local lo, hi = 0, 0
	if auth == AUTH_MAC then lo, hi = 1, MAX_TAGS end
	local _, nr = ranged(c, tt, F.num_tags, 1, lo, hi, E.count,
	    "num_tags")
	reserved(c, tt, 2, "trailer reserved")
	if not hello then
		local cit, cr = add(c, tt, F.counter, 8, "frame counter")
		if cr then
			cit:add(F.counter_epoch, cr:range(0, 4))
			cit:add(F.counter_low, cr:range(4, 4))
		end
	elseif hello.epoch and hello.seqno and auth == AUTH_MAC then
		tt:add(F.counter, UInt64.new(hello.seqno:uint(),
		    hello.epoch:uint())):set_generated()
	end
	if auth == AUTH_SIG then
		if hello then
			add(c, tt, F.signature, SIG_LEN, "signature")
		else
			add(c, tt, F.link_sig, SIG_LEN, "link signature")
		end
		tt:append_text(": signature")
	elseif auth == AUTH_MAC and nr then
		dissect_tags(c, tt, nr:uint(), taglen)
		tt:append_text(string.format(": %d MAC tag%s", nr:uint(),
		    nr:uint() == 1 and "" or "s"))
	end
	c:done(tt, start)
	-- An unknown auth type has no known layout: the rest is unread.
	if ar and not AUTH_TYPES[auth] then c.off = c.stop end
	if ar and AUTH_TYPES[auth] then
		return ", " .. (auth == AUTH_SIG and "signed" or
		    string.format("%d tag%s", nr and nr:uint() or 0,
		    (nr and nr:uint() == 1) and "" or "s"))
	end
	return nil
end

-- ---- HELLO ----------------------------------------------------------------

-- The Ethernet source of the frame carrying us (the innermost one so far).
local function outer_eth_src()
	local all = { eth_src_field() }
	local fi = all[#all]
	if fi == nil then return nil end
	return fi.range:bytes():tohex()
end

-- old: a HELLO of an obsolete version (the caller flagged it), read with
-- its old layout: version 2, a bare signature where the link trailer is
-- now; version 3, tags of OLD_TAG_LEN bytes.
local function dissect_hello(c, tree, pinfo, old)
	local v2 = old == 2
	local ht, start = c:subtree(tree, F.hello)
	local fit, fr = flags(c, ht, F.hello_flags, v2 and 0x03 or 0x07,
	    "flags")
	if fr then
		fit:add(F.hello_flag_cert, fr)
		fit:add(F.hello_flag_fresh, fr)
		if not v2 then
			fit:add(F.hello_flag_want, fr)
		end
	end
	local _, nr = ranged(c, ht, F.hello_num_neigh, 1, 0, HELLO_MAX_NEIGH,
	    E.count, "num_neigh")
	add(c, ht, F.hello_pk, PK_LEN, "public key")
	local mit, mr = unicast_mac(c, ht, F.hello_ifmac, "interface MAC")
	if mr then
		local src = outer_eth_src()
		if src and src ~= mr:bytes():tohex() then
			mit:add_proto_expert_info(E.ifmac)
		end
	end
	interval(c, ht, F.hello_interval, "hello interval")
	local _, er = ranged(c, ht, F.hello_epoch, 4, 1, 0xffffffff, E.range,
	    "epoch")
	local _, sr = add(c, ht, F.hello_seqno, 4, "seqno")
	add(c, ht, F.hello_salt, SALT_LEN, "link salt")
	local n = nr and nr:uint() or 0
	local seen = {}
	for i = 1, n do
		if c.err then break end
		local nt, ns = c:subtree(ht, F.neigh,
		    string.format("Neighbour %d", i))
		local ait, ar = mesh_addr(c, nt, F.neigh_addr,
		    "neighbour address")
		local _, rr = ranged(c, nt, F.neigh_rx, 1, 0, RX_WINDOW,
		    E.range, "neighbour rx_count")
		reserved(c, nt, 1, "neighbour reserved")
		if ar then
			once(seen, ar:bytes():tohex(), ait, "neighbour address")
			nt:append_text(": " .. tostring(ar:ether()))
			if rr then
				nt:append_text(string.format(", rx %d/64",
				    rr:uint()))
			end
		end
		c:done(nt, ns)
	end
	local has_cert = fr and band(fr:uint(), 0x01) ~= 0
	if has_cert and not c.err then
		dissect_cert(c, ht, "Certificate")
	end
	local nwant = 0
	if not v2 and fr and band(fr:uint(), 0x04) ~= 0 and not c.err then
		local _, wr = ranged(c, ht, F.hello_num_want, 1, 1,
		    HELLO_MAX_WANT, E.count, "num_want")
		nwant = wr and wr:uint() or 0
		local wseen = {}
		for _ = 1, nwant do
			if c.err then break end
			local wit, war = mesh_addr(c, ht, F.want_addr,
			    "wanted originator")
			if war then
				once(wseen, war:bytes():tohex(), wit,
				    "wanted originator")
			end
		end
	end
	local note
	if v2 then
		add(c, ht, F.signature, SIG_LEN, "signature")
	elseif not c.err then
		note = dissect_trailer(c, ht, { epoch = er, seqno = sr },
		    old == 3 and OLD_TAG_LEN or TAG_LEN)
	end
	no_trailing(c, ht)
	c:done(ht, start)
	if sr and er then
		pinfo.cols.info:append(string.format(" seq %d epoch %d, " ..
		    "%d neighbour%s%s%s%s", sr:uint(), er:uint(), n,
		    n == 1 and "" or "s", has_cert and ", certificate" or "",
		    nwant > 0 and string.format(", wants %d", nwant) or "",
		    note or ""))
	end
end

-- ---- TVLV containers ------------------------------------------------------

local function dissect_gateway(c, tree, vlen)
	if vlen ~= 8 then
		tree:add_proto_expert_info(E.len, string.format(
		    "GATEWAY value is %d bytes, must be 8", vlen))
		if vlen > 0 then
			add(c, tree, F.tvlv_value, vlen, "GATEWAY value")
		end
		return
	end
	for _, f in ipairs({ { F.gw_down, "down" }, { F.gw_up, "up" } }) do
		local it, r = add(c, tree, f[1], 4, "gateway bandwidth " ..
		    f[2])
		if r then
			local v = r:uint()
			it:append_text(string.format(" = %.1f Mbit/s",
			    v / 10))
			if v == 0 then
				it:add_proto_expert_info(E.range,
				    "bandwidth " .. f[2] .. " is 0")
			end
		end
	end
end

local function vid_ok(v)
	if v == 0 then return true end
	local id = band(v, 0x0fff)
	return band(v, 0x7000) == 0 and band(v, 0x8000) ~= 0 and
	    id >= 1 and id <= 4094
end

local function dissect_tt_entry(c, tree, i, seen)
	local et, start = c:subtree(tree, F.tt, string.format("Client %d", i))
	local mit, mr = unicast_mac(c, et, F.tt_mac, "TT client MAC")
	local vit, vr = add(c, et, F.tt_vid, 2, "TT vid")
	if vr then
		vit:add(F.tt_tagged, vr)
		vit:add(F.tt_vlan, vr)
		if not vid_ok(vr:uint()) then
			vit:add_proto_expert_info(E.vid, string.format(
			    "VLAN field 0x%04x: must be 0 or 0x8000 | " ..
			    "1..4094", vr:uint()))
		end
	end
	local fit, fr = flags(c, et, F.tt_flags, 0x01, "TT flags")
	if fr then
		fit:add(F.tt_flag_isolated, fr)
		if band(fr:uint(), 0x01) ~= 0 then
			et:append_text(", isolated")
		end
	end
	reserved(c, et, 3, "TT reserved")
	if mr and vr then
		once(seen, mr:bytes():tohex() .. vr:bytes():tohex(), mit,
		    "client (MAC, VLAN)")
		et:append_text(": " .. tostring(mr:ether()))
		if vr:uint() ~= 0 then
			et:append_text(string.format(" vlan %d",
			    band(vr:uint(), 0x0fff)))
		end
	end
	c:done(et, start)
end

local function dissect_tt(c, tree, vlen)
	if vlen == 0 or vlen % TT_ENTRY_LEN ~= 0 then
		tree:add_proto_expert_info(E.len, string.format(
		    "TT value is %d bytes, must be a non-zero multiple of 12",
		    vlen))
		if vlen > 0 then
			add(c, tree, F.tvlv_value, vlen, "TT value")
		end
		return
	end
	local n = math.floor(vlen / TT_ENTRY_LEN)
	if n > TT_MAX then
		tree:add_proto_expert_info(E.count, string.format(
		    "%d TT entries, at most %d", n, TT_MAX))
	end
	tree:append_text(string.format(", %d client%s", n,
	    n == 1 and "" or "s"))
	local seen = {}
	for i = 1, n do
		if c.err then return end
		dissect_tt_entry(c, tree, i, seen)
	end
end

-- MCAST (batsec-protocol(7), MULTICAST LISTENERS).
local function dissect_mcast(c, tree, vlen)
	if vlen < 2 or (vlen - 2) % ADDR_LEN ~= 0 then
		tree:add_proto_expert_info(E.len, string.format(
		    "MCAST value is %d bytes, must be 2 + 6 * n", vlen))
		if vlen > 0 then
			add(c, tree, F.tvlv_value, vlen, "MCAST value")
		end
		return
	end
	local n = math.floor((vlen - 2) / ADDR_LEN)
	local fit, fr = flags(c, tree, F.mc_flags, 0x03, "MCAST flags")
	if fr then
		fit:add(F.mc_all4, fr)
		fit:add(F.mc_all6, fr)
	end
	reserved(c, tree, 1, "MCAST reserved")
	if n > MCAST_MAX then
		tree:add_proto_expert_info(E.count, string.format(
		    "%d groups, at most %d", n, MCAST_MAX))
	end
	tree:append_text(string.format(", %d group%s", n,
	    n == 1 and "" or "s"))
	local seen = {}
	for _ = 1, n do
		if c.err then return end
		local git, gr = add(c, tree, F.mc_group, ADDR_LEN,
		    "MCAST group")
		if gr then
			local b = gr:bytes()
			local v4 = b:get_index(0) == 0x01 and
			    b:get_index(1) == 0x00 and
			    b:get_index(2) == 0x5e and b:get_index(3) < 0x80
			local v6 = b:get_index(0) == 0x33 and
			    b:get_index(1) == 0x33
			if not v4 and not v6 then
				git:add_proto_expert_info(E.range,
				    "not an IPv4 or IPv6 group address")
			end
			local k = b:tohex()
			if seen[k] then
				git:add_proto_expert_info(E.dup,
				    "group listed twice")
			end
			seen[k] = true
		end
	end
end

-- XOR of two bytes, and FNV-1a (32 bits) over a ByteArray, in plain
-- arithmetic (see band): h * 16777619 = h * 2^24 + h * 403, exact in
-- doubles once reduced modulo 2^32.
local function bxor8(a, b)
	local r, v = 0, 1
	for _ = 1, 8 do
		if a % 2 ~= b % 2 then r = r + v end
		a, b, v = math.floor(a / 2), math.floor(b / 2), v * 2
	end
	return r
end

local function fnv1a(bytes)
	local h = 2166136261
	for i = 0, bytes:len() - 1 do
		local lo = h % 256
		h = h - lo + bxor8(lo, bytes:get_index(i))
		h = (h * 403 + (h % 256) * 16777216) % 4294967296
	end
	return h
end

-- A TT page (batsec-protocol(7), Large translation tables).
local function dissect_tt_page(c, tree, vlen)
	if vlen < TT_PAGE_HDR_LEN or
	    (vlen - TT_PAGE_HDR_LEN) % TT_ENTRY_LEN ~= 0 then
		tree:add_proto_expert_info(E.len, string.format(
		    "TT_PAGE value is %d bytes, must be 12 + 12 * n", vlen))
		if vlen > 0 then
			add(c, tree, F.tvlv_value, vlen, "TT_PAGE value")
		end
		return
	end
	local n = math.floor((vlen - TT_PAGE_HDR_LEN) / TT_ENTRY_LEN)
	add(c, tree, F.ttp_ttvn, 2, "TT page version")
	local tit, tr = add(c, tree, F.ttp_total, 2, "TT page total")
	if tr and (tr:uint() == 0 or tr:uint() > TT_TOTAL_MAX or
	    tr:uint() < n) then
		tit:add_proto_expert_info(E.count, string.format(
		    "total %d: must be 1..%d and at least the %d entries",
		    tr:uint(), TT_TOTAL_MAX, n))
	end
	add(c, tree, F.ttp_sum, 4, "TT page checksum")
	local pit, pr = add(c, tree, F.ttp_pages, 1, "TT page count")
	local pages = pr and pr:uint() or 0
	if pr and (pages < 2 or pages > 64 or band(pages, pages - 1) ~= 0)
	    then
		pit:add_proto_expert_info(E.range, string.format(
		    "%d pages: must be 2, 4, 8, 16, 32 or 64", pages))
	end
	local git, gr = add(c, tree, F.ttp_page, 1, "TT page number")
	if gr and gr:uint() >= pages then
		git:add_proto_expert_info(E.range, string.format(
		    "page %d of %d", gr:uint(), pages))
	end
	reserved(c, tree, 2, "TT page reserved")
	if n > TT_PAGE_MAX then
		tree:add_proto_expert_info(E.count, string.format(
		    "%d entries in a page, at most %d", n, TT_PAGE_MAX))
	end
	tree:append_text(string.format(", page %d of %d, %d client%s",
	    gr and gr:uint() or 0, pages, n, n == 1 and "" or "s"))
	local seen, last = {}, nil
	for i = 1, n do
		if c.err then return end
		local key = c:rem() >= 8 and c.tvb(c.off, 8) or nil
		local at = c.off
		dissect_tt_entry(c, tree, i, seen)
		if key and pages > 0 then
			local k = key:bytes():tohex()
			if last and k <= last then
				tree:add_tvb_expert_info(E.dup, c.tvb(at, 8),
				    string.format("client %d is not above " ..
				    "client %d (MAC, VLAN order)", i, i - 1))
			end
			last = k
			local b = fnv1a(key:bytes()) % pages
			if gr and b ~= gr:uint() then
				tree:add_tvb_expert_info(E.range, c.tvb(at, 8),
				    string.format("client %d is in bucket %d, " ..
				    "not %d", i, b, gr:uint()))
			end
		end
	end
end

local function dissect_fixed_value(c, tree, vlen, want, name, fn)
	if vlen ~= want then
		tree:add_proto_expert_info(E.len, string.format(
		    "%s value is %d bytes, must be %d", name, vlen, want))
		if vlen > 0 then
			add(c, tree, F.tvlv_value, vlen, name .. " value")
		end
		return
	end
	fn()
end

-- The value of one container; known = known type with version 1.
local function dissect_tvlv_value(c, tree, ttype, vlen)
	if ttype == TV_GATEWAY then
		dissect_gateway(c, tree, vlen)
	elseif ttype == TV_TT then
		dissect_tt(c, tree, vlen)
	elseif ttype == TV_TT_PAGE then
		dissect_tt_page(c, tree, vlen)
	elseif ttype == TV_MCAST then
		dissect_mcast(c, tree, vlen)
	elseif ttype == TV_CERT then
		dissect_fixed_value(c, tree, vlen, CERT_LEN, "CERT",
		    function() dissect_cert(c, tree, "Certificate") end)
	else
		dissect_fixed_value(c, tree, vlen, REVOKE_LEN, "REVOKE",
		    function() dissect_revoke(c, tree) end)
	end
end

-- One container inside the region cursor rc; returns false to stop.
local function dissect_tvlv(rc, tree, present)
	if rc:rem() < 4 then
		local r = rc:rest()
		tree:add_tvb_expert_info(E.len, r, string.format(
		    "%d bytes left in the TVLV region, a header needs 4",
		    r:len()))
		rc.off = rc.stop
		return false
	end
	local hdr = rc.tvb(rc.off, 4)
	local ttype, ver, vlen = hdr:range(0, 1):uint(),
	    hdr:range(1, 1):uint(), hdr:range(2, 2):uint()
	local known = ver == 1 and TVLV_TYPES[ttype] ~= nil
	local tt, start = rc:subtree(tree, F.tvlv, string.format(
	    "TVLV %s (type 0x%02x, version %d, %d bytes)%s",
	    TVLV_TYPES[ttype] or "unknown", ttype, ver, vlen,
	    known and "" or ", skipped"))
	add(rc, tt, F.tvlv_type, 1, "TVLV type")
	add(rc, tt, F.tvlv_version, 1, "TVLV version")
	local lit = add(rc, tt, F.tvlv_vlen, 2, "TVLV length")
	if vlen % 2 ~= 0 or vlen > rc:rem() then
		lit:add_proto_expert_info(E.len, string.format(
		    "value length %d is odd or longer than the %d bytes " ..
		    "left in the region", vlen, rc:rem()))
		local r = rc:rest()
		if r then tt:add(F.tvlv_value, r) end
		rc.off = rc.stop
		rc:done(tt, start)
		return false
	end
	if not known then
		if vlen > 0 then add(rc, tt, F.tvlv_value, vlen, "value") end
		tt:add_proto_expert_info(E.unknown_tvlv)
	else
		if present[ttype] then
			tt:add_proto_expert_info(E.dup, TVLV_TYPES[ttype] ..
			    " appears twice in one entry")
		end
		present[ttype] = true
		-- The value gets its own cursor so it cannot run past vlen.
		local vc = cur_new(rc.tvb, rc.pinfo)
		vc.off, vc.stop, vc.snap = rc.off, rc.off + vlen, rc.snap
		dissect_tvlv_value(vc, tt, ttype, vlen)
		rc.off = rc.off + vlen
	end
	rc:done(tt, start)
	return true
end

-- The TVLV region of an entry: exactly filled by containers.
local function dissect_tvlvs(c, tree, len)
	if len == 0 or c.err then return end
	if len > c:rem() then
		c:take(len, tree, "TVLV region")
		return
	end
	local rc = cur_new(c.tvb, c.pinfo)
	rc.off, rc.stop, rc.snap = c.off, c.off + len, c.snap
	local present = {}
	while rc:rem() > 0 and dissect_tvlv(rc, tree, present) do end
	c.off = c.off + len
end

-- ---- OGM ------------------------------------------------------------------

-- The mutable part; old: an OGM of an obsolete version, 1 (byte 3 was
-- reserved) or 2 (2 reserved bytes after the previous sender, 16-byte
-- chain element).  Returns the hops and the kind (ranges, nil when
-- missing).
local function dissect_mut(c, tree, old)
	local v1 = old == 1
	local mt, start = c:subtree(tree, F.mut)
	local _, ttl = add(c, mt, F.ttl, 1, "ttl")
	local _, tq = add(c, mt, F.tq, 1, "tq")
	local _, hops = ranged(c, mt, F.hops, 1, 0, MAXHOPS, E.range, "hops")
	local kind
	if v1 then
		reserved(c, mt, 1, "entry reserved")
	else
		_, kind = ranged(c, mt, F.kind, 1, KIND_FULL, KIND_COMPACT,
		    E.range, "entry kind")
	end
	mesh_addr(c, mt, F.prev, "previous sender")
	if old then
		reserved(c, mt, 2, "entry reserved")
	end
	local cit = add(c, mt, F.chain, old and OLD_CHAIN_LEN or CHAIN_LEN,
	    "hop-chain element")
	if cit and hops and hops:uint() == 0 then
		cit:append_text(kind and kind:uint() == KIND_COMPACT and
		    "  (hops 0: the OGM chain element of the seqno)" or
		    "  (the seed: hops 0)")
	end
	if ttl and tq and hops then
		mt:append_text(string.format(": TTL %d, TQ %d, hops %d",
		    ttl:uint(), tq:uint(), hops:uint()))
	end
	if kind then
		local k = ENTRY_KINDS[kind:uint()]
		mt:append_text(k and (", " .. k) or
		    string.format(", kind %d", kind:uint()))
	end
	c:done(mt, start)
	return hops, kind
end

local function dissect_signed(c, tree, old)
	local st, start = c:subtree(tree, F.sgn)
	add(c, st, F.orig_pk, PK_LEN, "originator key")
	local _, er = ranged(c, st, F.ogm_epoch, 4, 1, 0xffffffff, E.range,
	    "epoch")
	local _, sr = add(c, st, F.ogm_seqno, 4, "seqno")
	flags(c, st, F.ogm_flags, 0x00, "entry flags")
	reserved(c, st, 1, "entry reserved")
	interval(c, st, F.ogm_interval, "OGM interval")
	add(c, st, F.anchor, old and OLD_CHAIN_LEN or CHAIN_LEN,
	    "hop-chain anchor")
	local lit, lr = add(c, st, F.tvlv_len, 2, "tvlv_len")
	reserved(c, st, 2, "entry reserved")
	if lr then
		local n = lr:uint()
		if n > TVLV_MAX or n % 2 ~= 0 then
			lit:add_proto_expert_info(E.len, string.format(
			    "tvlv_len %d: must be even and at most %d", n,
			    TVLV_MAX))
		end
		dissect_tvlvs(c, st, n)
	end
	if er and sr then
		st:append_text(string.format(": epoch %d, seqno %d",
		    er:uint(), sr:uint()))
	end
	c:done(st, start)
	return sr
end

-- A compact entry's block: the originator's mesh address and seqno.
local function dissect_compact(c, tree)
	local ct, start = c:subtree(tree, F.cp)
	local _, ar = mesh_addr(c, ct, F.ogm_orig, "originator address")
	local _, sr = add(c, ct, F.ogm_seqno, 4, "seqno")
	if ar and sr then
		ct:append_text(string.format(": originator %s, seqno %d",
		    tostring(ar:ether()), sr:uint()))
	end
	c:done(ct, start)
	return sr
end

-- One entry; false when its kind is unknown (its length is unknown too,
-- so nothing after it can be read: batsecd stops there as well).
local function dissect_entry(c, tree, i, old)
	local et, start = c:subtree(tree, F.entry, string.format("Entry %d", i))
	local hops, kind = dissect_mut(c, et, old)
	local k = kind and kind:uint() or KIND_FULL
	local seq
	if old ~= 1 and kind and not ENTRY_KINDS[k] then
		c:done(et, start)
		return false
	end
	if k == KIND_COMPACT then
		seq = dissect_compact(c, et)
	else
		seq = dissect_signed(c, et, old)
		add(c, et, F.ogm_sig, SIG_LEN, "OGM signature")
	end
	if seq and hops then
		et:append_text(string.format(": seqno %d, hops %d%s",
		    seq:uint(), hops:uint(), k == KIND_COMPACT and
		    ", compact" or ""))
	end
	c:done(et, start)
	return true, k == KIND_COMPACT
end

-- old: an OGM of an obsolete version (the caller flagged it), read with
-- its old layout: 1, no entry kind, at most OGM_V1_MAX_ENTRIES entries;
-- both 1 and 2, 2 reserved bytes in the mutable part and 16-byte chain
-- elements, anchors and tags.
local function dissect_ogm(c, tree, pinfo, old)
	local v1 = old == 1
	local ot, start = c:subtree(tree, F.ogm)
	if c.tvb:reported_len() > OGM_MAX_LEN then
		ot:add_proto_expert_info(E.toolong, string.format(
		    "OGM frame of %d bytes, at most %d", c.tvb:reported_len(),
		    OGM_MAX_LEN))
	end
	local _, nr = ranged(c, ot, F.ogm_num, 1, 1, v1 and
	    OGM_V1_MAX_ENTRIES or OGM_MAX_ENTRIES, E.count, "num_entries")
	reserved(c, ot, 1, "header reserved")
	local _, sr = mesh_addr(c, ot, F.ogm_sender, "sender")
	reserved(c, ot, 2, "header reserved")
	local n = nr and nr:uint() or 0
	local ncompact, known = 0, true
	for i = 1, n do
		if c.err then break end
		local ok, compact = dissect_entry(c, ot, i, old)
		if not ok then
			known = false
			break
		end
		if compact then ncompact = ncompact + 1 end
	end
	if sr then
		pinfo.cols.info:append(string.format(" from %s, %d entr%s",
		    tostring(sr:ether()), n, n == 1 and "y" or "ies"))
		if ncompact > 0 then
			pinfo.cols.info:append(string.format(" (%d compact)",
			    ncompact))
		end
	end
	if not known then
		-- An entry of an unknown kind: the rest is unread.
		c.off = c.stop
	elseif not c.err then
		local note = dissect_trailer(c, ot, nil,
		    old and OLD_TAG_LEN or TAG_LEN)
		if note then pinfo.cols.info:append(note) end
	end
	no_trailing(c, ot)
	c:done(ot, start)
end

-- ---- data frames ----------------------------------------------------------

-- What follows the inner frame: zero padding of a short frame, or garbage.
local function data_tail(c, tree, after)
	if c.err then return end
	local r = c:rest()
	if not r then return end
	if c.tvb:reported_len() > ETH_MIN_PAYLOAD then
		tree:add(F.trailing, r):add_proto_expert_info(E.trailing,
		    string.format("%d bytes after the %s of a " ..
		    "payload longer than %d bytes", r:len(), after,
		    ETH_MIN_PAYLOAD))
	else
		local it = tree:add(F.padding, r)
		if nonzero(r) then
			it:add_proto_expert_info(E.padding)
		end
	end
	c.off = c.stop
end

-- The inner frame goes to the Ethernet dissector only when its length is
-- one batsecd accepts; otherwise it is shown as bytes.
local function inner_frame(c, tree, root, pinfo, len)
	if not len then return end
	local r = c:take(len, tree, "inner frame")
	if not r then return end
	tree:add(F.inner, r)
	pinfo.cols.info:append(": ")
	pinfo.cols.info:fence()
	if eth_dissector and len >= INNER_MIN and len <= INNER_MAX then
		-- Dissector:call turns an exception into a Lua error; keep
		-- it from ending the dissection of the outer frame.
		local ok, msg = pcall(function()
			eth_dissector:call(r:tvb(), pinfo, root)
		end)
		if not ok then
			tree:add_proto_expert_info(E.inner, tostring(msg))
		end
	end
end

local function inner_len(c, tree)
	local _, r = ranged(c, tree, F.inner_len, 2, INNER_MIN, INNER_MAX,
	    E.len, "inner length")
	return r and r:uint()
end

-- ---- data frames, version 2 ----------------------------------------------

-- The hop counter: lane (top 8 bits) and count (lower 56 bits).
local function hop_counter(c, tree)
	local it, r = add(c, tree, F.hop_counter, 8, "hop counter")
	if r then
		it:add(F.hop_lane, r:range(0, 1))
		it:add(F.hop_count, r:range(1, 7))
	end
	return r
end

-- Bytes 2..24 of UNICAST, ECHO, TRACE and TTLX: what each relay rewrites.
local function dissect_hop(c, tree)
	local ht, start = c:subtree(tree, F.hop)
	local _, ttl = add(c, ht, F.ttl, 1, "ttl")
	reserved(c, ht, 1, "reserved")
	local _, kr = add(c, ht, F.hop_keyid, HOP_KEYID_LEN, "hop key id")
	local cr = hop_counter(c, ht)
	add(c, ht, F.hop_tag, HOP_TAG_LEN, "hop tag")
	if ttl and kr and cr then
		ht:append_text(string.format(": TTL %d, key id %s, " ..
		    "counter %s", ttl:uint(), kr:bytes():tohex():lower(),
		    tostring(cr:uint64())))
	end
	c:done(ht, start)
	return ttl
end

-- Bytes 24..52: the end-to-end header, the AEAD's associated data.
local function dissect_e2e(c, tree)
	local et, start = c:subtree(tree, F.e2e)
	local _, dr = mesh_addr(c, et, F.dst, "destination")
	local _, sr = mesh_addr(c, et, F.src, "source")
	ranged(c, et, F.src_epoch, 4, 1, 0xffffffff, E.range, "source epoch")
	ranged(c, et, F.dst_epoch, 4, 1, 0xffffffff, E.range,
	    "destination epoch")
	local cit, cr = add(c, et, F.e2e_counter, 8, "end-to-end counter")
	if cr then
		-- The suite byte (top 8 bits) and the 56-bit counter.
		-- Undefined suite bits are the destination's to refuse
		-- (drop_e2e), not the codec's: no expert here either.
		local sit = cit:add(F.e2e_suite, cr:range(0, 1))
		sit:add(F.e2e_suite_aes, cr:range(0, 1))
		sit:add(F.e2e_suite_can_aes, cr:range(0, 1))
		cit:add(F.e2e_count, cr:range(1, 7))
	end
	if dr and sr and cr then
		et:append_text(string.format(": %s -> %s, %s, counter %s",
		    tostring(sr:ether()), tostring(dr:ether()),
		    band(cr:range(0, 1):uint(), 1) ~= 0 and "AES-256-GCM"
		    or "ChaCha20-Poly1305",
		    tostring(cr:range(1, 7):uint64())))
	end
	c:done(et, start)
	return dr, sr
end

-- The ciphertext fills the frame up to the AEAD tag in its last 16
-- bytes; batsecd accepts lo..hi bytes of it.  Returns its length.
local function dissect_sealed(c, tree, lo, hi, name)
	if c.err then return nil end
	local n = c.tvb:reported_len() - c.off - AEAD_LEN
	if n < lo then
		-- Too short for the smallest payload and the tag.
		c:take(lo + AEAD_LEN, tree, "ciphertext and AEAD tag")
		return nil
	end
	add(c, tree, F.ciphertext, n, "ciphertext")
	local lit = tree:add(F.ct_len, n)
	lit:set_generated()
	if n > hi then
		lit:add_proto_expert_info(E.len, string.format(
		    "ciphertext of %d bytes, %s carries %s", n, name,
		    lo == hi and string.format("%d", lo) or
		    string.format("%d..%d", lo, hi)))
	end
	add(c, tree, F.aead_tag, AEAD_LEN, "AEAD tag")
	return n
end

-- UNICAST, ECHO, TRACE, TTLX: hop part, end-to-end header, ciphertext,
-- AEAD tag.  A UNICAST's plaintext is the inner Ethernet frame
-- (14..1518 bytes), an ECHO's or TRACE's 6 bytes (kind, reserved, ident,
-- seqno), a TTLX's 16 (the expired TRACE's destination, 2 reserved, its
-- end-to-end counter); all stay encrypted.
local function dissect_sealed_frame(c, tree, pinfo, ftype)
	local ttl = dissect_hop(c, tree)
	local dr, sr = dissect_e2e(c, tree)
	local n
	if ftype == T_ECHO or ftype == T_TRACE then
		n = dissect_sealed(c, tree, ECHO_PLAIN_LEN, ECHO_PLAIN_LEN,
		    TYPES[ftype])
	elseif ftype == T_TTLX then
		n = dissect_sealed(c, tree, TTLX_PLAIN_LEN, TTLX_PLAIN_LEN,
		    "TTLX")
	else
		n = dissect_sealed(c, tree, INNER_MIN, INNER_MAX, "UNICAST")
	end
	if dr and sr and ttl then
		pinfo.cols.info:append(string.format(" %s -> %s ttl %d",
		    tostring(sr:ether()), tostring(dr:ether()), ttl:uint()))
		if n then
			pinfo.cols.info:append(string.format(
			    ", %d bytes encrypted", n))
		end
	end
end

-- FRAG: the hop part, then destination, fragmenter, seqno, total and
-- offset, then the piece (the rest of the frame) of the UNICAST's
-- end-to-end part; the destination puts the pieces together.
local function dissect_frag(c, tree, pinfo)
	local ttl = dissect_hop(c, tree)
	local ft, start = c:subtree(tree, F.frag)
	local _, dr = mesh_addr(c, ft, F.dst, "destination")
	local _, orr = mesh_addr(c, ft, F.frag_orig, "fragmenter")
	local _, sr = add(c, ft, F.frag_seqno, 4, "fragment seqno")
	local _, tr = ranged(c, ft, F.frag_total, 2, FRAG_TOTAL_MIN,
	    FRAG_TOTAL_MAX, E.range, "total length")
	local oit, offr = add(c, ft, F.frag_offset, 2, "offset")
	c:done(ft, start)
	if c.err or not (dr and orr and sr and tr and offr and ttl) then
		return
	end
	local total, off = tr:uint(), offr:uint()
	local n = c.tvb:reported_len() - c.off
	if off >= total then
		oit:add_proto_expert_info(E.range, string.format(
		    "offset %d is not below the total %d", off, total))
	end
	if n < 1 then
		c:take(1, tree, "piece")
		return
	end
	local pit = add(c, tree, F.frag_piece, n, "piece")
	local lit = tree:add(F.frag_piece_len, n)
	lit:set_generated()
	if n >= total or n > total - off then
		pit:add_proto_expert_info(E.len, string.format(
		    "piece of %d bytes at %d does not fit a total of %d",
		    n, off, total))
	end
	ft:append_text(string.format(": %s, seqno %d, bytes %d..%d of %d",
	    tostring(orr:ether()), sr:uint(), off, off + n, total))
	pinfo.cols.info:append(string.format(
	    " -> %s ttl %d, from %s seqno %d, bytes %d..%d of %d",
	    tostring(dr:ether()), ttl:uint(), tostring(orr:ether()),
	    sr:uint(), off, off + n, total))
end

-- One tag per neighbour the sender addresses on this interface; a
-- receiver looks for its own key id (a repeated id is not an error).
local function dissect_bcast_tags(c, tree, n)
	for i = 1, n do
		if c.err then return end
		local tt, start = c:subtree(tree, F.bc_tag,
		    string.format("Tag %d", i))
		local _, kr = add(c, tt, F.hop_keyid, HOP_KEYID_LEN,
		    "tag key id")
		add(c, tt, F.hop_tag, HOP_TAG_LEN, "tag")
		if kr then
			tt:append_text(": key id " ..
			    kr:bytes():tohex():lower())
		end
		c:done(tt, start)
	end
end

-- The 20 bytes the originator signs with the inner frame.
local function dissect_bcast_signed(c, tree)
	local st, start = c:subtree(tree, F.bc_signed)
	flags(c, st, F.bc_flags, 0x00, "flags")
	reserved(c, st, 1, "signed header reserved")
	local n = inner_len(c, st)
	local _, orr = mesh_addr(c, st, F.orig, "originator")
	local _, er = ranged(c, st, F.bc_epoch, 4, 1, 0xffffffff, E.range,
	    "epoch")
	local _, qr = add(c, st, F.bc_seqno, 4, "seqno")
	reserved(c, st, 2, "signed header reserved")
	if orr and er and qr then
		st:append_text(string.format(": %s epoch %d seqno %d",
		    tostring(orr:ether()), er:uint(), qr:uint()))
	end
	c:done(st, start)
	return n, orr, qr
end

local function dissect_bcast(c, tree, root, pinfo)
	local ht, start = c:subtree(tree, F.hop)
	local _, ttl = add(c, ht, F.ttl, 1, "ttl")
	local _, nr = ranged(c, ht, F.bc_ntags, 1, 1, BC_MAX_TAGS, E.count,
	    "ntags")
	hop_counter(c, ht)
	local ntags = nr and nr:uint() or 0
	dissect_bcast_tags(c, ht, ntags)
	c:done(ht, start)
	local n, orr, qr
	if not c.err then n, orr, qr = dissect_bcast_signed(c, tree) end
	if orr and qr and ttl then
		pinfo.cols.info:append(string.format(" from %s seq %d ttl %d" ..
		    ", %d tag%s", tostring(orr:ether()), qr:uint(),
		    ttl:uint(), ntags, ntags == 1 and "" or "s"))
	end
	inner_frame(c, tree, root, pinfo, n)
	add(c, tree, F.signature, SIG_LEN, "signature")
	-- A BCAST is never shorter than 122 bytes, so never padded: any
	-- byte after the signature is refused, as after any frame.
	data_tail(c, tree, "signature")
end

-- ---- data frames, version 1 (obsolete) ------------------------------------
-- batsecd refuses them; they are decoded so that old captures stay
-- readable.

local function dissect_unicast_v1(c, tree, root, pinfo)
	local _, ttl = add(c, tree, F.ttl, 1, "ttl")
	reserved(c, tree, 1, "reserved")
	local _, dr = mesh_addr(c, tree, F.dst, "destination")
	local _, sr = mesh_addr(c, tree, F.src, "source")
	local n = inner_len(c, tree)
	reserved(c, tree, 2, "reserved")
	if dr and sr and ttl then
		pinfo.cols.info:append(string.format(" %s -> %s ttl %d",
		    tostring(sr:ether()), tostring(dr:ether()), ttl:uint()))
	end
	inner_frame(c, tree, root, pinfo, n)
	data_tail(c, tree, "inner frame")
end

local function dissect_bcast_v1(c, tree, root, pinfo)
	local _, ttl = add(c, tree, F.ttl, 1, "ttl")
	reserved(c, tree, 1, "reserved")
	local _, qr = add(c, tree, F.bc_seqno, 4, "seqno")
	local _, orr = mesh_addr(c, tree, F.orig, "originator")
	local n = inner_len(c, tree)
	if orr and qr and ttl then
		pinfo.cols.info:append(string.format(" from %s seq %d ttl %d",
		    tostring(orr:ether()), qr:uint(), ttl:uint()))
	end
	inner_frame(c, tree, root, pinfo, n)
	data_tail(c, tree, "inner frame")
end

local function dissect_echo_v1(c, tree, pinfo)
	local _, ttl = add(c, tree, F.ttl, 1, "ttl")
	local _, kr = ranged(c, tree, F.echo_kind, 1, 1, 2, E.range, "kind")
	local _, dr = mesh_addr(c, tree, F.dst, "destination")
	local _, sr = mesh_addr(c, tree, F.src, "source")
	add(c, tree, F.echo_ident, 2, "ident")
	local _, qr = add(c, tree, F.echo_seqno, 2, "seqno")
	if kr and dr and sr and qr and ttl then
		pinfo.cols.info:append(string.format(" %s %s -> %s seq %d ttl %d",
		    ECHO_KINDS[kr:uint()] or "?", tostring(sr:ether()),
		    tostring(dr:ether()), qr:uint(), ttl:uint()))
	end
	data_tail(c, tree, "frame")
end

-- ---- entry point ----------------------------------------------------------

-- Bridge loop avoidance frames on a LAN batsec0 bridges (batsec-protocol(7)
-- LAN ANNOUNCES): "BSBL", version 1, type 1 ANNOUNCE (signed) or 2 CLAIM.
local function dissect_lan(c, tree, pinfo)
	add(c, tree, F.tvlv_value, 4, "BSBL")
	local vit, vr = add(c, tree, F.lan_version, 1, "LAN version")
	local kit, kr = add(c, tree, F.lan_kind, 1, "LAN type")
	if not vr or not kr then return end
	if vr:uint() ~= 1 then
		vit:add_proto_expert_info(E.version, string.format(
		    "LAN frame version %d, must be 1", vr:uint()))
		return
	end
	local kind = kr:uint()
	if kind ~= 1 and kind ~= 2 then
		kit:add_proto_expert_info(E.type, string.format(
		    "LAN frame type %d", kind))
		return
	end
	pinfo.cols.info = kind == 1 and "batsec LAN ANNOUNCE" or
	    "batsec LAN CLAIM"
	tree:append_text(kind == 1 and ", LAN ANNOUNCE" or ", LAN CLAIM")
	reserved(c, tree, 2, "LAN zero")
	add(c, tree, F.lan_addr, ADDR_LEN, "LAN mesh address")
	if kind == 2 then
		reserved(c, tree, 32, "LAN CLAIM zero")
		return
	end
	reserved(c, tree, 2, "LAN zero")
	add(c, tree, F.lan_epoch, 4, "LAN epoch")
	add(c, tree, F.lan_seqno, 4, "LAN seqno")
	add(c, tree, F.signature, SIG_LEN, "LAN signature")
end

function batsec.dissector(tvb, pinfo, root)
	pinfo.cols.protocol = "batsec"
	pinfo.cols.info = "batsec"
	local tree = root:add(batsec, tvb())
	local c = cur_new(tvb, pinfo)
	if c.snap then
		tree:add_proto_expert_info(E.snap)
	end
	if tvb:len() >= 6 and tvb(0, 4):string() == "BSBL" then
		dissect_lan(c, tree, pinfo)
		return tvb:len()
	end
	local tit, tr = add(c, tree, F.type, 1, "type")
	local vit, vr = add(c, tree, F.version, 1, "version")
	if not tr or not vr then return tvb:len() end
	local ftype, ver = tr:uint(), vr:uint()
	local name = TYPES[ftype]
	if not name then
		tit:add_proto_expert_info(E.type, string.format(
		    "type 0x%02x", ftype))
		pinfo.cols.info:append(string.format(" unknown type 0x%02x",
		    ftype))
		return tvb:len()
	end
	local data = ftype == T_UNICAST or ftype == T_BCAST or
	    ftype == T_ECHO or ftype == T_TRACE or ftype == T_TTLX or
	    ftype == T_FRAG
	local want = data and DATA_VERSION or
	    (ftype == T_HELLO and HELLO_VERSION or VERSION)
	pinfo.cols.info = "batsec " .. name
	if data and ver == 1 and ftype ~= T_FRAG then
		vit:add_proto_expert_info(E.version, "version 1 data frame: " ..
		    "obsolete, batsecd refuses it (data frames are version 2)")
		pinfo.cols.info:append(" v1 (obsolete, refused)")
		tree:append_text(", " .. name .. " version 1 (obsolete)")
		if ftype == T_UNICAST then
			dissect_unicast_v1(c, tree, root, pinfo)
		elseif ftype == T_ECHO then
			dissect_echo_v1(c, tree, pinfo)
		else
			dissect_bcast_v1(c, tree, root, pinfo)
		end
		return tvb:len()
	end
	if ftype == T_OGM and (ver == 1 or ver == 2) then
		vit:add_proto_expert_info(E.version, string.format(
		    "version %d OGM (%s): obsolete, batsecd refuses it (OGM " ..
		    "is version %d)", ver, ver == 1 and "no compact entries" or
		    "16-byte tags and chain elements", VERSION))
		pinfo.cols.info:append(string.format(" v%d (obsolete, refused)",
		    ver))
		tree:append_text(string.format(", OGM version %d (obsolete)",
		    ver))
		dissect_ogm(c, tree, pinfo, ver)
		return tvb:len()
	end
	if ftype == T_HELLO and ver == 1 then
		vit:add_proto_expert_info(E.version, "version 1 HELLO (no " ..
		    "link salt): obsolete, batsecd refuses it (HELLO is " ..
		    "version " .. HELLO_VERSION .. ")")
		pinfo.cols.info:append(" v1 (obsolete, refused)")
		return tvb:len()
	end
	if ftype == T_HELLO and (ver == 2 or ver == 3) then
		vit:add_proto_expert_info(E.version, string.format(
		    "version %d HELLO (%s): obsolete, batsecd refuses it " ..
		    "(HELLO is version %d)", ver, ver == 2 and
		    "no link trailer" or "16-byte tags", HELLO_VERSION))
		pinfo.cols.info:append(string.format(" v%d (obsolete, refused)",
		    ver))
		tree:append_text(string.format(", HELLO version %d (obsolete)",
		    ver))
		dissect_hello(c, tree, pinfo, ver)
		return tvb:len()
	end
	if ver ~= want then
		vit:add_proto_expert_info(E.version, string.format(
		    "version %d, %s frames are version %d", ver, name, want))
		pinfo.cols.info:append(string.format(" version %d", ver))
		return tvb:len()
	end
	tree:append_text(", " .. name)
	if ftype == T_HELLO then
		dissect_hello(c, tree, pinfo)
	elseif ftype == T_OGM then
		dissect_ogm(c, tree, pinfo)
	elseif ftype == T_BCAST then
		dissect_bcast(c, tree, root, pinfo)
	elseif ftype == T_FRAG then
		dissect_frag(c, tree, pinfo)
	else
		dissect_sealed_frame(c, tree, pinfo, ftype)
	end
	return tvb:len()
end

-- ---- registration ---------------------------------------------------------

local registered_ethertype

-- The preference as a number, or nil when it is not an ethertype.
local function pref_ethertype()
	local v = tonumber(batsec.prefs.ethertype)
	if v and v == math.floor(v) and v >= 0x0600 and v <= 0xFFFF then
		return v
	end
	return nil
end

local function register_ethertype(v)
	local t = DissectorTable.get("ethertype")
	if registered_ethertype then
		t:remove(registered_ethertype, batsec)
	end
	registered_ethertype = v
	t:add(v, batsec)
end

-- An invalid value keeps the ethertype registered before.
function batsec.prefs_changed()
	local v = pref_ethertype()
	if v and v ~= registered_ethertype then
		register_ethertype(v)
	end
end

register_ethertype(DEFAULT_ETHERTYPE)
