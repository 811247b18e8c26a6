/* engine/progress.c and the CPU count of run.c: durations as h:mm:ss, the
 * progress line fitted to a terminal's width, the timestamped log line,
 * the running / stopped / finished verdict of `flipsim status`, and the
 * default number of workers (issue 10, items 1 and 11). Pure functions:
 * widths, clocks, hosts and CPU counts are the tests' own. */
#include <criterion/criterion.h>
#include <math.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "eng_int.h"

Test(progress, hms)
{
	char b[32];
	cr_expect_str_eq(eng_hms(0, b, sizeof b), "0:00:00");
	cr_expect_str_eq(eng_hms(59.6, b, sizeof b), "0:01:00");
	cr_expect_str_eq(eng_hms(3725, b, sizeof b), "1:02:05");
	cr_expect_str_eq(eng_hms(90000, b, sizeof b), "25:00:00", "hours do not wrap at a day");
	cr_expect_str_eq(eng_hms(NAN, b, sizeof b), "-");
	cr_expect_str_eq(eng_hms(-1, b, sizeof b), "-");
	cr_expect_str_eq(eng_hms(INFINITY, b, sizeof b), "-");
}

Test(progress, iso_time)
{
	char b[32];
	cr_expect_str_eq(eng_iso_time(0, b, sizeof b), "1970-01-01T00:00:00Z");
	cr_expect_str_eq(eng_iso_time(1795000000.7, b, sizeof b), "2026-11-18T11:06:40Z");
}

static eng_progress_t sample(void)
{
	return (eng_progress_t){.name = "scalarprod-regfile-alloc", .index = 1, .count = 3, .done = 123456,
	                        .total = 200000, .rate = 412.3, .eta = 185.2, .eta_all = 7385, .masked = 100000,
	                        .sdc = 20000, .due = 3456, .avf = 0.19, .avf_lo = 0.188, .avf_hi = 0.192};
}

/* At every width the line fits in width-1 columns (the last one free: a
 * full line makes some terminals wrap), so \r redraws it in place. */
Test(progress, line_fits_every_width)
{
	eng_progress_t p = sample();
	char b[512];
	for (int w = 1; w <= 240; w++) {
		eng_progress_line(&p, w, b, sizeof b);
		cr_expect_leq(strlen(b), (size_t)(w > 1 ? w - 1 : 1), "width %d: '%s'", w, b);
		cr_expect_null(strchr(b, '\n'));
	}
}

/* What is left out first: the name, then counts; done/total and the ETA
 * stay as long as anything does. */
Test(progress, line_keeps_what_matters)
{
	eng_progress_t p = sample();
	char b[512];
	eng_progress_line(&p, 200, b, sizeof b);
	cr_expect_str_eq(b, "[2/3]  scalarprod-regfile-alloc  123456/200000  412/s  ETA 0:03:05  run ETA 2:03:05  "
	                    "masked 100000 sdc 20000 due 3456  AVF 19.00% [18.80, 19.20]");
	eng_progress_line(&p, 64, b, sizeof b);
	cr_expect_str_eq(b, "123456/200000  412/s  ETA 0:03:05  AVF 19.00% [18.80, 19.20]");
	eng_progress_line(&p, 60, b, sizeof b);
	cr_expect_str_eq(b, "123456/200000  ETA 0:03:05  AVF 19.00% [18.80, 19.20]");
	eng_progress_line(&p, 30, b, sizeof b);
	cr_expect_str_eq(b, "123456/200000  ETA 0:03:05");
	p.count = 1;
	p.avf = NAN;
	eng_progress_line(&p, 200, b, sizeof b);
	cr_expect_str_eq(b, "scalarprod-regfile-alloc  123456/200000  412/s  ETA 0:03:05  masked 100000 sdc 20000 "
	                    "due 3456  AVF -", "one campaign: no index, no run ETA");
}

/* A log line (stderr no terminal): the time, the campaign, every field. */
Test(progress, log_line)
{
	eng_progress_t p = sample();
	char b[512];
	eng_progress_log(&p, 1795000000, b, sizeof b);
	cr_expect_str_eq(b, "2026-11-18T11:06:40Z [2/3]  scalarprod-regfile-alloc  123456/200000  412/s  ETA 0:03:05  "
	                    "run ETA 2:03:05  masked 100000 sdc 20000 due 3456  AVF 19.00% [18.80, 19.20]");
}

/* ---- running, stopped, finished ------------------------------------------- */

static bool alive_yes(int64_t pid) { return pid > 0; }
static bool alive_no(int64_t pid) { return pid < 0; }

Test(progress, campaign_state)
{
	db_progress_t half = {.n_masks = 100, .done = 50}, full = {.n_masks = 100, .done = 100};
	db_daemon_t d = {.pid = 10, .host = "node1", .heartbeat = 1000, .interval = 10};
	cr_expect_eq(eng_campaign_state(&full, NULL, 5000, "node1", alive_no), ENG_FINISHED);
	cr_expect_eq(eng_campaign_state(&half, NULL, 1000, "node1", alive_yes), ENG_STOPPED, "no daemon ever");
	cr_expect_eq(eng_campaign_state(&half, &d, 1005, "node1", alive_yes), ENG_RUNNING);
	cr_expect_eq(eng_campaign_state(&half, &d, 1029, "node1", alive_yes), ENG_RUNNING, "within 3 beats");
	cr_expect_eq(eng_campaign_state(&half, &d, 1031, "node1", alive_yes), ENG_STOPPED, "3 beats missed");
	cr_expect_eq(eng_campaign_state(&half, &d, 1005, "node1", alive_no), ENG_STOPPED, "its pid is gone here");
	cr_expect_eq(eng_campaign_state(&half, &d, 1005, "node2", alive_no), ENG_RUNNING,
	             "another host's pid is not ours to check");
	d.ended = true;
	cr_expect_eq(eng_campaign_state(&half, &d, 1005, "node1", alive_yes), ENG_STOPPED, "it said it ended");
	cr_expect_str_eq(eng_state_name(ENG_RUNNING), "running");
	cr_expect_str_eq(eng_state_name(ENG_STOPPED), "stopped");
	cr_expect_str_eq(eng_state_name(ENG_FINISHED), "finished");
	cr_expect(eng_pid_alive(getpid()));
}

/* ---- workers: the CPUs this process may use, capped (item 1) -------------- */

/* A machine with more CPUs than the cap (the crash: 100 CPUs overran a
 * table of 64) gets the cap; the hard maximum of -j is above it. */
Test(progress, default_workers_capped)
{
	cr_expect_eq(eng_default_workers(0), 1);
	cr_expect_eq(eng_default_workers(1), 1);
	cr_expect_eq(eng_default_workers(8), 8);
	cr_expect_eq(eng_default_workers(ENG_DEFAULT_MAX_WORKERS), ENG_DEFAULT_MAX_WORKERS);
	cr_expect_eq(eng_default_workers(100), ENG_DEFAULT_MAX_WORKERS);
	cr_expect_eq(eng_default_workers(1000), ENG_DEFAULT_MAX_WORKERS);
	cr_expect_gt(ENG_MAX_WORKERS, ENG_DEFAULT_MAX_WORKERS);
}

/* cgroup v2 cpu.max: "QUOTA PERIOD" in microseconds, or "max PERIOD". */
Test(progress, cgroup_cpu_max)
{
	cr_expect_eq(eng_cpu_max_cpus("max 100000\n"), 0);
	cr_expect_eq(eng_cpu_max_cpus("200000 100000\n"), 2);
	cr_expect_eq(eng_cpu_max_cpus("150000 100000"), 2, "rounded up");
	cr_expect_eq(eng_cpu_max_cpus("50000 100000"), 1);
	cr_expect_eq(eng_cpu_max_cpus("100000000 1000"), ENG_MAX_WORKERS);
	cr_expect_eq(eng_cpu_max_cpus(""), 0);
	cr_expect_eq(eng_cpu_max_cpus("x 100000"), 0);
}

/* The affinity mask bounds the count (taskset, Slurm): one CPU allowed,
 * one counted (each test runs in its own process). */
Test(progress, available_cpus_follow_affinity)
{
	cpu_set_t set, one;
	cr_assert_eq(sched_getaffinity(0, sizeof set, &set), 0);
	cr_expect_geq(eng_available_cpus(), 1);
	cr_expect_leq(eng_available_cpus(), CPU_COUNT(&set));
	CPU_ZERO(&one);
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set)) {
			CPU_SET(i, &one);
			break;
		}
	cr_assert_eq(sched_setaffinity(0, sizeof one, &one), 0);
	cr_expect_eq(eng_available_cpus(), 1);
}
