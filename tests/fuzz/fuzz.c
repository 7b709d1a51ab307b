/*
 * fuzz.c - the fuzz targets' shared scratch files and promise checks
 * (fuzz.h).
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../base/text.h"

#define NSLOT 4

static char dir[4096], scratch[NSLOT][4200];

static void remove_scratch(void)
{
    for (int i = 0; i < NSLOT; i++)
        if (scratch[i][0])
            unlink(scratch[i]);
    rmdir(dir);
}

const char *fuzz_scratch(int slot, const char *name)
{
    const char *tmp = getenv("TMPDIR");

    if (slot < 0 || slot >= NSLOT)
        abort();
    if (scratch[slot][0])
        return scratch[slot];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s/dtplan-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir)) {
            perror("fuzz: mkdtemp");
            abort();
        }
        atexit(remove_scratch);
    }
    snprintf(scratch[slot], sizeof scratch[slot], "%s/%s", dir, name);
    return scratch[slot];
}

char *fuzz_read(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, got;

    *n = 0;
    if (!f)
        return NULL;
    do {
        if (*n + 4096 > cap) {
            cap = 2 * cap + 4096;
            buf = realloc(buf, cap);
            if (!buf)
                abort();
        }
        got = fread(buf + *n, 1, cap - *n, f);
        *n += got;
    } while (got > 0);
    fclose(f);
    return buf;
}

void fuzz_write(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");

    if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f) != 0) {
        perror("fuzz: writing the scratch file");
        abort();
    }
}

void fuzz_check_msg(const char *what, const char *msg)
{
    if (!msg[0]) {
        fprintf(stderr, "fuzz: %s failed with an empty message\n", what);
        abort();
    }
    if (!text_ok(msg)) {
        fprintf(stderr, "fuzz: %s: the message is not one printable line: %s\n", what, msg);
        abort();
    }
}

void fuzz_check_report(const char *what, const char *text, size_t n)
{
    const unsigned char *u = (const unsigned char *)text;
    size_t i = 0, k;

    while (i < n) {
        if (u[i] == '\n' || u[i] == '\t') {
            i++;
            continue;
        }
        k = text_char_len(u + i, n - i);
        if (!k) {
            fprintf(stderr, "fuzz: %s: byte 0x%02x at offset %zu is a control character or "
                    "not UTF-8\n", what, u[i], i);
            abort();
        }
        i += k;
    }
}

FILE *fuzz_open_report(char **buf, size_t *len)
{
    FILE *f = open_memstream(buf, len);

    if (!f) {
        perror("fuzz: open_memstream");
        abort();
    }
    return f;
}

void fuzz_close_report(const char *what, FILE *f, char **buf, size_t *len)
{
    fclose(f);
    fuzz_check_report(what, *buf, *len);
    free(*buf);
    *buf = NULL;
    *len = 0;
}
