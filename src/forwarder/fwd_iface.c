/*
 * fwd_iface.c — lookups in the table of mesh interfaces (fwd_iface.h).
 */
#include "fwd_iface.h"
#include "fwd_types.h"

int
fwd_iface_usable(const struct fwd_iface *v)
{
	return v->ifindex > 0 && v->running && v->rs.fd >= 0;
}

int
fwd_iface_any_usable(const struct fwd_ifaces *ifs)
{
	size_t i;

	for (i = 0; i < ifs->n; i++)
		if (fwd_iface_usable(&ifs->v[i]))
			return 1;
	return 0;
}

int
fwd_iface_find(const struct fwd_ifaces *ifs, uint32_t ifindex)
{
	size_t i;

	for (i = 0; i < ifs->n; i++)
		if (ifindex > 0 && ifs->v[i].ifindex > 0 &&
		    (uint32_t)ifs->v[i].ifindex == ifindex)
			return (int)i;
	return -1;
}

const struct fwd_iface *
fwd_iface_by_index(const struct fwd_ifaces *ifs, uint32_t ifindex)
{
	int i = fwd_iface_find(ifs, ifindex);

	return i >= 0 ? &ifs->v[i] : NULL;
}

struct fwd_iface *
fwd_iface_usable_by_index(struct fwd_ifaces *ifs, uint32_t ifindex)
{
	int i = fwd_iface_find(ifs, ifindex);

	return i >= 0 && fwd_iface_usable(&ifs->v[i]) ? &ifs->v[i] : NULL;
}
