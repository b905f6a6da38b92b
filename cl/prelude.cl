// Device primitives shared by every kernel: the build options choose one
// branch per device (DEVICE, CUDA_SM, LOCKSTEP, USE_SUBGROUPS, HAS_FP64).
#ifndef TAILOR_PRELUDE_CL
#define TAILOR_PRELUDE_CL

#include "symbols.h"

#if !defined(DEVICE) || !defined(CUDA_SM) || !defined(LOCKSTEP) || !defined(HAS_FP64) || \
    !defined(USE_SUBGROUPS)
#error "the build options must define DEVICE, CUDA_SM, LOCKSTEP, HAS_FP64 and USE_SUBGROUPS"
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

#if HAS_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#if USE_SUBGROUPS && defined(cl_intel_subgroups)
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
#elif USE_SUBGROUPS && defined(cl_khr_subgroups)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#elif USE_SUBGROUPS
#error "USE_SUBGROUPS needs cl_intel_subgroups or cl_khr_subgroups"
#endif

// shuffle_down_uint(v, delta): the value of lane (lane + delta) of the 32-wide
// warp, or v itself past the last lane.
#if DEVICE == DEVICE_NVIDIA && CUDA_SM >= 70
// Independent thread scheduling (sm_70+) makes implicit warp lockstep unsafe:
// the exchange names its full member mask.
#define LOCKSTEP_SHUFFLE 1
static inline uint shuffle_down_uint(uint v, uint delta)
{
    uint r;
    __asm__ volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;"
                     : "=r"(r) : "r"(v), "r"(delta));
    return r;
}
#elif DEVICE == DEVICE_NVIDIA && CUDA_SM >= 30
#define LOCKSTEP_SHUFFLE 1
static inline uint shuffle_down_uint(uint v, uint delta)
{
    uint r;
    __asm__ volatile("shfl.down.b32 %0, %1, %2, 0x1f;" : "=r"(r) : "r"(v), "r"(delta));
    return r;
}
#else
// Below sm_30 and on AMD, lockstep groups exchange through volatile local memory.
#define LOCKSTEP_SHUFFLE 0
#endif

#if LOCKSTEP_SHUFFLE
static inline float shuffle_down_float(float v, uint delta)
{
    return as_float(shuffle_down_uint(as_uint(v), delta));
}
#if HAS_FP64
static inline double shuffle_down_double(double v, uint delta)
{
    uint2 halves = as_uint2(v);
    halves.x = shuffle_down_uint(halves.x, delta);
    halves.y = shuffle_down_uint(halves.y, delta);
    return as_double(halves);
}
#endif
#endif

// DEFINE_LOCKSTEP_REDUCE(NAME, T, COMBINE) defines
//     T NAME(T v, __local volatile T *lanes)
// which combines v over the LOCKSTEP lanes of the caller's lockstep group with
// COMBINE; lane 0 returns the result. `lanes` is LOCKSTEP elements of local
// memory private to the lockstep group (unused where lanes shuffle).
#if LOCKSTEP > 0 && LOCKSTEP_SHUFFLE
#define DEFINE_LOCKSTEP_REDUCE(NAME, T, COMBINE)                                       \
    static inline T NAME(T v, __local volatile T *lanes)                               \
    {                                                                                  \
        (void)lanes;                                                                   \
        for (uint offset = LOCKSTEP / 2; offset > 0; offset /= 2)                      \
            v = COMBINE(v, CAT(shuffle_down_, T)(v, offset));                          \
        return v;                                                                      \
    }
#elif LOCKSTEP > 0
#define DEFINE_LOCKSTEP_REDUCE(NAME, T, COMBINE)                                       \
    static inline T NAME(T v, __local volatile T *lanes)                               \
    {                                                                                  \
        uint lane = get_local_id(0) % LOCKSTEP;                                        \
        lanes[lane] = v;                                                               \
        for (uint offset = LOCKSTEP / 2; offset > 0; offset /= 2)                      \
            if (lane < offset)                                                         \
                lanes[lane] = v = COMBINE(v, lanes[lane + offset]);                    \
        return v;                                                                      \
    }
#endif

// DEFINE_GROUP_REDUCE(NAME, T, COMBINE, IDENTITY, SUBGROUP_REDUCE, GROUP_SIZE)
// defines
//     T NAME(T v, __local T *scratch)
// which combines v over a 1-D work-group of GROUP_SIZE work-items (a power of
// two); local id 0 returns the result. scratch holds GROUP_SIZE elements; the
// caller puts a barrier between two calls that share it. Sub-groups where the
// profile enables them, else lockstep groups, else a barrier tree.
#if USE_SUBGROUPS
#define DEFINE_GROUP_REDUCE(NAME, T, COMBINE, IDENTITY, SUBGROUP_REDUCE, GROUP_SIZE)   \
    static inline T NAME(T v, __local T *scratch)                                      \
    {                                                                                  \
        v = SUBGROUP_REDUCE(v);                                                        \
        if (get_sub_group_local_id() == 0)                                             \
            scratch[get_sub_group_id()] = v;                                           \
        barrier(CLK_LOCAL_MEM_FENCE);                                                  \
        v = IDENTITY;                                                                  \
        if (get_sub_group_id() == 0) {                                                 \
            for (uint i = get_sub_group_local_id(); i < get_num_sub_groups();          \
                 i += get_sub_group_size())                                            \
                v = COMBINE(v, scratch[i]);                                            \
            v = SUBGROUP_REDUCE(v);                                                    \
        }                                                                              \
        return v;                                                                      \
    }
#elif LOCKSTEP > 0
#define DEFINE_GROUP_REDUCE(NAME, T, COMBINE, IDENTITY, SUBGROUP_REDUCE, GROUP_SIZE)   \
    DEFINE_LOCKSTEP_REDUCE(CAT(NAME, _lockstep), T, COMBINE)                           \
    static inline T NAME(T v, __local T *scratch)                                      \
    {                                                                                  \
        uint lid = get_local_id(0);                                                    \
        v = CAT(NAME, _lockstep)(v, scratch + lid / LOCKSTEP * LOCKSTEP);              \
        if (GROUP_SIZE <= LOCKSTEP)                                                    \
            return v;                                                                  \
        barrier(CLK_LOCAL_MEM_FENCE);                                                  \
        if (lid % LOCKSTEP == 0)                                                       \
            scratch[lid / LOCKSTEP] = v;                                               \
        barrier(CLK_LOCAL_MEM_FENCE);                                                  \
        if (lid < LOCKSTEP) {                                                          \
            v = lid < GROUP_SIZE / LOCKSTEP ? scratch[lid] : IDENTITY;                 \
            v = CAT(NAME, _lockstep)(v, scratch);                                      \
        }                                                                              \
        return v;                                                                      \
    }
#else
#define DEFINE_GROUP_REDUCE(NAME, T, COMBINE, IDENTITY, SUBGROUP_REDUCE, GROUP_SIZE)   \
    static inline T NAME(T v, __local T *scratch)                                      \
    {                                                                                  \
        uint lid = get_local_id(0);                                                    \
        scratch[lid] = v;                                                              \
        barrier(CLK_LOCAL_MEM_FENCE);                                                  \
        for (uint width = GROUP_SIZE / 2; width > 0; width /= 2) {                     \
            if (lid < width)                                                           \
                scratch[lid] = COMBINE(scratch[lid], scratch[lid + width]);            \
            barrier(CLK_LOCAL_MEM_FENCE);                                              \
        }                                                                              \
        return scratch[0];                                                             \
    }
#endif

// DEFINE_SEGMENT_REDUCE(NAME, T, COMBINE, IDENTITY) defines
//     T NAME(T v, __local T *scratch, uint width)
// which combines v over each aligned segment of `width` consecutive
// work-items of a 1-D work-group (width a power of two dividing the group
// size, at most LOCKSTEP^2 where LOCKSTEP > 0, and a constant after inlining
// so the branches fold); the first work-item of each segment returns the
// segment's result. Every work-item of the group calls it (it may hold
// barriers); scratch holds a group's worth of elements, and the caller puts a
// barrier between two calls that share it. Segments within a lockstep group
// need no barrier: in a tree of full-width shuffles, lane i < offset only ever
// reads lanes of its own segment, so lane 0 of each segment is exact.
#if LOCKSTEP > 0 && LOCKSTEP_SHUFFLE
#define DEFINE_LOCKSTEP_SEGMENT_(NAME, T, COMBINE)                                     \
    static inline T NAME(T v, __local volatile T *lanes, uint width)                   \
    {                                                                                  \
        (void)lanes;                                                                   \
        for (uint offset = width / 2; offset > 0; offset /= 2)                         \
            v = COMBINE(v, CAT(shuffle_down_, T)(v, offset));                          \
        return v;                                                                      \
    }
#elif LOCKSTEP > 0
#define DEFINE_LOCKSTEP_SEGMENT_(NAME, T, COMBINE)                                     \
    static inline T NAME(T v, __local volatile T *lanes, uint width)                   \
    {                                                                                  \
        uint lane = get_local_id(0) % LOCKSTEP;                                        \
        lanes[lane] = v;                                                               \
        for (uint offset = width / 2; offset > 0; offset /= 2)                         \
            if ((lane & (width - 1)) < offset)                                         \
                lanes[lane] = v = COMBINE(v, lanes[lane + offset]);                    \
        return v;                                                                      \
    }
#endif

#if LOCKSTEP > 0
// Wider segments: each lockstep group reduces, then the first lockstep group
// of each segment combines the segment's partial results.
#define DEFINE_SEGMENT_REDUCE(NAME, T, COMBINE, IDENTITY)                              \
    DEFINE_LOCKSTEP_SEGMENT_(CAT(NAME, _lockstep), T, COMBINE)                         \
    static inline T NAME(T v, __local T *scratch, uint width)                          \
    {                                                                                  \
        uint lid = get_local_id(0);                                                    \
        __local volatile T *lanes = scratch + lid / LOCKSTEP * LOCKSTEP;               \
        if (width <= LOCKSTEP)                                                         \
            return CAT(NAME, _lockstep)(v, lanes, width);                              \
        v = CAT(NAME, _lockstep)(v, lanes, LOCKSTEP);                                  \
        barrier(CLK_LOCAL_MEM_FENCE);                                                  \
        if (lid % LOCKSTEP == 0)                                                       \
            scratch[lid / LOCKSTEP] = v;                                               \
        barrier(CLK_LOCAL_MEM_FENCE);                                                  \
        uint lane = lid % LOCKSTEP, first = lid / width * (width / LOCKSTEP);          \
        T partial = lane < width / LOCKSTEP ? scratch[first + lane] : (IDENTITY);      \
        barrier(CLK_LOCAL_MEM_FENCE);                                                  \
        if ((lid & (width - 1)) < LOCKSTEP)                                            \
            v = CAT(NAME, _lockstep)(partial, lanes, LOCKSTEP);                        \
        return v;                                                                      \
    }
#else
#define DEFINE_SEGMENT_REDUCE(NAME, T, COMBINE, IDENTITY)                              \
    static inline T NAME(T v, __local T *scratch, uint width)                          \
    {                                                                                  \
        uint lid = get_local_id(0);                                                    \
        if (width == 1)                                                                \
            return v;                                                                  \
        scratch[lid] = v;                                                              \
        barrier(CLK_LOCAL_MEM_FENCE);                                                  \
        for (uint apart = width / 2; apart > 0; apart /= 2) {                          \
            if ((lid & (width - 1)) < apart)                                           \
                scratch[lid] = COMBINE(scratch[lid], scratch[lid + apart]);            \
            barrier(CLK_LOCAL_MEM_FENCE);                                              \
        }                                                                              \
        return scratch[lid];                                                           \
    }
#endif

// 16-bit floats are stored as ushort. f16 converts through vload_half and
// vstore_half_rte, which OpenCL C has without cl_khr_fp16; bf16 is the high
// half of a float.
static inline float bf16_to_float(ushort v)
{
    return as_float((uint)v << 16);
}

#define DEFINE_BF16_TO_FLOATN(N)                                                       \
    static inline CAT(float, N) CAT(bf16_to_float, N)(CAT(ushort, N) v)                \
    {                                                                                  \
        return CAT(as_float, N)(CAT(convert_uint, N)(v) << 16);                        \
    }
DEFINE_BF16_TO_FLOATN(2)
DEFINE_BF16_TO_FLOATN(4)
DEFINE_BF16_TO_FLOATN(8)
DEFINE_BF16_TO_FLOATN(16)

// N f16 elements as floats: aligned vector i from p (VLOADA_F16), or N
// elements from element N * i where p is only element-aligned (VLOAD_F16).
// NVIDIA's OpenCL loads vloada_halfN element by element; there the bits are
// loaded as one ushortN and converted in pairs by PTX.
#if DEVICE == DEVICE_NVIDIA
static inline float2 f16_pair_to_float2(uint pair)
{
    float low, high;
    __asm__("{ .reg .b16 l, h; mov.b32 {l, h}, %2; cvt.f32.f16 %0, l; cvt.f32.f16 %1, h; }"
            : "=f"(low), "=f"(high)
            : "r"(pair));
    return (float2)(low, high);
}

static inline float2 f16_bits_to_float2(ushort2 v)
{
    return f16_pair_to_float2(as_uint(v));
}

#define DEFINE_F16_BITS_TO_FLOATN(N, HALF)                                             \
    static inline CAT(float, N) CAT(f16_bits_to_float, N)(CAT(ushort, N) v)            \
    {                                                                                  \
        return (CAT(float, N))(CAT(f16_bits_to_float, HALF)(v.lo),                     \
                               CAT(f16_bits_to_float, HALF)(v.hi));                    \
    }
DEFINE_F16_BITS_TO_FLOATN(4, 2)
DEFINE_F16_BITS_TO_FLOATN(8, 4)
DEFINE_F16_BITS_TO_FLOATN(16, 8)

#define VLOADA_F16(N, i, p) CAT(f16_bits_to_float, N)(((const __global CAT(ushort, N) *)(p))[i])
#define VLOAD_F16(N, i, p) CAT(f16_bits_to_float, N)(CAT(vload, N)(i, (const __global ushort *)(p)))
#else
#define VLOADA_F16(N, i, p) CAT(vloada_half, N)(i, (const __global half *)(p))
#define VLOAD_F16(N, i, p) CAT(vload_half, N)(i, (const __global half *)(p))
#endif

// Round to nearest even; NaN stays a (quiet) NaN.
static inline ushort float_to_bf16(float v)
{
    uint u = as_uint(v);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (ushort)((u >> 16) | 0x40u);
    return (ushort)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

// Element i of an output whose type (DTYPE_F32, DTYPE_F16 or DTYPE_BF16) is
// a kernel argument: the branch is uniform, one per element.
static inline float load_real(__global const void *p, ulong i, uint type)
{
    if (type == DTYPE_F32)
        return ((__global const float *)p)[i];
    if (type == DTYPE_F16)
        return vload_half(i, (__global const half *)p);
    return bf16_to_float(((__global const ushort *)p)[i]);
}

// Rounded to nearest even: f16 overflows to infinity.
static inline void store_real(__global void *p, ulong i, uint type, float v)
{
    if (type == DTYPE_F32)
        ((__global float *)p)[i] = v;
    else if (type == DTYPE_F16)
        vstore_half_rte(v, i, (__global half *)p);
    else
        ((__global ushort *)p)[i] = float_to_bf16(v);
}

// device_fence(): orders the work-item's global memory accesses for every
// work-group of the launch, which the last group to finish needs around its
// ticket (one-pass GEMV and reductions: each group writes partial results,
// counts itself with an atomic, and the last one reads them all). OpenCL
// 1.2's mem_fence orders accesses only as the work-item's own group sees
// them (NVIDIA builds it as membar.cta), so a group's ticket could reach
// memory before its partials and the last group read stale ones. NVIDIA and
// AMD GPUs take a fence at device scope; CPUs keep mem_fence, a full fence
// there. Elsewhere the one-pass parameters keep their default, 0
// (DEVICE_FENCE_ONLY in src/runtime/registry.h): other GPUs run two passes.
#if DEVICE == DEVICE_NVIDIA
static inline void device_fence(void)
{
    __asm__ volatile("membar.gl;" ::: "memory");
}
#elif DEVICE == DEVICE_AMD && defined(__AMDGCN__)
static inline void device_fence(void)
{
    __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
}
#elif DEVICE != DEVICE_AMD
static inline void device_fence(void)
{
    mem_fence(CLK_GLOBAL_MEM_FENCE);
}
#endif

#endif
