// tailor_gemm's element types and error bound on the host, for its bench rows
// and tests: bytes and names of the types, elements stored and read as float,
// and the bound include/tailor.h states.
#ifndef TAILOR_GEMM_HOST_H
#define TAILOR_GEMM_HOST_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "half_float.h"
#include "tailor.h"

static inline size_t gemm_type_bytes(tailor_dtype type)
{
    return type == TAILOR_F16 || type == TAILOR_BF16 ? 2 : 4;
}

static inline const char *gemm_type_name(tailor_dtype type)
{
    return type == TAILOR_F32    ? "f32"
           : type == TAILOR_F16  ? "f16"
           : type == TAILOR_BF16 ? "bf16"
                                 : "3xtf32";
}

// Element i of an array of `type` (3xTF32 operands are floats).
static inline void gemm_put(void *data, tailor_dtype type, size_t i, float v)
{
    if (gemm_type_bytes(type) == 4)
        ((float *)data)[i] = v;
    else
        ((uint16_t *)data)[i] = type == TAILOR_F16 ? half_from_float(v) : bf16_from_float(v);
}

static inline float gemm_get(const void *data, tailor_dtype type, size_t i)
{
    if (gemm_type_bytes(type) == 4)
        return ((const float *)data)[i];
    uint16_t h = ((const uint16_t *)data)[i];
    return type == TAILOR_F16 ? half_to_float(h) : bf16_to_float(h);
}

// The bound's factor of 2^-24 (|alpha| sum |a b| + |beta c|): f32
// accumulation, and 3xTF32's.
static inline double gemm_error_steps(tailor_dtype ab_type, size_t k)
{
    return ab_type == TAILOR_3XTF32 ? 3.0 * (double)(k + 16) : 2.0 * (double)(k + 2);
}

// The rounding to C's type, as a fraction of the result.
static inline double gemm_c_rounding(tailor_dtype c_type)
{
    return c_type == TAILOR_F16 ? ldexp(1, -11) : c_type == TAILOR_BF16 ? ldexp(1, -8) : 0;
}

#endif
