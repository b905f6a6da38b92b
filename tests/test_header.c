// The public header compiles on its own, first and alone, in strict C11.
#include "tailor.h"

int main(void)
{
    tailor_settings settings;
    tailor_default_settings(&settings);
    return tailor_status_string(TAILOR_SUCCESS)[0] == 's' ? 0 : 1;
}
