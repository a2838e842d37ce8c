/* The gpusim command line: one function per subcommand. Each returns the
 * process exit status: 0 success, 1 runtime failure, 2 bad usage or config. */
#ifndef GS_CLI_H
#define GS_CLI_H

#include <glib.h>
#include <stdbool.h>

#include "sim/results/results_write.h"

#define GS_EXIT_OK 0
#define GS_EXIT_FAILURE 1
#define GS_EXIT_USAGE 2

#ifndef GS_VERSION
#define GS_VERSION "0.1.0"
#endif

/* Parses the options of subcommand `command`; one file must remain (into
 * *files), or with `several` at least one. Prints the problem and returns
 * false otherwise. */
bool gs_cli_parse(const char *command, int argc, char **argv,
		  const char *what, const char *summary,
		  GOptionEntry *entries, char ***files, bool several);
/* The --timeline option's word into *out (NULL: the default, pftrace).
 * Prints the problem and returns false for an unknown word. */
bool gs_cli_timeline_format(const char *word, enum gs_timeline_format *out);
/* Appends --policy-module FILE (NULL: nothing) to the --set overrides
 * *sets as `policy={module: PATH}`, a relative path made absolute. */
bool gs_cli_add_module_override(const char *module, char ***sets);
/* Ends the --help of subcommand `command` with its examples. */
void gs_cli_help(GOptionContext *ctx, const char *command);

int gs_cmd_run(int argc, char **argv);
int gs_cmd_validate(int argc, char **argv);
int gs_cmd_list(int argc, char **argv);
int gs_cmd_bench(int argc, char **argv);
int gs_cmd_reproduce(int argc, char **argv);
int gs_cmd_sweep(int argc, char **argv);
int gs_cmd_generate(int argc, char **argv);
int gs_cmd_replay(int argc, char **argv);

/* `gpusim run --record-hal FILE` (cli_record_hal.c): one scenario only
 * (else a message, false); the record written atomically (false and a
 * message when it cannot be). */
struct gs_hal_record;
struct gs_scenario;
bool gs_cli_record_hal_single(const char *record_file, char **files);
bool gs_cli_write_hal_record(const struct gs_hal_record *rec,
			     const struct gs_scenario *sc, const char *path);
int gs_cmd_new_policy(int argc, char **argv);
int gs_cmd_compare(int argc, char **argv);
int gs_cmd_import(int argc, char **argv);
/* The importers' formats, one "  WORD  summary" line each (cli_import.c). */
char *gs_cli_import_formats(void);

#endif
