/*
 * test_calib_gpu.c - the GPU and NCCL parts of calibrate (calibrate/cuda/).
 * Without a CUDA device, or in a build without CUDA, both must report
 * themselves skipped with one line and write nothing; with a device the GPU
 * part must fill gpu.gemm[] for the four precisions and gpu.bandwidth, and
 * the NCCL part (two or more local GPUs) collectives[] entries whose busbw
 * follows nccl-tests' factors.
 */
#include "t.h"

#include <cJSON.h>

#include "../../calibrate/calib.h"

static void no_progress(void *arg, const char *what, double done)
{
    (void)arg;
    (void)what;
    (void)done;
}

static void the_gpu_part_measures_or_skips_in_one_line(void)
{
    struct calib_ctx c = {0};
    cJSON *gpu = cJSON_CreateObject();
    char msg[512];
    int rc;

    c.size = 1;
    c.quick = 1;
    c.progress = no_progress;
    rc = calib_gpu_run(&c, gpu, msg, sizeof msg);
    if (rc == CALIB_SKIPPED) {
        T_CHECK(strchr(msg, '\n') == NULL && strstr(msg, "GPU calibration skipped") == msg,
                "no device: one line: %s", msg);
        T_CHECK(cJSON_GetArraySize(gpu) == 0, "no device: nothing written");
    } else {
        const cJSON *g, *bw = cJSON_GetObjectItem(gpu, "bandwidth");
        int precs[4] = {0}, good = 1;
        const char *names[4] = {"fp32", "tf32", "fp16", "bf16"};
        T_CHECK(rc == CALIB_OK, "a device: the GPU part succeeds (%s)", msg);
        cJSON_ArrayForEach(g, cJSON_GetObjectItem(gpu, "gemm")) {
            const char *p = cJSON_GetStringValue(cJSON_GetObjectItem(g, "precision"));
            double n = cJSON_GetObjectItem(g, "n")->valuedouble;
            double t = cJSON_GetObjectItem(g, "time_s")->valuedouble;
            double tf = cJSON_GetObjectItem(g, "tflops")->valuedouble;
            for (int i = 0; i < 4; i++)
                precs[i] += p && !strcmp(p, names[i]);
            /* TFLOP/s = 2 n^3 / t / 1e12 */
            if (!(t > 0) || fabs(tf - 2 * n * n * n / t / 1e12) > 1e-9 * tf)
                good = 0;
        }
        T_CHECK(precs[0] && precs[1] && precs[2] && precs[3], "GEMM sweep in fp32, tf32, fp16, bf16");
        T_CHECK(good, "every GEMM point: TFLOP/s = 2 n^3 / t");
        T_CHECK(cJSON_IsString(cJSON_GetObjectItem(gpu, "model")), "the GPU model is recorded");
        T_CHECK(bw && cJSON_GetObjectItem(bw, "d2d_GBps")->valuedouble > 0 &&
                    cJSON_GetObjectItem(bw, "h2d_GBps")->valuedouble > 0 &&
                    cJSON_GetObjectItem(bw, "d2h_GBps")->valuedouble > 0,
                "device, host-to-device and device-to-host copy rates");
        for (g = cJSON_GetObjectItem(gpu, "gemm")->child; g; g = g->next)
            printf("# gemm %s n=%g: %.1f TFLOP/s\n",
                   cJSON_GetStringValue(cJSON_GetObjectItem(g, "precision")),
                   cJSON_GetObjectItem(g, "n")->valuedouble,
                   cJSON_GetObjectItem(g, "tflops")->valuedouble);
        if (bw)
            printf("# copies: d2d %.1f GB/s, h2d %.1f GB/s, d2h %.1f GB/s\n",
                   cJSON_GetObjectItem(bw, "d2d_GBps")->valuedouble,
                   cJSON_GetObjectItem(bw, "h2d_GBps")->valuedouble,
                   cJSON_GetObjectItem(bw, "d2h_GBps")->valuedouble);
    }
    cJSON_Delete(gpu);
}

static void the_nccl_part_measures_or_skips_in_one_line(void)
{
    struct calib_ctx c = {0};
    cJSON *coll = cJSON_CreateArray(), *e;
    char msg[1024];
    int rc;

    c.size = 1;
    c.quick = 1;
    c.progress = no_progress;
    rc = calib_nccl_run(&c, coll, msg, sizeof msg);
    if (rc == CALIB_SKIPPED) {
        T_CHECK(strchr(msg, '\n') == NULL && strstr(msg, "NCCL calibration skipped") == msg,
                "no devices: one line: %s", msg);
        T_CHECK(cJSON_GetArraySize(coll) == 0, "no devices: nothing written");
    } else {
        int seen = 0;
        T_CHECK(rc == CALIB_OK, "local GPUs: the NCCL part succeeds (%s)", msg);
        cJSON_ArrayForEach(e, coll) {
            double n = cJSON_GetObjectItem(e, "ranks")->valuedouble;
            double bus = cJSON_GetObjectItem(e, "bus_factor")->valuedouble, want;
            const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(e, "name"));
            const cJSON *p;
            int good = 1;
            seen++;
            /* nccl-tests: all-reduce 2(n-1)/n, all-gather and reduce-scatter (n-1)/n, broadcast 1. */
            want = !strcmp(name, "nccl_all_reduce") ? 2 * (n - 1) / n
                   : !strcmp(name, "nccl_broadcast") ? 1 : (n - 1) / n;
            T_NEAR(bus, want, 1e-12, "%s on %g GPUs: bus factor", name, n);
            cJSON_ArrayForEach(p, cJSON_GetObjectItem(e, "points")) {
                double b = cJSON_GetObjectItem(p, "bytes")->valuedouble;
                double t = cJSON_GetObjectItem(p, "time_s")->valuedouble;
                double alg = cJSON_GetObjectItem(p, "algbw_GBps")->valuedouble;
                double busbw = cJSON_GetObjectItem(p, "busbw_GBps")->valuedouble;
                if (!(t > 0) || fabs(alg - b / t / 1e9) > 1e-9 * alg || fabs(busbw - alg * want) > 1e-9 * busbw)
                    good = 0;
                printf("# %s %12.0f B %10.2f us algbw %7.2f busbw %7.2f GB/s\n", name, b, t * 1e6, alg, busbw);
            }
            T_CHECK(good, "%s: algbw = S/t, busbw = algbw x factor at every size", name);
        }
        T_CHECK(seen == 4, "all-reduce, all-gather, reduce-scatter, broadcast (%d)", seen);
    }
    cJSON_Delete(coll);
}

int main(void)
{
    T_RUN(the_gpu_part_measures_or_skips_in_one_line);
    T_RUN(the_nccl_part_measures_or_skips_in_one_line);
    return T_DONE();
}
