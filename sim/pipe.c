/*
 * pipe.c - the table of input pipelines and the helpers they share (pipe.h).
 * A new pipeline is one file and one line of the table.
 */
#include "pipe.h"

#include <assert.h>
#include <math.h>
#include <string.h>

static const struct pipe_ops *const table[] = { &pipe_local, &pipe_service };

int pipe_build_all(const struct pipe_ctx *ctx, struct pipe_line *out, int max)
{
    int n = 0;

    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        n += table[i]->build(ctx, out + n, max - n);
    return n;
}

struct pipe_stage *pipe_stage_new(struct pipe_line *line, double amount, double bound)
{
    struct pipe_stage *st;

    assert(line->nst < PIPE_MAX_STAGES);
    st = &line->st[line->nst++];
    memset(st, 0, sizeof *st);
    st->amount = amount;
    st->bound = bound;
    return st;
}

void pipe_use(struct pipe_stage *st, int res, double w)
{
    if (res < 0 || w <= 0)
        return;
    assert(st->nuse < MM_MAX_USE);
    st->use[st->nuse].res = res;
    st->use[st->nuse].w = w;
    st->nuse++;
}

void pipe_batch_costs(const struct pipe_ctx *ctx, double *cpu, double *bytes, double *send,
                      double *recv)
{
    const struct sim_workload *w = &ctx->cfg->w;

    *cpu = w->batch * w->cpu_s_per_sample;
    *bytes = w->batch * w->prep_bytes;
    *send = *bytes * w->send_cpu_s_per_byte;
    *recv = *bytes * w->recv_cpu_s_per_byte;
}
