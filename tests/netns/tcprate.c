/*
 * tcprate.c - a plain TCP transfer that gives the effective rate of an
 * emulated link, the reference the netns suite holds the MPI fits to.
 *
 *   tcprate recv PORT                receive one connection until EOF, ack
 *                                    it, print the steady rate in B/s
 *   tcprate send IP PORT BYTES       send BYTES, wait for the ack
 *
 * The receiver's clock starts once the first RATE_SKIP bytes have arrived
 * (connection set-up and slow start are behind it) and stops at EOF: the
 * rate a long transfer sustains on the link.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define RATE_SKIP (2.0 * 1024 * 1024)

static int do_recv(int port)
{
    struct sockaddr_in a;
    static char buf[1 << 16];
    int one = 1, s = socket(AF_INET, SOCK_STREAM, 0), c;
    ssize_t n;
    double got = 0, t0 = 0, at0 = 0;

    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) || listen(s, 1)) {
        perror("tcprate recv");
        return 1;
    }
    c = accept(s, NULL, NULL);
    if (c < 0) {
        perror("tcprate accept");
        return 1;
    }
    while ((n = read(c, buf, sizeof buf)) > 0) {
        got += (double)n;
        if (t0 == 0 && got >= RATE_SKIP) {
            t0 = now_s();
            at0 = got;
        }
    }
    if (t0 > 0 && got > at0)
        printf("%.0f\n", (got - at0) / (now_s() - t0));
    if (write(c, "k", 1) != 1)
        perror("tcprate ack");
    close(c);
    close(s);
    return 0;
}

static int do_send(const char *ip, int port, double bytes)
{
    struct sockaddr_in a;
    static char buf[1 << 16];
    double left = bytes;
    int s = -1;
    char ack;

    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    if (inet_pton(AF_INET, ip, &a.sin_addr) != 1) {
        fprintf(stderr, "tcprate: bad address %s\n", ip);
        return 1;
    }
    /* The receiver may still be starting: retry for up to 5 s. */
    for (int i = 0; i < 100; i++) {
        s = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(s, (struct sockaddr *)&a, sizeof a) == 0)
            break;
        close(s);
        s = -1;
        nanosleep(&(struct timespec){0, 50000000}, NULL);
    }
    if (s < 0) {
        fprintf(stderr, "tcprate: cannot connect to %s:%d\n", ip, port);
        return 1;
    }
    while (left > 0) {
        size_t n = left < sizeof buf ? (size_t)left : sizeof buf;
        ssize_t w = write(s, buf, n);
        if (w <= 0) {
            perror("tcprate send");
            return 1;
        }
        left -= (double)w;
    }
    shutdown(s, SHUT_WR);
    if (read(s, &ack, 1) != 1) {
        fprintf(stderr, "tcprate: no ack\n");
        return 1;
    }
    close(s);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "recv"))
        return do_recv(atoi(argv[2]));
    if (argc == 5 && !strcmp(argv[1], "send"))
        return do_send(argv[2], atoi(argv[3]), atof(argv[4]));
    fprintf(stderr, "usage: tcprate recv PORT | tcprate send IP PORT BYTES\n");
    return 2;
}
