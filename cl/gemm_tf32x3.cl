// 3xTF32: f32 GEMM on the tf32 tensor cores (mma.sync.m16n8k8, f32
// accumulate), included by gemm.cl for GEMM_IN == DTYPE_F32 in its
// tensor-core section (which defines the tile shape, the accumulator
// epilogue and the cp.async waits).
//
// Each operand element x is split into big = x rounded to tf32 (11
// significant bits, ties away from zero) and small = x - big, which is exact
// in f32; the mma reads small's top 11 bits (the hardware truncates). a * b
// is then big_a big_b + big_a small_b + small_a big_b, three mma, leaving
// out small_a small_b (at most 2^-22 |a b|). The split keeps infinities and
// NaNs: big is clamped to the largest finite tf32, so an infinite x gives a
// finite big and an infinite small (an infinite big would meet the zero
// small of a b that tf32 holds exactly: inf * 0, a NaN where IEEE gives an
// infinity), and a NaN x gives a NaN small. The split runs for every
// fragment register, so it is kept to a few instructions: a costlier one
// took the kernels past 128 registers (doc/performance.md).
//
// Tiles: GEMM_TF32X3_STAGES local tiles of floats filled by cp.async,
// K-contiguous operands as [row][k] lines of BK + 4 (8 lines of 16 bytes,
// one 8x8 b16 matrix for ldmatrix, fall in 8 different 16-byte bank groups:
// ldmatrix gives lane (g, t) the float at line g, column t, which is the
// tf32 fragment's element), M/N-contiguous ones as [k][row] lines of X + 8,
// read float by float (lane (g, t) reads line t, row g: 8 mod 32 words
// between lines puts the 32 lanes on 32 banks). Operands whose offset,
// leading dimension and batch stride are multiples of 4 floats are copied
// 16 bytes at a time, others float by float.

#define GEMM_IN_T float

#define PK (BK + 4)
#define PM(X) ((X) + 8)
#define TILE_FLOATS(X) ((X) * PK > BK * PM(X) ? (X) * PK : BK * PM(X))
// 16-byte chunks of an operand tile, per work-item.
#define CHUNKS(X) ((X) * BK / 4 / THREADS)

#if WM % 16 || WN % 16 || BK % 8 || (BM * BK / 4) % THREADS || (BN * BK / 4) % THREADS
#error "the 3xTF32 tile shape does not divide into warps and 16-byte chunks"
#endif

// Byte offset of float `first` of line `line` in a tile of lines of L floats.
INLINE uint tile_offset(uint line, uint first, uint L)
{
    return (line * L + first) * 4;
}

// Copies `bytes` (0 to 16) from src to the local byte address dst, zeros after.
INLINE void copy_chunk(uint dst, __global const float *src, uint bytes)
{
    __asm__ volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src),
                     "r"(bytes)
                     : "memory");
}

INLINE void copy_float(uint dst, __global const float *src, uint bytes)
{
    __asm__ volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(dst), "l"(src),
                     "r"(bytes)
                     : "memory");
}

// One operand tile (X rows of op(A) or columns of op(B), BK steps of k from
// k0) into the local tile at byte address `dst`, zeros outside the matrix.
INLINE void issue_tile(uint dst, __global const float *p, ulong ld, uint row0, uint rows, uint k0,
                       uint k, int k_contiguous, uint X, uint vector)
{
    uint tid = (uint)get_local_id(0);
#pragma unroll
    for (int r = 0; r < CHUNKS(X); r++) {
        struct chunk c = chunk_of(tid + (uint)r * THREADS, 4, k_contiguous, X, row0, rows, k0, k,
                                  PK, PM(X));
        uint at = dst + c.at * 4;
        __global const float *src = c.inside ? p + (ulong)c.line * ld + c.first : p;
        if (vector) {
            copy_chunk(at, src, c.inside * 4);
        } else {
#pragma unroll
            for (uint e = 0; e < 4; e++)
                copy_float(at + e * 4, e < c.inside ? src + e : p, e < c.inside ? 4 : 0);
        }
    }
}

// This lane's byte offset for ldmatrix in a K-contiguous tile: four 8x8 b16
// matrices (8 lines x 4 floats) of lines row0..row0+15 by k 0..7, in the
// order (lines 0-7, k 0-3), (lines 8-15, k 0-3), (lines 0-7, k 4-7),
// (lines 8-15, k 4-7): an A fragment, or two B fragments.
INLINE uint fragment_lane(uint row0)
{
    uint lane = (uint)get_local_id(0) % 32, q = lane / 8, r = lane % 8;
    return tile_offset(row0 + r + (q & 1) * 8, (q >> 1) * 4, PK);
}

INLINE uint4 load_fragments(uint address)
{
    uint4 v;
    __asm__ volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                     : "r"(address)
                     : "memory");
    return v;
}

INLINE uint load_word(uint address)
{
    uint v;
    __asm__ volatile("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(address) : "memory");
    return v;
}

// big and small of one element, as the mma's tf32 registers: x rounded half
// away from zero at bit 13, clamped to the largest finite tf32 (fmax and
// fmin ignore a NaN, such as a NaN x whose rounding wrapped around: then big
// is finite and small the NaN), and the rest.
INLINE void split(uint x, uint *big, uint *small)
{
    const float largest = as_float(0x7f7fe000u);
    float b = fmin(fmax(as_float((x + 0x1000u) & 0xffffe000u), -largest), largest);
    *big = as_uint(b);
    *small = as_uint(as_float(x) - b);
}

INLINE void mma(float *d, uint a0, uint a1, uint a2, uint a3, uint b0, uint b1)
{
    __asm__("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, "
            "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

INLINE void gemm_tf32x3_body(GEMM_ARGS, __local float *a_tiles, __local float *b_tiles, int a_kc,
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
    // K-contiguous: ldmatrix lanes; M/N-contiguous: this lane's float at
    // line t, row g of the warp's first fragment.
    uint a_lane = a_kc ? fragment_lane(wm) : tile_offset(t, wm + g, PM(BM));
    uint b_lane = b_kc ? fragment_lane(wn) : tile_offset(t, wn + g, PM(BN));

    for (uint z = (uint)get_group_id(1); z < batch; z += (uint)get_num_groups(1)) {
        __global const float *pa = a + a_offset + z * stride_a;
        __global const float *pb = b + b_offset + z * stride_b;
        float acc[MI][NJ][4];
        zero_accumulators(acc);
#pragma unroll
        for (int s = 0; s < STAGES - 1; s++) {
            if ((uint)s < tiles_k) {
                issue_tile(a_base + (uint)s * TILE_FLOATS(BM) * 4, pa, lda, m0, m, (uint)s * BK, k,
                           a_kc, BM, vector_a);
                issue_tile(b_base + (uint)s * TILE_FLOATS(BN) * 4, pb, ldb, n0, n, (uint)s * BK, k,
                           b_kc, BN, vector_b);
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
                issue_tile(a_base + stage * TILE_FLOATS(BM) * 4, pa, lda, m0, m, next * BK, k, a_kc,
                           BM, vector_a);
                issue_tile(b_base + stage * TILE_FLOATS(BN) * 4, pb, ldb, n0, n, next * BK, k, b_kc,
                           BN, vector_b);
            }
            copy_commit();
            uint at = a_base + kt % STAGES * TILE_FLOATS(BM) * 4 + a_lane;
            uint bt = b_base + kt % STAGES * TILE_FLOATS(BN) * 4 + b_lane;
#pragma unroll
            for (uint ks = 0; ks < BK / 8; ks++) {
                uint b_big[NJ][2], b_small[NJ][2];
#pragma unroll
                for (int j = 0; j < NJ; j += 2) {
                    uint4 v;
                    if (b_kc) {
                        v = load_fragments(bt + (uint)j / 2 * tile_offset(16, 0, PK) + ks * 32);
                    } else {
                        uint w = bt + tile_offset(ks * 8, (uint)j * 8, PM(BN));
                        v = (uint4)(load_word(w), load_word(w + 32), load_word(w + 4 * PM(BN) * 4),
                                    load_word(w + 4 * PM(BN) * 4 + 32));
                    }
                    split(v.x, &b_big[j][0], &b_small[j][0]);
                    split(v.y, &b_big[j + 1][0], &b_small[j + 1][0]);
                    split(v.z, &b_big[j][1], &b_small[j][1]);
                    split(v.w, &b_big[j + 1][1], &b_small[j + 1][1]);
                }
#pragma unroll
                for (int i = 0; i < MI; i++) {
                    uint4 v;
                    if (a_kc) {
                        v = load_fragments(at + (uint)i * tile_offset(16, 0, PK) + ks * 32);
                    } else {
                        uint w = at + tile_offset(ks * 8, (uint)i * 16, PM(BM));
                        v = (uint4)(load_word(w), load_word(w + 32), load_word(w + 4 * PM(BM) * 4),
                                    load_word(w + 4 * PM(BM) * 4 + 32));
                    }
                    uint a_big[4], a_small[4];
                    split(v.x, &a_big[0], &a_small[0]);
                    split(v.y, &a_big[1], &a_small[1]);
                    split(v.z, &a_big[2], &a_small[2]);
                    split(v.w, &a_big[3], &a_small[3]);
                    // The small products first, each accumulator's three
                    // mma apart.
#pragma unroll
                    for (int j = 0; j < NJ; j++)
                        mma(acc[i][j], a_small[0], a_small[1], a_small[2], a_small[3],
                            b_big[j][0], b_big[j][1]);
#pragma unroll
                    for (int j = 0; j < NJ; j++)
                        mma(acc[i][j], a_big[0], a_big[1], a_big[2], a_big[3], b_small[j][0],
                            b_small[j][1]);
#pragma unroll
                    for (int j = 0; j < NJ; j++)
                        mma(acc[i][j], a_big[0], a_big[1], a_big[2], a_big[3], b_big[j][0],
                            b_big[j][1]);
                }
            }
        }
        COPY_WAIT(0);
        barrier(CLK_LOCAL_MEM_FENCE);
        store_accumulators(acc, c, c_offset + z * stride_c, ldc, m, n, m0 + wm + g,
                           n0 + wn + t * 2, m - m0 >= BM && n - n0 >= BN, c_type, alpha, beta);
    }
}

#define GEMM_TF32X3_KERNEL(name, a_kc, b_kc)                                                       \
    __kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void name(GEMM_ARGS)             \
    {                                                                                              \
        __local float a_tiles[STAGES * TILE_FLOATS(BM)] LOCAL_ALIGN;                               \
        __local float b_tiles[STAGES * TILE_FLOATS(BN)] LOCAL_ALIGN;                               \
        gemm_tf32x3_body(m, n, k, alpha, beta, a, a_offset, lda, stride_a, b, b_offset, ldb,       \
                         stride_b, c, c_offset, ldc, stride_c, c_type, batch, vector_a, vector_b,  \
                         a_tiles, b_tiles, a_kc, b_kc);                                            \
    }
GEMM_TF32X3_KERNEL(gemm_mma_async_nn, 1, 0)
GEMM_TF32X3_KERNEL(gemm_mma_async_nt, 1, 1)
GEMM_TF32X3_KERNEL(gemm_mma_async_tn, 0, 0)
GEMM_TF32X3_KERNEL(gemm_mma_async_tt, 0, 1)
