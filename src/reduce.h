// The reduction's needs from the handle.
#ifndef TAILOR_REDUCE_H
#define TAILOR_REDUCE_H

#include "context.h"

// Bytes of scratch one multi-group reduction needs at most on this handle.
size_t reduce_scratch_bytes(const tailor_context *ctx);

#endif
