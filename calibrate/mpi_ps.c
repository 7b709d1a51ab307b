/*
 * mpi_ps.c - parameter-server push/pull: the last s ranks are servers, the
 * other w = n - s ranks workers.  Each worker splits its S bytes into s
 * shards and pushes shard j to server j; each server sums the w shards it
 * receives (the reduction) and sends the sum back to every worker (pull).
 * Push and pull are sequential, as in a synchronous step.
 *
 * The busiest link direction carries max(S, w S / s) bytes in each of the
 * two phases (a worker's S, or a server's incast of w shards), so the bus
 * factor is 2 max(1, w / s) and busbw equals the link rate when bandwidth
 * bound (BytePS's non-colocated PS: max(M/B, nM/(kB)) each way).
 *
 * The pull overlap: the servers send every worker its shards at once, and
 * how unevenly those streams end is a property of the sender's queue and
 * transport.  A fair queue (fq_codel, Linux's usual default) ends them
 * together; a FIFO lets one stream run ahead, and that worker pushes its
 * next gradients while the others still pull.
 */
#include "mpi_coll.h"

#include "../base/xmem.h"

#define PS_TAG_PUSH 10
#define PS_TAG_PULL 11

static int ps_usable(const struct mpi_bench *b, const char **why)
{
    if (b->servers < 1 || b->servers >= b->size) {
        *why = "needs at least one server and one worker rank";
        return -1;
    }
    return 0;
}

static void ps_shard(size_t count, int s, int j, size_t *off, size_t *len)
{
    size_t base = count / (size_t)s, extra = count % (size_t)s, uj = (size_t)j;
    *off = uj * base + (uj < extra ? uj : extra);
    *len = base + (uj < extra ? 1 : 0);
}

static int ps_worker(struct mpi_bench *b, size_t count, int w)
{
    int s = b->servers, rc = 0;
    MPI_Request *req = x_malloc(sizeof *req * (size_t)s);
    size_t off, len;

    for (int j = 0; j < s; j++) {
        ps_shard(count, s, j, &off, &len);
        MPI_Isend(b->a + off, (int)len, MPI_FLOAT, w + j, PS_TAG_PUSH, b->comm, &req[j]);
    }
    if (mpi_wait(b, s, req))
        rc = -1;
    for (int j = 0; j < s; j++) {
        ps_shard(count, s, j, &off, &len);
        MPI_Irecv(b->a + off, (int)len, MPI_FLOAT, w + j, PS_TAG_PULL, b->comm, &req[j]);
    }
    if (mpi_wait(b, s, req))
        rc = -1;
    x_free(req);
    return rc;
}

static int ps_server(struct mpi_bench *b, size_t count, int w)
{
    MPI_Request *req = x_malloc(sizeof *req * (size_t)w);
    size_t off, len;
    int rc = 0;

    ps_shard(count, b->servers, b->rank - w, &off, &len);
    /* Sum the shards in arrival order; b->c holds one incoming shard. */
    for (size_t i = 0; i < len; i++)
        b->b[i] = 0;
    for (int k = 0; k < w && rc == 0; k++) {
        MPI_Irecv(b->c, (int)len, MPI_FLOAT, MPI_ANY_SOURCE, PS_TAG_PUSH, b->comm, &req[0]);
        if (mpi_wait(b, 1, req))
            rc = -1;
        mpi_sum(b->b, b->c, len);
    }
    for (int k = 0; k < w; k++)
        MPI_Isend(b->b, (int)len, MPI_FLOAT, k, PS_TAG_PULL, b->comm, &req[k]);
    if (mpi_wait(b, w, req))
        rc = -1;
    x_free(req);
    return rc;
}

/* One push/pull, ended as each worker's pull ends: workers that run these
 * back to back step as they would with nothing else to keep them apart. */
static int ps_run_open(struct mpi_bench *b, size_t bytes)
{
    size_t count = bytes / sizeof(float);
    int w = b->size - b->servers;
    return b->rank < w ? ps_worker(b, count, w) : ps_server(b, count, w);
}

/*
 * With two or more workers, an operation ends with a barrier: a worker whose
 * pull ends first would otherwise push the next operation while another
 * still pulls, and the time would mix the link's rate with how unevenly the
 * pulls end, which mpi_ps_open's time against this one measures.
 */
static int ps_run(struct mpi_bench *b, size_t bytes)
{
    int rc = ps_run_open(b, bytes);
    if (b->size - b->servers > 1 && mpi_barrier(b))
        rc = -1;
    return rc;
}

static double ps_bus_factor(const struct mpi_bench *b)
{
    double w = b->size - b->servers, s = b->servers;
    return 2.0 * (w > s ? w / s : 1.0);
}

const struct mpi_coll mpi_ps = {"ps_pushpull", ps_usable, ps_run, ps_bus_factor};
const struct mpi_coll mpi_ps_open = {"ps_pushpull", ps_usable, ps_run_open, ps_bus_factor};
