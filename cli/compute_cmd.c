/*
 * compute_cmd.c - `dtplan compute` (compute_cmd.h): for a model, a batch and
 * a precision, the forward-backward time and samples per second on one GPU
 * of each type asked for (all of the catalog's by default), the formats the
 * precision runs at there, and where the time goes by kind of operation.
 * Text or JSON on standard output, or atomically to -o FILE.
 */
#include "compute_cmd.h"
#include "cliutil.h"
#include "../base/names.h"
#include "../base/text.h"
#include "../catalog/fields.h"
#include "../catalog/ops.h"
#include "../catalog/shape.h"
#include "../planner/compute.h"
#include "../planner/resolve.h"
#include "../scenario/scenario.h"

#include <cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMD "dtplan compute"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: " CMD " --model NAME [--gpu A,B,...] [--precision P] [--batch N]\n"
            "                      [--seq N] [--attention flash|unfused|flash_triton|cudnn|\n"
            "                                   cudnn_9.10|cudnn_9.13]\n"
            "                      [--memory-format nchw|nhwc]\n"
            "                      [--amp autocast|pure] [--kernels eager|fused]\n"
            "                      [--optimizer fused|foreach|per_tensor]\n"
            "                      [--fp8-recipe delayed|current|mxfp8|nvfp4]\n"
            "                      [--fp8-attention] [--expert-mlp fused|grouped|sequential]\n"
            "                      [--ep N]\n"
            "                      [--measured GPU:SECONDS[:BATCH]]\n"
            "                      [--catalog DIR] [--json]\n"
            "                      [-o FILE]\n"
            "\n"
            "One training pass (forward and backward, no optimizer) of NAME on one GPU of\n"
            "each type: time, samples/s, the formats the precision runs at and the time by\n"
            "kind of operation (docs/model.md \"Compute\").  --gpu defaults to every GPU of\n"
            "the catalog; --precision to fp32 (fp32 tf32 fp16 bf16 fp8 fp32_strict auto);\n"
            "--batch to 32; --seq to the model's sequence length.  --measured carries a pass\n"
            "measured on one GPU to the others through the model (x measured / modelled).\n"
            "--amp pure keeps every activation 16-bit under mixed precision (apex O2,\n"
            "Megatron-LM) where autocast, the default, runs softmax and layer norm in fp32;\n"
            "--kernels fused takes Megatron-LM's fused softmax and dropout-add kernels.\n"
            "--attention flash (the default) is FlashAttention-2 at its published rate,\n"
            "flash_triton flash-attn's Triton kernel, cudnn cuDNN's fused attention\n"
            "(Transformer Engine's on Hopper and later; cudnn_9.10 and cudnn_9.13 as\n"
            "those releases ran it on Blackwell), unfused matmul-softmax-dropout.\n"
            "--optimizer adds one optimizer step a pass (a training step without\n"
            "accumulation): the update's bytes over memory bandwidth and the walk over the\n"
            "parameter tensors as that loop runs (docs/model.md, step semantics).\n"
            "--fp8-recipe scales fp8 as Transformer Engine's recipe of that name (default\n"
            "delayed; docs/model.md \"fp8 as Transformer Engine runs it\"); --fp8-attention\n"
            "runs fused attention in fp8 too (workload.fp8_attention).  --expert-mlp\n"
            "grouped runs a mixture of experts' block as Megatron-Core's TEGroupedMLP, the\n"
            "clamp and biases of GPT-OSS's experts in kernels of their own, sequential as\n"
            "its SequentialMLP, each expert's products in turn on one stream\n"
            "(workload.expert_mlp; default fused).  --ep N times one GPU of an expert-\n"
            "parallel group of N (parallel.ep, N dividing the experts): its experts / N\n"
            "experts, each over the rows all N GPUs route to it, on an even load; default\n"
            "1, every expert on the GPU.\n"
            "-o FILE writes the table or JSON to FILE (all or nothing) instead of standard\n"
            "output.  Exit status: 0 ok, 1 cannot write, 2 bad flags or input.\n");
}

/* The format the linear layers' products run in: under fp8 the recipe's
 * block-scaled formats by name where the GPU runs them (compute_plan_of
 * falls back to delayed scaling where it does not). */
static const char *linear_name(const struct compute_plan *p)
{
    if (p->linear == CAT_FP8 && p->fp8_recipe == SC_FP8_NVFP4)
        return "nvfp4";
    if (p->linear == CAT_FP8 && p->fp8_recipe == SC_FP8_MXFP8)
        return "mxfp8";
    return catalog_prec_name(p->linear);
}

/* One row: the model on GPU g, with an optimizer step a pass (opt). */
static void row(FILE *f, const struct scenario *sc, const struct cat_gpu *g, double scale,
                int opt, int json, cJSON *arr)
{
    struct compute_plan p;
    struct compute_time t;
    double pass, step, opt_s;
    int assumed;

    if (compute_on_gpu(sc, g, NULL, sc->parallel.micro_batch, &p, &t) != 0) {
        if (json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "gpu", g->name);
            cJSON_AddStringToObject(o, "error", "no peak FLOP/s for this precision");
            cJSON_AddItemToArray(arr, o);
        } else {
            fprintf(f, "%-16s  no peak FLOP/s for %s in the catalog\n", g->name,
                   scenario_prec_name(scenario_prec_index(sc)));
        }
        return;
    }
    pass = t.fwd_s + t.bwd_s;      /* the shares by kind are the model's */
    opt_s = opt ? resolve_opt_step_s(sc, g) : 0;
    step = pass * scale + opt_s;
    assumed = !(g->mm_eff > 0) || !(g->mem_eff > 0);
    if (json) {
        cJSON *o = cJSON_CreateObject(), *k = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "gpu", g->name);
        cJSON_AddStringToObject(o, "conv_format", catalog_prec_name(p.conv));
        cJSON_AddStringToObject(o, "linear_format", linear_name(&p));
        cJSON_AddStringToObject(o, "attention_format", p.fp8_attn == 2   ? "mxfp8"
                                                       : p.fp8_attn == 1 ? "fp8"
                                                                         : catalog_prec_name(p.attn));
        cJSON_AddNumberToObject(o, "fwd_s", t.fwd_s * scale);
        cJSON_AddNumberToObject(o, "bwd_s", t.bwd_s * scale);
        if (opt)
            cJSON_AddNumberToObject(o, "optimizer_s", opt_s);
        cJSON_AddNumberToObject(o, "samples_per_s", sc->parallel.micro_batch / step);
        cJSON_AddNumberToObject(o, "kernels", t.kernels);
        for (int i = 0; i < OPS_NKIND; i++)
            if (t.kind_s[i] > 0)
                cJSON_AddNumberToObject(k, ops_kind_name(i), t.kind_s[i] / pass);
        cJSON_AddItemToObject(o, "share_by_kind", k);
        cJSON_AddBoolToObject(o, "efficiency_assumed", assumed);
        cJSON_AddStringToObject(o, "note", p.note);
        cJSON_AddItemToArray(arr, o);
        return;
    }
    fprintf(f, "%-16s %6s/%-6s %10.2f %12.1f   ", g->name, catalog_prec_name(p.conv),
           linear_name(&p), step * 1e3, sc->parallel.micro_batch / step);
    for (int i = 0, n = 0; i < OPS_NKIND; i++)
        if (t.kind_s[i] / pass >= 0.05)
            fprintf(f, "%s%s %.0f%%", n++ ? ", " : "", ops_kind_name(i), 100 * t.kind_s[i] / pass);
    if (assumed)
        fprintf(f, "  [efficiency assumed]");
    if (p.note[0])
        fprintf(f, "  (%s)", p.note);
    fprintf(f, "\n");
}

/* --measured GPU:SECONDS[:BATCH] (BATCH: --batch) into sc's measured compute. */
static int parse_measured(struct scenario *sc, const struct catalog *cat, const char *v)
{
    char name[64], *end = NULL;
    size_t k = strcspn(v, ":");
    unsigned long long b = (unsigned long long)sc->parallel.micro_batch;
    double t;

    snprintf(name, sizeof name, "%.*s", (int)(k < sizeof name ? k : sizeof name - 1), v);
    sc->workload.measured_gpu = catalog_find_gpu(cat, name);
    t = v[k] == ':' ? strtod(v + k + 1, &end) : NAN;
    if (sc->workload.measured_gpu && isfinite(t) && t > 0 && end != v + k + 1 &&
        (*end == '\0' || (*end == ':' && args_parse_uint(end + 1, 10000000, &b) == 0 && b >= 1))) {
        sc->workload.measured_compute_s = t;
        sc->workload.measured_batch = (int)b;
        return 0;
    }
    sc->workload.measured_gpu = NULL;
    fprintf(stderr, CMD ": --measured: expected GPU:SECONDS[:BATCH] with a GPU of the catalog, "
            "SECONDS > 0 and BATCH from 1 to 10000000, found \"%s\"\n", v);
    return -1;
}

/* What the table or JSON shows: the GPUs in order and the carried scale. */
struct compute_rows {
    const struct scenario *sc;
    const struct cat_gpu **gpus;
    int n;
    double scale;           /* measured / modelled pass; 1 with no --measured */
    int opt;                /* --optimizer given: a step a pass */
    int json;
};

/* Every GPU of the list (NULL: the catalog's), in the list's order, into
 * r; an unknown name or a measurement on a GPU the model cannot time is
 * refused (one line, CLI_EXIT_INPUT) before anything is written. */
static int compute_cmd_rows(const struct scenario *sc, const struct catalog *cat,
                            const char *list, struct compute_rows *r)
{
    size_t cap = list ? strlen(list) + 1 : (size_t)cat->ngpus + 1;
    char name[64];

    r->sc = sc;
    r->scale = 1;
    r->n = 0;
    r->gpus = x_calloc(cap, sizeof *r->gpus);
    for (int i = 0; list ? *list != '\0' : i < cat->ngpus; i++) {
        const struct cat_gpu *g = list ? NULL : &cat->gpus[i];
        if (list) {
            size_t k = strcspn(list, ",");
            snprintf(name, sizeof name, "%.*s", (int)(k < sizeof name ? k : sizeof name - 1),
                     list);
            list += k + (list[k] == ',');
            if (!(g = catalog_find_gpu(cat, name))) {
                text_eprintf(CMD ": --gpu: unknown GPU \"%s\"", name);
                return CLI_EXIT_INPUT;
            }
        }
        r->gpus[r->n++] = g;
    }
    if (sc->workload.measured_gpu) {
        struct compute_plan p;
        struct compute_time ref;
        if (compute_on_gpu(sc, sc->workload.measured_gpu, NULL, sc->workload.measured_batch, &p, &ref) != 0) {
            text_eprintf(CMD ": --measured: the catalog gives %s no peak FLOP/s for %s",
                    sc->workload.measured_gpu->name, scenario_prec_name(scenario_prec_index(sc)));
            return CLI_EXIT_INPUT;
        }
        r->scale = sc->workload.measured_compute_s / (ref.fwd_s + ref.bwd_s);
    }
    return CLI_EXIT_OK;
}

/* cli_writer: the table or the JSON array of r (ctx). */
static int compute_cmd_write(FILE *f, const void *ctx, struct dt_err *e)
{
    const struct compute_rows *r = ctx;
    const struct scenario *sc = r->sc;
    cJSON *arr = r->json ? cJSON_CreateArray() : NULL;

    (void)e;
    if (!r->json) {
        fprintf(f, "%s, batch %d, %s%s%s", sc->workload.model->name, sc->parallel.micro_batch,
               scenario_prec_name(scenario_prec_index(sc)),
               sc->workload.attention != SC_ATTN_FLASH ? ", attention " : "",
               sc->workload.attention != SC_ATTN_FLASH ? scenario_attention_name(sc->workload.attention) : "");
        if (sc->workload.amp_pure || sc->workload.kernels_fused)
            fprintf(f, ", %s activations, %s kernels", sc->workload.amp_pure ? "16-bit" : "autocast",
                   sc->workload.kernels_fused ? "fused" : "eager");
        if (sc->workload.measured_gpu)
            fprintf(f, ", carried from %g s at batch %d on %s (x%.3g the model)",
                   sc->workload.measured_compute_s, sc->workload.measured_batch, sc->workload.measured_gpu->name, r->scale);
        if (r->opt)
            fprintf(f, ", optimizer %s", scenario_opt_loop_name(sc->workload.optimizer_loop));
        fprintf(f, "\n%-16s %13s %10s %12s   %s\n", "GPU", "conv/linear", r->opt ? "step ms" : "pass ms",
               "samples/s", "time by kind");
    }
    for (int i = 0; i < r->n; i++)
        row(f, sc, r->gpus[i], r->scale, r->opt, r->json, arr);
    if (r->json) {
        char *txt = cJSON_Print(arr);
        fprintf(f, "%s\n", txt);
        cJSON_free(txt);
        cJSON_Delete(arr);
    }
    return ferror(f) ? -1 : 0;
}

int compute_cmd_main(int argc, char **argv)
{
    const char *model = NULL, *gpus = NULL, *catarg = NULL, *measured = NULL, *output = NULL;
    int json = 0, fp8_attn = 0, have_batch = 0, have_seq = 0, have_ep = 0, prec = CAT_FP32, att = 0, fmt = 0, amp = 0;
    int kern = 0, optl = -1, recipe = SC_FP8_DELAYED, xmlp = SC_EXPERT_FUSED;
    int rc = CLI_EXIT_INPUT;
    unsigned long long batch = 32, seq = 0, ep = 1;
    struct cli_name_arg prec_arg = {scenario_prec_name, &prec};
    struct cli_name_arg att_arg = {scenario_attention_name, &att};
    struct cli_name_arg fmt_arg = {scenario_memory_format_name, &fmt};
    struct cli_name_arg amp_arg = {scenario_amp_name, &amp};
    struct cli_name_arg kern_arg = {scenario_kernels_name, &kern};
    struct cli_name_arg opt_arg = {scenario_opt_loop_name, &optl};
    struct cli_name_arg recipe_arg = {scenario_fp8_recipe_name, &recipe};
    struct cli_name_arg xmlp_arg = {scenario_expert_mlp_name, &xmlp};
    const struct args_opt opts[] = {
        {"--model", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0, "a model of the catalog", cli_take_str,
         &model, NULL},
        {"--gpu", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0, "GPU names, comma separated",
         cli_take_str, &gpus, NULL},
        {"--precision", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0,
         "one of fp32, tf32, fp16, bf16, fp8, fp32_strict, auto", cli_take_name, &prec_arg, NULL},
        {"--attention", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0, "one of flash, unfused, flash_triton, cudnn",
         cli_take_name, &att_arg, NULL},
        {"--memory-format", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0, "one of nchw, nhwc",
         cli_take_name, &fmt_arg, NULL},
        {"--amp", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0, "one of autocast, pure",
         cli_take_name, &amp_arg, NULL},
        {"--kernels", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0, "one of eager, fused",
         cli_take_name, &kern_arg, NULL},
        {"--optimizer", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0, "one of fused, foreach, per_tensor",
         cli_take_name, &opt_arg, NULL},
        {"--fp8-recipe", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0, "one of delayed, current, mxfp8, nvfp4",
         cli_take_name, &recipe_arg, NULL},
        {"--expert-mlp", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0,
         "one of fused, grouped, sequential", cli_take_name, &xmlp_arg, NULL},
        {"--batch", NULL, ARGS_UINT, &have_batch, NULL, &batch, 1, 10000000, NULL, NULL, NULL,
         NULL},
        {"--seq", NULL, ARGS_UINT, &have_seq, NULL, &seq, 1, 10000000, NULL, NULL, NULL, NULL},
        {"--ep", NULL, ARGS_UINT, &have_ep, NULL, &ep, 1, 65536, NULL, NULL, NULL, NULL},
        {"--measured", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0,
         "GPU:SECONDS[:BATCH], a pass measured on a catalog GPU", cli_take_str, &measured, NULL},
        {"--catalog", NULL, ARGS_DIR, NULL, &catarg, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--fp8-attention", NULL, ARGS_SWITCH, &fp8_attn, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--json", NULL, ARGS_SWITCH, &json, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--output", "-o", ARGS_FILE, NULL, &output, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--help", "-h", ARGS_STOP, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
    };
    const struct args_cmd cmd = {CMD, NULL, opts, (int)(sizeof opts / sizeof *opts), "a flag"};
    const struct args_opt *stop = NULL;
    const char *pos = NULL;
    struct dt_err e = {0};
    struct catalog cat = {0};
    struct scenario sc = {0};
    struct compute_rows rows = {0};
    char *catdir;
    int r = args_parse(&cmd, argc, argv, &pos, &stop, &e);

    if (r == ARGS_STOPPED) {
        usage(stdout);
        return cli_flush_stdout(CMD);
    }
    if (r == ARGS_BAD || !model) {
        fprintf(stderr, "%s\n", r == ARGS_BAD ? e.msg : CMD ": --model: missing, expected a "
                "model of the catalog");
        return CLI_EXIT_INPUT;
    }
    if (!(catdir = cli_catalog_find(CMD, catarg, &e)) || cli_catalog_load(CMD, catdir, &cat, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        goto out;
    }
    scenario_defaults(&sc, "compute");
    sc.catalog = &cat;
    if (!(sc.workload.model = catalog_find_model(&cat, model))) {
        text_eprintf(CMD ": --model: unknown model \"%s\"", model);
        goto out;
    }
    if (have_seq && !shape_known(sc.workload.model)) {
        text_eprintf(CMD ": --seq: expected a model given by its shape, found %s", model);
        goto out;
    }
    /* the FLOPs at that length, bounded as a model's fwd_gflops is */
    if (have_seq && !(shape_fwd_flops(sc.workload.model, (double)seq) / 1e9 <= fields_yaml("fwd_gflops")->hi)) {
        text_eprintf(CMD ": --seq: %s's shape gives %.1e GFLOP a sample at %llu tokens, expected "
                     "at most %g", model, shape_fwd_flops(sc.workload.model, (double)seq) / 1e9, seq,
                     fields_yaml("fwd_gflops")->hi);
        goto out;
    }
    sc.parallel.micro_batch = (int)batch;
    if (measured && parse_measured(&sc, &cat, measured) != 0)
        goto out;
    sc.workload.seq_len = (int)seq;
    sc.workload.attention = att;
    sc.workload.channels_last = fmt == 1;
    sc.workload.amp_pure = amp == 1;
    sc.workload.kernels_fused = kern == 1;
    sc.workload.optimizer_loop = optl >= 0 ? optl : SC_OPT_FUSED;
    sc.workload.fp8_recipe = recipe;
    sc.workload.fp8_attention = fp8_attn;
    if (xmlp != SC_EXPERT_FUSED && (!shape_known(sc.workload.model) || sc.workload.model->experts <= 0)) {
        text_eprintf(CMD ": --expert-mlp: expected fused (the default) for %s, a model without "
                     "experts, found %s", model, scenario_expert_mlp_name(xmlp));
        goto out;
    }
    sc.workload.expert_mlp = xmlp;
    if (have_ep && ep > 1) {
        const struct cat_model *m = sc.workload.model;
        if (!shape_known(m) || m->experts <= 0 || (unsigned long long)m->experts % ep != 0) {
            if (!shape_known(m) || m->experts <= 0)
                text_eprintf(CMD ": --ep: expected 1 for %s, a model without experts, found %llu",
                             model, ep);
            else
                text_eprintf(CMD ": --ep: expected a divisor of %s's %d experts, found %llu", model,
                             m->experts, ep);
            goto out;
        }
        sc.parallel.ep = (int)ep;
    }
    rows.opt = optl >= 0;
    scenario_prec_set(&sc, prec);
    rows.json = json;
    if ((rc = compute_cmd_rows(&sc, &cat, gpus, &rows)) == CLI_EXIT_OK)
        rc = cli_write_output(CMD, output, compute_cmd_write, &rows);
out:
    x_free(rows.gpus);
    catalog_free(&cat);
    x_free(catdir);
    scenario_free(&sc);
    return rc;
}
