// tailor_transpose, tailor_somatcopy and tailor_domatcopy: argument
// checks, the choice of method (the profile's, per element size) and path
// (aligned, edge, unaligned: from the shape, offsets and leading dimensions
// of this call), and the launch.
#include "transpose.h"

#include <stdint.h>
#include <stdio.h>

#include "checks.h"
#include "error.h"
#include "launch.h"
#include "program.h"
#include "symbols.h"

_Static_assert(TUNE_TRANSPOSE_METHOD_2 == TUNE_TRANSPOSE_METHOD_1 + 1 &&
                   TUNE_TRANSPOSE_METHOD_4 == TUNE_TRANSPOSE_METHOD_1 + 2 &&
                   TUNE_TRANSPOSE_METHOD_8 == TUNE_TRANSPOSE_METHOD_1 + 3 &&
                   TUNE_TRANSPOSE_METHOD_16 == TUNE_TRANSPOSE_METHOD_1 + 4,
               "the per-size methods are indexed by log2 of the element size");

// Indexed by log2 of the element size.
static const enum program_id byte_programs[5] = {
    PROGRAM_TRANSPOSE_1, PROGRAM_TRANSPOSE_2, PROGRAM_TRANSPOSE_4, PROGRAM_TRANSPOSE_8,
    PROGRAM_TRANSPOSE_16,
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

// One launch: the kernel for the path, 1-D groups of WG_X * WG_Y work-items,
// each group one tile of tile_rows x tile_cols elements of A.
struct launch_plan {
    int method;
    size_t vec, tile_rows, tile_cols, tiles_x, tiles, group;
    const char *kernel;
    const char *path;
};

static tailor_status plan_launch(const struct transpose_call *c, struct launch_plan *p)
{
    const struct profile *profile = &c->ctx->profile;
    const int *t = profile->tune;
    size_t wg_x = (size_t)t[TUNE_TRANSPOSE_WG_X], wg_y = (size_t)t[TUNE_TRANSPOSE_WG_Y];
    p->method = t[TUNE_TRANSPOSE_METHOD_1 + c->size_log2];
    p->vec = transpose_vector(t[TUNE_TRANSPOSE_VECTOR_BYTES], c->element_bytes);
    p->group = wg_x * wg_y;
    if (p->method == TRANSPOSE_LOCAL) {
        p->tile_cols = p->tile_rows = wg_x * p->vec;
        p->group = wg_x * transpose_local_group_rows(t[TUNE_TRANSPOSE_LOCAL_STEPS], (int)wg_y,
                                                     p->tile_cols);
    } else if (p->method == TRANSPOSE_REGISTERS) {
        p->tile_cols = wg_x * p->vec;
        p->tile_rows = wg_y * p->vec * transpose_register_tiles(t[TUNE_TRANSPOSE_LOADS], p->vec);
    } else {
        p->tile_cols = wg_x * (size_t)t[TUNE_TRANSPOSE_CPU_BLOCK];
        p->tile_rows = wg_y * (size_t)t[TUNE_TRANSPOSE_CPU_BLOCK];
    }
    cl_ulong tiles_x = (c->cols - 1) / p->tile_cols + 1, tiles_y = (c->rows - 1) / p->tile_rows + 1;
    REQUIRE(tiles_y <= UINT32_MAX / tiles_x, TAILOR_ERROR_UNSUPPORTED,
            "a %llu x %llu matrix needs more than 2^32 work-groups of this profile",
            (unsigned long long)c->rows, (unsigned long long)c->cols);
    p->tiles_x = (size_t)tiles_x;
    p->tiles = (size_t)(tiles_x * tiles_y);
    // Vector pointers need VEC-element alignment of every row of A and B;
    // buffers start at CL_DEVICE_MEM_BASE_ADDR_ALIGN.
    cl_ulong vec = p->vec;
    int vectors = c->a_offset % vec == 0 && c->lda % vec == 0 && c->b_offset % vec == 0 &&
                  c->ldb % vec == 0 &&
                  vec * c->element_bytes * 8 <= c->ctx->info.mem_base_addr_align_bits;
    int whole_tiles = c->rows % p->tile_rows == 0 && c->cols % p->tile_cols == 0;
    p->kernel = !vectors ? "transpose_unaligned" : whole_tiles ? "transpose_aligned" : "transpose_edge";
    p->path = !vectors ? "unaligned" : whole_tiles ? "aligned" : "edge";
    // CPU kernels stream a B larger than the caches past them.
    cl_ulong stream_bytes = (cl_ulong)t[TUNE_TRANSPOSE_CPU_STREAM_BYTES];
    if (p->method == TRANSPOSE_CPU && vectors && stream_bytes &&
        c->rows * c->cols >= stream_bytes / c->element_bytes) {
        p->kernel = whole_tiles ? "transpose_aligned_stream" : "transpose_edge_stream";
        p->path = whole_tiles ? "aligned/stream" : "edge/stream";
    }
    return TAILOR_SUCCESS;
}

static tailor_status launch(const struct transpose_call *c, enum program_id program)
{
    struct launch_plan plan = {0};
    tailor_status status = plan_launch(c, &plan);
    if (status != TAILOR_SUCCESS)
        return status;
    struct kernel_lease kernel;
    status = kernel_acquire(c->ctx, program, plan.kernel, &kernel);
    if (status != TAILOR_SUCCESS)
        return status;
    cl_uint tiles_x = (cl_uint)plan.tiles_x;
    status = set_kernel_args(&kernel, 9, KERNEL_ARG(c->rows), KERNEL_ARG(c->cols),
                             KERNEL_MEM(c->a), KERNEL_ARG(c->a_offset), KERNEL_ARG(c->lda),
                             KERNEL_MEM(c->b), KERNEL_ARG(c->b_offset), KERNEL_ARG(c->ldb),
                             KERNEL_ARG(tiles_x));
    if (status == TAILOR_SUCCESS && c->scaling != SCALING_NONE) {
        cl_int error = c->scaling == SCALING_F32
                           ? clSetKernelArg(kernel.kernel, 9, sizeof c->alpha_f32, &c->alpha_f32)
                           : clSetKernelArg(kernel.kernel, 9, sizeof c->alpha_f64, &c->alpha_f64);
        if (error != CL_SUCCESS)
            status = error_from_cl(error, "clSetKernelArg");
    }
    if (status == TAILOR_SUCCESS)
        status = enqueue_1d(c->queue, kernel.kernel, plan.tiles * plan.group, plan.group,
                            c->wait_count, c->wait_list, c->event);
    kernel_release(&kernel);
    if (status == TAILOR_SUCCESS) {
        char variant[96];
        if (plan.method == TRANSPOSE_CPU)
            snprintf(variant, sizeof variant, "%s-%d/%s%s", method_names[plan.method],
                     c->ctx->profile.tune[TUNE_TRANSPOSE_CPU_BLOCK], plan.path,
                     c->scaling != SCALING_NONE ? "/scaled" : "");
        else
            snprintf(variant, sizeof variant, "%s-%zux%zu/%s%s", method_names[plan.method],
                     plan.method == TRANSPOSE_LOCAL ? plan.tile_rows : plan.vec,
                     plan.method == TRANSPOSE_LOCAL ? plan.tile_cols : plan.vec, plan.path,
                     c->scaling != SCALING_NONE ? "/scaled" : "");
        variant_set(variant);
    }
    return status;
}

// Everything after the handle and the element size: queue, wait list,
// leading dimensions, the quick return, buffers, overlap; then the launch.
static tailor_status transpose(const struct transpose_call *c)
{
    tailor_status status = check_queue(c->ctx, c->queue);
    if (status == TAILOR_SUCCESS)
        status = check_wait_list(c->ctx, c->wait_count, c->wait_list);
    if (status != TAILOR_SUCCESS)
        return status;
    REQUIRE(c->lda >= c->cols && c->lda >= 1, TAILOR_ERROR_INVALID_LEADING_DIMENSION,
            "lda is %llu, less than the %llu columns of a (and at least 1)",
            (unsigned long long)c->lda, (unsigned long long)c->cols);
    REQUIRE(c->ldb >= c->rows && c->ldb >= 1, TAILOR_ERROR_INVALID_LEADING_DIMENSION,
            "ldb is %llu, less than the %llu columns of b (the rows of a, and at least 1)",
            (unsigned long long)c->ldb, (unsigned long long)c->rows);
    if (c->rows == 0 || c->cols == 0)
        return enqueue_nothing(c->queue, c->wait_count, c->wait_list, c->event);
    status = check_matrix(c->ctx, c->a, "a", c->a_offset, c->rows, c->cols, c->lda,
                          c->element_bytes, BUFFER_READ);
    if (status == TAILOR_SUCCESS)
        status = check_matrix(c->ctx, c->b, "b", c->b_offset, c->cols, c->rows, c->ldb,
                              c->element_bytes, BUFFER_WRITE);
    if (status == TAILOR_SUCCESS)
        status = check_overlap(c);
    if (status != TAILOR_SUCCESS)
        return status;
    enum program_id program = c->scaling == SCALING_F32   ? PROGRAM_TRANSPOSE_SCALED_F32
                              : c->scaling == SCALING_F64 ? PROGRAM_TRANSPOSE_SCALED_F64
                                                          : byte_programs[c->size_log2];
    return launch(c, program);
}

tailor_status tailor_transpose(tailor_context *ctx, cl_command_queue queue,
                                      size_t element_bytes, size_t rows, size_t cols, cl_mem a,
                                      size_t a_offset, size_t lda, cl_mem b, size_t b_offset,
                                      size_t ldb, cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event)
{
    error_clear();
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
    error_clear();
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
    error_clear();
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
