/*
 * test_html.c - the HTML report's pieces that carry logic: escaping, the
 * Pareto front, the scaling series, and that the page is whole and
 * deterministic.  The page is rendered in a browser by tests/suite_html.sh.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cli/html.h"
#include "../../cli/html_svg.h"
#include "t.h"

static char *escaped(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    html_escape(f, s);
    fclose(f);
    return buf;
}

static void text_is_escaped(void)
{
    char *e = escaped("a<b>&\"c\" 'd'\x01\x7f\tx\ny \xc3\xa9");
    T_CHECK(e && !strcmp(e, "a&lt;b&gt;&amp;&quot;c&quot; &#39;d&#39;\tx\ny \xc3\xa9"),
            "markup characters become references, control characters go, UTF-8 stays");
    free(e);
}

static void thousands_are_separated(void)
{
    static const char *const in[] = {"0", "999", "1000", "2931941", "-1234567.89", "12345.5", "0.000123"};
    static const char *const want[] = {"0", "999", "1,000", "2,931,941", "-1,234,567.89", "12,345.5",
                                       "0.000123"};
    char out[64];

    for (int k = 0; k < 7; k++) {
        html_group_digits(out, sizeof out, in[k]);
        T_CHECK(!strcmp(out, want[k]), "%s is written %s (got %s)", in[k], want[k], out);
    }
    html_group_digits(out, 6, "2931941");
    T_CHECK(strlen(out) <= 5, "a short buffer is never overrun (%s)", out);
}

static char *axis_text(const struct axis *a)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    axis_y(f, a, 100, 900, "t");
    fclose(f);
    return buf;
}

static void a_money_axis_says_dollars_in_k_and_m(void)
{
    struct axis a;
    char *s;

    /* max 3.6M: ticks of 1M up to 4M, written $1M ... $4M, and $0 */
    axis_linear(&a, 3.6e6, 400, 20);
    a.money = 1;
    s = axis_text(&a);
    T_CHECK(s && strstr(s, ">$4M</text>") && strstr(s, ">$1M</text>") && strstr(s, ">$0</text>"),
            "a cost axis to $4M says $1M to $4M");
    free(s);
    /* max 4,500: ticks of 1,000 up to 5,000, below 10,000 in full with commas */
    axis_linear(&a, 4500, 400, 20);
    a.money = 1;
    s = axis_text(&a);
    T_CHECK(s && strstr(s, ">$5,000</text>") && !strstr(s, ">5000<"), "$5,000 below 10,000");
    free(s);
    a.money = 0;
    s = axis_text(&a);
    T_CHECK(s && strstr(s, ">5000</text>") && !strchr(s, '$'), "a count axis has no $ and no commas");
    free(s);
}

/* Five clusters: (step s, cost $): A (1, 4), B (2, 2), C (3, 3) dominated by
 * B, D (4, 1), E (0.5, 0.5) infeasible.  Front of the feasible: A, B, D. */
static struct cat_instance i1, i2;
static struct sc_cluster cl[5];
static struct plan_cluster pc[5];
static struct scenario sc;
static struct plan_report rep;

static void fixture(void)
{
    const double step[5] = {1, 2, 3, 4, 0.5}, cost[5] = {4, 2, 3, 1, 0.5};
    const int count[5] = {1, 2, 4, 1, 1};

    memset(&i1, 0, sizeof i1);
    memset(&i2, 0, sizeof i2);
    snprintf(i1.name, sizeof i1.name, "gpu.a");
    i1.gpu_count = 8;
    snprintf(i2.name, sizeof i2.name, "gpu.b");
    i2.gpu_count = 4;
    memset(cl, 0, sizeof cl);
    memset(pc, 0, sizeof pc);
    for (int i = 0; i < 5; i++) {
        snprintf(cl[i].name, sizeof cl[i].name, "%c<x>", 'A' + i);
        cl[i].ngroups = 1;
        /* A, B, C: gpu.a at 1, 2, 4 nodes; D, E: gpu.b at one node each. */
        cl[i].groups[0] = (struct sc_group){SIM_TRAIN, i < 3 ? &i1 : &i2, count[i], 0};
        pc[i].cl = &cl[i];
        pc[i].res.step_mean_s = step[i];
        pc[i].res.step_p95_s = step[i];
        pc[i].res.compute_s = step[i] * 0.7;
        pc[i].res.data_stall_s = step[i] * 0.1;
        pc[i].res.exposed_comm_s = step[i] * 0.1;
        pc[i].res.optimizer_s = step[i] * 0.1;
        pc[i].res.workers = count[i] * (i < 3 ? 8 : 4);
        pc[i].res.samples_per_s = pc[i].res.workers * 100 / step[i];
        pc[i].cost_per_step_usd = cost[i];
        pc[i].price_usd_h = cost[i] * 3600 / step[i];
        pc[i].scaling_eff = 0.9;
        pc[i].feasible = i != 4;
        snprintf(pc[i].bound_text, sizeof pc[i].bound_text, "compute-bound");
    }
    memset(&sc, 0, sizeof sc);
    snprintf(sc.name, sizeof sc.name, "html & fixture");
    sc.objective.deadline_h = NAN;
    sc.objective.budget_usd_h = NAN;
    memset(&rep, 0, sizeof rep);
    rep.sc = &sc;
    rep.clusters = pc;
    rep.nclusters = 5;
    rep.best = 1;
    rep.solved_value = rep.solved_lo = rep.solved_hi = NAN;
    snprintf(rep.reason, sizeof rep.reason, "B is <cheapest> & fast");
}

static void the_pareto_front_holds_the_undominated_feasible_clusters(void)
{
    int front[5], n;

    fixture();
    n = html_pareto(&rep, front);
    T_CHECK(n == 3, "three clusters on the front (%d)", n);
    T_CHECK(front[0] && front[1] && front[3], "A, B and D are on it: nothing is faster and cheaper");
    T_CHECK(!front[2], "C is not: B is faster and cheaper");
    T_CHECK(!front[4], "E is not: it is infeasible, however fast and cheap");
    /* A tie on both counts dominates no one. */
    pc[2].res.step_mean_s = 2;
    pc[2].cost_per_step_usd = 2;
    n = html_pareto(&rep, front);
    T_CHECK(n == 4 && front[1] && front[2], "two clusters with equal time and cost are both on the front");
    pc[3].cost_per_step_usd = NAN;
    n = html_pareto(&rep, front);
    T_CHECK(!front[3], "a cluster with an unknown cost is left off");
}

static char *page(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int rc;
    if (!f)
        return NULL;
    rc = html_write(f, &rep);
    fclose(f);
    T_CHECK(rc == 0, "html_write returns 0");
    return buf;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

static void the_page_has_every_chart_and_escapes_the_scenario(void)
{
    char *a, *b;

    fixture();
    a = page();
    b = page();
    if (!a || !b) {
        free(a);
        free(b);
        return;
    }
    T_CHECK(!strcmp(a, b), "the page is byte-identical across calls");
    T_CHECK(!strncmp(a, "<!DOCTYPE html>", 15) && strstr(a, "</html>\n"), "a whole HTML document");
    T_CHECK(count(a, "<g class=\"bar-row\">") == 5, "one bar row per cluster");
    T_CHECK(count(a, "<g class=\"point") == 5, "one point per cluster in the cost chart");
    T_CHECK(count(a, "<g class=\"point front") == 3, "three of them marked on the front");
    T_CHECK(strstr(a, "class=\"point infeasible\"") != NULL, "the infeasible one is marked");
    /* gpu.a has 8, 16 and 32 GPUs; gpu.b only 4 (twice): one series. */
    T_CHECK(count(a, "<g class=\"series\">") == 2, "one scaling series, in both scaling charts");
    T_CHECK(strstr(a, "GPUs (data-parallel workers)") != NULL, "linear GPU axis for a 4x range");
    T_CHECK(strstr(a, "html &amp; fixture") && !strstr(a, "html & fixture"), "the scenario name is escaped");
    T_CHECK(strstr(a, "B is &lt;cheapest&gt; &amp; fast") != NULL, "the reason is escaped");
    T_CHECK(!strstr(a, "A<x>"), "cluster names are escaped everywhere");
    free(a);
    free(b);

    /* One size per type: no curve, and the page says what it needs. */
    cl[1].groups[0].count = 1;
    cl[2].groups[0].count = 1;
    pc[1].res.workers = pc[2].res.workers = 8;
    cl[4].groups[0].count = 1;
    a = page();
    T_CHECK(a && strstr(a, "id=\"no-scaling\"") && !strstr(a, "chart-scaling"),
            "no scaling chart without two sizes of one type, and a note instead");
    free(a);
}

int main(void)
{
    T_RUN(text_is_escaped);
    T_RUN(thousands_are_separated);
    T_RUN(a_money_axis_says_dollars_in_k_and_m);
    T_RUN(the_pareto_front_holds_the_undominated_feasible_clusters);
    T_RUN(the_page_has_every_chart_and_escapes_the_scenario);
    return T_DONE();
}
