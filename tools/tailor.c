#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "tailor.h"

static const char usage[] =
    "usage: tailor COMMAND [OPTIONS]\n"
    "\n"
    "  info [--verbose]          every OpenCL device: what the probe found, the profile\n"
    "                            chosen, the cache (--verbose: every program's options)\n"
    "  explain --op OP --shape S what one call would run, and every build option with\n"
    "                            its origin (see tailor explain --help)\n"
    "  params [--markdown]       every tuning parameter: kind, default, range, readers\n"
    "  bench [--device SELECTOR] [--op NAME] [--json FILE]\n"
    "                            the benchmark (see tailor bench --help)\n"
    "  bench --sweep OP          irregular cases of transpose or gemv against the aligned one\n"
    "  tune [--op OP] [--budget S] search the device's best tuning values and keep them\n"
    "                            (see tailor tune --help; --show, --reset, --export, --import)\n"
    "  cache path|list|clear     the on-disk binary cache\n"
    "  version                   the library version\n";

#ifdef TAILOR_HAVE_CBLAS
// OpenBLAS's threads spin for a while after each call and take the cores
// from the contender whose batch comes next (tailor's SGEMM on a CPU device
// ran up to 2x slower beside them). OpenBLAS reads OPENBLAS_THREAD_TIMEOUT
// once, when it is loaded, so the bench sets its shortest value and starts
// again; the user's own setting is kept.
static void quiet_openblas_threads(char **argv)
{
    if (getenv("OPENBLAS_THREAD_TIMEOUT") || setenv("OPENBLAS_THREAD_TIMEOUT", "4", 1) != 0)
        return;
    execv("/proc/self/exe", argv);
    fprintf(stderr, "bench: could not restart with OPENBLAS_THREAD_TIMEOUT=4; OpenBLAS's threads may spin\n");
}
#endif

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "info") == 0)
        return command_info(argc - 1, argv + 1);
    if (strcmp(argv[1], "bench") == 0) {
#ifdef TAILOR_HAVE_CBLAS
        quiet_openblas_threads(argv);
#endif
        return command_bench(argc - 1, argv + 1);
    }
    if (strcmp(argv[1], "cache") == 0)
        return command_cache(argc - 1, argv + 1);
    if (strcmp(argv[1], "explain") == 0)
        return command_explain(argc - 1, argv + 1);
    if (strcmp(argv[1], "tune") == 0)
        return command_tune(argc - 1, argv + 1);
    if (strcmp(argv[1], "params") == 0)
        return command_params(argc - 1, argv + 1);
    if (strcmp(argv[1], "version") == 0) {
        printf("tailor %s\n", tailor_version());
        return 0;
    }
    fprintf(stderr, "tailor: unknown command '%s'\n\n%s", argv[1], usage);
    return 2;
}
