#include "scenarios.h"

#include <stdlib.h>
#include <string.h>

#define RESULT_SENTINEL -1.0f

const struct scenario scenarios[] = {
    {"reduce, cold handle, empty cache", OPERATION_REDUCE, .cold = 1, .cold_cache = 1, .uses_cache = 1,
     .profile = "cpu", .n = 300001},
    {"reduce, cold handle, cached", OPERATION_REDUCE, .cold = 1, .uses_cache = 1, .profile = "generic",
     .n = 300001},
    {"create, reduce, release", OPERATION_REDUCE, .cold = 1, .uses_cache = 1, .profile = "cpu", .n = 300001,
     .release_inside = 1, .after_event = 1},
    {"a build that fails", OPERATION_REDUCE, .cold = 1, .profile = "generic", .n = 1000,
     .build_options = "-DLOCKSTEP=(", .expected = TAILOR_ERROR_BUILD_FAILED},
    {"reduce single group", OPERATION_REDUCE, .profile = "cpu", .n = 1000},
    {"reduce one pass", OPERATION_REDUCE, .profile = "cpu", .n = 300001},
    {"reduce two passes", OPERATION_REDUCE, .profile = "generic", .n = 300001},
    {"reduce, out-of-order queue", OPERATION_REDUCE, .profile = "generic", .n = 300001, .out_of_order = 1},
    {"reduce n = 0 with an event", OPERATION_REDUCE_EVENT_ONLY, .profile = "generic", .n = 0},
};
const size_t scenario_count = sizeof scenarios / sizeof scenarios[0];

int scenario_open(struct scenario_state *s)
{
    memset(s, 0, sizeof *s);
    const char *selector = getenv("TAILOR_TEST_DEVICE");
    if (select_device(selector && *selector ? selector : "cpu", &s->device) != 0)
        return -1;
    cl_int error;
    s->context = clCreateContext(NULL, 1, &s->device.device, NULL, NULL, &error);
    s->queue = clCreateCommandQueue(s->context, s->device.device, 0, &error);
    s->out_of_order_queue = clCreateCommandQueue(s->context, s->device.device,
                                                 CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &error);
    if (error != CL_SUCCESS)
        s->out_of_order_queue = NULL;
    s->x_count = 300001;
    float *ones = malloc(s->x_count * sizeof *ones);
    for (size_t i = 0; i < s->x_count; ++i)
        ones[i] = 1.0f;
    s->x = clCreateBuffer(s->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->x_count * sizeof *ones,
                          ones, &error);
    free(ones);
    s->result = clCreateBuffer(s->context, CL_MEM_READ_WRITE, sizeof(float), NULL, &error);
    s->completed = clCreateUserEvent(s->context, &error);
    if (s->completed)
        clSetUserEventStatus(s->completed, CL_COMPLETE);
    return s->queue && s->x && s->result && s->completed ? 0 : -1;
}

void scenario_close(struct scenario_state *s)
{
    scenario_finish(s, NULL);
    clReleaseMemObject(s->x);
    clReleaseMemObject(s->result);
    clReleaseEvent(s->completed);
    if (s->out_of_order_queue)
        clReleaseCommandQueue(s->out_of_order_queue);
    clFinish(s->queue);
    clReleaseCommandQueue(s->queue);
    clReleaseContext(s->context);
}

static tailor_status create_handle(struct scenario_state *s, const struct scenario *scenario)
{
    tailor_settings settings;
    tailor_default_settings(&settings);
    settings.profile = scenario->profile;
    settings.cache_mode = scenario->uses_cache ? TAILOR_CACHE_ON : TAILOR_CACHE_OFF;
    settings.build_options = scenario->build_options;
    return tailor_context_create(s->context, s->device.device, &settings, &s->handle);
}

static cl_command_queue queue_of(struct scenario_state *s, const struct scenario *scenario)
{
    return scenario->out_of_order && s->out_of_order_queue ? s->out_of_order_queue : s->queue;
}

static tailor_status run_operation(struct scenario_state *s, const struct scenario *scenario)
{
    cl_command_queue queue = queue_of(s, scenario);
    s->done = NULL;
    cl_uint wait_count = scenario->after_event ? 1 : 0;
    const cl_event *wait_list = scenario->after_event ? &s->completed : NULL;
    tailor_status status = tailor_reduce(s->handle, queue, TAILOR_REDUCE_SUM, TAILOR_F32, scenario->n, s->x,
                                         0, s->result, 0, wait_count, wait_list, &s->done);
    if (status == TAILOR_SUCCESS && scenario->operation == OPERATION_REDUCE_EVENT_ONLY && !s->done)
        status = TAILOR_ERROR_INVALID_ARGUMENT;
    return status;
}

void scenario_complete(struct scenario_state *s)
{
    if (s->done) {
        clWaitForEvents(1, &s->done);
        clReleaseEvent(s->done);
        s->done = NULL;
    }
}

void scenario_prepare(struct scenario_state *s, const struct scenario *scenario)
{
    float sentinel = RESULT_SENTINEL;
    clEnqueueWriteBuffer(s->queue, s->result, CL_TRUE, 0, sizeof sentinel, &sentinel, 0, NULL, NULL);
    if (scenario->cold || s->handle)
        return;
    if (create_handle(s, scenario) == TAILOR_SUCCESS) {
        run_operation(s, scenario);
        scenario_complete(s);
    }
    clEnqueueWriteBuffer(s->queue, s->result, CL_TRUE, 0, sizeof sentinel, &sentinel, 0, NULL, NULL);
}

tailor_status scenario_run(struct scenario_state *s, const struct scenario *scenario)
{
    if (!s->handle) {
        tailor_status status = create_handle(s, scenario);
        if (status != TAILOR_SUCCESS)
            return status;
    }
    tailor_status status = run_operation(s, scenario);
    if (scenario->release_inside)
        tailor_context_release(&s->handle);
    return status;
}

int scenario_outcome_right(struct scenario_state *s, const struct scenario *scenario, tailor_status status)
{
    scenario_complete(s);
    float got = 0;
    if (status != scenario->expected ||
        clEnqueueReadBuffer(s->queue, s->result, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL) != CL_SUCCESS)
        return 0;
    float expected = scenario->n && scenario->expected == TAILOR_SUCCESS ? (float)scenario->n : RESULT_SENTINEL;
    return got == expected;
}

void scenario_finish(struct scenario_state *s, const struct scenario *scenario)
{
    scenario_complete(s);
    clFinish(s->queue);
    if (s->out_of_order_queue)
        clFinish(s->out_of_order_queue);
    // A warm handle serves every attempt of its walk: a fault must not spoil it.
    if (!scenario || scenario->cold)
        tailor_context_release(&s->handle);
}
