/*
 * catedit.c - a catalog changed after it is loaded (catalog.h): a deep
 * copy, and entries put in by name (a scenario's inline instance types and
 * models, the SkyPilot import), a fabric given to a type.
 */
#include "catalog.h"
#include "fabric.h"

#include <string.h>

#include "../base/xmem.h"

static char *dup_or_null(const char *s)
{
    return s ? x_strdup(s) : NULL;
}

void catalog_copy(struct catalog *dst, const struct catalog *src)
{
    size_t ng = (size_t)src->ngpus, ni = (size_t)src->ninstances, nm = (size_t)src->nmodels;

    dst->gpus = x_calloc(ng, sizeof *dst->gpus);
    dst->instances = x_calloc(ni, sizeof *dst->instances);
    dst->models = x_calloc(nm, sizeof *dst->models);
    if (ng)
        memcpy(dst->gpus, src->gpus, ng * sizeof *dst->gpus);
    if (ni)
        memcpy(dst->instances, src->instances, ni * sizeof *dst->instances);
    if (nm)
        memcpy(dst->models, src->models, nm * sizeof *dst->models);
    dst->ngpus = src->ngpus;
    dst->ninstances = src->ninstances;
    dst->nmodels = src->nmodels;
    for (size_t k = 0; k < ng; k++) {
        dst->gpus[k].source = dup_or_null(src->gpus[k].source);
        dst->gpus[k].eff_source = dup_or_null(src->gpus[k].eff_source);
    }
    for (size_t k = 0; k < ni; k++) {
        struct cat_instance *in = &dst->instances[k];
        in->intra_link_text = dup_or_null(in->intra_link_text);
        in->source = dup_or_null(in->source);
        in->profile = dup_or_null(in->profile);
        if (in->gpu)  /* into the copy's own GPU table */
            in->gpu = &dst->gpus[in->gpu - src->gpus];
    }
    for (size_t k = 0; k < nm; k++)
        dst->models[k].source = dup_or_null(src->models[k].source);
    dst->nstorage = src->nstorage;
    dst->storage = x_calloc((size_t)src->nstorage, sizeof *dst->storage);
    for (int k = 0; k < src->nstorage; k++) {
        dst->storage[k] = src->storage[k];
        dst->storage[k].source = dup_or_null(src->storage[k].source);
    }
}

void catalog_set_fabric(struct cat_instance *in, const struct cat_fabric *f)
{
    in->fabric = f;
    in->aws_efa = f->kind == CAT_FAB_EFA;
    in->efa = f->kind != CAT_FAB_TCP;
}

void catalog_put_instance(struct catalog *cat, struct cat_instance *in)
{
    struct cat_instance *slot = NULL;
    int k;

    in->name[sizeof in->name - 1] = '\0';
    for (k = 0; k < cat->ninstances; k++)
        if (strcmp(cat->instances[k].name, in->name) == 0)
            slot = &cat->instances[k];
    if (slot != in) {
        if (slot) {
            catalog_instance_strings_free(slot);
        } else {
            cat->instances = x_realloc(cat->instances,
                                       (size_t)(cat->ninstances + 1) * sizeof *cat->instances);
            slot = &cat->instances[cat->ninstances++];
        }
        *slot = *in;
        in->intra_link_text = NULL;     /* ownership moved to the catalog */
        in->source = NULL;
        in->profile = NULL;
    }
    slot->cloud[sizeof slot->cloud - 1] = '\0';
    slot->gpu_model[sizeof slot->gpu_model - 1] = '\0';
    slot->region[sizeof slot->region - 1] = '\0';
    if (slot->link == CAT_LINK_UNKNOWN)
        slot->link = catalog_parse_link(slot->intra_link_text);
    slot->gpu = slot->gpu_model[0] && slot->gpu_count != 0
                    ? catalog_find_gpu(cat, slot->gpu_model) : NULL;
}

void catalog_put_model(struct catalog *cat, struct cat_model *m)
{
    struct cat_model *slot = NULL;
    int k;

    m->name[sizeof m->name - 1] = '\0';
    for (k = 0; k < cat->nmodels; k++)
        if (strcmp(cat->models[k].name, m->name) == 0)
            slot = &cat->models[k];
    if (slot == m)
        return;
    if (slot) {
        x_free(slot->source);
    } else {
        cat->models = x_realloc(cat->models, (size_t)(cat->nmodels + 1) * sizeof *cat->models);
        slot = &cat->models[cat->nmodels++];
    }
    *slot = *m;
    m->source = NULL;                   /* ownership moved to the catalog */
    slot->family[sizeof slot->family - 1] = '\0';
    slot->input[sizeof slot->input - 1] = '\0';
}
