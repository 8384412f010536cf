/*
 * forwarder.h — batsecd's privileged process (DESIGN.md §3).
 *
 * The forwarder holds the node key, the TAP device, one AF_PACKET socket
 * per mesh interface and the netlink sockets; it spawns the sandboxed
 * parser (`batsecd -P`) and treats every message from it as hostile.
 * Its modules, bottom up: each one calls only modules listed before it
 * (in parentheses, besides fwd_types.h), never one after it, and each
 * header declares only its own file's functions.  The state they share
 * is struct fwd (fwd_types.h).
 *
 *   control.c		the control socket server: framing, peers, clients
 *   ipc_check.c	layer 3 of the channel's checks (pure)
 *   state.c		the state directory: epoch, stores of lines
 *   fwd_tables.c	neighbours, routes, TT, gateways (opaque)
 *   fwd_links.c	link salts, the keys of each neighbour link (tables)
 *   fwd_orig.c		HELLO and OGM builders, the relay queue (tables,
 *			links)
 *   fwd_parser.c	the parser process and the channel: frames, checks,
 *			dispatches to the handlers forwarder.c registers
 *			(ipc_check)
 *   fwd_types.h	struct fwd, the interfaces, trust and pin state
 *   fwd_iface.c	lookups of mesh interfaces by ifindex
 *   fwd_poll.c		the epoll set and its tags
 *   fwd_tap.c		batsec0: creation, delivery to the host (tables)
 *   fwd_gwsel.c	gateway selection classes, DHCP steering rules (pure)
 *   fwd_data.c		the data plane (tables, iface, tap, gwsel)
 *   fwd_gateway.c	the client's gateway election (tables, data, gwsel)
 *   fwd_fast.c		the in-kernel relay (tables, iface, data)
 *   fwd_trust.c	policy edits, certificate, revocations, the policy
 *			snapshot for the parser (control, state, parser)
 *   fwd_pins.c		TOFU pins kept across parsers (state, parser)
 *   fwd_admit.c	the policy gate of the parser's messages, removal
 *			of keys the policy no longer admits (tables,
 *			parser, fast, trust)
 *   fwd_announce.c	HELLOs, own OGMs and relays on their timers, link
 *			salts and their rotation; the RELAY handler and the
 *			LINK_KEY_REQ answer (tables, links, orig, parser,
 *			iface, data, trust)
 *   fwd_apply.c	the NEIGH, ROUTE, TT and GW handlers (tables, fast)
 *   fwd_ifaces.c	mesh interfaces over their life: netlink events,
 *			raw sockets, MTU policy (tables, parser, iface, poll,
 *			tap, data, fast)
 *   fwd_control.c	the control socket's commands (control, tables,
 *			parser, iface, data, fast, trust, pins, ifaces)
 *   forwarder.c	start-up, the event loop, signals, reload, shutdown,
 *			the channel's handler table (all)
 */
#ifndef BATSEC_FORWARDER_H
#define BATSEC_FORWARDER_H

struct bs_args;
struct fwd;

/* batsecd without -P.  Returns the exit status. */
int	forwarder_main(const struct bs_args *args);

/*
 * Register with f->parser the handlers that apply what the parser sends
 * (fwd_apply.c, fwd_announce.c, fwd_trust.c, fwd_pins.c, fwd_admit.c)
 * and the policy gate (fwd_admit.h), with f as their argument.  forwarder_main does it at start-up; tests and fuzz
 * targets that drive the channel with a forwarder behind it do it too.
 */
void	forwarder_handlers(struct fwd *f);

#endif /* BATSEC_FORWARDER_H */
