// libFuzzer target for the tuning-record reader: any bytes parse without a
// fault, and a record read whole (OK, or CORRUPT: every member read, only the
// checksum wrong) formats to a text that reads back OK as the same record.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tuning_record.h"

// 14 KB each: static, not on the stack.
static struct tuning_record record, again;
static char text[TUNING_RECORD_MAX_BYTES];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[256];
    enum tuning_record_check check =
        tuning_record_parse((const char *)data, size, &record, why, sizeof why);
    if (!memchr(why, '\0', sizeof why))
        abort();
    if (check != TUNING_RECORD_OK && check != TUNING_RECORD_CORRUPT)
        return 0;
    int length = tuning_record_format(&record, text, sizeof text);
    if (length < 0 || (size_t)length >= sizeof text || strlen(text) != (size_t)length)
        abort();
    if (tuning_record_parse(text, (size_t)length, &again, why, sizeof why) != TUNING_RECORD_OK ||
        !tuning_record_equal(&record, &again))
        abort();
    return 0;
}
