/* The replay HAL's memory: the environment's (struct gs_replay_env),
 * with the policy's blocks kept on a list per instance (replay_priv.h,
 * struct replay_block). A file of its own so that the driver
 * (replay_run.c), which frees an instance's memory, and the HAL services
 * (replay_hal.c), which run its nested ops, do not call each other in a
 * cycle. */
#include "replay_priv.h"

void *replay_zalloc(struct hal_sched *s, hal_u64 size)
{
	return s->env->zalloc(s->env->ctx, size);
}

void replay_free(struct hal_sched *s, void *p)
{
	if (p)
		s->env->free(s->env->ctx, p);
}

void *hal_zalloc(struct hal_sched *s, hal_u64 size)
{
	struct replay_block *b = replay_zalloc(s, sizeof(*b) + size);

	if (!b)
		return 0;
	if (!s->blocks.next)
		s->blocks.next = s->blocks.prev = &s->blocks;
	b->next = s->blocks.next;
	b->prev = &s->blocks;
	s->blocks.next->prev = b;
	s->blocks.next = b;
	s->n_blocks++;
	return b + 1;
}

void hal_free(struct hal_sched *s, void *p)
{
	struct replay_block *b;

	if (!p)
		return;
	b = (struct replay_block *)p - 1;
	b->prev->next = b->next;
	b->next->prev = b->prev;
	s->n_blocks--;
	replay_free(s, b);
}

hal_u64 replay_free_blocks(struct hal_sched *s)
{
	hal_u64 n = s->n_blocks;

	while (s->blocks.next && s->blocks.next != &s->blocks)
		hal_free(s, s->blocks.next + 1);
	return n;
}
