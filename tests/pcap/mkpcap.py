#!/usr/bin/env python3
"""mkpcap.py -- capture files for tests/t_dissector.sh.

    mkpcap.py CORPUS_DIR OUT_DIR

CORPUS_DIR holds the output of fuzz/gen_wire: real frames, built and signed by the wire
codec's own builders (fuzz/gen_wire.c).  Writes into OUT_DIR:

  valid.pcap    every frame of the corpus that starts with a known type and
                its version (4 for HELLO, 3 for OGM, 2 for every other
                type), in
                an Ethernet II header with the batsec
                ethertype, ordered by (type, length, bytes);
  valid.list    one line per frame of valid.pcap: number, type, length;
  bad.pcap      copies of some of those frames with one defect each
                (truncated, reserved byte set, count out of range, ...),
                a data frame of version 1 (refused since version 2),
                OGMs of version 1 (refused since compact entries) and 2
                (refused since 8-byte tags and 12-byte chain elements)
                and HELLOs of version 2 (refused since the link trailer)
                and 3 (refused since 8-byte tags);
  bad.expect    one line per frame of bad.pcap: number, the expert
                severity (error or warning) and a piece of text the
                dissector's expert info must contain, tab-separated;
  truncated.pcap  every proper prefix of every HELLO and OGM;
  mutants.pcap  every proper prefix of every data frame, and copies of
                every frame with a few bytes changed or appended (a fixed
                random seed, so the file is the same each time).

Offsets follow batsec-protocol(7).  The script fails loudly when the
corpus lacks a frame it needs, so a changed generator cannot silently
shrink the test.
"""
import os
import random
import struct
import sys

ETHERTYPE = 0x88B5
BCAST = bytes([0xFF] * 6)
SRC = bytes([0x00, 0x16, 0x3E, 0x01, 0x02, 0x03])   # gen_wire's HELLO ifmac
NEXT_HOP = bytes([0x00, 0x16, 0x3E, 0x04, 0x05, 0x06])
OTHER_SRC = bytes([0x00, 0x16, 0x3E, 0x0A, 0x0B, 0x0C])
KNOWN = {0x01: "HELLO", 0x02: "OGM", 0x40: "UNICAST", 0x41: "BCAST",
         0x42: "ECHO", 0x43: "TRACE", 0x44: "TTLX", 0x45: "FRAG"}
VERSION = {0x01: 4, 0x02: 3, 0x40: 2, 0x41: 2, 0x42: 2, 0x43: 2, 0x44: 2,
           0x45: 2}

OGM_HDR, ENTRY_FIXED, SIG = 12, 146, 64
MUT, COMPACT = 22, 32                   # OGM v3: mutable part, compact entry
E_TVLV_LEN, E_TVLV = MUT + 56, MUT + 60  # a full entry's tvlv_len, TVLVs
HELLO_FIXED, NEIGH = 68, 8             # HELLO since version 2: the salt
HELLO_TR, TAG = 4, 12                   # HELLO since version 3: trailer
                                        # header; a tag (key id 4, MAC 8)
SEALED_CT, AEAD = 52, 16                # UNICAST/ECHO: ciphertext offset
BC_FIXED, BC_TAG = 12, 12               # BCAST: then the signed header


def eth(payload, src=SRC):
    dst = NEXT_HOP if payload[:1] in (b"\x40", b"\x42", b"\x43",
                                      b"\x44") else BCAST
    return dst + src + struct.pack(">H", ETHERTYPE) + payload


def write_pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", 1700000000 + i, 0, len(fr),
                                len(fr)))
            f.write(fr)


def load(corpus):
    frames = []
    for name in sorted(os.listdir(corpus)):
        with open(os.path.join(corpus, name), "rb") as f:
            data = f.read()
        if len(data) > 2 and VERSION.get(data[0]) == data[1]:
            frames.append(data)
    frames.sort(key=lambda d: (d[0], len(d), d))
    return frames


def pick(frames, what, pred):
    for d in frames:
        if pred(d):
            return d
    sys.exit("mkpcap: the corpus has no %s (regenerate it with "
             "fuzz/gen_wire)" % what)


def ogm_entries(d):
    """Start offsets of the entries of a well-formed OGM frame (version
    3: byte 3 of an entry is its kind, 1 for a compact entry)."""
    off, out = OGM_HDR, []
    for _ in range(d[2]):
        out.append(off)
        if d[off + 3] == 1:
            off += COMPACT
            continue
        tvlv_len = struct.unpack_from(">H", d, off + E_TVLV_LEN)[0]
        off += ENTRY_FIXED + tvlv_len
    return out, off                     # off: the trailer


def tvlvs(d, entry):
    """(offset, type, version, len) of each TVLV container of an entry."""
    tvlv_len = struct.unpack_from(">H", d, entry + E_TVLV_LEN)[0]
    off, end, out = entry + E_TVLV, entry + E_TVLV + tvlv_len, []
    while off < end:
        t, v, n = struct.unpack_from(">BBH", d, off)
        out.append((off, t, v, n))
        off += 4 + n
    return out


def setb(d, off, val):
    b = bytearray(d)
    b[off] = val
    return bytes(b)


def put(d, off, raw):
    b = bytearray(d)
    b[off:off + len(raw)] = raw
    return bytes(b)


def bad_frames(frames):
    """[(ethernet frame, severity, expected text), ...]"""
    hello0 = pick(frames, "signed HELLO without neighbours",
                  lambda d: d[0] == 1 and d[3] == 0 and
                  d[HELLO_FIXED] == 2)
    hello3 = pick(frames, "HELLO with 3 neighbours and a certificate",
                  lambda d: d[0] == 1 and d[3] == 3 and d[2] & 1)
    tr_t3 = HELLO_FIXED + 3 * NEIGH     # its trailer (no certificate)
    hello_t3 = pick(frames, "HELLO with 3 neighbours and 3 tags",
                    lambda d: d[0] == 1 and d[3] == 3 and not d[2] & 1 and
                    d[tr_t3:tr_t3 + 2] == b"\x01\x03")
    hello_w = pick(frames, "signed HELLO with 1 neighbour and 8 wants",
                   lambda d: d[0] == 1 and d[2] == 4 and d[3] == 1)
    want = HELLO_FIXED + NEIGH          # its want count byte
    ogm1 = pick(frames, "OGM with one entry and one MAC tag",
                lambda d: d[0] == 2 and d[2] == 1)
    ogm3 = pick(frames, "OGM with 3 entries and MAC tags",
                lambda d: d[0] == 2 and d[2] == 3)
    ogm5 = pick(frames, "OGM of 5 full and compact entries",
                lambda d: d[0] == 2 and d[2] == 5)
    ogm40 = pick(frames, "OGM of 40 compact entries",
                 lambda d: d[0] == 2 and d[2] == 40)
    uc_min = pick(frames, "minimum UNICAST",
                  lambda d: d[0] == 0x40 and len(d) == 68 + 14)
    uc_max = pick(frames, "maximum UNICAST",
                  lambda d: d[0] == 0x40 and len(d) == 68 + 1518)
    bc_mid = pick(frames, "BCAST with 3 tags",
                  lambda d: d[0] == 0x41 and d[3] == 3)
    echo = pick(frames, "ECHO", lambda d: d[0] == 0x42 and len(d) == 74)
    trace = pick(frames, "TRACE", lambda d: d[0] == 0x43 and len(d) == 74)
    ttlx = pick(frames, "TTLX", lambda d: d[0] == 0x44 and len(d) == 84)
    frag0 = pick(frames, "first FRAG of 1562 bytes",
                 lambda d: d[0] == 0x45 and d[40:44] == b"\x06\x1a\x00\x00")
    frag58 = pick(frames, "second FRAG of 58 bytes",
                  lambda d: d[0] == 0x45 and d[40:44] == b"\x00\x3a\x00\x28")
    bs = BC_FIXED + BC_TAG * bc_mid[3]          # its signed header
    # A version-1 UNICAST (refused): ttl, reserved, dst, src, inner
    # length, reserved, inner frame.
    v1_inner = bytes([0xFF] * 6) + SRC + b"\x08\x06" + bytes(28)
    v1 = (bytes([0x40, 1, 50, 0]) + uc_min[24:30] + uc_min[30:36] +
          struct.pack(">HH", len(v1_inner), 0) + v1_inner)
    _, tr1 = ogm_entries(ogm1)
    ents3, tr3 = ogm_entries(ogm3)
    ents5, _ = ogm_entries(ogm5)
    _, tr40 = ogm_entries(ogm40)
    cp = ents5[1]                       # its first compact entry
    if ogm5[cp + 3] != 1 or ogm5[ents5[0] + 3] != 0:
        sys.exit("mkpcap: the 5-entry OGM does not start with a full "
                 "and a compact entry")
    tv = {t: off for off, t, v, n in tvlvs(ogm3, ents3[0]) if v == 1}
    if 1 not in tv or 2 not in tv:
        sys.exit("mkpcap: the first entry of the 3-entry OGM lacks its "
                 "GATEWAY and TT containers")
    cert = HELLO_FIXED + 3 * NEIGH
    tr0 = HELLO_FIXED                   # hello0's trailer
    # A HELLO of version 2 (refused): the same without the trailer header.
    hello_v2 = setb(hello0[:tr0] + hello0[tr0 + HELLO_TR:], 1, 2)
    e = "error"
    return [
        (eth(hello0[:-1]), e, "signature: needs 64 bytes"),
        (eth(setb(hello3, HELLO_FIXED + 7, 1)), e,
         "neighbour reserved is not zero"),
        (eth(setb(hello0, 3, 65)), e, "num_neigh 65 is outside 0..64"),
        (eth(setb(hello0, 2, 0x08)), e, "undefined flag bits 0x08"),
        (eth(setb(hello_w, want, 0)), e, "num_want 0 is outside 1..8"),
        (eth(setb(hello_w, want, 9)), e, "num_want 9 is outside 1..8"),
        (eth(put(hello_w, want + 7, hello_w[want + 1:want + 7])), e,
         "wanted originator listed twice"),
        (eth(setb(hello_w, want + 1, 0x01)), e,
         "wanted originator is not a mesh address"),
        (eth(setb(hello0, 1, 5)), e, "version 5, HELLO frames are version 4"),
        (eth(setb(hello0, 1, 3)), e, "version 3 HELLO (16-byte tags)"),
        (eth(setb(hello0, 1, 1)), e, "version 1 HELLO (no link salt)"),
        (eth(hello_v2), e, "version 2 HELLO (no link trailer)"),
        (eth(setb(hello0, 1, 2)), e, "version 2 HELLO (no link trailer)"),
        (eth(setb(hello0, tr0, 3)), e, "auth type 3"),
        (eth(setb(hello_t3, tr_t3, 0)), e, "auth type 0"),
        (eth(setb(hello0, tr0 + 1, 1)), e, "num_tags 1 is outside 0..0"),
        (eth(setb(hello_t3, tr_t3, 2)), e, "num_tags 3 is outside 0..0"),
        (eth(setb(hello_t3, tr_t3 + 1, 0)), e,
         "num_tags 0 is outside 1..32"),
        (eth(setb(hello_t3, tr_t3 + 1, 33)), e,
         "num_tags 33 is outside 1..32"),
        (eth(setb(hello0, tr0 + 2, 1)), e, "trailer reserved is not zero"),
        (eth(setb(hello_t3, tr_t3 + 3, 0x80)), e,
         "trailer reserved is not zero"),
        (eth(put(hello_t3, tr_t3 + HELLO_TR + 2 * TAG,
                 hello_t3[tr_t3 + HELLO_TR:tr_t3 + HELLO_TR + 4])), e,
         "key id listed twice"),
        (eth(hello0[:tr0 + 1]), e, "num_tags: needs 1 bytes"),
        (eth(hello_t3[:tr_t3 + HELLO_TR + 2]), e,
         "tag key id: needs 4 bytes"),
        (eth(hello_t3[:-5]), e, "tag: needs 8 bytes"),
        (eth(hello_t3[:-TAG]), e, "tag key id: needs 4 bytes"),
        (eth(hello_t3 + b"\x00"), e, "1 bytes after the end of the frame"),
        (eth(hello0 + bytes(4)), e, "4 bytes after the end of the frame"),
        (eth(bytes([0x03, 0x01]) + hello0[2:]), e, "type 0x03"),
        (eth(put(hello0, 42, struct.pack(">H", 99))), e,
         "hello interval 99 is outside 100..60000"),
        (eth(put(hello0, 44, b"\x00\x00\x00\x00")), e,
         "epoch 0 is outside 1..4294967295"),
        (eth(put(hello3, HELLO_FIXED + NEIGH, hello3[HELLO_FIXED:
                                                      HELLO_FIXED + 6])),
         e, "neighbour address listed twice"),
        (eth(put(hello3, cert + 76, hello3[cert + 68:cert + 76])), e,
         "not-after is not later than not-before"),
        (eth(setb(hello3, cert + 0, 2)), e, "unsupported format version"),
        (eth(hello0, src=OTHER_SRC), "warning",
         "Interface MAC differs from the Ethernet source"),
        (eth(setb(hello0, 4 + 32, 0x01)), e,
         "interface MAC is not a unicast"),
        (eth(setb(ogm1, 2, 0)), e, "num_entries 0 is outside 1..40"),
        (eth(setb(ogm40, 2, 41)), e, "num_entries 41 is outside 1..40"),
        (eth(setb(ogm1, 1, 1)), e, "version 1 OGM (no compact entries)"),
        (eth(setb(ogm5, 1, 1)), e, "version 1 OGM (no compact entries)"),
        (eth(setb(ogm1, 1, 4)), e, "version 4, OGM frames are version 3"),
        (eth(setb(ogm1, 1, 2)), e,
         "version 2 OGM (16-byte tags and chain elements)"),
        (eth(setb(ogm1, OGM_HDR + 3, 2)), e, "entry kind 2 is outside 0..1"),
        (eth(setb(ogm5, cp + 3, 0xFF)), e,
         "entry kind 255 is outside 0..1"),
        (eth(setb(ogm5, cp + 2, 33)), e, "hops 33 is outside 0..32"),
        (eth(setb(ogm5, cp + 4, 0x01)), e,
         "previous sender is not a mesh address"),
        (eth(setb(ogm5, cp + MUT, 0x01)), e,
         "originator address is not a mesh address"),
        (eth(ogm40[:tr40 - 2]), e, "seqno: needs 4 bytes"),
        (eth(ogm40 + b"\x00"), e, "1 bytes after the end of the frame"),
        (eth(setb(ogm1, 3, 1)), e, "header reserved is not zero"),
        (eth(setb(ogm1, 4, 0x01)), e, "sender is not a mesh address"),
        (eth(setb(ogm1, OGM_HDR + 2, 33)), e, "hops 33 is outside 0..32"),
        (eth(put(ogm1, OGM_HDR + MUT + 32, b"\x00\x00\x00\x00")), e,
         "epoch 0 is outside 1..4294967295"),
        (eth(setb(ogm1, OGM_HDR + MUT + 40, 0x80)), e,
         "entry flags: undefined flag bits 0x80"),
        (eth(put(ogm1, OGM_HDR + E_TVLV_LEN, struct.pack(">H", 3))), e,
         "tvlv_len 3: must be even"),
        (eth(setb(ogm1, tr1, 3)), e, "auth type 3"),
        (eth(setb(ogm1, tr1 + 1, 0)), e, "num_tags 0 is outside 1..32"),
        (eth(setb(ogm1, tr1 + 2, 1)), e, "trailer reserved is not zero"),
        (eth(ogm1 + b"\x00"), e, "1 bytes after the end of the frame"),
        (eth(ogm1[:-5]), e, "tag: needs 8 bytes"),
        (eth(put(ogm3, tv[1] + 4, b"\x00\x00\x00\x00")), e,
         "bandwidth down is 0"),
        (eth(put(ogm3, tv[1] + 2, struct.pack(">H", 7))), e,
         "value length 7 is odd"),
        (eth(put(ogm3, tv[1] + 2, struct.pack(">H", 0))), e,
         "GATEWAY value is 0 bytes, must be 8"),
        (eth(put(ogm3, tv[2] + 2, struct.pack(">H", 0))), e,
         "TT value is 0 bytes"),
        (eth(put(ogm3, tv[2] + 2, struct.pack(">H", 14))), e,
         "TT value is 14 bytes"),
        (eth(put(ogm3, tv[2] + 4 + 6, struct.pack(">H", 0x9001))), e,
         "VLAN field 0x9001"),
        (eth(setb(ogm3, tv[2] + 4 + 8, 0x03)), e,
         "TT flags: undefined flag bits 0x02"),
        (eth(put(ogm3, tv[2] + 4 + 12, ogm3[tv[2] + 4:tv[2] + 16])), e,
         "client (MAC, VLAN) listed twice"),
        (eth(put(ogm3, tr3 + 12 + TAG, ogm3[tr3 + 12:tr3 + 16])), e,
         "key id listed twice"),
        (eth(v1), e, "version 1 data frame: obsolete"),
        (eth(setb(bc_mid, 1, 1)), e, "version 1 data frame: obsolete"),
        (eth(setb(echo, 1, 3)), e, "version 3, ECHO frames are version 2"),
        (eth(setb(uc_min, 3, 0x10)), e, "reserved is not zero"),
        (eth(setb(uc_min, 24, 0x03)), e,
         "destination is not a mesh address"),
        (eth(setb(uc_min, 30, 0x01)), e, "source is not a mesh address"),
        (eth(put(uc_min, 36, bytes(4))), e,
         "source epoch 0 is outside 1..4294967295"),
        (eth(put(uc_min, 40, bytes(4))), e,
         "destination epoch 0 is outside 1..4294967295"),
        (eth(uc_min[:-1]), e, "ciphertext and AEAD tag: needs 30 bytes"),
        (eth(uc_max + b"\x00"), e,
         "ciphertext of 1519 bytes, UNICAST carries 14..1518"),
        (eth(uc_min[:40]), e, "destination epoch: needs 4 bytes"),
        (eth(echo + b"\x00"), e, "ciphertext of 7 bytes, ECHO carries 6"),
        (eth(trace + b"\x00"), e, "ciphertext of 7 bytes, TRACE carries 6"),
        (eth(ttlx + b"\x00"), e, "ciphertext of 17 bytes, TTLX carries 16"),
        (eth(ttlx[:-1]), e, "ciphertext and AEAD tag: needs 32 bytes"),
        (eth(echo[:-1]), e, "ciphertext and AEAD tag: needs 22 bytes"),
        (eth(setb(bc_mid, 3, 0)), e, "ntags 0 is outside 1..8"),
        (eth(setb(bc_mid, 3, 9)), e, "ntags 9 is outside 1..8"),
        (eth(setb(bc_mid, bs, 0x01)), e, "flags: undefined flag bits 0x01"),
        (eth(setb(bc_mid, bs + 1, 0x01)), e,
         "signed header reserved is not zero"),
        (eth(put(bc_mid, bs + 2, struct.pack(">H", 13))), e,
         "inner length 13 is outside 14..1518"),
        (eth(setb(bc_mid, bs + 4, 0x00)), e,
         "originator is not a mesh address"),
        (eth(put(bc_mid, bs + 10, bytes(4))), e,
         "epoch 0 is outside 1..4294967295"),
        (eth(setb(bc_mid, bs + 19, 0x01)), e,
         "signed header reserved is not zero"),
        (eth(bc_mid + b"\x00"), e, "1 bytes after the signature"),
        (eth(bc_mid[:-1]), e, "signature: needs 64 bytes"),
        (eth(bc_mid[:bs + 30]), e, "inner frame: needs"),
        (eth(bc_mid[:BC_FIXED + 5]), e, "tag: needs 8 bytes"),
        (eth(setb(frag0, 1, 1)), e, "version 1, FRAG frames are version 2"),
        (eth(setb(frag0, 3, 1)), e, "reserved is not zero"),
        (eth(setb(frag0, 30, 0x01)), e, "fragmenter is not a mesh address"),
        (eth(put(frag0, 40, struct.pack(">H", 57))), e,
         "total length 57 is outside 58..1562"),
        (eth(put(frag0, 42, struct.pack(">H", 1562))), e,
         "offset 1562 is not below the total 1562"),
        (eth(put(frag58, 42, struct.pack(">H", 41))), e,
         "piece of 18 bytes at 41 does not fit a total of 58"),
        (eth(frag0[:44]), e, "piece: needs 1 bytes"),
        (eth(frag0[:43]), e, "offset: needs 2 bytes"),
    ]


def truncated(frames):
    return [eth(d[:n]) for d in frames if d[0] in (1, 2)
            for n in range(len(d))]


INTERESTING = (0x00, 0x01, 0x02, 0x03, 0x10, 0x20, 0x21, 0x40, 0x41, 0x42,
               0x43, 0x45, 0x7F, 0x80, 0xFE, 0xFF)


def mutate(rng, d):
    b = bytearray(d)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(b))
        b[i] = rng.choice(INTERESTING) if rng.random() < 0.5 else \
            rng.randrange(256)
    if rng.random() < 0.1:
        b += bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return bytes(b)


def mutants(frames):
    rng = random.Random(0x88B5)
    out = [eth(d[:n]) for d in frames if d[0] not in (1, 2)
           for n in range(len(d))]
    for d in frames:
        out += [eth(mutate(rng, d)) for _ in range(60)]
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: mkpcap.py CORPUS_DIR OUT_DIR")
    corpus, out = sys.argv[1], sys.argv[2]
    frames = load(corpus)
    write_pcap(os.path.join(out, "valid.pcap"), [eth(d) for d in frames])
    with open(os.path.join(out, "valid.list"), "w") as f:
        for i, d in enumerate(frames, 1):
            f.write("%d\t%s\t%d\n" % (i, KNOWN[d[0]], len(d)))
    bad = bad_frames(frames)
    write_pcap(os.path.join(out, "bad.pcap"), [b[0] for b in bad])
    with open(os.path.join(out, "bad.expect"), "w") as f:
        for i, (_, sev, text) in enumerate(bad, 1):
            f.write("%d\t%s\t%s\n" % (i, sev, text))
    write_pcap(os.path.join(out, "truncated.pcap"), truncated(frames))
    write_pcap(os.path.join(out, "mutants.pcap"), mutants(frames))


if __name__ == "__main__":
    main()
