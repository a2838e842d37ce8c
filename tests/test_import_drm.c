/* The Linux DRM scheduler importers (sim/import/drm_*.c): the samples of
 * tests/import/samples/drm-text/ read into the exact tasks, channels and
 * jobs worked out by hand from their lines; malformed lines of scheduler
 * events are errors at their line, every other line is skipped; jobs that
 * never ran or never finished, and fences never queued, are counted. The
 * trace.dat recorded under QEMU gives the jobs its text rendering gives;
 * the sched_switch-only one shows the binary reader walks every record. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "sim/import/drm_import.h"

#define SAMPLES "tests/import/samples/"

static const struct gs_import_job *job_at(const struct gs_import_task *t,
					  guint i)
{
	assert_true(i < t->jobs->len);
	return &g_array_index(t->jobs, struct gs_import_job, i);
}

static void assert_job(const struct gs_import_task *t, guint i,
		       guint64 submit_ns, guint64 duration_ns,
		       guint32 channel, bool copy, guint32 origin)
{
	const struct gs_import_job *j = job_at(t, i);

	assert_int_equal(j->submit_ns, submit_ns);
	assert_int_equal(j->duration_ns, duration_ns);
	assert_int_equal(j->channel, channel);
	assert_int_equal(j->copy, copy);
	assert_int_equal(j->origin, origin);
}

static struct gs_import_task *task_at(const struct gs_import *imp, guint i)
{
	assert_true(i < imp->tasks->len);
	return g_ptr_array_index(imp->tasks, i);
}

static const char *channel_at(const struct gs_import_task *t, guint i)
{
	assert_true(i < t->channels->len);
	return g_ptr_array_index(t->channels, i);
}

/* Reads `text` (written to a file of its own) with drm-text. */
static bool read_text(const char *text, struct gs_import **imp,
		      struct gs_drm_stats *stats, GError **error)
{
	char *path = NULL;
	int fd = g_file_open_tmp("drm-text-XXXXXX.txt", &path, NULL);
	bool ok;

	assert_true(fd >= 0);
	close(fd);
	assert_true(g_file_set_contents(path, text, -1, NULL));
	*imp = gs_import_new(path, "drm-text");
	ok = gs_drm_text_read_stats(path, *imp, stats, error);
	g_unlink(path);
	g_free(path);
	return ok;
}

/* 6.1 events in `trace-cmd report`'s layout (amdgpu): one task per
 * submitting thread (no tgid in this layout), a channel per ring, the
 * fence address reused by a later job once the first signalled. */
static void test_amdgpu_61_report(void **state)
{
	struct gs_import *imp = gs_import_new(
		SAMPLES "drm-text/amdgpu-6.1-report.txt", "drm-text");
	struct gs_drm_stats st;
	GError *error = NULL;
	struct gs_import_task *gl, *blit;

	(void)state;
	assert_true(gs_drm_text_read_stats(imp->source, imp, &st, &error));
	assert_int_equal(imp->tasks->len, 2);
	gl = task_at(imp, 0);
	blit = task_at(imp, 1);
	assert_string_equal(gl->key, "pid 2001");
	assert_string_equal(gl->name, "glxgears");
	assert_int_equal(gl->channels->len, 1);
	assert_string_equal(channel_at(gl, 0), "gfx_0.0.0");
	assert_int_equal(gl->jobs->len, 2);
	/* queued 5000.000100, run .000200, signalled .001200 */
	assert_job(gl, 0, 5000000100000ull, 1000000, 0, false, 2);
	/* the same fence address again: queued .002100, run .002150,
	 * signalled .003150 */
	assert_job(gl, 1, 5000002100000ull, 1000000, 0, false, 10);
	assert_string_equal(blit->key, "pid 2100");
	assert_string_equal(blit->name, "blit-worker");
	assert_int_equal(blit->channels->len, 1);
	assert_string_equal(channel_at(blit, 0), "sdma0");
	assert_int_equal(blit->jobs->len, 1);
	/* sdma0: a copy; run .000320, signalled .000900 */
	assert_job(blit, 0, 5000000300000ull, 580000, 0, true, 5);
	assert_int_equal(imp->jobs, 3);
	assert_int_equal(st.records, 16);
	assert_int_equal(st.events, 13);	/* 16 - cpus=, 2 other events */
	assert_int_equal(st.jobs, 3);
	assert_int_equal(st.never_ran, 1);	/* line 16 */
	assert_int_equal(st.never_finished, 1);	/* comp_1.0.0, line 12 */
	assert_int_equal(st.unknown_fence, 1);	/* deadbeef, line 9 */
	assert_int_equal(st.reruns, 0);
	assert_int_equal(imp->notes->len, 3);
	assert_string_equal(g_ptr_array_index(imp->notes, 0),
			    "1 jobs queued but never run (dropped)");
	gs_import_free(imp);
}

/* 6.17 events in tracefs's `trace` layout with flags and tgid (xe): one
 * task per DRM client whichever thread submits, a channel per device and
 * ring, bcs* a copy engine, the add_dep event and sched_switch skipped. */
static void test_xe_617_tracefs(void **state)
{
	struct gs_import *imp = gs_import_new(
		SAMPLES "drm-text/xe-6.17-tracefs.txt", "drm-text");
	struct gs_drm_stats st;
	GError *error = NULL;
	struct gs_import_task *vk, *ff;

	(void)state;
	assert_true(gs_drm_text_read_stats(imp->source, imp, &st, &error));
	assert_int_equal(imp->tasks->len, 2);
	vk = task_at(imp, 0);
	ff = task_at(imp, 1);
	assert_string_equal(vk->key, "client 7");
	assert_string_equal(vk->name, "vkcube");
	assert_int_equal(vk->channels->len, 1);
	assert_string_equal(channel_at(vk, 0), "0000:03:00.0 rcs0");
	assert_int_equal(vk->jobs->len, 2);
	/* 41:12 queued 812.345678, run .345710, done .346178 */
	assert_job(vk, 0, 812345678000ull, 468000, 0, false, 13);
	/* 41:13 from the other thread: queued .346000, run .346180, done
	 * .346500 */
	assert_job(vk, 1, 812346000000ull, 320000, 0, false, 18);
	assert_string_equal(ff->key, "client 9");
	assert_string_equal(ff->name, "ffmpeg");
	assert_int_equal(ff->channels->len, 2);
	assert_string_equal(channel_at(ff, 0), "0000:03:00.0 bcs0");
	assert_string_equal(channel_at(ff, 1), "0000:03:00.0 ccs0");
	assert_int_equal(ff->jobs->len, 2);
	/* 55:3 queued .345700, run .345720, done .345920 */
	assert_job(ff, 0, 812345700000ull, 200000, 0, true, 14);
	/* 56:1 queued .346200, run .346210, done .347210 */
	assert_job(ff, 1, 812346200000ull, 1000000, 1, false, 22);
	assert_int_equal(st.records, 27);
	assert_int_equal(st.events, 13);
	assert_int_equal(st.never_ran, 1);	/* 55:4 */
	assert_int_equal(st.never_finished, 0);
	assert_int_equal(st.unknown_fence, 0);
	gs_import_free(imp);
}

/* Without client_id the process is the tgid where the line has one, so two
 * threads are one task; nanosecond fractions are kept. */
static void test_tgid_keys_and_nanoseconds(void **state)
{
	static const char text[] =
		"  app-11 (   10) [000] ..... 1.000000001: drm_sched_job: "
		"entity=0000000000000001, id=1, fence=00000000000000a1, "
		"ring=gfx, job count:1, hw job count:0\n"
		"  app-12 (   10) [001] ..... 1.000000002: drm_sched_job: "
		"entity=0000000000000001, id=2, fence=00000000000000a2, "
		"ring=gfx, job count:1, hw job count:0\n"
		"  gfx-5 (    5) [001] ..... 1.000000010: drm_run_job: "
		"entity=0000000000000001, id=1, fence=00000000000000a1, "
		"ring=gfx, job count:0, hw job count:1\n"
		"  gfx-5 (    5) [001] ..... 1.000000020: drm_run_job: "
		"entity=0000000000000001, id=2, fence=00000000000000a2, "
		"ring=gfx, job count:0, hw job count:1\n"
		"  <idle>-0 (-------) [001] d.h1. 1.000000110: "
		"drm_sched_process_job: fence=00000000000000a1 signaled\n"
		"  <idle>-0 (-------) [001] d.h1. 1.000000125: "
		"drm_sched_process_job: fence=00000000000000a2 signaled\n";
	struct gs_import *imp;
	struct gs_drm_stats st;
	GError *error = NULL;

	(void)state;
	assert_true(read_text(text, &imp, &st, &error));
	assert_int_equal(imp->tasks->len, 1);
	assert_string_equal(task_at(imp, 0)->key, "pid 10");
	assert_job(task_at(imp, 0), 0, 1000000001ull, 100, 0, false, 1);
	assert_job(task_at(imp, 0), 1, 1000000002ull, 105, 0, false, 2);
	gs_import_free(imp);
}

/* Counter clocks (x86-tsc, counter) print a count without a point: taken
 * as nanoseconds. */
static void test_counter_clock_timestamps(void **state)
{
	static const char text[] =
		"a-1 [000] 1000: drm_sched_job_queue: dev=d, fence=1:1, "
		"ring=sdma1, job count:1, hw job count:0, client_id:4\n"
		"k-2 [000] 1100: drm_sched_job_run: dev=d, fence=1:1, "
		"ring=sdma1, job count:0, hw job count:1, client_id:4\n"
		"i-0 [000] 1350: drm_sched_job_done: fence=1:1 signaled\n";
	struct gs_import *imp;
	struct gs_drm_stats st;
	GError *error = NULL;

	(void)state;
	assert_true(read_text(text, &imp, &st, &error));
	assert_job(task_at(imp, 0), 0, 1000, 250, 0, true, 1);
	gs_import_free(imp);
}

/* A job run twice (reset recovery resubmits it) keeps its last run; a job
 * signalled without a run event is dropped as never run; a fence queued
 * again while pending drops the first job. */
static void test_reruns_and_lost_events(void **state)
{
	static const char text[] =
		"a-1 [000] 10.000000: drm_sched_job_queue: dev=d, fence=1:1, "
		"ring=gfx, job count:1, hw job count:0, client_id:1\n"
		"k-2 [000] 10.000010: drm_sched_job_run: dev=d, fence=1:1, "
		"ring=gfx, job count:0, hw job count:1, client_id:1\n"
		"k-2 [000] 10.000500: drm_sched_job_run: dev=d, fence=1:1, "
		"ring=gfx, job count:0, hw job count:1, client_id:1\n"
		"i-0 [000] 10.000600: drm_sched_job_done: fence=1:1 signaled\n"
		"a-1 [000] 10.001000: drm_sched_job_queue: dev=d, fence=1:2, "
		"ring=gfx, job count:1, hw job count:0, client_id:1\n"
		"i-0 [000] 10.001600: drm_sched_job_done: fence=1:2 signaled\n"
		"a-1 [000] 10.002000: drm_sched_job_queue: dev=d, fence=1:3, "
		"ring=gfx, job count:1, hw job count:0, client_id:1\n"
		"b-3 [000] 10.002100: drm_sched_job_queue: dev=d, fence=1:3, "
		"ring=gfx, job count:1, hw job count:0, client_id:2\n"
		"k-2 [000] 10.002200: drm_sched_job_run: dev=d, fence=1:3, "
		"ring=gfx, job count:0, hw job count:1, client_id:2\n"
		"i-0 [000] 10.002300: drm_sched_job_done: fence=1:3 signaled\n";
	struct gs_import *imp;
	struct gs_drm_stats st;
	GError *error = NULL;

	(void)state;
	assert_true(read_text(text, &imp, &st, &error));
	assert_int_equal(imp->tasks->len, 2);
	assert_job(task_at(imp, 0), 0, 10000000000ull, 100000, 0, false, 1);
	assert_string_equal(task_at(imp, 1)->key, "client 2");
	assert_job(task_at(imp, 1), 0, 10002100000ull, 100000, 0, false, 8);
	assert_int_equal(st.reruns, 1);
	assert_int_equal(st.never_ran, 2);	/* 1:2 unrun, first 1:3 */
	assert_int_equal(st.jobs, 2);
	gs_import_free(imp);
}

static void assert_sample_error(const char *sample, gint code,
				const char *message)
{
	char *path = g_strconcat(SAMPLES "drm-text/", sample, NULL);
	char *want = g_strconcat(path, message, NULL);
	struct gs_import *imp = gs_import_new(path, "drm-text");
	struct gs_drm_stats st;
	GError *error = NULL;

	assert_false(gs_drm_text_read_stats(path, imp, &st, &error));
	assert_non_null(error);
	assert_int_equal(error->code, code);
	assert_string_equal(error->message, want);
	g_error_free(error);
	gs_import_free(imp);
	g_free(want);
	g_free(path);
}

static void test_malformed_lines_are_positioned(void **state)
{
	(void)state;
	assert_sample_error("bad-fence.txt", GS_IMPORT_ERROR_PARSE,
			    ":3: drm_run_job: missing or malformed fence");
	assert_sample_error("bad-line.txt", GS_IMPORT_ERROR_PARSE,
			    ":3: malformed trace line (expected COMM-PID "
			    "[CPU] SECONDS: EVENT: FIELDS)");
	assert_sample_error("bad-client.txt", GS_IMPORT_ERROR_PARSE,
			    ":1: drm_sched_job_queue: missing or malformed "
			    "client_id");
	assert_sample_error("sched-only-report.txt", GS_IMPORT_ERROR_EMPTY,
			    ": no finished DRM scheduler job (0 scheduler "
			    "events)");
}

/* A scheduler event whose name lacks its colon is a malformed line of
 * that event, not another event's line to skip (it was skipped, and its
 * job then counted as never run). */
static void test_event_without_colon_is_an_error(void **state)
{
	static const char text[] =
		"a-1 [000] 1.000000: drm_sched_job: entity=01, id=1, "
		"fence=a1, ring=gfx, job count:1, hw job count:0\n"
		"k-2 [000] 1.000010: drm_run_job entity=01, id=1, "
		"fence=a1, ring=gfx, job count:0, hw job count:1\n"
		"i-0 [000] 1.000110: drm_sched_process_job: fence=a1 "
		"signaled\n";
	struct gs_import *imp;
	struct gs_drm_stats st;
	GError *error = NULL;

	(void)state;
	assert_false(read_text(text, &imp, &st, &error));
	assert_int_equal(error->code, GS_IMPORT_ERROR_PARSE);
	assert_non_null(strstr(error->message, ":2: malformed trace line"));
	g_error_free(error);
	gs_import_free(imp);
}

/* A real `trace-cmd report` of sched events: every line but the cpus=
 * header is a trace line of another event, all skipped. */
static void test_other_events_skipped(void **state)
{
	struct gs_import *imp = gs_import_new(
		SAMPLES "drm-text/sched-only-report.txt", "drm-text");
	struct gs_drm_stats st;
	GError *error = NULL;

	(void)state;
	assert_false(gs_drm_text_read_stats(imp->source, imp, &st, &error));
	assert_int_equal(error->code, GS_IMPORT_ERROR_EMPTY);
	assert_int_equal(st.records, 24);
	assert_int_equal(st.events, 0);
	assert_int_equal(imp->tasks->len, 0);
	g_error_free(error);
	gs_import_free(imp);
}

/* The jobs of the QEMU recording (scripts/record_drm_sample.sh: Debian's
 * 6.1 kernel, gpu-sched.ko driven by tests/import/drm_sample_sched/),
 * worked out from `trace-cmd report -t` of it (samples/drm-text/
 * amdgpu-6.1-qemu-report.txt, lines given): dd, cp and cat submit; a
 * later cp (pid 94) leaves two jobs running and one queued. */
static void assert_qemu_jobs(const struct gs_import *imp, bool text)
{
	struct gs_import_task *cp, *dd, *cat;

	assert_int_equal(imp->tasks->len, 3);
	cp = task_at(imp, 0);
	dd = task_at(imp, 1);
	cat = task_at(imp, 2);
	assert_string_equal(cp->key, "pid 91");
	assert_string_equal(cp->name, "cp");
	assert_string_equal(channel_at(cp, 0), "sdma0");
	assert_int_equal(cp->jobs->len, 2);
	/* queued 6.730641574 (19), run .731156073, done .750050228 */
	assert_job(cp, 0, 6730641574ull, 18894155, 0, true, text ? 19 : 0);
	/* queued .731478014 (23), run .732017950, done .750270617 */
	assert_job(cp, 1, 6731478014ull, 18252667, 0, true, text ? 23 : 0);
	assert_string_equal(dd->key, "pid 90");
	assert_string_equal(dd->name, "dd");
	assert_string_equal(channel_at(dd, 0), "gfx_0.0.0");
	assert_int_equal(dd->jobs->len, 3);
	/* (27) run .732135706, done .750274212 */
	assert_job(dd, 0, 6732098080ull, 18138506, 0, false, text ? 27 : 0);
	/* (31) run .732169587, done .750289726 */
	assert_job(dd, 1, 6732160143ull, 18120139, 0, false, text ? 31 : 0);
	/* (35) credit limit 2: run only at .750766989, done .753852418 */
	assert_job(dd, 2, 6732202126ull, 3085429, 0, false, text ? 35 : 0);
	assert_string_equal(cat->key, "pid 92");
	assert_string_equal(channel_at(cat, 0), "gfx_0.0.0");
	/* (53) run .757536241, done .777890968 */
	assert_job(cat, 0, 6757461709ull, 20354727, 0, false, text ? 53 : 0);
	assert_int_equal(imp->jobs, 6);
}

static void assert_qemu_stats(const struct gs_drm_stats *st)
{
	assert_int_equal(st->events, 23);
	assert_int_equal(st->jobs, 6);
	assert_int_equal(st->never_ran, 1);
	assert_int_equal(st->never_finished, 2);
	assert_int_equal(st->unknown_fence, 0);
}

/* The binary recording and its text rendering give the same jobs. */
static void test_qemu_recording_binary_and_text(void **state)
{
	struct gs_import *bin = gs_import_new(
		SAMPLES "drm-tracecmd/amdgpu-6.1-qemu.dat", "drm-tracecmd");
	struct gs_import *text = gs_import_new(
		SAMPLES "drm-text/amdgpu-6.1-qemu-report.txt", "drm-text");
	struct gs_drm_stats st;
	GError *error = NULL;

	(void)state;
	assert_true(gs_drm_tracecmd_read_stats(bin->source, bin, &st, &error));
	assert_qemu_jobs(bin, false);
	assert_qemu_stats(&st);
	assert_int_equal(st.records, 101);
	assert_true(gs_drm_text_read_stats(text->source, text, &st, &error));
	assert_qemu_jobs(text, true);
	assert_qemu_stats(&st);
	assert_int_equal(st.records, 102);	/* and the cpus= line */
	gs_import_free(bin);
	gs_import_free(text);
}

/* The trace.dat sample holds 283 records (`trace-cmd report` prints 283
 * event lines), none of them the scheduler's. */
static void test_tracecmd_reads_every_record(void **state)
{
	struct gs_import *imp = gs_import_new(
		SAMPLES "drm-tracecmd/sched-switch.dat", "drm-tracecmd");
	struct gs_drm_stats st;
	GError *error = NULL;

	(void)state;
	assert_false(gs_drm_tracecmd_read_stats(imp->source, imp, &st,
						&error));
	assert_int_equal(error->code, GS_IMPORT_ERROR_EMPTY);
	assert_int_equal(st.records, 283);
	assert_int_equal(st.events, 0);
	g_error_free(error);
	gs_import_free(imp);
}

static void test_tracecmd_refuses_other_files(void **state)
{
	const char *text = SAMPLES "drm-text/amdgpu-6.1-report.txt";
	struct gs_import *imp = gs_import_new(text, "drm-tracecmd");
	struct gs_drm_stats st;
	GError *error = NULL;

	(void)state;
	assert_false(gs_drm_tracecmd_read_stats(text, imp, &st, &error));
	assert_int_equal(error->code, GS_IMPORT_ERROR_PARSE);
	assert_non_null(strstr(error->message, "not a trace-cmd trace.dat"));
	g_clear_error(&error);
	gs_import_free(imp);
	imp = gs_import_new("no/such.dat", "drm-tracecmd");
	assert_false(gs_drm_tracecmd_read_stats("no/such.dat", imp, &st,
						&error));
	assert_int_equal(error->code, GS_IMPORT_ERROR_READ);
	g_error_free(error);
	gs_import_free(imp);
}

static void test_copy_rings_and_table(void **state)
{
	(void)state;
	assert_true(gs_drm_ring_is_copy("sdma0"));
	assert_true(gs_drm_ring_is_copy("sdma1"));
	assert_true(gs_drm_ring_is_copy("bcs8"));
	assert_false(gs_drm_ring_is_copy("sdma"));
	assert_false(gs_drm_ring_is_copy("gfx_0.0.0"));
	assert_false(gs_drm_ring_is_copy("ccs0"));
	assert_false(gs_drm_ring_is_copy("bcsx"));
	assert_ptr_equal(gs_importer_find("drm-text"), &gs_importer_drm_text);
	assert_ptr_equal(gs_importer_find("drm-tracecmd"),
			 &gs_importer_drm_tracecmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_amdgpu_61_report),
		cmocka_unit_test(test_xe_617_tracefs),
		cmocka_unit_test(test_tgid_keys_and_nanoseconds),
		cmocka_unit_test(test_counter_clock_timestamps),
		cmocka_unit_test(test_reruns_and_lost_events),
		cmocka_unit_test(test_malformed_lines_are_positioned),
		cmocka_unit_test(test_event_without_colon_is_an_error),
		cmocka_unit_test(test_other_events_skipped),
		cmocka_unit_test(test_tracecmd_reads_every_record),
		cmocka_unit_test(test_qemu_recording_binary_and_text),
		cmocka_unit_test(test_tracecmd_refuses_other_files),
		cmocka_unit_test(test_copy_rings_and_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
