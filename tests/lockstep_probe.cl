// One lockstep reduction and nothing else, so that the instructions the
// build options select for it (shuffles, volatile local memory, no barriers)
// can be checked in the generated PTX or GCN text. With PROBE_CONTROL=1 the
// same kernel exchanges through a barrier instead: the check's evidence that
// it would see a barrier if the lockstep path had one.
#include "prelude.cl"

#define PROBE_ADD(a, b) ((a) + (b))

#if PROBE_CONTROL
kernel void probe(global float *x)
{
    __local float lanes[256];
    uint lid = get_local_id(0);
    lanes[lid] = x[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    x[get_global_id(0)] = lanes[(lid + 1) % 256];
}
#else
DEFINE_LOCKSTEP_REDUCE(lockstep_sum, float, PROBE_ADD)

kernel void probe(global float *x)
{
    __local volatile float lanes[256];
    uint lid = get_local_id(0);
    float v = lockstep_sum(x[get_global_id(0)], lanes + lid / LOCKSTEP * LOCKSTEP);
    if (lid % LOCKSTEP == 0)
        x[get_global_id(0)] = v;
}
#endif
