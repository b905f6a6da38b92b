#include "tune_space.h"

#include <stdio.h>
#include <string.h>

#include "error.h"
#include "operation.h"

// Wide ranges are walked in powers of two no further than this many steps
// from the starting value.
#define WIDE_STEPS 8

static void add(struct ladder *ladder, int value)
{
    for (int i = 0; i < ladder->count; ++i)
        if (ladder->values[i] == value)
            return;
    if (ladder->count == TUNE_LADDER_MAX)
        return;
    int at = ladder->count++;
    while (at > 0 && ladder->values[at - 1] > value) {
        ladder->values[at] = ladder->values[at - 1];
        --at;
    }
    ladder->values[at] = value;
}

void tune_ladder(enum param_id param, int start, struct ladder *ladder)
{
    const struct param_info *info = &param_table[param];
    ladder->count = 0;
    long span = (long)info->maximum - info->minimum;
    if (!(info->flags & POW2) && span <= 16) {
        for (int v = info->minimum; v <= info->maximum; ++v)
            add(ladder, v);
        return;
    }
    if (info->minimum <= 0 && !(info->flags & POW2))
        add(ladder, 0);
    // A value of 0 (off, or never) has no scale to centre on: every power of
    // two in range then.
    long centre = start > 0 ? start : 1;
    for (long p = 1; p <= info->maximum && p > 0; p *= 2) {
        if (p < info->minimum)
            continue;
        if (start > 0 && (p * (1L << WIDE_STEPS) < centre || p > centre * (1L << WIDE_STEPS)))
            continue;
        add(ladder, (int)p);
    }
    if (start >= info->minimum && start <= info->maximum)
        add(ladder, start);
}

uint64_t tune_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

int tune_point_valid(const struct profile *base, const tailor_device_info *facts, const int *values,
                     enum operation_id op, char *why, size_t why_size)
{
    struct profile trial = *base;
    for (int param = 0; param < TUNE_COUNT; ++param) {
        if (param_table[param].op != op || values[param] == base->tune[param])
            continue;
        if (profile_set_value(&trial, (enum param_id)param, values[param], TAILOR_ORIGIN_OVERRIDE) !=
            TAILOR_SUCCESS) {
            snprintf(why, why_size, "%s", tailor_last_error());
            error_clear();
            return 0;
        }
    }
    const struct operation *operation = operation_table[op];
    if (operation->tuning && operation->tuning->plausible && !operation->tuning->plausible(values)) {
        snprintf(why, why_size, "outside the operation's plausible space");
        return 0;
    }
    if (operation->check && operation->check(&trial, facts) != TAILOR_SUCCESS) {
        snprintf(why, why_size, "%s", tailor_last_error());
        error_clear();
        return 0;
    }
    return 1;
}
