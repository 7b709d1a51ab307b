/*
 * progress.c - a long search's progress on stderr (progress.h).  The time
 * read here only decides whether and when a line is written; what the
 * search computes never depends on it, so stdout and every output file stay
 * the same from run to run.
 */
#include "progress.h"

#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "../planner/search.h"

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void progress_start(struct progress *p, const char *cmd, FILE *f)
{
    const char *env;

    p->f = f;
    p->cmd = cmd;
    p->tty = f && isatty(fileno(f));
    p->t0 = p->last = now_s();
    p->tenth = 0;
    p->shown = 0;
    p->phase = NULL;
    p->after = PROGRESS_AFTER_S;
    /* DTPLAN_PROGRESS_AFTER=S: from S seconds on instead (0: always, as the
     * tests use it) */
    if ((env = getenv("DTPLAN_PROGRESS_AFTER")) && *env) {
        char *end;
        double v = strtod(env, &end);
        if (*end == 0 && v >= 0 && v <= 1e6)
            p->after = v;
    }
}

/*
 * Whether a line is due at done of total, at *t: not before p->after; on a
 * terminal at most every PROGRESS_EVERY_S and at the end; else at each new
 * tenth of phase (a new phase counts its tenths afresh).
 */
static int due(struct progress *p, const char *phase, int done, int total, double *t)
{
    int tenth;

    if (!p->f)
        return 0;
    *t = now_s();
    if (*t - p->t0 < p->after)
        return 0;
    if (phase != p->phase) {
        p->phase = phase;
        p->tenth = 0;
    }
    tenth = total > 0 ? 10 * done / total : 10;
    if (p->tty ? !(*t - p->last >= PROGRESS_EVERY_S || done == total) : tenth <= p->tenth)
        return 0;
    p->tenth = tenth;
    return 1;
}

/* The line's end: rewritten in place on a terminal, else a line of its own. */
static void line_end(struct progress *p, double t)
{
    fprintf(p->f, p->tty ? "\033[K" : "\n");
    fflush(p->f);
    p->shown = 1;
    p->last = t;
}

void progress_search(void *arg, int done, int total, int feasible, const struct search_eval *best)
{
    struct progress *p = arg;
    double t;

    if (!due(p, NULL, done, total, &t))
        return;
    fprintf(p->f, "%s%s: %d of %d candidates (%d%%) in %.0f s, %d feasible", p->tty ? "\r" : "",
            p->cmd, done, total, total > 0 ? 100 * done / total : 100, t - p->t0, feasible);
    if (best)
        fprintf(p->f, "; best so far %.4g s a step at $%.2f/h", best->step_s, best->price_usd_h);
    line_end(p, t);
}

void progress_finishing(void *arg, const char *phase, int done, int total)
{
    struct progress *p = arg;
    double t;

    if (!due(p, phase, done, total, &t))
        return;
    fprintf(p->f, "%s%s: finishing: %s, %d of %d at full settings, in %.0f s",
            p->tty ? "\r" : "", p->cmd, phase, done, total, t - p->t0);
    line_end(p, t);
}

void progress_end(struct progress *p, int total)
{
    (void)total;
    if (p->f && p->tty && p->shown) {
        fputc('\n', p->f);
        fflush(p->f);
    }
}
