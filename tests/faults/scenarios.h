// The calls the fault walks exercise: each public operation on the paths it
// can take, on a cold handle (created inside the faulty region, programs from
// an empty or a populated cache) or a warm one.
#ifndef TAILOR_SCENARIOS_H
#define TAILOR_SCENARIOS_H

#include "support.h"

enum scenario_operation {
    OPERATION_REDUCE,
    OPERATION_REDUCE_EVENT_ONLY, // n = 0: a marker event
    OPERATION_SGEMV,
    OPERATION_TRANSPOSE,
    OPERATION_SOMATCOPY,
    OPERATION_DOMATCOPY,
    OPERATION_SGEMM,
    OPERATION_GEMM, // tailor_gemm_strided_batched, f32, a batch of GEMM_BATCH
};

#define GEMM_BATCH 2

struct scenario {
    const char *name;
    enum scenario_operation operation;
    int cold;        // the handle is created inside the faulty region
    int cold_cache;  // the cache directory starts empty
    int uses_cache;  // programs come from the cache
    const char *profile;
    const char *tuning;          // NULL: none (never $TAILOR_TUNE)
    int out_of_order;
    int release_inside;          // the handle is also released inside the faulty region
    int after_event;             // the call waits for a (completed) user event
    const char *build_options;   // NULL, or options that make the build fail
    tailor_status expected;      // the status without faults
    // What tailor_last_variant() holds after the call without faults, so a
    // scenario cannot drift off the path it is meant to walk.
    const char *variant;
    // Shapes: reduce: n; GEMV: m x n; transpose: m rows x n columns of A;
    // SGEMM, GEMM: m x n x k.
    size_t m, n, k;
    tailor_layout layout;
    tailor_trans trans;          // GEMV's, or SGEMM's op(A)
    tailor_trans trans_b;        // SGEMM's op(B)
    float alpha, beta;           // set them: alpha = 0 takes the scale paths
    long long incx, incy;        // GEMV; 0 means 1
    size_t lda, ldb;             // transpose; 0 means packed
    size_t element_bytes;        // transpose; 0 means 4
};

extern const struct scenario scenarios[];
extern const size_t scenario_count;

struct scenario_state {
    struct device_choice device;
    cl_context context;
    cl_command_queue queue, out_of_order_queue;
    tailor_context *handle;
    cl_mem x, result;            // reductions
    size_t x_count;
    cl_mem a, b, c;              // the matrix operations: inputs A, B (or x), output C (or y)
    unsigned char *a_host, *b_host, *c_host; // what a, b and c hold before each call
    unsigned char *expected, *got;
    cl_event done;
    int got_event;      // the last call returned an event
    cl_event completed; // a user event already complete, for wait lists
};

int scenario_open(struct scenario_state *s);
void scenario_close(struct scenario_state *s);

// Before the faulty region: a warm handle (its programs built) for warm
// scenarios, fresh inputs and outputs for all.
void scenario_prepare(struct scenario_state *s, const struct scenario *scenario);
// Fresh inputs and outputs (outside the faulty region): an output with
// beta != 0 is read, so every call starts from the same one.
void scenario_reset(struct scenario_state *s, const struct scenario *scenario);
// The call itself (the faulty region); scenario_complete then waits for its
// event outside the region.
tailor_status scenario_run(struct scenario_state *s, const struct scenario *scenario);
void scenario_complete(struct scenario_state *s);
// Whether a call that returned `status` did what it should without faults:
// the expected status, and the exact result (or an untouched output), with
// everything around the output untouched.
int scenario_outcome_right(struct scenario_state *s, const struct scenario *scenario, tailor_status status);
// After an attempt: waits for the queues; releases a cold scenario's handle
// (every handle when scenario is NULL).
void scenario_finish(struct scenario_state *s, const struct scenario *scenario);

#endif
