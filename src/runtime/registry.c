#include "registry.h"

#include <string.h>

#include "embedded_sources.h"

const struct program_info program_table[PROGRAM_COUNT] = {
#define PROGRAM_INFO_(id, name, op, source, fp64, defines)                                          \
    [PROGRAM_##id] = {name, op, &embedded_source_##source, fp64, defines},
    TAILOR_PROGRAMS(PROGRAM_INFO_)
#undef PROGRAM_INFO_
};

const struct kernel_info kernel_table[KERNEL_COUNT] = {
#define KERNEL_INFO_(id, entry, programs, variant) [KERNEL_##id] = {#entry, programs, variant},
    TAILOR_KERNELS(KERNEL_INFO_)
#undef KERNEL_INFO_
};

const struct param_info param_table[TUNE_COUNT] = {
#define PARAM_INFO_(name, op, kind, readers, fallback, minimum, maximum, flags, doc)                \
    [TUNE_##name] = {#name, op, kind, readers, fallback, minimum, maximum, flags, doc},
    TAILOR_PARAMETERS(PARAM_INFO_)
#undef PARAM_INFO_
};

const struct ptx_requirement ptx_requirements[] = {
#define PTX_REQUIREMENT_(param, value, min_sm, min_ptx, instruction)                                \
    {TUNE_##param, value, min_sm, min_ptx, instruction},
    TAILOR_PTX_REQUIREMENTS(PTX_REQUIREMENT_)
#undef PTX_REQUIREMENT_
};
const size_t ptx_requirement_count = sizeof ptx_requirements / sizeof ptx_requirements[0];

static const char *const operation_names[OP_COUNT] = {
#define OPERATION_NAME_(id, name) [id] = name,
    TAILOR_OPERATIONS(OPERATION_NAME_)
#undef OPERATION_NAME_
};

const char *operation_name(enum operation_id op)
{
    return operation_names[op];
}

enum program_id program_find(const char *name)
{
    for (int id = 0; id < PROGRAM_COUNT; ++id)
        if (strcmp(program_table[id].name, name) == 0)
            return (enum program_id)id;
    return PROGRAM_COUNT;
}

enum param_id param_find(const char *name)
{
    for (int id = 0; id < TUNE_COUNT; ++id)
        if (strcmp(param_table[id].name, name) == 0)
            return (enum param_id)id;
    return TUNE_COUNT;
}
