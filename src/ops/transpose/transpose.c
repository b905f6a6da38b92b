// tailor_transpose, tailor_somatcopy and tailor_domatcopy: argument
// checks, the choice of method (the profile's, per element size) and path
// (aligned, edge, unaligned: from the shape, offsets and leading dimensions
// of this call), and the launch.
#include "transpose.h"

#include <stdint.h>
#include <stdio.h>

#include "checks.h"
#include "context.h"
#include "error.h"
#include "launch.h"
#include "symbols.h"

_Static_assert(TUNE_TRANSPOSE_METHOD_2 == TUNE_TRANSPOSE_METHOD_1 + 1 &&
                   TUNE_TRANSPOSE_METHOD_4 == TUNE_TRANSPOSE_METHOD_1 + 2 &&
                   TUNE_TRANSPOSE_METHOD_8 == TUNE_TRANSPOSE_METHOD_1 + 3 &&
                   TUNE_TRANSPOSE_METHOD_16 == TUNE_TRANSPOSE_METHOD_1 + 4,
               "the per-size methods are indexed by log2 of the element size");

// By method, then element type: log2 of the element size, then scaled f32 and f64.
static const enum program_id method_programs[3][7] = {
    [TRANSPOSE_LOCAL] = {PROGRAM_TRANSPOSE_LOCAL_1, PROGRAM_TRANSPOSE_LOCAL_2,
                         PROGRAM_TRANSPOSE_LOCAL_4, PROGRAM_TRANSPOSE_LOCAL_8,
                         PROGRAM_TRANSPOSE_LOCAL_16, PROGRAM_TRANSPOSE_LOCAL_SCALED_F32,
                         PROGRAM_TRANSPOSE_LOCAL_SCALED_F64},
    [TRANSPOSE_REGISTERS] = {PROGRAM_TRANSPOSE_REGISTERS_1, PROGRAM_TRANSPOSE_REGISTERS_2,
                             PROGRAM_TRANSPOSE_REGISTERS_4, PROGRAM_TRANSPOSE_REGISTERS_8,
                             PROGRAM_TRANSPOSE_REGISTERS_16, PROGRAM_TRANSPOSE_REGISTERS_SCALED_F32,
                             PROGRAM_TRANSPOSE_REGISTERS_SCALED_F64},
    [TRANSPOSE_CPU] = {PROGRAM_TRANSPOSE_CPU_1, PROGRAM_TRANSPOSE_CPU_2, PROGRAM_TRANSPOSE_CPU_4,
                       PROGRAM_TRANSPOSE_CPU_8, PROGRAM_TRANSPOSE_CPU_16,
                       PROGRAM_TRANSPOSE_CPU_SCALED_F32, PROGRAM_TRANSPOSE_CPU_SCALED_F64},
};

enum scaling { SCALING_NONE, SCALING_F32, SCALING_F64 };

struct transpose_call {
    tailor_context *ctx;
    cl_command_queue queue;
    size_t element_bytes;
    int size_log2;
    enum scaling scaling;
    cl_float alpha_f32;
    cl_double alpha_f64;
    cl_ulong rows, cols;
    cl_mem a;
    cl_ulong a_offset, lda;
    cl_mem b;
    cl_ulong b_offset, ldb;
    cl_uint wait_count;
    const cl_event *wait_list;
    cl_event *event;
};

static int size_log2_of(size_t element_bytes)
{
    for (int e = 0; e < 5; ++e)
        if (element_bytes == (size_t)1 << e)
            return e;
    return -1;
}

// The memory object a buffer lives in (its parent for a sub-buffer) and
// where in it the buffer starts.
static tailor_status buffer_origin(cl_mem buffer, const char *name, cl_mem *root, size_t *origin)
{
    cl_mem parent = NULL;
    *root = buffer;
    *origin = 0;
    REQUIRE(clGetMemObjectInfo(buffer, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL) ==
                CL_SUCCESS,
            TAILOR_ERROR_INVALID_BUFFER, "buffer %s is not a valid memory object", name);
    if (!parent)
        return TAILOR_SUCCESS;
    REQUIRE(clGetMemObjectInfo(buffer, CL_MEM_OFFSET, sizeof *origin, origin, NULL) == CL_SUCCESS,
            TAILOR_ERROR_INVALID_BUFFER, "buffer %s is not a valid memory object", name);
    *root = parent;
    return TAILOR_SUCCESS;
}

// A and B may share memory (one buffer, or sub-buffers of one) only where
// their byte ranges, from the first element to the last, are disjoint.
// check_matrix has made sure none of these sums overflows.
static tailor_status check_overlap(const struct transpose_call *c)
{
    cl_mem a_root = c->a, b_root = c->b;
    size_t a_origin = 0, b_origin = 0;
    if (c->a != c->b) {
        tailor_status status = buffer_origin(c->a, "a", &a_root, &a_origin);
        if (status == TAILOR_SUCCESS)
            status = buffer_origin(c->b, "b", &b_root, &b_origin);
        if (status != TAILOR_SUCCESS || a_root != b_root)
            return status;
    }
    size_t e = c->element_bytes;
    size_t a_bytes = (size_t)((c->rows - 1) * c->lda + c->cols) * e;
    size_t b_bytes = (size_t)((c->cols - 1) * c->ldb + c->rows) * e;
    size_t a_start = a_origin + (size_t)c->a_offset * e, b_start = b_origin + (size_t)c->b_offset * e;
    REQUIRE(!ranges_overlap(a_start, a_bytes, b_start, b_bytes), TAILOR_ERROR_BUFFERS_OVERLAP,
            "a (bytes %zu to %zu) and b (bytes %zu to %zu) overlap in one buffer", a_start,
            a_start + a_bytes, b_start, b_start + b_bytes);
    return TAILOR_SUCCESS;
}

static const char *const method_names[] = {
    [TRANSPOSE_LOCAL] = "local-tile",
    [TRANSPOSE_REGISTERS] = "registers",
    [TRANSPOSE_CPU] = "cpu-blocked",
};

// The local tile of `element_bytes` elements fits the group and local memory
// and divides into steps of whole rows of work-items.
static tailor_status check_local_tile(const int *t, const tailor_device_info *facts,
                                      size_t element_bytes)
{
    size_t tile = (size_t)t[TUNE_TRANSPOSE_WG_X] *
                  transpose_vector(t[TUNE_TRANSPOSE_VECTOR_BYTES], element_bytes);
    int steps = t[TUNE_TRANSPOSE_LOCAL_STEPS];
    REQUIRE((size_t)steps <= tile, TAILOR_ERROR_INVALID_PROFILE,
            "TRANSPOSE_LOCAL_STEPS=%d exceeds the %zu-element local tile of %zu-byte elements", steps,
            tile, element_bytes);
    size_t group = (size_t)t[TUNE_TRANSPOSE_WG_X] * transpose_local_group_rows(steps, tile);
    REQUIRE(group <= facts->max_work_group_size, TAILOR_ERROR_INVALID_PROFILE,
            "the local-tile group of %zu-byte elements has %zu work-items; the device takes %zu",
            element_bytes, group, facts->max_work_group_size);
    size_t local = tile * (tile + (size_t)t[TUNE_TRANSPOSE_LOCAL_PAD]) * element_bytes;
    REQUIRE(local_memory_fits(facts, local), TAILOR_ERROR_INVALID_PROFILE,
            "the local tile of %zu-byte elements needs %zu bytes; the device has %llu", element_bytes,
            local, (unsigned long long)facts->local_mem_bytes);
    return TAILOR_SUCCESS;
}

// Every element size's method has a group the device takes and, for local
// tiles, a tile that fits.
static tailor_status check(const struct profile *profile, const tailor_device_info *facts)
{
    const int *t = profile->tune;
    size_t group = (size_t)t[TUNE_TRANSPOSE_WG_X] * (size_t)t[TUNE_TRANSPOSE_WG_Y];
    for (int e = 0; e < 5; ++e) {
        int method = t[TUNE_TRANSPOSE_METHOD_1 + e];
        REQUIRE(method == TRANSPOSE_LOCAL || group <= facts->max_work_group_size,
                TAILOR_ERROR_INVALID_PROFILE,
                "TRANSPOSE_WG_X * TRANSPOSE_WG_Y = %zu exceeds the device's %zu", group,
                facts->max_work_group_size);
        tailor_status status = method == TRANSPOSE_LOCAL ? check_local_tile(t, facts, (size_t)1 << e)
                                                         : TAILOR_SUCCESS;
        if (status != TAILOR_SUCCESS)
            return status;
    }
    return TAILOR_SUCCESS;
}

// One launch: the program and kernel for the method and path, 1-D groups of
// `group` work-items, each group one tile of tile_rows x tile_cols elements of A.
struct launch_plan {
    struct op_plan op;
    int method;
    size_t vec, tile_rows, tile_cols, tiles_x, tiles, group;
    // The copy kernels: elements, the strides of A and B, whether both
    // sides are contiguous and VEC-aligned.
    cl_ulong count, a_stride, b_stride;
    int copy_aligned;
    unsigned tile_cols_log2; // the element-wise and span kernels' tile; the narrow kernel's short rows
    cl_uint span_modes;      // the span kernel: bit 0 A, bit 1 B as one span
    cl_ulong copy_run;       // the CPU method's copies: elements per work-item
    cl_uint row_shift;       // the realigned kernel: rows its tiles start above multiples of theirs
    cl_uint peel_rows, peel_cols; // the peeled kernel: A's rows and columns before the interior
};

// The cache line of CPUs (CPU_LINE_BYTES in cl/transpose.cl).
#define CPU_LINE_BYTES 64

// Work-items of a copy group, and the items each moves (COPY_STEPS in
// cl/transpose.cl).
#define COPY_GROUP 256
#define COPY_STEPS 4
#define COPY_RUNS_PER_UNIT 4
#define COPY_RUN_MIN 4096

// One row or one column: B is A's elements in the same order, a copy of
// contiguous runs or with one stride (the column of A, lda apart, or the
// column of B, ldb apart).
static tailor_status plan_copy(const struct transpose_call *c, struct launch_plan *p)
{
    p->count = c->rows * c->cols;
    p->a_stride = c->rows > 1 ? c->lda : 1;
    p->b_stride = c->cols > 1 ? c->ldb : 1;
    size_t group = c->ctx->info.max_work_group_size;
    p->group = group < COPY_GROUP ? group : COPY_GROUP;
    cl_ulong vec = p->vec, contiguous = p->a_stride == 1 && p->b_stride == 1;
    cl_ulong items = contiguous ? p->count / vec : p->count;
    cl_ulong groups = (items - 1 + (cl_ulong)p->group * COPY_STEPS) / ((cl_ulong)p->group * COPY_STEPS);
    // The contiguous kernel's whole range also moves the count % VEC last elements.
    if (contiguous && groups * p->group < p->count % vec)
        groups = (p->count % vec - 1) / p->group + 1;
    REQUIRE(groups <= UINT32_MAX, TAILOR_ERROR_UNSUPPORTED,
            "a copy of %llu elements needs more than 2^32 work-groups", (unsigned long long)p->count);
    p->tiles = groups ? (size_t)groups : 1;
    p->copy_aligned = c->a_offset % vec == 0 && c->b_offset % vec == 0 &&
                      vec * c->element_bytes * 8 <= c->ctx->info.mem_base_addr_align_bits;
    p->op.kernel = contiguous ? KERNEL_TRANSPOSE_COPY : KERNEL_TRANSPOSE_COPY_STRIDED;
    if (p->method == TRANSPOSE_CPU) {
        // About COPY_RUNS_PER_UNIT runs per compute unit, none shorter than
        // COPY_RUN_MIN elements.
        cl_ulong units = c->ctx->info.compute_units ? c->ctx->info.compute_units : 1;
        cl_ulong run = (p->count - 1) / (units * COPY_RUNS_PER_UNIT) + 1;
        p->copy_run = run > COPY_RUN_MIN ? run : COPY_RUN_MIN;
        p->group = 1;
        p->tiles = (size_t)((p->count - 1) / p->copy_run + 1);
        p->op.kernel = contiguous ? KERNEL_TRANSPOSE_COPY_CONTIGUOUS_RUNS : KERNEL_TRANSPOSE_COPY_RUNS;
    }
    snprintf(p->op.variant, sizeof p->op.variant, "%s%s%s", kernel_table[p->op.kernel].variant,
             p->op.kernel == KERNEL_TRANSPOSE_COPY && !p->copy_aligned ? "-unaligned" : "",
             c->scaling != SCALING_NONE ? "/scaled" : "");
    return TAILOR_SUCCESS;
}

static unsigned log2_ceil(cl_ulong n)
{
    unsigned l = 0;
    while (((cl_ulong)1 << l) < n)
        ++l;
    return l;
}

// The grid of tile_rows x tile_cols tiles for the element-wise and word
// kernels' groups of TRANSPOSE_ELEMENTS_GROUP work-items and `local_bytes`
// of local memory. Returns 0 where the device takes no such group or tile,
// or the grid needs more than 2^32 groups (the method's own kernels run).
static int plan_small_tiles(const struct transpose_call *c, struct launch_plan *p,
                            cl_ulong tile_rows, cl_ulong tile_cols, size_t local_bytes)
{
    const tailor_device_info *facts = &c->ctx->info;
    cl_ulong tiles_x = (c->cols - 1) / tile_cols + 1, tiles_y = (c->rows - 1) / tile_rows + 1;
    if (facts->max_work_group_size < TRANSPOSE_ELEMENTS_GROUP ||
        !local_memory_fits(facts, local_bytes) || tiles_y > UINT32_MAX / tiles_x)
        return 0;
    p->group = TRANSPOSE_ELEMENTS_GROUP;
    p->tile_rows = (size_t)tile_rows;
    p->tile_cols = (size_t)tile_cols;
    p->tiles_x = (size_t)tiles_x;
    p->tiles = (size_t)(tiles_x * tiles_y);
    return 1;
}

// Log2 of the columns of a tile of 2^area_log2 elements: about square, or
// as many columns wide as the matrix has where that is fewer (as many rows
// tall where it has fewer rows).
static unsigned small_tile_cols_log2(const struct transpose_call *c, unsigned area_log2)
{
    unsigned cols_log2 = area_log2 / 2;
    if (c->cols < ((cl_ulong)1 << cols_log2))
        cols_log2 = log2_ceil(c->cols);
    else if (c->rows < ((cl_ulong)1 << (area_log2 - cols_log2)))
        cols_log2 = area_log2 - log2_ceil(c->rows);
    if (cols_log2 < 1)
        cols_log2 = 1;
    if (cols_log2 > area_log2 - 1)
        cols_log2 = area_log2 - 1;
    return cols_log2;
}

// GPU methods, for rows that are not vector-aligned (vloadn on NVIDIA is an
// access per element at stride VEC) where vectors hold four or more
// elements, or matrices narrower than half a group's tile: the element-wise
// kernel's tiles.
static int plan_elements(const struct transpose_call *c, struct launch_plan *p, int unaligned)
{
    size_t e = c->element_bytes;
    unsigned area_log2 = transpose_elements_area_log2(e), cols_log2 = small_tile_cols_log2(c, area_log2);
    size_t local = ((size_t)1 << area_log2) * 3 / 2 * e;
    if (!plan_small_tiles(c, p, (cl_ulong)1 << (area_log2 - cols_log2), (cl_ulong)1 << cols_log2,
                          local))
        return 0;
    p->tile_cols_log2 = cols_log2;
    p->op.kernel = KERNEL_TRANSPOSE_ELEMENTS;
    snprintf(p->op.variant, sizeof p->op.variant, "elements-%zux%zu/%s%s", p->tile_rows,
             p->tile_cols, unaligned ? "unaligned" : "narrow",
             c->scaling != SCALING_NONE ? "/scaled" : "");
    return 1;
}

// Whether one side of the element-wise tile moves in aligned 16-byte
// vectors: as the tile's rows (`length` elements of a row, `tile_length` of
// them in a tile, `tile_lines` rows) or, returned in *span, as one span of
// packed rows that the tile holds whole.
static int spans_side(size_t e, cl_ulong offset, cl_ulong ld, cl_ulong length, size_t tile_length,
                      size_t tile_lines, int *span)
{
    if ((offset * e) % 16)
        return 0;
    *span = 0;
    if ((ld * e) % 16 == 0 && (tile_length * e) % 16 == 0)
        return 1;
    *span = 1;
    return ld == length && length <= tile_length && (tile_lines * length * e) % 16 == 0;
}

// GPU methods, narrow matrices of 1-, 2- and 4-byte elements whose sides both
// allow 16-byte vectors (spans_side): tiles shaped as the element-wise
// kernel's (planned before, which stays where these do not fit), of
// transpose_spans_area_log2 elements, through the span kernel.
static void plan_spans(const struct transpose_call *c, struct launch_plan *p)
{
    size_t e = c->element_bytes;
    if (e > 4 || c->scaling != SCALING_NONE || c->ctx->info.mem_base_addr_align_bits < 128)
        return;
    unsigned area_log2 = transpose_spans_area_log2(e), cols_log2 = small_tile_cols_log2(c, area_log2);
    size_t tile_cols = (size_t)1 << cols_log2, tile_rows = (size_t)1 << (area_log2 - cols_log2);
    int a_span, b_span;
    struct launch_plan spans = *p;
    if (tile_cols * e < 8 || !spans_side(e, c->a_offset, c->lda, c->cols, tile_cols, tile_rows, &a_span) ||
        !spans_side(e, c->b_offset, c->ldb, c->rows, tile_rows, tile_cols, &b_span) ||
        !plan_small_tiles(c, &spans, tile_rows, tile_cols, ((size_t)2 << area_log2) * e))
        return;
    *p = spans;
    p->tile_cols_log2 = cols_log2;
    p->span_modes = (cl_uint)(a_span | b_span << 1);
    p->op.kernel = KERNEL_TRANSPOSE_SPANS;
    snprintf(p->op.variant, sizeof p->op.variant, "spans-%zux%zu/%s-%s", p->tile_rows, p->tile_cols,
             a_span ? "span" : "rows", b_span ? "span" : "rows");
}

// GPU methods, misaligned rows of 1-byte elements: tiles of
// transpose_words_rows x TRANSPOSE_WORDS_COLS elements read and written as
// aligned 32-bit words. (Of 2-byte elements, words ran at 53% of the
// aligned case on the H100 where the element-wise tiles reach 65%.)
static int plan_words(const struct transpose_call *c, struct launch_plan *p)
{
    size_t e = c->element_bytes, tile_rows = transpose_words_rows(e);
    size_t local = tile_rows * (TRANSPOSE_WORDS_COLS + 1) * e;
    if (!plan_small_tiles(c, p, tile_rows, TRANSPOSE_WORDS_COLS, local))
        return 0;
    p->op.kernel = KERNEL_TRANSPOSE_WORDS;
    snprintf(p->op.variant, sizeof p->op.variant, "words-%zux%d/unaligned", tile_rows,
             TRANSPOSE_WORDS_COLS);
    return 1;
}

// GPU methods, rows that are not vector-aligned, of the element sizes
// TRANSPOSE_REALIGN names: the realigned kernel, every access but those on
// the matrix's border an aligned 16-byte vector. Needs buffers that start
// 16-byte aligned.
static int plan_realigned(const struct transpose_call *c, struct launch_plan *p)
{
    size_t e = c->element_bytes;
    if (c->ctx->info.mem_base_addr_align_bits < 128 ||
        !plan_small_tiles(c, p, transpose_realigned_rows(e), transpose_realigned_cols(e),
                          transpose_realigned_local_bytes(e)))
        return 0;
    // Where every row of B starts at the same place of a 128-byte line, the
    // tiles move up so that their runs of B start on line boundaries: runs
    // that split every row's lines between two tiles at the same place were
    // slow on the H100 where B's rows lie a multiple of 256 bytes apart.
    // (Not where the extra tile row would take the grid past 2^32 groups.)
    cl_ulong line = 128 / e, shift = c->ldb % line == 0 ? c->b_offset % line : 0;
    cl_ulong shifted_tiles_y = (c->rows + shift - 1) / p->tile_rows + 1;
    if (shift && shifted_tiles_y <= UINT32_MAX / p->tiles_x)
        p->tiles = (size_t)(p->tiles_x * shifted_tiles_y);
    else
        shift = 0;
    p->row_shift = (cl_uint)shift;
    p->op.kernel = KERNEL_TRANSPOSE_REALIGNED;
    snprintf(p->op.variant, sizeof p->op.variant, "realigned-%zux%zu/unaligned%s", p->tile_rows,
             p->tile_cols, c->scaling != SCALING_NONE ? "/scaled" : "");
    return 1;
}

// GPU methods, narrow matrices whose rows are off the vectors, of elements
// under 16 bytes: the narrow kernels where A's or B's lines (leading
// dimension) are at most TRANSPOSE_NARROW_LINE_BYTES; A's at most
// TRANSPOSE_NARROW_REALIGNED_LINE_BYTES where the realigned kernel would
// take the matrix (`realigned`), which moved longer lines of A faster.
// transpose_narrow_a where A's are short and no longer than B's; else, B's
// short rows packed of 1- to 4-byte elements to transpose_narrow_b, packed
// of 8-byte elements or of 1- and 2-byte elements with gaps between them to
// transpose_narrow_gathered, the faster for each. B's short rows of 4- and
// 8-byte elements with gaps stay with the element-wise kernel, which moved
// them faster than either (doc/performance.md). Needs buffers that start
// 16-byte aligned. A matrix of fewer tiles than compute units takes shorter
// ones, down to a 16-byte slot's elements (the shortest run the kernels'
// slots cover): a tile's rounds of loads and stores are then the time.
static int plan_narrow(const struct transpose_call *c, struct launch_plan *p, int realigned)
{
    const tailor_device_info *facts = &c->ctx->info;
    size_t e = c->element_bytes;
    int a_short = c->lda * e <= (realigned ? TRANSPOSE_NARROW_REALIGNED_LINE_BYTES
                                           : TRANSPOSE_NARROW_LINE_BYTES);
    int b_short = c->ldb * e <= TRANSPOSE_NARROW_LINE_BYTES && (e <= 2 || c->ldb == c->rows);
    if (e >= 16 || (!a_short && !b_short) || facts->mem_base_addr_align_bits < 128 ||
        facts->max_work_group_size < TRANSPOSE_ELEMENTS_GROUP ||
        !local_memory_fits(facts, TRANSPOSE_NARROW_LOCAL_BYTES))
        return 0;
    int mode = a_short && (!b_short || c->lda <= c->ldb) ? 0 : 1;
    unsigned tile_log2 = transpose_narrow_tile_log2((size_t)(mode == 0 ? c->lda : c->ldb) * e);
    cl_ulong length = mode == 0 ? c->rows : c->cols, tiles = ((length - 1) >> tile_log2) + 1;
    while (tiles < facts->compute_units && ((size_t)1 << tile_log2) * e > 16)
        tiles = ((length - 1) >> --tile_log2) + 1;
    if (tiles > UINT32_MAX)
        return 0;
    p->group = TRANSPOSE_ELEMENTS_GROUP;
    p->tiles = (size_t)tiles;
    p->tile_cols_log2 = tile_log2;
    p->op.kernel = mode == 0                        ? KERNEL_TRANSPOSE_NARROW_A
                   : c->ldb == c->rows && e <= 4 ? KERNEL_TRANSPOSE_NARROW_B
                                                   : KERNEL_TRANSPOSE_NARROW_GATHERED;
    snprintf(p->op.variant, sizeof p->op.variant, "%s%llu/unaligned%s",
             kernel_table[p->op.kernel].variant, (unsigned long long)1 << tile_log2,
             c->scaling != SCALING_NONE ? "/scaled" : "");
    return 1;
}

// Whether the realigned kernel suits a narrow matrix: B's runs in its tiles
// at least a 128-byte line (shorter ones hold too few whole vectors, and B
// goes element by element behind a tile's loads), and rows of A of more
// than half its tile's width of 4- and 8-byte elements, of 24 bytes or more
// of 1- and 2-byte ones (on narrower rows each vector loaded holds too
// little of them).
static int realigned_pays(const struct transpose_call *c)
{
    size_t e = c->element_bytes;
    return c->rows * e >= 128 &&
           (e <= 2 ? c->cols * e >= 24 : c->cols * 2 > transpose_realigned_cols(e));
}

static tailor_status plan_launch(const struct transpose_call *c, struct launch_plan *p)
{
    const int *t = c->ctx->profile.tune;
    size_t wg_x = (size_t)t[TUNE_TRANSPOSE_WG_X], wg_y = (size_t)t[TUNE_TRANSPOSE_WG_Y];
    p->method = t[TUNE_TRANSPOSE_METHOD_1 + c->size_log2];
    int type = c->scaling == SCALING_F32 ? 5 : c->scaling == SCALING_F64 ? 6 : c->size_log2;
    p->op.program = method_programs[p->method][type];
    p->op.launches = 1;
    p->vec = transpose_vector(t[TUNE_TRANSPOSE_VECTOR_BYTES], c->element_bytes);
    p->group = wg_x * wg_y;
    if (c->rows == 1 || c->cols == 1)
        return plan_copy(c, p);
    if (p->method == TRANSPOSE_LOCAL) {
        p->tile_cols = p->tile_rows = wg_x * p->vec;
        p->group = wg_x * transpose_local_group_rows(t[TUNE_TRANSPOSE_LOCAL_STEPS], p->tile_cols);
    } else if (p->method == TRANSPOSE_REGISTERS) {
        p->tile_cols = wg_x * p->vec;
        p->tile_rows = wg_y * p->vec * transpose_register_tiles(t[TUNE_TRANSPOSE_LOADS], p->vec);
    } else {
        p->tile_cols = wg_x * (size_t)t[TUNE_TRANSPOSE_CPU_BLOCK];
        p->tile_rows = wg_y * (size_t)t[TUNE_TRANSPOSE_CPU_BLOCK];
    }
    // Vector pointers need VEC-element alignment of every row of A and B;
    // buffers start at CL_DEVICE_MEM_BASE_ADDR_ALIGN.
    cl_ulong vec = p->vec;
    int rows_aligned = c->lda % vec == 0 && c->ldb % vec == 0 &&
                       vec * c->element_bytes * 8 <= c->ctx->info.mem_base_addr_align_bits;
    int vectors = rows_aligned && c->a_offset % vec == 0 && c->b_offset % vec == 0;
    // CPU blocks of aligned rows at misaligned offsets move all but the rows
    // and columns before the first aligned elements in aligned vectors, where
    // the matrix spans two groups each way: those rows and columns go element
    // by element on one side, which costs more than it saves in smaller
    // matrices and for bytes (doc/performance.md).
    int peeled = 0;
    if (p->method == TRANSPOSE_CPU && rows_aligned && !vectors && c->element_bytes > 1 &&
        c->rows >= 2 * p->tile_rows && c->cols >= 2 * p->tile_cols) {
        p->peel_rows = (cl_uint)((vec - c->b_offset % vec) % vec);
        p->peel_cols = (cl_uint)((vec - c->a_offset % vec) % vec);
        peeled = 1;
    }
    cl_ulong tiled_rows = peeled ? c->rows - p->peel_rows : c->rows;
    cl_ulong tiled_cols = peeled ? c->cols - p->peel_cols : c->cols;
    cl_ulong tiles_x = (tiled_cols - 1) / p->tile_cols + 1, tiles_y = (tiled_rows - 1) / p->tile_rows + 1;
    REQUIRE(tiles_y <= UINT32_MAX / tiles_x, TAILOR_ERROR_UNSUPPORTED,
            "a %llu x %llu matrix needs more than 2^32 work-groups of this profile",
            (unsigned long long)c->rows, (unsigned long long)c->cols);
    p->tiles_x = (size_t)tiles_x;
    p->tiles = (size_t)(tiles_x * tiles_y);
    int whole_tiles = c->rows % p->tile_rows == 0 && c->cols % p->tile_cols == 0;
    int narrow = c->rows * 2 <= p->tile_rows || c->cols * 2 <= p->tile_cols;
    int realign = c->element_bytes < 16 && (t[TUNE_TRANSPOSE_REALIGN] >> c->size_log2 & 1);
    if (p->method != TRANSPOSE_CPU && !vectors && !narrow) {
        if (realign && (plan_narrow(c, p, 1) || plan_realigned(c, p)))
            return TAILOR_SUCCESS;
        if (c->scaling == SCALING_NONE && c->element_bytes == 1 && plan_words(c, p))
            return TAILOR_SUCCESS;
    }
    // Misaligned vectors of four or more elements cost that many accesses
    // each; those of two (8-byte elements) still beat single elements.
    // Narrow misaligned matrices that the span kernel does not take go to
    // the narrow kernels where their lines are short (plan_narrow), else to
    // the realigned kernel where its tiles fill (realigned_pays).
    if (p->method != TRANSPOSE_CPU && ((!vectors && vec >= 4) || narrow) &&
        plan_elements(c, p, !vectors)) {
        if (narrow)
            plan_spans(c, p);
        if (narrow && !vectors && p->op.kernel != KERNEL_TRANSPOSE_SPANS && realign) {
            int pays = realigned_pays(c);
            if (!plan_narrow(c, p, pays) && pays)
                plan_realigned(c, p);
        }
        return TAILOR_SUCCESS;
    }
    p->op.kernel = peeled        ? KERNEL_TRANSPOSE_PEELED
                   : !vectors    ? KERNEL_TRANSPOSE_UNALIGNED
                   : whole_tiles ? KERNEL_TRANSPOSE_ALIGNED
                                 : KERNEL_TRANSPOSE_EDGE;
    // CPU kernels stream a B larger than the caches past them, where B's
    // rows start on cache lines: streamed stores that cover parts of two
    // lines each are written out as partial lines.
    cl_ulong stream_bytes = (cl_ulong)t[TUNE_TRANSPOSE_CPU_STREAM_BYTES];
    int b_lines = (c->b_offset * c->element_bytes) % CPU_LINE_BYTES == 0 &&
                  (c->ldb * c->element_bytes) % CPU_LINE_BYTES == 0;
    if (p->method == TRANSPOSE_CPU && vectors && b_lines && stream_bytes &&
        c->rows * c->cols >= stream_bytes / c->element_bytes)
        p->op.kernel = whole_tiles ? KERNEL_TRANSPOSE_ALIGNED_STREAM : KERNEL_TRANSPOSE_EDGE_STREAM;
    const char *path = kernel_table[p->op.kernel].variant;
    const char *scaled = c->scaling != SCALING_NONE ? "/scaled" : "";
    if (p->method == TRANSPOSE_CPU)
        snprintf(p->op.variant, sizeof p->op.variant, "%s-%d/%s%s", method_names[p->method],
                 t[TUNE_TRANSPOSE_CPU_BLOCK], path, scaled);
    else
        snprintf(p->op.variant, sizeof p->op.variant, "%s-%zux%zu/%s%s", method_names[p->method],
                 p->method == TRANSPOSE_LOCAL ? p->tile_rows : p->vec,
                 p->method == TRANSPOSE_LOCAL ? p->tile_cols : p->vec, path, scaled);
    return TAILOR_SUCCESS;
}

static void args_alpha(struct kernel_args *args, const struct transpose_call *c)
{
    if (c->scaling == SCALING_F32)
        args_f32(args, c->alpha_f32);
    else if (c->scaling == SCALING_F64)
        args_f64(args, c->alpha_f64);
}

static tailor_status launch_copy(const struct transpose_call *c, const struct launch_plan *plan)
{
    struct kernel_args args = {0};
    args_u64(&args, plan->count);
    args_mem(&args, c->a);
    args_u64(&args, c->a_offset);
    int strided = plan->op.kernel == KERNEL_TRANSPOSE_COPY_STRIDED ||
                  plan->op.kernel == KERNEL_TRANSPOSE_COPY_RUNS;
    if (strided)
        args_u64(&args, plan->a_stride);
    args_mem(&args, c->b);
    args_u64(&args, c->b_offset);
    if (strided)
        args_u64(&args, plan->b_stride);
    else if (plan->op.kernel == KERNEL_TRANSPOSE_COPY)
        args_u32(&args, (cl_uint)plan->copy_aligned);
    if (plan->op.kernel == KERNEL_TRANSPOSE_COPY_RUNS ||
        plan->op.kernel == KERNEL_TRANSPOSE_COPY_CONTIGUOUS_RUNS)
        args_u64(&args, plan->copy_run);
    args_alpha(&args, c);
    size_t global = plan->tiles * plan->group;
    return kernel_launch(c->ctx, plan->op.program, plan->op.kernel, &args, c->queue, 1, &global,
                         &plan->group, c->wait_count, c->wait_list, c->event);
}

static tailor_status launch(const struct transpose_call *c, const struct launch_plan *plan)
{
    if (plan->op.kernel == KERNEL_TRANSPOSE_COPY || plan->op.kernel == KERNEL_TRANSPOSE_COPY_STRIDED ||
        plan->op.kernel == KERNEL_TRANSPOSE_COPY_RUNS ||
        plan->op.kernel == KERNEL_TRANSPOSE_COPY_CONTIGUOUS_RUNS)
        return launch_copy(c, plan);
    struct kernel_args args = {0};
    args_u64(&args, c->rows);
    args_u64(&args, c->cols);
    args_mem(&args, c->a);
    args_u64(&args, c->a_offset);
    args_u64(&args, c->lda);
    args_mem(&args, c->b);
    args_u64(&args, c->b_offset);
    args_u64(&args, c->ldb);
    int narrow = plan->op.kernel == KERNEL_TRANSPOSE_NARROW_A ||
                 plan->op.kernel == KERNEL_TRANSPOSE_NARROW_B ||
                 plan->op.kernel == KERNEL_TRANSPOSE_NARROW_GATHERED;
    if (!narrow)
        args_u32(&args, (cl_uint)plan->tiles_x);
    if (plan->op.kernel == KERNEL_TRANSPOSE_PEELED) {
        args_u32(&args, plan->peel_rows);
        args_u32(&args, plan->peel_cols);
    }
    if (plan->op.kernel == KERNEL_TRANSPOSE_ELEMENTS || plan->op.kernel == KERNEL_TRANSPOSE_SPANS ||
        narrow)
        args_u32(&args, plan->tile_cols_log2);
    if (plan->op.kernel == KERNEL_TRANSPOSE_SPANS)
        args_u32(&args, plan->span_modes);
    // The word, realigned and narrow kernels: one past A's last element,
    // counted from the buffer's start.
    if (plan->op.kernel == KERNEL_TRANSPOSE_WORDS || plan->op.kernel == KERNEL_TRANSPOSE_REALIGNED ||
        narrow)
        args_u64(&args, c->a_offset + (c->rows - 1) * c->lda + c->cols);
    if (plan->op.kernel == KERNEL_TRANSPOSE_REALIGNED)
        args_u32(&args, plan->row_shift);
    args_alpha(&args, c);
    size_t global = plan->tiles * plan->group;
    return kernel_launch(c->ctx, plan->op.program, plan->op.kernel, &args, c->queue, 1, &global,
                         &plan->group, c->wait_count, c->wait_list, c->event);
}

// The leading dimensions, checked before the quick return.
static tailor_status check_leading_dimensions(const struct transpose_call *c)
{
    REQUIRE(c->lda >= c->cols && c->lda >= 1, TAILOR_ERROR_INVALID_LEADING_DIMENSION,
            "lda is %llu, less than the %llu columns of a (and at least 1)",
            (unsigned long long)c->lda, (unsigned long long)c->cols);
    REQUIRE(c->ldb >= c->rows && c->ldb >= 1, TAILOR_ERROR_INVALID_LEADING_DIMENSION,
            "ldb is %llu, less than the %llu columns of b (the rows of a, and at least 1)",
            (unsigned long long)c->ldb, (unsigned long long)c->rows);
    return operation_ready(c->ctx, OP_TRANSPOSE);
}

// Everything after the handle and the element size: queue, wait list,
// leading dimensions, the quick return, buffers, overlap; then the launch.
static tailor_status transpose(const struct transpose_call *c)
{
    tailor_status status = check_enqueue(c->ctx, c->queue, c->wait_count, c->wait_list);
    if (status == TAILOR_SUCCESS)
        status = check_leading_dimensions(c);
    if (status != TAILOR_SUCCESS)
        return status;
    if (c->rows == 0 || c->cols == 0)
        return enqueue_nothing(c->queue, c->wait_count, c->wait_list, c->event);
    status = check_matrix(c->ctx, c->a, "a", c->a_offset, c->rows, c->cols, c->lda,
                          c->element_bytes, BUFFER_READ);
    if (status == TAILOR_SUCCESS)
        status = check_matrix(c->ctx, c->b, "b", c->b_offset, c->cols, c->rows, c->ldb,
                              c->element_bytes, BUFFER_WRITE);
    if (status == TAILOR_SUCCESS)
        status = check_overlap(c);
    struct launch_plan plan = {0};
    if (status == TAILOR_SUCCESS)
        status = plan_launch(c, &plan);
    if (status == TAILOR_SUCCESS)
        status = launch(c, &plan);
    if (status == TAILOR_SUCCESS)
        variant_set(plan.op.variant);
    return status;
}

static tailor_status explain(tailor_context *ctx, const tailor_call *call, struct op_plan *plan)
{
    size_t element_bytes = call->element_bytes ? call->element_bytes : 4;
    int size_log2 = size_log2_of(element_bytes);
    REQUIRE(size_log2 >= 0, TAILOR_ERROR_INVALID_ELEMENT_SIZE,
            "element_bytes is %zu; 1, 2, 4, 8 and 16 are supported", element_bytes);
    REQUIRE(!call->scaled || (unsigned)call->dtype <= TAILOR_3XTF32, TAILOR_ERROR_UNKNOWN_DTYPE,
            "%d is not a tailor_dtype", (int)call->dtype);
    REQUIRE(!call->scaled || call->dtype == TAILOR_F32 || call->dtype == TAILOR_F64,
            TAILOR_ERROR_UNSUPPORTED, "a scaled transpose is tailor_somatcopy (f32) or "
            "tailor_domatcopy (f64)");
    int f64 = call->scaled && call->dtype == TAILOR_F64;
    REQUIRE(!f64 || ctx->profile.has_fp64, TAILOR_ERROR_UNSUPPORTED,
            "tailor_domatcopy needs cl_khr_fp64, which %s lacks", ctx->info.device_name);
    struct transpose_call c = {
        .ctx = ctx,
        .element_bytes = call->scaled ? (f64 ? 8 : 4) : element_bytes,
        .size_log2 = call->scaled ? (f64 ? 3 : 2) : size_log2,
        .scaling = call->scaled ? (f64 ? SCALING_F64 : SCALING_F32) : SCALING_NONE,
        .rows = call->m,
        .cols = call->n,
        .a_offset = call->a_offset,
        .lda = call->lda ? call->lda : call->n + !call->n,
        .b_offset = call->b_offset,
        .ldb = call->ldb ? call->ldb : call->m + !call->m,
    };
    tailor_status status = check_leading_dimensions(&c);
    if (status != TAILOR_SUCCESS || c.rows == 0 || c.cols == 0)
        return status;
    struct launch_plan p = {0};
    status = plan_launch(&c, &p);
    if (status == TAILOR_SUCCESS)
        *plan = p.op;
    return status;
}

// Each element size (and scaled type) launches the programs of its method only.
static int launches_program(const struct profile *profile, enum program_id program)
{
    static const int type_size_log2[7] = {0, 1, 2, 3, 4, 2, 3};
    for (int type = 0; type < 7; ++type) {
        int method = profile->tune[TUNE_TRANSPOSE_METHOD_1 + type_size_log2[type]];
        if (method_programs[method][type] == program)
            return 1;
    }
    return 0;
}

// Register-tile groups, then local tiles (their edge and the vectors each
// work-item moves together), then narrower vectors.
static const struct shrink_step shrink_steps[] = {
    {1, 1, {TUNE_TRANSPOSE_WG_Y}},
    {1, 2, {TUNE_TRANSPOSE_WG_X, TUNE_TRANSPOSE_LOCAL_STEPS}},
    {0, 1, {TUNE_TRANSPOSE_VECTOR_BYTES}},
};

const struct operation transpose_operation = {
    check, NULL, explain, launches_program, &transpose_tune_tasks, shrink_steps,
    sizeof shrink_steps / sizeof shrink_steps[0], NULL};

tailor_status tailor_transpose(tailor_context *ctx, cl_command_queue queue,
                                      size_t element_bytes, size_t rows, size_t cols, cl_mem a,
                                      size_t a_offset, size_t lda, cl_mem b, size_t b_offset,
                                      size_t ldb, cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event)
{
    operation_begin();
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    int size_log2 = size_log2_of(element_bytes);
    REQUIRE(size_log2 >= 0, TAILOR_ERROR_INVALID_ELEMENT_SIZE,
            "element_bytes is %zu; 1, 2, 4, 8 and 16 are supported", element_bytes);
    struct transpose_call call = {
        .ctx = ctx, .queue = queue, .element_bytes = element_bytes, .size_log2 = size_log2,
        .scaling = SCALING_NONE, .rows = rows, .cols = cols, .a = a, .a_offset = a_offset,
        .lda = lda, .b = b, .b_offset = b_offset, .ldb = ldb,
        .wait_count = num_events_in_wait_list, .wait_list = event_wait_list, .event = event,
    };
    return transpose(&call);
}

// alpha = 1 moves the bits, as tailor_transpose does (a signaling NaN
// stays signaling, which 1 * x need not keep).
tailor_status tailor_somatcopy(tailor_context *ctx, cl_command_queue queue, size_t rows,
                               size_t cols, float alpha, cl_mem a, size_t a_offset, size_t lda,
                               cl_mem b, size_t b_offset, size_t ldb,
                               cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                               cl_event *event)
{
    operation_begin();
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    struct transpose_call call = {
        .ctx = ctx, .queue = queue, .element_bytes = 4, .size_log2 = 2,
        .scaling = alpha == 1.0f ? SCALING_NONE : SCALING_F32, .alpha_f32 = alpha,
        .rows = rows, .cols = cols, .a = a, .a_offset = a_offset, .lda = lda, .b = b,
        .b_offset = b_offset, .ldb = ldb, .wait_count = num_events_in_wait_list,
        .wait_list = event_wait_list, .event = event,
    };
    return transpose(&call);
}

tailor_status tailor_domatcopy(tailor_context *ctx, cl_command_queue queue, size_t rows,
                               size_t cols, double alpha, cl_mem a, size_t a_offset, size_t lda,
                               cl_mem b, size_t b_offset, size_t ldb,
                               cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                               cl_event *event)
{
    operation_begin();
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    REQUIRE(ctx->profile.has_fp64, TAILOR_ERROR_UNSUPPORTED,
            "tailor_domatcopy needs cl_khr_fp64, which %s lacks", ctx->info.device_name);
    struct transpose_call call = {
        .ctx = ctx, .queue = queue, .element_bytes = 8, .size_log2 = 3,
        .scaling = alpha == 1.0 ? SCALING_NONE : SCALING_F64, .alpha_f64 = alpha,
        .rows = rows, .cols = cols, .a = a, .a_offset = a_offset, .lda = lda, .b = b,
        .b_offset = b_offset, .ldb = ldb, .wait_count = num_events_in_wait_list,
        .wait_list = event_wait_list, .event = event,
    };
    return transpose(&call);
}
