#!/bin/sh
# t_ctl_offline.sh — batsec-ctl's offline commands (key, cert, version,
# help): every success path and every error path, with exit codes
# (0 success, 1 failure, 2 usage error) and the rule that an error is
# exactly one line on stderr starting with "batsec-ctl: ".  Needs no root
# and no daemon.
. "$(dirname "$0")/lib.sh"

case $B in /*) ;; *) B=$TOP/$B ;; esac
CTL=$B/batsec-ctl
if [ ! -x "$CTL" ]; then
	fail "batsec-ctl is built ($CTL)"
	finish
fi
D=$(mktmp)
cd "$D" || exit 1
OUT=$D/out
ERR=$D/err

# run CMD...: runs it with stdin from /dev/null unless redirected by the
# caller's wrapper; sets RC, OUT and ERR files.
run() {
	"$@" >"$OUT" 2>"$ERR"
	RC=$?
}

# ok NAME CMD...: exit 0 and nothing on stderr.
ok() {
	name=$1; shift
	run "$@" </dev/null
	if [ "$RC" -eq 0 ] && [ ! -s "$ERR" ]; then
		pass "$name"
	else
		fail "$name (exit $RC: $(head -n 1 "$ERR"))"
	fi
}

# one_line_err: stderr is exactly one line starting with "batsec-ctl: ".
one_line_err() {
	[ "$(wc -l <"$ERR")" -eq 1 ] && grep -q '^batsec-ctl: ' "$ERR"
}

# err NAME RC TEXT CMD...: exits RC, nothing on stdout, one error line
# that contains TEXT (fixed string).
err() {
	name=$1; want=$2; text=$3; shift 3
	run "$@" </dev/null
	if [ "$RC" -ne "$want" ]; then
		fail "$name (exit $RC, want $want: $(head -n 1 "$ERR"))"
	elif [ -s "$OUT" ]; then
		fail "$name (printed to stdout on error)"
	elif ! one_line_err; then
		fail "$name (stderr is not one 'batsec-ctl: ' line:" \
		    "$(tr '\n' '|' <"$ERR"))"
	elif ! grep -qF -- "$text" "$ERR"; then
		fail "$name (message lacks '$text': $(cat "$ERR"))"
	else
		pass "$name"
	fi
}

# same NAME A B: the two strings are equal.
same() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1 ('$2' != '$3')"; fi
}

B64KEY='^[A-Za-z0-9+/]{43}=$'
ADDR='^[0-9a-f]{2}(:[0-9a-f]{2}){5}$'

# ---- version and help ------------------------------------------------------

ok "version" "$CTL" version
same "version prints 'batsec-ctl 0.1.0'" "$(cat "$OUT")" "batsec-ctl 0.1.0"
err "version with an argument is a usage error" 2 "takes no arguments" \
    "$CTL" version extra

for h in --help -h help; do
	ok "top-level help via $h" "$CTL" $h
	for c in "key generate" "key public" "key address" "cert issue" \
	    "cert show" "cert verify" "version" "originators (o)" \
	    "neighbors (n)" "interfaces (if)" "gateways (gw)" "clients (tt)" \
	    "stats (s)" "trust" "block" "revoke" "reload" "ping"; do
		check "help $h lists '$c'" grep -qF -- "$c" "$OUT"
	done
done
ok "help" "$CTL" --help
check_not "help hides the expert --not-before option" \
    grep -q 'not-before' "$OUT"
check "help shows the global -s and -j options" \
    sh -c "grep -q -- '-s SOCKET' '$OUT' && grep -q -- '-j ' '$OUT'"
for g in "key --help" "key -h" "key help" "help key"; do
	ok "group help '$g'" "$CTL" $g
	check "'$g' shows key generate/public/address" sh -c \
	    "grep -q 'key generate' '$OUT' && grep -q 'key public' '$OUT' &&
	     grep -q 'key address' '$OUT' && ! grep -q 'cert issue' '$OUT'"
done
for c in "key generate" "key public" "key address" "cert issue" \
    "cert show" "cert verify"; do
	ok "'$c --help'" "$CTL" $c --help
	check "'$c --help' shows its synopsis" grep -qF "  $c" "$OUT"
	ok "'help $c'" "$CTL" help $c
	ok "'$c -h'" "$CTL" $c -h
done
ok "'cert --help'" "$CTL" cert --help
check "'cert --help' shows issue/show/verify" sh -c \
    "grep -q 'cert issue' '$OUT' && grep -q 'cert show' '$OUT' &&
     grep -q 'cert verify' '$OUT'"
err "help of an unknown command" 2 "unknown command 'nope'" \
    "$CTL" help nope
err "help of a subcommand of a leaf" 2 "has no subcommands" \
    "$CTL" help version x

# ---- global usage errors ---------------------------------------------------

err "no command" 2 "no command given" "$CTL"
err "unknown command" 2 "unknown command 'frobnicate'" "$CTL" frobnicate
err "unknown global option" 2 "unknown option '-x'" "$CTL" -x version
err "unknown global long option" 2 "unknown option '--bogus'" \
    "$CTL" --bogus version
err "-s without an argument" 2 "needs an argument" "$CTL" -s
err "-s with an empty path" 2 "empty socket path" "$CTL" -s '' version
long=$(printf 'x%.0s' $(seq 108))
err "-s with a path longer than sun_path allows" 2 "longer than 107" \
    "$CTL" -s "$D/$long" version
ok "-s SOCKET and -j are accepted before a command" \
    "$CTL" -s "$D/sock" -j version
err "key without a subcommand" 2 "key: missing subcommand" "$CTL" key
err "cert without a subcommand" 2 "cert: missing subcommand" "$CTL" cert
err "unknown key subcommand" 2 "key: unknown command 'frob'" \
    "$CTL" key frob
err "unknown cert subcommand" 2 "cert: unknown command 'frob'" \
    "$CTL" cert frob
for c in originators o neighbors n interfaces if gateways gw clients tt \
    stats s trust block unblock revoke reload; do
	err "daemon command '$c' reports it is unavailable" 1 \
	    "needs the batsecd control socket" "$CTL" $c
done
for c in ping p; do
	err "daemon command '$c ADDRESS' reports it is unavailable" 1 \
	    "needs the batsecd control socket" "$CTL" $c 02:00:00:00:00:01
done
err "ping without an address" 2 "ping: takes one address" "$CTL" ping
err "ping -c 0" 2 "ping: -c: a count of 1 to 100000" \
    "$CTL" ping -c 0 02:00:00:00:00:01
err "ping -i 0" 2 "ping: -i: 0.01 to 60 seconds" \
    "$CTL" ping -i 0 02:00:00:00:00:01
for c in traceroute tr; do
	err "daemon command '$c ADDRESS' reports it is unavailable" 1 \
	    "needs the batsecd control socket" "$CTL" $c 02:00:00:00:00:01
done
err "traceroute without an address" 2 "traceroute: takes one address" \
    "$CTL" traceroute
err "traceroute -c 11" 2 "traceroute: -c: a probe count of 1 to 10" \
    "$CTL" traceroute -c 11 02:00:00:00:00:01
err "traceroute -m 0" 2 "traceroute: -m: a hop count of 1 to 255" \
    "$CTL" traceroute -m 0 02:00:00:00:00:01
err "traceroute -w 61" 2 "traceroute: -w: 0.01 to 60 seconds" \
    "$CTL" traceroute -w 61 02:00:00:00:00:01
ok "daemon command help" "$CTL" originators --help
check "daemon command help says it needs batsecd" \
    grep -q 'needs a running batsecd' "$OUT"

# ---- key generate ----------------------------------------------------------

ok "key generate to stdout" "$CTL" key generate
check "generated key is one base64 line" \
    sh -c "[ \$(wc -l <'$OUT') -eq 1 ] && grep -Eq '$B64KEY' '$OUT'"
k1=$(cat "$OUT")
run "$CTL" key generate
check_not "two generated keys differ" [ "$k1" = "$(cat "$OUT")" ]

ok "key generate -o ca.key" "$CTL" key generate -o ca.key
check "key generate -o prints nothing" [ ! -s "$OUT" ]
same "secret key file has mode 600" "$(stat -c %a ca.key)" 600
check "secret key file is one base64 line" grep -Eq "$B64KEY" ca.key
cp ca.key ca.key.orig
err "key generate refuses to replace a file" 1 "already exists; use -f" \
    "$CTL" key generate -o ca.key
check "refused key generate left the file unchanged" cmp ca.key ca.key.orig
check "refused key generate left no temporary file" \
    sh -c "[ \$(ls -A '$D' | grep -c 'ca\.key\.') -eq 1 ]"
ok "key generate -f -o replaces a file" "$CTL" key generate -f -o x.key
ok "key generate --force --output" \
    "$CTL" key generate --force --output x.key
check_not "replaced key differs" cmp -s x.key ca.key
same "replaced key has mode 600" "$(stat -c %a x.key)" 600
ok "key generate -o node.key" "$CTL" key generate -o node.key
err "key generate -f without -o" 2 "-f needs -o FILE" \
    "$CTL" key generate -f
err "key generate -o without a file" 2 "option '-o' needs an argument" \
    "$CTL" key generate -o
err "key generate -o ''" 2 "empty file name" "$CTL" key generate -o ''
err "key generate with an operand" 2 "too many arguments" \
    "$CTL" key generate extra
err "key generate unknown option" 2 "unknown option '-z'" \
    "$CTL" key generate -z
err "key generate into a missing directory" 1 "nodir/k.key" \
    "$CTL" key generate -o nodir/k.key

# ---- key public ------------------------------------------------------------

ok "key public FILE" "$CTL" key public ca.key
check "public key is one base64 line" grep -Eq "$B64KEY" "$OUT"
cp "$OUT" ca.pub
check_not "public key is not the secret key" cmp -s ca.pub ca.key
run "$CTL" key public - <ca.key
same "key public - reads stdin" "$(cat "$OUT")" "$(cat ca.pub)"
run "$CTL" key public <ca.key
same "key public without FILE reads stdin" "$(cat "$OUT")" "$(cat ca.pub)"
run "$CTL" key public node.key
cp "$OUT" node.pub
"$CTL" key generate | "$CTL" key public >"$OUT" 2>"$ERR"
check "key generate | key public" grep -Eq "$B64KEY" "$OUT"

err "key public of a missing file" 1 "missing.key" \
    "$CTL" key public missing.key
cp ca.key open.key
chmod 644 open.key
err "key public refuses a 0644 secret key" 1 "mode 0644" \
    "$CTL" key public open.key
check_not "the refusal does not print the secret" \
    grep -qF "$(cat ca.key)" "$ERR"
cp ca.key group.key
chmod 640 group.key
err "key public refuses a 0640 secret key" 1 "chmod 600" \
    "$CTL" key public group.key
# 44 characters, the length of a key, but not base64.
printf '%s\n' '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!=' >bad.key
chmod 600 bad.key
err "key public refuses bad base64" 1 "not valid base64" \
    "$CTL" key public bad.key
printf 'c2hvcnQ=\n' >short.key
chmod 600 short.key
err "key public refuses a short key" 1 "expected 44" \
    "$CTL" key public short.key
{ cat ca.key; echo extra; } >trail.key
chmod 600 trail.key
err "key public refuses trailing data" 1 "unexpected data" \
    "$CTL" key public trail.key
: >empty.key
chmod 600 empty.key
err "key public refuses an empty file" 1 "empty" \
    "$CTL" key public empty.key
err "key public refuses a directory" 1 "directory" "$CTL" key public "$D"
run "$CTL" key public - <bad.key
check "key public - with bad stdin fails with one line" \
    sh -c "[ $RC -eq 1 ] && [ \$(wc -l <'$ERR') -eq 1 ]"
err "key public with two operands" 2 "too many arguments" \
    "$CTL" key public ca.key node.key
err "key public ''" 2 "empty file name" "$CTL" key public ''
nl_name=$(printf 'new\nline.key')
err "a file name with a newline still gives one error line" 1 "new?line" \
    "$CTL" key public "$nl_name"

# ---- key address -----------------------------------------------------------

ok "key address PUBFILE" "$CTL" key address ca.pub
addr=$(cat "$OUT")
check "address looks like xx:xx:xx:xx:xx:xx" \
    sh -c "echo '$addr' | grep -Eq '$ADDR'"
first=$(printf '%d' "0x${addr%%:*}")
check "address has the locally administered bit, not multicast" \
    [ $((first & 3)) -eq 2 ]
ok "key address KEYTEXT" "$CTL" key address "$(cat ca.pub)"
same "address of key text equals that of the file" "$(cat "$OUT")" "$addr"
run "$CTL" key address - <ca.pub
same "key address - reads a public key on stdin" "$(cat "$OUT")" "$addr"
ok "key address -S SECRETFILE" "$CTL" key address -S ca.key
same "address of the secret key file equals that of its public key" \
    "$(cat "$OUT")" "$addr"
run "$CTL" key address --secret - <ca.key
same "key address --secret - reads a secret key on stdin" \
    "$(cat "$OUT")" "$addr"
run "$CTL" key address node.pub
check_not "different keys give different addresses" \
    [ "$(cat "$OUT")" = "$addr" ]

err "key address of garbage text" 1 "not a base64 public key" \
    "$CTL" key address garbage
err "key address of 44 characters of bad base64" 1 "not a base64 public" \
    "$CTL" key address '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!='
err "key address of an invalid curve point" 1 "not a valid Ed25519" \
    "$CTL" key address 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='
err "key address -S refuses a 0644 secret key" 1 "mode 0644" \
    "$CTL" key address -S open.key
err "key address -S of a missing file" 1 "cannot open" \
    "$CTL" key address -S missing.key
err "key address of a bad public key file" 1 "not valid base64" \
    "$CTL" key address bad.key
err "key address without an argument" 2 "missing argument" \
    "$CTL" key address
err "key address with two arguments" 2 "too many arguments" \
    "$CTL" key address ca.pub node.pub

# ---- cert issue ------------------------------------------------------------

ok "cert issue to stdout" "$CTL" cert issue --ca ca.key --key node.pub \
    --name node-1
check "certificate is three armoured lines" sh -c \
    "[ \$(wc -l <'$OUT') -eq 3 ] &&
     head -n 1 '$OUT' | grep -qx -- '-----BEGIN BATSEC CERTIFICATE-----' &&
     tail -n 1 '$OUT' | grep -qx -- '-----END BATSEC CERTIFICATE-----'"
t0=$(date +%s)
ok "cert issue -o with key text and --gateway" "$CTL" cert issue \
    --ca ca.key --key "$(cat node.pub)" --name gw-1 --days 30 --gateway \
    -o node.cert
check "cert issue -o prints nothing" [ ! -s "$OUT" ]
check "certificate file exists" [ -s node.cert ]
cp node.cert node.cert.orig
err "cert issue refuses to replace a file" 1 "already exists; use -f" \
    "$CTL" cert issue --ca ca.key --key node.pub -o node.cert
check "refused cert issue left the file unchanged" \
    cmp node.cert node.cert.orig
err "cert issue refuses to overwrite the CA key by mistake" 1 \
    "already exists" "$CTL" cert issue --ca ca.key --key node.pub -o ca.key
check "the CA key survived" cmp ca.key ca.key.orig
ok "cert issue -f -o replaces a file" "$CTL" cert issue --ca ca.key \
    --key node.pub -f -o plain.cert
ok "cert issue without a name" "$CTL" cert issue --ca ca.key \
    --key node.pub -f -o plain.cert
run "$CTL" cert issue --ca - --key node.pub <ca.key
check "cert issue --ca - reads the CA key on stdin" \
    sh -c "[ $RC -eq 0 ] && grep -q BEGIN '$OUT'"
now=$(date +%s)
ok "expert: cert issue --not-before/--not-after (expired)" \
    "$CTL" cert issue --ca ca.key --key node.pub --not-before 1000000000 \
    --not-after 1000086400 -o expired.cert
ok "expert: cert issue --not-before in the future" \
    "$CTL" cert issue --ca ca.key --key node.pub \
    --not-before $((now + 86400)) --days 2 -o future.cert
ok "cert issue with a 32-character name" "$CTL" cert issue --ca ca.key \
    --key node.pub --name 0123456789abcdef0123456789ABCDEF

err "cert issue without --ca" 2 "--ca CAKEYFILE is required" \
    "$CTL" cert issue --key node.pub
err "cert issue without --key" 2 "--key PUBKEY is required" \
    "$CTL" cert issue --ca ca.key
err "cert issue with a space in --name" 2 "--name may only hold" \
    "$CTL" cert issue --ca ca.key --key node.pub --name 'a b'
err "cert issue with a 33-character --name" 2 "longer than 32" \
    "$CTL" cert issue --ca ca.key --key node.pub \
    --name 0123456789abcdef0123456789ABCDEFx
err "cert issue with an empty --name" 2 "--name is empty" \
    "$CTL" cert issue --ca ca.key --key node.pub --name ''
err "cert issue with a non-ASCII --name" 2 "--name may only hold" \
    "$CTL" cert issue --ca ca.key --key node.pub --name "$(printf 'n\303\251')"
for d in 0 3651 -1 +5 1x '' 99999999999999999999999; do
	err "cert issue --days '$d'" 2 "--days must be a whole number" \
	    "$CTL" cert issue --ca ca.key --key node.pub --days "$d"
done
err "cert issue --days with --not-after" 2 "exclude each other" \
    "$CTL" cert issue --ca ca.key --key node.pub --days 5 --not-after 2000000000
err "cert issue not-after before not-before" 2 "must be later" \
    "$CTL" cert issue --ca ca.key --key node.pub --not-before 2000 \
    --not-after 1000
err "cert issue not-after equal to not-before" 2 "must be later" \
    "$CTL" cert issue --ca ca.key --key node.pub --not-before 2000 \
    --not-after 2000
err "cert issue --not-after after year 9999" 2 "--not-after must be" \
    "$CTL" cert issue --ca ca.key --key node.pub --not-after 253402300800
err "cert issue --not-before garbage" 2 "--not-before must be" \
    "$CTL" cert issue --ca ca.key --key node.pub --not-before yesterday
err "cert issue window past year 9999" 2 "after the year 9999" \
    "$CTL" cert issue --ca ca.key --key node.pub --not-before 253402300000
err "cert issue -f without -o" 2 "-f needs -o FILE" \
    "$CTL" cert issue --ca ca.key --key node.pub -f
err "cert issue with an operand" 2 "too many arguments" \
    "$CTL" cert issue --ca ca.key --key node.pub extra
err "cert issue unknown option" 2 "unknown option '--role'" \
    "$CTL" cert issue --ca ca.key --key node.pub --role gateway
err "cert issue --gateway=yes" 2 "option '--gateway=yes' takes no value" \
    "$CTL" cert issue --ca ca.key --key node.pub --gateway=yes
err "cert issue --ca and --key both stdin" 2 "cannot both be read" \
    "$CTL" cert issue --ca - --key -
err "cert issue with a 0644 CA key" 1 "mode 0644" \
    "$CTL" cert issue --ca open.key --key node.pub
err "cert issue with a missing CA key" 1 "missing.key" \
    "$CTL" cert issue --ca missing.key --key node.pub
err "cert issue with a bad CA key" 1 "not valid base64" \
    "$CTL" cert issue --ca bad.key --key node.pub
err "cert issue with a bad node key" 1 "not a base64 public key" \
    "$CTL" cert issue --ca ca.key --key 'not-a-key'
err "cert issue with an invalid node key point" 1 "not a valid Ed25519" \
    "$CTL" cert issue --ca ca.key --key \
    'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='

# ---- cert show -------------------------------------------------------------

ok "cert show" "$CTL" cert show node.cert
node_b64=$(cat node.pub)
ca_b64=$(cat ca.pub)
node_addr=$("$CTL" key address node.pub)
for want in "version: 1" "node-key: $node_b64" "node-address: $node_addr" \
    "issuer-key: $ca_b64" "name: gw-1" "roles: gateway" \
    "signature-valid: yes"; do
	check "cert show prints '$want'" grep -qxF -- "$want" "$OUT"
done
ISO='[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z'
check "cert show prints not-before as ISO-8601 and unix seconds" grep -Eq \
    "^not-before: $ISO \\([0-9]+\\)\$" "$OUT"
check "cert show prints not-after as ISO-8601 and unix seconds" grep -Eq \
    "^not-after: $ISO \\([0-9]+\\)\$" "$OUT"
nb=$(sed -n 's/^not-before: .* (\([0-9]*\))$/\1/p' "$OUT")
na=$(sed -n 's/^not-after: .* (\([0-9]*\))$/\1/p' "$OUT")
same "--days 30 gives a 30-day window" "$((na - nb))" "$((30 * 86400))"
check "not-before is the time of issue" \
    sh -c "[ '$nb' -ge '$t0' ] && [ '$nb' -le '$((t0 + 600))' ]"
ok "cert show of the expired certificate" "$CTL" cert show expired.cert
check "cert show renders 1000000000 as 2001-09-09T01:46:40Z" grep -qxF \
    "not-before: 2001-09-09T01:46:40Z (1000000000)" "$OUT"
check "cert show of a certificate without a name" \
    sh -c "'$CTL' cert show plain.cert | grep -qx 'name:'"
check "cert show of a certificate without roles" \
    sh -c "'$CTL' cert show plain.cert | grep -qx 'roles: none'"
ok "cert show -j" "$CTL" cert show -j node.cert
check "cert show -j prints one line" [ "$(wc -l <"$OUT")" -eq 1 ]
for want in '"version":1' "\"node_key\":\"$node_b64\"" \
    "\"node_address\":\"$node_addr\"" "\"issuer_key\":\"$ca_b64\"" \
    '"name":"gw-1"' '"roles":["gateway"]' "\"not_before\":$nb" \
    "\"not_after\":$na" '"signature_valid":true'; do
	check "cert show -j has $want" grep -qF -- "$want" "$OUT"
done
if command -v python3 >/dev/null 2>&1; then
	check "cert show -j is valid JSON" python3 -c \
	    'import json,sys; json.load(open(sys.argv[1]))' "$OUT"
fi
run "$CTL" -j cert show node.cert
check "global -j works for cert show" grep -qF '"signature_valid":true' "$OUT"
run "$CTL" cert show - <node.cert
check "cert show - reads stdin" grep -qxF "name: gw-1" "$OUT"

err "cert show of a missing file" 1 "missing.cert" \
    "$CTL" cert show missing.cert
err "cert show of a key file" 1 "BEGIN BATSEC CERTIFICATE" \
    "$CTL" cert show ca.pub
err "cert show without a file" 2 "missing argument" "$CTL" cert show
err "cert show with two files" 2 "too many arguments" \
    "$CTL" cert show node.cert node.cert
err "cert show unknown option" 2 "unknown option '-x'" \
    "$CTL" cert show -x node.cert

# tamper CHARPOS NEWFILE: copy node.cert with one base64 character of the
# body changed at CHARPOS (1-based).
tamper() {
	awk -v pos="$1" 'NR == 2 {
		c = substr($0, pos, 1); r = (c == "A") ? "B" : "A"
		$0 = substr($0, 1, pos - 1) r substr($0, pos + 1)
	} { print }' node.cert >"$2"
}
tamper 20 tampered.cert
check_not "tampered certificate differs" cmp -s node.cert tampered.cert
ok "cert show of a tampered certificate" "$CTL" cert show tampered.cert
check "cert show reports the tampered signature" \
    grep -qx 'signature-valid: no' "$OUT"
run "$CTL" -j cert show tampered.cert
check "cert show -j reports the tampered signature" \
    grep -qF '"signature_valid":false' "$OUT"
tamper 1 badver.cert
err "cert show rejects a bad format version" 1 "malformed certificate" \
    "$CTL" cert show badver.cert
sed '2s/$/AAAA/' node.cert >long.cert
err "cert show rejects an over-long body" 1 "characters long" \
    "$CTL" cert show long.cert
head -n 2 node.cert >trunc.cert
err "cert show rejects a missing END line" 1 "END" \
    "$CTL" cert show trunc.cert
{ cat node.cert; echo junk; } >junk.cert
err "cert show rejects data after END" 1 "unexpected data" \
    "$CTL" cert show junk.cert

# ---- cert verify -----------------------------------------------------------

ok "cert verify FILE --anchor FILE" "$CTL" cert verify node.cert \
    --anchor ca.pub
same "cert verify prints valid" "$(cat "$OUT")" "valid"
ok "cert verify --anchor KEYTEXT FILE" "$CTL" cert verify \
    --anchor "$ca_b64" node.cert
run "$CTL" cert verify --anchor ca.pub - <node.cert
same "cert verify - reads stdin" "$RC $(cat "$OUT")" "0 valid"

err "cert verify with the wrong anchor" 1 "issuer is not a trusted anchor" \
    "$CTL" cert verify node.cert --anchor node.pub
err "cert verify of an expired certificate" 1 "expired.cert: expired" \
    "$CTL" cert verify expired.cert --anchor ca.pub
err "cert verify of a not yet valid certificate" 1 "not yet valid" \
    "$CTL" cert verify future.cert --anchor ca.pub
err "cert verify of a tampered certificate" 1 "bad signature" \
    "$CTL" cert verify tampered.cert --anchor ca.pub
err "cert verify of a malformed certificate" 1 "malformed certificate" \
    "$CTL" cert verify badver.cert --anchor ca.pub
err "cert verify of a missing certificate" 1 "missing.cert" \
    "$CTL" cert verify missing.cert --anchor ca.pub
err "cert verify with a bad anchor" 1 "not a base64 public key" \
    "$CTL" cert verify node.cert --anchor 'bad-anchor'
err "cert verify with a bad anchor file" 1 "not valid base64" \
    "$CTL" cert verify node.cert --anchor bad.key
err "cert verify without --anchor" 2 "--anchor CAPUBKEY is required" \
    "$CTL" cert verify node.cert
err "cert verify without a file" 2 "missing argument" \
    "$CTL" cert verify --anchor ca.pub
err "cert verify --anchor without a value" 2 "needs an argument" \
    "$CTL" cert verify node.cert --anchor
err "cert verify with two files" 2 "too many arguments" \
    "$CTL" cert verify --anchor ca.pub node.cert node.cert

finish
