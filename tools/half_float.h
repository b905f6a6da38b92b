// f16 (IEEE binary16) and bf16 values on the host, for the GEMM's bench rows
// and tests: float to either rounded to nearest even (NaN stays a quiet NaN,
// f16 overflow an infinity, subnormals rounded as such), and back exactly.
#ifndef TAILOR_HALF_FLOAT_H
#define TAILOR_HALF_FLOAT_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t half_from_float(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t a = x & 0x7fffffffu;
    if (a > 0x7f800000u)
        return sign | 0x7e00u;
    if (a >= 0x477ff000u) // 65520 and above round to infinity
        return sign | 0x7c00u;
    if (a < 0x38800000u) { // below 2^-14: a subnormal half, in units of 2^-24
        float magnitude;
        memcpy(&magnitude, &a, sizeof magnitude);
        return sign | (uint16_t)lrintf(magnitude * 16777216.0f);
    }
    uint32_t r = (a - 0x38000000u) >> 13, rest = a & 0x1fffu;
    r += rest > 0x1000u || (rest == 0x1000u && (r & 1u));
    return sign | (uint16_t)r;
}

static inline float half_to_float(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    float v = e == 0    ? ldexpf((float)m, -24)
              : e == 31 ? (m ? NAN : INFINITY)
                        : ldexpf((float)(m | 0x400), e - 25);
    return h & 0x8000u ? -v : v;
}

static inline uint16_t bf16_from_float(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u);
    return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

static inline float bf16_to_float(uint16_t b)
{
    uint32_t x = (uint32_t)b << 16;
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

#endif
