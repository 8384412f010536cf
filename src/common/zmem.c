/*
 * zmem.c — zeroed memory for sparsely used tables (zmem.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "zmem.h"

#if defined(__SANITIZE_ADDRESS__)
#define ZMEM_CALLOC	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ZMEM_CALLOC	1
#endif
#endif

void *
zmem_alloc(size_t n, size_t size)
{
#ifdef ZMEM_CALLOC
	return calloc(n, size);
#else
	void *p;

	if (n == 0 || size == 0 || n > SIZE_MAX / size)
		return NULL;
	p = mmap(NULL, n * size, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
#endif
}

void
zmem_free(void *p, size_t n, size_t size)
{
#ifdef ZMEM_CALLOC
	(void)n;
	(void)size;
	free(p);
#else
	if (p != NULL)
		(void)munmap(p, n * size);
#endif
}
