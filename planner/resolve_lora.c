/*
 * resolve_lora.c - what LoRA fine-tuning (workload.lora_rank; catalog/ops.h
 * ops_lora) leaves a rank to train: its adapters' parameters, whose
 * gradients it reduces and whose optimizer state it keeps and updates; the
 * frozen weights it holds whole (planner/memory.c) and computes with
 * (planner/compute.c).
 */
#include "../catalog/ops.h"
#include "resolve.h"

double resolve_lora_params(const struct scenario *sc)
{
    if (sc->workload.lora_rank <= 0)
        return 0;
    return ops_lora_params(sc->workload.model, sc->workload.lora_rank,
                           sc->workload.lora_targets ? sc->workload.lora_targets
                                                     : OPS_LORA_DEFAULT);
}

double resolve_lora_tensors(const struct scenario *sc)
{
    unsigned t = sc->workload.lora_targets ? sc->workload.lora_targets : OPS_LORA_DEFAULT;
    int n = 0;

    if (sc->workload.lora_rank <= 0)
        return 0;
    for (; t; t >>= 1)
        n += t & 1;
    return 2.0 * n * sc->workload.model->layers;     /* A and B of each target a layer */
}
