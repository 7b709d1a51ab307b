/*
 * profile.h - calibration profiles (docs/profile.md): read, validate,
 * write atomically, and reduce to the few measured numbers the planner
 * uses.
 *
 * profile_read() parses with cJSON and checks the schema; every error is one
 * line, PATH:LINE:COL: FIELD: expected WHAT, found WHAT, the position being
 * that of the offending value (found by walking the text, since cJSON keeps
 * no positions) or, for bad JSON, where parsing stopped.  The returned tree
 * belongs to the caller (cJSON_Delete).  profile_summarize() turns a valid
 * tree into struct prof_measured, a plain struct the planner can hold
 * without cJSON.  Library code: never prints.
 */
#ifndef DT_PROFILE_H
#define DT_PROFILE_H

#include <stddef.h>

#include "catalog.h"
#include "../base/xmem.h"

#define PROFILE_SCHEMA_VERSION 1

/*
 * The measured times (time_s of a point) a profile may hold, in seconds:
 * the reader refuses any other, and dtplan calibrate refuses a command's
 * report outside them when it measures (cmdcoll.c), so that it never writes
 * a profile its reader refuses.  PROFILE_TIME_EXPECTED is the reader's
 * "expected" text for them.
 */
#define PROFILE_MIN_TIME_S 1e-12
#define PROFILE_MAX_TIME_S 1e9
#define PROFILE_STR_(x) #x
#define PROFILE_STR(x) PROFILE_STR_(x)
#define PROFILE_TIME_EXPECTED \
    "a time in seconds from " PROFILE_STR(PROFILE_MIN_TIME_S) " to " PROFILE_STR(PROFILE_MAX_TIME_S)

/*
 * Per-core samples/s of the built-in pipeline (builtin-image) on the
 * reference core, the unit of input.cpu_s_per_sample: a vCPU whose profile
 * shows this rate has speed 1.  Measured with `dtplan calibrate --cpu` on an
 * AMD EPYC (family 25, model 17) KVM vCPU, gcc -O2 (docs/profile.md).
 */
#define PROFILE_REF_SAMPLES_PER_S 260.0

struct cJSON;

/*
 * The measured points of the collective a link was taken from, so that the
 * planner can read the link at the message size a workload sends (fits
 * average over sizes; on a shaped or CPU-bound link the rate moves with the
 * size).  bytes ascending; chunks: the messages one operation's S bytes are
 * cut into per hop (ring all-reduce: its ranks; push/pull: its servers).
 */
#define PROF_MAX_POINTS 64
struct prof_curve {
    int npts;
    double bytes[PROF_MAX_POINTS], time_s[PROF_MAX_POINTS];
    double alpha_s;            /* the fit's latency of one whole operation */
    double bus_factor;
    int chunks;
};

/* What a profile measured, in the planner's units; NAN where it has nothing. */
struct prof_measured {
    char path[256];            /* the profile file, as named */
    char instance[64];         /* "instance" of the profile, "" if absent */
    char host[64];
    char date[40];
    double cpu_lambda;         /* builtin-image: samples/s of one worker */
    double cpu_sigma, cpu_kappa;/* USL contention and coherency; NAN when underdetermined */
    int cpu_cores;             /* cores of the calibrated machine */
    char cpu_quality[20];      /* "good", "poor", "underdetermined", "" if no CPU fit */
    double gemm_tflops[CAT_NPREC]; /* best achieved GEMM TFLOP/s per precision */
    double comm_slowdown;      /* a GEMM timed while NCCL's all-reduce runs over the GEMM
                                  alone (comm_slowdown of the nccl_all_reduce entry of
                                  collectives[]); NAN when not measured */
    double net_alpha_s;        /* per-message latency across hosts, s */
    double net_Bps;            /* bus bandwidth across hosts per rank, bytes/s */
    char net_from[64];         /* e.g. "mpi allreduce, 2 ranks on 2 hosts" */
    double net_fit_alpha_s;    /* the chosen entry's own intercept, s (not below 0) */
    struct prof_fit {          /* an all-reduce entry's own fit and layout, as measured:
                                  t = alpha_s + beta_s S over ranks on hosts; beta_s 0 none */
        double alpha_s, beta_s;
        int ranks, hosts;
    } net_ar, intra_ar;        /* the network's entry (2 or more hosts), the GPU links' (1) */
    char unused[96];           /* the first collective that gives nothing and why, e.g.
                                  "cmd allreduce, 4 ranks on 1 host"; "" none */
    double net_hops, intra_hops; /* the hops that intercept covers in the layout measured: a
                                   ring of k ranks on h hosts crosses the network 2(h - 1)
                                   times an all-reduce (h - 1 a gather or scatter) and the
                                   hosts' own links 2(k - h) times (k - h); 0 unknown */
    double net_ps_alpha_s;     /* the same from a parameter-server push/pull, for PS strategies */
    double net_ps_Bps;
    char net_ps_from[64];
    double ps_first_pull_frac; /* of a pull to several workers, when the first
                                  ends (pull_overlap); NAN if not measured */
    struct prof_curve net_curve, ps_curve; /* their points; npts 0 if none */
    double launch_s;           /* gpu.launch.kernel_s: the host's time to launch an empty
                                  kernel, back to back; NAN if not measured */
    double intra_alpha_s;      /* per-hop latency between GPUs of one host, s */
    double intra_Bps;          /* bus bandwidth between GPUs of one host, bytes/s */
    char intra_from[64];
};

/* 1 when t is a time_s a profile may hold (PROFILE_MIN_TIME_S..PROFILE_MAX_TIME_S). */
int profile_time_ok(double t);

/* Read and validate PATH.  Returns 0 with *root set, or -1 with e set. */
int profile_read(const char *path, struct cJSON **root, struct dt_err *e);

/* Validate text already in memory (len bytes). */
int profile_parse(const char *path, const char *text, size_t len, struct cJSON **root,
                  struct dt_err *e);

/* Write root to PATH atomically (PATH.tmp.PID, then rename).  0 or -1. */
int profile_write(const char *path, const struct cJSON *root, struct dt_err *e);

/*
 * The ring steps and nccl-tests' bus-bandwidth factor of a collective over
 * k ranks, by name (matched without case, '_' or '-'): all-reduce 2(k-1)
 * steps, factor 2(k-1)/k; all-gather and reduce-scatter k-1 and (k-1)/k;
 * broadcast 1 and 1; a PS push/pull 2 and 2.  0, or -1 for another name.
 */
int profile_coll_shape(const char *name, int k, double *steps, double *factor);

/* Reduce a validated tree. */
void profile_summarize(const struct cJSON *root, const char *path, struct prof_measured *m);

/* Read, validate and summarize. */
int profile_load(const char *path, struct prof_measured *m, struct dt_err *e);

/* Speed of one vCPU relative to the reference core when `n` vCPUs work:
 * X(n)/n of the profile's fit over PROFILE_REF_SAMPLES_PER_S (lambda alone
 * when the fit has no sigma/kappa).  NAN without a CPU fit. */
double profile_cpu_speed(const struct prof_measured *m, double n);

/*
 * The per-rank link rate the curve shows for messages of msg_bytes per hop:
 * the operation's time at chunks x msg_bytes, interpolated in log-log
 * between the two measured sizes around it, less the fit's latency, as
 * bus_factor x S / (t - alpha), at most `line` (the nominal line rate;
 * <= 0 if unknown).  `fitted` (the fit's rate) outside the measured sizes
 * or when the curve has fewer than 2 points.
 */
double profile_link_at(const struct prof_curve *c, double msg_bytes, double fitted, double line);

#endif
