/*
 * sc_field.h - the scenario's fields as one table, as Redis keeps its
 * configuration (config.c): for each key of a section, its YAML path, its
 * type, where it lives in struct scenario, its default, its range and the
 * words an error line says it expects.  The table feeds the defaults
 * (scenario_defaults, scenario_plan_defaults), the loader (cli/ld*.c: the
 * keys a section takes, in the table's order, and how each simple value is
 * read and checked), the error lines, and the key lists of
 * docs/scenario.md and docs/plan.md, which a test compares with it.
 */
#ifndef DT_SC_FIELD_H
#define DT_SC_FIELD_H

#include <stddef.h>

struct scenario;

/* The sections the table covers; each field's offset is within the struct
 * of its sec. */
enum sc_section { SC_SEC_WORKLOAD, SC_SEC_INPUT, SC_SEC_GRADIENTS, SC_SEC_PARALLEL,
                  SC_SEC_FABRIC, SC_SEC_OBJECTIVE, SC_SEC_SIMULATION, SC_SEC_PLAN,
                  SC_SEC_GOODPUT, SC_NSEC };

enum sc_field_type {
    SC_FIELD_NUM,         /* double in [lo, hi] ((lo, hi] when lo_open), stored times scale */
    SC_FIELD_INT,         /* int in [lo, hi] */
    SC_FIELD_INT_AUTO,    /* as SC_FIELD_INT, or auto: the default stays */
    SC_FIELD_SEED,        /* unsigned long in [lo, hi] */
    SC_FIELD_BOOL,        /* int, 0 or 1 */
    SC_FIELD_ENUM,        /* int: the index of its name (names) */
    SC_FIELD_UBITS,       /* unsigned: a set of bits (plan.strategies) */
    SC_FIELD_REF,         /* a name resolved to an entry, or a list or mapping: read by
                             the loader's own code; a slot, if any, is the entry's index */
};

/* flags */
#define SC_FIELD_REQUIRED 1   /* the key must be given (the loader's missing-field line) */
#define SC_FIELD_CODE     2   /* read by the section's own code in the loader (a rule
                                 across fields, auto, a value that sets several fields);
                                 type, range and words still say what it takes */
#define SC_FIELD_CLUSTER  4   /* also a key of a cluster's own section (clusters[].parallel) */

struct sc_field {
    const char *path;            /* "input.prefetch", "gradients.ps.count" */
    enum sc_section sec;         /* the struct its slot is in: its path's section, but for
                                    the layout's choices other sections' keys make, whose
                                    slots are in the parallel section's struct */
    enum sc_field_type type;
    long off;                    /* offsetof within the section's struct; -1: no slot */
    double def;                  /* the default (NAN: unset) */
    double lo, hi;               /* range */
    int lo_open;                 /* 1: lo itself is refused */
    double scale;                /* SC_FIELD_NUM: stored value = written x scale */
    const char *words;           /* what an error line says is expected */
    const char *(*names)(int);   /* SC_FIELD_ENUM: the i-th name, NULL past the end */
    int flags;
};

extern const struct sc_field sc_fields[];
extern const int sc_nfields;

/* The section's name ("workload") and its struct within sc. */
const char *sc_section_name(enum sc_section s);
void *sc_section_of(struct scenario *sc, enum sc_section s);

/* The field's key within its mapping: the path's last component. */
const char *sc_field_key(const struct sc_field *f);
/* 1 when f is a key of the mapping at path ("gradients.ps"). */
int sc_field_in(const struct sc_field *f, const char *path);
/* The field's slot in sc (NULL: none). */
void *sc_field_slot(struct scenario *sc, const struct sc_field *f);
/* The field of that path, or NULL. */
const struct sc_field *sc_field_find(const char *path);
/* Store f's default in the section struct at base (base: the section's struct). */
void sc_field_default(const struct sc_field *f, void *base);

#endif
