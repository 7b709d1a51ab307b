/*
 * ld_catalog.c - the scenario's names resolved against the catalog, its
 * inline catalog entries (catalog.instances, catalog.models) and its
 * calibration profiles.
 *
 * Inline definitions are first validated into a pending list that shadows
 * the catalog.  Only when the whole file is valid are they added to the
 * catalog (ld_scenario.c's commit), so a failed load leaves the catalog exactly
 * as it was.  A name costs a linear search of the catalog.
 */
#include "ld.h"
#include "../catalog/shape.h"
#include "../catalog/spot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/files.h"
#include "../base/names.h"
#include "../base/units.h"

/* ------------------------------------------------------ names and catalog */

/* An inline entry shadows the catalog's of the same name. */
static const struct cat_instance *ld_find_instance(struct ld *ld, const char *name)
{
    const struct cat_instance *in = names_find(ld->inst, ld->ninst, sizeof *ld->inst,
                                               offsetof(struct cat_instance, name), name);
    return in ? in : catalog_find_instance(ld->cat, name);
}

const struct cat_model *ld_model_named(struct ld *ld, const char *name)
{
    const struct cat_model *m = names_find(ld->models, ld->nmodels, sizeof *ld->models,
                                           offsetof(struct cat_model, name), name);
    return m ? m : catalog_find_model(ld->cat, name);
}

/* A GPU model of the catalog; unknown names list the known ones. */
int ld_gpu(struct ld *ld, yaml_node_t *n, const char *field, const struct cat_gpu **out)
{
    char name[32], list[LIST_LEN] = "";
    int i;

    if (ld_str(ld, n, field, name, sizeof name, 1, "a GPU model"))
        return -1;
    *out = catalog_find_gpu(ld->cat, name);
    if (*out)
        return 0;
    for (i = 0; i < ld->cat->ngpus; i++)
        ld_list_add(list, sizeof list, ld->cat->gpus[i].name);
    return ld_fail(ld, n->start_mark, field, "unknown GPU model \"%s\", expected one of %s", name,
                   list);
}

/* The error for an unknown reference to a WHAT (instance type, model) named
 * name: with the catalog's suggestion sug, or where to define it (list). */
static int ld_unknown_ref(struct ld *ld, yaml_node_t *n, const char *field, const char *what,
                          const char *name, const char *sug, const char *list)
{
    if (*sug)
        return ld_fail(ld, n->start_mark, field, "unknown %s \"%s\", did you mean %s?", what,
                       name, sug);
    return ld_fail(ld, n->start_mark, field,
                   "unknown %s \"%s\", not in the catalog (define it under %s)", what, name,
                   list);
}

/* A name of the catalog (or of the scenario's inline entries) of one kind. */
struct ld_kind {
    size_t cap;                 /* longest name + 1 */
    const char *a_name;         /* "an instance type name": what a bad scalar is not */
    const char *what;           /* "instance type" */
    const char *list;           /* "catalog.instances": where to define one */
    const void *(*find)(struct ld *ld, const char *name);
    void (*suggest)(const struct catalog *cat, const char *name, char *buf, size_t len);
};

static const void *find_instance(struct ld *ld, const char *name)
{
    return ld_find_instance(ld, name);
}

static const void *find_model(struct ld *ld, const char *name)
{
    return ld_model_named(ld, name);
}

static const struct ld_kind instance_kind = {64, "an instance type name", "instance type",
                                             "catalog.instances", find_instance,
                                             catalog_suggest_instance};
static const struct ld_kind model_kind = {48, "a model name", "model", "catalog.models",
                                          find_model, catalog_suggest_model};

static const void *ld_ref(struct ld *ld, yaml_node_t *n, const char *field,
                          const struct ld_kind *k)
{
    char name[64], sug[LIST_LEN];
    const void *found;

    if (ld_str(ld, n, field, name, k->cap, 1, k->a_name))
        return NULL;
    if ((found = k->find(ld, name)) != NULL)
        return found;
    k->suggest(ld->cat, name, sug, sizeof sug);
    ld_unknown_ref(ld, n, field, k->what, name, sug, k->list);
    return NULL;
}

int ld_instance_ref(struct ld *ld, yaml_node_t *n, const char *field,
                    const struct cat_instance **out)
{
    *out = ld_ref(ld, n, field, &instance_kind);
    if (*out && (*out)->gpu_unknown) {
        char f[96];
        snprintf(f, sizeof f, "%s", (*out)->name);
        *out = NULL;
        return ld_fail(ld, n->start_mark, field, "instance type %s: its accelerator is unknown "
                       "to dtplan (not in the catalog's gpus.csv): expected a type whose GPU "
                       "dtplan can time", f);
    }
    return *out ? 0 : -1;
}

int ld_model_ref(struct ld *ld, yaml_node_t *n, const char *field,
                 const struct cat_model **out)
{
    *out = ld_ref(ld, n, field, &model_kind);
    return *out ? 0 : -1;
}

/* ------------------------------------------------------ inline catalog */

/*
 * A calibration profile named by the scenario (`profile:`, for the instance
 * type the profile names) or by an inline instance type (for that type).
 * A relative path is taken from the scenario's directory.  A file that
 * cannot be read is reported at the scenario's node; a bad profile by its
 * own FILE:LINE:COL line (catalog/profile.c).
 */
int ld_profile(struct ld *ld, yaml_node_t *v, const char *field, const char *instance)
{
    char rel[SC_MAX_TEXT], path[SC_MAX_TEXT + 256], fb[FOUND_LEN];
    const char *slash = strrchr(ld->file, '/');
    struct prof_measured m;
    struct scenario *sc = ld->sc;
    const char *why;

    if (ld_str(ld, v, field, rel, sizeof rel, 1, "a profile path"))
        return -1;
    if (rel[0] == '/' || !slash)
        snprintf(path, sizeof path, "%s", rel);
    else
        snprintf(path, sizeof path, "%.*s/%s", (int)(slash - ld->file), ld->file, rel);
    if ((why = file_problem(path)))
        return ld_fail(ld, v->start_mark, field, "expected a readable profile, found %s (%s: %s)",
                       ld_found(v, fb, sizeof fb), path, why);
    if (profile_load(path, &m, ld->e))
        return -1;
    if (instance) {
        snprintf(m.instance, sizeof m.instance, "%s", instance);
    } else if (!m.instance[0]) {
        return ld_fail(ld, v->start_mark, field, "expected a profile naming its instance type "
                       "(dtplan calibrate --instance NAME), or this profile under its type in "
                       "catalog.instances (profile: FILE), found %s", ld_found(v, fb, sizeof fb));
    } else if (!ld_find_instance(ld, m.instance)) {
        return ld_fail(ld, v->start_mark, field, "expected a profile of a known instance type, "
                       "found one of \"%s\" in %s", m.instance, path);
    }
    sc->profiles = x_realloc(sc->profiles, (size_t)(sc->nprofiles + 1) * sizeof *sc->profiles);
    sc->profiles[sc->nprofiles++] = m;
    return 0;
}

/*
 * Profiles named by the catalog (instances.csv's profile column), for the
 * instance types the scenario did not give one for.  Loaded for every such
 * type, so a catalog search uses them too; a bad one is reported by its own
 * FILE:LINE:COL line.
 */
int ld_catalog_profiles(struct ld *ld)
{
    struct scenario *sc = ld->sc;

    for (int i = 0; i < ld->cat->ninstances; i++) {
        const struct cat_instance *in = &ld->cat->instances[i];
        struct prof_measured m;
        int have = 0;

        if (!in->profile)
            continue;
        for (int k = 0; k < sc->nprofiles && !have; k++)
            have = strcmp(sc->profiles[k].instance, in->name) == 0;
        if (have)
            continue;
        if (profile_load(in->profile, &m, ld->e))
            return -1;
        snprintf(m.instance, sizeof m.instance, "%s", in->name);
        sc->profiles = x_realloc(sc->profiles, (size_t)(sc->nprofiles + 1) * sizeof *sc->profiles);
        sc->profiles[sc->nprofiles++] = m;
    }
    return 0;
}

void ld_inst_release(struct cat_instance *in)
{
    x_free(in->intra_link_text);
    x_free(in->source);
    in->intra_link_text = NULL;
    in->source = NULL;
}

/* One entry of catalog.instances into *entry, a struct cat_instance (strings
 * owned by it even on error). */
static int ld_inline_instance(struct ld *ld, yaml_node_t *m, const char *path, int idx,
                              void *entry)
{
    struct cat_instance *in = entry;
    static const char *const keys[] = {
        "name", "vcpus", "memory_gib", "gpu_model", "gpu_count", "gpu_mem_gib",
        "intra_node_link", "network_gbps", "efa", "price_usd_h", "spot_usd_h", "cpu_speed",
        "cpu_ghz", "nics", "cloud", "region", "source", "profile", "fabric", "spot_interrupt",
        "price_date", NULL
    };
    char f[FIELD_LEN], fb[FOUND_LEN];
    yaml_node_t *v, *gm;

    memset(in, 0, sizeof *in);
    snprintf(in->cloud, sizeof in->cloud, "custom");
    in->vcpus = -1;
    in->mem_gib = NAN;
    in->gpu_mem_gib = NAN;
    in->net_gbps = NAN;
    in->efa = 0;
    in->price_usd_h = NAN;
    in->spot_usd_h = NAN;
    in->cpu_speed = NAN;
    in->cpu_ghz = NAN;
    in->nics = -1;
    if (ld_map(ld, m, path, keys))
        return -1;

    /* ranges and their words: the catalog's field table (catalog/fields.c) */
    const struct key_spec sizes[] = {
        ld_field_spec("vcpus", 1, offsetof(struct cat_instance, vcpus)),
        ld_field_spec("memory_gib", 0, offsetof(struct cat_instance, mem_gib)),
        ld_field_spec("gpu_count", 0, offsetof(struct cat_instance, gpu_count)),
    };
    const struct key_spec net_price[] = {
        ld_field_spec("network_gbps", 0, offsetof(struct cat_instance, net_gbps)),
        {"efa", KEY_BOOL, 0, 0, 0, 0, NULL, offsetof(struct cat_instance, efa)},
        ld_field_spec("price_usd_h", 1, offsetof(struct cat_instance, price_usd_h)),
        ld_field_spec("spot_usd_h", 0, offsetof(struct cat_instance, spot_usd_h)),
        ld_field_spec("cpu_speed", 0, offsetof(struct cat_instance, cpu_speed)),
        ld_field_spec("cpu_ghz", 0, offsetof(struct cat_instance, cpu_ghz)),
        ld_field_spec("nics", 0, offsetof(struct cat_instance, nics)),
    };

    if (ld_entry_name(ld, m, path, "instance type", "catalog.instances", ld->inst[0].name,
                      sizeof *ld->inst, idx, in->name, sizeof in->name) ||
        ld_keys(ld, m, path, m->start_mark, sizes, 3, in))
        return -1;

    ld_path_key(f, sizeof f, path, "gpu_model");
    gm = ld_get(ld, m, "gpu_model", NULL);
    if (in->gpu_count > 0 && !gm)
        return ld_fail(ld, m->start_mark, f, "missing required field (gpu_count is %d)",
                       in->gpu_count);
    if (gm && in->gpu_count == 0)
        return ld_fail(ld, gm->start_mark, f, "expected no GPU model with gpu_count 0, found %s",
                       ld_found(gm, fb, sizeof fb));
    if (gm) {
        if (ld_gpu(ld, gm, f, &in->gpu))
            return -1;
        snprintf(in->gpu_model, sizeof in->gpu_model, "%s", in->gpu->name);
        in->gpu_mem_gib = in->gpu->mem_gib;
    } else
        in->gpu_mem_gib = 0;

    ld_path_key(f, sizeof f, path, "gpu_mem_gib");
    if ((v = ld_get(ld, m, "gpu_mem_gib", NULL))) {
        if (in->gpu_count == 0)
            return ld_fail(ld, v->start_mark, f,
                           "expected no GPU memory with gpu_count 0, found %s",
                           ld_found(v, fb, sizeof fb));
        const struct cat_field *cf = fields_yaml("gpu_mem_gib");
        if (ld_num(ld, v, f, cf->lo, cf->lo_open, cf->hi, cf->desc, &in->gpu_mem_gib))
            return -1;
    }

    ld_path_key(f, sizeof f, path, "intra_node_link");
    if ((v = ld_get(ld, m, "intra_node_link", NULL))) {
        if (ld_strdup(ld, v, f, &in->intra_link_text))
            return -1;
        in->link = catalog_parse_link(in->intra_link_text);
    } else {
        in->intra_link_text = x_strdup("");
        in->link = in->gpu_count <= 1 ? CAT_LINK_NONE : CAT_LINK_UNKNOWN;
    }

    if (ld_keys(ld, m, path, m->start_mark, net_price,
                sizeof net_price / sizeof net_price[0], in))
        return -1;

    ld_path_key(f, sizeof f, path, "profile");
    if ((v = ld_get(ld, m, "profile", NULL)) && ld_profile(ld, v, f, in->name))
        return -1;

    /* the network between nodes by name: an EFA fabric makes the type AWS
     * EFA, the others RDMA (efa true) but for tcp */
    ld_path_key(f, sizeof f, path, "fabric");
    if ((v = ld_get(ld, m, "fabric", NULL))) {
        char name[32], names[256];
        const struct cat_fabric *fab;
        if (ld_str(ld, v, f, name, sizeof name, 1, "a fabric name"))
            return -1;
        if (!(fab = catalog_fabric(name))) {
            catalog_fabric_names(names, sizeof names);
            return ld_fail(ld, v->start_mark, f, "expected one of %s, found \"%s\"", names, name);
        }
        catalog_set_fabric(in, fab);
    }

    ld_path_key(f, sizeof f, path, "spot_interrupt");
    if ((v = ld_get(ld, m, "spot_interrupt", NULL))) {
        char band[64], what[80];
        snprintf(what, sizeof what, "an interruption band, %s", cat_spot_bands());
        if (ld_str(ld, v, f, band, sizeof band, 1, what))
            return -1;
        if (isnan(cat_spot_month(band)))
            return ld_fail(ld, v->start_mark, f, "expected %s, found \"%s\"", what, band);
        memcpy(in->spot_interrupt, band, strlen(band) + 1);   /* a band: 7 bytes at most */
    }

    /* the day the prices held (instances.csv's price_date): a report names it */
    ld_path_key(f, sizeof f, path, "price_date");
    if ((v = ld_get(ld, m, "price_date", NULL))) {
        char day[32];
        if (ld_str(ld, v, f, day, sizeof day, 1, "a date as YYYY-MM-DD"))
            return -1;
        if (!catalog_date_ok(day))
            return ld_fail(ld, v->start_mark, f, "expected a date as YYYY-MM-DD, found \"%s\"",
                           day);
        memcpy(in->price_date, day, sizeof in->price_date);
    }

    ld_path_key(f, sizeof f, path, "cloud");
    if ((v = ld_get(ld, m, "cloud", NULL)) &&
        ld_str(ld, v, f, in->cloud, sizeof in->cloud, 1, "a cloud name"))
        return -1;

    ld_path_key(f, sizeof f, path, "region");
    if ((v = ld_get(ld, m, "region", NULL)) &&
        ld_str(ld, v, f, in->region, sizeof in->region, 0, "a region name"))
        return -1;

    return ld_source(ld, m, path, &in->source);
}

/* params and fwd_gflops from a whole shape, where the entry leaves them out. */
static void shape_fill(struct cat_model *md)
{
    if (isnan(md->params))
        md->params = shape_params(md);
    if (isnan(md->fwd_gflops))
        md->fwd_gflops = shape_fwd_flops(md, md->seq_len) / 1e9;
}

static int ld_inline_model(struct ld *ld, yaml_node_t *m, const char *path, int idx,
                           void *entry)
{
    struct cat_model *md = entry;
    static const char *const keys[] = {
        "name", "family", "params", "fwd_gflops", "input", "sparse_params",
        "sparse_bytes_per_sample", "source", "layers", "hidden", "heads", "kv_heads",
        "ffn_hidden", "vocab", "gated_ffn", "tied_embeddings", "seq_len", "lm_head", "dropout",
        "causal", "rms_norm", "rotary", "head_dim", "q_lora_rank", "kv_lora_rank",
        "qk_rope_dim", "qk_nope_dim", "v_head_dim", "experts", "top_k", "moe_ffn_hidden",
        "shared_experts", "shared_ffn_hidden", "first_dense_layers", "moe_every",
        "capacity_factor", "window", "window_every", "router_groups", "router_group_topk",
        "expert_bias", "expert_clamp", "mtp_layers", NULL
    };
    const struct key_spec size[] = {
        ld_field_spec("params", 0, offsetof(struct cat_model, params)),
        ld_field_spec("fwd_gflops", 0, offsetof(struct cat_model, fwd_gflops)),
    };
    /* a transformer given by its shape (catalog/shape.h) */
    const struct key_spec shape[] = {
        ld_field_spec("layers", 0, offsetof(struct cat_model, layers)),
        ld_field_spec("hidden", 0, offsetof(struct cat_model, hidden)),
        ld_field_spec("heads", 0, offsetof(struct cat_model, heads)),
        ld_field_spec("kv_heads", 0, offsetof(struct cat_model, kv_heads)),
        ld_field_spec("ffn_hidden", 0, offsetof(struct cat_model, ffn_hidden)),
        ld_field_spec("vocab", 0, offsetof(struct cat_model, vocab)),
        {"gated_ffn", KEY_BOOL, 0, 0, 0, 0, NULL, offsetof(struct cat_model, gated_ffn)},
        {"tied_embeddings", KEY_BOOL, 0, 0, 0, 0, NULL, offsetof(struct cat_model, tied_embeddings)},
        ld_field_spec("seq_len", 0, offsetof(struct cat_model, seq_len)),
        {"lm_head", KEY_BOOL, 0, 0, 0, 0, NULL, offsetof(struct cat_model, lm_head)},
        ld_field_spec("dropout", 0, offsetof(struct cat_model, dropout)),
        {"causal", KEY_BOOL, 0, 0, 0, 0, NULL, offsetof(struct cat_model, causal)},
        {"rms_norm", KEY_BOOL, 0, 0, 0, 0, NULL, offsetof(struct cat_model, rms_norm)},
        {"rotary", KEY_BOOL, 0, 0, 0, 0, NULL, offsetof(struct cat_model, rotary)},
        ld_field_spec("head_dim", 0, offsetof(struct cat_model, head_dim)),
        ld_field_spec("q_lora_rank", 0, offsetof(struct cat_model, q_lora_rank)),
        ld_field_spec("kv_lora_rank", 0, offsetof(struct cat_model, kv_lora_rank)),
        ld_field_spec("qk_rope_dim", 0, offsetof(struct cat_model, qk_rope_dim)),
        ld_field_spec("qk_nope_dim", 0, offsetof(struct cat_model, qk_nope_dim)),
        ld_field_spec("v_head_dim", 0, offsetof(struct cat_model, v_head_dim)),
        ld_field_spec("experts", 0, offsetof(struct cat_model, experts)),
        ld_field_spec("top_k", 0, offsetof(struct cat_model, top_k)),
        ld_field_spec("moe_ffn_hidden", 0, offsetof(struct cat_model, moe_ffn_hidden)),
        ld_field_spec("shared_experts", 0, offsetof(struct cat_model, shared_experts)),
        ld_field_spec("shared_ffn_hidden", 0, offsetof(struct cat_model, shared_ffn_hidden)),
        ld_field_spec("first_dense_layers", 0, offsetof(struct cat_model, first_dense_layers)),
        ld_field_spec("moe_every", 0, offsetof(struct cat_model, moe_every)),
        ld_field_spec("capacity_factor", 0, offsetof(struct cat_model, capacity_factor)),
        ld_field_spec("window", 0, offsetof(struct cat_model, window)),
        ld_field_spec("window_every", 0, offsetof(struct cat_model, window_every)),
        ld_field_spec("router_groups", 0, offsetof(struct cat_model, router_groups)),
        ld_field_spec("router_group_topk", 0, offsetof(struct cat_model, router_group_topk)),
        {"expert_bias", KEY_BOOL, 0, 0, 0, 0, NULL, offsetof(struct cat_model, expert_bias)},
        {"expert_clamp", KEY_BOOL, 0, 0, 0, 0, NULL, offsetof(struct cat_model, expert_clamp)},
        ld_field_spec("mtp_layers", 0, offsetof(struct cat_model, mtp_layers)),
    };
    char f[FIELD_LEN];
    yaml_node_t *v;
    int i;

    memset(md, 0, sizeof *md);
    md->params = NAN;
    md->fwd_gflops = NAN;
    md->sparse_params = NAN;
    md->sparse_bytes_per_sample = NAN;
    md->act_mib_per_sample = NAN;
    md->lm_head = 1;    /* as models.csv: a shaped model is a language model unless told */
    md->causal = 1;     /* and a decoder */
    if (ld_map(ld, m, path, keys))
        return -1;

    if (ld_entry_name(ld, m, path, "model", "catalog.models", ld->models[0].name,
                      sizeof *ld->models, idx, md->name, sizeof md->name))
        return -1;

    ld_path_key(f, sizeof f, path, "family");
    if ((v = ld_get(ld, m, "family", NULL))) {
        if (ld_enum(ld, v, f, catalog_family_name, &i))
            return -1;
        snprintf(md->family, sizeof md->family, "%s", catalog_family_name(i));
    }

    if (ld_keys(ld, m, path, m->start_mark, size, 2, md) ||
        ld_keys(ld, m, path, m->start_mark, shape, sizeof shape / sizeof shape[0], md))
        return -1;
    if (shape_known(md)) {
        char what[160], fb[FOUND_LEN];
        const char *key;
        /* kv_heads defaults to heads; a shape without seq_len takes
         * workload.seq_len, read after the catalog (ld_catalog_seq_len) */
        shape_defaults(md);
        key = shape_check_form(md, 1, what, sizeof what);
        if (!key && md->seq_len > 0)
            key = shape_check_size(md, what, sizeof what);
        if (key && !strcmp(key, "layers")) {
            ld_path_key(f, sizeof f, path, "layers");
            return ld_fail(ld, m->start_mark, f, "expected %s", what);
        }
        if (key && !*key) /* a bound on what the shape gives: the entry as a whole */
            return ld_fail(ld, m->start_mark, path, "%s", what);
        if (key) {
            v = ld_get(ld, m, key, NULL);
            ld_path_key(f, sizeof f, path, key);
            return ld_fail(ld, v ? v->start_mark : m->start_mark, f, "expected %s, found %s", what,
                           ld_found(v, fb, sizeof fb));
        }
        if (md->seq_len > 0)
            shape_fill(md);
    } else if (isnan(md->params)) {
        ld_path_key(f, sizeof f, path, "params");
        return ld_missing(ld, m->start_mark, f);
    }

    ld_path_key(f, sizeof f, path, "input");
    if ((v = ld_get(ld, m, "input", NULL)) &&
        ld_str(ld, v, f, md->input, sizeof md->input, 0, "an input description"))
        return -1;

    {
        const struct key_spec sparse[] = {
            {"sparse_params", KEY_NUM, 0, 0, 0, md->params, "a count in [0, params]",
             offsetof(struct cat_model, sparse_params)},
            ld_field_spec("sparse_bytes_per_sample", 0,
                          offsetof(struct cat_model, sparse_bytes_per_sample)),
        };
        if (ld_keys(ld, m, path, m->start_mark, sparse, 2, md))
            return -1;
    }

    return ld_source(ld, m, path, &md->source);
}

int ld_catalog_seq_len(struct ld *ld)
{
    yaml_node_t *list = NULL, *m, *v;
    char path[FIELD_LEN], f[FIELD_LEN], what[160], fb[FOUND_LEN];

    if ((v = ld_get(ld, ld->root, "catalog", NULL)))
        list = ld_get(ld, v, "models", NULL);
    for (int i = 0; i < ld->nmodels; i++) {
        struct cat_model *md = &ld->models[i];
        if (!shape_known(md) || md->seq_len > 0)
            continue;
        m = ld_list_item(ld, list, i);
        ld_path_idx(path, sizeof path, "catalog.models", i);
        ld_path_key(f, sizeof f, path, "seq_len");
        if (ld->sc->workload.seq_len <= 0)
            return ld_fail(ld, m->start_mark, f, "expected the model's seq_len or "
                           "workload.seq_len (tokens per sample), found neither");
        md->seq_len = ld->sc->workload.seq_len;
        if (shape_check_size(md, what, sizeof what))
            return ld_fail(ld, m->start_mark, path, "%s", what);
        shape_fill(md);
        /* sparse_params was read before params was known (ld_inline_model) */
        if ((v = ld_get(ld, m, "sparse_params", NULL)) && !(md->sparse_params <= md->params)) {
            ld_path_key(f, sizeof f, path, "sparse_params");
            return ld_fail(ld, v->start_mark, f, "expected a count in [0, params], found %s",
                           ld_found(v, fb, sizeof fb));
        }
    }
    return 0;
}

/* Each entry of the checked list v (path "catalog.instances" or
 * "catalog.models") read by entry() into arr[i] (size bytes each); *count
 * is the number of entries that own their strings, for freeing on error. */
static int ld_inline_entries(struct ld *ld, yaml_node_t *v, const char *path, void *arr,
                             size_t size, int *count,
                             int (*entry)(struct ld *, yaml_node_t *, const char *, int, void *))
{
    char f[FIELD_LEN];

    for (int i = 0; i < ld_list_len(v); i++) {
        ld_path_idx(f, sizeof f, path, i);
        *count = i + 1; /* entry i owns its strings from here on */
        if (entry(ld, ld_list_item(ld, v, i), f, i, (char *)arr + (size_t)i * size))
            return -1;
    }
    return 0;
}

int ld_catalog(struct ld *ld, yaml_node_t *m)
{
    static const char *const keys[] = { "instances", "models", NULL };
    yaml_node_t *v;

    if (ld_map(ld, m, "catalog", keys))
        return -1;
    if ((v = ld_get(ld, m, "instances", NULL))) {
        if (ld_list(ld, v, "catalog.instances", 0, SC_MAX_INLINE, "instance types"))
            return -1;
        ld->inst = x_calloc((size_t)ld_list_len(v), sizeof *ld->inst);
        if (ld_inline_entries(ld, v, "catalog.instances", ld->inst, sizeof *ld->inst, &ld->ninst,
                              ld_inline_instance))
            return -1;
    }
    if ((v = ld_get(ld, m, "models", NULL))) {
        if (ld_list(ld, v, "catalog.models", 0, SC_MAX_INLINE, "models"))
            return -1;
        ld->models = x_calloc((size_t)ld_list_len(v), sizeof *ld->models);
        if (ld_inline_entries(ld, v, "catalog.models", ld->models, sizeof *ld->models,
                              &ld->nmodels, ld_inline_model))
            return -1;
    }
    return 0;
}
