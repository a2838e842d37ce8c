/* wrr: weighted round robin over held channels. The example policy of
 * docs/writing-a-policy.md, built outside the policies/ folder as a
 * module (`gpusim run --policy-module`) and into the kernel module
 * (`make kmod EXTRA_POLICIES=examples/policies/wrr.c`).
 *
 * Every doorbell is trapped. One task at a time holds the GPU for a turn
 * of weight x quantum; the others' submissions are held (the task blocks
 * at its doorbell write) until their turn. At the end of a turn the next
 * task in arrival order that is waiting gets the GPU, and the holder's
 * commands already on the GPU finish during the next one's turn. A task
 * that submits when the turn is over and nobody waits gets the GPU at
 * once, so an idle GPU is never kept from a task (work-conserving). With
 * saturating tasks each gets GPU time in proportion to its weight, less
 * what its last command of a turn overlaps with the next holder's.
 * Priorities are ignored. */
#include "hal.h"
#include "policy.h"

enum { WRR_QUANTUM, WRR_N_PARAMS };

static const struct gs_param_desc wrr_params[WRR_N_PARAMS] = {
	[WRR_QUANTUM] = { "quantum", GS_PARAM_DURATION, "10ms",
			  "length of a weight-1 task's turn", 0 },
};

#define WRR_TURN_TIMER 0

struct wrr_task {
	struct hal_task *t;
	struct wrr_task *next; /* arrival order */
	hal_u8 waiting;        /* held at a trapped doorbell write */
};

struct wrr {
	struct wrr_task *first, *last;
	struct wrr_task *holder; /* 0: nobody */
	hal_u64 turn_end;        /* the holder's turn ends here */
};

static struct wrr_task *task_of(const struct hal_task *t)
{
	return hal_task_data(t);
}

/* weight x quantum, saturating (no raw 64-bit division: hal_div64) */
static hal_u64 turn_length(struct hal_sched *s, const struct wrr_task *w)
{
	hal_u64 weight = hal_task_weight(w->t);
	hal_u64 quantum = hal_param(s, WRR_QUANTUM);

	if (quantum > hal_div64(~0ULL, weight))
		return ~0ULL;
	return quantum * weight;
}

static void start_turn(struct hal_sched *s, struct wrr_task *w)
{
	struct wrr *p = hal_priv(s);
	hal_u64 now = hal_now(s), len = turn_length(s, w);

	p->holder = w;
	p->turn_end = len > ~0ULL - now ? ~0ULL : now + len;
	hal_timer_arm(s, WRR_TURN_TIMER, p->turn_end);
	if (w->waiting) {
		w->waiting = 0;
		hal_task_release(s, w->t);
	}
}

/* The first waiting task after `from` in arrival order, wrapping round;
 * `from` itself last. 0 if none waits. */
static struct wrr_task *next_waiting(struct wrr *p, struct wrr_task *from)
{
	struct wrr_task *w = from ? from->next : p->first;
	struct wrr_task *stop = from;

	for (;;) {
		if (!w)
			w = p->first;
		if (!w)
			return 0;
		if (w->waiting)
			return w;
		if (w == stop || (!stop && w == p->last))
			return 0;
		w = w->next;
	}
}

/* The turn is over (or its holder left): the next waiting task gets the
 * GPU; with nobody waiting the holder keeps it until somebody submits. */
static void pass_turn(struct hal_sched *s)
{
	struct wrr *p = hal_priv(s);
	struct wrr_task *next = next_waiting(p, p->holder);

	if (next)
		start_turn(s, next);
}

static void wrr_task_create(struct hal_sched *s, struct hal_task *t)
{
	struct wrr *p = hal_priv(s);
	struct wrr_task *w = hal_zalloc(s, sizeof(*w));

	if (HAL_WARN_ON(s, !w))
		return;
	w->t = t;
	if (p->last)
		p->last->next = w;
	else
		p->first = w;
	p->last = w;
	hal_task_set_data(t, w);
}

static void wrr_task_exit(struct hal_sched *s, struct hal_task *t)
{
	struct wrr *p = hal_priv(s);
	struct wrr_task *w = task_of(t), **link, *prev = 0;

	if (!w)
		return;
	for (link = &p->first; *link && *link != w; link = &(*link)->next)
		prev = *link;
	if (*link)
		*link = w->next;
	if (p->last == w)
		p->last = prev;
	hal_task_set_data(t, 0);
	if (p->holder == w) {
		p->holder = 0;
		hal_timer_cancel(s, WRR_TURN_TIMER);
		pass_turn(s);
	}
	hal_free(s, w);
}

static void wrr_channel_create(struct hal_sched *s, struct hal_chan *c)
{
	hal_trap_arm(s, c);
}

static int wrr_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct wrr *p = hal_priv(s);
	struct wrr_task *w = task_of(hal_chan_task(c));

	if (HAL_WARN_ON(s, !w))
		return GS_SUBMIT_ALLOW;
	if (p->holder == w)
		return GS_SUBMIT_ALLOW;
	if (!p->holder || hal_now(s) >= p->turn_end) {
		/* nobody's turn: take the GPU now */
		start_turn(s, w);
		return GS_SUBMIT_ALLOW;
	}
	w->waiting = 1;
	return GS_SUBMIT_HOLD;
}

static void wrr_timer(struct hal_sched *s, hal_u32 id)
{
	if (id == WRR_TURN_TIMER)
		pass_turn(s);
}

static void wrr_fini(struct hal_sched *s)
{
	struct wrr *p = hal_priv(s);

	while (p->first) {
		struct wrr_task *w = p->first;

		p->first = w->next;
		hal_free(s, w);
	}
	p->last = 0;
	p->holder = 0;
}

const struct gs_policy_ops gs_policy_wrr = {
	.abi = GS_POLICY_ABI,
	.name = "wrr",
	.summary = "weighted round robin: turns of weight x quantum, the "
		   "others held at their doorbells",
	.priority = "ignored",
	.params = wrr_params,
	.n_params = WRR_N_PARAMS,
	.priv_size = sizeof(struct wrr),
	.fini = wrr_fini,
	.task_create = wrr_task_create,
	.task_exit = wrr_task_exit,
	.channel_create = wrr_channel_create,
	.submit = wrr_submit,
	.timer = wrr_timer,
};
