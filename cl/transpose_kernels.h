// The transpose's kernels, named once for the host (src/ops/transpose) and
// the source (transpose.cl): id, entry point, the programs that hold it,
// variant (the path: src/ops/transpose names the method in front).
#ifndef TAILOR_TRANSPOSE_KERNELS_H
#define TAILOR_TRANSPOSE_KERNELS_H

#define TRANSPOSE_KERNELS(X)                                                                        \
    X(TRANSPOSE_ALIGNED, transpose_aligned, TRANSPOSE_PROGRAM_SET, "aligned")                       \
    X(TRANSPOSE_EDGE, transpose_edge, TRANSPOSE_PROGRAM_SET, "edge")                                \
    X(TRANSPOSE_UNALIGNED, transpose_unaligned, TRANSPOSE_PROGRAM_SET, "unaligned")                 \
    X(TRANSPOSE_ALIGNED_STREAM, transpose_aligned_stream, TRANSPOSE_CPU_SET, "aligned/stream")      \
    X(TRANSPOSE_EDGE_STREAM, transpose_edge_stream, TRANSPOSE_CPU_SET, "edge/stream")             \
    X(TRANSPOSE_PEELED, transpose_peeled, TRANSPOSE_CPU_SET, "peeled")                             \
    X(TRANSPOSE_ELEMENTS, transpose_elements, TRANSPOSE_PROGRAM_SET, "elements")                   \
    X(TRANSPOSE_REALIGNED, transpose_realigned, TRANSPOSE_REALIGNED_SET, "realigned")             \
    X(TRANSPOSE_SPANS, transpose_spans, TRANSPOSE_SPANS_SET, "spans")                               \
    X(TRANSPOSE_NARROW_A, transpose_narrow_a, TRANSPOSE_REALIGNED_SET, "narrow-a")                  \
    X(TRANSPOSE_NARROW_B, transpose_narrow_b, TRANSPOSE_REALIGNED_SET, "narrow-b")                  \
    X(TRANSPOSE_NARROW_GATHERED, transpose_narrow_gathered, TRANSPOSE_REALIGNED_SET, "narrow-g")    \
    X(TRANSPOSE_WORDS, transpose_by_words, TRANSPOSE_WORDS_SET, "words")                           \
    X(TRANSPOSE_COPY, transpose_copy, TRANSPOSE_PROGRAM_SET, "copy/contiguous")                     \
    X(TRANSPOSE_COPY_STRIDED, transpose_copy_strided, TRANSPOSE_PROGRAM_SET, "copy/strided")      \
    X(TRANSPOSE_COPY_RUNS, transpose_copy_runs, TRANSPOSE_CPU_SET, "copy/strided-runs")             \
    X(TRANSPOSE_COPY_CONTIGUOUS_RUNS, transpose_copy_contiguous_runs, TRANSPOSE_CPU_SET,            \
      "copy/contiguous-runs")

#endif
