// tailor_sgemv: argument checks, then the four layout/transpose cases turned
// into dots along contiguous lines (rows) or across them (columns), and the
// kernel chosen from the shape and the profile (cl/gemv.cl).
#include "gemv.h"

#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "error.h"
#include "launch.h"
#include "program.h"
#include "reduce.h"
#include "scratch.h"
#include "symbols.h"

// GEMV's part of the scratch buffer, in 4-byte units: tickets (one per block
// of a split launch) and partial results.
struct scratch_layout {
    size_t tickets_at, tickets, partials_at, partials;
};

// One call as the kernels see it: `outputs` elements of y, each a dot of `k`
// elements, over a matrix of contiguous lines `lda` apart.
struct gemv_call {
    tailor_context *ctx;
    cl_command_queue queue;
    int rows; // dots along the lines (else across them)
    cl_ulong outputs, k;
    cl_float alpha, beta;
    cl_mem a, x, y;
    cl_ulong a_offset, lda, x_offset, x_base, y_base;
    cl_long incx, incy;
    cl_uint wait_count;
    const cl_event *wait_list;
    cl_event *event;
    struct scratch_layout scratch;
};

// One launch: the kernel, its NDRange, and the slices of the dots.
struct gemv_plan {
    char kernel[32];
    size_t global[2], local[2];
    cl_ulong per_item; // CPU kernels: outputs per work-item
    cl_ulong slice;    // dot elements per slice; k when the dots are not split
    size_t slices;
    int two_pass; // split, finished by gemv_finish
    char variant[64];
};

static cl_ulong ceil_div(cl_ulong a, cl_ulong b)
{
    return a / b + (a % b != 0);
}

static cl_ulong round_up(cl_ulong a, cl_ulong multiple)
{
    return ceil_div(a, multiple) * multiple;
}

static cl_ulong min_u64(cl_ulong a, cl_ulong b)
{
    return a < b ? a : b;
}

static cl_ulong max_u64(cl_ulong a, cl_ulong b)
{
    return a > b ? a : b;
}

static size_t target_groups(const tailor_context *ctx)
{
    size_t units = ctx->info.compute_units ? ctx->info.compute_units : 1;
    return units * (size_t)ctx->profile.tune[TUNE_GEMV_GROUPS_PER_CU];
}

// Split launches have fewer blocks than target_groups, so that many tickets
// do; the partial results of a block are its outputs times its slices, which
// (slices <= target / blocks + 1) stays within twice target_groups blocks'
// outputs. The planner still caps slices at what fits.
static void scratch_layout(const tailor_context *ctx, struct scratch_layout *l)
{
    const int *t = ctx->profile.tune;
    size_t target = target_groups(ctx), block_outputs;
    if (ctx->profile.kind == TAILOR_DEVICE_KIND_CPU)
        block_outputs = (size_t)max_u64(t[TUNE_GEMV_CPU_COLS], t[TUNE_GEMV_CPU_VECTOR]);
    else
        block_outputs = (size_t)max_u64(
            (cl_ulong)t[TUNE_GEMV_COL_THREADS] * t[TUNE_GEMV_COL_VECTOR],
            (cl_ulong)t[TUNE_GEMV_ROW_WG] / profile_gemv_row_lanes(&ctx->profile) * t[TUNE_GEMV_ROW_BATCH]);
    l->tickets_at = (size_t)round_up(reduce_scratch_bytes(ctx), 256) / 4;
    l->tickets = target;
    l->partials_at = (size_t)round_up(l->tickets_at + l->tickets, 64);
    l->partials = 2 * target * block_outputs;
}

size_t gemv_scratch_bytes(const tailor_context *ctx)
{
    struct scratch_layout l;
    scratch_layout(ctx, &l);
    return (l.partials_at + l.partials) * 4;
}

// Cuts the dots of `blocks` blocks (each `block_elements` elements of A) into
// slices starting at multiples of `align`, when the blocks alone are fewer
// than the groups that keep the device busy: about that many groups, none
// with fewer than GEMV_SPLIT_MIN_ELEMENTS elements, partials within scratch.
static void plan_slices(const struct gemv_call *c, struct gemv_plan *p, cl_ulong blocks,
                        cl_ulong block_elements, cl_ulong align)
{
    const struct scratch_layout *l = &c->scratch;
    cl_ulong target = target_groups(c->ctx), slices = 1;
    if (blocks < target && blocks <= l->tickets) {
        slices = ceil_div(target, blocks);
        slices = min_u64(slices, block_elements / (cl_ulong)c->ctx->profile.tune[TUNE_GEMV_SPLIT_MIN_ELEMENTS]);
        slices = min_u64(slices, l->partials / c->outputs);
    }
    p->slice = c->k;
    p->slices = 1;
    if (slices >= 2) {
        p->slice = round_up(ceil_div(c->k, slices), align);
        p->slices = (size_t)ceil_div(c->k, p->slice);
    }
    p->two_pass = p->slices > 1 && !c->ctx->profile.tune[TUNE_GEMV_ONE_PASS];
}

// Appends text (and then the decimal number, if not NULL) to the string in
// buffer, cutting at its size. Names are built on every call, where
// snprintf's parsing would cost a short GEMV a measurable share of its time.
static void append(char *buffer, size_t size, const char *text, const size_t *number)
{
    size_t used = strlen(buffer), length = strlen(text);
    char digits[24];
    if (used + length >= size)
        length = size - 1 - used;
    memcpy(buffer + used, text, length);
    buffer[used + length] = '\0';
    if (!number)
        return;
    size_t n = *number, at = sizeof digits - 1;
    digits[at] = '\0';
    do
        digits[--at] = (char)('0' + n % 10);
    while ((n /= 10) > 0);
    append(buffer, size, digits + at, NULL);
}

// The kernel (GPU kernels have a separate _split version) and the variant's
// name for tailor_last_variant().
static void name_variant(struct gemv_plan *p, const char *kernel, const char *shape,
                         size_t vector, int fallback)
{
    int cpu = strncmp(kernel, "gemv_cpu", 8) == 0;
    p->kernel[0] = p->variant[0] = '\0';
    append(p->kernel, sizeof p->kernel, kernel, NULL);
    if (p->slices > 1 && !cpu)
        append(p->kernel, sizeof p->kernel, "_split", NULL);
    append(p->variant, sizeof p->variant, shape, NULL);
    if (vector)
        append(p->variant, sizeof p->variant, "-vec", &vector);
    if (p->slices > 1)
        append(p->variant, sizeof p->variant, "/split-k", &p->slices);
    if (p->two_pass)
        append(p->variant, sizeof p->variant, "/two-pass", NULL);
    if (fallback)
        append(p->variant, sizeof p->variant, "/general-stride", NULL);
}

// The multi-row kernels by log2 of their lanes: scalar and vector loads, and
// the variant's shape.
static const struct {
    const char *kernel[2], *shape;
} lane_kernels[] = {
    {{"gemv_row_lanes1", "gemv_row_lanes1_vec"}, "row/multi-row-1"},
    {{"gemv_row_lanes2", "gemv_row_lanes2_vec"}, "row/multi-row-2"},
    {{"gemv_row_lanes4", "gemv_row_lanes4_vec"}, "row/multi-row-4"},
    {{"gemv_row_lanes8", "gemv_row_lanes8_vec"}, "row/multi-row-8"},
    {{"gemv_row_lanes16", "gemv_row_lanes16_vec"}, "row/multi-row-16"},
    {{"gemv_row_lanes32", "gemv_row_lanes32_vec"}, "row/multi-row-32"},
};

// Dots along lines: several lines per lockstep group for short dots, one
// lockstep group per line, or a work-group per line for long ones; vector
// loads where lines and x are aligned and x is unit-stride.
static void plan_rows(const struct gemv_call *c, struct gemv_plan *p)
{
    const int *t = c->ctx->profile.tune;
    cl_ulong group = (cl_ulong)t[TUNE_GEMV_ROW_WG], batch = (cl_ulong)t[TUNE_GEMV_ROW_BATCH];
    cl_ulong width = (cl_ulong)t[TUNE_GEMV_VECTOR], lanes;
    int aligned = c->incx == 1 && c->x_offset % width == 0 && c->a_offset % width == 0 &&
                  (c->lda % width == 0 || c->outputs == 1);
    int wants_vector = c->k >= (cl_ulong)t[TUNE_GEMV_VECTOR_MIN_K], vector;
    const char *kernel, *shape;
    if (c->k <= (cl_ulong)t[TUNE_GEMV_MULTI_ROW_MAX_K]) {
        cl_ulong elements = (cl_ulong)t[TUNE_GEMV_MULTI_ROW_ELEMENTS];
        unsigned log2_lanes = 0;
        // GEMV_MULTI_ROW_LANES is at most 32, the last of lane_kernels.
        while (log2_lanes + 1 < sizeof lane_kernels / sizeof lane_kernels[0] &&
               (elements << log2_lanes) < c->k && (1 << log2_lanes) < t[TUNE_GEMV_MULTI_ROW_LANES])
            ++log2_lanes;
        lanes = 1ull << log2_lanes;
        wants_vector = elements >= width;
        kernel = lane_kernels[log2_lanes].kernel[wants_vector && aligned];
        shape = lane_kernels[log2_lanes].shape;
    } else if (c->k >= (cl_ulong)t[TUNE_GEMV_GROUP_MIN_K]) {
        lanes = group;
        batch = 1;
        kernel = wants_vector && aligned ? "gemv_row_group_vec" : "gemv_row_group";
        shape = "row/group-per-row";
    } else {
        lanes = (cl_ulong)profile_gemv_row_lanes(&c->ctx->profile);
        kernel = wants_vector && aligned ? "gemv_row_wide_vec" : "gemv_row_wide";
        shape = "row/warp-per-row";
    }
    vector = wants_vector && aligned;
    cl_ulong rows_per_group = group / lanes * batch;
    cl_ulong blocks = ceil_div(c->outputs, rows_per_group);
    plan_slices(c, p, blocks, min_u64(rows_per_group, c->outputs) * c->k,
                vector ? lanes * width : lanes);
    p->global[0] = (size_t)(blocks * group);
    p->global[1] = p->slices;
    p->local[0] = (size_t)group;
    p->local[1] = 1;
    name_variant(p, kernel, shape, vector ? (size_t)width : 0, wants_vector && !aligned);
}

// Dots across lines: TX work-items of a group along the outputs, the rest of
// the group (TY) splitting the lines; TX shrinks for few outputs.
static void plan_columns(const struct gemv_call *c, struct gemv_plan *p)
{
    const int *t = c->ctx->profile.tune;
    cl_ulong width = (cl_ulong)t[TUNE_GEMV_COL_VECTOR], group = (cl_ulong)t[TUNE_GEMV_COL_WG];
    int aligned = c->a_offset % width == 0 && (c->lda % width == 0 || c->k == 1);
    cl_ulong needed = ceil_div(c->outputs, width), tx = 1;
    while (tx < needed && tx < (cl_ulong)t[TUNE_GEMV_COL_THREADS])
        tx *= 2;
    cl_ulong ty = group / tx, blocks = ceil_div(c->outputs, tx * width);
    plan_slices(c, p, blocks, min_u64(tx * width, c->outputs) * c->k, ty);
    p->global[0] = (size_t)(blocks * tx);
    p->global[1] = p->slices * (size_t)ty;
    p->local[0] = (size_t)tx;
    p->local[1] = (size_t)ty;
    name_variant(p, aligned ? "gemv_col_vec" : "gemv_col", "column", aligned ? (size_t)width : 0,
                 !aligned);
}

// CPUs: a few long contiguous shares per core, one work-item each. Rows:
// blocks of GEMV_CPU_VECTOR lines, enough blocks for the cores. Columns: as
// many outputs per work-item as its sums in private memory hold
// (GEMV_CPU_COLS), so that each line is read in one long run; split dots then
// find work for the other cores.
static void plan_cpu(const struct gemv_call *c, struct gemv_plan *p)
{
    const int *t = c->ctx->profile.tune;
    cl_ulong vector = (cl_ulong)t[TUNE_GEMV_CPU_VECTOR], per_item;
    if (c->rows)
        per_item = round_up(max_u64(1, ceil_div(c->outputs, target_groups(c->ctx))), vector);
    else
        per_item = min_u64((cl_ulong)t[TUNE_GEMV_CPU_COLS], round_up(c->outputs, vector));
    cl_ulong blocks = ceil_div(c->outputs, per_item);
    plan_slices(c, p, blocks, min_u64(per_item, c->outputs) * c->k, c->rows ? vector : 1);
    p->per_item = per_item;
    p->global[0] = (size_t)blocks;
    p->global[1] = p->slices;
    p->local[0] = p->local[1] = 1;
    name_variant(p, c->rows ? "gemv_cpu_rows" : "gemv_cpu_cols", c->rows ? "cpu/rows" : "cpu/columns",
                 0, 0);
}

// Sums the partial results of a split launch (after `first`) into y.
static tailor_status finish(const struct gemv_call *c, const struct gemv_plan *p, cl_mem scratch,
                            cl_event first)
{
    cl_ulong partials_at = c->scratch.partials_at;
    struct kernel_lease kernel;
    tailor_status status = kernel_acquire(c->ctx, PROGRAM_GEMV_F32, "gemv_finish", &kernel);
    if (status != TAILOR_SUCCESS)
        return status;
    cl_uint slices = (cl_uint)p->slices;
    size_t group = (size_t)c->ctx->profile.tune[TUNE_GEMV_ROW_WG];
    status = set_kernel_args(&kernel, 9, KERNEL_MEM(c->y), KERNEL_ARG(c->y_base),
                             KERNEL_ARG(c->incy), KERNEL_ARG(c->outputs), KERNEL_ARG(slices),
                             KERNEL_ARG(c->alpha), KERNEL_ARG(c->beta), KERNEL_MEM(scratch),
                             KERNEL_ARG(partials_at));
    if (status == TAILOR_SUCCESS)
        status = enqueue_1d(c->queue, kernel.kernel, (size_t)round_up(c->outputs, group), group, 1,
                            &first, c->event);
    kernel_release(&kernel);
    return status;
}

// The call's scalars as the kernels unpack them (cl/symbols.h: GEMV_CALL_*).
static cl_ulong16 pack_call(const struct gemv_call *c, const struct gemv_plan *p)
{
    cl_uint alpha_bits, beta_bits;
    memcpy(&alpha_bits, &c->alpha, sizeof alpha_bits);
    memcpy(&beta_bits, &c->beta, sizeof beta_bits);
    cl_ulong16 packed;
    memset(&packed, 0, sizeof packed);
    packed.s[GEMV_CALL_A_OFFSET] = c->a_offset;
    packed.s[GEMV_CALL_LDA] = c->lda;
    packed.s[GEMV_CALL_X_BASE] = c->x_base;
    packed.s[GEMV_CALL_INCX] = (cl_ulong)c->incx;
    packed.s[GEMV_CALL_Y_BASE] = c->y_base;
    packed.s[GEMV_CALL_INCY] = (cl_ulong)c->incy;
    packed.s[GEMV_CALL_OUTPUTS] = c->outputs;
    packed.s[GEMV_CALL_K] = c->k;
    packed.s[GEMV_CALL_PER_ITEM] = p->per_item;
    packed.s[GEMV_CALL_SLICE] = p->slice;
    packed.s[GEMV_CALL_ALPHA_BETA] = alpha_bits | (cl_ulong)beta_bits << 32;
    packed.s[GEMV_CALL_TICKETS_AT] = c->scratch.tickets_at;
    packed.s[GEMV_CALL_PARTIALS_AT] = c->scratch.partials_at;
    return packed;
}

static tailor_status launch(const struct gemv_call *c, const struct gemv_plan *p)
{
    struct kernel_lease kernel = {0};
    struct scratch_lease scratch = {0};
    cl_event first = NULL;
    tailor_status status = kernel_acquire(c->ctx, PROGRAM_GEMV_F32, p->kernel, &kernel);
    if (status == TAILOR_SUCCESS && p->slices > 1)
        status = scratch_acquire(c->ctx->scratch, c->queue,
                                 (size_t)(c->scratch.partials_at + c->outputs * p->slices) * 4,
                                 c->wait_count, c->wait_list, &scratch);
    // Split GPU kernels and every CPU kernel take the scratch buffer last.
    int takes_scratch = p->slices > 1 || c->ctx->profile.kind == TAILOR_DEVICE_KIND_CPU;
    cl_ulong16 packed = pack_call(c, p);
    if (status == TAILOR_SUCCESS)
        status = set_kernel_args(&kernel, takes_scratch ? 5 : 4, KERNEL_MEM(c->a), KERNEL_MEM(c->x),
                                 KERNEL_MEM(c->y), KERNEL_ARG(packed), KERNEL_MEM(scratch.buffer));
    if (status == TAILOR_SUCCESS) {
        cl_uint wait_count = scratch.ready ? 1 : c->wait_count;
        const cl_event *wait_list = scratch.ready ? &scratch.ready : c->wait_list;
        status = enqueue_2d(c->queue, kernel.kernel, p->global, p->local, wait_count, wait_list,
                            p->two_pass ? &first : c->event);
    }
    if (status == TAILOR_SUCCESS && p->two_pass)
        status = finish(c, p, scratch.buffer, first);
    if (first)
        clReleaseEvent(first);
    scratch_release(&scratch);
    kernel_release(&kernel);
    if (status == TAILOR_SUCCESS)
        variant_set(p->variant);
    return status;
}

// y = beta * y (alpha == 0 or empty dots): A and x are not read, nor y when
// beta == 0.
static tailor_status scale(const struct gemv_call *c)
{
    struct kernel_lease kernel;
    tailor_status status = kernel_acquire(c->ctx, PROGRAM_GEMV_F32, "gemv_scale", &kernel);
    if (status != TAILOR_SUCCESS)
        return status;
    size_t group = (size_t)c->ctx->profile.tune[TUNE_GEMV_ROW_WG];
    status = set_kernel_args(&kernel, 5, KERNEL_MEM(c->y), KERNEL_ARG(c->y_base),
                             KERNEL_ARG(c->incy), KERNEL_ARG(c->outputs), KERNEL_ARG(c->beta));
    if (status == TAILOR_SUCCESS)
        status = enqueue_1d(c->queue, kernel.kernel, (size_t)round_up(c->outputs, group), group,
                            c->wait_count, c->wait_list, c->event);
    kernel_release(&kernel);
    if (status == TAILOR_SUCCESS)
        variant_set("scale");
    return status;
}

static cl_ulong magnitude(long long increment)
{
    return increment < 0 ? 0ull - (cl_ulong)increment : (cl_ulong)increment;
}

// Elements a checked vector or matrix spans (no overflow once checked).
static size_t vector_extent(size_t n, long long increment)
{
    return n ? (size_t)((n - 1) * magnitude(increment) + 1) : 0;
}

static size_t matrix_extent(size_t lines, size_t length, size_t ld)
{
    return lines && length ? (lines - 1) * ld + length : 0;
}

static tailor_status check_operands(tailor_context *ctx, const struct gemv_call *c, size_t lines,
                                    size_t length, size_t a_offset, size_t x_offset,
                                    size_t y_offset)
{
    enum buffer_access y_access = c->beta != 0.0f ? BUFFER_READ | BUFFER_WRITE : BUFFER_WRITE;
    tailor_status status =
        check_vector(ctx, c->y, "y", y_offset, (size_t)c->outputs, c->incy, sizeof(cl_float), y_access);
    if (status == TAILOR_SUCCESS)
        status = check_matrix(ctx, c->a, "A", a_offset, lines, length, (size_t)c->lda,
                              sizeof(cl_float), BUFFER_READ);
    if (status == TAILOR_SUCCESS)
        status = check_vector(ctx, c->x, "x", x_offset, (size_t)c->k, c->incx, sizeof(cl_float),
                              BUFFER_READ);
    if (status != TAILOR_SUCCESS)
        return status;
    size_t y_bytes = vector_extent((size_t)c->outputs, c->incy) * sizeof(cl_float);
    REQUIRE(c->y != c->a || !ranges_overlap(y_offset * sizeof(cl_float), y_bytes,
                                            a_offset * sizeof(cl_float),
                                            matrix_extent(lines, length, (size_t)c->lda) * sizeof(cl_float)),
            TAILOR_ERROR_BUFFERS_OVERLAP, "y overlaps A in the same buffer");
    REQUIRE(c->y != c->x || !ranges_overlap(y_offset * sizeof(cl_float), y_bytes,
                                            x_offset * sizeof(cl_float),
                                            vector_extent((size_t)c->k, c->incx) * sizeof(cl_float)),
            TAILOR_ERROR_BUFFERS_OVERLAP, "y overlaps x in the same buffer");
    return TAILOR_SUCCESS;
}

tailor_status tailor_sgemv(tailor_context *ctx, cl_command_queue queue, tailor_layout layout,
                           tailor_trans trans, size_t m, size_t n, float alpha, cl_mem a,
                           size_t a_offset, size_t lda, cl_mem x, size_t x_offset, long long incx,
                           float beta, cl_mem y, size_t y_offset, long long incy,
                           cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                           cl_event *event)
{
    error_clear();
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    REQUIRE(layout == TAILOR_ROW_MAJOR || layout == TAILOR_COLUMN_MAJOR, TAILOR_ERROR_UNKNOWN_LAYOUT,
            "%d is not a tailor_layout", (int)layout);
    REQUIRE(trans == TAILOR_NO_TRANS || trans == TAILOR_TRANS, TAILOR_ERROR_UNKNOWN_TRANSPOSE,
            "%d is not a tailor_trans", (int)trans);
    tailor_status status = check_queue(ctx, queue);
    if (status == TAILOR_SUCCESS)
        status = check_wait_list(ctx, num_events_in_wait_list, event_wait_list);
    if (status != TAILOR_SUCCESS)
        return status;
    // Lines are rows in row-major storage and columns in column-major.
    size_t lines = layout == TAILOR_ROW_MAJOR ? m : n, length = layout == TAILOR_ROW_MAJOR ? n : m;
    REQUIRE(lda >= length && lda >= 1, TAILOR_ERROR_INVALID_LEADING_DIMENSION,
            "lda is %zu, less than max(1, %zu)", lda, length);
    REQUIRE(incx != 0, TAILOR_ERROR_INVALID_INCREMENT, "incx is 0");
    REQUIRE(incy != 0, TAILOR_ERROR_INVALID_INCREMENT, "incy is 0");
    size_t outputs = trans == TAILOR_NO_TRANS ? m : n, k = trans == TAILOR_NO_TRANS ? n : m;
    if (outputs == 0)
        return enqueue_nothing(queue, num_events_in_wait_list, event_wait_list, event);

    struct gemv_call call = {
        .ctx = ctx,
        .queue = queue,
        .rows = (layout == TAILOR_ROW_MAJOR) == (trans == TAILOR_NO_TRANS),
        .outputs = outputs,
        .k = k,
        .alpha = alpha,
        .beta = beta,
        .a = a,
        .x = x,
        .y = y,
        .a_offset = a_offset,
        .lda = lda,
        .x_offset = x_offset,
        .incx = incx,
        .incy = incy,
        .wait_count = num_events_in_wait_list,
        .wait_list = event_wait_list,
        .event = event,
    };
    status = check_operands(ctx, &call, lines, length, a_offset, x_offset, y_offset);
    if (status != TAILOR_SUCCESS)
        return status;
    // BLAS order: a negative increment starts the vector at its far end.
    call.x_base = x_offset + (incx < 0 && k > 0 ? (k - 1) * magnitude(incx) : 0);
    call.y_base = y_offset + (incy < 0 ? (outputs - 1) * magnitude(incy) : 0);

    if (k == 0 || alpha == 0.0f) {
        if (beta == 1.0f)
            return enqueue_nothing(queue, num_events_in_wait_list, event_wait_list, event);
        return scale(&call);
    }
    scratch_layout(ctx, &call.scratch);
    struct gemv_plan plan = {0};
    if (ctx->profile.kind == TAILOR_DEVICE_KIND_CPU)
        plan_cpu(&call, &plan);
    else if (call.rows)
        plan_rows(&call, &plan);
    else
        plan_columns(&call, &plan);
    return launch(&call, &plan);
}
