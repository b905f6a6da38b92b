// The reduction's kernels, named once for the host (src/ops/reduce) and the
// source (reduce.cl): id, entry point, the programs that hold it, variant.
#ifndef TAILOR_REDUCE_KERNELS_H
#define TAILOR_REDUCE_KERNELS_H

#define REDUCE_KERNELS(X)                                                                           \
    X(REDUCE_SINGLE_GROUP, reduce_single_group, REDUCE_PROGRAM_SET, "single-group")                 \
    X(REDUCE_GROUPS, reduce_groups, REDUCE_PROGRAM_SET, "multi-group")                              \
    X(REDUCE_PARTIALS, reduce_partials, REDUCE_PROGRAM_SET, "two-pass")

#endif
