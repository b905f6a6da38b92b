// Finding OpenCL devices by a selector string, for the tool and the tests.
#ifndef TAILOR_DEVICE_SELECT_H
#define TAILOR_DEVICE_SELECT_H

#include <stddef.h>

#include "tailor.h"

struct device_choice {
    cl_platform_id platform;
    cl_device_id device;
    unsigned platform_index, device_index;
    char platform_name[128];
    char device_name[128];
    char vendor[128];
    cl_device_type type;
};

// Every device of every platform, at most `capacity`; returns how many.
size_t list_devices(struct device_choice *devices, size_t capacity);

// Whether the device answers to the selector: "gpu", "cpu", "P:D" (platform
// and device index), or a case-insensitive part of its platform, device or
// vendor name.
int device_matches(const struct device_choice *device, const char *selector);

// The device a selector picks: the first that matches; with no selector
// (NULL or ""), the first GPU, else the first device. Returns 0 if found.
int select_device(const char *selector, struct device_choice *chosen);

#endif
