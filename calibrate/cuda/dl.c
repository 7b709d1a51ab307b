/*
 * dl.c - the GPU and NCCL parts of "dtplan calibrate" in a build with CUDA:
 * they load libdtplan-gpu.so (dtgpu.h) on first use and run its parts, so
 * that no other run of dtplan maps the CUDA libraries.
 *
 * The object is looked for at $DTPLAN_GPU_LIB when set, then next to the
 * running program, then one directory up (the test programs live in
 * build/tests/), then in ../lib/dtplan from the program (where `make
 * install` puts it, whatever PREFIX), then in DTPLAN_GPU_LIBDIR.
 * When it cannot be loaded both parts report themselves skipped, with
 * dlerror's reason, as a build without CUDA does.
 */
#include "../calib.h"
#include "../sweep.h"
#include "dtgpu.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef DTPLAN_GPU_LIBDIR
#define DTPLAN_GPU_LIBDIR "/usr/local/lib/dtplan"
#endif

static dtgpu_part_fn gpu_run, nccl_run;

/* Try to open dir/DTGPU_LIB (or path itself when dir is NULL). */
static void *try_open(const char *dir, const char *path, char *why, size_t whylen)
{
    char buf[PATH_MAX + sizeof DTGPU_LIB + 2];
    void *h;

    if (dir)
        snprintf(buf, sizeof buf, "%s/%s", dir, DTGPU_LIB);
    else
        snprintf(buf, sizeof buf, "%s", path);
    if (access(buf, F_OK) != 0)
        return NULL;
    h = dlopen(buf, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        snprintf(why, whylen, "%s", dlerror());
    return h;
}

/* Strip the last component of path in place; 0 when it has none. */
static int to_parent(char *path)
{
    char *slash = strrchr(path, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    return 1;
}

/* Open the object from the first directory that has it: the program's, its
 * parent, the parent's lib/dtplan, DTPLAN_GPU_LIBDIR.  NULL with why set by
 * the last that failed to load. */
static void *open_near_program(char *why, size_t whylen)
{
    char exe[PATH_MAX], up[PATH_MAX], lib[PATH_MAX + sizeof "/lib/dtplan"];
    const char *dirs[4];
    int nd = 0;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    void *h = NULL;

    if (n > 0) {
        exe[n] = '\0';
        if (to_parent(exe)) {
            dirs[nd++] = exe;
            snprintf(up, sizeof up, "%s", exe);
            if (to_parent(up)) {
                dirs[nd++] = up;
                snprintf(lib, sizeof lib, "%s/lib/dtplan", up); /* PREFIX/bin -> PREFIX/lib/dtplan */
                dirs[nd++] = lib;
            }
        }
    }
    dirs[nd++] = DTPLAN_GPU_LIBDIR;
    for (int i = 0; !h && i < nd; i++)
        h = try_open(dirs[i], NULL, why, whylen);
    return h;
}

/* 0 when the parts are loaded; else -1 with why set. */
static int load(char *why, size_t whylen)
{
    static const struct dtgpu_host host = {sweep_run};
    static int state; /* 0 not tried, 1 loaded, -1 failed */
    static char failed[512];
    const char *env = getenv("DTPLAN_GPU_LIB");
    void *h;
    dtgpu_init_fn init;

    if (state) {
        snprintf(why, whylen, "%s", failed);
        return state > 0 ? 0 : -1;
    }
    if (env && *env) {
        snprintf(failed, sizeof failed, "DTPLAN_GPU_LIB=%s: no such file", env);
        h = try_open(NULL, env, failed, sizeof failed);
    } else {
        snprintf(failed, sizeof failed, "%s not found next to dtplan or in %s", DTGPU_LIB,
                 DTPLAN_GPU_LIBDIR);
        h = open_near_program(failed, sizeof failed);
    }
    if (h) {
        /* POSIX's way to take a function out of dlsym's void *. */
        *(void **)&init = dlsym(h, "dtgpu_init");
        *(void **)&gpu_run = dlsym(h, "dtgpu_gpu_run");
        *(void **)&nccl_run = dlsym(h, "dtgpu_nccl_run");
        if (!init || !gpu_run || !nccl_run)
            snprintf(failed, sizeof failed, "%s lacks the dtgpu_ functions", DTGPU_LIB);
        else if (init(DTGPU_ABI, &host) != 0)
            snprintf(failed, sizeof failed, "%s was built for another version of dtplan", DTGPU_LIB);
        else
            state = 1;
        if (state != 1)
            dlclose(h);
    }
    if (state != 1)
        state = -1;
    snprintf(why, whylen, "%s", state > 0 ? "" : failed);
    return state > 0 ? 0 : -1;
}

/* Run a part of the object, or skip it with why it cannot be loaded. */
static int run_part(const dtgpu_part_fn *fn, const char *what, struct calib_ctx *c, cJSON *out,
                    char *msg, size_t msglen)
{
    char why[512];
    if (load(why, sizeof why) != 0) {
        snprintf(msg, msglen, "%s calibration skipped: cannot load the CUDA part: %s", what, why);
        return CALIB_SKIPPED;
    }
    return (*fn)(c, out, msg, msglen);
}

int calib_gpu_run(struct calib_ctx *c, cJSON *gpu, char *msg, size_t msglen)
{
    return run_part(&gpu_run, "GPU", c, gpu, msg, msglen);
}

int calib_nccl_run(struct calib_ctx *c, cJSON *collectives, char *msg, size_t msglen)
{
    return run_part(&nccl_run, "NCCL", c, collectives, msg, msglen);
}
