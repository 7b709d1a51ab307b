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

int main(void)
{
    T_RUN(daly_interval_reproduces_his_examples);
    T_RUN(wall_time_counts_dumps_restarts_and_lost_work);
    T_RUN(odds_of_a_failure_in_thirty_days);
    return T_DONE();
}
