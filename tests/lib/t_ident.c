/*
 * t_ident.c — identities from fixed seeds (t_ident.h).
 */
#include <stdlib.h>
#include <string.h>

#include "t_ident.h"

void
t_ident(struct bs_identity *id, uint8_t fill)
{
	uint8_t seed[BS_SEED_LEN];

	memset(seed, fill, sizeof(seed));
	if (bs_identity_from_seed(id, seed) != 0)
		abort();
}

void
t_ident_addr(struct bs_identity *id, uint8_t *addr, uint8_t fill)
{
	t_ident(id, fill);
	if (addr != NULL)
		bs_mesh_addr(addr, id->pk);
}

void
t_ident_pk(uint8_t pk[BS_PK_LEN], uint8_t fill)
{
	struct bs_identity id;

	t_ident(&id, fill);
	memcpy(pk, id.pk, BS_PK_LEN);
	bs_identity_wipe(&id);
}
