/*
 * maxmin.c - progressive filling for weighted max-min fair sharing.
 *
 * All unfrozen flows grow at the same rate L.  A resource r saturates when
 * frozen_load_r + L * W_r = cap_r (W_r: summed multiplicity of its unfrozen
 * flows); a bounded flow stops at its bound.  The smallest such L fixes the
 * rate of the flows it limits; repeat until every flow is frozen.
 *
 * Flows that share no resource do not meet in the filling, so with
 * `incremental` set a flow added on resources no other flow uses gets its
 * rate at once, and one removed from such resources clears their load,
 * without a solve; the others keep their rates (mm_solve would give them the
 * same, but for its 1e-12 freezing tolerance across unrelated resources).
 */
#include "maxmin.h"

#include <assert.h>
#include <math.h>
#include <string.h>

#include "../base/xmem.h"

void mm_init(struct maxmin *m)
{
    memset(m, 0, sizeof *m);
}

void mm_free(struct maxmin *m)
{
    x_free(m->res);
    x_free(m->flows);
    x_free(m->rem);
    x_free(m->wsum);
    x_free(m->frozen);
    x_free(m->users);
    mm_init(m);
}

int mm_add_res(struct maxmin *m, double cap)
{
    assert(cap > 0);
    if (m->nres == m->cap_res) {
        m->cap_res = m->cap_res ? 2 * m->cap_res : 16;
        m->res = x_realloc(m->res, (size_t)m->cap_res * sizeof *m->res);
        m->rem = x_realloc(m->rem, (size_t)m->cap_res * sizeof *m->rem);
        m->wsum = x_realloc(m->wsum, (size_t)m->cap_res * sizeof *m->wsum);
        m->users = x_realloc(m->users, (size_t)m->cap_res * sizeof *m->users);
    }
    m->users[m->nres] = 0;
    m->res[m->nres].cap = cap;
    m->res[m->nres].load = 0;
    m->res[m->nres].busy = 0;
    return m->nres++;
}

/* The rate the progressive filling gives flow f when no other active
 * flow shares its resources: its bound or its tightest resource, the sums
 * taken as the general loop takes them (uses of one resource added in
 * order). */
static double alone_rate(const struct maxmin *m, const struct mm_flow *f)
{
    double level = f->bound;

    for (int u = 0; u < f->nuse; u++) {
        int r = f->use[u].res, first = 1;
        double w = 0;
        for (int v = 0; v < u && first; v++)
            first = f->use[v].res != r;
        if (!first)
            continue;               /* its resource's sum was taken at its first use */
        for (int v = u; v < f->nuse; v++)
            if (f->use[v].res == r)
                w += f->use[v].w;
        if (m->res[r].cap / w < level)
            level = m->res[r].cap / w;
    }
    assert(isfinite(level));
    return level;
}

/* Flow f, alone on its resources, at its rate, and its load on them. */
static void charge_alone(struct maxmin *m, struct mm_flow *f)
{
    f->rate = alone_rate(m, f);
    for (int u = 0; u < f->nuse; u++)
        m->res[f->use[u].res].load += f->use[u].w * f->rate;
}

/* mm_solve with one active flow f, without its passes over every flow and
 * resource. */
static void solve_one(struct maxmin *m, struct mm_flow *f)
{
    for (int r = 0; r < m->nres; r++)
        m->res[r].load = 0;
    charge_alone(m, f);
    m->dirty = 0;
}

int mm_add_flow(struct maxmin *m, double amount, double bound,
                const struct mm_use *use, int nuse, int tag, int a, int b, int c)
{
    int id;
    struct mm_flow *f;

    assert(nuse >= 0 && nuse <= MM_MAX_USE);
    assert(nuse > 0 || isfinite(bound));
    for (id = 0; id < m->nflows; id++)
        if (!m->flows[id].active)
            break;
    if (id == m->nflows) {
        if (m->nflows == m->cap_flows) {
            m->cap_flows = m->cap_flows ? 2 * m->cap_flows : 16;
            m->flows = x_realloc(m->flows, (size_t)m->cap_flows * sizeof *m->flows);
            m->frozen = x_realloc(m->frozen, (size_t)m->cap_flows);
        }
        m->nflows++;
    }
    f = &m->flows[id];
    f->active = 1;
    f->remaining = amount;
    f->rate = 0;
    f->bound = bound;
    f->nuse = nuse;
    for (int i = 0; i < nuse; i++) {
        assert(use[i].res >= 0 && use[i].res < m->nres && use[i].w > 0);
        f->use[i] = use[i];
    }
    f->tag = tag;
    f->a = a;
    f->b = b;
    f->c = c;
    m->nactive++;
    {
        /* alone on its resources (and nothing else changed since the last
         * solve): the others keep their rates, and it gets its own */
        int alone = m->incremental && !m->dirty;
        for (int i = 0; i < nuse; i++)
            alone &= m->users[f->use[i].res] == 0;
        for (int i = 0; i < nuse; i++)
            m->users[f->use[i].res]++;
        if (alone)
            charge_alone(m, f);
        else
            m->dirty = 1;
    }
    return id;
}

void mm_remove_flow(struct maxmin *m, int id)
{
    struct mm_flow *f;
    int alone;

    assert(id >= 0 && id < m->nflows && m->flows[id].active);
    f = &m->flows[id];
    f->active = 0;
    m->nactive--;
    /* alone on its resources: they carry nothing now, the others as before */
    alone = m->incremental && !m->dirty;
    for (int i = 0; i < f->nuse; i++)
        m->users[f->use[i].res]--;
    for (int i = 0; i < f->nuse; i++)
        alone &= m->users[f->use[i].res] == 0;
    if (alone)
        for (int i = 0; i < f->nuse; i++)
            m->res[f->use[i].res].load = 0;
    else
        m->dirty = 1;
    while (m->nflows > 0 && !m->flows[m->nflows - 1].active)
        m->nflows--;
}

void mm_solve(struct maxmin *m)
{
    int left = 0;

    /* no flow, or one: what the general loop gives, more cheaply */
    if (m->nactive == 0) {
        for (int r = 0; r < m->nres; r++)
            m->res[r].load = 0;
        m->dirty = 0;
        return;
    }
    if (m->nactive == 1)
        for (int i = 0; i < m->nflows; i++)
            if (m->flows[i].active) {
                solve_one(m, &m->flows[i]);
                return;
            }

    for (int r = 0; r < m->nres; r++) {
        m->rem[r] = m->res[r].cap;
        m->res[r].load = 0;
    }
    for (int i = 0; i < m->nflows; i++) {
        m->frozen[i] = m->flows[i].active ? 0 : 2;  /* 0 growing, 1 frozen now, 2 charged */
        if (m->flows[i].active) {
            m->flows[i].rate = 0;
            left++;
        }
    }
    while (left > 0) {
        double level = INFINITY;

        for (int r = 0; r < m->nres; r++)
            m->wsum[r] = 0;
        for (int i = 0; i < m->nflows; i++) {
            const struct mm_flow *f = &m->flows[i];
            if (m->frozen[i])
                continue;
            if (f->bound < level)
                level = f->bound;
            for (int u = 0; u < f->nuse; u++)
                m->wsum[f->use[u].res] += f->use[u].w;
        }
        for (int r = 0; r < m->nres; r++)
            if (m->wsum[r] > 0) {
                double l = m->rem[r] > 0 ? m->rem[r] / m->wsum[r] : 0;
                if (l < level)
                    level = l;
            }
        assert(isfinite(level));
        /* Freeze every flow that is bounded at this level or crosses a
         * resource that saturates at it. */
        for (int i = 0; i < m->nflows; i++) {
            struct mm_flow *f = &m->flows[i];
            int stop;
            if (m->frozen[i])
                continue;
            stop = f->bound <= level * (1 + 1e-12);
            for (int u = 0; u < f->nuse && !stop; u++) {
                int r = f->use[u].res;
                if (m->rem[r] <= level * m->wsum[r] * (1 + 1e-12))
                    stop = 1;
            }
            if (!stop)
                continue;
            f->rate = level;
            m->frozen[i] = 1;
            left--;
        }
        /* Charge the flows frozen in this round to their resources. */
        for (int i = 0; i < m->nflows; i++) {
            struct mm_flow *f = &m->flows[i];
            if (m->frozen[i] != 1 || !f->active)
                continue;
            for (int u = 0; u < f->nuse; u++)
                m->rem[f->use[u].res] -= f->use[u].w * f->rate;
            m->frozen[i] = 2;
        }
    }
    for (int i = 0; i < m->nflows; i++) {
        struct mm_flow *f = &m->flows[i];
        if (!f->active)
            continue;
        for (int u = 0; u < f->nuse; u++)
            m->res[f->use[u].res].load += f->use[u].w * f->rate;
    }
    m->dirty = 0;
}

double mm_next_completion(const struct maxmin *m)
{
    double best = INFINITY;
    for (int i = 0; i < m->nflows; i++) {
        const struct mm_flow *f = &m->flows[i];
        if (!f->active)
            continue;
        if (f->remaining <= 0)
            return 0;
        if (f->rate > 0 && f->remaining / f->rate < best)
            best = f->remaining / f->rate;
    }
    return best;
}

void mm_advance(struct maxmin *m, double dt)
{
    if (dt <= 0)
        return;
    for (int i = 0; i < m->nflows; i++) {
        struct mm_flow *f = &m->flows[i];
        if (f->active)
            f->remaining -= f->rate * dt;
    }
    for (int r = 0; r < m->nres; r++)
        m->res[r].busy += m->res[r].load * dt;
}
