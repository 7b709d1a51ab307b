/*
 * fuzz_profile.c - libFuzzer target: a calibration profile (JSON, schema
 * of docs/profile.md) through the loader: parse and validate, then the
 * summary the planner uses.  An input is refused with one printable error
 * line, or summarized; nothing else (fuzz.h).
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>

#include "fuzz.h"
#include "../../catalog/profile.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct prof_measured m;
    struct dt_err e = {{0}};
    cJSON *root = NULL;

    if (profile_parse("fuzz.json", (const char *)data, size, &root, &e)) {
        fuzz_check_msg("profile_parse", e.msg);
        return 0;
    }
    profile_summarize(root, "fuzz.json", &m);
    cJSON_Delete(root);
    /* what the planner reads of a summary is a number or NAN, never garbage */
    for (int p = 0; p < CAT_NPREC; p++)
        if (!isnan(m.gemm_tflops[p]) && !(m.gemm_tflops[p] > 0))
            abort();
    if (m.cpu_cores < 0)
        abort();
    (void)profile_cpu_speed(&m, 1);
    return 0;
}
