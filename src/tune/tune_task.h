// What an operation declares to the tuner: groups of its parameters
// ("tasks"), each searched on calls of the shape class whose kernels read
// them. The operations' tables are in src/ops/<op>/<op>_tune.c.
#ifndef TAILOR_TUNE_TASK_H
#define TAILOR_TUNE_TASK_H

#include <stddef.h>

#include "operations.h"
#include "tailor.h"

#define TUNE_TASK_MAX_PARAMS 24
#define TUNE_TASK_MAX_CALLS 10

enum tune_devices {
    TUNE_ON_GPU = 1, // devices that are not CPUs
    TUNE_ON_CPU = 2,
};

struct tune_task {
    const char *name;
    unsigned devices; // enum tune_devices
    double weight;    // its share of the operation's budget
    // The parameters searched, ended by TUNE_COUNT.
    enum param_id params[TUNE_TASK_MAX_PARAMS + 1];
    // The representative calls, ended by one with m = n = 0.
    tailor_call calls[TUNE_TASK_MAX_CALLS + 1];
};

struct tune_tasks {
    const struct tune_task *tasks;
    size_t count;
    double weight; // the operation's share of a run's budget
    // Whether a point is worth building (NULL: every valid one): a prior on
    // the space beyond the operation's constraints, which say what is
    // correct, not what can be fast.
    int (*plausible)(const int *values);
};

// Ends a parameter list: TUNE_PARAMS(TUNE_A, TUNE_B).
#define TUNE_PARAMS(...) {__VA_ARGS__, TUNE_COUNT}

#endif
