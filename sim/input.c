/*
 * input.c - the table of input pipelines and the helpers they share (input.h).
 * A new pipeline is one file and one line of the table.
 */
#include "input.h"

#include <assert.h>
#include <math.h>
#include <string.h>

static const struct input_ops *const table[] = { &input_local, &input_service };

int input_build_all(const struct input_ctx *ctx, struct input_line *out, int max)
{
    int n = 0;

    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        n += table[i]->build(ctx, out + n, max - n);
    return n;
}

struct input_stage *input_stage_new(struct input_line *line, double amount, double bound)
{
    struct input_stage *st;

    assert(line->nst < INPUT_MAX_STAGES);
    st = &line->st[line->nst++];
    memset(st, 0, sizeof *st);
    st->amount = amount;
    st->bound = bound;
    return st;
}

void input_use(struct input_stage *st, int res, double w)
{
    if (res < 0 || w <= 0)
        return;
    assert(st->nuse < MM_MAX_USE);
    st->use[st->nuse].res = res;
    st->use[st->nuse].w = w;
    st->nuse++;
}

void input_batch_costs(const struct input_ctx *ctx, double *cpu, double *bytes, double *send,
                      double *recv)
{
    const struct sim_workload *w = &ctx->cfg->w;

    *cpu = w->batch * w->cpu_s_per_sample;
    *bytes = w->batch * w->prep_bytes;
    *send = *bytes * w->send_cpu_s_per_byte;
    *recv = *bytes * w->recv_cpu_s_per_byte;
}
