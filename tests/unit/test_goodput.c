/*
 * test_goodput.c - the goodput model's arithmetic (planner/goodput.c)
 * against the published figures it rests on: Daly's optimum checkpoint
 * interval reproduces his own examples, the expected wall time reduces to
 * the checkpoints' overhead without failures and grows with the restart,
 * and the odds of a failure are issue 40's (57% and 19% at 1,024 and 256
 * GPUs at 1% a GPU-year in 30 days).  Links the planner layer only.
 */
#include "t.h"

#include <math.h>

#include "../../planner/goodput.h"

#define MIN 60.0
#define YEAR (365.25 * 86400)

/* J. T. Daly, Future Generation Computer Systems 22(3), 2006: a 5-minute
 * dump against an MTBF of 24 h, 6 h and 15 minutes, optimum 117, 57 and
 * 9.1 minutes (his Figs. 3 to 5); Young's sqrt(2 delta M) is the first
 * term. */
static void daly_interval_reproduces_his_examples(void)
{
    T_NEAR(goodput_interval(5 * MIN, 24 * 3600) / MIN, 117, 0.5 / 117, "M 24 h: 117 minutes");
    T_NEAR(goodput_interval(5 * MIN, 6 * 3600) / MIN, 57, 0.5 / 57, "M 6 h: 57 minutes");
    T_NEAR(goodput_interval(5 * MIN, 15 * MIN) / MIN, 9.1, 0.1 / 9.1, "M 15 minutes: 9.1 minutes");
    T_CHECK(goodput_interval(5 * MIN, 2 * MIN) == 2 * MIN, "a dump longer than 2 M: every M");
    T_CHECK(isinf(goodput_interval(5 * MIN, INFINITY)), "no failures: no optimum (never)");
}

/* Daly's expected wall time: without failures only the dumps cost; each
 * interruption costs its restart and the lost half interval, to first
 * order. */
static void wall_time_counts_dumps_restarts_and_lost_work(void)
{
    double work = 100 * 3600, tau = 3600, delta = 60, r = 600, m = 24 * 3600;
    double wall = goodput_wall(work, tau, delta, r, m);
    double first = work * (1 + delta / tau) + (work / m) * (r + (tau + delta) / 2);

    T_NEAR(goodput_wall(work, tau, delta, r, INFINITY), work * (1 + delta / tau), 1e-12,
           "no failures: the work and its dumps");
    T_CHECK(wall > work * (1 + delta / tau), "failures cost more (%.1f h)", wall / 3600);
    T_NEAR(wall, first, 0.02, "and near the first-order estimate (%.1f h against %.1f)",
           wall / 3600, first / 3600);
    T_CHECK(goodput_wall(work, tau, delta, 2 * r, m) > wall, "a longer restart costs more");
}

static void odds_of_a_failure_in_thirty_days(void)
{
    T_NEAR(goodput_p_any(1024 * 0.01 / YEAR, 30 * 86400.0), 0.569, 0.005,
           "1,024 GPUs at 1%% a GPU-year: 57%% in 30 days");
    T_NEAR(goodput_p_any(256 * 0.01 / YEAR, 30 * 86400.0), 0.190, 0.005,
           "256 GPUs: 19%%");
    T_CHECK(goodput_p_any(0, 30 * 86400.0) == 0, "no failures: none");
}

/* The sampled runs bracket Daly's expectation (the sampler leaves out
 * interruptions during a restart, which his formula counts: a little
 * below it), the same seed draws the same runs, and a run's spread narrows
 * as its interruptions grow in number. */
static void sampled_runs_bracket_the_expected_wall(void)
{
    double work = 100 * 86400.0, tau = 3600, delta = 60, r = 600, m = 6 * 3600;
    double wall = goodput_wall(work, tau, delta, r, m), p10, p90, q10, q90, s10, s90;

    goodput_sample(2000, 1, work, tau, delta, r, m, &p10, &p90);
    T_CHECK(p10 < wall && wall < p90 * 1.01, "p10 %.2f d, expected %.2f d, p90 %.2f d",
            p10 / 86400, wall / 86400, p90 / 86400);
    T_CHECK(p90 / p10 < 1.05, "400 interruptions a run: a narrow spread (%.4f)", p90 / p10);
    goodput_sample(2000, 1, work, tau, delta, r, m, &q10, &q90);
    T_CHECK(q10 == p10 && q90 == p90, "the same seed, the same runs");
    goodput_sample(2000, 1, work / 50, tau, delta, r, m, &s10, &s90);
    T_CHECK(s90 / s10 > p90 / p10, "8 interruptions a run: a wider one (%.4f)", s90 / s10);
}

/* The bound on sampling counts the draws the sampler makes, its
 * interruptions: a 90-day run over 16,384 GPUs at one interruption every
 * 3 hours (Llama 3's rate) is sampled at 200 runs, however short its
 * checkpoint interval; 1e12 interruptions are not; nor is a run without
 * interruptions or without runs. */
static void sampling_is_bounded_by_its_interruptions(void)
{
    T_CHECK(goodput_sampled(200, 90 * 86400.0, 3 * 3600), "16,384 GPUs, 90 days: sampled");
    T_CHECK(goodput_sampled(50000, 90 * 86400.0, 3 * 3600), "50,000 runs of it: 3.6e7 draws");
    T_CHECK(!goodput_sampled(100000, 90 * 86400.0, 3 * 3600), "100,000 runs: 7.2e7, not");
    T_CHECK(!goodput_sampled(1000, 1e9, 1), "1e12 draws: not sampled");
    T_CHECK(!goodput_sampled(200, 1e6, INFINITY), "no interruptions: nothing to sample");
    T_CHECK(!goodput_sampled(0, 1e6, 3600), "no runs asked for");
}

int main(void)
{
    T_RUN(daly_interval_reproduces_his_examples);
    T_RUN(wall_time_counts_dumps_restarts_and_lost_work);
    T_RUN(sampled_runs_bracket_the_expected_wall);
    T_RUN(sampling_is_bounded_by_its_interruptions);
    T_RUN(odds_of_a_failure_in_thirty_days);
    return T_DONE();
}
