// JSON output of the tool's commands (bench --json, tune --json).
#ifndef TAILOR_TOOL_JSON_H
#define TAILOR_TOOL_JSON_H

#include <stdio.h>

// `text` as a JSON string: quotes and backslashes escaped, control
// characters as \u00XX.
void json_string(FILE *f, const char *text);

#endif
