#include "programs.h"

#include <stdio.h>
#include <string.h>

#include "embedded_sources.h"

static const struct embedded_source *const sources[SOURCE_COUNT] = {
    [SOURCE_REDUCE] = &embedded_source_reduce,
    [SOURCE_GEMV] = &embedded_source_gemv,
    [SOURCE_TRANSPOSE] = &embedded_source_transpose,
    [SOURCE_SGEMM] = &embedded_source_sgemm,
};

static const struct program_def {
    const char *name;
    enum kernel_source source;
    int needs_fp64;
    const char *defines;
} program_defs[PROGRAM_COUNT] = {
#define PROGRAM_DEF_(id, name, source, fp64, defines) [PROGRAM_##id] = {name, source, fp64, defines},
    PROGRAMS(PROGRAM_DEF_)
#undef PROGRAM_DEF_
};

const char *program_name(enum program_id id)
{
    return program_defs[id].name;
}

int program_needs_fp64(enum program_id id)
{
    return program_defs[id].needs_fp64;
}

const struct embedded_source *program_source(enum program_id id)
{
    return sources[program_defs[id].source];
}

enum program_id program_find(const char *name)
{
    for (int id = 0; id < PROGRAM_COUNT; ++id)
        if (strcmp(program_defs[id].name, name) == 0)
            return (enum program_id)id;
    return PROGRAM_COUNT;
}

int program_build_options(const struct profile *profile, enum program_id id, const char *extra,
                          char *buffer, size_t size)
{
    int length = profile_build_options(profile, program_defs[id].source, buffer, size);
    if (length < 0)
        return -1;
    int added = snprintf(buffer + length, size - (size_t)length, " %s%s%s",
                         program_defs[id].defines, extra && *extra ? " " : "", extra ? extra : "");
    if (added < 0 || (size_t)(length + added) >= size)
        return -1;
    return length + added;
}

size_t tailor_program_count(void)
{
    return PROGRAM_COUNT;
}

const char *tailor_program_name(size_t index)
{
    return index < PROGRAM_COUNT ? program_defs[index].name : NULL;
}
