/*
 * evq.c - binary min-heap of events ordered by (time, sequence).
 */
#include "evq.h"

#include <math.h>

#include "../base/xmem.h"

void evq_init(struct evq *q)
{
    q->heap = NULL;
    q->n = q->cap = 0;
    q->next_seq = 0;
}

void evq_free(struct evq *q)
{
    x_free(q->heap);
    evq_init(q);
}

static int ev_less(const struct evq_event *x, const struct evq_event *y)
{
    if (x->t != y->t)
        return x->t < y->t;
    return x->seq < y->seq;
}

void evq_push(struct evq *q, double t, int type, int a, int b, int c)
{
    struct evq_event ev = {t, q->next_seq++, type, a, b, c};
    int i;

    if (q->n == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 64;
        q->heap = x_realloc(q->heap, (size_t)q->cap * sizeof *q->heap);
    }
    i = q->n++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!ev_less(&ev, &q->heap[parent]))
            break;
        q->heap[i] = q->heap[parent];
        i = parent;
    }
    q->heap[i] = ev;
}

int evq_pop(struct evq *q, struct evq_event *out)
{
    struct evq_event last;
    int i = 0;

    if (q->n == 0)
        return 0;
    *out = q->heap[0];
    last = q->heap[--q->n];
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        const struct evq_event *best = &last;
        if (l < q->n && ev_less(&q->heap[l], best)) {
            m = l;
            best = &q->heap[l];
        }
        if (r < q->n && ev_less(&q->heap[r], best))
            m = r;
        if (m == i)
            break;
        q->heap[i] = q->heap[m];
        i = m;
    }
    if (q->n > 0)
        q->heap[i] = last;
    return 1;
}

double evq_peek_time(const struct evq *q)
{
    return q->n ? q->heap[0].t : INFINITY;
}
