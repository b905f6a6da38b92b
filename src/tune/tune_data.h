// The data a tuning run measures and checks candidates on: for one call
// (a tailor_call of any operation), buffers holding deterministic random
// inputs with host copies, the call itself and an edge variant of it (every
// dimension shrunk to end in partial tiles, odd offsets), and checks of a
// candidate's results against a double-precision host reference on sampled
// outputs within the bound tailor.h states for the operation. The edge
// variants shrink every dimension (tiles end partly filled) at offsets that
// keep the call's alignment, or (thorough checks) at odd offsets, which
// take the operations' unaligned programs.
#ifndef TAILOR_TUNE_DATA_H
#define TAILOR_TUNE_DATA_H

#include "tailor.h"

struct tune_data;

enum tune_check {
    TUNE_CHECK_OK,
    TUNE_CHECK_WRONG,  // a result outside the bound (message: which, and by how much)
    TUNE_CHECK_FAILED, // the call or an OpenCL call failed (status in *status)
};

// Makes the buffers and host copies for `call` (leading dimensions and
// increments of 0 mean packed and unit stride). NULL with the library's
// error set on failure (*status says which).
struct tune_data *tune_data_create(cl_context context, cl_command_queue queue,
                                   const tailor_call *call, tailor_status *status);

void tune_data_release(struct tune_data *data);

// Enqueues the call once on `ctx` (edge 1, 2: its aligned and odd edge variants).
tailor_status tune_data_run(tailor_context *ctx, cl_command_queue queue, struct tune_data *data,
                            int edge);

// Runs the call and its aligned edge variant (thorough: the odd one too)
// once each from fresh outputs and compares sampled results with the
// reference; `message` says what failed.
enum tune_check tune_data_check(tailor_context *ctx, cl_command_queue queue, struct tune_data *data,
                                int thorough, tailor_status *status, char *message,
                                size_t message_size);

// A short text of the call ("sgemm 4096x4096x4096 nt").
void tune_data_describe(const tailor_call *call, char *text, size_t size);

#endif
