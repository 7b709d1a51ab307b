/*
 * offload.c - activation offloading to host memory (offload.h).
 */
#include "offload.h"

#include <math.h>

#include "../base/xmem.h"
#include "../catalog/shape.h"
#include "memory.h"
#include "../scenario/scenario.h"

void offload_waits(int layers, int k, double tf, double tb, double copy_s, double *fwd,
                   double *bwd)
{
    double t = 0, side = 0, *done;

    *fwd = *bwd = 0;
    if (k <= 0 || k >= layers || !(copy_s > 0))
        return;
    done = x_malloc((size_t)k * sizeof *done);
    /* forward: layer j's copy out queues on the side stream as the layer
     * ends; layer L - k + i waits for layer i's */
    for (int j = 0; j < layers; j++) {
        int i = j - (layers - k);
        if (i >= 0 && done[i] > t) {
            *fwd += done[i] - t;
            t = done[i];
        }
        t += tf;
        if (j < k) {
            side = fmax(side, t) + copy_s;
            done[j] = side;
        }
    }
    /* backward, last layer first: the end of layer L - k + i's backward
     * frees the room layer i's copy back needs; layer i waits for it */
    for (int j = layers - 1; j >= 0; j--) {
        if (j < k && done[j] > t) {
            *bwd += done[j] - t;
            t = done[j];
        }
        t += tb;
        if (j >= layers - k) {
            side = fmax(side, t) + copy_s;
            done[j - (layers - k)] = side;
        }
    }
    x_free(done);
}

void offload_of(const struct scenario *sc, double fwd_s, double bwd_s, double link_Bps,
                double *fwd, double *bwd)
{
    const struct cat_model *m = sc->workload.model;

    *fwd = *bwd = 0;
    if (sc->workload.offload_layers <= 0 || !shape_known(m) || m->layers < 2 || !(link_Bps > 0))
        return;
    offload_waits(m->layers, sc->workload.offload_layers, fwd_s / m->layers, bwd_s / m->layers,
                  memory_layer_bytes(sc) / link_Bps, fwd, bwd);
}
