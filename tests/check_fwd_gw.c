/*
 * check_fwd_gw.c — gateway client mode (src/forwarder/fwd_gwsel.c): the
 * selection of each class with its hysteresis, the DHCP classifier on
 * IPv4, IPv6, tagged, fragmented and truncated frames, and the steer and
 * drop decisions of a client node.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "forwarder/fwd_gwsel.h"
#include "lib/t_check.h"

/* ---- selection ----------------------------------------------------------- */

static struct fwd_gw_cand
cand(uint8_t id, uint8_t tq, uint32_t down)
{
	struct fwd_gw_cand c;

	memset(&c, 0, sizeof(c));
	c.addr[5] = id;
	c.tq = tq;
	c.down = down;
	return c;
}

START_TEST(test_select_none)
{
	ck_assert_int_eq(fwd_gw_select(NULL, 0, 20, -1), -1);
	ck_assert_int_eq(fwd_gw_select(NULL, 0, 1, -1), -1);
}
END_TEST

/* Class 1: TQ² × bandwidth; a slower link to a fat gateway can win. */
START_TEST(test_select_class1)
{
	struct fwd_gw_cand c[3];

	c[0] = cand(1, 250, 10);	/* 625000 */
	c[1] = cand(2, 200, 100);	/* 4000000 */
	c[2] = cand(3, 255, 20);	/* 1300500 */
	ck_assert_int_eq(fwd_gw_select(c, 3, 1, -1), 1);
	/* Sticky: a better one later does not take over. */
	c[0] = cand(1, 255, 1000);
	ck_assert_int_eq(fwd_gw_select(c, 3, 1, 1), 1);
	/* Once the choice is gone, the best of the rest. */
	ck_assert_int_eq(fwd_gw_select(c, 3, 1, -1), 0);
	/* A tie on the factor goes to the higher TQ. */
	c[0] = cand(1, 100, 400);	/* 4000000 */
	c[1] = cand(2, 200, 100);	/* 4000000 */
	ck_assert_int_eq(fwd_gw_select(c, 2, 1, -1), 1);
}
END_TEST

/* Class 2: best TQ, then kept while usable. */
START_TEST(test_select_class2)
{
	struct fwd_gw_cand c[2];

	c[0] = cand(1, 150, 1000000);
	c[1] = cand(2, 160, 1);
	ck_assert_int_eq(fwd_gw_select(c, 2, 2, -1), 1);
	c[0].tq = 255;
	ck_assert_int_eq(fwd_gw_select(c, 2, 2, 1), 1);
}
END_TEST

/* Class 3: switch as soon as another is better, not on a tie. */
START_TEST(test_select_class3)
{
	struct fwd_gw_cand c[2];

	c[0] = cand(1, 200, 1);
	c[1] = cand(2, 200, 1);
	ck_assert_int_eq(fwd_gw_select(c, 2, 3, 1), 1);
	c[0].tq = 201;
	ck_assert_int_eq(fwd_gw_select(c, 2, 3, 1), 0);
}
END_TEST

/* Class N > 3: switch only N points up; the default 20. */
START_TEST(test_select_threshold)
{
	struct fwd_gw_cand c[3];

	c[0] = cand(1, 180, 1);
	c[1] = cand(2, 199, 1);
	c[2] = cand(3, 100, 1);
	ck_assert_int_eq(fwd_gw_select(c, 3, 20, -1), 1);
	/* 19 points better: kept (no flapping back and forth). */
	ck_assert_int_eq(fwd_gw_select(c, 3, 20, 0), 0);
	c[1].tq = 200;
	ck_assert_int_eq(fwd_gw_select(c, 3, 20, 0), 1);
	/* The threshold is the class, and the sum does not wrap. */
	c[0] = cand(1, 250, 1);
	c[1] = cand(2, 255, 1);
	ck_assert_int_eq(fwd_gw_select(c, 2, 255, 0), 0);
	ck_assert_int_eq(fwd_gw_select(c, 2, 5, 0), 1);
	ck_assert_int_eq(fwd_gw_select(c, 2, 6, 0), 0);
	/* A current index out of range counts as none. */
	ck_assert_int_eq(fwd_gw_select(c, 2, 20, 7), 1);
}
END_TEST

/* ---- DHCP ------------------------------------------------------------------ */

static const uint8_t bcast_mac[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const uint8_t v6_mac[6] = { 0x33, 0x33, 0x00, 0x01, 0x00, 0x02 };
static const uint8_t host_mac[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };

/* An Ethernet + IPv4 + UDP frame (tag: one 802.1Q tag), its length. */
static size_t
frame4(uint8_t *f, const uint8_t *dst, int tag, uint16_t sp, uint16_t dp,
    uint8_t proto, uint16_t frag)
{
	size_t o = 12;

	memset(f, 0, 400);
	memcpy(f, dst, 6);
	memcpy(f + 6, host_mac, 6);
	if (tag) {
		f[o++] = 0x81; f[o++] = 0x00; f[o++] = 0x00; f[o++] = 0x05;
	}
	f[o++] = 0x08; f[o++] = 0x00;
	f[o] = 0x45;
	f[o + 6] = (uint8_t)(frag >> 8);
	f[o + 7] = (uint8_t)frag;
	f[o + 8] = 64;
	f[o + 9] = proto;
	o += 20;
	f[o] = (uint8_t)(sp >> 8); f[o + 1] = (uint8_t)sp;
	f[o + 2] = (uint8_t)(dp >> 8); f[o + 3] = (uint8_t)dp;
	return o + 8 + 300;
}

static size_t
frame6(uint8_t *f, const uint8_t *dst, uint16_t sp, uint16_t dp, uint8_t nh)
{
	memset(f, 0, 400);
	memcpy(f, dst, 6);
	memcpy(f + 6, host_mac, 6);
	f[12] = 0x86; f[13] = 0xdd;
	f[14] = 0x60;
	f[14 + 6] = nh;
	f[54] = (uint8_t)(sp >> 8); f[55] = (uint8_t)sp;
	f[56] = (uint8_t)(dp >> 8); f[57] = (uint8_t)dp;
	return 14 + 40 + 8 + 100;
}

/* Classified from an exact heap copy, so ASan sees any read past it. */
static enum fwd_dhcp
classify(const uint8_t *f, size_t len)
{
	uint8_t *p = t_dup(f, len);
	enum fwd_dhcp k = fwd_dhcp_classify(p, len);

	free(p);
	return k;
}

START_TEST(test_classify)
{
	uint8_t f[400];
	size_t n, cut;

	n = frame4(f, bcast_mac, 0, 68, 67, 17, 0);
	ck_assert_int_eq(classify(f, n), FWD_DHCP_REQUEST);
	n = frame4(f, host_mac, 0, 67, 68, 17, 0);
	ck_assert_int_eq(classify(f, n), FWD_DHCP_ANSWER);
	n = frame4(f, bcast_mac, 1, 68, 67, 17, 0);
	ck_assert_int_eq(classify(f, n), FWD_DHCP_REQUEST);
	/* The DF flag is no fragment; an offset is. */
	n = frame4(f, bcast_mac, 0, 68, 67, 17, 0x4000);
	ck_assert_int_eq(classify(f, n), FWD_DHCP_REQUEST);
	n = frame4(f, bcast_mac, 0, 68, 67, 17, 0x0010);
	ck_assert_int_eq(classify(f, n), FWD_DHCP_NONE);
	/* TCP, other ports, a relay's 67 -> 67. */
	n = frame4(f, bcast_mac, 0, 68, 67, 6, 0);
	ck_assert_int_eq(classify(f, n), FWD_DHCP_NONE);
	n = frame4(f, bcast_mac, 0, 53, 67, 17, 0);
	ck_assert_int_eq(classify(f, n), FWD_DHCP_NONE);
	n = frame4(f, bcast_mac, 0, 67, 67, 17, 0);
	ck_assert_int_eq(classify(f, n), FWD_DHCP_NONE);
	/* Options (IHL 6) move the UDP header. */
	n = frame4(f, bcast_mac, 0, 0, 0, 17, 0);
	f[14] = 0x46;
	f[38] = 0; f[39] = 68; f[40] = 0; f[41] = 67;
	ck_assert_int_eq(classify(f, n), FWD_DHCP_REQUEST);
	/* IHL below 5, not version 4. */
	n = frame4(f, bcast_mac, 0, 68, 67, 17, 0);
	f[14] = 0x44;
	ck_assert_int_eq(classify(f, n), FWD_DHCP_NONE);
	f[14] = 0x65;
	ck_assert_int_eq(classify(f, n), FWD_DHCP_NONE);
	/* DHCPv6. */
	n = frame6(f, v6_mac, 546, 547, 17);
	ck_assert_int_eq(classify(f, n), FWD_DHCP_REQUEST);
	n = frame6(f, host_mac, 547, 546, 17);
	ck_assert_int_eq(classify(f, n), FWD_DHCP_ANSWER);
	n = frame6(f, v6_mac, 546, 547, 0);	/* hop-by-hop header */
	ck_assert_int_eq(classify(f, n), FWD_DHCP_NONE);
	n = frame6(f, v6_mac, 68, 67, 17);	/* v4 ports on v6 */
	ck_assert_int_eq(classify(f, n), FWD_DHCP_NONE);
	/* ARP. */
	n = frame4(f, bcast_mac, 0, 68, 67, 17, 0);
	f[12] = 0x08; f[13] = 0x06;
	ck_assert_int_eq(classify(f, n), FWD_DHCP_NONE);
	/* Every truncation of a request is none, never a read past it. */
	n = frame4(f, bcast_mac, 1, 68, 67, 17, 0);
	for (cut = 0; cut < 14 + 4 + 20 + 8; cut++)
		ck_assert_int_eq(classify(f, cut), FWD_DHCP_NONE);
	ck_assert_int_eq(classify(f, cut), FWD_DHCP_REQUEST);
	n = frame6(f, v6_mac, 546, 547, 17);
	for (cut = 0; cut < 14 + 40 + 8; cut++)
		ck_assert_int_eq(classify(f, cut), FWD_DHCP_NONE);
	ck_assert_int_eq(classify(f, cut), FWD_DHCP_REQUEST);
}
END_TEST

/* ---- steer and drop ---------------------------------------------------------- */

START_TEST(test_steer)
{
	struct fwd_gwc g;
	uint8_t f[400];
	size_t n;

	memset(&g, 0, sizeof(g));
	n = frame4(f, bcast_mac, 0, 68, 67, 17, 0);
	/* Not a client, or no gateway selected: flooded as before. */
	ck_assert_int_eq(fwd_gw_steer(&g, f, n), 0);
	g.client = 1;
	ck_assert_int_eq(fwd_gw_steer(&g, f, n), 0);
	g.has_sel = 1;
	g.sel[5] = 9;
	ck_assert_int_eq(fwd_gw_steer(&g, f, n), 1);
	n = frame6(f, v6_mac, 546, 547, 17);
	ck_assert_int_eq(fwd_gw_steer(&g, f, n), 1);
	/* A request to one host (a renewal) follows its MAC. */
	n = frame4(f, host_mac, 0, 68, 67, 17, 0);
	ck_assert_int_eq(fwd_gw_steer(&g, f, n), 0);
	/* An answer or other broadcast is not steered. */
	n = frame4(f, bcast_mac, 0, 67, 68, 17, 0);
	ck_assert_int_eq(fwd_gw_steer(&g, f, n), 0);
	n = frame4(f, bcast_mac, 0, 137, 137, 17, 0);
	ck_assert_int_eq(fwd_gw_steer(&g, f, n), 0);
	g.client = 0;
	n = frame4(f, bcast_mac, 0, 68, 67, 17, 0);
	ck_assert_int_eq(fwd_gw_steer(&g, f, n), 0);
}
END_TEST

START_TEST(test_rx_drop)
{
	uint8_t chosen[BS_ADDR_LEN] = { 0, 0, 0, 0, 0, 9 };
	uint8_t other[BS_ADDR_LEN] = { 0, 0, 0, 0, 0, 8 };
	struct fwd_gwc g;
	uint8_t f[400];
	size_t n;

	memset(&g, 0, sizeof(g));
	n = frame4(f, host_mac, 0, 67, 68, 17, 0);
	ck_assert_int_eq(fwd_gw_rx_drop(&g, other, f, n), 0);
	g.client = 1;
	ck_assert_int_eq(fwd_gw_rx_drop(&g, other, f, n), 0);
	g.has_sel = 1;
	memcpy(g.sel, chosen, BS_ADDR_LEN);
	ck_assert_int_eq(fwd_gw_rx_drop(&g, other, f, n), 1);
	ck_assert_int_eq(fwd_gw_rx_drop(&g, chosen, f, n), 0);
	n = frame4(f, bcast_mac, 1, 67, 68, 17, 0);
	ck_assert_int_eq(fwd_gw_rx_drop(&g, other, f, n), 1);
	n = frame6(f, host_mac, 547, 546, 17);
	ck_assert_int_eq(fwd_gw_rx_drop(&g, other, f, n), 1);
	ck_assert_int_eq(fwd_gw_rx_drop(&g, chosen, f, n), 0);
	/* Requests and other traffic from anyone pass. */
	n = frame4(f, bcast_mac, 0, 68, 67, 17, 0);
	ck_assert_int_eq(fwd_gw_rx_drop(&g, other, f, n), 0);
	n = frame4(f, host_mac, 0, 1000, 68, 17, 0);
	ck_assert_int_eq(fwd_gw_rx_drop(&g, other, f, n), 0);
}
END_TEST

static Suite *
gw_suite(void)
{
	Suite *s = suite_create("fwd_gw");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_select_none);
	tcase_add_test(tc, test_select_class1);
	tcase_add_test(tc, test_select_class2);
	tcase_add_test(tc, test_select_class3);
	tcase_add_test(tc, test_select_threshold);
	tcase_add_test(tc, test_classify);
	tcase_add_test(tc, test_steer);
	tcase_add_test(tc, test_rx_drop);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return t_run(gw_suite());
}
