/* The replay HAL's side of the opaque handles of hal.h, shared by
 * replay_hal.c (the HAL services) and replay_run.c (the op driver). */
#ifndef GS_REPLAY_PRIV_H
#define GS_REPLAY_PRIV_H

#include "../policy.h"
#include "hal_record.h"
#include "replay.h"

struct hal_task {
	struct hal_sched *s;
	hal_u32 ref;       /* t<ref> in the record */
	void *data;        /* the policy's */
	char *name;        /* from the record's hal_task_name answer */
};

struct hal_chan {
	struct hal_sched *s;
	hal_u32 ref;       /* c<ref> */
	struct hal_task *task;
	void *data;
};

#define REPLAY_LINE 512
/* Ops an op's HAL call may set off, nested: the record could nest them
 * without end, a kernel stack cannot (and kernel code must not recurse
 * without a bound). */
#define REPLAY_MAX_DEPTH 4

/* A block the policy allocated (hal_zalloc), before the bytes it gets:
 * the instance keeps them on a list, so that a replay stopped at a
 * difference frees what the policy would have freed later, and a
 * finished one can tell what the policy never freed. 16 bytes keep the
 * policy's bytes as aligned as the environment's. */
struct replay_block {
	struct replay_block *next, *prev;
	hal_u64 pad[2];
};

struct hal_sched {
	const struct gs_replay_env *env;
	struct replay_block blocks; /* the policy's, a ring with this head */
	hal_u64 n_blocks;
	const struct gs_policy_ops *ops;
	struct gs_replay_result *res;
	void *priv;
	/* the rest of the instance's section, and the line number of the
	 * last line read */
	const char *pos, *end;
	hal_u64 line;
	/* the op in progress (innermost) and its time */
	const char *op;
	hal_u64 now;
	hal_u32 depth;
	int failed;
	struct hal_task **tasks; /* by ref, n_tasks + 1 slots */
	struct hal_chan **chans;
	hal_u32 n_tasks, n_chans;
	/* the instance line's params= string, when the environment parsed
	 * it: what each parameter must be */
	int has_params;
	hal_u64 params[GS_MAX_PARAMS];
	char *params_text;
	char text[REPLAY_LINE];  /* the policy's call, as the record writes it */
	char have[REPLAY_LINE];  /* the record's line, for a message */
	struct hrec_out out;
};

/* The replay's own memory (handles, tables, names): not the policy's. */
void *replay_zalloc(struct hal_sched *s, hal_u64 size);
void replay_free(struct hal_sched *s, void *p);
/* Frees the blocks the policy still holds; how many there were. */
hal_u64 replay_free_blocks(struct hal_sched *s);

/* replay_run.c: the next line of the section, without '#' comments and
 * blank lines (0 at its end); peeking leaves it unread. */
int replay_next_line(struct hal_sched *s, struct hrec_in *line, int peek);
/* Runs the op of the line that starts with "op " (already peeked). */
void replay_op(struct hal_sched *s);
/* Stops the replay: message parts joined ("a", "b", ...), 0-terminated
 * list of strings, with the op and time in front. */
void replay_fail(struct hal_sched *s, const char *const *parts);

#endif
