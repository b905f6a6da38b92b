// tailor_tune: the search. For each task of each operation requested, from
// the handle's values: random points of the task's parameters for the first
// part of its time (every value, for a task of one parameter), then a local search (one parameter one ladder step at a
// time) around the best until no neighbour is better or its time is spent.
// Every candidate runs in a handle of its own (the point as overrides), is
// checked before it is timed, and is timed in alternating batches against
// the best so far. At the end of a task its best is timed once more against
// its start with longer batches and kept only if it is not slower on any
// call. Random points first because the tile parameters interact (a tile
// set valid as a whole is rarely one step from another); the local search
// then refines what the sampling found within the budget.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "checks.h"
#include "context.h"
#include "error.h"
#include "operation.h"
#include "tune_data.h"
#include "tune_space.h"
#include "tuned.h"

#define DEFAULT_BUDGET_GPU 300.0
#define DEFAULT_BUDGET_CPU 300.0
// The share of a task's time spent on random points.
#define RANDOM_SHARE 0.4
// Attempts at drawing a valid random point before giving up on one.
#define RANDOM_DRAWS 2000
// A candidate is better when its geometric mean over the calls is this much
// lower than the best's and no call is slower by more than SLOWER_LIMIT, or
// when it is much better overall (MUCH_BETTER) and no call is slower by more
// than TRADE_LIMIT. A task's result is kept when it is better than its start
// by BETTER_BY and no call is slower than there by more than KEEP_LIMIT.
#define BETTER_BY 0.98
#define SLOWER_LIMIT 1.03
#define MUCH_BETTER 0.90
#define TRADE_LIMIT 1.10
#define KEEP_LIMIT 1.02
// A candidate whose first timed call takes this many times the best's is
// not timed further; for calls long enough that one call is a fair sample,
// FAR_SLOWER_LONG times.
#define FAR_SLOWER 3.0
#define FAR_SLOWER_LONG 1.5
#define LONG_CALL_SECONDS 200e-6

struct timing {
    double batch_seconds;
    int batches;
};

static const struct timing search_timing = {0.01, 5};
static const struct timing confirm_timing = {0.02, 7};

struct run {
    tailor_context *ctx;
    cl_command_queue queue;
    void (*progress)(const tailor_tune_progress *step, void *user);
    void *user;
    tailor_tune_result *result;
    double start, budget;
    uint64_t seed;
    struct profile base; // the handle's profile: what candidates start from
    const char *op_name, *task_name;
    double best_relative;
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double elapsed(const struct run *run)
{
    return now() - run->start;
}

static void report(struct run *run, const char *candidate, const char *outcome, const char *detail,
                   double relative)
{
    if (!run->progress)
        return;
    tailor_tune_progress step = {
        .operation = run->op_name,
        .task = run->task_name,
        .candidate = candidate,
        .outcome = outcome,
        .detail = detail ? detail : "",
        .relative = relative,
        .best_relative = run->best_relative,
        .elapsed_seconds = elapsed(run),
        .budget_seconds = run->budget,
        .tried = run->result->tried,
        .rejected = run->result->invalid + run->result->build_failures +
                    run->result->wrong_results + run->result->opencl_errors + run->result->slow,
    };
    run->progress(&step, run->user);
}

// The values of `point` that differ from `from`, among the task's
// parameters, as "NAME=V,...".
static void describe_point(const enum param_id *params, const int *point, const int *from,
                           char *text, size_t size)
{
    size_t used = 0;
    text[0] = '\0';
    for (const enum param_id *p = params; *p != TUNE_COUNT; ++p) {
        if (point[*p] == from[*p])
            continue;
        int added = snprintf(text + used, size - used, "%s%s=%d", used ? "," : "",
                             param_table[*p].name, point[*p]);
        if (added < 0 || (size_t)added >= size - used)
            break;
        used += (size_t)added;
    }
    if (!used)
        snprintf(text, size, "(start)");
}

// A handle that runs `point` for the operation: every parameter of it that
// applies, as an override, on the handle's profile and cache, no record.
static tailor_status candidate_handle(const struct run *run, enum operation_id op, const int *point,
                                      tailor_context **out)
{
    size_t size = 64 * TUNE_COUNT, used = 0;
    char *overrides = malloc(size);
    if (!overrides)
        return error_set(TAILOR_ERROR_OUT_OF_HOST_MEMORY, "no memory for a candidate");
    overrides[0] = '\0';
    for (int param = 0; param < TUNE_COUNT; ++param) {
        if (param_table[param].op != op || !profile_param_applies(&run->base, (enum param_id)param))
            continue;
        int added = snprintf(overrides + used, size - used, "%s%s=%d", used ? "," : "",
                             param_table[param].name, point[param]);
        if (added > 0 && (size_t)added < size - used)
            used += (size_t)added;
    }
    const tailor_context *ctx = run->ctx;
    tailor_settings settings;
    tailor_default_settings(&settings);
    settings.profile = profile_name(&ctx->profile);
    settings.tuning = overrides;
    settings.build_options = ctx->extra_build_options;
    settings.cache_dir = ctx->cache.enabled ? ctx->cache.dir : NULL;
    settings.cache_mode = ctx->cache.enabled ? TAILOR_CACHE_ON : TAILOR_CACHE_OFF;
    settings.cache_max_bytes = ctx->cache.max_bytes;
    settings.tuned_mode = TAILOR_TUNED_OFF;
    tailor_status status = tailor_context_create(ctx->context, ctx->device, &settings, out);
    free(overrides);
    return status;
}

struct contender {
    tailor_context *ctx;
    int batch;
    double samples[8];
};

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static tailor_status time_batch(struct run *run, struct contender *c, struct tune_data *data,
                                int calls, double *seconds)
{
    double begin = now();
    for (int i = 0; i < calls; ++i) {
        tailor_status status = tune_data_run(c->ctx, run->queue, data, 0);
        if (status != TAILOR_SUCCESS)
            return status;
    }
    cl_int error = clFinish(run->queue);
    if (error != CL_SUCCESS)
        return error_from_cl(error, "clFinish while timing");
    *seconds = (now() - begin) / calls;
    return TAILOR_SUCCESS;
}

// The first call settles the handle, the second sizes the batches, and a
// first batch (not kept) gives *once, the time of one call, for the
// far-slower test: a single call on a CPU device was too noisy for it.
static tailor_status prepare(struct run *run, struct contender *c, struct tune_data *data,
                             const struct timing *timing, double *once)
{
    tailor_status status = time_batch(run, c, data, 1, once);
    if (status == TAILOR_SUCCESS)
        status = time_batch(run, c, data, 1, once);
    if (status != TAILOR_SUCCESS)
        return status;
    double calls = *once > 0 ? timing->batch_seconds / *once + 1 : 10000;
    c->batch = calls > 10000 ? 10000 : (int)calls;
    return time_batch(run, c, data, c->batch, once);
}

// Medians of the candidate's and the best's batches, taken in turn on one
// call. TAILOR_SUCCESS with *slow set if the candidate's single call was far
// slower than the best's.
static tailor_status time_pair(struct run *run, struct contender *pair, struct tune_data *data,
                               const struct timing *timing, double seconds[2], int *slow)
{
    double once[2];
    *slow = 0;
    for (int i = 0; i < 2; ++i) {
        tailor_status status = prepare(run, &pair[i], data, timing, &once[i]);
        if (status != TAILOR_SUCCESS)
            return status;
    }
    double limit = once[1] > LONG_CALL_SECONDS ? FAR_SLOWER_LONG : FAR_SLOWER;
    if (once[0] > limit * once[1]) {
        *slow = 1;
        return TAILOR_SUCCESS;
    }
    for (int r = 0; r < timing->batches; ++r)
        for (int i = 0; i < 2; ++i) {
            tailor_status status =
                time_batch(run, &pair[i], data, pair[i].batch, &pair[i].samples[r]);
            if (status != TAILOR_SUCCESS)
                return status;
        }
    for (int i = 0; i < 2; ++i) {
        qsort(pair[i].samples, (size_t)timing->batches, sizeof(double), compare_doubles);
        seconds[i] = pair[i].samples[timing->batches / 2];
    }
    return TAILOR_SUCCESS;
}

enum verdict {
    BETTER,
    NOT_BETTER,
    REJECTED,
};

struct task_state {
    const struct tune_task *task;
    enum operation_id op;
    enum param_id params[TUNE_TASK_MAX_PARAMS + 1]; // those searched here
    struct tune_data *data[TUNE_TASK_MAX_CALLS];
    size_t calls;
    int best[TUNE_COUNT];
    tailor_context *best_ctx;
};

static void count_rejection(struct run *run, tailor_status status)
{
    if (status == TAILOR_ERROR_BUILD_FAILED)
        ++run->result->build_failures;
    else if (status == TAILOR_ERROR_INVALID_PROFILE)
        ++run->result->invalid;
    else
        ++run->result->opencl_errors;
}

static const char *rejection_name(tailor_status status)
{
    if (status == TAILOR_ERROR_BUILD_FAILED)
        return "build-failed";
    if (status == TAILOR_ERROR_INVALID_PROFILE)
        return "invalid";
    return "opencl-error";
}

// Checks the candidate's handle on every call; then, unless `timing` is
// NULL, times it against the best's. *relative: the geometric mean of the
// ratios; *worst: the largest ratio.
static enum verdict evaluate(struct run *run, struct task_state *t, tailor_context *candidate,
                             const char *text, int thorough, const struct timing *timing,
                             double *relative, double *worst)
{
    char message[1024];
    *relative = *worst = 0;
    for (size_t i = 0; i < t->calls; ++i) {
        tailor_status status;
        enum tune_check check = tune_data_check(candidate, run->queue, t->data[i], thorough,
                                                &status, message, sizeof message);
        if (check == TUNE_CHECK_WRONG) {
            ++run->result->wrong_results;
            report(run, text, "wrong-result", message, 0);
            return REJECTED;
        }
        if (check == TUNE_CHECK_FAILED) {
            count_rejection(run, status);
            report(run, text, rejection_name(status), message, 0);
            return REJECTED;
        }
    }
    if (!timing)
        return BETTER;
    double log_sum = 0;
    for (size_t i = 0; i < t->calls; ++i) {
        struct contender pair[2] = {{candidate, 0, {0}}, {t->best_ctx, 0, {0}}};
        double seconds[2];
        int slow;
        tailor_status status = time_pair(run, pair, t->data[i], timing, seconds, &slow);
        if (status != TAILOR_SUCCESS) {
            count_rejection(run, status);
            report(run, text, rejection_name(status), tailor_last_error(), 0);
            return REJECTED;
        }
        if (slow) {
            ++run->result->slow;
            report(run, text, "slow", "", 0);
            return REJECTED;
        }
        double ratio = seconds[1] > 0 ? seconds[0] / seconds[1] : 1;
        log_sum += log(ratio);
        if (ratio > *worst)
            *worst = ratio;
    }
    *relative = exp(log_sum / (double)t->calls);
    int better = (*relative < BETTER_BY && *worst < SLOWER_LIMIT) ||
                 (*relative < MUCH_BETTER && *worst < TRADE_LIMIT);
    return better ? BETTER : NOT_BETTER;
}

// Builds, checks and times one point against the best; makes it the best
// if it is better.
static void try_point(struct run *run, struct task_state *t, const int *point, const int *start)
{
    char text[1024], why[1024];
    describe_point(t->params, point, start, text, sizeof text);
    ++run->result->tried;
    if (!tune_point_valid(&run->base, &run->ctx->info, point, t->op, why, sizeof why)) {
        ++run->result->invalid;
        report(run, text, "invalid", why, 0);
        return;
    }
    tailor_context *candidate = NULL;
    tailor_status status = candidate_handle(run, t->op, point, &candidate);
    if (status != TAILOR_SUCCESS) {
        count_rejection(run, status);
        report(run, text, rejection_name(status), tailor_last_error(), 0);
        return;
    }
    double relative, worst;
    enum verdict verdict = evaluate(run, t, candidate, text, 0, &search_timing, &relative, &worst);
    run->result->timed += verdict != REJECTED;
    if (verdict == BETTER) {
        tailor_context_release(&t->best_ctx);
        t->best_ctx = candidate;
        memcpy(t->best, point, sizeof t->best);
        run->best_relative *= relative;
        report(run, text, "better", "", relative);
        return;
    }
    if (verdict == NOT_BETTER)
        report(run, text, "timed", "", relative);
    tailor_context_release(&candidate);
}

static int same_point(const struct task_state *t, const int *a, const int *b)
{
    for (const enum param_id *p = t->params; *p != TUNE_COUNT; ++p)
        if (a[*p] != b[*p])
            return 0;
    return 1;
}

// A random point of the task's parameters that passes the host checks.
static int random_point(struct run *run, const struct task_state *t, const int *start, int *point)
{
    char why[512];
    for (int draw = 0; draw < RANDOM_DRAWS; ++draw) {
        memcpy(point, t->best, sizeof t->best);
        for (const enum param_id *p = t->params; *p != TUNE_COUNT; ++p) {
            struct ladder ladder;
            tune_ladder(*p, start[*p], &ladder);
            point[*p] = ladder.values[tune_random(&run->seed) % (uint64_t)ladder.count];
        }
        if (!same_point(t, point, t->best) &&
            tune_point_valid(&run->base, &run->ctx->info, point, t->op, why, sizeof why))
            return 1;
    }
    return 0;
}

// A task of one parameter (a threshold, a switch) has few points: each
// value of its ladder in turn, smallest first, instead of random draws.
static void sweep_ladder(struct run *run, struct task_state *t, const int *start, double deadline)
{
    enum param_id param = t->params[0];
    struct ladder ladder;
    tune_ladder(param, start[param], &ladder);
    char why[512];
    for (int i = 0; i < ladder.count && now() < deadline; ++i) {
        int point[TUNE_COUNT];
        memcpy(point, t->best, sizeof point);
        point[param] = ladder.values[i];
        if (!same_point(t, point, t->best) &&
            tune_point_valid(&run->base, &run->ctx->info, point, t->op, why, sizeof why))
            try_point(run, t, point, start);
    }
}

// The other profile rows' values of the task's parameters (those a row
// leaves out at their defaults), rows of CPU code on CPU devices and of GPU
// code elsewhere: choices measured on other devices are cheap first guesses
// on one nobody has measured.
static void try_profile_rows(struct run *run, struct task_state *t, const int *start)
{
    int device_cpu = (run->ctx->info.type & CL_DEVICE_TYPE_CPU) != 0;
    int tried[16][TUNE_TASK_MAX_PARAMS];
    size_t tried_count = 0;
    for (size_t row = 0; row < profile_row_count(); ++row) {
        if ((profile_row_kind(row) == TAILOR_DEVICE_KIND_CPU) != device_cpu ||
            profile_row_kind(row) == TAILOR_DEVICE_KIND_GENERIC)
            continue;
        int point[TUNE_COUNT], key[TUNE_TASK_MAX_PARAMS] = {0};
        memcpy(point, t->best, sizeof point);
        size_t n = 0;
        for (const enum param_id *p = t->params; *p != TUNE_COUNT; ++p, ++n) {
            if (!profile_row_value(row, *p, &point[*p]))
                point[*p] = param_table[*p].fallback;
            key[n] = point[*p];
        }
        int seen = same_point(t, point, start) || same_point(t, point, t->best);
        for (size_t i = 0; i < tried_count && !seen; ++i)
            seen = memcmp(tried[i], key, sizeof key) == 0;
        if (seen || tried_count == 16)
            continue;
        memcpy(tried[tried_count++], key, sizeof key);
        try_point(run, t, point, start);
    }
}

// One pass over the neighbours of the best in random order; returns
// whether one of them became the best.
static int local_pass(struct run *run, struct task_state *t, const int *start, double deadline)
{
    int moves[2 * TUNE_TASK_MAX_PARAMS][2], count = 0;
    for (const enum param_id *p = t->params; *p != TUNE_COUNT; ++p)
        for (int direction = -1; direction <= 1; direction += 2)
            moves[count][0] = (int)*p, moves[count++][1] = direction;
    for (int i = count - 1; i > 0; --i) {
        int j = (int)(tune_random(&run->seed) % (uint64_t)(i + 1));
        int swap[2] = {moves[i][0], moves[i][1]};
        moves[i][0] = moves[j][0], moves[i][1] = moves[j][1];
        moves[j][0] = swap[0], moves[j][1] = swap[1];
    }
    for (int i = 0; i < count && now() < deadline; ++i) {
        enum param_id param = (enum param_id)moves[i][0];
        struct ladder ladder;
        tune_ladder(param, start[param], &ladder);
        int at = 0;
        while (at < ladder.count && ladder.values[at] != t->best[param])
            ++at;
        int next = at + moves[i][1];
        if (at == ladder.count || next < 0 || next >= ladder.count)
            continue;
        int point[TUNE_COUNT];
        memcpy(point, t->best, sizeof point);
        point[param] = ladder.values[next];
        char why[512];
        if (!tune_point_valid(&run->base, &run->ctx->info, point, t->op, why, sizeof why))
            continue; // a neighbour the constraints rule out costs nothing to skip
        tailor_context *before = t->best_ctx;
        try_point(run, t, point, start);
        if (t->best_ctx != before)
            return 1;
    }
    return 0;
}

static void release_task(struct task_state *t)
{
    for (size_t i = 0; i < t->calls; ++i)
        tune_data_release(t->data[i]);
    tailor_context_release(&t->best_ctx);
}

// The task's parameters that the tuner may move here: those that apply to
// the profile's code and that no override pinned.
static void searched_params(const struct run *run, const struct tune_task *task, enum param_id *out)
{
    size_t count = 0;
    for (const enum param_id *p = task->params; *p != TUNE_COUNT; ++p)
        if (profile_param_applies(&run->base, *p) &&
            run->base.origin[*p] != TAILOR_ORIGIN_OVERRIDE)
            out[count++] = *p;
    out[count] = TUNE_COUNT;
}

// Runs one task from `values` (updated with its result).
static tailor_status run_task(struct run *run, enum operation_id op, const struct tune_task *task,
                              const tailor_call *calls, size_t call_count, int *values,
                              double deadline)
{
    struct task_state t;
    memset(&t, 0, sizeof t);
    t.task = task;
    t.op = op;
    searched_params(run, task, t.params);
    if (t.params[0] == TUNE_COUNT)
        return TAILOR_SUCCESS;
    run->task_name = task->name;
    memcpy(t.best, values, sizeof t.best);
    int start[TUNE_COUNT];
    memcpy(start, values, sizeof start);
    tailor_status status = TAILOR_SUCCESS;
    for (size_t i = 0; i < call_count && status == TAILOR_SUCCESS; ++i) {
        t.data[t.calls] = tune_data_create(run->ctx->context, run->queue, &calls[i], &status);
        t.calls += t.data[t.calls] != NULL;
    }
    if (status == TAILOR_SUCCESS)
        status = candidate_handle(run, op, t.best, &t.best_ctx);
    if (status != TAILOR_SUCCESS) {
        report(run, "(start)", "opencl-error", tailor_last_error(), 0);
        release_task(&t);
        return status;
    }
    // The start must pass the checks like any candidate: a wrong result
    // there is a defect to report, not a point to tune from.
    double relative, worst;
    if (evaluate(run, &t, t.best_ctx, "(start)", 0, NULL, &relative, &worst) != BETTER) {
        release_task(&t);
        return error_set(TAILOR_ERROR_OPENCL, "the starting values of %s (%s) fail their checks",
                         run->op_name, task->name);
    }
    run->best_relative = 1;
    report(run, "(start)", "start", "", 1);
    try_profile_rows(run, &t, start); // even when the task's time is spent: they are few
    int point[TUNE_COUNT];
    if (t.params[1] == TUNE_COUNT) {
        sweep_ladder(run, &t, start, deadline);
    } else {
        double random_until = now() + RANDOM_SHARE * (deadline - now());
        while (now() < random_until && random_point(run, &t, start, point))
            try_point(run, &t, point, start);
    }
    while (now() < deadline && local_pass(run, &t, start, deadline))
        ;
    if (!same_point(&t, t.best, start)) {
        // Confirmed against the start with longer batches, its own handle
        // as the best.
        tailor_context *start_ctx = NULL;
        tailor_context *best_ctx = t.best_ctx;
        char text[1024];
        describe_point(t.params, t.best, start, text, sizeof text);
        if (candidate_handle(run, op, start, &start_ctx) == TAILOR_SUCCESS) {
            t.best_ctx = start_ctx;
            // The odd offsets too: the unaligned programs read the values as well.
            enum verdict verdict =
                evaluate(run, &t, best_ctx, text, 1, &confirm_timing, &relative, &worst);
            t.best_ctx = best_ctx;
            tailor_context_release(&start_ctx);
            int keep = verdict != REJECTED && relative < BETTER_BY &&
                       (worst < KEEP_LIMIT || (relative < MUCH_BETTER && worst < TRADE_LIMIT));
            run->best_relative = keep ? relative : 1;
            report(run, text, keep ? "kept" : "reverted", "", relative);
            if (keep)
                memcpy(values, t.best, sizeof t.best);
        }
    }
    release_task(&t);
    return TAILOR_SUCCESS;
}

static int operation_requested(const char *list, const char *name)
{
    if (!list || !*list)
        return 1;
    size_t length = strlen(name);
    for (const char *at = list; *at;) {
        at += strspn(at, ", ");
        size_t word = strcspn(at, ", ");
        if (word == length && strncmp(at, name, length) == 0)
            return 1;
        at += word;
    }
    return 0;
}

static tailor_status check_request(const tailor_tune_request *request)
{
    for (size_t i = 0; i < sizeof request->reserved; ++i)
        REQUIRE(request->reserved[i] == 0, TAILOR_ERROR_INVALID_ARGUMENT,
                "request.reserved must be zero");
    REQUIRE(request->budget_seconds >= 0 && request->budget_seconds < 1e7,
            TAILOR_ERROR_INVALID_ARGUMENT, "request.budget_seconds %g is not a duration",
            request->budget_seconds);
    REQUIRE(!request->call_count || request->calls, TAILOR_ERROR_INVALID_ARGUMENT,
            "request.calls is NULL with call_count %zu", request->call_count);
    for (size_t i = 0; i < request->call_count; ++i)
        REQUIRE((unsigned)request->calls[i].operation < OP_COUNT, TAILOR_ERROR_UNKNOWN_OPERATION,
                "request.calls[%zu] has no operation %d", i, (int)request->calls[i].operation);
    const char *list = request->operations ? request->operations : "";
    for (const char *at = list; *at;) {
        at += strspn(at, ", ");
        size_t word = strcspn(at, ", ");
        int known = word == 0;
        for (int op = 0; op < OP_COUNT && !known; ++op)
            known = strlen(operation_name((enum operation_id)op)) == word &&
                    strncmp(at, operation_name((enum operation_id)op), word) == 0;
        REQUIRE(known, TAILOR_ERROR_UNKNOWN_OPERATION, "no operation is named '%.*s'", (int)word, at);
        at += word;
    }
    return TAILOR_SUCCESS;
}

// The record: the stored one's values for operations not tuned now, then
// every searched parameter of the operations tuned now.
static void make_record(struct run *run, const int *values, const int *tuned_ops,
                        struct tuning_record *record)
{
    struct tuning_record *old = malloc(sizeof *old);
    char why[256];
    int have_old = old && run->ctx->cache.enabled &&
                   tuning_record_load(run->ctx->cache.dir, &run->ctx->tuned.identity, old, why,
                                      sizeof why) == TUNING_RECORD_OK;
    memset(record, 0, sizeof *record);
    record->identity = run->ctx->tuned.identity;
    for (size_t i = 0; have_old && i < old->count; ++i) {
        enum param_id param = param_find(old->values[i].name);
        if (param != TUNE_COUNT && !tuned_ops[param_table[param].op])
            record->values[record->count++] = old->values[i];
    }
    free(old);
    int device_cpu = (run->ctx->info.type & CL_DEVICE_TYPE_CPU) != 0;
    unsigned devices = device_cpu ? TUNE_ON_CPU : TUNE_ON_GPU;
    int listed[TUNE_COUNT] = {0};
    for (int op = 0; op < OP_COUNT; ++op) {
        const struct tune_tasks *tuning = operation_table[op]->tuning;
        for (size_t i = 0; tuned_ops[op] && tuning && i < tuning->count; ++i) {
            if (!(tuning->tasks[i].devices & devices))
                continue;
            enum param_id params[TUNE_TASK_MAX_PARAMS + 1];
            searched_params(run, &tuning->tasks[i], params);
            for (const enum param_id *p = params; *p != TUNE_COUNT; ++p) {
                if (listed[*p] || record->count == TUNING_RECORD_MAX_VALUES)
                    continue;
                listed[*p] = 1;
                struct tuning_value_entry *entry = &record->values[record->count++];
                snprintf(entry->name, sizeof entry->name, "%s", param_table[*p].name);
                entry->value = values[*p];
            }
        }
    }
    record->tuned_unix_time = (int64_t)time(NULL);
    record->tuned_seconds = (int64_t)(elapsed(run) + 0.5);
    record->budget_seconds = (int64_t)(run->budget + 0.5);
}

tailor_status tailor_tune(tailor_context *ctx, cl_command_queue queue,
                          const tailor_tune_request *request,
                          void (*progress)(const tailor_tune_progress *step, void *user), void *user,
                          tailor_tune_result *result)
{
    error_clear();
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    REQUIRE(result, TAILOR_ERROR_INVALID_ARGUMENT, "result is NULL");
    memset(result, 0, sizeof *result);
    tailor_tune_request defaults;
    memset(&defaults, 0, sizeof defaults);
    if (!request)
        request = &defaults;
    tailor_status status = check_request(request);
    if (status == TAILOR_SUCCESS)
        status = check_queue(ctx, queue);
    if (status != TAILOR_SUCCESS)
        return status;
    REQUIRE(request->dry_run || ctx->cache.enabled, TAILOR_ERROR_UNSUPPORTED,
            "the cache is off (%s): there is nowhere to keep a tuning record", ctx->cache.note);
    snprintf(result->record_path, sizeof result->record_path, "%s", ctx->tuned.path);

    int device_cpu = (ctx->info.type & CL_DEVICE_TYPE_CPU) != 0;
    struct run run = {
        .ctx = ctx,
        .queue = queue,
        .progress = progress,
        .user = user,
        .result = result,
        .start = now(),
        .budget = request->budget_seconds > 0 ? request->budget_seconds
                  : device_cpu                ? DEFAULT_BUDGET_CPU
                                              : DEFAULT_BUDGET_GPU,
        .seed = request->seed ? request->seed : 0x853c49e6748fea9bull,
        .best_relative = 1,
    };
    int tuned_ops[OP_COUNT] = {0};
    double total_weight = 0;
    for (int op = 0; op < OP_COUNT; ++op) {
        tuned_ops[op] = operation_requested(request->operations, operation_name((enum operation_id)op));
        if (tuned_ops[op] && (status = operation_ready(ctx, (enum operation_id)op)) != TAILOR_SUCCESS)
            return status;
        if (tuned_ops[op] && operation_table[op]->tuning)
            total_weight += operation_table[op]->tuning->weight;
    }
    pthread_mutex_lock(&ctx->build_lock);
    run.base = ctx->profile;
    pthread_mutex_unlock(&ctx->build_lock);
    int values[TUNE_COUNT], start_values[TUNE_COUNT];
    memcpy(values, run.base.tune, sizeof values);
    memcpy(start_values, values, sizeof values);
    unsigned devices = device_cpu ? TUNE_ON_CPU : TUNE_ON_GPU;

    double weight_left = total_weight;
    for (int op = 0; op < OP_COUNT && status == TAILOR_SUCCESS; ++op) {
        const struct tune_tasks *tuning = operation_table[op]->tuning;
        if (!tuned_ops[op] || !tuning)
            continue;
        run.op_name = operation_name((enum operation_id)op);
        tailor_call calls[TUNE_TASK_MAX_CALLS];
        size_t own_calls = 0;
        for (size_t i = 0; i < request->call_count && own_calls < TUNE_TASK_MAX_CALLS; ++i)
            if ((int)request->calls[i].operation == op)
                calls[own_calls++] = request->calls[i];
        double task_weight = 0;
        for (size_t i = 0; i < tuning->count; ++i)
            task_weight += tuning->tasks[i].devices & devices ? tuning->tasks[i].weight : 0;
        double op_until = now() + (run.budget - elapsed(&run)) * tuning->weight / weight_left;
        weight_left -= tuning->weight;
        for (size_t i = 0; i < tuning->count && status == TAILOR_SUCCESS; ++i) {
            const struct tune_task *task = &tuning->tasks[i];
            if (!(task->devices & devices))
                continue;
            double deadline = now() + (op_until - now()) * task->weight / task_weight;
            task_weight -= task->weight;
            size_t count = own_calls;
            const tailor_call *use = calls;
            if (!request->call_count) {
                use = task->calls;
                for (count = 0; count < TUNE_TASK_MAX_CALLS && (use[count].m || use[count].n);)
                    ++count;
            } else if (!own_calls) {
                continue;
            }
            status = run_task(&run, (enum operation_id)op, task, use, count, values, deadline);
        }
    }
    if (status != TAILOR_SUCCESS)
        return status;
    struct tuning_record *record = malloc(sizeof *record);
    REQUIRE(record, TAILOR_ERROR_OUT_OF_HOST_MEMORY, "no memory for the tuning record");
    make_record(&run, values, tuned_ops, record);
    result->values = record->count;
    for (int param = 0; param < TUNE_COUNT; ++param)
        result->changed += values[param] != start_values[param];
    result->seconds = elapsed(&run);
    if (!request->dry_run) {
        if (tuning_record_store(ctx->cache.dir, record) != 0) {
            free(record);
            return error_set(TAILOR_ERROR_INVALID_ARGUMENT, "writing the tuning record %s failed: %s",
                             result->record_path, strerror(errno));
        }
        result->stored = 1;
    }
    free(record);
    return TAILOR_SUCCESS;
}
