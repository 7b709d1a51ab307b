/*
 * progress.h - a long search's progress on stderr: on a terminal, one line
 * rewritten in place (candidates done, feasible, the best so far, then the
 * picks run again at full settings); into a file or a pipe, a line at each
 * tenth.  Nothing for a search done within
 * PROGRESS_AFTER_S (the environment's DTPLAN_PROGRESS_AFTER, in seconds,
 * overrides it), nothing under -q, nothing on stdout.
 */
#ifndef DT_PROGRESS_H
#define DT_PROGRESS_H

#include <stdio.h>

struct search_eval;

#define PROGRESS_AFTER_S 2.0     /* a search this short says nothing */
#define PROGRESS_EVERY_S 0.25    /* a terminal's line at most this often */

struct progress {
    FILE *f;                     /* NULL: say nothing */
    const char *cmd;             /* "dtplan plan" */
    int tty;                     /* 1: rewrite one line */
    double t0, last;             /* when the search began; the last line */
    double after;                /* PROGRESS_AFTER_S, or DTPLAN_PROGRESS_AFTER's seconds */
    int tenth;                   /* the last tenth written (file or pipe) */
    int shown;                   /* something was written */
    const char *phase;           /* the finishing phase last reported */
};

/* A search begins: f stderr, or NULL under -q. */
void progress_start(struct progress *p, const char *cmd, FILE *f);
/* search_progress's callback (planner/search.h); arg is the struct progress. */
void progress_search(void *arg, int done, int total, int feasible, const struct search_eval *best);
/* search_opts.finishing's callback: the picks run again at full settings
 * after the sweep ("dtplan plan: finishing: the top, 4 of 10 at full
 * settings, in 3 s"), under the same rules. */
void progress_finishing(void *arg, const char *phase, int done, int total);
/* The search ended: a terminal's line is finished with the totals. */
void progress_end(struct progress *p, int total);

#endif
