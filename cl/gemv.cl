// GEMV: y = alpha * op(A) * x + beta * y, A and x in f32, f16 or bf16 (the
// program's GEMV_IN), y in f32, f16 or bf16 (a run-time argument), float
// arithmetic throughout.
//
// The host turns every call into one of two physical problems over a matrix
// of `lines` contiguous lines, `lda` elements apart:
// - rows (row-major no-trans, column-major trans): output r is the dot of line
//   r with x, `k` elements long; kernels gemv_row_* (gemv_cpu_rows on CPUs);
// - columns (row-major trans, column-major no-trans): the outputs run along the
//   lines, y[c] = sum over the k lines l of A[l][c] * x[l]; kernels gemv_col*
//   (gemv_cpu_cols on CPUs).
// Element j of x is x[x_base + j * incx] and output i is y[y_base + i * incy]:
// the host folds negative increments into the bases, in BLAS order.
//
// The row, column and CPU kernels take a, x, y and the call's scalars packed
// in one ulong16 (lanes GEMV_CALL_* of symbols.h), then, in the kernels that
// may split the dots, the scratch buffer: NVIDIA's driver spends about 0.05 us
// per argument and 0.5 us per buffer argument on every launch, which is most
// of a short GEMV's cost. The templates see the scalars unpacked
// (CALL_PARAMETERS). The *_split kernels cut the dots into get_num_groups(1)
// slices of `slice` elements (split-k): each group writes partial results to the scratch buffer; with
// GEMV_ONE_PASS the last group of each block to finish (an atomic ticket, as
// in the reduction) adds them up and writes y, then resets the ticket,
// otherwise gemv_finish runs next. Partials are added in slice order, so the
// result does not depend on which group finishes last. Split and whole
// kernels are separate so that no barrier sits under a run-time condition
// (POCL runs the code after such a barrier twice). beta == 0 never reads y,
// so NaNs there do not propagate.
//
// Variant defines: GEMV_KERNELS (the GPU or the CPU kernels), GEMV_IN (the
// type of A and x). Tuning defines: src/ops/gemv/gemv_tables.h lists them and
// the programs that read each.
#include "prelude.cl"

// A and x: element i, aligned vector i of N elements, and N elements from
// element N * i on where that is only element-aligned; all as floats.
#if GEMV_IN == DTYPE_F32
#define IN_T float
#define IN_BYTES 4
#define LOAD_IN(p, i) ((p)[i])
#define LOADA_IN(N, p, i) (((const __global CAT(float, N) *)(p))[i])
#define VLOAD_IN(N, p, i) CAT(vload, N)(i, p)
#elif GEMV_IN == DTYPE_F16
#define IN_T ushort
#define IN_BYTES 2
#define LOAD_IN(p, i) vload_half(i, (const __global half *)(p))
#define LOADA_IN(N, p, i) VLOADA_F16(N, i, p)
#define VLOAD_IN(N, p, i) VLOAD_F16(N, i, p)
#elif GEMV_IN == DTYPE_BF16
#define IN_T ushort
#define IN_BYTES 2
#define LOAD_IN(p, i) bf16_to_float((p)[i])
#define LOADA_IN(N, p, i) CAT(bf16_to_float, N)(((const __global CAT(ushort, N) *)(p))[i])
#define VLOAD_IN(N, p, i) CAT(bf16_to_float, N)(CAT(vload, N)(i, p))
#else
#error "GEMV_IN must be DTYPE_F32, DTYPE_F16 or DTYPE_BF16"
#endif

// The kernel templates below take their shape (lanes, batch, vector, split)
// as constant arguments: forced inline, so every kernel folds them.
#define TEMPLATE static inline __attribute__((always_inline))

#define KERNEL_PARAMETERS                                                                      \
    const __global IN_T *a, const __global IN_T *x, __global void *y, ulong16 packed
#define SPLIT_KERNEL_PARAMETERS KERNEL_PARAMETERS, __global uint *scratch

#define CALL_PARAMETERS                                                                        \
    const __global IN_T *a, ulong a_offset, ulong lda, const __global IN_T *x, ulong x_base,   \
        long incx, __global void *y, uint y_type, ulong y_base, long incy, ulong outputs,      \
        ulong k, ulong head, ulong per_item, ulong slice, float alpha, float beta,              \
        __global uint *scratch, ulong tickets_at, ulong partials_at
#define CALL_ARGUMENTS                                                                         \
    a, a_offset, lda, x, x_base, incx, y, y_type, y_base, incy, outputs, k, head, per_item,   \
        slice, alpha, beta, scratch, tickets_at, partials_at

// Declares the call's scalars from `packed` (through a private array: see sumN).
#define UNPACK_CALL                                                                            \
    ulong call_lanes[16];                                                                      \
    vstore16(packed, 0, call_lanes);                                                           \
    const ulong a_offset = call_lanes[GEMV_CALL_A_OFFSET], lda = call_lanes[GEMV_CALL_LDA];    \
    const ulong x_base = call_lanes[GEMV_CALL_X_BASE], y_base = call_lanes[GEMV_CALL_Y_BASE];  \
    const long incx = (long)call_lanes[GEMV_CALL_INCX], incy = (long)call_lanes[GEMV_CALL_INCY]; \
    const ulong outputs = call_lanes[GEMV_CALL_OUTPUTS], k = call_lanes[GEMV_CALL_K];          \
    const ulong head = call_lanes[GEMV_CALL_HEAD];                                             \
    const ulong per_item = call_lanes[GEMV_CALL_PER_ITEM], slice = call_lanes[GEMV_CALL_SLICE]; \
    const float alpha = as_float((uint)call_lanes[GEMV_CALL_ALPHA_BETA]);                      \
    const float beta = as_float((uint)(call_lanes[GEMV_CALL_ALPHA_BETA] >> 32));               \
    const ulong tickets_at = call_lanes[GEMV_CALL_TICKETS_AT];                                 \
    const ulong partials_at = call_lanes[GEMV_CALL_PARTIALS_AT];                               \
    const uint y_type = (uint)call_lanes[GEMV_CALL_Y_TYPE]

// sumN(v): the sum of v's components, pairwise. Through a private array
// rather than component swizzles, which Oclgrind's uninitialized-value
// checker crashes on; compilers keep the array in registers.
#define DEFINE_SUM(N)                                                                          \
    static inline float CAT(sum, N)(CAT(float, N) v)                                           \
    {                                                                                          \
        float lane[N];                                                                         \
        CAT(vstore, N)(v, 0, lane);                                                            \
        for (uint width = N / 2; width > 0; width /= 2)                                        \
            for (uint i = 0; i < width; ++i)                                                   \
                lane[i] += lane[i + width];                                                    \
        return lane[0];                                                                        \
    }
DEFINE_SUM(2)
DEFINE_SUM(4)
DEFINE_SUM(8)
DEFINE_SUM(16)

static inline float x_at(const __global IN_T *x, ulong x_base, long incx, ulong j)
{
    return LOAD_IN(x, (long)x_base + (long)j * incx);
}

// y[i] = alpha * dot + beta * y[i], where `old` is y[i] already loaded (or
// anything when beta == 0).
static inline void store_output(__global void *y, uint y_type, ulong y_base, long incy, ulong i,
                                float alpha, float dot, float beta, float old)
{
    float value = alpha * dot;
    if (beta != 0.0f)
        value += beta * old;
    store_real(y, (ulong)((long)y_base + (long)i * incy), y_type, value);
}

static inline float load_old(const __global void *y, uint y_type, ulong y_base, long incy, ulong i,
                             float beta)
{
    return beta != 0.0f ? load_real(y, (ulong)((long)y_base + (long)i * incy), y_type) : 0.0f;
}

#if GEMV_ONE_PASS
// Called by every work-item of a group after it wrote its partial results:
// true in the group that completes its block's set of `slices` groups last,
// which also resets the ticket for the next launch.
static inline bool last_of_block(__global uint *ticket, uint slices, __local uint *flag)
{
    // The barrier orders the group's partials before the first work-item's
    // fence, which orders them before its ticket for every group.
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0 && get_local_id(1) == 0) {
        device_fence();
        uint last = atomic_inc(ticket) == slices - 1;
        if (last)
            atomic_xchg(ticket, 0);
        device_fence();
        *flag = last;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    return *flag != 0;
}
#endif

// The sum over slices of output i's partial results (written by other groups:
// read through volatile so no stale cached copy is used).
static inline float sum_partials(const __global float *partials, ulong outputs, uint slices, ulong i)
{
    volatile const __global float *p = partials;
    float sum = 0.0f;
    for (uint s = 0; s < slices; ++s)
        sum += p[s * outputs + i];
    return sum;
}

// The second pass of a split launch without GEMV_ONE_PASS: output i is the
// sum of its slices' partial results.
__kernel void gemv_finish(__global void *y, uint y_type, ulong y_base, long incy, ulong outputs,
                          uint slices, float alpha, float beta, const __global uint *scratch,
                          ulong partials_at)
{
    ulong i = get_global_id(0);
    const __global float *partials = (const __global float *)scratch + partials_at;
    if (i < outputs)
        store_output(y, y_type, y_base, incy, i, alpha, sum_partials(partials, outputs, slices, i), beta,
                     load_old(y, y_type, y_base, incy, i, beta));
}

__kernel void gemv_scale(__global void *y, uint y_type, ulong y_base, long incy, ulong n,
                         float beta)
{
    ulong i = get_global_id(0);
    if (i < n) {
        ulong at = (ulong)((long)y_base + (long)i * incy);
        store_real(y, at, y_type, beta != 0.0f ? beta * load_real(y, at, y_type) : 0.0f);
    }
}

// x copied element for element into `gathered` from element gathered_base
// on, unit-stride, for the row kernels of a call whose lines would each
// gather it otherwise.
__kernel void gemv_gather_x(const __global IN_T *x, ulong x_base, long incx, ulong k,
                            __global IN_T *gathered, ulong gathered_base)
{
    ulong j = get_global_id(0);
    if (j < k)
        gathered[gathered_base + j] = x[(long)x_base + (long)j * incx];
}

#if GEMV_KERNELS == GEMV_KERNELS_GPU

#if GEMV_ROW_LANES > 0
#define ROW_LANES GEMV_ROW_LANES
#elif LOCKSTEP > 0
#define ROW_LANES LOCKSTEP
#else
#define ROW_LANES 32
#endif

// GEMV_VECTOR counts floats: 16-bit elements load twice as many per vector,
// as long as OpenCL has the vector type.
#if IN_BYTES == 4 || GEMV_VECTOR == 16
#define VEC GEMV_VECTOR
#elif GEMV_VECTOR == 8
#define VEC 16
#elif GEMV_VECTOR == 4
#define VEC 8
#elif GEMV_VECTOR == 2
#define VEC 4
#else
#error "GEMV_VECTOR must be 2, 4, 8 or 16"
#endif
#define floatV CAT(float, VEC)
// Elements of x the staged row kernels hold in local memory (their array
// needs a size where GEMV_X_CHUNK is 0 and the host never runs them).
#define X_CHUNK (GEMV_X_CHUNK > 0 ? GEMV_X_CHUNK : VEC)
#define SUMV CAT(sum, VEC)
// GEMV_COL_VECTOR likewise counts floats.
#if IN_BYTES == 4 || GEMV_COL_VECTOR == 16
#define COL_VEC GEMV_COL_VECTOR
#elif GEMV_COL_VECTOR == 8
#define COL_VEC 16
#elif GEMV_COL_VECTOR == 4
#define COL_VEC 8
#elif GEMV_COL_VECTOR == 2
#define COL_VEC 4
#else
#error "GEMV_COL_VECTOR must be 2, 4, 8 or 16"
#endif
// Lines in flight per work-item: 16-bit inputs take half of GEMV_COL_UNROLL,
// since each of their vectors already holds twice the elements and their
// conversions need registers (doc/performance.md has the measurement).
#if IN_BYTES == 4 || GEMV_COL_UNROLL == 1
#define COL_UNROLL GEMV_COL_UNROLL
#else
#define COL_UNROLL (GEMV_COL_UNROLL / 2)
#endif
#define COLV CAT(float, COL_VEC)
// The loads of a lane's last elements or vectors where U are in flight:
// fewer than U, at least one.
#define TAIL_LOADS_OF(U) ((U) > 1 ? (U) - 1 : 1)
#define COL_TAIL_LOADS TAIL_LOADS_OF(COL_UNROLL)
#define VSTORE_COL CAT(vstore, COL_VEC)

#define ADD(a, b) ((a) + (b))
DEFINE_SEGMENT_REDUCE(segment_sum, float, ADD, 0.0f)

#define TAIL_LOADS TAIL_LOADS_OF(GEMV_UNROLL)
// Loads in flight of the scalar kernels for long lines (dots_scalar_long).
#define LONG_UNROLL (2 * GEMV_UNROLL < 16 ? 2 * GEMV_UNROLL : 16)

// Partial dots of `batch` lines (elements at[b] on) over [begin, end): lane
// `lane` of `lanes` takes every lanes-th element, UNROLL loads in flight (the
// lane's last few elements loaded together, as in dots_vector_x).
#define DEFINE_DOTS_SCALAR(NAME, UNROLL)                                                       \
    TEMPLATE void NAME(const __global IN_T *a, const ulong *at, uint batch,                    \
                       const __global IN_T *x, ulong x_base, long incx, ulong begin,           \
                       ulong end, uint lane, uint lanes, float *acc)                           \
    {                                                                                          \
        ulong j = begin + lane;                                                                \
        for (; j + ((UNROLL) - 1) * lanes < end; j += (UNROLL) * lanes) {                      \
            float xs[UNROLL];                                                                  \
            for (uint u = 0; u < (UNROLL); ++u)                                                \
                xs[u] = x_at(x, x_base, incx, j + u * lanes);                                  \
            for (uint b = 0; b < batch; ++b)                                                   \
                for (uint u = 0; u < (UNROLL); ++u)                                            \
                    acc[b] += LOAD_IN(a, at[b] + j + u * lanes) * xs[u];                       \
        }                                                                                      \
        if (j < end) {                                                                         \
            float xs[TAIL_LOADS_OF(UNROLL)];                                                   \
            for (uint u = 0; u < TAIL_LOADS_OF(UNROLL); ++u)                                   \
                xs[u] = x_at(x, x_base, incx, min(j + u * lanes, end - 1));                    \
            for (uint b = 0; b < batch; ++b)                                                   \
                for (uint u = 0; u < TAIL_LOADS_OF(UNROLL); ++u) {                             \
                    float product = LOAD_IN(a, at[b] + min(j + u * lanes, end - 1)) * xs[u];   \
                    acc[b] += j + u * lanes < end ? product : 0.0f;                            \
                }                                                                              \
        }                                                                                      \
    }
DEFINE_DOTS_SCALAR(dots_scalar, GEMV_UNROLL)
// The one-lockstep-group-per-line kernels' long lines (many elements a lane):
// more loads in flight, where the short lines' clamped last loads would
// cost more than they gain.
DEFINE_DOTS_SCALAR(dots_scalar_long, LONG_UNROLL)

// VEC elements of x from element j on: one vector load where x is
// unit-stride and x_base a multiple of VEC (`contiguous`), else gathered one
// by one. Every line reads the same x, so gathered elements come from the
// caches; A, the bulk of the traffic, keeps its vector loads either way.
TEMPLATE floatV x_lanes(const __global IN_T *x, ulong x_base, long incx, ulong j, int contiguous)
{
    if (contiguous)
        return LOADA_IN(VEC, x + x_base + j, 0);
    float lane[VEC];
    for (uint i = 0; i < VEC; ++i)
        lane[i] = x_at(x, x_base, incx, j + i);
    return CAT(vload, VEC)(0, lane);
}

// The vector kernels' lines start on a vector. In the shifted ones (lines
// that share an alignment off the vector) each line's first `head` elements
// (GEMV_CALL_HEAD; A's offset, x's base and k count from the first vector)
// lie before it. Their slices' edges, the elements of each line outside its
// whole vectors, are the head in the first slice and the elements past the
// last whole vector in the last: at most VEC - 1 each. They are loaded
// element by element, a lane's share requested together with its last
// vectors and added after them. (Kernels of their own: held through the
// aligned kernels' loops, the edges' registers cost those a group per
// compute unit on NVIDIA GPUs.)
#define MAX_EDGES (2 * (VEC - 1))

// A lane's edge elements of x and of the `batch` lines (0 past the edges).
// Edge e is element (e < heads ? 0 : whole_end) + e - heads of its line,
// counted from the line's first vector. Derived here from the call's
// scalars, so that nothing of it is held through the vector loop.
TEMPLATE void load_edges(const __global IN_T *a, const ulong *at, uint batch,
                         const __global IN_T *x, ulong x_base, long incx, ulong head, ulong end,
                         uint lane, uint lanes, float *edge_x, float *edge_a)
{
    const uint heads = get_group_id(1) == 0 ? (uint)head : 0;
    const ulong whole_end = end / VEC * VEC;
    const uint edges = heads + (uint)(end - whole_end);
    for (uint i = 0; i < (MAX_EDGES + lanes - 1) / lanes; ++i) {
        uint e = lane + i * lanes;
        ulong from = e < heads ? 0 : whole_end;
        edge_x[i] = e < edges ? x_at(x, x_base, incx, from + e - heads) : 0.0f;
        for (uint b = 0; b < batch; ++b)
            edge_a[b * MAX_EDGES + i] = e < edges ? LOAD_IN(a, at[b] - heads + from + e) : 0.0f;
    }
}

TEMPLATE void add_edges(uint batch, uint lanes, const float *edge_x, const float *edge_a, float *acc)
{
    for (uint i = 0; i < (MAX_EDGES + lanes - 1) / lanes; ++i)
        for (uint b = 0; b < batch; ++b)
            acc[b] += edge_a[b * MAX_EDGES + i] * edge_x[i];
}

// The same with VEC-wide loads of A: the slice [begin, end) of lines that
// start on a vector, begin a multiple of VEC; the last few elements of an
// odd-length dot loaded one at a time, or (`shifted`) the edges (above).
TEMPLATE void dots_vector_x(const __global IN_T *a, const ulong *at, uint batch,
                            const __global IN_T *x, ulong x_base, long incx, ulong begin,
                            ulong end, ulong head, uint lane, uint lanes, float *acc,
                            int contiguous, int shifted)
{
    floatV sums[GEMV_ROW_BATCH];
    for (uint b = 0; b < batch; ++b)
        sums[b] = (floatV)(0.0f);
    ulong v = begin / VEC + lane, vectors = end / VEC;
    for (; v + (GEMV_UNROLL - 1) * lanes < vectors; v += GEMV_UNROLL * lanes) {
        floatV xs[GEMV_UNROLL];
        for (uint u = 0; u < GEMV_UNROLL; ++u)
            xs[u] = x_lanes(x, x_base, incx, (v + u * lanes) * VEC, contiguous);
        for (uint b = 0; b < batch; ++b)
            for (uint u = 0; u < GEMV_UNROLL; ++u)
                sums[b] += LOADA_IN(VEC, a + at[b], v + u * lanes) * xs[u];
    }
    float edge_x[MAX_EDGES], edge_a[GEMV_ROW_BATCH * MAX_EDGES];
    if (shifted)
        load_edges(a, at, batch, x, x_base, incx, head, end, lane, lanes, edge_x, edge_a);
    // Fewer than GEMV_UNROLL vectors are left to the lane: loaded together
    // as well, from indices clamped to the last vector, the surplus products
    // discarded by select (not multiplied by 0, which would turn an infinity
    // into NaN). Short dots (a few vectors a lane) would otherwise load one
    // vector at a time.
    if (v < vectors) {
        floatV xs[TAIL_LOADS];
        for (uint u = 0; u < TAIL_LOADS; ++u)
            xs[u] = x_lanes(x, x_base, incx, min(v + u * lanes, vectors - 1) * VEC, contiguous);
        for (uint b = 0; b < batch; ++b)
            for (uint u = 0; u < TAIL_LOADS; ++u) {
                floatV product = LOADA_IN(VEC, a + at[b], min(v + u * lanes, vectors - 1)) * xs[u];
                sums[b] += v + u * lanes < vectors ? product : (floatV)(0.0f);
            }
    }
    for (uint b = 0; b < batch; ++b)
        acc[b] = SUMV(sums[b]);
    if (shifted) {
        add_edges(batch, lanes, edge_x, edge_a, acc);
        return;
    }
    for (ulong j = vectors * VEC + lane; j < end; j += lanes) {
        float xj = x_at(x, x_base, incx, j);
        for (uint b = 0; b < batch; ++b)
            acc[b] += LOAD_IN(a, at[b] + j) * xj;
    }
}

TEMPLATE void dots_vector(const __global IN_T *a, const ulong *at, uint batch,
                          const __global IN_T *x, ulong x_base, long incx, ulong begin, ulong end,
                          ulong head, uint lane, uint lanes, float *acc, int shifted)
{
    if (incx == 1 && x_base % VEC == 0)
        dots_vector_x(a, at, batch, x, x_base, 1, begin, end, head, lane, lanes, acc, 1, shifted);
    else
        dots_vector_x(a, at, batch, x, x_base, incx, begin, end, head, lane, lanes, acc, 0, shifted);
}

// A lane's vectors of a chunk, and a work-item's elements of x, in the
// staged kernels (whose lanes are ROW_LANES).
#define STAGED_LOADS ((X_CHUNK / VEC + ROW_LANES - 1) / ROW_LANES)
#define STAGED_X_LOADS ((X_CHUNK + GEMV_ROW_WG - 1) / GEMV_ROW_WG)

// The vector dots with x staged: the group gathers X_CHUNK elements of x at a
// time into local memory, where its lines read them as vectors. A strided or
// misaligned x is then loaded once a group rather than element by element on
// every line. All work-items of the group run the same chunks (begin and end
// are the group's), so the barriers are uniform. begin is a multiple of VEC,
// and so is every chunk: the elements past the dot's last whole vector lie
// in its last chunk, or (`shifted`) are edges (above), loaded from x itself.
TEMPLATE void dots_vector_staged(const __global IN_T *a, const ulong *at, uint batch,
                                 const __global IN_T *x, ulong x_base, long incx, ulong begin,
                                 ulong end, ulong head, uint lane, uint lanes, float *acc,
                                 __local floatV *x_local, int shifted)
{
    floatV sums[GEMV_ROW_BATCH];
    for (uint b = 0; b < batch; ++b) {
        sums[b] = (floatV)(0.0f);
        acc[b] = 0.0f;
    }
    const ulong staged_end = shifted ? end / VEC * VEC : end, vectors = end / VEC;
    __local float *x_elements = (__local float *)x_local;
    for (ulong chunk = begin; chunk < staged_end; chunk += X_CHUNK) {
        const uint length = (uint)min((ulong)X_CHUNK, staged_end - chunk);
        const ulong first = chunk / VEC, last = min(vectors, (chunk + length) / VEC);
        // The chunk's vectors of A and elements of x are all requested
        // before the barriers, so that their latencies overlap.
        floatV as[GEMV_ROW_BATCH][STAGED_LOADS];
        for (uint u = 0; u < STAGED_LOADS; ++u) {
            ulong v = first + lane + u * lanes;
            for (uint b = 0; b < batch; ++b)
                as[b][u] = v < last ? LOADA_IN(VEC, a + at[b], v) : (floatV)(0.0f);
        }
        float xs[STAGED_X_LOADS];
        for (uint u = 0; u < STAGED_X_LOADS; ++u) {
            uint i = get_local_id(0) + u * GEMV_ROW_WG;
            xs[u] = i < length ? x_at(x, x_base, incx, chunk + i) : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint u = 0; u < STAGED_X_LOADS; ++u) {
            uint i = get_local_id(0) + u * GEMV_ROW_WG;
            if (i < length)
                x_elements[i] = xs[u];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint u = 0; u < STAGED_LOADS; ++u) {
            ulong v = first + lane + u * lanes;
            if (v < last) {
                floatV xv = x_local[v - first];
                for (uint b = 0; b < batch; ++b)
                    sums[b] += as[b][u] * xv;
            }
        }
        for (ulong j = last * VEC + lane; j < chunk + length; j += lanes) {
            float xj = x_elements[j - chunk];
            for (uint b = 0; b < batch; ++b)
                acc[b] += LOAD_IN(a, at[b] + j) * xj;
        }
    }
    for (uint b = 0; b < batch; ++b)
        acc[b] += SUMV(sums[b]);
    if (shifted) {
        float edge_x[MAX_EDGES], edge_a[GEMV_ROW_BATCH * MAX_EDGES];
        load_edges(a, at, batch, x, x_base, incx, head, end, lane, lanes, edge_x, edge_a);
        add_edges(batch, lanes, edge_x, edge_a, acc);
    }
}

// Row kernels: segment s of `lanes` work-items computes lines first + s +
// b * segments (b < batch) of the group's block. Lines past the end load the
// last line and discard it, so every work-item reaches the reductions.
// `loads`: GEMV_LOADS_* (symbols.h).
TEMPLATE void gemv_rows(CALL_PARAMETERS, __local float *reduce_scratch, __local uint *last_flag,
                      __local floatV *x_local, uint lanes, uint batch, int loads, int staged,
                      int split)
{
    const int vector = loads == GEMV_LOADS_VECTOR || loads == GEMV_LOADS_SHIFTED;
    const int shifted = loads == GEMV_LOADS_SHIFTED, scalar_long = loads == GEMV_LOADS_SCALAR_LONG;
    const uint lid = get_local_id(0), lane = lid & (lanes - 1), segments = GEMV_ROW_WG / lanes;
    const ulong first = get_group_id(0) * (ulong)(segments * batch) + lid / lanes;
    const ulong begin = get_group_id(1) * slice, end = min(k, begin + slice);
    const uint slices = get_num_groups(1);
    ulong at[GEMV_ROW_BATCH];
    float acc[GEMV_ROW_BATCH], old[GEMV_ROW_BATCH];
    for (uint b = 0; b < batch; ++b) {
        ulong row = first + b * segments;
        at[b] = a_offset + min(row, outputs - 1) * lda;
        acc[b] = 0.0f;
        // Loaded early, so its latency hides behind the dot's.
        old[b] = !split && lane == 0 && row < outputs ? load_old(y, y_type, y_base, incy, row, beta) : 0.0f;
    }
    if (staged)
        dots_vector_staged(a, at, batch, x, x_base, incx, begin, end, head, lane, lanes, acc, x_local,
                           shifted);
    else if (vector)
        dots_vector(a, at, batch, x, x_base, incx, begin, end, head, lane, lanes, acc, shifted);
    else if (scalar_long)
        dots_scalar_long(a, at, batch, x, x_base, incx, begin, end, lane, lanes, acc);
    else
        dots_scalar(a, at, batch, x, x_base, incx, begin, end, lane, lanes, acc);
    // Consecutive segment reductions may share reduce_scratch (prelude).
    for (uint b = 0; b < batch; ++b)
        acc[b] = segment_sum(acc[b], reduce_scratch, lanes);

    if (!split) {
        for (uint b = 0; b < batch; ++b) {
            ulong row = first + b * segments;
            if (lane == 0 && row < outputs)
                store_output(y, y_type, y_base, incy, row, alpha, acc[b], beta, old[b]);
        }
        return;
    }
    __global float *partials = (__global float *)scratch + partials_at;
    for (uint b = 0; b < batch; ++b) {
        ulong row = first + b * segments;
        if (lane == 0 && row < outputs)
            partials[get_group_id(1) * outputs + row] = acc[b];
    }
#if GEMV_ONE_PASS
    if (!last_of_block(scratch + tickets_at + get_group_id(0), slices, last_flag))
        return;
    for (uint b = 0; b < batch; ++b) {
        ulong row = first + b * segments;
        if (lane == 0 && row < outputs)
            store_output(y, y_type, y_base, incy, row, alpha, sum_partials(partials, outputs, slices, row),
                         beta, load_old(y, y_type, y_base, incy, row, beta));
    }
#else
    (void)last_flag;
    (void)tickets_at;
#endif
}

// Whole kernels take no scratch buffer (one buffer argument fewer).
#define WHOLE_SCRATCH __global uint *scratch = 0
#define SPLIT_SCRATCH (void)0

#define DEFINE_ROW_KERNEL_(NAME, LANES, BATCH, LOADS, SPLIT, PARAMETERS, SCRATCH)              \
    __kernel __attribute__((reqd_work_group_size(GEMV_ROW_WG, 1, 1))) void NAME(PARAMETERS)    \
    {                                                                                          \
        __local float reduce_scratch[GEMV_ROW_WG];                                             \
        __local uint last_flag;                                                                \
        UNPACK_CALL;                                                                           \
        SCRATCH;                                                                               \
        (void)per_item;                                                                        \
        gemv_rows(CALL_ARGUMENTS, reduce_scratch, &last_flag, 0, LANES, BATCH, LOADS, 0, SPLIT); \
    }
#define DEFINE_ROW_KERNEL(NAME, SPLIT_NAME, LANES, BATCH, LOADS)                               \
    DEFINE_ROW_KERNEL_(NAME, LANES, BATCH, LOADS, 0, KERNEL_PARAMETERS, WHOLE_SCRATCH)         \
    DEFINE_ROW_KERNEL_(SPLIT_NAME, LANES, BATCH, LOADS, 1, SPLIT_KERNEL_PARAMETERS, SPLIT_SCRATCH)

// The vector kernels of one lockstep group per line with x staged in local
// memory (dots_vector_staged): for an x that is strided or off the vector.
// Their group's lines share each chunk; a group-per-row kernel would gather
// as much x as before and wait at two barriers per chunk.
#define DEFINE_STAGED_ROW_KERNEL_(NAME, LANES, BATCH, LOADS, SPLIT, PARAMETERS, SCRATCH)       \
    __kernel __attribute__((reqd_work_group_size(GEMV_ROW_WG, 1, 1))) void NAME(PARAMETERS)    \
    {                                                                                          \
        __local float reduce_scratch[GEMV_ROW_WG];                                             \
        __local uint last_flag;                                                                \
        __local floatV x_local[X_CHUNK / VEC];                                                 \
        UNPACK_CALL;                                                                           \
        SCRATCH;                                                                               \
        (void)per_item;                                                                        \
        gemv_rows(CALL_ARGUMENTS, reduce_scratch, &last_flag, x_local, LANES, BATCH, LOADS, 1, \
                  SPLIT);                                                                      \
    }
#define DEFINE_STAGED_ROW_KERNEL(NAME, SPLIT_NAME, LANES, BATCH, LOADS)                        \
    DEFINE_STAGED_ROW_KERNEL_(NAME, LANES, BATCH, LOADS, 0, KERNEL_PARAMETERS, WHOLE_SCRATCH)  \
    DEFINE_STAGED_ROW_KERNEL_(SPLIT_NAME, LANES, BATCH, LOADS, 1, SPLIT_KERNEL_PARAMETERS,     \
                              SPLIT_SCRATCH)

// Several lines per lockstep group, for short dots (the host picks the
// narrowest segment that covers k), with scalar or vector loads.
DEFINE_ROW_KERNEL(gemv_row_lanes1, gemv_row_lanes1_split, 1, GEMV_ROW_BATCH, GEMV_LOADS_SCALAR)
DEFINE_ROW_KERNEL(gemv_row_lanes1_vec, gemv_row_lanes1_vec_split,
                  1, GEMV_ROW_BATCH, GEMV_LOADS_VECTOR)
DEFINE_ROW_KERNEL(gemv_row_lanes2, gemv_row_lanes2_split, 2, GEMV_ROW_BATCH, GEMV_LOADS_SCALAR)
DEFINE_ROW_KERNEL(gemv_row_lanes2_vec, gemv_row_lanes2_vec_split,
                  2, GEMV_ROW_BATCH, GEMV_LOADS_VECTOR)
DEFINE_ROW_KERNEL(gemv_row_lanes4, gemv_row_lanes4_split, 4, GEMV_ROW_BATCH, GEMV_LOADS_SCALAR)
DEFINE_ROW_KERNEL(gemv_row_lanes4_vec, gemv_row_lanes4_vec_split,
                  4, GEMV_ROW_BATCH, GEMV_LOADS_VECTOR)
DEFINE_ROW_KERNEL(gemv_row_lanes8, gemv_row_lanes8_split, 8, GEMV_ROW_BATCH, GEMV_LOADS_SCALAR)
DEFINE_ROW_KERNEL(gemv_row_lanes8_vec, gemv_row_lanes8_vec_split,
                  8, GEMV_ROW_BATCH, GEMV_LOADS_VECTOR)
DEFINE_ROW_KERNEL(gemv_row_lanes16, gemv_row_lanes16_split, 16, GEMV_ROW_BATCH, GEMV_LOADS_SCALAR)
DEFINE_ROW_KERNEL(gemv_row_lanes16_vec, gemv_row_lanes16_vec_split,
                  16, GEMV_ROW_BATCH, GEMV_LOADS_VECTOR)
DEFINE_ROW_KERNEL(gemv_row_lanes32, gemv_row_lanes32_split, 32, GEMV_ROW_BATCH, GEMV_LOADS_SCALAR)
DEFINE_ROW_KERNEL(gemv_row_lanes32_vec, gemv_row_lanes32_vec_split,
                  32, GEMV_ROW_BATCH, GEMV_LOADS_VECTOR)
// One lockstep group (ROW_LANES work-items) per line; scalar, vector or
// shifted vector loads.
DEFINE_ROW_KERNEL(gemv_row_wide, gemv_row_wide_split, ROW_LANES, GEMV_ROW_BATCH, GEMV_LOADS_SCALAR)
DEFINE_ROW_KERNEL(gemv_row_wide_vec, gemv_row_wide_vec_split,
                  ROW_LANES, GEMV_ROW_BATCH, GEMV_LOADS_VECTOR)
DEFINE_ROW_KERNEL(gemv_row_wide_shifted, gemv_row_wide_shifted_split,
                  ROW_LANES, GEMV_ROW_BATCH, GEMV_LOADS_SHIFTED)
DEFINE_ROW_KERNEL(gemv_row_wide_long, gemv_row_wide_long_split,
                  ROW_LANES, GEMV_ROW_BATCH, GEMV_LOADS_SCALAR_LONG)
// A whole work-group per line, for long dots.
DEFINE_ROW_KERNEL(gemv_row_group, gemv_row_group_split, GEMV_ROW_WG, 1, GEMV_LOADS_SCALAR)
DEFINE_ROW_KERNEL(gemv_row_group_vec, gemv_row_group_vec_split, GEMV_ROW_WG, 1, GEMV_LOADS_VECTOR)
DEFINE_ROW_KERNEL(gemv_row_group_shifted, gemv_row_group_shifted_split,
                  GEMV_ROW_WG, 1, GEMV_LOADS_SHIFTED)
DEFINE_STAGED_ROW_KERNEL(gemv_row_wide_staged, gemv_row_wide_staged_split,
                         ROW_LANES, GEMV_ROW_BATCH, GEMV_LOADS_VECTOR)
DEFINE_STAGED_ROW_KERNEL(gemv_row_wide_staged_shifted, gemv_row_wide_staged_shifted_split,
                         ROW_LANES, GEMV_ROW_BATCH, GEMV_LOADS_SHIFTED)

// Column kernels: a group of TX x TY work-items takes TX * COL_VEC
// consecutive outputs; work-item (tx, ty) holds COL_VEC of them and
// walks down every TY-th line of the group's slice, then the TY partial sums
// of each output meet in local memory. On aligned lines a work-item's outputs
// are one vector (neighbouring work-items load neighbouring vectors); on
// lines off the vector they lie TX apart, so that each of its element loads
// reads, across the lockstep group, consecutive elements of the line.
//
// A work-item's COL_VEC elements of one line, from `line` on (`step` apart);
// those past the line's last output (`last` elements on) read that output,
// and are not stored.
TEMPLATE COLV col_elements(const __global IN_T *line, int aligned, uint step, ulong last)
{
    if (aligned)
        return LOADA_IN(COL_VEC, line, 0);
    float e[COL_VEC];
    for (uint i = 0; i < COL_VEC; ++i)
        e[i] = LOAD_IN(line, min((ulong)(i * step), last));
    return CAT(vload, COL_VEC)(0, e);
}

TEMPLATE void gemv_cols(CALL_PARAMETERS, __local COLV *part, __local uint *last_flag, int aligned,
                      int split)
{
    const uint tx = get_local_id(0), ty = get_local_id(1);
    const uint TX = get_local_size(0), TY = get_local_size(1);
    const ulong block = get_group_id(0) * TX * COL_VEC;
    const ulong c = aligned ? block + tx * COL_VEC : block + tx;
    const uint step = aligned ? 1 : TX;
    const ulong begin = get_group_id(1) * slice, end = min(k, begin + slice);
    const uint slices = get_num_groups(1);
    // Work-items whose outputs all lie past the end read the last one.
    const ulong first = min(c, outputs - 1), last = outputs - 1 - first;
    const __global IN_T *p = a + a_offset + first;
    COLV acc = (COLV)(0.0f);
    if (!aligned || c + COL_VEC <= outputs) {
        ulong l = begin + ty;
        for (; l + (COL_UNROLL - 1) * TY < end; l += COL_UNROLL * TY) {
            COLV as[COL_UNROLL];
            float xs[COL_UNROLL];
            for (uint u = 0; u < COL_UNROLL; ++u) {
                as[u] = col_elements(p + (l + u * TY) * lda, aligned, step, last);
                xs[u] = x_at(x, x_base, incx, l + u * TY);
            }
            for (uint u = 0; u < COL_UNROLL; ++u)
                acc += as[u] * xs[u];
        }
        // The work-item's last lines (fewer than COL_UNROLL) loaded together,
        // as a row kernel's lane loads its last vectors (dots_vector_x).
        if (l < end) {
            COLV as[COL_TAIL_LOADS];
            float xs[COL_TAIL_LOADS];
            for (uint u = 0; u < COL_TAIL_LOADS; ++u) {
                const ulong at = min(l + u * TY, end - 1);
                as[u] = col_elements(p + at * lda, aligned, step, last);
                xs[u] = x_at(x, x_base, incx, at);
            }
            for (uint u = 0; u < COL_TAIL_LOADS; ++u)
                acc += l + u * TY < end ? as[u] * xs[u] : (COLV)(0.0f);
        }
    } else if (c < outputs) {
        // The last outputs of aligned lines, fewer than a vector: one
        // element at a time.
        float sums[COL_VEC];
        for (uint i = 0; i < COL_VEC; ++i)
            sums[i] = 0.0f;
        for (ulong l = begin + ty; l < end; l += TY) {
            const __global IN_T *line = p + l * lda;
            float xl = x_at(x, x_base, incx, l);
            for (uint i = 0; i < COL_VEC; ++i)
                if (c + i < outputs)
                    sums[i] += LOAD_IN(line, i) * xl;
        }
        acc = CAT(vload, COL_VEC)(0, sums);
    }
    part[ty * TX + tx] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint apart = TY / 2; apart > 0; apart /= 2) {
        if (ty < apart)
            part[ty * TX + tx] = acc = acc + part[(ty + apart) * TX + tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float sums[COL_VEC];
    VSTORE_COL(acc, 0, sums);

    if (!split) {
        if (ty == 0)
            for (uint i = 0; i < COL_VEC; ++i)
                if (c + i * step < outputs)
                    store_output(y, y_type, y_base, incy, c + i * step, alpha, sums[i], beta,
                                 load_old(y, y_type, y_base, incy, c + i * step, beta));
        return;
    }
    __global float *partials = (__global float *)scratch + partials_at;
    if (ty == 0)
        for (uint i = 0; i < COL_VEC; ++i)
            if (c + i * step < outputs)
                partials[get_group_id(1) * outputs + c + i * step] = sums[i];
#if GEMV_ONE_PASS
    if (!last_of_block(scratch + tickets_at + get_group_id(0), slices, last_flag))
        return;
    // Every work-item of the last group takes some of the block's outputs.
    ulong block_end = min(outputs, block + TX * COL_VEC);
    for (ulong i = block + ty * TX + tx; i < block_end; i += TX * TY)
        store_output(y, y_type, y_base, incy, i, alpha, sum_partials(partials, outputs, slices, i), beta,
                     load_old(y, y_type, y_base, incy, i, beta));
#else
    (void)last_flag;
    (void)tickets_at;
#endif
}

#define DEFINE_COL_KERNEL_(NAME, ALIGNED, SPLIT, PARAMETERS, SCRATCH)                          \
    __kernel void NAME(PARAMETERS)                                                             \
    {                                                                                          \
        __local COLV part[GEMV_COL_WG];                                                        \
        __local uint last_flag;                                                                \
        UNPACK_CALL;                                                                           \
        SCRATCH;                                                                               \
        (void)per_item;                                                                        \
        gemv_cols(CALL_ARGUMENTS, part, &last_flag, ALIGNED, SPLIT);                           \
    }
#define DEFINE_COL_KERNEL(NAME, SPLIT_NAME, ALIGNED)                                           \
    DEFINE_COL_KERNEL_(NAME, ALIGNED, 0, KERNEL_PARAMETERS, WHOLE_SCRATCH)                     \
    DEFINE_COL_KERNEL_(SPLIT_NAME, ALIGNED, 1, SPLIT_KERNEL_PARAMETERS, SPLIT_SCRATCH)

DEFINE_COL_KERNEL(gemv_col_vec, gemv_col_vec_split, 1)
// Lines not aligned to whole vectors: element-aligned vector loads.
DEFINE_COL_KERNEL(gemv_col, gemv_col_split, 0)

#elif GEMV_KERNELS == GEMV_KERNELS_CPU

// CPUs: one work-item per group, each taking a long contiguous share of the
// work with wide vector loads, no local memory.
#define CPUV CAT(float, GEMV_CPU_VECTOR)
#define VLOAD_CPU CAT(vload, GEMV_CPU_VECTOR)
#define VSTORE_CPU CAT(vstore, GEMV_CPU_VECTOR)
#define SUM_CPU CAT(sum, GEMV_CPU_VECTOR)

#if GEMV_ONE_PASS
// Ticket of a one-work-item group: true in the last of the block's slices.
static inline bool last_item_of_block(__global uint *ticket, uint slices)
{
    device_fence();
    uint last = atomic_inc(ticket) == slices - 1;
    if (last)
        atomic_xchg(ticket, 0);
    device_fence();
    return last;
}
#endif

// The W = GEMV_CPU_VECTOR dots whose W partial sums each are sums[0 .. W):
// component r of the result is the total of sums[r]. Each level of the tree
// adds neighbours within vectors and packs two vectors into one, so W lines
// cost W - 1 vector additions rather than W horizontal sums. Every loop over
// the W sums is unrolled: POCL's compiler otherwise leaves them as loops and
// keeps the sums in memory (a load and a store per vector operation).
#define PACK_SUMS(COUNT)                                                                       \
    _Pragma("unroll") for (uint i = 0; i < (COUNT) / 2; ++i)                                   \
        sums[i] = (CPUV)(sums[2 * i].even + sums[2 * i].odd, sums[2 * i + 1].even + sums[2 * i + 1].odd);
#if GEMV_CPU_VECTOR == 8
// The same tree for 8 lines, from interleaves within 128-bit halves and one
// exchange of halves: x86 compilers turn the .even + .odd form into
// horizontal adds, three operations each, which took half of a 16-column
// GEMV's time on POCL (AVX2).
static inline float8 interleaved_sums(float8 a, float8 b)
{
    return (float8)(a.s0, b.s0, a.s1, b.s1, a.s4, b.s4, a.s5, b.s5) +
           (float8)(a.s2, b.s2, a.s3, b.s3, a.s6, b.s6, a.s7, b.s7);
}
static inline float8 paired_sums(float8 a, float8 b)
{
    return (float8)(a.s0, a.s1, b.s0, b.s1, a.s4, a.s5, b.s4, b.s5) +
           (float8)(a.s2, a.s3, b.s2, b.s3, a.s6, a.s7, b.s6, b.s7);
}
static inline CPUV transposed_sums(CPUV *sums)
{
    float8 low = paired_sums(interleaved_sums(sums[0], sums[1]),
                             interleaved_sums(sums[2], sums[3]));
    float8 high = paired_sums(interleaved_sums(sums[4], sums[5]),
                              interleaved_sums(sums[6], sums[7]));
    return (float8)(low.lo, high.lo) + (float8)(low.hi, high.hi);
}
#else
static inline CPUV transposed_sums(CPUV *sums)
{
    // One level per line, so that every loop has a constant count to unroll.
#if GEMV_CPU_VECTOR >= 16
    PACK_SUMS(16)
#endif
#if GEMV_CPU_VECTOR >= 8
    PACK_SUMS(8)
#endif
    PACK_SUMS(4)
    PACK_SUMS(2)
    return sums[0];
}
#endif

// Elements [j, j + GEMV_CPU_VECTOR) of x as one vector, gathered where x is
// strided.
static inline CPUV x_vector(const __global IN_T *x, ulong x_base, long incx, ulong j)
{
    if (incx == 1)
        return VLOAD_IN(GEMV_CPU_VECTOR, x + x_base + j, 0);
    float gathered[GEMV_CPU_VECTOR];
#pragma unroll
    for (uint i = 0; i < GEMV_CPU_VECTOR; ++i)
        gathered[i] = x_at(x, x_base, incx, j + i);
    return VLOAD_CPU(0, gathered);
}

// Independent vector sums of a dot taken line by line on CPUs, so that no
// addition waits on the one before it.
#define CPU_ROW_SUMS 4

// The dot of the n elements from `line` with the n from `xs` (x at unit
// stride: in global memory as stored, or as floats in private memory): a
// vector of partial sums, and the elements past the last whole vector added
// into *tail.
#define DEFINE_CPU_LINE_DOT(NAME, X_POINTER, VLOAD_X, LOAD_X)                                  \
    TEMPLATE CPUV NAME(const __global IN_T *line, X_POINTER xs, ulong n, float *tail)         \
    {                                                                                          \
        CPUV sums[CPU_ROW_SUMS];                                                               \
        _Pragma("unroll") for (uint u = 0; u < CPU_ROW_SUMS; ++u) sums[u] = (CPUV)(0.0f);      \
        ulong j = 0;                                                                           \
        for (; j + CPU_ROW_SUMS * GEMV_CPU_VECTOR <= n; j += CPU_ROW_SUMS * GEMV_CPU_VECTOR) { \
            _Pragma("unroll") for (uint u = 0; u < CPU_ROW_SUMS; ++u) sums[u] +=               \
                VLOAD_IN(GEMV_CPU_VECTOR, line + j, u) * VLOAD_X(xs + j, u);                   \
        }                                                                                      \
        for (; j + GEMV_CPU_VECTOR <= n; j += GEMV_CPU_VECTOR)                                 \
            sums[0] += VLOAD_IN(GEMV_CPU_VECTOR, line + j, 0) * VLOAD_X(xs + j, 0);            \
        for (; j < n; ++j)                                                                     \
            *tail += LOAD_IN(line, j) * LOAD_X(xs, j);                                         \
        _Pragma("unroll") for (uint u = 1; u < CPU_ROW_SUMS; ++u) sums[0] += sums[u];          \
        return sums[0];                                                                        \
    }
#define VLOAD_X_GLOBAL(p, i) VLOAD_IN(GEMV_CPU_VECTOR, p, i)
#define VLOAD_X_PRIVATE(p, i) VLOAD_CPU(i, p)
#define LOAD_X_PRIVATE(p, i) ((p)[i])
DEFINE_CPU_LINE_DOT(cpu_line_dot, const __global IN_T *, VLOAD_X_GLOBAL, LOAD_IN)
DEFINE_CPU_LINE_DOT(cpu_line_dot_private, const float *, VLOAD_X_PRIVATE, LOAD_X_PRIVATE)

// Elements of a strided x that the CPU row kernel gathers at once into
// private memory, where the W lines of a block read them as vectors:
// gathered on every line instead, x took as many loads as A.
#define CPU_X_CHUNK 1024

// The W lines of a block from `line` on, `lda` apart: only the first `lines`
// exist; the others repeat the last one (their dots are discarded). The
// functions below are inlined, so that a whole block (lines == W) folds the
// clamp away.
#define CPU_BLOCK_SETUP                                                                        \
    CPUV sums[GEMV_CPU_VECTOR];                                                                \
    float tail[GEMV_CPU_VECTOR];                                                               \
    const __global IN_T *at[GEMV_CPU_VECTOR];                                                  \
    _Pragma("unroll") for (uint q = 0; q < GEMV_CPU_VECTOR; ++q)                               \
    {                                                                                          \
        sums[q] = (CPUV)(0.0f);                                                                \
        tail[q] = 0.0f;                                                                        \
        at[q] = line + min((ulong)q, lines - 1) * lda;                                         \
    }

// Dots of a block's lines over [begin, end), as one vector, line after line,
// so that a matrix of short rows is read in one sequential run (W lines side
// by side would be W short streams each).
TEMPLATE CPUV cpu_dots_line_by_line(const __global IN_T *line, ulong lda, ulong lines,
                                    const __global IN_T *x, ulong x_base, long incx,
                                    ulong begin, ulong end)
{
    CPU_BLOCK_SETUP
    if (incx == 1) {
#pragma unroll
        for (uint q = 0; q < GEMV_CPU_VECTOR; ++q)
            sums[q] = cpu_line_dot(at[q] + begin, x + x_base + begin, end - begin, &tail[q]);
    } else {
        float xs[CPU_X_CHUNK];
        for (ulong chunk = begin; chunk < end; chunk += CPU_X_CHUNK) {
            const uint n = (uint)min((ulong)CPU_X_CHUNK, end - chunk);
            for (uint i = 0; i < n; ++i)
                xs[i] = x_at(x, x_base, incx, chunk + i);
#pragma unroll
            for (uint q = 0; q < GEMV_CPU_VECTOR; ++q)
                sums[q] += cpu_line_dot_private(at[q] + chunk, xs, n, &tail[q]);
        }
    }
    return transposed_sums(sums) + VLOAD_CPU(0, tail);
}

// Dots of a block's lines over [begin, end), as one vector, the lines side
// by side: every load of x serves all W lines, where, for dots shorter than
// GEMV_CPU_LINE_MIN_K, a line alone would spend more on loop control than
// on loads.
TEMPLATE CPUV cpu_dots_side_by_side(const __global IN_T *line, ulong lda, ulong lines,
                                    const __global IN_T *x, ulong x_base, long incx,
                                    ulong begin, ulong end)
{
    CPU_BLOCK_SETUP
    ulong j = begin;
    for (; j + GEMV_CPU_VECTOR <= end; j += GEMV_CPU_VECTOR) {
        CPUV xv = x_vector(x, x_base, incx, j);
#pragma unroll
        for (uint q = 0; q < GEMV_CPU_VECTOR; ++q)
            sums[q] += VLOAD_IN(GEMV_CPU_VECTOR, at[q] + j, 0) * xv;
    }
    for (; j < end; ++j) {
        float xj = x_at(x, x_base, incx, j);
#pragma unroll
        for (uint q = 0; q < GEMV_CPU_VECTOR; ++q)
            tail[q] += LOAD_IN(at[q], j) * xj;
    }
    return transposed_sums(sums) + VLOAD_CPU(0, tail);
}

TEMPLATE CPUV cpu_dots(const __global IN_T *line, ulong lda, ulong lines,
                       const __global IN_T *x, ulong x_base, long incx, ulong begin, ulong end)
{
    if (end - begin >= GEMV_CPU_LINE_MIN_K)
        return cpu_dots_line_by_line(line, lda, lines, x, x_base, incx, begin, end);
    return cpu_dots_side_by_side(line, lda, lines, x, x_base, incx, begin, end);
}

// Output i's dot: into y when the dots are whole, else into slice
// get_global_id(1)'s partial results.
static inline void cpu_store_output(__global void *y, uint y_type, ulong y_base, long incy, ulong i,
                                    float alpha, float dot, float beta, uint slices,
                                    __global float *partials, ulong outputs)
{
    if (slices == 1)
        store_output(y, y_type, y_base, incy, i, alpha, dot, beta, load_old(y, y_type, y_base, incy, i, beta));
    else
        partials[get_global_id(1) * outputs + i] = dot;
}

// The dots of lines [row, row + count) (count <= W, whole vectors of
// unit-stride outputs at once) into y, or into the partial results of slice
// s when the dots are split.
TEMPLATE void cpu_store_dots(CPUV dots, ulong row, ulong count, __global void *y, uint y_type,
                             ulong y_base, long incy, float alpha, float beta, uint slices,
                             __global float *partials, ulong outputs)
{
    if (slices == 1 && incy == 1 && count == GEMV_CPU_VECTOR && y_type == DTYPE_F32) {
        __global float *out = (__global float *)y + y_base + row;
        CPUV value = alpha * dots;
        if (beta != 0.0f)
            value += beta * VLOAD_CPU(0, out);
        VSTORE_CPU(value, 0, out);
        return;
    }
    float dot[GEMV_CPU_VECTOR];
    VSTORE_CPU(dots, 0, dot);
    for (uint q = 0; q < count; ++q)
        cpu_store_output(y, y_type, y_base, incy, row + q, alpha, dot[q], beta, slices, partials,
                         outputs);
}

// Work-item (i, s): lines [i * per_item, (i + 1) * per_item) over slice s:
// whole blocks of W lines, then the lines left over, outside the loop so that
// the loop keeps all its pointers in registers.
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void gemv_cpu_rows(SPLIT_KERNEL_PARAMETERS)
{
    UNPACK_CALL;
    const ulong first = get_global_id(0) * per_item, last = min(outputs, first + per_item);
    const ulong begin = get_global_id(1) * slice, end = min(k, begin + slice);
    const uint slices = get_global_size(1);
    __global float *partials = (__global float *)scratch + partials_at;
    ulong row = first;
    // Short dots of unit-stride vectors, the common short GEMV, in a loop of
    // their own with the strides as constants: in a loop with every path of
    // cpu_dots, the compiler keeps two dozen pointers in memory.
    if (end - begin < GEMV_CPU_LINE_MIN_K && incx == 1 && incy == 1 && slices == 1)
        for (; row + GEMV_CPU_VECTOR <= last; row += GEMV_CPU_VECTOR)
            cpu_store_dots(cpu_dots_side_by_side(a + a_offset + row * lda, lda, GEMV_CPU_VECTOR,
                                                 x, x_base, 1, begin, end),
                           row, GEMV_CPU_VECTOR, y, y_type, y_base, 1, alpha, beta, 1, partials,
                           outputs);
    for (; row + GEMV_CPU_VECTOR <= last; row += GEMV_CPU_VECTOR)
        cpu_store_dots(cpu_dots(a + a_offset + row * lda, lda, GEMV_CPU_VECTOR, x, x_base, incx,
                                begin, end),
                       row, GEMV_CPU_VECTOR, y, y_type, y_base, incy, alpha, beta, slices, partials,
                       outputs);
    if (row < last)
        cpu_store_dots(cpu_dots(a + a_offset + row * lda, lda, last - row, x, x_base, incx, begin,
                                end),
                       row, last - row, y, y_type, y_base, incy, alpha, beta, slices, partials,
                       outputs);
#if GEMV_ONE_PASS
    if (slices == 1 || !last_item_of_block(scratch + tickets_at + get_global_id(0), slices))
        return;
    for (ulong row = first; row < last; ++row)
        store_output(y, y_type, y_base, incy, row, alpha, sum_partials(partials, outputs, slices, row), beta,
                     load_old(y, y_type, y_base, incy, row, beta));
#endif
}

// Lines each pass of gemv_cpu_cols reads at once: that many contiguous
// streams, and one load and store of the sums per that many loads of A.
#define CPU_COL_LINES 4

// Work-item (i, s): outputs [i * per_item, (i + 1) * per_item), at most
// GEMV_CPU_COLS, over the lines of slice s. The sums live in private memory
// (L1), and each pass streams CPU_COL_LINES whole runs of per_item elements:
// long contiguous reads that the prefetchers follow, where a strip of sums in
// registers would jump to the next line every few cache lines.
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void gemv_cpu_cols(SPLIT_KERNEL_PARAMETERS)
{
    UNPACK_CALL;
    const ulong first = get_global_id(0) * per_item, last = min(outputs, first + per_item);
    const ulong begin = get_global_id(1) * slice, end = min(k, begin + slice);
    const uint slices = get_global_size(1);
    __global float *partials = (__global float *)scratch + partials_at;
    const ulong width = last - first, vectors = width / GEMV_CPU_VECTOR;
    float sums[GEMV_CPU_COLS];
    for (uint i = 0; i < width; ++i)
        sums[i] = 0.0f;
    const __global IN_T *line = a + a_offset + begin * lda + first;
    ulong l = begin;
    for (; l + CPU_COL_LINES <= end; l += CPU_COL_LINES, line += CPU_COL_LINES * lda) {
        float xl[CPU_COL_LINES];
#pragma unroll
        for (uint r = 0; r < CPU_COL_LINES; ++r)
            xl[r] = x_at(x, x_base, incx, l + r);
        for (ulong q = 0; q < vectors; ++q) {
            CPUV sum = VLOAD_CPU(q, sums);
#pragma unroll
            for (uint r = 0; r < CPU_COL_LINES; ++r)
                sum += VLOAD_IN(GEMV_CPU_VECTOR, line + r * lda, q) * xl[r];
            VSTORE_CPU(sum, q, sums);
        }
        for (ulong i = vectors * GEMV_CPU_VECTOR; i < width; ++i) {
#pragma unroll
            for (uint r = 0; r < CPU_COL_LINES; ++r)
                sums[i] += LOAD_IN(line, r * lda + i) * xl[r];
        }
    }
    for (; l < end; ++l, line += lda) {
        float xl = x_at(x, x_base, incx, l);
        for (ulong q = 0; q < vectors; ++q)
            VSTORE_CPU(VLOAD_CPU(q, sums) + VLOAD_IN(GEMV_CPU_VECTOR, line, q) * xl, q, sums);
        for (ulong i = vectors * GEMV_CPU_VECTOR; i < width; ++i)
            sums[i] += LOAD_IN(line, i) * xl;
    }
    for (uint i = 0; i < width; ++i)
        cpu_store_output(y, y_type, y_base, incy, first + i, alpha, sums[i], beta, slices, partials,
                         outputs);
#if GEMV_ONE_PASS
    if (slices == 1 || !last_item_of_block(scratch + tickets_at + get_global_id(0), slices))
        return;
    for (ulong c = first; c < last; ++c)
        store_output(y, y_type, y_base, incy, c, alpha, sum_partials(partials, outputs, slices, c), beta,
                     load_old(y, y_type, y_base, incy, c, beta));
#endif
}

#else
#error "unknown GEMV_KERNELS"
#endif
