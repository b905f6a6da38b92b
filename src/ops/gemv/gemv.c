// tailor_gemv and tailor_sgemv: argument checks, then the four
// layout/transpose cases turned into dots along contiguous lines (rows) or
// across them (columns), and the kernel chosen from the shape and the profile
// (cl/gemv.cl). A and x are f32, f16 or bf16 (one program each), y any of
// them (a kernel argument).
#include "gemv.h"

#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "context.h"
#include "error.h"
#include "program.h"
#include "scratch.h"
#include "symbols.h"
#include "workspace.h"

// GEMV's scratch buffer, in 4-byte units: tickets (one per block of a split
// launch, zero at rest: every launch leaves them zero), then the partial
// results of the slices.
struct scratch_layout {
    size_t tickets_at, tickets, partials_at, partials;
};

// One call as the kernels see it: `outputs` elements of y, each a dot of `k`
// elements, over a matrix of contiguous lines `lda` apart.
struct gemv_call {
    tailor_context *ctx;
    cl_command_queue queue;
    int rows; // dots along the lines (else across them)
    tailor_dtype in_type, y_type; // A and x; y
    size_t in_bytes, y_bytes;
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
    struct op_plan op;
    size_t global[2], local[2];
    cl_ulong per_item; // CPU kernels: outputs per work-item
    cl_ulong slice;    // dot elements per slice; k when the dots are not split
    size_t slices;
    int two_pass; // split, finished by gemv_finish
    int gather_x; // x gathered into a workspace first (gemv_gather_x)
    cl_ulong gathered_x_base; // where the workspace's x begins
    cl_ulong head;            // shifted row kernels: each line's elements before its first vector
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

static int is_power_of_two(int value)
{
    return value > 0 && (value & (value - 1)) == 0;
}

// Work-items per line of the one-lockstep-group-per-line kernels:
// GEMV_ROW_LANES, or where that is 0, LOCKSTEP (32 without lockstep).
static int row_lanes(const struct profile *profile)
{
    int lanes = profile->tune[TUNE_GEMV_ROW_LANES];
    return lanes ? lanes : profile->lockstep ? profile->lockstep : 32;
}

// Elements per vector load of the row or column kernels: GEMV_VECTOR or
// GEMV_COL_VECTOR floats, or twice as many 16-bit elements up to OpenCL's
// widest vector (cl/gemv.cl's VEC and COL_VEC).
static cl_ulong vector_elements(int floats, size_t element_bytes)
{
    cl_ulong elements = (cl_ulong)floats * 4 / element_bytes;
    return elements < 16 ? elements : 16;
}

static size_t target_groups(const struct profile *profile, const tailor_device_info *facts)
{
    size_t units = facts->compute_units ? facts->compute_units : 1;
    return units * (size_t)profile->tune[TUNE_GEMV_GROUPS_PER_CU];
}

// Split launches have fewer blocks than target_groups, so that many tickets
// do; the partial results of a block are its outputs times its slices, which
// (slices <= target / blocks + 1) stays within twice target_groups blocks'
// outputs. The planner still caps slices at what fits.
static void layout_scratch(const struct profile *profile, const tailor_device_info *facts,
                           struct scratch_layout *l)
{
    const int *t = profile->tune;
    size_t target = target_groups(profile, facts), block_outputs;
    if (t[TUNE_GEMV_CPU_KERNELS])
        block_outputs = (size_t)max_u64(t[TUNE_GEMV_CPU_COLS], t[TUNE_GEMV_CPU_VECTOR]);
    else
        block_outputs = (size_t)max_u64((cl_ulong)t[TUNE_GEMV_COL_THREADS] *
                                            vector_elements(t[TUNE_GEMV_COL_VECTOR], 2),
                                        (cl_ulong)t[TUNE_GEMV_ROW_WG] / row_lanes(profile) *
                                            t[TUNE_GEMV_ROW_BATCH]);
    l->tickets_at = 0;
    l->tickets = target;
    l->partials_at = (size_t)round_up(l->tickets, 64);
    l->partials = 2 * target * block_outputs;
}

static size_t scratch_bytes(const struct profile *profile, const tailor_device_info *facts)
{
    struct scratch_layout l;
    layout_scratch(profile, facts, &l);
    return (l.partials_at + l.partials) * 4;
}

// Segments wider than a lockstep group reduce in two lockstep steps, so no
// segment may exceed LOCKSTEP^2 work-items; the row kernels reduce through a
// float per work-item of local memory, the column kernels stage a vector
// of floats per work-item there (twice GEMV_COL_VECTOR for 16-bit inputs).
static tailor_status check(const struct profile *profile, const tailor_device_info *facts)
{
    const int *t = profile->tune;
    int lockstep = profile->lockstep, row_group = t[TUNE_GEMV_ROW_WG];
    int lanes = row_lanes(profile);
    REQUIRE((size_t)row_group <= facts->max_work_group_size &&
                (size_t)t[TUNE_GEMV_COL_WG] <= facts->max_work_group_size,
            TAILOR_ERROR_INVALID_PROFILE, "GEMV_ROW_WG=%d or GEMV_COL_WG=%d exceeds the device's %zu",
            row_group, t[TUNE_GEMV_COL_WG], facts->max_work_group_size);
    REQUIRE(is_power_of_two(lanes) && lanes <= row_group, TAILOR_ERROR_INVALID_PROFILE,
            "GEMV_ROW_LANES=%d must be a power of two no larger than GEMV_ROW_WG=%d", lanes,
            row_group);
    REQUIRE(lockstep == 0 || (row_group >= lockstep && row_group <= lockstep * lockstep),
            TAILOR_ERROR_INVALID_PROFILE, "GEMV_ROW_WG=%d must lie in [LOCKSTEP, LOCKSTEP^2]",
            row_group);
    REQUIRE(t[TUNE_GEMV_COL_THREADS] <= t[TUNE_GEMV_COL_WG], TAILOR_ERROR_INVALID_PROFILE,
            "GEMV_COL_THREADS=%d exceeds GEMV_COL_WG=%d", t[TUNE_GEMV_COL_THREADS],
            t[TUNE_GEMV_COL_WG]);
    int x_chunk = t[TUNE_GEMV_X_CHUNK];
    REQUIRE(x_chunk % 16 == 0, TAILOR_ERROR_INVALID_PROFILE,
            "GEMV_X_CHUNK=%d must be a multiple of 16", x_chunk);
    size_t row_local = ((size_t)row_group + (size_t)x_chunk) * sizeof(cl_float) + 16;
    REQUIRE(local_memory_fits(facts, row_local), TAILOR_ERROR_INVALID_PROFILE,
            "GEMV_ROW_WG=%d plus GEMV_X_CHUNK=%d floats exceed the device's %llu bytes of local "
            "memory", row_group, x_chunk, (unsigned long long)facts->local_mem_bytes);
    size_t column_local =
        (size_t)t[TUNE_GEMV_COL_WG] * (size_t)vector_elements(t[TUNE_GEMV_COL_VECTOR], 2) * 4 + 64;
    REQUIRE(local_memory_fits(facts, column_local), TAILOR_ERROR_INVALID_PROFILE,
            "GEMV_COL_WG=%d times GEMV_COL_VECTOR=%d floats (16-bit inputs: twice as many, at "
            "most 16) exceed the device's %llu bytes of local memory",
            t[TUNE_GEMV_COL_WG], t[TUNE_GEMV_COL_VECTOR], (unsigned long long)facts->local_mem_bytes);
    REQUIRE(t[TUNE_GEMV_CPU_COLS] >= t[TUNE_GEMV_CPU_VECTOR], TAILOR_ERROR_INVALID_PROFILE,
            "GEMV_CPU_COLS=%d must be a multiple of GEMV_CPU_VECTOR=%d", t[TUNE_GEMV_CPU_COLS],
            t[TUNE_GEMV_CPU_VECTOR]);
    return TAILOR_SUCCESS;
}

// Cuts the dots of `blocks` blocks (each `block_elements` elements of A) into
// slices starting at multiples of `align`, when the blocks alone are fewer
// than the groups that keep the device busy: for GPU kernels the number of
// slices nearest that many groups (blocks of more than two thirds of them
// stay whole: a split's partial sums and tickets cost more than the groups
// it adds); for CPU kernels, whose work-items each hold a core, at least
// that many (three blocks on two cores leave one core idle a third of the
// time); none with fewer than GEMV_SPLIT_MIN_ELEMENTS elements, partials
// within scratch. The slices cut the dots past the lines' heads.
static void plan_slices(const struct gemv_call *c, struct gemv_plan *p, cl_ulong blocks,
                        cl_ulong block_elements, cl_ulong align)
{
    const struct scratch_layout *l = &c->scratch;
    const cl_ulong k = c->k - p->head;
    cl_ulong target = target_groups(&c->ctx->profile, &c->ctx->info), slices = 1;
    if (blocks < target && blocks <= l->tickets) {
        slices = tune(c->ctx, TUNE_GEMV_CPU_KERNELS) ? ceil_div(target, blocks)
                                                      : (target + blocks / 2) / blocks;
        slices = min_u64(slices, block_elements / (cl_ulong)tune(c->ctx, TUNE_GEMV_SPLIT_MIN_ELEMENTS));
        slices = min_u64(slices, l->partials / c->outputs);
    }
    p->slice = k;
    p->slices = 1;
    if (slices >= 2) {
        p->slice = round_up(ceil_div(k, slices), align);
        p->slices = (size_t)ceil_div(k, p->slice);
    }
    p->two_pass = p->slices > 1 && !tune(c->ctx, TUNE_GEMV_ONE_PASS);
    p->op.launches = p->two_pass ? 2 : 1;
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

// The kernel (of a whole/split pair; CPU kernels split within one) and the
// variant's name for tailor_last_variant(); `x_path` names how a row kernel
// reads a strided or misaligned x ("/staged-x", "/gathered-x") or is "";
// `lines` how the kernel reads lines off the vector ("/general-stride",
// "/shifted") or is "".
static void name_variant(struct gemv_plan *p, const enum kernel_id pair[2], size_t vector,
                         const char *x_path, const char *lines)
{
    p->op.kernel = pair[p->slices > 1];
    char *variant = p->op.variant;
    variant[0] = '\0';
    append(variant, sizeof p->op.variant, kernel_table[p->op.kernel].variant, NULL);
    if (vector)
        append(variant, sizeof p->op.variant, "-vec", &vector);
    append(variant, sizeof p->op.variant, x_path, NULL);
    if (p->slices > 1)
        append(variant, sizeof p->op.variant, "/split-k", &p->slices);
    if (p->two_pass)
        append(variant, sizeof p->op.variant, "/two-pass", NULL);
    append(variant, sizeof p->op.variant, lines, NULL);
}

// Whole and split kernels, by [vector loads].
typedef const enum kernel_id kernel_pairs[2][2];

// The multi-row kernels by log2 of their lanes.
static kernel_pairs lane_kernels[] = {
    {{KERNEL_GEMV_ROW_LANES1, KERNEL_GEMV_ROW_LANES1_SPLIT},
     {KERNEL_GEMV_ROW_LANES1_VEC, KERNEL_GEMV_ROW_LANES1_VEC_SPLIT}},
    {{KERNEL_GEMV_ROW_LANES2, KERNEL_GEMV_ROW_LANES2_SPLIT},
     {KERNEL_GEMV_ROW_LANES2_VEC, KERNEL_GEMV_ROW_LANES2_VEC_SPLIT}},
    {{KERNEL_GEMV_ROW_LANES4, KERNEL_GEMV_ROW_LANES4_SPLIT},
     {KERNEL_GEMV_ROW_LANES4_VEC, KERNEL_GEMV_ROW_LANES4_VEC_SPLIT}},
    {{KERNEL_GEMV_ROW_LANES8, KERNEL_GEMV_ROW_LANES8_SPLIT},
     {KERNEL_GEMV_ROW_LANES8_VEC, KERNEL_GEMV_ROW_LANES8_VEC_SPLIT}},
    {{KERNEL_GEMV_ROW_LANES16, KERNEL_GEMV_ROW_LANES16_SPLIT},
     {KERNEL_GEMV_ROW_LANES16_VEC, KERNEL_GEMV_ROW_LANES16_VEC_SPLIT}},
    {{KERNEL_GEMV_ROW_LANES32, KERNEL_GEMV_ROW_LANES32_SPLIT},
     {KERNEL_GEMV_ROW_LANES32_VEC, KERNEL_GEMV_ROW_LANES32_VEC_SPLIT}},
};
// One lockstep group and one work-group per line, by how they load lines
// (cl/symbols.h's GEMV_LOADS_*; long lines: one lockstep group only).
static const enum kernel_id wide_kernels[4][2] = {
    [GEMV_LOADS_SCALAR] = {KERNEL_GEMV_ROW_WIDE, KERNEL_GEMV_ROW_WIDE_SPLIT},
    [GEMV_LOADS_VECTOR] = {KERNEL_GEMV_ROW_WIDE_VEC, KERNEL_GEMV_ROW_WIDE_VEC_SPLIT},
    [GEMV_LOADS_SHIFTED] = {KERNEL_GEMV_ROW_WIDE_SHIFTED, KERNEL_GEMV_ROW_WIDE_SHIFTED_SPLIT},
    [GEMV_LOADS_SCALAR_LONG] = {KERNEL_GEMV_ROW_WIDE_LONG, KERNEL_GEMV_ROW_WIDE_LONG_SPLIT}};
static const enum kernel_id group_kernels[3][2] = {
    [GEMV_LOADS_SCALAR] = {KERNEL_GEMV_ROW_GROUP, KERNEL_GEMV_ROW_GROUP_SPLIT},
    [GEMV_LOADS_VECTOR] = {KERNEL_GEMV_ROW_GROUP_VEC, KERNEL_GEMV_ROW_GROUP_VEC_SPLIT},
    [GEMV_LOADS_SHIFTED] = {KERNEL_GEMV_ROW_GROUP_SHIFTED, KERNEL_GEMV_ROW_GROUP_SHIFTED_SPLIT}};
// The wide vector kernels with x staged in local memory, by [vector or
// shifted vector loads].
static kernel_pairs wide_staged_kernels = {
    {KERNEL_GEMV_ROW_WIDE_STAGED, KERNEL_GEMV_ROW_WIDE_STAGED_SPLIT},
    {KERNEL_GEMV_ROW_WIDE_STAGED_SHIFTED, KERNEL_GEMV_ROW_WIDE_STAGED_SHIFTED_SPLIT}};
static kernel_pairs column_kernels = {{KERNEL_GEMV_COL, KERNEL_GEMV_COL_SPLIT},
                                      {KERNEL_GEMV_COL_VEC, KERNEL_GEMV_COL_VEC_SPLIT}};

// Whether a call's row kernel, which would gather x on every line (or block
// of lines), had better have gemv_gather_x copy it first: one launch more,
// worth it from GEMV_GATHER_X_MIN_ELEMENTS elements of A on, where x (from
// element `base` of the workspace on) fits the workspace.
static int gather_pays(const struct gemv_call *c, cl_ulong base)
{
    cl_ulong min_elements = (cl_ulong)tune(c->ctx, TUNE_GEMV_GATHER_X_MIN_ELEMENTS);
    return min_elements > 0 && c->outputs * c->k >= min_elements &&
           (base + c->k) * c->in_bytes <= workspace_limit_bytes(&c->ctx->info);
}

// Dots along lines: several lines per lockstep group for short dots, one
// lockstep group per line, or a work-group per line for long ones; vector
// loads of A where its lines are aligned. The kernels load x as vectors
// where it is unit-stride and aligned. Otherwise the one-lockstep-group-per-
// line kernels gather it into local memory once for the group's lines
// (GEMV_X_CHUNK); the others would gather it on every line, and in calls of
// GEMV_GATHER_X_MIN_ELEMENTS elements of A or more gemv_gather_x copies it
// into a workspace first, where it is unit-stride and aligned: one more
// launch, worth it where the lines are many. The scalar kernels load x
// element by element, so only a strided x costs them. Long lines that share
// one alignment off the vector (A's offset, lda a multiple of the vector)
// take the shifted vector kernels: each line from its first whole vector on,
// x from the same element on, the `head` of elements before apart. Short
// ones (the multi-row kernels) keep the scalar kernels, which hold fewer
// registers and so more lines in flight.
static void plan_rows(const struct gemv_call *c, struct gemv_plan *p)
{
    const int *t = c->ctx->profile.tune;
    cl_ulong group = (cl_ulong)t[TUNE_GEMV_ROW_WG], batch = (cl_ulong)t[TUNE_GEMV_ROW_BATCH];
    cl_ulong width = vector_elements(t[TUNE_GEMV_VECTOR], c->in_bytes), lanes;
    int lines_aligned = c->lda % width == 0 || c->outputs == 1;
    int aligned = lines_aligned && c->a_offset % width == 0;
    int wants_vector = c->k >= (cl_ulong)t[TUNE_GEMV_VECTOR_MIN_K];
    const enum kernel_id(*family)[2];
    int shiftable = 1;
    if (c->k <= (cl_ulong)t[TUNE_GEMV_MULTI_ROW_MAX_K]) {
        cl_ulong elements = (cl_ulong)t[TUNE_GEMV_MULTI_ROW_ELEMENTS];
        unsigned log2_lanes = 0;
        // GEMV_MULTI_ROW_LANES is at most 32, the last of lane_kernels.
        while (log2_lanes + 1 < sizeof lane_kernels / sizeof lane_kernels[0] &&
               (elements << log2_lanes) < c->k && (1 << log2_lanes) < t[TUNE_GEMV_MULTI_ROW_LANES])
            ++log2_lanes;
        lanes = 1ull << log2_lanes;
        wants_vector = elements >= width;
        family = lane_kernels[log2_lanes];
        shiftable = 0;
    } else if (c->k >= (cl_ulong)t[TUNE_GEMV_GROUP_MIN_K]) {
        lanes = group;
        batch = 1;
        family = group_kernels;
    } else {
        lanes = (cl_ulong)row_lanes(&c->ctx->profile);
        family = wide_kernels;
    }
    int shifted = wants_vector && lines_aligned && !aligned && shiftable;
    int vector = (wants_vector && aligned) || shifted;
    p->head = shifted ? min_u64(c->k, width - c->a_offset % width) : 0;
    cl_ulong rows_per_group = group / lanes * batch;
    int x_gathered = c->incx != 1 || (c->x_base + p->head) % width != 0;
    int staged = vector && x_gathered && family == wide_kernels && rows_per_group > 1 &&
                 t[TUNE_GEMV_X_CHUNK] > 0;
    p->gathered_x_base = (width - p->head) % width;
    p->gather_x = !staged && (vector ? x_gathered : c->incx != 1) && gather_pays(c, p->gathered_x_base);
    cl_ulong blocks = ceil_div(c->outputs, rows_per_group);
    plan_slices(c, p, blocks, min_u64(rows_per_group, c->outputs) * c->k,
                vector ? lanes * width : lanes);
    p->op.launches += (size_t)p->gather_x;
    p->global[0] = (size_t)(blocks * group);
    p->global[1] = p->slices;
    p->local[0] = (size_t)group;
    p->local[1] = 1;
    // More loads in flight where a lane's share of the scalar one-lockstep-
    // group-per-line kernel's dots is long (on short ones the clamped last
    // loads and the fewer groups a unit those registers allow cost more).
    cl_ulong long_min = (cl_ulong)t[TUNE_GEMV_LONG_LINE_ELEMENTS];
    int long_lines = !vector && family == wide_kernels && long_min > 0 && p->slice >= long_min * lanes;
    static const char *const scalar_lines[2][2] = {{"", "/long-lines"},
                                                   {"/general-stride", "/general-stride/long-lines"}};
    const char *lines = shifted ? "/shifted" : scalar_lines[wants_vector && !vector][long_lines];
    int loads = long_lines ? GEMV_LOADS_SCALAR_LONG
                : shifted  ? GEMV_LOADS_SHIFTED
                : vector   ? GEMV_LOADS_VECTOR
                           : GEMV_LOADS_SCALAR;
    name_variant(p, staged ? wide_staged_kernels[shifted] : family[loads],
                 vector ? (size_t)width : 0, staged ? "/staged-x" : p->gather_x ? "/gathered-x" : "",
                 lines);
}

// Dots across lines: TX work-items of a group along the outputs, the rest of
// the group (TY) splitting the lines; TX shrinks for few outputs. Where
// there are fewer than GEMV_COL_UNROLL lines for each of the TY rows of
// work-items, TY halves (and TX doubles while outputs remain) until there
// are, so that few lines still keep every work-item's loads in flight.
static void plan_columns(const struct gemv_call *c, struct gemv_plan *p)
{
    const int *t = c->ctx->profile.tune;
    cl_ulong width = vector_elements(t[TUNE_GEMV_COL_VECTOR], c->in_bytes);
    cl_ulong group = (cl_ulong)t[TUNE_GEMV_COL_WG];
    int aligned = c->a_offset % width == 0 && (c->lda % width == 0 || c->k == 1);
    cl_ulong needed = ceil_div(c->outputs, width), tx = 1;
    while (tx < needed && tx < (cl_ulong)t[TUNE_GEMV_COL_THREADS])
        tx *= 2;
    cl_ulong ty = group / tx, lines = (cl_ulong)t[TUNE_GEMV_COL_UNROLL];
    while (ty > 1 && ty * lines > c->k) {
        ty /= 2;
        if (tx < needed)
            tx *= 2;
    }
    cl_ulong blocks = ceil_div(c->outputs, tx * width);
    plan_slices(c, p, blocks, min_u64(tx * width, c->outputs) * c->k, ty);
    p->global[0] = (size_t)(blocks * tx);
    p->global[1] = p->slices * (size_t)ty;
    p->local[0] = (size_t)tx;
    p->local[1] = (size_t)ty;
    name_variant(p, column_kernels[aligned], aligned ? (size_t)width : 0, "",
                 aligned ? "" : "/general-stride");
}

// CPUs: a few long contiguous shares per core, one work-item each. Rows:
// blocks of GEMV_CPU_VECTOR lines, enough blocks for the cores. Columns: as
// many outputs per work-item as its sums in private memory hold
// (GEMV_CPU_COLS), so that each line is read in one long run; split dots then
// find work for the other cores. The row kernel gathers a strided x for each
// block of lines, element by element: gathered once first where A is large.
static void plan_cpu(const struct gemv_call *c, struct gemv_plan *p)
{
    const int *t = c->ctx->profile.tune;
    cl_ulong vector = (cl_ulong)t[TUNE_GEMV_CPU_VECTOR], per_item;
    if (c->rows)
        per_item = round_up(max_u64(1, ceil_div(c->outputs, target_groups(&c->ctx->profile,
                                                                           &c->ctx->info))),
                            vector);
    else
        per_item = min_u64((cl_ulong)t[TUNE_GEMV_CPU_COLS], round_up(c->outputs, vector));
    cl_ulong blocks = ceil_div(c->outputs, per_item);
    plan_slices(c, p, blocks, min_u64(per_item, c->outputs) * c->k, c->rows ? vector : 1);
    p->per_item = per_item;
    p->global[0] = (size_t)blocks;
    p->global[1] = p->slices;
    p->local[0] = p->local[1] = 1;
    p->gather_x = c->rows && c->incx != 1 && gather_pays(c, 0);
    p->op.launches += (size_t)p->gather_x;
    const enum kernel_id kernel = c->rows ? KERNEL_GEMV_CPU_ROWS : KERNEL_GEMV_CPU_COLS;
    const enum kernel_id pair[2] = {kernel, kernel};
    name_variant(p, pair, 0, p->gather_x ? "/gathered-x" : "", "");
}

// The program of A's and x's type, [16-bit: f16, bf16][CPU kernels].
static enum program_id program_of(const struct gemv_call *c)
{
    static const enum program_id programs[3][2] = {
        {PROGRAM_GEMV_F32, PROGRAM_GEMV_CPU_F32},
        {PROGRAM_GEMV_F16, PROGRAM_GEMV_CPU_F16},
        {PROGRAM_GEMV_BF16, PROGRAM_GEMV_CPU_BF16},
    };
    int type = c->in_type == TAILOR_F16 ? 1 : c->in_type == TAILOR_BF16 ? 2 : 0;
    return programs[type][tune(c->ctx, TUNE_GEMV_CPU_KERNELS) != 0];
}

static void plan_call(const struct gemv_call *c, struct gemv_plan *p)
{
    p->op.program = program_of(c);
    if (tune(c->ctx, TUNE_GEMV_CPU_KERNELS))
        plan_cpu(c, p);
    else if (c->rows)
        plan_rows(c, p);
    else
        plan_columns(c, p);
}

// Sums the partial results of a split launch (after `first`) into y.
static tailor_status finish(const struct gemv_call *c, const struct gemv_plan *p, cl_mem scratch,
                            cl_event first)
{
    size_t group = (size_t)tune(c->ctx, TUNE_GEMV_ROW_WG);
    size_t global = (size_t)round_up(c->outputs, group);
    struct kernel_args args = {0};
    args_mem(&args, c->y);
    args_u32(&args, (cl_uint)c->y_type);
    args_u64(&args, c->y_base);
    args_i64(&args, c->incy);
    args_u64(&args, c->outputs);
    args_u32(&args, (cl_uint)p->slices);
    args_f32(&args, c->alpha);
    args_f32(&args, c->beta);
    args_mem(&args, scratch);
    args_u64(&args, c->scratch.partials_at);
    return kernel_launch(c->ctx, p->op.program, KERNEL_GEMV_FINISH, &args, c->queue, 1, &global,
                         &group, 1, &first, c->event);
}

// The call's scalars as the kernels unpack them (cl/symbols.h: GEMV_CALL_*).
static cl_ulong16 pack_call(const struct gemv_call *c, const struct gemv_plan *p)
{
    cl_uint alpha_bits, beta_bits;
    memcpy(&alpha_bits, &c->alpha, sizeof alpha_bits);
    memcpy(&beta_bits, &c->beta, sizeof beta_bits);
    cl_ulong16 packed;
    memset(&packed, 0, sizeof packed);
    packed.s[GEMV_CALL_A_OFFSET] = c->a_offset + p->head;
    packed.s[GEMV_CALL_LDA] = c->lda;
    packed.s[GEMV_CALL_X_BASE] = c->x_base + p->head * (cl_ulong)c->incx;
    packed.s[GEMV_CALL_HEAD] = p->head;
    packed.s[GEMV_CALL_INCX] = (cl_ulong)c->incx;
    packed.s[GEMV_CALL_Y_BASE] = c->y_base;
    packed.s[GEMV_CALL_INCY] = (cl_ulong)c->incy;
    packed.s[GEMV_CALL_OUTPUTS] = c->outputs;
    packed.s[GEMV_CALL_K] = c->k - p->head;
    packed.s[GEMV_CALL_PER_ITEM] = p->per_item;
    packed.s[GEMV_CALL_SLICE] = p->slice;
    packed.s[GEMV_CALL_ALPHA_BETA] = alpha_bits | (cl_ulong)beta_bits << 32;
    packed.s[GEMV_CALL_TICKETS_AT] = c->scratch.tickets_at;
    packed.s[GEMV_CALL_PARTIALS_AT] = c->scratch.partials_at;
    packed.s[GEMV_CALL_Y_TYPE] = (cl_ulong)c->y_type;
    return packed;
}

static tailor_status launch_kernel(const struct gemv_call *c, const struct gemv_plan *p)
{
    struct kernel_lease kernel = {0};
    struct scratch_lease scratch = {0};
    cl_event first = NULL;
    tailor_status status = kernel_acquire(c->ctx, p->op.program, p->op.kernel, &kernel);
    if (status == TAILOR_SUCCESS && p->slices > 1)
        status = scratch_acquire(operation_scratch(c->ctx, OP_GEMV), c->queue,
                                 (size_t)(c->scratch.partials_at + c->outputs * p->slices) * 4,
                                 c->wait_count, c->wait_list, &scratch);
    cl_ulong16 packed = pack_call(c, p);
    struct kernel_args args = {0};
    args_mem(&args, c->a);
    args_mem(&args, c->x);
    args_mem(&args, c->y);
    args_ulong16(&args, &packed);
    // Split GPU kernels and every CPU kernel take the scratch buffer last.
    if (p->slices > 1 || tune(c->ctx, TUNE_GEMV_CPU_KERNELS))
        args_mem(&args, scratch.buffer);
    if (status == TAILOR_SUCCESS)
        status = kernel_set_args(&kernel, &args);
    if (status == TAILOR_SUCCESS) {
        cl_uint wait_count = scratch.ready ? 1 : c->wait_count;
        const cl_event *wait_list = scratch.ready ? &scratch.ready : c->wait_list;
        status = kernel_enqueue(&kernel, c->queue, 2, p->global, p->local, wait_count, wait_list,
                                p->two_pass ? &first : c->event);
    }
    if (status == TAILOR_SUCCESS && p->two_pass)
        status = finish(c, p, scratch.buffer, first);
    if (first)
        clReleaseEvent(first);
    scratch_release(&scratch);
    kernel_release(&kernel);
    return status;
}

// x copied into a workspace, then the call reading it there (unit-stride,
// aligned); the lease keeps other threads' calls on the queue from
// overwriting it before the kernel that reads it is enqueued. An in-order
// queue orders the two launches without an event, which costs the host
// time on every call.
static tailor_status launch_gathered(const struct gemv_call *c, const struct gemv_plan *p)
{
    struct workspace_lease lease;
    tailor_status status = workspace_acquire(c->ctx->workspaces, c->queue,
                                             (size_t)(p->gathered_x_base + c->k) * c->in_bytes, &lease);
    if (status != TAILOR_SUCCESS)
        return status;
    size_t group = (size_t)tune(c->ctx, TUNE_GEMV_ROW_WG);
    size_t global = (size_t)round_up(c->k, group);
    struct kernel_args args = {0};
    args_mem(&args, c->x);
    args_u64(&args, c->x_base);
    args_i64(&args, c->incx);
    args_u64(&args, c->k);
    args_mem(&args, lease.buffer);
    args_u64(&args, p->gathered_x_base);
    cl_event gathered = NULL;
    int in_order = queue_in_order(c->queue);
    status = kernel_launch(c->ctx, p->op.program, KERNEL_GEMV_GATHER_X, &args, c->queue, 1, &global,
                           &group, c->wait_count, c->wait_list, in_order ? NULL : &gathered);
    if (status == TAILOR_SUCCESS) {
        struct gemv_call call = *c;
        call.x = lease.buffer;
        call.x_base = p->gathered_x_base;
        call.incx = 1;
        call.wait_count = in_order ? 0 : 1;
        call.wait_list = in_order ? NULL : &gathered;
        status = launch_kernel(&call, p);
    }
    if (gathered)
        clReleaseEvent(gathered);
    workspace_release(&lease);
    return status;
}

static tailor_status launch(const struct gemv_call *c, const struct gemv_plan *p)
{
    return p->gather_x ? launch_gathered(c, p) : launch_kernel(c, p);
}

// y = beta * y (alpha == 0 or empty dots): A and x are not read, nor y when
// beta == 0.
static tailor_status scale(const struct gemv_call *c)
{
    size_t group = (size_t)tune(c->ctx, TUNE_GEMV_ROW_WG);
    size_t global = (size_t)round_up(c->outputs, group);
    struct kernel_args args = {0};
    args_mem(&args, c->y);
    args_u32(&args, (cl_uint)c->y_type);
    args_u64(&args, c->y_base);
    args_i64(&args, c->incy);
    args_u64(&args, c->outputs);
    args_f32(&args, c->beta);
    return kernel_launch(c->ctx, program_of(c), KERNEL_GEMV_SCALE, &args, c->queue, 1, &global,
                         &group, c->wait_count, c->wait_list, c->event);
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
    size_t in = c->in_bytes, out = c->y_bytes;
    tailor_status status =
        check_vector(ctx, c->y, "y", y_offset, (size_t)c->outputs, c->incy, out, y_access);
    if (status == TAILOR_SUCCESS)
        status = check_matrix(ctx, c->a, "A", a_offset, lines, length, (size_t)c->lda, in,
                              BUFFER_READ);
    if (status == TAILOR_SUCCESS)
        status = check_vector(ctx, c->x, "x", x_offset, (size_t)c->k, c->incx, in, BUFFER_READ);
    if (status != TAILOR_SUCCESS)
        return status;
    size_t y_bytes = vector_extent((size_t)c->outputs, c->incy) * out;
    REQUIRE(c->y != c->a || !ranges_overlap(y_offset * out, y_bytes, a_offset * in,
                                            matrix_extent(lines, length, (size_t)c->lda) * in),
            TAILOR_ERROR_BUFFERS_OVERLAP, "y overlaps A in the same buffer");
    REQUIRE(c->y != c->x || !ranges_overlap(y_offset * out, y_bytes, x_offset * in,
                                            vector_extent((size_t)c->k, c->incx) * in),
            TAILOR_ERROR_BUFFERS_OVERLAP, "y overlaps x in the same buffer");
    return TAILOR_SUCCESS;
}

static tailor_status check_dtype(tailor_dtype type, const char *what)
{
    REQUIRE((unsigned)type <= TAILOR_3XTF32, TAILOR_ERROR_UNKNOWN_DTYPE,
            "%s: %d is not a tailor_dtype", what, (int)type);
    REQUIRE(type == TAILOR_F32 || type == TAILOR_F16 || type == TAILOR_BF16,
            TAILOR_ERROR_UNSUPPORTED, "%s: GEMV takes f32, f16 or bf16, not %s", what,
            type == TAILOR_F64 ? "f64" : "TAILOR_3XTF32 (tailor_gemm's only)");
    return TAILOR_SUCCESS;
}

// The checks of tailor_gemv that need no buffer, in its order around the
// queue's, and the call in the kernels' terms (no buffers yet).
static tailor_status check_enums(tailor_layout layout, tailor_trans trans, tailor_dtype in_type,
                                 tailor_dtype y_type)
{
    REQUIRE(layout == TAILOR_ROW_MAJOR || layout == TAILOR_COLUMN_MAJOR, TAILOR_ERROR_UNKNOWN_LAYOUT,
            "%d is not a tailor_layout", (int)layout);
    REQUIRE(trans == TAILOR_NO_TRANS || trans == TAILOR_TRANS, TAILOR_ERROR_UNKNOWN_TRANSPOSE,
            "%d is not a tailor_trans", (int)trans);
    tailor_status status = check_dtype(in_type, "ab_type");
    return status == TAILOR_SUCCESS ? check_dtype(y_type, "y_type") : status;
}

static tailor_status shape_call(tailor_context *ctx, tailor_layout layout, tailor_trans trans,
                                size_t m, size_t n, tailor_dtype in_type, tailor_dtype y_type,
                                size_t lda, long long incx, long long incy, struct gemv_call *call)
{
    // Lines are rows in row-major storage and columns in column-major.
    size_t length = layout == TAILOR_ROW_MAJOR ? n : m;
    REQUIRE(lda >= length && lda >= 1, TAILOR_ERROR_INVALID_LEADING_DIMENSION,
            "lda is %zu, less than max(1, %zu)", lda, length);
    REQUIRE(incx != 0, TAILOR_ERROR_INVALID_INCREMENT, "incx is 0");
    REQUIRE(incy != 0, TAILOR_ERROR_INVALID_INCREMENT, "incy is 0");
    call->ctx = ctx;
    call->in_type = in_type;
    call->y_type = y_type;
    call->in_bytes = dtype_bytes(in_type);
    call->y_bytes = dtype_bytes(y_type);
    call->rows = (layout == TAILOR_ROW_MAJOR) == (trans == TAILOR_NO_TRANS);
    call->outputs = trans == TAILOR_NO_TRANS ? m : n;
    call->k = trans == TAILOR_NO_TRANS ? n : m;
    call->lda = lda;
    call->incx = incx;
    call->incy = incy;
    return operation_ready(ctx, OP_GEMV);
}

// BLAS order: a negative increment starts the vector at its far end.
static void place_vectors(struct gemv_call *c, size_t x_offset, size_t y_offset)
{
    c->x_offset = x_offset;
    c->x_base = x_offset + (c->incx < 0 && c->k > 0 ? (c->k - 1) * magnitude(c->incx) : 0);
    c->y_base = y_offset + (c->incy < 0 ? (c->outputs - 1) * magnitude(c->incy) : 0);
    layout_scratch(&c->ctx->profile, &c->ctx->info, &c->scratch);
}

// Empty dots or alpha == 0 scale y (beta != 1) or leave it (beta == 1).
static int scales_only(const struct gemv_call *c)
{
    return c->k == 0 || c->alpha == 0.0f;
}

static tailor_status explain(tailor_context *ctx, const tailor_call *call, struct op_plan *plan)
{
    struct gemv_call c = {0};
    size_t length = call->layout == TAILOR_ROW_MAJOR ? call->n : call->m;
    size_t lda = call->lda ? call->lda : length > 0 ? length : 1;
    tailor_status status = check_enums(call->layout, call->trans_a, call->dtype, call->c_type);
    if (status == TAILOR_SUCCESS)
        status = shape_call(ctx, call->layout, call->trans_a, call->m, call->n, call->dtype,
                            call->c_type, lda, call->incx ? call->incx : 1,
                            call->incy ? call->incy : 1, &c);
    if (status != TAILOR_SUCCESS || c.outputs == 0)
        return status;
    c.alpha = call->alpha;
    c.beta = call->beta;
    c.a_offset = call->a_offset;
    place_vectors(&c, call->b_offset, call->c_offset);
    if (scales_only(&c)) {
        if (c.beta != 1.0f) {
            *plan = (struct op_plan){program_of(&c), KERNEL_GEMV_SCALE, 1, "scale"};
        }
        return TAILOR_SUCCESS;
    }
    struct gemv_plan p = {0};
    plan_call(&c, &p);
    *plan = p.op;
    return TAILOR_SUCCESS;
}

// The staging areas first (the row kernels' x, the column kernels' sums), then
// the row kernels' groups.
static const struct shrink_step shrink_steps[] = {
    {16, 1, {TUNE_GEMV_X_CHUNK}},
    {1, 2, {TUNE_GEMV_COL_WG, TUNE_GEMV_COL_THREADS}},
    {0, 1, {TUNE_GEMV_COL_VECTOR}},
    {0, 1, {TUNE_GEMV_ROW_WG}},
};

const struct operation gemv_operation = {
    check, scratch_bytes, explain, NULL, &gemv_tune_tasks, shrink_steps,
    sizeof shrink_steps / sizeof shrink_steps[0], NULL};

tailor_status tailor_gemv(tailor_context *ctx, cl_command_queue queue, tailor_layout layout,
                          tailor_trans trans, size_t m, size_t n, float alpha, tailor_dtype ab_type,
                          cl_mem a, size_t a_offset, size_t lda, cl_mem x, size_t x_offset,
                          long long incx, float beta, tailor_dtype y_type, cl_mem y,
                          size_t y_offset, long long incy, cl_uint num_events_in_wait_list,
                          const cl_event *event_wait_list, cl_event *event)
{
    operation_begin();
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    tailor_status status = check_enums(layout, trans, ab_type, y_type);
    if (status == TAILOR_SUCCESS)
        status = check_enqueue(ctx, queue, num_events_in_wait_list, event_wait_list);
    struct gemv_call call = {0};
    if (status == TAILOR_SUCCESS)
        status = shape_call(ctx, layout, trans, m, n, ab_type, y_type, lda, incx, incy, &call);
    if (status != TAILOR_SUCCESS)
        return status;
    if (call.outputs == 0)
        return enqueue_nothing(queue, num_events_in_wait_list, event_wait_list, event);
    call.queue = queue;
    call.alpha = alpha;
    call.beta = beta;
    call.a = a;
    call.x = x;
    call.y = y;
    call.a_offset = a_offset;
    call.wait_count = num_events_in_wait_list;
    call.wait_list = event_wait_list;
    call.event = event;
    size_t lines = layout == TAILOR_ROW_MAJOR ? m : n, length = layout == TAILOR_ROW_MAJOR ? n : m;
    status = check_operands(ctx, &call, lines, length, a_offset, x_offset, y_offset);
    if (status != TAILOR_SUCCESS)
        return status;
    place_vectors(&call, x_offset, y_offset);
    if (scales_only(&call)) {
        if (beta == 1.0f)
            return enqueue_nothing(queue, num_events_in_wait_list, event_wait_list, event);
        status = scale(&call);
        if (status == TAILOR_SUCCESS)
            variant_set("scale");
        return status;
    }
    struct gemv_plan plan = {0};
    plan_call(&call, &plan);
    status = launch(&call, &plan);
    if (status == TAILOR_SUCCESS)
        variant_set(plan.op.variant);
    return status;
}

tailor_status tailor_sgemv(tailor_context *ctx, cl_command_queue queue, tailor_layout layout,
                           tailor_trans trans, size_t m, size_t n, float alpha, cl_mem a,
                           size_t a_offset, size_t lda, cl_mem x, size_t x_offset, long long incx,
                           float beta, cl_mem y, size_t y_offset, long long incy,
                           cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                           cl_event *event)
{
    return tailor_gemv(ctx, queue, layout, trans, m, n, alpha, TAILOR_F32, a, a_offset, lda, x,
                       x_offset, incx, beta, TAILOR_F32, y, y_offset, incy, num_events_in_wait_list,
                       event_wait_list, event);
}
