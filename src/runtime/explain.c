// tailor_explain and the public view of the tuning parameters: what a call
// would run, and every value behind it with where it came from.
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "context.h"
#include "error.h"
#include "operation.h"
#include "registry.h"

const char *tailor_origin_name(tailor_origin origin)
{
    static const char *const names[] = {
        [TAILOR_ORIGIN_DEFAULT] = "default",   [TAILOR_ORIGIN_PROFILE] = "profile",
        [TAILOR_ORIGIN_TUNED] = "tuned",       [TAILOR_ORIGIN_OVERRIDE] = "override",
        [TAILOR_ORIGIN_FALLBACK] = "fallback", [TAILOR_ORIGIN_DEVICE] = "device",
        [TAILOR_ORIGIN_PROGRAM] = "program",
    };
    return (unsigned)origin < sizeof names / sizeof names[0] ? names[origin] : "unknown";
}

size_t tailor_parameter_count(void)
{
    return TUNE_COUNT;
}

// Each parameter's readers as program names, made once.
static char reader_names[TUNE_COUNT][1024];
static pthread_once_t reader_names_once = PTHREAD_ONCE_INIT;

static void name_readers(void)
{
    for (int param = 0; param < TUNE_COUNT; ++param) {
        size_t used = 0;
        for (int program = 0; program < PROGRAM_COUNT; ++program) {
            if (!((param_table[param].readers >> program) & 1))
                continue;
            int added = snprintf(reader_names[param] + used, sizeof reader_names[param] - used, "%s%s",
                                 used ? " " : "", program_table[program].name);
            if (added > 0 && (size_t)added < sizeof reader_names[param] - used)
                used += (size_t)added;
        }
    }
}

tailor_status tailor_parameter_describe(size_t index, tailor_parameter_info *info)
{
    error_clear();
    REQUIRE(info, TAILOR_ERROR_INVALID_ARGUMENT, "info is NULL");
    REQUIRE(index < TUNE_COUNT, TAILOR_ERROR_INVALID_ARGUMENT, "there are %d parameters, not %zu",
            TUNE_COUNT, index + 1);
    pthread_once(&reader_names_once, name_readers);
    const struct param_info *p = &param_table[index];
    *info = (tailor_parameter_info){
        .name = p->name,
        .operation = operation_name(p->op),
        .is_define = p->kind == DEFINE,
        .programs = reader_names[index],
        .default_value = p->fallback,
        .minimum = p->minimum,
        .maximum = p->maximum,
        .power_of_two = (p->flags & POW2) != 0,
        .nvidia_only = (p->flags & NVIDIA_ONLY) != 0,
        .description = p->doc,
    };
    return TAILOR_SUCCESS;
}

tailor_status tailor_context_parameter(tailor_context *ctx, const char *name, int *value,
                                       tailor_origin *origin)
{
    error_clear();
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    REQUIRE(name && value && origin, TAILOR_ERROR_INVALID_ARGUMENT, "name, value or origin is NULL");
    enum param_id param = param_find(name);
    REQUIRE(param != TUNE_COUNT, TAILOR_ERROR_INVALID_ARGUMENT, "no tuning parameter is named '%s'",
            name);
    tailor_status status = operation_ready(ctx, param_table[param].op);
    if (status != TAILOR_SUCCESS)
        return status;
    *value = ctx->profile.tune[param];
    *origin = (tailor_origin)ctx->profile.origin[param];
    return TAILOR_SUCCESS;
}

// Names and values longer than their fields are cut.
static void add_setting(tailor_plan_setting *settings, size_t *count, const char *name,
                        const char *value, tailor_origin origin)
{
    if (*count == TAILOR_PLAN_MAX_SETTINGS)
        return;
    tailor_plan_setting *s = &settings[(*count)++];
    snprintf(s->name, sizeof s->name, "%.*s", (int)sizeof s->name - 1, name);
    snprintf(s->value, sizeof s->value, "%.*s", (int)sizeof s->value - 1, value);
    s->origin = origin;
}

static void add_number(tailor_plan_setting *settings, size_t *count, const char *name, int value,
                       tailor_origin origin)
{
    char text[24];
    snprintf(text, sizeof text, "%d", value);
    add_setting(settings, count, name, text, origin);
}

// The program's -D options in the order its build options have them.
static void list_defines(const tailor_context *ctx, enum program_id program, tailor_plan *plan)
{
    const struct profile *p = &ctx->profile;
    tailor_plan_setting *d = plan->defines;
    add_setting(d, &plan->define_count, "DEVICE", device_symbol(p->kind), TAILOR_ORIGIN_DEVICE);
    add_number(d, &plan->define_count, "CUDA_SM", p->cuda_sm, TAILOR_ORIGIN_DEVICE);
    add_number(d, &plan->define_count, "LOCKSTEP", p->lockstep, TAILOR_ORIGIN_DEVICE);
    add_number(d, &plan->define_count, "HAS_FP64", p->has_fp64, TAILOR_ORIGIN_DEVICE);
    add_number(d, &plan->define_count, "USE_SUBGROUPS", p->use_subgroups, TAILOR_ORIGIN_DEVICE);
    for (int param = 0; param < TUNE_COUNT; ++param)
        if (profile_emits(p, program, (enum param_id)param))
            add_number(d, &plan->define_count, param_table[param].name, p->tune[param],
                       (tailor_origin)p->origin[param]);
    // The variant's own "-DNAME=VALUE" options.
    const char *at = program_table[program].defines;
    while ((at = strstr(at, "-D")) != NULL) {
        at += 2;
        size_t length = strcspn(at, " ");
        char item[96];
        snprintf(item, sizeof item, "%.*s", (int)length, at);
        char *equals = strchr(item, '=');
        if (equals)
            *equals = '\0';
        add_setting(d, &plan->define_count, item, equals ? equals + 1 : "1", TAILOR_ORIGIN_PROGRAM);
        at += length;
    }
}

tailor_status tailor_explain(tailor_context *ctx, const tailor_call *call, tailor_plan *plan)
{
    error_clear();
    REQUIRE(ctx, TAILOR_ERROR_NULL_HANDLE, "the tailor handle is NULL");
    REQUIRE(call && plan, TAILOR_ERROR_INVALID_ARGUMENT, "call or plan is NULL");
    memset(plan, 0, sizeof *plan);
    for (size_t i = 0; i < sizeof call->reserved; ++i)
        REQUIRE(call->reserved[i] == 0, TAILOR_ERROR_INVALID_ARGUMENT,
                "call.reserved must be zero (start from a zeroed tailor_call)");
    REQUIRE((unsigned)call->operation < OP_COUNT, TAILOR_ERROR_UNKNOWN_OPERATION,
            "%d is not a tailor_operation", (int)call->operation);
    enum operation_id op = (enum operation_id)call->operation;
    tailor_status status = operation_ready(ctx, op);
    struct op_plan planned = {.program = PROGRAM_COUNT};
    if (status == TAILOR_SUCCESS)
        status = operation_table[op]->explain(ctx, call, &planned);
    if (status != TAILOR_SUCCESS)
        return status;
    snprintf(plan->variant, sizeof plan->variant, "%s", planned.variant);
    plan->launches = planned.launches;
    if (planned.program != PROGRAM_COUNT) {
        snprintf(plan->kernel, sizeof plan->kernel, "%s", kernel_table[planned.kernel].name);
        snprintf(plan->program, sizeof plan->program, "%s", program_table[planned.program].name);
        list_defines(ctx, planned.program, plan);
    }
    for (int param = 0; param < TUNE_COUNT; ++param)
        if (param_table[param].op == op && param_table[param].kind == HOST)
            add_number(plan->host, &plan->host_count, param_table[param].name,
                       ctx->profile.tune[param], (tailor_origin)ctx->profile.origin[param]);
    return TAILOR_SUCCESS;
}
