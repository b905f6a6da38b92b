// `tailor tune`: tunes a device's kernels (tailor_tune) with a progress bar,
// and shows, resets, exports and imports its tuning record.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "device_select.h"
#include "json.h"
#include "tailor.h"

#define MAX_SHAPES 64

static const char tune_usage[] =
    "usage: tailor tune [--device SELECTOR] [--op OP[,OP...]] [--shape SHAPE]...\n"
    "                   [--budget SECONDS] [--json FILE] [--dry-run] [--seed N]\n"
    "       tailor tune [--device SELECTOR] --show | --reset | --export FILE | --import FILE\n"
    "\n"
    "Searches the tuning parameters of each operation on the device, checks every\n"
    "candidate against a host reference before timing it, and keeps the best in\n"
    "the device's tuning record in the cache directory, which later handles load.\n"
    "\n"
    "  --device SELECTOR  as for tailor bench (default: the first GPU, else the first device)\n"
    "  --op OP,...        reduce, gemv, transpose, sgemm (default: all)\n"
    "  --shape SHAPE      tune for this call instead of the representative shapes\n"
    "                     (repeatable): reduce:N[:f64][:min|:max], gemv:MxN[:t],\n"
    "                     transpose:RxC[:BYTES], sgemm:MxNxK[:nn|nt|tn|tt]\n"
    "  --budget SECONDS   wall time of the whole run (default 180 on GPUs, 300 on CPUs)\n"
    "  --json FILE        every candidate tried, and the result, as JSON\n"
    "  --dry-run          search and report; keep nothing\n"
    "  --seed N           of the random sampling (default: a fixed one)\n"
    "  --show             the record in use, its values and where it lives\n"
    "  --reset            remove the device's record\n"
    "  --export FILE      write the device's record as JSON (- for stdout)\n"
    "  --import FILE      check a record exported on an identical device and keep it\n";

static int parse_sizes(const char *text, size_t *sizes, int most, const char **rest)
{
    int count = 0;
    const char *at = text;
    while (count < most) {
        char *end;
        unsigned long long value = strtoull(at, &end, 10);
        if (end == at)
            return -1;
        sizes[count++] = (size_t)value;
        if (*end != 'x' && *end != 'X') {
            *rest = end;
            return count;
        }
        at = end + 1;
    }
    return -1;
}

// "sgemm:4096x4096x4096:nt" into a call; 0 on success.
static int parse_shape(const char *text, tailor_call *call)
{
    memset(call, 0, sizeof *call);
    call->alpha = 1.0f;
    const char *colon = strchr(text, ':');
    if (!colon)
        return -1;
    size_t name = (size_t)(colon - text);
    size_t sizes[3] = {0, 0, 0};
    const char *rest = "";
    int want;
    if (name == 6 && strncmp(text, "reduce", 6) == 0)
        call->operation = TAILOR_OP_REDUCE, want = 1;
    else if (name == 4 && strncmp(text, "gemv", 4) == 0)
        call->operation = TAILOR_OP_SGEMV, want = 2, call->beta = 0.5f;
    else if (name == 9 && strncmp(text, "transpose", 9) == 0)
        call->operation = TAILOR_OP_TRANSPOSE, want = 2;
    else if (name == 5 && strncmp(text, "sgemm", 5) == 0)
        call->operation = TAILOR_OP_SGEMM, want = 3;
    else
        return -1;
    if (parse_sizes(colon + 1, sizes, 3, &rest) != want)
        return -1;
    if (want == 1)
        call->n = sizes[0];
    else
        call->m = sizes[0], call->n = sizes[1], call->k = sizes[2];
    while (*rest == ':') {
        const char *flag = rest + 1;
        size_t length = strcspn(flag, ":");
        if (call->operation == TAILOR_OP_REDUCE && length == 3 && strncmp(flag, "f64", 3) == 0)
            call->dtype = TAILOR_F64;
        else if (call->operation == TAILOR_OP_REDUCE && length == 3 && strncmp(flag, "min", 3) == 0)
            call->reduce_op = TAILOR_REDUCE_MIN;
        else if (call->operation == TAILOR_OP_REDUCE && length == 3 && strncmp(flag, "max", 3) == 0)
            call->reduce_op = TAILOR_REDUCE_MAX;
        else if (call->operation == TAILOR_OP_SGEMV && length == 1 && *flag == 't')
            call->trans_a = TAILOR_TRANS;
        else if (call->operation == TAILOR_OP_TRANSPOSE && length <= 2)
            call->element_bytes = strtoul(flag, NULL, 10);
        else if (call->operation == TAILOR_OP_SGEMM && length == 2 &&
                 (flag[0] == 'n' || flag[0] == 't') && (flag[1] == 'n' || flag[1] == 't')) {
            call->trans_a = flag[0] == 't' ? TAILOR_TRANS : TAILOR_NO_TRANS;
            call->trans_b = flag[1] == 't' ? TAILOR_TRANS : TAILOR_NO_TRANS;
        } else
            return -1;
        rest = flag + length;
    }
    return *rest == '\0' ? 0 : -1;
}

struct progress_state {
    int terminal;
    FILE *json;
    size_t steps;
};

static void on_progress(const tailor_tune_progress *step, void *user)
{
    struct progress_state *state = user;
    if (state->json) {
        fprintf(state->json, "%s\n    {\"elapsed\": %.2f, \"operation\": ", state->steps ? "," : "",
                step->elapsed_seconds);
        json_string(state->json, step->operation);
        fprintf(state->json, ", \"task\": ");
        json_string(state->json, step->task);
        fprintf(state->json, ", \"candidate\": ");
        json_string(state->json, step->candidate);
        fprintf(state->json, ", \"outcome\": ");
        json_string(state->json, step->outcome);
        fprintf(state->json, ", \"relative\": %.4f, \"best_relative\": %.4f, \"detail\": ",
                step->relative, step->best_relative);
        json_string(state->json, step->detail);
        fprintf(state->json, "}");
    }
    ++state->steps;
    double fraction = step->budget_seconds > 0 ? step->elapsed_seconds / step->budget_seconds : 0;
    if (fraction > 1)
        fraction = 1;
    if (state->terminal) {
        char bar[31];
        int filled = (int)(fraction * 30);
        for (int i = 0; i < 30; ++i)
            bar[i] = i < filled ? '#' : '.';
        bar[30] = '\0';
        fprintf(stderr, "\r\033[K[%s] %3.0f s/%.0f  %s/%s best %.3f  %s: %.60s", bar,
                step->elapsed_seconds, step->budget_seconds, step->operation, step->task,
                step->best_relative, step->outcome, step->candidate);
        if (strcmp(step->outcome, "kept") == 0 || strcmp(step->outcome, "reverted") == 0)
            fprintf(stderr, "\r\033[K%s/%s: %s at %.3f of the start: %s\n", step->operation,
                    step->task, step->outcome, step->relative, step->candidate);
        return;
    }
    fprintf(stderr, "%7.1f s  %s/%s  %-12s %6.3f  best %.3f  %s%s%.200s\n", step->elapsed_seconds,
            step->operation, step->task, step->outcome, step->relative, step->best_relative,
            step->candidate, *step->detail ? ": " : "", step->detail);
}

static int show(tailor_context *tailor)
{
    tailor_tuning_info info;
    tailor_context_tuning_info(tailor, &info);
    printf("record   %s\n", info.path[0] ? info.path : "(none: the cache is off)");
    printf("in use   %s (%zu values)%s%s\n", info.loaded ? "yes" : "no", info.values,
           info.note[0] ? "; " : "", info.note);
    for (size_t i = 0; i < tailor_parameter_count(); ++i) {
        tailor_parameter_info p;
        int value;
        tailor_origin origin;
        if (tailor_parameter_describe(i, &p) == TAILOR_SUCCESS &&
            tailor_context_parameter(tailor, p.name, &value, &origin) == TAILOR_SUCCESS &&
            origin == TAILOR_ORIGIN_TUNED)
            printf("  %-28s %d\n", p.name, value);
    }
    return 0;
}

static int export_record(tailor_context *tailor, const char *path)
{
    size_t length = 0;
    tailor_context_tuning_export(tailor, NULL, 0, &length);
    char *text = malloc(length + 1);
    if (!text || tailor_context_tuning_export(tailor, text, length + 1, NULL) != TAILOR_SUCCESS) {
        fprintf(stderr, "tune: %s\n", text ? tailor_last_error() : "out of memory");
        free(text);
        return 1;
    }
    FILE *out = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    int failed = !out || fputs(text, out) < 0;
    if (out && out != stdout)
        failed |= fclose(out) != 0;
    if (failed)
        fprintf(stderr, "tune: writing %s failed\n", path);
    free(text);
    return failed;
}

static int import_record(tailor_context *tailor, const char *path)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        fprintf(stderr, "tune: cannot open %s\n", path);
        return 1;
    }
    size_t size = 1 << 20, length;
    char *text = malloc(size);
    length = text ? fread(text, 1, size, in) : 0;
    fclose(in);
    tailor_status status = text ? tailor_context_tuning_import(tailor, text, length)
                                : TAILOR_ERROR_OUT_OF_HOST_MEMORY;
    free(text);
    if (status != TAILOR_SUCCESS) {
        fprintf(stderr, "tune: %s\n", tailor_last_error());
        return 1;
    }
    printf("imported %s\n", path);
    return 0;
}

int command_tune(int argc, char **argv)
{
    const char *selector = getenv("TAILOR_BENCH_DEVICE"), *json_path = NULL, *export_path = NULL,
               *import_path = NULL;
    int show_only = 0, reset = 0;
    tailor_tune_request request;
    memset(&request, 0, sizeof request);
    static tailor_call shapes[MAX_SHAPES];
    size_t shape_count = 0;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(tune_usage, stdout);
            return 0;
        }
        if (strcmp(arg, "--show") == 0)
            show_only = 1;
        else if (strcmp(arg, "--reset") == 0)
            reset = 1;
        else if (strcmp(arg, "--dry-run") == 0)
            request.dry_run = 1;
        else if (value && strcmp(arg, "--device") == 0)
            selector = argv[++i];
        else if (value && strcmp(arg, "--op") == 0)
            request.operations = argv[++i];
        else if (value && strcmp(arg, "--budget") == 0)
            request.budget_seconds = strtod(argv[++i], NULL);
        else if (value && strcmp(arg, "--seed") == 0)
            request.seed = strtoull(argv[++i], NULL, 0);
        else if (value && strcmp(arg, "--json") == 0)
            json_path = argv[++i];
        else if (value && strcmp(arg, "--export") == 0)
            export_path = argv[++i];
        else if (value && strcmp(arg, "--import") == 0)
            import_path = argv[++i];
        else if (value && strcmp(arg, "--shape") == 0 && shape_count < MAX_SHAPES &&
                 parse_shape(value, &shapes[shape_count]) == 0) {
            ++shape_count;
            ++i;
        } else {
            fputs(tune_usage, stderr);
            return 2;
        }
    }
    request.calls = shape_count ? shapes : NULL;
    request.call_count = shape_count;

    struct device_choice choice;
    if (select_device(selector, &choice) != 0) {
        fprintf(stderr, "tune: no OpenCL device matches '%s'\n", selector ? selector : "");
        return 1;
    }
    cl_int error;
    cl_context context = clCreateContext(NULL, 1, &choice.device, NULL, NULL, &error);
    cl_command_queue queue =
        error == CL_SUCCESS ? clCreateCommandQueue(context, choice.device, 0, &error) : NULL;
    tailor_context *tailor = NULL;
    int status = 1;
    if (error != CL_SUCCESS) {
        fprintf(stderr, "tune: OpenCL context or queue failed (%d)\n", (int)error);
        goto done;
    }
    if (tailor_context_create(context, choice.device, NULL, &tailor) != TAILOR_SUCCESS) {
        fprintf(stderr, "tune: tailor_context_create: %s\n", tailor_last_error());
        goto done;
    }
    if (show_only) {
        status = show(tailor);
        goto done;
    }
    if (reset) {
        status = tailor_context_tuning_reset(tailor) == TAILOR_SUCCESS ? 0 : 1;
        if (status)
            fprintf(stderr, "tune: %s\n", tailor_last_error());
        goto done;
    }
    if (export_path) {
        status = export_record(tailor, export_path);
        goto done;
    }
    if (import_path) {
        status = import_record(tailor, import_path);
        goto done;
    }
    tailor_device_info info;
    tailor_context_device_info(tailor, &info);
    fprintf(stderr, "tuning %s (profile %s)\n", info.device_name, info.profile_name);
    struct progress_state progress = {isatty(STDERR_FILENO), NULL, 0};
    if (json_path && !(progress.json = fopen(json_path, "w"))) {
        fprintf(stderr, "tune: cannot write %s\n", json_path);
        goto done;
    }
    if (progress.json) {
        fprintf(progress.json, "{\n  \"device\": ");
        json_string(progress.json, info.device_name);
        fprintf(progress.json, ",\n  \"profile\": ");
        json_string(progress.json, info.profile_name);
        fprintf(progress.json, ",\n  \"steps\": [");
    }
    tailor_tune_result result;
    tailor_status tuned = tailor_tune(tailor, queue, &request, on_progress, &progress, &result);
    if (progress.terminal)
        fprintf(stderr, "\r\033[K");
    if (progress.json) {
        fprintf(progress.json,
                "\n  ],\n  \"status\": \"%s\",\n  \"seconds\": %.1f,\n  \"tried\": %zu,\n"
                "  \"timed\": %zu,\n  \"invalid\": %zu,\n  \"build_failures\": %zu,\n"
                "  \"wrong_results\": %zu,\n  \"opencl_errors\": %zu,\n  \"slow\": %zu,\n"
                "  \"values\": %zu,\n  \"changed\": %zu,\n  \"stored\": %d\n}\n",
                tailor_status_name(tuned), result.seconds, result.tried, result.timed,
                result.invalid, result.build_failures, result.wrong_results, result.opencl_errors,
                result.slow, result.values, result.changed, result.stored);
        fclose(progress.json);
    }
    if (tuned != TAILOR_SUCCESS) {
        fprintf(stderr, "tune: %s\n", tailor_last_error());
        goto done;
    }
    printf("tuned in %.1f s: %zu candidates (%zu timed; rejected: %zu invalid, %zu failed to build,"
           " %zu wrong, %zu OpenCL errors, %zu far slower); %zu values, %zu changed\n",
           result.seconds, result.tried, result.timed, result.invalid, result.build_failures,
           result.wrong_results, result.opencl_errors, result.slow, result.values, result.changed);
    printf("%s %s\n", result.stored ? "record written to" : "dry run: nothing written to",
           result.record_path);
    status = 0;
done:
    tailor_context_release(&tailor);
    if (queue)
        clReleaseCommandQueue(queue);
    if (context)
        clReleaseContext(context);
    return status;
}
