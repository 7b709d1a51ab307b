/*
 * maxmin.h - fluid flows sharing resources max-min fairly.
 *
 * A resource has a capacity (bytes/s for links, reference-core-seconds per
 * second for CPUs).  A flow class moves an amount of work through a set of
 * resources; w on a resource is the number of identical flow instances of
 * the class that cross ONE instance of that resource (the multiplicity that
 * lets dtplan simulate identical ranks once).  The allocation gives every
 * flow instance a rate x so that for each resource r
 *     sum over classes f of w_fr * x_f <= cap_r,
 * maximising the smallest rate first (progressive filling, as SimGrid's
 * lmm and flow-level network simulators do), with an optional per-flow bound.
 * Cost: O(F * U) per filling round and at most F + R rounds, F flows, U uses.
 */
#ifndef DT_MAXMIN_H
#define DT_MAXMIN_H

#define MM_MAX_USE 20

struct mm_res {
    double cap;          /* capacity, > 0 */
    double load;         /* sum of w * rate of active flows after mm_solve */
    double busy;         /* integral of load over time (mm_advance) */
};

struct mm_use {
    int res;             /* resource index */
    double w;            /* multiplicity, > 0 */
};

struct mm_flow {
    int active;          /* slot in use */
    double remaining;    /* work left (bytes, core-seconds) */
    double rate;         /* per instance, set by mm_solve */
    double bound;        /* max rate per instance, INFINITY if none */
    int nuse;
    struct mm_use use[MM_MAX_USE];
    int tag, a, b, c;    /* caller's identification */
};

struct maxmin {
    struct mm_res *res;
    int nres, cap_res;
    struct mm_flow *flows;
    int nflows, cap_flows;   /* slots; free slots have active == 0 */
    int nactive;
    int dirty;               /* flow set changed since the last solve */
    int incremental;         /* 1: a flow added or removed alone on its resources changes
                                no other flow's rate: its own set, mm_solve not needed */
    int *users;              /* per resource: active flows' uses of it */
    /* scratch */
    double *rem;
    double *wsum;
    char *frozen;
};

void mm_init(struct maxmin *m);
void mm_free(struct maxmin *m);
int mm_add_res(struct maxmin *m, double cap);
/* Returns the flow id.  A flow must use at least one resource or have a finite bound. */
int mm_add_flow(struct maxmin *m, double amount, double bound,
                const struct mm_use *use, int nuse, int tag, int a, int b, int c);
void mm_remove_flow(struct maxmin *m, int id);
/* Compute rates for the active flows. */
void mm_solve(struct maxmin *m);
/* Time until the next flow completes at the current rates (INFINITY if none). */
double mm_next_completion(const struct maxmin *m);
/* Move every flow dt forward; accumulate resource busy time. */
void mm_advance(struct maxmin *m, double dt);

#endif
