// The subcommands of the `tailor` tool; each returns the process exit status.
#ifndef TAILOR_COMMANDS_H
#define TAILOR_COMMANDS_H

int command_info(int argc, char **argv);
int command_bench(int argc, char **argv);
int command_cache(int argc, char **argv);
int command_explain(int argc, char **argv);
int command_params(int argc, char **argv);
int command_tune(int argc, char **argv);

#endif
