/* gpusim replay FILE: a policy driven alone by a --record-hal record
 * (docs/hal-record.md), through the replay HAL of policies/replay/ that
 * a kernel test module builds too. The policies in this binary are
 * linked twice: with the simulator's HAL, and (the Makefile's
 * replay_bundle.o, whose only global name is gs_replay_run) with the
 * replay HAL. */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "policies/replay/replay.h"
#include "sim/host/record_hal.h"
#include "sim/cli/cli.h"

static void *env_zalloc(void *ctx, hal_u64 size)
{
	(void)ctx;
	return g_malloc0(size ? size : 1);
}

static void env_free(void *ctx, void *p)
{
	(void)ctx;
	g_free(p);
}

/* The kernel module's params= syntax, parsed in user space. */
static int env_parse_params(void *ctx, const struct gs_policy_ops *ops,
			    const char *text, hal_u64 *values)
{
	(void)ctx;
	return gs_hal_rec_params_parse(ops, text, values);
}

int gs_cmd_replay(int argc, char **argv)
{
	gboolean quiet = FALSE;
	GOptionEntry entries[] = {
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet,
		  "Print nothing when the replay matches", NULL },
		G_OPTION_ENTRY_NULL
	};
	const struct gs_replay_env env = { .zalloc = env_zalloc,
					   .free = env_free,
					   .parse_params = env_parse_params };
	g_autofree struct gs_replay_result *res =
		g_new0(struct gs_replay_result, 1);
	g_auto(GStrv) files = NULL;
	g_autoptr(GError) err = NULL;
	g_autofree char *buf = NULL;
	gsize len;

	if (!gs_cli_parse("replay", argc, argv,
			  "FILE - replay a policy from its HAL record",
			  "Drives the recorded policy instances alone, "
			  "answering their HAL queries\nfrom the record and "
			  "checking every call and op result against it.\n"
			  "Exit 0: identical; 1: the first difference "
			  "(printed); 2: an unreadable or\nmalformed record.",
			  entries, &files, false))
		return GS_EXIT_USAGE;
	if (!g_file_get_contents(files[0], &buf, &len, &err)) {
		fprintf(stderr, "gpusim: %s\n", err->message);
		return GS_EXIT_USAGE;
	}
	if (gs_replay_run(buf, len, &env, res) != 0) {
		fprintf(stderr, "%s:%" PRIu64 ":1: %s\n", files[0], res->line,
			res->message);
		return res->malformed ? GS_EXIT_USAGE : GS_EXIT_FAILURE;
	}
	if (!quiet)
		printf("%s: identical: %" PRIu64 " instance(s), %" PRIu64
		       " op calls, %" PRIu64 " HAL calls checked (%" PRIu64
		       " hal_param answers also against params=)\n",
		       files[0], res->instances, res->ops, res->calls,
		       res->params);
	return GS_EXIT_OK;
}
