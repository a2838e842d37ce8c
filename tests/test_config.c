/* The scenario loader: every bad input gets a positioned, specific error;
 * every good one compiles to the expected program. */
#include <glib.h>
#include <glib/gstdio.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gpu_model/gpu.h"
#include "policies/policy.h"
#include "workloads/apps.h"
#include "workloads/config_load.h"

#define US GS_NS_PER_US
#define MS GS_NS_PER_MS

/* A minimal valid scenario; cases below change one thing. */
#define HEAD "duration: 1s\n"
#define THROTTLE_TASK                                                   \
	"tasks:\n"                                                      \
	"  - name: a\n"                                                 \
	"    behavior:\n"                                               \
	"      throttle: {kernel: 100us}\n"

static struct gs_scenario *load(const char *yaml, const char *const *sets,
				size_t n_sets, GError **err)
{
	return gs_scenario_load_data("bad.yaml", yaml, strlen(yaml), sets,
				     n_sets, err);
}

static struct gs_scenario *load_ok(const char *yaml, const char *const *sets,
				   size_t n_sets)
{
	g_autoptr(GError) err = NULL;
	struct gs_scenario *sc = load(yaml, sets, n_sets, &err);

	if (!sc)
		fail_msg("unexpected error: %s", err->message);
	return sc;
}

/* --- bad configs --- */

struct bad_case {
	const char *desc;
	const char *yaml;
	const char *set[2];  /* --set overrides, NULL-terminated */
	const char *prefix;  /* exact start of the message */
	const char *phrase;  /* must appear in the message */
};

static const struct bad_case bad_cases[] = {
	{ "unknown key with did-you-mean, at the key's position",
	  HEAD "tasks:\n  - name: a\n    behavior:\n"
	  "      throttle: {kernal: 100us}\n",
	  { NULL }, "bad.yaml:5:18: ",
	  "unknown key 'kernal' in throttle; did you mean 'kernel'?" },
	{ "unknown top-level key, case-insensitive match",
	  HEAD "Tasks: []\n", { NULL }, "bad.yaml:2:1: ",
	  "did you mean 'tasks'?" },
	{ "unknown key with nothing close lists the allowed keys",
	  HEAD "output: {colour: red}\n" THROTTLE_TASK, { NULL },
	  "bad.yaml:2:10: ",
	  "unknown key 'colour' in output (allowed: series_interval, timeline, timeline_max_spans)" },
	{ "bad duration text",
	  "duration: abc\n" THROTTLE_TASK, { NULL }, "bad.yaml:1:11: ",
	  "expected a duration such as 25us, got 'abc'" },
	{ "negative kernel length",
	  HEAD "tasks:\n  - name: a\n    behavior:\n"
	  "      throttle: {kernel: -5us}\n",
	  { NULL }, "bad.yaml:5:26: ", "durations cannot be negative" },
	{ "duration more precise than a nanosecond",
	  "duration: 1.5ns\n" THROTTLE_TASK, { NULL }, "bad.yaml:1:11: ",
	  "not a whole number of nanoseconds" },
	{ "unknown duration unit",
	  "duration: 5min\n" THROTTLE_TASK, { NULL }, "bad.yaml:1:11: ",
	  "unknown unit" },
	{ "missing duration is reported at the top mapping",
	  THROTTLE_TASK, { NULL }, "bad.yaml:1:1: ",
	  "missing required key 'duration'" },
	{ "zero duration", "duration: 0\n" THROTTLE_TASK, { NULL },
	  "bad.yaml:1:11: ", "duration must be above 0" },
	{ "duration over one day", "duration: 100000s\n" THROTTLE_TASK,
	  { NULL }, "bad.yaml:1:11: ", "too large" },
	{ "missing tasks", HEAD, { NULL }, "bad.yaml:1:1: ",
	  "missing required key 'tasks'" },
	{ "empty tasks", HEAD "tasks: []\n", { NULL }, "bad.yaml:2:8: ",
	  "tasks is empty" },
	{ "unknown policy with did-you-mean",
	  HEAD "policy: {name: drect}\n" THROTTLE_TASK, { NULL },
	  "bad.yaml:2:16: ", "unknown policy 'drect'; did you mean 'direct'?" },
	{ "unknown policy lists the policies",
	  HEAD "policy: quantum\n" THROTTLE_TASK, { NULL }, "bad.yaml:2:9: ",
	  "unknown policy 'quantum' (policies: direct" },
	{ "parameter the policy does not have",
	  HEAD "policy: {name: direct, params: {slice: 1ms}}\n" THROTTLE_TASK,
	  { NULL }, "bad.yaml:2:33: ",
	  "unknown key 'slice' in params of policy direct (it takes no keys)" },
	{ "unknown app with close names",
	  HEAD "tasks:\n  - name: a\n    behavior: {app: DTC}\n", { NULL },
	  "bad.yaml:4:21: ", "unknown app 'DTC'; did you mean 'DCT'?" },
	{ "unknown app lists the library",
	  HEAD "tasks:\n  - name: a\n    behavior: {app: zzzzzz}\n", { NULL },
	  "bad.yaml:4:21: ", "(apps: BinarySearch, BitonicSort" },
	{ "app with a different channel count",
	  HEAD "tasks:\n  - name: a\n    channels: 1\n"
	  "    behavior: {app: oclParticles}\n", { NULL }, "bad.yaml:4:15: ",
	  "app oclParticles uses 2 channels" },
	{ "unknown vm",
	  HEAD "vms: [{name: vm1}]\n"
	  "tasks:\n  - name: a\n    vm: vm2\n"
	  "    behavior: {throttle: {kernel: 1ms}}\n", { NULL },
	  "bad.yaml:5:9: ", "unknown vm 'vm2'; did you mean 'vm1'?" },
	{ "vm without any vms defined",
	  HEAD "tasks:\n  - name: a\n    vm: vm1\n"
	  "    behavior: {throttle: {kernel: 1ms}}\n", { NULL },
	  "bad.yaml:4:9: ", "the scenario defines no vms" },
	{ "vm hints misspelt",
	  HEAD "vms: [{name: v, hint: false}]\n" THROTTLE_TASK, { NULL },
	  "bad.yaml:2:17: ", "did you mean 'hints'?" },
	{ "vm hints not a boolean",
	  HEAD "vms: [{name: v, hints: 3}]\n" THROTTLE_TASK, { NULL },
	  "bad.yaml:2:24: ", "true or false" },
	{ "vm scheduler unknown, with did-you-mean",
	  HEAD "vms: [{name: v, scheduler: {name: timeslise}}]\n" THROTTLE_TASK,
	  { NULL }, "bad.yaml:2:35: ",
	  "unknown policy 'timeslise'; did you mean 'timeslice'?" },
	{ "vm scheduler parameter unknown",
	  HEAD "vms: [{name: v, scheduler: {name: dfq, params: {smaple: 1ms}}}]\n"
	  THROTTLE_TASK, { NULL }, "bad.yaml:2:49: ", "did you mean 'sample'?" },
	{ "node-level policy as a vm scheduler",
	  HEAD "vms: [{name: v, scheduler: dcuda}]\n" THROTTLE_TASK,
	  { NULL }, "bad.yaml:2:28: ",
	  "vm v: policy dcuda places tasks on the node's GPUs and cannot run as a VM's scheduler" },
	{ "duplicate vm name",
	  HEAD "vms:\n  - name: v\n    vms: [{name: v}]\n" THROTTLE_TASK,
	  { NULL }, "bad.yaml:4:18: ", "duplicate vm name 'v' (first defined at line 3)" },
	{ "gpu index out of range",
	  HEAD "tasks:\n  - name: a\n    gpu: 1\n"
	  "    behavior: {throttle: {kernel: 1ms}}\n", { NULL },
	  "bad.yaml:4:10: ", "gpu 1 is out of range: the node has 1 GPU (0..0)" },
	{ "both gpu and node",
	  HEAD "gpu: {preset: kepler}\nnode: {gpus: 2}\n" THROTTLE_TASK,
	  { NULL }, "bad.yaml:3:1: ", "either 'gpu' (one GPU) or 'node'" },
	{ "node without gpus",
	  HEAD "node: {gpu: {preset: volta}}\n" THROTTLE_TASK, { NULL },
	  "bad.yaml:2:7: ", "missing required key 'gpus'" },
	{ "unknown GPU preset",
	  HEAD "gpu: {preset: keplr}\n" THROTTLE_TASK, { NULL },
	  "bad.yaml:2:15: ", "unknown GPU preset 'keplr'; did you mean 'kepler'?" },
	{ "ring_entries out of range",
	  HEAD "gpu: {ring_entries: 1}\n" THROTTLE_TASK, { NULL },
	  "bad.yaml:2:21: ", "ring_entries must be between 2 and 1048576, got 1" },
	/* Memory bounds: configs a fuzzer would find that load fine and then
	 * ask for gigabytes at once or as the rings fill. */
	{ "channel slots of a node over the bound",
	  HEAD "node: {gpus: 64, gpu: {max_channels: 32768}}\n" THROTTLE_TASK,
	  { NULL }, "bad.yaml:2:14: ",
	  "64 GPUs of 32768 channels are more than 1048576 channel slots" },
	{ "channels of all tasks over the bound",
	  HEAD "gpu: {max_channels: 1048576, ring_entries: 2}\ntasks:\n"
	  "  - {name: a, count: 5000, channels: 100, behavior: {throttle: {kernel: 1ms}}}\n"
	  "  - {name: b, count: 5000, channels: 200, behavior: {throttle: {kernel: 1ms}}}\n",
	  { NULL }, "bad.yaml:5:5: ", "more than 1048576 channels in all" },
	{ "ring slots the channels could fill over the bound",
	  HEAD "gpu: {ring_entries: 1048576}\ntasks:\n"
	  "  - {name: a, count: 64, behavior: {throttle: {kernel: 1ms}}}\n"
	  "  - {name: b, count: 64, behavior: {throttle: {kernel: 1ms}}}\n",
	  { NULL }, "bad.yaml:5:5: ",
	  "128 channels of 1048576 ring entries could queue more than 67108864 commands" },
	{ "ring bound counts only the channels the GPU can open",
	  HEAD "gpu: {ring_entries: 65536, max_channels: 1025}\ntasks:\n"
	  "  - {name: a, count: 2000, behavior: {throttle: {kernel: 1ms}}}\n",
	  { NULL }, "bad.yaml:4:5: ", "1025 channels of 65536 ring entries" },
	{ "timeline_max_spans over the bound",
	  HEAD "output: {timeline_max_spans: 1000000000}\n" THROTTLE_TASK,
	  { NULL }, "bad.yaml:2:30: ",
	  "timeline_max_spans must be between 0 and 100000000" },
	{ "sched value misspelt",
	  HEAD "gpu: {sched: timeslise}\n" THROTTLE_TASK, { NULL },
	  "bad.yaml:2:14: ", "did you mean 'timeslice'?" },
	{ "duplicate task name",
	  HEAD "tasks:\n  - {name: a, behavior: {throttle: {kernel: 1ms}}}\n"
	  "  - {name: a, behavior: {throttle: {kernel: 2ms}}}\n", { NULL },
	  "bad.yaml:4:12: ",
	  "duplicate task name 'a' (first defined at line 3)" },
	{ "task name with a space",
	  HEAD "tasks:\n  - name: my task\n"
	  "    behavior: {throttle: {kernel: 1ms}}\n", { NULL },
	  "bad.yaml:3:11: ", "may only contain letters" },
	{ "task count zero", HEAD "tasks:\n  - name: a\n    count: 0\n"
	  "    behavior: {throttle: {kernel: 1ms}}\n", { NULL },
	  "bad.yaml:4:12: ", "count must be between 1 and 10000, got 0" },
	{ "count is not an integer", HEAD "tasks:\n  - name: a\n    count: many\n"
	  "    behavior: {throttle: {kernel: 1ms}}\n", { NULL },
	  "bad.yaml:4:12: ", "count: expected an integer, got 'many'" },
	{ "boolean misspelt",
	  HEAD "tasks:\n  - name: a\n    behavior:\n"
	  "      throttle: {kernel: 1ms, blocking: maybe}\n", { NULL },
	  "bad.yaml:5:41: ", "blocking: expected true or false, got 'maybe'" },
	{ "missing behavior is reported at the task",
	  HEAD "tasks:\n  - name: a\n", { NULL }, "bad.yaml:3:5: ",
	  "task a: missing required key 'behavior'" },
	{ "two behaviours in one task",
	  HEAD "tasks:\n  - name: a\n    behavior:\n"
	  "      throttle: {kernel: 1ms}\n      app: DCT\n", { NULL },
	  "bad.yaml:6:7: ", "has both 'throttle' and 'app'" },
	{ "duplicate mapping key",
	  HEAD "seed: 1\nseed: 2\n" THROTTLE_TASK, { NULL }, "bad.yaml:3:1: ",
	  "duplicate key 'seed' in the scenario (first at line 2)" },
	{ "bad --set path",
	  HEAD THROTTLE_TASK, { "tasks.7.name=x", NULL }, "--set tasks.7.name=x: ",
	  "tasks has no element 7" },
	{ "--set through a list without an index",
	  HEAD THROTTLE_TASK, { "tasks.name=x", NULL }, "--set tasks.name=x: ",
	  "tasks is a list; use an index such as tasks.0" },
	{ "--set without '='", HEAD THROTTLE_TASK, { "seed", NULL },
	  "--set seed: ", "expected key.path=value" },
	{ "bad value through --set",
	  HEAD THROTTLE_TASK, { "tasks.0.behavior.throttle.kernel=abc", NULL },
	  "--set tasks.0.behavior.throttle.kernel=abc: ",
	  "kernel: expected a duration such as 25us, got 'abc'" },
	{ "unknown key added through --set",
	  HEAD THROTTLE_TASK, { "tasks.0.behavior.throttle.slep=1ms", NULL },
	  "--set tasks.0.behavior.throttle.slep=1ms: ",
	  "did you mean 'sleep'?" },
	{ "syntax error from libyaml",
	  HEAD "tasks:\n  - name: a\n    behavior\n    x: 1\n", { NULL },
	  "bad.yaml:", "could not find expected ':'" },
	{ "tab indentation",
	  HEAD "tasks:\n\t- name: a\n", { NULL }, "bad.yaml:3:1: ",
	  "YAML is indented with spaces only" },
	{ "alias is refused with its position",
	  HEAD "k: &k 100us\ntasks:\n  - name: a\n"
	  "    behavior: {throttle: {kernel: *k}}\n", { NULL },
	  "bad.yaml:5:35: ", "aliases (*k) are not supported" },
	{ "billion laughs is refused before expansion",
	  "a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n", { NULL },
	  "bad.yaml:2:8: ", "aliases" },
	{ "nesting too deep",
	  HEAD "x: " "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
	  "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n",
	  { NULL }, "bad.yaml:2:", "nesting deeper than 64 levels" },
	{ "two YAML documents", HEAD THROTTLE_TASK "---\n" HEAD, { NULL },
	  "bad.yaml:6:1: ", "only one YAML document" },
	{ "empty file", "", { NULL }, "bad.yaml:1:1: ", "the file is empty" },
	{ "top level is a list", "- a\n- b\n", { NULL }, "bad.yaml:1:1: ",
	  "a scenario must be a mapping" },
	{ "script channel out of range",
	  HEAD "tasks:\n  - name: a\n    channels: 2\n    behavior:\n"
	  "      script:\n        - launch: {kernel: 1ms, channel: 2}\n",
	  { NULL }, "bad.yaml:7:42: ",
	  "channel 2 is out of range: task a has 2 channels (0..1)" },
	{ "unknown script step with did-you-mean",
	  HEAD "tasks:\n  - name: a\n    behavior:\n"
	  "      script: [lanch]\n", { NULL }, "bad.yaml:5:16: ",
	  "unknown script step 'lanch'; did you mean 'launch'?" },
	{ "endless repeat that never lets time pass",
	  HEAD "tasks:\n  - name: a\n    behavior:\n"
	  "      script: [{repeat: {count: forever, steps: [round]}}]\n",
	  { NULL }, "bad.yaml:5:25: ", "never lets time pass" },
	{ "repeat nested too deep",
	  HEAD "tasks:\n  - name: a\n    behavior:\n      script:\n"
	  "        - repeat: {count: 2, steps: [{repeat: {count: 2, steps: ["
	  "{repeat: {count: 2, steps: [{repeat: {count: 2, steps: ["
	  "{repeat: {count: 2, steps: [{repeat: {count: 2, steps: ["
	  "{repeat: {count: 2, steps: [{repeat: {count: 2, steps: ["
	  "{repeat: {count: 2, steps: [cpu: 1us]}}"
	  "]}}]}}]}}]}}]}}]}}]}}]}\n", { NULL }, "bad.yaml:6:",
	  "repeat is nested more than 8 deep" },
	{ "interrupt wait on commands that raise no interrupt",
	  HEAD "tasks:\n  - name: a\n    behavior:\n"
	  "      script: [{launch: 1ms}, {wait: interrupt}]\n", { NULL },
	  "bad.yaml:5:15: ", "without 'irq: true'" },
	{ "uniform bounds reversed",
	  HEAD "tasks:\n  - name: a\n    behavior:\n"
	  "      throttle: {kernel: {uniform: [2ms, 1ms]}}\n", { NULL },
	  "bad.yaml:5:36: ", "low bound is above its high bound" },
	{ "distribution with two kinds",
	  HEAD "tasks:\n  - name: a\n    behavior:\n"
	  "      throttle: {kernel: {exponential: 1ms, uniform: [1us, 2us]}}\n",
	  { NULL }, "bad.yaml:5:26: ", "exactly one of uniform" },
	{ "timeslice scheduling with a zero slice",
	  HEAD "gpu: {sched: timeslice, timeslice: 0}\n" THROTTLE_TASK, { NULL },
	  "bad.yaml:2:14: ", "timeslice needs a timeslice above 0" },
	{ "missing trace file",
	  HEAD "tasks:\n  - name: a\n    behavior:\n"
	  "      trace: {file: /nonexistent/t.csv}\n", { NULL },
	  "bad.yaml:5:21: ", "cannot read trace file /nonexistent/t.csv" },
	{ "watts that are not a number",
	  HEAD "gpu: {idle_watts: lots}\n" THROTTLE_TASK, { NULL },
	  "bad.yaml:2:19: ", "expected a number of watts" },
	{ "unknown policy parameter, with did-you-mean",
	  HEAD "policy: {name: timeslice, params: {slcie: 10ms}}\n"
	  THROTTLE_TASK, { NULL }, "bad.yaml:2:36: ",
	  "unknown key 'slcie' in params of policy timeslice; did you mean 'slice'?" },
	{ "boolean policy parameter that is not a boolean",
	  HEAD "policy: {name: timeslice, params: {engaged: maybe}}\n"
	  THROTTLE_TASK, { NULL }, "bad.yaml:2:45: ",
	  "engaged: expected true or false, got 'maybe'" },
	{ "duration policy parameter that is not a duration",
	  HEAD "policy: {name: dfq, params: {sample: lots}}\n"
	  THROTTLE_TASK, { NULL }, "bad.yaml:2:38: ",
	  "expected a duration such as 25us, got 'lots'" },
	{ "policy parameter over the policy's bound",
	  HEAD "policy: {name: drr, params: {avg_shift: 64}}\n" THROTTLE_TASK,
	  { NULL }, "bad.yaml:2:41: ",
	  "avg_shift must be between 0 and 16, got 64" },
	{ "policy parameter over its bound, through --set",
	  HEAD "policy: {name: dfq}\n" THROTTLE_TASK,
	  { "policy.params.sample_requests=4294967296", NULL },
	  "--set policy.params.sample_requests=4294967296: ",
	  "sample_requests must be between 0 and 1000000, got 4294967296" },
	{ "integer policy parameter that is not an integer",
	  HEAD "policy: {name: dfq, params: {sample_requests: 9.5}}\n"
	  THROTTLE_TASK, { NULL }, "bad.yaml:2:47: ", "expected" },
	{ "ill-typed policy parameter through --set",
	  HEAD "policy: {name: timeslice}\n" THROTTLE_TASK,
	  { "policy.params.slice=soon", NULL }, "--set policy.params.slice=soon: ",
	  "expected a duration" },
	{ "throttle class out of range",
	  HEAD "tasks:\n  - name: a\n    behavior:\n"
	  "      throttle: {kernel: 1ms, class: 8}\n", { NULL },
	  "bad.yaml:5:38: ", "class must be between 0 and 7, got 8" },
	{ "script launch class that is not an integer",
	  HEAD "tasks:\n  - name: a\n    behavior:\n"
	  "      script: [{launch: {kernel: 1ms, class: texture}}]\n", { NULL },
	  "bad.yaml:5:46: ", "class: expected an integer, got 'texture'" },
	{ "expect entry without a pass range",
	  HEAD THROTTLE_TASK "expect:\n  - {id: R9, quantity: q,"
	  " value: tasks.a.slowdown}\n", { NULL },
	  "bad.yaml:", "give 'min', 'max' or both" },
	{ "expect value naming an unknown field",
	  HEAD THROTTLE_TASK "expect:\n  - {id: R9, quantity: q,"
	  " value: metrics.fairness, max: 1}\n", { NULL },
	  "bad.yaml:", "value: expected tasks.NAME.FIELD" },
	{ "expect set entry without '='",
	  HEAD THROTTLE_TASK "expect:\n  - {id: R9, quantity: q, max: 1,"
	  " value: tasks.a.slowdown, set: [duration]}\n", { NULL },
	  "bad.yaml:", "set: expected KEY.PATH=VALUE" },
	{ "name '..' would leave the output folder",
	  "name: ..\n" HEAD THROTTLE_TASK, { NULL }, "bad.yaml:1:7: ",
	  "name '..' starts with '.', so it cannot name a results folder" },
	{ "name '.' is the output folder itself",
	  "name: .\n" HEAD THROTTLE_TASK, { NULL }, "bad.yaml:1:7: ",
	  "name '.' starts with '.'" },
	{ "a hidden name",
	  "name: .x\n" HEAD THROTTLE_TASK, { NULL }, "bad.yaml:1:7: ",
	  "name '.x' starts with '.'" },
	{ "an empty name",
	  "name: ''\n" HEAD THROTTLE_TASK, { NULL }, "bad.yaml:1:7: ",
	  "name '' is empty" },
	{ "name '..' through --set",
	  HEAD THROTTLE_TASK, { "name=..", NULL }, "--set name=..: ",
	  "name '..' starts with '.'" },
	{ "name with '/' through --set",
	  HEAD THROTTLE_TASK, { "name=../x", NULL }, "--set name=../x: ",
	  "may only contain letters" },
	{ "seed above what summary.json can record",
	  "seed: 9223372036854775808\n" HEAD THROTTLE_TASK, { NULL },
	  "bad.yaml:1:7: ",
	  "seed must be between 0 and 9223372036854775807, got 9223372036854775808" },
	{ "seed 2^64 is too large, not saturated",
	  "seed: 18446744073709551616\n" HEAD THROTTLE_TASK, { NULL },
	  "bad.yaml:1:7: ", "is too large (at most 9223372036854775807)" },
	{ "negative seed",
	  "seed: -1\n" HEAD THROTTLE_TASK, { NULL }, "bad.yaml:1:7: ",
	  "seed must be between 0 and 9223372036854775807, got -1" },
	{ "sweep seed above the range",
	  HEAD THROTTLE_TASK "sweep: {seeds: [1, 9223372036854775808]}\n",
	  { NULL }, "bad.yaml:",
	  "sweep.seeds must be between 0 and 9223372036854775807" },
	{ "bad migration bandwidth through --set names the --set",
	  HEAD "node: {gpus: 2, migration: {}}\n" THROTTLE_TASK,
	  { "node.migration.bandwidth=abc/s", NULL },
	  "--set node.migration.bandwidth=abc/s: ",
	  "bandwidth: expected a size such as 512MiB or 2GiB, got 'abc'" },
	{ "bad migration bandwidth unit in the file is at its position",
	  HEAD "node: {gpus: 2, migration: {bandwidth: 3XB/s}}\n"
	  THROTTLE_TASK, { NULL }, "bad.yaml:2:40: ", "unknown unit in '3XB'" },
	{ "a --set through the short form keeps the name's position",
	  HEAD "policy: dfqq\n" THROTTLE_TASK,
	  { "policy.params.free_run_factor=4", NULL }, "bad.yaml:2:9: ",
	  "unknown policy 'dfqq'" },
	{ "a bad parameter through the short form names the --set",
	  HEAD "policy: dfq\n" THROTTLE_TASK,
	  { "policy.params.free_run_factor=4000", NULL },
	  "--set policy.params.free_run_factor=4000: ",
	  "free_run_factor must be between 0 and 1000" },
	{ "hdfq inherits dfq's bound on free_run_factor",
	  HEAD "policy: hdfq\n" THROTTLE_TASK,
	  { "policy.params.free_run_factor=4000000000", NULL },
	  "--set policy.params.free_run_factor=4000000000: ",
	  "free_run_factor must be between 0 and 1000, got 4000000000" },
	{ "hdfq inherits loga's bound on event_X",
	  HEAD "policy: {name: hdfq, params: {loga: true, event_X: 1001}}\n"
	  THROTTLE_TASK, { NULL }, "bad.yaml:2:52: ",
	  "event_X must be between 0 and 1000, got 1001" },
	{ "expect min above max",
	  HEAD THROTTLE_TASK "expect:\n  - {id: R9, quantity: q, min: 2,"
	  " max: 1, value: tasks.a.slowdown}\n", { NULL },
	  "bad.yaml:", "min is above max" },
	{ "expect compare mode unknown",
	  HEAD THROTTLE_TASK "expect:\n  - {id: R9, quantity: q, max: 1,"
	  " value: tasks.a.slowdown, compare: ratio}\n", { NULL },
	  "bad.yaml:", "compare" },
};

static void test_bad_config(void **state)
{
	const struct bad_case *bc = *state;
	g_autoptr(GError) err = NULL;
	size_t n_sets = 0;
	struct gs_scenario *sc;

	while (n_sets < 2 && bc->set[n_sets])
		n_sets++;
	sc = load(bc->yaml, bc->set, n_sets, &err);
	if (sc) {
		gs_scenario_free(sc);
		fail_msg("%s: loaded without error", bc->desc);
	}
	assert_non_null(err);
	assert_true(err->domain == GS_CONFIG_ERROR);
	if (!g_str_has_prefix(err->message, bc->prefix) ||
	    !strstr(err->message, bc->phrase))
		fail_msg("%s:\n  got:  %s\n  want: %s...%s", bc->desc,
			 err->message, bc->prefix, bc->phrase);
}

/* --- durations --- */

struct dur_case {
	const char *text;
	uint64_t clock_hz;
	int rc;
	gs_time_t ns;
};

static const struct dur_case dur_cases[] = {
	{ "0", 0, 0, 0 },
	{ "123", 0, 0, 123 },
	{ "300ns", 0, 0, 300 },
	{ "25us", 0, 0, 25000 },
	{ "1.5ms", 0, 0, 1500000 },
	{ "2s", 0, 0, 2000000000 },
	{ ".5ms", 0, 0, 500000 },
	{ "1.25us", 0, 0, 1250 },
	{ "0.000000001s", 0, 0, 1 },
	{ "2.0", 0, 0, 2 },
	{ "4.100000000000000000000ms", 0, 0, 4100000 },
	{ "10 us", 0, 0, 10000 },
	{ "305 cycles", 980000000, 0, 311 },   /* 311.22 rounds down */
	{ "1 cycle", 1000000000, 0, 1 },
	{ "3 cycles", 2000000000, 0, 2 },      /* 1.5 rounds up */
	{ "1.5 cycles", 1000000000, 0, 2 },
	{ "18446744073709551614ns", 0, 0, 18446744073709551614ULL },
	{ "", 0, -1, 0 },
	{ "abc", 0, -1, 0 },
	{ "us", 0, -1, 0 },
	{ "-1us", 0, -1, 0 },
	{ "1.5", 0, -1, 0 },
	{ "1.0001ns", 0, -1, 0 },
	{ "5xs", 0, -1, 0 },
	{ "1e3us", 0, -1, 0 },
	{ "5 us x", 0, -1, 0 },
	{ "18446744073709551615", 0, -1, 0 },
	{ "99999999999999999999s", 0, -1, 0 },
	{ "20000000000s", 0, -1, 0 },
	{ "1 cycles", 0, -1, 0 },
	{ "0.0000000000000000001s", 0, -1, 0 },
};

static void test_parse_duration(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(dur_cases); i++) {
		const struct dur_case *d = &dur_cases[i];
		gs_time_t ns = 7;
		int rc = gs_parse_duration(d->text, d->clock_hz, &ns);

		if (rc != d->rc || (rc == 0 && ns != d->ns))
			fail_msg("'%s' at %" G_GUINT64_FORMAT " Hz: rc %d ns %"
				 G_GUINT64_FORMAT ", want rc %d ns %"
				 G_GUINT64_FORMAT, d->text, d->clock_hz, rc, ns,
				 d->rc, d->ns);
	}
}

/* --- compiled programs --- */

struct want_step {
	uint8_t op;
	uint16_t channel;
	uint64_t value; /* LAUNCH/CPU/SLEEP: dur.a; LOOP: count;
			 * END_LOOP: target; SLEEP_UNTIL: at;
			 * WAIT: wait_mode */
	uint8_t flags;  /* LAUNCH: flags | engine << 4 */
};

static void assert_program(const struct gs_program *p,
			   const struct want_step *w, size_t n)
{
	size_t i;

	assert_int_equal(p->n_steps, n);
	for (i = 0; i < n; i++) {
		const struct gs_step *s = &p->steps[i];
		uint64_t v = 0;

		switch (s->op) {
		case GS_OP_LAUNCH:
		case GS_OP_CPU:
		case GS_OP_SLEEP:
			v = s->dur.a;
			break;
		case GS_OP_LOOP:
			v = s->count;
			break;
		case GS_OP_END_LOOP:
			v = s->target;
			break;
		case GS_OP_SLEEP_UNTIL:
			v = s->at;
			break;
		case GS_OP_WAIT:
			v = s->wait_mode;
			break;
		}
		if (s->op != w[i].op || s->channel != w[i].channel ||
		    v != w[i].value ||
		    (s->op == GS_OP_LAUNCH &&
		     (uint8_t)(s->flags | s->engine << 4) != w[i].flags))
			fail_msg("step %zu: op %u ch %u value %" G_GUINT64_FORMAT
				 " flags %u engine %u; want op %u ch %u value %"
				 G_GUINT64_FORMAT " flags/engine %#x", i, s->op,
				 s->channel, v, s->flags, s->engine, w[i].op,
				 w[i].channel, w[i].value, w[i].flags);
	}
}

#define ALL GS_ALL_CHANNELS
#define F GS_CMD_FENCE
#define FI (GS_CMD_FENCE | GS_CMD_IRQ)
#define COPY (GS_ENGINE_COPY << 4)

static void test_throttle_program(void **state)
{
	static const struct want_step plain[] = {
		{ GS_OP_LOOP, 0, 0, 0 },
		{ GS_OP_LAUNCH, 0, 100 * US, F },
		{ GS_OP_WAIT, 0, GS_WAIT_SPIN, 0 },
		{ GS_OP_ROUND, 0, 0, 0 },
		{ GS_OP_END_LOOP, 0, 0, 0 },
		{ GS_OP_END, 0, 0, 0 },
	};
	static const struct want_step irq_sleep[] = {
		{ GS_OP_LOOP, 0, 0, 0 },
		{ GS_OP_LAUNCH, 0, 10 * US, FI | COPY },
		{ GS_OP_WAIT, 0, GS_WAIT_INTERRUPT, 0 },
		{ GS_OP_SLEEP, 0, 1 * MS, 0 },
		{ GS_OP_ROUND, 0, 0, 0 },
		{ GS_OP_END_LOOP, 0, 0, 0 },
		{ GS_OP_END, 0, 0, 0 },
	};
	static const struct want_step nonblocking[] = {
		{ GS_OP_LOOP, 0, 0, 0 },
		{ GS_OP_LAUNCH, 0, 50 * US, F },
		{ GS_OP_ROUND, 0, 0, 0 },
		{ GS_OP_END_LOOP, 0, 0, 0 },
		{ GS_OP_END, 0, 0, 0 },
	};
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok(HEAD THROTTLE_TASK, NULL, 0);
	assert_program(&sc->tasks[0].program, plain, G_N_ELEMENTS(plain));
	assert_string_equal(sc->tasks[0].behavior_kind, "throttle");
	assert_string_equal(sc->tasks[0].behavior_label, "throttle 100us");
	assert_string_equal(sc->name, "bad");
	assert_int_equal(sc->seed, 1);
	assert_int_equal(sc->duration, GS_NS_PER_S);
	assert_int_equal(sc->n_gpus, 1);
	assert_string_equal(sc->policy.name, "direct");
	assert_int_equal(sc->tasks[0].count, 1);
	assert_int_equal(sc->tasks[0].vm, -1);
	assert_int_equal(sc->tasks[0].gpu, GS_GPU_AUTO);
	assert_true(sc->output.timeline);
	gs_scenario_free(sc);

	sc = load_ok(HEAD "tasks:\n  - name: a\n    behavior:\n"
		     "      throttle: {kernel: 10us, sleep: 1ms, wait: interrupt,"
		     " engine: copy}\n", NULL, 0);
	assert_program(&sc->tasks[0].program, irq_sleep,
		       G_N_ELEMENTS(irq_sleep));
	gs_scenario_free(sc);

	sc = load_ok(HEAD "tasks:\n  - name: a\n    behavior:\n"
		     "      throttle: {kernel: 50us, sleep: 0, blocking: false}\n",
		     NULL, 0);
	assert_program(&sc->tasks[0].program, nonblocking,
		       G_N_ELEMENTS(nonblocking));
	gs_scenario_free(sc);
}

/* class: on throttle and script launches reaches the LAUNCH step;
 * untagged launches are class 0. */
static void test_command_class(void **state)
{
	struct gs_scenario *sc;
	const struct gs_program *p;

	(void)state;
	sc = load_ok(HEAD "tasks:\n  - name: a\n    behavior:\n"
		     "      throttle: {kernel: 50us, class: 7}\n"
		     "  - name: b\n    behavior:\n      script:\n"
		     "        - launch: {kernel: 1ms, class: 2}\n"
		     "        - launch: {kernel: 1ms}\n"
		     "        - launch: 5us\n", NULL, 0);
	p = &sc->tasks[0].program;
	assert_int_equal(p->steps[1].op, GS_OP_LAUNCH);
	assert_int_equal(p->steps[1].cls, 7);
	p = &sc->tasks[1].program;
	assert_int_equal(p->n_steps, 4);
	assert_int_equal(p->steps[0].cls, 2);
	assert_int_equal(p->steps[1].cls, 0);
	assert_int_equal(p->steps[2].cls, 0);
	gs_scenario_free(sc);

	sc = load_ok(HEAD THROTTLE_TASK, NULL, 0);
	assert_int_equal(sc->tasks[0].program.steps[1].cls, 0);
	gs_scenario_free(sc);
}

static void test_dist_values(void **state)
{
	struct gs_scenario *sc;
	const struct gs_step *s;

	(void)state;
	sc = load_ok(HEAD "tasks:\n  - name: a\n    behavior:\n      script:\n"
		     "        - launch: {uniform: [50us, 150us]}\n"
		     "        - cpu: {exponential: 100us}\n"
		     "        - sleep: {normal: {mean: 1ms, stddev: 10us}}\n"
		     "        - launch: {kernel: {empirical: [10us, 20us, 30us]}}\n",
		     NULL, 0);
	s = sc->tasks[0].program.steps;
	assert_int_equal(sc->tasks[0].program.n_steps, 5);
	assert_int_equal(s[0].dur.kind, GS_DIST_UNIFORM);
	assert_int_equal(s[0].dur.a, 50 * US);
	assert_int_equal(s[0].dur.b, 150 * US);
	assert_int_equal(s[1].dur.kind, GS_DIST_EXPONENTIAL);
	assert_int_equal(s[1].dur.a, 100 * US);
	assert_int_equal(s[2].dur.kind, GS_DIST_NORMAL);
	assert_int_equal(s[2].dur.a, 1 * MS);
	assert_int_equal(s[2].dur.b, 10 * US);
	assert_int_equal(s[3].dur.kind, GS_DIST_EMPIRICAL);
	assert_int_equal(s[3].dur.n, 3);
	assert_int_equal(s[3].dur.values[2], 30 * US);
	assert_int_equal(s[4].op, GS_OP_END);
	gs_scenario_free(sc);
}

static void test_app_dct(void **state)
{
	/* R = 197us, request 66us: n = 2; cpu = 197 - 132 - 2 * (5+1+1). */
	static const struct want_step want[] = {
		{ GS_OP_LOOP, 0, 0, 0 },
		{ GS_OP_LAUNCH, 0, 66 * US, F },
		{ GS_OP_WAIT, 0, GS_WAIT_SPIN, 0 },
		{ GS_OP_LAUNCH, 0, 66 * US, F },
		{ GS_OP_WAIT, 0, GS_WAIT_SPIN, 0 },
		{ GS_OP_CPU, 0, 51 * US, 0 },
		{ GS_OP_ROUND, 0, 0, 0 },
		{ GS_OP_END_LOOP, 0, 0, 0 },
		{ GS_OP_END, 0, 0, 0 },
	};
	/* sync: round, host launch 10us: cpu = 197 - 132 - 2 * 11 - 1. */
	static const struct want_step round[] = {
		{ GS_OP_LOOP, 0, 0, 0 },
		{ GS_OP_LAUNCH, 0, 66 * US, F },
		{ GS_OP_LAUNCH, 0, 66 * US, F },
		{ GS_OP_WAIT, ALL, GS_WAIT_SPIN, 0 },
		{ GS_OP_CPU, 0, 42 * US, 0 },
		{ GS_OP_ROUND, 0, 0, 0 },
		{ GS_OP_END_LOOP, 0, 0, 0 },
		{ GS_OP_END, 0, 0, 0 },
	};
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok(HEAD "tasks:\n  - name: a\n    behavior: {app: dct}\n",
		     NULL, 0);
	assert_program(&sc->tasks[0].program, want, G_N_ELEMENTS(want));
	assert_string_equal(sc->tasks[0].behavior_kind, "app");
	assert_string_equal(sc->tasks[0].behavior_label, "DCT");
	assert_int_equal(sc->tasks[0].channels, 1);
	gs_scenario_free(sc);

	sc = load_ok(HEAD "host: {launch: 10us}\n"
		     "tasks:\n  - name: a\n"
		     "    behavior: {app: {name: DCT, sync: round}}\n", NULL, 0);
	assert_program(&sc->tasks[0].program, round, G_N_ELEMENTS(round));
	gs_scenario_free(sc);
}

static void test_app_ocl_particles(void **state)
{
	/* R = 2006us, requests 12/302: k = 6 pairs, 12 launches;
	 * cpu = 2006 - 6 * 314 - 12 * 7 = 38us. */
	struct gs_scenario *sc;
	const struct gs_program *p;
	uint32_t i;

	(void)state;
	sc = load_ok(HEAD "tasks:\n  - name: p\n    channels: 2\n"
		     "    behavior: {app: oclParticles}\n", NULL, 0);
	p = &sc->tasks[0].program;
	assert_int_equal(sc->tasks[0].channels, 2);
	assert_int_equal(p->n_steps, 1 + 24 + 4);
	assert_int_equal(p->steps[0].op, GS_OP_LOOP);
	for (i = 0; i < 12; i++) {
		const struct gs_step *l = &p->steps[1 + 2 * i];
		const struct gs_step *w = &p->steps[2 + 2 * i];

		assert_int_equal(l->op, GS_OP_LAUNCH);
		assert_int_equal(l->channel, i % 2);
		assert_int_equal(l->dur.a, i % 2 ? 302 * US : 12 * US);
		assert_int_equal(w->op, GS_OP_WAIT);
		assert_int_equal(w->channel, i % 2);
	}
	assert_int_equal(p->steps[25].op, GS_OP_CPU);
	assert_int_equal(p->steps[25].dur.a, 38 * US);
	assert_int_equal(p->steps[26].op, GS_OP_ROUND);
	assert_int_equal(p->steps[27].op, GS_OP_END_LOOP);
	assert_int_equal(p->steps[28].op, GS_OP_END);
	gs_scenario_free(sc);
}

static void test_app_library(void **state)
{
	uint32_t i;

	(void)state;
	assert_int_equal(gs_n_apps, 18);
	for (i = 0; i < gs_n_apps; i++) {
		assert_true(gs_apps[i].round > 0);
		assert_true(gs_apps[i].request[0] > 0);
		assert_true(gs_apps[i].channels == 1 ||
			    gs_apps[i].request[1] > 0);
	}
	assert_ptr_equal(gs_app_find("SIMPLETEXTURE3D"),
			 gs_app_find("simpleTexture3D"));
	assert_int_equal(gs_app_find("simpleTexture3D")->request[1], 171 * US);
	assert_null(gs_app_find("nope"));
}

static void test_script_program(void **state)
{
	static const struct want_step want[] = {
		{ GS_OP_CPU, 0, 20 * US, 0 },
		{ GS_OP_LOOP, 0, 10, 0 },
		{ GS_OP_LAUNCH, 1, 50 * US, FI | COPY },
		{ GS_OP_LOOP, 0, 0, 0 },
		{ GS_OP_LAUNCH, 0, 5 * US, F },
		{ GS_OP_SLEEP, 0, 1 * MS, 0 },
		{ GS_OP_END_LOOP, 0, 3, 0 },
		{ GS_OP_WAIT, 1, GS_WAIT_INTERRUPT, 0 },
		{ GS_OP_WAIT, ALL, GS_WAIT_SPIN, 0 },
		{ GS_OP_WAIT, ALL, GS_WAIT_SPIN, 0 },
		{ GS_OP_ROUND, 0, 0, 0 },
		{ GS_OP_END_LOOP, 0, 1, 0 },
		{ GS_OP_END, 0, 0, 0 },
	};
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok(HEAD "tasks:\n  - name: s\n    channels: 2\n"
		     "    behavior:\n      script:\n"
		     "        - cpu: 20us\n"
		     "        - repeat:\n"
		     "            count: 10\n"
		     "            steps:\n"
		     "              - launch: {kernel: 50us, channel: 1,"
		     " engine: copy, irq: true}\n"
		     "              - repeat: {count: forever, steps: ["
		     "launch: 5us, sleep: 1ms]}\n"
		     "              - wait: {channel: 1, mode: interrupt}\n"
		     "              - wait: spin\n"
		     "              - wait\n"
		     "              - round\n", NULL, 0);
	assert_program(&sc->tasks[0].program, want, G_N_ELEMENTS(want));
	assert_string_equal(sc->tasks[0].behavior_kind, "script");
	gs_scenario_free(sc);
}

static char *write_temp(const char *dir, const char *name, const char *text)
{
	char *path = g_build_filename(dir, name, NULL);

	assert_true(g_file_set_contents(path, text, -1, NULL));
	return path;
}

static void test_trace(void **state)
{
	static const struct want_step want[] = {
		{ GS_OP_SLEEP_UNTIL, 0, 0, 0 },
		{ GS_OP_LAUNCH, 0, 100 * US, F },
		{ GS_OP_SLEEP_UNTIL, 0, 1500 * US, 0 },
		{ GS_OP_LAUNCH, 1, 2 * US, F | COPY },
		{ GS_OP_SLEEP_UNTIL, 0, 1500 * US, 0 },
		{ GS_OP_LAUNCH, 0, 1000, F },
		{ GS_OP_WAIT, ALL, GS_WAIT_SPIN, 0 },
		{ GS_OP_ROUND, 0, 0, 0 },
		{ GS_OP_END, 0, 0, 0 },
	};
	g_autofree char *dir = g_dir_make_tmp("gs_trace_XXXXXX", NULL);
	g_autofree char *csv = NULL, *yaml = NULL, *bad = NULL;
	g_autoptr(GError) err = NULL;
	g_autofree char *want_prefix = NULL;
	struct gs_scenario *sc;

	(void)state;
	assert_non_null(dir);
	csv = write_temp(dir, "t.csv",
			 "time,channel,engine,duration\n"
			 "# a comment\n"
			 "0,0,compute,100us\r\n"
			 "1.5ms, 1, copy, 2us\n"
			 "\n"
			 "1.5ms,0,compute,1000\n");
	bad = write_temp(dir, "bad.csv",
			 "time,channel,engine,duration\n"
			 "2ms,0,compute,100us\n"
			 "1ms,0,compute,100us\n");
	yaml = write_temp(dir, "s.yaml",
			  HEAD "tasks:\n  - name: t\n    channels: 2\n"
			  "    behavior: {trace: {file: t.csv}}\n");
	/* The CSV is found next to the YAML file, not in the cwd. */
	sc = gs_scenario_load_file(yaml, NULL, 0, &err);
	if (!sc)
		fail_msg("%s", err->message);
	assert_program(&sc->tasks[0].program, want, G_N_ELEMENTS(want));
	assert_string_equal(sc->tasks[0].behavior_label, "t.csv");
	assert_string_equal(sc->name, "s");
	gs_scenario_free(sc);

	{
		const char *set[] = { "tasks.0.behavior.trace.file=bad.csv" };

		sc = gs_scenario_load_file(yaml, set, 1, &err);
		assert_null(sc);
		want_prefix = g_strdup_printf("%s:3:1: ", bad);
		if (!g_str_has_prefix(err->message, want_prefix) ||
		    !strstr(err->message, "time order"))
			fail_msg("got %s", err->message);
		g_clear_error(&err);
	}
	{
		const char *set[] = { "tasks.0.channels=1" };

		sc = gs_scenario_load_file(yaml, set, 1, &err);
		assert_null(sc);
		g_free(want_prefix);
		want_prefix = g_strdup_printf("%s:4:8: ", csv);
		if (!g_str_has_prefix(err->message, want_prefix) ||
		    !strstr(err->message, "channel 1 is out of range"))
			fail_msg("got %s", err->message);
	}
	g_unlink(csv);
	g_unlink(bad);
	g_unlink(yaml);
	g_rmdir(dir);
}

static void test_gpu_preset_override(void **state)
{
	struct gs_scenario *sc;

	(void)state;
	/* clock_hz written after the duration that is in cycles. */
	sc = load_ok(HEAD "gpu:\n  preset: volta\n  ctx_switch: 1000 cycles\n"
		     "  clock_hz: 1000000000\n  timeslice: 2ms\n"
		     "  idle_watts: 12.5\n  ring_entries: 64\n"
		     "host: {launch: 34 cycles, clock_hz: 3400000000}\n"
		     THROTTLE_TASK, NULL, 0);
	assert_string_equal(sc->gpu.preset, "volta");
	assert_int_equal(sc->gpu.sched, GS_SCHED_TIMESLICE);
	assert_true(sc->gpu.preemption);
	assert_int_equal(sc->gpu.clock_hz, 1000000000);
	assert_int_equal(sc->gpu.ctx_switch, 1000);
	assert_int_equal(sc->gpu.timeslice, 2 * MS);
	assert_int_equal(sc->gpu.idle_mw, 12500);
	assert_int_equal(sc->gpu.ring_entries, 64);
	assert_int_equal(sc->host.launch, 10);
	assert_int_equal(sc->host.doorbell, 1 * US);
	gs_scenario_free(sc);

	sc = load_ok(HEAD THROTTLE_TASK, NULL, 0);
	assert_string_equal(sc->gpu.preset, "kepler");
	assert_int_equal(sc->gpu.sched, GS_SCHED_ROUND_ROBIN);
	gs_scenario_free(sc);
}

static void test_node(void **state)
{
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok(HEAD "node:\n  gpus: 4\n  gpu: {preset: kepler,"
		     " active_watts: 200}\n"
		     "tasks:\n  - name: a\n    gpu: 3\n    count: 5\n"
		     "    behavior: {throttle: {kernel: 1ms}}\n", NULL, 0);
	assert_int_equal(sc->n_gpus, 4);
	assert_int_equal(sc->gpu.active_mw, 200000);
	assert_int_equal(sc->tasks[0].gpu, 3);
	assert_int_equal(sc->tasks[0].count, 5);
	gs_scenario_free(sc);
}

static void test_vm_tree(void **state)
{
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok(HEAD "vms:\n"
		     "  - name: vm1\n    weight: 2\n"
		     "    vms: [{name: vm1a}, {name: vm1b, vms: [{name: deep}]}]\n"
		     "  - name: vm2\n"
		     "tasks:\n"
		     "  - {name: a, vm: deep, behavior: {throttle: {kernel: 1ms}}}\n"
		     "  - {name: b, vm: vm2, behavior: {throttle: {kernel: 1ms}}}\n"
		     "  - {name: c, behavior: {throttle: {kernel: 1ms}}}\n",
		     NULL, 0);
	assert_int_equal(sc->n_vms, 5);
	assert_string_equal(sc->vms[0].name, "vm1");
	assert_int_equal(sc->vms[0].parent, -1);
	assert_int_equal(sc->vms[0].weight, 2);
	assert_string_equal(sc->vms[1].name, "vm1a");
	assert_int_equal(sc->vms[1].parent, 0);
	assert_string_equal(sc->vms[2].name, "vm1b");
	assert_int_equal(sc->vms[2].parent, 0);
	assert_string_equal(sc->vms[3].name, "deep");
	assert_int_equal(sc->vms[3].parent, 2);
	assert_string_equal(sc->vms[4].name, "vm2");
	assert_int_equal(sc->vms[4].parent, -1);
	assert_int_equal(sc->vms[4].weight, 1);
	assert_int_equal(sc->tasks[0].vm, 3);
	assert_int_equal(sc->tasks[1].vm, 4);
	assert_int_equal(sc->tasks[2].vm, -1);
	gs_scenario_free(sc);
}

/* Per-VM paravirtual hints and virtualisation costs, with their defaults
 * (8 x host.trap, 2us). */
static void test_vm_hints_and_costs(void **state)
{
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok(HEAD "host: {trap: 5us}\n"
		     "vms:\n"
		     "  - {name: a, hints: false, trap: 70us, shadow_copy: 3us}\n"
		     "  - {name: b}\n"
		     THROTTLE_TASK, NULL, 0);
	assert_false(sc->vms[0].hints);
	assert_int_equal(sc->vms[0].trap, 70000);
	assert_int_equal(sc->vms[0].shadow_copy, 3000);
	assert_true(sc->vms[1].hints);
	assert_int_equal(sc->vms[1].trap, 8 * 5000);
	assert_int_equal(sc->vms[1].shadow_copy, 2000);
	gs_scenario_free(sc);
}

static void test_set_overrides(void **state)
{
	const char *set[] = {
		"tasks.0.behavior.throttle.kernel=50us",
		"tasks.0.behavior.throttle.sleep={uniform: [1ms, 2ms]}",
		"output.series_interval=5ms",
		"seed=42",
		"policy.name=direct",
	};
	struct gs_scenario *sc;
	const struct gs_step *s;

	(void)state;
	sc = load_ok(HEAD "output:\n" THROTTLE_TASK, set, G_N_ELEMENTS(set));
	s = sc->tasks[0].program.steps;
	assert_int_equal(s[1].op, GS_OP_LAUNCH);
	assert_int_equal(s[1].dur.a, 50 * US);
	assert_int_equal(s[3].op, GS_OP_SLEEP);
	assert_int_equal(s[3].dur.kind, GS_DIST_UNIFORM);
	assert_int_equal(s[3].dur.b, 2 * MS);
	assert_int_equal(sc->output.series_interval, 5 * MS);
	assert_int_equal(sc->seed, 42);
	gs_scenario_free(sc);
}

/* `policy: dfq` is short for `policy: {name: dfq}`, so --set reaches
 * into it as into the long form (and so for a VM's `scheduler`). Found
 * while testing generated scenarios: "policy is a single value, not a
 * mapping". */
static void test_set_into_policy_shorthand(void **state)
{
	const char *set[] = { "policy.name=loga",
			      "policy.params.event_T=2ms",
			      "vms.0.scheduler.name=direct" };
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok(HEAD "policy: dfq\nvms:\n  - {name: v, scheduler: dfq}\n"
		     THROTTLE_TASK, set, G_N_ELEMENTS(set));
	assert_string_equal(sc->policy.name, "loga");
	assert_int_equal(sc->policy.n_params, 1);
	assert_string_equal(sc->policy.params[0].value, "2ms");
	assert_string_equal(sc->vms[0].scheduler.name, "direct");
	gs_scenario_free(sc);
}

static void test_policy_params_kept(void **state)
{
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok(HEAD "policy:\n  name: direct\n  params: {}\n"
		     THROTTLE_TASK, NULL, 0);
	assert_string_equal(sc->policy.name, "direct");
	assert_int_equal(sc->policy.n_params, 0);
	assert_int_equal(sc->policy.line, 3);
	assert_int_equal(sc->policy.column, 9);
	gs_scenario_free(sc);
}

static void test_alone(void **state)
{
	struct gs_scenario *sc, *one;

	(void)state;
	sc = load_ok(HEAD "seed: 9\nvms: [{name: v}]\n"
		     "tasks:\n"
		     "  - {name: a, count: 3, behavior: {app: DCT}}\n"
		     "  - name: b\n    count: 2\n    vm: v\n    behavior:\n"
		     "      throttle: {kernel: {empirical: [1us, 2us]}}\n",
		     NULL, 0);
	one = gs_scenario_alone(sc, 1);
	assert_non_null(one);
	assert_int_equal(one->n_tasks, 1);
	assert_string_equal(one->tasks[0].name, "b");
	assert_int_equal(one->tasks[0].count, 1);
	assert_int_equal(one->tasks[0].vm, 0);
	assert_int_equal(one->n_vms, 1);
	assert_string_equal(one->vms[0].name, "v");
	assert_string_equal(one->policy.name, "direct");
	assert_int_equal(one->policy.n_params, 0);
	assert_int_equal(one->seed, 9);
	assert_int_equal(one->duration, sc->duration);
	assert_int_equal(one->tasks[0].program.n_steps,
			 sc->tasks[1].program.n_steps);
	assert_ptr_not_equal(one->tasks[0].program.steps[1].dur.values,
			     sc->tasks[1].program.steps[1].dur.values);
	assert_int_equal(one->tasks[0].program.steps[1].dur.values[1], 2 * US);
	assert_null(gs_scenario_alone(sc, 2));
	gs_scenario_free(sc);
	/* the copy owns everything it points to */
	assert_string_equal(one->tasks[0].behavior_kind, "throttle");
	gs_scenario_free(one);
}

static void load_dir(const char *dir, unsigned *loaded)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	if (!d)
		return;
	while ((name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, name, NULL);

		if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
			load_dir(path, loaded);
		} else if (g_str_has_suffix(name, ".yaml")) {
			g_autoptr(GError) err = NULL;
			struct gs_scenario *sc =
				gs_scenario_load_file(path, NULL, 0, &err);

			if (!sc)
				fail_msg("%s", err->message);
			gs_scenario_free(sc);
			(*loaded)++;
		}
	}
}

static void test_shipped_configs(void **state)
{
	unsigned loaded = 0;

	(void)state;
	load_dir("configs", &loaded);
	assert_true(loaded >= 8);
}

/* A scenario without `name` is named after its file; a file name that
 * would not stay inside the output folder is refused at the document. */
static void test_name_from_file(void **state)
{
	static const char *const bad[] = { "..yaml", "dir/..yaml", ".yaml",
					   ".hidden.yml" };
	const char *yaml = HEAD THROTTLE_TASK;
	g_autoptr(GError) err = NULL;
	struct gs_scenario *sc;
	size_t i;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(bad); i++) {
		sc = gs_scenario_load_data(bad[i], yaml, strlen(yaml), NULL,
					   0, &err);
		if (sc)
			fail_msg("%s: loaded as '%s'", bad[i], sc->name);
		assert_true(g_str_has_prefix(err->message, bad[i]));
		assert_non_null(strstr(err->message,
				       ":1:1: the scenario's name '"));
		assert_non_null(strstr(err->message, "give a 'name:'"));
		g_clear_error(&err);
	}
	sc = gs_scenario_load_data("dir/my.run.yaml", yaml, strlen(yaml),
				   NULL, 0, &err);
	assert_non_null(sc);
	assert_string_equal(sc->name, "my.run");
	gs_scenario_free(sc);
}

/* A --set path through a short form (`policy: dfq`, a VM's `scheduler:
 * NAME`, `trace: FILE`, `app: NAME`) reaches the mapping it stands for. */
static void test_set_through_short_forms(void **state)
{
	static const char *const sets[] = {
		"policy.params.free_run_factor=4",
		"vms.0.scheduler.params.free_run_factor=7",
		"tasks.1.behavior.app.sync=round",
	};
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok(HEAD "policy: dfq\nvms: [{name: v, scheduler: dfq}]\n"
		     THROTTLE_TASK
		     "  - name: b\n    vm: v\n    behavior: {app: DCT}\n",
		     sets, G_N_ELEMENTS(sets));
	assert_string_equal(sc->policy.name, "dfq");
	assert_int_equal(sc->policy.n_params, 1);
	assert_string_equal(sc->policy.params[0].key, "free_run_factor");
	assert_string_equal(sc->policy.params[0].value, "4");
	assert_string_equal(sc->vms[0].scheduler.name, "dfq");
	assert_int_equal(sc->vms[0].scheduler.n_params, 1);
	assert_string_equal(sc->vms[0].scheduler.params[0].value, "7");
	gs_scenario_free(sc);
}

/* A parameter has one set of bounds: every policy that has a parameter
 * of dfq or loga (hdfq has both's) has it with the same type and max. */
static void test_shared_param_bounds(void **state)
{
	const struct gs_policy_ops *owners[] = { gs_policy_find("dfq"),
						 gs_policy_find("loga") };
	size_t i, o, p, shared = 0;

	(void)state;
	for (i = 0; gs_policy_registry[i]; i++) {
		const struct gs_policy_ops *ops = gs_policy_registry[i];

		for (p = 0; p < ops->n_params; p++) {
			const struct gs_param_desc *d = &ops->params[p];

			for (o = 0; o < G_N_ELEMENTS(owners); o++) {
				const struct gs_param_desc *own =
					gs_policy_param(owners[o], d->name);

				if (!own || ops == owners[o])
					continue;
				shared++;
				if (own->type != d->type || own->max != d->max)
					fail_msg("%s.%s: max %llu, %s has %llu",
						 ops->name, d->name,
						 (unsigned long long)d->max,
						 owners[o]->name,
						 (unsigned long long)own->max);
			}
		}
	}
	/* hdfq shares dfq's and loga's; the check must have seen them */
	assert_true(shared >= 10);
	assert_int_equal(gs_policy_param(gs_policy_find("hdfq"),
					 "free_run_factor")->max, 1000);
	assert_int_equal(gs_policy_param(gs_policy_find("hdfq"),
					 "event_X")->max, 1000);
}

/* Both ends of the seed range load as written. */
static void test_seed_range_ends(void **state)
{
	static const char *const set_max[] = { "seed=9223372036854775807" };
	static const char *const set_min[] = { "seed=0" };
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok("seed: 9223372036854775807\n" HEAD THROTTLE_TASK, NULL, 0);
	assert_true(sc->seed == GS_SEED_MAX);
	gs_scenario_free(sc);
	sc = load_ok(HEAD THROTTLE_TASK, set_max, 1);
	assert_true(sc->seed == (uint64_t)9223372036854775807u);
	gs_scenario_free(sc);
	sc = load_ok("seed: 5\n" HEAD THROTTLE_TASK, set_min, 1);
	assert_true(sc->seed == 0);
	gs_scenario_free(sc);
}

static void test_io_errors(void **state)
{
	g_autoptr(GError) err = NULL;

	(void)state;
	assert_null(gs_scenario_load_file("/nonexistent/x.yaml", NULL, 0,
					  &err));
	assert_true(g_error_matches(err, GS_CONFIG_ERROR, GS_CONFIG_ERROR_IO));
	assert_true(g_str_has_prefix(err->message, "/nonexistent/x.yaml: "));
	g_clear_error(&err);
	{
		size_t len = (16u << 20) + 1;
		char *big = g_malloc(len);

		memset(big, '#', len);
		assert_null(gs_scenario_load_data("big.yaml", big, len, NULL, 0,
						  &err));
		g_free(big);
		assert_true(g_error_matches(err, GS_CONFIG_ERROR,
					    GS_CONFIG_ERROR_IO));
		assert_string_equal(err->message,
				    "big.yaml: larger than 16777216 bytes");
	}
	/* a NULL error pointer is allowed */
	assert_null(load("duration: x\n", NULL, 0, NULL));
}

int main(void)
{
	const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_parse_duration),
		cmocka_unit_test(test_throttle_program),
		cmocka_unit_test(test_command_class),
		cmocka_unit_test(test_dist_values),
		cmocka_unit_test(test_app_dct),
		cmocka_unit_test(test_app_ocl_particles),
		cmocka_unit_test(test_app_library),
		cmocka_unit_test(test_script_program),
		cmocka_unit_test(test_trace),
		cmocka_unit_test(test_gpu_preset_override),
		cmocka_unit_test(test_node),
		cmocka_unit_test(test_vm_tree),
		cmocka_unit_test(test_vm_hints_and_costs),
		cmocka_unit_test(test_set_overrides),
		cmocka_unit_test(test_set_into_policy_shorthand),
		cmocka_unit_test(test_name_from_file),
		cmocka_unit_test(test_seed_range_ends),
		cmocka_unit_test(test_set_through_short_forms),
		cmocka_unit_test(test_shared_param_bounds),
		cmocka_unit_test(test_policy_params_kept),
		cmocka_unit_test(test_alone),
		cmocka_unit_test(test_shipped_configs),
		cmocka_unit_test(test_io_errors),
	};
	size_t n_bad = G_N_ELEMENTS(bad_cases), n = G_N_ELEMENTS(fixed) + n_bad;
	struct CMUnitTest *tests = g_new0(struct CMUnitTest, n);
	size_t i;
	int rc;

	memcpy(tests, fixed, sizeof(fixed));
	for (i = 0; i < n_bad; i++) {
		struct CMUnitTest *t = &tests[G_N_ELEMENTS(fixed) + i];

		t->name = bad_cases[i].desc;
		t->test_func = test_bad_config;
		t->initial_state = (void *)&bad_cases[i];
	}
	rc = _cmocka_run_group_tests("config", tests, n, NULL, NULL);
	g_free(tests);
	return rc;
}
