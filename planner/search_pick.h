/*
 * search_pick.h - internal to the search: one candidate run again at the
 * scenario's full settings, shared by search.c (the sweep) and
 * search_finish.c (the picks).
 */
#ifndef DT_SEARCH_PICK_H
#define DT_SEARCH_PICK_H

#include "search.h"

/* Candidate idx of l at the scenario's full settings into *pk (its cluster
 * named, its details filled), recording its steps into rec if given.
 * Returns 0 or -1 with e set, naming the candidate. */
int search_pick_run(const struct scenario *sc, const struct search_list *l, int idx,
                    struct sim_trace *rec, struct search_pick *pk, struct dt_err *e);

/* A pick moved to its final place: its result must point at its own
 * cluster. */
void search_pick_fix(struct search_pick *pk);

#endif
