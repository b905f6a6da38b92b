// tailor_sgemm: argument checks, the column-major to row-major mapping, and
// the choice among the kernels of cl/sgemm.cl (CPU-blocked, small/skinny,
// tiled with the big or mid tile set, vector or scalar loads, fast or edge).
#include "sgemm.h"

#include <stdint.h>
#include <stdio.h>

#include "checks.h"
#include "context.h"
#include "error.h"
#include "launch.h"
#include "matrix_product.h"
#include "workspace.h"

// The kernels index rows, columns and k with 32-bit integers.
#define SGEMM_MAX_DIMENSION ((size_t)INT32_MAX)

// Groups along launch dimensions 1 and 2: NVIDIA GPUs take at most 65535 in
// each (CUDA's grid limits), so the kernels' row groups spread over both.
#define MAX_GROUPS_12 ((size_t)65535)

// One call in row-major terms (after the column-major swap).
struct sgemm_call {
    tailor_context *ctx;
    cl_command_queue queue;
    cl_uint m, n, k;
    // C's rows and columns: m and n, but for a product padded beyond C
    // (staged_call's pad_m, pad_n), which computes rows and columns it does
    // not store.
    cl_uint c_rows, c_cols;
    cl_float alpha, beta;
    int a_mn_contig; // A is stored transposed: element (i, p) at a[p * lda + i]
    int b_k_contig;  // B is stored transposed: element (p, j) at b[j * ldb + p]
    cl_mem a, b, c;
    cl_ulong a_offset, lda, b_offset, ldb, c_offset, ldc;
    int scale_only; // k = 0 or alpha = 0: C = beta * C
    cl_uint wait_count;
    const cl_event *wait_list;
    cl_event *event;
};

static size_t ceil_div(size_t a, size_t b)
{
    return (a + b - 1) / b;
}

static size_t round_up(size_t a, size_t b)
{
    return ceil_div(a, b) * b;
}

// A 3-D launch.
struct geometry {
    size_t global[3], local[3];
};

// `columns` work-items in groups of `local_columns` along dimension 0, and
// `row_groups` groups of `local_rows` work-items that the kernel indexes by
// group_row() (cl/sgemm.cl) over dimensions 1 and 2.
static struct geometry spread_rows(size_t columns, size_t local_columns, size_t row_groups,
                                   size_t local_rows)
{
    size_t first = row_groups < MAX_GROUPS_12 ? row_groups : MAX_GROUPS_12;
    return (struct geometry){{columns, first * local_rows, ceil_div(row_groups, first)},
                             {local_columns, local_rows, 1}};
}

// "nn", "nt", "tn" or "tt": op(A) and op(B) as the kernels see them.
static const char *orientation(const struct sgemm_call *c)
{
    static const char *const names[2][2] = {{"nn", "nt"}, {"tn", "tt"}};
    return names[c->a_mn_contig][c->b_k_contig];
}

// Work-items of the dots kernel that share its lines along k (cl/sgemm.cl's
// DOTS_LANES).
#define SGEMM_DOTS_LANES 32

// Floats past SGEMM_DOTS_KC between the dots kernel's local vectors
// (cl/sgemm.cl's DOTS_Y_PITCH).
#define SGEMM_DOTS_Y_PAD 4

// Lines whose sums a set of the dots kernel adds at once, for `vectors`
// vectors (cl/sgemm.cl's DOTS_SUM_LINES).
static size_t dots_sum_lines(const int *t, size_t vectors)
{
    size_t lines = (size_t)t[TUNE_SGEMM_DOTS_SUMS] / vectors, most = (size_t)t[TUNE_SGEMM_DOTS_LINES];
    return lines < 1 ? 1 : lines > most ? most : lines;
}

// One tile set of the tiled kernel as the profile has it (mid = 0: the
// SGEMM_* set, 1: the SGEMM_MID_* set).
struct sgemm_tiles {
    int bm, bn, bk, tm, tn, vwm, vwn, warp_tx, warp_ty, double_buffer, prefetch, sliced_k, async;
};

static void tiles_of(const int *t, int mid, struct sgemm_tiles *tiles)
{
#define SGEMM_TILES_FROM_(P)                                                                        \
    (struct sgemm_tiles)                                                                            \
    {                                                                                               \
        t[TUNE_##P##BM], t[TUNE_##P##BN], t[TUNE_##P##BK], t[TUNE_##P##TM], t[TUNE_##P##TN],        \
            t[TUNE_##P##VWM], t[TUNE_##P##VWN], t[TUNE_##P##WARP_TX], t[TUNE_##P##WARP_TY],         \
            t[TUNE_##P##DOUBLE_BUFFER], t[TUNE_##P##PREFETCH], t[TUNE_##P##SLICED_K],               \
            t[TUNE_##P##ASYNC]                                                                      \
    }
    *tiles = mid ? SGEMM_TILES_FROM_(SGEMM_MID_) : SGEMM_TILES_FROM_(SGEMM_);
#undef SGEMM_TILES_FROM_
}

// The largest work-group the device takes (synthetic facts may leave it 0).
static size_t max_group(const tailor_device_info *facts)
{
    return facts->max_work_group_size ? facts->max_work_group_size : 1024;
}

// A tile set of the tiled SGEMM kernel must split evenly: the register tile
// into local-memory vectors, the group tile into register tiles, each
// operand's tile into global-load vectors along either dimension (KTHREADS
// work-items side by side along k), a local step of k and the register
// tile's rows into the slices of k; and it must fit the device's work-group
// size and local memory (where the A tiles also hold the slices' register
// tiles at the end, and a pass of C's tile in the scalar-store programs).
static tailor_status check_tiles(const int *t, const tailor_device_info *facts, int mid)
{
    struct sgemm_tiles s;
    tiles_of(t, mid, &s);
    const char *set = mid ? "SGEMM_MID_" : "SGEMM_";
    int vec = t[TUNE_SGEMM_LOAD_VEC], kthreads = t[TUNE_SGEMM_KTHREADS];
    int pad_a = t[TUNE_SGEMM_PAD_A], pad_b = t[TUNE_SGEMM_PAD_B];
    REQUIRE(s.tm % s.vwm == 0 && s.tn % s.vwn == 0 && s.bm % s.tm == 0 && s.bn % s.tn == 0,
            TAILOR_ERROR_INVALID_PROFILE,
            "%sVWM must divide %sTM, %sTM divide %sBM (and the same along N)", set, set, set, set);
    int tx = s.bn / s.tn, ty = s.bm / s.tm, threads = tx * ty * s.sliced_k;
    REQUIRE((size_t)threads <= max_group(facts), TAILOR_ERROR_INVALID_PROFILE,
            "%s tiles need %d work-items a group; the device takes %zu", set, threads,
            max_group(facts));
    REQUIRE(s.bm % vec == 0 && s.bn % vec == 0 && s.bk % (vec * kthreads) == 0,
            TAILOR_ERROR_INVALID_PROFILE,
            "%s tiles (%dx%dx%d) do not split into SGEMM_LOAD_VEC=%d loads with SGEMM_KTHREADS=%d",
            set, s.bm, s.bn, s.bk, vec, kthreads);
    REQUIRE(s.bk % s.sliced_k == 0 && s.tm % s.sliced_k == 0, TAILOR_ERROR_INVALID_PROFILE,
            "%sSLICED_K=%d must divide %sBK=%d and %sTM=%d", set, s.sliced_k, set, s.bk, set, s.tm);
    REQUIRE(pad_a % vec == 0 && pad_a % s.vwm == 0 && pad_b % vec == 0 && pad_b % s.vwn == 0,
            TAILOR_ERROR_INVALID_PROFILE,
            "SGEMM_PAD_A and SGEMM_PAD_B must keep rows aligned to SGEMM_LOAD_VEC and %sVWM/VWN",
            set);
    REQUIRE((s.warp_tx == 0 && s.warp_ty == 0) ||
                (s.warp_tx > 0 && s.warp_ty > 0 && tx % s.warp_tx == 0 && ty % s.warp_ty == 0),
            TAILOR_ERROR_INVALID_PROFILE,
            "%sWARP_TX x %sWARP_TY must both be 0 or tile the %d x %d work-items", set, set, tx, ty);
    REQUIRE(!t[TUNE_SGEMM_WARP_INTERLEAVE] || s.warp_tx == 0 || s.warp_ty % 2 == 0,
            TAILOR_ERROR_INVALID_PROFILE, "SGEMM_WARP_INTERLEAVE needs an even %sWARP_TY", set);
    size_t steps = (size_t)(1 + s.double_buffer) * (size_t)s.bk;
    size_t a_floats = steps * (size_t)(s.bm + pad_a);
    size_t slice_sums = s.sliced_k > 1 ? (size_t)s.sliced_k * (size_t)s.bm * (size_t)s.bn : 0;
    size_t c_pass = (size_t)s.sliced_k * (size_t)ty * (size_t)s.bn;
    size_t a_array = a_floats > slice_sums ? a_floats : slice_sums;
    if (c_pass > a_array)
        a_array = c_pass;
    size_t local_bytes = sizeof(float) * (a_array + steps * (size_t)(s.bn + pad_b));
    REQUIRE(local_memory_fits(facts, local_bytes), TAILOR_ERROR_INVALID_PROFILE,
            "%s tiles need %zu bytes of local memory; the device has %llu", set, local_bytes,
            (unsigned long long)facts->local_mem_bytes);
    return TAILOR_SUCCESS;
}

static tailor_status check(const struct profile *profile, const tailor_device_info *facts)
{
    const int *t = profile->tune;
    tailor_status status = check_tiles(t, facts, 0);
    if (status == TAILOR_SUCCESS)
        status = check_tiles(t, facts, 1);
    if (status != TAILOR_SUCCESS)
        return status;
    size_t small_group = (size_t)t[TUNE_SGEMM_SMALL_WG_X] * (size_t)t[TUNE_SGEMM_SMALL_WG_Y];
    REQUIRE(small_group <= max_group(facts), TAILOR_ERROR_INVALID_PROFILE,
            "SGEMM_SMALL_WG_X * SGEMM_SMALL_WG_Y = %zu exceeds the device's %zu work-items",
            small_group, max_group(facts));
    REQUIRE((size_t)t[TUNE_SGEMM_THIN_WG] <= max_group(facts), TAILOR_ERROR_INVALID_PROFILE,
            "SGEMM_THIN_WG=%d exceeds the device's %zu work-items", t[TUNE_SGEMM_THIN_WG],
            max_group(facts));
    size_t thin_bytes = sizeof(float) * (size_t)t[TUNE_SGEMM_THIN_KC] * (size_t)t[TUNE_SGEMM_THIN_RM];
    REQUIRE(local_memory_fits(facts, thin_bytes), TAILOR_ERROR_INVALID_PROFILE,
            "the thin kernel's rows of A need %zu bytes of local memory; the device has %llu",
            thin_bytes, (unsigned long long)facts->local_mem_bytes);
    int dots_wg = t[TUNE_SGEMM_DOTS_WG], dots_kc = t[TUNE_SGEMM_DOTS_KC];
    REQUIRE(dots_wg % SGEMM_DOTS_LANES == 0 && (size_t)dots_wg <= max_group(facts) &&
                dots_kc % (4 * SGEMM_DOTS_LANES) == 0,
            TAILOR_ERROR_INVALID_PROFILE,
            "SGEMM_DOTS_WG=%d must be a multiple of %d within the device's %zu work-items, and "
            "SGEMM_DOTS_KC=%d of %d",
            dots_wg, SGEMM_DOTS_LANES, max_group(facts), dots_kc, 4 * SGEMM_DOTS_LANES);
    // The widest entry point SGEMM_DOTS_MAX needs (the others hold one vector).
    int most = t[TUNE_SGEMM_DOTS_MAX];
    size_t widest = most > 0 ? (size_t)sgemm_dots_vectors((size_t)most) : 1;
    size_t dots_floats = widest * ((size_t)dots_kc + SGEMM_DOTS_Y_PAD);
    size_t dots_sums =
        (size_t)(dots_wg / SGEMM_DOTS_LANES) * dots_sum_lines(t, widest) * widest * (SGEMM_DOTS_LANES + 1);
    size_t dots_bytes = sizeof(float) * (dots_floats > dots_sums ? dots_floats : dots_sums);
    REQUIRE(local_memory_fits(facts, dots_bytes), TAILOR_ERROR_INVALID_PROFILE,
            "the dots kernel's vectors need %zu bytes of local memory; the device has %llu", dots_bytes,
            (unsigned long long)facts->local_mem_bytes);
    REQUIRE((size_t)t[TUNE_SGEMM_CPU_WG] <= max_group(facts), TAILOR_ERROR_INVALID_PROFILE,
            "SGEMM_CPU_WG=%d exceeds the device's %zu work-items", t[TUNE_SGEMM_CPU_WG],
            max_group(facts));
    return TAILOR_SUCCESS;
}

// How the tiled kernels meet shapes that are not whole tiles (the rows of
// plan_tiled's kernel table): none to meet, guarded loads and stores, or
// border tiles shifted back inside the matrix.
enum tile_edges { EDGES_NONE, EDGES_GUARDED, EDGES_SHIFTED };

// One launch of one kernel over a 3-D geometry; for the tiled kernels, also
// the launches around it: A or B transposed or an operand copied to aligned
// rows in the workspace before, and the slices of a split k summed after.
struct sgemm_plan {
    struct op_plan op;
    struct geometry g;
    int pack_a, pack_b, stage_a, stage_b; // the plan is for staged_call's operands
    int pad_m, pad_n;        // staged_call's m, n rounded up to the load vector (see pads)
    enum tile_edges edges;   // the tiled kernel's
    cl_uint slices, k_slice; // split k: slices of k_slice steps (1 slice: K)
    int async;               // the tiled kernel copies both operand tiles by cp.async
    int c_transposed;        // the thin kernel computes C^T = B^T A^T
};

// The small kernels' 2-D geometry over `columns` work-items and `rows` rows.
static struct geometry small_grid(const struct sgemm_call *c, size_t columns, size_t rows)
{
    size_t wg_x = (size_t)tune(c->ctx, TUNE_SGEMM_SMALL_WG_X), wg_y = (size_t)tune(c->ctx, TUNE_SGEMM_SMALL_WG_Y);
    return spread_rows(round_up(columns, wg_x), wg_x, ceil_div(rows, wg_y), wg_y);
}

// C = beta * C: k = 0 or alpha = 0 (A and B are not read, as in BLAS).
static void plan_scale(const struct sgemm_call *c, struct sgemm_plan *p)
{
    p->g = small_grid(c, c->n, c->m);
    p->op = (struct op_plan){PROGRAM_SGEMM_SMALL, KERNEL_SGEMM_SCALE, 1, "scale"};
}

// Few rows or columns, or little work: one work-item per small block of C.
static void plan_small(const struct sgemm_call *c, struct sgemm_plan *p)
{
    size_t rm = (size_t)tune(c->ctx, TUNE_SGEMM_SMALL_RM), rn = (size_t)tune(c->ctx, TUNE_SGEMM_SMALL_RN);
    p->g = small_grid(c, ceil_div(c->n, rn), ceil_div(c->m, rm));
    p->op = (struct op_plan){PROGRAM_SGEMM_SMALL, KERNEL_SGEMM_SMALL, 1, ""};
    snprintf(p->op.variant, sizeof p->op.variant, "small/%s", orientation(c));
}

// The CPU kernels: the broadcast form wherever B or A can supply vectors
// along the output's rows (nn, tn, and tt as C^T = B A with C's strides
// swapped), the dot form for nt.
static int cpu_dot_form(const struct sgemm_call *c)
{
    return !c->a_mn_contig && c->b_k_contig;
}

static int cpu_swapped(const struct sgemm_call *c)
{
    return c->a_mn_contig && c->b_k_contig;
}

// A stored K-contiguous is read in place: its rows are sequential along k
// (measured faster than packing it, a pass over A for nothing). A stored
// M-contiguous steps a leading dimension per k, a new page each step, and
// is packed like B.
static int cpu_packs_a(const struct sgemm_call *c)
{
    int mode = tune(c->ctx, TUNE_SGEMM_CPU_PACK_A);
    return mode == 2 || (mode == 1 && c->a_mn_contig);
}

// The packed CPU kernel's register block and workspace: B's panels (cols
// columns each), then A's (rows rows each) where A is packed, each K long.
struct cpu_panels {
    size_t rows, cols;       // CPU_RM; VN x NV
    size_t a_lines, b_lines; // M and N rounded up to whole panels
    int pack_a;
    size_t floats;
};

static struct cpu_panels cpu_panels_of(const struct sgemm_call *c)
{
    struct cpu_panels panels;
    panels.rows = (size_t)tune(c->ctx, TUNE_SGEMM_CPU_RM);
    panels.cols = (size_t)tune(c->ctx, TUNE_SGEMM_CPU_VN) * (size_t)tune(c->ctx, TUNE_SGEMM_CPU_NV);
    panels.a_lines = round_up(c->m, panels.rows);
    panels.b_lines = round_up(c->n, panels.cols);
    panels.pack_a = cpu_packs_a(c);
    panels.floats = ((panels.pack_a ? panels.a_lines : 0) + panels.b_lines) * c->k;
    return panels;
}

// The most floats a call's workspace may take.
static size_t workspace_limit(const struct sgemm_call *c)
{
    return workspace_limit_bytes(&c->ctx->info) / sizeof(float);
}

// The product has at least side^3 multiply-adds (a side of 0: never).
static int product_reaches_side(const struct sgemm_call *c, double side)
{
    return side > 0 && (double)c->m * (double)c->n * (double)c->k >= side * side * side;
}

// ... at least the cube of the tuning parameter's value.
static int product_reaches(const struct sgemm_call *c, enum param_id cube_param)
{
    return product_reaches_side(c, tune(c->ctx, cube_param));
}

// The dot form (nt) sums each accumulator's lanes once per block, and the
// broadcast form on C^T (tt) writes C transposed, a few floats per cache
// line: costs that short k does not amortize. Packing B into the packed
// kernel's panels costs a pass over B that few rows of A do not. So nt
// products take the packed kernel where k is at most SGEMM_CPU_DOT_PACK_K
// times m, tt products where it is at most SGEMM_CPU_TT_PACK_K times m,
// both where A holds at least one of its blocks of rows (CPU_RM x
// CPU_MC_PANELS) and B's panels pad n by at most half (doc/performance.md).
static int cpu_short_k_packs(const struct sgemm_call *c, const struct cpu_panels *panels)
{
    size_t block_rows = panels->rows * (size_t)tune(c->ctx, TUNE_SGEMM_CPU_MC_PANELS);
    size_t k_per_m = cpu_dot_form(c)  ? (size_t)tune(c->ctx, TUNE_SGEMM_CPU_DOT_PACK_K)
                     : cpu_swapped(c) ? (size_t)tune(c->ctx, TUNE_SGEMM_CPU_TT_PACK_K)
                                      : 0; // nn and tn: the broadcast form writes C along its rows
    return k_per_m > 0 && c->m >= block_rows && c->k <= k_per_m * c->m &&
           2 * panels->b_lines <= 3 * (size_t)c->n;
}

// Large products pack B, and A where cpu_packs_a says (BLIS's loop nest), as
// do the nt and tt products cpu_short_k_packs picks, where the workspace
// stays within the limit.
static int cpu_packs(const struct sgemm_call *c)
{
    struct cpu_panels panels = cpu_panels_of(c);
    return (product_reaches(c, TUNE_SGEMM_CPU_PACK_CUBE) || cpu_short_k_packs(c, &panels)) &&
           panels.floats <= workspace_limit(c);
}

static void plan_cpu_packed(const struct sgemm_call *c, struct sgemm_plan *p)
{
    struct cpu_panels panels = cpu_panels_of(c);
    size_t group = (size_t)tune(c->ctx, TUNE_SGEMM_CPU_WG);
    size_t block_rows = panels.rows * (size_t)tune(c->ctx, TUNE_SGEMM_CPU_MC_PANELS);
    p->g = (struct geometry){{round_up(ceil_div(c->m, block_rows), group), ceil_div(c->n, panels.cols), 1},
                             {group, 1, 1}};
    p->op = (struct op_plan){PROGRAM_SGEMM_CPU, KERNEL_SGEMM_CPU_PACKED, 1, ""};
    snprintf(p->op.variant, sizeof p->op.variant, "cpu-packed-%zux%zu/%s", panels.rows, panels.cols,
             orientation(c));
}

static void plan_cpu(const struct sgemm_call *c, struct sgemm_plan *p)
{
    if (cpu_packs(c)) {
        plan_cpu_packed(c, p);
        return;
    }
    size_t group = (size_t)tune(c->ctx, TUNE_SGEMM_CPU_WG), rows = (size_t)tune(c->ctx, TUNE_SGEMM_CPU_RM);
    int dot = cpu_dot_form(c), swap = cpu_swapped(c);
    size_t cols = dot ? (size_t)tune(c->ctx, TUNE_SGEMM_CPU_DOT_RN)
                      : (size_t)tune(c->ctx, TUNE_SGEMM_CPU_VN) * (size_t)tune(c->ctx, TUNE_SGEMM_CPU_NV);
    cl_uint m = swap ? c->n : c->m, n = swap ? c->m : c->n;
    size_t blocks_m = ceil_div(m, rows), blocks_n = ceil_div(n, cols);
    // CPU devices have no limit on a launch's dimensions: plain 2-D.
    int rows_first = tune(c->ctx, TUNE_SGEMM_CPU_ROWS_FIRST);
    p->g = (struct geometry){{round_up(rows_first ? blocks_m : blocks_n, group),
                              rows_first ? blocks_n : blocks_m, 1},
                             {group, 1, 1}};
    p->op = (struct op_plan){PROGRAM_SGEMM_CPU, dot ? KERNEL_SGEMM_CPU_DOT : KERNEL_SGEMM_CPU_BROADCAST, 1, ""};
    snprintf(p->op.variant, sizeof p->op.variant, "cpu-%s-%zux%zu/%s", dot ? "dot" : "blocked", rows,
             cols, orientation(c));
}

static int divides(cl_ulong value, int by)
{
    return value % (cl_ulong)by == 0;
}

// Every row of the operand starts on a global load vector.
static int operand_aligned(const struct sgemm_call *c, cl_ulong offset, cl_ulong ld)
{
    int load_vec = tune(c->ctx, TUNE_SGEMM_LOAD_VEC);
    return divides(offset, load_vec) && divides(ld, load_vec);
}

// Rows in the workspace (transposed or staged operands, split k's partial
// products) start on 128-byte boundaries.
#define WORKSPACE_ROW_ALIGN 32

// The workspace of a tiled plan, in floats: B (transposed or staged), then A
// (staged), then the slices' partial products.
struct workspace_areas {
    size_t b_at, ldb, a_at, lda, partial_at, ldp, total;
};

// Room in the workspace, after `staged` floats, for `slices` partial products.
static int partials_fit(const struct sgemm_call *c, size_t staged, size_t slices)
{
    return staged + slices * c->m * round_up(c->n, WORKSPACE_ROW_ALIGN) <= workspace_limit(c);
}

static int is_dots(const struct sgemm_plan *p)
{
    switch (p->op.kernel) {
    case KERNEL_SGEMM_DOTS4:
    case KERNEL_SGEMM_DOTS8:
    case KERNEL_SGEMM_DOTS16:
    case KERNEL_SGEMM_DOTS4_ALONG_K:
    case KERNEL_SGEMM_DOTS8_ALONG_K:
    case KERNEL_SGEMM_DOTS16_ALONG_K:
        return 1;
    default:
        return 0;
    }
}

// The tiled kernels' programs (big and mid tiles, whole and split).
static int is_tiled(const struct sgemm_plan *p)
{
    return (((uint64_t)1 << p->op.program) & SGEMM_TILED_SET) != 0;
}

// The kernels that take a slice of k (the tiled ones, the thin and dots ones):
// they take the split arguments and launch through launch_tiled.
static int slices_k(const struct sgemm_plan *p)
{
    return is_tiled(p) || p->op.kernel == KERNEL_SGEMM_THIN || is_dots(p);
}

// The product is written to the workspace and summed into C afterwards.
static int sums(const struct sgemm_plan *p)
{
    return p->slices > 1;
}

// Rows of the product in the workspace: m, or m rounded up (pad_m).
static size_t partial_rows(const struct sgemm_call *c, const struct sgemm_plan *p)
{
    return p->pad_m ? round_up(c->m, (size_t)tune(c->ctx, TUNE_SGEMM_LOAD_VEC)) : c->m;
}

static struct workspace_areas areas_of(const struct sgemm_call *c, const struct sgemm_plan *p)
{
    struct workspace_areas w = {0};
    size_t b_lines = c->b_k_contig ? c->n : c->k, b_length = c->b_k_contig ? c->k : c->n;
    size_t a_lines = c->a_mn_contig ? c->k : c->m, a_length = c->a_mn_contig ? c->m : c->k;
    if (p->pack_b) { // transposed: k lines of n
        b_lines = c->k;
        b_length = c->n;
    }
    if (p->pack_a) { // transposed: k lines of m
        a_lines = c->k;
        a_length = c->m;
    }
    w.ldb = round_up(b_length, WORKSPACE_ROW_ALIGN);
    w.lda = round_up(a_length, WORKSPACE_ROW_ALIGN);
    w.ldp = round_up(c->n, WORKSPACE_ROW_ALIGN);
    w.a_at = p->pack_b || p->stage_b ? b_lines * w.ldb : 0;
    w.partial_at = w.a_at + (p->pack_a || p->stage_a ? a_lines * w.lda : 0);
    w.total = w.partial_at + (sums(p) ? (size_t)p->slices * partial_rows(c, p) * w.ldp : 0);
    return w;
}

// The time a compute unit takes for its share of `groups`, in one group's
// time: it runs SGEMM_GROUPS_PER_UNIT of them at once, and r groups at once
// go 1 + (r - 1) * SGEMM_SHARED_GAIN / 100 times as fast as one (100: as
// fast each as alone, so a unit's time counts its waves).
static double unit_time(const struct sgemm_call *c, size_t groups)
{
    const int *t = c->ctx->profile.tune;
    size_t units = c->ctx->info.compute_units, at_once = (size_t)t[TUNE_SGEMM_GROUPS_PER_UNIT];
    double gain = t[TUNE_SGEMM_SHARED_GAIN] / 100.0;
    size_t share = ceil_div(groups, units), rest = share % at_once;
    double time = (double)(share - rest) / (1.0 + (double)(at_once - 1) * gain);
    return rest ? time + (double)rest / (1.0 + (double)(rest - 1) * gain) : time;
}

// The tiles of C in `tiles`: one work-group each without split k.
static size_t tile_groups(const struct sgemm_call *c, const struct sgemm_tiles *tiles)
{
    return ceil_div(c->m, (size_t)tiles->bm) * ceil_div(c->n, (size_t)tiles->bn);
}

// Whether the big tiles cover no more rows and columns of C than the mid
// ones (their padding past M and N is no larger).
static int big_tiles_cover_as_mid(const struct sgemm_call *c, const struct sgemm_tiles *big,
                                  const struct sgemm_tiles *mid)
{
    return round_up(c->m, (size_t)big->bm) == round_up(c->m, (size_t)mid->bm) &&
           round_up(c->n, (size_t)big->bn) == round_up(c->n, (size_t)mid->bn);
}

// Where even the mid tiles would leave compute units idle (fewer groups
// than SGEMM_SPLIT_PERCENT of them) and k is long, k may be split. From k =
// SGEMM_SPLIT_LONG_K on, it also may where the mid tiles fill no more than
// one round of SGEMM_GROUPS_PER_UNIT groups per unit: so few small groups
// leave a unit short of warps, which slices of the big tiles fill, unless
// the big tiles pad C more. From k = SGEMM_SPLIT_ROUNDS_K on, the same up to
// SGEMM_SPLIT_ROUNDS rounds: there the big tiles' speed per multiply-add
// over long slices outweighs the sum of the slices.
static int split_considered(const struct sgemm_call *c, const struct sgemm_tiles *big,
                            const struct sgemm_tiles *mid, size_t mid_groups)
{
    const int *t = c->ctx->profile.tune;
    size_t units = c->ctx->info.compute_units, long_k = (size_t)t[TUNE_SGEMM_SPLIT_LONG_K];
    size_t rounds_k = (size_t)t[TUNE_SGEMM_SPLIT_ROUNDS_K];
    size_t round_groups = units * (size_t)t[TUNE_SGEMM_GROUPS_PER_UNIT];
    int few = mid_groups * 100 < (size_t)t[TUNE_SGEMM_SPLIT_PERCENT] * units;
    int covers = big_tiles_cover_as_mid(c, big, mid);
    int one_round = long_k && c->k >= long_k && mid_groups <= round_groups && covers;
    int rounds = rounds_k && c->k >= rounds_k &&
                 mid_groups <= round_groups * (size_t)t[TUNE_SGEMM_SPLIT_ROUNDS] && covers;
    return (few || one_round || rounds) && c->k / 2 >= (size_t)t[TUNE_SGEMM_SPLIT_MIN_K];
}

// The slice count of k for `groups` tiles: a count's time goes as a compute
// unit's time for its groups (unit_time) times a slice's steps of k plus
// SGEMM_SPLIT_SLICE_COST. The count with the least (one slice included,
// fewer slices on a tie), each slice at least SGEMM_SPLIT_MIN_K steps
// rounded to whole tiles of k (bk), their partial products within the
// workspace limit, no more groups than the units run at once. *time: its
// time in steps of one group.
static cl_uint split_slices(const struct sgemm_call *c, size_t groups, int bk, size_t staged,
                            size_t *k_slice, double *time)
{
    const int *t = c->ctx->profile.tune;
    size_t wave = c->ctx->info.compute_units * (size_t)t[TUNE_SGEMM_GROUPS_PER_UNIT];
    size_t slice_cost = (size_t)t[TUNE_SGEMM_SPLIT_SLICE_COST];
    size_t most = c->k / (size_t)t[TUNE_SGEMM_SPLIT_MIN_K], best = 1, best_length = c->k;
    double best_time = unit_time(c, groups) * (double)(c->k + slice_cost);
    if (most > wave)
        most = wave; // more slices than a wave's groups add waves, not balance
    for (size_t slices = 2; slices <= most; ++slices) {
        size_t length = round_up(ceil_div(c->k, slices), (size_t)bk);
        if (ceil_div(c->k, length) != slices)
            continue; // the same slices as a smaller count
        double slices_time = unit_time(c, groups * slices) * (double)(length + slice_cost);
        if (slices_time < best_time && partials_fit(c, staged, slices)) {
            best = slices;
            best_length = length;
            best_time = slices_time;
        }
    }
    *k_slice = best_length;
    *time = best_time;
    return (cl_uint)best;
}

// A product of at least SGEMM_STAGE_CUBE^3 multiply-adds, where copying an
// operand (or C) to aligned rows costs less than the scalar kernels would.
static int stages_pay(const struct sgemm_call *c)
{
    return product_reaches(c, TUNE_SGEMM_STAGE_CUBE);
}

// Groups beyond a whole number per compute unit leave units idle while the
// last ones run: a product whose big tiles barely exceed such a round (2047
// x 2049 x 2051: 272 tiles, 2.06 per unit of an H100) takes three rounds of
// big tiles where the mid tiles take eight of a quarter the work. Counting a
// unit's groups (rounded up) times a group's multiply-adds, the mid tiles
// win where that is less at SGEMM_MID_EFFICIENCY percent of the big tiles'
// speed.
static int mid_rounds_pay(const struct sgemm_call *c, const struct sgemm_tiles *big,
                          const struct sgemm_tiles *mid, size_t big_groups, size_t mid_groups)
{
    int efficiency = tune(c->ctx, TUNE_SGEMM_MID_EFFICIENCY);
    size_t units = c->ctx->info.compute_units;
    if (efficiency <= 0 || units == 0)
        return 0;
    double big_time = (double)ceil_div(big_groups, units) * big->bm * big->bn;
    double mid_time = (double)ceil_div(mid_groups, units) * mid->bm * mid->bn * 100.0 / efficiency;
    return mid_time < big_time;
}

// Whether the vector kernels copy both operand tiles to local memory by
// cp.async (cl/sgemm.cl: where neither is transposed on the way, so tn in
// row-major terms, on NVIDIA CUDA_SM >= 80 with two local buffers).
static int copies_async(const struct sgemm_call *c, const struct sgemm_tiles *tiles)
{
    const struct profile *profile = &c->ctx->profile;
    return tiles->async && tiles->double_buffer &&
           profile->kind == TAILOR_DEVICE_KIND_NVIDIA && profile->cuda_sm >= 80 && c->a_mn_contig &&
           !c->b_k_contig;
}

// The work-groups the plan's product launches.
static size_t plan_groups(const struct sgemm_plan *p)
{
    size_t groups = 1;
    for (int d = 0; d < 3; ++d)
        groups *= p->g.global[d] / p->g.local[d];
    return groups;
}

// Whether the mid tiles' product gives enough groups per compute unit
// (SGEMM_MID_ASYNC_ROUNDS) for their cp.async copies to pay: with fewer, the
// kernels that stage through registers with prefetch hid the loads better.
static int mid_async_fills(const struct sgemm_call *c, size_t groups)
{
    size_t rounds = (size_t)tune(c->ctx, TUNE_SGEMM_MID_ASYNC_ROUNDS);
    return groups >= rounds * c->ctx->info.compute_units;
}

// Off-tile shapes take the shifted kernels, whose border tiles move back
// inside the matrix (and whose partial step of k goes first), where the
// matrix holds a whole tile each way and the load vectors (`vec` floats)
// along M or N stay whole: their tile loop is the aligned kernels', without
// guards.
static int shifts(const struct sgemm_call *c, const struct sgemm_tiles *tiles, int vec)
{
    return c->m >= (cl_uint)tiles->bm && c->n >= (cl_uint)tiles->bn &&
           (!c->a_mn_contig || divides(c->m, vec)) && (c->b_k_contig || divides(c->n, vec));
}

// The tiled plan of call c (its operands as the kernel reads them), with
// `staged` floats of workspace taken before split k's partial products.
static void plan_tiled(const struct sgemm_call *c, size_t staged, struct sgemm_plan *p)
{
    static const enum kernel_id kernels[EDGES_SHIFTED + 1][2][2] = {
        {{KERNEL_SGEMM_TILED_NN, KERNEL_SGEMM_TILED_NT}, {KERNEL_SGEMM_TILED_TN, KERNEL_SGEMM_TILED_TT}},
        {{KERNEL_SGEMM_TILED_NN_EDGE, KERNEL_SGEMM_TILED_NT_EDGE},
         {KERNEL_SGEMM_TILED_TN_EDGE, KERNEL_SGEMM_TILED_TT_EDGE}},
        {{KERNEL_SGEMM_TILED_NN_SHIFTED, KERNEL_SGEMM_TILED_NT_SHIFTED},
         {KERNEL_SGEMM_TILED_TN_SHIFTED, KERNEL_SGEMM_TILED_TT_SHIFTED}},
    };
    static const char *const edge_names[EDGES_SHIFTED + 1] = {"", "/edge", "/shifted"};
    const int *t = c->ctx->profile.tune;
    struct sgemm_tiles tiles, mid_tiles;
    tiles_of(t, 0, &tiles);
    tiles_of(t, 1, &mid_tiles);
    // Vector loads need every row start of A and B aligned to the vector;
    // the workspace C takes them only with vector loads, split k on the big
    // tiles too.
    int vector = operand_aligned(c, c->a_offset, c->lda) && operand_aligned(c, c->b_offset, c->ldb);
    // Too few big tiles for the compute units: the mid tile set, or split k.
    size_t big_groups = tile_groups(c, &tiles), mid_groups = tile_groups(c, &mid_tiles);
    // Split k on the big tiles, or on the mid ones where their time at
    // SGEMM_MID_SPLIT_EFFICIENCY percent of the big tiles' speed per
    // multiply-add is less (0: never): where the output has one side of a
    // few dozen rows, the big tiles compute mostly padding.
    size_t k_slice = c->k;
    int mid_split = 0;
    p->slices = 1;
    if (split_considered(c, &tiles, &mid_tiles, mid_groups)) {
        double big_time, mid_time;
        size_t mid_k_slice;
        if (!vector) {
            // Scalar loads: split k on the mid tiles or not at all.
            p->slices = split_slices(c, mid_groups, mid_tiles.bk, staged, &mid_k_slice, &mid_time);
            if (p->slices > 1) {
                k_slice = mid_k_slice;
                mid_split = 1;
            }
        } else {
            p->slices = split_slices(c, big_groups, tiles.bk, staged, &k_slice, &big_time);
            int efficiency = t[TUNE_SGEMM_MID_SPLIT_EFFICIENCY];
            if (efficiency > 0) {
                cl_uint mid_slices = split_slices(c, mid_groups, mid_tiles.bk, staged, &mid_k_slice, &mid_time);
                big_time *= (double)tiles.bm * tiles.bn;
                mid_time *= (double)mid_tiles.bm * mid_tiles.bn * 100.0 / efficiency;
                if (mid_slices > 1 && mid_time < big_time) {
                    p->slices = mid_slices;
                    k_slice = mid_k_slice;
                    mid_split = 1;
                }
            }
        }
    }
    p->k_slice = (cl_uint)k_slice;
    int mid = mid_split || (p->slices == 1 &&
                            (big_groups * 100 < (size_t)t[TUNE_SGEMM_MID_PERCENT] * c->ctx->info.compute_units ||
                             mid_rounds_pay(c, &tiles, &mid_tiles, big_groups, mid_groups)));
    if (mid)
        tiles = mid_tiles;
    int load_vec = t[TUNE_SGEMM_LOAD_VEC];
    // The aligned kernels store the whole product as vectors into C; the
    // others store element by element where C's rows do not start on
    // vectors, or past the rows and columns it has (a padded product).
    int c_whole = divides(c->c_offset, tiles.vwn) && divides(c->ldc, tiles.vwn) && c->c_rows == c->m &&
                  c->c_cols == c->n;
    int whole = c_whole && divides(c->m, tiles.bm) && divides(c->n, tiles.bn) && divides(c->k, tiles.bk);
    p->edges = whole                                      ? EDGES_NONE
               : shifts(c, &tiles, vector ? load_vec : 1) ? EDGES_SHIFTED
                                                          : EDGES_GUARDED;
    // A product staged through the workspace in one slice takes the plain
    // programs: the split program's slice arithmetic costs speed.
    enum program_id program =
        p->slices > 1 ? (!mid    ? PROGRAM_SGEMM_TILED_SPLIT
                         : vector ? PROGRAM_SGEMM_TILED_MID_SPLIT
                                  : PROGRAM_SGEMM_TILED_MID_SPLIT_SCALAR)
        : mid         ? (vector ? PROGRAM_SGEMM_TILED_MID : PROGRAM_SGEMM_TILED_MID_SCALAR)
                      : (vector ? PROGRAM_SGEMM_TILED : PROGRAM_SGEMM_TILED_SCALAR);
    // Dimension 0: the tiles of a band of SWIZZLE tile rows; dimension 1:
    // bands. A product of fewer tile rows than a band launches only its
    // tiles: groups with nothing to do, even when they come last, slowed the
    // others (doc/performance.md). Split k takes bands of one row.
    size_t threads = (size_t)(tiles.bm / tiles.tm) * (size_t)(tiles.bn / tiles.tn) *
                     (size_t)tiles.sliced_k;
    size_t swizzle = p->slices > 1 ? 1 : (size_t)t[TUNE_SGEMM_SWIZZLE];
    size_t tile_rows = ceil_div(c->m, (size_t)tiles.bm);
    size_t band = tile_rows < swizzle ? tile_rows : swizzle;
    p->g = spread_rows(band * ceil_div(c->n, (size_t)tiles.bn) * threads * p->slices, threads,
                       ceil_div(tile_rows, swizzle), 1);
    p->op = (struct op_plan){program, kernels[p->edges][c->a_mn_contig][c->b_k_contig], 1, ""};
    char loads[24] = "scalar", split[24] = "", sliced[24] = "";
    p->async = vector && copies_async(c, &tiles);
    if (p->async && mid && !mid_async_fills(c, plan_groups(p))) {
        static const enum kernel_id through_registers[EDGES_SHIFTED + 1] = {
            KERNEL_SGEMM_TILED_TN_SYNC, KERNEL_SGEMM_TILED_TN_SYNC_EDGE, KERNEL_SGEMM_TILED_TN_SYNC_SHIFTED};
        p->async = 0;
        p->op.kernel = through_registers[p->edges];
    }
    if (vector)
        snprintf(loads, sizeof loads, "vec%d%s", load_vec, p->async ? "/async" : "");
    if (p->slices > 1)
        snprintf(split, sizeof split, "split-k%u:", (unsigned)p->slices);
    if (tiles.sliced_k > 1)
        snprintf(sliced, sizeof sliced, "/sliced-k%d", tiles.sliced_k);
    snprintf(p->op.variant, sizeof p->op.variant, "%stiled-%dx%dx%d/%s%s%s/%s", split, tiles.bm,
             tiles.bn, tiles.bk, loads, sliced, edge_names[p->edges], orientation(c));
}

// Whether an operand transposed into the workspace (k rows of `extent`
// floats, padded to WORKSPACE_ROW_ALIGN) stays within its limit.
static int packed_fits(const struct sgemm_call *c, cl_uint extent)
{
    return (double)c->k * (double)round_up(extent, WORKSPACE_ROW_ALIGN) <= (double)workspace_limit(c);
}

// A K-contiguous B costs the tiled kernels a transposing store into local
// memory for both operands of an nt product, where a single transpose of B
// into a workspace (n x k floats, rows padded to 128 bytes) turns the call
// into the faster nn (or tn) one. It pays when m is large enough to amortize
// it; workspaces over an eighth of the device's memory are not taken.
static int packs_b(const struct sgemm_call *c)
{
    int min_m = tune(c->ctx, TUNE_SGEMM_PACK_B_MIN_M);
    return c->b_k_contig && min_m > 0 && c->m >= (cl_uint)min_m && packed_fits(c, c->n);
}

// Where B stays K-contiguous (not packed), a K-contiguous A makes the
// product nt, whose big kernels NVIDIA's build gives 141-143 registers (one
// group per compute unit where the others fit two; doc/performance.md): A
// transposed into a workspace (k x m floats) makes it tt. The transpose
// costs a fraction of the product's time that falls as 1 / n, so it is
// considered from SGEMM_PACK_A_MIN_N columns of C on (plan_tiled_call says
// where it is taken); workspaces over an eighth of the device's memory are
// not taken.
static int packs_a(const struct sgemm_call *c, const struct sgemm_plan *p)
{
    int min_n = tune(c->ctx, TUNE_SGEMM_PACK_A_MIN_N);
    return !c->a_mn_contig && c->b_k_contig && !p->pack_b && min_n > 0 && c->n >= (cl_uint)min_n &&
           packed_fits(c, c->m);
}

// Each element of a copied operand feeds `reuse` outputs of C (n for A, m
// for B): fewer than a mid tile's side along it (`rows`: the tile's rows,
// for B; else its columns) make the copy cost as much as the product's own
// reads of the operand.
static int reuse_fills_mid_tile(cl_uint reuse, const struct sgemm_tiles *mid, int rows)
{
    return reuse >= (cl_uint)(rows ? mid->bm : mid->bn);
}

// Whether copying an operand to aligned rows pays for splitting k in the
// vector programs (the scalar-load one splits it too, on the mid tiles,
// more slowly): where plan_tiled would consider the split (few tiles, long
// k) and k holds at least four slices' worth (shorter, the copy's and the
// sums' launches cost what the split saves).
static int split_staging_pays(const struct sgemm_call *c, const struct sgemm_tiles *mid)
{
    struct sgemm_tiles big;
    tiles_of(c->ctx->profile.tune, 0, &big);
    return split_considered(c, &big, mid, tile_groups(c, mid)) &&
           c->k / 4 >= (size_t)tune(c->ctx, TUNE_SGEMM_SPLIT_MIN_K);
}

// An operand copied once whose every element feeds at least
// SGEMM_STAGE_REUSE outputs (`reuse`) costs little beside the product: from
// products of half SGEMM_STAGE_CUBE's side on, less than the scalar
// kernels' loads and stores (those of C above all where k is short).
static int reuse_staging_pays(const struct sgemm_call *c, cl_uint reuse)
{
    int least = tune(c->ctx, TUNE_SGEMM_STAGE_REUSE);
    return least > 0 && reuse >= (cl_uint)least &&
           product_reaches_side(c, tune(c->ctx, TUNE_SGEMM_STAGE_CUBE) / 2.0);
}

// An operand whose rows do not start on load vectors would take the
// scalar-load kernels; where each of its elements feeds many outputs, or
// at least a mid tile's side of them in a big product (where the copy is
// cheap beside the product) or where the copy lets k split, one copy of it
// to aligned rows costs less than that.
static int stages_operand(const struct sgemm_call *c, cl_uint reuse, int rows)
{
    if (reuse_staging_pays(c, reuse))
        return 1;
    struct sgemm_tiles mid;
    tiles_of(c->ctx->profile.tune, 1, &mid);
    return reuse_fills_mid_tile(reuse, &mid, rows) && (stages_pay(c) || split_staging_pays(c, &mid));
}

static int stages_a(const struct sgemm_call *c)
{
    return !operand_aligned(c, c->a_offset, c->lda) && stages_operand(c, c->n, 0);
}

static int stages_b(const struct sgemm_call *c)
{
    return !operand_aligned(c, c->b_offset, c->ldb) && stages_operand(c, c->m, 1);
}

// The call reading the planned operands from `workspace` (NULL when planning).
static struct sgemm_call staged_call(const struct sgemm_call *c, const struct sgemm_plan *p,
                                     cl_mem workspace)
{
    struct workspace_areas w = areas_of(c, p);
    struct sgemm_call staged = *c;
    if (p->pack_b || p->stage_b) {
        staged.b = workspace;
        staged.b_offset = w.b_at;
        staged.ldb = w.ldb;
        staged.b_k_contig = c->b_k_contig && !p->pack_b;
    }
    if (p->pack_a || p->stage_a) {
        staged.a = workspace;
        staged.a_offset = w.a_at;
        staged.lda = w.lda;
        staged.a_mn_contig = c->a_mn_contig || p->pack_a;
    }
    if (p->pad_m)
        staged.m = (cl_uint)partial_rows(c, p);
    if (p->pad_n)
        staged.n = (cl_uint)round_up(c->n, (size_t)tune(c->ctx, TUNE_SGEMM_LOAD_VEC));
    return staged;
}

// An M-contiguous A whose m, or an N-contiguous B whose n, is off the load
// vector leaves the edge kernels (a shifted tile would start off the
// vector). Where that operand is copied to the workspace (staged, or
// packed), the product runs over m or n rounded up to the vector instead:
// the workspace's rows have room for the extra elements, which reach only
// rows or columns of the product that the kernels do not store (C's
// c_rows x c_cols; split k's partial products have room for them).
static int pads_m(const struct sgemm_call *c, const struct sgemm_plan *p)
{
    return (p->pack_a || (p->stage_a && c->a_mn_contig)) &&
           !divides(c->m, tune(c->ctx, TUNE_SGEMM_LOAD_VEC));
}

static int pads_n(const struct sgemm_call *c, const struct sgemm_plan *p)
{
    return (p->pack_b || (p->stage_b && !c->b_k_contig)) &&
           !divides(c->n, tune(c->ctx, TUNE_SGEMM_LOAD_VEC));
}

// The tiled plan with the operands packed as p says (pack_a, pack_b), the
// others staged where they need it.
static void plan_operands(const struct sgemm_call *c, struct sgemm_plan *p)
{
    p->stage_b = !p->pack_b && stages_b(c);
    p->stage_a = !p->pack_a && stages_a(c);
    p->slices = 1;
    if ((p->pack_a || p->pack_b || p->stage_a || p->stage_b) && areas_of(c, p).total > workspace_limit(c))
        p->stage_a = p->stage_b = 0;
    size_t staged_floats = areas_of(c, p).total;
    struct sgemm_call staged = staged_call(c, p, NULL);
    plan_tiled(&staged, staged_floats, p);
    if ((p->stage_a || p->stage_b) && (p->op.program == PROGRAM_SGEMM_TILED_SCALAR ||
                                       p->op.program == PROGRAM_SGEMM_TILED_MID_SCALAR ||
                                       p->op.program == PROGRAM_SGEMM_TILED_MID_SPLIT_SCALAR)) {
        // The other operand, left off the vector, sends the product to the
        // scalar loads after all.
        p->stage_a = p->stage_b = 0;
        staged_floats = areas_of(c, p).total;
        staged = staged_call(c, p, NULL);
        plan_tiled(&staged, staged_floats, p);
    }
    int pad_m = pads_m(c, p), pad_n = pads_n(c, p);
    if (pad_m || pad_n) {
        struct sgemm_plan padded = *p;
        padded.pad_m = pad_m;
        padded.pad_n = pad_n;
        staged = staged_call(c, &padded, NULL);
        plan_tiled(&staged, staged_floats, &padded);
        if (padded.edges != EDGES_GUARDED)
            *p = padded;
    }
}

// Whether taking plan `to` instead of `from` keeps a product that the
// shifted (or aligned) kernels take off the guarded ones.
static int keeps_unguarded(const struct sgemm_plan *to, const struct sgemm_plan *from)
{
    return to->edges != EDGES_GUARDED || from->edges == EDGES_GUARDED;
}

// Plan `packed` (its operands packed as it says) instead of p where it
// copies both tiles by cp.async, the workspace holds it, and it does not
// send a product the shifted (or aligned) kernels take to the guarded ones.
static void take_if_async(const struct sgemm_call *c, struct sgemm_plan *p, struct sgemm_plan packed)
{
    plan_operands(c, &packed);
    if (packed.async && areas_of(c, &packed).total <= workspace_limit(c) && keeps_unguarded(&packed, p))
        *p = packed;
}

// A K-contiguous operand off the load vector is copied to aligned rows
// (staged) anyway. Transposed on that copy instead (packed), at the same
// traffic, it can turn the product into the kernels that copy both operand
// tiles by cp.async (tn in row-major terms): taken where it does, the
// workspace holds it, and it does not send a product the shifted (or
// aligned) kernels take to the guarded ones (m or n off the load vector).
// Elsewhere the transposing store it spares was not worth it
// (doc/performance.md).
static void pack_staged_operands(const struct sgemm_call *c, struct sgemm_plan *p)
{
    struct sgemm_plan packed = {
        .pack_a = p->pack_a || (p->stage_a && !c->a_mn_contig && packed_fits(c, c->m)),
        .pack_b = p->pack_b || (p->stage_b && c->b_k_contig && packed_fits(c, c->n)),
    };
    if (!p->async && (packed.pack_a != p->pack_a || packed.pack_b != p->pack_b))
        take_if_async(c, p, packed);
}

// A K-contiguous A goes through registers into local memory (a transposing
// store); transposed into the workspace first, the product can copy both
// operand tiles by cp.async instead (tn). The transpose's traffic is a
// fraction of the product that falls as 1 / n, and what cp.async saves grows
// with k while the transpose's launch does not: taken from
// SGEMM_PACK_A_ASYNC_MIN_N columns of C and SGEMM_PACK_A_ASYNC_MIN_K steps of
// k on, where the packed plan does copy by cp.async.
static void pack_a_for_async(const struct sgemm_call *c, struct sgemm_plan *p)
{
    int min_n = tune(c->ctx, TUNE_SGEMM_PACK_A_ASYNC_MIN_N);
    if (p->async || p->pack_a || c->a_mn_contig || min_n <= 0 || c->n < (cl_uint)min_n ||
        c->k < (size_t)tune(c->ctx, TUNE_SGEMM_PACK_A_ASYNC_MIN_K) || !packed_fits(c, c->m))
        return;
    take_if_async(c, p, (struct sgemm_plan){.pack_a = 1, .pack_b = p->pack_b});
}

static void plan_tiled_call(const struct sgemm_call *c, struct sgemm_plan *p)
{
    p->pack_b = packs_b(c);
    plan_operands(c, p);
    // A packed pays where the nt kernels would hold more than one group per
    // compute unit, and unless it sends a product the shifted (or aligned)
    // kernels take to the guarded ones (m off the load vector).
    if (packs_a(c, p) && plan_groups(p) > c->ctx->info.compute_units) {
        struct sgemm_plan packed = {.pack_a = 1};
        plan_operands(c, &packed);
        if (keeps_unguarded(&packed, p))
            *p = packed;
    }
    pack_staged_operands(c, p);
    pack_a_for_async(c, p);
    // "packed-b:", "staged-ab:", "packed-b,staged-a:", "packed-ab,padded-m,padded-n:" ...
    char prefix[64] = "", staged_letters[3] = "";
    snprintf(staged_letters, sizeof staged_letters, "%s%s", p->stage_a ? "a" : "", p->stage_b ? "b" : "");
    const char *packed = p->pack_a && p->pack_b ? "packed-ab"
                         : p->pack_a            ? "packed-a"
                         : p->pack_b            ? "packed-b"
                                                : "";
    if (packed[0] || staged_letters[0])
        snprintf(prefix, sizeof prefix, "%s%s%s%s%s%s:", packed, packed[0] && staged_letters[0] ? "," : "",
                 staged_letters[0] ? "staged-" : "", staged_letters, p->pad_m ? ",padded-m" : "",
                 p->pad_n ? ",padded-n" : "");
    name_prefix(p->op.variant, sizeof p->op.variant, prefix);
}

// A product with one row or one column of C is a matrix-vector product: the
// GEMV kernels stream the matrix once at full bandwidth, where GEMM tiles
// would leave the device idle. In row-major terms (after the layout swap):
// m = 1 takes y = B^T a over B's storage, n = 1 takes y = A b over A's.
static int is_gemv(const struct sgemm_call *c)
{
    return c->m == 1 || c->n == 1;
}

// The same product as a tailor_sgemv call (its buffers aside).
static tailor_call as_gemv(const struct sgemm_call *c)
{
    tailor_call g = {.operation = TAILOR_OP_SGEMV, .layout = TAILOR_ROW_MAJOR, .alpha = c->alpha,
                     .beta = c->beta, .incy = 1};
    if (c->m == 1) {
        g.trans_a = c->b_k_contig ? TAILOR_NO_TRANS : TAILOR_TRANS;
        g.m = c->b_k_contig ? c->n : c->k;
        g.n = c->b_k_contig ? c->k : c->n;
        g.a_offset = c->b_offset;
        g.lda = c->ldb;
        g.b_offset = c->a_offset;
        g.incx = c->a_mn_contig ? (long long)c->lda : 1;
    } else {
        g.trans_a = c->a_mn_contig ? TAILOR_TRANS : TAILOR_NO_TRANS;
        g.m = c->a_mn_contig ? c->k : c->m;
        g.n = c->a_mn_contig ? c->m : c->k;
        g.a_offset = c->a_offset;
        g.lda = c->lda;
        g.b_offset = c->b_offset;
        g.incx = c->b_k_contig ? 1 : (long long)c->ldb;
        g.incy = (long long)c->ldc;
    }
    g.c_offset = c->c_offset;
    return g;
}

static tailor_status run_as_gemv(const struct sgemm_call *c)
{
    tailor_call g = as_gemv(c);
    int m_is_one = c->m == 1;
    tailor_status status = tailor_sgemv(c->ctx, c->queue, TAILOR_ROW_MAJOR, g.trans_a, g.m, g.n,
                                        g.alpha, m_is_one ? c->b : c->a, g.a_offset, g.lda,
                                        m_is_one ? c->a : c->b, g.b_offset, g.incx, g.beta, c->c,
                                        g.c_offset, g.incy, c->wait_count, c->wait_list, c->event);
    if (status == TAILOR_SUCCESS)
        variant_prefix("gemv:");
    return status;
}

// Few outputs, or a thin side, with short k. A work-item of the small kernel
// runs all of k as one chain of dependent loads, with no split: past a few
// dozen steps of k the tiled kernels, which split it, take less time however
// few outputs there are.
static int takes_small_kernel(const struct sgemm_call *c)
{
    double cube = tune(c->ctx, TUNE_SGEMM_SMALL_CUBE);
    cl_uint dim = (cl_uint)tune(c->ctx, TUNE_SGEMM_SMALL_DIM);
    int few_outputs = c->m <= dim || c->n <= dim ||
                      (double)c->m * (double)c->n * (double)c->k <= cube * cube * cube;
    return few_outputs && c->k <= (cl_uint)tune(c->ctx, TUNE_SGEMM_SMALL_MAX_K);
}

// Slices of k for `groups` groups of the thin or dots kernel, each a whole
// number of `step` steps: until the groups reach `per_unit` per compute
// unit, each slice at least `min_k` steps, at most SGEMM_THIN_MAX_SLICES of
// them, their partial products (in C's orientation) within the workspace
// limit. Returns the slices, k_slice their steps.
static size_t few_line_slices(const struct sgemm_call *c, size_t groups, size_t per_unit, size_t step,
                              size_t min_k, size_t *k_slice)
{
    const int *t = c->ctx->profile.tune;
    size_t units = c->ctx->info.compute_units;
    size_t slices = ceil_div(units * per_unit, groups);
    size_t most = c->k / min_k;
    if (t[TUNE_SGEMM_THIN_MAX_SLICES] > 0 && most > (size_t)t[TUNE_SGEMM_THIN_MAX_SLICES])
        most = (size_t)t[TUNE_SGEMM_THIN_MAX_SLICES];
    if (slices > most)
        slices = most;
    while (slices > 1 && !partials_fit(c, 0, slices))
        --slices;
    *k_slice = c->k;
    if (slices <= 1)
        return 1;
    *k_slice = round_up(ceil_div(c->k, slices), step);
    return ceil_div(c->k, *k_slice);
}

// "split-kS:thin-16x2/transposed-c/tn", "dots-8x4/nn" ...: the thin or dots
// plan's slices, kernel, its two sizes, and C's orientation.
static void name_few_line_plan(const struct sgemm_call *c, struct sgemm_plan *p, const char *kernel,
                               int first, int second)
{
    char split[32] = "";
    if (p->slices > 1)
        snprintf(split, sizeof split, "split-k%u:", (unsigned)p->slices);
    snprintf(p->op.variant, sizeof p->op.variant, "%s%s-%dx%d/%s%s", split, kernel, first, second,
             p->c_transposed ? "transposed-c/" : "", orientation(c));
}

// The thin kernel's plan, where it takes the product: up to SGEMM_THIN_M
// rows of C (0: never) with B stored along n, or up to SGEMM_THIN_N columns
// (0: never) with A stored along m (C^T = B^T A^T: the same kernel over the
// swapped operands, C written transposed), and groups for at least
// SGEMM_THIN_FILL percent of the compute units (fewer, the tiled kernels'
// smaller steps of k take less time). Its groups go along the long side
// and over blocks of the short one, k split by few_line_slices in whole
// local steps (groups up to SGEMM_THIN_GROUPS_PER_UNIT a compute unit), each
// slice at least SGEMM_THIN_MIN_K steps.
static int plan_thin(const struct sgemm_call *c, struct sgemm_plan *p)
{
    const int *t = c->ctx->profile.tune;
    cl_uint thin_m = (cl_uint)t[TUNE_SGEMM_THIN_M], thin_n = (cl_uint)t[TUNE_SGEMM_THIN_N];
    int transposed;
    if (thin_m > 0 && c->m <= thin_m && !c->b_k_contig)
        transposed = 0;
    else if (thin_n > 0 && c->n <= thin_n && c->a_mn_contig)
        transposed = 1;
    else
        return 0;
    size_t short_side = transposed ? c->n : c->m, long_side = transposed ? c->m : c->n;
    size_t rm = (size_t)t[TUNE_SGEMM_THIN_RM], wg = (size_t)t[TUNE_SGEMM_THIN_WG];
    size_t kc = (size_t)t[TUNE_SGEMM_THIN_KC], columns = wg * (size_t)t[TUNE_SGEMM_THIN_RN];
    size_t units = c->ctx->info.compute_units;
    size_t groups = ceil_div(long_side, columns) * ceil_div(short_side, rm);
    size_t k_slice;
    size_t slices = few_line_slices(c, groups, (size_t)t[TUNE_SGEMM_THIN_GROUPS_PER_UNIT], kc,
                                    (size_t)t[TUNE_SGEMM_THIN_MIN_K], &k_slice);
    if (groups * slices * 100 < units * (size_t)t[TUNE_SGEMM_THIN_FILL])
        return 0;
    p->slices = (cl_uint)slices;
    p->k_slice = (cl_uint)k_slice;
    p->c_transposed = transposed;
    p->g = (struct geometry){{ceil_div(long_side, columns) * wg, ceil_div(short_side, rm), slices},
                             {wg, 1, 1}};
    p->op = (struct op_plan){PROGRAM_SGEMM_SMALL, KERNEL_SGEMM_THIN, 1, ""};
    name_few_line_plan(c, p, "thin", (int)rm, t[TUNE_SGEMM_THIN_RN]);
    return 1;
}

// The element strides of the dots kernel's short operand Y: between its
// vectors (B's columns, or A's rows where `rows`) and along k.
static void dots_y_strides(const struct sgemm_call *c, int rows, cl_ulong *vector_stride,
                           cl_ulong *k_stride)
{
    if (rows) { // A's rows: m-contiguous (tt) or k-contiguous (nt)
        *vector_stride = c->a_mn_contig ? 1 : c->lda;
        *k_stride = c->a_mn_contig ? c->lda : 1;
    } else { // B's columns: k-contiguous (nt) or n-contiguous (nn)
        *vector_stride = c->b_k_contig ? c->ldb : 1;
        *k_stride = c->b_k_contig ? 1 : c->ldb;
    }
}

// The dots kernel's plan, where it takes the product: up to
// SGEMM_DOTS_MAX columns of C (0: never) with A stored along k, each row of
// A a line, or as many rows with B stored along k, each column of B a line
// (C written transposed, c_transposed). Its groups go along the lines, k
// split by few_line_slices in whole local copies of the short operand
// (groups up to SGEMM_DOTS_GROUPS_PER_UNIT a compute unit), each slice at
// least SGEMM_DOTS_MIN_K steps.
static int plan_dots(const struct sgemm_call *c, struct sgemm_plan *p)
{
    const int *t = c->ctx->profile.tune;
    cl_uint most = (cl_uint)t[TUNE_SGEMM_DOTS_MAX];
    int transposed;
    if (c->n <= most && !c->a_mn_contig)
        transposed = 0;
    else if (c->m <= most && c->b_k_contig)
        transposed = 1;
    else
        return 0;
    size_t lines = transposed ? c->n : c->m, wg = (size_t)t[TUNE_SGEMM_DOTS_WG];
    size_t group_lines = wg / SGEMM_DOTS_LANES * (size_t)t[TUNE_SGEMM_DOTS_LINES];
    size_t groups = ceil_div(lines, group_lines), k_slice;
    size_t slices = few_line_slices(c, groups, (size_t)t[TUNE_SGEMM_DOTS_GROUPS_PER_UNIT],
                                    (size_t)t[TUNE_SGEMM_DOTS_KC], (size_t)t[TUNE_SGEMM_DOTS_MIN_K], &k_slice);
    p->slices = (cl_uint)slices;
    p->k_slice = (cl_uint)k_slice;
    p->c_transposed = transposed;
    p->g = (struct geometry){{groups * wg, 1, slices}, {wg, 1, 1}};
    int vectors = sgemm_dots_vectors(transposed ? c->m : c->n);
    cl_ulong y_vector_stride, y_k_stride;
    dots_y_strides(c, transposed, &y_vector_stride, &y_k_stride);
    static const enum kernel_id kernels[2][3] = {
        {KERNEL_SGEMM_DOTS4, KERNEL_SGEMM_DOTS8, KERNEL_SGEMM_DOTS16},
        {KERNEL_SGEMM_DOTS4_ALONG_K, KERNEL_SGEMM_DOTS8_ALONG_K, KERNEL_SGEMM_DOTS16_ALONG_K}};
    enum kernel_id kernel = kernels[y_k_stride == 1][vectors == 4 ? 0 : vectors == 8 ? 1 : 2];
    p->op = (struct op_plan){PROGRAM_SGEMM_SMALL, kernel, 1, ""};
    name_few_line_plan(c, p, "dots", vectors, t[TUNE_SGEMM_DOTS_LINES]);
    return 1;
}

static void plan_call(const struct sgemm_call *c, struct sgemm_plan *p)
{
    *p = (struct sgemm_plan){.slices = 1};
    if (c->scale_only)
        plan_scale(c, p);
    else if (tune(c->ctx, TUNE_SGEMM_CPU_KERNELS))
        plan_cpu(c, p);
    else if (takes_small_kernel(c))
        plan_small(c, p);
    else if (!plan_thin(c, p) && !plan_dots(c, p))
        plan_tiled_call(c, p);
}

// The dots kernel's operands: the long one X (rows of A, or columns of B
// stored along k), whether its lines start on four floats, and the short
// one's vectors Y (B's columns, or A's rows) with their element strides.
static void fill_dots_operands(const struct sgemm_call *c, const struct sgemm_plan *p,
                               struct kernel_args *a)
{
    int rows = p->c_transposed; // few rows: X is B^T
    cl_ulong x_offset = rows ? c->b_offset : c->a_offset, ldx = rows ? c->ldb : c->lda;
    args_mem(a, rows ? c->b : c->a);
    args_u64(a, x_offset);
    args_u64(a, ldx);
    args_u32(a, divides(x_offset, 4) && divides(ldx, 4));
    cl_ulong y_vector_stride, y_k_stride;
    dots_y_strides(c, rows, &y_vector_stride, &y_k_stride);
    args_mem(a, rows ? c->a : c->b);
    args_u64(a, rows ? c->a_offset : c->b_offset);
    args_u64(a, y_vector_stride);
    args_u64(a, y_k_stride);
}

// The arguments of the planned kernel, in its parameters' order.
static void fill_args(const struct sgemm_call *c, const struct sgemm_plan *p, struct kernel_args *a)
{
    if (p->op.kernel == KERNEL_SGEMM_SCALE) {
        args_u32(a, c->m);
        args_u32(a, c->n);
        args_f32(a, c->beta);
        args_mem(a, c->c);
        args_u64(a, c->c_offset);
        args_u64(a, c->ldc);
        return;
    }
    // The broadcast form computes C^T = B A for tt, the transposed thin
    // and dots plans C^T = B^T A^T: m and n swap.
    int swap = p->op.kernel == KERNEL_SGEMM_CPU_BROADCAST && cpu_swapped(c);
    int thin_swap = p->op.kernel == KERNEL_SGEMM_THIN && p->c_transposed;
    int c_swap = (p->op.kernel == KERNEL_SGEMM_THIN || is_dots(p)) && p->c_transposed;
    args_u32(a, swap || c_swap ? c->n : c->m);
    args_u32(a, swap || c_swap ? c->m : c->n);
    args_u32(a, c->k);
    args_f32(a, c->alpha);
    args_f32(a, c->beta);
    if (p->op.kernel == KERNEL_SGEMM_SMALL || p->op.kernel == KERNEL_SGEMM_THIN) {
        // Element strides: the left operand's rows and k, the right one's k
        // and columns (swapped: B^T's and A^T's, so A's row stride is A^T's
        // column stride).
        cl_ulong a_row = c->a_mn_contig ? 1 : c->lda, a_k = c->a_mn_contig ? c->lda : 1;
        cl_ulong b_k = c->b_k_contig ? 1 : c->ldb, b_col = c->b_k_contig ? c->ldb : 1;
        args_mem(a, thin_swap ? c->b : c->a);
        args_u64(a, thin_swap ? c->b_offset : c->a_offset);
        args_u64(a, thin_swap ? b_col : a_row);
        args_u64(a, thin_swap ? b_k : a_k);
        args_mem(a, thin_swap ? c->a : c->b);
        args_u64(a, thin_swap ? c->a_offset : c->b_offset);
        args_u64(a, thin_swap ? a_k : b_k);
        args_u64(a, thin_swap ? a_row : b_col);
    } else if (is_dots(p)) {
        fill_dots_operands(c, p, a);
    } else if (p->op.kernel == KERNEL_SGEMM_CPU_PACKED) {
        return; // launch_cpu_packed sets the rest
    } else if (p->op.kernel == KERNEL_SGEMM_CPU_BROADCAST) {
        // The broadcast operand x gives the output's rows, the vector
        // operand y its columns; both with element strides, as is C.
        args_mem(a, swap ? c->b : c->a);
        args_u64(a, swap ? c->b_offset : c->a_offset);
        args_u64(a, swap ? c->ldb : c->a_mn_contig ? 1 : c->lda);
        args_u64(a, swap ? 1 : c->a_mn_contig ? c->lda : 1);
        args_mem(a, swap ? c->a : c->b);
        args_u64(a, swap ? c->a_offset : c->b_offset);
        args_u64(a, swap ? c->lda : c->ldb);
        args_mem(a, c->c);
        args_u64(a, c->c_offset);
        args_u64(a, swap ? 1 : c->ldc);
        args_u64(a, swap ? c->ldc : 1);
        return;
    } else {
        args_mem(a, c->a);
        args_u64(a, c->a_offset);
        args_u64(a, c->lda);
        args_mem(a, c->b);
        args_u64(a, c->b_offset);
        args_u64(a, c->ldb);
    }
    args_mem(a, c->c);
    args_u64(a, c->c_offset);
    if (p->op.kernel == KERNEL_SGEMM_THIN || is_dots(p)) {
        // C's row and column strides as the kernel writes it (the dots
        // kernel's lines and vectors).
        args_u64(a, c_swap ? 1 : c->ldc);
        args_u64(a, c_swap ? c->ldc : 1);
    } else {
        args_u64(a, c->ldc);
    }
    if (slices_k(p)) {
        // Split k: the steps of a slice, and the floats between slices' products.
        args_u32(a, p->k_slice);
        args_u64(a, p->slices > 1 ? (cl_ulong)c->m * c->ldc : 0);
    }
    if (is_tiled(p)) {
        args_u32(a, c->c_rows);
        args_u32(a, c->c_cols);
    }
}

static tailor_status launch(const struct sgemm_call *c, const struct sgemm_plan *p)
{
    struct kernel_args args = {0};
    fill_args(c, p, &args);
    return kernel_launch(c->ctx, p->op.program, p->op.kernel, &args, c->queue, 3, p->g.global,
                         p->g.local, c->wait_count, c->wait_list, c->event);
}

// Launches that wait for the previous one: the caller's wait list first.
struct chain {
    cl_uint count;
    const cl_event *list;
    cl_event last;
};

static void chain_to(struct chain *chain, cl_event next)
{
    if (chain->last)
        clReleaseEvent(chain->last);
    chain->last = next;
    chain->count = 1;
    chain->list = &chain->last;
}

// An operand stored k-contiguous (`lines` rows of k floats, `ld` apart)
// transposed by tailor_transpose into the workspace at `at` (k rows of
// `lines`, `ldw` apart), after the chain's last launch.
static tailor_status launch_pack(const struct sgemm_call *c, size_t lines, cl_mem src, cl_ulong offset,
                                 cl_ulong ld, cl_mem workspace, size_t at, size_t ldw, struct chain *chain)
{
    cl_event packed = NULL;
    tailor_status status = tailor_transpose(c->ctx, c->queue, sizeof(float), lines, c->k, src, offset, ld,
                                            workspace, at, ldw, chain->count, chain->list, &packed);
    if (status == TAILOR_SUCCESS)
        chain_to(chain, packed);
    return status;
}

// `lines` lines of `length` floats copied to aligned rows of the workspace.
static tailor_status launch_stage(const struct sgemm_call *c, size_t lines, size_t length, cl_mem src,
                                  cl_ulong offset, cl_ulong ld, cl_mem workspace, size_t at,
                                  size_t ldw, struct chain *chain)
{
    struct kernel_args args = {0};
    args_u32(&args, (cl_uint)lines);
    args_u32(&args, (cl_uint)length);
    args_mem(&args, src);
    args_u64(&args, offset);
    args_u64(&args, ld);
    args_mem(&args, workspace);
    args_u64(&args, at);
    args_u64(&args, ldw);
    struct geometry g = small_grid(c, ceil_div(length, 4), lines); // four floats a work-item
    cl_event done = NULL;
    tailor_status status = kernel_launch(c->ctx, PROGRAM_SGEMM_SMALL, KERNEL_SGEMM_STAGE, &args, c->queue,
                                         3, g.global, g.local, chain->count, chain->list, &done);
    if (status == TAILOR_SUCCESS)
        chain_to(chain, done);
    return status;
}

// C = alpha * (the slices summed) + beta * C.
static tailor_status launch_split_sum(const struct sgemm_call *c, const struct sgemm_plan *p,
                                      cl_mem workspace, const struct workspace_areas *w,
                                      const struct chain *chain)
{
    struct kernel_args args = {0};
    args_u32(&args, c->m);
    args_u32(&args, c->n);
    args_u32(&args, p->slices);
    args_f32(&args, c->alpha);
    args_f32(&args, c->beta);
    args_mem(&args, workspace);
    args_u64(&args, w->partial_at);
    args_u64(&args, w->ldp);
    args_u64(&args, (cl_ulong)partial_rows(c, p) * w->ldp);
    args_mem(&args, c->c);
    args_u64(&args, c->c_offset);
    args_u64(&args, c->ldc);
    struct geometry g = small_grid(c, c->n, c->m);
    return kernel_launch(c->ctx, PROGRAM_SGEMM_SMALL, KERNEL_SGEMM_SPLIT_SUM, &args, c->queue, 3,
                         g.global, g.local, chain->count, chain->list, c->event);
}

// The tiled plan's launches on the queue's workspace, each waiting for the
// one before (out-of-order queues keep the order): B transposed or staged, A
// staged, the product (into the workspace when k is split), the slices'
// sum. C is written by the last launch only, so a failed launch leaves it as
// it was. A workspace that cannot be allocated fails the call as any buffer
// would.
static tailor_status launch_tiled(const struct sgemm_call *c, const struct sgemm_plan *p)
{
    if (!p->pack_a && !p->pack_b && !p->stage_a && !p->stage_b && !sums(p))
        return launch(c, p);
    struct workspace_areas w = areas_of(c, p);
    struct workspace_lease lease;
    tailor_status status = workspace_acquire(c->ctx->workspaces, c->queue, w.total * sizeof(float), &lease);
    if (status != TAILOR_SUCCESS)
        return status;
    struct chain chain = {c->wait_count, c->wait_list, NULL};
    if (p->pack_b) {
        status = launch_pack(c, c->n, c->b, c->b_offset, c->ldb, lease.buffer, w.b_at, w.ldb, &chain);
    } else if (p->stage_b) {
        status = launch_stage(c, c->b_k_contig ? c->n : c->k, c->b_k_contig ? c->k : c->n, c->b,
                              c->b_offset, c->ldb, lease.buffer, w.b_at, w.ldb, &chain);
    }
    if (status == TAILOR_SUCCESS && p->pack_a)
        status = launch_pack(c, c->m, c->a, c->a_offset, c->lda, lease.buffer, w.a_at, w.lda, &chain);
    else if (status == TAILOR_SUCCESS && p->stage_a)
        status = launch_stage(c, c->a_mn_contig ? c->k : c->m, c->a_mn_contig ? c->m : c->k, c->a,
                              c->a_offset, c->lda, lease.buffer, w.a_at, w.lda, &chain);
    if (status == TAILOR_SUCCESS) {
        struct sgemm_call call = staged_call(c, p, lease.buffer);
        call.wait_count = chain.count;
        call.wait_list = chain.list;
        cl_event product = NULL;
        if (sums(p)) {
            call.c = lease.buffer;
            call.c_offset = w.partial_at;
            call.ldc = w.ldp;
            call.alpha = 1.0f;
            call.beta = 0.0f;
            call.event = &product;
        }
        status = launch(&call, p);
        if (status == TAILOR_SUCCESS && sums(p)) {
            chain_to(&chain, product);
            status = launch_split_sum(c, p, lease.buffer, &w, &chain);
        }
    }
    workspace_release(&lease);
    if (chain.last)
        clReleaseEvent(chain.last);
    return status;
}

// One pack kernel's launch: `lines` lines of A (rows) or B (columns), k
// along the other stride, into the workspace at `into` (panels of `width`).
static tailor_status launch_cpu_pack(const struct sgemm_call *c, enum kernel_id kernel, cl_uint lines,
                                     cl_mem src, cl_ulong offset, cl_ulong line_stride, cl_ulong k_stride,
                                     size_t width, cl_mem workspace, cl_ulong into, cl_uint wait_count,
                                     const cl_event *wait_list, cl_event *done)
{
    struct kernel_args args = {0};
    args_u32(&args, lines);
    args_u32(&args, c->k);
    args_mem(&args, src);
    args_u64(&args, offset);
    args_u64(&args, line_stride);
    args_u64(&args, k_stride);
    args_mem(&args, workspace);
    args_u64(&args, into);
    size_t global[3] = {ceil_div(lines, width), ceil_div(c->k, (size_t)tune(c->ctx, TUNE_SGEMM_CPU_KC)), 1};
    size_t local[3] = {1, 1, 1};
    return kernel_launch(c->ctx, PROGRAM_SGEMM_CPU, kernel, &args, c->queue, 2, global, local, wait_count,
                         wait_list, done);
}

// A and B packed into the queue's workspace, then the packed kernel reading
// them; each launch waits for the one before, so out-of-order queues keep
// the order. C is written by the last launch only, so a failed launch leaves
// it as it was.
static tailor_status launch_cpu_packed(const struct sgemm_call *c, const struct sgemm_plan *p)
{
    struct cpu_panels panels = cpu_panels_of(c);
    struct workspace_lease lease;
    tailor_status status =
        workspace_acquire(c->ctx->workspaces, c->queue, panels.floats * sizeof(float), &lease);
    if (status != TAILOR_SUCCESS)
        return status;
    int pack_a = panels.pack_a;
    cl_ulong a_panels = (cl_ulong)panels.b_lines * c->k;
    cl_event packed_b = NULL, packed_a = NULL;
    status = launch_cpu_pack(c, KERNEL_SGEMM_CPU_PACK_B, c->n, c->b, c->b_offset,
                             c->b_k_contig ? c->ldb : 1, c->b_k_contig ? 1 : c->ldb, panels.cols,
                             lease.buffer, 0, c->wait_count, c->wait_list, &packed_b);
    if (status == TAILOR_SUCCESS && pack_a)
        status = launch_cpu_pack(c, KERNEL_SGEMM_CPU_PACK_A, c->m, c->a, c->a_offset,
                                 c->a_mn_contig ? 1 : c->lda, c->a_mn_contig ? c->lda : 1, panels.rows,
                                 lease.buffer, a_panels, 1, &packed_b, &packed_a);
    if (status == TAILOR_SUCCESS) {
        // A's element (i, p): packed, at panel i / RM's start + p RM + i % RM;
        // in place, through its strides.
        cl_ulong row_stride = c->a_mn_contig ? 1 : c->lda;
        struct kernel_args args = {0};
        fill_args(c, p, &args);
        args_mem(&args, pack_a ? lease.buffer : c->a);
        args_u64(&args, pack_a ? a_panels : c->a_offset);
        args_u64(&args, pack_a ? c->k : row_stride);
        args_u64(&args, pack_a ? 1 : row_stride);
        args_u64(&args, pack_a ? panels.rows : c->a_mn_contig ? c->lda : 1);
        args_mem(&args, lease.buffer);
        args_u64(&args, 0);
        args_mem(&args, c->c);
        args_u64(&args, c->c_offset);
        args_u64(&args, c->ldc);
        status = kernel_launch(c->ctx, p->op.program, p->op.kernel, &args, c->queue, 2, p->g.global,
                               p->g.local, 1, pack_a ? &packed_a : &packed_b, c->event);
    }
    workspace_release(&lease);
    if (packed_b)
        clReleaseEvent(packed_b);
    if (packed_a)
        clReleaseEvent(packed_a);
    if (status == TAILOR_SUCCESS)
        variant_set(p->op.variant);
    return status;
}

// Leading dimensions as BLAS checks them, before any quick return; then the
// sizes the kernels index with 32-bit integers.
static tailor_status check_shape(const struct storage *s, size_t m, size_t n, size_t k, size_t lda,
                                 size_t ldb, size_t ldc)
{
    tailor_status status = check_leading_dimensions(s, lda, ldb, ldc);
    if (status != TAILOR_SUCCESS)
        return status;
    REQUIRE(m == 0 || n == 0 ||
                (m <= SGEMM_MAX_DIMENSION && n <= SGEMM_MAX_DIMENSION && k <= SGEMM_MAX_DIMENSION),
            TAILOR_ERROR_UNSUPPORTED, "m, n and k must be at most 2^31 - 1 (got %zu, %zu, %zu)", m,
            n, k);
    return TAILOR_SUCCESS;
}

// The call in row-major terms (src/ops/matrix_product.h).
static struct sgemm_call row_major_call(tailor_context *ctx, tailor_layout layout,
                                        tailor_trans trans_a, tailor_trans trans_b, size_t m,
                                        size_t n, size_t k, float alpha, size_t a_offset, size_t lda,
                                        size_t b_offset, size_t ldb, float beta, size_t c_offset,
                                        size_t ldc)
{
    struct row_major_product r = row_major_product(layout, trans_a, trans_b, m, n);
    return (struct sgemm_call){
        .ctx = ctx,
        .m = (cl_uint)r.m,
        .n = (cl_uint)r.n,
        .k = (cl_uint)k,
        .c_rows = (cl_uint)r.m,
        .c_cols = (cl_uint)r.n,
        .alpha = alpha,
        .beta = beta,
        .a_mn_contig = r.a_mn_contig,
        .b_k_contig = r.b_k_contig,
        .a_offset = r.swap ? b_offset : a_offset,
        .lda = r.swap ? ldb : lda,
        .b_offset = r.swap ? a_offset : b_offset,
        .ldb = r.swap ? lda : ldb,
        .c_offset = c_offset,
        .ldc = ldc,
        .scale_only = k == 0 || alpha == 0.0f,
    };
}

static tailor_status explain(tailor_context *ctx, const tailor_call *call, struct op_plan *plan)
{
    tailor_status status = check_product_enums(call->layout, call->trans_a, call->trans_b);
    if (status != TAILOR_SUCCESS)
        return status;
    size_t m = call->m, n = call->n, k = call->k;
    struct storage s = storage_of(call->layout, call->trans_a, call->trans_b, m, n, k);
    // Zero leading dimensions: packed.
    size_t lda = call->lda ? call->lda : s.a.length + !s.a.length;
    size_t ldb = call->ldb ? call->ldb : s.b.length + !s.b.length;
    size_t ldc = call->ldc ? call->ldc : s.c.length + !s.c.length;
    status = check_shape(&s, m, n, k, lda, ldb, ldc);
    if (status == TAILOR_SUCCESS)
        status = operation_ready(ctx, OP_SGEMM);
    if (status != TAILOR_SUCCESS || m == 0 || n == 0)
        return status;
    struct sgemm_call c = row_major_call(ctx, call->layout, call->trans_a, call->trans_b, m, n, k,
                                         call->alpha, call->a_offset, lda, call->b_offset, ldb,
                                         call->beta, call->c_offset, ldc);
    if (c.scale_only && c.beta == 1.0f)
        return TAILOR_SUCCESS;
    if (!c.scale_only && is_gemv(&c)) {
        tailor_call g = as_gemv(&c);
        status = operation_table[OP_GEMV]->explain(ctx, &g, plan);
        name_prefix(plan->variant, sizeof plan->variant, "gemv:");
        return status;
    }
    struct sgemm_plan p;
    plan_call(&c, &p);
    *plan = p.op;
    return TAILOR_SUCCESS;
}

// The small, thin and dots kernels' groups (and the dots kernel's sums
// added at once), fewer slices of k, one local tile instead of two, fewer
// steps of k, smaller tiles (floors: BK 4 holds the default 4-float global
// loads; the default register tiles divide 16x16).
static const struct shrink_step shrink_steps[] = {
    {1, 4, {TUNE_SGEMM_SMALL_WG_X, TUNE_SGEMM_SMALL_WG_Y, TUNE_SGEMM_THIN_WG, TUNE_SGEMM_DOTS_SUMS}},
    {SGEMM_DOTS_LANES, 1, {TUNE_SGEMM_DOTS_WG}},
    {1, 2, {TUNE_SGEMM_SLICED_K, TUNE_SGEMM_MID_SLICED_K}},
    {0, 2, {TUNE_SGEMM_DOUBLE_BUFFER, TUNE_SGEMM_MID_DOUBLE_BUFFER}},
    {4, 3, {TUNE_SGEMM_BK, TUNE_SGEMM_MID_BK, TUNE_SGEMM_THIN_KC}},
    {4 * SGEMM_DOTS_LANES, 1, {TUNE_SGEMM_DOTS_KC}},
    {16, 2, {TUNE_SGEMM_MID_BM, TUNE_SGEMM_MID_BN}},
    {16, 2, {TUNE_SGEMM_BM, TUNE_SGEMM_BN}},
};

const struct operation sgemm_operation = {
    check, NULL, explain, NULL, &sgemm_tune_tasks, shrink_steps,
    sizeof shrink_steps / sizeof shrink_steps[0], NULL};

tailor_status tailor_sgemm(tailor_context *ctx, cl_command_queue queue, tailor_layout layout,
                           tailor_trans trans_a, tailor_trans trans_b, size_t m, size_t n,
                           size_t k, float alpha, cl_mem a, size_t a_offset, size_t lda, cl_mem b,
                           size_t b_offset, size_t ldb, float beta, cl_mem c, size_t c_offset,
                           size_t ldc, cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event)
{
    operation_begin();
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    tailor_status status = check_product_enums(layout, trans_a, trans_b);
    if (status == TAILOR_SUCCESS)
        status = check_enqueue(ctx, queue, num_events_in_wait_list, event_wait_list);
    struct storage s = storage_of(layout, trans_a, trans_b, m, n, k);
    if (status == TAILOR_SUCCESS)
        status = check_shape(&s, m, n, k, lda, ldb, ldc);
    if (status == TAILOR_SUCCESS)
        status = operation_ready(ctx, OP_SGEMM);
    if (status != TAILOR_SUCCESS)
        return status;
    if (m == 0 || n == 0)
        return enqueue_nothing(queue, num_events_in_wait_list, event_wait_list, event);

    // k = 0 or alpha = 0: C = beta * C, A and B not read (BLAS semantics).
    int product = k > 0 && alpha != 0.0f;
    status = check_matrix(ctx, c, "c", c_offset, s.c.lines, s.c.length, ldc, sizeof(float),
                          beta == 0.0f ? BUFFER_WRITE : BUFFER_READ | BUFFER_WRITE);
    if (status == TAILOR_SUCCESS && product)
        status = check_matrix(ctx, a, "a", a_offset, s.a.lines, s.a.length, lda, sizeof(float),
                              BUFFER_READ);
    if (status == TAILOR_SUCCESS && product)
        status = check_matrix(ctx, b, "b", b_offset, s.b.lines, s.b.length, ldb, sizeof(float),
                              BUFFER_READ);
    size_t c_extent = extent_of(s.c, ldc);
    if (status == TAILOR_SUCCESS && product)
        status = check_product_overlap(a, "a", a_offset, extent_of(s.a, lda), sizeof(float), c,
                                       c_offset, c_extent, sizeof(float));
    if (status == TAILOR_SUCCESS && product)
        status = check_product_overlap(b, "b", b_offset, extent_of(s.b, ldb), sizeof(float), c,
                                       c_offset, c_extent, sizeof(float));
    if (status != TAILOR_SUCCESS)
        return status;
    if (!product && beta == 1.0f)
        return enqueue_nothing(queue, num_events_in_wait_list, event_wait_list, event);

    int row_major = layout == TAILOR_ROW_MAJOR;
    struct sgemm_call call = row_major_call(ctx, layout, trans_a, trans_b, m, n, k, alpha, a_offset,
                                            lda, b_offset, ldb, beta, c_offset, ldc);
    call.queue = queue;
    call.a = row_major ? a : b;
    call.b = row_major ? b : a;
    call.c = c;
    call.wait_count = num_events_in_wait_list;
    call.wait_list = event_wait_list;
    call.event = event;
    if (!call.scale_only && is_gemv(&call))
        return run_as_gemv(&call);
    struct sgemm_plan plan;
    plan_call(&call, &plan);
    if (plan.op.kernel == KERNEL_SGEMM_CPU_PACKED)
        return launch_cpu_packed(&call, &plan);
    if (slices_k(&plan))
        status = launch_tiled(&call, &plan);
    else
        status = launch(&call, &plan);
    if (status == TAILOR_SUCCESS)
        variant_set(plan.op.variant);
    return status;
}
