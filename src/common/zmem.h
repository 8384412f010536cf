/*
 * zmem.h — zeroed memory for large tables that are used sparsely (hash
 * sets indexed by a keyed hash).  calloc(3) may hand out heap that was
 * in use before and must clear it, which makes every page resident
 * whatever the table holds; zmem_alloc() takes fresh anonymous pages
 * from mmap(2), so a page the table never writes is never resident.
 * Builds with AddressSanitizer use calloc, so that it sees the bounds.
 */
#ifndef BATSEC_ZMEM_H
#define BATSEC_ZMEM_H

#include <stddef.h>

/* n zeroed elements of size bytes, or NULL (overflow, no memory). */
void	*zmem_alloc(size_t n, size_t size);
/* Free what zmem_alloc(n, size) returned; NULL is fine. */
void	 zmem_free(void *p, size_t n, size_t size);

#endif /* BATSEC_ZMEM_H */
