/*
 * pp.c - pipeline parallelism in the step simulator (sim.h: sim_comm.pp;
 * docs/model.md "Pipeline parallelism"), as Megatron-LM runs it.
 *
 * The model's layers are cut into pp x v chunks (sim_pp_layers); stage s
 * holds chunks s, pp + s, ...  A step pushes m micro-batches through them.
 * Each stage runs its operations in the order of Megatron's schedule:
 * 1F1B (v = 1: pp - s - 1 forwards to warm up, then one forward and one
 * backward in turn, then the backwards left), or interleaved 1F1B (v > 1:
 * 2 (pp - s - 1) + (v - 1) pp forwards to warm up, micro-batches taken pp
 * at a time through each chunk).  The forward of chunk c on micro-batch j
 * waits for that of chunk c - 1, then its activations' trip between the
 * stages (s b h at 16 bits a micro-batch over tp: each tensor-parallel rank
 * sends its share, over the GPU link or the NICs as that boundary's two
 * stages sit: trip_s); the backward of chunk c waits for that of c + 1 and
 * the gradient's trip back.  An operation costs its layers' compute, the
 * tensor-parallel collectives each layer waits for (tp.c's, alone on the
 * tensor-parallel group's links), and on the last chunk the output layer
 * and loss.  The schedule is the operations as events, each stage taking
 * its next one as soon as the stage is free and the input has arrived:
 * O(pp x v x m) work, whatever the number of data-parallel replicas.  A
 * caller that runs many configs sharing a schedule (the planner's layout
 * search: layouts that differ in sharding or buckets only) gives a memo
 * (sim_config.memo), and a schedule whose times are already there is
 * taken from it, byte for byte what running it gives.
 *
 * The stage whose gradients are ready last (its last backward's end plus
 * its reduction) then stands for every stage in the step simulator: its
 * step is the wait until its last backward, that backward, the all-reduce
 * of its gradients over the data-parallel ranks at its position, in
 * buckets released during that backward when gradients overlap, and its
 * share of the optimizer.  The data-parallel group is simulated as a train
 * group of its own: tp x dp ranks a stage, tp innermost, so ppn / tp of
 * the group a node sharing the node's NICs with the min(tp, ppn) other
 * groups there, or one rank every tp / ppn nodes.  What the other stages'
 * reductions do to the network is left out: in Megatron's order they run
 * on other nodes.
 */
#include "sim_int.h"
#include "../base/memo.h"

#include <math.h>
#include <string.h>

int sim_pp_fits_in(int gpus, int count, int tp, int pp, int order)
{
    long n = (long)gpus * count, blk;

    if (pp <= 1)
        return 1;
    tp = tp > 1 ? tp : 1;
    if (gpus <= 0 || count <= 0 || n % ((long)tp * pp) != 0)
        return 0;
    /* the block that is placed together: a stage's tp x dp ranks, or a
     * replica's tp x pp */
    blk = order == SIM_ORDER_TP_PP_DP ? (long)tp * pp : n / pp;
    return blk % gpus == 0 || gpus % blk == 0;
}

int sim_pp_fits(int gpus, int count, int tp, int pp)
{
    return sim_pp_fits_in(gpus, count, tp, pp, SIM_ORDER_TP_DP_PP);
}

void sim_pp_layers(int layers, int pp, int v, int ends, int *out)
{
    int n = pp * (v > 1 ? v : 1), total = layers + (ends ? 2 : 0);
    int base = (total + n - 1) / n, deficit = base * n - total, in = ends && n > 2;

    for (int i = 0; i < n; i++)
        out[i] = base;
    /* the last chunk (the output layer's), then the first, then inwards;
     * with the ends counted, the inner chunks first, the ends after */
    for (int k = 0; k < deficit; k++) {
        int j = in && k >= n - 2 ? k - (n - 2) : k, at;
        if (in && k < n - 2)
            at = j % 2 == 0 ? n - 2 - j / 2 : 1 + j / 2;
        else
            at = j % 2 == 0 ? n - 1 - j / 2 : j / 2;
        out[at]--;
    }
    if (ends) {
        out[0]--;
        out[n - 1]--;
    }
}

/* ---- the schedule ------------------------------------------------------- */

/* An operation of comp s of compute whose layers' own collectives take
 * comm s: after it, unless a dimension runs them beside it (op_time). */
static double op_dur(const struct sim_config *cfg, double comp, double comm)
{
    for (int d = 0; sim_dims[d]; d++)
        if (sim_dims[d]->op_time)
            return sim_dims[d]->op_time(cfg, comp, comm);
    return comp + comm;
}

/* A stage's forwards, or its backwards, in order: the k-th of them is
 * micro-batch grp pp + r of chunk c (forwards) or v - 1 - c (backwards),
 * k = (grp v + c) pp + r, counted up without a division. */
struct pp_seq {
    int grp, c, r;
};

static void seq_next(struct pp_seq *q, int pp, int v)
{
    if (++q->r == pp) {
        q->r = 0;
        if (++q->c == v) {
            q->c = 0;
            q->grp++;
        }
    }
}

/* Forwards stage s runs before its first backward, of total = m v. */
static int stage_warm(int s, int pp, int v, int m)
{
    int total = m * v, warm;

    if (v == 1)
        warm = pp - s - 1;
    else
        warm = m == pp ? total : 2 * (pp - s - 1) + (v - 1) * pp;
    return warm > total ? total : warm;
}

/* Whether the i-th of a stage's 2 m v operations in Megatron's order is a
 * backward: warm forwards, then a forward and a backward in turn, then the
 * backwards left (warm: stage_warm). */
static int stage_back(int i, int warm, int total)
{
    if (i < warm)
        return 0;
    if (i < 2 * total - warm)
        return (i - warm) % 2;
    return 1;
}

struct pp_stage {
    double last0, last1;        /* the last backward's start and end */
    double busy, tp;            /* time computing (its collectives included); of it, the
                                   tensor-parallel collectives' */
    double grad_bytes;          /* its gradients, a rank's */
};

/*
 * DeepSeek-V3's DualPipe (arXiv:2412.19437, section 3.2.1 and Table 2):
 * rank s runs stage s of one pipeline and stage pp - 1 - s of its mirror,
 * half the micro-batches each way, so its work is m / 2 of each stage's
 * forward and backward; a forward chunk and a backward chunk run together,
 * each's communication under the other's compute (the report: "both
 * all-to-all and PP communication can be fully hidden"), so no trip
 * between stages waits.  Its bubble is Table 2's (pp / 2 - 1) (F&B + B -
 * 3 W): F&B the pair's time (F + B), W the backward's weight half (B / 2,
 * its two products of equal work), so (pp / 2 - 1) (F + B / 2), F and B the
 * rank's two stages' mean.  Each rank ends at its work plus that bubble,
 * its last backward last.
 */
static void dualpipe(int pp, int m, const double *dur, const double *extra, struct pp_stage *st)
{
    for (int s = 0; s < pp; s++) {
        int t = pp - 1 - s;
        double f = 0.5 * (dur[s] + dur[t]), b = 0.5 * (dur[pp + s] + dur[pp + t]);
        st[s].busy = m * (f + b);
        st[s].tp = 0.5 * m * (extra[s] + extra[t] + extra[pp + s] + extra[pp + t]);
        st[s].last1 = st[s].busy + (pp / 2.0 - 1) * (f + 0.5 * b);
        st[s].last0 = st[s].last1 - b;
    }
}

/* Run the schedule of cfg into st (pp of them), p2p[s] a trip between
 * stages s and (s + 1) mod pp either way; -1 on a deadlock, which a
 * well-formed schedule never has. */
static int schedule(const struct sim_config *cfg, const double *fwd, const double *bwd,
                    const double *tpf, const double *tpb, const double *p2p,
                    struct pp_stage *st)
{
    const struct sim_comm *c = &cfg->c;
    int pp = c->pp, v = c->pp_interleave > 1 ? c->pp_interleave : 1, m = c->micro_batches;
    int n = pp * v, nops = 2 * m * v, left = pp * nops, nq = 0, rc = 0;
    double *done = NULL, *freeat = x_calloc((size_t)pp, sizeof *freeat);
    /* each chunk's forward and backward: its time, and of it the tensor-
     * parallel collectives' (op_dur), once for all its micro-batches */
    double *dur = x_malloc(sizeof *dur * (size_t)4 * n), *extra = dur + 2 * n;
    int *next = x_calloc((size_t)pp * 2, sizeof *next), *warm = next + pp;
    struct pp_seq *seq = x_calloc((size_t)pp * 2, sizeof *seq);     /* forwards, backwards */
    int *queue = x_calloc((size_t)pp * 2 + 4, sizeof *queue);
    char *queued = x_calloc((size_t)pp, 1);
    unsigned char *key = NULL;  /* the memo's: pp, v, m, dualpipe, dur and extra, p2p */
    size_t klen = 0;

    for (int vs = 0; vs < n; vs++) {
        dur[vs] = op_dur(cfg, fwd[vs], tpf[vs]);
        dur[n + vs] = op_dur(cfg, bwd[vs], tpb[vs]);
        extra[vs] = dur[vs] - fwd[vs];
        extra[n + vs] = dur[n + vs] - bwd[vs];
    }
    memset(st, 0, sizeof *st * (size_t)pp);
    /* the same schedule already run for this caller (an other layout of a
     * search that shares it): its stages as it left them */
    if (cfg->memo) {
        int head[4] = {pp, v, m, c->pp_dualpipe};
        size_t nd = (size_t)4 * n, len;
        const unsigned char *got;
        key = x_malloc(klen = sizeof head + sizeof *dur * (nd + (size_t)pp));
        memcpy(key, head, sizeof head);
        memcpy(key + sizeof head, dur, sizeof *dur * nd);
        memcpy(key + sizeof head + sizeof *dur * nd, p2p, sizeof *p2p * (size_t)pp);
        got = memo_get(cfg->memo, key, klen, &len);
        if (got && len == sizeof *st * (size_t)pp) {
            memcpy(st, got, len);
            left = 0;
            goto out;
        }
    }
    /* each operation's end, -1 until it has run */
    done = x_malloc(sizeof *done * (size_t)2 * n * m);
    for (int i = 0; i < 2 * n * m; i++)
        done[i] = -1;
    if (c->pp_dualpipe && v == 1 && pp % 2 == 0) {
        dualpipe(pp, m, dur, extra, st);
        left = 0;
    } else {
        for (int s = 0; s < pp; s++) {
            warm[s] = stage_warm(s, pp, v, m);
            queue[nq++] = s;
            queued[s] = 1;
        }
    }
    while (nq > 0) {
        int s = queue[--nq];
        queued[s] = 0;
        while (next[s] < nops) {
            int back = stage_back(next[s], warm[s], m * v);
            const struct pp_seq *q = &seq[2 * s + back];
            int chunk = back ? v - 1 - q->c : q->c, mb = q->grp * pp + q->r;
            int vs = chunk * pp + s, dep = -1, wake = -1, k = back * n + vs;
            int up = s + 1 == pp ? 0 : s + 1, down = s == 0 ? pp - 1 : s - 1;
            double ready = 0;
            if (!back && vs > 0)
                dep = (vs - 1) * m + mb;
            else if (back && vs < n - 1)
                dep = n * m + (vs + 1) * m + mb;
            if (dep >= 0 && done[dep] < 0)
                break;      /* its input has not been computed */
            /* the trip over the boundary between the two chunks' stages */
            if (dep >= 0)
                ready = done[dep] + p2p[back ? s : down];
            if (ready < freeat[s])
                ready = freeat[s];
            if (back)
                st[s].last0 = ready;
            freeat[s] = ready + dur[k];
            done[(back ? n * m : 0) + vs * m + mb] = freeat[s];
            st[s].busy += dur[k];
            st[s].tp += extra[k];
            st[s].last1 = freeat[s];
            next[s]++;
            seq_next(&seq[2 * s + back], pp, v);
            left--;
            /* whose operation waited on this one */
            if (!back && vs + 1 < n)
                wake = up;
            else if (back && vs > 0)
                wake = down;
            if (wake >= 0 && wake != s && !queued[wake]) {
                queue[nq++] = wake;
                queued[wake] = 1;
            }
        }
    }
    if (left != 0)
        rc = -1;
    else if (key)
        memo_put(cfg->memo, key, klen, st, sizeof *st * (size_t)pp);
out:
    x_free(key);
    x_free(done);
    x_free(freeat);
    x_free(dur);
    x_free(next);
    x_free(seq);
    x_free(queue);
    x_free(queued);
    return rc;
}

/* ---- the step ----------------------------------------------------------- */

/* The data-parallel group of a stage of cfg's train group: nodes x wpn
 * ranks, and the groups sharing a node's NICs. */
static void dp_group(const struct sim_config *cfg, const struct sim_group *g, int *nodes,
                     int *wpn, int *share)
{
    int ppn = g->gpus, tp = cfg->c.tp > 1 ? cfg->c.tp : 1;
    long blk = (long)ppn * g->count / cfg->c.pp, dp = blk / tp, rep = (long)tp * cfg->c.pp;

    *share = 1;
    if (cfg->c.pp_order == SIM_ORDER_TP_PP_DP) {
        /* a stage's data-parallel ranks stride a replica's tp x pp */
        if (rep >= ppn) {
            *nodes = (int)dp;
            *wpn = 1;
            *share = ppn;   /* every GPU of the node in a group of its own */
        } else {
            *wpn = (int)(ppn / rep);
            *nodes = (int)(dp / *wpn);
            *share = (int)rep;
        }
        return;
    }
    if (tp > ppn) {
        *nodes = (int)dp;
        *wpn = 1;
        *share = ppn;
    } else if (blk >= ppn) {
        *nodes = (int)(blk / ppn);
        *wpn = ppn / tp;
        *share = tp;
    } else {
        *nodes = 1;
        *wpn = (int)dp;
    }
}

/*
 * A micro-batch's activations from stage s to stage (s + 1) mod pp (the
 * wrap from the last stage to the first carries an interleaved schedule's
 * next chunk), or its gradient back.  Stage s's ranks start at GPU s tp dp
 * in Megatron's order, s tp in tp-pp-dp's (a replica's stages together,
 * the replicas after), and its rank i sends to the next stage's rank i: a
 * boundary whose two stages start on one node stays on the GPU link, one
 * at a node's edge (or between stages of whole nodes, or the wrap when the
 * pipeline spans nodes) crosses the NICs, every GPU of the node sending at
 * once in Megatron's order, the boundary's tp GPUs in tp-pp-dp's (all the
 * node's when tp spans nodes itself).
 */
static double trip_s(const struct sim_config *cfg, const struct sim_group *g, int s)
{
    const struct sim_comm *c = &cfg->c;
    long tp = c->tp > 1 ? c->tp : 1, stride = (long)g->gpus * g->count / c->pp;
    double bytes = c->pp_p2p_bytes > 0 ? c->pp_p2p_bytes : 0;
    int senders;

    if (c->pp_order == SIM_ORDER_TP_PP_DP)
        stride = tp;
    if (s * stride / g->gpus == (s + 1) % c->pp * stride / g->gpus)
        return g->intra_alpha_s + bytes / g->intra_Bps;
    senders = c->pp_order == SIM_ORDER_TP_PP_DP && tp < g->gpus ? (int)tp : g->gpus;
    return g->net_alpha_s + bytes / (g->nic_Bps / senders);
}

/* What the step run as the stage's config leaves out (pp_restore). */
struct pp_plan {
    int stage;                 /* the stage simulated */
    double end_s;              /* its last backward's end in the schedule */
    double busy_s, tp_s;       /* its compute, tensor-parallel collectives included; theirs */
    double ep_s;               /* of busy_s, its MoE layers' waits for the all-to-alls
                                  (sim_group.ep_wait_s's share of moe_wait_s) */
    double p2p_s;              /* a micro-batch's activations from stage to stage, the
                                  slowest boundary's */
    double gpus;               /* GPUs of the train group */
};

/* Of a replica's gradient bytes gall, the tables stage s holds: the input
 * embedding on the first, the output layer on the last. */
static double table_bytes(const struct sim_comm *c, int s, double gall)
{
    return (s == 0 ? c->pp_embed_frac * gall : 0) + (s == c->pp - 1 ? c->pp_out_frac * gall : 0);
}

/* The stage that finishes last as a config without pipeline or tensor
 * parallelism whose train group is that stage's data-parallel group (the
 * file's comment), into *out and *plan. */
static int pp_config(const struct sim_config *cfg, struct sim_config *out, struct pp_plan *plan,
                     struct dt_err *e)
{
    const struct sim_comm *c = &cfg->c;
    int pp = c->pp, v = c->pp_interleave > 1 ? c->pp_interleave : 1, n = pp * v;
    int m = c->micro_batches, tp = c->tp > 1 ? c->tp : 1, gi = 0, nodes, wpn, share, rep = 0;
    const struct sim_group *g;
    struct sim_group dg;
    struct nccl_shape all;
    int *lay = x_calloc((size_t)n, sizeof *lay);
    double *fwd = x_calloc((size_t)n * 4, sizeof *fwd), *bwd = fwd + n, *tpf = fwd + 2 * n,
           *tpb = fwd + 3 * n;
    struct pp_stage *st = x_calloc((size_t)pp, sizeof *st);
    double L = c->units, lf, lb, hf, hb, mf, mb, kf, busy, wait, moe, cf = 0, cb = 0, gall, glay;
    double worst = -1;
    int nmoe;
    double *p2p = x_calloc((size_t)pp, sizeof *p2p);
    int rc = 0, have;

    while (cfg->groups[gi].role != SIM_TRAIN)
        gi++;
    g = &cfg->groups[gi];
    dp_group(cfg, g, &nodes, &wpn, &share);
    have = sim_nccl_shape(cfg, &all) == 0;
    /* a micro-batch's output layer and loss (the last chunk's): their share
     * of the compute, the layers' waits left out; a layer's time, and on
     * each MoE layer its own waits besides */
    busy = g->fwd_s + g->bwd_s;
    wait = fmin(busy, g->layer_wait_s + g->moe_wait_s);  /* pp_check: both >= 0 */
    moe = nmoe = 0;
    for (int i = 0; i < n; i++)
        nmoe += c->pp_moe_layers[i];
    kf = busy > 0 ? g->fwd_s / busy : 0.5;
    if (nmoe > 0)
        moe = fmin(g->moe_wait_s, busy) / m / nmoe;    /* a MoE layer's, a micro-batch */
    hf = (busy - wait) * kf / m * c->pp_head_frac;
    hb = (busy - wait) * (1 - kf) / m * c->pp_head_frac;
    mf = moe * kf;
    mb = moe * (1 - kf);
    lf = (g->fwd_s / m - hf - mf * nmoe) / L;
    lb = (g->bwd_s / m - hb - mb * nmoe) / L;
    /* a layer's own collectives a micro-batch, each dimension's alone on
     * its group (tensor parallelism's: two after the forward, two after
     * the backward, four when it recomputes its forward) */
    for (int d = 0; sim_dims[d]; d++)
        if (sim_dims[d]->stage_layer)
            sim_dims[d]->stage_layer(cfg, g, have ? &all : NULL, &cf, &cb);
    /* a micro-batch's activations to the next stage, boundary by boundary */
    for (int s = 0; s < pp; s++)
        p2p[s] = trip_s(cfg, g, s);
    if (c->pp_nlayers == n)
        memcpy(lay, c->pp_layers, (size_t)n * sizeof *lay);
    else
        sim_pp_layers(c->units, pp, v, c->pp_ends, lay);
    for (int i = 0; i < n; i++) {
        fwd[i] = lay[i] * lf + c->pp_moe_layers[i] * mf + (i == n - 1 ? hf : 0);
        bwd[i] = lay[i] * lb + c->pp_moe_layers[i] * mb + (i == n - 1 ? hb : 0);
        tpf[i] = lay[i] * cf;
        tpb[i] = lay[i] * cb;
    }
    if (schedule(cfg, fwd, bwd, tpf, tpb, p2p, st) != 0) {
        rc = dt_errf(e, "sim: the pipeline schedule of %d stages, %d chunks a stage and %d "
                     "micro-batches does not finish", pp, v, m);
        goto out;
    }
    /* each stage's gradients; the stage whose reduction ends last */
    gall = cfg->w.grad_bytes / tp;
    glay = gall * (1 - c->pp_embed_frac - c->pp_out_frac) / L;
    dg = *g;
    dg.nic_Bps = g->nic_Bps / share;
    for (int s = 0; s < pp; s++) {
        double end;
        for (int k = 0; k < v; k++)
            st[s].grad_bytes += lay[k * pp + s] * glay;
        st[s].grad_bytes += table_bytes(c, s, gall);
        if (c->pp_dualpipe)     /* the mirrored stage's too (one chunk a stage) */
            st[s].grad_bytes += lay[pp - 1 - s] * glay + table_bytes(c, pp - 1 - s, gall);
        end = st[s].last1 + (nodes * wpn > 1 ? coll_alone_s(cfg, &dg, NULL, nodes, wpn,
                                                        NCCL_ALLREDUCE, st[s].grad_bytes) : 0);
        if (end > worst) {
            worst = end;
            rep = s;
        }
    }
    *out = *cfg;
    out->c.pp = 0;
    out->c.tp = 0;
    out->c.tp_bytes = 0;
    out->c.tp_gather_bytes = 0;
    out->c.tp_sp = 0;
    out->c.tp_recompute = 0;
    out->c.shard = SIM_SHARD_NONE;
    out->c.ep_nvl_bytes = out->c.ep_net_bytes = 0;  /* the stage's waits carry them */
    out->w.accum = 1;           /* the stage's last backward stands for the step's */
    out->groups[gi].count = nodes;
    out->groups[gi].gpus = wpn;
    out->groups[gi].nic_Bps = g->nic_Bps / share;
    out->groups[gi].nics = g->nics > share ? g->nics / share : 1;
    out->groups[gi].fwd_s = st[rep].last0;
    out->groups[gi].bwd_s = st[rep].last1 - st[rep].last0;
    out->groups[gi].opt_s = g->opt_s * (gall > 0 ? st[rep].grad_bytes / gall : 1.0 / pp);
    out->w.grad_bytes = st[rep].grad_bytes;
    out->w.batch = cfg->w.batch * tp * pp;      /* a replica's samples */
    plan->stage = rep;
    plan->end_s = st[rep].last1;
    plan->busy_s = st[rep].busy;
    plan->tp_s = st[rep].tp;
    /* the stage's MoE layers' waits, m micro-batches of each of its chunks
     * (DualPipe: half of its own, half of its mirror's), and of them the
     * all-to-alls' */
    {
        double moe_s = 0;
        for (int k = 0; k < v; k++)
            moe_s += c->pp_dualpipe && v == 1
                         ? 0.5 * (c->pp_moe_layers[rep] + c->pp_moe_layers[pp - 1 - rep])
                         : c->pp_moe_layers[k * pp + rep];
        moe_s *= m * (mf + mb);
        plan->ep_s = g->moe_wait_s > 0 ? moe_s * fmin(1, g->ep_wait_s / g->moe_wait_s) : 0;
    }
    plan->p2p_s = 0;
    for (int s = 0; s < pp; s++)
        plan->p2p_s = fmax(plan->p2p_s, p2p[s]);
    plan->gpus = (double)g->gpus * g->count;
out:
    x_free(lay);
    x_free(p2p);
    x_free(fwd);
    x_free(st);
    return rc;
}

static void pp_result(const struct pp_plan *plan, struct sim_result *res)
{
    double k = plan->end_s > 0 ? res->compute_s / plan->end_s : 0;

    res->tp_comm_s = plan->tp_s * k;
    res->ep_comm_s = plan->ep_s * k;
    res->pp_bubble_s = (plan->end_s - plan->busy_s) * k;
    res->compute_s = (plan->busy_s - plan->tp_s - plan->ep_s) * k;
    res->exposed_comm_s += res->tp_comm_s + res->ep_comm_s;
    res->workers = plan->gpus;
    for (int i = 0; i < SIM_MAX_GROUPS; i++)
        if (res->g[i].gpu_util > 0 && res->step_mean_s > 0)
            res->g[i].gpu_util = res->compute_s / res->step_mean_s;
    if (res->step_mean_s > 0)
        res->util_gpu = res->compute_s / res->step_mean_s;
}

/* ---- the dimension ------------------------------------------------------ */

static int pp_reduce(const struct sim_config *cfg, struct sim_config *out, void **plan,
                     struct dt_err *e)
{
    struct pp_plan *p;

    if (cfg->c.pp <= 1)
        return 0;
    p = x_calloc(1, sizeof *p);
    if (pp_config(cfg, out, p, e)) {
        x_free(p);
        return -1;
    }
    *plan = p;
    return 1;
}

static void pp_restore(void *plan, struct sim_result *res)
{
    if (res)
        pp_result(plan, res);
    x_free(plan);
}

/* A pipelined step's collectives are the simulated stage's. */
static int pp_collectives(const struct sim_config *cfg, const struct nccl_shape *all,
                          struct sim_coll_choice *out, int n, int max, int *final)
{
    struct sim_config *x;
    struct pp_plan plan;
    struct dt_err e;

    (void)all;
    if (cfg->c.pp <= 1)
        return n;
    *final = 1;
    x = x_malloc(sizeof *x);
    if (sim_check(cfg, &e) == 0 && pp_config(cfg, x, &plan, &e) == 0)
        n += sim_collectives(x, out + n, max - n);
    x_free(x);
    return n;
}

/* One train group of GPU nodes and nothing else, its layout in one of the
 * two orders, at least a layer a chunk (the embedding and the loss counted
 * as layers with pp_ends). */
static int pp_check(const struct sim_config *cfg, struct dt_err *e)
{
    const struct sim_comm *c = &cfg->c;
    const struct sim_group *g = &cfg->groups[0];
    int v = c->pp_interleave;

    if (c->pp < 0 || c->pp > 4096 || v < 0 || v > 64)
        return dt_errf(e, "sim: %d pipeline stages of %d chunks, expected 0 to 4096 stages and "
                       "0 to 64 chunks", c->pp, v);
    if (c->pp <= 1)
        return 0;
    v = v > 1 ? v : 1;
    if (cfg->ngroups != 1 || g->role != SIM_TRAIN || g->gpus < 1)
        return dt_errf(e, "sim: pipeline parallelism needs one train group of GPU nodes and no "
                       "other group");
    if (sim_is_ps(c->strategy) || c->shard > SIM_SHARD_OPT)
        return dt_errf(e, "sim: pipeline parallelism with strategy %s and sharding %d, expected "
                       "an all-reduce strategy and at most the optimizer sharded",
                       sim_strategy_name(c->strategy), (int)c->shard);
    if (c->pp_order != SIM_ORDER_TP_DP_PP && c->pp_order != SIM_ORDER_TP_PP_DP)
        return dt_errf(e, "sim: placement order %d, expected 0 (tp, dp, pp) or 1 (tp, pp, dp)",
                       c->pp_order);
    if (!sim_pp_fits_in(g->gpus, g->count, c->tp, c->pp, c->pp_order))
        return dt_errf(e, "sim: %d pipeline stages of tensor parallelism %d on %d x %d GPUs; "
                       "expected tp x pp to divide the GPUs and %s to be whole nodes or "
                       "part of one", c->pp, c->tp, g->count, g->gpus,
                       c->pp_order ? "a replica" : "a stage");
    for (int i = 0; i < SIM_MAX_PP_CHUNKS; i++)
        if (c->pp_moe_layers[i] < 0 || c->pp_moe_layers[i] > c->units ||
            (i >= c->pp * v && c->pp_moe_layers[i] != 0) ||
            (c->pp_nlayers > 0 && c->pp_moe_layers[i] > c->pp_layers[i]))
            return dt_errf(e, "sim: chunk %d of %d holds %d MoE layers; expected 0 to its "
                           "layers, and none past the last chunk", i, c->pp * v,
                           c->pp_moe_layers[i]);
    if (sim_bad_num(g->layer_wait_s) || sim_bad_num(g->moe_wait_s) || sim_bad_num(g->ep_wait_s))
        return dt_errf(e, "sim: the layers' waits %g, %g and %g s (every layer's, the MoE "
                       "layers', their all-to-alls'); expected finite seconds", g->layer_wait_s,
                       g->moe_wait_s, g->ep_wait_s);
    if (c->pp_nlayers > 0) {
        int sum = 0, bad = c->pp_nlayers != c->pp * v || c->pp_nlayers > SIM_MAX_PP_CHUNKS;
        for (int i = 0; !bad && i < c->pp_nlayers; i++) {
            bad = c->pp_layers[i] < 0;
            sum += c->pp_layers[i];
        }
        if (bad || sum != c->units)
            return dt_errf(e, "sim: %d given chunk layer counts for %d stages of %d chunks and %d "
                           "layers; expected one a chunk, none negative, adding up to the layers",
                           c->pp_nlayers, c->pp, v, c->units);
    }
    if ((c->pp_nlayers == 0 && c->units + (c->pp_ends ? 2 : 0) < c->pp * v) || c->micro_batches < 1 ||
        (v > 1 && c->micro_batches % c->pp != 0) ||
        2.0 * c->pp * v * c->micro_batches > 1e7)
        return dt_errf(e, "sim: %d layers over %d stages of %d chunks, %d micro-batches; "
                       "expected a layer a chunk, micro-batches a multiple of the stages when "
                       "interleaved, at most 1e7 operations", c->units, c->pp, v,
                       c->micro_batches);
    if (c->pp_dualpipe && (c->pp % 2 != 0 || v > 1 || c->micro_batches % 2 != 0 ||
                           c->micro_batches < c->pp))
        return dt_errf(e, "sim: DualPipe over %d stages of %d chunks, %d micro-batches; expected "
                       "an even number of stages of one chunk and an even number of micro-batches "
                       "no fewer than the stages", c->pp, v, c->micro_batches);
    if (sim_bad_num(c->pp_head_frac) || c->pp_head_frac >= 1 || sim_bad_num(c->pp_embed_frac) ||
        sim_bad_num(c->pp_out_frac) || c->pp_embed_frac + c->pp_out_frac >= 1 ||
        sim_bad_num(c->pp_p2p_bytes))
        return dt_errf(e, "sim: pipeline shares %g (head), %g and %g (embedding, output), %g "
                       "bytes a micro-batch; expected shares in [0, 1) and finite bytes",
                       c->pp_head_frac, c->pp_embed_frac, c->pp_out_frac, c->pp_p2p_bytes);
    return 0;
}

const struct sim_dim_ops sim_dim_pp = {
    .name = "pp",
    .check = pp_check,
    .collectives = pp_collectives,
    .reduce = pp_reduce,
    .restore = pp_restore,
};
