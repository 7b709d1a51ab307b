/*
 * test_search.c - the catalog search (planner/search.h): name matching,
 * memory pruning, the split of a sweep into parts, the Pareto front, and
 * hand-built cases whose best answer is known (tests/data/plan/):
 *   - a CPU-bound vision job: more vCPU per GPU wins (heterogeneous or a
 *     larger CPU:GPU ratio);
 *   - a communication-bound large model on slow networks: fewer, larger
 *     NVLink instances win;
 *   - a small CTR model whose input pipeline dominates: CPU instances win on cost;
 *   - a deadline that forces scale-out;
 *   - a budget that forbids it.
 */
#include "t.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../base/units.h"
#include "../../catalog/catalog.h"
#include "../../cli/ld_scenario.h"
#include "../../planner/search.h"

static struct catalog cat;

struct run {
    struct scenario sc;
    struct search_list l;
    struct search_eval *ev;
    struct search_result r;
    int ok;
};

static int load(const char *path, struct run *u)
{
    struct dt_err e;

    memset(u, 0, sizeof *u);
    if (ld_scenario_load(&u->sc, path, &cat, &e)) {
        T_CHECK(0, "%s loads: %s", path, e.msg);
        return -1;
    }
    return 0;
}

/* Enumerate, evaluate in one part, finish. */
static int search(struct run *u)
{
    struct dt_err e;

    if (search_prepare(&u->sc, &u->sc, &e)) {
        T_CHECK(0, "%s prepares: %s", u->sc.name, e.msg);
        return -1;
    }
    if (search_enumerate(&u->sc, &u->l, &e)) {
        T_CHECK(0, "%s enumerates: %s", u->sc.name, e.msg);
        return -1;
    }
    u->ev = x_calloc((size_t)u->l.n + 1, sizeof *u->ev);
    if (search_eval(&u->sc, &u->l, 0, 1, u->ev, NULL, &e) ||
        search_finish(&u->sc, &u->l, u->ev, NULL, &u->r, &e)) {
        T_CHECK(0, "%s searches: %s", u->sc.name, e.msg);
        return -1;
    }
    u->ok = 1;
    return 0;
}

static void done(struct run *u)
{
    if (u->ok)
        search_result_free(&u->r);
    x_free(u->ev);
    search_list_free(&u->l);
    scenario_free(&u->sc);
}

static const struct cat_instance *inst(const struct run *u, int i)
{
    return &u->sc.catalog->instances[i];
}

static const struct sc_group *train(const struct search_pick *pk)
{
    return &pk->cl.groups[0];
}

/* Index of the candidate with this train type and node count, no data nodes,
 * no dedicated PS and strategy s; -1 if none. */
static int find(const struct run *u, const char *type, int nodes, int s)
{
    for (int i = 0; i < u->l.n; i++) {
        const struct search_cand *c = &u->l.c[i];
        if (strcmp(inst(u, c->train)->name, type) == 0 && c->nodes == nodes && c->data < 0 &&
            c->ps < 0 && c->strategy == s)
            return i;
    }
    return -1;
}

static void plan_names_select_types_and_families(void)
{
    T_CHECK(catalog_name_matches("g5", "g5.12xlarge"), "g5 selects g5.12xlarge");
    T_CHECK(!catalog_name_matches("g6", "g6e.12xlarge"), "g6 does not select g6e.12xlarge");
    T_CHECK(catalog_name_matches("ml.p4d", "ml.p4d.24xlarge"), "ml.p4d selects ml.p4d.24xlarge");
    T_CHECK(!catalog_name_matches("p4d", "ml.p4d.24xlarge"), "p4d does not select the SageMaker type");
    T_CHECK(catalog_name_matches("p3.2xlarge", "p3.2xlarge"), "a type selects itself");
    T_CHECK(!catalog_name_matches("p3.2xlarge", "p3.8xlarge"), "a type selects no other type");
    T_CHECK(catalog_name_matches("a2", "a2-highgpu-8g"), "a2 selects a2-highgpu-8g (no dot: dash)");
    T_CHECK(!catalog_name_matches("a2-high", "a2-highgpu-8g"), "a partial word selects nothing");
}

static void memory_fit_prunes_what_cannot_hold_the_model(void)
{
    struct run u;
    struct dt_err e;
    double state, need;
    int p3 = 0, p4d = 0, p4de = 0;

    if (load("tests/data/plan/memory-gpt2.yaml", &u))
        return;
    /* GPT-2 1.5B in fp16 with fp32 gradients (the default gradients.precision):
     * 2 + 4 + 12 = 18 B/param x 1,557,611,200 = 28.0 GB of model state;
     * activations 8550 MiB per sample at 16 bits, batch 1: 28.04e9 + 8.965e9 B. */
    need = search_memory_bytes(&u.sc, &state);
    T_NEAR(state, 18.0 * 1557611200, 1e-12, "model state is 18 bytes per parameter");
    T_NEAR(need, 18.0 * 1557611200 + 8550.0 * 1048576, 1e-12,
           "memory per worker is model state plus one sample's activations");
    if (search_enumerate(&u.sc, &u.l, &e) == 0) {
        for (int i = 0; i < u.l.n; i++) {
            const char *n = inst(&u, u.l.c[i].train)->name;
            p3 += strcmp(n, "p3.16xlarge") == 0;
            p4d += strcmp(n, "p4d.24xlarge") == 0;
            p4de += strcmp(n, "p4de.24xlarge") == 0;
        }
        T_CHECK(p3 == 0, "GPT-2 1.5B does not fit a 16 GB V100: no p3.16xlarge candidate (%d)", p3);
        T_CHECK(p4d > 0 && p4de > 0, "it fits a 40 GB A100 at batch 1 (p4d %d, p4de %d candidates)",
                p4d, p4de);
        T_CHECK(u.l.pruned_memory == 1 && !u.l.memory_unknown,
                "one type pruned on memory (%ld), activations known", u.l.pruned_memory);
        search_list_free(&u.l);
    }
    /* batch 4: 28.0e9 + 4 x 8.965e9 = 63.9e9 B, over 90% of 40 GiB (38.7e9), under 90% of 80 GiB */
    u.sc.parallel.micro_batch = 4;
    p4d = p4de = 0;
    if (search_enumerate(&u.sc, &u.l, &e) == 0) {
        for (int i = 0; i < u.l.n; i++) {
            p4d += strcmp(inst(&u, u.l.c[i].train)->name, "p4d.24xlarge") == 0;
            p4de += strcmp(inst(&u, u.l.c[i].train)->name, "p4de.24xlarge") == 0;
        }
        T_CHECK(p4d == 0 && p4de > 0, "at batch 4 only the 80 GB A100 holds it (p4d %d, p4de %d)",
                p4d, p4de);
    }
    done(&u);
}

static void unknown_activation_memory_is_said_and_not_pruned_on(void)
{
    struct run u;
    struct dt_err e;

    if (load("tests/data/plan/cpu-bound-vision.yaml", &u))
        return;
    if (search_enumerate(&u.sc, &u.l, &e) == 0)
        T_CHECK(u.l.memory_unknown && u.l.pruned_memory == 0,
                "resnet50 has no act_mib_per_sample: memory_unknown set, nothing pruned");
    done(&u);
}

static void a_sweep_split_in_parts_gives_the_same_results(void)
{
    struct run u;
    struct dt_err e;
    struct search_eval *a, *b;

    if (load("tests/data/plan/cpu-bound-vision.yaml", &u))
        return;
    if (search_enumerate(&u.sc, &u.l, &e) == 0) {
        a = x_calloc((size_t)u.l.n, sizeof *a);
        b = x_calloc((size_t)u.l.n, sizeof *b);
        search_eval(&u.sc, &u.l, 0, 1, a, NULL, &e);
        for (int part = 2; part >= 0; part--) /* in any order */
            search_eval(&u.sc, &u.l, part, 3, b, NULL, &e);
        T_CHECK(u.l.n > 50 && memcmp(a, b, (size_t)u.l.n * sizeof *a) == 0,
                "%d candidates in 3 parts: bit-identical to one part", u.l.n);
        x_free(a);
        x_free(b);
    }
    done(&u);
}

static void the_front_holds_no_dominated_point_and_the_top_is_ranked(void)
{
    struct run u;
    int bad = 0, sorted = 1;

    if (load("tests/data/plan/cpu-bound-vision.yaml", &u) || search(&u))
        goto out;
    for (int f = 0; f < u.r.nfront; f++) {
        const struct search_eval *p = &u.ev[u.r.front[f].index];
        for (int i = 0; i < u.l.n; i++) {
            const struct search_eval *q = &u.ev[i];
            if (!q->ok || !q->feasible)
                continue;
            if (q->train_s <= p->train_s && q->cost_to_train_usd <= p->cost_to_train_usd &&
                (q->train_s < p->train_s || q->cost_to_train_usd < p->cost_to_train_usd))
                bad++;
        }
    }
    T_CHECK(u.r.nfront >= 2 && u.r.front_train && bad == 0,
            "Pareto front of %d points (time and cost to train), none dominated (%d)",
            u.r.nfront, bad);
    /* in order of cost to train, but for the first: the fastest of those
     * that tie with the cheapest within the error of the model */
    for (int i = u.r.report.tie.first > 0 ? 2 : 1; i < u.r.ntop; i++) {
        const struct plan_cluster *a = &u.r.top[i - 1].pc;
        const struct plan_cluster *b = &u.r.top[i].pc;
        if (a->cost_to_train_usd > b->cost_to_train_usd)
            sorted = 0;
    }
    T_CHECK(u.r.ntop == 10 && sorted, "top 10 in order of cost to train");
    {
        /* the first costs at most 2% more to train than the cheapest, and
         * only where it ties within their uncorrelated error */
        const struct plan_tie_report *t = &u.r.report.tie;
        const struct plan_cluster *f = &u.r.top[0].pc;
        double cheapest = f->cost_to_train_usd;
        for (int i = 1; i < u.r.ntop; i++)
            cheapest = fmin(cheapest, u.r.top[i].pc.cost_to_train_usd);
        T_CHECK(f->cost_to_train_usd <= 1.02 * cheapest,
                "the first, %s, costs $%.2f to train, at most 2%% over the cheapest's $%.2f",
                u.r.top[0].cl.name, f->cost_to_train_usd, cheapest);
        if (t->first > 0)
            T_CHECK(t->gap <= t->limit && t->limit <= 0.02 && t->limit <= t->error &&
                        f->train_s < u.r.top[t->first].pc.train_s,
                    "the first ties with the cheapest, %s: %.2f%% apart, within %.2f%% of "
                    "uncorrelated error, and trains faster", u.r.top[t->first].cl.name,
                    100 * t->gap, 100 * t->error);
    }
out:
    done(&u);
}

static void the_enumeration_is_the_product_of_the_plan(void)
{
    struct run u;
    int ps_ded = 0, data = 0, spot_ok = 1, nspot = 0;

    if (load("tests/data/plan/enumerate-small.yaml", &u) || search(&u))
        goto out;
    /* 2 node counts x (no data, 1 data node) x (ring, ps colocated, ps on 1
     * dedicated), each on demand and at spot prices (spot: true) */
    T_CHECK(u.l.n == 24, "1-2 p3.16xlarge x 0-1 c5.9xlarge data x 3 sharings x on demand "
            "or spot = 24 candidates (%d)", u.l.n);
    for (int i = 0; i < u.l.n; i++) {
        ps_ded += u.l.c[i].ps >= 0;
        data += u.l.c[i].data >= 0;
        nspot += u.l.c[i].spot != 0;
    }
    T_CHECK(ps_ded == 8 && data == 12 && nspot == 12,
            "8 with a dedicated server (%d), 12 with a data node (%d), 12 spot (%d)", ps_ded, data,
            nspot);
    /* each group at its rate: p3.16xlarge $24.48/h on demand, $2.7531/h
     * spot; c5.9xlarge $1.53/h, $0.5694/h */
    for (int i = 0; i < u.l.n; i++) {
        const struct search_cand *c = &u.l.c[i];
        double want = c->spot ? c->nodes * 2.7531 + c->ndata * 0.5694 + c->nps * 0.5694
                              : c->nodes * 24.48 + c->ndata * 1.53 + c->nps * 1.53;
        if (fabs(u.ev[i].price_usd_h - want) > 1e-9)
            spot_ok = 0;
    }
    T_CHECK(spot_ok, "every candidate is priced at its rates, on demand or spot");
out:
    done(&u);
}

static void a_measured_step_is_carried_into_every_candidate(void)
{
    struct run u;
    struct dt_err e;
    int i;

    /* Seed case S1: 192 ms measured on 1x ml.p4d.24xlarge solves the CPU cost per sample;
     * the same cluster found by the search must predict the same 192 ms. */
    if (load("scenarios/seeds/s1-hetero-tfdata-resnet50.yaml", &u))
        return;
    scenario_plan_defaults(&u.sc.plan);
    u.sc.plan.ninstances = 2;
    snprintf(u.sc.plan.instances[0], sizeof u.sc.plan.instances[0], "ml.p4d.24xlarge");
    snprintf(u.sc.plan.instances[1], sizeof u.sc.plan.instances[1], "ml.c5.18xlarge");
    u.sc.plan.strategies = 1u << SIM_RING;
    if (search(&u))
        goto out;
    T_CHECK(u.sc.workload.solve_for == SC_SOLVE_NONE && u.sc.input.cpu_s_per_sample > 0,
            "the solved CPU cost %.6g s per sample is in the searched scenario",
            u.sc.input.cpu_s_per_sample);
    i = find(&u, "ml.p4d.24xlarge", 1, SIM_RING);
    T_CHECK(i >= 0 && fabs(u.ev[i].step_s - 0.192) < 0.192 * 1e-3,
            "the measured cluster, found by the search, predicts the measured 192 ms (%.2f ms)",
            i >= 0 ? 1e3 * u.ev[i].step_s : NAN);
    T_CHECK(u.r.current_listed && u.r.top[0].cl.ngroups > 1 && u.r.action == PLAN_HETEROGENEOUS,
            "from the listed homogeneous cluster the best is heterogeneous: %s",
            u.r.top[0].cl.name);
    (void)e;
out:
    done(&u);
}

static void cpu_bound_vision_more_vcpu_per_gpu_wins(void)
{
    struct run u;
    const struct search_pick *b;
    const struct plan_cluster *cur;
    double ratio_b, ratio_cur;
    int same;

    if (load("tests/data/plan/cpu-bound-vision.yaml", &u) || search(&u))
        goto out;
    b = &u.r.top[0];
    cur = &u.r.current;
    ratio_b = (double)train(b)->inst->vcpus / train(b)->inst->gpu_count;
    ratio_cur = (double)cur->cl->groups[0].inst->vcpus / cur->cl->groups[0].inst->gpu_count;
    T_CHECK(cur->bound == PLAN_BOUND_CPU, "the smallest start %s is CPU-bound: %s",
            cur->cl->name, cur->bound_text);
    T_CHECK(b->cl.ngroups > 1 || ratio_b > ratio_cur,
            "the best, %s, has data nodes or more vCPU per GPU (%.0f against %.0f)", b->cl.name,
            ratio_b, ratio_cur);
    /* scale_out only onto the larger type: several g4dn.12xlarge tie on cost
     * with one and with the data-node clusters, and time breaks the tie */
    T_CHECK(u.r.action == PLAN_HETEROGENEOUS || u.r.action == PLAN_SCALE_UP ||
                (u.r.action == PLAN_SCALE_OUT && ratio_b > ratio_cur),
            "recommended action is heterogeneous, scale up, or scale out on a type with more "
            "vCPU per GPU (got %s)", plan_action_name(u.r.action));
    /* more of the same small nodes do not fix it: 4x g4dn.xlarge alone is still CPU-bound */
    same = find(&u, "g4dn.xlarge", 4, SIM_RING);
    T_CHECK(same >= 0 && u.ev[same].bound == PLAN_BOUND_CPU &&
                u.ev[same].objective > u.ev[u.r.top[0].index].objective,
            "4x g4dn.xlarge alone stays CPU-bound and costs more to train");
    T_CHECK(strstr(u.r.reason, "vCPU per GPU") != NULL,
            "the recommendation names the CPU:GPU ratio: %s", u.r.reason);
out:
    done(&u);
}

static void comm_bound_model_fewer_larger_nvlink_instances_win(void)
{
    struct run u;
    const struct cat_instance *bi;
    int small;

    if (load("tests/data/plan/comm-bound-bert.yaml", &u) || search(&u))
        goto out;
    bi = train(&u.r.top[0])->inst;
    T_CHECK(strcmp(bi->name, "p3.16xlarge") == 0 && train(&u.r.top[0])->count == 1,
            "best for step time on 8 V100s: 1x p3.16xlarge (got %s)", u.r.top[0].cl.name);
    T_CHECK(bi->link == CAT_LINK_NVLINK && bi->gpu_count == 8, "its 8 GPUs share NVLink");
    small = find(&u, "p3.2xlarge", 8, SIM_RING);
    T_CHECK(small >= 0 && u.ev[small].bound == PLAN_BOUND_NETWORK,
            "8x p3.2xlarge on 10 Gbit/s is network-bound");
    T_CHECK(small >= 0 && u.ev[small].objective > 2 * u.ev[u.r.top[0].index].objective,
            "and takes more than twice as long to train (%.2f h against %.2f h)",
            small >= 0 ? u.ev[small].train_s / 3600 : NAN,
            u.ev[u.r.top[0].index].train_s / 3600);
out:
    done(&u);
}

static void small_ctr_model_cpu_instances_win_on_cost(void)
{
    struct run u;
    const struct search_pick *cpu;

    /* Input-heavy: the known answer is CPU instances (see the YAML). */
    if (load("tests/data/plan/ctr-cpu-input-heavy.yaml", &u) || search(&u))
        goto out;
    cpu = &u.r.kinds[SEARCH_CPU];
    T_CHECK(cpu->index >= 0, "CPU-only candidates were simulated (best %s)",
            cpu->index >= 0 ? cpu->cl.name : "(none)");
    T_CHECK(train(&u.r.top[0])->inst->gpu_count == 0,
            "DeepFM, 3e-4 s of input work per record: best for cost to train is CPU-only %s ($%.3f)",
            u.r.top[0].cl.name, u.r.top[0].pc.cost_to_train_usd);
    done(&u);

    /* Light pipeline, for contrast: no assertion, the figures are printed. */
    if (load("tests/data/plan/ctr-cpu.yaml", &u) || search(&u))
        goto out;
    cpu = &u.r.kinds[SEARCH_CPU];
    printf("# DeepFM, 1e-5 s of input work per record: best %s ($%.3f to train); best CPU-only %s "
           "($%.3f)\n", u.r.top[0].cl.name, u.r.top[0].pc.cost_to_train_usd,
           cpu->index >= 0 ? cpu->cl.name : "-",
           cpu->index >= 0 ? cpu->pc.cost_to_train_usd : NAN);
out:
    done(&u);
}

static void a_deadline_forces_scale_out(void)
{
    struct run u;
    double deadline;

    if (load("tests/data/plan/deadline.yaml", &u))
        return;
    /* without the deadline one node is the cheapest way to train */
    deadline = u.sc.objective.deadline_h;
    u.sc.objective.deadline_h = NAN;
    if (search(&u))
        goto out;
    {
        /* the cheapest, before any tie within the error of the model moved
         * a faster one to the front */
        const struct search_pick *c = &u.r.top[u.r.report.tie.first > 0 ? u.r.report.tie.first : 0];
        T_CHECK(train(c)->count == 1, "without a deadline the cheapest is one node (%s)",
                c->cl.name);
        T_CHECK(c->pc.train_s > 3600, "and it takes %.2f h, more than 1 h",
                c->pc.train_s / 3600);
    }
    search_result_free(&u.r);
    u.ok = 0;
    x_free(u.ev);
    u.ev = NULL;
    search_list_free(&u.l);
    u.sc.objective.deadline_h = deadline;
    if (search(&u))
        goto out;
    T_CHECK(train(&u.r.top[0])->count > 1 && u.r.action == PLAN_SCALE_OUT,
            "with a 1 h deadline the best scales out: %s (%s)", u.r.top[0].cl.name,
            plan_action_name(u.r.action));
    T_CHECK(u.r.top[0].pc.train_s <= 3600 && u.r.top[0].pc.feasible,
            "it trains in %.2f h", u.r.top[0].pc.train_s / 3600);
    T_CHECK(!u.r.current.feasible, "the one-node start misses the deadline: %s",
            u.r.current.infeasible_why);
out:
    done(&u);
}

static void a_budget_forbids_scale_out(void)
{
    struct run u;

    if (load("tests/data/plan/budget.yaml", &u) || search(&u))
        goto out;
    T_CHECK(u.r.feasible == 0 && u.r.ntop == 0 && u.l.pruned_budget > 0,
            "deadline 1 h and $50/h: no candidate is feasible (%ld pruned on the budget)",
            u.l.pruned_budget);
    T_CHECK(strstr(u.r.reason, "No candidate meets the constraints") != NULL,
            "the search says so: %s", u.r.reason);
    search_result_free(&u.r);
    u.ok = 0;
    x_free(u.ev);
    u.ev = NULL;
    search_list_free(&u.l);
    /* the budget alone, minimising time: at most 2 nodes instead of the maximum */
    u.sc.objective.deadline_h = NAN;
    u.sc.objective.minimize = SC_OBJ_TIME;
    if (search(&u))
        goto out;
    T_CHECK(u.r.top[0].pc.price_usd_h <= 50 && train(&u.r.top[0])->count <= 2,
            "fastest under $50/h: %s at $%.2f/h", u.r.top[0].cl.name,
            u.r.top[0].pc.price_usd_h);
    search_result_free(&u.r);
    u.ok = 0;
    x_free(u.ev);
    u.ev = NULL;
    search_list_free(&u.l);
    u.sc.objective.budget_usd_h = NAN;
    if (search(&u))
        goto out;
    T_CHECK(train(&u.r.top[0])->count > 2, "without the budget the fastest has more nodes: %s",
            u.r.top[0].cl.name);
out:
    done(&u);
}

static void the_search_is_deterministic(void)
{
    struct run a, b;
    int same = 1;

    if (load("tests/data/plan/cpu-bound-vision.yaml", &a) || search(&a)) {
        done(&a);
        return;
    }
    if (load("tests/data/plan/cpu-bound-vision.yaml", &b) || search(&b)) {
        done(&a);
        done(&b);
        return;
    }
    same = a.l.n == b.l.n && memcmp(a.ev, b.ev, (size_t)a.l.n * sizeof *a.ev) == 0 &&
           a.r.ntop == b.r.ntop && strcmp(a.r.reason, b.r.reason) == 0;
    for (int i = 0; same && i < a.r.ntop; i++)
        same = a.r.top[i].index == b.r.top[i].index &&
               a.r.top[i].pc.res.step_mean_s == b.r.top[i].pc.res.step_mean_s;
    T_CHECK(same, "two searches with seed %lu give the same candidates, results and words",
            a.sc.simulation.seed);
    done(&a);
    done(&b);
}

/* Issue 35: Llama-3 70B at batch 1, recompute auto, zero3, over up to 64
 * p5.48xlarge.  Unsplit a worker needs over 1 TiB; with full recompute and
 * zero3 over 64 x 8 ranks the state is 1051 GiB / 512 = 2.1 GiB a GPU, so
 * the pre-check must let GPU candidates through and the search find them
 * feasible. */
static void a_70b_model_with_recompute_auto_finds_gpu_candidates(void)
{
    struct run u;
    int gpu = 1;

    if (load("tests/data/plan/llm-70b-p5.yaml", &u))
        return;
    if (search(&u) == 0) {
        T_CHECK(u.l.n > 0, "candidates to simulate (%d; %ld pruned on memory)", u.l.n,
                u.l.pruned_memory);
        T_CHECK(u.r.feasible > 0 && u.r.ntop > 0, "feasible candidates (%ld)", u.r.feasible);
        for (int i = 0; i < u.r.ntop; i++)
            gpu &= u.r.top[i].cl.groups[0].inst->gpu_count > 0 && u.r.top[i].pc.feasible;
        T_CHECK(gpu, "every pick of the top is a feasible GPU cluster");
    }
    done(&u);
}

/* The shipped 70B scenario's layout (tp, pp, sharding and recompute auto):
 * it finds feasible GPU candidates and recommends one, never a CPU cluster. */
static void the_shipped_70b_plan_recommends_a_gpu_cluster(void)
{
    struct run u;

    if (load("scenarios/llm-70b-3d.yaml", &u))
        return;
    scenario_plan_defaults(&u.sc.plan);   /* no plan: section: dtplan plan's defaults */
    u.sc.plan.max_nodes = 8;   /* the same question, fewer candidates: seconds less */
    if (search(&u) == 0) {
        T_CHECK(u.r.feasible > 0, "feasible candidates (%ld)", u.r.feasible);
        T_CHECK(u.r.ntop > 0 && u.r.top[0].cl.groups[0].inst->gpu_count > 0,
                "the recommendation is a GPU cluster (%s)", u.r.ntop ? u.r.top[0].cl.name : "none");
    }
    done(&u);
}

/* A transformer over 1B parameters: no CPU train type unless plan.instances
 * lists it; and no data-node variants when the input has no work. */
static void no_cpu_cluster_for_a_large_transformer_unless_listed(void)
{
    struct run u;
    struct dt_err e;
    int cpu = 0, data = 0, m5 = 0;

    if (load("tests/data/plan/llm-70b-p5.yaml", &u))
        return;
    u.sc.plan.ninstances = 0;       /* every type of the catalog */
    u.sc.plan.max_nodes = 4;
    u.sc.plan.max_data_nodes = 2;
    if (search_enumerate(&u.sc, &u.l, &e) == 0) {
        for (int i = 0; i < u.l.n; i++) {
            cpu += u.sc.catalog->instances[u.l.c[i].train].gpu_count == 0;
            data += u.l.c[i].data >= 0;
        }
        T_CHECK(cpu == 0 && u.l.skipped_cpu > 0, "no CPU candidate (%d), %d CPU types left out",
                cpu, u.l.skipped_cpu);
        T_CHECK(data == 0 && u.l.no_data_nodes, "no data-node variant without input work (%d)", data);
        search_list_free(&u.l);
    }
    /* listed explicitly: searched */
    u.sc.plan.ninstances = 2;
    snprintf(u.sc.plan.instances[1], sizeof u.sc.plan.instances[1], "m5.24xlarge");
    u.sc.plan.max_nodes = 64;
    if (search_enumerate(&u.sc, &u.l, &e) == 0) {
        for (int i = 0; i < u.l.n; i++)
            m5 += strcmp(u.sc.catalog->instances[u.l.c[i].train].name, "m5.24xlarge") == 0;
        T_CHECK(m5 > 0 && u.l.skipped_cpu == 0, "m5.24xlarge listed: searched (%d)", m5);
        search_list_free(&u.l);
    }
    /* a deadline no CPU cluster can meet: 3 x 1.1 PFLOP a sample x 1.2e8 samples over
     * 64 x 96 vCPU x 48 GFLOP/s is about 1.4e6 h, over 720 h */
    u.sc.objective.deadline_h = 720;
    if (search_enumerate(&u.sc, &u.l, &e) == 0) {
        T_CHECK(u.l.cpu_deadline == 1 && u.l.skipped_cpu == 0,
                "the listed CPU type misses the deadline at its peak: left out (%d)",
                u.l.cpu_deadline);
    }
    done(&u);
}

/* Input work: data-node variants stay (the vision job preprocesses). */
static void data_nodes_are_searched_where_the_input_has_work(void)
{
    struct run u;
    struct dt_err e;
    int data = 0;

    if (load("tests/data/plan/cpu-bound-vision.yaml", &u))
        return;
    if (search_enumerate(&u.sc, &u.l, &e) == 0) {
        for (int i = 0; i < u.l.n; i++)
            data += u.l.c[i].data >= 0;
        T_CHECK(data > 0 && !u.l.no_data_nodes, "data-node variants (%d)", data);
    }
    done(&u);
}

/* Nothing feasible: the limit that failed and the closest candidate, by
 * how much; no word of a budget that was not set. */
static void an_infeasible_search_names_the_limit_and_the_closest(void)
{
    struct run u;

    if (load("tests/data/plan/llm-70b-deadline.yaml", &u))
        return;
    if (search(&u) == 0) {
        T_CHECK(u.r.feasible == 0 && u.r.ntop == 0, "nothing meets 720 h (%ld)", u.r.feasible);
        T_CHECK(strstr(u.r.reason, "miss the deadline") && strstr(u.r.reason, "The closest, 8x p5.48xlarge") &&
                    strstr(u.r.reason, "over by"),
                "the reason names the deadline and the closest: %s", u.r.reason);
        T_CHECK(!strstr(u.r.reason, "budget"), "no budget is blamed: %s", u.r.reason);
    }
    done(&u);
    /* everything pruned on memory: the closest to fitting, by how much */
    if (load("tests/data/plan/llm-70b-deadline.yaml", &u))
        return;
    u.sc.plan.max_nodes = 1;
    snprintf(u.sc.plan.instances[0], sizeof u.sc.plan.instances[0], "p4d.24xlarge");
    if (search(&u) == 0) {
        T_CHECK(u.l.n == 0 && u.l.closest_nodes == 1, "all pruned, the closest kept");
        T_CHECK(strstr(u.r.reason, "The closest to fitting, 1x p4d.24xlarge") &&
                    strstr(u.r.reason, "GiB usable") && !strstr(u.r.reason, "budget"),
                "the reason names memory and the closest: %s", u.r.reason);
    }
    done(&u);
}

int main(void)
{
    struct dt_err e;

    if (catalog_load(&cat, "catalog", &e)) {
        T_CHECK(0, "catalog loads: %s", e.msg);
        return T_DONE();
    }
    T_RUN(plan_names_select_types_and_families);
    T_RUN(memory_fit_prunes_what_cannot_hold_the_model);
    T_RUN(unknown_activation_memory_is_said_and_not_pruned_on);
    T_RUN(a_sweep_split_in_parts_gives_the_same_results);
    T_RUN(the_front_holds_no_dominated_point_and_the_top_is_ranked);
    T_RUN(the_enumeration_is_the_product_of_the_plan);
    T_RUN(a_measured_step_is_carried_into_every_candidate);
    T_RUN(cpu_bound_vision_more_vcpu_per_gpu_wins);
    T_RUN(comm_bound_model_fewer_larger_nvlink_instances_win);
    T_RUN(small_ctr_model_cpu_instances_win_on_cost);
    T_RUN(a_deadline_forces_scale_out);
    T_RUN(a_budget_forbids_scale_out);
    T_RUN(the_search_is_deterministic);
    T_RUN(a_70b_model_with_recompute_auto_finds_gpu_candidates);
    T_RUN(the_shipped_70b_plan_recommends_a_gpu_cluster);
    T_RUN(no_cpu_cluster_for_a_large_transformer_unless_listed);
    T_RUN(data_nodes_are_searched_where_the_input_has_work);
    T_RUN(an_infeasible_search_names_the_limit_and_the_closest);
    catalog_free(&cat);
    return T_DONE();
}
