// SGEMM: C = alpha * op(A) * op(B) + beta * C.
//
// Every kernel here works in row-major terms; the host maps a column-major
// call onto them by swapping the operands (column-major C = A B is row-major
// C^T = B^T A^T), so no kernel exists twice. After that swap the operands
// come in two orientations each:
//   A (M x K): K-contiguous, element (i, p) at a[i * lda + p]  (op(A) = A)
//              M-contiguous, element (i, p) at a[p * lda + i]  (op(A) = A^T)
//   B (K x N): N-contiguous, element (p, j) at b[p * ldb + j]  (op(B) = B)
//              K-contiguous, element (p, j) at b[j * ldb + p]  (op(B) = B^T)
// and C (M x N) is element (i, j) at c[i * ldc + j]. beta == 0 never reads C.
//
// Variant defines: SGEMM_KERNELS (the kernels this program holds: tiled,
// small or CPU), and for the tiled ones SGEMM_TILES (the profile's big or mid
// tile set), SGEMM_VECTOR_LOADS (128-bit global loads of A and B and stores
// of C, which the host chooses only when offsets and leading dimensions keep
// them aligned) and SGEMM_SPLIT_K (a slice of k per group, partial products
// into a workspace).
// Tuning defines: src/ops/sgemm/sgemm_tables.h lists them and the programs
// that read each.
#include "prelude.cl"

// Vectors of 1, 2, 4, 8 or 16 floats, and moves between a vector and
// consecutive private floats (which the compiler keeps in registers).
#define VECTYPE_1 float
#define VECTYPE_2 float2
#define VECTYPE_4 float4
#define VECTYPE_8 float8
#define VECTYPE_16 float16
#define VECTYPE(n) CAT(VECTYPE_, n)

#define UNPACK_1(v, d) ((d)[0] = (v))
#define UNPACK_2(v, d) ((d)[0] = (v).s0, (d)[1] = (v).s1)
#define UNPACK_4(v, d) (UNPACK_2((v).lo, (d)), UNPACK_2((v).hi, (d) + 2))
#define UNPACK_8(v, d) (UNPACK_4((v).lo, (d)), UNPACK_4((v).hi, (d) + 4))
#define UNPACK(n) CAT(UNPACK_, n)

// The other way, a union of a vector and its floats, written float by float
// and read whole: no vector literal (which some compilers build in memory
// from an undefined vector, and Oclgrind reports) and no address taken by a
// built-in (which would keep the floats out of registers).
#define DEFINE_LANES(NAME, n)                                                                      \
    typedef union {                                                                                \
        VECTYPE(n) v;                                                                              \
        float s[n];                                                                                \
    } NAME

// Helpers take their orientation and edge flags as arguments and must be
// inlined into each kernel, so those fold to constants and the private
// arrays they fill stay in registers.
#define INLINE static inline __attribute__((always_inline))

// A group's index along the rows of C. NVIDIA GPUs take at most 65535 groups
// along launch dimensions 1 and 2 (CUDA's grid limits), so the host spreads
// the row index over both; groups past the last row have nothing to do.
INLINE uint group_row(void)
{
    return (uint)(get_group_id(2) * get_num_groups(1) + get_group_id(1));
}

#if SGEMM_KERNELS == SGEMM_KERNELS_TILED
// ---------------------------------------------------------------------------
// The tiled kernel: the ideas of the fast public FP32 GEMMs (the step-by-step
// CUDA SGEMM write-ups, CLBlast's Xgemm, CUTLASS's SIMT path), each a tuning
// parameter:
// - 2-D block tiling: a work-group computes a BM x BN tile of C, staging
//   BM x BK of A and BK x BN of B in local memory per step, so each global
//   element is read once per tile instead of once per output (intensity grows
//   with the tile).
// - Register tiling: each work-item accumulates a TM x TN tile in registers;
//   per k it reads TM + TN floats from local memory for TM * TN FMAs.
// - Strided micro-tiles: the register tile is (TM/VWM) x (TN/VWN) quadrants
//   of VWM x VWN, quadrants a group's width apart, so the work-items of a warp
//   read consecutive vectors of local memory: conflict-free, with the A tile
//   stored transposed (k-major) so both operands are read as float4.
// - Warp tiling: the lanes of a warp form a WARP_TX x WARP_TY patch of
//   work-items, which shrinks the set of local-memory addresses a warp reads
//   per k (more broadcasts); 0 keeps rows of the group. With
//   WARP_INTERLEAVE, lane bit 0 picks the row of the patch and the next bits
//   the column (CUTLASS's interleaved SIMT lane layout): lanes l and l^1 then
//   read the same B vector and lanes l and l^2 the same A vector, which NVIDIA
//   GPUs serve from local memory at twice the rate of a 128-bit read.
// - Vector global loads: VG-wide loads along whichever dimension is contiguous
//   in memory, coalesced for every orientation; transposes happen in the
//   store to local memory (A K-contiguous, B K-contiguous), so no repack pass.
//   KTHREADS work-items sit side by side along k so that such a warp reads
//   whole 32-byte sectors while its transposed stores spread over the banks
//   (with PAD_A / PAD_B: padding of the local rows).
// - Double buffering with register prefetch: the next tile's global loads are
//   issued before this tile's FMAs and stored into the other local buffer
//   after them, so one barrier per step remains and load latency hides.
// - Swizzled tile order: SWIZZLE tile rows form a band walked column by
//   column, so concurrently running groups share A and B panels in L2.
// - Sliced k (CUTLASS's term): SLICED_K sets of TX x TY work-items each
//   multiply their share of every local step of k into a register tile of
//   their own, summed through local memory at the end. A tile with few
//   work-items (the mid tiles) gets more warps to hide latency with, where
//   there are too few tiles to add them by running more groups.
// - Edges without padding copies: the _edge kernels zero-fill loads outside
//   the matrices and guard their stores, only in the tiles that cross an edge;
//   the host picks the unguarded kernels when M, N, K are tile multiples.

#if SGEMM_TILES == SGEMM_TILES_MID
#define BM SGEMM_MID_BM
#define BN SGEMM_MID_BN
#define BK SGEMM_MID_BK
#define TM SGEMM_MID_TM
#define TN SGEMM_MID_TN
#define VWM SGEMM_MID_VWM
#define VWN SGEMM_MID_VWN
#define WARP_TX SGEMM_MID_WARP_TX
#define WARP_TY SGEMM_MID_WARP_TY
#define DOUBLE_BUFFER SGEMM_MID_DOUBLE_BUFFER
#define PREFETCH SGEMM_MID_PREFETCH
#define SLICED_K SGEMM_MID_SLICED_K
#define ASYNC_SET SGEMM_MID_ASYNC
#else
#define BM SGEMM_BM
#define BN SGEMM_BN
#define BK SGEMM_BK
#define TM SGEMM_TM
#define TN SGEMM_TN
#define VWM SGEMM_VWM
#define VWN SGEMM_VWN
#define WARP_TX SGEMM_WARP_TX
#define WARP_TY SGEMM_WARP_TY
#define DOUBLE_BUFFER SGEMM_DOUBLE_BUFFER
#define PREFETCH SGEMM_PREFETCH
#define SLICED_K SGEMM_SLICED_K
#define ASYNC_SET SGEMM_ASYNC
#endif

#define TX (BN / TN) // work-items along N
#define TY (BM / TM) // work-items along M
#define TILE_THREADS (TX * TY) // one slice of k's work-items
#define THREADS (TILE_THREADS * SLICED_K)
#define SLICE_BK (BK / SLICED_K) // steps of a local tile each slice multiplies
#if SGEMM_VECTOR_LOADS
#define VG SGEMM_LOAD_VEC // global load width; C is stored VWN wide
#else
#define VG 1
#endif
#define KT SGEMM_KTHREADS
#define LDAS (BM + SGEMM_PAD_A) // pitch of the local A tile, stored k-major
#define LDBS (BN + SGEMM_PAD_B)
#define NBUF (1 + DOUBLE_BUFFER)
// The local A tiles' array (as) also holds, after the tile loop, the slices'
// register tiles (SLICED_K > 1) and, in the scalar-store programs, C's tile
// on its way out: C_PASS_ROWS register rows of every work-item of every
// slice at a time, as many as fit in the room the tile loop needs (one row
// at least).
#define SLICE_SUM_FLOATS (SLICED_K > 1 ? SLICED_K * BM * BN : 0)
#define LOOP_FLOATS (SLICE_SUM_FLOATS > NBUF * BK * LDAS ? SLICE_SUM_FLOATS : NBUF * BK * LDAS)
#define C_ROW_FLOATS (SLICED_K * TY * BN)
#define C_PASS_FITS(r) (TM / SLICED_K >= (r) && (r) * C_ROW_FLOATS <= LOOP_FLOATS)
#define C_PASS_ROWS                                                                                \
    (C_PASS_FITS(16) ? 16 : C_PASS_FITS(8) ? 8 : C_PASS_FITS(4) ? 4 : C_PASS_FITS(2) ? 2 : 1)
#define A_TILE_FLOATS                                                                              \
    (!SGEMM_VECTOR_LOADS && C_ROW_FLOATS > LOOP_FLOATS ? C_ROW_FLOATS : LOOP_FLOATS)
// Global-load vectors of an operand tile of extent X (BM or BN) x BK, and
// rounds of them per work-item (the last round may leave work-items idle).
// Loops over them run to the larger count (a constant, so they unroll before
// the helpers are inlined) and skip the rounds an operand does not have.
#define TILE_VECS(X) ((X) * BK / VG)
#define ROUNDS(X) ((TILE_VECS(X) + THREADS - 1) / THREADS)
#define MAX_ROUNDS (ROUNDS(BM) > ROUNDS(BN) ? ROUNDS(BM) : ROUNDS(BN))
#define HAS_VECTOR(X, lid, r)                                                                      \
    (TILE_VECS(X) % THREADS == 0 ? (r) < ROUNDS(X) : (lid) + (r) * THREADS < TILE_VECS(X))

typedef VECTYPE(VG) floatg;
typedef VECTYPE(VWN) floatn;
DEFINE_LANES(lanes_g, VG);
DEFINE_LANES(lanes_n, VWN);

#if (BM % TM) || (BN % TN) || (TM % VWM) || (TN % VWN) || (BK % (VG * KT)) || (BK % SLICED_K) || \
    (TM % SLICED_K)
#error "inconsistent SGEMM tile parameters (the profile checks should have refused them)"
#endif

// Where vector r of work-item lid's share of an operand tile lies: x along
// the tile's M or N extent, p along k (of the vector's first element).
// mn_contig: vectors run along x, consecutive work-items along x; else they
// run along k, KT work-items side by side along k, then along x.
INLINE void tile_position(uint lid, uint r, uint extent, int mn_contig, uint *x, uint *p)
{
    uint v = lid + r * THREADS;
    if (mn_contig) {
        *x = v % (extent / VG) * VG;
        *p = v / (extent / VG);
    } else {
        uint rest = v / KT;
        *x = rest % extent;
        *p = (rest / extent * KT + v % KT) * VG;
    }
}

// Element offsets of those vectors from the tile's corner in global memory.
INLINE void tile_offsets(ulong *offsets, uint lid, uint extent, int mn_contig, ulong ld)
{
#pragma unroll
    for (uint r = 0; r < MAX_ROUNDS; ++r) {
        uint x, p;
        tile_position(lid, r, extent, mn_contig, &x, &p);
        offsets[r] = mn_contig ? (ulong)p * ld + x : (ulong)x * ld + p;
    }
}

// Loads work-item lid's share of an operand tile into registers. `corner`
// points at the tile's element (x0, k0); guarded: x_left rows/columns and
// k_left steps of k remain in the matrix from there, the rest reads as 0.
INLINE void tile_load(lanes_g *regs, const __global float *corner, const ulong *offsets, uint lid,
                      uint extent, int mn_contig, int guarded, uint x_left, uint k_left)
{
#pragma unroll
    for (uint r = 0; r < MAX_ROUNDS; ++r) {
        if (!HAS_VECTOR(extent, lid, r))
            continue;
        const __global float *at = corner + offsets[r];
        uint valid = VG;
        if (guarded) {
            uint x, p;
            tile_position(lid, r, extent, mn_contig, &x, &p);
            uint along = mn_contig ? x : p, left = mn_contig ? x_left : k_left;
            int across_ok = mn_contig ? p < k_left : x < x_left;
            valid = across_ok && along < left ? min(left - along, (uint)VG) : 0;
        }
        if (valid == VG) {
            regs[r].v = *(const __global floatg *)at;
        } else {
#pragma unroll
            for (uint q = 0; q < VG; ++q)
                regs[r].s[q] = q < valid ? at[q] : 0.0f;
        }
    }
}

// Stores the share into the local tile (k-major, pitch `pitch`): whole
// vectors where they run along x, transposed element by element otherwise.
INLINE void tile_store(__local float *tile, uint pitch, const lanes_g *regs, uint lid, uint extent,
                       int mn_contig)
{
#pragma unroll
    for (uint r = 0; r < MAX_ROUNDS; ++r) {
        if (!HAS_VECTOR(extent, lid, r))
            continue;
        uint x, p;
        tile_position(lid, r, extent, mn_contig, &x, &p);
        if (mn_contig) {
            *(__local floatg *)(tile + p * pitch + x) = regs[r].v;
        } else {
#pragma unroll
            for (uint q = 0; q < VG; ++q)
                tile[(p + q) * pitch + x] = regs[r].s[q];
        }
    }
}

// Asynchronous staging (the tile set's ASYNC; NVIDIA CUDA_SM >= 80, vector
// loads, two local buffers): cp.async copies operand tiles from global to
// local memory without registers, so the next tile's copies fly during this
// tile's FMAs at no register cost: the kernels whose operands both run along
// the tile's extent (tn in row-major terms; stored as loaded). The others
// transpose on the way into local memory, through registers (copying them
// by cp.async was slower: doc/performance.md). A __local array's low 32
// address bits are its shared-state address (cl/gemm.cl). Copies of fewer
// bytes than their size (past an edge) fill the rest with zeros.
#define ASYNC                                                                                      \
    (ASYNC_SET && DOUBLE_BUFFER && SGEMM_VECTOR_LOADS && DEVICE == DEVICE_NVIDIA && CUDA_SM >= 80)
#if ASYNC
INLINE void copy_vector(__local float *dst, const __global float *src, uint valid)
{
#if VG == 4
    __asm__ volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"((uint)(size_t)dst),
                     "l"(src), "r"(valid * 4)
                     : "memory");
#elif VG == 2
    __asm__ volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"((uint)(size_t)dst),
                     "l"(src), "r"(valid * 4)
                     : "memory");
#else
    __asm__ volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"((uint)(size_t)dst),
                     "l"(src), "r"(valid * 4)
                     : "memory");
#endif
}

INLINE void copy_commit(void)
{
    __asm__ volatile("cp.async.commit_group;" ::: "memory");
}

INLINE void copy_wait_all(void)
{
    __asm__ volatile("cp.async.wait_group 0;" ::: "memory");
}

// tile_load and tile_store in one, by cp.async, for an operand tile whose
// vectors run along its extent.
INLINE void tile_copy(__local float *tile, uint pitch, const __global float *corner,
                      const ulong *offsets, uint lid, uint extent, int guarded, uint x_left,
                      uint k_left)
{
#pragma unroll
    for (uint r = 0; r < MAX_ROUNDS; ++r) {
        if (!HAS_VECTOR(extent, lid, r))
            continue;
        const __global float *at = corner + offsets[r];
        uint x, p;
        tile_position(lid, r, extent, 1, &x, &p);
        uint valid = VG;
        if (guarded)
            valid = p < k_left && x < x_left ? min(x_left - x, (uint)VG) : 0;
        copy_vector(tile + p * pitch + x, valid ? at : corner, valid);
    }
}
#endif

// The FMAs of one slice of a local tile pair (its first step at as, bs):
// per k, TM/VWM vectors of A and TN/VWN of B from local memory, then TM x TN
// fused multiply-adds into registers.
INLINE void tile_multiply(float *acc, const __local float *as, const __local float *bs, uint tx,
                          uint ty)
{
#pragma unroll
    for (uint kk = 0; kk < SLICE_BK; ++kk) {
        float a[TM], b[TN];
#pragma unroll
        for (uint q = 0; q < TM / VWM; ++q)
            UNPACK(VWM)(*(const __local VECTYPE(VWM) *)(as + kk * LDAS + (q * TY + ty) * VWM),
                        a + q * VWM);
#pragma unroll
        for (uint q = 0; q < TN / VWN; ++q)
            UNPACK(VWN)(*(const __local VECTYPE(VWN) *)(bs + kk * LDBS + (q * TX + tx) * VWN),
                        b + q * VWN);
#pragma unroll
        for (uint i = 0; i < TM; ++i)
#pragma unroll
            for (uint j = 0; j < TN; ++j)
                acc[i * TN + j] = fma(a[i], b[j], acc[i * TN + j]);
    }
}

// The scalar programs' store of a tile inside C (their rows off the
// vector): through local memory (cs), C_PASS_ROWS register rows at a time.
// A register tile's columns lie VWN apart, so storing from registers would
// have consecutive work-items write every VWN-th float, where from local
// memory they write consecutive ones. Every work-item of the group calls
// this.
INLINE void tile_write_through(__global float *c, ulong ldc, const float *acc, __local float *cs,
                               uint lid, uint tx, uint ty, uint i0, float alpha, float beta)
{
    // Pass by pass, each slice's rows pass .. pass + C_PASS_ROWS - 1 (every
    // work-item takes the same path: see the slices' sums).
    uint part = i0 / (TM / SLICED_K);
#pragma unroll
    for (uint pass = 0; pass < TM / SLICED_K; pass += C_PASS_ROWS) {
        // The array's last readers (the tile loop, the slices' sums, the
        // previous pass) are done.
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (uint r = 0; r < C_PASS_ROWS; ++r) {
            __local float *cs_row = cs + ((part * C_PASS_ROWS + r) * TY + ty) * BN;
#pragma unroll
            for (uint j = 0; j < TN; ++j)
                cs_row[(j / VWN * TX + tx) * VWN + j % VWN] = alpha * acc[(pass + r) * TN + j];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        // (C_ROW_FLOATS is THREADS * TN.)
#pragma unroll
        for (uint round = 0; round < C_PASS_ROWS * TN; ++round) {
            uint e = lid + round * THREADS;
            uint line = e / BN, col = e - line * BN;
            uint slot = line / TY, slice = slot / C_PASS_ROWS;
            uint i = slice * (TM / SLICED_K) + pass + (slot - slice * C_PASS_ROWS);
            uint row = (i / VWM * TY + (line - slot * TY)) * VWM + i % VWM;
            __global float *out = c + (ulong)row * ldc + col;
            *out = beta == 0.0f ? cs[e] : fma(beta, *out, cs[e]);
        }
    }
}

// C = alpha * acc + beta * C for rows i0 .. i0 + TM / SLICED_K - 1 of the
// work-item's register tile, held in acc; beta == 0 writes without reading
// C. edge: skip rows and columns outside m_first .. m_left - 1 and n_first ..
// n_left - 1.
//
// Where the tile lies inside C, the vector programs store whole
// VWN-vectors (where C's rows start on them: c_vectors) and the scalar ones
// go through local memory (cs); across an edge both store element by
// element, as the vector programs do in a C off the vectors. (Deciding per
// vector inside one loop nest was miscompiled by POCL 3.1's LLVM 15 into
// stores past N. POCL 3.1 also lost the stores of tiles shifted along N
// when they went through local memory with guards; Oclgrind ran them
// right.) Every work-item of the group calls this: its tiles are inside or
// across an edge as a whole.
INLINE void tile_write(__global float *c, ulong ldc, const float *acc, __local float *cs, uint lid,
                       uint m_first, uint m_left, uint n_first, uint n_left, uint tx, uint ty,
                       uint i0, float alpha, float beta, int edge, int c_vectors)
{
    // (The scalar programs' path through local memory takes any C.)
    int whole_vectors = SGEMM_VECTOR_LOADS ? c_vectors : 1;
    int inside =
        !edge || (m_first == 0 && n_first == 0 && m_left >= BM && n_left >= BN && whole_vectors);
#if SGEMM_VECTOR_LOADS
    if (inside) {
#pragma unroll
        for (uint r = 0; r < TM / SLICED_K; ++r) {
            uint i = i0 + r;
            __global float *c_row = c + (ulong)((i / VWM * TY + ty) * VWM + i % VWM) * ldc;
#pragma unroll
            for (uint q = 0; q < TN / VWN; ++q) {
                __global floatn *out = (__global floatn *)(c_row + (q * TX + tx) * VWN);
                lanes_n value;
#pragma unroll
                for (uint w = 0; w < VWN; ++w)
                    value.s[w] = alpha * acc[r * TN + q * VWN + w];
                *out = beta == 0.0f ? value.v : fma(beta, *out, value.v);
            }
        }
        return;
    }
#else
    if (inside) {
        tile_write_through(c, ldc, acc, cs, lid, tx, ty, i0, alpha, beta);
        return;
    }
#endif
#pragma unroll
    for (uint r = 0; r < TM / SLICED_K; ++r) {
        uint i = i0 + r;
        uint row = (i / VWM * TY + ty) * VWM + i % VWM;
        __global float *c_row = c + (ulong)row * ldc;
#pragma unroll
        for (uint j = 0; j < TN; ++j) {
            uint col = (j / VWN * TX + tx) * VWN + j % VWN;
            if (!edge || (row >= m_first && row < m_left && col >= n_first && col < n_left)) {
                float value = alpha * acc[r * TN + j];
                c_row[col] = beta == 0.0f ? value : fma(beta, c_row[col], value);
            }
        }
    }
}

// The tile of C at (m0, n0), work-item (tx, ty) of it. guard_mn: the tile
// crosses M or N (every load and store guarded); guard_k: K may end inside a
// step of BK (that step's loads guarded). shifted: the tile lies inside the
// matrix, its first m_first rows and n_first columns another tile's (not
// stored), and the partial step of k at its end, if any, goes first (the
// one guarded load), so that every later step is whole and unguarded, as in
// the aligned kernels.
INLINE void tile_product(uint M, uint N, uint K, float alpha, float beta, const __global float *a,
                         ulong lda, const __global float *b, ulong ldb, __global float *c,
                         ulong ldc, __local float *as, __local float *bs,
                         int a_mn_contig, int b_mn_contig, int copy_async, uint m0, uint n0,
                         uint lid, uint tx, uint ty, int guard_mn, int guard_k, int shifted,
                         uint m_first, uint n_first, int guard_c, uint c_rows, uint c_cols,
                         int c_vectors)
{
    // A's tile corner moves BK along k per step: BK elements along a
    // K-contiguous row, BK rows of an M-contiguous matrix.
    const __global float *a_corner = a + (a_mn_contig ? m0 : (ulong)m0 * lda);
    const __global float *b_corner = b + (b_mn_contig ? n0 : (ulong)n0 * ldb);
    ulong a_step = a_mn_contig ? BK * lda : BK, b_step = b_mn_contig ? BK * ldb : BK;
    ulong a_offsets[MAX_ROUNDS], b_offsets[MAX_ROUNDS];
    tile_offsets(a_offsets, lid, BM, a_mn_contig, lda);
    tile_offsets(b_offsets, lid, BN, b_mn_contig, ldb);
    // Shifted with a partial step: step s >= 1 reads from k = (s - 1) BK,
    // from corners a step back (the loop's address arithmetic is the aligned
    // kernels' as written: the NVIDIA compiler's code for it follows that
    // form).
    uint k_tail = shifted ? K % BK : 0;
    const __global float *a_from = k_tail ? a_corner - a_step : a_corner;
    const __global float *b_from = k_tail ? b_corner - b_step : b_corner;
    uint m_left = M - m0, n_left = N - n0;
    uint part = SLICED_K > 1 ? lid / TILE_THREADS : 0;

    float acc[TM * TN];
#pragma unroll
    for (uint i = 0; i < TM * TN; ++i)
        acc[i] = 0.0f;
    lanes_g a_regs[MAX_ROUNDS], b_regs[MAX_ROUNDS];

    uint steps = (K + BK - 1) / BK;
    int guarded = guard_mn || (guard_k && K < BK);
#if ASYNC
    if (copy_async && a_mn_contig && b_mn_contig) {
        if (k_tail) {
            tile_copy(as, LDAS, a_corner + K / BK * a_step, a_offsets, lid, BM, 1, BM, k_tail);
            tile_copy(bs, LDBS, b_corner + K / BK * b_step, b_offsets, lid, BN, 1, BN, k_tail);
        } else {
            tile_copy(as, LDAS, a_corner, a_offsets, lid, BM, guarded, m_left, K);
            tile_copy(bs, LDBS, b_corner, b_offsets, lid, BN, guarded, n_left, K);
        }
        copy_commit();
        for (uint step = 0; step < steps; ++step) {
            uint buffer = step % 2;
            uint next_k = (step + 1) * BK;
            guarded = guard_mn || (guard_k && next_k + BK > K);
            // This tile's copies are in; every work-item is done with the
            // other buffer (the previous tile's) before it is refilled.
            copy_wait_all();
            barrier(CLK_LOCAL_MEM_FENCE);
            if (step + 1 < steps) {
                tile_copy(as + (1 - buffer) * BK * LDAS, LDAS, a_from + (step + 1) * a_step,
                          a_offsets, lid, BM, guarded, m_left, K - next_k);
                tile_copy(bs + (1 - buffer) * BK * LDBS, LDBS, b_from + (step + 1) * b_step,
                          b_offsets, lid, BN, guarded, n_left, K - next_k);
            }
            copy_commit();
            tile_multiply(acc, as + (buffer * BK + part * SLICE_BK) * LDAS,
                          bs + (buffer * BK + part * SLICE_BK) * LDBS, tx, ty);
        }
    } else
#endif
    {
        if (k_tail) {
            tile_load(a_regs, a_corner + K / BK * a_step, a_offsets, lid, BM, a_mn_contig, 1, BM,
                      k_tail);
            tile_load(b_regs, b_corner + K / BK * b_step, b_offsets, lid, BN, b_mn_contig, 1, BN,
                      k_tail);
        } else {
            tile_load(a_regs, a_corner, a_offsets, lid, BM, a_mn_contig, guarded, m_left, K);
            tile_load(b_regs, b_corner, b_offsets, lid, BN, b_mn_contig, guarded, n_left, K);
        }
        tile_store(as, LDAS, a_regs, lid, BM, a_mn_contig);
        tile_store(bs, LDBS, b_regs, lid, BN, b_mn_contig);
        barrier(CLK_LOCAL_MEM_FENCE);

        for (uint step = 0; step < steps; ++step) {
            uint buffer = DOUBLE_BUFFER ? step % 2 : 0;
            uint next_k = (step + 1) * BK;
            int more = step + 1 < steps;
            guarded = guard_mn || (guard_k && next_k + BK > K);
            if (PREFETCH && more) {
                // Register prefetch: the next tile's loads fly during the FMAs.
                tile_load(a_regs, a_from + (step + 1) * a_step, a_offsets, lid, BM, a_mn_contig,
                          guarded, m_left, K - next_k);
                tile_load(b_regs, b_from + (step + 1) * b_step, b_offsets, lid, BN, b_mn_contig,
                          guarded, n_left, K - next_k);
            }
            tile_multiply(acc, as + (buffer * BK + part * SLICE_BK) * LDAS,
                          bs + (buffer * BK + part * SLICE_BK) * LDBS, tx, ty);
            if (!more)
                break;
            if (!PREFETCH) {
                tile_load(a_regs, a_from + (step + 1) * a_step, a_offsets, lid, BM, a_mn_contig,
                          guarded, m_left, K - next_k);
                tile_load(b_regs, b_from + (step + 1) * b_step, b_offsets, lid, BN, b_mn_contig,
                          guarded, n_left, K - next_k);
            }
            // One buffer: everyone must be done reading it before it is refilled.
            // Two: the other buffer was last read before the previous barrier.
            if (!DOUBLE_BUFFER)
                barrier(CLK_LOCAL_MEM_FENCE);
            uint next = DOUBLE_BUFFER ? (step + 1) % 2 : 0;
            tile_store(as + next * BK * LDAS, LDAS, a_regs, lid, BM, a_mn_contig);
            tile_store(bs + next * BK * LDBS, LDBS, b_regs, lid, BN, b_mn_contig);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }

#if SLICED_K > 1
    // The slices' register tiles are summed through local memory, over the
    // tiles (once every slice has read its last ones), and each slice writes
    // TM / SLICED_K rows of the sum. (All work-items take the same path:
    // POCL 3.1 miscompiled versions in which the slices branched on their
    // index after these barriers.)
    barrier(CLK_LOCAL_MEM_FENCE);
    uint in_slice = lid % TILE_THREADS;
#pragma unroll
    for (uint i = 0; i < TM * TN; ++i)
        as[(part * TM * TN + i) * TILE_THREADS + in_slice] = acc[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint i0 = part * (TM / SLICED_K);
#pragma unroll
    for (uint r = 0; r < TM / SLICED_K * TN; ++r) {
        float sum = 0.0f;
#pragma unroll
        for (uint s = 0; s < SLICED_K; ++s)
            sum += as[(s * TM * TN + i0 * TN + r) * TILE_THREADS + in_slice];
        acc[r] = sum;
    }
#else
    uint i0 = 0;
#endif
    tile_write(c + (ulong)m0 * ldc + n0, ldc, acc, as, lid, m_first, c_rows - min(m0, c_rows),
               n_first, c_cols - min(n0, c_cols), tx, ty, i0, alpha, beta,
               guard_mn || shifted || guard_c, c_vectors);
}

// One work-group's tile of C. a_mn_contig: A is M-contiguous; b_mn_contig: B
// is N-contiguous; edge: M, N or K may end inside a tile, handled by guards
// (EDGE_GUARDED) or by shifting the border tiles (EDGE_SHIFTED).
#define EDGE_GUARDED 1
#define EDGE_SHIFTED 2
INLINE void tiled_gemm(uint M, uint N, uint K, uint k_slice, float alpha, float beta,
                       const __global float *a, ulong lda, const __global float *b, ulong ldb,
                       __global float *c, ulong ldc, ulong c_slice, __local float *as,
                       __local float *bs, int a_mn_contig, int b_mn_contig, int copy_async, int edge,
                       uint c_rows, uint c_cols, int c_vectors)
{
    // Swizzled tile order: bands of SWIZZLE tile rows (group_row), each
    // walked column by column along dimension 0. Groups past the tiles have
    // nothing to do, and slow the others (products with a few rows of tiles
    // ran a third slower with them). The last band may have fewer rows:
    // without split k its tiles come first along dimension 0, the idle
    // groups after them, and a product of a single band is launched with
    // only its tiles.
    // The NVIDIA compiler's code for the tile loop depends on this
    // arithmetic; each tile set keeps the form measured fastest for it
    // (doc/performance.md): division by the band's rows for the big tiles,
    // by the constant SWIZZLE wherever the band is whole for the mid tiles.
    // Split k runs products of a few dozen tiles, all in flight at once, so
    // bands would not help L2: group_row is the tile row, and dimension 0
    // holds a row's tiles per slice of k, slice by slice; a slice reads k
    // from slice * k_slice and writes its partial product c_slice floats
    // after the previous slice's. (Its index arithmetic cost the mid tiles
    // up to a fifth of their speed, hence only in its own program.)
#if !SGEMM_SPLIT_K
    uint band = group_row(), tile_rows = (M + BM - 1) / BM;
    if (band * SGEMM_SWIZZLE >= tile_rows)
        return;
    uint band_rows = min((uint)SGEMM_SWIZZLE, tile_rows - band * SGEMM_SWIZZLE);
    uint band_groups = band_rows * ((N + BN - 1) / BN);
    uint in_band = get_group_id(0);
    if (in_band >= band_groups)
        return;
    // (The remainder as a difference: clang rewrites % beside / of the same
    // operands with a freeze, which Oclgrind rejects.)
#if SGEMM_TILES == SGEMM_TILES_MID
    uint column = band_rows == SGEMM_SWIZZLE ? in_band / SGEMM_SWIZZLE : in_band / band_rows;
    uint row = band_rows == SGEMM_SWIZZLE ? in_band % SGEMM_SWIZZLE : in_band - column * band_rows;
#else
    uint column = in_band / band_rows, row = in_band - column * band_rows;
#endif
    uint m0 = (band * SGEMM_SWIZZLE + row) * BM;
    uint n0 = column * BN;
#else
    uint row_groups = (N + BN - 1) / BN;
    uint slice = get_group_id(0) / row_groups;
    uint k0 = slice * k_slice;
    K = min(k_slice, K - k0);
    a += a_mn_contig ? (ulong)k0 * lda : k0;
    b += b_mn_contig ? (ulong)k0 * ldb : k0;
    c += slice * c_slice;
    uint m0 = group_row() * BM;
    uint n0 = (get_group_id(0) - slice * row_groups) * BN;
#endif
    if (m0 >= M)
        return;

    uint lid = get_local_id(0);
    // Warp tiling: lane l of warp w sits in a WARP_TX x WARP_TY patch, its
    // bit 0 picking the patch's row where SGEMM_WARP_INTERLEAVE is set.
    // (Constant conditions: no WARP_TY or WARP_INTERLEAVE under an #if, so
    // every program reads them.) Each slice of k has the same layout.
    uint in_slice = SLICED_K > 1 ? lid % TILE_THREADS : lid;
    uint tx = in_slice % TX, ty = in_slice / TX;
    if (WARP_TX > 0) {
        const uint wx = WARP_TX > 0 ? WARP_TX : 1, wy = WARP_TY > 0 ? WARP_TY : 1;
        uint lanes = wx * wy, warp = in_slice / lanes, lane = in_slice % lanes;
        uint lane_x = SGEMM_WARP_INTERLEAVE ? lane / 2 % wx : lane % wx;
        uint lane_y = SGEMM_WARP_INTERLEAVE ? lane / (2 * wx) * 2 + lane % 2 : lane / wx;
        tx = warp % (TX / wx) * wx + lane_x;
        ty = warp / (TX / wx) * wy + lane_y;
    }

    // One copy of the tile loop, its guards decided per tile at run time
    // (doc/performance.md says why not a copy per kind of tile). The shifted
    // kernels move a border tile back inside the matrix instead (the host
    // takes them where M >= BM, N >= BN, and vectors along M or N divide
    // them), so that their loop is the aligned kernels'.
    int shifted = edge == EDGE_SHIFTED;
    uint m_first = 0, n_first = 0;
    if (shifted) {
        m_first = m0 - min(m0, M - BM);
        n_first = n0 - min(n0, N - BN);
        m0 -= m_first;
        n0 -= n_first;
    }
    int border = edge == EDGE_GUARDED && (M - m0 < BM || N - n0 < BN);
    // The edge kernels also store element by element where C's rows do not
    // start on vectors, or its rows or columns end inside the tile (a
    // product padded beyond C); the aligned kernels' C is whole and on
    // vectors (the host's plan).
    int guard_c = edge && (!c_vectors || c_rows < m0 + BM || c_cols < n0 + BN);
    tile_product(M, N, K, alpha, beta, a, lda, b, ldb, c, ldc, as, bs, a_mn_contig, b_mn_contig,
                 copy_async, m0, n0, lid, tx, ty, border, edge == EDGE_GUARDED, shifted, m_first,
                 n_first, guard_c, c_rows, c_cols, c_vectors);
}

// The kernels, by orientation (row-major terms: n = as stored, t = transposed)
// and by edge handling. No kernel's name starts with another's: Oclgrind
// counts a kernel's local arrays by name prefix. C never aliases A or B
// (BLAS; the host refuses overlaps within a buffer), so the pointers are
// restrict: read-only loads. COPY_ASYNC: the tn kernels copy by cp.async
// where the program has ASYNC.
#define DEFINE_TILED_KERNEL(NAME, A_MN_CONTIG, B_MN_CONTIG, EDGE, COPY_ASYNC)                      \
    __kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void NAME(                       \
        uint M, uint N, uint K, float alpha, float beta, const __global float *restrict a,        \
        ulong a_offset, ulong lda, const __global float *restrict b, ulong b_offset, ulong ldb,   \
        __global float *restrict c, ulong c_offset, ulong ldc, uint k_slice, ulong c_slice,      \
        uint c_rows, uint c_cols)                                                                  \
    {                                                                                              \
        __local float as[A_TILE_FLOATS] __attribute__((aligned(32)));                             \
        __local float bs[NBUF * BK * LDBS] __attribute__((aligned(32)));                          \
        tiled_gemm(M, N, K, k_slice, alpha, beta, a + a_offset, lda, b + b_offset, ldb,            \
                   c + c_offset, ldc, c_slice, as, bs, A_MN_CONTIG, B_MN_CONTIG, COPY_ASYNC, EDGE, \
                   c_rows, c_cols, (c_offset | ldc) % VWN == 0);                                   \
    }

DEFINE_TILED_KERNEL(sgemm_tiled_nn_aligned, 0, 1, 0, 1)
DEFINE_TILED_KERNEL(sgemm_tiled_nt_aligned, 0, 0, 0, 1)
DEFINE_TILED_KERNEL(sgemm_tiled_tn_aligned, 1, 1, 0, 1)
DEFINE_TILED_KERNEL(sgemm_tiled_tt_aligned, 1, 0, 0, 1)
DEFINE_TILED_KERNEL(sgemm_tiled_nn_edge, 0, 1, EDGE_GUARDED, 1)
DEFINE_TILED_KERNEL(sgemm_tiled_nt_edge, 0, 0, EDGE_GUARDED, 1)
DEFINE_TILED_KERNEL(sgemm_tiled_tn_edge, 1, 1, EDGE_GUARDED, 1)
DEFINE_TILED_KERNEL(sgemm_tiled_tt_edge, 1, 0, EDGE_GUARDED, 1)
DEFINE_TILED_KERNEL(sgemm_tiled_nn_shifted, 0, 1, EDGE_SHIFTED, 1)
DEFINE_TILED_KERNEL(sgemm_tiled_nt_shifted, 0, 0, EDGE_SHIFTED, 1)
DEFINE_TILED_KERNEL(sgemm_tiled_tn_shifted, 1, 1, EDGE_SHIFTED, 1)
DEFINE_TILED_KERNEL(sgemm_tiled_tt_shifted, 1, 0, EDGE_SHIFTED, 1)
// The mid tiles' vector programs also hold tn kernels that stage through
// registers: with few groups per compute unit, register prefetch hid the
// loads better than two buffers of cp.async (doc/performance.md); the host
// picks them by the product's groups (SGEMM_MID_ASYNC_ROUNDS).
#if SGEMM_TILES == SGEMM_TILES_MID && SGEMM_VECTOR_LOADS
DEFINE_TILED_KERNEL(sgemm_tiled_tn_sync_aligned, 1, 1, 0, 0)
DEFINE_TILED_KERNEL(sgemm_tiled_tn_sync_edge, 1, 1, EDGE_GUARDED, 0)
DEFINE_TILED_KERNEL(sgemm_tiled_tn_sync_shifted, 1, 1, EDGE_SHIFTED, 0)
#endif

#elif SGEMM_KERNELS == SGEMM_KERNELS_SMALL
// ---------------------------------------------------------------------------
// Shapes too small or too skinny for the tiles (few rows or columns, or
// little work in all): no local memory and no barriers, each work-item an
// SMALL_RM x SMALL_RN block of C straight from global memory (the caches
// serve the reuse), any orientation through element strides. Consecutive
// work-items take consecutive columns, so N-contiguous B and C are coalesced.

#define RM SGEMM_SMALL_RM
#define RN SGEMM_SMALL_RN

// *at = alpha * product + beta * *at; beta == 0 does not read *at.
INLINE void store_scaled(__global float *at, float product, float alpha, float beta)
{
    float value = alpha * product;
    *at = beta == 0.0f ? value : fma(beta, *at, value);
}

// C's RM x RN block at (i0, j0). Rows and columns past the edge read the
// last one (always in the buffer); their results are not stored.
INLINE void small_block(uint M, uint N, uint K, float alpha, float beta, const __global float *a,
                        ulong a_row_stride, ulong a_k_stride, const __global float *b,
                        ulong b_k_stride, ulong b_col_stride, __global float *c, ulong ldc, uint i0,
                        uint j0)
{
    const __global float *a_at[RM], *b_at[RN];
#pragma unroll
    for (uint r = 0; r < RM; ++r)
        a_at[r] = a + (ulong)min(i0 + r, M - 1) * a_row_stride;
#pragma unroll
    for (uint s = 0; s < RN; ++s)
        b_at[s] = b + (ulong)min(j0 + s, N - 1) * b_col_stride;
    float acc[RM][RN];
#pragma unroll
    for (uint r = 0; r < RM; ++r)
#pragma unroll
        for (uint s = 0; s < RN; ++s)
            acc[r][s] = 0.0f;
    for (uint p = 0; p < K; ++p) {
        float av[RM], bv[RN];
#pragma unroll
        for (uint r = 0; r < RM; ++r) {
            av[r] = *a_at[r];
            a_at[r] += a_k_stride;
        }
#pragma unroll
        for (uint s = 0; s < RN; ++s) {
            bv[s] = *b_at[s];
            b_at[s] += b_k_stride;
        }
#pragma unroll
        for (uint r = 0; r < RM; ++r)
#pragma unroll
            for (uint s = 0; s < RN; ++s)
                acc[r][s] = fma(av[r], bv[s], acc[r][s]);
    }
#pragma unroll
    for (uint r = 0; r < RM; ++r) {
        __global float *c_row = c + (ulong)(i0 + r) * ldc + j0;
#pragma unroll
        for (uint s = 0; s < RN; ++s) {
            if (i0 + r < M && j0 + s < N)
                store_scaled(c_row + s, acc[r][s], alpha, beta);
        }
    }
}

__kernel __attribute__((reqd_work_group_size(SGEMM_SMALL_WG_X, SGEMM_SMALL_WG_Y, 1)))
void sgemm_small(uint M, uint N, uint K, float alpha, float beta, const __global float *a,
                 ulong a_offset, ulong a_row_stride, ulong a_k_stride, const __global float *b,
                 ulong b_offset, ulong b_k_stride, ulong b_col_stride, __global float *c,
                 ulong c_offset, ulong ldc)
{
    uint j0 = get_global_id(0) * RN;
    uint i0 = (group_row() * SGEMM_SMALL_WG_Y + get_local_id(1)) * RM;
    if (i0 < M && j0 < N)
        small_block(M, N, K, alpha, beta, a + a_offset, a_row_stride, a_k_stride, b + b_offset,
                    b_k_stride, b_col_stride, c + c_offset, ldc, i0, j0);
}

// Few rows of C (the host's SGEMM_THIN_M) with B stored along n: the tiled
// kernels' tiles would be mostly padding, and B, read once per THIN_RM
// rows, is nearly all the traffic. A group holds THIN_RM rows of A in local
// memory, THIN_KC steps of k at a time (each step read by every work-item
// at the same address), and streams B past them: each work-item keeps
// THIN_RM x THIN_RN sums, its columns THIN_WG apart so that every load of B
// is coalesced. Dimension 0 walks the columns, 1 the blocks of rows, 2 the
// slices of k (k_slice steps each; with more than one the product goes to
// the workspace, slice_stride floats apart, as split k's does). Any
// strides, C's too: the host runs C^T = B^T A^T through it for outputs of a
// few columns with A stored along m. Columns past N read the last one and
// are not stored.
#define THIN_RM SGEMM_THIN_RM
#define THIN_RN SGEMM_THIN_RN
#define THIN_WG SGEMM_THIN_WG
#define THIN_KC SGEMM_THIN_KC
#if THIN_RM % 4 == 0
#define THIN_A_VEC 4
#else
#define THIN_A_VEC 1
#endif
DEFINE_LANES(thin_a_lanes, THIN_A_VEC);

__kernel __attribute__((reqd_work_group_size(THIN_WG, 1, 1)))
void sgemm_thin(uint M, uint N, uint K, float alpha, float beta, const __global float *a,
                ulong a_offset, ulong a_row_stride, ulong a_k_stride, const __global float *b,
                ulong b_offset, ulong b_k_stride, ulong b_col_stride, __global float *c,
                ulong c_offset, ulong c_row_stride, ulong c_col_stride, uint k_slice,
                ulong slice_stride)
{
    __local VECTYPE(THIN_A_VEC) a_steps[THIN_KC * THIN_RM / THIN_A_VEC];
    __local float *a_floats = (__local float *)a_steps;
    uint lid = (uint)get_local_id(0);
    uint i0 = (uint)get_group_id(1) * THIN_RM, rows = min((uint)THIN_RM, M - i0);
    uint j0 = (uint)get_group_id(0) * (THIN_WG * THIN_RN) + lid;
    uint k0 = (uint)get_group_id(2) * k_slice, k_end = min(K, k0 + k_slice);
    a += a_offset + (ulong)i0 * a_row_stride;
    c += c_offset + get_group_id(2) * slice_stride;
    const __global float *b_at[THIN_RN];
#pragma unroll
    for (uint s = 0; s < THIN_RN; ++s)
        b_at[s] = b + b_offset + (ulong)min(j0 + s * THIN_WG, N - 1) * b_col_stride;
    float acc[THIN_RM][THIN_RN];
#pragma unroll
    for (uint r = 0; r < THIN_RM; ++r)
#pragma unroll
        for (uint s = 0; s < THIN_RN; ++s)
            acc[r][s] = 0.0f;
    for (uint kc = k0; kc < k_end; kc += THIN_KC) {
        uint steps = min((uint)THIN_KC, k_end - kc);
        // The step's loads of B all issued before any is used; steps past
        // the slice read zeros, as A's rows do in local memory.
        float bv[THIN_KC][THIN_RN];
#pragma unroll
        for (uint p = 0; p < THIN_KC; ++p)
#pragma unroll
            for (uint s = 0; s < THIN_RN; ++s)
                bv[p][s] = p < steps ? b_at[s][(ulong)(kc + p) * b_k_stride] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint e = lid; e < THIN_KC * THIN_RM; e += THIN_WG) {
            uint r = e % THIN_RM, p = e / THIN_RM;
            a_floats[e] = r < rows && p < steps ? a[r * a_row_stride + (ulong)(kc + p) * a_k_stride] : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (uint p = 0; p < THIN_KC; ++p) {
#pragma unroll
            for (uint r = 0; r < THIN_RM; r += THIN_A_VEC) {
                thin_a_lanes av;
                av.v = a_steps[(p * THIN_RM + r) / THIN_A_VEC];
#pragma unroll
                for (uint q = 0; q < THIN_A_VEC; ++q)
#pragma unroll
                    for (uint s = 0; s < THIN_RN; ++s)
                        acc[r + q][s] = fma(av.s[q], bv[p][s], acc[r + q][s]);
            }
        }
    }
#pragma unroll
    for (uint r = 0; r < THIN_RM; ++r) {
        __global float *c_row = c + (ulong)(i0 + r) * c_row_stride;
#pragma unroll
        for (uint s = 0; s < THIN_RN; ++s) {
            uint j = j0 + s * THIN_WG;
            if (r < rows && j < N)
                store_scaled(c_row + (ulong)j * c_col_stride, acc[r][s], alpha, beta);
        }
    }
}

// Few columns of C whose A is stored along k, or few rows whose B is (the
// thin kernel wants the long operand along the long side): each line of C
// (a row, or a column) is up to V dot products of one line X of the long
// operand with the short one's vectors Y; one entry point for each V of 4,
// 8 and 16 (up to SGEMM_DOTS_MAX), the host taking the least that holds
// C's short side. DOTS_LANES work-items go along k, each holding
// DOTS_LINES lines, so every load of X is a vector of four floats and
// coalesced, and X is read once; a group's lines share a local copy of Y,
// DOTS_KC steps of k at a time, vectors past `vectors` zero. The lanes'
// sums meet in local memory at the end, added in lane order. Dimension 0
// walks the lines, 2 the slices of k (as the thin kernel's). Lines past the
// last read the last one and are not stored; X whose lines do not start on
// four floats (`x_vectors` 0) is read a float at a time, in the same order.
#define DOTS_LINES SGEMM_DOTS_LINES
#define DOTS_WG SGEMM_DOTS_WG
#define DOTS_KC SGEMM_DOTS_KC
#define DOTS_LANES 32 // the host's SGEMM_DOTS_LANES (src/ops/sgemm/sgemm.c)
#define DOTS_MOST_V 16
#define DOTS_SETS (DOTS_WG / DOTS_LANES)
#define DOTS_PASSES (DOTS_KC / (4 * DOTS_LANES)) // vectors of X a lane and line, per copy of Y
#define DOTS_SUMS_PITCH (DOTS_LANES + 1)
// Lines whose sums a set adds at once: SGEMM_DOTS_SUMS (line, vector) pairs,
// at least one line (the host's dots_sum_lines).
#define DOTS_SUM_LINES(V)                                                                           \
    (SGEMM_DOTS_SUMS / (V) < 1 ? 1 : SGEMM_DOTS_SUMS / (V) > DOTS_LINES ? DOTS_LINES : SGEMM_DOTS_SUMS / (V))
#define DOTS_SUM_FLOATS(V) (DOTS_SETS * DOTS_SUM_LINES(V) * (V) * DOTS_SUMS_PITCH)
// Floats between Y's vectors in local memory: DOTS_KC where Y is stored
// along k (a copy's consecutive work-items take consecutive steps), four
// more where it is not (they take consecutive vectors of one step, and the
// pad puts their stores in different banks; the host's SGEMM_DOTS_Y_PAD).
#define DOTS_Y_PITCH(ALONG_K) ((ALONG_K) ? DOTS_KC : DOTS_KC + 4)
#define DOTS_Y_FLOATS(V, ALONG_K) ((V) * DOTS_Y_PITCH(ALONG_K))
#define DOTS_LOCAL_FLOATS(V, ALONG_K)                                                               \
    (DOTS_Y_FLOATS(V, ALONG_K) > DOTS_SUM_FLOATS(V) ? DOTS_Y_FLOATS(V, ALONG_K) : DOTS_SUM_FLOATS(V))
#if DOTS_KC % (4 * DOTS_LANES) || DOTS_WG % DOTS_LANES
#error "SGEMM_DOTS_KC must be a multiple of 128 and SGEMM_DOTS_WG of 32 (the profile checks should have refused them)"
#endif

// Where element e of a copy of Y goes: consecutive elements are steps of one
// vector where Y is stored along k, else vectors of one step (the order
// its loads are coalesced in).
INLINE void dots_y_element(uint e, const uint V, const int y_along_k, uint *v, uint *p)
{
    *v = y_along_k ? e / DOTS_KC : e % V;
    *p = y_along_k ? e % DOTS_KC : e / V;
}

// The kernels' body for V vectors and Y stored along k or not (`y_along_k`:
// constants where it is inlined), with `local_vectors` of
// DOTS_LOCAL_FLOATS(V, y_along_k) floats.
INLINE void dots(const uint V, const int y_along_k, __local float4 *local_vectors, uint lines,
                 uint vectors, uint K, float alpha, float beta, const __global float *x,
                 ulong x_offset, ulong ldx, uint x_vectors, const __global float *y, ulong y_offset,
                 ulong y_vector_stride, ulong y_k_stride, __global float *c, ulong c_offset,
                 ulong c_line_stride, ulong c_vector_stride, uint k_slice, ulong slice_stride)
{
    __local float *shared = (__local float *)local_vectors;
    uint lid = (uint)get_local_id(0), lane = lid % DOTS_LANES, set = lid / DOTS_LANES;
    uint line0 = (uint)get_group_id(0) * (DOTS_SETS * DOTS_LINES) + set * DOTS_LINES;
    uint k0 = (uint)get_group_id(2) * k_slice, k_end = min(K, k0 + k_slice);
    y += y_offset;
    c += c_offset + get_group_id(2) * slice_stride;
    const __global float *rows[DOTS_LINES];
#pragma unroll
    for (uint l = 0; l < DOTS_LINES; ++l)
        rows[l] = x + x_offset + (ulong)min(line0 + l, lines - 1) * ldx;
    float acc[DOTS_LINES][DOTS_MOST_V];
#pragma unroll
    for (uint l = 0; l < DOTS_LINES; ++l)
#pragma unroll
        for (uint v = 0; v < V; ++v)
            acc[l][v] = 0.0f;
    // Where the sums leave registers for them (V * DOTS_LINES <= 32), a
    // copy's loads of X are issued before Y's, and Y's all before it stores
    // any; with more sums that cost more than it hid (doc/performance.md).
    const int x_first = V * DOTS_LINES <= 32;
    for (uint kc = k0; kc < k_end; kc += DOTS_KC) {
        uint steps = min((uint)DOTS_KC, k_end - kc);
        float4 xv[DOTS_PASSES][DOTS_LINES];
#define DOTS_LOAD_X()                                                                               \
    for (uint u = 0; u < DOTS_PASSES; ++u) {                                                        \
        uint p = (u * DOTS_LANES + lane) * 4;                                                       \
        _Pragma("unroll") for (uint l = 0; l < DOTS_LINES; ++l) {                                   \
            const __global float *at = rows[l] + kc + p;                                            \
            if (x_vectors && p + 4 <= steps) {                                                      \
                xv[u][l] = *(const __global float4 *)at;                                            \
            } else {                                                                                \
                xv[u][l].x = p < steps ? at[0] : 0.0f;                                              \
                xv[u][l].y = p + 1 < steps ? at[1] : 0.0f;                                          \
                xv[u][l].z = p + 2 < steps ? at[2] : 0.0f;                                          \
                xv[u][l].w = p + 3 < steps ? at[3] : 0.0f;                                          \
            }                                                                                       \
        }                                                                                           \
    }
        if (x_first) {
#pragma unroll
            DOTS_LOAD_X()
        }
        // Y as [vector][step], its vectors `pitch` floats apart, copied
        // along k where it is stored along k, else across its vectors.
        const uint pitch = DOTS_Y_PITCH(y_along_k);
        if (x_first) {
            float ys[(DOTS_MOST_V * DOTS_KC + DOTS_WG - 1) / DOTS_WG];
#pragma unroll
            for (uint i = 0; i < (V * DOTS_KC + DOTS_WG - 1) / DOTS_WG; ++i) {
                uint e = lid + i * DOTS_WG, v, p;
                dots_y_element(e, V, y_along_k, &v, &p);
                ys[i] = e < V * DOTS_KC && v < vectors && p < steps
                            ? y[v * y_vector_stride + (ulong)(kc + p) * y_k_stride]
                            : 0.0f;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
            for (uint i = 0; i < (V * DOTS_KC + DOTS_WG - 1) / DOTS_WG; ++i) {
                uint e = lid + i * DOTS_WG, v, p;
                dots_y_element(e, V, y_along_k, &v, &p);
                if (e < V * DOTS_KC)
                    shared[v * pitch + p] = ys[i];
            }
        } else {
            barrier(CLK_LOCAL_MEM_FENCE);
            // Along k the step stride is 1, and the loads say so.
            for (uint e = lid; e < V * DOTS_KC; e += DOTS_WG) {
                uint v, p;
                dots_y_element(e, V, y_along_k, &v, &p);
                ulong at = y_along_k ? v * y_vector_stride + kc + p
                                     : v * y_vector_stride + (ulong)(kc + p) * y_k_stride;
                shared[v * pitch + p] = v < vectors && p < steps ? y[at] : 0.0f;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (!x_first) {
#pragma unroll
            DOTS_LOAD_X()
        }
#undef DOTS_LOAD_X
#pragma unroll
        for (uint u = 0; u < DOTS_PASSES; ++u) {
#pragma unroll
            for (uint v = 0; v < V; ++v) {
                float4 yv = local_vectors[(v * pitch + (u * DOTS_LANES + lane) * 4) / 4];
#pragma unroll
                for (uint l = 0; l < DOTS_LINES; ++l) {
                    acc[l][v] = fma(xv[u][l].x, yv.x, acc[l][v]);
                    acc[l][v] = fma(xv[u][l].y, yv.y, acc[l][v]);
                    acc[l][v] = fma(xv[u][l].z, yv.z, acc[l][v]);
                    acc[l][v] = fma(xv[u][l].w, yv.w, acc[l][v]);
                }
            }
        }
    }
    // The lanes' sums of DOTS_SUM_LINES(V) lines at a time, each (line,
    // vector) pair's added by one lane.
    const uint sum_lines = DOTS_SUM_LINES(V);
#pragma unroll
    for (uint l0 = 0; l0 < DOTS_LINES; l0 += sum_lines) {
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (uint l = 0; l < sum_lines && l0 + l < DOTS_LINES; ++l)
#pragma unroll
            for (uint v = 0; v < V; ++v)
                shared[((set * sum_lines + l) * V + v) * DOTS_SUMS_PITCH + lane] = acc[l0 + l][v];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint pair = lane; pair < sum_lines * V; pair += DOTS_LANES) {
            uint l = pair / V, v = pair % V, line = line0 + l0 + l;
            if (v < vectors && l0 + l < DOTS_LINES && line < lines) {
                const __local float *sums = shared + ((set * sum_lines + l) * V + v) * DOTS_SUMS_PITCH;
                float sum = 0.0f;
#pragma unroll
                for (uint q = 0; q < DOTS_LANES; ++q)
                    sum += sums[q];
                store_scaled(c + (ulong)line * c_line_stride + (ulong)v * c_vector_stride, sum, alpha, beta);
            }
        }
    }
}

// The vectors of the entry point for up to N: N where SGEMM_DOTS_MAX sends
// products to it, else 1 (never launched; its local memory need not fit).
#define DOTS_WIDTH(N) (SGEMM_DOTS_MAX > ((N) == 4 ? 0 : (N) / 2) ? (N) : 1)

#define DEFINE_DOTS_KERNEL(name, V, ALONG_K)                                                        \
    __kernel __attribute__((reqd_work_group_size(DOTS_WG, 1, 1))) void name(                        \
        uint lines, uint vectors, uint K, float alpha, float beta, const __global float *x,         \
        ulong x_offset, ulong ldx, uint x_vectors, const __global float *y, ulong y_offset,         \
        ulong y_vector_stride, ulong y_k_stride, __global float *c, ulong c_offset,                 \
        ulong c_line_stride, ulong c_vector_stride, uint k_slice, ulong slice_stride)               \
    {                                                                                               \
        __local float4 local_vectors[(DOTS_LOCAL_FLOATS(V, ALONG_K) + 3) / 4];                      \
        dots(V, ALONG_K, local_vectors, lines, vectors, K, alpha, beta, x, x_offset, ldx, x_vectors, \
             y, y_offset, y_vector_stride, y_k_stride, c, c_offset, c_line_stride, c_vector_stride, \
             k_slice, slice_stride);                                                                \
    }

// Y copied across its vectors (any strides), then along k (y_k_stride 1).
DEFINE_DOTS_KERNEL(sgemm_dots4, DOTS_WIDTH(4), 0)
DEFINE_DOTS_KERNEL(sgemm_dots8, DOTS_WIDTH(8), 0)
DEFINE_DOTS_KERNEL(sgemm_dots16, DOTS_WIDTH(16), 0)
DEFINE_DOTS_KERNEL(sgemm_dots4_along_k, DOTS_WIDTH(4), 1)
DEFINE_DOTS_KERNEL(sgemm_dots8_along_k, DOTS_WIDTH(8), 1)
DEFINE_DOTS_KERNEL(sgemm_dots16_along_k, DOTS_WIDTH(16), 1)

// Split k's last step: C = alpha * (the slices' partial products, summed in
// slice order) + beta * C; beta == 0 writes without reading C.
__kernel __attribute__((reqd_work_group_size(SGEMM_SMALL_WG_X, SGEMM_SMALL_WG_Y, 1)))
void sgemm_split_sum(uint M, uint N, uint slices, float alpha, float beta,
                     const __global float *restrict partial, ulong partial_offset, ulong ldp,
                     ulong slice_stride, __global float *restrict c, ulong c_offset, ulong ldc)
{
    uint j = get_global_id(0), i = group_row() * SGEMM_SMALL_WG_Y + get_local_id(1);
    if (i >= M || j >= N)
        return;
    const __global float *from = partial + partial_offset + (ulong)i * ldp + j;
    float sum = 0.0f;
    for (uint s = 0; s < slices; ++s)
        sum += from[s * slice_stride];
    store_scaled(c + c_offset + (ulong)i * ldc + j, sum, alpha, beta);
}

// An operand whose rows do not start on vector boundaries, copied row by row
// (M rows of N floats) into a workspace whose rows start on 128-byte
// boundaries (dst_offset and ldd multiples of 32), for the tiled kernels'
// vector loads: four floats a work-item, read one by one, stored as one.
// Each row is zero-filled to a multiple of four floats (a product over N
// rounded up reads them).
__kernel __attribute__((reqd_work_group_size(SGEMM_SMALL_WG_X, SGEMM_SMALL_WG_Y, 1)))
void sgemm_stage(uint M, uint N, const __global float *restrict src, ulong src_offset, ulong lds,
                 __global float *restrict dst, ulong dst_offset, ulong ldd)
{
    uint j = get_global_id(0) * 4, i = group_row() * SGEMM_SMALL_WG_Y + get_local_id(1);
    if (i >= M || j >= N)
        return;
    const __global float *from = src + src_offset + (ulong)i * lds + j;
    __global float *to = dst + dst_offset + (ulong)i * ldd + j;
    if (j + 4 <= N) {
        *(__global float4 *)to = (float4)(from[0], from[1], from[2], from[3]);
    } else {
        for (uint q = 0; q < 4; ++q)
            to[q] = j + q < N ? from[q] : 0.0f;
    }
}

// C = beta * C (k = 0 or alpha = 0); beta == 0 writes zeros without reading C.
__kernel __attribute__((reqd_work_group_size(SGEMM_SMALL_WG_X, SGEMM_SMALL_WG_Y, 1)))
void sgemm_scale(uint M, uint N, float beta, __global float *c, ulong c_offset, ulong ldc)
{
    uint j = get_global_id(0), i = group_row() * SGEMM_SMALL_WG_Y + get_local_id(1);
    if (i >= M || j >= N)
        return;
    __global float *at = c + c_offset + (ulong)i * ldc + j;
    *at = beta == 0.0f ? 0.0f : beta * *at;
}

#elif SGEMM_KERNELS == SGEMM_KERNELS_CPU
// ---------------------------------------------------------------------------
// CPU devices: register blocking along the SIMD width, no local memory, no
// barriers (the BLIS micro-kernel shape). Each work-item
// owns a block of C in vector registers and streams through k; one
// work-item per group by default, so the OpenCL runtime runs it as plain
// vector code. Two forms:
// - broadcast (B N-contiguous): CPU_RM rows x CPU_NV vectors of CPU_VN
//   columns; per k, CPU_NV vector loads of B's row and CPU_RM broadcasts of A,
//   then CPU_RM x CPU_NV vector FMAs. A may run either way (element strides);
//   C is written through element strides, so the host also maps A^T B^T here
//   as the transposed product (C^T = B A) with transposed strides of C.
// - dot (A and B K-contiguous): CPU_RM x CPU_DOT_RN dot products, vectors
//   along k, lanes summed at the end.
// - packed (large products, any orientation): BLIS's and OpenBLAS's loop
//   nest. The pack kernels copy B into panels of CN columns (and A, where
//   it is stored M-contiguous, into panels of CPU_RM rows), each panel
//   k-major and zero-padded past the edge, into a workspace; the packed
//   kernel runs the broadcast form's register block over them, k in slices
//   of SGEMM_CPU_KC. Every load is then sequential (no page crossed per step
//   of k, which defeats the prefetchers when B's rows are far apart; a
//   K-contiguous A's rows already are), and a slice of a B panel (KC x CN
//   floats) stays in L1 or L2 while the A slices pass.

#define RM SGEMM_CPU_RM
#define VN SGEMM_CPU_VN
#define NV SGEMM_CPU_NV
#define CN (VN * NV)
#define DOT_RN SGEMM_CPU_DOT_RN
typedef VECTYPE(VN) floatv;
#define VLOAD CAT(vload, VN)
#define VSTORE CAT(vstore, VN)

// The block a work-item owns: consecutive work-items walk down the rows
// (sharing B's panel in cache) or along the columns (sharing A's rows).
INLINE void cpu_block(uint rows, uint cols, uint *i0, uint *j0)
{
#if SGEMM_CPU_ROWS_FIRST
    *i0 = get_global_id(0) * rows;
    *j0 = get_global_id(1) * cols;
#else
    *j0 = get_global_id(0) * cols;
    *i0 = get_global_id(1) * rows;
#endif
}

// The lanes summed pairwise, through a private array (Oclgrind 21.10 crashes
// on extracting lanes of a vector directly).
INLINE float lanes_sum(floatv v)
{
    float lane[VN];
    VSTORE(v, 0, lane);
#pragma unroll
    for (uint width = VN / 2; width > 0; width /= 2)
#pragma unroll
        for (uint i = 0; i < width; ++i)
            lane[i] += lane[i + width];
    return lane[0];
}

// C = alpha * acc + beta * C for a block at `c`, m_left rows and n_left
// columns of it inside C; beta == 0 writes without reading C.
INLINE void cpu_write_block(floatv acc[RM][NV], uint m_left, uint n_left, float alpha, float beta,
                            __global float *c, ulong c_row_stride, ulong c_col_stride)
{
    if (c_row_stride == 1 && c_col_stride != 1) {
        // C written transposed (the broadcast form's tt): each of the
        // block's columns is RM consecutive floats of one of C's rows, so
        // they are written together, not one cache line per float.
        float values[RM][CN];
#pragma unroll
        for (uint r = 0; r < RM; ++r)
#pragma unroll
            for (uint q = 0; q < NV; ++q)
                VSTORE(acc[r][q], q, values[r]);
        for (uint l = 0; l < CN && l < n_left; ++l) {
            __global float *at = c + l * c_col_stride;
            for (uint r = 0; r < RM && r < m_left; ++r) {
                float value = alpha * values[r][l];
                at[r] = beta == 0.0f ? value : fma(beta, at[r], value);
            }
        }
        return;
    }
    for (uint r = 0; r < RM && r < m_left; ++r) {
        __global float *c_row = c + (ulong)r * c_row_stride;
        if (c_col_stride == 1 && n_left >= CN) {
#pragma unroll
            for (uint q = 0; q < NV; ++q) {
                floatv value = alpha * acc[r][q];
                if (beta != 0.0f)
                    value = fma(beta, VLOAD(q, c_row), value);
                VSTORE(value, q, c_row);
            }
            continue;
        }
        float values[CN];
#pragma unroll
        for (uint q = 0; q < NV; ++q)
            VSTORE(acc[r][q], q, values);
        for (uint l = 0; l < CN && l < n_left; ++l) {
            __global float *at = c_row + l * c_col_stride;
            float value = alpha * values[l];
            *at = beta == 0.0f ? value : fma(beta, *at, value);
        }
    }
}

// One step of k of the register block's first `vectors` vectors of
// columns: acc += (CPU_RM values of A, a_k[rows[r]], each broadcast) x bv.
INLINE void cpu_rank1(floatv acc[RM][NV], const __global float *a_k, const ulong *rows,
                      const floatv *bv, uint vectors)
{
#pragma unroll
    for (uint r = 0; r < RM; ++r) {
        floatv av = (floatv)(a_k[rows[r]]);
#pragma unroll
        for (uint q = 0; q < NV; ++q)
            if (q < vectors)
                acc[r][q] = fma(av, bv[q], acc[r][q]);
    }
}

// The block's steps of k over its first `vectors` vectors of columns, the
// last of which holds `tail` columns (VN: it is whole). Called with a
// constant `vectors`, so that a block crossing the last column does the
// multiply-adds of the vectors it has, loads whole vectors of B where they
// are, and reads element by element only the columns of its last vector.
INLINE void cpu_broadcast_steps(floatv acc[RM][NV], uint vectors, uint tail, uint K,
                                const __global float *a_k, ulong a_k_stride,
                                const __global float *b_k, ulong ldb, const ulong *a_rows)
{
    for (uint p = 0; p < K; ++p, a_k += a_k_stride, b_k += ldb) {
        floatv bv[NV];
#pragma unroll
        for (uint q = 0; q < NV; ++q) {
            if (q + 1 < vectors || (q + 1 == vectors && tail == VN)) {
                bv[q] = VLOAD(0, b_k + q * VN);
            } else if (q + 1 == vectors) {
                float lane[VN];
#pragma unroll
                for (uint l = 0; l < VN; ++l)
                    lane[l] = l < tail ? b_k[q * VN + l] : 0.0f;
                bv[q] = VLOAD(0, lane);
            } else {
                bv[q] = 0.0f;
            }
        }
        cpu_rank1(acc, a_k, a_rows, bv, vectors);
    }
}

__kernel __attribute__((reqd_work_group_size(SGEMM_CPU_WG, 1, 1)))
void sgemm_cpu_broadcast(uint M, uint N, uint K, float alpha, float beta, const __global float *a,
                         ulong a_offset, ulong a_row_stride, ulong a_k_stride,
                         const __global float *b, ulong b_offset, ulong ldb, __global float *c,
                         ulong c_offset, ulong c_row_stride, ulong c_col_stride)
{
    uint i0, j0;
    cpu_block(RM, CN, &i0, &j0);
    if (i0 >= M || j0 >= N)
        return;
    // Rows past M read row M - 1 (always in the buffer) and are not stored.
    ulong a_rows[RM];
#pragma unroll
    for (uint r = 0; r < RM; ++r)
        a_rows[r] = (ulong)(min(i0 + r, M - 1) - i0) * a_row_stride;
    const __global float *a_k = a + a_offset + (ulong)i0 * a_row_stride;
    const __global float *b_k = b + b_offset + j0;
    floatv acc[RM][NV];
#pragma unroll
    for (uint r = 0; r < RM; ++r)
#pragma unroll
        for (uint q = 0; q < NV; ++q)
            acc[r][q] = 0.0f;
    uint n_left = N - j0;
    if (n_left >= CN) {
        cpu_broadcast_steps(acc, NV, VN, K, a_k, a_k_stride, b_k, ldb, a_rows);
    } else {
        // The block crosses the last column: the vectors it has, the last
        // one partly.
        uint vectors = (n_left + VN - 1) / VN, tail = n_left - (vectors - 1) * VN;
#pragma unroll
        for (uint v = 1; v <= NV; ++v)
            if (vectors == v)
                cpu_broadcast_steps(acc, v, tail, K, a_k, a_k_stride, b_k, ldb, a_rows);
    }
    cpu_write_block(acc, M - i0, n_left, alpha, beta,
                    c + c_offset + (ulong)i0 * c_row_stride + (ulong)j0 * c_col_stride,
                    c_row_stride, c_col_stride);
}

// The pack kernels: one work-item copies SGEMM_CPU_KC steps of k of one
// panel of `width` rows (A) or columns (B) of an operand, `lines` long along
// M or N and K along k, with element strides along both; panel x holds
// (p, w) at dst[(x * K + p) * width + w], zero past the last line. The inner
// loop runs along whichever stride is 1, so one side of the copy is
// sequential.
#define KC SGEMM_CPU_KC

INLINE void cpu_pack(uint lines, uint K, const __global float *src, ulong line_stride,
                     ulong k_stride, __global float *dst, uint width)
{
    uint x0 = get_global_id(0) * width, p0 = get_global_id(1) * KC;
    if (x0 >= lines || p0 >= K)
        return;
    uint steps = min((uint)KC, K - p0), valid = min(width, lines - x0);
    const __global float *from = src + (ulong)x0 * line_stride + (ulong)p0 * k_stride;
    __global float *to = dst + ((ulong)x0 * K + (ulong)p0 * width);
    // No condition in the copying loops, so that they vectorize: the lines
    // past the edge are zeroed in a loop of their own.
    if (k_stride == 1) {
        for (uint p = 0; p < steps; ++p)
            for (uint w = 0; w < valid; ++w)
                to[p * width + w] = from[w * line_stride + p];
    } else if (line_stride == 1) {
        for (uint p = 0; p < steps; ++p)
            for (uint w = 0; w < valid; ++w)
                to[p * width + w] = from[p * k_stride + w];
    } else {
        for (uint p = 0; p < steps; ++p)
            for (uint w = 0; w < valid; ++w)
                to[p * width + w] = from[p * k_stride + w * line_stride];
    }
    for (uint p = 0; p < steps; ++p)
        for (uint w = valid; w < width; ++w)
            to[p * width + w] = 0.0f;
}

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void sgemm_cpu_pack_a(uint lines, uint K, const __global float *src, ulong offset,
                      ulong line_stride, ulong k_stride, __global float *dst, ulong dst_offset)
{
    cpu_pack(lines, K, src + offset, line_stride, k_stride, dst + dst_offset, RM);
}

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void sgemm_cpu_pack_b(uint lines, uint K, const __global float *src, ulong offset,
                      ulong line_stride, ulong k_stride, __global float *dst, ulong dst_offset)
{
    cpu_pack(lines, K, src + offset, line_stride, k_stride, dst + dst_offset, CN);
}

// C (M x N, row-major) = alpha * A B + beta * C from B's panels and A, packed
// or in place: element (i, p) of a block of rows from i0 is at
// a[i0 a_block_stride + (i - i0) a_row_stride + p a_k_stride] (packed: K,
// 1, CPU_RM). Work-item (i, j) takes SGEMM_CPU_MC_PANELS blocks of CPU_RM
// rows from block i * SGEMM_CPU_MC_PANELS, and B's panel j, slice by slice
// of k: the B panel's slice (KC x CN) stays in L1 or L2 while the A slices
// pass (BLIS's jr/ir loops inside one work-item). The first slice applies
// beta; later slices add to C.
__kernel __attribute__((reqd_work_group_size(SGEMM_CPU_WG, 1, 1)))
void sgemm_cpu_packed(uint M, uint N, uint K, float alpha, float beta, const __global float *a,
                      ulong a_offset, ulong a_block_stride, ulong a_row_stride, ulong a_k_stride,
                      const __global float *panels, ulong b_panels, __global float *c, ulong c_offset,
                      ulong ldc)
{
    uint first = get_global_id(0) * SGEMM_CPU_MC_PANELS * RM, j0 = get_global_id(1) * CN;
    if (first >= M || j0 >= N)
        return;
    uint last = min(first + SGEMM_CPU_MC_PANELS * RM, M);
    for (uint k0 = 0; k0 < K; k0 += KC) {
        uint steps = min((uint)KC, K - k0);
        float slice_beta = k0 == 0 ? beta : 1.0f;
        for (uint i0 = first; i0 < last; i0 += RM) {
            // Rows past M read row M - 1 and are not stored.
            ulong rows[RM];
#pragma unroll
            for (uint r = 0; r < RM; ++r)
                rows[r] = (ulong)(min(i0 + r, M - 1) - i0) * a_row_stride;
            const __global float *a_k = a + a_offset + (ulong)i0 * a_block_stride + (ulong)k0 * a_k_stride;
            const __global float *b_k = panels + b_panels + (ulong)j0 * K + (ulong)k0 * CN;
            floatv acc[RM][NV];
#pragma unroll
            for (uint r = 0; r < RM; ++r)
#pragma unroll
                for (uint q = 0; q < NV; ++q)
                    acc[r][q] = 0.0f;
            for (uint p = 0; p < steps; ++p, a_k += a_k_stride, b_k += CN) {
                floatv bv[NV];
#pragma unroll
                for (uint q = 0; q < NV; ++q)
                    bv[q] = VLOAD(q, b_k);
                cpu_rank1(acc, a_k, rows, bv, NV);
            }
            cpu_write_block(acc, M - i0, N - j0, alpha, slice_beta,
                            c + c_offset + (ulong)i0 * ldc + j0, ldc, 1);
        }
    }
}

__kernel __attribute__((reqd_work_group_size(SGEMM_CPU_WG, 1, 1)))
void sgemm_cpu_dot(uint M, uint N, uint K, float alpha, float beta, const __global float *a,
                   ulong a_offset, ulong lda, const __global float *b, ulong b_offset, ulong ldb,
                   __global float *c, ulong c_offset, ulong ldc)
{
    uint i0, j0;
    cpu_block(RM, DOT_RN, &i0, &j0);
    if (i0 >= M || j0 >= N)
        return;
    // Rows and columns past the edge read the last one and are not stored.
    const __global float *a_row[RM], *b_col[DOT_RN];
#pragma unroll
    for (uint r = 0; r < RM; ++r)
        a_row[r] = a + a_offset + (ulong)min(i0 + r, M - 1) * lda;
#pragma unroll
    for (uint s = 0; s < DOT_RN; ++s)
        b_col[s] = b + b_offset + (ulong)min(j0 + s, N - 1) * ldb;
    floatv acc[RM][DOT_RN];
#pragma unroll
    for (uint r = 0; r < RM; ++r)
#pragma unroll
        for (uint s = 0; s < DOT_RN; ++s)
            acc[r][s] = 0.0f;
    uint p = 0;
    for (; p + VN <= K; p += VN) {
        floatv av[RM], bv[DOT_RN];
#pragma unroll
        for (uint r = 0; r < RM; ++r)
            av[r] = VLOAD(0, a_row[r] + p);
#pragma unroll
        for (uint s = 0; s < DOT_RN; ++s)
            bv[s] = VLOAD(0, b_col[s] + p);
#pragma unroll
        for (uint r = 0; r < RM; ++r)
#pragma unroll
            for (uint s = 0; s < DOT_RN; ++s)
                acc[r][s] = fma(av[r], bv[s], acc[r][s]);
    }
    float sums[RM][DOT_RN];
#pragma unroll
    for (uint r = 0; r < RM; ++r)
#pragma unroll
        for (uint s = 0; s < DOT_RN; ++s)
            sums[r][s] = lanes_sum(acc[r][s]);
    for (; p < K; ++p)
#pragma unroll
        for (uint r = 0; r < RM; ++r)
#pragma unroll
            for (uint s = 0; s < DOT_RN; ++s)
                sums[r][s] = fma(a_row[r][p], b_col[s][p], sums[r][s]);
    for (uint r = 0; r < RM && i0 + r < M; ++r) {
        __global float *c_row = c + c_offset + (ulong)(i0 + r) * ldc + j0;
        for (uint s = 0; s < DOT_RN && j0 + s < N; ++s) {
            float value = alpha * sums[r][s];
            c_row[s] = beta == 0.0f ? value : fma(beta, c_row[s], value);
        }
    }
}

#else
#error "unknown SGEMM_KERNELS"
#endif
