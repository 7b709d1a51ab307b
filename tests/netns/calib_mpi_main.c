/*
 * calib_mpi_main.c - runs the MPI part of calibrate (calib_mpi_run) under
 * mpirun across emulated hosts, for the netns suite:
 *
 *   mpirun ... calib_mpi_main OUT.json MIN_BYTES MAX_BYTES STEP PS_SERVERS POLL_SLEEP_S
 *
 * Quick mode (1 warm-up, 5 timed iterations) over sizes MIN_BYTES,
 * MIN_BYTES x STEP, ... up to MAX_BYTES.  Rank 0 writes {"rc", "msg", "collectives": [...]} to OUT.
 */
#include <cJSON.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../calibrate/calib.h"

static void progress(void *arg, const char *what, double done)
{
    (void)arg;
    (void)what;
    (void)done;
}

int main(int argc, char **argv)
{
    struct calib_ctx c = {0};
    cJSON *coll = NULL;
    char msg[1024];
    int rc;

    if (argc != 7) {
        fprintf(stderr, "usage: calib_mpi_main OUT.json MIN_BYTES MAX_BYTES STEP PS_SERVERS POLL_SLEEP_S\n");
        return 2;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &c.size);
    c.quick = 1;
    c.seed = 1;
    c.min_bytes = atof(argv[2]);
    c.max_bytes = atof(argv[3]);
    c.step_factor = atof(argv[4]);
    c.ps_servers = atoi(argv[5]);
    c.poll_sleep_s = atof(argv[6]);
    c.progress = progress;
    if (c.rank == 0)
        coll = cJSON_CreateArray();
    rc = calib_mpi_run(&c, coll, msg, sizeof msg);
    if (c.rank == 0) {
        cJSON *doc = cJSON_CreateObject();
        FILE *f = fopen(argv[1], "w");
        char *s;
        cJSON_AddNumberToObject(doc, "rc", rc);
        cJSON_AddStringToObject(doc, "msg", msg);
        cJSON_AddItemToObject(doc, "collectives", coll);
        s = cJSON_Print(doc);
        if (f) {
            fputs(s, f);
            fclose(f);
        }
        if (msg[0])
            fprintf(stderr, "calib_mpi_main: %s\n", msg);
        free(s);
        cJSON_Delete(doc);
    }
    MPI_Finalize();
    return rc == CALIB_ERROR;
}
