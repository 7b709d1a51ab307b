/*
 * test_trace.c - the simulator's trace recorder (sim/trace.h) and the Chrome
 * trace writer (cli/chrome_trace.c).
 *
 * Checks that tracing does not change results, that the recording matches
 * the result it comes with (forward and backward spans add up to the
 * compute time, waits to the data stall), that a batch's stages and a
 * bucket's phases share a flow id and follow each other in time, that the
 * record cap holds, and that the written file is a Chrome trace event file:
 * a JSON object with traceEvents, slices of one thread properly nested,
 * every thread named, every flow started once, finished once and bound to a
 * slice, counters with numeric values.
 */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../catalog/catalog.h"
#include "../../cli/ld_scenario.h"
#include "../../cli/chrome_trace.h"
#include "../../sim/trace.h"
#include "t.h"

/* Two 4-GPU train nodes and one CPU data node; ring all-reduce over three
 * buckets overlapped with backward; jitter on. */
static void hetero(struct sim_config *c)
{
    memset(c, 0, sizeof *c);
    c->ngroups = 2;
    c->groups[0] = (struct sim_group){
        .role = SIM_TRAIN, .count = 2, .gpus = 4, .vcpus = 16, .loader_vcpus = 16,
        .core_speed = 1, .nic_Bps = 3e9, .net_alpha_s = 20e-6, .intra_Bps = 5e10,
        .intra_alpha_s = 2e-6, .pcie_Bps = 1e10, .fwd_s = 0.02, .bwd_s = 0.04, .opt_s = 0.002,
        .price_usd_h = 10};
    c->groups[1] = (struct sim_group){
        .role = SIM_DATA, .count = 1, .vcpus = 32, .loader_vcpus = 32, .core_speed = 1,
        .nic_Bps = 3e9, .net_alpha_s = 20e-6, .price_usd_h = 2};
    c->w = (struct sim_workload){.batch = 64, .grad_bytes = 60e6, .cpu_s_per_sample = 0.004,
                                 .prep_bytes = 150e3, .loader_workers = 4, .prefetch = 2,
                                 .local_with_data_nodes = 1};
    c->c = (struct sim_comm){.strategy = SIM_RING, .bucket_bytes = 25e6, .overlap = 1};
    c->fabric_oversub = 2;
    c->steps = 6;
    c->warmup = 2;
    c->jitter_cv = 0.05;
    c->seed = 11;
}

/* Two train groups of different GPUs, asynchronous parameter server on a
 * dedicated node: one collective chain per group. */
static void async_ps(struct sim_config *c)
{
    memset(c, 0, sizeof *c);
    c->ngroups = 3;
    c->groups[0] = (struct sim_group){
        .role = SIM_TRAIN, .count = 2, .gpus = 1, .vcpus = 8, .loader_vcpus = 8, .core_speed = 1,
        .nic_Bps = 1e9, .net_alpha_s = 30e-6, .pcie_Bps = 1e10, .fwd_s = 0.01, .bwd_s = 0.02};
    c->groups[1] = c->groups[0];
    c->groups[1].fwd_s = 0.015;
    c->groups[2] = (struct sim_group){.role = SIM_PS, .count = 1, .vcpus = 8, .core_speed = 1,
                                      .nic_Bps = 2e9, .net_alpha_s = 30e-6};
    c->w = (struct sim_workload){.batch = 32, .grad_bytes = 8e6, .cpu_s_per_sample = 1e-4,
                                 .prep_bytes = 1e4, .loader_workers = 2, .prefetch = 1,
                                 .ps_reduce_s_per_byte = 1e-10};
    c->c = (struct sim_comm){.strategy = SIM_PS_ASYNC, .bucket_bytes = 4e6, .overlap = 1,
                             .ps_servers = 1, .ps_dedicated = 1};
    c->fabric_oversub = 1;
    c->steps = 5;
    c->warmup = 1;
    c->seed = 3;
}

static int run(struct sim_config *c, struct sim_trace *tr, struct sim_result *r)
{
    struct dt_err e;
    c->trace = tr;
    if (sim_run(c, r, &e)) {
        printf("# sim error: %s\n", e.msg);
        return -1;
    }
    return 0;
}

/* hetero, sharded as zero3 in 6 units over 5 micro-batches (shard.c) */
static void sharded(struct sim_config *c)
{
    hetero(c);
    c->c.shard = SIM_SHARD_FULL;
    c->c.param_bytes = c->w.grad_bytes / 2;
    c->c.units = 6;
    c->c.micro_batches = 5;
    c->groups[0].comm_slowdown = 1.2;
}

static void tracing_does_not_change_results(void)
{
    void (*make[3])(struct sim_config *) = {hetero, async_ps, sharded};
    const char *name[3] = {"heterogeneous ring", "asynchronous PS", "zero3"};

    for (int k = 0; k < 3; k++) {
        struct sim_config c;
        struct sim_result off, on;
        struct sim_trace tr;
        memset(&tr, 0, sizeof tr);
        memset(&off, 0x55, sizeof off);
        memset(&on, 0xAA, sizeof on);
        make[k](&c);
        T_CHECK(run(&c, NULL, &off) == 0 && run(&c, &tr, &on) == 0, "%s: both runs succeed", name[k]);
        T_CHECK(memcmp(&off, &on, sizeof off) == 0, "%s: result identical with tracing on and off",
                name[k]);
        T_CHECK(off.step_mean_s == on.step_mean_s && off.events == on.events,
                "%s: step time %.9g s and %ld events either way", name[k], on.step_mean_s, on.events);
        T_CHECK(tr.nspans > 0 && tr.nsamples > 0, "%s: the trace holds %zu spans and %zu samples",
                name[k], tr.nspans, tr.nsamples);
        if (c.c.shard != SIM_SHARD_NONE) {
            size_t ng = 0, nr = 0, open = 0;
            for (size_t i = 0; i < tr.nspans; i++) {
                ng += tr.spans[i].act == SIM_ACT_SHARD && tr.spans[i].a == 0;
                nr += tr.spans[i].act == SIM_ACT_SHARD && tr.spans[i].a == 1;
                open += (tr.spans[i].act == SIM_ACT_SHARD || tr.spans[i].act == SIM_ACT_SHARD_FLOW) &&
                        isnan(tr.spans[i].t1_s);
            }
            /* per step, 3 micro-batches simulated: 2 x 6 x 3 gathers, 6 x 3 reductions
             * (one phase each under the ring), in every step, warm-up included */
            T_CHECK(ng == (size_t)(36 * (c.steps + c.warmup)) && nr == (size_t)(18 * (c.steps + c.warmup)) &&
                        open == 0,
                    "%s: %zu gathers and %zu reductions traced, all ended", name[k], ng, nr);
        }
        /* A second traced run into the same recorder gives the same recording. */
        {
            size_t ns = tr.nspans;
            double last = ns ? tr.spans[ns - 1].t0_s : 0;
            T_CHECK(run(&c, &tr, &on) == 0 && tr.nspans == ns && (!ns || tr.spans[ns - 1].t0_s == last),
                    "%s: a reused recorder starts afresh", name[k]);
        }
        sim_trace_free(&tr);
    }
}

static double dur(const struct sim_trace_span *s)
{
    return s->t1_s - s->t0_s;
}

static void spans_add_up_to_the_result(void)
{
    struct sim_config c;
    struct sim_result r;
    struct sim_trace tr;
    double fwdbwd = 0, wait = 0, comm = 0, opt = 0;
    int nfwd = 0, nphase = 0, open_worker = 0, bad_time = 0, tracks_compute = 0;

    memset(&tr, 0, sizeof tr);
    hetero(&c);
    if (run(&c, &tr, &r))
        return;
    for (size_t i = 0; i < tr.nspans; i++) {
        const struct sim_trace_span *s = &tr.spans[i];
        int measured = s->step >= c.warmup;
        if (s->act <= SIM_ACT_OPT && !isfinite(s->t1_s))
            open_worker++;
        if (isfinite(s->t1_s) && (s->t1_s < s->t0_s || s->t1_s > tr.end_s + 1e-12))
            bad_time++;
        if (s->act == SIM_ACT_FWD)
            nfwd++;
        if (s->act == SIM_ACT_PHASE)
            nphase++;
        if (!measured)
            continue;
        if (s->act == SIM_ACT_FWD || s->act == SIM_ACT_BWD)
            fwdbwd += dur(s);
        if (s->act == SIM_ACT_WAIT_BATCH)
            wait += dur(s);
        if (s->act == SIM_ACT_WAIT_COMM)
            comm += dur(s);
        if (s->act == SIM_ACT_OPT)
            opt += dur(s);
    }
    for (int t = 0; t < tr.ntracks; t++)
        tracks_compute += tr.tracks[t].kind == SIM_TRACK_COMPUTE;
    T_CHECK(tracks_compute == 1, "one compute track for the one train group (%d)", tracks_compute);
    T_CHECK(tr.tracks[0].stands_for == 8, "the compute track stands for 2 nodes x 4 GPUs (%g)",
            tr.tracks[0].stands_for);
    T_CHECK(open_worker == 0, "every worker activity is closed at the end");
    T_CHECK(bad_time == 0, "every span ends after it starts and by the end of the run");
    T_CHECK(nfwd == c.steps + c.warmup, "one forward span per step (%d)", nfwd);
    /* 60 MB in 25 MB buckets: 3 buckets, one ring phase each, every step. */
    T_CHECK(nphase == 3 * (c.steps + c.warmup), "one phase span per bucket and step (%d)", nphase);
    /* One worker: its measured spans are the result's breakdown times steps. */
    T_NEAR(fwdbwd / c.steps, r.compute_s, 1e-12, "forward + backward spans = compute_s");
    T_NEAR(wait / c.steps, r.data_stall_s, 1e-12, "waiting-for-input spans = data_stall_s");
    T_NEAR(comm / c.steps, r.exposed_comm_s, 1e-12, "waiting-for-gradients spans = exposed_comm_s");
    T_NEAR(opt / c.steps, r.optimizer_s, 1e-12, "optimizer spans = optimizer_s");
    sim_trace_free(&tr);
}

static void batches_and_buckets_are_linked_in_order(void)
{
    struct sim_config c;
    struct sim_result r;
    struct sim_trace tr;
    int linked = 0, order_bad = 0, bucket_flows = 0, loads_bad = 0, ready_bad = 0, multi_res = 0;

    memset(&tr, 0, sizeof tr);
    hetero(&c);
    if (run(&c, &tr, &r))
        return;
    for (size_t i = 0; i < tr.nspans; i++) {
        const struct sim_trace_span *a = &tr.spans[i];
        if (a->act == SIM_ACT_STAGE && a->flow && isfinite(a->t1_s)) {
            /* The next stage of the same batch starts after this one ends. */
            for (size_t j = i + 1; j < tr.nspans; j++) {
                const struct sim_trace_span *b = &tr.spans[j];
                if (b->act == SIM_ACT_STAGE && b->flow == a->flow && b->c == a->c + 1) {
                    linked++;
                    if (b->t0_s < a->t1_s - 1e-15)
                        order_bad++;
                    break;
                }
            }
        }
        if (a->act == SIM_ACT_PHASE_FLOW && i > 0 && tr.spans[i - 1].act == SIM_ACT_PHASE_FLOW &&
            tr.spans[i - 1].flow == a->flow && tr.spans[i - 1].t0_s == a->t0_s)
            multi_res++;
        if (a->act == SIM_ACT_BUCKET)
            for (size_t j = i + 1; j < tr.nspans; j++)
                if (tr.spans[j].act == SIM_ACT_PHASE && tr.spans[j].flow == a->flow) {
                    bucket_flows++;
                    break;
                }
    }
    for (size_t i = 0; i < tr.nsamples; i++) {
        const struct sim_trace_sample *s = &tr.samples[i];
        if (s->what == SIM_CNT_LOAD && !(s->v >= 0 && s->v <= 1 + 1e-9))
            loads_bad++;
        /* Two producers (local, data node), prefetch 2 each. */
        if (s->what == SIM_CNT_READY && !(s->v >= 0 && s->v <= 4))
            ready_bad++;
    }
    T_CHECK(linked > 0 && order_bad == 0, "a batch's stages share a flow id and follow in time (%d links)",
            linked);
    T_CHECK(multi_res > 0, "a transfer over several resources has one span per resource, one flow");
    T_CHECK(bucket_flows == 3 * (c.steps + c.warmup),
            "each bucket release leads by flow id to its phase (%d)", bucket_flows);
    T_CHECK(loads_bad == 0, "resource loads stay within capacity (0..1)");
    T_CHECK(ready_bad == 0, "the input queue depth stays within the prefetch depth");
    sim_trace_free(&tr);
}

static void the_record_cap_holds_and_is_reported(void)
{
    struct sim_config c;
    struct sim_result r, r0;
    struct sim_trace tr;

    memset(&tr, 0, sizeof tr);
    tr.max_records = 100;
    hetero(&c);
    if (run(&c, NULL, &r0) || run(&c, &tr, &r))
        return;
    T_CHECK(tr.truncated == 1, "a run with more records than the cap is marked truncated");
    T_CHECK(tr.nspans + tr.nsamples <= 100, "at most 100 records kept (%zu)", tr.nspans + tr.nsamples);
    T_CHECK(memcmp(&r, &r0, sizeof r) == 0, "the result is the same when the trace is cut");
    sim_trace_free(&tr);
    T_CHECK(tr.max_records == 100 && tr.nspans == 0, "sim_trace_free keeps the cap, drops the records");
}

/* ---- the Chrome trace file ------------------------------------------------ */

static struct cat_instance inst_gpu, inst_cpu;
static struct sc_cluster clusters[2];
static struct scenario sc;
static struct plan_cluster pcs[2];
static struct sim_trace traces[2];     /* what the fixture's runs recorded */
static struct plan_report rep;

static int fixture(void)
{
    struct dt_err e;

    memset(&inst_gpu, 0, sizeof inst_gpu);
    memset(&inst_cpu, 0, sizeof inst_cpu);
    snprintf(inst_gpu.name, sizeof inst_gpu.name, "gpu.\"quoted\"");
    snprintf(inst_cpu.name, sizeof inst_cpu.name, "cpu.large");
    memset(clusters, 0, sizeof clusters);
    snprintf(clusters[0].name, sizeof clusters[0].name, "hetero\\one");
    clusters[0].ngroups = 2;
    clusters[0].groups[0] = (struct sc_group){SIM_TRAIN, &inst_gpu, 2, 0};
    clusters[0].groups[1] = (struct sc_group){SIM_DATA, &inst_cpu, 1, 0};
    snprintf(clusters[1].name, sizeof clusters[1].name, "async");
    clusters[1].ngroups = 3;
    clusters[1].groups[0] = (struct sc_group){SIM_TRAIN, &inst_gpu, 2, 0};
    clusters[1].groups[1] = (struct sc_group){SIM_TRAIN, &inst_gpu, 2, 0};
    clusters[1].groups[2] = (struct sc_group){SIM_PS, &inst_cpu, 1, 0};
    memset(&sc, 0, sizeof sc);
    snprintf(sc.name, sizeof sc.name, "trace-fixture");
    sc.simulation.seed = 11;
    memset(pcs, 0, sizeof pcs);
    pcs[0].cl = &clusters[0];
    hetero(&pcs[0].cfg);
    pcs[1].cl = &clusters[1];
    async_ps(&pcs[1].cfg);
    for (int i = 0; i < 2; i++) {
        sim_trace_free(&traces[i]);
        traces[i].max_records = CHROME_TRACE_MAX_RECORDS;
        pcs[i].cfg.trace = &traces[i];      /* recorded as the planner records it */
        if (sim_run(&pcs[i].cfg, &pcs[i].res, &e))
            return -1;
        pcs[i].cfg.trace = NULL;
    }
    memset(&rep, 0, sizeof rep);
    rep.sc = &sc;
    rep.clusters = pcs;
    rep.nclusters = 2;
    rep.traces = traces;
    rep.best = 0;
    return 0;
}

static char *write_trace(int *rc, struct dt_err *e)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        return NULL;
    *rc = chrome_trace_write(f, &rep, e);
    fclose(f);
    return buf;
}

static const cJSON *get(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k);
}

struct slice {
    int pid, tid;
    double ts, end;
};

static int by_thread_time(const void *pa, const void *pb)
{
    const struct slice *a = pa, *b = pb;
    if (a->pid != b->pid)
        return a->pid - b->pid;
    if (a->tid != b->tid)
        return a->tid - b->tid;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return a->end > b->end ? -1 : a->end < b->end;
}

static void the_file_is_a_chrome_trace(void)
{
    struct dt_err e;
    int rc = -1, n = 0, nx = 0, nested_bad = 0, unnamed = 0, bad_ev = 0, counters = 0, stands = 0;
    int flows_s = 0, flows_f = 0, flow_bad = 0, unbound = 0, pids[3] = {0, 0, 0};
    char *text;
    cJSON *root;
    const cJSON *evs, *ev;
    struct slice *sl;

    if (fixture()) {
        T_CHECK(0, "fixture simulations run");
        return;
    }
    text = write_trace(&rc, &e);
    T_CHECK(rc == 0 && text, "chrome_trace_write succeeds");
    if (!text)
        return;
    root = cJSON_Parse(text);
    T_CHECK(root && cJSON_IsObject(root), "the file is one JSON object (names with quotes and "
                                          "backslashes are escaped)");
    evs = root ? get(root, "traceEvents") : NULL;
    T_CHECK(cJSON_IsArray(evs), "it has a traceEvents array");
    T_CHECK(root && cJSON_IsString(get(root, "displayTimeUnit")), "it sets displayTimeUnit");
    if (!cJSON_IsArray(evs)) {
        cJSON_Delete(root);
        free(text);
        return;
    }
    n = cJSON_GetArraySize(evs);
    sl = calloc((size_t)n + 1, sizeof *sl);
    cJSON_ArrayForEach(ev, evs) {
        const cJSON *ph = get(ev, "ph"), *pid = get(ev, "pid"), *tid = get(ev, "tid");
        const cJSON *ts = get(ev, "ts"), *d = get(ev, "dur"), *nm = get(ev, "name");
        if (!cJSON_IsString(ph) || !cJSON_IsNumber(pid) || !cJSON_IsString(nm)) {
            bad_ev++;
            continue;
        }
        if (pid->valueint >= 1 && pid->valueint <= 2)
            pids[pid->valueint] = 1;
        if (!strcmp(ph->valuestring, "X")) {
            if (!cJSON_IsNumber(tid) || !cJSON_IsNumber(ts) || !cJSON_IsNumber(d) || d->valuedouble < 0)
                bad_ev++;
            else
                sl[nx++] = (struct slice){pid->valueint, tid->valueint, ts->valuedouble,
                                          ts->valuedouble + d->valuedouble};
        } else if (!strcmp(ph->valuestring, "M")) {
            const cJSON *args = get(ev, "args");
            if (!cJSON_IsObject(args))
                bad_ev++;
            else if (!strcmp(nm->valuestring, "thread_name") && cJSON_IsString(get(args, "name")) &&
                     strstr(get(args, "name")->valuestring, "stands for"))
                stands++;
        } else if (!strcmp(ph->valuestring, "C")) {
            const cJSON *args = get(ev, "args");
            if (!cJSON_IsNumber(ts) || !cJSON_IsObject(args) || !args->child ||
                !cJSON_IsNumber(args->child))
                bad_ev++;
            counters++;
        } else if (!strcmp(ph->valuestring, "s") || !strcmp(ph->valuestring, "t") ||
                   !strcmp(ph->valuestring, "f")) {
            if (!cJSON_IsNumber(get(ev, "id")) || !cJSON_IsNumber(ts) || !cJSON_IsNumber(tid) ||
                !cJSON_IsString(get(ev, "cat")))
                bad_ev++;
        } else if (strcmp(ph->valuestring, "i") != 0) {
            bad_ev++;
        }
    }
    T_CHECK(bad_ev == 0, "every event has the fields its phase needs (%d bad)", bad_ev);
    T_CHECK(pids[1] && pids[2], "one process per cluster");
    T_CHECK(nx > 100, "complete events for the simulated activities (%d)", nx);
    T_CHECK(counters > 0, "counter events with numeric values (%d)", counters);
    T_CHECK(stands > 0, "thread names say what each track stands for");

    /* Slices of one thread are disjoint or nested. */
    qsort(sl, (size_t)nx, sizeof *sl, by_thread_time);
    for (int i = 1; i < nx; i++) {
        const struct slice *a = &sl[i - 1], *b = &sl[i];
        if (a->pid == b->pid && a->tid == b->tid && b->ts < a->end - 1e-9 && b->end > a->end + 1e-9)
            nested_bad++;
    }
    T_CHECK(nested_bad == 0, "slices of one thread never partly overlap");

    /* Every thread with slices has a name; every flow binds to a slice. */
    for (int i = 0; i < nx; i++) {
        int named = 0;
        if (i > 0 && sl[i].pid == sl[i - 1].pid && sl[i].tid == sl[i - 1].tid)
            continue;
        cJSON_ArrayForEach(ev, evs) {
            const cJSON *ph = get(ev, "ph"), *nm = get(ev, "name");
            if (cJSON_IsString(ph) && !strcmp(ph->valuestring, "M") && !strcmp(nm->valuestring, "thread_name") &&
                get(ev, "pid")->valueint == sl[i].pid && cJSON_IsNumber(get(ev, "tid")) &&
                get(ev, "tid")->valueint == sl[i].tid)
                named = 1;
        }
        unnamed += !named;
    }
    T_CHECK(unnamed == 0, "every thread with slices has a thread_name");
    {
        /* Flow ids: one "s" and one "f" each, s not after f, each inside a slice of its thread. */
        int maxid = 0;
        cJSON_ArrayForEach(ev, evs) {
            const cJSON *ph = get(ev, "ph");
            if (cJSON_IsString(ph) && strchr("stf", ph->valuestring[0]) && !ph->valuestring[1] &&
                get(ev, "id")->valueint > maxid)
                maxid = get(ev, "id")->valueint;
        }
        double *s_ts = calloc((size_t)maxid + 1, sizeof *s_ts), *f_ts = calloc((size_t)maxid + 1, sizeof *f_ts);
        int *ns = calloc((size_t)maxid + 1, sizeof *ns), *nf = calloc((size_t)maxid + 1, sizeof *nf);
        cJSON_ArrayForEach(ev, evs) {
            const cJSON *ph = get(ev, "ph");
            int id, pid, tid, bound = 0;
            double ts;
            if (!cJSON_IsString(ph) || !strchr("stf", ph->valuestring[0]) || ph->valuestring[1])
                continue;
            id = get(ev, "id")->valueint;
            pid = get(ev, "pid")->valueint;
            tid = get(ev, "tid")->valueint;
            ts = get(ev, "ts")->valuedouble;
            if (ph->valuestring[0] == 's') {
                ns[id]++;
                s_ts[id] = ts;
                flows_s++;
            } else if (ph->valuestring[0] == 'f') {
                nf[id]++;
                f_ts[id] = ts;
                flows_f++;
            }
            for (int i = 0; i < nx && !bound; i++)
                bound = sl[i].pid == pid && sl[i].tid == tid && sl[i].ts <= ts && ts <= sl[i].end;
            unbound += !bound;
        }
        for (int id = 1; id <= maxid; id++)
            if (ns[id] != 1 || nf[id] != 1 || s_ts[id] > f_ts[id])
                flow_bad++;
        free(s_ts);
        free(f_ts);
        free(ns);
        free(nf);
    }
    T_CHECK(flows_s > 0 && flows_s == flows_f && flow_bad == 0,
            "flows: %d started, each finished once, never before it starts", flows_s);
    T_CHECK(unbound == 0, "every flow event lies inside a slice of its thread (%d outside)", unbound);
    free(sl);
    cJSON_Delete(root);

    /* The same report gives the same bytes. */
    {
        int rc2 = -1;
        char *again = write_trace(&rc2, &e);
        T_CHECK(rc2 == 0 && again && !strcmp(again, text), "the trace is byte-identical across calls");
        free(again);
    }
    free(text);
}

static void a_report_without_a_recording_is_an_error(void)
{
    struct dt_err e;
    int rc = 0;
    char *text;

    if (fixture())
        return;
    rep.traces = NULL;
    e.msg[0] = 0;
    text = write_trace(&rc, &e);
    T_CHECK(rc == -1 && strstr(e.msg, "without recording"),
            "a report whose steps were not recorded is an error: %s", e.msg);
    free(text);
}

/* The planner records while it plans: the same results with and without
 * a recording, and a recording for every cluster. */
static void the_planner_records_what_it_planned(void)
{
    struct catalog cat;
    struct scenario s;
    struct plan_report a, b;
    struct plan_opts o = {1, CHROME_TRACE_MAX_RECORDS};
    struct dt_err e;
    int same = 1, recorded = 1;

    if (catalog_load(&cat, "catalog", &e) || ld_scenario_load(&s, "tests/data/report/scaling.yaml",
                                                           &cat, &e)) {
        T_CHECK(0, "scaling.yaml loads: %s", e.msg);
        return;
    }
    if (plan_run(&s, NULL, &a, &e) || plan_run(&s, &o, &b, &e)) {
        T_CHECK(0, "plan_run: %s", e.msg);
    } else {
        for (int i = 0; i < a.nclusters; i++) {
            same &= memcmp(&a.clusters[i].res, &b.clusters[i].res, sizeof a.clusters[i].res) == 0;
            recorded &= b.traces[i].nspans > 0 && b.clusters[i].cfg.trace == NULL;
        }
        T_CHECK(!a.traces && same && a.nclusters == b.nclusters && a.nclusters > 1,
                "recording does not change what %d clusters plan to, bit for bit", a.nclusters);
        T_CHECK(recorded, "every cluster has its recording, kept apart from its config");
        plan_report_free(&a);
        plan_report_free(&b);
    }
    scenario_free(&s);
    catalog_free(&cat);
}

int main(void)
{
    T_RUN(tracing_does_not_change_results);
    T_RUN(spans_add_up_to_the_result);
    T_RUN(batches_and_buckets_are_linked_in_order);
    T_RUN(the_record_cap_holds_and_is_reported);
    T_RUN(the_file_is_a_chrome_trace);
    T_RUN(a_report_without_a_recording_is_an_error);
    T_RUN(the_planner_records_what_it_planned);
    return T_DONE();
}
