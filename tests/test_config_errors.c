/* The scenario loader: every bad input gets a positioned, specific
 * error (one case a row). */
#include "tests/support/config_fixture.h"

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
	{ "behavior given as a scalar names its shape, not the kind",
	  HEAD "tasks:\n  - name: a\n    behavior: throttle\n", { NULL },
	  "bad.yaml:4:15: ",
	  "behavior must be a mapping of one kind (throttle, app, script, "
	  "trace, job) to its settings, such as {throttle: {kernel: 100us}}; "
	  "got the scalar 'throttle'" },
	{ "behavior given as a list",
	  HEAD "tasks:\n  - name: a\n    behavior: [throttle]\n", { NULL },
	  "bad.yaml:4:15: ", "behavior must be a mapping of one kind" },
	{ "behavior left empty",
	  HEAD "tasks:\n  - name: a\n    behavior:\n", { NULL },
	  "bad.yaml:4:14: ", "behavior must be a mapping of one kind (throttle, "
	  "app, script, trace, job) to its settings, such as {throttle: "
	  "{kernel: 100us}}; got nothing" },
	{ "behavior an empty mapping",
	  HEAD "tasks:\n  - name: a\n    behavior: {}\n", { NULL },
	  "bad.yaml:4:15: ", "behavior is an empty mapping; give it one of" },
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

int main(void)
{
	size_t n = G_N_ELEMENTS(bad_cases), i;
	struct CMUnitTest *tests = g_new0(struct CMUnitTest, n);
	int rc;

	for (i = 0; i < n; i++) {
		tests[i].name = bad_cases[i].desc;
		tests[i].test_func = test_bad_config;
		tests[i].initial_state = (void *)&bad_cases[i];
	}
	rc = _cmocka_run_group_tests("config_errors", tests, n, NULL, NULL);
	g_free(tests);
	return rc;
}
