// Masked 64-byte windows of ELEMENT_BYTES-byte elements on x86 CPUs with
// AVX-512: a masked load, a permutation and a masked store move the lanes
// their masks name and leave the others untouched in memory. OpenCL C has no
// masked access, so these are clang's x86 builtins, compiled where a clang
// targets such a CPU (POCL and kin); WINDOW_COPY says whether they are.
//
// Bytes need only AVX512BW: they travel one to a 16-bit lane through a
// two-source word permutation (vpermb is AVX512VBMI's, which POCL's
// skylake-avx512 target lacks).
#if defined(__clang__) && defined(__x86_64__) && defined(__AVX512F__) && ELEMENT_BYTES <= 8 &&           \
    (ELEMENT_BYTES >= 4 || defined(__AVX512BW__))
#define WINDOW_COPY 1
#define WINDOW_LANES (64 / ELEMENT_BYTES)
// The builtins' names for the lanes: qi, hi, si, di.
#if ELEMENT_BYTES == 1
#define LANE_NAME qi
typedef char window __attribute__((ext_vector_type(64)));
typedef ulong window_mask;
#elif ELEMENT_BYTES == 2
#define LANE_NAME hi
typedef short window __attribute__((ext_vector_type(32)));
typedef uint window_mask;
#elif ELEMENT_BYTES == 4
#define LANE_NAME si
typedef int16 window;
typedef ushort window_mask;
#else
#define LANE_NAME di
typedef long8 window;
typedef uchar window_mask;
#endif
// The builtins take private pointers; a CPU's address spaces are one.
#define FLAT(T, p) ((T)(ulong)(p))
#define WINDOW_LOAD(p, m)                                                                           \
    CAT(__builtin_ia32_loaddqu, CAT(LANE_NAME, 512_mask))(FLAT(const void *, p), (window)(0), m)
#define WINDOW_STORE(p, v, m) CAT(__builtin_ia32_storedqu, CAT(LANE_NAME, 512_mask))(FLAT(void *, p), v, m)

#if ELEMENT_BYTES == 1
typedef short index_element;
typedef short window_index __attribute__((ext_vector_type(32)));
typedef ushort window_words __attribute__((ext_vector_type(32)));
typedef uchar window_half __attribute__((ext_vector_type(32)));
typedef uchar window_bytes __attribute__((ext_vector_type(64)));
#define INDEX_LANES 32
#define HALF_LANES 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, \
                   24, 25, 26, 27, 28, 29, 30, 31
#define PERMUTE2(x, index, y)                                                                       \
    __builtin_astype(__builtin_ia32_vpermi2varhi512(__builtin_astype(x, window_index), index,         \
                                                    __builtin_astype(y, window_index)),               \
                     window_words)
// Scatter: the window's first 32 bytes widened to words and, shifted, into
// their upper bytes, from which the index picks each of B's words; gather:
// the window's even and odd bytes as words, from which the index picks the
// elements in order, narrowed back to bytes in the window's first half.
static inline window window_place(window v, window_index index)
{
    window_bytes bytes = __builtin_astype(v, window_bytes);
    window_words w = __builtin_convertvector(__builtin_shufflevector(bytes, bytes, HALF_LANES), window_words);
    return __builtin_astype(PERMUTE2(w, index, w << (ushort)8), window);
}
static inline window window_pick(window v, window_index index)
{
    window_words w = __builtin_astype(v, window_words);
    window_half h = __builtin_convertvector(PERMUTE2(w & (ushort)0xff, index, w >> (ushort)8), window_half);
    return __builtin_astype(__builtin_shufflevector(h, h, HALF_LANES, HALF_LANES), window);
}
#else
typedef window window_index;
#if ELEMENT_BYTES == 2
typedef short index_element;
#elif ELEMENT_BYTES == 4
typedef int index_element;
#else
typedef long index_element;
#endif
#define INDEX_LANES WINDOW_LANES
#define window_place(v, index) CAT(__builtin_ia32_permvar, CAT(LANE_NAME, 512))(v, index)
#define window_pick window_place
#endif

// Lane j of the index that puts a window's first `per` elements (scatter)
// at lanes `stride` apart, or takes them from there (gather). Lanes that
// move nothing take lane 0 (their masks leave them out).
static inline uint window_index_lane(uint j, uint stride, uint per, int scatter)
{
#if ELEMENT_BYTES == 1
    // Lane j is word j: bytes 2j and 2j + 1 (scatter), or element j.
    if (scatter)
        return 2 * j % stride == 0         ? 2 * j / stride
               : (2 * j + 1) % stride == 0 ? 32 + (2 * j + 1) / stride
                                           : 0;
    return j < per ? j * stride / 2 + (j * stride % 2) * 32 : 0;
#else
    return scatter ? (j % stride == 0 ? j / stride : 0) : j < per ? j * stride : 0;
#endif
}
#else
#define WINDOW_COPY 0
#endif
