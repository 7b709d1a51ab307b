/*
 * evq.h - the event queue of the simulator: a binary min-heap keyed by
 * (time, sequence number).  The sequence number is assigned at push time, so
 * events due at the same time fire in the order they were scheduled: ties are
 * broken deterministically, never by address.  O(log n) per push and pop.
 */
#ifndef DT_EVQ_H
#define DT_EVQ_H

#include <stdint.h>

struct evq_event {
    double t;        /* due time, s */
    uint64_t seq;    /* push order; breaks ties */
    int type;        /* meaning owned by the caller */
    int a, b, c;     /* caller payload */
};

struct evq {
    struct evq_event *heap;
    int n, cap;
    uint64_t next_seq;
};

void evq_init(struct evq *q);
void evq_free(struct evq *q);
void evq_push(struct evq *q, double t, int type, int a, int b, int c);
/* Pop the earliest event into *ev; returns 0 when the queue is empty. */
int evq_pop(struct evq *q, struct evq_event *ev);
/* Time of the earliest event, or INFINITY when empty. */
double evq_peek_time(const struct evq *q);
static inline int evq_size(const struct evq *q) { return q->n; }

#endif
