// `tailor explain`: what one call would run on a device (variant, kernel,
// program) and every -D option that program gets, with where each value
// came from; no kernel is built or enqueued.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "device_select.h"
#include "tailor.h"

static const char explain_usage[] =
    "usage: tailor explain --op OP --shape SHAPE [OPTIONS]\n"
    "\n"
    "  --op OP              reduce, gemv, transpose, sgemm or gemm\n"
    "  --shape SHAPE        reduce: N; gemv: MxN (A is M x N); transpose: RxC (A is\n"
    "                       R x C); sgemm, gemm: MxNxK\n"
    "  --device SELECTOR    as for tailor bench (default: the first GPU, else the first device)\n"
    "  --column-major       gemv, sgemm, gemm: column-major storage (default row-major)\n"
    "  --trans, --trans-a   gemv: op(A) = A^T; sgemm, gemm: A transposed\n"
    "  --trans-b            sgemm, gemm: B transposed\n"
    "  --lda N, --ldb N, --ldc N   leading dimensions (default: packed)\n"
    "  --offsets A[,B[,C]]  element offsets of A, B (gemv: x), C (gemv: y)\n"
    "  --incx N, --incy N   gemv increments (default 1)\n"
    "  --element-bytes N    transpose: 1, 2, 4, 8 or 16 (default 4)\n"
    "  --scaled f32|f64     transpose: somatcopy / domatcopy with alpha != 1\n"
    "  --dtype TYPE         reduce: f32, f64, f16 or bf16; gemv: A and x in f32,\n"
    "                       f16 or bf16; gemm: A and B in f16, bf16, f32 or 3xtf32\n"
    "                       (default f32)\n"
    "  --c-type TYPE        gemm: C, gemv: y in f32, f16 or bf16 (default f32)\n"
    "  --batch N            gemm: strided batch of N products (default 1)\n"
    "  --strides A,B,C      gemm: elements between the batch's matrices\n"
    "  --reduce sum|min|max reduce: operator (default sum)\n"
    "  --alpha X, --beta X  gemv, sgemm and gemm scalars (default 1 and 0)\n";

static const char *const operation_names[] = {"reduce", "gemv", "transpose", "sgemm", "gemm"};
static const char *const dtype_names[] = {"f32", "f64", "f16", "bf16", "3xtf32"};

// A type's name into *type; -1 if it names none.
static int parse_dtype(const char *name, tailor_dtype *type)
{
    for (size_t i = 0; i < sizeof dtype_names / sizeof dtype_names[0]; ++i)
        if (strcmp(name, dtype_names[i]) == 0) {
            *type = (tailor_dtype)i;
            return 0;
        }
    return -1;
}

// "4096x4096x4096" into up to three sizes; returns how many.
static int parse_shape(const char *text, size_t sizes[3])
{
    int count = 0;
    const char *at = text;
    while (count < 3) {
        char *end;
        unsigned long long value = strtoull(at, &end, 10);
        if (end == at)
            return -1;
        sizes[count++] = (size_t)value;
        if (*end == '\0')
            return count;
        if (*end != 'x' && *end != 'X')
            return -1;
        at = end + 1;
    }
    return -1;
}

static int parse_arguments(int argc, char **argv, tailor_call *call, const char **selector)
{
    const char *op = NULL, *shape = NULL;
    call->alpha = 1.0f;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        int takes_value = 1;
        if (strcmp(arg, "--column-major") == 0)
            call->layout = TAILOR_COLUMN_MAJOR, takes_value = 0;
        else if (strcmp(arg, "--trans") == 0 || strcmp(arg, "--trans-a") == 0)
            call->trans_a = TAILOR_TRANS, takes_value = 0;
        else if (strcmp(arg, "--trans-b") == 0)
            call->trans_b = TAILOR_TRANS, takes_value = 0;
        else if (!value)
            return -1;
        else if (strcmp(arg, "--op") == 0)
            op = value;
        else if (strcmp(arg, "--shape") == 0)
            shape = value;
        else if (strcmp(arg, "--device") == 0)
            *selector = value;
        else if (strcmp(arg, "--lda") == 0)
            call->lda = strtoull(value, NULL, 10);
        else if (strcmp(arg, "--ldb") == 0)
            call->ldb = strtoull(value, NULL, 10);
        else if (strcmp(arg, "--ldc") == 0)
            call->ldc = strtoull(value, NULL, 10);
        else if (strcmp(arg, "--offsets") == 0) {
            unsigned long long o[3] = {0, 0, 0};
            if (sscanf(value, "%llu,%llu,%llu", &o[0], &o[1], &o[2]) < 1)
                return -1;
            call->a_offset = o[0], call->b_offset = o[1], call->c_offset = o[2];
        } else if (strcmp(arg, "--incx") == 0)
            call->incx = strtoll(value, NULL, 10);
        else if (strcmp(arg, "--incy") == 0)
            call->incy = strtoll(value, NULL, 10);
        else if (strcmp(arg, "--element-bytes") == 0)
            call->element_bytes = strtoull(value, NULL, 10);
        else if (strcmp(arg, "--scaled") == 0 || strcmp(arg, "--dtype") == 0) {
            call->scaled = strcmp(arg, "--scaled") == 0;
            if (parse_dtype(value, &call->dtype) != 0)
                return -1;
        } else if (strcmp(arg, "--c-type") == 0) {
            if (parse_dtype(value, &call->c_type) != 0)
                return -1;
        } else if (strcmp(arg, "--batch") == 0)
            call->batch = strtoull(value, NULL, 10);
        else if (strcmp(arg, "--strides") == 0) {
            unsigned long long st[3] = {0, 0, 0};
            if (sscanf(value, "%llu,%llu,%llu", &st[0], &st[1], &st[2]) != 3)
                return -1;
            call->stride_a = st[0], call->stride_b = st[1], call->stride_c = st[2];
        } else if (strcmp(arg, "--reduce") == 0)
            call->reduce_op = strcmp(value, "min") == 0   ? TAILOR_REDUCE_MIN
                              : strcmp(value, "max") == 0 ? TAILOR_REDUCE_MAX
                                                          : TAILOR_REDUCE_SUM;
        else if (strcmp(arg, "--alpha") == 0)
            call->alpha = strtof(value, NULL);
        else if (strcmp(arg, "--beta") == 0)
            call->beta = strtof(value, NULL);
        else
            return -1;
        i += takes_value;
    }
    size_t sizes[3] = {0, 0, 0};
    int found = -1;
    for (int o = 0; op && o < 5; ++o)
        if (strcmp(op, operation_names[o]) == 0)
            found = o;
    int dimensions = shape ? parse_shape(shape, sizes) : -1;
    static const int wanted[] = {1, 2, 2, 3, 3};
    if (found < 0 || dimensions != wanted[found])
        return -1;
    call->operation = (tailor_operation)found;
    if (found == TAILOR_OP_REDUCE)
        call->n = sizes[0];
    else
        call->m = sizes[0], call->n = sizes[1], call->k = sizes[2];
    return 0;
}

static void print_settings(const char *title, const tailor_plan_setting *settings, size_t count)
{
    printf("  %s:\n", title);
    for (size_t i = 0; i < count; ++i) {
        char item[112];
        snprintf(item, sizeof item, "%s=%s", settings[i].name, settings[i].value);
        printf("    %-40s %s\n", item, tailor_origin_name(settings[i].origin));
    }
}

static int explain_on(const struct device_choice *choice, const tailor_call *call)
{
    cl_int error;
    cl_context context = clCreateContext(NULL, 1, &choice->device, NULL, NULL, &error);
    if (error != CL_SUCCESS) {
        fprintf(stderr, "explain: clCreateContext failed (%d)\n", (int)error);
        return 1;
    }
    tailor_context *tailor = NULL;
    tailor_plan plan;
    tailor_status status = tailor_context_create(context, choice->device, NULL, &tailor);
    if (status == TAILOR_SUCCESS)
        status = tailor_explain(tailor, call, &plan);
    if (status != TAILOR_SUCCESS) {
        fprintf(stderr, "explain: %s: %s\n", tailor_status_name(status), tailor_last_error());
    } else {
        tailor_device_info info;
        tailor_context_device_info(tailor, &info);
        printf("%s on %s, profile %s\n", operation_names[call->operation], info.device_name,
               info.profile_name);
        printf("  variant  %s\n", *plan.variant ? plan.variant : "(nothing to enqueue)");
        if (*plan.kernel) {
            printf("  kernel   %s\n", plan.kernel);
            printf("  program  %s (%zu launch%s)\n", plan.program, plan.launches,
                   plan.launches == 1 ? "" : "es");
            print_settings("defines (value, origin)", plan.defines, plan.define_count);
        }
        print_settings("host thresholds (value, origin)", plan.host, plan.host_count);
    }
    tailor_context_release(&tailor);
    clReleaseContext(context);
    return status == TAILOR_SUCCESS ? 0 : 1;
}

int command_explain(int argc, char **argv)
{
    tailor_call call;
    memset(&call, 0, sizeof call);
    const char *selector = NULL;
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(explain_usage, stdout);
        return 0;
    }
    if (parse_arguments(argc, argv, &call, &selector) != 0) {
        fputs(explain_usage, stderr);
        return 2;
    }
    struct device_choice choice;
    if (select_device(selector, &choice) != 0) {
        fprintf(stderr, "explain: no OpenCL device matches '%s'\n", selector ? selector : "");
        return 1;
    }
    return explain_on(&choice, &call);
}
