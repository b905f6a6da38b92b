// The values the tuner tries for a parameter: its ladder (every value of a
// short range, powers of two across a wide one, with 0 where allowed and the
// starting value), random points and neighbours within a task's parameters,
// and the host-side checks a point must pass before anything is built.
#ifndef TAILOR_TUNE_SPACE_H
#define TAILOR_TUNE_SPACE_H

#include <stdint.h>

#include "profile.h"
#include "tune_task.h"

#define TUNE_LADDER_MAX 40

struct ladder {
    int values[TUNE_LADDER_MAX];
    int count;
};

// The ladder of a parameter around its starting value.
void tune_ladder(enum param_id param, int start, struct ladder *ladder);

uint64_t tune_random(uint64_t *state);

// Whether `values` (a whole profile's) is one the device takes: each value
// as an override would be checked, the operation's prior on its space
// (tune_tasks.plausible), and its constraints.
int tune_point_valid(const struct profile *base, const tailor_device_info *facts, const int *values,
                     enum operation_id op, char *why, size_t why_size);

#endif
