/*
 * fields.c - the table of catalog fields (fields.h).  The ranges bound what
 * a real instance type or model can be, generously: they catch a unit
 * mistake or a typo, not an unusual machine.
 */
#include "fields.h"

#include <math.h>
#include <string.h>

static const struct cat_field table[] = {
    /* instance types (instances.csv, catalog.instances) */
    {"vcpus", "vcpus", 1, 1, 65536, 0, "a positive integer"},
    {"memory_gib", "memory_gib", 0, 0, 1e6, 1, "a size in GiB in (0, 1e6]"},
    {"gpu_count", "gpu_count", 1, 0, 1024, 0, "an integer from 0 to 1024"},
    {"nvlink_domain", "nvlink_domain", 1, 1, 1024, 0, "a GPU count from 1 to 1024"},
    {"gpu_mem_gib", "gpu_mem_gib", 0, 0, 1e4, 1, "a size in GiB in (0, 1e4]"},
    {"network_gbps", "network_gbps", 0, 0, 1e5, 1, "a rate in Gbit/s in (0, 1e5]"},
    {"price_ondemand_usd_h", "price_usd_h", 0, 0, 1e6, 0, "a price in USD per hour in [0, 1e6]"},
    {"price_spot_usd_h", "spot_usd_h", 0, 0, 1e6, 0, "a price in USD per hour in [0, 1e6]"},
    {NULL, "cpu_speed", 0, 0, 1000, 1, "a relative vCPU speed in (0, 1000]"},
    {"cpu_ghz", "cpu_ghz", 0, 0, 10, 1, "a clock in GHz in (0, 10]"},
    {"nics", "nics", 1, 1, 1024, 0, "a NIC count from 1 to 1024"},
    /* checkpoint stores (storage.csv) */
    {"per_tib_mbs", NULL, 0, 0, 1e6, 1, "MB/s per TiB in (0, 1e6]"},
    {"gbs", NULL, 0, 0, 1e7, 1, "GB/s in (0, 1e7]"},
    {"node_gbs", NULL, 0, 0, 1e4, 1, "GB/s in (0, 1e4]"},
    /* models (models.csv, catalog.models) */
    {"params", "params", 0, 0, 1e13, 1, "a parameter count in (0, 1e13]"},
    {"fwd_gflops", "fwd_gflops", 0, 0, 1e9, 1, "GFLOP per sample in (0, 1e9]"},
    {"sparse_bytes_per_sample", "sparse_bytes_per_sample", 0, 0, 1e12, 0, "bytes in [0, 1e12]"},
    /* a transformer's shape (shape.h) */
    {"layers", "layers", 1, 1, 1000, 0, "a layer count from 1 to 1000"},
    {"hidden", "hidden", 1, 1, 1e6, 0, "a width from 1 to 1e6"},
    {"heads", "heads", 1, 1, 1e4, 0, "a head count from 1 to 10000"},
    {"kv_heads", "kv_heads", 1, 1, 1e4, 0, "a head count from 1 to 10000"},
    {"ffn_hidden", "ffn_hidden", 1, 1, 1e7, 0, "a width from 1 to 1e7"},
    {"vocab", "vocab", 1, 1, 1e8, 0, "a vocabulary size from 1 to 1e8"},
    {"gated_ffn", NULL, 1, 0, 1, 0, "0 or 1"},
    {"tied_embeddings", NULL, 1, 0, 1, 0, "0 or 1"},
    {"seq_len", "seq_len", 1, 1, 1e7, 0, "a sequence length from 1 to 1e7"},
    {"lm_head", "lm_head", 1, 0, 1, 0, "0 or 1"},
    {"dropout", "dropout", 0, 0, 1, 0, "a probability in [0, 1]"},
    {"causal", "causal", 1, 0, 1, 0, "0 or 1"},
    {"rms_norm", "rms_norm", 1, 0, 1, 0, "0 or 1"},
    {"rotary", "rotary", 1, 0, 1, 0, "0 or 1"},
    {"head_dim", "head_dim", 1, 1, 1e5, 0, "a width from 1 to 1e5"},
    {"q_lora_rank", "q_lora_rank", 1, 1, 1e6, 0, "a rank from 1 to 1e6"},
    {"kv_lora_rank", "kv_lora_rank", 1, 1, 1e6, 0, "a rank from 1 to 1e6"},
    {"qk_rope_dim", "qk_rope_dim", 1, 1, 1e5, 0, "a width from 1 to 1e5"},
    {"qk_nope_dim", "qk_nope_dim", 1, 1, 1e5, 0, "a width from 1 to 1e5"},
    {"v_head_dim", "v_head_dim", 1, 1, 1e5, 0, "a width from 1 to 1e5"},
    /* a mixture of experts (shape.h) */
    {"experts", "experts", 1, 1, 1e5, 0, "an expert count from 1 to 100000"},
    {"top_k", "top_k", 1, 1, 1e5, 0, "a count from 1 to 100000"},
    {"moe_ffn_hidden", "moe_ffn_hidden", 1, 1, 1e7, 0, "a width from 1 to 1e7"},
    {"shared_experts", "shared_experts", 1, 0, 1e4, 0, "a count from 0 to 10000"},
    {"shared_ffn_hidden", "shared_ffn_hidden", 1, 1, 1e7, 0, "a width from 1 to 1e7"},
    {"first_dense_layers", "first_dense_layers", 1, 0, 1000, 0, "a layer count from 0 to 1000"},
    {"moe_every", "moe_every", 1, 1, 1000, 0, "a layer interval from 1 to 1000"},
    {"capacity_factor", "capacity_factor", 0, 0, 100, 0, "a factor in [0, 100] (0: dropless)"},
    {"window", "window", 1, 1, 1e7, 0, "a window in tokens from 1 to 1e7"},
    {"window_every", "window_every", 1, 1, 1000, 0, "a layer interval from 1 to 1000"},
    {"router_groups", "router_groups", 1, 1, 1e4, 0, "a group count from 1 to 10000"},
    {"router_group_topk", "router_group_topk", 1, 1, 1e4, 0, "a group count from 1 to 10000"},
    {"expert_bias", NULL, 1, 0, 1, 0, "0 or 1"},
    {"expert_clamp", NULL, 1, 0, 1, 0, "0 or 1"},
    {"mtp_layers", "mtp_layers", 1, 0, 16, 0, "a count from 0 to 16"},
    /* what a GPU delivers (gpus.csv); an empty peak is unknown, 0 is refused:
     * the simulator divides by every one of these */
    {"fp32_tflops", NULL, 0, 0, 1e6, 1, "TFLOP/s in (0, 1e6]"},
    {"tf32_tflops", NULL, 0, 0, 1e6, 1, "TFLOP/s in (0, 1e6]"},
    {"fp16_tflops", NULL, 0, 0, 1e6, 1, "TFLOP/s in (0, 1e6]"},
    {"bf16_tflops", NULL, 0, 0, 1e6, 1, "TFLOP/s in (0, 1e6]"},
    {"mem_gib", NULL, 0, 0, 1e4, 1, "a size in GiB in (0, 1e4]"},
    {"mem_bw_gbs", NULL, 0, 0, 1e6, 1, "a bandwidth in GB/s in (0, 1e6]"},
    {"nvlink_gbs_dir", NULL, 0, 0, 1e5, 0, "a bandwidth in GB/s in [0, 1e5] (0: no NVLink)"},
    {"pcie_gbs_dir", NULL, 0, 0, 1e4, 1, "a bandwidth in GB/s in (0, 1e4]"},
    {"fp8_tflops", NULL, 0, 0, 1e6, 1, "TFLOP/s in (0, 1e6]"},
    {"fp4_tflops", NULL, 0, 0, 1e6, 1, "TFLOP/s in (0, 1e6]"},
    {"fp4_eff", NULL, 0, 0, 1, 1, "a fraction in (0, 1]"},
    {"sm_count", NULL, 1, 1, 10000, 0, "a count from 1 to 10000"},
    {"mm_eff", NULL, 0, 0, 1, 1, "a fraction in (0, 1]"},
    {"fp32_eff", NULL, 0, 0, 1, 1, "a fraction in (0, 1]"},
    {"mem_eff", NULL, 0, 0, 1, 1, "a fraction in (0, 1]"},
    {"compute_capability", NULL, 0, 1, 20, 0, "a compute capability from 1.0 to 20.0"},
    {"cdna", NULL, 1, 1, 9, 0, "a CDNA generation from 1 to 9"},
};

#define NFIELDS (sizeof table / sizeof *table)

const struct cat_field *fields_csv(const char *column)
{
    for (size_t i = 0; i < NFIELDS; i++)
        if (table[i].csv && strcmp(table[i].csv, column) == 0)
            return &table[i];
    return NULL;
}

const struct cat_field *fields_yaml(const char *key)
{
    for (size_t i = 0; i < NFIELDS; i++)
        if (table[i].yaml && strcmp(table[i].yaml, key) == 0)
            return &table[i];
    return NULL;
}

int fields_ok(const struct cat_field *f, double v)
{
    if (!isfinite(v) || v > f->hi || (f->lo_open ? v <= f->lo : v < f->lo))
        return 0;
    return !f->integer || v == floor(v);
}
