// The calls the fault walks exercise: each public operation on the paths it
// can take, on a cold handle (created inside the faulty region, programs from
// an empty or a populated cache) or a warm one.
#ifndef TAILOR_SCENARIOS_H
#define TAILOR_SCENARIOS_H

#include "support.h"

enum scenario_operation {
    OPERATION_REDUCE,
    OPERATION_REDUCE_EVENT_ONLY, // n = 0: a marker event
};

struct scenario {
    const char *name;
    enum scenario_operation operation;
    int cold;        // the handle is created inside the faulty region
    int cold_cache;  // the cache directory starts empty
    int uses_cache;  // programs come from the cache
    const char *profile;
    size_t n;
    int out_of_order;
    int release_inside;          // the handle is also released inside the faulty region
    int after_event;             // the call waits for a (completed) user event
    const char *build_options;   // NULL, or options that make the build fail
    tailor_status expected;      // the status without faults
};

extern const struct scenario scenarios[];
extern const size_t scenario_count;

struct scenario_state {
    struct device_choice device;
    cl_context context;
    cl_command_queue queue, out_of_order_queue;
    tailor_context *handle;
    cl_mem x, result;
    size_t x_count;
    cl_event done;
    cl_event completed; // a user event already complete, for wait lists
};

int scenario_open(struct scenario_state *s);
void scenario_close(struct scenario_state *s);

// Before the faulty region: a warm handle (its programs built) for warm
// scenarios, fresh output buffers for all.
void scenario_prepare(struct scenario_state *s, const struct scenario *scenario);
// The call itself (the faulty region); scenario_complete then waits for its
// event outside the region.
tailor_status scenario_run(struct scenario_state *s, const struct scenario *scenario);
void scenario_complete(struct scenario_state *s);
// Whether a call that returned `status` did what it should without faults:
// the expected status, and the right result (or an untouched one).
int scenario_outcome_right(struct scenario_state *s, const struct scenario *scenario, tailor_status status);
// After an attempt: waits for the queues; releases a cold scenario's handle
// (every handle when scenario is NULL).
void scenario_finish(struct scenario_state *s, const struct scenario *scenario);

#endif
