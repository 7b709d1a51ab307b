/*
 * sim_collectives.c - the distinct collectives of a step as strategy auto
 * runs them (sim.h, sim_collectives): what each parallel dimension adds
 * (dim.h), in table order, then the data-parallel all-reduce of each
 * bucket size in the order backward releases them.  A listing for the
 * reports; the step simulator builds its own phases.
 */
#include "dim.h"
#include "nccl.h"

#include <string.h>

int sim_choice_add(struct sim_coll_choice *out, int n, int max, const struct nccl_shape *sh,
                   enum nccl_coll kind, double bytes)
{
    struct nccl_model m;
    struct nccl_choice c;

    if (n >= max || !(bytes > 0) || sh->nodes * sh->ppn <= 1)
        return n;
    for (int j = 0; j < n; j++)
        if (out[j].bytes == bytes && strcmp(out[j].collective, nccl_coll_name(kind)) == 0)
            return n;
    nccl_model_init(&m, sh, kind);
    if (nccl_pick(&m, bytes, &c) != 0)
        return n;
    out[n].collective = nccl_coll_name(kind);
    out[n].bytes = bytes;
    out[n].library = sh->rccl ? "RCCL" : "NCCL";
    out[n].algorithm = nccl_algo_name(c.algo);
    out[n].protocol = nccl_proto_name(c.proto);
    out[n].channels = c.channels;
    out[n].time_s = c.time_s;
    out[n].busbw_Bps = c.busbw_Bps;
    return n + 1;
}

int sim_collectives(const struct sim_config *cfg, struct sim_coll_choice *out, int max)
{
    const struct sim_comm *cm = &cfg->c;
    struct nccl_shape all, sh;
    double left = cfg->w.grad_bytes;
    int share = 1, split = 1, n = 0, final = 0, nb;

    if (cm->strategy != SIM_AUTO || sim_nccl_shape(cfg, &all) != 0)
        return 0;
    for (int d = 0; sim_dims[d] && !final; d++)
        if (sim_dims[d]->collectives)
            n = sim_dims[d]->collectives(cfg, &all, out, n, max, &final);
    if (final)
        return n;
    /* plain data parallelism over what the dimensions leave */
    sh = all;
    sim_dims_narrow(cfg, NULL, &sh, &share, &split);
    left /= split;
    nb = sim_bucket_count(cm, cfg->w.grad_bytes);
    for (int b = 0; b < nb && n < max; b++) {
        double cap = sim_bucket_cap(cm, b);
        double bytes = left < cap ? left : cap;
        left -= bytes;
        n = sim_choice_add(out, n, max, &sh, NCCL_ALLREDUCE, bytes);
    }
    return n;
}
