// What the matrix products (tailor_sgemm, tailor_gemm) share: how op(A),
// op(B) and C lie in memory for a layout and transposes, the checks BLAS
// makes of the enums and leading dimensions, and the column-major call as a
// row-major one. Column-major C = op(A) op(B) is row-major
// C^T = op(B)^T op(A)^T: the operands swap, m and n swap, each keeps its
// transpose flag.
#ifndef TAILOR_MATRIX_PRODUCT_H
#define TAILOR_MATRIX_PRODUCT_H

#include <stddef.h>

#include "checks.h"
#include "error.h"
#include "tailor.h"

// A stored matrix: `lines` lines (rows row-major, columns column-major) of `length`.
struct stored {
    size_t lines, length;
};

// op(A) is m x k, op(B) k x n, C m x n.
struct storage {
    struct stored a, b, c;
};

static inline struct storage storage_of(tailor_layout layout, tailor_trans trans_a,
                                        tailor_trans trans_b, size_t m, size_t n, size_t k)
{
    int row_major = layout == TAILOR_ROW_MAJOR;
    int a_as_is = (trans_a == TAILOR_NO_TRANS) == row_major;
    int b_as_is = (trans_b == TAILOR_NO_TRANS) == row_major;
    return (struct storage){{a_as_is ? m : k, a_as_is ? k : m},
                            {b_as_is ? k : n, b_as_is ? n : k},
                            {row_major ? m : n, row_major ? n : m}};
}

// Elements from a matrix's first to its last (0 if it is empty).
static inline size_t extent_of(struct stored s, size_t ld)
{
    return s.lines && s.length ? (s.lines - 1) * ld + s.length : 0;
}

static inline tailor_status check_product_enums(tailor_layout layout, tailor_trans trans_a,
                                                tailor_trans trans_b)
{
    REQUIRE(layout == TAILOR_ROW_MAJOR || layout == TAILOR_COLUMN_MAJOR, TAILOR_ERROR_UNKNOWN_LAYOUT,
            "%d is not a tailor_layout", (int)layout);
    REQUIRE(trans_a == TAILOR_NO_TRANS || trans_a == TAILOR_TRANS, TAILOR_ERROR_UNKNOWN_TRANSPOSE,
            "trans_a %d is not a tailor_trans", (int)trans_a);
    REQUIRE(trans_b == TAILOR_NO_TRANS || trans_b == TAILOR_TRANS, TAILOR_ERROR_UNKNOWN_TRANSPOSE,
            "trans_b %d is not a tailor_trans", (int)trans_b);
    return TAILOR_SUCCESS;
}

// Leading dimensions as BLAS checks them, before any quick return.
static inline tailor_status check_leading_dimensions(const struct storage *s, size_t lda,
                                                     size_t ldb, size_t ldc)
{
    REQUIRE(lda >= s->a.length && lda >= 1, TAILOR_ERROR_INVALID_LEADING_DIMENSION,
            "lda is %zu, less than the %zu elements of a stored line of a", lda, s->a.length);
    REQUIRE(ldb >= s->b.length && ldb >= 1, TAILOR_ERROR_INVALID_LEADING_DIMENSION,
            "ldb is %zu, less than the %zu elements of a stored line of b", ldb, s->b.length);
    REQUIRE(ldc >= s->c.length && ldc >= 1, TAILOR_ERROR_INVALID_LEADING_DIMENSION,
            "ldc is %zu, less than the %zu elements of a stored line of c", ldc, s->c.length);
    return TAILOR_SUCCESS;
}

// C's range (c_extent elements of c_bytes from c_offset) does not meet an
// input's in the same buffer.
static inline tailor_status check_product_overlap(cl_mem input, const char *name, size_t offset,
                                                  size_t extent, size_t bytes, cl_mem c,
                                                  size_t c_offset, size_t c_extent, size_t c_bytes)
{
    REQUIRE(input != c || !ranges_overlap(offset * bytes, extent * bytes, c_offset * c_bytes,
                                          c_extent * c_bytes),
            TAILOR_ERROR_BUFFERS_OVERLAP, "c overlaps %s in the same buffer", name);
    return TAILOR_SUCCESS;
}

// The call in row-major terms: its m and n, whether the kernels' A (the
// caller's B where the layout swaps them) is stored M-contiguous and their B
// K-contiguous, and whether the operands swap.
struct row_major_product {
    size_t m, n;
    int a_mn_contig, b_k_contig;
    int swap;
};

static inline struct row_major_product row_major_product(tailor_layout layout, tailor_trans trans_a,
                                                         tailor_trans trans_b, size_t m, size_t n)
{
    int row_major = layout == TAILOR_ROW_MAJOR;
    return (struct row_major_product){
        .m = row_major ? m : n,
        .n = row_major ? n : m,
        .a_mn_contig = (row_major ? trans_a : trans_b) == TAILOR_TRANS,
        .b_k_contig = (row_major ? trans_b : trans_a) == TAILOR_TRANS,
        .swap = !row_major,
    };
}

#endif
