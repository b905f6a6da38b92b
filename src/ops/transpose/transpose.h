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

// The element-wise kernel: work-items of its group (E_GROUP in
// cl/transpose.cl) and log2 of its tile's elements (TILE_AREA_LOG2 there):
// 16 per work-item of 1- and 2-byte elements, 8 of 4-byte, 2 of 8-byte, 1
// of 16-byte ones.
#define TRANSPOSE_ELEMENTS_GROUP 256
static inline unsigned transpose_elements_area_log2(size_t element_bytes)
{
    return element_bytes >= 16 ? 8 : element_bytes == 8 ? 9 : element_bytes == 4 ? 11 : 12;
}

// The span kernel's tiles (S_AREA_LOG2 in cl/transpose.cl): 8 KiB, two
// 16-byte vectors per work-item each way.
static inline unsigned transpose_spans_area_log2(size_t element_bytes)
{
    return element_bytes == 1 ? 13 : element_bytes == 2 ? 12 : 11;
}

// The realigned kernel (R_* in cl/transpose.cl, which says why these sizes):
// tiles of A of transpose_realigned_rows x transpose_realigned_cols elements, moved in
// 16-byte vectors through local memory that holds, for each tile row and the
// 31 / element_bytes rows below, the vectors covering its run, rows padded
// to an odd number of words and by a word more every vector's worth of rows.
static inline size_t transpose_realigned_rows(size_t element_bytes)
{
    return element_bytes == 1 ? 128 : 256 / element_bytes;
}
static inline size_t transpose_realigned_cols(size_t element_bytes)
{
    return element_bytes == 8 ? 32 : element_bytes == 1 ? 128 : 64;
}
static inline size_t transpose_realigned_local_bytes(size_t element_bytes)
{
    size_t vector = 16 / element_bytes, word = element_bytes < 4 ? 4 / element_bytes : 1;
    size_t rows = transpose_realigned_rows(element_bytes) + 32 / element_bytes - 1;
    size_t pitch = transpose_realigned_cols(element_bytes) + vector + word;
    return ((rows * pitch + rows / vector * word) * element_bytes + 3) / 4 * 4;
}

// The narrow kernels (N_* in cl/transpose.cl): tiles of 2^tile_log2 of the
// short rows (A's or B's lines of at most TRANSPOSE_NARROW_LINE_BYTES; A's
// of at most TRANSPOSE_NARROW_REALIGNED_LINE_BYTES where the realigned
// kernel would take the matrix), about TRANSPOSE_NARROW_AREA_BYTES of them.
// In local memory they take, with the slots at their two ends, the 16 /
// element bytes - 1 rows of A after a tile (transpose_narrow_a) and a word
// (8-byte elements: an element) of padding every 16 bytes of rows
// (transpose_narrow_gathered: a slot and a word more for each of at most 128
// rows), at most TRANSPOSE_NARROW_LOCAL_BYTES (N_LOCAL_WORDS).
#define TRANSPOSE_NARROW_LINE_BYTES 128
#define TRANSPOSE_NARROW_REALIGNED_LINE_BYTES 64
#define TRANSPOSE_NARROW_AREA_BYTES 16384
#define TRANSPOSE_NARROW_LOCAL_BYTES 22528
static inline unsigned transpose_narrow_tile_log2(size_t line_bytes)
{
    unsigned log2 = 0;
    while (((size_t)2 << log2) * line_bytes <= TRANSPOSE_NARROW_AREA_BYTES)
        ++log2;
    return log2;
}

// The word kernel's tile (WORDS_ROWS x WORDS_COLS in cl/transpose.cl): runs
// of B of 32 words, 64 columns of A.
#define TRANSPOSE_WORDS_COLS 64
static inline size_t transpose_words_rows(size_t element_bytes)
{
    return 32 * (4 / element_bytes);
}

#endif
