/*
 * t_llama.h - Llama 3 8B's shape for the planner's unit tests (test_memory.c,
 * test_offload.c): 32 layers, hidden 4096, 32 heads of which 8 key-value,
 * SwiGLU of 14336, 8192 tokens (catalog/models.csv llama3-8b).
 */
#ifndef T_LLAMA_H
#define T_LLAMA_H

#include "../../catalog/catalog.h"

static inline void t_llama3_8b(struct cat_model *m)
{
    m->params = 8e9;
    m->layers = 32;
    m->hidden = 4096;
    m->heads = 32;
    m->kv_heads = 8;
    m->ffn_hidden = 14336;
    m->gated_ffn = 1;
    m->seq_len = 8192;
}

#endif
