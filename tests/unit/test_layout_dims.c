/*
 * test_layout_dims.c - the table of parallel dimensions the layout search
 * walks (planner/layout_dims.c): the combinations it visits, in its order,
 * for a few clusters and scenarios built in C.  The order is the search's
 * tie-break (a later candidate must beat an earlier one by LAYOUT_MARGIN),
 * so these lists are the ones the five nested loops of layout.c visited
 * before the table replaced them.
 */
#include "t.h"

#include <string.h>

#include "../../catalog/catalog.h"
#include "../../planner/layout_dims.h"
#include "../../scenario/scenario.h"

static struct catalog cat;

/* llama3-8b (32 layers, 32 heads, 8 KV heads) on count x type, one train
 * group, nothing auto yet. */
static void build(struct scenario *sc, struct sc_cluster *cl, const char *type, int count)
{
    scenario_defaults(sc, "layout");
    sc->catalog = &cat;
    sc->workload.model = catalog_find_model(&cat, "llama3-8b");
    memset(cl, 0, sizeof *cl);
    snprintf(cl->name, sizeof cl->name, "%d-%s", count, type);
    cl->gradients.strategy = -1;
    cl->ngroups = 1;
    cl->groups[0].role = SIM_TRAIN;
    cl->groups[0].inst = catalog_find_instance(&cat, type);
    cl->groups[0].count = count;
}

/* Qwen3-30B-A3B (128 experts) on 2 x p5.48xlarge, nothing auto yet. */
static void build_moe(struct scenario *sc, struct sc_cluster *cl)
{
    build(sc, cl, "p5.48xlarge", 2);
    sc->workload.model = catalog_find_model(&cat, "qwen3-30b-a3b");
}

/* What a walk visited: the combinations' names, "; " between them. */
struct seen {
    const struct layout_space *s;
    char text[4096];
    int n;
    int within_max;       /* every row yielded at most its max */
    int stop_at;          /* visit returns 7 at this combination (0: never) */
};

static int record(const int *val, void *arg)
{
    struct seen *w = arg;
    char name[96];
    size_t used = strlen(w->text);

    for (int d = 0; d < LAYOUT_NDIMS; d++) {
        int out[LAYOUT_DIM_MAX_VALUES];
        int n = layout_dims[d].values(w->s, val, out);
        if (n > layout_dims[d].max || layout_dims[d].max > LAYOUT_DIM_MAX_VALUES)
            w->within_max = 0;
    }
    layout_dims_name(w->s->sc, val, name, sizeof name);
    snprintf(w->text + used, sizeof w->text - used, "%s%s", w->n ? "; " : "", name);
    w->n++;
    return w->n == w->stop_at ? 7 : 0;
}

static int walk(const struct scenario *sc, const struct sc_cluster *cl, struct seen *w)
{
    struct layout_space s;

    layout_dims_space(sc, cl, &s);
    memset(w, 0, sizeof *w);
    w->s = &s;
    w->within_max = 1;
    return layout_dims_walk(&s, record, w);
}

static void tp_and_stage_on_two_nodes(void)
{
    struct scenario sc;
    struct sc_cluster cl;
    struct seen w;

    build(&sc, &cl, "p4d.24xlarge", 2);
    sc.parallel.tp_auto = sc.parallel.sharding_auto = 1;
    T_CHECK(walk(&sc, &cl, &w) == 0, "the walk visits every combination");
    /* tp 1, 2, 4, 8 (each divides 8 GPUs and 8 KV heads; 16 does not divide
     * the KV heads); every stage on 16 GPUs, hsdp while a node holds two
     * replicas or more (8 / tp >= 2), so not at tp 8 */
    T_CHECK(!strcmp(w.text, "tp 1 + none; tp 1 + zero1; tp 1 + zero2; tp 1 + zero3; tp 1 + hsdp; "
                            "tp 2 + none; tp 2 + zero1; tp 2 + zero2; tp 2 + zero3; tp 2 + hsdp; "
                            "tp 4 + none; tp 4 + zero1; tp 4 + zero2; tp 4 + zero3; tp 4 + hsdp; "
                            "tp 8 + none; tp 8 + zero1; tp 8 + zero2; tp 8 + zero3"),
            "tp outermost, each with the stages it allows, simplest first: %s", w.text);
    T_CHECK(w.within_max, "no row yields more values than its max");
    scenario_free(&sc);
}

/* Whether got is the names of want, "; " between them. */
static int is_list(const char *got, const char *const *want, int n)
{
    char text[4096] = "";
    size_t used = 0;

    for (int i = 0; i < n && used < sizeof text; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%s", i ? "; " : "", want[i]);
    return !strcmp(got, text);
}

static void pipelines_allow_none_and_zero1_with_their_chunks(void)
{
    struct scenario sc;
    struct sc_cluster cl;
    struct seen w;
    /* one node of 8 at tp 2: pp 1 (4 replicas: none to zero3, no hsdp on one
     * node), pp 2 (2 replicas: none and zero1 under a pipeline) and pp 4 (1
     * replica: none only), each pipeline with 1, 2 and 4 chunks (a chunk
     * keeps a layer of 32); recompute inside the chunks, the stage innermost */
    static const char *const want[] = {
        "tp 2 x pp 1 + none, recompute none", "tp 2 x pp 1 + zero1, recompute none",
        "tp 2 x pp 1 + zero2, recompute none", "tp 2 x pp 1 + zero3, recompute none",
        "tp 2 x pp 1 + none, recompute selective", "tp 2 x pp 1 + zero1, recompute selective",
        "tp 2 x pp 1 + zero2, recompute selective", "tp 2 x pp 1 + zero3, recompute selective",
        "tp 2 x pp 1 + none, recompute full", "tp 2 x pp 1 + zero1, recompute full",
        "tp 2 x pp 1 + zero2, recompute full", "tp 2 x pp 1 + zero3, recompute full",
        "tp 2 x pp 2 (interleave 1) + none, recompute none",
        "tp 2 x pp 2 (interleave 1) + zero1, recompute none",
        "tp 2 x pp 2 (interleave 1) + none, recompute selective",
        "tp 2 x pp 2 (interleave 1) + zero1, recompute selective",
        "tp 2 x pp 2 (interleave 1) + none, recompute full",
        "tp 2 x pp 2 (interleave 1) + zero1, recompute full",
        "tp 2 x pp 2 (interleave 2) + none, recompute none",
        "tp 2 x pp 2 (interleave 2) + zero1, recompute none",
        "tp 2 x pp 2 (interleave 2) + none, recompute selective",
        "tp 2 x pp 2 (interleave 2) + zero1, recompute selective",
        "tp 2 x pp 2 (interleave 2) + none, recompute full",
        "tp 2 x pp 2 (interleave 2) + zero1, recompute full",
        "tp 2 x pp 2 (interleave 4) + none, recompute none",
        "tp 2 x pp 2 (interleave 4) + zero1, recompute none",
        "tp 2 x pp 2 (interleave 4) + none, recompute selective",
        "tp 2 x pp 2 (interleave 4) + zero1, recompute selective",
        "tp 2 x pp 2 (interleave 4) + none, recompute full",
        "tp 2 x pp 2 (interleave 4) + zero1, recompute full",
        "tp 2 x pp 4 (interleave 1) + none, recompute none",
        "tp 2 x pp 4 (interleave 1) + none, recompute selective",
        "tp 2 x pp 4 (interleave 1) + none, recompute full",
        "tp 2 x pp 4 (interleave 2) + none, recompute none",
        "tp 2 x pp 4 (interleave 2) + none, recompute selective",
        "tp 2 x pp 4 (interleave 2) + none, recompute full",
        "tp 2 x pp 4 (interleave 4) + none, recompute none",
        "tp 2 x pp 4 (interleave 4) + none, recompute selective",
        "tp 2 x pp 4 (interleave 4) + none, recompute full",
    };

    build(&sc, &cl, "p4d.24xlarge", 1);
    sc.parallel.tp = 2;
    sc.parallel.pp_auto = sc.parallel.sharding_auto = sc.parallel.recompute_auto = 1;
    T_CHECK(walk(&sc, &cl, &w) == 0, "the walk visits every combination");
    T_CHECK(is_list(w.text, want, (int)(sizeof want / sizeof want[0])),
            "pp outermost, then chunks, recompute, the stage innermost: %s", w.text);
    T_CHECK(w.within_max, "no row yields more values than its max");
    scenario_free(&sc);
}

static void a_scenario_that_names_its_layout_is_one_combination(void)
{
    struct scenario sc;
    struct sc_cluster cl;
    struct seen w;
    struct scenario t;
    int val[LAYOUT_NDIMS];

    build(&sc, &cl, "p4d.24xlarge", 2);
    sc.parallel.tp = 4;
    sc.parallel.pp = 2;
    sc.parallel.interleave = 2;
    sc.parallel.interleave_set = 1;
    sc.parallel.recompute = SC_RECOMPUTE_FULL;
    sc.parallel.sharding = SC_SHARD_FSDP;
    sc.parallel.micro_batch_auto = 1;
    T_CHECK(walk(&sc, &cl, &w) == 0 && w.n == 1, "one combination (got %d)", w.n);
    /* fsdp takes zero3's place and stays fsdp; nothing auto, nothing named
     * but the stage */
    T_CHECK(!strcmp(w.text, "fsdp"), "named by its stage alone: %s", w.text);
    val[LAYOUT_DIM_TP] = 4;
    val[LAYOUT_DIM_PP] = 2;
    val[LAYOUT_DIM_CP] = 1;
    val[LAYOUT_DIM_EP] = 1;
    val[LAYOUT_DIM_ETP] = 0;
    val[LAYOUT_DIM_INTERLEAVE] = 2;
    val[LAYOUT_DIM_RECOMPUTE] = SC_RECOMPUTE_FULL;
    val[LAYOUT_DIM_SHARDING] = SC_SHARD_FSDP;
    t = sc;
    t.parallel.tp = t.parallel.pp = t.parallel.interleave = 1;
    t.parallel.recompute = SC_RECOMPUTE_NONE;
    t.parallel.sharding = SC_SHARD_NONE;
    layout_dims_apply(&t.parallel, val);
    T_CHECK(t.parallel.tp == 4 && t.parallel.pp == 2 && t.parallel.interleave == 2 &&
                t.parallel.recompute == SC_RECOMPUTE_FULL && t.parallel.sharding == SC_SHARD_FSDP,
            "applying a combination sets each row's field of the layout");
    T_CHECK(layout_dims_ranks(val, LAYOUT_NDIMS) == 8, "a replica is tp x pp = 8 ranks");
    scenario_free(&sc);
}

static void parameter_servers_and_one_rank_shard_nothing(void)
{
    struct scenario sc;
    struct sc_cluster cl;
    struct seen w;

    build(&sc, &cl, "p4d.24xlarge", 2);
    sc.parallel.sharding_auto = 1;
    sc.gradients.strategy = SIM_PS_SYNC;
    T_CHECK(walk(&sc, &cl, &w) == 0 && !strcmp(w.text, "none"),
            "parameter servers: none only (%s)", w.text);
    scenario_free(&sc);
    build(&sc, &cl, "p3.2xlarge", 1);
    sc.parallel.sharding_auto = 1;
    T_CHECK(walk(&sc, &cl, &w) == 0 && !strcmp(w.text, "none"), "one GPU: none only (%s)",
            w.text);
    scenario_free(&sc);
}

static void a_visit_that_fails_stops_the_walk(void)
{
    struct scenario sc;
    struct sc_cluster cl;
    struct seen w;
    struct layout_space s;

    build(&sc, &cl, "p4d.24xlarge", 2);
    sc.parallel.tp_auto = sc.parallel.sharding_auto = 1;
    layout_dims_space(&sc, &cl, &s);
    memset(&w, 0, sizeof w);
    w.s = &s;
    w.stop_at = 3;
    T_CHECK(layout_dims_walk(&s, record, &w) == 7 && w.n == 3,
            "the walk returns the visit's status and visits no more (%d visited)", w.n);
    T_CHECK(s.ranks == 16 && s.nodes == 2 && s.wpn == 8 && !s.is_ps,
            "the space: 16 ranks on 2 nodes of 8");
    T_CHECK(layout_dims_most() == 9 * 7 * 5 * 3 * 7 * 2 * 2 * 3 * 5,
            "room for every combination: 396900");
    scenario_free(&sc);
}

/* Context and expert parallelism under auto: cp 1, 2 and 4 for 8,192
 * tokens (a rank keeps 2,048 or more), ep the powers of two that divide the
 * 128 experts and a stage's 16 GPUs, etp tp's and 1 once tp and ep split;
 * a dense model has ep 1 alone. */
static void context_and_expert_parallelism_are_rows(void)
{
    struct scenario sc;
    struct sc_cluster cl;
    struct seen w;

    build_moe(&sc, &cl);
    sc.workload.seq_len = 8192;
    sc.parallel.cp_auto = sc.parallel.ep_auto = 1;
    T_CHECK(walk(&sc, &cl, &w) == 0 && w.within_max && w.n == 3 * 5,
            "cp 1, 2, 4 x ep 1, 2, 4, 8, 16: %d (%s)", w.n, w.text);
    T_CHECK(strstr(w.text, "cp 4 x ep 16") && !strstr(w.text, "cp 8") && !strstr(w.text, "ep 32"),
            "named cp x ep, no cp 8, no ep 32: %s", w.text);
    sc.parallel.cp_auto = 0;
    sc.parallel.tp = 2;
    sc.parallel.etp_auto = 1;
    T_CHECK(walk(&sc, &cl, &w) == 0 && w.n == 1 + 2 * 4,
            "tp 2: ep 1, and ep 2 to 16 each with etp tp's and 1: %d (%s)", w.n, w.text);
    T_CHECK(strstr(w.text, "ep 8 (etp 1)") != NULL, "etp named under tp and ep: %s", w.text);
    sc.workload.model = catalog_find_model(&cat, "llama3-8b");
    sc.parallel.tp = 1;
    T_CHECK(walk(&sc, &cl, &w) == 0 && w.n == 1, "a dense model: ep 1 alone (%d)", w.n);
    scenario_free(&sc);
}

/* ep_overlap: auto is a row: off, and on where the chosen ep splits the
 * experts; named only where it was chosen. */
static void expert_overlap_is_a_row(void)
{
    struct scenario sc;
    struct sc_cluster cl;
    struct seen w;

    build_moe(&sc, &cl);
    sc.parallel.ep_auto = sc.parallel.ep_overlap_auto = 1;
    T_CHECK(walk(&sc, &cl, &w) == 0 && w.within_max && w.n == 1 + 2 * 4,
            "ep 1 alone, ep 2 to 16 each with the overlap off and on: %d (%s)", w.n, w.text);
    T_CHECK(strstr(w.text, "ep 8 + none, ep_overlap on") != NULL &&
                strstr(w.text, "ep 8 + none, ep_overlap off") != NULL &&
                strstr(w.text, "ep 1 + none, ep_overlap") == NULL,
            "named at ep > 1 only: %s", w.text);
    sc.parallel.ep_auto = 0;
    sc.parallel.ep = 8;
    T_CHECK(walk(&sc, &cl, &w) == 0 && w.n == 2, "a fixed ep 8: off and on (%d: %s)", w.n,
            w.text);
    sc.parallel.ep_overlap_auto = 0;
    sc.parallel.ep_overlap = 1;
    T_CHECK(walk(&sc, &cl, &w) == 0 && w.n == 1 && !strstr(w.text, "ep_overlap"),
            "given on: one combination, not named (%s)", w.text);
    T_CHECK(scenario_dims_auto(&sc) == 0, "ep_overlap given: nothing left to the search");
    sc.parallel.ep_overlap_auto = 1;
    T_CHECK(scenario_dims_auto(&sc) != 0, "ep_overlap: auto leaves the search work");
    scenario_free(&sc);
}

int main(void)
{
    struct dt_err e;

    if (catalog_load(&cat, "catalog", &e)) {
        printf("FAIL - catalog: %s\n", e.msg);
        return 1;
    }
    T_RUN(tp_and_stage_on_two_nodes);
    T_RUN(pipelines_allow_none_and_zero1_with_their_chunks);
    T_RUN(a_scenario_that_names_its_layout_is_one_combination);
    T_RUN(parameter_servers_and_one_rank_shard_nothing);
    T_RUN(a_visit_that_fails_stops_the_walk);
    T_RUN(context_and_expert_parallelism_are_rows);
    T_RUN(expert_overlap_is_a_row);
    catalog_free(&cat);
    return T_DONE();
}
