/* What every fuzz target asserts about one input's outcome: a scenario
 * that loads runs a short simulation with every invariant holding; one
 * that does not load has a non-empty error (a position or the --set at
 * fault). Either way, no crash, leak or hang. */
#ifndef GS_FUZZ_CHECK_H
#define GS_FUZZ_CHECK_H

#include <glib.h>

struct gs_scenario;

int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Takes ownership of sc (may be NULL) and of *err. */
void fuzz_check_outcome(struct gs_scenario *sc, GError **err);

#endif
