/* A scheduler's kill of a task inside a VM it sees as a VM (Fleig 6.1).
 * A scheduler kills its own tasks directly; a task in a VM below it is a
 * thread of that VM's process, which it cannot kill alone: "As a last
 * resort, the hypervisor can kill the whole virtual machine that contains
 * the malicious task" (the VM's `on_kill: vm`, the default), or it informs
 * the VM, which kills the task itself (`on_kill: notify`, the "less severe
 * solution" the thesis proposes; gpusim's guest always cooperates). The VM
 * in question is the one the scheduler sees: the child of its own level
 * that holds the task (for the host, the top-level VM). */
#include "sim/host/sim_internal.h"

/* The VM directly below level `level` (-1: the host) that holds `vm`;
 * -1 if vm is the level itself. */
static int32_t vm_below(const struct gs_scenario *sc, int32_t level,
			int32_t vm)
{
	if (vm == level)
		return -1;
	while (vm >= 0 && sc->vms[vm].parent != level)
		vm = sc->vms[vm].parent;
	return vm;
}

static bool vm_holds(const struct gs_scenario *sc, int32_t outer, int32_t vm)
{
	while (vm >= 0 && vm != outer)
		vm = sc->vms[vm].parent;
	return vm == outer;
}

static void kill_event(void *ctx, struct gs_event *ev)
{
	(void)ev;
	gs_task_kill(ctx);
}

static void kill_later(struct gs_sim *sim, struct gs_task *t)
{
	/* Deferred to an event of its own: killing tears down channels and
	 * calls back into the policy, which is in the middle of a call now. */
	if (t->state == GS_TASK_DONE || t->state == GS_TASK_KILLED ||
	    (t->kill_ev && gs_event_queued(t->kill_ev)))
		return;
	/* made on the first request: few tasks are ever killed, and the
	 * event would cost every task 40 bytes */
	if (!t->kill_ev) {
		t->kill_ev = g_new(struct gs_event, 1);
		gs_event_init(t->kill_ev, GS_EVC_POLICY, kill_event, t);
	}
	gs_evq_schedule(&sim->q, t->kill_ev, sim->q.now);
}

void gs_vm_kill_task(struct hal_sched *s, struct gs_task *task,
		     const char *why)
{
	struct gs_sim *sim = s->sim;
	const struct gs_scenario *sc = sim->sc;
	int32_t vm = vm_below(sc, s->vm, task->cfg->vm);
	uint32_t i;

	if (vm < 0 || (sc->vms[vm].kill_notify && sc->vms[vm].hints)) {
		if (vm >= 0)
			g_message("%s: vm %s notified: task %s: %s",
				  s->ops->name, sc->vms[vm].name, task->name,
				  why);
		g_message("%s: task %s killed: %s", s->ops->name, task->name,
			  why);
		kill_later(sim, task);
		return;
	}
	g_message("%s: vm %s killed (its task %s: %s)", s->ops->name,
		  sc->vms[vm].name, task->name, why);
	for (i = 0; i < sim->n_tasks; i++)
		if (vm_holds(sc, vm, sim->tasks[i].cfg->vm))
			kill_later(sim, &sim->tasks[i]);
}
