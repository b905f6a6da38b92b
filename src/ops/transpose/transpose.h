// Geometry of the transpose kernels that the host shares with
// cl/transpose.cl (which computes the same from its defines), and the
// transpose's descriptor for the runtime (src/ops/operations.c).
#ifndef TAILOR_TRANSPOSE_H
#define TAILOR_TRANSPOSE_H

#include <stddef.h>

#include "operation.h"
#include "tune_task.h"

extern const struct operation transpose_operation;
extern const struct tune_tasks transpose_tune_tasks;

// Elements per vector access: TRANSPOSE_VECTOR_BYTES of them, between 1 and
// 16 (OpenCL's widest vector); one for 16-byte elements, which are vectors.
static inline size_t transpose_vector(int vector_bytes, size_t element_bytes)
{
    size_t vec = element_bytes >= 16 ? 1 : (size_t)vector_bytes / element_bytes;
    return vec < 1 ? 1 : vec > 16 ? 16 : vec;
}

// Register tiles (VEC x VEC elements) per work-item: enough for
// TRANSPOSE_LOADS vector loads in flight, at least one.
static inline size_t transpose_register_tiles(int loads, size_t vec)
{
    size_t items = (size_t)loads / vec;
    return items < 1 ? 1 : items;
}

// Rows of work-items in a local-tile group: enough that each moves
// TRANSPOSE_LOCAL_STEPS vectors of the tile-edge-long tile.
static inline size_t transpose_local_group_rows(int local_steps, size_t tile)
{
    return tile / (size_t)local_steps;
}

// Edge of the element-wise kernel's tile: 128 bytes of a row, 8 to 32
// elements (TILE_E in cl/transpose.cl).
static inline size_t transpose_elements_tile(size_t element_bytes)
{
    return element_bytes >= 16 ? 8 : element_bytes == 8 ? 16 : 32;
}

#endif
