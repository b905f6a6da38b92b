// Mixed-precision GEMM: C = alpha * op(A) * op(B) + beta * C with f16, bf16
// or f32 inputs (GEMM_IN), products accumulated in f32, C stored as f32, f16
// or bf16 (a kernel argument: the store is a uniform branch per element).
// Every kernel takes a batch of matrices a fixed stride apart.
//
// The host maps every layout onto row-major C (a column-major call is the
// row-major call of the transposed product), so the kernels see op(A) as
// M x K and op(B) as K x N, each stored either K-contiguous or M/N-contiguous.
//
// GEMM_KERNELS_MMA (NVIDIA, CUDA_SM >= 80): tensor cores through inline PTX
// (mma.sync.m16n8k16, f16 or bf16 in, f32 accumulate). Local memory holds
// 32-bit words, each the two halves of one row at k and k + 1, which is the
// unit an mma fragment register holds; so every fragment register is one
// 32-bit local load, conflict-free, whichever way the operand is stored:
// - K-contiguous operands keep their rows (word [row][k/2]); a row is
//   padded by 4 words so the 8 rows x 4 k-pairs a fragment reads fall on 32
//   different banks.
// - M/N-contiguous operands are interleaved on the way in: two rows of k
//   become one row of pairs (word [k/2][row]), padded by 8 words.
// Global loads are 16 bytes where an operand's offset and leading dimension
// allow it and the chunk lies inside the matrix, else half by half with
// zeros outside (edges, k tails). The next tile's loads are issued before
// this tile's mma and stored after them into the other local buffer: one
// barrier per tile.
// With GEMM_IN == DTYPE_F32 the tensor-core section holds the 3xTF32
// kernels of gemm_tf32x3.cl instead (f32 at about f32 accuracy on the tf32
// mma), which share the tile shape, the epilogue and the cp.async waits.
//
// GEMM_KERNELS_SIMT (every device): local-memory tiles converted to float,
// register tiles of TM x TN per work-item.
#include "prelude.cl"

#if !defined(GEMM_KERNELS) || !defined(GEMM_IN)
#error "the build options must define GEMM_KERNELS and GEMM_IN"
#endif

#define INLINE static inline __attribute__((always_inline))

// The epilogue: c = alpha * acc + beta * c in the C type the call names.
// beta == 0 does not read C.
INLINE void gemm_store(__global void *c, ulong i, uint c_type, float acc, float alpha, float beta)
{
    float v = alpha * acc;
    if (beta != 0.0f)
        v += beta * load_real(c, i, c_type);
    store_real(c, i, c_type, v);
}

// The tile (row, column of tiles) of a group: SWIZZLE tile rows form a band
// walked column by column, so groups running together share panels in L2.
// Remainders are taken by hand: a quotient and remainder of the same
// operands become a freeze instruction in LLVM, which Oclgrind's
// uninitialized-value checker does not support.
INLINE uint2 gemm_tile(uint tiles_m, uint tiles_n, uint swizzle)
{
    uint id = (uint)get_group_id(0);
    uint band = id / (swizzle * tiles_n), in_band = id - band * (swizzle * tiles_n);
    uint rows = min(swizzle, tiles_m - band * swizzle);
    uint column = in_band / rows;
    return (uint2)(band * swizzle + in_band - column * rows, column);
}

#define GEMM_ARGS                                                                                  \
    uint m, uint n, uint k, float alpha, float beta, __global const GEMM_IN_T *a, ulong a_offset,  \
        ulong lda, ulong stride_a, __global const GEMM_IN_T *b, ulong b_offset, ulong ldb,          \
        ulong stride_b, __global void *c, ulong c_offset, ulong ldc, ulong stride_c, uint c_type,   \
        uint batch, uint vector_a, uint vector_b

#if GEMM_KERNELS == GEMM_KERNELS_MMA
// ---------------------------------------------------------------------------
#if DEVICE != DEVICE_NVIDIA || CUDA_SM < 80
#error "the mma kernels need NVIDIA CUDA_SM >= 80"
#endif
#if GEMM_IN == DTYPE_F32
// 3xTF32: f32 operands on the tf32 tensor cores (cl/gemm_tf32x3.cl).
#define BM GEMM_TF32X3_BM
#define BN GEMM_TF32X3_BN
#define BK GEMM_TF32X3_BK
#define WARPS_M GEMM_TF32X3_WARPS_M
#define WARPS_N GEMM_TF32X3_WARPS_N
#define STAGES GEMM_TF32X3_STAGES
#define PAIR_STORES GEMM_TF32X3_PAIR_STORES
#elif GEMM_TILES == GEMM_TILES_SMALL
#define BM GEMM_MMA_SMALL_BM
#define BN GEMM_MMA_SMALL_BN
#define BK GEMM_MMA_SMALL_BK
#define WARPS_M GEMM_MMA_SMALL_WARPS_M
#define WARPS_N GEMM_MMA_SMALL_WARPS_N
#define STAGES GEMM_MMA_SMALL_STAGES
#define PAIR_STORES GEMM_MMA_SMALL_PAIR_STORES
#else
#define BM GEMM_MMA_BM
#define BN GEMM_MMA_BN
#define BK GEMM_MMA_BK
#define WARPS_M GEMM_MMA_WARPS_M
#define WARPS_N GEMM_MMA_WARPS_N
#define STAGES GEMM_MMA_STAGES
#define PAIR_STORES GEMM_MMA_PAIR_STORES
#endif
#define THREADS (32 * WARPS_M * WARPS_N)
#define WM (BM / WARPS_M) // a warp's rows of C
#define WN (BN / WARPS_N)
#define MI (WM / 16)      // mma tiles of a warp along m
#define NJ (WN / 8)

// The tiles are written and read as 16-byte vectors.
#define LOCAL_ALIGN __attribute__((aligned(16)))

INLINE void zero_accumulators(float acc[MI][NJ][4])
{
#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
        for (int j = 0; j < NJ; j++)
#pragma unroll
            for (int r = 0; r < 4; r++)
                acc[i][j][r] = 0.0f;
}

// v0 and v1 rounded to f16 (to nearest even), v0 in the low half.
INLINE uint f16_pair(float v0, float v1)
{
    uint d;
    __asm__("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(v1), "f"(v0));
    return d;
}

// Two neighbouring elements i and i + 1 of C, i even: one 8-byte store of
// f32, one 4-byte store of f16 or bf16.
INLINE void gemm_store_pair(__global void *c, ulong i, uint c_type, float acc0, float acc1,
                            float alpha, float beta)
{
    float v0 = alpha * acc0, v1 = alpha * acc1;
    if (beta != 0.0f) {
        v0 += beta * load_real(c, i, c_type);
        v1 += beta * load_real(c, i + 1, c_type);
    }
    if (c_type == DTYPE_F32)
        *(__global float2 *)((__global float *)c + i) = (float2)(v0, v1);
    else if (c_type == DTYPE_F16)
        *(__global uint *)((__global ushort *)c + i) = f16_pair(v0, v1);
    else
        *(__global uint *)((__global ushort *)c + i) =
            (uint)float_to_bf16(v0) | (uint)float_to_bf16(v1) << 16;
}

// A warp's accumulators into C: register r of mma tile (i, j) holds row
// row0 + 16 i (+ 8 for r >= 2), column col0 + 8 j (+ 1 for odd r), where
// row0 and col0 carry the lane's offsets within the tile. col0 is even, so
// where C's offset and ldc are even each lane's two columns are one aligned
// pair (the buffer's start is aligned far beyond 8 bytes). With PAIR_STORES,
// such a tile inside C is stored pair by pair without bounds. That path costs
// registers: it can take a kernel past the count at which two groups share a
// compute unit (doc/performance.md).
INLINE void store_accumulators(float acc[MI][NJ][4], __global void *c, ulong base, ulong ldc,
                               uint m, uint n, uint row0, uint col0, int whole_tile, uint c_type,
                               float alpha, float beta)
{
    if (PAIR_STORES && whole_tile && ((base | ldc) & 1) == 0) {
#pragma unroll
        for (int i = 0; i < MI; i++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                ulong at = base + (ulong)(row0 + (uint)i * 16 + (uint)h * 8) * ldc + col0;
#pragma unroll
                for (int j = 0; j < NJ; j++)
                    gemm_store_pair(c, at + (uint)j * 8, c_type, acc[i][j][2 * h],
                                    acc[i][j][2 * h + 1], alpha, beta);
            }
        return;
    }
#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
        for (int j = 0; j < NJ; j++)
#pragma unroll
            for (int r = 0; r < 4; r++) {
                uint row = row0 + (uint)i * 16 + (r >= 2 ? 8 : 0);
                uint col = col0 + (uint)j * 8 + (uint)(r & 1);
                if (row < m && col < n)
                    gemm_store(c, base + (ulong)row * ldc + col, c_type, acc[i][j][r], alpha, beta);
            }
}

INLINE void copy_commit(void)
{
    __asm__ volatile("cp.async.commit_group;" ::: "memory");
}

// Waits until at most `pending` of this work-item's groups are in flight.
#define COPY_WAIT(pending) __asm__ volatile("cp.async.wait_group %0;" ::"n"(pending) : "memory")

// Chunk q of an operand tile (X rows of op(A) or columns of op(B), BK steps
// of k from k0), of E elements along the contiguous dimension: the matrix
// line it copies from and its first element, how many of its elements lie
// inside the matrix, and its element offset in the local tile (K-contiguous
// operands as [row][k] lines of pitch_k, others as [k][row] lines of
// pitch_x).
struct chunk {
    uint line, first, inside, at;
};

INLINE struct chunk chunk_of(uint q, uint E, int k_contiguous, uint X, uint row0, uint rows, uint k0,
                             uint k, uint pitch_k, uint pitch_x)
{
    struct chunk c;
    uint lines, extent;
    if (k_contiguous) {
        c.line = row0 + q / (BK / E);
        c.first = k0 + q % (BK / E) * E;
        lines = rows;
        extent = k;
        c.at = q / (BK / E) * pitch_k + q % (BK / E) * E;
    } else {
        c.line = k0 + q / (X / E);
        c.first = row0 + q % (X / E) * E;
        lines = k;
        extent = rows;
        c.at = q / (X / E) * pitch_x + q % (X / E) * E;
    }
    c.inside = c.line < lines && c.first < extent ? min(extent - c.first, E) : 0;
    return c;
}

#if GEMM_IN == DTYPE_F32
#include "gemm_tf32x3.cl"
#else
#if GEMM_IN == DTYPE_F16
#define MMA_PTX "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
#elif GEMM_IN == DTYPE_BF16
#define MMA_PTX "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
#else
#error "the mma kernels take f16, bf16 or f32 (3xTF32)"
#endif
#define GEMM_IN_T ushort

#define KW (BK / 2)       // words of a K-contiguous local row
#define PITCH_K (KW + 4)
#define PITCH_PAIR(X) ((X) + 8)
// Local words of an operand tile of X rows, either way it is stored.
#define TILE_WORDS(X) ((X) * PITCH_K > KW * PITCH_PAIR(X) ? (X) * PITCH_K : KW * PITCH_PAIR(X))
// 16-byte chunks of an operand tile, per work-item.
#define CHUNKS(X) ((X) * BK / 8 / THREADS)

#if WM % 16 || WN % 8 || BK % 16 || (BM * BK / 8) % THREADS || (BN * BK / 8) % THREADS ||         \
    (BM * BK / 16) % THREADS || (BN * BK / 16) % THREADS
#error "the mma tile shape does not divide into warps and 16-byte chunks"
#endif


INLINE uint pack_pair(ushort lo, ushort hi)
{
    return (uint)lo | ((uint)hi << 16);
}

// One 16-byte chunk of an operand: 8 halves along the contiguous dimension
// starting at (line, first), zeros outside lines x extent.
INLINE uint4 load_chunk(__global const ushort *p, ulong ld, uint line, uint lines, uint first,
                        uint extent, uint vector)
{
    __global const ushort *q = p + (ulong)line * ld + first;
    if (vector && line < lines && first + 8 <= extent)
        return *(__global const uint4 *)q;
    ushort h[8];
#pragma unroll
    for (int i = 0; i < 8; i++)
        h[i] = line < lines && first + i < extent ? q[i] : (ushort)0;
    return (uint4)(pack_pair(h[0], h[1]), pack_pair(h[2], h[3]), pack_pair(h[4], h[5]),
                   pack_pair(h[6], h[7]));
}

// The global loads of one operand tile (X rows of op(A) or columns of op(B),
// BK steps of k from k0) into registers. K-contiguous: chunk q is row
// q / (BK/8), k-chunk q % (BK/8). Otherwise pair-job q is k-pair q / (X/8),
// row-chunk q % (X/8), loaded as two chunks (k and k + 1).
INLINE void load_tile(uint4 *regs, __global const ushort *p, ulong ld, uint row0, uint rows,
                      uint k0, uint k, int k_contiguous, uint X, uint vector)
{
    uint tid = (uint)get_local_id(0);
    if (k_contiguous) {
#pragma unroll
        for (int r = 0; r < CHUNKS(X); r++) {
            uint q = tid + (uint)r * THREADS;
            regs[r] = load_chunk(p, ld, row0 + q / (BK / 8), rows, k0 + q % (BK / 8) * 8, k,
                                 vector);
        }
    } else {
#pragma unroll
        for (int r = 0; r < CHUNKS(X) / 2; r++) {
            uint q = tid + (uint)r * THREADS;
            uint kk = k0 + q / (X / 8) * 2, first = row0 + q % (X / 8) * 8;
            regs[2 * r] = load_chunk(p, ld, kk, k, first, rows, vector);
            regs[2 * r + 1] = load_chunk(p, ld, kk + 1, k, first, rows, vector);
        }
    }
}

INLINE void store_tile(__local uint *tile, const uint4 *regs, int k_contiguous, uint X)
{
    uint tid = (uint)get_local_id(0);
    if (k_contiguous) {
#pragma unroll
        for (int r = 0; r < CHUNKS(X); r++) {
            uint q = tid + (uint)r * THREADS;
            *(__local uint4 *)(tile + q / (BK / 8) * PITCH_K + q % (BK / 8) * 4) = regs[r];
        }
    } else {
#pragma unroll
        for (int r = 0; r < CHUNKS(X) / 2; r++) {
            uint q = tid + (uint)r * THREADS;
            uint4 lo = regs[2 * r], hi = regs[2 * r + 1];
            __local uint *row = tile + q / (X / 8) * PITCH_PAIR(X) + q % (X / 8) * 8;
            // Word i of the row pairs half i of line k with half i of line k + 1.
            *(__local uint4 *)row =
                (uint4)((lo.x & 0xffffu) | (hi.x << 16), (lo.x >> 16) | (hi.x & 0xffff0000u),
                        (lo.y & 0xffffu) | (hi.y << 16), (lo.y >> 16) | (hi.y & 0xffff0000u));
            *(__local uint4 *)(row + 4) =
                (uint4)((lo.z & 0xffffu) | (hi.z << 16), (lo.z >> 16) | (hi.z & 0xffff0000u),
                        (lo.w & 0xffffu) | (hi.w << 16), (lo.w >> 16) | (hi.w & 0xffff0000u));
        }
    }
}

// The word holding (row, k-pair kp) of an operand tile of X rows.
INLINE uint tile_word(__local const uint *tile, uint row, uint kp, int k_contiguous, uint X)
{
    return k_contiguous ? tile[row * PITCH_K + kp] : tile[kp * PITCH_PAIR(X) + row];
}

INLINE void mma(float *d, uint a0, uint a1, uint a2, uint a3, uint b0, uint b1)
{
    __asm__(MMA_PTX " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}


INLINE void gemm_mma_body(GEMM_ARGS, __local uint (*a_tile)[TILE_WORDS(BM)],
                          __local uint (*b_tile)[TILE_WORDS(BN)], int a_kc, int b_kc)
{
    uint tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
    uint2 tile = gemm_tile(tiles_m, tiles_n, GEMM_SWIZZLE);
    uint m0 = tile.x * BM, n0 = tile.y * BN;
    uint lane = (uint)get_local_id(0) % 32, warp = (uint)get_local_id(0) / 32;
    uint g = lane / 4, t = lane % 4;
    uint wm = warp / WARPS_N * WM, wn = warp % WARPS_N * WN;
    uint tiles_k = (k + BK - 1) / BK;

    for (uint z = (uint)get_group_id(1); z < batch; z += (uint)get_num_groups(1)) {
        __global const ushort *pa = a + a_offset + z * stride_a;
        __global const ushort *pb = b + b_offset + z * stride_b;
        float acc[MI][NJ][4];
        zero_accumulators(acc);
        uint4 a_regs[CHUNKS(BM)], b_regs[CHUNKS(BN)];
        if (tiles_k > 0) {
            load_tile(a_regs, pa, lda, m0, m, 0, k, a_kc, BM, vector_a);
            load_tile(b_regs, pb, ldb, n0, n, 0, k, b_kc, BN, vector_b);
            store_tile(a_tile[0], a_regs, a_kc, BM);
            store_tile(b_tile[0], b_regs, b_kc, BN);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint kt = 0; kt < tiles_k; kt++) {
            uint cur = GEMM_MMA_DOUBLE_BUFFER ? kt & 1 : 0;
            int more = kt + 1 < tiles_k;
            if (more) {
                load_tile(a_regs, pa, lda, m0, m, (kt + 1) * BK, k, a_kc, BM, vector_a);
                load_tile(b_regs, pb, ldb, n0, n, (kt + 1) * BK, k, b_kc, BN, vector_b);
            }
            __local const uint *at = a_tile[cur], *bt = b_tile[cur];
#pragma unroll
            for (uint ks = 0; ks < BK / 16; ks++) {
                uint kp = ks * 8 + t;
                uint bf[NJ][2];
#pragma unroll
                for (int j = 0; j < NJ; j++) {
                    uint col = wn + (uint)j * 8 + g;
                    bf[j][0] = tile_word(bt, col, kp, b_kc, BN);
                    bf[j][1] = tile_word(bt, col, kp + 4, b_kc, BN);
                }
#pragma unroll
                for (int i = 0; i < MI; i++) {
                    uint row = wm + (uint)i * 16 + g;
                    uint a0 = tile_word(at, row, kp, a_kc, BM);
                    uint a1 = tile_word(at, row + 8, kp, a_kc, BM);
                    uint a2 = tile_word(at, row, kp + 4, a_kc, BM);
                    uint a3 = tile_word(at, row + 8, kp + 4, a_kc, BM);
#pragma unroll
                    for (int j = 0; j < NJ; j++)
                        mma(acc[i][j], a0, a1, a2, a3, bf[j][0], bf[j][1]);
                }
            }
            if (more) {
#if GEMM_MMA_DOUBLE_BUFFER
                store_tile(a_tile[cur ^ 1], a_regs, a_kc, BM);
                store_tile(b_tile[cur ^ 1], b_regs, b_kc, BN);
#else
                barrier(CLK_LOCAL_MEM_FENCE);
                store_tile(a_tile[0], a_regs, a_kc, BM);
                store_tile(b_tile[0], b_regs, b_kc, BN);
#endif
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        store_accumulators(acc, c, c_offset + z * stride_c, ldc, m, n, m0 + wm + g,
                           n0 + wn + t * 2, m - m0 >= BM && n - n0 >= BN, c_type, alpha, beta);
    }
}

#define GEMM_KERNEL(name, a_kc, b_kc)                                                              \
    __kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void name(GEMM_ARGS)             \
    {                                                                                              \
        __local uint a_tile[1 + GEMM_MMA_DOUBLE_BUFFER][TILE_WORDS(BM)] LOCAL_ALIGN;               \
        __local uint b_tile[1 + GEMM_MMA_DOUBLE_BUFFER][TILE_WORDS(BN)] LOCAL_ALIGN;               \
        gemm_mma_body(m, n, k, alpha, beta, a, a_offset, lda, stride_a, b, b_offset, ldb,          \
                      stride_b, c, c_offset, ldc, stride_c, c_type, batch, vector_a, vector_b,     \
                      a_tile, b_tile, a_kc, b_kc);                                                 \
    }
GEMM_KERNEL(gemm_mma_nn, 1, 0)
GEMM_KERNEL(gemm_mma_nt, 1, 1)
GEMM_KERNEL(gemm_mma_tn, 0, 0)
GEMM_KERNEL(gemm_mma_tt, 0, 1)

// ---------------------------------------------------------------------------
// The asynchronous kernels (both operands 16-byte aligned): GEMM_MMA_STAGES
// local tiles filled by cp.async (global to local without registers, zeros
// past the matrix by the copy's source size), fragments read by ldmatrix
// (.trans for M/N-contiguous operands), the Ampere pipeline as far as
// OpenCL reaches (NVIDIA's OpenCL compiles for sm_90, not sm_90a: no TMA or
// wgmma). Local tiles are halves: K-contiguous operands as [row][k] lines
// of BK + 8, M/N-contiguous ones as [k][row] lines of X + 8 (the padding
// puts the 8 lines of each 8x8 matrix ldmatrix reads in 8 different 16-byte
// bank groups). A __local array's low 32 address bits are its shared-state
// address once it is 16-byte aligned (doc/kernels.md).
#define PK (BK + 8)
#define PM(X) ((X) + 8)
#define TILE_HALVES(X) ((X) * PK > BK * PM(X) ? (X) * PK : BK * PM(X))

// Byte offset of element `first` of line `line` in a tile of lines of L halves.
INLINE uint tile_offset(uint line, uint first, uint L)
{
    return (line * L + first) * 2;
}

INLINE void copy_async(uint dst, __global const ushort *src, uint bytes)
{
    __asm__ volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src),
                     "r"(bytes)
                     : "memory");
}


// One operand tile (X rows of op(A) or columns of op(B), BK steps of k from
// k0) into the local tile at byte address `dst`.
INLINE void issue_tile(uint dst, __global const ushort *p, ulong ld, uint row0, uint rows, uint k0,
                       uint k, int k_contiguous, uint X)
{
    uint tid = (uint)get_local_id(0);
#pragma unroll
    for (int r = 0; r < CHUNKS(X); r++) {
        struct chunk c = chunk_of(tid + (uint)r * THREADS, 8, k_contiguous, X, row0, rows, k0, k,
                                  PK, PM(X));
        copy_async(dst + c.at * 2, c.inside ? p + (ulong)c.line * ld + c.first : p, c.inside * 2);
    }
}

// This lane's byte offset for ldmatrix in a tile of X lines: four 8x8
// matrices of rows row0..row0+15 by k 0..15, in the order (rows 0-7, k 0-7),
// (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15): an A
// fragment, or two B fragments (b0 of rows 0-7, b0 of rows 8-15, b1 of 0-7,
// b1 of 8-15). Lane l gives the address of line l % 8 of matrix l / 8.
INLINE uint fragment_lane(uint row0, int k_contiguous, uint X)
{
    uint lane = (uint)get_local_id(0) % 32, q = lane / 8, r = lane % 8;
    return k_contiguous ? tile_offset(row0 + r + (q & 1) * 8, (q >> 1) * 8, PK)
                        : tile_offset(r + (q >> 1) * 8, row0 + (q & 1) * 8, PM(X));
}

// The step between fragments 16 rows apart, and 16 steps of k apart.
#define ROW_STEP(kc, X) ((kc) ? 16 * PK * 2 : 16 * 2)
#define K_STEP(kc, X) ((kc) ? 16 * 2 : 16 * PM(X) * 2)

INLINE uint4 load_fragments(uint address, int k_contiguous)
{
    uint4 v;
    if (k_contiguous)
        __asm__ volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                         : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                         : "r"(address)
                         : "memory");
    else
        __asm__ volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                         : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                         : "r"(address)
                         : "memory");
    return v;
}

// Tiles whose C, as floats, fits the local memory of A's stages go out
// through it: the accumulators' layout stores 4 or 8 bytes per lane spread
// over 8 rows of C, the staged copy whole 16-byte vectors along C's rows. Rows
// of the stage are padded by 8 floats, so the pairs a half-warp writes meet
// distinct banks.
#define STAGE_PITCH (BN + 8)
#define STAGED_STORES (BM * STAGE_PITCH * 4 <= STAGES * TILE_HALVES(BM) * 2 && BN % 8 == 0)

// C elements of one 16-byte store.
INLINE uint staged_chunk(uint c_type)
{
    return c_type == DTYPE_F32 ? 4 : 8;
}

// A whole tile at C's element `at` (its row m0, column n0), with C's offset
// and ldc multiples of the chunk (so every chunk is 16-byte aligned).
INLINE void store_staged(float acc[MI][NJ][4], __local float *stage, __global void *c, ulong at,
                         ulong ldc, uint row0, uint col0, uint c_type, float alpha, float beta)
{
#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
        for (int h = 0; h < 2; h++)
#pragma unroll
            for (int j = 0; j < NJ; j++)
                vstore2((float2)(acc[i][j][2 * h], acc[i][j][2 * h + 1]), 0,
                        stage + (row0 + (uint)i * 16 + (uint)h * 8) * STAGE_PITCH + col0 +
                            (uint)j * 8);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint chunk = staged_chunk(c_type), per_row = BN / chunk;
    for (uint q = (uint)get_local_id(0); q < BM * per_row; q += THREADS) {
        uint row = q / per_row, col = q % per_row * chunk;
        __local const float *from = stage + row * STAGE_PITCH + col;
        ulong to = at + (ulong)row * ldc + col;
        if (c_type == DTYPE_F32) {
            float4 v = alpha * vload4(0, from);
            if (beta != 0.0f)
                v += beta * vload4(0, (__global const float *)c + to);
            *(__global float4 *)((__global float *)c + to) = v;
            continue;
        }
        float v[8];
        vstore8(alpha * vload8(0, from), 0, v);
        if (beta != 0.0f)
            for (uint e = 0; e < 8; e++)
                v[e] += beta * load_real(c, to + e, c_type);
        uint4 words;
        if (c_type == DTYPE_F16)
            words = (uint4)(f16_pair(v[0], v[1]), f16_pair(v[2], v[3]), f16_pair(v[4], v[5]),
                            f16_pair(v[6], v[7]));
        else
            words = (uint4)((uint)float_to_bf16(v[0]) | (uint)float_to_bf16(v[1]) << 16,
                            (uint)float_to_bf16(v[2]) | (uint)float_to_bf16(v[3]) << 16,
                            (uint)float_to_bf16(v[4]) | (uint)float_to_bf16(v[5]) << 16,
                            (uint)float_to_bf16(v[6]) | (uint)float_to_bf16(v[7]) << 16);
        *(__global uint4 *)((__global ushort *)c + to) = words;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

INLINE void gemm_async_body(GEMM_ARGS, __local ushort *a_tiles, __local ushort *b_tiles, int a_kc,
                            int b_kc)
{
    uint tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
    uint2 tile = gemm_tile(tiles_m, tiles_n, GEMM_SWIZZLE);
    uint m0 = tile.x * BM, n0 = tile.y * BN;
    uint lane = (uint)get_local_id(0) % 32, warp = (uint)get_local_id(0) / 32;
    uint g = lane / 4, t = lane % 4;
    uint wm = warp / WARPS_N * WM, wn = warp % WARPS_N * WN;
    uint tiles_k = (k + BK - 1) / BK;
    uint a_base = (uint)(size_t)a_tiles, b_base = (uint)(size_t)b_tiles;
    uint a_lane = fragment_lane(wm, a_kc, BM), b_lane = fragment_lane(wn, b_kc, BN);
    (void)vector_a;
    (void)vector_b;

    for (uint z = (uint)get_group_id(1); z < batch; z += (uint)get_num_groups(1)) {
        __global const ushort *pa = a + a_offset + z * stride_a;
        __global const ushort *pb = b + b_offset + z * stride_b;
        float acc[MI][NJ][4];
        zero_accumulators(acc);
#pragma unroll
        for (int s = 0; s < STAGES - 1; s++) {
            if ((uint)s < tiles_k) {
                issue_tile(a_base + (uint)s * TILE_HALVES(BM) * 2, pa, lda, m0, m, (uint)s * BK, k,
                           a_kc, BM);
                issue_tile(b_base + (uint)s * TILE_HALVES(BN) * 2, pb, ldb, n0, n, (uint)s * BK, k,
                           b_kc, BN);
            }
            copy_commit();
        }
        for (uint kt = 0; kt < tiles_k; kt++) {
            COPY_WAIT(STAGES - 2);
            barrier(CLK_LOCAL_MEM_FENCE);
            // The stage of tile kt + STAGES - 1 was last read for tile kt - 1,
            // which every work-item has finished (the barrier).
            uint next = kt + STAGES - 1;
            if (next < tiles_k) {
                uint stage = next % STAGES;
                issue_tile(a_base + stage * TILE_HALVES(BM) * 2, pa, lda, m0, m, next * BK, k, a_kc,
                           BM);
                issue_tile(b_base + stage * TILE_HALVES(BN) * 2, pb, ldb, n0, n, next * BK, k, b_kc,
                           BN);
            }
            copy_commit();
            uint at = a_base + kt % STAGES * TILE_HALVES(BM) * 2;
            uint bt = b_base + kt % STAGES * TILE_HALVES(BN) * 2;
#pragma unroll
            for (uint ks = 0; ks < BK / 16; ks++) {
                uint bf[NJ][2];
#pragma unroll
                for (int j = 0; j < NJ; j += 2) {
                    uint4 v = load_fragments(bt + b_lane + (uint)j / 2 * ROW_STEP(b_kc, BN) +
                                                 ks * K_STEP(b_kc, BN),
                                             b_kc);
                    bf[j][0] = v.x;
                    bf[j + 1][0] = v.y;
                    bf[j][1] = v.z;
                    bf[j + 1][1] = v.w;
                }
#pragma unroll
                for (int i = 0; i < MI; i++) {
                    uint4 af = load_fragments(at + a_lane + (uint)i * ROW_STEP(a_kc, BM) +
                                                  ks * K_STEP(a_kc, BM),
                                              a_kc);
#pragma unroll
                    for (int j = 0; j < NJ; j++)
                        mma(acc[i][j], af.x, af.y, af.z, af.w, bf[j][0], bf[j][1]);
                }
            }
        }
        COPY_WAIT(0);
        barrier(CLK_LOCAL_MEM_FENCE);
        ulong c_base = c_offset + z * stride_c;
        int whole_tile = m - m0 >= BM && n - n0 >= BN;
#if STAGED_STORES
        if (whole_tile && (c_base | ldc) % staged_chunk(c_type) == 0)
            store_staged(acc, (__local float *)a_tiles, c, c_base + (ulong)m0 * ldc + n0, ldc,
                         wm + g, wn + t * 2, c_type, alpha, beta);
        else
#endif
            store_accumulators(acc, c, c_base, ldc, m, n, m0 + wm + g, n0 + wn + t * 2, whole_tile,
                               c_type, alpha, beta);
    }
}

#if NJ % 2
#error "the asynchronous kernels read B fragments two n-tiles at a time: WN must be a multiple of 16"
#endif

#define GEMM_ASYNC_KERNEL(name, a_kc, b_kc)                                                        \
    __kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void name(GEMM_ARGS)             \
    {                                                                                              \
        __local ushort a_tiles[STAGES * TILE_HALVES(BM)] LOCAL_ALIGN;                              \
        __local ushort b_tiles[STAGES * TILE_HALVES(BN)] LOCAL_ALIGN;                              \
        gemm_async_body(m, n, k, alpha, beta, a, a_offset, lda, stride_a, b, b_offset, ldb,        \
                        stride_b, c, c_offset, ldc, stride_c, c_type, batch, vector_a, vector_b,   \
                        a_tiles, b_tiles, a_kc, b_kc);                                             \
    }
GEMM_ASYNC_KERNEL(gemm_mma_async_nn, 1, 0)
GEMM_ASYNC_KERNEL(gemm_mma_async_nt, 1, 1)
GEMM_ASYNC_KERNEL(gemm_mma_async_tn, 0, 0)
GEMM_ASYNC_KERNEL(gemm_mma_async_tt, 0, 1)
#endif // GEMM_IN == DTYPE_F32

#elif GEMM_KERNELS == GEMM_KERNELS_SIMT
// ---------------------------------------------------------------------------
#if GEMM_IN == DTYPE_F16
#define GEMM_IN_T ushort
#define LOAD_IN(p, i) vload_half(i, (__global const half *)(p))
#elif GEMM_IN == DTYPE_BF16
#define GEMM_IN_T ushort
#define LOAD_IN(p, i) as_float((uint)(p)[i] << 16)
#else
#define GEMM_IN_T float
#define LOAD_IN(p, i) ((p)[i])
#endif

#define BM GEMM_SIMT_BM
#define BN GEMM_SIMT_BN
#define BK GEMM_SIMT_BK
#define TM GEMM_SIMT_TM
#define TN GEMM_SIMT_TN
#define TX (BN / TN)
#define TY (BM / TM)
#define THREADS (TX * TY)

#if BM % TM || BN % TN || (BM * BK) % THREADS || (BN * BK) % THREADS
#error "the SIMT tile shape does not divide into work-items"
#endif

// An operand tile of X rows x BK steps of k, converted to float and stored
// k-major ([k][row]). Consecutive work-items take consecutive elements of
// whichever dimension is contiguous in memory.
INLINE void simt_load(__local float *tile, __global const GEMM_IN_T *p, ulong ld, uint row0,
                      uint rows, uint k0, uint k, int k_contiguous, uint X)
{
    uint tid = (uint)get_local_id(0);
    for (uint e = tid; e < X * BK; e += THREADS) {
        uint r = k_contiguous ? e / BK : e % X, kk = k_contiguous ? e % BK : e / X;
        uint row = row0 + r, step = k0 + kk;
        float v = 0.0f;
        if (row < rows && step < k)
            v = k_contiguous ? LOAD_IN(p, (ulong)row * ld + step) : LOAD_IN(p, (ulong)step * ld + row);
        tile[kk * (X + 1) + r] = v;
    }
}

INLINE void gemm_simt_body(GEMM_ARGS, __local float *a_tile, __local float *b_tile, int a_kc,
                           int b_kc)
{
    uint tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
    uint2 tile = gemm_tile(tiles_m, tiles_n, 1);
    uint m0 = tile.x * BM, n0 = tile.y * BN;
    uint tx = (uint)get_local_id(0) % TX, ty = (uint)get_local_id(0) / TX;

    for (uint z = (uint)get_group_id(1); z < batch; z += (uint)get_num_groups(1)) {
        __global const GEMM_IN_T *pa = a + a_offset + z * stride_a;
        __global const GEMM_IN_T *pb = b + b_offset + z * stride_b;
        float acc[TM][TN];
        for (int i = 0; i < TM; i++)
            for (int j = 0; j < TN; j++)
                acc[i][j] = 0.0f;
        for (uint k0 = 0; k0 < k; k0 += BK) {
            simt_load(a_tile, pa, lda, m0, m, k0, k, a_kc, BM);
            simt_load(b_tile, pb, ldb, n0, n, k0, k, b_kc, BN);
            barrier(CLK_LOCAL_MEM_FENCE);
            for (uint kk = 0; kk < BK; kk++) {
                float av[TM], bv[TN];
                // Work-items of a row are TX apart in their columns: strided
                // micro-tiles, so neighbours read neighbouring words.
                for (int i = 0; i < TM; i++)
                    av[i] = a_tile[kk * (BM + 1) + ty + (uint)i * TY];
                for (int j = 0; j < TN; j++)
                    bv[j] = b_tile[kk * (BN + 1) + tx + (uint)j * TX];
                for (int i = 0; i < TM; i++)
                    for (int j = 0; j < TN; j++)
                        acc[i][j] = fma(av[i], bv[j], acc[i][j]);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        ulong base = c_offset + z * stride_c;
        for (int i = 0; i < TM; i++)
            for (int j = 0; j < TN; j++) {
                uint row = m0 + ty + (uint)i * TY, col = n0 + tx + (uint)j * TX;
                if (row < m && col < n)
                    gemm_store(c, base + (ulong)row * ldc + col, c_type, acc[i][j], alpha, beta);
            }
    }
    (void)vector_a;
    (void)vector_b;
}

#define GEMM_KERNEL(name, a_kc, b_kc)                                                              \
    __kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void name(GEMM_ARGS)             \
    {                                                                                              \
        __local float a_tile[BK * (BM + 1)];                                                       \
        __local float b_tile[BK * (BN + 1)];                                                       \
        gemm_simt_body(m, n, k, alpha, beta, a, a_offset, lda, stride_a, b, b_offset, ldb,         \
                       stride_b, c, c_offset, ldc, stride_c, c_type, batch, vector_a, vector_b,    \
                       a_tile, b_tile, a_kc, b_kc);                                                \
    }
GEMM_KERNEL(gemm_simt_nn, 1, 0)
GEMM_KERNEL(gemm_simt_nt, 1, 1)
GEMM_KERNEL(gemm_simt_tn, 0, 0)
GEMM_KERNEL(gemm_simt_tt, 0, 1)

#else
#error "GEMM_KERNELS names no kernel set"
#endif
