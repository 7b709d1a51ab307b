/*
 * trace.c - the recorder behind sim_config.trace (trace.h).
 *
 * Spans and counter samples go into growable arrays.  Activities that are
 * running are found again at their end through a small open-addressing hash
 * keyed by (activity, a, b, c); the same entry counts how often the activity
 * began, which numbers the batches of a producer stage (stages serve batches
 * first in, first out) and the steps of a bucket's phases, and so links the
 * spans of one batch or one bucket with a flow id.  Cost: O(1) amortised per
 * hook, plus O(tracks) per load sample.
 */
#include "trace.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

struct sim_trace_open {
    uint64_t key;       /* packed (act, a, b, c) + 1; 0 = empty slot */
    long first;         /* first span of the running instance, -1 none */
    int n;              /* spans of the running instance */
    int begins;         /* how often the activity began */
};

static uint64_t pack_key(enum sim_act act, int a, int b, int c)
{
    return (((uint64_t)act & 0xF) << 56 | ((uint64_t)a & 0xFF) << 48 |
            ((uint64_t)c & 0xFF) << 40 | ((uint64_t)(unsigned)b & 0xFFFFFFFFu)) + 1;
}

/* Flow ids: kind in the top bits, then the owner, the batch producer or
 * bucket, and the batch number or step. */
static unsigned long long pack_flow(int kind, int a, int b, int serial)
{
    return (unsigned long long)kind << 60 | ((unsigned long long)a & 0xFF) << 52 |
           ((unsigned long long)(unsigned)b & 0xFFFFFFF) << 24 |
           ((unsigned long long)(unsigned)serial & 0xFFFFFF);
}

static size_t hash_slot(uint64_t key, size_t cap)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return (size_t)(key & (cap - 1));
}

static struct sim_trace_open *open_find(struct sim_trace *t, uint64_t key, int insert)
{
    size_t i;

    if (insert && (t->nopen + 1) * 2 > t->cap_open) {
        size_t ncap = t->cap_open ? t->cap_open * 2 : 256;
        struct sim_trace_open *old = t->open, *nw = x_calloc(ncap, sizeof *nw);
        for (size_t k = 0; k < t->cap_open; k++) {
            if (!old[k].key)
                continue;
            for (i = hash_slot(old[k].key, ncap); nw[i].key; i = (i + 1) & (ncap - 1))
                ;
            nw[i] = old[k];
        }
        x_free(old);
        t->open = nw;
        t->cap_open = ncap;
    }
    if (!t->cap_open)
        return NULL;
    for (i = hash_slot(key, t->cap_open); t->open[i].key; i = (i + 1) & (t->cap_open - 1))
        if (t->open[i].key == key)
            return &t->open[i];
    if (!insert)
        return NULL;
    t->open[i].key = key;
    t->open[i].first = -1;
    t->open[i].n = 0;
    t->open[i].begins = 0;
    t->nopen++;
    return &t->open[i];
}

/* Room for n more records under the cap; marks the recording truncated if not. */
static int room(struct sim_trace *t, size_t n)
{
    if (t->max_records && t->nspans + t->nsamples + n > t->max_records) {
        t->truncated = 1;
        return 0;
    }
    return 1;
}

static struct sim_trace_span *new_span(struct sim_trace *t)
{
    if (t->nspans == t->cap_spans) {
        t->cap_spans = t->cap_spans ? t->cap_spans * 2 : 1024;
        t->spans = x_realloc(t->spans, t->cap_spans * sizeof *t->spans);
    }
    return &t->spans[t->nspans++];
}

static void add_sample(struct sim_trace *t, int track, enum sim_counter what, double now, double v)
{
    struct sim_trace_sample *s;

    if (!room(t, 1))
        return;
    if (t->nsamples == t->cap_samples) {
        t->cap_samples = t->cap_samples ? t->cap_samples * 2 : 1024;
        t->samples = x_realloc(t->samples, t->cap_samples * sizeof *t->samples);
    }
    s = &t->samples[t->nsamples++];
    s->track = track;
    s->what = what;
    s->t_s = now;
    s->v = v;
}

void sim_trace_free(struct sim_trace *t)
{
    size_t max = t->max_records;

    x_free(t->tracks);
    x_free(t->spans);
    x_free(t->samples);
    x_free(t->open);
    x_free(t->res_track);
    memset(t, 0, sizeof *t);
    t->max_records = max;
}

void sim_trace_reset(struct sim_trace *t)
{
    t->truncated = 0;
    t->end_s = 0;
    t->ntracks = 0;
    t->nspans = 0;
    t->nsamples = 0;
    if (t->open)
        memset(t->open, 0, t->cap_open * sizeof *t->open);
    t->nopen = 0;
    for (int i = 0; i < t->nres_track; i++)
        t->res_track[i] = -1;
    for (int i = 0; i < SIM_MAX_GROUPS; i++)
        t->worker_track[i] = t->chain_track[i] = -1;
}

void sim_trace_add_track(struct sim_trace *t, enum sim_track_kind kind, int group, int index,
                         double cap, double stands_for)
{
    struct sim_trace_track *tk;
    int id = t->ntracks;

    if (t->ntracks == t->cap_tracks) {
        t->cap_tracks = t->cap_tracks ? t->cap_tracks * 2 : 32;
        t->tracks = x_realloc(t->tracks, (size_t)t->cap_tracks * sizeof *t->tracks);
    }
    tk = &t->tracks[t->ntracks++];
    tk->kind = kind;
    tk->group = group;
    tk->index = index;
    tk->cap = cap;
    tk->stands_for = stands_for;
    tk->last_ready = tk->last_load = NAN;
    if (kind == SIM_TRACK_COMPUTE) {
        if (index >= 0 && index < SIM_MAX_GROUPS)
            t->worker_track[index] = id;
    } else if (kind == SIM_TRACK_CHAIN) {
        if (index >= 0 && index < SIM_MAX_GROUPS)
            t->chain_track[index] = id;
    } else if (index >= 0) {
        if (index >= t->nres_track) {
            int n = index + 16;
            t->res_track = x_realloc(t->res_track, (size_t)n * sizeof *t->res_track);
            for (int i = t->nres_track; i < n; i++)
                t->res_track[i] = -1;
            t->nres_track = n;
        }
        t->res_track[index] = id;
    }
}

static int res_track(const struct sim_trace *t, int res)
{
    return res >= 0 && res < t->nres_track ? t->res_track[res] : -1;
}

static int owner_track(const int *tracks, int i)
{
    return i >= 0 && i < SIM_MAX_GROUPS ? tracks[i] : -1;
}

void sim_trace_begin(struct sim_trace *t, double now, enum sim_act act, int a, int b, int c,
                     int step, double amount, const struct mm_use *use, int nuse)
{
    struct sim_trace_open *o;
    unsigned long long flow = 0;
    int serial, tracks[MM_MAX_USE + 1];
    double mult[MM_MAX_USE + 1];
    int nt = 0;

    o = open_find(t, pack_key(act, a, b, c), 1);
    serial = o->begins++;
    switch (act) {
    case SIM_ACT_STAGE:
        flow = pack_flow(1, a, b, serial);
        break;
    case SIM_ACT_PHASE:
        flow = pack_flow(2, a, b, serial);
        step = serial;
        break;
    case SIM_ACT_PHASE_FLOW:
    case SIM_ACT_SHARD_FLOW: {
        /* The step of this transfer is that of its phase. */
        enum sim_act parent = act == SIM_ACT_PHASE_FLOW ? SIM_ACT_PHASE : SIM_ACT_SHARD;
        struct sim_trace_open *ph = open_find(t, pack_key(parent, a, b, c), 0);
        step = ph ? ph->begins - 1 : serial;
        flow = pack_flow(parent == SIM_ACT_PHASE ? 2 : 3, a, b, step);
        break;
    }
    case SIM_ACT_BUCKET:
    case SIM_ACT_SHARD:
        flow = pack_flow(act == SIM_ACT_BUCKET ? 2 : 3, a, b, serial);
        step = serial;
        break;
    default:
        break;
    }
    if (act == SIM_ACT_STAGE || act == SIM_ACT_PHASE_FLOW || act == SIM_ACT_SHARD_FLOW) {
        for (int i = 0; i < nuse && nt < MM_MAX_USE; i++) {
            int tk = res_track(t, use[i].res);
            if (tk < 0)
                continue;
            tracks[nt] = tk;
            mult[nt++] = use[i].w;
        }
    } else {
        int tk = act == SIM_ACT_PHASE   ? owner_track(t->chain_track, a)
                 : act == SIM_ACT_SHARD ? owner_track(t->chain_track, 0)
                 : act == SIM_ACT_BUCKET ? owner_track(t->worker_track, c)
                                         : owner_track(t->worker_track, a);
        if (tk >= 0) {
            tracks[nt] = tk;
            mult[nt++] = 1;
        }
    }
    o->first = -1;
    o->n = 0;
    if (nt == 0 || !room(t, (size_t)nt))
        return;
    o->first = (long)t->nspans;
    o->n = act == SIM_ACT_BUCKET ? 0 : nt;
    for (int i = 0; i < nt; i++) {
        struct sim_trace_span *sp = new_span(t);
        sp->track = tracks[i];
        sp->act = act;
        sp->a = a;
        sp->b = b;
        sp->c = c;
        sp->step = step;
        sp->t0_s = now;
        sp->t1_s = act == SIM_ACT_BUCKET ? now : NAN;
        sp->amount = amount;
        sp->mult = mult[i];
        sp->flow = flow;
    }
}

void sim_trace_end(struct sim_trace *t, double now, enum sim_act act, int a, int b, int c)
{
    struct sim_trace_open *o = open_find(t, pack_key(act, a, b, c), 0);

    if (!o || o->first < 0)
        return;
    for (int i = 0; i < o->n; i++)
        t->spans[o->first + i].t1_s = now;
    o->first = -1;
    o->n = 0;
}

void sim_trace_ready(struct sim_trace *t, double now, int worker, int ready)
{
    int tk = owner_track(t->worker_track, worker);

    if (tk < 0 || t->tracks[tk].last_ready == ready)
        return;
    t->tracks[tk].last_ready = ready;
    add_sample(t, tk, SIM_CNT_READY, now, ready);
}

void sim_trace_loads(struct sim_trace *t, double now, const struct maxmin *m)
{
    for (int i = 0; i < t->ntracks; i++) {
        struct sim_trace_track *tk = &t->tracks[i];
        double v;
        if (tk->kind == SIM_TRACK_COMPUTE || tk->kind == SIM_TRACK_CHAIN || tk->index < 0 ||
            tk->index >= m->nres || !(tk->cap > 0))
            continue;
        v = m->res[tk->index].load / tk->cap;
        if (v == tk->last_load)
            continue;
        tk->last_load = v;
        add_sample(t, i, SIM_CNT_LOAD, now, v);
    }
}
