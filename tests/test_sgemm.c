// tailor_sgemm against a double-precision C reference on every device, under
// every profile the device can run, with tuning strings that force each
// kernel variant (CPU-blocked, small, tiled fast and edge paths, vector and
// scalar loads, big and mid tile sets) at small tile sizes so they run quickly
// anywhere: all 8 layout/transpose combinations, alpha and beta in {0, 1,
// other}, shapes of 1, primes, tile multiples +-1, skinny and wide, offsets
// and padded leading dimensions. Every element outside C's matrix is checked
// untouched, NaNs planted where no kernel may read (padding of A, B; C when
// beta = 0) must stay out of the result, and the bad inputs get their status.
//
// Tolerance (also promised in tailor.h): each element within
//     2 (k + 2) 2^-24 (|alpha| sum_p |a_ip b_pj| + |beta c_ij|)
// of the exact result: a sum of k products in any order is within
// (k - 1) u sum |a b| (u = 2^-24, fused multiply-adds), scaling by alpha,
// beta and the final add round three more times; the factor 2 is margin.
//
// usage: test_sgemm [--small] [--profile NAME]
//   --small   tiny shapes and the forced variants only (for oclgrind)
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"

#define GUARD 7
#define SENTINEL 777.0f
#define MAX_VARIANTS 256

struct run {
    const struct test_device *device;
    tailor_context *handle;
    char label[2048];
    char seen[MAX_VARIANTS][96]; // variants the calls of this run selected
    size_t seen_count;
    char kinds[MAX_VARIANTS][96]; // the variants without their split counts
    size_t kind_calls[MAX_VARIANTS]; // how many calls ran each
    size_t kind_count;
    size_t checks;
    // Under Oclgrind and valgrind (--small), where a call takes seconds: a
    // case whose planned variant (tailor_explain) has run this many times
    // is skipped; 0 runs every case.
    size_t repeat_limit;
};

struct gemm_case {
    tailor_layout layout;
    tailor_trans trans_a, trans_b;
    size_t m, n, k;
    float alpha, beta;
    int aligned;      // offsets and leading dimensions multiples of 4 (A_B_ALIGNED: not C's)
    int planted_nans; // NaN in every element no kernel may read
};
#define A_B_ALIGNED 2

// A matrix as stored: `lines` lines of `length` elements, `ld` apart, from `offset`.
struct storage {
    size_t lines, length, ld, offset, count; // count: elements of the buffer
};

// Inputs end exactly where their last element is, so a read past it leaves
// the buffer (Oclgrind reports it); C has GUARD elements after it, checked
// untouched.
static struct storage storage_of(size_t lines, size_t length, int aligned, size_t pad, size_t guard)
{
    struct storage s = {lines, length, 0, 0, 0};
    s.ld = aligned ? (length + 3) / 4 * 4 + 4 * (pad % 2) : length + pad;
    if (s.ld == 0)
        s.ld = aligned ? 4 : 1;
    s.offset = aligned ? 4 * (pad % 3) : 1 + pad % 4;
    s.count = s.offset + (lines ? (lines - 1) * s.ld + length : 0) + guard;
    return s;
}

static size_t index_of(const struct storage *s, size_t line, size_t element)
{
    return s->offset + line * s->ld + element;
}

static int in_matrix(const struct storage *s, size_t index)
{
    if (index < s->offset || s->lines == 0)
        return 0;
    size_t relative = index - s->offset;
    return relative / s->ld < s->lines && relative % s->ld < s->length;
}

// Element (row, col) of a logical rows x cols matrix stored in `layout`.
static size_t element_index(const struct storage *s, tailor_layout layout, size_t row, size_t col)
{
    return layout == TAILOR_ROW_MAJOR ? index_of(s, row, col) : index_of(s, col, row);
}

// A variant without the digits of its split count ("split-k12:tiled-..." is
// "split-k:tiled-..."): calls that differ in the count alone run the same code.
static void variant_kind(const char *variant, char *kind, size_t size)
{
    size_t length = 0;
    for (const char *c = variant; *c && length + 1 < size; ++c) {
        if (c > variant + 6 && strncmp(c - 7, "split-k", 7) == 0)
            while (*c >= '0' && *c <= '9')
                ++c;
        if (!*c)
            break;
        kind[length++] = *c;
    }
    kind[length] = '\0';
}

static size_t *variant_calls(struct run *run, const char *variant)
{
    char kind[96];
    variant_kind(variant, kind, sizeof kind);
    for (size_t i = 0; i < run->kind_count; ++i)
        if (strcmp(run->kinds[i], kind) == 0)
            return &run->kind_calls[i];
    if (run->kind_count == MAX_VARIANTS)
        return NULL;
    snprintf(run->kinds[run->kind_count], sizeof run->kinds[0], "%s", kind);
    run->kind_calls[run->kind_count] = 0;
    return &run->kind_calls[run->kind_count++];
}

static void note_variant(struct run *run)
{
    const char *variant = tailor_last_variant();
    size_t *calls = variant_calls(run, variant);
    if (calls)
        ++*calls;
    for (size_t i = 0; i < run->seen_count; ++i)
        if (strcmp(run->seen[i], variant) == 0)
            return;
    if (run->seen_count < MAX_VARIANTS)
        snprintf(run->seen[run->seen_count++], sizeof run->seen[0], "%s", variant);
}

// Some variant of the run contains every one of the (up to three) words.
static void require_variant(const struct run *run, const char *a, const char *b, const char *c)
{
    for (size_t i = 0; i < run->seen_count; ++i)
        if (strstr(run->seen[i], a) && (!b || strstr(run->seen[i], b)) && (!c || strstr(run->seen[i], c)))
            return;
    CHECK(0, "%s: no call selected a variant with '%s'%s%s%s%s", run->label, a, b ? " and '" : "",
          b ? b : "", c ? "' and '" : "", c ? c : "");
}

static void describe(char *buffer, size_t size, const struct run *run, const struct gemm_case *g)
{
    snprintf(buffer, size, "%s %s %c%c m=%zu n=%zu k=%zu alpha=%g beta=%g %s [%s]", run->label,
             g->layout == TAILOR_ROW_MAJOR ? "row" : "col", g->trans_a ? 't' : 'n', g->trans_b ? 't' : 'n',
             g->m, g->n, g->k, (double)g->alpha, (double)g->beta,
             g->aligned == A_B_ALIGNED ? "A, B aligned" : g->aligned ? "aligned" : "misaligned",
             tailor_last_variant());
}

static float uniform_float(unsigned long long *seed)
{
    return (float)(2.0 * test_uniform(seed) - 1.0);
}

static void check_case(struct run *run, const struct gemm_case *g, unsigned long long *seed)
{
    int row_major = g->layout == TAILOR_ROW_MAJOR;
    // Stored (logical) shapes: A is m x k or k x m, B is k x n or n x k.
    size_t a_rows = g->trans_a ? g->k : g->m, a_cols = g->trans_a ? g->m : g->k;
    size_t b_rows = g->trans_b ? g->n : g->k, b_cols = g->trans_b ? g->k : g->n;
    size_t pad = (size_t)(test_random(seed) % 6);
    struct storage sa = row_major ? storage_of(a_rows, a_cols, g->aligned, pad, 0)
                                  : storage_of(a_cols, a_rows, g->aligned, pad, 0);
    struct storage sb = row_major ? storage_of(b_rows, b_cols, g->aligned, pad + 1, 0)
                                  : storage_of(b_cols, b_rows, g->aligned, pad + 1, 0);
    int c_aligned = g->aligned && g->aligned != A_B_ALIGNED;
    struct storage sc = row_major ? storage_of(g->m, g->n, c_aligned, pad + 2, GUARD)
                                  : storage_of(g->n, g->m, c_aligned, pad + 2, GUARD);
    float *a = malloc(sa.count * sizeof *a), *b = malloc(sb.count * sizeof *b);
    float *c = malloc(sc.count * sizeof *c), *out = malloc(sc.count * sizeof *out);
    cl_mem a_buffer = NULL, b_buffer = NULL, c_buffer = NULL;
    char text[2560];
    if (!a || !b || !c || !out)
        goto done;
    float poison = g->planted_nans ? NAN : 1e30f;
    for (size_t i = 0; i < sa.count; ++i)
        a[i] = in_matrix(&sa, i) ? uniform_float(seed) : poison;
    for (size_t i = 0; i < sb.count; ++i)
        b[i] = in_matrix(&sb, i) ? uniform_float(seed) : poison;
    for (size_t i = 0; i < sc.count; ++i)
        c[i] = !in_matrix(&sc, i) ? SENTINEL : g->beta == 0.0f && g->planted_nans ? NAN : uniform_float(seed);

    char planned[sizeof ((tailor_plan *)0)->variant] = "";
    if (run->repeat_limit) {
        tailor_call call = {.operation = TAILOR_OP_SGEMM, .layout = g->layout, .trans_a = g->trans_a,
                            .trans_b = g->trans_b, .m = g->m, .n = g->n, .k = g->k,
                            .a_offset = sa.offset, .b_offset = sb.offset, .c_offset = sc.offset,
                            .lda = sa.ld, .ldb = sb.ld, .ldc = sc.ld, .alpha = g->alpha, .beta = g->beta};
        tailor_plan plan;
        if (tailor_explain(run->handle, &call, &plan) == TAILOR_SUCCESS) {
            const size_t *calls = variant_calls(run, plan.variant);
            if (!calls || *calls >= run->repeat_limit)
                goto done;
            snprintf(planned, sizeof planned, "%s", plan.variant);
        }
    }
    a_buffer = test_buffer(run->device, CL_MEM_READ_ONLY, sa.count * sizeof *a, a);
    b_buffer = test_buffer(run->device, CL_MEM_READ_ONLY, sb.count * sizeof *b, b);
    c_buffer = test_buffer(run->device, CL_MEM_READ_WRITE, sc.count * sizeof *c, c);
    if (!a_buffer || !b_buffer || !c_buffer)
        goto done;
    cl_event event = NULL;
    tailor_status status = tailor_sgemm(run->handle, run->device->queue, g->layout, g->trans_a, g->trans_b,
                                        g->m, g->n, g->k, g->alpha, a_buffer, sa.offset, sa.ld, b_buffer,
                                        sb.offset, sb.ld, g->beta, c_buffer, sc.offset, sc.ld, 0, NULL, &event);
    describe(text, sizeof text, run, g);
    CHECK(status == TAILOR_SUCCESS, "%s: %s: %s", text, tailor_status_name(status), tailor_last_error());
    if (status != TAILOR_SUCCESS)
        goto done;
    note_variant(run);
    CHECK(!run->repeat_limit || strcmp(planned, tailor_last_variant()) == 0,
          "%s: tailor_explain planned '%s'", text, planned);
    CHECK(event != NULL, "%s: no event", text);
    if (event) {
        CHECK(clWaitForEvents(1, &event) == CL_SUCCESS, "%s: waiting for the event failed", text);
        clReleaseEvent(event);
    }
    if (test_read(run->device, c_buffer, 0, sc.count * sizeof *out, out) != 0)
        goto done;
    size_t wrong = 0;
    for (size_t i = 0; i < sc.count && wrong < 5; ++i) {
        if (in_matrix(&sc, i))
            continue;
        if (memcmp(&out[i], &c[i], sizeof *out) != 0) {
            ++wrong;
            CHECK(0, "%s: element %zu outside C changed to %g", text, i, (double)out[i]);
        }
    }
    for (size_t i = 0; i < g->m && wrong < 5; ++i) {
        for (size_t j = 0; j < g->n && wrong < 5; ++j) {
            double exact = 0, magnitude = 0;
            for (size_t p = 0; p < g->k; ++p) {
                double x = a[g->trans_a ? element_index(&sa, g->layout, p, i) : element_index(&sa, g->layout, i, p)];
                double y = b[g->trans_b ? element_index(&sb, g->layout, j, p) : element_index(&sb, g->layout, p, j)];
                exact += x * y;
                magnitude += fabs(x * y);
            }
            size_t at = element_index(&sc, g->layout, i, j);
            double before = g->beta == 0.0f ? 0.0 : c[at];
            double expected = (double)g->alpha * (g->alpha == 0.0f ? 0.0 : exact) + (double)g->beta * before;
            double bound = 2.0 * (double)(g->k + 2) * ldexp(1.0, -24) *
                           (fabs((double)g->alpha) * magnitude + fabs((double)g->beta * before));
            ++run->checks;
            if (!(fabs((double)out[at] - expected) <= bound)) {
                ++wrong;
                CHECK(0, "%s: C(%zu,%zu) = %.9g, expected %.9g (error %.3g > bound %.3g)", text, i, j,
                      (double)out[at], expected, fabs((double)out[at] - expected), bound);
            }
        }
    }
done:
    if (a_buffer)
        clReleaseMemObject(a_buffer);
    if (b_buffer)
        clReleaseMemObject(b_buffer);
    if (c_buffer)
        clReleaseMemObject(c_buffer);
    free(a);
    free(b);
    free(c);
    free(out);
}

struct shape {
    size_t m, n, k;
};

// (alpha, beta) pairs: 7 of them against 8 combinations, so each combination
// meets each pair over the shapes (alpha = 0 with beta 0 or 1, and k = 0, are
// the quick returns' test).
static const float pairs[7][2] = {{1.0f, 0.0f}, {-0.75f, 0.5f}, {1.0f, 1.0f}, {-0.75f, 0.0f},
                                  {1.0f, 0.5f}, {-0.75f, 1.0f}, {0.0f, 0.5f}};

// Every shape in every layout/transpose combination, with aligned storage
// (vector loads) and misaligned (scalar loads), alpha and beta cycling
// through their pairs.
static void check_shapes(struct run *run, const struct shape *shapes, size_t count, unsigned long long *seed)
{
    size_t index = 0;
    for (size_t s = 0; s < count; ++s) {
        for (int combo = 0; combo < 16; ++combo, ++index) {
            struct gemm_case g = {
                .layout = combo & 4 ? TAILOR_COLUMN_MAJOR : TAILOR_ROW_MAJOR,
                .trans_a = combo & 2 ? TAILOR_TRANS : TAILOR_NO_TRANS,
                .trans_b = combo & 1 ? TAILOR_TRANS : TAILOR_NO_TRANS,
                .m = shapes[s].m,
                .n = shapes[s].n,
                .k = shapes[s].k,
                .alpha = pairs[index % 7][0],
                .beta = pairs[index % 7][1],
                .aligned = combo & 8,
                .planted_nans = 1,
            };
            check_case(run, &g, seed);
        }
    }
}

// A product with more tiles (of up to 32 columns) than the device has compute
// units: A is packed only where the tiles outnumber them.
static void check_wide(struct run *run, unsigned long long *seed)
{
    struct gemm_case g = {TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, TAILOR_TRANS,
                          32, 32 * ((size_t)run->device->info.compute_units + 1), 64, 1.0f, 0.5f, 1, 1};
    check_case(run, &g, seed);
}

// A tuning string that forces one family of kernels, and what must be seen.
struct config {
    const char *tuning;
    const char *expect[8][3];
};

// Every tiled-kernel parameter at its generic default, so a forced
// configuration means the same under every profile (the NVIDIA profile's
// warp patches, padding and k-threads do not fit these small tiles), and
// the thin and dots kernels off (the NVIDIA profile's would take few-row
// and few-column products from the kernels a configuration forces).
#define NEUTRAL                                                                                     \
    "SGEMM_THIN_M=0,SGEMM_THIN_N=0,SGEMM_DOTS_MAX=0,"                                               \
    "SGEMM_BM=64,SGEMM_BN=64,SGEMM_BK=16,SGEMM_TM=4,SGEMM_TN=4,SGEMM_VWM=4,SGEMM_VWN=4,"             \
    "SGEMM_WARP_TX=0,SGEMM_WARP_TY=0,SGEMM_MID_BM=32,SGEMM_MID_BN=32,SGEMM_MID_BK=16,"               \
    "SGEMM_MID_TM=2,SGEMM_MID_TN=2,SGEMM_MID_VWM=2,SGEMM_MID_VWN=2,SGEMM_MID_WARP_TX=0,"             \
    "SGEMM_MID_WARP_TY=0,SGEMM_LOAD_VEC=4,SGEMM_WARP_INTERLEAVE=0,SGEMM_KTHREADS=1,SGEMM_PAD_A=0,"    \
    "SGEMM_PAD_B=0,SGEMM_DOUBLE_BUFFER=0,SGEMM_PREFETCH=0,SGEMM_MID_DOUBLE_BUFFER=0,"               \
    "SGEMM_MID_PREFETCH=0,SGEMM_SWIZZLE=1,SGEMM_PACK_B_MIN_M=0,SGEMM_MID_EFFICIENCY=0,"              \
    "SGEMM_ASYNC=0,SGEMM_MID_ASYNC=0,"

#define TILED_A                                                                                     \
    NEUTRAL "SGEMM_CPU_KERNELS=0,SGEMM_SMALL_DIM=0,SGEMM_SMALL_CUBE=0,SGEMM_MID_PERCENT=0,"                   \
    "SGEMM_BM=16,SGEMM_BN=16,SGEMM_BK=8,SGEMM_TM=4,SGEMM_TN=4,SGEMM_VWM=4,SGEMM_VWN=4"
// Double buffering, register prefetch, interleaved warp patches,
// k-side-by-side loads, padding, swizzle, unequal vector widths and four
// slices of k (a register tile row each).
#define TILED_B                                                                                     \
    NEUTRAL "SGEMM_CPU_KERNELS=0,SGEMM_SMALL_DIM=0,SGEMM_SMALL_CUBE=0,SGEMM_MID_PERCENT=0,"                   \
    "SGEMM_BM=32,SGEMM_BN=16,SGEMM_BK=8,SGEMM_TM=4,SGEMM_TN=2,SGEMM_VWM=4,SGEMM_VWN=2,"              \
    "SGEMM_WARP_TX=4,SGEMM_WARP_TY=2,SGEMM_WARP_INTERLEAVE=1,SGEMM_LOAD_VEC=2,SGEMM_KTHREADS=2,"     \
    "SGEMM_PAD_A=4,"                                                                                \
    "SGEMM_PAD_B=2,SGEMM_DOUBLE_BUFFER=1,SGEMM_PREFETCH=1,SGEMM_SWIZZLE=2,SGEMM_SLICED_K=4"
// The mid tile set, single buffer with register prefetch, two slices of k
// (their sums need more local memory than the tiles); idle loaders.
#define TILED_MID                                                                                   \
    NEUTRAL "SGEMM_CPU_KERNELS=0,SGEMM_SMALL_DIM=0,SGEMM_SMALL_CUBE=0,SGEMM_MID_PERCENT=100000,"              \
    "SGEMM_MID_BM=16,SGEMM_MID_BN=32,SGEMM_MID_BK=4,SGEMM_MID_TM=2,SGEMM_MID_TN=4,"                  \
    "SGEMM_MID_VWM=2,SGEMM_MID_VWN=4,SGEMM_MID_WARP_TX=2,SGEMM_MID_WARP_TY=4,SGEMM_MID_PREFETCH=1,"      \
    "SGEMM_MID_SLICED_K=2,SGEMM_SWIZZLE=4"
// Mid tiles a quarter the big ones' area, chosen where they take fewer
// rounds of groups per compute unit (at equal speed): 37 x 41 has 4 big
// tiles and 9 mid ones, fewer rounds on any number of compute units;
// operands off the vector staged on them, C off the vector stored by the
// vector kernels.
#define TILED_ROUNDS                                                                                \
    NEUTRAL "SGEMM_CPU_KERNELS=0,SGEMM_SMALL_DIM=0,SGEMM_SMALL_CUBE=0,SGEMM_MID_PERCENT=0,"         \
    "SGEMM_BM=32,SGEMM_BN=32,SGEMM_BK=8,SGEMM_MID_BM=16,SGEMM_MID_BN=16,SGEMM_MID_BK=8,"            \
    "SGEMM_MID_EFFICIENCY=100,SGEMM_STAGE_CUBE=1"
// TILED_B with cp.async where the device has it (NVIDIA CUDA_SM >= 80: the
// tn kernels); elsewhere the same kernels as TILED_B.
#define TILED_ASYNC TILED_B ",SGEMM_ASYNC=1"
// B transposed into a workspace first wherever it is stored transposed.
#define TILED_PACKED TILED_A ",SGEMM_PACK_B_MIN_M=1"
// Split k wherever k has two slices of at least 8 steps (mid tiles where it
// has not), operands off vector boundaries staged to aligned rows, on the
// double buffered tiles; then staging (A and C too) beside B's transpose, k
// unsplit. Staged or packed operands whose m or n is off the vector run
// over it rounded up (padded-m, padded-n), also across slices of k.
#define TILED_SPLIT                                                                                 \
    TILED_B ",SGEMM_MID_PERCENT=100000,SGEMM_SPLIT_PERCENT=100000,"                                   \
            "SGEMM_GROUPS_PER_UNIT=64,SGEMM_SPLIT_SLICE_COST=0,SGEMM_SPLIT_MIN_K=8,SGEMM_STAGE_CUBE=1"
// Split k on the mid tiles (an eighth of the big ones' area, at their
// speed per multiply-add), sliced k and register prefetch within slices.
#define TILED_SPLIT_MID                                                                             \
    TILED_MID ",SGEMM_SPLIT_PERCENT=100000,SGEMM_GROUPS_PER_UNIT=64,SGEMM_SPLIT_SLICE_COST=0,"        \
              "SGEMM_SPLIT_MIN_K=8,SGEMM_MID_SPLIT_EFFICIENCY=100,SGEMM_STAGE_CUBE=1"
// The same without copies for big products (SGEMM_STAGE_CUBE=0): operands
// off the vector split k in the scalar-load program, where k is too short for
// a copy to pay (under four slices of 8) or C too thin.
#define TILED_SPLIT_SCALAR TILED_SPLIT_MID ",SGEMM_STAGE_CUBE=0"
#define TILED_STAGED TILED_PACKED ",SGEMM_SPLIT_PERCENT=0,SGEMM_STAGE_CUBE=1"
// A transposed into a workspace first wherever both operands are stored
// K-contiguous (nt made tt) and the product has more groups than the device
// has compute units (check_wide's product at least); then across slices of
// k.
#define TILED_PACKED_A TILED_A ",SGEMM_PACK_A_MIN_N=1"
#define TILED_SPLIT_PACKED_A TILED_SPLIT ",SGEMM_PACK_A_MIN_N=1"
#define SMALL NEUTRAL "SGEMM_CPU_KERNELS=0,SGEMM_SMALL_DIM=1000000,SGEMM_SMALL_MAX_K=1000000,SGEMM_SMALL_RM=3,SGEMM_SMALL_RN=2"
// The thin kernel wherever m is at most 40 and B is stored along n (nn and
// tn), or n is at most 40 and A is stored along m (tn and tt, C^T computed;
// nt takes the tiled kernels), however few its groups: rows in
// blocks of 8 (the last one partial), three columns a work-item, local
// steps of k that divide no k here, and k split (slices of at least 8
// steps, for the tiled kernels too) where that adds groups.
#define THIN_FILLING                                                                                \
    NEUTRAL "SGEMM_CPU_KERNELS=0,SGEMM_SMALL_DIM=0,SGEMM_SMALL_CUBE=0,SGEMM_THIN_M=40,SGEMM_THIN_RM=8," \
    "SGEMM_THIN_N=40,SGEMM_THIN_RN=3,SGEMM_THIN_WG=16,SGEMM_THIN_KC=12,SGEMM_SPLIT_MIN_K=8,"         \
    "SGEMM_THIN_MIN_K=8,SGEMM_THIN_MAX_SLICES=0,SGEMM_THIN_GROUPS_PER_UNIT=64"
#define THIN THIN_FILLING ",SGEMM_THIN_FILL=0"
// The dots kernel wherever m or n is at most 13 and the long operand is
// stored along k (columns of nn and nt, rows of nt and tt), each entry
// point (4, 8 and 16 vectors) where it holds the short side: three lines a
// work-item, groups of two sets of 32, local copies of 128 steps of k, and
// k split where that adds groups; the sums of all three lines added at once
// with 4 vectors, of two and then one with 8, of one at a time with 16.
#define DOTS                                                                                        \
    NEUTRAL "SGEMM_CPU_KERNELS=0,SGEMM_SMALL_DIM=0,SGEMM_SMALL_CUBE=0,SGEMM_DOTS_MAX=13,"            \
    "SGEMM_DOTS_LINES=3,SGEMM_DOTS_WG=64,SGEMM_DOTS_KC=128,SGEMM_DOTS_MIN_K=8,SGEMM_DOTS_SUMS=20,"   \
    "SGEMM_THIN_MAX_SLICES=0,SGEMM_DOTS_GROUPS_PER_UNIT=64"
#define CPU_A NEUTRAL "SGEMM_CPU_KERNELS=1,SGEMM_CPU_RM=3,SGEMM_CPU_VN=4,SGEMM_CPU_NV=2,SGEMM_CPU_DOT_RN=3,SGEMM_CPU_WG=2"
#define CPU_B NEUTRAL "SGEMM_CPU_KERNELS=1,SGEMM_CPU_RM=5,SGEMM_CPU_VN=8,SGEMM_CPU_NV=1,SGEMM_CPU_ROWS_FIRST=1"
// B packed first, and A in every orientation: slices of k shorter than most
// shapes' k, several A panels a work-item, groups of two; then A packed only
// where it is M-contiguous, one slice and one panel, with the smaller
// products left to the unpacked kernels.
#define CPU_PACKED_A                                                                                \
    NEUTRAL "SGEMM_CPU_KERNELS=1,SGEMM_CPU_RM=3,SGEMM_CPU_VN=4,SGEMM_CPU_NV=2,SGEMM_CPU_WG=2,"        \
    "SGEMM_CPU_PACK_CUBE=1,SGEMM_CPU_PACK_A=2,SGEMM_CPU_KC=8,SGEMM_CPU_MC_PANELS=2"
#define CPU_PACKED_B                                                                                \
    NEUTRAL "SGEMM_CPU_KERNELS=1,SGEMM_CPU_RM=5,SGEMM_CPU_VN=8,SGEMM_CPU_NV=1,"                      \
    "SGEMM_CPU_PACK_CUBE=20,SGEMM_CPU_KC=256,SGEMM_CPU_MC_PANELS=3"

static const struct config configs[] = {
    {TILED_A,
     {{"tiled-16x16x8/vec4/nn", NULL, NULL}, {"tiled-16x16x8/vec4/tt", NULL, NULL},
      {"tiled-16x16x8/vec4/edge/", "nt", NULL}, {"tiled-16x16x8/scalar/", "tn", NULL},
      {"/scalar/edge/", NULL, NULL}, {"tiled-16x16x8/vec4/shifted/nn", NULL, NULL},
      {"tiled-16x16x8/vec4/shifted/nt", NULL, NULL}, {"tiled-16x16x8/scalar/shifted/", NULL, NULL}}},
    {TILED_B,
     {{"tiled-32x16x8/vec2/sliced-k4/nt", NULL, NULL}, {"tiled-32x16x8/vec2/sliced-k4/tn", NULL, NULL},
      {"tiled-32x16x8/vec2/sliced-k4/edge/", "tt", NULL}, {"tiled-32x16x8/scalar/sliced-k4/", "nn", NULL},
      {"tiled-32x16x8/vec2/sliced-k4/shifted/tn", NULL, NULL},
      {"tiled-32x16x8/vec2/sliced-k4/shifted/tt", NULL, NULL}}},
    {TILED_ASYNC, {{"tiled-32x16x8/vec2/", "/tn", NULL}, {"tiled-32x16x8/vec2/", "/shifted/tn", NULL}}},
    {TILED_PACKED,
     {{"tiled-16x16x8/vec4/nn", NULL, NULL}, {"packed-b:tiled-16x16x8/vec4/nn", NULL, NULL},
      {"packed-b:tiled-16x16x8/vec4/tn", NULL, NULL}, {"packed-b:tiled-16x16x8/vec4/edge/", NULL, NULL},
      {"packed-b:tiled-16x16x8/scalar/", NULL, NULL}}},
    {TILED_SPLIT,
     {{"split-k", "tiled-32x16x8/vec2/sliced-k4/nn", NULL},
      {"staged-ab:split-k", NULL, NULL}, {"staged-", ":tiled-32x32x16/vec2/", NULL},
      {"split-k", "/shifted/", NULL}}},
    {TILED_SPLIT_MID,
     {{"split-k", ":tiled-16x32x4/vec4/sliced-k2/nn", NULL}, {"split-k", ":tiled-16x32x4/vec4/sliced-k2/shifted/", NULL},
      {"split-k", ":tiled-16x32x4/vec4/sliced-k2/edge/", NULL}}},
    {TILED_SPLIT_SCALAR,
     {{"split-k", ":tiled-16x32x4/scalar/sliced-k2/", NULL}, {"split-k", ":tiled-16x32x4/vec4/sliced-k2/", NULL}}},
    {TILED_STAGED,
     {{"packed-b,staged-a", NULL, NULL}, {"packed-b,padded-n:tiled-16x16x8/vec4/shifted/", NULL, NULL},
      {"packed-b:tiled-16x16x8/vec4/", NULL, NULL},
      {"staged-", ",padded-n:tiled-16x16x8/vec4/shifted/", NULL},
      {"staged-a", ",padded-m,padded-n:tiled-16x16x8/vec4/shifted/tn", NULL},
      {"packed-b,", ",padded-n:tiled-16x16x8/vec4/shifted/nn", NULL}}},
    {TILED_PACKED_A, {{"packed-a:tiled-16x16x8/vec4/tt", NULL, NULL}, {"tiled-16x16x8/vec4/nn", NULL, NULL}}},
    {TILED_SPLIT_PACKED_A, {{"packed-a", "split-k", "/tt"}}},
    {TILED_MID,
     {{"tiled-16x32x4/vec4/sliced-k2/nn", NULL, NULL}, {"tiled-16x32x4/vec4/sliced-k2/edge", NULL, NULL},
      {"tiled-16x32x4/scalar/sliced-k2", NULL, NULL}, {"tiled-16x32x4/vec4/sliced-k2/shifted", NULL, NULL}}},
    {TILED_ROUNDS, {{"tiled-16x16x8/vec4/", NULL, NULL}, {"staged-", ":tiled-16x16x8/vec4/shifted/", NULL}}},
    {SMALL, {{"small/nn", NULL, NULL}, {"small/tt", NULL, NULL}}},
    {CPU_A, {{"cpu-blocked-3x8/nn", NULL, NULL}, {"cpu-blocked-3x8/tn", NULL, NULL},
             {"cpu-blocked-3x8/tt", NULL, NULL}, {"cpu-dot-3x3/nt", NULL, NULL}}},
    {CPU_B, {{"cpu-blocked-5x8/nn", NULL, NULL}, {"cpu-dot-5x4/nt", NULL, NULL}}},
    {CPU_PACKED_A, {{"cpu-packed-3x8/nn", NULL, NULL}, {"cpu-packed-3x8/nt", NULL, NULL},
                    {"cpu-packed-3x8/tn", NULL, NULL}, {"cpu-packed-3x8/tt", NULL, NULL}}},
    {CPU_PACKED_B, {{"cpu-packed-5x8/nn", NULL, NULL}, {"cpu-packed-5x8/tt", NULL, NULL},
                    {"cpu-blocked-5x8/nn", NULL, NULL}}},
    {DOTS, {{"dots-4x3/nn", NULL, NULL}, {"dots-4x3/nt", NULL, NULL}, {"dots-8x3/transposed-c/nt", NULL, NULL},
            {"dots-8x3/transposed-c/tt", NULL, NULL}, {"split-k", ":dots-8x3/", NULL},
            {"split-k", ":dots-16x3/nn", NULL}, {"split-k", ":dots-16x3/nt", NULL}}},
    {THIN, {{"thin-8x3/nn", NULL, NULL}, {"thin-8x3/tn", NULL, NULL}, {"split-k", ":thin-8x3/", NULL},
            {"thin-8x3/transposed-c/tn", NULL, NULL}, {"split-k", ":thin-8x3/transposed-c/tt", NULL},
            {"tiled-", "/nt", NULL}}},
};

// ({33, 35, 12}: m and n off the vector and at least a mid tile's side, so
// that both operands are copied where copies apply, k too short to split;
// {9, 4, 7}: a few columns of C under many rows; {5, 40, 260} and {40, 12,
// 200}: a few rows, or columns, over a k long enough to split.)
static const struct shape tiny_shapes[] = {
    {1, 1, 1}, {2, 3, 5}, {16, 16, 8}, {17, 15, 9}, {32, 64, 16}, {20, 36, 12}, {36, 20, 20},
    {20, 37, 12}, {33, 35, 12}, {9, 4, 7}, {5, 40, 260}, {40, 12, 200},
};

static const struct shape shapes[] = {
    {1, 1, 1},    {1, 5, 3},    {4, 1, 9},    {2, 3, 5},    {7, 13, 11},  {16, 16, 8},
    {32, 48, 16}, {15, 17, 7},  {17, 15, 9},  {31, 33, 17}, {33, 31, 24}, {37, 41, 43},
    {64, 64, 64}, {61, 67, 71}, {3, 70, 50},  {70, 2, 50},  {5, 200, 9},  {200, 6, 13},
    {48, 80, 130}, {100, 100, 1}, {13, 11, 300}, {32, 64, 16}, {20, 36, 12}, {52, 68, 44},
    {6, 40, 300},
};

// Shapes large enough for the detected profile's own tile sizes and thresholds.
static const struct shape large_shapes[] = {
    {256, 256, 64}, {257, 255, 33}, {260, 388, 44}, {2304, 2304, 48}, {2305, 2303, 50},
    {1, 2048, 300}, {2048, 3, 300},
};

static void open_run(struct run *run, const struct test_device *device, const char *profile, const char *tuning)
{
    memset(run, 0, sizeof *run);
    run->device = device;
    snprintf(run->label, sizeof run->label, "[%s %s]", profile, tuning ? tuning : "default tuning");
    run->handle = test_handle(device, profile, tuning);
}

static void close_run(struct run *run)
{
    fprintf(stderr, "  %s: %zu elements checked, variants:", run->label, run->checks);
    for (size_t i = 0; i < run->seen_count; ++i)
        fprintf(stderr, " %s", run->seen[i]);
    fputc('\n', stderr);
    tailor_context_release(&run->handle);
}

// Each configuration draws its paddings and offsets from a seed of its own
// (the run's seed and its tuning string), so that the cases an expected
// variant depends on do not move when another configuration's shapes change.
static void run_config_in(const struct test_device *device, const char *profile, const struct config *config,
                          int small, const unsigned long long *seed)
{
    unsigned long long config_seed = *seed;
    for (const char *c = config->tuning; *c; ++c)
        config_seed = (config_seed ^ (unsigned char)*c) * 0x100000001b3ull;
    struct run run;
    open_run(&run, device, profile, config->tuning);
    if (!run.handle)
        return;
    run.repeat_limit = small ? 2 : 0;
    // The wide product first (the run notes at most MAX_VARIANTS variants),
    // from a seed of its own: the other cases' draws stay as they were.
    unsigned long long wide_seed = config_seed ^ 0x9e3779b97f4a7c15ull;
    check_wide(&run, &wide_seed);
    if (small)
        check_shapes(&run, tiny_shapes, sizeof tiny_shapes / sizeof tiny_shapes[0], &config_seed);
    else
        check_shapes(&run, shapes, sizeof shapes / sizeof shapes[0], &config_seed);
    for (size_t i = 0; i < sizeof config->expect / sizeof config->expect[0] && config->expect[i][0]; ++i)
        require_variant(&run, config->expect[i][0], config->expect[i][1], config->expect[i][2]);
    close_run(&run);
}

// Each configuration in an OpenCL context of its own: Oclgrind 21.10 reported
// reads of a workspace that its pack kernel had just written as
// uninitialized when an earlier handle's workspace in the same context had
// been released (the B-packing configuration run twice in one context
// showed it, each run alone did not; memcheck on POCL found nothing).
static void run_config(const struct test_device *device, const char *profile, const struct config *config,
                       int small, unsigned long long *seed)
{
    struct test_device own = *device;
    cl_int error;
    own.context = clCreateContext(NULL, 1, &device->choice.device, NULL, NULL, &error);
    CHECK(error == CL_SUCCESS, "clCreateContext failed (%d)", (int)error);
    if (error != CL_SUCCESS)
        return;
    own.queue = clCreateCommandQueue(own.context, device->choice.device, 0, &error);
    CHECK(error == CL_SUCCESS, "clCreateCommandQueue failed (%d)", (int)error);
    if (error == CL_SUCCESS)
        run_config_in(&own, profile, config, small, seed);
    if (own.queue)
        clReleaseCommandQueue(own.queue);
    clReleaseContext(own.context);
}

// More than 65535 groups along launch dimension 1 (NVIDIA's limit, which the
// host caps and the kernels stride over): 70001 rows in blocks of one row.
static void check_tall(const struct test_device *device, const char *profile, unsigned long long *seed)
{
    static const char *const tunings[] = {
        NEUTRAL "SGEMM_CPU_KERNELS=0,SGEMM_SMALL_DIM=1000000,SGEMM_SMALL_RM=1,SGEMM_SMALL_WG_X=4,SGEMM_SMALL_WG_Y=1",
        NEUTRAL "SGEMM_CPU_KERNELS=0,SGEMM_SMALL_DIM=0,SGEMM_SMALL_CUBE=0,SGEMM_MID_PERCENT=0,SGEMM_BM=1,SGEMM_TM=1,"
        "SGEMM_VWM=1,SGEMM_BN=4,SGEMM_TN=1,SGEMM_VWN=1,SGEMM_BK=4,SGEMM_LOAD_VEC=1",
    };
    static const struct gemm_case cases[] = {
        {TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, TAILOR_NO_TRANS, 70001, 5, 6, 1.0f, 0.5f, 0, 1},
        {TAILOR_ROW_MAJOR, TAILOR_TRANS, TAILOR_NO_TRANS, 70000, 4, 8, -0.75f, 0.0f, 1, 1},
        {TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, TAILOR_NO_TRANS, 70001, 3, 2, 0.0f, 0.5f, 0, 1},
    };
    for (size_t t = 0; t < sizeof tunings / sizeof tunings[0]; ++t) {
        struct run run;
        open_run(&run, device, profile, tunings[t]);
        if (!run.handle)
            continue;
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
            check_case(&run, &cases[i], seed);
        require_variant(&run, t == 0 ? "small/nn" : "tiled-1x4x4/vec1/shifted/nn", NULL, NULL);
        require_variant(&run, t == 0 ? "small/tn" : "tiled-1x4x4/vec1/tn", NULL, NULL);
        require_variant(&run, "scale", NULL, NULL);
        close_run(&run);
    }
}

// The plan of a row-major product of packed, untransposed operands.
static tailor_status explain_packed_nn(tailor_context *handle, cl_uint m, cl_uint n, cl_uint k,
                                       tailor_plan *plan)
{
    tailor_call call = {.operation = TAILOR_OP_SGEMM, .layout = TAILOR_ROW_MAJOR,
                        .trans_a = TAILOR_NO_TRANS, .trans_b = TAILOR_NO_TRANS, .m = m, .n = n, .k = k,
                        .lda = k, .ldb = n, .ldc = n, .alpha = 1.0f, .beta = 0.0f};
    return tailor_explain(handle, &call, plan);
}

// Split k counts a compute unit's time by SGEMM_SHARED_GAIN: one tile over
// units * 48 steps of k goes into twice as many slices as compute units
// (two groups a unit, one wave) where two groups at once gain anything, and
// into as many as compute units where they gain nothing (two slices of
// half the length in a unit then take as long as one; on one unit, k whole).
static void check_shared_gain(const struct test_device *device, const char *profile)
{
    static const int gains[] = {100, 50, 0};
    size_t units = device->info.compute_units;
    for (size_t g = 0; g < sizeof gains / sizeof gains[0]; ++g) {
        char tuning[2048];
        snprintf(tuning, sizeof tuning,
                 TILED_A ",SGEMM_SPLIT_PERCENT=100000,SGEMM_GROUPS_PER_UNIT=2,SGEMM_SHARED_GAIN=%d,"
                         "SGEMM_SPLIT_SLICE_COST=0,SGEMM_SPLIT_MIN_K=8,SGEMM_MID_SPLIT_EFFICIENCY=0,"
                         "SGEMM_THIN_M=0",
                 gains[g]);
        tailor_context *handle = test_handle(device, profile, tuning);
        if (!handle)
            continue;
        tailor_plan plan;
        char want[64];
        size_t slices = gains[g] ? 2 * units : units;
        if (slices > 1)
            snprintf(want, sizeof want, "split-k%zu:", slices);
        else
            snprintf(want, sizeof want, "tiled-"); // one compute unit, one slice: k stays whole
        tailor_status status = explain_packed_nn(handle, 16, 16, (cl_uint)(48 * units), &plan);
        CHECK(status == TAILOR_SUCCESS && strncmp(plan.variant, want, strlen(want)) == 0,
              "[%s] shared gain %d on %zu compute units: status %d, %s, want %s", profile, gains[g],
              units, (int)status, status == TAILOR_SUCCESS ? plan.variant : "", want);
        tailor_context_release(&handle);
    }
}

// The split-k rule checks' configuration: big tiles of 32 x 32, mid tiles
// of 16 x 16 (taken whenever k stays whole), the fewer-groups split off
// (SGEMM_SPLIT_PERCENT=0), two groups a compute unit each as fast as alone,
// slices without cost. Each check appends its rule's parameters.
#define SPLIT_RULE                                                                                  \
    NEUTRAL "SGEMM_CPU_KERNELS=0,SGEMM_SMALL_DIM=0,SGEMM_SMALL_CUBE=0,SGEMM_THIN_M=0,"              \
            "SGEMM_MID_PERCENT=100000,SGEMM_BM=32,SGEMM_BN=32,SGEMM_BK=8,SGEMM_MID_BM=16,"          \
            "SGEMM_MID_BN=16,SGEMM_MID_BK=8,SGEMM_SPLIT_PERCENT=0,SGEMM_GROUPS_PER_UNIT=2,"         \
            "SGEMM_SHARED_GAIN=100,SGEMM_SPLIT_SLICE_COST=0,SGEMM_SPLIT_MIN_K=8,"                   \
            "SGEMM_MID_SPLIT_EFFICIENCY=0,"

// Checks that an m x n x k product (row-major nn, packed) splits k, or
// takes the mid tiles whole, under `handle` (`rule` names its setting).
static void check_split_plan(const struct test_device *device, tailor_context *handle,
                             const char *profile, const char *rule, cl_uint m, cl_uint n, cl_uint k,
                             int split)
{
    tailor_plan plan;
    const char *want = split ? "split-k" : "tiled-16x16x8/";
    tailor_status status = explain_packed_nn(handle, m, n, k, &plan);
    CHECK(status == TAILOR_SUCCESS && strncmp(plan.variant, want, strlen(want)) == 0,
          "[%s] %s: %u x %u x %u on %u compute units: status %d, %s, want %s", profile, rule, m, n,
          k, device->info.compute_units, (int)status, status == TAILOR_SUCCESS ? plan.variant : "",
          want);
}

// SGEMM_SPLIT_LONG_K splits k, from that k on, where the mid tiles fill no
// more than a round of groups and the big tiles pad C no more than they do.
// 32 x 32 is four mid tiles: split on two compute units or more, with k
// long enough; 16 x 16 is one mid tile, but the big tile covers 32 x 32:
// never split.
static void check_split_long_k(const struct test_device *device, const char *profile)
{
    tailor_context *handle = test_handle(device, profile, SPLIT_RULE "SGEMM_SPLIT_LONG_K=256");
    if (!handle)
        return;
    int units = (int)device->info.compute_units;
    check_split_plan(device, handle, profile, "SGEMM_SPLIT_LONG_K=256", 32, 32, 256, units >= 2);
    check_split_plan(device, handle, profile, "SGEMM_SPLIT_LONG_K=256", 32, 32, 255, 0);
    check_split_plan(device, handle, profile, "SGEMM_SPLIT_LONG_K=256", 16, 16, 1024, 0);
    tailor_context_release(&handle);
}

// SGEMM_SPLIT_ROUNDS_K splits k, from that k on, where the mid tiles fill no
// more than SGEMM_SPLIT_ROUNDS rounds of groups (SGEMM_SPLIT_LONG_K off).
// 32 x 32U (U compute units) is 4U mid tiles, two rounds: split under two
// rounds (the big tiles' U groups in two slices take half a unit's time),
// not under one; nor with k short of the threshold, nor where the big tiles
// pad C more (32 x (32U - 16), which would split as much otherwise).
static void check_split_rounds(const struct test_device *device, const char *profile)
{
    const struct {
        int rounds;
        cl_uint n_short, k; // n = 32U - n_short
        int split;
    } cases[] = {{2, 0, 256, 1}, {1, 0, 256, 0}, {2, 0, 255, 0}, {2, 16, 256, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char rule[64], tuning[1536];
        snprintf(rule, sizeof rule, "SGEMM_SPLIT_ROUNDS_K=256,SGEMM_SPLIT_ROUNDS=%d", cases[i].rounds);
        snprintf(tuning, sizeof tuning, SPLIT_RULE "SGEMM_SPLIT_LONG_K=0,%s", rule);
        tailor_context *handle = test_handle(device, profile, tuning);
        if (!handle)
            return;
        cl_uint n = 32 * device->info.compute_units - cases[i].n_short;
        check_split_plan(device, handle, profile, rule, 32, n, cases[i].k, cases[i].split);
        tailor_context_release(&handle);
    }
}

// The small kernel takes thin products only while k is short: past
// SGEMM_SMALL_MAX_K the tiled kernels take them, whatever the thin side.
static void check_small_max_k(const struct test_device *device, const char *profile)
{
    static const struct {
        cl_uint m, n, k;
        const char *want;
    } cases[] = {{8, 8, 16, "small/"}, {8, 8, 17, "tiled-"}, {3, 500, 16, "small/"}, {500, 3, 17, "tiled-"}};
    tailor_context *handle = test_handle(device, profile, SMALL ",SGEMM_SMALL_MAX_K=16,SGEMM_THIN_M=0");
    if (!handle)
        return;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        tailor_plan plan;
        tailor_status status = explain_packed_nn(handle, cases[i].m, cases[i].n, cases[i].k, &plan);
        CHECK(status == TAILOR_SUCCESS && strstr(plan.variant, cases[i].want) == plan.variant,
              "[%s] %ux%ux%u under SGEMM_SMALL_MAX_K=16: status %d, %s, want %s...", profile, cases[i].m,
              cases[i].n, cases[i].k, (int)status, status == TAILOR_SUCCESS ? plan.variant : "", cases[i].want);
    }
    tailor_context_release(&handle);
}

// The CPU kernels' nt products take the packed kernel (B packed) where k
// is at most SGEMM_CPU_DOT_PACK_K times m, tt products where it is at most
// SGEMM_CPU_TT_PACK_K times m, both where m holds a block of the packed
// kernel's rows (CPU_RM x CPU_MC_PANELS: 4 here) and B's panels (8
// columns) pad n by at most half; otherwise the dot form (nt) or the
// broadcast form on C^T (tt).
static void check_cpu_short_k_packs(const struct test_device *device, const char *profile)
{
    static const struct {
        tailor_trans trans_a;
        cl_uint m, n, k;
        int pack_k;
        const char *want;
    } cases[] = {
        {TAILOR_NO_TRANS, 8, 16, 32, 4, "cpu-packed-2x8/nt"},
        {TAILOR_NO_TRANS, 8, 16, 33, 4, "cpu-dot-2x2/nt"},
        {TAILOR_NO_TRANS, 3, 16, 8, 4, "cpu-dot-2x2/nt"},
        {TAILOR_NO_TRANS, 8, 11, 8, 4, "cpu-packed-2x8/nt"},
        {TAILOR_NO_TRANS, 8, 10, 8, 4, "cpu-dot-2x2/nt"},
        {TAILOR_NO_TRANS, 8, 16, 8, 0, "cpu-dot-2x2/nt"},
        {TAILOR_TRANS, 8, 16, 16, 2, "cpu-packed-2x8/tt"},
        {TAILOR_TRANS, 8, 16, 17, 2, "cpu-blocked-2x8/tt"},
        {TAILOR_TRANS, 3, 16, 4, 2, "cpu-blocked-2x8/tt"},
        {TAILOR_TRANS, 8, 10, 8, 2, "cpu-blocked-2x8/tt"},
        {TAILOR_TRANS, 8, 16, 8, 0, "cpu-blocked-2x8/tt"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        int tt = cases[i].trans_a == TAILOR_TRANS;
        char tuning[2048];
        snprintf(tuning, sizeof tuning,
                 NEUTRAL "SGEMM_CPU_KERNELS=1,SGEMM_CPU_RM=2,SGEMM_CPU_VN=4,SGEMM_CPU_NV=2,"
                         "SGEMM_CPU_DOT_RN=2,SGEMM_CPU_MC_PANELS=2,SGEMM_CPU_PACK_CUBE=0,"
                         "SGEMM_CPU_DOT_PACK_K=%d,SGEMM_CPU_TT_PACK_K=%d",
                 tt ? 0 : cases[i].pack_k, tt ? cases[i].pack_k : 0);
        tailor_context *handle = test_handle(device, profile, tuning);
        if (!handle)
            continue;
        tailor_call call = {.operation = TAILOR_OP_SGEMM, .layout = TAILOR_ROW_MAJOR,
                            .trans_a = cases[i].trans_a, .trans_b = TAILOR_TRANS, .m = cases[i].m,
                            .n = cases[i].n, .k = cases[i].k, .alpha = 1.0f, .beta = 0.0f};
        tailor_plan plan;
        tailor_status status = tailor_explain(handle, &call, &plan);
        CHECK(status == TAILOR_SUCCESS && strcmp(plan.variant, cases[i].want) == 0,
              "[%s] %ux%ux%u %s, SGEMM_CPU_%s_PACK_K=%d: status %d, %s, want %s", profile, cases[i].m,
              cases[i].n, cases[i].k, tt ? "tt" : "nt", tt ? "TT" : "DOT", cases[i].pack_k, (int)status,
              status == TAILOR_SUCCESS ? plan.variant : "", cases[i].want);
        tailor_context_release(&handle);
    }
}

// The thin kernel only where its groups (48 columns of 8 rows each here, k
// unsplit) give every compute unit one (SGEMM_THIN_FILL=100); one group
// short, the tiled kernels. B stored transposed never takes it.
static void check_thin(const struct test_device *device, const char *profile)
{
    tailor_context *handle =
        test_handle(device, profile, THIN_FILLING ",SGEMM_THIN_FILL=100,SGEMM_THIN_MIN_K=1000000");
    if (!handle)
        return;
    size_t units = device->info.compute_units;
    for (int c = 0; c < 3; ++c) {
        size_t groups = c == 1 ? units - 1 : units;
        if (groups == 0)
            continue;
        tailor_call call = {.operation = TAILOR_OP_SGEMM, .layout = TAILOR_ROW_MAJOR,
                            .trans_a = TAILOR_NO_TRANS, .trans_b = c == 2 ? TAILOR_TRANS : TAILOR_NO_TRANS,
                            .m = 8, .n = 48 * groups, .k = 64, .alpha = 1.0f, .beta = 0.0f};
        tailor_plan plan;
        tailor_status status = tailor_explain(handle, &call, &plan);
        int thin = status == TAILOR_SUCCESS && strstr(plan.variant, "thin-8x3/nn") == plan.variant;
        CHECK(status == TAILOR_SUCCESS && thin == (c == 0) && (thin || !strstr(plan.variant, "thin")),
              "[%s] 8x%zux64%s on %zu compute units: status %d, %s, want %sthe thin kernel", profile,
              call.n, c == 2 ? " with B transposed" : "", units, (int)status,
              status == TAILOR_SUCCESS ? plan.variant : "", c == 0 ? "" : "not ");
    }
    tailor_context_release(&handle);
}

// k split for the thin kernel's groups (64 a compute unit wanted, slices of
// at least 8 steps rounded to whole local steps of 12: 6 slices of 64), and
// into at most SGEMM_THIN_MAX_SLICES: 3 slices of 24 steps, the last short.
static void check_thin_slices(const struct test_device *device, const char *profile)
{
    const char *settings[] = {THIN, THIN ",SGEMM_THIN_MAX_SLICES=3"};
    const char *want[] = {"split-k6:thin-8x3/nn", "split-k3:thin-8x3/nn"};
    for (int capped = 0; capped < 2; ++capped) {
        tailor_context *handle = test_handle(device, profile, settings[capped]);
        if (!handle)
            return;
        tailor_call call = {.operation = TAILOR_OP_SGEMM, .layout = TAILOR_ROW_MAJOR,
                            .trans_a = TAILOR_NO_TRANS, .trans_b = TAILOR_NO_TRANS, .m = 8,
                            .n = 48 * device->info.compute_units, .k = 64, .alpha = 1.0f,
                            .beta = 0.0f};
        tailor_plan plan;
        tailor_status status = tailor_explain(handle, &call, &plan);
        CHECK(status == TAILOR_SUCCESS && strcmp(plan.variant, want[capped]) == 0,
              "[%s] 8x%zux64 %s: status %d, %s, want %s", profile, call.n,
              capped ? "with at most 3 slices" : "unlimited", (int)status,
              status == TAILOR_SUCCESS ? plan.variant : "", want[capped]);
        tailor_context_release(&handle);
    }
}

// An operand off the load vectors is copied to aligned rows wherever k would
// be split, however small the product (SGEMM_STAGE_CUBE=0): unless k is
// short of four slices of SGEMM_SPLIT_MIN_K (8 here) or the copied operand
// feeds fewer columns of C than a mid tile has (32); then the scalar-load
// program splits k on the mid tiles. From SGEMM_STAGE_CUBE^3 multiply-adds
// the operand is copied where it feeds at least a mid tile's side of C, and
// with a C off the vector (n = 63) the vector kernels run over n rounded up
// and store C element by element.
// Without a split, small products keep the scalar kernels, but where each
// element of the operand feeds SGEMM_STAGE_REUSE outputs in a product of at
// least half SGEMM_STAGE_CUBE's side (32^3).
static void check_staging(const struct test_device *device, const char *profile)
{
    static const struct {
        const char *tuning;
        cl_uint m, n, k;
        const char *want, *also;
    } cases[] = {{TILED_SPLIT ",SGEMM_STAGE_CUBE=0", 16, 64, 200, "staged-a:", "split-k"},
                 {TILED_SPLIT ",SGEMM_STAGE_CUBE=0,SGEMM_SPLIT_PERCENT=0", 16, 64, 200, "tiled-", "/scalar/"},
                 {TILED_SPLIT ",SGEMM_STAGE_CUBE=0", 64, 8, 200, "split-k", ":tiled-32x32x16/scalar/"},
                 {TILED_SPLIT ",SGEMM_STAGE_CUBE=0", 16, 64, 30, "split-k", ":tiled-32x32x16/scalar/"},
                 {TILED_A ",SGEMM_STAGE_CUBE=1", 64, 32, 9, "staged-a:", "/vec"},
                 {TILED_A ",SGEMM_STAGE_CUBE=1", 64, 8, 9, "tiled-", "/scalar/"},
                 {TILED_A ",SGEMM_STAGE_CUBE=1", 64, 63, 9, "staged-ab,padded-n:", "/vec4/shifted/"},
                 {TILED_A ",SGEMM_STAGE_CUBE=64,SGEMM_STAGE_REUSE=16", 64, 64, 9, "staged-a:", "/vec"},
                 {TILED_A ",SGEMM_STAGE_CUBE=64,SGEMM_STAGE_REUSE=16", 512, 8, 9, "tiled-", "/scalar/"},
                 {TILED_A ",SGEMM_STAGE_CUBE=64,SGEMM_STAGE_REUSE=16", 32, 32, 9, "tiled-", "/scalar/"},
                 {TILED_A ",SGEMM_STAGE_CUBE=64,SGEMM_STAGE_REUSE=0", 64, 64, 9, "tiled-", "/scalar/"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char tuning[2048];
        snprintf(tuning, sizeof tuning, "%s,SGEMM_THIN_M=0", cases[i].tuning); // the tiled kernels' rules
        tailor_context *handle = test_handle(device, profile, tuning);
        if (!handle)
            continue;
        tailor_call call = {.operation = TAILOR_OP_SGEMM, .layout = TAILOR_ROW_MAJOR,
                            .trans_a = TAILOR_NO_TRANS, .trans_b = TAILOR_NO_TRANS,
                            .m = cases[i].m, .n = cases[i].n, .k = cases[i].k, .lda = cases[i].k + 1,
                            .ldb = cases[i].n, .ldc = cases[i].n, .alpha = 1.0f, .beta = 0.0f};
        tailor_plan plan;
        tailor_status status = tailor_explain(handle, &call, &plan);
        CHECK(status == TAILOR_SUCCESS && strstr(plan.variant, cases[i].want) == plan.variant &&
                  strstr(plan.variant, cases[i].also),
              "[%s] %ux%ux%u, lda k + 1, case %zu: status %d, %s, want %s...%s", profile, cases[i].m,
              cases[i].n, cases[i].k, i, (int)status, status == TAILOR_SUCCESS ? plan.variant : "",
              cases[i].want, cases[i].also);
        tailor_context_release(&handle);
    }
}

// Whether the handle plans a 64 x 64 x 40 tn product (both operands stored
// along m and n) with the kernels that copy both tiles by cp.async: the
// device has them and the tuning turns them on.
static int tn_copies_async(tailor_context *handle)
{
    tailor_call call = {.operation = TAILOR_OP_SGEMM, .layout = TAILOR_ROW_MAJOR, .trans_a = TAILOR_TRANS,
                        .trans_b = TAILOR_NO_TRANS, .m = 64, .n = 64, .k = 40, .lda = 64, .ldb = 64, .ldc = 64,
                        .alpha = 1.0f, .beta = 0.0f};
    tailor_plan plan;
    tailor_status status = tailor_explain(handle, &call, &plan);
    CHECK_STATUS(status, TAILOR_SUCCESS);
    return status == TAILOR_SUCCESS && strstr(plan.variant, "/async/") != NULL;
}

// A K-contiguous operand off the load vectors, which is copied to aligned
// rows anyway, is transposed on that copy instead where that makes the
// product take the kernels that copy both operand tiles by cp.async (a tn
// product shows them, on NVIDIA CUDA_SM >= 80): nn with A's rows off the
// vector becomes tn through A packed, tt with B's through B packed, nt
// with both through both. Without those kernels the operands stay staged.
static void check_packing_for_async(const struct test_device *device, const char *profile)
{
    tailor_context *handle = test_handle(device, profile,
                                         TILED_ASYNC ",SGEMM_MID_PERCENT=0,SGEMM_THIN_M=0,"
                                                     "SGEMM_STAGE_CUBE=1");
    if (!handle)
        return;
    int async = tn_copies_async(handle);
    const cl_uint m = 64, n = 64, k = 40;
    tailor_call call = {.operation = TAILOR_OP_SGEMM, .layout = TAILOR_ROW_MAJOR, .m = m, .n = n, .k = k,
                        .ldc = n, .alpha = 1.0f, .beta = 0.0f};
    const struct {
        tailor_trans trans_a, trans_b;
        const char *packed, *staged;
    } cases[] = {{TAILOR_NO_TRANS, TAILOR_NO_TRANS, "packed-a:", "staged-a:"},
                 {TAILOR_TRANS, TAILOR_TRANS, "packed-b:", "staged-b:"},
                 {TAILOR_NO_TRANS, TAILOR_TRANS, "packed-ab:", "staged-ab:"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        call.trans_a = cases[i].trans_a;
        call.trans_b = cases[i].trans_b;
        // The K-contiguous operands' rows one float longer than k.
        call.lda = cases[i].trans_a == TAILOR_TRANS ? m : k + 1;
        call.ldb = cases[i].trans_b == TAILOR_TRANS ? k + 1 : n;
        tailor_plan plan;
        tailor_status status = tailor_explain(handle, &call, &plan);
        const char *want = async ? cases[i].packed : cases[i].staged;
        size_t length = status == TAILOR_SUCCESS ? strlen(plan.variant) : 0;
        int planned = status == TAILOR_SUCCESS && strstr(plan.variant, want) == plan.variant &&
                      (!async || (strstr(plan.variant, "/async/") && length >= 3 &&
                                  strcmp(plan.variant + length - 3, "/tn") == 0));
        CHECK(planned, "[%s] %ux%ux%u %s%s with rows off the vector, case %zu: status %d, %s, want %s%s",
              profile, m, n, k, cases[i].trans_a == TAILOR_TRANS ? "t" : "n",
              cases[i].trans_b == TAILOR_TRANS ? "t" : "n", i, (int)status,
              status == TAILOR_SUCCESS ? plan.variant : "", want, async ? "../async/../tn" : "");
    }
    tailor_context_release(&handle);
}

// An aligned K-contiguous A is transposed first (SGEMM_PACK_A_ASYNC_MIN_N,
// _MIN_K) only where that makes the product copy both tiles by cp.async: nn
// becomes tn through A packed, nt (B packed) through both; below either
// bound, or without those kernels, A is not packed. The products are checked on the
// device with A packed where it is.
static void check_pack_a_for_async(const struct test_device *device, const char *profile,
                                   unsigned long long *seed)
{
    struct run run;
    open_run(&run, device, profile,
             TILED_ASYNC ",SGEMM_MID_PERCENT=0,SGEMM_THIN_M=0,SGEMM_PACK_B_MIN_M=1,SGEMM_PACK_A_ASYNC_MIN_N=64,"
             "SGEMM_PACK_A_ASYNC_MIN_K=40");
    if (!run.handle)
        return;
    int async = tn_copies_async(run.handle);
    tailor_call call = {.operation = TAILOR_OP_SGEMM, .layout = TAILOR_ROW_MAJOR, .trans_a = TAILOR_NO_TRANS,
                        .m = 64, .alpha = 1.0f, .beta = 0.0f};
    const struct {
        tailor_trans trans_b;
        cl_uint n, k;
        const char *packed, *unpacked;
    } cases[] = {{TAILOR_NO_TRANS, 64, 40, "packed-a:", "tiled-"},
                 {TAILOR_TRANS, 64, 40, "packed-ab:", "packed-b:"},
                 {TAILOR_NO_TRANS, 60, 40, "tiled-", "tiled-"},
                 {TAILOR_TRANS, 60, 40, "packed-b:", "packed-b:"},
                 {TAILOR_NO_TRANS, 64, 36, "tiled-", "tiled-"},
                 {TAILOR_TRANS, 64, 36, "packed-b:", "packed-b:"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        call.trans_b = cases[i].trans_b;
        call.n = call.ldc = cases[i].n;
        call.k = call.lda = cases[i].k;
        call.ldb = cases[i].trans_b == TAILOR_TRANS ? call.k : call.n;
        tailor_plan plan;
        tailor_status status = tailor_explain(run.handle, &call, &plan);
        int wide = cases[i].n >= 64 && cases[i].k >= 40;
        const char *want = async && wide ? cases[i].packed : cases[i].unpacked;
        int planned = status == TAILOR_SUCCESS && strstr(plan.variant, want) == plan.variant &&
                      (!async || !wide || strstr(plan.variant, "/async/"));
        CHECK(planned, "[%s] 64x%ux%u n%c aligned, case %zu: status %d, %s, want %s%s", profile, cases[i].n,
              cases[i].k, cases[i].trans_b == TAILOR_TRANS ? 't' : 'n', i, (int)status,
              status == TAILOR_SUCCESS ? plan.variant : "", want, async && wide ? "../async/.." : "");
    }
    static const struct gemm_case products[] = {
        {TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, TAILOR_NO_TRANS, 100, 72, 45, 1.0f, 0.0f, 1, 1},
        {TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, TAILOR_TRANS, 68, 96, 52, -0.5f, 0.25f, 1, 1},
        {TAILOR_COLUMN_MAJOR, TAILOR_NO_TRANS, TAILOR_NO_TRANS, 80, 66, 48, 2.0f, 1.0f, 1, 1},
        {TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, TAILOR_NO_TRANS, 100, 72, 36, 1.0f, 0.0f, 1, 1},
        {TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, TAILOR_NO_TRANS, 51, 129, 200, 1.0f, 0.5f, 0, 1},
    };
    for (size_t i = 0; i < sizeof products / sizeof products[0]; ++i)
        check_case(&run, &products[i], seed);
    if (async) {
        require_variant(&run, "packed-a:", "/async/", "/tn");
        require_variant(&run, "packed-ab:", "/async/", "/tn");
    }
    close_run(&run);
}

// The mid tiles' tn products copy by cp.async (SGEMM_MID_ASYNC, where the
// device has it) only from SGEMM_MID_ASYNC_ROUNDS groups per compute unit:
// from 0 every one does, from more than any product here none does (the tn
// kernels that stage through registers), aligned, guarded and shifted, k
// split or not; each product checked.
static void check_mid_async_rounds(const struct test_device *device, const char *profile,
                                   unsigned long long *seed)
{
    static const struct gemm_case products[] = {
        {TAILOR_ROW_MAJOR, TAILOR_TRANS, TAILOR_NO_TRANS, 64, 64, 12, 1.0f, 0.0f, 1, 1},
        {TAILOR_ROW_MAJOR, TAILOR_TRANS, TAILOR_NO_TRANS, 37, 41, 13, -1.0f, 0.5f, 1, 1},
        {TAILOR_ROW_MAJOR, TAILOR_TRANS, TAILOR_NO_TRANS, 68, 100, 37, 0.5f, 0.0f, 1, 1},
        {TAILOR_ROW_MAJOR, TAILOR_TRANS, TAILOR_NO_TRANS, 64, 96, 300, 1.0f, 1.0f, 1, 1},
        {TAILOR_COLUMN_MAJOR, TAILOR_TRANS, TAILOR_NO_TRANS, 41, 37, 300, 2.0f, 0.0f, 1, 1},
    };
    int copied_async = 0;
    for (int never = 0; never < 2; ++never) {
        char tuning[1536];
        snprintf(tuning, sizeof tuning, "%s,SGEMM_MID_ASYNC=1,SGEMM_MID_DOUBLE_BUFFER=1,SGEMM_MID_ASYNC_ROUNDS=%d",
                 TILED_SPLIT_MID, never ? 1 << 20 : 0);
        struct run run;
        open_run(&run, device, profile, tuning);
        if (!run.handle)
            return;
        for (size_t i = 0; i < sizeof products / sizeof products[0]; ++i)
            check_case(&run, &products[i], seed);
        int seen_async = 0;
        for (size_t i = 0; i < run.seen_count; ++i)
            seen_async |= strstr(run.seen[i], "/async/") != NULL;
        require_variant(&run, "split-k", "/tn", NULL);
        require_variant(&run, "tiled-16x32x4/vec4/", "/edge/tn", NULL);
        require_variant(&run, "tiled-16x32x4/vec4/", "/shifted/tn", NULL);
        if (never)
            CHECK(!seen_async, "%s: a mid-tile product copied by cp.async below SGEMM_MID_ASYNC_ROUNDS",
                  run.label);
        else
            copied_async = seen_async;
        close_run(&run);
    }
    fprintf(stderr, "  [%s] mid tiles by cp.async from 0 groups per compute unit: %s\n", profile,
            copied_async ? "yes" : "no (the device has no cp.async)");
}

// A and B on the load vectors, C off them: the vector programs' shifted and
// guarded kernels store C element by element (their loads stay vectors, and
// nothing is copied), whole tiles included; the aligned kernels, which store
// whole vectors, are not taken. Each product checked, C's surroundings too.
static void check_c_off_vectors(const struct test_device *device, const char *profile,
                                unsigned long long *seed)
{
    static const struct gemm_case products[] = {
        {TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, TAILOR_NO_TRANS, 64, 64, 32, 1.0f, 0.0f, A_B_ALIGNED, 1},
        {TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, TAILOR_TRANS, 48, 64, 40, -0.5f, 0.25f, A_B_ALIGNED, 1},
        {TAILOR_ROW_MAJOR, TAILOR_TRANS, TAILOR_NO_TRANS, 64, 48, 24, 2.0f, 1.0f, A_B_ALIGNED, 1},
        {TAILOR_ROW_MAJOR, TAILOR_TRANS, TAILOR_TRANS, 32, 32, 16, 1.0f, 0.5f, A_B_ALIGNED, 1},
        {TAILOR_COLUMN_MAJOR, TAILOR_NO_TRANS, TAILOR_TRANS, 32, 64, 24, 1.0f, 0.0f, A_B_ALIGNED, 1},
        {TAILOR_ROW_MAJOR, TAILOR_TRANS, TAILOR_NO_TRANS, 37, 41, 13, -1.0f, 0.5f, A_B_ALIGNED, 1},
        {TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, TAILOR_NO_TRANS, 12, 8, 20, 1.0f, 0.0f, A_B_ALIGNED, 1},
    };
    struct run run;
    open_run(&run, device, profile, TILED_A ",SGEMM_THIN_M=0,SGEMM_DOTS_MAX=0");
    if (!run.handle)
        return;
    for (size_t i = 0; i < sizeof products / sizeof products[0]; ++i)
        check_case(&run, &products[i], seed);
    require_variant(&run, "tiled-16x16x8/vec4/shifted/", NULL, NULL);
    require_variant(&run, "tiled-16x16x8/vec4/edge/", NULL, NULL);
    for (size_t i = 0; i < run.seen_count; ++i)
        CHECK(strstr(run.seen[i], "tiled-16x16x8/vec4/") == run.seen[i] &&
                  (strstr(run.seen[i], "/shifted/") || strstr(run.seen[i], "/edge/")),
              "%s: a product with C off the vectors took %s", run.label, run.seen[i]);
    close_run(&run);
}

// Events and wait lists: gated by a user event, the call must not complete first.
static void check_wait_list(struct run *run)
{
    cl_int error;
    cl_event gate = clCreateUserEvent(run->device->context, &error);
    CHECK(error == CL_SUCCESS, "clCreateUserEvent failed");
    if (error != CL_SUCCESS)
        return;
    float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 0, 0, 1, 1, 1}, c[4] = {0}, got[4];
    cl_mem ab = test_buffer(run->device, CL_MEM_READ_ONLY, sizeof a, a);
    cl_mem bb = test_buffer(run->device, CL_MEM_READ_ONLY, sizeof b, b);
    cl_mem cb = test_buffer(run->device, CL_MEM_READ_WRITE, sizeof c, c);
    cl_event done = NULL;
    // Row-major 2x3 times 3x2.
    CHECK_STATUS(tailor_sgemm(run->handle, run->device->queue, TAILOR_ROW_MAJOR, TAILOR_NO_TRANS,
                              TAILOR_NO_TRANS, 2, 2, 3, 1.0f, ab, 0, 3, bb, 0, 2, 0.0f, cb, 0, 2, 1, &gate, &done),
                 TAILOR_SUCCESS);
    clFlush(run->device->queue);
    usleep(20000);
    cl_int state = CL_COMPLETE;
    if (done)
        clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL);
    CHECK(done && state != CL_COMPLETE, "%s: sgemm completed before its wait list", run->label);
    clSetUserEventStatus(gate, CL_COMPLETE);
    if (done) {
        CHECK(clWaitForEvents(1, &done) == CL_SUCCESS, "waiting failed");
        clReleaseEvent(done);
    }
    test_read(run->device, cb, 0, sizeof got, got);
    CHECK(got[0] == 4 && got[1] == 5 && got[2] == 10 && got[3] == 11, "%s: after the gate got %g %g %g %g",
          run->label, (double)got[0], (double)got[1], (double)got[2], (double)got[3]);
    clReleaseEvent(gate);
    clReleaseMemObject(ab);
    clReleaseMemObject(bb);
    clReleaseMemObject(cb);
}

// k = 0 and alpha = 0: C = beta * C, A and B never read (NULL or NaN-filled);
// beta = 1 then changes nothing; m = 0 or n = 0 needs no buffers at all.
static void check_quick_returns(struct run *run)
{
    const struct test_device *d = run->device;
    cl_command_queue q = d->queue;
    float c[12], nans[12], got[12];
    for (int i = 0; i < 12; ++i) {
        c[i] = (float)i - 3.5f;
        nans[i] = NAN;
    }
    cl_mem nan_buffer = test_buffer(d, CL_MEM_READ_ONLY, sizeof nans, nans);
    cl_mem cb = test_buffer(d, CL_MEM_READ_WRITE, sizeof c, c);
    cl_event event = NULL;
    CHECK_STATUS(tailor_sgemm(run->handle, q, TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, TAILOR_NO_TRANS, 3, 4, 0, 1.0f,
                              NULL, 0, 1, NULL, 0, 4, 2.0f, cb, 0, 4, 0, NULL, &event),
                 TAILOR_SUCCESS);
    CHECK(strcmp(tailor_last_variant(), "scale") == 0, "k = 0 ran '%s'", tailor_last_variant());
    if (event) {
        clWaitForEvents(1, &event);
        clReleaseEvent(event);
    }
    test_read(d, cb, 0, sizeof got, got);
    for (int i = 0; i < 12; ++i)
        CHECK(got[i] == 2.0f * c[i], "k = 0: C[%d] = %g, expected %g", i, (double)got[i], 2.0 * c[i]);
    // alpha = 0 with NaN operands, column-major, beta = -1.
    CHECK_STATUS(tailor_sgemm(run->handle, q, TAILOR_COLUMN_MAJOR, TAILOR_TRANS, TAILOR_NO_TRANS, 4, 3, 2, 0.0f,
                              nan_buffer, 0, 2, nan_buffer, 0, 2, -1.0f, cb, 0, 4, 0, NULL, NULL),
                 TAILOR_SUCCESS);
    test_read(d, cb, 0, sizeof got, got);
    for (int i = 0; i < 12; ++i)
        CHECK(got[i] == -2.0f * c[i], "alpha = 0: C[%d] = %g, expected %g", i, (double)got[i], -2.0 * c[i]);
    // beta = 0 clears NaNs; beta = 1 with k = 0 leaves C alone (an event still comes).
    clEnqueueWriteBuffer(q, cb, CL_TRUE, 0, sizeof nans, nans, 0, NULL, NULL);
    CHECK_STATUS(tailor_sgemm(run->handle, q, TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, TAILOR_TRANS, 3, 4, 0, 1.0f,
                              NULL, 0, 1, NULL, 0, 1, 0.0f, cb, 0, 4, 0, NULL, NULL),
                 TAILOR_SUCCESS);
    test_read(d, cb, 0, sizeof got, got);
    for (int i = 0; i < 12; ++i)
        CHECK(got[i] == 0.0f, "beta = 0, k = 0: C[%d] = %g", i, (double)got[i]);
    event = NULL;
    CHECK_STATUS(tailor_sgemm(run->handle, q, TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, TAILOR_NO_TRANS, 3, 4, 0, 1.0f,
                              NULL, 0, 1, NULL, 0, 4, 1.0f, cb, 0, 4, 0, NULL, &event),
                 TAILOR_SUCCESS);
    CHECK(event && clWaitForEvents(1, &event) == CL_SUCCESS, "k = 0, beta = 1: no usable event");
    if (event)
        clReleaseEvent(event);
    event = NULL;
    CHECK_STATUS(tailor_sgemm(run->handle, q, TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, TAILOR_NO_TRANS, 0, 4, 5, 1.0f,
                              NULL, 0, 5, NULL, 0, 4, 1.0f, NULL, 0, 4, 0, NULL, &event),
                 TAILOR_SUCCESS);
    CHECK(event && clWaitForEvents(1, &event) == CL_SUCCESS, "m = 0: no usable event");
    if (event)
        clReleaseEvent(event);
    CHECK_STATUS(tailor_sgemm(run->handle, q, TAILOR_COLUMN_MAJOR, TAILOR_NO_TRANS, TAILOR_NO_TRANS, 4, 0, 5, 1.0f,
                              NULL, 0, 4, NULL, 0, 5, 1.0f, NULL, 0, 4, 0, NULL, NULL),
                 TAILOR_SUCCESS);
    // C and A in one buffer without overlap is fine.
    float shared[12] = {1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0};
    cl_mem sb = test_buffer(d, CL_MEM_READ_WRITE, sizeof shared, shared);
    CHECK_STATUS(tailor_sgemm(run->handle, q, TAILOR_ROW_MAJOR, TAILOR_NO_TRANS, TAILOR_NO_TRANS, 2, 2, 2, 1.0f,
                              sb, 0, 2, sb, 0, 2, 0.0f, sb, 4, 2, 0, NULL, NULL),
                 TAILOR_SUCCESS);
    test_read(d, sb, 0, sizeof got, got);
    CHECK(got[4] == 7 && got[5] == 10 && got[6] == 15 && got[7] == 22, "shared buffer: %g %g %g %g",
          (double)got[4], (double)got[5], (double)got[6], (double)got[7]);
    clReleaseMemObject(sb);
    clReleaseMemObject(nan_buffer);
    clReleaseMemObject(cb);
}

#define EXPECT(call, status)                                                                        \
    do {                                                                                            \
        CHECK_STATUS(call, status);                                                                 \
        CHECK((status) == TAILOR_SUCCESS || *tailor_last_error(), "%s: no message", #call);         \
    } while (0)

// sgemm with the run's handle and the queue q, alpha = 1.
#define SGEMM(layout, ta, tb, m, n, k, a, ao, lda, b, bo, ldb, beta, c, co, ldc)                    \
    tailor_sgemm(run->handle, q, layout, ta, tb, m, n, k, 1.0f, a, ao, lda, b, bo, ldb, beta, c, co, ldc, 0, \
                 NULL, NULL)
#define R TAILOR_ROW_MAJOR
#define C_ TAILOR_COLUMN_MAJOR
#define N_ TAILOR_NO_TRANS
#define T_ TAILOR_TRANS

static void check_bad_input(struct run *run)
{
    const struct test_device *d = run->device;
    cl_command_queue q = d->queue;
    // A 6x5 (30), B 5x4 (20), C 6x4 (24), in buffers of exactly that size.
    cl_mem a = test_buffer(d, CL_MEM_READ_WRITE, 30 * sizeof(float), NULL);
    cl_mem b = test_buffer(d, CL_MEM_READ_WRITE, 20 * sizeof(float), NULL);
    cl_mem c = test_buffer(d, CL_MEM_READ_WRITE, 24 * sizeof(float), NULL);
    cl_mem read_only = test_buffer(d, CL_MEM_READ_ONLY, 24 * sizeof(float), NULL);
    cl_mem write_only = test_buffer(d, CL_MEM_WRITE_ONLY, 30 * sizeof(float), NULL);
    if (!a || !b || !c || !read_only || !write_only)
        goto done;
    EXPECT(SGEMM(R, N_, N_, 6, 4, 5, a, 0, 5, b, 0, 4, 0.0f, c, 0, 4), TAILOR_SUCCESS);
    EXPECT(tailor_sgemm(NULL, q, R, N_, N_, 6, 4, 5, 1.0f, a, 0, 5, b, 0, 4, 0.0f, c, 0, 4, 0, NULL, NULL),
           TAILOR_ERROR_NULL_HANDLE);
    EXPECT(tailor_sgemm(run->handle, NULL, R, N_, N_, 6, 4, 5, 1.0f, a, 0, 5, b, 0, 4, 0.0f, c, 0, 4, 0, NULL,
                        NULL),
           TAILOR_ERROR_INVALID_QUEUE);
    EXPECT(SGEMM((tailor_layout)2, N_, N_, 6, 4, 5, a, 0, 5, b, 0, 4, 0.0f, c, 0, 4), TAILOR_ERROR_UNKNOWN_LAYOUT);
    EXPECT(SGEMM(R, (tailor_trans)2, N_, 6, 4, 5, a, 0, 5, b, 0, 4, 0.0f, c, 0, 4),
           TAILOR_ERROR_UNKNOWN_TRANSPOSE);
    EXPECT(SGEMM(R, N_, (tailor_trans)-1, 6, 4, 5, a, 0, 5, b, 0, 4, 0.0f, c, 0, 4),
           TAILOR_ERROR_UNKNOWN_TRANSPOSE);
    // Leading dimensions shorter than a stored line, for each layout and transpose.
    EXPECT(SGEMM(R, N_, N_, 6, 4, 5, a, 0, 4, b, 0, 4, 0.0f, c, 0, 4), TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    EXPECT(SGEMM(R, T_, N_, 6, 4, 5, a, 0, 5, b, 0, 4, 0.0f, c, 0, 4), TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    EXPECT(SGEMM(C_, N_, N_, 6, 4, 5, a, 0, 5, b, 0, 5, 0.0f, c, 0, 6), TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    EXPECT(SGEMM(C_, T_, N_, 6, 4, 5, a, 0, 4, b, 0, 5, 0.0f, c, 0, 6), TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    EXPECT(SGEMM(R, N_, N_, 6, 4, 5, a, 0, 5, b, 0, 3, 0.0f, c, 0, 4), TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    EXPECT(SGEMM(R, N_, T_, 6, 4, 5, a, 0, 5, b, 0, 4, 0.0f, c, 0, 4), TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    EXPECT(SGEMM(C_, N_, T_, 6, 4, 5, a, 0, 6, b, 0, 3, 0.0f, c, 0, 6), TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    EXPECT(SGEMM(R, N_, N_, 6, 4, 5, a, 0, 5, b, 0, 4, 0.0f, c, 0, 3), TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    EXPECT(SGEMM(C_, N_, N_, 6, 4, 5, a, 0, 6, b, 0, 5, 0.0f, c, 0, 5), TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    // ld = 0 is refused even when there is nothing to do.
    EXPECT(SGEMM(R, N_, N_, 0, 4, 0, a, 0, 0, b, 0, 4, 0.0f, c, 0, 4), TAILOR_ERROR_INVALID_LEADING_DIMENSION);
    // Buffers too small for their strided extent, and offsets past them.
    EXPECT(SGEMM(R, N_, N_, 6, 4, 5, a, 0, 6, b, 0, 4, 0.0f, c, 0, 4), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(SGEMM(R, N_, N_, 6, 4, 5, a, 1, 5, b, 0, 4, 0.0f, c, 0, 4), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(SGEMM(R, N_, N_, 6, 4, 5, a, 0, 5, b, 0, 5, 0.0f, c, 0, 4), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(SGEMM(R, N_, N_, 6, 4, 5, a, 0, 5, b, 1, 4, 0.0f, c, 0, 4), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(SGEMM(R, N_, N_, 6, 4, 5, a, 0, 5, b, 0, 4, 0.0f, c, 0, 5), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(SGEMM(C_, N_, N_, 6, 4, 5, a, 0, 6, b, 0, 5, 0.0f, c, 1, 6), TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(SGEMM(R, N_, N_, 6, 4, 5, a, SIZE_MAX, 5, b, 0, 4, 0.0f, c, 0, 4), TAILOR_ERROR_SIZE_OVERFLOW);
    EXPECT(SGEMM(R, N_, N_, 6, 4, 5, a, 0, SIZE_MAX / 2, b, 0, 4, 0.0f, c, 0, 4), TAILOR_ERROR_SIZE_OVERFLOW);
    EXPECT(SGEMM(R, N_, N_, (size_t)1 << 31, 1, 1, a, 0, 1, b, 0, 1, 0.0f, c, 0, 1), TAILOR_ERROR_UNSUPPORTED);
    // Missing buffers, wrong access, overlap of C with an input.
    EXPECT(SGEMM(R, N_, N_, 6, 4, 5, NULL, 0, 5, b, 0, 4, 0.0f, c, 0, 4), TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(SGEMM(R, N_, N_, 6, 4, 5, a, 0, 5, NULL, 0, 4, 0.0f, c, 0, 4), TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(SGEMM(R, N_, N_, 6, 4, 5, a, 0, 5, b, 0, 4, 0.0f, NULL, 0, 4), TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(SGEMM(R, N_, N_, 6, 4, 5, a, 0, 5, b, 0, 4, 0.0f, read_only, 0, 4), TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(SGEMM(R, N_, N_, 6, 4, 5, write_only, 0, 5, b, 0, 4, 0.0f, c, 0, 4), TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(SGEMM(R, N_, N_, 5, 4, 5, a, 0, 5, b, 0, 4, 1.0f, write_only, 0, 4), TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(SGEMM(R, N_, N_, 5, 4, 5, a, 0, 5, b, 0, 4, 0.0f, write_only, 0, 4), TAILOR_SUCCESS);
    EXPECT(SGEMM(R, N_, N_, 2, 2, 2, a, 0, 2, b, 0, 2, 0.0f, a, 3, 2), TAILOR_ERROR_BUFFERS_OVERLAP);
    EXPECT(SGEMM(R, N_, N_, 2, 2, 2, a, 0, 2, b, 0, 2, 0.0f, b, 0, 2), TAILOR_ERROR_BUFFERS_OVERLAP);
    cl_event none = NULL;
    EXPECT(tailor_sgemm(run->handle, q, R, N_, N_, 6, 4, 5, 1.0f, a, 0, 5, b, 0, 4, 0.0f, c, 0, 4, 1, NULL, NULL),
           TAILOR_ERROR_INVALID_WAIT_LIST);
    EXPECT(tailor_sgemm(run->handle, q, R, N_, N_, 6, 4, 5, 1.0f, a, 0, 5, b, 0, 4, 0.0f, c, 0, 4, 0, &none, NULL),
           TAILOR_ERROR_INVALID_WAIT_LIST);
    EXPECT(tailor_sgemm(run->handle, q, R, N_, N_, 6, 4, 5, 1.0f, a, 0, 5, b, 0, 4, 0.0f, c, 0, 4, 1, &none, NULL),
           TAILOR_ERROR_INVALID_WAIT_LIST);
    EXPECT(SGEMM(R, N_, N_, 6, 4, 5, a, 0, 5, b, 0, 4, 0.0f, c, 0, 4), TAILOR_SUCCESS);
done:
    if (a)
        clReleaseMemObject(a);
    if (b)
        clReleaseMemObject(b);
    if (c)
        clReleaseMemObject(c);
    if (read_only)
        clReleaseMemObject(read_only);
    if (write_only)
        clReleaseMemObject(write_only);
}

// The detected profile, with its own tile sizes and thresholds.
static void run_detected(const struct test_device *device, int small, unsigned long long *seed)
{
    struct run run;
    open_run(&run, device, device->info.profile_name, NULL);
    if (!run.handle)
        return;
    check_bad_input(&run);
    check_quick_returns(&run);
    check_wait_list(&run);
    if (!small) {
        check_shapes(&run, shapes, sizeof shapes / sizeof shapes[0], seed);
        // The large shapes in two combinations each: row-major nn and column-major tt.
        for (size_t s = 0; s < sizeof large_shapes / sizeof large_shapes[0]; ++s) {
            for (int combo = 0; combo < 2; ++combo) {
                struct gemm_case g = {
                    .layout = combo ? TAILOR_COLUMN_MAJOR : TAILOR_ROW_MAJOR,
                    .trans_a = combo ? TAILOR_TRANS : TAILOR_NO_TRANS,
                    .trans_b = combo ? TAILOR_TRANS : TAILOR_NO_TRANS,
                    .m = large_shapes[s].m,
                    .n = large_shapes[s].n,
                    .k = large_shapes[s].k,
                    .alpha = combo ? 1.5f : 1.0f,
                    .beta = combo ? 0.25f : 0.0f,
                    .aligned = !combo,
                    .planted_nans = 1,
                };
                check_case(&run, &g, seed);
            }
        }
    }
    close_run(&run);
}

int main(int argc, char **argv)
{
    struct test_options options = test_parse_options(argc, argv);
    struct test_device devices[16];
    size_t count = test_open_devices(devices, 16);
    unsigned long long seed = 0x2545f4914f6cdd1dull;
    for (size_t d = 0; d < count; ++d) {
        const char *profiles[4];
        size_t profile_count = test_chosen_profiles(&devices[d], &options, profiles, 4, 0);
        if (!options.profile && test_runs_own(&options))
            run_detected(&devices[d], options.small, &seed);
        for (size_t p = 0; p < profile_count; ++p) {
            for (size_t i = 0; i < sizeof configs / sizeof configs[0]; ++i)
                run_config(&devices[d], profiles[p], &configs[i], options.small, &seed);
            check_shared_gain(&devices[d], profiles[p]);
            check_split_long_k(&devices[d], profiles[p]);
            check_split_rounds(&devices[d], profiles[p]);
            check_small_max_k(&devices[d], profiles[p]);
            check_thin(&devices[d], profiles[p]);
            check_cpu_short_k_packs(&devices[d], profiles[p]);
            check_staging(&devices[d], profiles[p]);
            check_packing_for_async(&devices[d], profiles[p]);
            check_pack_a_for_async(&devices[d], profiles[p], &seed);
            check_mid_async_rounds(&devices[d], profiles[p], &seed);
            check_c_off_vectors(&devices[d], profiles[p], &seed);
            check_thin_slices(&devices[d], profiles[p]);
            if (!options.small)
                check_tall(&devices[d], profiles[p], &seed);
        }
    }
    test_close_devices(devices, count);
    return test_exit_status("test_sgemm");
}
