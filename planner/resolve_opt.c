/*
 * resolve_opt.c - what an optimizer step costs beyond its arithmetic: the
 * loop over the parameter tensors (workload.optimizer_loop; docs/model.md
 * "The optimizer").  O(the model's operations).
 */
#include <math.h>

#include "../catalog/ops.h"
#include "resolve.h"

/*
 * Seconds a parameter tensor, beyond the update's memory traffic, by
 * workload.optimizer_loop: measured on BERT-large's 393 tensors
 * (validate/step_overhead.py on a lent H200, PyTorch 2.11; results/
 * gpu-profiles/h200-step-overhead.jsonl, 2026-11-26): a step less the
 * update's 28 bytes a parameter at the measured copy rate, over the
 * tensors.  fused, torch.optim.AdamW(fused=True) after a foreach norm
 * clip: 5.1 ms a step, 6.5 us a tensor; foreach, AdamW's default: 10.3 ms,
 * 19.8 us; per_tensor, a Python loop of torch ops a tensor after a
 * per-tensor clip, as BertAdam runs: 124.6 ms, 310.7 us.
 */
static const double per_tensor_s[] = {6.5e-6, 19.8e-6, 310.7e-6};

/*
 * The same script on a lent H100 host (results/gpu-profiles/h100-step-
 * overhead.jsonl, a fifth loan) gives 14.0, 32.8 and 338.0 us: 2.15, 1.65
 * and 1.09 times the H200 host's, its PyTorch launch 10.0 us against 6.9,
 * where `dtplan calibrate --gpu` had timed that host's empty-kernel launch
 * from C at 4.0 us against the H200's 4.72 (p5-h100-gpu.json,
 * p5en-h200-gpu.json): the C launch does not follow what PyTorch's
 * operators cost the host, so it no longer scales these figures, and a
 * host's own walk can be 2 times the H200's.  Not yet: a measure of it
 * that dtplan calibrate can take without Python.
 */

/* The walk's seconds. */
static double walk_s(const struct scenario *sc)
{
    const struct cat_model *m = sc->workload.model;
    int impl = sc->workload.optimizer_loop;

    if (!m || impl < 0 || impl > SC_OPT_PER_TENSOR)
        return 0;
    if (sc->workload.lora_rank > 0)
        return resolve_lora_tensors(sc) * per_tensor_s[impl];
    return ops_tensors(m) * per_tensor_s[impl];
}

double resolve_opt_loop_s(const struct scenario *sc, const struct cat_instance *in)
{
    if (in->gpu_count <= 0)
        return 0;
    return walk_s(sc);
}

double resolve_opt_step_s(const struct scenario *sc, const struct cat_gpu *g)
{
    const struct cat_model *m = sc->workload.model;
    double bytes = isnan(sc->workload.optimizer_bytes_per_param) ? RESOLVE_OPT_BYTES
                                                                 : sc->workload.optimizer_bytes_per_param;

    if (!m || !(g->mem_bw_gbs > 0) || !(m->params > 0))
        return walk_s(sc);
    return m->params * bytes / (g->mem_bw_gbs * 1e9) + walk_s(sc);
}
