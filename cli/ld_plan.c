/*
 * ld_plan.c - the plan: section (docs/plan.md): what the catalog search may
 * consider.  Parsed last, so that it can check the objective and input
 * sections.
 */
#include "ld.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../base/names.h"
#include "../base/units.h"
#include "../scenario/sc_field.h"

/* ------------------------------------------------------ plan: the search */

/*
 * The plan: section (docs/plan.md): what the catalog search may consider.
 * Parsed last, so that it can check the objective and input sections.
 */

/* Some inline or catalog instance type is selected by pattern pat. */
static int ld_plan_name_known(struct ld *ld, const char *pat, char *near, size_t cap)
{
    int i;

    for (i = 0; i < ld->ninst; i++)
        if (catalog_name_matches(pat, ld->inst[i].name))
            return 1;
    for (i = 0; i < ld->cat->ninstances; i++)
        if (catalog_name_matches(pat, ld->cat->instances[i].name))
            return 1;
    catalog_suggest_instance(ld->cat, pat, near, cap);
    return 0;
}

static int ld_plan_names(struct ld *ld, yaml_node_t *l, const char *field)
{
    struct sc_plan *p = &ld->sc->plan;
    char f[FIELD_LEN], near[LIST_LEN];
    int i;

    if (ld_list(ld, l, field, 1, SC_PLAN_MAX_NAMES, "instance types or families"))
        return -1;
    p->ninstances = ld_list_len(l);
    for (i = 0; i < p->ninstances; i++) {
        yaml_node_t *v = ld_list_item(ld, l, i);
        ld_path_idx(f, sizeof f, field, i);
        if (ld_str(ld, v, f, p->instances[i], sizeof p->instances[i], 1,
                   "an instance type or family"))
            return -1;
        if (!ld_plan_name_known(ld, p->instances[i], near, sizeof near))
            return ld_fail(ld, v->start_mark, f,
                           "expected an instance type or family of the catalog, found \"%s\"%s%s%s",
                           p->instances[i], *near ? " (did you mean " : "", near,
                           *near ? "?)" : "");
    }
    return 0;
}

static int ld_plan_regions(struct ld *ld, yaml_node_t *l)
{
    struct sc_plan *p = &ld->sc->plan;
    char f[FIELD_LEN], list[LIST_LEN] = "";
    int i, k, j;

    if (ld_list(ld, l, "plan.regions", 1, SC_PLAN_MAX_REGIONS, "regions"))
        return -1;
    p->nregions = ld_list_len(l);
    for (i = 0; i < p->nregions; i++) {
        yaml_node_t *v = ld_list_item(ld, l, i);
        int found = 0;
        ld_path_idx(f, sizeof f, "plan.regions", i);
        if (ld_str(ld, v, f, p->regions[i], sizeof p->regions[i], 1, "a region"))
            return -1;
        for (k = 0; k < ld->ninst && !found; k++)
            found = strcmp(ld->inst[k].region, p->regions[i]) == 0;
        for (k = 0; k < ld->cat->ninstances && !found; k++)
            found = strcmp(ld->cat->instances[k].region, p->regions[i]) == 0;
        if (found)
            continue;
        for (k = 0; k < ld->cat->ninstances; k++) {
            for (j = 0; j < k; j++)
                if (strcmp(ld->cat->instances[j].region, ld->cat->instances[k].region) == 0)
                    break;
            if (j == k && ld->cat->instances[k].region[0])
                ld_list_add(list, sizeof list, ld->cat->instances[k].region);
        }
        return ld_fail(ld, v->start_mark, f, "expected a region of the catalog (%s), found \"%s\"", list,
                       p->regions[i]);
    }
    return 0;
}

/* The plan's fields that take more than a value read into a slot: the
 * instance and region lists, the strategies, the bucket sizes, and the
 * objective's limits, which either section may give (not both). */
static int plan_code(struct ld *ld, const struct sc_field *f, yaml_node_t *v, yaml_node_t *k,
                     yaml_mark_t at)
{
    struct scenario *sc = ld->sc;
    struct sc_plan *p = &sc->plan;
    const char *key = sc_field_key(f);
    char fb[FIELD_LEN];
    int i, s;

    (void)at;
    if (!v)
        return 0;
    if (strcmp(key, "instances") == 0)
        return ld_plan_names(ld, v, "plan.instances");
    if (strcmp(key, "regions") == 0)
        return ld_plan_regions(ld, v);
    if (strcmp(key, "strategies") == 0) {
        if (ld_list(ld, v, "plan.strategies", 1, SIM_NSTRATEGY, "strategies"))
            return -1;
        p->strategies = 0;
        for (i = 0; i < ld_list_len(v); i++) {
            ld_path_idx(fb, sizeof fb, "plan.strategies", i);
            if (ld_enum(ld, ld_list_item(ld, v, i), fb, f->names, &s))
                return -1;
            p->strategies |= 1u << s;
        }
        return 0;
    }
    if (strcmp(key, "bucket_mb") == 0) {
        if (ld_list(ld, v, "plan.bucket_mb", 1, SC_PLAN_MAX_BUCKETS, "sizes"))
            return -1;
        p->nbuckets = ld_list_len(v);
        for (i = 0; i < p->nbuckets; i++) {
            double mib;
            ld_path_idx(fb, sizeof fb, "plan.bucket_mb", i);
            if (ld_num(ld, ld_list_item(ld, v, i), fb, f->lo, f->lo_open, f->hi, f->words, &mib))
                return -1;
            p->bucket_bytes[i] = mib * f->scale;
        }
        return 0;
    }
    if (strcmp(key, "budget_usd_h") == 0) {
        if (!isnan(sc->objective.budget_usd_h))
            return ld_fail(ld, k->start_mark, "plan.budget_usd_h",
                           "expected one budget, found objective.budget_usd_h too");
        return ld_field(ld, v, f->path, f, &sc->objective.budget_usd_h);
    }
    if (strcmp(key, "deadline_h") == 0) {
        if (!isnan(sc->objective.deadline_h))
            return ld_fail(ld, k->start_mark, "plan.deadline_h",
                           "expected one deadline, found objective.deadline_h too");
        if (ld_field(ld, v, f->path, f, &sc->objective.deadline_h))
            return -1;
        if (isnan(sc->input.dataset_samples))
            return ld_fail(ld, v->start_mark, "plan.deadline_h",
                           "expected input.dataset_samples with a deadline, found none");
        return 0;
    }
    /* max_data_channels */
    if (sc->objective.max_data_channels > 0)
        return ld_fail(ld, k->start_mark, "plan.max_data_channels",
                       "expected one limit, found objective.max_data_channels too");
    return ld_field(ld, v, f->path, f, &sc->objective.max_data_channels);
}

int ld_plan(struct ld *ld, yaml_node_t *m, yaml_mark_t at)
{
    struct sc_plan *p = &ld->sc->plan;

    scenario_plan_defaults(p);
    p->present = 1;
    if (m->type == YAML_SCALAR_NODE && m->data.scalar.length == 0)
        return 0; /* "plan:" alone: every default */
    return ld_section(ld, m, "plan", at, plan_code);
}
