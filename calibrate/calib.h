/*
 * calib.h - the parts of "dtplan calibrate" and how they meet.
 *
 * calibrate.c owns the command: flags, progress, the profile document
 * (docs/profile.md), --resume and the atomic write.  Each measurement part
 * fills its own section of the profile as cJSON and reports what it did:
 *
 *   cpu.c        cpu.pipelines[]      built-in kernels and --cmd, USL fit
 *   gpu (CUDA)   gpu.gemm[], gpu.bandwidth, gpu.model/driver/cuda
 *   nccl (CUDA)  collectives[] with transport "nccl"
 *   mpi.c        collectives[] with transport "mpi"
 *   cmdcoll.c    collectives[] with transport "cmd" (--coll-cmd: the user's own)
 *
 * Every part returns CALIB_OK, CALIB_SKIPPED (with a one-line reason in msg:
 * "no CUDA device", "built without CUDA", "needs 2 or more MPI ranks"), or
 * CALIB_ERROR (reason in msg).  A skipped part never fails the command.
 *
 * Under mpirun every rank calls the MPI and NCCL parts (they are
 * collective); only rank 0 receives non-NULL output objects and writes.
 */
#ifndef DT_CALIB_H
#define DT_CALIB_H

#include <cJSON.h>
#include <stddef.h>

enum { CALIB_OK = 0, CALIB_SKIPPED = 1, CALIB_ERROR = -1 };

struct calib_ctx {
    int rank, size;          /* MPI rank and size; 0 and 1 without mpirun */
    int quick;               /* fewer sizes and repetitions (tests, --quick) */
    unsigned long seed;      /* synthetic data */
    /*
     * --resume: the earlier profile's section for this part (or NULL).  A
     * part copies points it finds there instead of measuring them again.
     */
    const cJSON *previous;
    /*
     * Progress: what is running, fraction done in [0,1].  Never NULL; the
     * command decides whether it draws a bar (terminal) or prints lines.
     */
    void (*progress)(void *arg, const char *what, double done);
    void *progress_arg;
    /*
     * Called after each completed point so that a killed run keeps what it
     * measured: the command rewrites its checkpoint.  May be NULL.
     */
    void (*checkpoint)(void *arg);
    void *checkpoint_arg;
    /*
     * Message sizes of the MPI and NCCL sweeps, as nccl-tests' -b, -e, -f:
     * from min_bytes to max_bytes, each step_factor times the last.  0 for
     * the part's default: 8 B; 256 MiB for MPI, 1 GiB for NCCL (4 MiB with
     * quick); x2 (x4 with quick).
     */
    double min_bytes;
    double max_bytes;
    double step_factor;
    /* Server ranks of the MPI parameter-server test (the last ranks); 0 = 1. */
    int ps_servers;
    /*
     * MPI waits: 0 busy-polls as MPI_Wait does; > 0 tests and sleeps this
     * many seconds between tests, for ranks that share cores with each other
     * and with the kernel's network processing (emulated hosts).
     */
    double poll_sleep_s;
};

/*
 * Least-squares fit of time = alpha + beta * bytes over pts (GSL), with 95%
 * confidence intervals, R^2 and residuals; piecewise when one line does not
 * fit (the regime changes at a message size), marked poor when even the
 * pieces fit badly.  Fills obj with the fields of docs/profile.md:
 * alpha_s, beta_s_per_byte, ci95 {alpha_s, beta_s_per_byte}, r2, poor_fit,
 * pieces[] (when piecewise), residuals[].  Returns 0, or -1 with fewer
 * than 3 points.
 */
struct calib_xy {
    double bytes;
    double time_s;
};
int calib_fit_alpha_beta(const struct calib_xy *pts, int n, cJSON *obj);

/* Parts.  out is the array or object to fill (NULL on ranks other than 0). */
int calib_cpu_run(struct calib_ctx *c, const char *user_cmd, cJSON *pipelines, char *msg, size_t msglen);
int calib_gpu_run(struct calib_ctx *c, cJSON *gpu, char *msg, size_t msglen);
int calib_nccl_run(struct calib_ctx *c, cJSON *collectives, char *msg, size_t msglen);
int calib_mpi_run(struct calib_ctx *c, cJSON *collectives, char *msg, size_t msglen);

/* --coll-cmd: the user's collective, timed by their own command (cmdcoll.c). */
struct calib_cmdcoll {
    const char *cmd;         /* run by /bin/sh once per size */
    const char *name;        /* allreduce, allgather, reducescatter, broadcast */
    int ranks, hosts;        /* what the command spans (recorded, DTPLAN_RANKS) */
};
int calib_cmdcoll_run(struct calib_ctx *c, const struct calib_cmdcoll *o, cJSON *collectives,
                      char *msg, size_t msglen);
/* A user command's wait status: 0 when it exited 0, else 1 with msg
 * "FLAG: the command exited with status N (CTX)" or "... killed by signal N". */
int calib_cmd_failed(int st, const char *flag, const char *ctx, char *msg, size_t msglen);
/* 1 when name is a collective --coll-name accepts. */
int calib_cmdcoll_valid_name(const char *name);

#endif
