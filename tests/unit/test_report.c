/*
 * test_report.c - the table and JSON reports, on a plan_report built by hand.
 *
 * No planning happens here: two clusters with known numbers go in, and the
 * tests check what comes out (JSON fields and values, nulls for unknowns, the
 * recommendation line, determinism).  Only report_* and cJSON are called.
 */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cli/report.h"
#include "t.h"

/* ---- the fixture ---------------------------------------------------------- */

static struct cat_instance inst_gpu, inst_cpu;
static struct sc_cluster clusters[2];
static struct scenario sc;
static struct plan_cluster pcs[2];
static struct plan_report rep;

/*
 * Cluster 0 "single": 1x ml.p4d.24xlarge, CPU-bound, dataset size unknown
 * (epoch numbers NAN).  Cluster 1 "hetero": the same plus 2 spot
 * ml.c5.18xlarge data nodes, recommended, epoch numbers known.
 */
static void fixture(void)
{
    memset(&inst_gpu, 0, sizeof inst_gpu);
    memset(&inst_cpu, 0, sizeof inst_cpu);
    snprintf(inst_gpu.name, sizeof inst_gpu.name, "ml.p4d.24xlarge");
    snprintf(inst_cpu.name, sizeof inst_cpu.name, "ml.c5.18xlarge");

    memset(clusters, 0, sizeof clusters);
    snprintf(clusters[0].name, sizeof clusters[0].name, "single");
    clusters[0].ngroups = 1;
    clusters[0].groups[0] = (struct sc_group){SIM_TRAIN, &inst_gpu, 1, 0};
    snprintf(clusters[1].name, sizeof clusters[1].name, "hetero");
    clusters[1].ngroups = 2;
    clusters[1].groups[0] = (struct sc_group){SIM_TRAIN, &inst_gpu, 1, 0};
    clusters[1].groups[1] = (struct sc_group){SIM_DATA, &inst_cpu, 2, 1};

    memset(&sc, 0, sizeof sc);
    snprintf(sc.name, sizeof sc.name, "report-fixture");
    sc.clusters = clusters;
    sc.nclusters = 2;
    sc.objective.minimize = SC_OBJ_COST_STEP;
    sc.objective.deadline_h = NAN;
    sc.objective.budget_usd_h = NAN;
    sc.simulation.seed = 7;
    sc.simulation.steps = 20;
    sc.simulation.warmup = 3;

    memset(pcs, 0, sizeof pcs);
    struct plan_cluster *a = &pcs[0], *b = &pcs[1];
    a->cl = &clusters[0];
    a->res.step_mean_s = 0.192;
    a->res.step_p50_s = 0.191;
    a->res.step_p95_s = 0.2;
    a->res.compute_s = 0.08;
    a->res.data_stall_s = 0.108;
    a->res.exposed_comm_s = 0.003;
    a->res.optimizer_s = 0.001;
    a->res.util_gpu = 0.42;
    a->res.util_cpu = 0.99;
    a->res.util_nic = 0.05;
    a->res.workers = 8;
    a->res.samples_per_s = 2048 / 0.192;        /* 10666.666... -> 10666.7 */
    a->price_usd_h = 37.688;
    a->cost_per_step_usd = 37.688 * 0.192 / 3600; /* 0.00201002666... -> 0.00201003 */
    a->steps_per_epoch = NAN;
    a->epoch_s = NAN;
    a->cost_per_epoch_usd = NAN;
    a->train_s = NAN;
    a->cost_to_train_usd = NAN;
    a->scaling_eff = 0.123456789;               /* -> 0.123457 */
    a->feasible = 1;
    a->bound = PLAN_BOUND_CPU;
    snprintf(a->bound_text, sizeof a->bound_text, "CPU-bound: 96 vCPU keep 8 A100 busy 42%%");

    b->cl = &clusters[1];
    b->res.step_mean_s = 0.086;
    b->res.step_p50_s = 0.086;
    b->res.step_p95_s = 0.09;
    b->res.compute_s = 0.08;
    b->res.data_stall_s = 0;
    b->res.exposed_comm_s = 0.004;
    b->res.comm_interference_s = 0.001;
    b->res.optimizer_s = 0.001;               /* 80 + 0 + 4 + 1 + 1 = 86 ms, the step */
    b->res.util_gpu = 0.93;
    b->res.util_cpu = 0.8;
    b->res.util_nic = 0.3;
    b->res.workers = 8;
    b->res.samples_per_s = 2048 / 0.086;
    b->price_usd_h = 45.032;
    b->cost_per_step_usd = 45.032 * 0.086 / 3600;
    b->steps_per_epoch = 5000;
    b->epoch_s = 430;
    b->cost_per_epoch_usd = 45.032 * 430 / 3600;
    b->train_s = 4300;
    b->cost_to_train_usd = 45.032 * 4300 / 3600;
    b->scaling_eff = 0.95;
    b->feasible = 1;
    b->bound = PLAN_BOUND_COMPUTE;
    snprintf(b->bound_text, sizeof b->bound_text, "compute-bound: GPUs busy 93%%");

    memset(&rep, 0, sizeof rep);
    rep.sc = &sc;
    rep.clusters = pcs;
    rep.nclusters = 2;
    rep.solved_value = rep.solved_lo = rep.solved_hi = NAN;
    rep.best = 1;
    rep.action = PLAN_HETEROGENEOUS;
    snprintf(rep.reason, sizeof rep.reason, "2.2x faster at 1.19x the price per hour");
}

/* Run report_json (json=1) or report_table into a string the caller frees. */
static char *capture(int json)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int rc;

    if (!f)
        return NULL;
    rc = json ? report_json(f, &rep) : report_table(f, &rep);
    fclose(f);
    T_CHECK(rc == 0, "report_%s returns 0", json ? "json" : "table");
    return buf;
}

static const cJSON *get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* o[key] is a number within 6 significant digits of want: |got - want| <=
 * 5e-6 |want| (a relative bound even for small numbers such as $/step). */
static void check_num(const cJSON *o, const char *key, double want, const char *where)
{
    const cJSON *it = get(o, key);

    if (!cJSON_IsNumber(it)) {
        T_CHECK(0, "%s.%s is a number", where, key);
        return;
    }
    T_CHECK(fabs(it->valuedouble - want) <= 5e-6 * fabs(want), "%s.%s = %.9g (want %.9g)", where, key,
            it->valuedouble, want);
}

static void check_str(const cJSON *o, const char *key, const char *want, const char *where)
{
    const cJSON *it = get(o, key);
    T_CHECK(cJSON_IsString(it) && strcmp(it->valuestring, want) == 0,
            "%s.%s is \"%s\" (got \"%s\")", where, key, want,
            cJSON_IsString(it) ? it->valuestring : "(not a string)");
}

static cJSON *parse_report(void)
{
    char *text = capture(1);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    T_CHECK(root != NULL, "the JSON report parses back");
    free(text);
    return root;
}

/* ---- tests ---------------------------------------------------------------- */

static void json_has_every_required_field_with_its_value(void)
{
    fixture();
    cJSON *root = parse_report();
    if (!root)
        return;

    check_str(root, "scenario", "report-fixture", "report");
    check_num(root, "seed", 7, "report");
    T_CHECK(cJSON_IsString(get(root, "objective")) && *get(root, "objective")->valuestring,
            "objective is a non-empty string");
    T_CHECK(cJSON_IsNull(get(root, "solved")), "solved is null without a measured step");

    const cJSON *cls = get(root, "clusters");
    T_CHECK(cJSON_IsArray(cls) && cJSON_GetArraySize(cls) == 2, "clusters has 2 entries");
    const cJSON *a = cJSON_GetArrayItem(cls, 0), *b = cJSON_GetArrayItem(cls, 1);
    if (!a || !b)
        goto out;

    check_str(a, "name", "single", "clusters[0]");
    const cJSON *g = get(a, "groups");
    T_CHECK(cJSON_IsArray(g) && cJSON_GetArraySize(g) == 1, "clusters[0].groups has 1 entry");
    check_str(cJSON_GetArrayItem(g, 0), "role", "train", "clusters[0].groups[0]");
    check_str(cJSON_GetArrayItem(g, 0), "instance", "ml.p4d.24xlarge", "clusters[0].groups[0]");
    check_num(cJSON_GetArrayItem(g, 0), "count", 1, "clusters[0].groups[0]");
    T_CHECK(cJSON_IsFalse(get(cJSON_GetArrayItem(g, 0), "spot")), "clusters[0].groups[0].spot is false");

    g = get(b, "groups");
    T_CHECK(cJSON_IsArray(g) && cJSON_GetArraySize(g) == 2, "clusters[1].groups has 2 entries");
    check_str(cJSON_GetArrayItem(g, 1), "role", "data", "clusters[1].groups[1]");
    check_str(cJSON_GetArrayItem(g, 1), "instance", "ml.c5.18xlarge", "clusters[1].groups[1]");
    check_num(cJSON_GetArrayItem(g, 1), "count", 2, "clusters[1].groups[1]");
    T_CHECK(cJSON_IsTrue(get(cJSON_GetArrayItem(g, 1), "spot")), "clusters[1].groups[1].spot is true");

    const cJSON *t = get(a, "step_time_s");
    check_num(t, "mean", 0.192, "step_time_s");
    check_num(t, "p50", 0.191, "step_time_s");
    check_num(t, "p95", 0.2, "step_time_s");
    t = get(a, "breakdown_s");
    check_num(t, "compute", 0.08, "breakdown_s");
    check_num(t, "data_stall", 0.108, "breakdown_s");
    check_num(t, "exposed_comm", 0.003, "breakdown_s");
    check_num(t, "optimizer", 0.001, "breakdown_s");
    t = get(a, "utilization");
    check_num(t, "gpu", 0.42, "utilization");
    check_num(t, "cpu", 0.99, "utilization");
    check_num(t, "nic", 0.05, "utilization");
    check_num(a, "samples_per_s", 2048 / 0.192, "clusters[0]");
    check_num(a, "workers", 8, "clusters[0]");
    check_num(a, "price_usd_per_h", 37.688, "clusters[0]");
    check_num(a, "cost_per_step_usd", 37.688 * 0.192 / 3600, "clusters[0]");
    T_CHECK(cJSON_IsTrue(get(a, "feasible")), "clusters[0].feasible is true");
    T_CHECK(cJSON_IsString(get(a, "bottleneck")) && *get(a, "bottleneck")->valuestring,
            "clusters[0].bottleneck is a non-empty name");
    check_str(a, "bottleneck_detail", "CPU-bound: 96 vCPU keep 8 A100 busy 42%", "clusters[0]");

    check_num(b, "epoch_s", 430, "clusters[1]");
    check_num(b, "cost_per_epoch_usd", 45.032 * 430 / 3600, "clusters[1]");   /* 5.37882 */
    check_num(b, "time_to_train_s", 4300, "clusters[1]");
    check_num(b, "cost_to_train_usd", 45.032 * 4300 / 3600, "clusters[1]"); /* 53.7882 */

    const cJSON *r = get(root, "recommendation");
    check_str(r, "cluster", "hetero", "recommendation");
    check_str(r, "action", "heterogeneous", "recommendation");
    check_str(r, "reason", "2.2x faster at 1.19x the price per hour", "recommendation");
out:
    cJSON_Delete(root);
}

static void json_doubles_are_rounded_to_6_significant_digits(void)
{
    fixture();
    cJSON *root = parse_report();
    if (!root)
        return;
    const cJSON *a = cJSON_GetArrayItem(get(root, "clusters"), 0);
    /* 0.123456789 -> "0.123457"; 37.688*0.192/3600 = 0.0020100266... -> 0.00201003 */
    T_CHECK(get(a, "scaling_efficiency") && get(a, "scaling_efficiency")->valuedouble == 0.123457,
            "scaling_efficiency 0.123456789 is written as 0.123457");
    T_CHECK(get(a, "cost_per_step_usd") && get(a, "cost_per_step_usd")->valuedouble == 0.00201003,
            "cost_per_step_usd is written as 0.00201003");
    T_CHECK(report_round6(10666.666666) == 10666.7, "report_round6(10666.666666) == 10666.7");
    T_CHECK(isnan(report_round6(NAN)), "report_round6 keeps NAN");
    cJSON_Delete(root);
}

static void unknown_numbers_become_json_null(void)
{
    fixture();
    pcs[1].res.util_nic = NAN;
    pcs[1].price_usd_h = INFINITY;
    cJSON *root = parse_report();
    if (!root)
        return;
    const cJSON *a = cJSON_GetArrayItem(get(root, "clusters"), 0);
    const cJSON *b = cJSON_GetArrayItem(get(root, "clusters"), 1);
    const char *keys[] = {"steps_per_epoch", "epoch_s", "cost_per_epoch_usd", "time_to_train_s",
                          "cost_to_train_usd"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        T_CHECK(cJSON_IsNull(get(a, keys[i])), "NAN %s is null", keys[i]);
    T_CHECK(cJSON_IsNull(get(get(b, "utilization"), "nic")), "NAN utilization.nic is null");
    T_CHECK(cJSON_IsNull(get(b, "price_usd_per_h")), "an infinite price is null");
    T_CHECK(cJSON_IsNull(get(root, "deadline_h")), "no deadline is null");
    cJSON_Delete(root);
}

static void table_ends_with_the_recommendation_and_objective(void)
{
    fixture();
    char *text = capture(0);
    if (!text)
        return;
    const char *want = "\nRecommendation: heterogeneous: hetero \xe2\x80\x94 "
                       "2.2x faster at 1.19x the price per hour\nObjective: ";
    T_CHECK(strstr(text, want) != NULL, "the table has the recommendation line, then the objective");
    T_CHECK(strstr(text, "1x ml.p4d.24xlarge + 2x ml.c5.18xlarge (data, spot)") != NULL,
            "the table shows the groups of the heterogeneous cluster");
    T_CHECK(strstr(text, "192.0") != NULL && strstr(text, " 0.00201 ") != NULL &&
                strstr(text, " 0.00108 ") != NULL,
            "the table shows 192.0 ms; $/step in one format for the column: the decimals that "
            "give the smaller, $0.00108, 3 significant digits, so $0.00201 beside it");
    T_CHECK(strstr(text, "7m10s") != NULL, "an epoch of 430 s reads 7m10s");
    T_CHECK(strstr(text, "Solved from measured step") == NULL, "no solved line without a measured step");
    free(text);
}

static void table_has_no_trailing_blanks_and_aligned_rows(void)
{
    fixture();
    char *text = capture(0);
    if (!text)
        return;
    int trailing = 0;
    for (const char *p = text; *p; p++)
        if (*p == '\n' && p > text && (p[-1] == ' ' || p[-1] == '\t'))
            trailing++;
    T_CHECK(trailing == 0, "no line ends in a blank (%d do)", trailing);
    /* The header and both rows put the groups column at the same offset. */
    const char *h = strstr(text, "cluster  groups");
    const char *r0 = strstr(text, "single");
    const char *r1 = strstr(text, "hetero ");
    T_CHECK(h && r0 && r1, "header and rows are present");
    if (h && r0 && r1) {
        const char *hl = h, *l0 = r0, *l1 = r1;
        while (hl > text && hl[-1] != '\n') hl--;
        while (l0 > text && l0[-1] != '\n') l0--;
        while (l1 > text && l1[-1] != '\n') l1--;
        T_CHECK(h - hl == r0 - l0 && h - hl == r1 - l1, "cluster names start in the header's column");
    }
    free(text);
}

static void output_is_byte_identical_across_calls(void)
{
    for (int json = 0; json <= 1; json++) {
        fixture();
        char *one = capture(json);
        fixture();
        char *two = capture(json);
        T_CHECK(one && two && strcmp(one, two) == 0, "%s output is the same twice",
                json ? "JSON" : "table");
        free(one);
        free(two);
    }
}

static void infeasible_clusters_are_marked_with_their_reason(void)
{
    fixture();
    pcs[0].feasible = 0;
    snprintf(pcs[0].infeasible_why, sizeof pcs[0].infeasible_why, "over the budget of $40/h");
    char *text = capture(0);
    T_CHECK(text && strstr(text, "Infeasible: single: over the budget of $40/h\n"),
            "the table names the infeasible cluster and why");
    T_CHECK(text && strstr(text, "\nx  single"), "the infeasible row is marked x");
    free(text);

    cJSON *root = parse_report();
    if (!root)
        return;
    const cJSON *a = cJSON_GetArrayItem(get(root, "clusters"), 0);
    T_CHECK(cJSON_IsFalse(get(a, "feasible")), "JSON feasible is false");
    check_str(a, "infeasible_why", "over the budget of $40/h", "clusters[0]");
    cJSON_Delete(root);
}

static void no_recommendation_is_null_in_json_and_none_in_the_table(void)
{
    fixture();
    rep.best = -1;
    rep.action = PLAN_NONE;
    snprintf(rep.reason, sizeof rep.reason, "no cluster meets the deadline");
    char *text = capture(0);
    T_CHECK(text && strstr(text, "Recommendation: none \xe2\x80\x94 no cluster meets the deadline\n"),
            "the table says none, once (the action none)");
    free(text);
    cJSON *root = parse_report();
    if (!root)
        return;
    T_CHECK(cJSON_IsNull(get(get(root, "recommendation"), "cluster")), "recommendation.cluster is null");
    check_str(get(root, "recommendation"), "action", "none", "recommendation");
    cJSON_Delete(root);
}

static void solved_value_is_printed_before_the_table(void)
{
    fixture();
    rep.solved_value = 0.0123456789;
    snprintf(rep.solved_what, sizeof rep.solved_what, "cpu_s_per_sample");
    char *text = capture(0);
    const char *s = text ? strstr(text, "Solved from measured step: cpu_s_per_sample = 0.0123457\n") : NULL;
    const char *h = text ? strstr(text, "cluster  groups") : NULL;
    T_CHECK(s && h && s < h, "the solved line comes before the table header");
    free(text);
    cJSON *root = parse_report();
    if (!root)
        return;
    check_str(get(root, "solved"), "what", "cpu_s_per_sample", "solved");
    check_num(get(root, "solved"), "value", 0.0123457, "solved");
    cJSON_Delete(root);
}

static void a_64_bit_seed_is_written_exactly(void)
{
    fixture();
    sc.simulation.seed = (unsigned long)-1;
    char *text = capture(1);
    char want[64];
    snprintf(want, sizeof want, "\"seed\":\t%lu,", (unsigned long)-1);
    T_CHECK(text && strstr(text, want), "the JSON has %s", want);
    free(text);
}

/* The step's parts as the table and the JSON split them: dp comm is
 * exposed_comm less tp_comm; the tp comm and bubble columns appear only when
 * some cluster has them, the JSON fields always; the legend sums the shown
 * columns.  hetero: 75 + 0 + (4 - 2) + 2 + 5 + 1 + 1 = 86 ms. */
static void parts_split_the_step_and_add_up(void)
{
    fixture();
    char *plain = capture(0);
    T_CHECK(plain && strstr(plain, "  compute  stall  dp comm  interf  optim  "),
            "without tensor or pipeline parallelism: compute, stall, dp comm, interf, optim");
    T_CHECK(plain && !strstr(plain, "tp comm") && !strstr(plain, "bubble"),
            "no tp comm or bubble column when no cluster has them");
    T_CHECK(plain && strstr(plain, "; compute + stall + dp comm + interf + optim = step).\n"),
            "the legend sums the shown columns");
    T_CHECK(plain && !strstr(plain, "exposed gradient"), "the legend no longer says exposed gradient");
    free(plain);

    pcs[1].res.compute_s = 0.075;
    pcs[1].res.tp_comm_s = 0.002;
    pcs[1].res.pp_bubble_s = 0.005;
    char *text = capture(0);
    T_CHECK(text && strstr(text, "  compute  stall  dp comm  tp comm  bubble  interf  optim  "),
            "tp comm and bubble columns once a cluster has them");
    T_CHECK(text && strstr(text, "  75.0    0.0      2.0      2.0     5.0     1.0    1.0  "),
            "hetero's parts: 75.0, 0.0, 2.0, 2.0, 5.0, 1.0, 1.0");
    T_CHECK(text && strstr(text, "compute + stall + dp comm + tp comm + bubble + interf + optim = step"),
            "the legend sums every part");
    free(text);

    text = capture(1);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    const cJSON *b = cJSON_GetArrayItem(get(root, "clusters"), 1);
    const cJSON *t = get(b, "breakdown_s");
    check_num(t, "exposed_comm", 0.004, "breakdown_s");
    check_num(t, "dp_comm", 0.002, "breakdown_s");
    check_num(t, "tp_comm", 0.002, "breakdown_s");
    check_num(t, "pipeline_bubble", 0.005, "breakdown_s");
    check_num(t, "comm_interference", 0.001, "breakdown_s");
    cJSON_Delete(root);
    free(text);
}

int main(void)
{
    T_RUN(json_has_every_required_field_with_its_value);
    T_RUN(json_doubles_are_rounded_to_6_significant_digits);
    T_RUN(unknown_numbers_become_json_null);
    T_RUN(table_ends_with_the_recommendation_and_objective);
    T_RUN(table_has_no_trailing_blanks_and_aligned_rows);
    T_RUN(output_is_byte_identical_across_calls);
    T_RUN(infeasible_clusters_are_marked_with_their_reason);
    T_RUN(no_recommendation_is_null_in_json_and_none_in_the_table);
    T_RUN(solved_value_is_printed_before_the_table);
    T_RUN(a_64_bit_seed_is_written_exactly);
    T_RUN(parts_split_the_step_and_add_up);
    return T_DONE();
}
