/* Discrete-event engine: simulated time, intrusive events, a 4-ary heap.
 *
 * Events are totally ordered by (time, class, seq). seq is a per-queue
 * counter taken when an event is (re)scheduled, so ties between events of
 * the same time and class resolve in scheduling order and never by address.
 * Events are embedded in the objects that own them (an engine's completion,
 * a task's next step); the heap stores pointers and each event remembers its
 * heap slot, which makes cancel and reschedule O(log n).
 */
#ifndef GS_EVENT_H
#define GS_EVENT_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t gs_time_t; /* nanoseconds of simulated time */

#define GS_TIME_NEVER UINT64_MAX
#define GS_NS_PER_US 1000ULL
#define GS_NS_PER_MS 1000000ULL
#define GS_NS_PER_S 1000000000ULL

/* Order of events that fall on the same nanosecond: hardware state changes
 * first, then the dispatcher reacting to them, then host-side activity. */
enum gs_event_class {
	GS_EVC_GPU = 0,      /* engine completions, context switches, slices */
	GS_EVC_DISPATCH = 1, /* the GPU's command fetcher */
	GS_EVC_POLICY = 2,   /* policy timers and kernel threads */
	GS_EVC_TASK = 3,     /* user processes */
	GS_EVC_SAMPLE = 4,   /* result sampling (series.csv) */
	GS_EVC_STOP = 5,     /* end of the simulated duration */
};

struct gs_event;
typedef void (*gs_event_fn)(void *ctx, struct gs_event *ev);

#define GS_EVENT_NOT_QUEUED UINT32_MAX

struct gs_event {
	gs_time_t time;
	uint64_t seq;
	uint32_t heap_index; /* GS_EVENT_NOT_QUEUED when not in a queue */
	uint16_t cls;
	gs_event_fn fn;
	void *ctx;
};

/* A heap slot carries its event's time, so that sifting compares times
 * in the heap array and follows the pointer to the event only on a tie
 * (for class and seq). Four slots of 16 bytes, a node's children, fill
 * one cache line. */
struct gs_evq_slot {
	gs_time_t time;
	struct gs_event *ev;
};

struct gs_evq {
	struct gs_evq_slot *heap;
	uint32_t len;
	uint32_t cap;
	uint64_t next_seq;
	gs_time_t now;
	uint64_t dispatched; /* events run by gs_evq_step so far */
};

void gs_event_init(struct gs_event *ev, enum gs_event_class cls,
		   gs_event_fn fn, void *ctx);
static inline bool gs_event_queued(const struct gs_event *ev)
{
	return ev->heap_index != GS_EVENT_NOT_QUEUED;
}

void gs_evq_init(struct gs_evq *q);
void gs_evq_destroy(struct gs_evq *q);
/* Queue ev at time t (>= now). A queued event is moved, and gets a new seq. */
void gs_evq_schedule(struct gs_evq *q, struct gs_event *ev, gs_time_t t);
/* Remove ev if queued; a no-op otherwise. */
void gs_evq_cancel(struct gs_evq *q, struct gs_event *ev);
/* Earliest event time, GS_TIME_NEVER when empty. */
gs_time_t gs_evq_peek_time(const struct gs_evq *q);
/* Remove the earliest event and advance now to its time; NULL when
 * empty. The caller runs ev->fn(ev->ctx, ev). */
struct gs_event *gs_evq_pop(struct gs_evq *q);
/* Run a popped event, counting it in dispatched. */
static inline void gs_evq_run(struct gs_evq *q, struct gs_event *ev)
{
	q->dispatched++;
	ev->fn(ev->ctx, ev);
}
/* Pop one event and run it; false when the queue is empty. */
bool gs_evq_step(struct gs_evq *q);

#endif
