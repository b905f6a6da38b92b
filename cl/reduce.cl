// Reductions: sum, min and max of f32, f64, f16 or bf16 data.
//
// Variant defines: REAL (the arithmetic: float or double), REAL_BYTES (f32
// and f64 only), REDUCE_IN (the stored type, DTYPE_*), REDUCE_OP.
// Tuning defines: src/ops/reduce/reduce_tables.h lists them.
#include "prelude.cl"

#if REDUCE_IN == DTYPE_F16 || REDUCE_IN == DTYPE_BF16
// 16-bit storage is converted as it is read; the arithmetic (REAL) and the
// partial results stay float, and storing the result is the one rounding to
// the stored type (f16 overflow gives infinity).
#define IN_T ushort
#define IN_BYTES 2
#define STORE_RESULT(p, i, v) store_real(p, i, REDUCE_IN, v)
#else
#define IN_T REAL
#define IN_BYTES REAL_BYTES
#define STORE_RESULT(p, i, v) (p)[i] = (v)
#endif

// Elements of one vector load, counted in the stored type so that a load
// moves REDUCE_VECTOR_BYTES; 16 (OpenCL C's widest vector) at most, which
// caps 16-bit data at 32-byte loads.
#if REDUCE_VECTOR_BYTES / IN_BYTES >= 16
#define VEC 16
#elif REDUCE_VECTOR_BYTES / IN_BYTES == 8
#define VEC 8
#elif REDUCE_VECTOR_BYTES / IN_BYTES == 4
#define VEC 4
#elif REDUCE_VECTOR_BYTES / IN_BYTES == 2
#define VEC 2
#else
#error "REDUCE_VECTOR_BYTES must hold at least 2 elements"
#endif
#define REALV CAT(REAL, VEC)
#define IN_V CAT(IN_T, VEC)

#if REDUCE_IN == DTYPE_F16
#define LOAD(p, i) vload_half(i, (const __global half *)(p))
#define LOAD_VEC(p, i) VLOADA_F16(VEC, i, p)
#elif REDUCE_IN == DTYPE_BF16
#define LOAD(p, i) bf16_to_float((p)[i])
#define LOAD_VEC(p, i) CAT(bf16_to_float, VEC)((p)[i])
#else
#define LOAD(p, i) (p)[i]
#define LOAD_VEC(p, i) (p)[i]
#endif

#if REDUCE_OP == REDUCE_SUM
#define COMBINE(a, b) ((a) + (b))
#define IDENTITY ((REAL)0)
#define SUBGROUP_REDUCE sub_group_reduce_add
#elif REDUCE_OP == REDUCE_MIN
// NaN is the identity of fmin/fmax, so all-NaN input gives NaN and NaNs
// among numbers are ignored.
#define COMBINE(a, b) fmin(a, b)
#define IDENTITY ((REAL)NAN)
#define SUBGROUP_REDUCE subgroup_fmin
#elif REDUCE_OP == REDUCE_MAX
#define COMBINE(a, b) fmax(a, b)
#define IDENTITY ((REAL)NAN)
#define SUBGROUP_REDUCE subgroup_fmax
#else
#error "unknown REDUCE_OP"
#endif

#if REDUCE_OP == REDUCE_SUM
// Compensated (Kahan) accumulation keeps a work-item's rounding error
// independent of how many blocks it adds; a block adds REDUCE_UNROLL vectors.
// A non-finite compensation (infinite data) is dropped so infinities survive.
#define ACCUMULATE(total, compensation, block)                                                  \
    do {                                                                                        \
        REALV y_ = (block) - (compensation);                                                    \
        REALV t_ = (total) + y_;                                                                \
        REALV c_ = (t_ - (total)) - y_;                                                         \
        (compensation) = select((REALV)(0), c_, isfinite(c_));                                  \
        (total) = t_;                                                                           \
    } while (0)
#define FINISH(total, compensation) ((total) - (compensation))
#else
#define ACCUMULATE(total, compensation, block) ((total) = COMBINE(total, block))
#define FINISH(total, compensation) (total)
#endif

#if USE_SUBGROUPS && REDUCE_OP != REDUCE_SUM
// sub_group_reduce_min/max need not ignore NaN as fmin/fmax do (POCL's
// double version does not): NaNs become the opposite infinity for the
// built-in, and the result is NaN only where every lane was NaN.
static inline REAL subgroup_fmin(REAL v)
{
    REAL r = sub_group_reduce_min(isnan(v) ? (REAL)INFINITY : v);
    return sub_group_any(!isnan(v)) ? r : (REAL)NAN;
}

static inline REAL subgroup_fmax(REAL v)
{
    REAL r = sub_group_reduce_max(isnan(v) ? (REAL)-INFINITY : v);
    return sub_group_any(!isnan(v)) ? r : (REAL)NAN;
}
#endif

DEFINE_GROUP_REDUCE(group_reduce, REAL, COMBINE, IDENTITY, SUBGROUP_REDUCE, REDUCE_WG_SIZE)

static inline REAL lanes_combine(REALV v)
{
    REAL lane[VEC];
    CAT(vstore, VEC)(v, 0, lane);
    for (uint width = VEC / 2; width > 0; width /= 2)
        for (uint i = 0; i < width; ++i)
            lane[i] = COMBINE(lane[i], lane[i + width]);
    return lane[0];
}

// Work-item `item` of `items` combines its share of x[x_offset .. x_offset+n).
// The elements before the first VEC-aligned address and after the last whole
// vector are dealt out one at a time; aligned vectors are loaded whole.
static inline REAL work_item_reduce(const __global IN_T *x, ulong x_offset, ulong n, ulong item,
                             ulong items)
{
    const __global IN_T *base = x + x_offset;
    ulong misalignment = x_offset % VEC;
    ulong head = misalignment ? min(n, (ulong)(VEC - misalignment)) : 0;
    ulong vectors = (n - head) / VEC;
    ulong tail_start = head + vectors * VEC;
    const __global IN_V *body = (const __global IN_V *)(base + head);

    REALV total = (REALV)(IDENTITY);
    REALV compensation = (REALV)(0);
    REALV rest = (REALV)(IDENTITY);
#if REDUCE_CONTIGUOUS
    // One contiguous run per work-item, which the compiler turns into wide
    // vector loads with the prefetcher streaming ahead.
    ulong per_item = (vectors + items - 1) / items;
    ulong begin = min(vectors, item * per_item);
    ulong end = min(vectors, begin + per_item);
    ulong i = begin;
    for (; i + REDUCE_UNROLL <= end; i += REDUCE_UNROLL) {
        REALV block = LOAD_VEC(body, i);
        for (uint u = 1; u < REDUCE_UNROLL; ++u)
            block = COMBINE(block, LOAD_VEC(body, i + u));
        ACCUMULATE(total, compensation, block);
    }
    for (; i < end; ++i)
        rest = COMBINE(rest, LOAD_VEC(body, i));
#else
    // Grid-stride: neighbouring work-items load neighbouring vectors
    // (coalesced), REDUCE_UNROLL independent loads in flight per work-item.
    ulong i = item;
    for (; i + (REDUCE_UNROLL - 1) * items < vectors; i += REDUCE_UNROLL * items) {
        REALV block = LOAD_VEC(body, i);
        for (uint u = 1; u < REDUCE_UNROLL; ++u)
            block = COMBINE(block, LOAD_VEC(body, i + u * items));
        ACCUMULATE(total, compensation, block);
    }
    for (; i < vectors; i += items)
        rest = COMBINE(rest, LOAD_VEC(body, i));
#endif
    ACCUMULATE(total, compensation, rest);
    REAL v = lanes_combine(FINISH(total, compensation));
    for (ulong i = item; i < head; i += items)
        v = COMBINE(v, LOAD(base, i));
    for (ulong i = tail_start + item; i < n; i += items)
        v = COMBINE(v, LOAD(base, i));
    return v;
}

// Combines the first `count` partial results with one work-group.
static inline REAL combine_partials(volatile const __global REAL *partials, uint count,
                             __local REAL *scratch)
{
    REAL v = IDENTITY;
    for (uint i = get_local_id(0); i < count; i += REDUCE_WG_SIZE)
        v = COMBINE(v, partials[i]);
    return group_reduce(v, scratch);
}

// Small n: one work-group does everything, no scratch buffer.
__kernel __attribute__((reqd_work_group_size(REDUCE_WG_SIZE, 1, 1)))
void reduce_single_group(const __global IN_T *x, ulong x_offset, ulong n,
                         __global IN_T *result, ulong result_offset)
{
    __local REAL scratch[REDUCE_WG_SIZE];
    REAL v = work_item_reduce(x, x_offset, n, get_local_id(0), REDUCE_WG_SIZE);
    v = group_reduce(v, scratch);
    if (get_local_id(0) == 0)
        STORE_RESULT(result, result_offset, v);
}

// Each work-group writes its partial result. With REDUCE_ONE_PASS the last
// group to finish (counted with an atomic ticket, as in the classic
// threadfence reduction) combines the partials and resets the counter;
// otherwise reduce_partials runs next.
__kernel __attribute__((reqd_work_group_size(REDUCE_WG_SIZE, 1, 1)))
void reduce_groups(const __global IN_T *x, ulong x_offset, ulong n,
                   __global uint *scratch_buffer, __global IN_T *result, ulong result_offset)
{
    __local REAL scratch[REDUCE_WG_SIZE];
    __global REAL *partials =
        (__global REAL *)((__global uchar *)scratch_buffer + REDUCE_SCRATCH_PARTIALS_OFFSET);
    uint lid = get_local_id(0);
    REAL v = work_item_reduce(x, x_offset, n, get_global_id(0), get_global_size(0));
    v = group_reduce(v, scratch);
    if (lid == 0)
        partials[get_group_id(0)] = v;
#if REDUCE_ONE_PASS
    __local int is_last_group;
    if (lid == 0) {
        device_fence();
        is_last_group = atomic_inc(scratch_buffer) == get_num_groups(0) - 1;
        device_fence();
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (is_last_group) {
        v = combine_partials(partials, get_num_groups(0), scratch);
        if (lid == 0) {
            STORE_RESULT(result, result_offset, v);
            scratch_buffer[0] = 0;
        }
    }
#else
    (void)result;
    (void)result_offset;
#endif
}

__kernel __attribute__((reqd_work_group_size(REDUCE_WG_SIZE, 1, 1)))
void reduce_partials(const __global uint *scratch_buffer, uint count, __global IN_T *result,
                     ulong result_offset)
{
    __local REAL scratch[REDUCE_WG_SIZE];
    const __global REAL *partials = (const __global REAL *)((const __global uchar *)scratch_buffer +
                                                             REDUCE_SCRATCH_PARTIALS_OFFSET);
    REAL v = combine_partials(partials, count, scratch);
    if (get_local_id(0) == 0)
        STORE_RESULT(result, result_offset, v);
}
