// tailor_transpose, tailor_somatcopy and tailor_domatcopy against a
// plain C reference, bit for bit: every element size, every method (local
// tile, register tiles, CPU blocks, forced through the handle's tuning) under
// every profile the device can run, shapes of 1, primes and tiles +-1 so the
// aligned, edge and unaligned paths all run (the test checks that they did),
// offsets and leading dimensions larger than the rows, guard elements around
// B; alpha 0, 1 and others with NaN and infinities; wait lists; bad input.
//
// usage: test_transpose [--small] [--profile NAME] [--bad-input]
//   --small      a few small shapes and two methods (for oclgrind)
//   --bad-input  only the bad-input checks (also run without cl_khr_fp64)
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"

#define GUARD 9

static const size_t element_sizes[] = {1, 2, 4, 8, 16};
#define SIZE_COUNT (sizeof element_sizes / sizeof element_sizes[0])

enum path { PATH_ALIGNED, PATH_EDGE, PATH_UNALIGNED, PATH_COUNT };
static const char *const path_names[] = {"aligned", "edge", "unaligned"};

// The copy kernels of one-row and one-column matrices, by variant prefix:
// the vector kernels' aligned and unaligned copies (GPU methods), the CPU
// method's contiguous runs, and the strided copies of both.
enum copy_kernel { COPY_ALIGNED, COPY_UNALIGNED, COPY_CONTIGUOUS_RUNS, COPY_STRIDED };
static const char *const copy_names[] = {"copy/contiguous/", "copy/contiguous-unaligned",
                                         "copy/contiguous-runs/", "copy/strided"};
#define COPY_COUNT (sizeof copy_names / sizeof copy_names[0])

struct run {
    const struct test_device *device;
    tailor_context *handle;
    char label[256];
    int vector_bytes;                  // TRANSPOSE_VECTOR_BYTES of this run
    int seen[SIZE_COUNT][PATH_COUNT]; // paths the calls took
    int one_element_tiles[SIZE_COUNT]; // a local tile of 1 x 1: every shape is whole tiles
    int copies[SIZE_COUNT][COPY_COUNT]; // copy kernels the calls took (one row or column)
    int realigned[SIZE_COUNT];          // calls that took the realigned kernel
    int spans[SIZE_COUNT][2];           // calls that took the span kernel with A, B as a span
    int narrow[SIZE_COUNT][3];          // narrow kernels taken: A's rows short, B's packed, gathered
    int gpu_method[SIZE_COUNT];         // a GPU method, on buffers 16-byte aligned
    int cpu_method[SIZE_COUNT];         // the CPU method
    int peeled[SIZE_COUNT];             // calls that took the CPU method's peeled kernel
    int expect_realigned[SIZE_COUNT];   // ... whose TRANSPOSE_REALIGN bit is set, VEC > 1
};

struct layout {
    size_t rows, cols, a_offset, lda, b_offset, ldb;
};

static size_t extent(size_t lines, size_t length, size_t ld)
{
    return lines == 0 || length == 0 ? 0 : (lines - 1) * ld + length;
}

static void random_bytes(unsigned char *p, size_t n, unsigned long long *seed)
{
    for (size_t i = 0; i < n; ++i)
        p[i] = (unsigned char)(test_random(seed) >> 24);
}

// B[j][i] = A[i][j], element_bytes bytes each, on host copies of the buffers.
static void reference(const unsigned char *a, unsigned char *b, const struct layout *l, size_t e)
{
    for (size_t i = 0; i < l->rows; ++i)
        for (size_t j = 0; j < l->cols; ++j)
            memcpy(b + (l->b_offset + j * l->ldb + i) * e, a + (l->a_offset + i * l->lda + j) * e, e);
}

// The narrow kernels' tile along a side of `length` short rows of `e`-byte
// elements: `full` rows, halved while the tiles are fewer than the compute
// units, down to 16 bytes of rows.
static size_t narrow_tile(const struct run *run, size_t full, size_t length, size_t e)
{
    size_t tile = full;
    while ((length - 1) / tile + 1 < run->device->info.compute_units && tile * e > 16)
        tile /= 2;
    return tile;
}

static void record_path(struct run *run, size_t size_index)
{
    const char *variant = tailor_last_variant();
    if (strncmp(variant, "local-tile-1x1/", 15) == 0)
        run->one_element_tiles[size_index] = 1;
    if (strncmp(variant, "realigned-", 10) == 0)
        run->realigned[size_index] = 1;
    if (strstr(variant, "/peeled"))
        run->peeled[size_index] = 1;
    if (strncmp(variant, "narrow-", 7) == 0)
        run->narrow[size_index][variant[7] == 'a' ? 0 : variant[7] == 'b' ? 1 : 2] = 1;
    // spans-RxC/A-B, each side "rows" or "span".
    const char *modes = strncmp(variant, "spans-", 6) == 0 ? strchr(variant, '/') : NULL;
    if (modes) {
        run->spans[size_index][0] |= strncmp(modes, "/span-", 6) == 0;
        run->spans[size_index][1] |= strcmp(modes + strcspn(modes, "-"), "-span") == 0;
    }
    char padded[128];
    snprintf(padded, sizeof padded, "%s/", variant);
    for (size_t c = 0; c < COPY_COUNT; ++c)
        if (strncmp(padded, copy_names[c], strlen(copy_names[c])) == 0)
            run->copies[size_index][c] = 1;
    for (int p = 0; p < PATH_COUNT; ++p) {
        char part[32];
        snprintf(part, sizeof part, "/%s", path_names[p]);
        if (strstr(variant, part))
            run->seen[size_index][p] = 1;
    }
}

// First differing element of B, reported as (row of B, column of B) or as a
// guard element.
static void report_difference(const struct run *run, const char *what, const struct layout *l,
                              size_t e, const unsigned char *got, const unsigned char *expected,
                              size_t count)
{
    for (size_t k = 0; k < count; ++k) {
        if (memcmp(got + k * e, expected + k * e, e) == 0)
            continue;
        int inside = k >= l->b_offset && (k - l->b_offset) % l->ldb < l->rows &&
                     (k - l->b_offset) / l->ldb < l->cols;
        CHECK(0, "%s %s %zu-byte %zux%zu a_offset=%zu lda=%zu b_offset=%zu ldb=%zu (%s): element %zu "
                 "(%s B[%zu][%zu]) differs",
              run->label, what, e, l->rows, l->cols, l->a_offset, l->lda, l->b_offset, l->ldb,
              tailor_last_variant(), k, inside ? "inside," : "outside B, near",
              (k - (k >= l->b_offset ? l->b_offset : k)) / l->ldb,
              (k - (k >= l->b_offset ? l->b_offset : k)) % l->ldb);
        return;
    }
}

static void check_transpose(struct run *run, size_t size_index, const struct layout *l,
                            unsigned long long *seed)
{
    size_t e = element_sizes[size_index];
    // A's buffer ends at its last element, so that a read past it leaves
    // the buffer (oclgrind reports that).
    size_t a_count = l->a_offset + extent(l->rows, l->cols, l->lda);
    size_t b_count = l->b_offset + extent(l->cols, l->rows, l->ldb) + GUARD;
    unsigned char *a = malloc(a_count * e), *expected = malloc(b_count * e), *got = malloc(b_count * e);
    cl_mem a_buffer = NULL, b_buffer = NULL;
    if (!a || !expected || !got)
        goto done;
    random_bytes(a, a_count * e, seed);
    random_bytes(expected, b_count * e, seed);
    a_buffer = test_buffer(run->device, CL_MEM_READ_ONLY, a_count * e, a);
    b_buffer = test_buffer(run->device, CL_MEM_READ_WRITE, b_count * e, expected);
    if (!a_buffer || !b_buffer)
        goto done;
    reference(a, expected, l, e);
    cl_event event = NULL;
    tailor_status status = tailor_transpose(run->handle, run->device->queue, e, l->rows, l->cols,
                                                   a_buffer, l->a_offset, l->lda, b_buffer, l->b_offset,
                                                   l->ldb, 0, NULL, &event);
    CHECK(status == TAILOR_SUCCESS, "%s %zu-byte %zux%zu: %s: %s", run->label, e, l->rows, l->cols,
          tailor_status_name(status), tailor_last_error());
    if (status != TAILOR_SUCCESS)
        goto done;
    record_path(run, size_index);
    CHECK(event != NULL, "no event returned");
    if (event) {
        CHECK(clWaitForEvents(1, &event) == CL_SUCCESS, "waiting for the event failed");
        clReleaseEvent(event);
    }
    if (test_read(run->device, b_buffer, 0, b_count * e, got) == 0 && memcmp(got, expected, b_count * e))
        report_difference(run, "transpose", l, e, got, expected, b_count);
done:
    if (a_buffer)
        clReleaseMemObject(a_buffer);
    if (b_buffer)
        clReleaseMemObject(b_buffer);
    free(a);
    free(expected);
    free(got);
}

// Layouts of one shape: packed; offsets and leading dimensions that keep
// 16-element alignment; and misaligned ones. Shapes of 4096 elements or
// more add every row of B equally misaligned: ldb a multiple of 128 (the
// realigned kernel then moves its tiles so that their runs of B start on
// 128-byte lines), B's offset past a vector of every element size; and ldb
// 32 past a multiple of 128 (a multiple of a 32-byte sector, not of a line,
// for 1- and 2-byte elements: the realigned kernel's runs of B then start on
// one tile row, and it reads only the rows they need).
#define MAX_LAYOUTS 5
static size_t layouts_of(size_t rows, size_t cols, struct layout *out)
{
    out[0] = (struct layout){rows, cols, 0, cols ? cols : 1, 0, rows ? rows : 1};
    out[1] = (struct layout){rows, cols, 16, (cols + 15) / 16 * 16 + 16, 32, (rows + 15) / 16 * 16 + 32};
    out[2] = (struct layout){rows, cols, 3, cols + 5, 1, rows + 3};
    if (rows * cols < 4096)
        return 3;
    out[3] = (struct layout){rows, cols, 1, cols, 37, (rows + 127) / 128 * 128};
    out[4] = (struct layout){rows, cols, 5, cols + 3, 9, (rows + 127) / 128 * 128 + 32};
    return MAX_LAYOUTS;
}

static const size_t small_shapes[][2] = {
    {1, 1}, {1, 2}, {2, 1}, {7, 13}, {16, 16}, {33, 31}, {64, 64}, {65, 63}, {128, 128}, {127, 129},
    {8, 72}, {72, 8}, {2, 48},
};

static const size_t shapes[][2] = {
    {1, 1},     {1, 2},     {2, 1},     {1, 37},    {37, 1},    {1, 300},   {300, 1},   {3, 5},
    {7, 13},    {37, 53},   {8, 8},     {7, 9},     {16, 16},   {15, 17},   {17, 15},   {32, 32},
    {31, 33},   {33, 31},   {64, 64},   {63, 65},   {65, 63},   {128, 128}, {127, 129}, {129, 127},
    {256, 256}, {255, 257}, {257, 255}, {64, 512},  {512, 64},  {512, 512}, {511, 513}, {130, 250},
    {8, 520},   {520, 8},   {4, 1000},  {1000, 6},  {2, 608},   {1, 10000}, {10000, 1},
    {8, 1504},  {4, 2512},  {1200, 30}, {30, 1200}, {5000, 3},  {3, 5000},  {4099, 7},  {5, 2001},
    {1000, 4},  {600, 2},   {20, 300},  {300, 18},
};

static void check_shapes(struct run *run, int small, unsigned long long *seed)
{
    size_t count = small ? sizeof small_shapes / sizeof small_shapes[0] : sizeof shapes / sizeof shapes[0];
    for (size_t s = 0; s < SIZE_COUNT; ++s)
        for (size_t k = 0; k < count; ++k) {
            const size_t *shape = small ? small_shapes[k] : shapes[k];
            struct layout layouts[MAX_LAYOUTS];
            size_t n = layouts_of(shape[0], shape[1], layouts);
            for (size_t i = 0; i < n; ++i)
                check_transpose(run, s, &layouts[i], seed);
        }
    // Every element size took the aligned path, the edge path unless its
    // tile is one element, and the unaligned one where a vector holds several
    // elements (16-byte elements are vectors of one).
    for (size_t s = 0; s < SIZE_COUNT; ++s)
        for (int p = 0; p < PATH_COUNT; ++p)
            if ((p != PATH_EDGE || !run->one_element_tiles[s]) &&
                (p != PATH_UNALIGNED ||
                 (element_sizes[s] < 16 && (size_t)run->vector_bytes >= 2 * element_sizes[s])))
                CHECK(run->seen[s][p], "%s: no %zu-byte call took the %s path", run->label,
                      element_sizes[s], path_names[p]);
    // Misaligned rows took the realigned kernel where the method is a GPU
    // one and TRANSPOSE_REALIGN names the element size.
    for (size_t s = 0; s < SIZE_COUNT; ++s)
        if (run->expect_realigned[s])
            CHECK(run->realigned[s], "%s: no %zu-byte call took the realigned kernel", run->label,
                  element_sizes[s]);
    // A matrix narrower than the realigned kernel's tiles, but with rows of
    // A of 60 1- or 2-byte elements, misaligned, 65 apart (past the narrow
    // kernel's lines), took the realigned kernel.
    for (size_t s = 0; s < 2 && !small; ++s)
        if (run->expect_realigned[s]) {
            struct layout narrow[MAX_LAYOUTS];
            layouts_of(1200, 60, narrow);
            check_transpose(run, s, &narrow[2], seed);
            CHECK(strncmp(tailor_last_variant(), "realigned-", 10) == 0,
                  "%s: the narrow %zu-byte 1200x60 transpose took %s", run->label, element_sizes[s],
                  tailor_last_variant());
        }
    // Lines of 65 to 128 bytes: B's of bytes (packed and with gaps) and A's
    // of floats where the realigned kernel would not take the matrix took
    // the narrow kernels, tiles of 128 short rows (fewer where that leaves
    // compute units without a tile).
    for (size_t s = 0; s < 3 && !small; ++s)
        if (run->expect_realigned[s] && element_sizes[s] != 2) {
            size_t e = element_sizes[s];
            struct layout wide = e == 1 ? (struct layout){70, 301, 0, 301, 0, 70}
                                        : (struct layout){301, 4, 3, 17, 1, 304};
            size_t tile = narrow_tile(run, 128, e == 1 ? wide.cols : wide.rows, e);
            for (int gaps = 0; gaps < 1 + (e == 1); ++gaps) {
                wide.ldb += (size_t)gaps * 5;
                check_transpose(run, s, &wide, seed);
                char expected[32];
                snprintf(expected, sizeof expected, "narrow-%c%zu/", gaps ? 'g' : e == 1 ? 'b' : 'a', tile);
                CHECK(strncmp(tailor_last_variant(), expected, strlen(expected)) == 0,
                      "%s: the %zu-byte %zux%zu transpose (lda %zu, ldb %zu) took %s, not %s", run->label,
                      e, wide.rows, wide.cols, wide.lda, wide.ldb, tailor_last_variant(), expected);
            }
        }
    // A narrow matrix of one tile (1-byte 100 x 100, lines of 100 bytes: a
    // tile of 128 on either side) took tiles short enough to reach the
    // compute units, or of 16 rows.
    if (run->expect_realigned[0] && !small && run->device->info.compute_units > 1) {
        struct layout one_tile = {100, 100, 0, 100, 0, 100};
        check_transpose(run, 0, &one_tile, seed);
        const char *variant = tailor_last_variant();
        char expected[32];
        snprintf(expected, sizeof expected, "%zu/", narrow_tile(run, 128, 100, 1));
        CHECK(strncmp(variant, "narrow-", 7) == 0 && strncmp(variant + 8, expected, strlen(expected)) == 0,
              "%s: the 1-byte 100x100 transpose took %s, not tiles of %s", run->label, variant,
              expected);
    }
    // Narrow misaligned shapes whose A or B has lines of 64 bytes or less
    // took the narrow kernels: A's rows short; B's, packed (elements of up
    // to 4 bytes) and gathered (gaps between B's rows of 1- and 2-byte
    // elements, packed 8-byte ones).
    for (size_t s = 0; s + 1 < SIZE_COUNT && !small; ++s)
        if (run->expect_realigned[s])
            CHECK(run->narrow[s][0] && (run->narrow[s][1] || element_sizes[s] == 8) &&
                      (run->narrow[s][2] || element_sizes[s] == 4),
                  "%s: no %zu-byte call took the narrow kernel with A's (%d), B's (%d) rows short, "
                  "gathered (%d)",
                  run->label, element_sizes[s], run->narrow[s][0], run->narrow[s][1], run->narrow[s][2]);
    // Narrow packed shapes of 1-, 2- and 4-byte elements took the span
    // kernel with A and with B as a span on GPU methods.
    for (size_t s = 0; s < 3 && !small; ++s)
        if (run->gpu_method[s])
            CHECK(run->spans[s][0] && run->spans[s][1],
                  "%s: no %zu-byte call took the span kernel with A (%d) and B (%d) as a span",
                  run->label, element_sizes[s], run->spans[s][0], run->spans[s][1]);
    // One-row and one-column shapes, with and without strides and offsets,
    // took every copy kernel of their method (element sizes above a
    // vector's have no misaligned offsets).
    for (size_t s = 0; s < SIZE_COUNT; ++s)
        for (size_t c = 0; c < COPY_COUNT; ++c) {
            int expected = c == COPY_STRIDED || (c == COPY_CONTIGUOUS_RUNS) == run->cpu_method[s];
            if (c == COPY_UNALIGNED)
                expected &= element_sizes[s] < 16 && (size_t)run->vector_bytes >= 2 * element_sizes[s];
            if (expected)
                CHECK(run->copies[s][c], "%s: no %zu-byte call took the %s kernel", run->label,
                      element_sizes[s], copy_names[c]);
        }
}

// One row written to B, or one column read from A, with small strides (the
// CPU method's masked windows on x86 CPUs with AVX-512, the longest stride
// they take and the next for each element size): runs that end inside a
// window and in the element loop after it, offsets.
static void check_strided_copies(struct run *run, unsigned long long *seed)
{
    static const size_t lengths[] = {45, 9001};
    static const size_t strides[] = {2, 3, 5, 6, 9, 10, 11, 21, 22};
    for (size_t s = 0; s < SIZE_COUNT; ++s)
        for (size_t n = 0; n < sizeof lengths / sizeof lengths[0]; ++n)
            for (size_t k = 0; k < sizeof strides / sizeof strides[0]; ++k) {
                size_t length = lengths[n], stride = strides[k];
                struct layout row = {1, length, 1, length, 3, stride};
                struct layout column = {length, 1, 2, stride, 5, length};
                check_transpose(run, s, &row, seed);
                check_transpose(run, s, &column, seed);
            }
}

// Rows of A and B aligned to every vector width, offsets that are not: the
// CPU method moves the rows and columns before the first aligned elements
// apart from the rest (its peeled kernel) in matrices of two groups or more
// each way, else takes the unaligned kernel. Offsets of A alone, of B alone
// and of both; shapes inside one tile, across the blocks of 16 and 128.
static void check_peeled(struct run *run, unsigned long long *seed)
{
    static const size_t offsets[][2] = {{1, 0}, {0, 3}, {5, 11}, {15, 1}};
    static const size_t peeled_shapes[][2] = {{2, 3},     {3, 2},    {13, 17},  {17, 40},
                                              {40, 17},   {31, 33},  {150, 140}, {300, 20},
                                              {20, 300}, {260, 300}, {513, 270}};
    for (size_t s = 0; s < SIZE_COUNT; ++s)
        for (size_t k = 0; k < sizeof peeled_shapes / sizeof peeled_shapes[0]; ++k)
            for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; ++o) {
                size_t rows = peeled_shapes[k][0], cols = peeled_shapes[k][1];
                struct layout l = {rows, cols, offsets[o][0], (cols + 15) / 16 * 16 + 16 * o,
                                   offsets[o][1], (rows + 15) / 16 * 16 + 16 * (o + 1)};
                check_transpose(run, s, &l, seed);
            }
    for (size_t s = 1; s + 1 < SIZE_COUNT; ++s)
        if (run->cpu_method[s] && (size_t)run->vector_bytes >= 2 * element_sizes[s])
            CHECK(run->peeled[s], "%s: no %zu-byte call took the peeled kernel", run->label,
                  element_sizes[s]);
}

// B = alpha * A^T for float (single = 1) or double, values from [-4, 4) and
// specials: NaN, a signaling NaN, infinities, zeros of both signs, the largest
// finite value (which overflows when scaled).
static void check_scaled(struct run *run, int single, double alpha, const struct layout *l,
                         unsigned long long *seed)
{
    size_t e = single ? 4 : 8;
    size_t a_count = l->a_offset + extent(l->rows, l->cols, l->lda) + GUARD;
    size_t b_count = l->b_offset + extent(l->cols, l->rows, l->ldb) + GUARD;
    unsigned char *a = malloc(a_count * e), *b = malloc(b_count * e), *got = malloc(b_count * e);
    cl_mem a_buffer = NULL, b_buffer = NULL;
    if (!a || !b || !got)
        goto done;
    const uint32_t f_specials[] = {0x7fc00000u, 0x7f800001u, 0x7f800000u, 0xff800000u,
                                   0x80000000u, 0x00000000u, 0x7f7fffffu};
    const uint64_t d_specials[] = {0x7ff8000000000000ull, 0x7ff0000000000001ull, 0x7ff0000000000000ull,
                                   0xfff0000000000000ull, 0x8000000000000000ull, 0,
                                   0x7fefffffffffffffull};
    for (size_t k = 0; k < a_count; ++k) {
        double value = 8.0 * test_uniform(seed) - 4.0;
        size_t special = test_random(seed) % 16;
        if (single) {
            float f = (float)value;
            if (special < 7)
                memcpy(&f, &f_specials[special], 4);
            memcpy(a + 4 * k, &f, 4);
        } else {
            if (special < 7)
                memcpy(&value, &d_specials[special], 8);
            memcpy(a + 8 * k, &value, 8);
        }
    }
    random_bytes(b, b_count * e, seed);
    a_buffer = test_buffer(run->device, CL_MEM_READ_ONLY, a_count * e, a);
    b_buffer = test_buffer(run->device, CL_MEM_READ_WRITE, b_count * e, b);
    if (!a_buffer || !b_buffer)
        goto done;
    tailor_status status =
        single ? tailor_somatcopy(run->handle, run->device->queue, l->rows, l->cols, (float)alpha, a_buffer,
                                  l->a_offset, l->lda, b_buffer, l->b_offset, l->ldb, 0, NULL, NULL)
               : tailor_domatcopy(run->handle, run->device->queue, l->rows, l->cols, alpha, a_buffer,
                                  l->a_offset, l->lda, b_buffer, l->b_offset, l->ldb, 0, NULL, NULL);
    CHECK(status == TAILOR_SUCCESS, "%s %somatcopy alpha=%g: %s", run->label, single ? "s" : "d", alpha,
          tailor_last_error());
    if (status != TAILOR_SUCCESS || test_read(run->device, b_buffer, 0, b_count * e, got) != 0)
        goto done;
    // Expected: the bits for alpha = 1, +0.0 for alpha = 0, else the IEEE
    // product (any NaN matches a NaN: payloads of products may differ).
    for (size_t i = 0; i < l->rows; ++i)
        for (size_t j = 0; j < l->cols; ++j) {
            size_t from = l->a_offset + i * l->lda + j, to = l->b_offset + j * l->ldb + i;
            int same;
            if (single) {
                float x, y, z;
                memcpy(&x, a + 4 * from, 4);
                memcpy(&y, got + 4 * to, 4);
                volatile float product = (float)alpha * x;
                z = alpha == 1 ? x : alpha == 0 ? 0.0f : product;
                same = alpha != 1 && isnan(z) ? isnan(y) : memcmp(&y, &z, 4) == 0;
            } else {
                double x, y, z;
                memcpy(&x, a + 8 * from, 8);
                memcpy(&y, got + 8 * to, 8);
                volatile double product = alpha * x;
                z = alpha == 1 ? x : alpha == 0 ? 0.0 : product;
                same = alpha != 1 && isnan(z) ? isnan(y) : memcmp(&y, &z, 8) == 0;
            }
            memcpy(b + to * e, got + to * e, e); // so the guards compare below
            if (!same) {
                CHECK(0, "%s %somatcopy alpha=%g %zux%zu (%s): B[%zu][%zu] wrong", run->label,
                      single ? "s" : "d", alpha, l->rows, l->cols, tailor_last_variant(), j, i);
                goto done;
            }
        }
    CHECK(memcmp(b, got, b_count * e) == 0, "%s %somatcopy alpha=%g %zux%zu: wrote outside B", run->label,
          single ? "s" : "d", alpha, l->rows, l->cols);
done:
    if (a_buffer)
        clReleaseMemObject(a_buffer);
    if (b_buffer)
        clReleaseMemObject(b_buffer);
    free(a);
    free(b);
    free(got);
}

static void check_scaling(struct run *run, int small, unsigned long long *seed)
{
    static const double alphas[] = {1.0, 0.0, -2.5, 0.1};
    static const size_t scaled_shapes[][2] = {{1, 1},   {1, 300}, {300, 1}, {37, 53},
                                                   {64, 64}, {128, 96}, {300, 6}, {5, 201}};
    size_t shape_count = small ? 2 : sizeof scaled_shapes / sizeof scaled_shapes[0];
    for (int single = 1; single >= 0; --single) {
        if (!single && !run->device->info.has_fp64)
            continue;
        for (size_t s = 0; s < shape_count; ++s) {
            struct layout layouts[MAX_LAYOUTS];
            size_t n = layouts_of(scaled_shapes[s][0], scaled_shapes[s][1], layouts);
            for (size_t i = 0; i < n; ++i)
                for (size_t k = 0; k < sizeof alphas / sizeof alphas[0]; ++k)
                    check_scaled(run, single, alphas[k], &layouts[i], seed);
        }
        // A row written, a column read, two elements apart; a sub-matrix
        // of aligned rows at misaligned offsets (the CPU method's peeled
        // kernel).
        const struct layout others[] = {
            {1, 300, 1, 300, 3, 2}, {300, 1, 2, 2, 1, 300}, {260, 300, 5, 320, 11, 272}};
        for (size_t i = 0; i < 3 && !small; ++i)
            for (size_t k = 0; k < sizeof alphas / sizeof alphas[0]; ++k)
                check_scaled(run, single, alphas[k], &others[i], seed);
        size_t s = single ? 2 : 3;
        if (!small && run->cpu_method[s] && (size_t)run->vector_bytes >= 2 * element_sizes[s])
            CHECK(strstr(tailor_last_variant(), "/peeled/scaled") != NULL,
                  "%s: the scaled sub-matrix took %s", run->label, tailor_last_variant());
    }
}

// The returned event waits for the wait list: gated by a user event, the
// transpose must not complete before the gate opens; with nothing to do the
// event is a marker of the wait list.
static void check_wait_list(struct run *run, size_t rows, size_t cols)
{
    cl_int error;
    cl_event gate = clCreateUserEvent(run->device->context, &error);
    CHECK(error == CL_SUCCESS, "clCreateUserEvent failed");
    if (error != CL_SUCCESS)
        return;
    size_t n = rows * cols > 0 ? rows * cols : 1;
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    for (size_t i = 0; i < n; ++i) {
        a[i] = (float)i;
        b[i] = -1.0f;
    }
    cl_mem a_buffer = test_buffer(run->device, CL_MEM_READ_ONLY, n * sizeof *a, a);
    cl_mem b_buffer = test_buffer(run->device, CL_MEM_READ_WRITE, n * sizeof *b, b);
    cl_event done = NULL;
    CHECK_STATUS(tailor_transpose(run->handle, run->device->queue, 4, rows, cols, a_buffer, 0,
                                         cols ? cols : 1, b_buffer, 0, rows ? rows : 1, 1, &gate, &done),
                 TAILOR_SUCCESS);
    clFlush(run->device->queue);
    usleep(20000);
    cl_int state = CL_COMPLETE;
    if (done)
        clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL);
    CHECK(done && state != CL_COMPLETE, "%s %zux%zu: the transpose completed before its wait list",
          run->label, rows, cols);
    clSetUserEventStatus(gate, CL_COMPLETE);
    if (done) {
        CHECK(clWaitForEvents(1, &done) == CL_SUCCESS, "waiting failed");
        clReleaseEvent(done);
    }
    test_read(run->device, b_buffer, 0, n * sizeof *b, b);
    for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols; ++j)
            if (b[j * rows + i] != a[i * cols + j]) {
                CHECK(0, "%s %zux%zu: after the gate B[%zu][%zu] is %g", run->label, rows, cols, j, i,
                      b[j * rows + i]);
                i = rows;
                break;
            }
    if (rows == 0 || cols == 0)
        CHECK(b[0] == -1.0f, "%s: an empty transpose wrote B", run->label);
    clReleaseEvent(gate);
    clReleaseMemObject(a_buffer);
    clReleaseMemObject(b_buffer);
    free(a);
    free(b);
}

struct config {
    const char *tuning;
    int vector_bytes; // TRANSPOSE_VECTOR_BYTES it leaves (0: the profile's)
};

#define ALL_METHODS(m)                                                                              \
    "TRANSPOSE_METHOD_1=" m ",TRANSPOSE_METHOD_2=" m ",TRANSPOSE_METHOD_4=" m                       \
    ",TRANSPOSE_METHOD_8=" m ",TRANSPOSE_METHOD_16=" m

// Forcing a method keeps the profile's group and vector where they suit it:
// the local tile of 1-byte elements at NVIDIA's 16-wide group and 16-byte
// vectors would need 64 KiB (refused at handle creation), and a blocked
// CPU loop per work-item in a 16 x 8 group makes tiles larger than the
// shapes tried here (no aligned path). Local tiles take TRANSPOSE_LOCAL_STEPS
// at most the smallest tile's edge (16-byte elements, one a vector).
static const struct config configs[] = {
    {NULL, 0},
    {ALL_METHODS("0") ",TRANSPOSE_VECTOR_BYTES=8,TRANSPOSE_WG_X=8,TRANSPOSE_LOCAL_STEPS=2", 8},
    {ALL_METHODS("1"), 0},
    {ALL_METHODS("2") ",TRANSPOSE_WG_X=1,TRANSPOSE_WG_Y=1", 0},
    // Every vector-aligned CPU transpose through the streaming kernels.
    {ALL_METHODS("2") ",TRANSPOSE_WG_X=1,TRANSPOSE_WG_Y=1,TRANSPOSE_CPU_STREAM_BYTES=1", 0},
    // Other shapes of group and tile, the diagonal order, no padding.
    {ALL_METHODS("0") ",TRANSPOSE_WG_X=4,TRANSPOSE_BAND=0,TRANSPOSE_LOCAL_PAD=0,"
                      "TRANSPOSE_VECTOR_BYTES=8,TRANSPOSE_LOCAL_STEPS=2",
     8},
    {ALL_METHODS("1") ",TRANSPOSE_WG_X=2,TRANSPOSE_WG_Y=4,TRANSPOSE_BAND=0,TRANSPOSE_LOADS=32,"
                      "TRANSPOSE_VECTOR_BYTES=32",
     32},
    {ALL_METHODS("2") ",TRANSPOSE_WG_X=2,TRANSPOSE_WG_Y=1,TRANSPOSE_CPU_BLOCK=16,TRANSPOSE_VECTOR_BYTES=64",
     64},
    // GPU methods' misaligned rows without the realigned kernel.
    {ALL_METHODS("0") ",TRANSPOSE_REALIGN=0,TRANSPOSE_WG_X=8,TRANSPOSE_LOCAL_STEPS=2", 0},
    {ALL_METHODS("1") ",TRANSPOSE_REALIGN=0", 0},
    // Bands of tile rows that divide no grid evenly.
    {ALL_METHODS("0") ",TRANSPOSE_WG_X=4,TRANSPOSE_BAND=3,TRANSPOSE_VECTOR_BYTES=8,TRANSPOSE_LOCAL_STEPS=1",
     8},
    {ALL_METHODS("1") ",TRANSPOSE_WG_X=2,TRANSPOSE_WG_Y=2,TRANSPOSE_BAND=5", 0},
    // Local-tile groups of one row of work-items per four vectors.
    {ALL_METHODS("0") ",TRANSPOSE_WG_X=4,TRANSPOSE_LOCAL_STEPS=4,TRANSPOSE_VECTOR_BYTES=8", 8},
};

static const struct config small_configs[] = {
    {ALL_METHODS("0") ",TRANSPOSE_WG_X=8,TRANSPOSE_LOCAL_STEPS=2", 0},
    {ALL_METHODS("1"), 0},
};

static void run_config(const struct test_device *device, const char *profile, const struct config *config,
                       int small, unsigned long long *seed)
{
    struct run run;
    memset(&run, 0, sizeof run);
    run.device = device;
    run.handle = test_handle(device, profile, config->tuning);
    snprintf(run.label, sizeof run.label, "[%s %s]", profile, config->tuning ? config->tuning : "default");
    if (!run.handle)
        return;
    fprintf(stderr, "  %s\n", run.label);
    run.vector_bytes = config->vector_bytes;
    if (!run.vector_bytes) {
        tailor_origin origin;
        CHECK_STATUS(tailor_context_parameter(run.handle, "TRANSPOSE_VECTOR_BYTES", &run.vector_bytes,
                                              &origin),
                     TAILOR_SUCCESS);
    }
    int realign = 0;
    tailor_origin origin;
    CHECK_STATUS(tailor_context_parameter(run.handle, "TRANSPOSE_REALIGN", &realign, &origin),
                 TAILOR_SUCCESS);
    for (size_t s = 0; s < SIZE_COUNT; ++s) {
        char name[32];
        int method = 0;
        snprintf(name, sizeof name, "TRANSPOSE_METHOD_%zu", element_sizes[s]);
        CHECK_STATUS(tailor_context_parameter(run.handle, name, &method, &origin), TAILOR_SUCCESS);
        run.cpu_method[s] = method == 2;
        // The GPU methods' paths checked are of elements that vectors hold.
        run.gpu_method[s] = method != 2 && element_sizes[s] < 16 &&
                            device->info.mem_base_addr_align_bits >= 128;
        run.expect_realigned[s] = run.gpu_method[s] && (realign >> s & 1) &&
                                  (size_t)run.vector_bytes >= 2 * element_sizes[s];
    }
    check_shapes(&run, small, seed);
    if (!small) {
        check_strided_copies(&run, seed);
        check_peeled(&run, seed);
    }
    check_scaling(&run, small, seed);
    if (!small && !config->tuning) {
        check_wait_list(&run, 0, 5);
        check_wait_list(&run, 37, 53);
    }
    tailor_context_release(&run.handle);
}

// More than 2^31 one-byte elements (A 65537 x 32769), where the device can
// hold two such buffers: no index may overflow 32 bits. B[j][i] is checked
// against A's pattern without a second copy on the host.
static void run_large(const struct test_device *device)
{
    size_t rows = 65537, cols = 32769, n = rows * cols;
    if (device->info.max_alloc_bytes < n || device->info.global_mem_bytes < 3 * (cl_ulong)n) {
        fprintf(stderr, "  [large] skipped: the device cannot hold two %zu-byte buffers\n", n);
        return;
    }
    tailor_context *handle = test_handle(device, NULL, NULL);
    unsigned char *host = malloc(n);
    if (!handle || !host) {
        CHECK(host != NULL, "no host memory for the large check");
        goto done;
    }
    fprintf(stderr, "  [large] %zu x %zu bytes\n", rows, cols);
    for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols; ++j)
            host[i * cols + j] = (unsigned char)(i * 7 + j * 13 + (i >> 8) * 3 + (j >> 8) * 5);
    cl_mem a = test_buffer(device, CL_MEM_READ_ONLY, n, host);
    cl_mem b = test_buffer(device, CL_MEM_READ_WRITE, n, NULL);
    if (a && b) {
        CHECK_STATUS(tailor_transpose(handle, device->queue, 1, rows, cols, a, 0, cols, b, 0, rows, 0,
                                             NULL, NULL),
                     TAILOR_SUCCESS);
        if (test_read(device, b, 0, n, host) == 0) {
            size_t wrong = 0;
            for (size_t j = 0; j < cols; ++j)
                for (size_t i = 0; i < rows; ++i)
                    wrong += host[j * rows + i] !=
                             (unsigned char)(i * 7 + j * 13 + (i >> 8) * 3 + (j >> 8) * 5);
            CHECK(wrong == 0, "[large] %zu of %zu elements wrong (%s)", wrong, n, tailor_last_variant());
        }
    }
    if (a)
        clReleaseMemObject(a);
    if (b)
        clReleaseMemObject(b);
done:
    free(host);
    tailor_context_release(&handle);
}

// ---- bad input ----

#define EXPECT(call, status)                                                                        \
    do {                                                                                            \
        CHECK_STATUS(call, status);                                                                 \
        CHECK((status) == TAILOR_SUCCESS || *tailor_last_error(), "%s: no message", #call);         \
    } while (0)

struct fixture {
    const struct test_device *device;
    tailor_context *handle;
    cl_command_queue queue;
    cl_mem a, b; // 12 x 10 floats, 10 x 12
};

static tailor_status transpose_f(const struct fixture *f, size_t e, size_t rows, size_t cols, cl_mem a,
                                 size_t a_offset, size_t lda, cl_mem b, size_t b_offset, size_t ldb)
{
    return tailor_transpose(f->handle, f->queue, e, rows, cols, a, a_offset, lda, b, b_offset, ldb, 0,
                                   NULL, NULL);
}

static int transposed_correctly(const struct fixture *f, cl_mem b, size_t b_offset)
{
    float a_host[120], b_host[120];
    if (test_read(f->device, f->a, 0, sizeof a_host, a_host) || test_read(f->device, b, b_offset * 4,
                                                                           sizeof b_host, b_host))
        return 0;
    for (size_t i = 0; i < 12; ++i)
        for (size_t j = 0; j < 10; ++j)
            if (b_host[j * 12 + i] != a_host[i * 10 + j])
                return 0;
    return 1;
}

static void bad_arguments(const struct fixture *f)
{
    cl_command_queue q = f->queue;
    cl_mem a = f->a, b = f->b;
    EXPECT(tailor_transpose(NULL, q, 4, 12, 10, a, 0, 10, b, 0, 12, 0, NULL, NULL),
           TAILOR_ERROR_NULL_HANDLE);
    EXPECT(tailor_somatcopy(NULL, q, 12, 10, 2.0f, a, 0, 10, b, 0, 12, 0, NULL, NULL),
           TAILOR_ERROR_NULL_HANDLE);
    EXPECT(tailor_domatcopy(NULL, q, 12, 10, 2.0, a, 0, 10, b, 0, 12, 0, NULL, NULL),
           TAILOR_ERROR_NULL_HANDLE);
    static const size_t bad_sizes[] = {0, 3, 5, 6, 12, 32, SIZE_MAX};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; ++i)
        EXPECT(transpose_f(f, bad_sizes[i], 12, 10, a, 0, 10, b, 0, 12), TAILOR_ERROR_INVALID_ELEMENT_SIZE);
    EXPECT(tailor_transpose(f->handle, NULL, 4, 12, 10, a, 0, 10, b, 0, 12, 0, NULL, NULL),
           TAILOR_ERROR_INVALID_QUEUE);
    // Leading dimensions below the row, and 0 for an empty matrix.
    EXPECT(transpose_f(f, 4, 12, 10, a, 0, 9, b, 0, 12), TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    EXPECT(transpose_f(f, 4, 12, 10, a, 0, 10, b, 0, 11), TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    EXPECT(transpose_f(f, 4, 12, 0, a, 0, 0, b, 0, 12), TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    EXPECT(transpose_f(f, 4, 0, 10, a, 0, 10, b, 0, 0), TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    EXPECT(tailor_somatcopy(f->handle, q, 12, 10, 2.0f, a, 0, 10, b, 0, 11, 0, NULL, NULL),
           TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    // Buffers: NULL, the wrong access, too small, overflowing extents.
    EXPECT(transpose_f(f, 4, 12, 10, NULL, 0, 10, b, 0, 12), TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(transpose_f(f, 4, 12, 10, a, 0, 10, NULL, 0, 12), TAILOR_ERROR_INVALID_BUFFER);
    cl_mem read_only = test_buffer(f->device, CL_MEM_READ_ONLY, 480, NULL);
    cl_mem write_only = test_buffer(f->device, CL_MEM_WRITE_ONLY, 480, NULL);
    EXPECT(transpose_f(f, 4, 12, 10, a, 0, 10, read_only, 0, 12), TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(transpose_f(f, 4, 12, 10, write_only, 0, 10, b, 0, 12), TAILOR_ERROR_INVALID_BUFFER);
    clReleaseMemObject(read_only);
    clReleaseMemObject(write_only);
    EXPECT(transpose_f(f, 4, 13, 10, a, 0, 10, b, 0, 13), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(transpose_f(f, 4, 12, 10, a, 1, 10, b, 0, 12), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(transpose_f(f, 4, 12, 10, a, 0, 10, b, 1, 12), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(transpose_f(f, 4, 12, 10, a, 0, 11, b, 0, 12), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(transpose_f(f, 4, 12, 10, a, 0, 10, b, 0, 13), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(transpose_f(f, 8, 12, 10, a, 0, 10, b, 0, 12), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(transpose_f(f, 4, 12, 10, a, SIZE_MAX, 10, b, 0, 12), TAILOR_ERROR_SIZE_OVERFLOW);
    EXPECT(transpose_f(f, 4, 12, 10, a, 0, 10, b, SIZE_MAX - 5, 12), TAILOR_ERROR_SIZE_OVERFLOW);
    EXPECT(transpose_f(f, 4, 3, 10, a, 0, SIZE_MAX / 2, b, 0, 12), TAILOR_ERROR_SIZE_OVERFLOW);
    EXPECT(transpose_f(f, 16, 1, SIZE_MAX / 8, a, 0, SIZE_MAX / 8, b, 0, 1), TAILOR_ERROR_SIZE_OVERFLOW);
    EXPECT(transpose_f(f, 1, 2, 10, a, 0, SIZE_MAX, b, 0, 2), TAILOR_ERROR_SIZE_OVERFLOW);
    // Wait lists whose pointer and length disagree.
    cl_event none = NULL;
    EXPECT(tailor_transpose(f->handle, q, 4, 12, 10, a, 0, 10, b, 0, 12, 1, NULL, NULL),
           TAILOR_ERROR_INVALID_WAIT_LIST);
    EXPECT(tailor_transpose(f->handle, q, 4, 12, 10, a, 0, 10, b, 0, 12, 0, &none, NULL),
           TAILOR_ERROR_INVALID_WAIT_LIST);
    EXPECT(tailor_transpose(f->handle, q, 4, 12, 10, a, 0, 10, b, 0, 12, 1, &none, NULL),
           TAILOR_ERROR_INVALID_WAIT_LIST);
    // fp64.
    if (f->device->info.has_fp64) {
        EXPECT(tailor_domatcopy(f->handle, q, 6, 10, 2.0, a, 0, 10, b, 0, 6, 0, NULL, NULL), TAILOR_SUCCESS);
        EXPECT(tailor_domatcopy(f->handle, q, 12, 10, 2.0, a, 0, 10, b, 0, 12, 0, NULL, NULL),
               TAILOR_ERROR_BUFFER_TOO_SMALL);
    } else {
        EXPECT(tailor_domatcopy(f->handle, q, 6, 10, 2.0, a, 0, 10, b, 0, 6, 0, NULL, NULL),
               TAILOR_ERROR_UNSUPPORTED);
    }
}

static void overlapping_buffers(const struct fixture *f)
{
    cl_command_queue q = f->queue;
    float host[400];
    for (int i = 0; i < 400; ++i)
        host[i] = (float)i;
    cl_mem one = test_buffer(f->device, CL_MEM_READ_WRITE, sizeof host, host);
    if (!one)
        return;
    // One buffer: A at 0 (12 x 10), B right after it, or one element into it.
    EXPECT(transpose_f(f, 4, 12, 10, one, 0, 10, one, 119, 12), TAILOR_ERROR_BUFFERS_OVERLAP);
    EXPECT(transpose_f(f, 4, 12, 10, one, 0, 10, one, 0, 12), TAILOR_ERROR_BUFFERS_OVERLAP);
    EXPECT(transpose_f(f, 4, 12, 10, one, 130, 10, one, 20, 12), TAILOR_ERROR_BUFFERS_OVERLAP);
    EXPECT(tailor_somatcopy(f->handle, q, 12, 10, 3.0f, one, 0, 10, one, 100, 12, 0, NULL, NULL),
           TAILOR_ERROR_BUFFERS_OVERLAP);
    // Offsets count elements: bytes 0-119 and 119-238 of one buffer overlap.
    EXPECT(transpose_f(f, 1, 12, 10, one, 0, 10, one, 119, 12), TAILOR_ERROR_BUFFERS_OVERLAP);
    EXPECT(transpose_f(f, 4, 12, 10, one, 0, 10, one, 120, 12), TAILOR_SUCCESS);
    EXPECT(transpose_f(f, 1, 12, 10, one, 0, 10, one, 1000, 12), TAILOR_SUCCESS);
    float got[400];
    if (test_read(f->device, one, 0, sizeof got, got) == 0) {
        int right = 1;
        for (int i = 0; i < 12; ++i)
            for (int j = 0; j < 10; ++j)
                right &= got[120 + j * 12 + i] == (float)(i * 10 + j);
        CHECK(right, "A and B disjoint in one buffer: wrong result");
    }
    // Sub-buffers of one buffer: overlapping, and disjoint.
    cl_uint align_bits = f->device->info.mem_base_addr_align_bits;
    size_t align = align_bits / 8 ? align_bits / 8 : 128;
    float big[4096] = {0};
    cl_mem parent = test_buffer(f->device, CL_MEM_READ_WRITE, sizeof big, big);
    cl_int error;
    cl_buffer_region first = {0, 2 * align}, second = {align, 2 * align}, third = {2 * align, 2 * align};
    cl_mem sub1 = NULL, sub2 = NULL, sub3 = NULL;
    if (parent && 4 * align <= sizeof big) {
        sub1 = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &first, &error);
        sub2 = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &second, &error);
        sub3 = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &third, &error);
    }
    if (sub1 && sub2 && sub3) {
        size_t n = align / 4; // floats in `align` bytes: A is 1 x n at the end of sub1
        EXPECT(transpose_f(f, 4, 1, n, sub1, n, n, sub2, 0, 1), TAILOR_ERROR_BUFFERS_OVERLAP);
        EXPECT(transpose_f(f, 4, 1, n, sub1, 0, n, sub2, 0, 1), TAILOR_SUCCESS);
        EXPECT(transpose_f(f, 4, 1, n, sub1, n, n, sub3, 0, 1), TAILOR_SUCCESS);
        EXPECT(transpose_f(f, 4, 1, n, parent, 2 * n, n, sub3, 0, 1), TAILOR_ERROR_BUFFERS_OVERLAP);
        EXPECT(transpose_f(f, 4, 1, n, sub3, 0, n, parent, 0, 1), TAILOR_SUCCESS);
    } else {
        fprintf(stderr, "  sub-buffer overlap checks skipped (no sub-buffers of %zu bytes)\n", align);
    }
    if (sub1)
        clReleaseMemObject(sub1);
    if (sub2)
        clReleaseMemObject(sub2);
    if (sub3)
        clReleaseMemObject(sub3);
    if (parent)
        clReleaseMemObject(parent);
    clReleaseMemObject(one);
}

// Another context: its queue, its buffer, its event.
static void other_context(const struct fixture *f)
{
    cl_int error;
    cl_context other = clCreateContext(NULL, 1, &f->device->choice.device, NULL, NULL, &error);
    if (error != CL_SUCCESS)
        return;
    cl_command_queue other_queue = clCreateCommandQueue(other, f->device->choice.device, 0, &error);
    cl_mem other_buffer = clCreateBuffer(other, CL_MEM_READ_WRITE, 480, NULL, &error);
    cl_event other_event = clCreateUserEvent(other, &error);
    EXPECT(tailor_transpose(f->handle, other_queue, 4, 12, 10, f->a, 0, 10, f->b, 0, 12, 0, NULL,
                                   NULL),
           TAILOR_ERROR_INVALID_QUEUE);
    EXPECT(transpose_f(f, 4, 12, 10, other_buffer, 0, 10, f->b, 0, 12), TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(transpose_f(f, 4, 12, 10, f->a, 0, 10, other_buffer, 0, 12), TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(tailor_transpose(f->handle, f->queue, 4, 12, 10, f->a, 0, 10, f->b, 0, 12, 1, &other_event,
                                   NULL),
           TAILOR_ERROR_INVALID_WAIT_LIST);
    clSetUserEventStatus(other_event, CL_COMPLETE);
    clReleaseEvent(other_event);
    clReleaseMemObject(other_buffer);
    clReleaseCommandQueue(other_queue);
    clReleaseContext(other);
}

// rows or cols = 0: success without looking at the buffers (NULL is fine),
// nothing written, a marker event.
static void empty_matrices(const struct fixture *f)
{
    cl_event event = NULL;
    EXPECT(tailor_transpose(f->handle, f->queue, 4, 0, 10, NULL, 0, 10, NULL, 0, 1, 0, NULL, &event),
           TAILOR_SUCCESS);
    CHECK(event != NULL, "an empty transpose returned no event");
    if (event) {
        CHECK(clWaitForEvents(1, &event) == CL_SUCCESS, "the marker event did not complete");
        clReleaseEvent(event);
    }
    EXPECT(transpose_f(f, 2, 12, 0, f->a, 0, 1, f->b, 0, 12), TAILOR_SUCCESS);
    EXPECT(tailor_somatcopy(f->handle, f->queue, 0, 0, 2.0f, NULL, 0, 1, NULL, 0, 1, 0, NULL, NULL),
           TAILOR_SUCCESS);
    CHECK(*tailor_last_variant() == '\0', "an empty transpose names variant '%s'", tailor_last_variant());
}

static void run_bad_input(const struct test_device *device, const char *profile)
{
    struct fixture f = {device, test_handle(device, profile, NULL), device->queue, NULL, NULL};
    if (!f.handle)
        return;
    fprintf(stderr, "  [bad input]\n");
    float host[120];
    for (int i = 0; i < 120; ++i)
        host[i] = (float)i;
    f.a = test_buffer(device, CL_MEM_READ_ONLY, sizeof host, host);
    f.b = test_buffer(device, CL_MEM_READ_WRITE, sizeof host, NULL);
    if (f.a && f.b) {
        bad_arguments(&f);
        overlapping_buffers(&f);
        other_context(&f);
        empty_matrices(&f);
        // The handle still works.
        EXPECT(transpose_f(&f, 4, 12, 10, f.a, 0, 10, f.b, 0, 12), TAILOR_SUCCESS);
        CHECK(transposed_correctly(&f, f.b, 0), "after the bad calls the transpose is wrong");
    }
    if (f.a)
        clReleaseMemObject(f.a);
    if (f.b)
        clReleaseMemObject(f.b);
    tailor_context_release(&f.handle);
}

int main(int argc, char **argv)
{
    struct test_options options = test_parse_options(argc, argv);
    int bad_input_only = 0;
    for (int i = 1; i < argc; ++i)
        bad_input_only |= strcmp(argv[i], "--bad-input") == 0;
    int small = options.small;
    struct test_device devices[16];
    size_t count = test_open_devices(devices, 16);
    unsigned long long seed = 0x2545f4914f6cdd1dull;
    for (size_t d = 0; d < count; ++d) {
        // The --profile given (oclgrind runs generic: its uninitialized-value
        // check misreports shuffles of 8-lane vectors, which the cpu
        // profile's 64-byte vectors make), else the detected one.
        if (test_runs_own(&options))
            run_bad_input(&devices[d], options.profile);
        if (bad_input_only)
            continue;
        const char *profiles[4];
        size_t profile_count = test_chosen_profiles(&devices[d], &options, profiles, 4, 0);
        const struct config *list = small ? small_configs : configs;
        size_t config_count = small ? sizeof small_configs / sizeof small_configs[0]
                                    : sizeof configs / sizeof configs[0];
        for (size_t p = 0; p < profile_count; ++p)
            for (size_t c = 0; c < config_count; ++c)
                run_config(&devices[d], profiles[p], &list[c], small, &seed);
        if (!small && test_runs_own(&options))
            run_large(&devices[d]);
    }
    test_close_devices(devices, count);
    return test_exit_status("test_transpose");
}
