/*
 * t_pcore_in.c — the facts of fuzz_pcore's input (t_pcore_in.h).
 */
#include "t_pcore_in.h"

const uint8_t t_pcin_macs[T_PCIN_NMACS][BS_ADDR_LEN] = {
	{ 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee },
	{ 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 },
	{ 0x02, 0x11, 0x22, 0x33, 0x44, 0x66 },
	{ 0x02, 0x11, 0x22, 0x33, 0x44, 0x77 },
	{ 0x02, 0x11, 0x22, 0x33, 0x44, 0x88 },
	{ 0x02, 0x99, 0x99, 0x99, 0x99, 0x99 },
};

int
t_pcin_policy_fill(struct bs_policy *pol, uint8_t mode, uint8_t trust,
    uint8_t gw, uint8_t clients, uint8_t cap,
    const uint8_t pk[][BS_PK_LEN], int n)
{
	struct bs_policy_limits *l = &pol->limits;
	int i;

	pol->mode = (mode & 1) ? BS_POLICY_OPEN : BS_POLICY_ALLOWLIST;
	if (mode & 0x02) {
		l->intro_rate = 1;
		l->intro_burst = 2;
	}
	if (mode & 0x04) {
		l->verify_rate = 1;
		l->verify_burst = 3;
		l->verify_global_rate = 2;
		l->verify_global_burst = 8;
	}
	if (mode & 0x08) {
		l->frame_rate = 1;
		l->frame_burst = 4;
	}
	if (mode & 0x10) {
		l->stranger_share = 50;
		l->neighbor_stranger_share = 34;
	}
	if (mode & 0x20)
		l->roam_per_minute = 0;
	if (clients != 0)
		l->clients_per_originator = clients;
	if (cap != 0)
		l->originators = 16u + cap;
	for (i = 0; i < n && i < 8; i++)
		if (((trust >> i) & 1) && bs_policy_trust_add(pol, pk[i], NULL,
		    (gw >> i) & 1, NULL, 0) != 0)
			return -1;
	return 0;
}
