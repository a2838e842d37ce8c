/* Replaying a HAL record (docs/hal-record.md): a policy driven alone by
 * the op calls of a record, its every HAL call checked against the
 * record's next line and its queries answered from it. The first call,
 * value or op result that differs stops the replay with a message that
 * names the op, the simulated time and both sides.
 *
 * Kernel-clean like the policies (no libc, no floating point): the same
 * files build into `gpusim replay` and into a kernel test module. The
 * environment gives the record as a buffer and memory through
 * struct gs_replay_env; nothing else is needed from it. */
#ifndef GS_REPLAY_H
#define GS_REPLAY_H

#include "../hal.h"

struct gs_policy_ops;

struct gs_replay_env {
	void *ctx;
	void *(*zalloc)(void *ctx, hal_u64 size); /* zeroed, or 0 */
	void (*free)(void *ctx, void *p);
	/* The environment's parser of an instance line's params= string
	 * (the kernel's params.c in the module): values[i] for
	 * ops->params[i]; 0, or nonzero when it refuses the string. Each
	 * hal_param answer of the record is then checked against it. 0:
	 * the string is not checked. */
	int (*parse_params)(void *ctx, const struct gs_policy_ops *ops,
			    const char *text, hal_u64 *values);
};

#define GS_REPLAY_MESSAGE 768

struct gs_replay_result {
	hal_u64 instances; /* policy instances replayed */
	hal_u64 ops;       /* op calls made into the policies */
	hal_u64 calls;     /* HAL calls checked against the record */
	hal_u64 params;    /* hal_param answers checked against params= */
	hal_u64 line;      /* record line of the first difference, 0: none */
	int malformed;     /* the record itself is at fault, not the policy */
	char message[GS_REPLAY_MESSAGE]; /* empty when all matched */
};

/* Replays every instance of the record in buf (len bytes, need not be
 * NUL-terminated). 0 when every call matched; -1 at the first difference
 * or malformed line (res->message says which). */
int gs_replay_run(const char *buf, hal_u64 len,
		  const struct gs_replay_env *env,
		  struct gs_replay_result *res);

#endif
