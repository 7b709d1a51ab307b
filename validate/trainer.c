/*
 * trainer.c - a data-parallel MPI trainer whose step times dtplan's
 * predictions are checked against (make validate, docs/validation.md).
 *
 * Each worker rank runs real training steps: a CPU input pipeline prepares a
 * batch of samples (a synthetic image "decoded", randomly cropped, flipped and
 * normalised by the calibration's CPU kernels, calibrate/cpu_kern.c:
 * prep_sample()), a dense model (an MLP, fully connected layers with ReLU and a
 * softmax cross-entropy loss, forward and backward with cblas_sgemm from GSL's
 * CBLAS) computes gradients, and the gradients are shared bucket by bucket
 * after backward, by a ring all-reduce of the worker ranks (MPI_Sendrecv:
 * reduce-scatter then all-gather, 2(k-1) steps of S/k) or by push and pull to
 * parameter-server ranks (the last --servers ranks; every bucket is split into
 * one shard per server), synchronous or asynchronous.  The loader runs inline
 * (--loader-workers 0: load, then compute) or in one thread with a bounded
 * queue of --prefetch batches (--loader-workers 1).
 *
 * Rank 0 prints one line per measured step and, last, one JSON object with the
 * mean, median and 95th percentile of the step time and its parts.  With
 * --measure-loader N the program times N samples of the input pipeline on one
 * thread and prints {"loader_s_per_sample": ...} instead of training.
 *
 * Usage: mpirun ... trainer [--batch B] [--width W] [--layers L] [--classes K]
 *   [--img PX] [--crop PX] [--decode-passes N] [--steps N] [--warmup N]
 *   [--strategy none|ring|ps_sync|ps_async] [--servers P] [--bucket-mb X]
 *   [--loader-workers 0|1] [--prefetch N] [--seed N] [--measure-loader N]
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_cblas.h>
#include <mpi.h>

#include "../calibrate/cpu_kern.h"
#include "../base/units.h"

/* Distinct source images, encoded once before the steps (cpuk_encode is not
 * part of a loader's work; decoding is). */
#define NIMG 16

enum strategy { ST_NONE, ST_RING, ST_PS_SYNC, ST_PS_ASYNC };

struct opts {
    int batch;            /* samples per worker per step */
    int width;            /* units per hidden layer */
    int layers;           /* hidden layers */
    int classes;          /* output units */
    int img_px;           /* side of the synthetic source image */
    int crop_px;          /* side of the crop fed to the model (x3 channels) */
    int decode_passes;    /* times each sample's image is decoded (a costlier codec) */
    int steps;            /* measured steps */
    int warmup;           /* steps run first and not measured */
    enum strategy strat;
    int servers;          /* parameter-server ranks (the last ranks) */
    double bucket_mb;     /* gradient bucket, MiB */
    int loader_workers;   /* 0: inline, 1: a loader thread */
    int prefetch;         /* batches the loader thread may run ahead */
    unsigned seed;
    int measure_loader;   /* > 0: time this many samples of the loader and exit */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "trainer: out of memory allocating %zu bytes\n", n);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

static uint32_t rng_next(uint32_t *s)
{
    /* xorshift32 */
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x ? x : 0x9e3779b9u;
}

/*
 * The input pipeline for one sample, with the kernels `dtplan calibrate --cpu`
 * times (calibrate/cpu_kern.c): Huffman-decode source image id % NIMG
 * (img x img x 3, decode_passes times: the cost of a heavier codec), then a
 * random resized crop with bilinear resize to crop x crop, a flip with
 * probability 1/2, colour jitter, and normalisation to planar floats; every
 * choice drawn for (seed, id).
 */
static void prep_sample(uint32_t id, const struct opts *o, const struct cpuk_enc *imgs,
                        struct cpuk_scratch *scr, float *out)
{
    const struct cpuk_enc *e = &imgs[id % NIMG];
    size_t need = (size_t)e->w * e->h * 3;

    if (scr->cap < need) {
        free(scr->rgb);
        scr->rgb = xmalloc(need);
        scr->cap = need;
    }
    for (int p = 0; p < (o->decode_passes > 0 ? o->decode_passes : 1); p++)
        if (cpuk_decode(e, scr->rgb)) {
            fprintf(stderr, "trainer: a source image failed to decode\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    cpuk_augment_to(scr->rgb, e->w, e->h, o->seed, (long)id, o->crop_px, out);
}

/* The NIMG source images of the seed, encoded. */
static struct cpuk_enc *make_images(const struct opts *o)
{
    struct cpuk_enc *imgs = xmalloc(sizeof *imgs * NIMG);
    unsigned char *rgb = xmalloc((size_t)o->img_px * o->img_px * 3);

    for (int i = 0; i < NIMG; i++) {
        cpuk_synth(o->seed, i, o->img_px, o->img_px, rgb);
        cpuk_encode(rgb, o->img_px, o->img_px, &imgs[i]);
    }
    free(rgb);
    return imgs;
}

static void free_images(struct cpuk_enc *imgs)
{
    for (int i = 0; i < NIMG; i++)
        cpuk_enc_free(&imgs[i]);
    free(imgs);
}

/* ---- input pipeline: a batch, and a bounded queue filled by a thread ---- */

struct batch {
    float *x;    /* batch x in_dim */
    int *label;  /* batch */
};

struct loader {
    const struct opts *o;
    int in_dim;
    uint32_t next_sample;        /* sample counter: the seed of the next sample */
    const struct cpuk_enc *imgs; /* the source images */
    struct cpuk_scratch scr;     /* the decoded image */
    /* queue of prefetch batches (thread mode) */
    struct batch *q;
    int qcap, qhead, qlen, stop;
    pthread_mutex_t mu;
    pthread_cond_t not_full, not_empty;
    pthread_t th;
};

static void load_batch(struct loader *l, struct batch *b)
{
    for (int i = 0; i < l->o->batch; i++) {
        uint32_t id = l->next_sample++;
        prep_sample(id, l->o, l->imgs, &l->scr, b->x + (size_t)i * l->in_dim);
        b->label[i] = (int)(id % (uint32_t)l->o->classes);
    }
}

static void *loader_main(void *arg)
{
    struct loader *l = arg;
    for (;;) {
        struct batch *b;
        pthread_mutex_lock(&l->mu);
        while (l->qlen == l->qcap && !l->stop)
            pthread_cond_wait(&l->not_full, &l->mu);
        if (l->stop) {
            pthread_mutex_unlock(&l->mu);
            break;
        }
        b = &l->q[(l->qhead + l->qlen) % l->qcap];
        pthread_mutex_unlock(&l->mu);
        load_batch(l, b); /* the slot is ours until qlen counts it */
        pthread_mutex_lock(&l->mu);
        l->qlen++;
        pthread_cond_signal(&l->not_empty);
        pthread_mutex_unlock(&l->mu);
    }
    return NULL;
}

/* Copy the next batch into `dst`: inline load, or take it from the queue. */
static void loader_get(struct loader *l, struct batch *dst)
{
    struct batch *b;
    if (l->o->loader_workers == 0) {
        load_batch(l, dst);
        return;
    }
    pthread_mutex_lock(&l->mu);
    while (l->qlen == 0)
        pthread_cond_wait(&l->not_empty, &l->mu);
    b = &l->q[l->qhead];
    pthread_mutex_unlock(&l->mu);
    memcpy(dst->x, b->x, sizeof(float) * (size_t)l->o->batch * l->in_dim);
    memcpy(dst->label, b->label, sizeof(int) * (size_t)l->o->batch);
    pthread_mutex_lock(&l->mu);
    l->qhead = (l->qhead + 1) % l->qcap;
    l->qlen--;
    pthread_cond_signal(&l->not_full);
    pthread_mutex_unlock(&l->mu);
}

static void batch_alloc(struct batch *b, int batch, int in_dim)
{
    b->x = xmalloc(sizeof(float) * (size_t)batch * in_dim);
    b->label = xmalloc(sizeof(int) * (size_t)batch);
}

static void loader_start(struct loader *l, const struct opts *o, const struct cpuk_enc *imgs, int in_dim,
                         uint32_t first)
{
    memset(l, 0, sizeof *l);
    l->o = o;
    l->in_dim = in_dim;
    l->next_sample = first;
    l->imgs = imgs;
    if (o->loader_workers == 0)
        return;
    l->qcap = o->prefetch > 0 ? o->prefetch : 1;
    l->q = xmalloc(sizeof *l->q * (size_t)l->qcap);
    for (int i = 0; i < l->qcap; i++)
        batch_alloc(&l->q[i], o->batch, in_dim);
    pthread_mutex_init(&l->mu, NULL);
    pthread_cond_init(&l->not_full, NULL);
    pthread_cond_init(&l->not_empty, NULL);
    pthread_create(&l->th, NULL, loader_main, l);
}

static void loader_stop(struct loader *l)
{
    if (l->o->loader_workers > 0) {
        pthread_mutex_lock(&l->mu);
        l->stop = 1;
        pthread_cond_signal(&l->not_full);
        pthread_mutex_unlock(&l->mu);
        pthread_join(l->th, NULL);
        for (int i = 0; i < l->qcap; i++) {
            free(l->q[i].x);
            free(l->q[i].label);
        }
        free(l->q);
        pthread_mutex_destroy(&l->mu);
        pthread_cond_destroy(&l->not_full);
        pthread_cond_destroy(&l->not_empty);
    }
    free(l->scr.rgb);
}

/* ---- the model: an MLP in one flat parameter array ---- */

struct mlp {
    int nl;          /* weight layers = hidden layers + 1 */
    int *dim;        /* nl+1 sizes: dim[0] input, dim[nl] classes */
    size_t *woff;    /* offset of layer i's weights (dim[i+1] x dim[i]) */
    size_t *boff;    /* offset of layer i's bias (dim[i+1]) */
    size_t nparams;
    float **act;     /* nl+1 activations, batch x dim[i] */
    float **dact;    /* gradients of the activations */
};

static void mlp_init(struct mlp *m, const struct opts *o, int in_dim, float *params, size_t *np)
{
    size_t off = 0;
    m->nl = o->layers + 1;
    m->dim = xmalloc(sizeof(int) * (size_t)(m->nl + 1));
    m->woff = xmalloc(sizeof(size_t) * (size_t)m->nl);
    m->boff = xmalloc(sizeof(size_t) * (size_t)m->nl);
    m->dim[0] = in_dim;
    for (int i = 1; i < m->nl; i++)
        m->dim[i] = o->width;
    m->dim[m->nl] = o->classes;
    for (int i = 0; i < m->nl; i++) {
        m->woff[i] = off;
        off += (size_t)m->dim[i + 1] * m->dim[i];
        m->boff[i] = off;
        off += (size_t)m->dim[i + 1];
    }
    m->nparams = off;
    *np = off;
    if (params) {
        uint32_t s = 12345;
        for (int i = 0; i < m->nl; i++) {
            float scale = sqrtf(2.0f / (float)m->dim[i]);
            for (size_t j = 0; j < (size_t)m->dim[i + 1] * m->dim[i]; j++)
                params[m->woff[i] + j] = scale * ((float)(rng_next(&s) % 2001) / 1000.0f - 1.0f);
            memset(params + m->boff[i], 0, sizeof(float) * (size_t)m->dim[i + 1]);
        }
    }
    m->act = xmalloc(sizeof(float *) * (size_t)(m->nl + 1));
    m->dact = xmalloc(sizeof(float *) * (size_t)(m->nl + 1));
    for (int i = 0; i <= m->nl; i++) {
        m->act[i] = xmalloc(sizeof(float) * (size_t)o->batch * m->dim[i]);
        m->dact[i] = xmalloc(sizeof(float) * (size_t)o->batch * m->dim[i]);
    }
}

static void mlp_free(struct mlp *m)
{
    for (int i = 0; i <= m->nl; i++) {
        free(m->act[i]);
        free(m->dact[i]);
    }
    free(m->act);
    free(m->dact);
    free(m->dim);
    free(m->woff);
    free(m->boff);
}

/* Forward FLOPs per sample: 2 per weight (multiply and add). */
static double mlp_fwd_flops(const struct mlp *m)
{
    double f = 0;
    for (int i = 0; i < m->nl; i++)
        f += 2.0 * m->dim[i] * m->dim[i + 1];
    return f;
}

/* Forward and backward of one batch; returns the mean loss; fills grad. */
static double mlp_step(struct mlp *m, int batch, const float *w, const struct batch *b, float *grad)
{
    int nl = m->nl, k = m->dim[nl];
    double loss = 0;

    memcpy(m->act[0], b->x, sizeof(float) * (size_t)batch * m->dim[0]);
    for (int i = 0; i < nl; i++) {
        int din = m->dim[i], dout = m->dim[i + 1];
        float *y = m->act[i + 1];
        for (int r = 0; r < batch; r++)
            memcpy(y + (size_t)r * dout, w + m->boff[i], sizeof(float) * (size_t)dout);
        /* y (batch x dout) += x (batch x din) * W^T (din x dout) */
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, batch, dout, din, 1.0f, m->act[i], din,
                    w + m->woff[i], din, 1.0f, y, dout);
        if (i < nl - 1)
            for (size_t j = 0; j < (size_t)batch * dout; j++)
                if (y[j] < 0)
                    y[j] = 0;
    }
    /* softmax cross-entropy: dlogits = (softmax - onehot) / batch */
    for (int r = 0; r < batch; r++) {
        float *z = m->act[nl] + (size_t)r * k, *dz = m->dact[nl] + (size_t)r * k;
        float mx = z[0];
        double sum = 0;
        for (int j = 1; j < k; j++)
            mx = z[j] > mx ? z[j] : mx;
        for (int j = 0; j < k; j++)
            sum += exp((double)(z[j] - mx));
        for (int j = 0; j < k; j++)
            dz[j] = (float)(exp((double)(z[j] - mx)) / sum) / (float)batch;
        dz[b->label[r]] -= 1.0f / (float)batch;
        loss += -((double)(z[b->label[r]] - mx) - log(sum));
    }
    for (int i = nl - 1; i >= 0; i--) {
        int din = m->dim[i], dout = m->dim[i + 1];
        float *dy = m->dact[i + 1];
        /* dW (dout x din) = dy^T (dout x batch) * x (batch x din) */
        cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, dout, din, batch, 1.0f, dy, dout,
                    m->act[i], din, 0.0f, grad + m->woff[i], din);
        for (int j = 0; j < dout; j++) {
            float s = 0;
            for (int r = 0; r < batch; r++)
                s += dy[(size_t)r * dout + j];
            grad[m->boff[i] + j] = s;
        }
        if (i > 0) {
            float *dx = m->dact[i];
            /* dx (batch x din) = dy (batch x dout) * W (dout x din), through ReLU */
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, batch, din, dout, 1.0f, dy, dout,
                        w + m->woff[i], din, 0.0f, dx, din);
            for (size_t j = 0; j < (size_t)batch * din; j++)
                if (m->act[i][j] <= 0)
                    dx[j] = 0;
        }
    }
    return loss / batch;
}

/* ---- gradient sharing ---- */

#define LR 0.01f

/* Ring all-reduce (sum) of n floats over comm: reduce-scatter, all-gather. */
static void ring_allreduce(float *g, size_t n, float *tmp, MPI_Comm comm)
{
    int k, r;
    MPI_Comm_size(comm, &k);
    MPI_Comm_rank(comm, &r);
    if (k == 1)
        return;
    size_t base = n / (size_t)k, rem = n % (size_t)k;
#define CH_OFF(c) ((size_t)(c) * base + ((size_t)(c) < rem ? (size_t)(c) : rem))
#define CH_LEN(c) (base + ((size_t)(c) < rem ? 1 : 0))
    int right = (r + 1) % k, left = (r - 1 + k) % k;
    for (int s = 0; s < k - 1; s++) {
        int sc = (r - s + k) % k, rc = (r - s - 1 + k) % k;
        MPI_Sendrecv(g + CH_OFF(sc), (int)CH_LEN(sc), MPI_FLOAT, right, 1, tmp, (int)CH_LEN(rc),
                     MPI_FLOAT, left, 1, comm, MPI_STATUS_IGNORE);
        for (size_t j = 0; j < CH_LEN(rc); j++)
            g[CH_OFF(rc) + j] += tmp[j];
    }
    for (int s = 0; s < k - 1; s++) {
        int sc = (r + 1 - s + k) % k, rc = (r - s + k) % k;
        MPI_Sendrecv(g + CH_OFF(sc), (int)CH_LEN(sc), MPI_FLOAT, right, 2, g + CH_OFF(rc),
                     (int)CH_LEN(rc), MPI_FLOAT, left, 2, comm, MPI_STATUS_IGNORE);
    }
#undef CH_OFF
#undef CH_LEN
}

struct buckets {
    int n;          /* buckets */
    size_t *off;    /* first parameter of bucket i (bucket 0 holds the last parameters) */
    size_t *len;    /* parameters in bucket i */
};

/* Buckets in the order backward releases gradients: from the end of the array. */
static void buckets_make(struct buckets *bk, size_t nparams, double bucket_mb)
{
    size_t per = (size_t)(bucket_mb * DT_MIB / sizeof(float));
    if (per < 1)
        per = 1;
    bk->n = (int)((nparams + per - 1) / per);
    bk->off = xmalloc(sizeof(size_t) * (size_t)bk->n);
    bk->len = xmalloc(sizeof(size_t) * (size_t)bk->n);
    for (int i = 0; i < bk->n; i++) {
        size_t end = nparams - (size_t)i * per;
        size_t len = end < per ? end : per;
        bk->off[i] = end - len;
        bk->len[i] = len;
    }
}

/* Shard j of P of a bucket of len values. */
static void shard_of(size_t len, int P, int j, size_t *off, size_t *n)
{
    size_t base = len / (size_t)P, rem = len % (size_t)P;
    *off = (size_t)j * base + ((size_t)j < rem ? (size_t)j : rem);
    *n = base + ((size_t)j < rem ? 1 : 0);
}

/* A parameter server: owns shard `sid` of every bucket; serves until every
 * worker has pushed steps_total x buckets shards. */
static void ps_serve(const struct opts *o, int sid, int nworkers, const float *w0, size_t nparams,
                     const struct buckets *bk)
{
    float *w = xmalloc(sizeof(float) * nparams), *acc = xmalloc(sizeof(float) * nparams);
    float *in = xmalloc(sizeof(float) * nparams);
    MPI_Request *reqs = xmalloc(sizeof(MPI_Request) * (size_t)nworkers);
    int total = o->steps + o->warmup;
    memcpy(w, w0, sizeof(float) * nparams);

    if (o->strat == ST_PS_SYNC) {
        for (int s = 0; s < total; s++)
            for (int b = 0; b < bk->n; b++) {
                size_t off, n;
                shard_of(bk->len[b], o->servers, sid, &off, &n);
                off += bk->off[b];
                memset(acc, 0, sizeof(float) * n);
                for (int i = 0; i < nworkers; i++) {
                    MPI_Recv(in, (int)n, MPI_FLOAT, MPI_ANY_SOURCE, b, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    for (size_t j = 0; j < n; j++)
                        acc[j] += in[j];
                }
                for (size_t j = 0; j < n; j++)
                    w[off + j] -= LR * acc[j] / (float)nworkers;
                /* every worker's pull at once: they share the server's link */
                for (int i = 0; i < nworkers; i++)
                    MPI_Isend(w + off, (int)n, MPI_FLOAT, i, b, MPI_COMM_WORLD, &reqs[i]);
                MPI_Waitall(nworkers, reqs, MPI_STATUSES_IGNORE);
            }
    } else {
        long msgs = (long)total * bk->n * nworkers;
        for (long m = 0; m < msgs; m++) {
            MPI_Status st;
            size_t off, n;
            int b;
            MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            b = st.MPI_TAG;
            shard_of(bk->len[b], o->servers, sid, &off, &n);
            off += bk->off[b];
            MPI_Recv(in, (int)n, MPI_FLOAT, st.MPI_SOURCE, b, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (size_t j = 0; j < n; j++)
                w[off + j] -= LR * in[j] / (float)nworkers;
            MPI_Send(w + off, (int)n, MPI_FLOAT, st.MPI_SOURCE, b, MPI_COMM_WORLD);
        }
    }
    free(w);
    free(acc);
    free(in);
    free(reqs);
}

/* A worker's push and pull of bucket b to every server. */
static void ps_exchange(const struct opts *o, int nworkers, float *w, const float *g,
                        const struct buckets *bk, int b)
{
    MPI_Request req[2 * 64];
    int nr = 0;
    for (int j = 0; j < o->servers; j++) {
        size_t off, n;
        shard_of(bk->len[b], o->servers, j, &off, &n);
        off += bk->off[b];
        MPI_Irecv(w + off, (int)n, MPI_FLOAT, nworkers + j, b, MPI_COMM_WORLD, &req[nr++]);
        MPI_Isend(g + off, (int)n, MPI_FLOAT, nworkers + j, b, MPI_COMM_WORLD, &req[nr++]);
    }
    MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
}

/* ---- flags ---- */

static int parse_int(const char *flag, const char *v, int lo, int hi, int *out)
{
    char *end;
    long x;
    errno = 0;
    x = strtol(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) {
        fprintf(stderr, "trainer: %s: expected an integer from %d to %d, found \"%s\"\n", flag, lo, hi, v);
        return -1;
    }
    *out = (int)x;
    return 0;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
    *o = (struct opts){.batch = 32, .width = 256, .layers = 2, .classes = 10, .img_px = 40,
                       .crop_px = 32, .decode_passes = 1, .steps = 20, .warmup = 3,
                       .strat = ST_RING, .servers = 1, .bucket_mb = 25, .loader_workers = 0,
                       .prefetch = 2, .seed = 1, .measure_loader = 0};
    for (int i = 1; i < argc; i++) {
        const char *f = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int rc = 0, seed;
        if (!v) {
            fprintf(stderr, "trainer: %s: expected a value or an unknown flag\n", f);
            return -1;
        }
        i++;
        if (!strcmp(f, "--batch")) rc = parse_int(f, v, 1, 1 << 20, &o->batch);
        else if (!strcmp(f, "--width")) rc = parse_int(f, v, 1, 1 << 16, &o->width);
        else if (!strcmp(f, "--layers")) rc = parse_int(f, v, 0, 64, &o->layers);
        else if (!strcmp(f, "--classes")) rc = parse_int(f, v, 2, 1 << 16, &o->classes);
        else if (!strcmp(f, "--img")) rc = parse_int(f, v, 1, 4096, &o->img_px);
        else if (!strcmp(f, "--crop")) rc = parse_int(f, v, 1, 4096, &o->crop_px);
        else if (!strcmp(f, "--decode-passes")) rc = parse_int(f, v, 1, 100000, &o->decode_passes);
        else if (!strcmp(f, "--steps")) rc = parse_int(f, v, 1, 1000000, &o->steps);
        else if (!strcmp(f, "--warmup")) rc = parse_int(f, v, 0, 1000000, &o->warmup);
        else if (!strcmp(f, "--servers")) rc = parse_int(f, v, 1, 64, &o->servers);
        else if (!strcmp(f, "--loader-workers")) rc = parse_int(f, v, 0, 1, &o->loader_workers);
        else if (!strcmp(f, "--prefetch")) rc = parse_int(f, v, 1, 1000, &o->prefetch);
        else if (!strcmp(f, "--measure-loader")) rc = parse_int(f, v, 1, 1 << 24, &o->measure_loader);
        else if (!strcmp(f, "--seed")) {
            rc = parse_int(f, v, 0, 1 << 30, &seed);
            o->seed = (unsigned)seed;
        } else if (!strcmp(f, "--bucket-mb")) {
            char *end;
            o->bucket_mb = strtod(v, &end);
            if (end == v || *end || !(o->bucket_mb > 0 && o->bucket_mb <= 65536)) {
                fprintf(stderr, "trainer: --bucket-mb: expected a number in (0, 65536], found \"%s\"\n", v);
                rc = -1;
            }
        } else if (!strcmp(f, "--strategy")) {
            if (!strcmp(v, "none")) o->strat = ST_NONE;
            else if (!strcmp(v, "ring")) o->strat = ST_RING;
            else if (!strcmp(v, "ps_sync")) o->strat = ST_PS_SYNC;
            else if (!strcmp(v, "ps_async")) o->strat = ST_PS_ASYNC;
            else {
                fprintf(stderr, "trainer: --strategy: expected one of none, ring, ps_sync, ps_async, found \"%s\"\n", v);
                rc = -1;
            }
        } else {
            fprintf(stderr, "trainer: %s: unknown flag\n", f);
            rc = -1;
        }
        if (rc)
            return -1;
    }
    if (o->crop_px > o->img_px) {
        fprintf(stderr, "trainer: --crop: expected at most --img (%d), found \"%d\"\n", o->img_px, o->crop_px);
        return -1;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile(const double *sorted, int n, double q)
{
    double pos = q * (n - 1);
    int i = (int)floor(pos);
    if (i >= n - 1)
        return sorted[n - 1];
    return sorted[i] + (pos - i) * (sorted[i + 1] - sorted[i]);
}

/* The spread of sorted step times, robust to a machine's bursts: 1.4826 x
 * the median absolute deviation over the median (0 when the median is 0). */
static double robust_cv(const double *sorted, int n)
{
    double med = quantile(sorted, n, 0.5), mad, *dev = xmalloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++)
        dev[i] = fabs(sorted[i] - med);
    qsort(dev, (size_t)n, sizeof(double), cmp_double);
    mad = quantile(dev, n, 0.5);
    free(dev);
    return med > 0 ? 1.4826 * mad / med : 0;
}

int main(int argc, char **argv)
{
    struct opts o;
    int rank, size, nworkers, rc = 0;
    int in_dim;
    struct cpuk_enc *imgs;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (parse_opts(argc, argv, &o)) {
        MPI_Finalize();
        return 2;
    }
    in_dim = o.crop_px * o.crop_px * 3;

    imgs = make_images(&o);
    if (o.measure_loader > 0) {
        float *x = xmalloc(sizeof(float) * (size_t)in_dim);
        struct cpuk_scratch scr = {NULL, 0};
        double t0, t1;
        int warm = o.measure_loader / 10 + 1;
        for (int i = 0; i < warm; i++)
            prep_sample((uint32_t)i, &o, imgs, &scr, x);
        t0 = now_s();
        for (int i = 0; i < o.measure_loader; i++)
            prep_sample((uint32_t)(i + warm), &o, imgs, &scr, x);
        t1 = now_s();
        if (rank == 0)
            printf("{\"loader_s_per_sample\": %.9g, \"samples\": %d}\n", (t1 - t0) / o.measure_loader,
                   o.measure_loader);
        free(scr.rgb);
        free(x);
        free_images(imgs);
        MPI_Finalize();
        return 0;
    }

    if (o.strat == ST_PS_SYNC || o.strat == ST_PS_ASYNC) {
        if (size <= o.servers) {
            if (rank == 0)
                fprintf(stderr, "trainer: --servers: expected fewer than the %d ranks, found \"%d\"\n", size, o.servers);
            MPI_Finalize();
            return 2;
        }
        nworkers = size - o.servers;
    } else {
        nworkers = size;
    }
    if (o.strat == ST_NONE && size != 1) {
        if (rank == 0)
            fprintf(stderr, "trainer: --strategy none runs on one rank, found %d ranks\n", size);
        MPI_Finalize();
        return 2;
    }

    {
        struct mlp m;
        size_t np;
        float *w, *g, *tmp;
        struct buckets bk;
        MPI_Comm wcomm;
        int is_worker = rank < nworkers, total = o.steps + o.warmup;
        double *step_s = xmalloc(sizeof(double) * (size_t)total);
        double sum_load = 0, sum_comp = 0, sum_comm = 0, sum_opt = 0, loss = 0;

        mlp_init(&m, &o, in_dim, NULL, &np);
        w = xmalloc(sizeof(float) * np);
        g = xmalloc(sizeof(float) * np);
        tmp = xmalloc(sizeof(float) * (np / (size_t)nworkers + 1));
        mlp_free(&m);
        mlp_init(&m, &o, in_dim, w, &np);
        buckets_make(&bk, np, o.bucket_mb);
        MPI_Comm_split(MPI_COMM_WORLD, is_worker, rank, &wcomm);

        if (!is_worker) {
            ps_serve(&o, rank - nworkers, nworkers, w, np, &bk);
        } else {
            struct loader l;
            struct batch b;
            batch_alloc(&b, o.batch, in_dim);
            loader_start(&l, &o, imgs, in_dim, (uint32_t)rank * 100000000u + o.seed);
            if (o.strat != ST_PS_ASYNC)
                MPI_Barrier(wcomm);
            for (int s = 0; s < total; s++) {
                double t0 = now_s(), t1, t2, t3, t4;
                loader_get(&l, &b);
                t1 = now_s();
                loss = mlp_step(&m, o.batch, w, &b, g);
                t2 = now_s();
                if (o.strat == ST_RING) {
                    for (int i = 0; i < bk.n; i++)
                        ring_allreduce(g + bk.off[i], bk.len[i], tmp, wcomm);
                } else if (o.strat == ST_PS_SYNC || o.strat == ST_PS_ASYNC) {
                    for (int i = 0; i < bk.n; i++)
                        ps_exchange(&o, nworkers, w, g, &bk, i);
                }
                t3 = now_s();
                if (o.strat == ST_RING || o.strat == ST_NONE) {
                    float scale = LR / (float)nworkers;
                    for (size_t j = 0; j < np; j++)
                        w[j] -= scale * g[j];
                }
                t4 = now_s();
                step_s[s] = t4 - t0;
                if (s >= o.warmup) {
                    sum_load += t1 - t0;
                    sum_comp += t2 - t1;
                    sum_comm += t3 - t2;
                    sum_opt += t4 - t3;
                    if (rank == 0)
                        printf("step %d %.3f ms (load %.3f, compute %.3f, comm %.3f, optim %.3f)\n",
                               s - o.warmup, 1e3 * (t4 - t0), 1e3 * (t1 - t0), 1e3 * (t2 - t1),
                               1e3 * (t3 - t2), 1e3 * (t4 - t3));
                }
            }
            loader_stop(&l);
            free(b.x);
            free(b.label);
        }

        /* Summary over the workers: the mean step of each worker, averaged
         * (synchronous workers agree; asynchronous ones may differ). */
        {
            int n = o.steps;
            double mine[5] = {0}, all[5] = {0};
            if (is_worker) {
                double *v = step_s + o.warmup;
                for (int i = 0; i < n; i++)
                    mine[0] += v[i];
                mine[0] /= n;
                mine[1] = sum_load / n;
                mine[2] = sum_comp / n;
                mine[3] = sum_comm / n;
                mine[4] = sum_opt / n;
            }
            MPI_Reduce(mine, all, 5, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
            if (rank == 0) {
                double *v = step_s + o.warmup;
                qsort(v, (size_t)n, sizeof(double), cmp_double);
                printf("{\"ranks\": %d, \"workers\": %d, \"params\": %zu, \"fwd_flops_per_sample\": %.6g, "
                       "\"buckets\": %d, \"steps\": %d, \"mean_step_s\": %.6g, \"p50_step_s\": %.6g, "
                       "\"p95_step_s\": %.6g, \"load_s\": %.6g, \"compute_s\": %.6g, \"comm_s\": %.6g, "
                       "\"optim_s\": %.6g, \"cv_step\": %.6g, \"loss\": %.6g}\n",
                       size, nworkers, np, mlp_fwd_flops(&m), bk.n, n, all[0] / nworkers,
                       quantile(v, n, 0.5), quantile(v, n, 0.95), all[1] / nworkers,
                       all[2] / nworkers, all[3] / nworkers, all[4] / nworkers, robust_cv(v, n), loss);
            }
        }
        free(step_s);
        free(w);
        free(g);
        free(tmp);
        free(bk.off);
        free(bk.len);
        mlp_free(&m);
        MPI_Comm_free(&wcomm);
    }
    free_images(imgs);
    MPI_Finalize();
    return rc;
}
