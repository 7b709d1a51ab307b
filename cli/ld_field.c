/*
 * ld_field.c - the scenario's sections read through the field table
 * (scenario/sc_field.h): a section's keys are the table's, in its order; a
 * simple value is read and checked by its row's type, range and words; a
 * field the table marks SC_FIELD_CODE goes to the section's own code.
 */
#include "ld.h"

#include <string.h>

#include "../scenario/sc_field.h"

int ld_field(struct ld *ld, yaml_node_t *v, const char *field, const struct sc_field *f,
             void *slot)
{
    double x;

    switch (f->type) {
    case SC_FIELD_NUM:
        if (ld_num(ld, v, field, f->lo, f->lo_open, f->hi, f->words, &x))
            return -1;
        *(double *)slot = f->scale != 1 ? x * f->scale : x;
        return 0;
    case SC_FIELD_INT_AUTO:
        if (ld_scalar_is(v, "auto"))
            return 0;   /* the default stands for auto */
        /* fall through */
    case SC_FIELD_INT:
        return ld_int(ld, v, field, (int)f->lo, (int)f->hi, f->words, slot);
    case SC_FIELD_SEED:
        if (ld_integer(ld, v, field, f->lo, f->hi, f->words, &x))
            return -1;
        *(unsigned long *)slot = (unsigned long)x;
        return 0;
    case SC_FIELD_BOOL:
        return ld_bool(ld, v, field, slot);
    case SC_FIELD_ENUM:
        return ld_enum(ld, v, field, f->names, slot);
    case SC_FIELD_UBITS:
    case SC_FIELD_REF:
        break;
    }
    return 0;   /* read by the section's own code */
}

int ld_field_keys(const char *path, int cluster, const char **keys, int cap)
{
    int n = 0;

    for (int i = 0; i < sc_nfields && n + 1 < cap; i++)
        if (sc_field_in(&sc_fields[i], path) && (!cluster || (sc_fields[i].flags & SC_FIELD_CLUSTER)))
            keys[n++] = sc_field_key(&sc_fields[i]);
    keys[n] = NULL;
    return n;
}

int ld_section(struct ld *ld, yaml_node_t *m, const char *path, yaml_mark_t at, ld_code_fn code)
{
    const char *keys[LD_MAX_KEYS];
    char f[FIELD_LEN];

    ld_field_keys(path, 0, keys, LD_MAX_KEYS);
    if (ld_map(ld, m, path, keys))
        return -1;
    for (int i = 0; i < sc_nfields; i++) {
        const struct sc_field *row = &sc_fields[i];
        yaml_node_t *k, *v;
        if (!sc_field_in(row, path))
            continue;
        v = ld_get(ld, m, sc_field_key(row), &k);
        ld_path_key(f, sizeof f, path, sc_field_key(row));
        if (row->flags & SC_FIELD_CODE) {
            if (code && code(ld, row, v, k, at))
                return -1;
            continue;
        }
        if (!v) {
            if (row->flags & SC_FIELD_REQUIRED)
                return ld_missing(ld, at, f);
            continue;
        }
        if (ld_field(ld, v, f, row, sc_field_slot(ld->sc, row)))
            return -1;
    }
    return 0;
}
