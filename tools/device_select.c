#include "device_select.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define MAX_PLATFORMS 16
#define MAX_DEVICES_PER_PLATFORM 16

size_t list_devices(struct device_choice *devices, size_t capacity)
{
    cl_platform_id platforms[MAX_PLATFORMS];
    cl_uint platform_count = 0;
    if (clGetPlatformIDs(MAX_PLATFORMS, platforms, &platform_count) != CL_SUCCESS)
        return 0;
    if (platform_count > MAX_PLATFORMS)
        platform_count = MAX_PLATFORMS;
    size_t count = 0;
    for (cl_uint p = 0; p < platform_count; ++p) {
        cl_device_id ids[MAX_DEVICES_PER_PLATFORM];
        cl_uint device_count = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES_PER_PLATFORM, ids,
                           &device_count) != CL_SUCCESS)
            continue;
        if (device_count > MAX_DEVICES_PER_PLATFORM)
            device_count = MAX_DEVICES_PER_PLATFORM;
        for (cl_uint d = 0; d < device_count && count < capacity; ++d) {
            struct device_choice *c = &devices[count++];
            memset(c, 0, sizeof *c);
            c->platform = platforms[p];
            c->device = ids[d];
            c->platform_index = p;
            c->device_index = d;
            clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof c->platform_name - 1,
                              c->platform_name, NULL);
            clGetDeviceInfo(ids[d], CL_DEVICE_NAME, sizeof c->device_name - 1, c->device_name, NULL);
            clGetDeviceInfo(ids[d], CL_DEVICE_VENDOR, sizeof c->vendor - 1, c->vendor, NULL);
            clGetDeviceInfo(ids[d], CL_DEVICE_TYPE, sizeof c->type, &c->type, NULL);
        }
    }
    return count;
}

static int contains_ignoring_case(const char *text, const char *part)
{
    size_t length = strlen(part);
    for (; *text; ++text)
        if (strncasecmp(text, part, length) == 0)
            return 1;
    return 0;
}

int device_matches(const struct device_choice *device, const char *selector)
{
    if (strcasecmp(selector, "gpu") == 0)
        return (device->type & CL_DEVICE_TYPE_GPU) != 0;
    if (strcasecmp(selector, "cpu") == 0)
        return (device->type & CL_DEVICE_TYPE_CPU) != 0;
    unsigned p, d;
    char end;
    if (sscanf(selector, "%u:%u%c", &p, &d, &end) == 2)
        return device->platform_index == p && device->device_index == d;
    return contains_ignoring_case(device->platform_name, selector) ||
           contains_ignoring_case(device->device_name, selector) ||
           contains_ignoring_case(device->vendor, selector);
}

int select_device(const char *selector, struct device_choice *chosen)
{
    struct device_choice devices[MAX_PLATFORMS * 4];
    size_t count = list_devices(devices, sizeof devices / sizeof devices[0]);
    int any = !selector || !*selector;
    for (size_t i = 0; i < count; ++i)
        if (any ? (devices[i].type & CL_DEVICE_TYPE_GPU) != 0 : device_matches(&devices[i], selector)) {
            *chosen = devices[i];
            return 0;
        }
    if (any && count > 0) {
        *chosen = devices[0];
        return 0;
    }
    return -1;
}
