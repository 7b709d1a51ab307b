/*
 * interrupt.c - Ctrl-C during a calibration (interrupt.h): the progress
 * line ends with how to resume, and the run ends as SIGINT ends it.
 */
#define _POSIX_C_SOURCE 200809L
#include "interrupt.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* What an interrupted run prints (rank 0, once a checkpoint file exists):
 * the progress line ended with how to go on.  Composed before the handler
 * is installed, so that the handler only writes it (async-signal-safe). */
static char intr_msg[1024];
static size_t intr_len;

static void on_interrupt(int sig)
{
    ssize_t w = write(STDERR_FILENO, intr_msg, intr_len);

    (void)w;
    signal(sig, SIG_DFL);
    raise(sig);     /* delivered on return: the status of a run ended by SIGINT */
}

void interrupt_catch(int tty, const char *partial)
{
    struct sigaction sa, old;
    int n;

    n = snprintf(intr_msg, sizeof intr_msg, "%sinterrupted: run the same command with --resume "
                 "to continue from %s\n", tty ? "  " : "dtplan calibrate: ", partial);
    if (n < 0 || (size_t)n >= sizeof intr_msg) /* a path too long to quote: the advice alone */
        n = snprintf(intr_msg, sizeof intr_msg, "%sinterrupted: run the same command with "
                     "--resume to continue\n", tty ? "  " : "dtplan calibrate: ");
    intr_len = (size_t)n;
    if (sigaction(SIGINT, NULL, &old) != 0 || old.sa_handler == SIG_IGN)
        return;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}
