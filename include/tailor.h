// tailor: OpenCL kernels specialized at run time for the device they run on.
//
// The application keeps ownership of its cl_context, cl_device_id, queues and
// buffers. Every operation takes the queue to enqueue on, buffers with element
// offsets, an OpenCL wait list and an optional out event, and returns as soon
// as its work is enqueued. No function prints, aborts or exits.
#ifndef TAILOR_H
#define TAILOR_H

#include <stddef.h>
#include <stdint.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#if defined(_WIN32) && defined(TAILOR_BUILDING_LIBRARY)
#define TAILOR_API __declspec(dllexport)
#elif defined(TAILOR_BUILDING_LIBRARY)
#define TAILOR_API __attribute__((visibility("default")))
#else
#define TAILOR_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

// Status codes: 0 is success, every failure is negative. Codes and messages
// come from this one table (name, value, message).
#define TAILOR_STATUS_TABLE(X)                                                                    \
    X(TAILOR_SUCCESS, 0, "success")                                                               \
    X(TAILOR_ERROR_NULL_HANDLE, -1, "the tailor handle is NULL")                                  \
    X(TAILOR_ERROR_INVALID_ARGUMENT, -2, "an argument is invalid")                                \
    X(TAILOR_ERROR_INVALID_CONTEXT, -3, "the OpenCL context or device is NULL or invalid")        \
    X(TAILOR_ERROR_INVALID_QUEUE, -4, "the queue is NULL or belongs to another context or device") \
    X(TAILOR_ERROR_INVALID_BUFFER, -5,                                                            \
      "a buffer is NULL, not a buffer, of another context, or lacks the access it needs")         \
    X(TAILOR_ERROR_BUFFER_TOO_SMALL, -6, "a buffer is smaller than offset plus extent")           \
    X(TAILOR_ERROR_SIZE_OVERFLOW, -7, "a size, offset or byte count overflows")                   \
    X(TAILOR_ERROR_UNKNOWN_OPERATION, -8, "the operation enum has no such value")                 \
    X(TAILOR_ERROR_UNKNOWN_DTYPE, -9, "the data type enum has no such value")                     \
    X(TAILOR_ERROR_UNSUPPORTED, -10, "the device does not support this (for example f64 without fp64)") \
    X(TAILOR_ERROR_INVALID_WAIT_LIST, -11, "the event wait list and its length disagree")         \
    X(TAILOR_ERROR_BUILD_FAILED, -12, "building a kernel failed (the message holds the build log)") \
    X(TAILOR_ERROR_OUT_OF_HOST_MEMORY, -13, "out of host memory")                                 \
    X(TAILOR_ERROR_OUT_OF_DEVICE_MEMORY, -14, "out of device memory or resources")                \
    X(TAILOR_ERROR_OPENCL, -15, "an OpenCL call failed (the message names it)")                   \
    X(TAILOR_ERROR_INVALID_PROFILE, -16, "no profile or tuning parameter has that name or value")  \
    X(TAILOR_ERROR_INVALID_LEADING_DIMENSION, -17, "a leading dimension is smaller than its row")  \
    X(TAILOR_ERROR_INVALID_INCREMENT, -18, "a vector increment is zero")                          \
    X(TAILOR_ERROR_UNKNOWN_LAYOUT, -19, "the layout enum has no such value")                      \
    X(TAILOR_ERROR_UNKNOWN_TRANSPOSE, -20, "the transpose enum has no such value")                \
    X(TAILOR_ERROR_BUFFERS_OVERLAP, -21, "an output range overlaps an input range of the same buffer") \
    X(TAILOR_ERROR_INVALID_ELEMENT_SIZE, -22, "the element size is not one of those supported")

typedef enum tailor_status {
#define TAILOR_STATUS_ENUM_(name, value, message) name = value,
    TAILOR_STATUS_TABLE(TAILOR_STATUS_ENUM_)
#undef TAILOR_STATUS_ENUM_
} tailor_status;

// The library's version, e.g. "0.1.0".
TAILOR_API const char *tailor_version(void);

// A fixed message for the status ("unknown status" for other values).
// Thread-safety: safe.
TAILOR_API const char *tailor_status_string(tailor_status status);

// The enum's name for the status, e.g. "TAILOR_ERROR_BUFFER_TOO_SMALL".
// Thread-safety: safe.
TAILOR_API const char *tailor_status_name(tailor_status status);

// The detailed message of the last failed call on the calling thread (the
// argument that was wrong, the OpenCL call that failed, a build log), or "" if
// the last call succeeded. Valid until the next tailor call on this thread.
// Thread-safety: safe (one message per thread).
TAILOR_API const char *tailor_last_error(void);

// The OpenCL error code of the OpenCL call the last failed tailor call on
// the calling thread reported (e.g. CL_OUT_OF_RESOURCES), or CL_SUCCESS if
// the last call succeeded or failed for another reason.
// Thread-safety: safe (one code per thread).
TAILOR_API cl_int tailor_last_cl_error(void);

// The name of the kernel variant the last operation on the calling thread
// enqueued (e.g. "one-pass"), or "" if it enqueued no kernel or failed.
// Only operations set it; other calls (getters, explain) leave it as it is.
// Thread-safety: safe (one name per thread).
TAILOR_API const char *tailor_last_variant(void);

typedef struct tailor_context tailor_context;

typedef enum tailor_cache_mode {
    TAILOR_CACHE_DEFAULT = 0, // on, unless TAILOR_CACHE=off in the environment
    TAILOR_CACHE_ON = 1,
    TAILOR_CACHE_OFF = 2,
} tailor_cache_mode;

typedef enum tailor_tuned_mode {
    TAILOR_TUNED_DEFAULT = 0, // on, unless TAILOR_TUNED=off in the environment
    TAILOR_TUNED_ON = 1,
    TAILOR_TUNED_OFF = 2,
} tailor_tuned_mode;

typedef struct tailor_settings {
    // Directory of the binary cache; NULL: $TAILOR_CACHE_DIR, else
    // $XDG_CACHE_HOME/tailor, else ~/.cache/tailor.
    const char *cache_dir;
    tailor_cache_mode cache_mode;
    // Profile to use instead of the detected one (a name `tailor info` lists);
    // NULL: $TAILOR_PROFILE, else detect.
    const char *profile;
    // Tuning overrides "NAME=VALUE,NAME=VALUE"; NULL: $TAILOR_TUNE.
    const char *tuning;
    // Extra options appended to every clBuildProgram; NULL: $TAILOR_BUILD_OPTIONS.
    const char *build_options;
    // Size cap of the cache directory in bytes; 0: $TAILOR_CACHE_MAX_BYTES, else 256 MiB.
    uint64_t cache_max_bytes;
    // Whether the device's tuning record (tailor_tune) supplies values
    // between the profile's and the overrides.
    tailor_tuned_mode tuned_mode;
    uint8_t reserved[60]; // must be zero
} tailor_settings;

// Fills *settings with the defaults (everything from the environment).
TAILOR_API void tailor_default_settings(tailor_settings *settings);

// Creates a handle for one device of an OpenCL context. The handle retains the
// context and device; settings may be NULL for the defaults. No kernel is built
// until an operation needs it.
// Thread-safety: the handle may be used from several threads at once.
TAILOR_API tailor_status tailor_context_create(cl_context context, cl_device_id device,
                                               const tailor_settings *settings,
                                               tailor_context **out);

// Releases the handle and sets *ctx to NULL. Work already enqueued completes
// normally. NULL and *ctx == NULL are accepted.
// Thread-safety: no other call may use the handle concurrently.
TAILOR_API void tailor_context_release(tailor_context **ctx);

typedef enum tailor_device_kind {
    TAILOR_DEVICE_KIND_GENERIC = 0,
    TAILOR_DEVICE_KIND_NVIDIA = 1,
    TAILOR_DEVICE_KIND_AMD = 2,
    TAILOR_DEVICE_KIND_INTEL = 3,
    TAILOR_DEVICE_KIND_CPU = 4,
} tailor_device_kind;

// What the probe found and the profile it chose. Strings are NUL-terminated
// and truncated to their arrays.
typedef struct tailor_device_info {
    char platform_name[128];
    char platform_version[128];
    char device_name[128];
    char vendor[128];
    char driver_version[128];
    char device_version[128];
    char opencl_c_version[128];
    cl_uint vendor_id;
    cl_device_type type;
    cl_uint compute_units;
    cl_uint clock_mhz;
    cl_ulong global_mem_bytes;
    cl_ulong max_alloc_bytes;
    cl_ulong local_mem_bytes;
    int local_mem_dedicated; // 1: CL_LOCAL, 0: emulated in global memory
    size_t max_work_group_size;
    cl_uint mem_base_addr_align_bits;
    int has_fp64;
    int has_subgroups; // cl_khr_subgroups or cl_intel_subgroups
    // NVIDIA (cl_nv_device_attribute_query); 0 where unknown.
    cl_uint nv_compute_major, nv_compute_minor, nv_warp_size;
    // AMD (cl_amd_device_attribute_query); 0 / "" where unknown.
    cl_uint amd_wavefront_width, amd_gfx_major, amd_gfx_minor;
    char amd_board_name[128];
    // Intel sub-group sizes (CL_DEVICE_SUB_GROUP_SIZES_INTEL).
    size_t intel_subgroup_sizes[8];
    cl_uint intel_subgroup_size_count;
    // CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: floats in one native SIMD vector.
    cl_uint native_vector_width_float;
    int has_fp16; // cl_khr_fp16
    // NVIDIA: the newest PTX ISA the driver accepts (major*10+minor, from its
    // version), 0 where unknown.
    cl_uint ptx_isa;
    // The profile.
    tailor_device_kind kind;
    char profile_name[64];
    int cuda_sm;  // major*10+minor on NVIDIA, else 0
    int lockstep; // 32, 64, or 0 where work-items are not in lockstep
    // NVIDIA: bytes of static local memory a kernel was built with beyond
    // local_mem_bytes (the per-block shared memory CUDA documents for the
    // compute capability, less 1 KiB; one kernel built at context creation
    // where the profile's tensor-core tiles need more than local_mem_bytes),
    // else 0.
    cl_uint local_mem_static_bytes;
    uint8_t reserved[60];
} tailor_device_info;

// Thread-safety: safe.
TAILOR_API tailor_status tailor_context_device_info(const tailor_context *ctx,
                                                    tailor_device_info *info);

// Number of kernel programs (each a source and its variant defines) and the
// name of the i-th, e.g. "reduce_sum_f32". NULL past the end.
TAILOR_API size_t tailor_program_count(void);
TAILOR_API const char *tailor_program_name(size_t index);

// The exact clBuildProgram options the named program gets on this handle.
// Writes a NUL-terminated string; TAILOR_ERROR_INVALID_ARGUMENT if it does
// not fit in size bytes or no program has that name.
// Thread-safety: safe.
TAILOR_API tailor_status tailor_context_build_options(const tailor_context *ctx,
                                                      const char *program, char *buffer,
                                                      size_t size);

// Counters of the program cache since the handle was created.
typedef struct tailor_cache_stats {
    uint64_t memory_hits;  // program already built in this handle
    uint64_t disk_hits;    // loaded from an on-disk entry
    uint64_t disk_misses;  // no usable entry on disk
    uint64_t source_builds;
    uint64_t bad_entries;  // truncated, corrupt, foreign or rejected entries removed and rebuilt
    uint64_t stores;       // entries written
    uint64_t store_failures;
    uint64_t evictions;    // entries removed to respect the size cap
    int cache_enabled;     // 0: off, missing/unusable directory, or untrusted
    char cache_dir[4096];
    char cache_note[256];  // why the cache is off, if it is
    uint8_t reserved[64];
} tailor_cache_stats;

// Thread-safety: safe.
TAILOR_API tailor_status tailor_context_cache_stats(const tailor_context *ctx,
                                                    tailor_cache_stats *stats);

// The cache directory the default settings resolve to (it may not exist).
TAILOR_API tailor_status tailor_cache_directory(char *buffer, size_t size);

// One entry of the cache directory, as tailor_cache_list reports it.
typedef struct tailor_cache_entry_info {
    const char *file_name;
    uint64_t bytes;
    int64_t last_used_unix;
    const char *key; // the key text, or "" for an unreadable or foreign entry
} tailor_cache_entry_info;

// Calls visit once per entry of the default cache directory.
TAILOR_API tailor_status tailor_cache_list(void (*visit)(const tailor_cache_entry_info *entry,
                                                         void *user),
                                           void *user);

// Removes every entry (and leftover temporary file) of the default cache
// directory; *removed (may be NULL) receives how many files went.
TAILOR_API tailor_status tailor_cache_clear(size_t *removed);

// tailor_cache_list and tailor_cache_clear for the directory the handle
// uses (settings.cache_dir, or what the environment resolves to). A handle
// whose cache is off (TAILOR_CACHE=off, no usable or trusted directory)
// lists and removes nothing.
// Thread-safety: safe, also while other threads use the handle (their next
// builds store again what was removed).
TAILOR_API tailor_status tailor_context_cache_list(const tailor_context *ctx,
                                                   void (*visit)(const tailor_cache_entry_info *entry,
                                                                 void *user),
                                                   void *user);
TAILOR_API tailor_status tailor_context_cache_clear(const tailor_context *ctx, size_t *removed);

// Storage order of a matrix: row-major (C) or column-major (Fortran, BLAS).
typedef enum tailor_layout {
    TAILOR_ROW_MAJOR = 0,
    TAILOR_COLUMN_MAJOR = 1,
} tailor_layout;

typedef enum tailor_trans {
    TAILOR_NO_TRANS = 0,
    TAILOR_TRANS = 1,
} tailor_trans;

typedef enum tailor_reduce_op {
    TAILOR_REDUCE_SUM = 0,
    TAILOR_REDUCE_MIN = 1,
    TAILOR_REDUCE_MAX = 2,
} tailor_reduce_op;

typedef enum tailor_dtype {
    TAILOR_F32 = 0,
    TAILOR_F64 = 1,
    TAILOR_F16 = 2,  // IEEE binary16, 2 bytes (tailor_gemm, tailor_gemv, tailor_reduce)
    TAILOR_BF16 = 3, // bfloat16, a float's high 16 bits (tailor_gemm, tailor_gemv, tailor_reduce)
    // f32 storage multiplied as three TF32 products on tensor cores where the
    // device has them (tailor_gemm's ab_type only; its own error bound).
    TAILOR_3XTF32 = 4,
} tailor_dtype;

// result[result_offset] = op(x[x_offset], ..., x[x_offset + n - 1]).
// dtype is TAILOR_F32, TAILOR_F64 (where the device has cl_khr_fp64),
// TAILOR_F16 or TAILOR_BF16 (on every device); x and result are of that type
// and offsets count its elements. The whole reduction is done by the work
// enqueued here; *event (if event is not NULL) completes when the result is
// written. n == 0 is a no-op that writes nothing (the event, if asked for, is
// a marker of the wait list). min and max ignore NaNs as fmin/fmax do. A
// float sum is within 128 * 2^-24 * sum(|x_i|) of the exact sum, for every n.
// f16 and bf16 data is added up as that float sum, rounded once to its type
// at the end: half an ulp more (2^-11 relative for f16, 2^-8 for bf16), and
// an f16 sum of 65520 or more in magnitude is an infinity, as IEEE rounding
// gives.
// Thread-safety: safe; concurrent calls may share the handle.
TAILOR_API tailor_status tailor_reduce(tailor_context *ctx, cl_command_queue queue,
                                       tailor_reduce_op op, tailor_dtype dtype, size_t n,
                                       cl_mem x, size_t x_offset, cl_mem result,
                                       size_t result_offset, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event);

// y = alpha * op(A) * x + beta * y, BLAS sgemv semantics. A is m x n (m rows,
// n columns) stored in `layout` with leading dimension lda (at least
// max(1, n) row-major, max(1, m) column-major); op(A) = A (x has n elements,
// y has m) or A^T (x has m, y has n). Offsets count elements. Increments may
// be negative (BLAS: the vector starts at the far end); 0 is an error.
// - An empty y (m or n = 0 and nothing to write) is untouched, whatever the
//   buffers; the event, if asked for, is a marker of the wait list.
// - Otherwise y, A and x must be buffers holding their strided extents (A and
//   x are checked even where they are not read), and y must not overlap A or
//   x in the same buffer.
// - Empty dots (k = 0) or alpha == 0: y = beta * y, reading neither A nor x
//   (nothing at all is enqueued but a marker when beta == 1).
// - beta == 0 never reads y: NaN in y does not propagate, and y may be
//   CL_MEM_WRITE_ONLY.
// Each output is within (k + 4) * 2^-24 * (|alpha| * sum_j |a_ij x_j| +
// |beta y_i|) of the exact result. tailor_last_variant() names the kernel.
// Thread-safety: safe; concurrent calls may share the handle.
TAILOR_API tailor_status tailor_sgemv(tailor_context *ctx, cl_command_queue queue,
                                      tailor_layout layout, tailor_trans trans, size_t m,
                                      size_t n, float alpha, cl_mem a, size_t a_offset, size_t lda,
                                      cl_mem x, size_t x_offset, long long incx, float beta,
                                      cl_mem y, size_t y_offset, long long incy,
                                      cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event);

// tailor_sgemv with A and x of ab_type and y of y_type, each TAILOR_F32,
// TAILOR_F16 or TAILOR_BF16 (16-bit values are converted as storage: no
// device fp16 support is needed); offsets and leading dimensions count
// elements of their own type. The dots are taken in float: each output is
// within tailor_sgemv's bound of the exact result for the stored inputs (and
// y, if read), plus the rounding to y_type (2^-11 of the result's magnitude
// for f16, 2^-8 for bf16); f16 results beyond 65504 become infinities.
// Other types: TAILOR_ERROR_UNSUPPORTED (f64, TAILOR_3XTF32), or
// TAILOR_ERROR_UNKNOWN_DTYPE. tailor_sgemv is this with f32 throughout.
// Thread-safety: safe; concurrent calls may share the handle.
TAILOR_API tailor_status tailor_gemv(tailor_context *ctx, cl_command_queue queue,
                                     tailor_layout layout, tailor_trans trans, size_t m, size_t n,
                                     float alpha, tailor_dtype ab_type, cl_mem a, size_t a_offset,
                                     size_t lda, cl_mem x, size_t x_offset, long long incx,
                                     float beta, tailor_dtype y_type, cl_mem y, size_t y_offset,
                                     long long incy, cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event);

// B = A^T, out of place. A is rows x cols in row-major storage with leading
// dimension lda (>= cols), B is cols x rows with ldb (>= rows); both leading
// dimensions are at least 1. element_bytes is 1, 2, 4, 8 or 16: the bytes
// are moved, never interpreted, so every bit pattern (NaN payloads included)
// arrives unchanged. Offsets and leading dimensions count elements. A
// column-major matrix is the row-major matrix of swapped dimensions, so this
// covers both layouts. A and B may be one buffer (or sub-buffers of one)
// only where their ranges, first to last element, do not overlap
// (TAILOR_ERROR_BUFFERS_OVERLAP). rows == 0 or cols == 0 writes nothing
// (the event, if asked for, is a marker of the wait list); the buffers are
// not examined then, the leading dimensions are.
// Thread-safety: safe; concurrent calls may share the handle.
TAILOR_API tailor_status tailor_transpose(tailor_context *ctx, cl_command_queue queue,
                                          size_t element_bytes, size_t rows, size_t cols, cl_mem a,
                                          size_t a_offset, size_t lda, cl_mem b, size_t b_offset,
                                          size_t ldb, cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event);

// B = alpha * A^T for float (omatcopy with a transpose), with the conventions
// of tailor_transpose. alpha == 1 moves the bits unchanged; alpha == 0
// writes +0.0 everywhere whatever A holds (as BLAS treats beta = 0); any
// other alpha multiplies each element in IEEE single precision, so NaN and
// infinities in A propagate as IEEE says (NaN stays NaN, +-inf times alpha is
// +-inf), and so does a NaN or infinite alpha.
// Thread-safety: safe; concurrent calls may share the handle.
TAILOR_API tailor_status tailor_somatcopy(tailor_context *ctx, cl_command_queue queue, size_t rows,
                                          size_t cols, float alpha, cl_mem a, size_t a_offset,
                                          size_t lda, cl_mem b, size_t b_offset, size_t ldb,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event);

// The same for double, where the device has cl_khr_fp64 (else
// TAILOR_ERROR_UNSUPPORTED).
// Thread-safety: safe; concurrent calls may share the handle.
TAILOR_API tailor_status tailor_domatcopy(tailor_context *ctx, cl_command_queue queue, size_t rows,
                                          size_t cols, double alpha, cl_mem a, size_t a_offset,
                                          size_t lda, cl_mem b, size_t b_offset, size_t ldb,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event);

// C = alpha * op(A) * op(B) + beta * C for float, BLAS sgemm semantics:
// op(A) is m x k, op(B) is k x n, C is m x n, each stored in `layout` with
// leading dimensions lda, ldb, ldc (at least the length of a stored line, and
// at least 1, checked even when there is nothing to do); offsets count
// elements. m = 0 or n = 0 is a quick return; k = 0 or alpha = 0 computes
// C = beta * C without reading A or B; beta == 0 never reads C (NaNs there do
// not reach the result). C must not overlap A or B in the same buffer. m, n
// and k up to 2^31 - 1 (else TAILOR_ERROR_UNSUPPORTED). Each element of the
// result is within 2 (k + 2) 2^-24 (|alpha| sum_p |a_ip b_pj| + |beta c_ij|)
// of the exact value, whatever kernel the shape and device select. Where the
// profile packs a B stored transposed first (SGEMM_PACK_B_MIN_M), the handle
// keeps a workspace per queue, as large as the largest packed B (k x n
// floats), until it is released; failing to allocate it fails the call.
// Thread-safety: safe; concurrent calls may share the handle.
TAILOR_API tailor_status tailor_sgemm(tailor_context *ctx, cl_command_queue queue,
                                      tailor_layout layout, tailor_trans trans_a,
                                      tailor_trans trans_b, size_t m, size_t n, size_t k,
                                      float alpha, cl_mem a, size_t a_offset, size_t lda,
                                      cl_mem b, size_t b_offset, size_t ldb, float beta, cl_mem c,
                                      size_t c_offset, size_t ldc,
                                      cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event);

// C = alpha * op(A) * op(B) + beta * C with A and B of type ab_type (TAILOR_F16,
// TAILOR_BF16, TAILOR_F32 or TAILOR_3XTF32) and C of type c_type (f16, bf16 or
// f32, in any combination), with the shapes, layouts, leading dimensions, offsets and
// BLAS semantics of tailor_sgemm; offsets and leading dimensions count
// elements of the matrix's type. Products are accumulated in f32, and
// alpha * sum + beta * c is computed in f32 and rounded once to c_type (to
// nearest even; bf16 NaNs stay NaNs). f16 inputs need no cl_khr_fp16 (they
// are converted as storage). Each element of the result is within
// 2 (k + 2) 2^-24 (|alpha| sum_p |a_ip b_pj| + |beta c_ij|) of the exact value
// of the product of the stored inputs, plus the rounding to c_type (2^-11
// of the result's magnitude for f16, 2^-8 for bf16); f16 results beyond
// 65504 become infinities. On NVIDIA devices of CUDA_SM >= 80, f16 and bf16
// run on tensor cores (mma.sync); elsewhere on a SIMT kernel that converts
// to float. A single f32 x f32 -> f32 product is tailor_sgemm's.
// ab_type TAILOR_3XTF32: A and B are f32, multiplied on tf32 tensor cores as
// three products of their split parts (NVIDIA CUDA_SM >= 80; elsewhere in f32
// arithmetic). Infinities and NaNs propagate as IEEE says. Each element is
// within 3 (k + 16) 2^-24 (|alpha| sum |a b| + |beta c|) of the exact value,
// plus the rounding to c_type, assuming each mma rounds with an error of at
// most 2^-21 of its magnitudes (NVIDIA does not document it; doc/kernels.md).
// Thread-safety: safe; concurrent calls may share the handle.
TAILOR_API tailor_status tailor_gemm(tailor_context *ctx, cl_command_queue queue,
                                     tailor_layout layout, tailor_trans trans_a,
                                     tailor_trans trans_b, size_t m, size_t n, size_t k, float alpha,
                                     tailor_dtype ab_type, cl_mem a, size_t a_offset, size_t lda,
                                     cl_mem b, size_t b_offset, size_t ldb, float beta,
                                     tailor_dtype c_type, cl_mem c, size_t c_offset, size_t ldc,
                                     cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event);

// batch_count products of tailor_gemm: product i reads A at a_offset + i *
// stride_a, B at b_offset + i * stride_b and writes C at c_offset + i *
// stride_c (strides count elements). stride_a or stride_b may be 0 (one
// matrix for every product) or overlap; the C matrices must not overlap one
// another (stride_c at least the extent of one C, unless batch_count is 1:
// TAILOR_ERROR_INVALID_ARGUMENT), and the whole C range must not overlap the
// A or B range of the same buffer. batch_count = 0 is a quick return; at
// most 2^32 - 1 (else TAILOR_ERROR_UNSUPPORTED).
// Thread-safety: safe; concurrent calls may share the handle.
TAILOR_API tailor_status tailor_gemm_strided_batched(
    tailor_context *ctx, cl_command_queue queue, tailor_layout layout, tailor_trans trans_a,
    tailor_trans trans_b, size_t m, size_t n, size_t k, float alpha, tailor_dtype ab_type, cl_mem a,
    size_t a_offset, size_t lda, size_t stride_a, cl_mem b, size_t b_offset, size_t ldb,
    size_t stride_b, float beta, tailor_dtype c_type, cl_mem c, size_t c_offset, size_t ldc,
    size_t stride_c, size_t batch_count, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event);

// Where a tuning parameter's value (or a build option) came from.
typedef enum tailor_origin {
    TAILOR_ORIGIN_DEFAULT = 0,  // the built-in default
    TAILOR_ORIGIN_PROFILE = 1,  // the device's profile row
    TAILOR_ORIGIN_TUNED = 2,    // a tuning record measured on this device
    TAILOR_ORIGIN_OVERRIDE = 3, // settings.tuning or $TAILOR_TUNE
    TAILOR_ORIGIN_FALLBACK = 4, // the default (or smaller), because the device cannot run the value asked for
    TAILOR_ORIGIN_DEVICE = 5,   // a probed device fact (DEVICE, CUDA_SM, LOCKSTEP, ...)
    TAILOR_ORIGIN_PROGRAM = 6,  // the program's own variant (data type, operator, method)
} tailor_origin;

// "default", "profile", "tuned", "override", "fallback", "device", "program".
TAILOR_API const char *tailor_origin_name(tailor_origin origin);

// One tuning parameter as the library declares it.
typedef struct tailor_parameter_info {
    const char *name;      // also its -D define, e.g. "GEMV_ROW_WG"
    const char *operation; // "reduce", "gemv", "transpose", "sgemm", "gemm"
    int is_define;         // 1: a -D of the programs that read it; 0: read by the host only
    const char *programs;  // the programs that read it, space-separated ("" for host thresholds)
    int default_value, minimum, maximum;
    int power_of_two;
    int nvidia_only;       // read by NVIDIA code only
    const char *description;
} tailor_parameter_info;

// Number of tuning parameters, and the index-th (TAILOR_ERROR_INVALID_ARGUMENT
// past the end). The strings are static.
// Thread-safety: safe.
TAILOR_API size_t tailor_parameter_count(void);
TAILOR_API tailor_status tailor_parameter_describe(size_t index, tailor_parameter_info *info);

// The value of the named parameter on this handle and where it came from.
// Thread-safety: safe.
TAILOR_API tailor_status tailor_context_parameter(tailor_context *ctx, const char *name, int *value,
                                                  tailor_origin *origin);

// The operations, for tailor_explain.
typedef enum tailor_operation {
    TAILOR_OP_REDUCE = 0,
    TAILOR_OP_SGEMV = 1, // tailor_sgemv and tailor_gemv
    TAILOR_OP_TRANSPOSE = 2, // also somatcopy / domatcopy (scaled = 1)
    TAILOR_OP_SGEMM = 3,
    TAILOR_OP_GEMM = 4, // tailor_gemm and tailor_gemm_strided_batched
} tailor_operation;

// One call without its buffers, as tailor_explain takes it. Fields an
// operation does not have are ignored; start from all zeros
// (memset or = {0}): zero leading dimensions and increments mean packed and
// unit-stride, alpha and beta are taken as given.
typedef struct tailor_call {
    tailor_operation operation;
    tailor_layout layout;
    tailor_trans trans_a, trans_b; // sgemv: trans_a is its trans
    size_t m, n, k;               // reduce: n; sgemv: m x n; transpose: m rows, n columns of A
    tailor_reduce_op reduce_op;
    tailor_dtype dtype;           // reduce; transpose with scaled = 1 (f32 or f64); gemm, gemv: ab_type
    size_t element_bytes;         // transpose (0: 4)
    int scaled;                   // transpose: somatcopy / domatcopy with alpha != 1
    size_t a_offset, b_offset, c_offset; // reduce: a is x; sgemv: a, b is x, c is y
    size_t lda, ldb, ldc;
    long long incx, incy;
    float alpha, beta;
    tailor_dtype c_type;          // gemm; gemv: y_type
    size_t batch;                 // gemm: batch_count (0: 1)
    size_t stride_a, stride_b, stride_c; // gemm (0 with batch 1)
    uint8_t reserved[64];
} tailor_call;

// A build option or host parameter behind a plan.
typedef struct tailor_plan_setting {
    char name[48];
    char value[48];
    tailor_origin origin;
} tailor_plan_setting;

#define TAILOR_PLAN_MAX_SETTINGS 64

// What one call would run.
typedef struct tailor_plan {
    char variant[128]; // as tailor_last_variant() would name it; "" if nothing is enqueued
    char kernel[64];   // the entry point of the main kernel; "" if none
    char program[64];  // the program that holds it
    size_t launches;   // kernels enqueued (0: nothing or a marker)
    size_t define_count;
    tailor_plan_setting defines[TAILOR_PLAN_MAX_SETTINGS]; // the program's -D options
    size_t host_count;
    tailor_plan_setting host[TAILOR_PLAN_MAX_SETTINGS]; // the operation's host thresholds
    uint8_t reserved[64];
} tailor_plan;

// Plans the call without enqueueing anything or building a kernel: the
// variant, kernel and program it would run and every -D option that program
// gets, each with its origin. Returns the status the call would return for
// its arguments (buffers aside).
// Thread-safety: safe.
TAILOR_API tailor_status tailor_explain(tailor_context *ctx, const tailor_call *call,
                                        tailor_plan *plan);

// The tuning record a handle uses: measured values of the tuning
// parameters kept in the cache directory, one file per device identity
// (platform, device, vendor, driver, profile, tailor version and the kernel
// sources' hash). A handle loads its device's record when it is created;
// overrides still win over its values.
typedef struct tailor_tuning_info {
    int loaded;      // 1: the record's values are in use
    size_t values;   // values applied from it
    char path[4096]; // the record's file (where it is, or would be written)
    char note[512];  // why no record is in use, or what of it was ignored
    uint8_t reserved[64];
} tailor_tuning_info;

// Thread-safety: safe.
TAILOR_API tailor_status tailor_context_tuning_info(const tailor_context *ctx,
                                                    tailor_tuning_info *info);

// The stored record of the handle's device as JSON (the file's text, read
// and checked again now). *length (may be NULL) gets its length without
// the NUL; TAILOR_ERROR_INVALID_ARGUMENT if no valid record is stored or
// it does not fit in size bytes (then *length says what is needed).
TAILOR_API tailor_status tailor_context_tuning_export(const tailor_context *ctx, char *buffer,
                                                      size_t size, size_t *length);

// Stores a record exported on an identical device (same identity) as this
// device's record, after checking its format, checksum, identity and that
// every value is one this device takes; handles created afterwards use it.
TAILOR_API tailor_status tailor_context_tuning_import(const tailor_context *ctx, const char *json,
                                                      size_t length);

// Removes the device's record; handles created afterwards run on the profile.
TAILOR_API tailor_status tailor_context_tuning_reset(const tailor_context *ctx);

// What tailor_tune searches, and for how long.
typedef struct tailor_tune_request {
    // Operations to tune, names separated by commas ("reduce,gemv,transpose,
    // sgemm"); NULL or "": all.
    const char *operations;
    // Calls to tune for instead of the representative shapes (each of an
    // operation being tuned; buffers are made for them); NULL: those shapes.
    const tailor_call *calls;
    size_t call_count;
    double budget_seconds; // 0: 180 s on GPUs, 300 s on CPU devices
    int dry_run;           // 1: search and report, store nothing
    uint64_t seed;         // of the random sampling; 0: a fixed one
    uint8_t reserved[64];  // must be zero
} tailor_tune_request;

// One step of a tuning run, as the progress callback gets it.
typedef struct tailor_tune_progress {
    const char *operation; // "sgemm"
    const char *task;      // the group of parameters being searched, e.g. "big tiles"
    const char *candidate; // the values tried that differ from the starting ones
    // "start", "better", "timed", "invalid", "build-failed", "wrong-result",
    // "opencl-error", "slow", "kept" or "reverted" (the task's result against
    // its start, confirmed at the end)
    const char *outcome;
    const char *detail;    // why a candidate was rejected; "" otherwise
    double relative;       // the candidate's time over the best's (geometric mean of the shapes); 0 if untimed
    double best_relative;  // the best so far over the starting values
    double elapsed_seconds, budget_seconds;
    size_t tried, rejected;
} tailor_tune_progress;

typedef struct tailor_tune_result {
    size_t tried, timed, invalid, build_failures, wrong_results, opencl_errors, slow;
    size_t values;  // values in the record
    size_t changed; // of them, those that differ from where tuning started
    double seconds; // wall time of the run
    int stored;     // 1: the record was written
    char record_path[4096];
    uint8_t reserved[64];
} tailor_tune_result;

// Searches the tuning parameters of the requested operations on the handle's
// device, starting from the handle's values: random samples, then a local
// search around the best, each candidate built, run and checked against a
// host reference (the representative shapes, then each shrunk to partial
// tiles at odd offsets) before it is timed against the best so far in
// alternating batches. Candidates that do not build, fail an OpenCL call,
// give a wrong result or run far slower are counted and skipped. Each group
// of parameters keeps its result only if a final timing against its start
// confirms it. Then the record (merged with the values the stored record
// has for other operations) is written for handles created afterwards; the
// handle itself keeps its values. Overridden parameters are not searched.
// progress (may be NULL) is called after every candidate. Blocks until done.
// Thread-safety: safe; the queue must belong to the handle's device, and
// the run is timed more fairly when nothing else uses the device.
TAILOR_API tailor_status tailor_tune(tailor_context *ctx, cl_command_queue queue,
                                     const tailor_tune_request *request,
                                     void (*progress)(const tailor_tune_progress *step, void *user),
                                     void *user, tailor_tune_result *result);

#ifdef __cplusplus
}
#endif

#endif // TAILOR_H
