/* bytes: the encoders' growing output buffer (bytes.h). */
#include <stdlib.h>

#include "etm/bytes.h"

int etm_bytes_reserve(uint8_t **buf, size_t *cap, size_t need)
{
	size_t n = *cap ? *cap : 4096;
	uint8_t *nb;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	nb = realloc(*buf, n);
	if (!nb)
		return -1;
	*buf = nb;
	*cap = n;
	return 0;
}
