/* The simulation's own invariants (invariants.c). */
#ifndef GS_INVARIANTS_H
#define GS_INVARIANTS_H

struct gs_sim;

/* NULL when the model's invariants hold (time monotonic, rings
 * consistent, nothing published lost, engines busy no longer than elapsed
 * time, tasks' GPU time = engine time), else a description naming the
 * invariant, the time, GPU and channel/task, to g_free. */
char *gs_sim_check_invariants(const struct gs_sim *sim);

#endif
