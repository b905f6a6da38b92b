// Every bad input gets its status and a message, never a crash or a raw
// OpenCL error, and the handle works normally afterwards.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

struct fixture {
    const struct test_device *device;
    tailor_context *handle;
    cl_mem x, result;
    size_t n;
};

static tailor_status reduce(const struct fixture *f, cl_command_queue queue, tailor_reduce_op op,
                            tailor_dtype dtype, size_t n, cl_mem x, size_t x_offset, cl_mem result,
                            size_t result_offset)
{
    return tailor_reduce(f->handle, queue, op, dtype, n, x, x_offset, result, result_offset, 0, NULL, NULL);
}

#define EXPECT(call, status)                                                                        \
    do {                                                                                            \
        CHECK_STATUS(call, status);                                                                 \
        CHECK((status) == TAILOR_SUCCESS || *tailor_last_error(), "%s: no message", #call);         \
    } while (0)

static void check_still_works(const struct fixture *f)
{
    float sum = 0;
    EXPECT(reduce(f, f->device->queue, TAILOR_REDUCE_SUM, TAILOR_F32, f->n, f->x, 0, f->result, 0),
           TAILOR_SUCCESS);
    test_read(f->device, f->result, 0, sizeof sum, &sum);
    CHECK(sum == (float)f->n, "after bad calls the sum is %g, expected %zu", sum, f->n);
}

static void bad_arguments(const struct fixture *f)
{
    cl_command_queue q = f->device->queue;
    EXPECT(tailor_reduce(NULL, q, TAILOR_REDUCE_SUM, TAILOR_F32, f->n, f->x, 0, f->result, 0, 0, NULL, NULL),
           TAILOR_ERROR_NULL_HANDLE);
    EXPECT(reduce(f, NULL, TAILOR_REDUCE_SUM, TAILOR_F32, f->n, f->x, 0, f->result, 0),
           TAILOR_ERROR_INVALID_QUEUE);
    EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, TAILOR_F32, f->n, NULL, 0, f->result, 0), TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, TAILOR_F32, f->n, f->x, 0, NULL, 0), TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(reduce(f, q, (tailor_reduce_op)3, TAILOR_F32, f->n, f->x, 0, f->result, 0),
           TAILOR_ERROR_UNKNOWN_OPERATION);
    EXPECT(reduce(f, q, (tailor_reduce_op)-1, TAILOR_F32, f->n, f->x, 0, f->result, 0),
           TAILOR_ERROR_UNKNOWN_OPERATION);
    EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, (tailor_dtype)7, f->n, f->x, 0, f->result, 0),
           TAILOR_ERROR_UNKNOWN_DTYPE);
    EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, (tailor_dtype)5, f->n, f->x, 0, f->result, 0),
           TAILOR_ERROR_UNKNOWN_DTYPE);
    EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, (tailor_dtype)-1, f->n, f->x, 0, f->result, 0),
           TAILOR_ERROR_UNKNOWN_DTYPE);
    EXPECT(reduce(f, q, TAILOR_REDUCE_MAX, TAILOR_3XTF32, f->n, f->x, 0, f->result, 0), TAILOR_ERROR_UNSUPPORTED);
    CHECK(strstr(tailor_last_error(), "tailor_gemm") != NULL, "3xTF32 is tailor_gemm's: %s", tailor_last_error());
    // Too small: one element past x, an offset past x, a result offset past result.
    EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, TAILOR_F32, f->n + 1, f->x, 0, f->result, 0),
           TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, TAILOR_F32, f->n, f->x, 1, f->result, 0),
           TAILOR_ERROR_BUFFER_TOO_SMALL);
    EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, TAILOR_F32, f->n, f->x, 0, f->result, 2),
           TAILOR_ERROR_BUFFER_TOO_SMALL);
    // f64 reads twice the bytes of the same buffer.
    if (f->device->info.has_fp64)
        EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, TAILOR_F64, f->n, f->x, 0, f->result, 0),
               TAILOR_ERROR_BUFFER_TOO_SMALL);
    else
        EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, TAILOR_F64, f->n, f->x, 0, f->result, 0), TAILOR_ERROR_UNSUPPORTED);
    // f16 and bf16 read half the bytes: the float buffers hold twice as many.
    static const tailor_dtype halves[] = {TAILOR_F16, TAILOR_BF16};
    for (size_t t = 0; t < 2; ++t) {
        EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, halves[t], 2 * f->n, f->x, 0, f->result, 1), TAILOR_SUCCESS);
        EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, halves[t], 2 * f->n + 1, f->x, 0, f->result, 0),
               TAILOR_ERROR_BUFFER_TOO_SMALL);
        EXPECT(reduce(f, q, TAILOR_REDUCE_MIN, halves[t], 2 * f->n, f->x, 1, f->result, 0),
               TAILOR_ERROR_BUFFER_TOO_SMALL);
        EXPECT(reduce(f, q, TAILOR_REDUCE_MAX, halves[t], f->n, f->x, 0, f->result, 2),
               TAILOR_ERROR_BUFFER_TOO_SMALL);
    }
    // Offsets and sizes whose element or byte count overflows.
    EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, TAILOR_F32, f->n, f->x, SIZE_MAX, f->result, 0),
           TAILOR_ERROR_SIZE_OVERFLOW);
    EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, TAILOR_F32, SIZE_MAX, f->x, 0, f->result, 0),
           TAILOR_ERROR_SIZE_OVERFLOW);
    EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, TAILOR_F32, SIZE_MAX / 2, f->x, 0, f->result, 0),
           TAILOR_ERROR_SIZE_OVERFLOW);
    EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, TAILOR_F32, f->n, f->x, 0, f->result, SIZE_MAX / 4 + 1),
           TAILOR_ERROR_SIZE_OVERFLOW);
    // Wait lists whose pointer and length disagree.
    cl_event none = NULL;
    EXPECT(tailor_reduce(f->handle, q, TAILOR_REDUCE_SUM, TAILOR_F32, f->n, f->x, 0, f->result, 0, 1, NULL, NULL),
           TAILOR_ERROR_INVALID_WAIT_LIST);
    EXPECT(tailor_reduce(f->handle, q, TAILOR_REDUCE_SUM, TAILOR_F32, f->n, f->x, 0, f->result, 0, 0, &none,
                         NULL),
           TAILOR_ERROR_INVALID_WAIT_LIST);
    EXPECT(tailor_reduce(f->handle, q, TAILOR_REDUCE_SUM, TAILOR_F32, f->n, f->x, 0, f->result, 0, 1, &none,
                         NULL),
           TAILOR_ERROR_INVALID_WAIT_LIST);
    // n = 0 is a no-op whatever the buffers, with a usable event.
    cl_event event = NULL;
    EXPECT(tailor_reduce(f->handle, q, TAILOR_REDUCE_SUM, TAILOR_F32, 0, NULL, 0, NULL, 0, 0, NULL, &event),
           TAILOR_SUCCESS);
    CHECK(event && clWaitForEvents(1, &event) == CL_SUCCESS, "n = 0 returned no usable event");
    if (event)
        clReleaseEvent(event);
    // A NULL queue stays an error even for n = 0.
    EXPECT(reduce(f, NULL, TAILOR_REDUCE_SUM, TAILOR_F32, 0, NULL, 0, NULL, 0), TAILOR_ERROR_INVALID_QUEUE);
}

// Buffers with the wrong access flags, an image, objects of another context.
static void bad_objects(const struct fixture *f)
{
    const struct test_device *d = f->device;
    cl_command_queue q = d->queue;
    cl_mem write_only = test_buffer(d, CL_MEM_WRITE_ONLY, f->n * sizeof(float), NULL);
    cl_mem read_only = test_buffer(d, CL_MEM_READ_ONLY, sizeof(float), NULL);
    EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, TAILOR_F32, f->n, write_only, 0, f->result, 0),
           TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, TAILOR_F32, f->n, f->x, 0, read_only, 0), TAILOR_ERROR_INVALID_BUFFER);
    clReleaseMemObject(write_only);
    clReleaseMemObject(read_only);

    cl_image_format format = {CL_R, CL_FLOAT};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4};
    cl_int error;
    cl_mem image = clCreateImage(d->context, CL_MEM_READ_WRITE, &format, &desc, NULL, &error);
    if (error == CL_SUCCESS) {
        EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, TAILOR_F32, 4, image, 0, f->result, 0), TAILOR_ERROR_INVALID_BUFFER);
        clReleaseMemObject(image);
    }

    cl_context other = clCreateContext(NULL, 1, &d->choice.device, NULL, NULL, &error);
    CHECK(error == CL_SUCCESS, "a second context");
    if (error != CL_SUCCESS)
        return;
    cl_command_queue other_queue = clCreateCommandQueue(other, d->choice.device, 0, &error);
    cl_mem other_buffer = clCreateBuffer(other, CL_MEM_READ_WRITE, f->n * sizeof(float), NULL, &error);
    cl_event other_event = clCreateUserEvent(other, &error);
    EXPECT(reduce(f, other_queue, TAILOR_REDUCE_SUM, TAILOR_F32, f->n, f->x, 0, f->result, 0),
           TAILOR_ERROR_INVALID_QUEUE);
    EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, TAILOR_F32, f->n, other_buffer, 0, f->result, 0),
           TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(reduce(f, q, TAILOR_REDUCE_SUM, TAILOR_F32, f->n, f->x, 0, other_buffer, 0), TAILOR_ERROR_INVALID_BUFFER);
    EXPECT(tailor_reduce(f->handle, q, TAILOR_REDUCE_SUM, TAILOR_F32, f->n, f->x, 0, f->result, 0, 1,
                         &other_event, NULL),
           TAILOR_ERROR_INVALID_WAIT_LIST);
    clSetUserEventStatus(other_event, CL_COMPLETE);
    clReleaseEvent(other_event);
    clReleaseMemObject(other_buffer);
    clReleaseCommandQueue(other_queue);
    clReleaseContext(other);
}

// A queue of another device of the same context: a sub-device, where the
// device can be partitioned.
static void queue_of_another_device(const struct fixture *f)
{
    const struct test_device *d = f->device;
    cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id sub = NULL;
    cl_uint count = 0;
    if (clCreateSubDevices(d->choice.device, equally, 1, &sub, &count) != CL_SUCCESS || !sub) {
        fprintf(stderr, "  (the device cannot be partitioned: no queue of another device tried)\n");
        return;
    }
    cl_device_id both[2] = {d->choice.device, sub};
    cl_int error;
    cl_context shared = clCreateContext(NULL, 2, both, NULL, NULL, &error);
    if (error == CL_SUCCESS) {
        cl_command_queue sub_queue = clCreateCommandQueue(shared, sub, 0, &error);
        tailor_context *handle = NULL;
        tailor_settings settings;
        tailor_default_settings(&settings);
        settings.cache_mode = TAILOR_CACHE_OFF;
        CHECK_STATUS(tailor_context_create(shared, d->choice.device, &settings, &handle), TAILOR_SUCCESS);
        cl_mem x = clCreateBuffer(shared, CL_MEM_READ_WRITE, 64, NULL, &error);
        if (handle)
            EXPECT(tailor_reduce(handle, sub_queue, TAILOR_REDUCE_SUM, TAILOR_F32, 4, x, 0, x, 8, 0, NULL, NULL),
                   TAILOR_ERROR_INVALID_QUEUE);
        tailor_context_release(&handle);
        clReleaseMemObject(x);
        clReleaseCommandQueue(sub_queue);
        clReleaseContext(shared);
    }
    clReleaseDevice(sub);
}

static void bad_creation(const struct test_device *d)
{
    tailor_context *handle = (tailor_context *)&handle;
    EXPECT(tailor_context_create(NULL, d->choice.device, NULL, &handle), TAILOR_ERROR_INVALID_CONTEXT);
    CHECK(handle == NULL, "a failed create leaves *out NULL");
    EXPECT(tailor_context_create(d->context, NULL, NULL, &handle), TAILOR_ERROR_INVALID_CONTEXT);
    EXPECT(tailor_context_create(d->context, d->choice.device, NULL, NULL), TAILOR_ERROR_INVALID_ARGUMENT);
    tailor_settings settings;
    tailor_default_settings(&settings);
    settings.reserved[3] = 1;
    EXPECT(tailor_context_create(d->context, d->choice.device, &settings, &handle), TAILOR_ERROR_INVALID_ARGUMENT);
    tailor_default_settings(&settings);
    settings.cache_mode = (tailor_cache_mode)9;
    EXPECT(tailor_context_create(d->context, d->choice.device, &settings, &handle), TAILOR_ERROR_INVALID_ARGUMENT);
    tailor_default_settings(&settings);
    settings.profile = "no-such-profile";
    EXPECT(tailor_context_create(d->context, d->choice.device, &settings, &handle), TAILOR_ERROR_INVALID_PROFILE);
    tailor_default_settings(&settings);
    settings.tuning = "REDUCE_WG_SIZE=3";
    EXPECT(tailor_context_create(d->context, d->choice.device, &settings, &handle), TAILOR_ERROR_INVALID_PROFILE);
    tailor_default_settings(&settings);
    settings.build_options = "-DLOCKSTEP=(";
    settings.cache_mode = TAILOR_CACHE_OFF;
    EXPECT(tailor_context_create(d->context, d->choice.device, &settings, &handle), TAILOR_SUCCESS);
    if (handle) {
        // A failed build is a status whose message carries the build log.
        float value = 1;
        cl_mem x = test_buffer(d, CL_MEM_READ_WRITE, sizeof value, &value);
        settings.build_options = NULL;
        tailor_status status =
            tailor_reduce(handle, d->queue, TAILOR_REDUCE_SUM, TAILOR_F32, 1, x, 0, x, 0, 0, NULL, NULL);
        CHECK(status == TAILOR_ERROR_BUILD_FAILED || status == TAILOR_ERROR_OPENCL,
              "bad build options gave %s", tailor_status_name(status));
        CHECK(strstr(tailor_last_error(), "reduce_sum_f32") != NULL, "the message names the program: %s",
              tailor_last_error());
        tailor_context_release(&handle);
        clReleaseMemObject(x);
    }
    // A device that is not in the context.
    struct device_choice all[16];
    size_t count = list_devices(all, 16);
    for (size_t i = 0; i < count; ++i)
        if (all[i].device != d->choice.device)
            EXPECT(tailor_context_create(d->context, all[i].device, NULL, &handle), TAILOR_ERROR_INVALID_CONTEXT);
    tailor_context_release(NULL);
    handle = NULL;
    tailor_context_release(&handle);
    char small[4];
    EXPECT(tailor_context_build_options(NULL, "reduce_sum_f32", small, sizeof small), TAILOR_ERROR_NULL_HANDLE);
    tailor_device_info info;
    EXPECT(tailor_context_device_info(NULL, &info), TAILOR_ERROR_NULL_HANDLE);
    tailor_cache_stats stats;
    EXPECT(tailor_context_cache_stats(NULL, &stats), TAILOR_ERROR_NULL_HANDLE);
}

int main(void)
{
    struct test_device devices[16];
    size_t count = test_open_devices(devices, 16);
    for (size_t i = 0; i < count; ++i) {
        struct fixture f = {&devices[i], test_handle(&devices[i], NULL, NULL), NULL, NULL, 1000};
        float *ones = malloc(f.n * sizeof *ones);
        for (size_t k = 0; k < f.n; ++k)
            ones[k] = 1;
        float zero = 0;
        f.x = test_buffer(f.device, CL_MEM_READ_WRITE, f.n * sizeof *ones, ones);
        f.result = test_buffer(f.device, CL_MEM_READ_WRITE, sizeof zero, &zero);
        free(ones);
        if (f.handle && f.x && f.result) {
            bad_arguments(&f);
            check_still_works(&f);
            bad_objects(&f);
            queue_of_another_device(&f);
            check_still_works(&f);
            char options[16];
            EXPECT(tailor_context_build_options(f.handle, "reduce_sum_f32", options, sizeof options),
                   TAILOR_ERROR_INVALID_ARGUMENT);
            EXPECT(tailor_context_build_options(f.handle, "no_such_program", options, sizeof options),
                   TAILOR_ERROR_INVALID_ARGUMENT);
        }
        bad_creation(f.device);
        tailor_context_release(&f.handle);
        if (f.x)
            clReleaseMemObject(f.x);
        if (f.result)
            clReleaseMemObject(f.result);
    }
    test_close_devices(devices, count);
    return test_exit_status("test_bad_input");
}
