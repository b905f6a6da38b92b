// GEMV's needs from the handle.
#ifndef TAILOR_GEMV_H
#define TAILOR_GEMV_H

#include "context.h"

// Bytes of the per-queue scratch buffer GEMV needs on this handle. Its region
// follows the reduction's (which never writes past reduce_scratch_bytes):
// one ticket per block of a split launch, zero at rest (every launch leaves
// them zero), then the partial results of the slices.
size_t gemv_scratch_bytes(const tailor_context *ctx);

#endif
