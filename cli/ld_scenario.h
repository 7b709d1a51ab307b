/*
 * ld_scenario.h - the scenario file (YAML) read into the scenario model
 * (scenario/scenario.h).  See docs/scenario.md for every field, unit and
 * default.
 *
 * ld_scenario_load() parses with libyaml, validates everything at the boundary,
 * resolves names against the catalog (inline instance types and models are
 * added to it first) and frees the parse tree.  The result is a plain struct:
 * nothing downstream sees YAML.  Errors are one line:
 *   FILE:LINE:COL: FIELD: expected WHAT, found "WHAT"
 */
#ifndef DT_CLI_LD_SCENARIO_H
#define DT_CLI_LD_SCENARIO_H

#include "../scenario/scenario.h"

/* Load and validate.  cat may grow (inline definitions).  Returns 0 or -1. */
int ld_scenario_load(struct scenario *sc, const char *path, struct catalog *cat, struct dt_err *e);

#endif
