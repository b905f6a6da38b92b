// Transpose out of place: B = A^T, and B = alpha * A^T for float and double.
//
// A is rows x cols in row-major storage (leading dimension lda), B is
// cols x rows (ldb); the host adds the offsets to the pointers' indices.
// Elements are moved as unsigned integers of their size, so every bit
// pattern, NaN payloads included, arrives unchanged; the scaled programs
// multiply by alpha in REAL arithmetic.
//
// Variant defines: TRANSPOSE_METHOD (TRANSPOSE_LOCAL, TRANSPOSE_REGISTERS,
// TRANSPOSE_CPU), ELEMENT_BYTES (1, 2, 4, 8, 16), SCALED (0, 1), REAL.
// Tuning defines: src/ops/transpose/transpose_tables.h lists them and the
// methods that read each; src/ops/transpose computes the same geometry (VEC,
// tiles, group shape) to launch these kernels.
//
// Each program has three kernels of its method; the host picks one per call:
//   transpose_aligned    the shape is a whole number of group tiles and the
//                        offsets and leading dimensions are multiples of VEC:
//                        no guards, every access a VEC-element vector;
//   transpose_edge       offsets and leading dimensions multiples of VEC, any
//                        shape: whole VEC x VEC tiles as above, partial tiles
//                        element by element;
//   transpose_unaligned  anything: whole tiles through vloadn/vstoren, which
//                        need element alignment only, partial tiles element
//                        by element.
#include "prelude.cl"

#if SCALED
#define ELEM REAL
#elif ELEMENT_BYTES == 1
#define ELEM uchar
#elif ELEMENT_BYTES == 2
#define ELEM ushort
#elif ELEMENT_BYTES == 4
#define ELEM uint
#elif ELEMENT_BYTES == 8
#define ELEM ulong
#elif ELEMENT_BYTES == 16
#define ELEM uint4
#else
#error "ELEMENT_BYTES must be 1, 2, 4, 8 or 16"
#endif

#define METHOD TRANSPOSE_METHOD

// VEC elements per vector access (src/transpose.h: transpose_vector).
#if ELEMENT_BYTES == 16 || TRANSPOSE_VECTOR_BYTES <= ELEMENT_BYTES
#define VEC 1
#elif TRANSPOSE_VECTOR_BYTES / ELEMENT_BYTES >= 16
#define VEC 16
#elif TRANSPOSE_VECTOR_BYTES / ELEMENT_BYTES == 8
#define VEC 8
#elif TRANSPOSE_VECTOR_BYTES / ELEMENT_BYTES == 4
#define VEC 4
#else
#define VEC 2
#endif

#if VEC == 1
#define ELEMV ELEM
#define VLOAD(p) (*(p))
#define VSTORE(p, v) (*(p) = (v))
#else
#define ELEMV CAT(ELEM, VEC)
#define VLOAD(p) CAT(vload, VEC)(0, p)
#define VSTORE(p, v) CAT(vstore, VEC)(v, 0, p)
#endif
// CPUs load and store misaligned vectors whole; POCL's vloadn/vstoren of
// small elements went element by element. A packed struct tells the
// compiler the vector's alignment is one element's, so it emits one
// unaligned vector access (movdqu and kin).
#if METHOD == TRANSPOSE_CPU && VEC > 1
typedef struct __attribute__((packed)) {
    ELEMV v;
} misaligned_vector;
#undef VLOAD
#undef VSTORE
#define VLOAD(p) (((const __global misaligned_vector *)(p))->v)
#define VSTORE(p, x) (((__global misaligned_vector *)(p))->v = (x))
#endif

// The modes of the tile code: ALIGNED and EDGE as the kernels of the same
// names; UNALIGNED_WHOLE is the unaligned kernel's groups whose tiles lie
// wholly inside the matrix (vloadn/vstoren, no guards), UNALIGNED its border
// groups. The edge and unaligned kernels branch once per group, so that only
// the groups on the border of the matrix pay for guards.
#define ALIGNED 0
#define EDGE 1
#define UNALIGNED 2
#define UNALIGNED_WHOLE 3
#define WHOLE(mode) ((mode) == ALIGNED || (mode) == UNALIGNED_WHOLE)
#define VECTOR_ALIGNED(mode) ((mode) == ALIGNED || (mode) == EDGE)

// Aligned 16-byte accesses on NVIDIA may carry cache hints (PTX): a
// transpose touches every byte once, so its lines need not stay cached.
// LOAD16 and STORE16 move a uint4, hinted where the profile says.
#if DEVICE == DEVICE_NVIDIA
#define HINTED (TRANSPOSE_LOAD_HINT + TRANSPOSE_STORE_HINT > 0)
#else
#define HINTED 0
#endif
#if HINTED
#if TRANSPOSE_LOAD_HINT == 1
#define LOAD_PTX "ld.global.cs.v4.u32"
#elif TRANSPOSE_LOAD_HINT == 2
#define LOAD_PTX "ld.global.nc.L1::no_allocate.v4.u32"
#else
#define LOAD_PTX "ld.global.v4.u32"
#endif
#if TRANSPOSE_STORE_HINT == 1
#define STORE_PTX "st.global.cs.v4.u32"
#else
#define STORE_PTX "st.global.v4.u32"
#endif
static inline uint4 load_hinted(const __global void *p)
{
    uint x, y, z, w;
    __asm__(LOAD_PTX " {%0, %1, %2, %3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "l"(p));
    return (uint4)(x, y, z, w);
}
static inline void store_hinted(__global void *p, uint4 v)
{
    __asm__ volatile(STORE_PTX " [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z),
                     "r"(v.w)
                     : "memory");
}
#define LOAD16(p) load_hinted(p)
#define STORE16(p, v) store_hinted(p, v)
#else
#define LOAD16(p) (*(const __global uint4 *)(p))
// Through vstore4: Oclgrind's compiler split a store of a vector built word
// by word into a store of an undefined vector and four word stores.
#define STORE16(p, v) vstore4(v, 0, (__global uint *)(p))
#endif
#if HINTED && VEC * ELEMENT_BYTES == 16
#define LOAD_ALIGNED(T, p) CAT(as_, T)(load_hinted(p))
#define STORE_ALIGNED(T, p, v) store_hinted(p, as_uint4(v))
#else
#define LOAD_ALIGNED(T, p) (*(const __global T *)(p))
#define STORE_ALIGNED(T, p, v) (*(__global T *)(p) = (v))
#endif

// One VEC-element vector at p: through a vector pointer where the host
// vouched for VEC-element alignment, else through vloadn/vstoren.
#define LOAD(mode, p) (!VECTOR_ALIGNED(mode) ? VLOAD(p) : LOAD_ALIGNED(ELEMV, p))
#define STORE(mode, p, v)                                                                           \
    do {                                                                                            \
        if (!VECTOR_ALIGNED(mode))                                                                  \
            VSTORE(p, v);                                                                           \
        else                                                                                        \
            STORE_ALIGNED(ELEMV, p, v);                                                             \
    } while (0)

// Register tiles keep their rows as ROW. Elements of 1 and 2 bytes travel as
// 32-bit words (W words a row, P elements a word): byte vectors would reach
// memory in 4-byte pieces on NVPTX and shuffle by byte extractions, where
// words load whole and transpose with shifts and masks. That arithmetic
// assumes little-endian words; other devices move elements.
#if ELEMENT_BYTES < 4 && defined(__ENDIAN_LITTLE__)
#define SUBWORD 1
#define P (4 / ELEMENT_BYTES)
#if VEC * ELEMENT_BYTES == 4
#define W 1
#define ROW uint
#elif VEC * ELEMENT_BYTES == 8
#define W 2
#define ROW uint2
#elif VEC * ELEMENT_BYTES == 16
#define W 4
#define ROW uint4
#else
#define W 8
#define ROW uint8
#endif
#define AS_ROW CAT(as_, ROW)
#define AS_ELEMV CAT(as_, ELEMV)
#else
#define SUBWORD 0
#define ROW ELEMV
#define AS_ROW(v) (v)
#define AS_ELEMV(v) (v)
#endif

#define LOAD_ROW(mode, p) (!VECTOR_ALIGNED(mode) ? AS_ROW(VLOAD(p)) : LOAD_ALIGNED(ROW, p))
#define STORE_ROW(mode, p, v)                                                                       \
    do {                                                                                            \
        if (!VECTOR_ALIGNED(mode))                                                                  \
            VSTORE(p, AS_ELEMV(v));                                                                 \
        else                                                                                        \
            STORE_ALIGNED(ROW, p, v);                                                               \
    } while (0)

#if SCALED
// alpha = 0 writes zeros whatever A holds (as BLAS does for beta = 0);
// any other alpha multiplies as IEEE says.
#define SCALE(v) (alpha == (REAL)0 ? (ELEMV)((REAL)0) : (v) * alpha)
#define ALPHA_PARAMETER , REAL alpha
#define ALPHA_ARGUMENT , alpha
#else
#define SCALE(v) (v)
#define ALPHA_PARAMETER
#define ALPHA_ARGUMENT
#endif

// LO_N(T, x, y) = (x0, y0, x1, y1, ...) from the first halves of the N-lane
// vectors x and y, HI_N the same from their second halves. Each names two
// sources only, so it compiles to one shuffle (unpcklps and kin on CPUs,
// register renaming on GPUs) with every lane defined.
#define LO_2(T, x, y) (T)((x).s0, (y).s0)
#define HI_2(T, x, y) (T)((x).s1, (y).s1)
#define LO_4(T, x, y) (T)((x).s0, (y).s0, (x).s1, (y).s1)
#define HI_4(T, x, y) (T)((x).s2, (y).s2, (x).s3, (y).s3)
#define LO_8(T, x, y) (T)((x).s0, (y).s0, (x).s1, (y).s1, (x).s2, (y).s2, (x).s3, (y).s3)
#define HI_8(T, x, y) (T)((x).s4, (y).s4, (x).s5, (y).s5, (x).s6, (y).s6, (x).s7, (y).s7)
#define LO_16(T, x, y)                                                                              \
    (T)((x).s0, (y).s0, (x).s1, (y).s1, (x).s2, (y).s2, (x).s3, (y).s3, (x).s4, (y).s4, (x).s5,    \
        (y).s5, (x).s6, (y).s6, (x).s7, (y).s7)
#define HI_16(T, x, y)                                                                              \
    (T)((x).s8, (y).s8, (x).s9, (y).s9, (x).sA, (y).sA, (x).sB, (y).sB, (x).sC, (y).sC, (x).sD,    \
        (y).sD, (x).sE, (y).sE, (x).sF, (y).sF)

// DEFINE_TRANSPOSE(NAME, T, N) defines NAME(T *v), which transposes in place
// the N x N matrix whose rows are the N-lane vectors v[0..N): log2(N) rounds
// of v'[2i] = lo(v[i], v[i + N/2]), v'[2i+1] = hi(v[i], v[i + N/2]) (the
// perfect-shuffle transpose). Moves between registers only.
#define DEFINE_TRANSPOSE(NAME, T, N)                                                                \
    static inline void NAME(T *v)                                                                   \
    {                                                                                               \
        _Pragma("unroll") for (uint round = 1; round < N; round *= 2)                               \
        {                                                                                           \
            T w[N];                                                                                 \
            _Pragma("unroll") for (uint i = 0; i < N / 2; ++i)                                      \
            {                                                                                       \
                w[2 * i] = CAT(LO_, N)(T, v[i], v[i + N / 2]);                                      \
                w[2 * i + 1] = CAT(HI_, N)(T, v[i], v[i + N / 2]);                                  \
            }                                                                                       \
            _Pragma("unroll") for (uint i = 0; i < N; ++i) v[i] = w[i];                             \
        }                                                                                           \
    }

#if SUBWORD
#if W > 1
DEFINE_TRANSPOSE(transpose_words, ROW, W)
#else
static inline void transpose_words(ROW *v) { (void)v; }
#endif

// Transposes the P x P blocks of elements within the words of rows v[0..P):
// afterwards word q of row j holds element j of word q of each of the P
// rows, in row order (comments: bytes of rows a, b, c, d, lowest first).
static inline void transpose_in_words(ROW *v)
{
#if P == 4
    ROW t0 = (v[0] & 0x00ff00ffu) | ((v[1] << 8) & 0xff00ff00u); // a0 b0 a2 b2
    ROW t1 = ((v[0] >> 8) & 0x00ff00ffu) | (v[1] & 0xff00ff00u); // a1 b1 a3 b3
    ROW t2 = (v[2] & 0x00ff00ffu) | ((v[3] << 8) & 0xff00ff00u); // c0 d0 c2 d2
    ROW t3 = ((v[2] >> 8) & 0x00ff00ffu) | (v[3] & 0xff00ff00u); // c1 d1 c3 d3
    v[0] = (t0 & 0x0000ffffu) | (t2 << 16);                      // a0 b0 c0 d0
    v[1] = (t1 & 0x0000ffffu) | (t3 << 16);                      // a1 b1 c1 d1
    v[2] = (t0 >> 16) | (t2 & 0xffff0000u);                      // a2 b2 c2 d2
    v[3] = (t1 >> 16) | (t3 & 0xffff0000u);                      // a3 b3 c3 d3
#else
    ROW t0 = (v[0] & 0x0000ffffu) | (v[1] << 16); // a0 b0
    v[1] = (v[0] >> 16) | (v[1] & 0xffff0000u);   // a1 b1
    v[0] = t0;
#endif
}

// Transposes the VEC x VEC tile whose rows are v[0..VEC): the P x P blocks
// within words first; then word q of row g * P + j is word g of row
// q * P + j of the result, so transposing the W x W words of the rows
// j, P + j, 2P + j, ... finishes it.
static inline void transpose_tile(ROW *v)
{
#pragma unroll
    for (uint g = 0; g < W; ++g)
        transpose_in_words(v + g * P);
    ROW t[VEC];
#pragma unroll
    for (uint j = 0; j < P; ++j) {
        ROW x[W];
#pragma unroll
        for (uint g = 0; g < W; ++g)
            x[g] = v[g * P + j];
        transpose_words(x);
#pragma unroll
        for (uint q = 0; q < W; ++q)
            t[q * P + j] = x[q];
    }
#pragma unroll
    for (uint r = 0; r < VEC; ++r)
        v[r] = t[r];
}
#elif VEC > 1
DEFINE_TRANSPOSE(transpose_tile, ELEMV, VEC)
#else
static inline void transpose_tile(ELEMV *v) { (void)v; }
#endif
// A vector and its elements (type punning through a union is defined in
// OpenCL C), for the element-by-element paths.
typedef union {
    ELEMV v;
    ELEM e[VEC];
} elements;

// CPUs move a partial vector of half the width (an 8 x N byte matrix's
// 8-byte rows) in one unaligned access through a packed struct (element by
// element, such a row took 8 stores); other partial rows go element by
// element, as on other devices. (The first half of longer rows in one piece
// and the rest through the union stalled POCL's loads on the union: 1000 x 37
// transposes ran 1.5-2x slower; every remaining power of two in one piece,
// taken from halves of the vector by selects or by branches, stored 2-byte
// rows slower than the element loop.)
#if METHOD == TRANSPOSE_CPU && VEC > 2
#define HALF_PIECES 1
#if VEC == 16
#define HALF_VEC 8
#elif VEC == 8
#define HALF_VEC 4
#else
#define HALF_VEC 2
#endif
typedef struct __attribute__((packed)) {
    CAT(ELEM, HALF_VEC) v;
} half_piece;
#else
#define HALF_PIECES 0
#endif

// The first `count` (< VEC) elements at p, zeros after them.
static inline ELEMV load_partial(const __global ELEM *p, uint count)
{
#if HALF_PIECES
    if (count == HALF_VEC)
        return (ELEMV)(((const __global half_piece *)p)->v, (CAT(ELEM, HALF_VEC))(0));
#endif
    elements u;
    for (uint k = 0; k < VEC; ++k)
        u.e[k] = k < count ? p[k] : (ELEM)(0);
    return u.v;
}

// Stores the first `count` (< VEC) elements of v at p.
static inline void store_partial(__global ELEM *p, ELEMV v, uint count)
{
#if HALF_PIECES
    if (count == HALF_VEC) {
        ((__global half_piece *)p)->v = v.lo;
        return;
    }
#endif
    elements u;
    u.v = v;
    for (uint k = 0; k < count; ++k)
        p[k] = u.e[k];
}

// CPU tiles of 1- and 2-byte elements with P = 2, 4 or 8 valid rows or
// columns of 16 (every tile of an 8 x N, 4 x N or 2 x N matrix and of their
// transposes: RGBA planes to pixels and back): in the full 16 x 16
// transpose most of their rows would be empty and their short rows would
// move element by element. Here P rows of A (`wide`: P x 16), or P rows
// each holding 16 / P short rows of A (16 x P), transpose by interleaving
// pieces of one element, then two, four, ... within each 16-byte lane of
// the rows (x86's unpack instructions interleave within 128-bit lanes, so
// each round is one instruction a row): log2(P) rounds for `wide`,
// log2(LANE) (the lane's elements) for 16 x P, taking the rows in
// bit-reversed order so that they come out in order. Row k of the result
// then holds, in lane l, B's rows l * LANE + k * LANE / P onwards, P
// elements each (`wide`), or is B's row k. Tiles of 3, 5, 6 or 7 valid lines
// go as those of the next power of two: the lines past the valid ones are
// zeros on the way in and left out on the way out, and each short row moves
// as a piece of half of P elements and the rest one by one.
// CPU devices only: they are written for CPUs' unpack instructions, and the
// CPU method forced onto an H200 (as test_transpose does) stalled with them.
#if METHOD == TRANSPOSE_CPU && DEVICE == DEVICE_CPU && ELEMENT_BYTES == 1 && VEC == 16
#define SHORT_TILES 1
#define LANE 16
#define LANE_LOG2 4
#define ROUND_0(x, y, HALF) CAT(HALF, _16)(uchar16, x, y)
#define ROUND_1(x, y, HALF) as_uchar16(CAT(HALF, _8)(ushort8, as_ushort8(x), as_ushort8(y)))
#define ROUND_2(x, y, HALF) as_uchar16(CAT(HALF, _4)(uint4, as_uint4(x), as_uint4(y)))
#define ROUND_3(x, y, HALF) as_uchar16(CAT(HALF, _2)(ulong2, as_ulong2(x), as_ulong2(y)))
#elif METHOD == TRANSPOSE_CPU && DEVICE == DEVICE_CPU && ELEMENT_BYTES == 2 && VEC == 16
#define SHORT_TILES 1
#define LANE 8
#define LANE_LOG2 3
// Interleaves within the two halves of 16-, 8- and 4-element vectors.
#define LANES_LO_16(T, x, y)                                                                        \
    (T)((x).s0, (y).s0, (x).s1, (y).s1, (x).s2, (y).s2, (x).s3, (y).s3, (x).s8, (y).s8, (x).s9,    \
        (y).s9, (x).sA, (y).sA, (x).sB, (y).sB)
#define LANES_HI_16(T, x, y)                                                                        \
    (T)((x).s4, (y).s4, (x).s5, (y).s5, (x).s6, (y).s6, (x).s7, (y).s7, (x).sC, (y).sC, (x).sD,    \
        (y).sD, (x).sE, (y).sE, (x).sF, (y).sF)
#define LANES_LO_8(T, x, y) (T)((x).s0, (y).s0, (x).s1, (y).s1, (x).s4, (y).s4, (x).s5, (y).s5)
#define LANES_HI_8(T, x, y) (T)((x).s2, (y).s2, (x).s3, (y).s3, (x).s6, (y).s6, (x).s7, (y).s7)
#define LANES_LO_4(T, x, y) (T)((x).s0, (y).s0, (x).s2, (y).s2)
#define LANES_HI_4(T, x, y) (T)((x).s1, (y).s1, (x).s3, (y).s3)
#define ROUND_0(x, y, HALF) CAT(LANES_, CAT(HALF, _16))(ushort16, x, y)
#define ROUND_1(x, y, HALF) as_ushort16(CAT(LANES_, CAT(HALF, _8))(uint8, as_uint8(x), as_uint8(y)))
#define ROUND_2(x, y, HALF) as_ushort16(CAT(LANES_, CAT(HALF, _4))(ulong4, as_ulong4(x), as_ulong4(y)))
#define ROUND_3(x, y, HALF) (x)
#else
#define SHORT_TILES 0
#endif

#if SHORT_TILES
// Round `round` of the interleaves over the P rows v[0..P).
#define SHORT_ROUND(round, P)                                                                       \
    do {                                                                                            \
        ELEMV w[P];                                                                                 \
        _Pragma("unroll") for (uint i = 0; i < P / 2; ++i)                                          \
        {                                                                                           \
            w[2 * i] = CAT(ROUND_, round)(v[i], v[i + P / 2], LO);                                  \
            w[2 * i + 1] = CAT(ROUND_, round)(v[i], v[i + P / 2], HI);                              \
        }                                                                                           \
        _Pragma("unroll") for (uint i = 0; i < P; ++i) v[i] = w[i];                                 \
    } while (0)

// BYTES bytes at any address (pieceBYTES), and a row as such pieces
// (piecesBYTES).
#define DEFINE_PIECE(BYTES, T)                                                                      \
    typedef struct __attribute__((packed)) {                                                        \
        T v;                                                                                        \
    } CAT(piece, BYTES);                                                                            \
    typedef union {                                                                                 \
        ELEMV v;                                                                                    \
        T p[VEC * ELEMENT_BYTES / BYTES];                                                           \
    } CAT(pieces, BYTES);
#if ELEMENT_BYTES == 1
DEFINE_PIECE(1, uchar)
#endif
DEFINE_PIECE(2, ushort)
DEFINE_PIECE(4, uint)
DEFINE_PIECE(8, ulong)
#if ELEMENT_BYTES == 2
DEFINE_PIECE(16, uint4)
#endif

// The first `lines` (N / 2 < lines <= N) of the N elements of a short row
// at p as a piece of BYTES bytes, zeros after them, and back: the low half
// as one piece, the rest one by one into or out of the elements' vector (a
// row assembled in memory through a union and then loaded whole stalls the
// load).
#define DEFINE_PIECE_PARTS(BYTES, T, N, HALF_BYTES, HALF_T, HALF_V)                                 \
    static inline __attribute__((always_inline)) T CAT(load_piece, BYTES)(                          \
        const __global ELEM *p, uint lines)                                                         \
    {                                                                                               \
        if (lines == N)                                                                             \
            return ((const __global CAT(piece, BYTES) *)p)->v;                                      \
        CAT(ELEM, N) x = (CAT(ELEM, N))(0);                                                         \
        x.lo = CAT(as_, HALF_V)(((const __global CAT(piece, HALF_BYTES) *)p)->v);                   \
        _Pragma("unroll") for (uint e = N / 2; e < N; ++e) if (e < lines) x[e] = p[e];              \
        return CAT(as_, T)(x);                                                                      \
    }                                                                                               \
    static inline __attribute__((always_inline)) void CAT(store_piece, BYTES)(                      \
        __global ELEM *p, T v, uint lines)                                                          \
    {                                                                                               \
        if (lines == N) {                                                                           \
            ((__global CAT(piece, BYTES) *)p)->v = v;                                               \
            return;                                                                                 \
        }                                                                                           \
        CAT(ELEM, N) x = CAT(as_, CAT(ELEM, N))(v);                                                 \
        ((__global CAT(piece, HALF_BYTES) *)p)->v = CAT(as_, HALF_T)(x.lo);                         \
        _Pragma("unroll") for (uint e = N / 2; e < N; ++e) if (e < lines) p[e] = x[e];              \
    }
#if ELEMENT_BYTES == 1
DEFINE_PIECE_PARTS(2, ushort, 2, 1, uchar, uchar)
DEFINE_PIECE_PARTS(4, uint, 4, 2, ushort, uchar2)
DEFINE_PIECE_PARTS(8, ulong, 8, 4, uint, uchar4)
#else
DEFINE_PIECE_PARTS(4, uint, 2, 2, ushort, ushort)
DEFINE_PIECE_PARTS(8, ulong, 4, 4, uint, ushort2)
DEFINE_PIECE_PARTS(16, uint4, 8, 8, ulong, ushort4)
#endif

// i's low `bits` bits in reverse order.
static inline uint bit_reversed(uint i, uint bits)
{
    uint r = 0;
    for (uint b = 0; b < bits; ++b)
        r = r << 1 | (i >> b & 1);
    return r;
}

#define DEFINE_SHORT_TILE(P, LOG2_P, BYTES)                                                         \
    static inline __attribute__((always_inline)) void CAT(short_tile_, P)(                          \
        const __global ELEM *from, ulong lda, __global ELEM *to, ulong ldb, uint lines, int wide)   \
    {                                                                                               \
        const uint per_lane = LANE / P;                                                             \
        ELEMV v[P];                                                                                 \
        _Pragma("unroll") for (uint i = 0; i < P; ++i)                                              \
        {                                                                                           \
            if (wide) {                                                                             \
                uint row = bit_reversed(i, LOG2_P);                                                 \
                v[i] = row < lines ? VLOAD(from + row * lda) : (ELEMV)(0);                          \
            } else {                                                                                \
                CAT(pieces, BYTES) u;                                                               \
                _Pragma("unroll") for (uint p = 0; p < VEC / P; ++p)                                \
                {                                                                                   \
                    uint row = p / per_lane * LANE +                                                \
                               bit_reversed(i * per_lane + p % per_lane, LANE_LOG2);                \
                    u.p[p] = CAT(load_piece, BYTES)(from + row * lda, lines);                       \
                }                                                                                   \
                v[i] = u.v;                                                                         \
            }                                                                                       \
        }                                                                                           \
        SHORT_ROUND(0, P);                                                                          \
        if (LOG2_P > 1 || !wide)                                                                    \
            SHORT_ROUND(1, P);                                                                      \
        if (LOG2_P > 2 || !wide)                                                                    \
            SHORT_ROUND(2, P);                                                                      \
        if (LANE_LOG2 > 3 && !wide)                                                                 \
            SHORT_ROUND(3, P);                                                                      \
        _Pragma("unroll") for (uint k = 0; k < P; ++k)                                              \
        {                                                                                           \
            if (wide) {                                                                             \
                CAT(pieces, BYTES) u;                                                               \
                u.v = v[k];                                                                         \
                _Pragma("unroll") for (uint p = 0; p < VEC / P; ++p)                                \
                {                                                                                   \
                    uint row = p / per_lane * LANE + k * per_lane + p % per_lane;                   \
                    CAT(store_piece, BYTES)(to + row * ldb, u.p[p], lines);                         \
                }                                                                                   \
            } else if (k < lines) {                                                                 \
                VSTORE(to + k * ldb, v[k]);                                                         \
            }                                                                                       \
        }                                                                                           \
    }                                                                                               \
    static inline void CAT(transpose_short_tile_, P)(const __global ELEM *from, ulong lda,          \
                                                     __global ELEM *to, ulong ldb, int wide)        \
    {                                                                                               \
        CAT(short_tile_, P)(from, lda, to, ldb, P, wide);                                           \
    }
// Tiles of fewer lines than P (P / 2 < lines < P), out of line.
#define DEFINE_PADDED_SHORT_TILE(P)                                                                 \
    static void CAT(transpose_padded_short_tile_, P)(const __global ELEM *from, ulong lda,          \
                                                     __global ELEM *to, ulong ldb, uint lines,      \
                                                     int wide)                                      \
    {                                                                                               \
        CAT(short_tile_, P)(from, lda, to, ldb, lines, wide);                                       \
    }
#if ELEMENT_BYTES == 1
DEFINE_SHORT_TILE(2, 1, 2)
DEFINE_SHORT_TILE(4, 2, 4)
DEFINE_SHORT_TILE(8, 3, 8)
#else
DEFINE_SHORT_TILE(2, 1, 4)
DEFINE_SHORT_TILE(4, 2, 8)
DEFINE_SHORT_TILE(8, 3, 16)
#endif
DEFINE_PADDED_SHORT_TILE(4)
DEFINE_PADDED_SHORT_TILE(8)

#define SHORT_TILE_TAKES(lines) ((lines) >= 2 && (lines) <= 8)
static inline void transpose_short_tile(const __global ELEM *from, ulong lda, __global ELEM *to,
                                        ulong ldb, uint lines, int wide)
{
    if (lines == 8)
        transpose_short_tile_8(from, lda, to, ldb, wide);
    else if (lines == 4)
        transpose_short_tile_4(from, lda, to, ldb, wide);
    else if (lines == 2)
        transpose_short_tile_2(from, lda, to, ldb, wide);
    else if (lines > 4)
        transpose_padded_short_tile_8(from, lda, to, ldb, lines, wide);
    else
        transpose_padded_short_tile_4(from, lda, to, ldb, lines, wide);
}
#endif

// How many of the VEC lines from `first` lie below `end`.
static inline uint valid_lines(ulong first, ulong end)
{
    return first >= end ? 0 : end - first >= VEC ? VEC : (uint)(end - first);
}

// Loads the VEC x VEC tile at p (rows ld apart) into v. A tile with fewer
// than VEC valid rows or columns is read element by element, zeros outside.
static inline void load_tile(ROW *v, const __global ELEM *p, ulong ld, uint valid_rows, uint valid_cols,
                      const int mode)
{
    if (WHOLE(mode) || (valid_rows == VEC && valid_cols == VEC)) {
#pragma unroll
        for (uint r = 0; r < VEC; ++r)
            v[r] = LOAD_ROW(mode, p + r * ld);
    } else {
        for (uint r = 0; r < VEC; ++r)
            v[r] = r >= valid_rows       ? (ROW)(0)
                   : valid_cols == VEC ? LOAD_ROW(mode, p + r * ld)
                                       : AS_ROW(load_partial(p + r * ld, valid_cols));
    }
}

// Stores rows t[0..VEC) of a tile at p (rows ld apart), only the valid part
// of a partial tile.
static inline void store_tile(__global ELEM *p, ulong ld, const ROW *t, uint valid_rows, uint valid_cols,
                       const int mode)
{
    if (WHOLE(mode) || (valid_rows == VEC && valid_cols == VEC)) {
#pragma unroll
        for (uint r = 0; r < VEC; ++r)
            STORE_ROW(mode, p + r * ld, t[r]);
    } else {
        for (uint r = 0; r < valid_rows; ++r)
            if (valid_cols == VEC)
                STORE_ROW(mode, p + r * ld, t[r]);
            else
                store_partial(p + r * ld, AS_ELEMV(t[r]), valid_cols);
    }
}

// Kernels run as 1-D ranges of WG_X * WG_Y work-items a group (one
// dimension has no 65535-group limit on any device). group_tile gives the
// group's tile (x along the columns of A, y along its rows) out of tiles_x
// tiles a row; TRANSPOSE_BAND = 0 renumbers the tiles along diagonals, so
// groups running together read and write rows spread over the memory
// partitions instead of camping on one; TRANSPOSE_BAND > 1 walks bands of
// that many tile rows column by column, so the groups running together
// cover a block of tiles and B's rows, like A's, are written in runs of
// several tiles. Each is a bijection for any grid; the host keeps the group
// count within 32 bits.
static inline uint2 group_tile(uint tiles_x)
{
    uint linear = (uint)get_group_id(0);
#if TRANSPOSE_BAND == 0
    uint tiles_y = (uint)get_num_groups(0) / tiles_x;
    uint turn = linear / tiles_y, y = linear - turn * tiles_y;
    return (uint2)((turn + y) % tiles_x, y);
#elif TRANSPOSE_BAND > 1
    uint tiles_y = (uint)get_num_groups(0) / tiles_x;
    ulong band_tiles = (ulong)TRANSPOSE_BAND * tiles_x;
    uint band = (uint)(linear / band_tiles), within = (uint)(linear - band * band_tiles);
    uint band_rows = min((uint)TRANSPOSE_BAND, tiles_y - band * TRANSPOSE_BAND);
    uint x = within / band_rows;
    return (uint2)(x, band * TRANSPOSE_BAND + within - x * band_rows);
#else
    uint y = linear / tiles_x;
    return (uint2)(linear - y * tiles_x, y);
#endif
}

#define LOCAL_X ((uint)get_local_id(0) % TRANSPOSE_WG_X)
#define LOCAL_Y ((uint)get_local_id(0) / TRANSPOSE_WG_X)

#if METHOD == TRANSPOSE_REGISTERS
// Each work-item moves ITEMS tiles of VEC x VEC elements, WG_Y * VEC rows
// apart, through registers: all loads first (ITEMS * VEC vectors in flight),
// then transposed stores. A warp reads whole rows of WG_X vectors and writes
// rows of B in runs of (warp / WG_X) vectors: coalesced on both sides.
#if TRANSPOSE_LOADS / VEC > 1
#define ITEMS (TRANSPOSE_LOADS / VEC)
#else
#define ITEMS 1
#endif
#define STEP_ROWS (TRANSPOSE_WG_Y * VEC)

static inline __attribute__((always_inline)) void
transpose_tiles(ulong rows, ulong cols, const __global ELEM *a, ulong lda,
                __global ELEM *b, ulong ldb, uint tiles_x ALPHA_PARAMETER, const int mode)
{
    uint2 group = group_tile(tiles_x);
    ulong col = ((ulong)group.x * TRANSPOSE_WG_X + LOCAL_X) * VEC;
    ulong row = ((ulong)group.y * (TRANSPOSE_WG_Y * ITEMS) + LOCAL_Y) * VEC;
    uint valid_cols = WHOLE(mode) ? VEC : valid_lines(col, cols);
    ROW v[ITEMS][VEC];
#pragma unroll
    for (uint i = 0; i < ITEMS; ++i) {
        ulong r0 = row + i * STEP_ROWS;
        uint valid_rows = WHOLE(mode) ? VEC : valid_lines(r0, rows);
        load_tile(v[i], a + r0 * lda + col, lda, valid_rows, valid_cols, mode);
    }
#pragma unroll
    for (uint i = 0; i < ITEMS; ++i) {
        ulong r0 = row + i * STEP_ROWS;
        uint valid_rows = WHOLE(mode) ? VEC : valid_lines(r0, rows);
        transpose_tile(v[i]);
#pragma unroll
        for (uint c = 0; c < VEC; ++c)
            v[i][c] = SCALE(v[i][c]);
        store_tile(b + col * ldb + r0, ldb, v[i], valid_cols, valid_rows, mode);
    }
}

#define TRANSPOSE_KERNEL(NAME, MODE)                                                                \
    __kernel __attribute__((reqd_work_group_size(TRANSPOSE_WG_X * TRANSPOSE_WG_Y, 1, 1)))         \
    void NAME(ulong rows, ulong cols, const __global ELEM *restrict a, ulong a_offset, ulong lda,   \
              __global ELEM *restrict b, ulong b_offset, ulong ldb, uint tiles_x ALPHA_PARAMETER)   \
    {                                                                                               \
        BY_GROUP(MODE, TILES_CALL);                                                                 \
    }
#define TILES_CALL(mode)                                                                            \
    transpose_tiles(rows, cols, a + a_offset, lda, b + b_offset, ldb, tiles_x ALPHA_ARGUMENT, mode)
#define GROUP_ROWS (TRANSPOSE_WG_Y * ITEMS * VEC)
#define GROUP_COLS (TRANSPOSE_WG_X * VEC)

#elif METHOD == TRANSPOSE_LOCAL
// A TILE x TILE tile (TILE = WG_X * VEC) goes through local memory: each
// work-item loads one vector of a row in STEPS rows, GROUP_Y rows apart, and
// after the barrier gathers one vector of a column in as many columns. The
// padding of the rows (TRANSPOSE_LOCAL_PAD elements) spreads a column over
// the banks.
#define TILE (TRANSPOSE_WG_X * VEC)
#define STEPS TRANSPOSE_LOCAL_STEPS
#define GROUP_Y (TILE / STEPS)
#define TILE_STRIDE (TILE + TRANSPOSE_LOCAL_PAD)

// The two halves of a local tile's transpose, either side of the barrier
// (the kernel calls each on the branch its group takes; the barrier itself
// is outside both, where every work-item reaches it).
static inline __attribute__((always_inline)) void
load_local(ulong rows, ulong cols, const __global ELEM *a, ulong lda, uint tiles_x,
           __local ELEM *tile, const int mode)
{
    uint2 group = group_tile(tiles_x);
    uint lx = LOCAL_X, ly = LOCAL_Y;
    ulong row0 = (ulong)group.y * TILE, col0 = (ulong)group.x * TILE;
    ulong col = col0 + lx * VEC; // of A; of B it is the row
    uint valid_cols = WHOLE(mode) ? VEC : valid_lines(col, cols);
#pragma unroll
    for (uint i = 0; i < STEPS; ++i) {
        uint r = ly + i * GROUP_Y;
        const __global ELEM *p = a + (row0 + r) * lda + col;
        ELEMV v = (ELEMV)(0);
        if (WHOLE(mode) || (row0 + r < rows && valid_cols == VEC))
            v = LOAD(mode, p);
        else if (row0 + r < rows)
            v = load_partial(p, valid_cols);
        VSTORE(tile + r * TILE_STRIDE + lx * VEC, v);
    }
}

static inline __attribute__((always_inline)) void
store_local(ulong rows, ulong cols, __global ELEM *b, ulong ldb,
            uint tiles_x ALPHA_PARAMETER, const __local ELEM *tile, const int mode)
{
    uint2 group = group_tile(tiles_x);
    uint lx = LOCAL_X, ly = LOCAL_Y;
    ulong row0 = (ulong)group.y * TILE, col0 = (ulong)group.x * TILE;
    ulong brow_col = row0 + lx * VEC; // column of B
    uint valid_b_cols = WHOLE(mode) ? VEC : valid_lines(brow_col, rows);
#pragma unroll
    for (uint i = 0; i < STEPS; ++i) {
        uint c = ly + i * GROUP_Y;
        ELEM e[VEC];
#pragma unroll
        for (uint k = 0; k < VEC; ++k)
            e[k] = tile[(lx * VEC + k) * TILE_STRIDE + c];
        ELEMV w = SCALE(VLOAD(e));
        __global ELEM *q = b + (col0 + c) * ldb + brow_col;
        if (WHOLE(mode) || (col0 + c < cols && valid_b_cols == VEC))
            STORE(mode, q, w);
        else if (col0 + c < cols)
            store_partial(q, w, valid_b_cols);
    }
}

#define TRANSPOSE_KERNEL(NAME, MODE)                                                                \
    __kernel __attribute__((reqd_work_group_size(TRANSPOSE_WG_X * GROUP_Y, 1, 1)))                \
    void NAME(ulong rows, ulong cols, const __global ELEM *restrict a, ulong a_offset, ulong lda,   \
              __global ELEM *restrict b, ulong b_offset, ulong ldb, uint tiles_x ALPHA_PARAMETER)   \
    {                                                                                               \
        __local ELEM tile[TILE * TILE_STRIDE];                                                      \
        BY_GROUP(MODE, LOAD_LOCAL_CALL);                                                            \
        barrier(CLK_LOCAL_MEM_FENCE);                                                               \
        BY_GROUP(MODE, STORE_LOCAL_CALL);                                                           \
    }
#define LOAD_LOCAL_CALL(mode) load_local(rows, cols, a + a_offset, lda, tiles_x, tile, mode)
#define STORE_LOCAL_CALL(mode)                                                                      \
    store_local(rows, cols, b + b_offset, ldb, tiles_x ALPHA_ARGUMENT, tile, mode)
#define GROUP_ROWS TILE
#define GROUP_COLS TILE

#elif METHOD == TRANSPOSE_CPU
// CPU-shaped: each work-item walks one BLOCK x BLOCK block that stays in
// the cache, VEC x VEC tile by tile, down the rows of A so that each row of
// B is written as one contiguous run. No local memory, no barriers. The
// *_stream kernels write B's whole tiles with non-temporal stores, for B
// larger than the caches: a plain store first reads the line it writes, a
// third of the memory traffic of a transpose. Streamed blocks, and whole
// ones where `grouped`, transpose DOWN_TILES tiles down the rows before
// storing, so that each 64-byte line of B is written whole by consecutive
// stores: lines left half-written while seven others are started (8 x 8
// floats in 32-byte rows) overflow the write-combining buffers of streamed
// stores, and through the cache such a line can be evicted before its
// second half comes where B's rows map to few cache sets. Misaligned 8-byte
// tiles, side by side across a line of A (LINE_TILES), ran slower so.
#if ELEMENT_BYTES < 8
#define GROUPED_MODE(mode) ((mode) == ALIGNED || (mode) == UNALIGNED_WHOLE)
#else
#define GROUPED_MODE(mode) ((mode) == ALIGNED)
#endif
#define BLOCK TRANSPOSE_CPU_BLOCK
#define CPU_LINE_BYTES 64
#define TILES_PER_LINE (VEC * (uint)sizeof(ELEM) < CPU_LINE_BYTES ? CPU_LINE_BYTES / (VEC * (uint)sizeof(ELEM)) : 1)
#define DOWN_TILES TILES_PER_LINE
// Tiles side by side along A's rows, as many as cover a 64-byte line of A,
// so that one pass down the block reads each line of A whole: a later pass
// found the rest of a line evicted where A's rows map to few cache sets
// (power-of-two leading dimensions), and small tiles of 8- and 16-byte
// elements move more than one tile a row of a pass. For 4-byte elements in
// aligned blocks only: misaligned rows of floats, and 1- and 2-byte tiles,
// ran slower side by side (doc/performance.md).
#define LINE_TILES (ELEMENT_BYTES >= 4 && TILES_PER_LINE * VEC <= BLOCK ? TILES_PER_LINE : 1)
#if ELEMENT_BYTES >= 8
#define LINE_MODE(mode) WHOLE(mode)
#else
#define LINE_MODE(mode) ((mode) == ALIGNED)
#endif

// Transposes (and scales) the tile of A at `from` into v. Always inlined:
// POCL's compiler kept it out of line in the 1-byte programs, a call per
// tile with the tile passed through the stack.
static inline __attribute__((always_inline)) void
transposed_tile(ROW *v, const __global ELEM *from, ulong lda, uint valid_rows,
                uint valid_cols ALPHA_PARAMETER, const int mode)
{
    load_tile(v, from, lda, valid_rows, valid_cols, mode);
    transpose_tile(v);
#pragma unroll
    for (uint k = 0; k < VEC; ++k)
        v[k] = SCALE(v[k]);
}

// The work-item's block of the group's tile `group` of the rows x cols
// matrix at a (B at b).
static inline __attribute__((always_inline)) void
transpose_block(uint2 group, ulong rows, ulong cols, const __global ELEM *a, ulong lda,
                __global ELEM *b, ulong ldb ALPHA_PARAMETER, const int stream, const int grouped,
                const int mode)
{
    ulong row0 = ((ulong)group.y * TRANSPOSE_WG_Y + LOCAL_Y) * BLOCK;
    ulong col0 = ((ulong)group.x * TRANSPOSE_WG_X + LOCAL_X) * BLOCK;
    uint block_rows = BLOCK, block_cols = BLOCK;
    if (!WHOLE(mode)) {
        block_rows = row0 >= rows ? 0 : rows - row0 < BLOCK ? (uint)(rows - row0) : BLOCK;
        block_cols = col0 >= cols ? 0 : cols - col0 < BLOCK ? (uint)(cols - col0) : BLOCK;
    }
    // Border blocks (all of a narrow matrix's) move one tile at a time (side
    // by side, tall-skinny matrices ran slower).
    const uint line_tiles = LINE_MODE(mode) ? LINE_TILES : 1;
    for (uint c = 0; c < block_cols; c += line_tiles * VEC) {
        uint valid_cols = WHOLE(mode) ? VEC : min((uint)VEC, block_cols - c);
        const __global ELEM *from = a + row0 * lda + col0 + c;
        __global ELEM *to = b + (col0 + c) * ldb + row0;
        uint r = 0;
        if ((stream || (grouped && GROUPED_MODE(mode))) && valid_cols == VEC) {
            for (; r + DOWN_TILES * VEC <= block_rows; r += DOWN_TILES * VEC) {
#pragma unroll
                for (uint l = 0; l < line_tiles; ++l) {
                    ROW v[DOWN_TILES][VEC];
#pragma unroll
                    for (uint t = 0; t < DOWN_TILES; ++t)
                        transposed_tile(v[t], from + (r + t * VEC) * lda + l * VEC, lda, VEC, VEC ALPHA_ARGUMENT,
                                        mode);
#pragma unroll
                    for (uint k = 0; k < VEC; ++k)
#pragma unroll
                        for (uint t = 0; t < DOWN_TILES; ++t)
                            if (stream)
                                __builtin_nontemporal_store(
                                    v[t][k], (__global ROW *)(to + (l * VEC + k) * ldb + r + t * VEC));
                            else
                                STORE_ROW(mode, to + (l * VEC + k) * ldb + r + t * VEC, v[t][k]);
                }
            }
        }
        for (; r < block_rows; r += VEC) {
            uint valid_rows = WHOLE(mode) ? VEC : min((uint)VEC, block_rows - r);
#if SHORT_TILES
            uint lines = valid_cols == VEC ? valid_rows : valid_rows == VEC ? valid_cols : 0;
            if (!WHOLE(mode) && SHORT_TILE_TAKES(lines)) {
                transpose_short_tile(from + r * lda, lda, to + r, ldb, lines, valid_cols == VEC);
                continue;
            }
#endif
            ROW v[LINE_TILES][VEC];
#pragma unroll
            for (uint l = 0; l < line_tiles; ++l)
                transposed_tile(v[l], from + r * lda + l * VEC, lda, valid_rows, valid_cols ALPHA_ARGUMENT, mode);
#pragma unroll
            for (uint l = 0; l < line_tiles; ++l)
                store_tile(to + r + l * VEC * ldb, ldb, v[l], valid_cols, valid_rows, mode);
        }
    }
}

#define CPU_TRANSPOSE_KERNEL(NAME, MODE, STREAM)                                                    \
    __kernel __attribute__((reqd_work_group_size(TRANSPOSE_WG_X * TRANSPOSE_WG_Y, 1, 1)))         \
    void NAME(ulong rows, ulong cols, const __global ELEM *restrict a, ulong a_offset, ulong lda,   \
              __global ELEM *restrict b, ulong b_offset, ulong ldb, uint tiles_x ALPHA_PARAMETER)   \
    {                                                                                               \
        const int stream = STREAM;                                                                  \
        BY_GROUP(MODE, BLOCK_CALL);                                                                 \
    }
#define BLOCK_CALL(mode)                                                                            \
    transpose_block(group_tile(tiles_x), rows, cols, a + a_offset, lda, b + b_offset, ldb            \
                    ALPHA_ARGUMENT, stream, 1, mode)
#define TRANSPOSE_KERNEL(NAME, MODE) CPU_TRANSPOSE_KERNEL(NAME, MODE, 0)
#define GROUP_ROWS (TRANSPOSE_WG_Y * BLOCK)
#define GROUP_COLS (TRANSPOSE_WG_X * BLOCK)

#else
#error "unknown TRANSPOSE_METHOD"
#endif

// Whether this group's GROUP_ROWS x GROUP_COLS elements of A lie wholly
// inside the matrix.
static inline int group_whole(ulong rows, ulong cols, uint tiles_x)
{
    uint2 group = group_tile(tiles_x);
    return ((ulong)group.y + 1) * GROUP_ROWS <= rows && ((ulong)group.x + 1) * GROUP_COLS <= cols;
}

// CALL(mode) for the kernel of MODE (CALL names a method's call of its tile
// code, written with the kernel's parameters; OpenCL C 1.2 has no variadic
// macros): the edge and unaligned kernels branch once per group (the same
// way for all its work-items), so that only the groups on the matrix's
// border pay for guards and partial tiles; the others run the aligned code,
// or vloadn/vstoren without guards.
#define BY_GROUP(MODE, CALL)                                                                        \
    do {                                                                                            \
        if ((MODE) != ALIGNED && group_whole(rows, cols, tiles_x))                                  \
            CALL((MODE) == UNALIGNED ? UNALIGNED_WHOLE : ALIGNED);                                  \
        else                                                                                        \
            CALL(MODE);                                                                             \
    } while (0)

TRANSPOSE_KERNEL(transpose_aligned, ALIGNED)
TRANSPOSE_KERNEL(transpose_edge, EDGE)
TRANSPOSE_KERNEL(transpose_unaligned, UNALIGNED)
#if METHOD == TRANSPOSE_CPU
CPU_TRANSPOSE_KERNEL(transpose_aligned_stream, ALIGNED, 1)
CPU_TRANSPOSE_KERNEL(transpose_edge_stream, EDGE, 1)

// CPU blocks of an A and a B whose rows are VEC-aligned but whose offsets
// are not (sub-matrices of aligned ones). The unaligned kernel's vectors
// straddle cache lines, and a line of B written in two pieces, a tile apart,
// is often evicted in between where B's rows map to few cache sets. Here the
// first peel_rows rows of A (those before each row of B reaches an aligned
// element) and its first peel_cols columns (before A's rows do) are set
// apart, and the rest, the interior, moves in aligned vectors as in the
// edge kernel. The groups of the interior's first tile row also move the
// peeled rows above their tile, those of its first tile column the peeled
// columns beside it, and the first group the corner, in unaligned mode.
// Nothing is streamed: non-temporal stores into lines that the peeled rows
// write in part through the cache are slow; and the interior stores tile by
// tile: its rows of B start where the peeled rows end, mid-line, where
// groups of tiles ran slower (doc/performance.md).
__kernel __attribute__((reqd_work_group_size(TRANSPOSE_WG_X * TRANSPOSE_WG_Y, 1, 1))) void
transpose_peeled(ulong rows, ulong cols, const __global ELEM *restrict a, ulong a_offset, ulong lda,
                 __global ELEM *restrict b, ulong b_offset, ulong ldb, uint tiles_x, uint peel_rows,
                 uint peel_cols ALPHA_PARAMETER)
{
    a += a_offset;
    b += b_offset;
    uint2 group = group_tile(tiles_x);
    ulong inner_rows = rows - peel_rows, inner_cols = cols - peel_cols;
    const __global ELEM *inner_a = a + peel_rows * lda + peel_cols;
    __global ELEM *inner_b = b + peel_cols * ldb + peel_rows;
    if (group_whole(inner_rows, inner_cols, tiles_x))
        transpose_block(group, inner_rows, inner_cols, inner_a, lda, inner_b, ldb ALPHA_ARGUMENT, 0, 0,
                        ALIGNED);
    else
        transpose_block(group, inner_rows, inner_cols, inner_a, lda, inner_b, ldb ALPHA_ARGUMENT, 0, 0,
                        EDGE);
    if (group.y == 0 && peel_rows)
        transpose_block(group, peel_rows, inner_cols, a + peel_cols, lda, b + peel_cols * ldb, ldb
                        ALPHA_ARGUMENT, 0, 0, UNALIGNED);
    if (group.x == 0 && peel_cols)
        transpose_block(group, inner_rows, peel_cols, a + peel_rows * lda, lda, b + peel_rows, ldb
                        ALPHA_ARGUMENT, 0, 0, UNALIGNED);
    if (group.x == 0 && group.y == 0 && peel_rows && peel_cols)
        transpose_block(group, peel_rows, peel_cols, a, lda, b, ldb ALPHA_ARGUMENT, 0, 0, UNALIGNED);
}
#endif

// One element, scaled.
#if SCALED
#define SCALE_ONE(x) (alpha == (REAL)0 ? (REAL)0 : (x) * alpha)
#else
#define SCALE_ONE(x) (x)
#endif

// GPU methods, where rows of A or B are not vector-aligned, or the matrix
// is narrower than a group's tile: a tile of 2^TILE_AREA_LOG2 elements
// through local memory, one element per access, 2^tile_cols_log2 columns
// wide (about square, or as wide or as tall as a narrow matrix is) so that
// a matrix of a few columns or rows still moves whole runs. Work-item i of
// the group loads tile elements i, i + E_GROUP, ... in row-major order
// (consecutive work-items read along A's rows) and stores them in
// column-major order (consecutive work-items write along B's rows), so a
// lockstep group reads and writes runs of up to 256 bytes where
// vloadn/vstoren of misaligned rows, on NVIDIA an access per element at
// stride VEC, reach a fraction of the rate. E_ITEMS loads in flight per
// work-item (16 of 1- and 2-byte elements) keep enough bytes in flight.
// Tile rows are padded by one element to spread columns over the banks.
// E_GROUP is src/ops/transpose's TRANSPOSE_ELEMENTS_GROUP.
#define E_GROUP 256
#if ELEMENT_BYTES >= 16
#define TILE_AREA_LOG2 8
#elif ELEMENT_BYTES == 8
#define TILE_AREA_LOG2 9
#elif ELEMENT_BYTES == 4
#define TILE_AREA_LOG2 11
#else
#define TILE_AREA_LOG2 12
#endif
#define E_ITEMS ((1 << TILE_AREA_LOG2) / E_GROUP)

__kernel __attribute__((reqd_work_group_size(E_GROUP, 1, 1))) void
transpose_elements(ulong rows, ulong cols, const __global ELEM *restrict a, ulong a_offset,
                   ulong lda, __global ELEM *restrict b, ulong b_offset, ulong ldb, uint tiles_x,
                   uint tile_cols_log2 ALPHA_PARAMETER)
{
    // At most 1.5 times the tile's elements: rows of at least two.
    __local ELEM tile[(1 << TILE_AREA_LOG2) * 3 / 2];
    a += a_offset;
    b += b_offset;
    const uint tile_rows_log2 = TILE_AREA_LOG2 - tile_cols_log2;
    const uint stride = (1u << tile_cols_log2) + 1;
    const uint col_mask = (1u << tile_cols_log2) - 1, row_mask = (1u << tile_rows_log2) - 1;
    uint group = (uint)get_group_id(0), gy = group / tiles_x, gx = group - gy * tiles_x;
    ulong row0 = (ulong)gy << tile_rows_log2, col0 = (ulong)gx << tile_cols_log2;
    uint lid = (uint)get_local_id(0);
    ELEM v[E_ITEMS];
#pragma unroll
    for (uint k = 0; k < E_ITEMS; ++k) {
        uint i = lid + k * E_GROUP, r = i >> tile_cols_log2, c = i & col_mask;
        v[k] = row0 + r < rows && col0 + c < cols ? a[(row0 + r) * lda + col0 + c] : (ELEM)(0);
    }
#pragma unroll
    for (uint k = 0; k < E_ITEMS; ++k) {
        uint i = lid + k * E_GROUP;
        tile[(i >> tile_cols_log2) * stride + (i & col_mask)] = v[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (uint k = 0; k < E_ITEMS; ++k) {
        uint i = lid + k * E_GROUP;
        v[k] = tile[(i & row_mask) * stride + (i >> tile_rows_log2)];
    }
#pragma unroll
    for (uint k = 0; k < E_ITEMS; ++k) {
        uint i = lid + k * E_GROUP, c = i >> tile_rows_log2, r = i & row_mask;
        if (row0 + r < rows && col0 + c < cols)
            b[(col0 + c) * ldb + row0 + r] = SCALE_ONE(v[k]);
    }
}

// GPU methods, rows of A or B that are not 16-byte aligned (elements of 1
// to 8 bytes): every global access an aligned 16-byte vector of RV
// elements, as on the aligned path, except at the border of the matrix. A
// tile of R_ROWS x R_COLS elements of A reads, for each of its rows and the
// R_B_ALIGN - 1 rows below them, the aligned vectors that cover the row's run
// (one more than the run's vectors where it starts mid-vector), and puts them
// in local memory as they are: element (r, c) of the tile sits `shift` (the
// misalignment of row r's run, in elements) after column c. Each row of B is
// written in whole aligned vectors, in runs that start on a 32-byte sector
// (R_B_ALIGN elements), so that no sector of B is written in halves by two
// tiles: the tile owns the runs that start within its R_ROWS rows, and the
// last of them reaches up to R_B_ALIGN - 1 rows into the next tile, which the
// tile has read. Only the elements of B before its first whole run (in the
// first tile row: those before its first whole vector one by one) and after
// its last vector (in the last) are written on their own, as are the vectors
// of A that cross its first or last element (a_end, counted from the
// buffer's start), so no access leaves A or touches B's padding. Local rows
// are padded to an odd number of words, and every RV rows by a word more, so
// that the work-items gathering a vector of B, RV rows apart, meet distinct
// banks.
#if ELEMENT_BYTES < 16 && METHOD != TRANSPOSE_CPU
#if ELEMENT_BYTES == 1
#define RV 16
#elif ELEMENT_BYTES == 2
#define RV 8
#elif ELEMENT_BYTES == 4
#define RV 4
#else
#define RV 2
#endif
// B's runs of two 128-byte lines, of one where A's runs would be half a line
// (bytes: 128 x 128 tiles, each side's runs a line).
#define R_ROWS (ELEMENT_BYTES == 1 ? 128 : 256 / ELEMENT_BYTES)
#define R_COLS (ELEMENT_BYTES == 8 ? 32 : ELEMENT_BYTES == 1 ? 128 : 64)
#define R_B_ALIGN (32 / ELEMENT_BYTES) // B's runs' alignment, in elements
#define R_LOCAL_ROWS (R_ROWS + R_B_ALIGN - 1)
#define R_VECTORS (R_COLS / RV + 1) // vectors covering a row's run
#define R_WORD (ELEMENT_BYTES < 4 ? 4 / ELEMENT_BYTES : 1) // elements of a word, at least one
#define R_PITCH (R_COLS + RV + R_WORD)
#define R_ROW_AT(r) ((r) * R_PITCH + (r) / RV * R_WORD)
#define R_LOCAL_WORDS ((R_ROW_AT(R_LOCAL_ROWS) * ELEMENT_BYTES + 3) / 4)
#define R_LOADS ((R_LOCAL_ROWS * R_VECTORS + E_GROUP - 1) / E_GROUP)
#define R_STORES (R_COLS * (R_ROWS / RV) / E_GROUP)
#define R_COL_STEP (E_GROUP / (R_ROWS / RV)) // between a work-item's columns of B
#if R_COL_STEP % R_B_ALIGN
#error "a work-item's columns of B must be a multiple of R_B_ALIGN apart"
#endif

// The four words of x at a word-aligned (not necessarily 16-byte aligned)
// place in local memory.
static inline void put_words(__local uint *to, uint4 x)
{
    to[0] = x.s0;
    to[1] = x.s1;
    to[2] = x.s2;
    to[3] = x.s3;
}

// A 16-byte vector of RV elements, gathered in an array, as four words:
// elements of 1 and 2 bytes packed by shifts on little-endian devices
// (vectors of bytes reach memory in 4-byte pieces on NVPTX, even through
// as_uint4), wider ones reinterpreted.
static inline uint4 r_words(const ELEM *g)
{
#if ELEMENT_BYTES == 8
    return (uint4)(as_uint2(g[0]), as_uint2(g[1]));
#elif ELEMENT_BYTES == 4 || defined(__ENDIAN_LITTLE__)
    uint w[4];
#pragma unroll
    for (uint m = 0; m < 4; ++m) {
#if ELEMENT_BYTES == 4
        w[m] = as_uint(g[m]);
#else
        w[m] = 0;
#pragma unroll
        for (uint p = 0; p < 4 / ELEMENT_BYTES; ++p)
            w[m] |= (uint)g[m * (4 / ELEMENT_BYTES) + p] << (8 * ELEMENT_BYTES * p);
#endif
    }
    return (uint4)(w[0], w[1], w[2], w[3]);
#else
    return CAT(as_, uint4)(CAT(vload, RV)(0, g));
#endif
}

// x * y % RV. Of 8-byte elements (RV = 2) LLVM narrows that to a 1-bit
// multiply, which the NVPTX and AMDGPU back ends of clang 14 and 15 cannot
// select (a crash); the AND is the same product.
static inline uint product_mod_rv(ulong x, ulong y)
{
#if RV == 2
    return (uint)(x & y & 1);
#else
    return (uint)(x * y % RV);
#endif
}

// (offset + line * ld + at) % RV: where an element of A or B sits within
// its 16-byte vector.
static inline uint place_mod_rv(ulong offset, ulong line, ulong ld, ulong at)
{
    return (uint)((offset % RV + product_mod_rv(line, ld) + at % RV) % RV);
}

// The same within B's runs' alignment (a power of two of at least 4
// elements: the sums' wrapping past 2^64 leaves the remainder as it is).
static inline uint place_mod_b_align(ulong offset, ulong line, ulong ld, ulong at)
{
    return (uint)((offset + line * ld + at) % R_B_ALIGN);
}

__kernel __attribute__((reqd_work_group_size(E_GROUP, 1, 1))) void
transpose_realigned(ulong rows, ulong cols, const __global ELEM *restrict a, ulong a_offset,
                    ulong lda, __global ELEM *restrict b, ulong b_offset, ulong ldb, uint tiles_x,
                    ulong a_end, uint row_shift ALPHA_PARAMETER)
{
    __local uint tile[R_LOCAL_WORDS] __attribute__((aligned(16)));
    __local ELEM *elements = (__local ELEM *)tile;
    uint2 group = group_tile(tiles_x);
    // Tiles start row_shift rows above multiples of R_ROWS, so the first
    // tile's first row_begin rows lie above the matrix (row0 wraps there;
    // only its residues and the rows from row_begin on are used).
    ulong row0 = (ulong)group.y * R_ROWS - row_shift, col0 = (ulong)group.x * R_COLS;
    uint row_begin = group.y == 0 ? row_shift : 0;
    uint lid = (uint)get_local_id(0);
    // Where B's rows sit at one place of the runs' alignment, the tile's runs
    // start on one row, and the rows below its last run are not read.
    ulong rows_read = ldb % R_B_ALIGN ? R_LOCAL_ROWS
                      : R_ROWS + (R_B_ALIGN - place_mod_b_align(b_offset, 0, 0, row0)) % R_B_ALIGN;
    uint row_limit = (uint)min(rows_read, rows - row0);
    int col_limit = (int)min((ulong)R_COLS, cols - col0);
    // The misalignment of tile row r's run is (base + r * lda_rv) % RV.
    ulong start0 = a_offset + row0 * lda + col0;
    uint base = place_mod_rv(a_offset, row0, lda, col0);
    uint lda_rv = (uint)(lda % RV);

    // Local row r's column 0 sits at its place plus its shift, computed
    // where it is gathered: a table of them cost a local read per element.
#define R_SHIFT(r) ((base + product_mod_rv(r, lda_rv)) % RV)
#define R_ELEMENT(r, c) elements[R_ROW_AT(r) + R_SHIFT(r) + (c)]
    // Whole vectors are all loaded before any is stored; the vectors that
    // cross A's first or last element go to local memory element by element
    // (only the elements of the tile's run).
    uint4 v[R_LOADS];
    int whole[R_LOADS];
#pragma unroll
    for (uint k = 0; k < R_LOADS; ++k) {
        uint i = lid + k * E_GROUP, r = i / R_VECTORS, n = i - r * R_VECTORS;
        whole[k] = 0;
        if (r >= row_limit || r < row_begin)
            continue;
        uint shift = R_SHIFT(r);
        int first_col = (int)(n * RV) - (int)shift; // of the vector, in the tile
        if (first_col >= col_limit)
            continue;
        ulong at = start0 + r * lda - shift + n * RV;
        if (at >= a_offset && at + RV <= a_end) {
            v[k] = LOAD16(a + at);
            whole[k] = 1;
        } else {
            for (uint q = 0; q < RV; ++q)
                if (first_col + (int)q >= 0 && first_col + (int)q < col_limit)
                    elements[R_ROW_AT(r) + n * RV + q] = a[at + q];
        }
    }
#pragma unroll
    for (uint k = 0; k < R_LOADS; ++k) {
        uint i = lid + k * E_GROUP, r = i / R_VECTORS, n = i - r * R_VECTORS;
        if (!whole[k])
            continue;
        put_words(tile + (R_ROW_AT(r) + n * RV) * ELEMENT_BYTES / 4, v[k]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // A work-item's vectors of B lie in columns R_COL_STEP apart, a multiple
    // of R_B_ALIGN, so their runs share one misalignment: the same tile rows,
    // whose places it computes once for all of them.
    uint c0 = lid / (R_ROWS / RV), j = lid % (R_ROWS / RV);
    ulong run0 = b_offset + (col0 + c0) * ldb + row0;
    uint run0_place = place_mod_b_align(b_offset, col0 + c0, ldb, row0);
    // The tile row of the vectors' first element.
    uint first = (R_B_ALIGN - run0_place) % R_B_ALIGN + j * RV;
    if (first >= row_begin && row0 + first + RV <= rows) {
        uint row_place[RV];
#pragma unroll
        for (uint q = 0; q < RV; ++q)
            row_place[q] = R_ROW_AT(first + q) + R_SHIFT(first + q) + c0;
#pragma unroll
        for (uint k = 0; k < R_STORES; ++k) {
            if ((int)(c0 + k * R_COL_STEP) >= col_limit)
                break;
            ELEM g[RV];
#pragma unroll
            for (uint q = 0; q < RV; ++q)
                g[q] = SCALE_ONE(elements[row_place[q] + k * R_COL_STEP]);
            STORE16(b + run0 + (ulong)(k * R_COL_STEP) * ldb + first, r_words(g));
        }
    } else {
        for (uint k = 0; k < R_STORES; ++k) {
            uint c = c0 + k * R_COL_STEP;
            if ((int)c >= col_limit)
                break;
            ulong run = run0 + (ulong)(k * R_COL_STEP) * ldb;
            for (uint r = max(first, row_begin); r < first + RV && row0 + r < rows; ++r)
                b[run + r] = SCALE_ONE(R_ELEMENT(r, c));
        }
    }
    // B's elements before the first whole run of each row: those before
    // its first whole vector one by one, the vectors up to the run whole.
    if (row0 == 0 && (int)lid < col_limit) {
        ulong run = b_offset + (col0 + lid) * ldb;
        uint lead = (R_B_ALIGN - place_mod_b_align(b_offset, col0 + lid, ldb, 0)) % R_B_ALIGN;
        uint r = 0;
        for (; r < lead % RV && r < rows; ++r)
            b[run + r] = SCALE_ONE(R_ELEMENT(r, lid));
        for (; r + RV <= lead && r + RV <= rows; r += RV) {
            ELEM g[RV];
#pragma unroll
            for (uint q = 0; q < RV; ++q)
                g[q] = SCALE_ONE(R_ELEMENT(r + q, lid));
            STORE16(b + run + r, r_words(g));
        }
        for (; r < lead && r < rows; ++r)
            b[run + r] = SCALE_ONE(R_ELEMENT(r, lid));
    }
}
#undef R_ELEMENT
#undef R_SHIFT

// GPU methods, narrow matrices of 1-, 2- and 4-byte elements (A or B with rows
// of a few elements): the element-wise kernel's tiles, each side moved in
// aligned 16-byte vectors. A side is read or written either as rows of the
// tile (rows mode: each row's run vector-aligned) or, where its rows are
// packed (leading dimension = row length) and the tile holds whole rows, as
// the one contiguous span the tile covers (span mode: in an 8 x N byte
// matrix's B, each vector holds two rows). `modes` has bit 0 for A's span
// mode, bit 1 for B's. Vectors reaching past the matrix go element by
// element. Local rows as in the realigned kernel, a word more every RV rows
// and padded to an odd number of words (unpadded in A's span mode).
#if ELEMENT_BYTES <= 4 && !SCALED
#define S_ROW_AT(r) ((r) * pitch + (r) / RV * R_WORD)
// Tiles of 8 KiB: two vectors per work-item each way (src/ops/transpose's
// transpose_spans_area_log2).
#define S_AREA_LOG2 (ELEMENT_BYTES == 1 ? 13 : ELEMENT_BYTES == 2 ? 12 : 11)
#define S_LOADS (((1 << S_AREA_LOG2) / RV + E_GROUP - 1) / E_GROUP)
#define S_NONE 0xffffffffu

#if ELEMENT_BYTES == 1 && defined(__ENDIAN_LITTLE__)
// columns_of_N_rows(at, pitch): a vector of B in span mode from a tile of A
// of N (8, 4 or 2) rows `pitch` bytes apart: its 16 bytes are 16 / N
// consecutive columns from `at` on, every row's share read as one piece of
// 2, 4 or 8 bytes (one local access instead of one a byte) and interleaved
// in registers. One function per N: loops bounded by a parameter are not
// unrolled by every compiler, even where the value is a constant.
#define PIECE_OF_8_ROWS(p) (*(__local const ushort *)(p))
#define PIECE_OF_4_ROWS(p) (*(__local const uint *)(p))
#define PIECE_OF_2_ROWS(p) upsample(((__local const uint *)(p))[1], ((__local const uint *)(p))[0])
#define DEFINE_COLUMNS_OF_ROWS(N)                                                                   \
    static inline uint4 columns_of_##N##_rows(__local const uchar *at, uint pitch)                  \
    {                                                                                               \
        uchar g[16];                                                                                \
        _Pragma("unroll") for (uint q = 0; q < N; ++q)                                              \
        {                                                                                           \
            ulong piece = PIECE_OF_##N##_ROWS(at + q * pitch);                                      \
            _Pragma("unroll") for (uint i = 0; i < 16 / N; ++i) g[i * N + q] =                      \
                (uchar)(piece >> (8 * i));                                                          \
        }                                                                                           \
        return r_words(g);                                                                          \
    }
DEFINE_COLUMNS_OF_ROWS(8)
DEFINE_COLUMNS_OF_ROWS(4)
DEFINE_COLUMNS_OF_ROWS(2)
#endif

__kernel __attribute__((reqd_work_group_size(E_GROUP, 1, 1))) void
transpose_spans(ulong rows, ulong cols, const __global ELEM *restrict a, ulong a_offset, ulong lda,
                __global ELEM *restrict b, ulong b_offset, ulong ldb, uint tiles_x,
                uint tile_cols_log2, uint modes)
{
    __local uint tile[(2 << S_AREA_LOG2) * ELEMENT_BYTES / 4] __attribute__((aligned(16)));
    __local ELEM *elements = (__local ELEM *)tile;
    const uint tile_rows_log2 = S_AREA_LOG2 - tile_cols_log2;
    // In A's span mode the tile's rows lie as they came, `cols` apart, so
    // each vector goes to local memory as four words.
    const uint pitch = (modes & 1) ? (uint)cols : (1u << tile_cols_log2) + R_WORD;
    uint group = (uint)get_group_id(0), gy = group / tiles_x, gx = group - gy * tiles_x;
    ulong row0 = (ulong)gy << tile_rows_log2, col0 = (ulong)gx << tile_cols_log2;
    uint lid = (uint)get_local_id(0);
    uint row_limit = (uint)min((ulong)1 << tile_rows_log2, rows - row0);
    uint col_limit = (uint)min((ulong)1 << tile_cols_log2, cols - col0);
    const uint vectors = (1u << S_AREA_LOG2) / RV;

    // A into the tile. Span mode: vector v holds elements v * RV ... of the
    // span (row0 onwards, whole rows of `cols`); rows mode: vector v % n of
    // tile row v / n, n vectors a row. A work-item requests all its whole
    // vectors before it stores any.
    uint4 loaded[S_LOADS];
    uint loaded_at[S_LOADS]; // the vector's place in local memory (elements); S_NONE if none
#pragma unroll
    for (uint k = 0; k < S_LOADS; ++k) {
        uint v = lid + k * E_GROUP, at, count;
        const __global ELEM *from;
        loaded_at[k] = S_NONE;
        if (v >= vectors)
            continue;
        if (modes & 1) {
            uint first = v * RV, span = row_limit * (uint)cols;
            if (first >= span)
                continue;
            from = a + a_offset + row0 * cols + first;
            // Element p of the span at p + (p / (RV * cols)) words: the rows
            // RV apart that a vector of B gathers fall in distinct banks.
            at = first + first / (RV * (uint)cols) * R_WORD;
            count = min((uint)RV, span - first);
        } else {
            uint per_row = (1u << tile_cols_log2) / RV, r = v / per_row, c = (v - r * per_row) * RV;
            if (r >= row_limit || c >= col_limit)
                continue;
            from = a + a_offset + (row0 + r) * lda + col0 + c;
            at = S_ROW_AT(r) + c;
            count = min((uint)RV, col_limit - c);
        }
        if (count == RV) {
            loaded[k] = LOAD16(from);
            loaded_at[k] = at;
        } else {
            for (uint q = 0; q < count; ++q)
                elements[at + q] = from[q];
        }
    }
#pragma unroll
    for (uint k = 0; k < S_LOADS; ++k)
        if (loaded_at[k] != S_NONE)
            put_words(tile + loaded_at[k] * ELEMENT_BYTES / 4, loaded[k]);
    barrier(CLK_LOCAL_MEM_FENCE);

    // The tile into B, whose rows are the tile's columns: the same two modes.
    for (uint v = lid; v < vectors; v += E_GROUP) {
        uint r, c, count; // the vector's first element (row and column of the tile) and size
        __global ELEM *to;
        if (modes & 2) {
            uint first = v * RV, span = col_limit * (uint)rows;
            if (first >= span)
                continue;
            c = first / (uint)rows;
            r = first - c * (uint)rows;
            count = min((uint)RV, span - first);
            to = b + b_offset + col0 * rows + first;
        } else {
            uint per_row = (1u << tile_rows_log2) / RV;
            c = v / per_row;
            r = (v - c * per_row) * RV;
            if (r >= row_limit || c >= col_limit)
                continue;
            count = min((uint)RV, row_limit - r);
            to = b + b_offset + (col0 + c) * ldb + row0 + r;
        }
#if ELEMENT_BYTES == 1 && defined(__ENDIAN_LITTLE__)
        // Bytes into a span from rows of 8, 4 or 2: a whole vector is 16 /
        // rows columns of the tile.
        if (count == RV && modes == 2 && (rows == 8 || rows == 4 || rows == 2)) {
            __local const uchar *at = (__local const uchar *)elements + c;
            STORE16(to, rows == 8   ? columns_of_8_rows(at, pitch)
                        : rows == 4 ? columns_of_4_rows(at, pitch)
                                    : columns_of_2_rows(at, pitch));
            continue;
        }
#endif
        // A whole vector gathers without the general walk's wrap test: in
        // rows mode it stays in one column, from a row that is a multiple of
        // RV, so its places are `pitch` apart; in span mode (rows never a
        // multiple of RV there), where rows is a power of two that divides
        // RV, it covers whole columns from row 0.
        ELEM g[RV];
        if (count == RV && !(modes & 2)) {
            uint at = S_ROW_AT(r) + c;
#pragma unroll
            for (uint q = 0; q < RV; ++q)
                g[q] = elements[at + q * pitch];
        } else if (count == RV && RV % (uint)rows == 0) {
            uint row_mask = (uint)rows - 1, rows_log2 = 31 - clz((uint)rows);
#pragma unroll
            for (uint q = 0; q < RV; ++q)
                g[q] = elements[(q & row_mask) * pitch + c + (q >> rows_log2)];
        } else {
            for (uint q = 0; q < RV; ++q) {
                g[q] = q < count ? elements[S_ROW_AT(r) + c] : (ELEM)(0);
                if (++r == ((modes & 2) ? (uint)rows : 0xffffffffu)) {
                    r = 0;
                    ++c;
                }
            }
        }
        if (count == RV) {
            STORE16(to, r_words(g));
        } else {
            for (uint q = 0; q < count; ++q)
                to[q] = g[q];
        }
    }
}
#undef S_ROW_AT
#undef S_AREA_LOG2
#undef S_LOADS
#undef S_NONE
#endif

// GPU methods, narrow matrices whose rows are off the vectors: one side's
// rows short (A's or B's lines of at most TRANSPOSE_NARROW_LINE_BYTES), the
// other's long. A tile holds `1 << tile_log2` of the short rows whole and
// the matching run of each long row. In the first two kernels the short
// side's span (from the tile's first short row to its last, gaps between
// rows included) lies in local memory as it lies in global memory, with a
// word (8-byte elements: an element) more every RV rows, so that
// work-items on consecutive slots of a long row, RV short rows apart, meet
// distinct banks. Both sides move in aligned 16-byte vectors (slots), so
// each tile reads and writes whole lines of memory however the rows fall.
// Three kernels, each with its own registers:
//   transpose_narrow_a (A's rows short): A's span is copied in slot by
//     slot, and each row of B gathered from it. As in the realigned kernel,
//     the tile writes the slots of each row of B that start within its run,
//     reading the RV - 1 rows of A past it, so that only the slots at the
//     two ends of B's rows are partly its own.
//   transpose_narrow_b (B's rows short and packed, elements of 1 to 4
//     bytes): the slots covering each row of A's run are scattered into
//     B's span, which is then written slot by slot.
//   transpose_narrow_gathered (B's rows short with gaps between them, of
//     1- and 2-byte elements, or packed of 8-byte ones): A's runs are copied
//     in row by row, and B gathered from them (see there).
// Slots that are partly the tile's are written in the largest aligned
// pieces wholly its own (store_masked); the neighbouring tiles write the
// rest. Slots of A that reach past its first or last element (a_end) are
// read element by element. Tiles hold about 16 KiB of the short rows
// (src/ops/transpose's TRANSPOSE_NARROW_AREA_BYTES), lines of at most 128
// bytes: at most 1145 slots of A (N_LOADS a work-item) and 22 KiB of local
// memory with the padding (TRANSPOSE_NARROW_LOCAL_BYTES).
#define N_LOCAL_WORDS (22528 / 4)
#define N_LOADS 5

// The elements of g whose bits are set in `valid` to the 16-byte slot at
// `to`, in the largest aligned pieces that hold only such elements. The
// union follows memory order on any endianness.
static inline void store_masked(__global ELEM *to, const ELEM *g, uint valid)
{
    union {
        ELEM e[RV];
        uchar b[16];
        ushort h[8];
        uint w[4];
        ulong d[2];
    } u;
    uint bytes = 0;
#pragma unroll
    for (uint q = 0; q < RV; ++q) {
        u.e[q] = g[q];
        if (valid >> q & 1)
            bytes |= ((1u << ELEMENT_BYTES) - 1) << (q * ELEMENT_BYTES);
    }
    __global uchar *p = (__global uchar *)to;
#pragma unroll
    for (uint d = 0; d < 2; ++d) {
        if ((bytes >> (8 * d) & 0xff) == 0xff) {
            *(__global ulong *)(p + 8 * d) = u.d[d];
            continue;
        }
#if ELEMENT_BYTES <= 4
#pragma unroll
        for (uint w = 2 * d; w < 2 * d + 2; ++w) {
            if ((bytes >> (4 * w) & 0xf) == 0xf) {
                *(__global uint *)(p + 4 * w) = u.w[w];
                continue;
            }
#if ELEMENT_BYTES <= 2
#pragma unroll
            for (uint h = 2 * w; h < 2 * w + 2; ++h) {
                if ((bytes >> (2 * h) & 3) == 3) {
                    *(__global ushort *)(p + 2 * h) = u.h[h];
                    continue;
                }
#if ELEMENT_BYTES == 1
#pragma unroll
                for (uint k = 2 * h; k < 2 * h + 2; ++k)
                    if (bytes >> k & 1)
                        p[k] = u.b[k];
#endif
            }
#endif
        }
#endif
    }
}

#define N_NONE 0xffffffffu // no whole slot
// Place d of the short side's span, from its first slot, in local
// memory: a word (an element) more every `period`, RV short rows.
#define N_SPAN_AT(d) ((d) + (d) / period * R_WORD)
// The place of element q of a slot whose element `lo` sits at span place d
// (an RV-row block and its `rest`), elements `step` lines apart.
#define N_STEP_AT(q, lo, step)                                                                      \
    (d + ((q) - (lo)) * (step) + (block + (rest + ((q) - (lo)) * (step) >= period)) * R_WORD)

// Both kernels' parameters, and the tile's local memory, its first short
// row (`start`) and the slots of A a work-item loads whole (`v`, and in
// `placed` where they go).
#define N_PARAMETERS                                                                                \
    ulong rows, ulong cols, const __global ELEM *restrict a, ulong a_offset, ulong lda,             \
        __global ELEM *restrict b, ulong b_offset, ulong ldb, uint tile_log2,                       \
        ulong a_end ALPHA_PARAMETER
#define N_TILE                                                                                      \
    __local uint tile[N_LOCAL_WORDS] __attribute__((aligned(16)));                                  \
    __local ELEM *elements = (__local ELEM *)tile;                                                  \
    const uint lid = (uint)get_local_id(0), tile_length = 1u << tile_log2;                          \
    const uint per_run = tile_length / RV + 1; /* slots covering a run of a long row */             \
    const ulong start = (ulong)get_group_id(0) << tile_log2;                                        \
    uint4 v[N_LOADS];                                                                               \
    uint placed[N_LOADS]

// B's rows short: the slots covering the tile's run of each row of A
// (`length` elements from `start`), slot s of row r for work-item slot i.
// Whole slots within A load into v[k], `placed[k] = to = WHOLE`; the others
// element by element, element q (at + q) by the statement PART.
#define N_LOAD_RUNS(WHOLE, PART)                                                                    \
    _Pragma("unroll") for (uint k = 0; k < N_LOADS; ++k)                                            \
    {                                                                                               \
        uint i = lid + k * E_GROUP, r = i / per_run, s = i - r * per_run;                           \
        placed[k] = N_NONE;                                                                         \
        if (r >= rows)                                                                              \
            continue;                                                                               \
        ulong run = a_offset + r * lda + start, at = run - run % RV + s * RV;                       \
        if (at >= run + length)                                                                     \
            continue;                                                                               \
        uint to = (WHOLE);                                                                          \
        if (at >= a_offset && at + RV <= a_end) {                                                   \
            v[k] = LOAD16(a + at);                                                                  \
            placed[k] = to;                                                                         \
        } else {                                                                                    \
            for (uint q = 0; q < RV; ++q)                                                           \
                if (at + q >= run && at + q < run + length)                                         \
                    PART;                                                                           \
        }                                                                                           \
    }

// Mode 0: A's rows short.
__kernel __attribute__((reqd_work_group_size(E_GROUP, 1, 1))) void
transpose_narrow_a(N_PARAMETERS)
{
    N_TILE; // placed: where a whole slot goes in local memory (elements); N_NONE if none
    // Rows of A from `start` to `start + held`: the tile's and the RV - 1
    // after them, within the matrix.
    const uint held = (uint)min((ulong)(tile_length + RV - 1), rows - start);
    const ulong first = a_offset + start * lda, last = first + (held - 1) * lda + cols;
    const ulong base = first - first % RV;
    const uint slots = (uint)((last - base + RV - 1) / RV), period = RV * (uint)lda;
#pragma unroll
    for (uint k = 0; k < N_LOADS; ++k) {
        uint s = lid + k * E_GROUP;
        placed[k] = N_NONE;
        if (s >= slots)
            continue;
        ulong at = base + s * RV;
        if (at >= a_offset && at + RV <= a_end) {
            v[k] = LOAD16(a + at);
            placed[k] = N_SPAN_AT(s * RV);
        } else {
            for (uint q = 0; q < RV; ++q)
                if (at + q >= first && at + q < last)
                    elements[N_SPAN_AT(s * RV + q)] = a[at + q];
        }
    }
#pragma unroll
    for (uint k = 0; k < N_LOADS; ++k)
        if (placed[k] != N_NONE)
            put_words(tile + placed[k] * ELEMENT_BYTES / 4, v[k]);
    barrier(CLK_LOCAL_MEM_FENCE);

    // Row j of B, slot s from the one holding the run's first element:
    // the tile's where it starts within the run, and the slot before it
    // in the first tile. Its element q is A's row start + r + q - lo, at
    // span place d + (q - lo) * lda.
    const uint off0 = (uint)(first - base), remaining = (uint)min(rows - start, (ulong)UINT_MAX);
    for (uint i = lid; i < (uint)cols * per_run; i += E_GROUP) {
        uint j = i / per_run, s = i - j * per_run;
        ulong run = b_offset + j * ldb + start, at = run - run % RV + s * RV;
        if (at < run ? start != 0 : at - run >= min(tile_length, remaining))
            continue;
        uint lo = at < run ? (uint)(run - at) : 0;
        uint r = (uint)(at + lo - run);
        uint hi = min((uint)RV, remaining - r + lo);
        uint d = off0 + r * (uint)lda + (uint)j;
        uint block = d / period, rest = d - block * period;
        ELEM g[RV];
        if (lo == 0 && hi == RV) {
#pragma unroll
            for (uint q = 0; q < RV; ++q)
                g[q] = SCALE_ONE(elements[N_STEP_AT(q, 0, (uint)lda)]);
            STORE16(b + at, r_words(g));
        } else {
            uint valid = 0;
#pragma unroll
            for (uint q = 0; q < RV; ++q) {
                g[q] = (ELEM)(0);
                if (q >= lo && q < hi) {
                    g[q] = SCALE_ONE(elements[N_STEP_AT(q, lo, (uint)lda)]);
                    valid |= 1u << q;
                }
            }
            store_masked(b + at, g, valid);
        }
    }
}

// Mode 1: B's rows short.
__kernel __attribute__((reqd_work_group_size(E_GROUP, 1, 1))) void
transpose_narrow_b(N_PARAMETERS)
{
    N_TILE; // placed: the index of a slot loaded whole; N_NONE if none
    // B's span from the tile's first row to its last, built in local
    // memory from the runs of A's rows.
    const uint length = (uint)min((ulong)tile_length, cols - start);
    const ulong first = b_offset + start * ldb, last = first + (length - 1) * ldb + rows;
    const ulong base = first - first % RV;
    const uint period = RV * (uint)ldb, off0 = (uint)(first - base);
    N_LOAD_RUNS(i, elements[N_SPAN_AT(off0 + (uint)(at + q - run) * (uint)ldb + r)] =
                       SCALE_ONE(a[at + q]));
    // Element q of a whole slot of A's row r, from the tile's first element
    // lo of it on: column r of B's rows c + q - lo (c that of element lo),
    // at span place d + (q - lo) * ldb.
#pragma unroll
    for (uint k = 0; k < N_LOADS; ++k) {
        if (placed[k] == N_NONE)
            continue;
        uint i = placed[k], r = i / per_run, s = i - r * per_run;
        ulong run = a_offset + r * lda + start, at = run - run % RV + s * RV;
        uint lo = at < run ? (uint)(run - at) : 0;
        uint hi = (uint)min((ulong)RV, run + length - at);
        uint d = off0 + (uint)(at + lo - run) * (uint)ldb + r;
        uint block = d / period, rest = d - block * period;
        ELEM e[RV]; // the slot's elements in memory order
        CAT(vstore, RV)(CAT(as_, CAT(ELEM, RV))(v[k]), 0, e);
        if (lo == 0 && hi == RV) {
#pragma unroll
            for (uint q = 0; q < RV; ++q)
                elements[N_STEP_AT(q, 0, (uint)ldb)] = SCALE_ONE(e[q]);
        } else {
#pragma unroll
            for (uint q = 0; q < RV; ++q)
                if (q >= lo && q < hi)
                    elements[N_STEP_AT(q, lo, (uint)ldb)] = SCALE_ONE(e[q]);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // The span into B in slots; an element is the tile's where it lies in
    // [first, last).
    const uint slots = (uint)((last - base + RV - 1) / RV);
    for (uint i = lid; i < slots; i += E_GROUP) {
        ulong at = base + i * RV;
        uint place = N_SPAN_AT(i * RV);
        if (at >= first && at + RV <= last) {
            __local const uint *from = tile + place * ELEMENT_BYTES / 4;
            STORE16(b + at, (uint4)(from[0], from[1], from[2], from[3]));
        } else {
            ELEM g[RV];
            uint valid = 0;
#pragma unroll
            for (uint q = 0; q < RV; ++q) {
                g[q] = (ELEM)(0);
                if (at + q >= first && at + q < last) {
                    g[q] = elements[place + q];
                    valid |= 1u << q;
                }
            }
            store_masked(b + at, g, valid);
        }
    }
}
// Mode 1, gathered: B's short rows with gaps between them (elements of 1
// or 2 bytes), or packed of 8-byte elements. The runs of A's rows lie in
// local memory row by row, an odd number of words apart (8-byte elements:
// an element more), and B's elements are gathered from them: packed B in
// 16-byte slots, gapped B an element a work-item, so that every store of a
// lockstep group carries only the tile's elements (B's slots or words would
// be written in pieces around each gap).
__kernel __attribute__((reqd_work_group_size(E_GROUP, 1, 1))) void
transpose_narrow_gathered(N_PARAMETERS)
{
    N_TILE; // placed: where a whole slot goes in local memory (elements); N_NONE if none
    const uint length = (uint)min((ulong)tile_length, cols - start);
    const uint pitch = per_run * RV + R_WORD;
    // A's row r's run starts (a_shift + r * lda_shift) % RV elements into
    // its first slot.
    const uint a_shift = (uint)((a_offset + start) % RV), lda_shift = (uint)(lda % RV);
    N_LOAD_RUNS(r * pitch + s * RV, elements[to + q] = a[at + q]);
#pragma unroll
    for (uint k = 0; k < N_LOADS; ++k)
        if (placed[k] != N_NONE)
            put_words(tile + placed[k] * ELEMENT_BYTES / 4, v[k]);
    barrier(CLK_LOCAL_MEM_FENCE);

    // B's rows from the tile's first to its last: element r of row c is
    // element c of A's row r's run.
#define G_AT(r, c) ((r) * pitch + ((a_shift + (r) * lda_shift) & (RV - 1)) + (c))
    const ulong first = b_offset + start * ldb;
    if (ldb == rows) {
        // Packed: the span in 16-byte slots, element q of the slot at `at`
        // the tile's where it lies in [first, last).
        const ulong last = first + length * ldb, base = first - first % RV;
        const uint slots = (uint)((last - base + RV - 1) / RV);
        for (uint i = lid; i < slots; i += E_GROUP) {
            ulong at = base + i * RV;
            uint lo = at < first ? (uint)(first - at) : 0;
            uint t = (uint)(at + lo - first), c = t / (uint)rows, r = t - c * (uint)rows;
            ELEM g[RV];
            uint valid = 0;
#pragma unroll
            for (uint q = 0; q < RV; ++q) {
                g[q] = (ELEM)(0);
                if (q >= lo && at + q < last) {
                    g[q] = SCALE_ONE(elements[G_AT(r, c)]);
                    valid |= 1u << q;
                    if (++r == (uint)rows) {
                        r = 0;
                        ++c;
                    }
                }
            }
            if (valid == (1u << RV) - 1)
                STORE16(b + at, r_words(g));
            else
                store_masked(b + at, g, valid);
        }
    } else {
        // Gaps between B's rows: an element a work-item, consecutive
        // work-items along B's rows (r, then c), stepped without division.
        const uint count = length * (uint)rows, dc = E_GROUP / (uint)rows;
        const uint dr = E_GROUP - dc * (uint)rows;
        uint c = lid / (uint)rows, r = lid - c * (uint)rows;
        for (uint i = lid; i < count; i += E_GROUP) {
            b[first + c * ldb + r] = SCALE_ONE(elements[G_AT(r, c)]);
            c += dc;
            r += dr;
            if (r >= (uint)rows) {
                r -= (uint)rows;
                ++c;
            }
        }
    }
#undef G_AT
}
#undef N_STEP_AT
#undef N_SPAN_AT
#undef N_NONE
#undef N_PARAMETERS
#undef N_TILE
#undef N_LOAD_RUNS
#undef N_LOCAL_WORDS
#undef N_LOADS
#endif

// GPU methods, misaligned rows of 1-byte elements: the same trip
// through local memory with 32-bit words on both global sides. A tile of
// WORDS_ROWS x WORDS_COLS elements: each row of A is read as the aligned
// words that cover it (one more than its width in words), each row of B
// written as aligned words where a word lies wholly inside the tile's run of
// that row and element by element at the run's two ends (the neighbouring
// tiles write the rest of those words). Words that reach past A's last
// element (a_end, counted from the buffer's start) are read element by
// element, so no access leaves the buffer. Elements travel through a union
// of the word and its elements, which follows memory order on any
// endianness.
#if ELEMENT_BYTES == 1 && METHOD != TRANSPOSE_CPU
#define WORD_P (4 / ELEMENT_BYTES)
#define WORDS_ROWS (32 * WORD_P)
#define WORDS_COLS 64
#define WORDS_A (WORDS_COLS / WORD_P + 1) // words covering a row of the tile
#define WORDS_B (WORDS_ROWS / WORD_P + 1) // words covering a run of B

typedef union {
    uint word;
    ELEM e[WORD_P];
} word_elements;

__kernel __attribute__((reqd_work_group_size(E_GROUP, 1, 1))) void
transpose_by_words(ulong rows, ulong cols, const __global ELEM *restrict a, ulong a_offset, ulong lda,
                __global ELEM *restrict b, ulong b_offset, ulong ldb, uint tiles_x, ulong a_end)
{
    __local ELEM tile[WORDS_ROWS * (WORDS_COLS + 1)];
    uint group = (uint)get_group_id(0), gy = group / tiles_x, gx = group - gy * tiles_x;
    ulong row0 = (ulong)gy * WORDS_ROWS, col0 = (ulong)gx * WORDS_COLS;
    uint lid = (uint)get_local_id(0);
    long col_limit = (long)min((ulong)WORDS_COLS, cols - col0);
    long row_limit = (long)min((ulong)WORDS_ROWS, rows - row0);
    for (uint i = lid; i < WORDS_ROWS * WORDS_A; i += E_GROUP) {
        uint r = i / WORDS_A, k = i - r * WORDS_A;
        if ((long)r >= row_limit)
            continue;
        ulong start = a_offset + (row0 + r) * lda + col0;
        long first = (long)(k * WORD_P) - (long)(start % WORD_P);
        if (first + WORD_P <= 0 || first >= col_limit)
            continue;
        ulong word_at = start - start % WORD_P + (ulong)k * WORD_P;
        int in_buffer = word_at + WORD_P <= a_end;
        word_elements u = {0};
        if (in_buffer)
            u.word = ((const __global uint *)a)[word_at / WORD_P];
        for (uint q = 0; q < WORD_P; ++q) {
            long e = first + q;
            if (e >= 0 && e < col_limit)
                tile[r * (WORDS_COLS + 1) + e] = in_buffer ? u.e[q] : a[start + e];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < WORDS_COLS * WORDS_B; i += E_GROUP) {
        uint c = i / WORDS_B, k = i - c * WORDS_B;
        if ((long)c >= col_limit)
            continue;
        ulong start = b_offset + (col0 + c) * ldb + row0;
        long first = (long)(k * WORD_P) - (long)(start % WORD_P);
        if (first + WORD_P <= 0 || first >= row_limit)
            continue;
        word_elements u;
        for (uint q = 0; q < WORD_P; ++q) {
            long e = first + q;
            u.e[q] = e >= 0 && e < row_limit ? tile[e * (WORDS_COLS + 1) + c] : (ELEM)(0);
        }
        if (first >= 0 && first + WORD_P <= row_limit) {
            ((__global uint *)b)[(start - start % WORD_P) / WORD_P + k] = u.word;
        } else {
            for (uint q = 0; q < WORD_P; ++q) {
                long e = first + q;
                if (e >= 0 && e < row_limit)
                    b[start + e] = u.e[q];
            }
        }
    }
}
#endif

// A matrix of one row or one column is a vector, and its transpose a copy of
// `count` elements: transpose_copy where both sides are contiguous (vectors
// through pointers when `aligned`, the host having checked VEC-element
// alignment of both offsets, else vloadn/vstoren; the last count % VEC
// elements one by one), transpose_copy_strided where one side has a stride
// (an element per step). Work-items take COPY_STEPS items COPY_STEPS apart
// within their group's run, so a GPU's accesses coalesce and a CPU's
// work-group loop vectorizes; the host sizes the range.
#define COPY_STEPS 4

// The copy's whole vectors: COPY_STEPS per work-item, all loaded first.
static inline __attribute__((always_inline)) void
copy_vectors(const __global ELEM *a, __global ELEM *b, ulong first, ulong size, ulong vectors,
             const int mode ALPHA_PARAMETER)
{
    ELEMV v[COPY_STEPS];
#pragma unroll
    for (uint k = 0; k < COPY_STEPS; ++k)
        if (first + k * size < vectors)
            v[k] = LOAD(mode, a + (first + k * size) * VEC);
#pragma unroll
    for (uint k = 0; k < COPY_STEPS; ++k)
        if (first + k * size < vectors)
            STORE(mode, b + (first + k * size) * VEC, SCALE(v[k]));
}

__kernel void transpose_copy(ulong count, const __global ELEM *restrict a, ulong a_offset,
                             __global ELEM *restrict b, ulong b_offset, uint aligned ALPHA_PARAMETER)
{
    a += a_offset;
    b += b_offset;
    ulong size = get_local_size(0), vectors = count / VEC;
    ulong first = (ulong)get_group_id(0) * size * COPY_STEPS + get_local_id(0);
    if (aligned)
        copy_vectors(a, b, first, size, vectors, ALIGNED ALPHA_ARGUMENT);
    else
        copy_vectors(a, b, first, size, vectors, UNALIGNED ALPHA_ARGUMENT);
    ulong tail = vectors * VEC + get_global_id(0);
    if (tail < count)
        b[tail] = SCALE_ONE(a[tail]);
}

__kernel void transpose_copy_strided(ulong count, const __global ELEM *restrict a, ulong a_offset,
                                     ulong a_stride, __global ELEM *restrict b, ulong b_offset,
                                     ulong b_stride ALPHA_PARAMETER)
{
    a += a_offset;
    b += b_offset;
    ulong size = get_local_size(0);
    ulong first = (ulong)get_group_id(0) * size * COPY_STEPS + get_local_id(0);
    ELEM v[COPY_STEPS];
#pragma unroll
    for (uint k = 0; k < COPY_STEPS; ++k)
        if (first + k * size < count)
            v[k] = a[(first + k * size) * a_stride];
#pragma unroll
    for (uint k = 0; k < COPY_STEPS; ++k)
        if (first + k * size < count)
            b[(first + k * size) * b_stride] = SCALE_ONE(v[k]);
}

#if METHOD == TRANSPOSE_CPU
// The CPU method's copy with a stride: a work-group of one work-item per run
// of `run` elements, so that an element costs its load and its store rather
// than a share of the work-group loop's index arithmetic. Blocks of 8 loads
// before their 8 stores (16 scalars held at once spilled to the stack); one
// side's stride is 1, passed as a constant, so that its accesses vectorize.
#define COPY_BLOCK 8

static inline __attribute__((always_inline)) void
copy_run(const __global ELEM *a, ulong a_stride, __global ELEM *b, ulong b_stride, ulong first,
         ulong end ALPHA_PARAMETER)
{
    ulong i = first;
    for (; i + COPY_BLOCK <= end; i += COPY_BLOCK) {
        ELEM v[COPY_BLOCK];
#pragma unroll
        for (uint q = 0; q < COPY_BLOCK; ++q)
            v[q] = a[(i + q) * a_stride];
#pragma unroll
        for (uint q = 0; q < COPY_BLOCK; ++q)
            b[(i + q) * b_stride] = SCALE_ONE(v[q]);
    }
    for (; i < end; ++i)
        b[i * b_stride] = SCALE_ONE(a[i * a_stride]);
}

// x86 CPUs with AVX-512 move a small stride's elements a 64-byte window at a
// time (cl/x86_windows.cl): the lanes between the strided elements stay
// untouched in memory, as B's elements between them are not the call's to
// write. One store per element, as copy_run moves them, bounded the copy at
// about one and a half elements a cycle.
#include "x86_windows.cl"
#if WINDOW_COPY
// Strides that put at least WINDOW_MIN_ELEMENTS elements in a window (bytes
// cost two permutations and a widening a window: fewer lost to the element
// loop on Intel's Xeon).
#if ELEMENT_BYTES == 1
#define WINDOW_MIN_ELEMENTS 8
#else
#define WINDOW_MIN_ELEMENTS 4
#endif
#define WINDOW_MAX_STRIDE ((WINDOW_LANES - 1) / (WINDOW_MIN_ELEMENTS - 1))
#if SCALED && ELEMENT_BYTES == 4
#define SCALE_WINDOW(v) as_int16(SCALE_ONE(as_float16(v)))
#elif SCALED
#define SCALE_WINDOW(v) as_long8(SCALE_ONE(as_double8(v)))
#else
#define SCALE_WINDOW(v) (v)
#endif

// Moves the run's elements from i, `per` a window, between a contiguous side
// and one `stride` apart (`scatter`: B strided) while a window's worth remain
// before `end`; returns the first element not moved.
static inline __attribute__((always_inline)) ulong
window_copy(const __global ELEM *a, __global ELEM *b, uint stride, ulong i, ulong end,
            int scatter ALPHA_PARAMETER)
{
    uint per = (WINDOW_LANES - 1) / stride + 1;
    window_mask spread = 0, head = 0;
    for (uint j = 0; j < WINDOW_LANES; ++j) {
        if (j % stride == 0)
            spread |= (window_mask)1 << j;
        if (j < per)
            head |= (window_mask)1 << j;
    }
    union {
        window_index v;
        index_element e[INDEX_LANES];
    } index;
    for (uint j = 0; j < INDEX_LANES; ++j)
        index.e[j] = (index_element)window_index_lane(j, stride, per, scatter);
    if (scatter)
        for (; i + per <= end; i += per)
            WINDOW_STORE(b + i * stride, SCALE_WINDOW(window_place(WINDOW_LOAD(a + i, head), index.v)),
                         spread);
    else
        for (; i + per <= end; i += per)
            WINDOW_STORE(b + i, SCALE_WINDOW(window_pick(WINDOW_LOAD(a + i * stride, spread), index.v)),
                         head);
    return i;
}
#endif

__kernel void transpose_copy_runs(ulong count, const __global ELEM *restrict a, ulong a_offset,
                                  ulong a_stride, __global ELEM *restrict b, ulong b_offset,
                                  ulong b_stride, ulong run ALPHA_PARAMETER)
{
    a += a_offset;
    b += b_offset;
    ulong first = (ulong)get_global_id(0) * run, end = min(count, first + run);
    // One row (A contiguous) or one column (B contiguous): one stride is 1.
#if WINDOW_COPY
    ulong stride = max(a_stride, b_stride);
    if (stride <= WINDOW_MAX_STRIDE)
        first = window_copy(a, b, (uint)stride, first, end, a_stride == 1 ALPHA_ARGUMENT);
#endif
    if (a_stride == 1)
        copy_run(a, 1, b, b_stride, first, end ALPHA_ARGUMENT);
    else
        copy_run(a, a_stride, b, 1, first, end ALPHA_ARGUMENT);
}

// The CPU method's contiguous copy: a work-item per run of `run` elements,
// COPY_BLOCK vectors loaded before they are stored (a work-group loop's
// items, each loading vectors a group's span apart, stalled where B lay a
// little past A modulo 4 KiB: x86 cores match loads against pending stores
// by the low 12 address bits), B's side aligned (the elements before its
// first vector boundary and after the last whole block through copy_run).
__kernel void transpose_copy_contiguous_runs(ulong count, const __global ELEM *restrict a,
                                             ulong a_offset, __global ELEM *restrict b,
                                             ulong b_offset, ulong run ALPHA_PARAMETER)
{
    a += a_offset;
    b += b_offset;
    ulong first = (ulong)get_global_id(0) * run, end = min(count, first + run);
    ulong misaligned = (size_t)(b + first) / sizeof(ELEM) % VEC;
    ulong blocks_from = min(end, first + (VEC - misaligned) % VEC);
    ulong blocks_end = blocks_from + (end - blocks_from) / (COPY_BLOCK * VEC) * (COPY_BLOCK * VEC);
    copy_run(a, 1, b, 1, first, blocks_from ALPHA_ARGUMENT);
    for (ulong i = blocks_from; i < blocks_end; i += COPY_BLOCK * VEC) {
        ELEMV v[COPY_BLOCK];
#pragma unroll
        for (uint q = 0; q < COPY_BLOCK; ++q)
            v[q] = VLOAD(a + i + q * VEC);
#pragma unroll
        for (uint q = 0; q < COPY_BLOCK; ++q)
            *(__global ELEMV *)(b + i + q * VEC) = SCALE(v[q]);
    }
    copy_run(a, 1, b, 1, blocks_end, end ALPHA_ARGUMENT);
}
#undef COPY_BLOCK
#endif
